"""Quantization-aware training of an MLP classifier and its int8 inference (ours, written in
the style of JAX/Flax quantization code: fake quantization with straight-through estimators,
calibration statistics in a Flax collection, integer matmuls).

`QuantDense` fake-quantizes its kernel per output channel (symmetric, 8 bits) with a
straight-through `round` written by `jax.custom_vjp` (the gradient passes where the value is in
range and is zero where clipping bites), and its input per tensor with the `stop_gradient`
form `x + stop_gradient(q(x) - x)`, against a running absolute maximum kept in a
`quant_stats` collection (an EMA updated while training, `mutable=["quant_stats"]`). After
training, weights and activations are converted to `int8` and the layers multiply by
`lax.dot_general(..., preferred_element_type=jnp.int32)`, rescaled in float32. Also checks
`jnp.round`'s ties to even against `lax.round(ROUND_AWAY_FROM_ZERO)`, `int8` casts of clipped
values, the STE gradients, the losses, the calibration, the agreement of int8 and fake-quant
logits, and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state
from jax import lax

BITS = 8
QMAX = 2 ** (BITS - 1) - 1


@jax.custom_vjp
def clipped_round(x, bound):
    return jnp.round(jnp.clip(x, -bound, bound))


def _clipped_round_fwd(x, bound):
    return clipped_round(x, bound), (jnp.abs(x) <= bound, bound)


def _clipped_round_bwd(res, g):
    inside, bound = res
    return g * inside, jnp.zeros_like(bound)


clipped_round.defvjp(_clipped_round_fwd, _clipped_round_bwd)


def kernel_scale(kernel):
    return jnp.maximum(jnp.max(jnp.abs(kernel), axis=0), 1e-8) / QMAX


def fake_quant_kernel(kernel):
    scale = kernel_scale(kernel)
    return clipped_round(kernel / scale, float(QMAX)) * scale


def fake_quant_input(x, amax):
    scale = jnp.maximum(amax, 1e-8) / QMAX
    q = jnp.clip(jnp.round(x / scale), -QMAX, QMAX) * scale
    return x + lax.stop_gradient(q - x)


class QuantDense(nn.Module):
    features: int
    momentum: float = 0.9

    @nn.compact
    def __call__(self, x, train=False):
        kernel = self.param("kernel", nn.initializers.lecun_normal(), (x.shape[-1], self.features))
        bias = self.param("bias", nn.initializers.zeros_init(), (self.features,))
        amax = self.variable("quant_stats", "amax", lambda: jnp.ones((), jnp.float32))
        if train and not self.is_initializing():
            amax.value = self.momentum * amax.value + (1 - self.momentum) * jnp.max(jnp.abs(x))
        x = fake_quant_input(x, amax.value)
        return x @ fake_quant_kernel(kernel) + bias

    def int8_apply(self, x):
        kernel = self.get_variable("params", "kernel")
        bias = self.get_variable("params", "bias")
        amax = self.get_variable("quant_stats", "amax")
        x_scale = jnp.maximum(amax, 1e-8) / QMAX
        w_scale = kernel_scale(kernel)
        x_q = jnp.clip(jnp.round(x / x_scale), -QMAX, QMAX).astype(jnp.int8)
        w_q = jnp.round(kernel / w_scale).astype(jnp.int8)
        acc = lax.dot_general(x_q, w_q, (((1,), (0,)), ((), ())),
                              preferred_element_type=jnp.int32)  # fmt: skip
        return acc.astype(jnp.float32) * (x_scale * w_scale) + bias, acc


class QuantMLP(nn.Module):
    @nn.compact
    def __call__(self, x, train=False):
        x = nn.relu(QuantDense(32, name="hidden")(x, train))
        return QuantDense(3, name="out")(x, train)


class TrainState(train_state.TrainState):
    quant_stats: dict


@jax.jit
def train_step(state, x, y):
    def loss_fn(params):
        logits, updates = state.apply_fn({"params": params, "quant_stats": state.quant_stats},
                                         x, train=True, mutable=["quant_stats"])  # fmt: skip
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), updates

    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads)
    return state.replace(quant_stats=updates["quant_stats"]), loss


def int8_forward(variables, x):
    """The trained layers run on integers, one `apply` of `int8_apply` per layer."""

    def layer(name, features, x):
        layer_vars = {c: variables[c][name] for c in ("params", "quant_stats")}
        return QuantDense(features).apply(layer_vars, x, method=QuantDense.int8_apply)

    h, acc_hidden = layer("hidden", 32, x)
    logits, acc_out = layer("out", 3, nn.relu(h))
    return logits, acc_hidden, acc_out


def make_data(key, n=64):
    k1, k2 = jax.random.split(key)
    centers = jnp.array([[2.0, 0.0, 0.0, 1.0], [-1.0, 2.0, 0.5, 0.0], [0.0, -2.0, 1.0, -1.0]])
    y = jax.random.randint(k1, (n,), 0, 3)
    return centers[y] + 0.7 * jax.random.normal(k2, (n, 4)), y


def run():
    out = {}
    halves = jnp.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.49, -3.51])
    out["round_even"] = jnp.round(halves)
    out["round_away"] = lax.round(halves, lax.RoundingMethod.AWAY_FROM_ZERO)
    out["int8_cast"] = jnp.clip(jnp.array([-300.0, -128.4, 126.6, 300.0]), -128, 127).astype(
        jnp.int8
    )
    xs = jnp.linspace(-3.0, 3.0, 7)
    out["ste_grad"] = jax.grad(lambda x: jnp.sum(clipped_round(x, 2.0) * xs))(xs)
    out["sg_grad"] = jax.grad(lambda x: jnp.sum(fake_quant_input(x, 2.0) ** 2))(xs)
    out["fake_quant"] = fake_quant_input(xs * 0.37, 1.0)

    x, y = make_data(jax.random.PRNGKey(0))
    model = QuantMLP()
    variables = model.init(jax.random.PRNGKey(1), x)
    out["init_stats"] = variables["quant_stats"]
    state = TrainState.create(apply_fn=model.apply, params=variables["params"],
                              quant_stats=variables["quant_stats"], tx=optax.adam(1e-2))  # fmt: skip
    losses = []
    for _ in range(8):
        state, loss = train_step(state, x, y)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["quant_stats"] = state.quant_stats

    trained = {"params": state.params, "quant_stats": state.quant_stats}
    fake_logits = model.apply(trained, x)
    int8_logits, acc_hidden, acc_out = int8_forward(trained, x)
    out["acc_dtypes"] = [str(acc_hidden.dtype), str(acc_out.dtype)]
    out["acc_hidden"] = acc_hidden[:2]
    out["int8_logits"] = int8_logits[:4]
    out["int8_vs_fake"] = jnp.max(jnp.abs(int8_logits - fake_logits))
    out["agreement"] = jnp.mean(jnp.argmax(int8_logits, -1) == jnp.argmax(fake_logits, -1))
    out["accuracy"] = jnp.mean(jnp.argmax(int8_logits, -1) == y)
    out["params"] = state.params
    return out
