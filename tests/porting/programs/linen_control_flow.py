"""Flax's lifted control flow and layer combinators in one small model (ours):

- `nn.while_loop` refining a state with a shared block until a halting score passes a
  threshold or a step budget runs out (a "counters" collection carried through the loop by
  `carry_variables=`; during `init` the body runs once to create the parameters);
- `nn.cond` between a linear and a two-layer expert on a traced predicate (both branches'
  parameters created at `init`), and `nn.switch` among three heads by a traced index, under
  `jax.vmap` of the model over examples (`apply` of one example);
- `nn.remat_scan` of a residual block over `lengths=(2, 3)` (parameters stacked (2, 3, ...));
- `nn.checkpoint` of a block with a static `train` flag (`static_argnums`) and
  `prevent_cse=False`, dropout in training;
- `nn.Sequential` of `Dense`, `nn.PReLU` and a layer returning a tuple that the next layer
  takes as positional arguments.

Trained by jitted SGD steps with `value_and_grad` without the halting loop (reverse-mode
through it is an error, whose first line is checked), evaluated with it by a jitted `vmap`,
mutable counters returned. Checks outputs, counters, halting scores, the errors, parameter
shapes, paths and values after training."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn


class Refine(nn.Module):
    features: int
    max_steps: int = 6

    @nn.compact
    def __call__(self, x):
        def keep_going(module, carry):
            state, halt = carry
            return jnp.logical_and(
                halt < 1.0, module.variables["counters"]["steps"] < self.max_steps
            )

        def step(module, carry):
            state, halt = carry
            steps = module.variable("counters", "steps", lambda: jnp.array(0, jnp.int32))
            steps.value += 1
            state = jnp.tanh(nn.Dense(self.features, name="shared")(state) + x)
            halt = halt + nn.sigmoid(nn.Dense(1, name="halt")(state).sum())
            return state, halt

        carry = (jnp.zeros_like(x), jnp.float32(0.0))
        if self.is_initializing():
            return step(self, carry)
        return nn.while_loop(keep_going, step, self, carry, carry_variables="counters")


class Residual(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + 0.5 * nn.tanh(nn.Dense(x.shape[-1])(x))


class Dropped(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, x, train):
        y = nn.gelu(nn.Dense(x.shape[-1])(x))
        return nn.Dropout(self.rate, deterministic=not train)(y)


class Split(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x[..., :2], x[..., 2:]


class Merge(nn.Module):
    @nn.compact
    def __call__(self, a, b):
        return nn.Dense(3)(a) * nn.Dense(3)(b)


class Gate(nn.Module):
    """An expert chosen by `nn.cond`, then a head chosen by `nn.switch`."""

    create_both: bool = True

    def setup(self):
        self.linear = nn.Dense(3)
        self.expert_in = nn.Dense(6)
        self.expert_out = nn.Dense(3)
        self.heads = [nn.Dense(2) for _ in range(3)]

    def __call__(self, x, head_index):
        def linear(module, v):
            return module.linear(v)

        def mlp(module, v):
            return module.expert_out(nn.relu(module.expert_in(v)))

        if self.is_initializing() and self.create_both:
            linear(self, x), mlp(self, x)
        x = nn.cond(jnp.mean(x) > 0.0, linear, mlp, self, x)
        branches = [lambda module, v, i=i: module.heads[i](v) for i in range(3)]
        if self.is_initializing():
            [branch(self, x) for branch in branches]
        return nn.switch(head_index, branches, self, x)


class Router(nn.Module):
    @nn.compact
    def __call__(self, x, head_index, refine=True):
        x = nn.Sequential([nn.Dense(4), nn.PReLU(negative_slope_init=0.2), Split(), Merge()])(x)
        x = nn.remat_scan(Residual, lengths=(2, 3))()(x)
        x = nn.checkpoint(Dropped, static_argnums=(2,), prevent_cse=False)(0.25)(x, True)
        halt = jnp.float32(0.0)
        if refine:
            x, halt = Refine(3)(x)
        return Gate()(x, head_index), halt


def first_line(error):
    """The error's built-in class and the first line of its message."""
    builtin = next(c for c in type(error).__mro__ if c.__module__ == "builtins")
    return [builtin.__name__, str(error).splitlines()[0]]


def run():
    rs = np.random.RandomState(9)
    xs = jnp.asarray(rs.randn(4, 3), jnp.float32)
    heads = jnp.array([0, 2, 1, 2])
    targets = jnp.asarray(rs.randn(4, 2), jnp.float32)
    model = Router()
    variables = model.init({"params": jax.random.key(0), "dropout": jax.random.key(1)},
                           xs[0], heads[0])  # fmt: skip
    params, counters = variables["params"], variables["counters"]

    def forward(params, counters, x, head, key, refine=True):
        (y, halt), updates = model.apply({"params": params, "counters": counters}, x, head,
                                          refine, rngs={"dropout": key}, mutable=["counters"])  # fmt: skip
        return y, halt, updates["counters"]["Refine_0"]["steps"]

    batched = jax.vmap(forward, in_axes=(None, None, 0, 0, 0, None))
    tx = optax.sgd(0.05, momentum=0.5)
    opt_state = tx.init(params)

    def loss_fn(params, key, refine):
        ys, halts, steps = batched(params, counters, xs, heads, jax.random.split(key, 4), refine)
        return jnp.mean((ys - targets) ** 2), (halts, steps)

    try:  # reverse-mode through the halting loop
        jax.grad(loss_fn, has_aux=True)(params, jax.random.key(0), True)
        grad_error = None
    except ValueError as e:
        grad_error = first_line(e)

    @jax.jit
    def train_step(params, opt_state, key):
        (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, key, False)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, aux

    losses = []
    for i in range(3):
        params, opt_state, loss, _ = train_step(params, opt_state, jax.random.key(i))
        losses.append(loss)
    ys, halts, steps = jax.jit(batched, static_argnums=5)(
        params, counters, xs, heads, jax.random.split(jax.random.key(5), 4), True
    )

    flat = jax.tree_util.tree_flatten_with_path(params)[0]
    try:
        Gate(create_both=False).init(jax.random.key(0), xs[0], 1)
        cond_error = None
    except Exception as e:  # the branches create different parameters
        cond_error = first_line(e)
    return dict(
        cond_error=cond_error,
        init_counters=counters,
        shapes=jax.tree.map(jnp.shape, variables["params"]),
        losses=losses,
        grad_error=grad_error,
        outputs=ys,
        halts=halts,
        steps=steps,
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(p) for p, _ in flat],
    )
