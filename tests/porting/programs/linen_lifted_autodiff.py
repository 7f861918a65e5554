"""Flax Linen's lifted autodiff inside modules and the module helpers the other programs do
not reach (ours, written from Flax's API documentation).

`nn.grad` and `nn.value_and_grad` give an energy module's forces (the gradient wrt its input
with the parameters closed over); `nn.jvp` pushes a tangent of the input and a tangent of the
parameters (`variable_tangents`) through a sublayer; `nn.vjp` returns a sublayer's output and
the pullback to its parameters and inputs, used for a gradient-norm penalty computed inside
the module; `nn.custom_vjp` clips a sublayer's parameter and input cotangents to a maximum
norm. Also `nn.compact_name_scope` (two compact methods of one module with their own
parameter scopes), `nn.nowrap` helpers, `nn.BatchApply`, `nn.SimpleCell` and `nn.ConvLSTMCell`
under `nn.RNN`, `nn.init_with_output`, and activations (`hard_sigmoid`, `hard_silu`,
`hard_tanh`, `celu`, `selu`, `relu6`, `soft_sign`, `standardize`). Checks the values, the
gradients of a training loss through the lifted transforms, and the variable trees."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn


class Energy(nn.Module):
    @nn.compact
    def __call__(self, x):
        return jnp.sum(nn.softplus(nn.Dense(8)(x)) @ jnp.arange(1.0, 9.0))


class ForceField(nn.Module):
    """Forces and energies of a batch of positions from one learned energy."""

    def setup(self):
        self.energy = Energy()

    def __call__(self, positions):
        def energy_fn(mdl, x):
            return mdl(x)

        energy, (force,) = nn.value_and_grad(energy_fn, self.energy, positions)
        (force_again,) = nn.grad(energy_fn, self.energy, positions)
        return energy, -force, jnp.max(jnp.abs(force - force_again))


class Directional(nn.Module):
    """A sublayer's output and its directional derivative along an input and a
    parameter direction."""

    @nn.compact
    def __call__(self, x, t):
        layer = nn.Dense(3)
        y = layer(x)  # creates the parameters before the lifted call
        param_tangent = {"params": jax.tree.map(jnp.ones_like, layer.variables["params"])}
        y2, dy = nn.jvp(lambda mdl, x: jnp.tanh(mdl(x)), layer, (x,), (t,), param_tangent)
        return y, y2, dy


class GradPenalised(nn.Module):
    """A sublayer whose input gradient's norm is returned with its output (a Lipschitz
    penalty computed inside the module by `nn.vjp`)."""

    @nn.compact
    def __call__(self, x):
        layer = nn.Dense(1)
        out, pullback = nn.vjp(lambda mdl, x: jnp.sum(nn.tanh(mdl(x))), layer, x)
        param_grads, input_grads = pullback(jnp.ones_like(out))
        return out, jnp.sum(input_grads**2), param_grads


def clip_tree(tree, max_norm):
    norm = optax.global_norm(tree)
    return jax.tree.map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-9)), tree)


class ClippedDense(nn.Module):
    """A Dense layer whose backward pass clips the parameter and input cotangents."""

    features: int
    max_norm: float = 0.5

    @nn.compact
    def __call__(self, x):
        def apply(mdl, x):
            return mdl(x)

        def forward(mdl, x):
            return nn.vjp(apply, mdl, x)

        def backward(pullback, g):
            param_grads, input_grads = pullback(g)
            return clip_tree(param_grads, self.max_norm), clip_tree(input_grads, self.max_norm)

        clipped = nn.custom_vjp(apply, forward_fn=forward, backward_fn=backward)
        return clipped(nn.Dense(self.features), x)


class AutoEncoder(nn.Module):
    """Two compact methods, each with its own name scope."""

    @nn.compact_name_scope
    def encode(self, x):
        return nn.relu(nn.Dense(4)(x))

    @nn.compact_name_scope
    def decode(self, z):
        return nn.Dense(6)(z)

    @nn.nowrap
    def reconstruction_error(self, x, y):
        return jnp.mean((x - y) ** 2)

    def __call__(self, x):
        y = self.decode(self.encode(x))
        return y, self.reconstruction_error(x, y)


class Recurrent(nn.Module):
    @nn.compact
    def __call__(self, seq, frames):
        simple = nn.RNN(nn.SimpleCell(5, residual=False))(seq)
        conv = nn.RNN(nn.ConvLSTMCell(2, (3, 3)))(frames)
        per_step = nn.BatchApply(nn.Dense(2))(seq)
        return simple, conv, per_step


def run():
    out = {}
    x = jax.random.normal(jax.random.PRNGKey(0), (4, 3))
    ff = ForceField()
    ff_vars = ff.init(jax.random.PRNGKey(1), x)
    energy, force, gap = ff.apply(ff_vars, x)
    out["energy"], out["force"], out["force_gap"] = energy, force, gap
    out["force_tree"] = jax.tree.map(jnp.shape, ff_vars)

    def force_loss(params):
        _, f, _ = ff.apply({"params": params}, x)
        return jnp.sum(f**2)

    out["force_loss_grad"] = jax.grad(force_loss)(ff_vars["params"])

    d = Directional()
    t = jnp.ones_like(x)
    d_vars = d.init(jax.random.PRNGKey(2), x, t)
    out["directional"] = d.apply(d_vars, x, t)
    out["directional_grad"] = jax.grad(lambda p: jnp.sum(d.apply({"params": p}, x, t)[2]))(
        d_vars["params"]
    )

    g = GradPenalised()
    g_vars = g.init(jax.random.PRNGKey(3), x)
    out["penalised"] = g.apply(g_vars, x)

    def penalised_loss(params):
        value, penalty, _ = g.apply({"params": params}, x)
        return value + 0.1 * penalty

    out["penalised_grad"] = jax.grad(penalised_loss)(g_vars["params"])

    c = ClippedDense(2)
    c_vars = c.init(jax.random.PRNGKey(4), x)
    grads = jax.grad(lambda p, x: jnp.sum(c.apply({"params": p}, x) ** 2), argnums=(0, 1))(
        c_vars["params"], x
    )
    out["clipped_grads"] = grads
    out["clipped_norms"] = jnp.stack([optax.global_norm(grads[0]), optax.global_norm(grads[1])])
    out["unclipped"] = jax.grad(
        lambda p: jnp.sum(nn.Dense(2).apply({"params": p["Dense_0"]}, x) ** 2)
    )(c_vars["params"])

    ae = AutoEncoder()
    (recon, err), ae_vars = ae.init_with_output(jax.random.PRNGKey(5), jnp.ones((2, 6)))
    out["ae_tree"] = jax.tree.map(jnp.shape, ae_vars)
    out["ae_init_output"] = (recon, err)
    out["ae_encode"] = ae.apply(ae_vars, jnp.ones((2, 6)), method="encode")

    r = Recurrent()
    seq = jax.random.normal(jax.random.PRNGKey(6), (2, 4, 3))
    frames = jax.random.normal(jax.random.PRNGKey(7), (2, 3, 5, 5, 1))
    r_vars = r.init(jax.random.PRNGKey(8), seq, frames)
    out["recurrent_tree"] = jax.tree.map(jnp.shape, r_vars)
    out["recurrent"] = r.apply(r_vars, seq, frames)

    z = jnp.linspace(-4.0, 4.0, 9)
    out["activations"] = {name: getattr(nn, name)(z) for name in
                          ("hard_sigmoid", "hard_silu", "hard_tanh", "celu", "selu", "relu6",
                           "soft_sign")}  # fmt: skip
    out["standardize"] = nn.standardize(jnp.arange(12.0).reshape(3, 4), axis=-1)
    return out
