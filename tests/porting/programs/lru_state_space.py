"""A linear recurrent unit (ours, after the LRU/S4D family): a diagonal complex recurrence
h_t = lambda * h_{t-1} + B u_t with lambda = exp(-exp(nu) + i exp(theta)) on a ring
(custom initializers drawing the radius and phase), `B` and `C` as real and imaginary
parameter pairs, a `gamma` normalisation, y_t = Re(C h_t) + D u_t. The recurrence runs three
ways that must agree: `jax.lax.associative_scan` with a binary operator on (lambda, Bu)
pairs, a sequential `lax.scan` over complex carries, and (S4D's view) a convolution with the
kernel Re(C diag(lambda^k) B) by `jnp.fft.rfft`/`irfft`. The layer is `nn.vmap`-ed over the
batch (parameters shared), stacked with `nn.LayerNorm`, GLU outputs and residuals; trained on
a delayed-copy task with `optax.multi_transform` (a smaller learning rate and no weight
decay for the recurrence's parameters, labels from `flax.traverse_util.path_aware_map`).
Checks the eigenvalues (`jnp.abs`, `jnp.angle`), the three recurrences, complex gradients
(`jax.grad` of a real loss through complex intermediates, and of real functions of a complex
input: JAX's conjugate convention), losses and parameters."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


def ring_nu(r_min, r_max):
    def init(key, shape, dtype=jnp.float32):
        u = jax.random.uniform(key, shape, dtype)
        return jnp.log(-0.5 * jnp.log(u * (r_max**2 - r_min**2) + r_min**2))

    return init


def ring_theta(max_phase):
    def init(key, shape, dtype=jnp.float32):
        return jnp.log(max_phase * jax.random.uniform(key, shape, dtype))

    return init


def complex_normal(scale_axis):
    def init(key, shape, dtype=jnp.float32):
        return jax.random.normal(key, shape, dtype) / np.sqrt(2 * shape[scale_axis])

    return init


def combine(left, right):
    a_l, b_l = left
    a_r, b_r = right
    return a_r * a_l, a_r * b_l + b_r


class LRU(nn.Module):
    """One sequence (length, features) -> (length, features)."""

    state: int
    mode: str = "associative"

    @nn.compact
    def __call__(self, u):
        nu_log = self.param("nu_log", ring_nu(0.6, 0.95), (self.state,))
        theta_log = self.param("theta_log", ring_theta(np.pi / 4), (self.state,))
        lam = jnp.exp(-jnp.exp(nu_log) + 1j * jnp.exp(theta_log))
        features = u.shape[-1]
        gamma_log = self.param("gamma_log", lambda k, s: jnp.log(jnp.sqrt(1 - jnp.abs(lam) ** 2)),
                               (self.state,))  # fmt: skip
        b = (self.param("B_re", complex_normal(1), (self.state, features))
             + 1j * self.param("B_im", complex_normal(1), (self.state, features)))  # fmt: skip
        c = (self.param("C_re", complex_normal(0), (features, self.state))
             + 1j * self.param("C_im", complex_normal(0), (features, self.state)))  # fmt: skip
        d = self.param("D", nn.initializers.normal(1.0), (features,))
        b = b * jnp.exp(gamma_log)[:, None]
        bu = u.astype(jnp.complex64) @ b.T
        if self.mode == "associative":
            lams = jnp.broadcast_to(lam, bu.shape)
            _, h = jax.lax.associative_scan(combine, (lams, bu))
        elif self.mode == "sequential":

            def step(carry, x):
                carry = lam * carry + x
                return carry, carry

            _, h = jax.lax.scan(step, jnp.zeros(self.state, jnp.complex64), bu)
        else:
            length = u.shape[0]
            powers = lam[None, :] ** jnp.arange(length)[:, None]
            kernel = jnp.einsum("fs,ls,sg->lfg", c, powers, b).real
            n = 2 * length
            spectrum = jnp.fft.rfft(u, n, axis=0)[:, None, :] * jnp.fft.rfft(kernel, n, axis=0)
            y = jnp.fft.irfft(spectrum.sum(-1), n, axis=0)[:length]
            return y + d * u
        return (h @ c.T).real + d * u


class Block(nn.Module):
    state: int
    mode: str

    @nn.compact
    def __call__(self, x):
        h = nn.LayerNorm()(x)
        batched = nn.vmap(LRU, variable_axes={"params": None}, split_rngs={"params": False},
                          in_axes=0, out_axes=0)  # fmt: skip
        h = batched(self.state, self.mode, name="lru")(h)
        h = nn.gelu(h)
        return x + nn.glu(nn.Dense(2 * x.shape[-1], name="glu")(h))


class Model(nn.Module):
    width: int = 6
    state: int = 8
    depth: int = 2
    mode: str = "associative"

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.width, name="encoder")(x)
        for i in range(self.depth):
            x = Block(self.state, self.mode, name=f"block{i}")(x)
        return nn.Dense(1, name="decoder")(x)[..., 0]


def copy_task(rs, count, length, delay=3):
    x = rs.randn(count, length, 1).astype(np.float32)
    y = np.zeros((count, length), np.float32)
    y[:, delay:] = x[:, :-delay, 0]
    return x, y


def label_params(params):
    recurrent = ("nu_log", "theta_log", "gamma_log", "B_re", "B_im")
    return traverse_util.path_aware_map(
        lambda path, _: "recurrent" if path[-1] in recurrent else "other", params)  # fmt: skip


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def run():
    rs = np.random.RandomState(3)
    x, y = copy_task(rs, 4, 16)
    model = Model()
    params = model.init(jax.random.key(0), x)["params"]
    variables = {"params": params}
    lru = params["block0"]["lru"]
    lam = jnp.exp(-jnp.exp(lru["nu_log"]) + 1j * jnp.exp(lru["theta_log"]))
    out = {
        "radius": jnp.abs(lam),
        "phase": jnp.angle(lam),
        "lambda_dtype": str(lam.dtype),
    }
    outputs = {mode: Model(mode=mode).apply(variables, x)
               for mode in ("associative", "sequential", "convolution")}  # fmt: skip
    out["outputs"] = outputs["associative"]
    out["agree"] = [
        bool(jnp.allclose(outputs["associative"], outputs[m], atol=1e-4))
        for m in ("sequential", "convolution")
    ]

    def scan_loss(p, mode):
        return jnp.mean((Model(mode=mode).apply({"params": p}, x) - y) ** 2)

    grads = {m: jax.grad(scan_loss)(params, m) for m in ("associative", "sequential")}
    out["grad_nu"] = grads["associative"]["block0"]["lru"]["nu_log"]
    close = jax.tree.map(functools.partial(jnp.allclose, atol=1e-5), grads["associative"],
                         grads["sequential"])  # fmt: skip
    out["grads_agree"] = bool(jax.tree.all(close))
    z = jnp.array([0.3 + 0.4j, -0.2 + 0.1j], jnp.complex64)
    for name, f in [("complex_grad", lambda z: jnp.sum(jnp.abs(z * jnp.exp(1j * z)) ** 2)),
                    ("real_part_grad", lambda z: jnp.sum(z**3).real)]:  # fmt: skip
        g = jax.grad(f)(z)
        out[name] = [str(g.dtype), g.real, g.imag]

    tx = optax.multi_transform(
        {"recurrent": optax.adam(2e-3), "other": optax.adamw(1e-2, weight_decay=0.01)},
        label_params,
    )  # fmt: skip
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["labels"] = traverse_util.flatten_dict(label_params(params)["block1"], sep="/")
    out["losses"] = []
    for _ in range(10):
        x, y = copy_task(rs, 4, 16)
        state, loss = train_step(state, x, y)
        out["losses"].append(loss)
    out["params"] = traverse_util.flatten_dict(state.params, sep="/")
    return out
