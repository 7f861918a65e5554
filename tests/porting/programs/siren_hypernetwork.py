"""SIREN and a hypernetwork (ours). SIREN: `Dense` layers with sine activations and SIREN's
initialisation written as custom initialisers (`kernel_init` functions of `key, shape,
dtype`: the first layer uniform in +-1/fan_in, the others +-sqrt(6/fan_in)/w0; biases as
PyTorch's linear layers start them, whose code SIREN's follows), fitted to a
small image on a coordinate grid with `optax.adam`, jitted; the image's gradient and
Laplacian from the network by `vmap` of `jax.grad` and `jax.hessian` wrt the coordinates, and
a fit supervised on gradients only. The hypernetwork: a `Dense` net maps a latent code to the
flat parameters of a small SIREN, `jax.flatten_util.ravel_pytree`'s `unravel` turns them into
the SIREN's `params` for `apply` (functional use of a module), latents are learned per
signal (auto-decoding, an `nn.Embed` of codes) for several 1-D signals at once by `vmap` over
signals; trained with `optax.adam`. Checks the initial weights' ranges, the fit's losses,
the initial field's derivatives against finite differences, and the hypernetwork's losses and
outputs."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.flatten_util import ravel_pytree


def siren_init(w0, first):
    def init(key, shape, dtype=jnp.float32):
        fan_in = shape[0]
        bound = 1.0 / fan_in if first else np.sqrt(6.0 / fan_in) / w0
        return jax.random.uniform(key, shape, dtype, -bound, bound)

    return init


def bias_init(fan_in):
    """PyTorch's default for a linear layer's bias, as SIREN's code keeps it."""

    def init(key, shape, dtype=jnp.float32):
        bound = 1.0 / np.sqrt(fan_in)
        return jax.random.uniform(key, shape, dtype, -bound, bound)

    return init


class Siren(nn.Module):
    hidden: int = 32
    layers: int = 3
    out: int = 1
    w0: float = 30.0

    @nn.compact
    def __call__(self, x):
        for i in range(self.layers):
            dense = nn.Dense(self.hidden, kernel_init=siren_init(self.w0, i == 0),
                             bias_init=bias_init(x.shape[-1]), name=f"sine{i}")  # fmt: skip
            x = jnp.sin(self.w0 * dense(x)) if i == 0 else jnp.sin(dense(x))
        return nn.Dense(
            self.out,
            kernel_init=siren_init(self.w0, False),
            bias_init=bias_init(x.shape[-1]),
            name="linear",
        )(x)


def image(size=8):
    grid = jnp.linspace(-1.0, 1.0, size)
    yy, xx = jnp.meshgrid(grid, grid, indexing="ij")
    coords = jnp.stack([yy, xx], axis=-1).reshape(-1, 2)
    values = jnp.sin(3.0 * coords[:, 0]) * jnp.cos(2.0 * coords[:, 1]) + 0.5 * coords[:, 0]
    return coords, values[:, None]


siren = Siren()
tx = optax.adam(5e-3)


@jax.jit
def fit_step(params, opt_state, coords, values):
    loss, grads = jax.value_and_grad(
        lambda p: jnp.mean((siren.apply({"params": p}, coords) - values) ** 2)
    )(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def scalar_field(params, point):
    return siren.apply({"params": params}, point)[0]


@jax.jit
def gradient_step(params, opt_state, coords, target_grads):
    def loss_fn(p):
        grads = jax.vmap(jax.grad(scalar_field, argnums=1), (None, 0))(p, coords)
        return jnp.mean(jnp.sum((grads - target_grads) ** 2, axis=-1))

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


small = Siren(hidden=8, layers=2, w0=10.0)
_template = small.init(jax.random.key(0), jnp.zeros((1, 1)))["params"]
_flat, unravel = ravel_pytree(_template)


class HyperNet(nn.Module):
    signals: int
    latent: int = 4

    @nn.compact
    def __call__(self, index, x):
        code = nn.Embed(self.signals, self.latent, embedding_init=nn.initializers.normal(0.1),
                        name="codes")(index)  # fmt: skip
        h = nn.relu(nn.Dense(32)(code))
        flat = nn.Dense(_flat.size, kernel_init=nn.initializers.normal(0.01), name="weights")(h)
        flat = flat + self.param("base", lambda *_: _flat)
        return small.apply({"params": unravel(flat)}, x)


def signals(count=3, points=12):
    x = jnp.linspace(-1.0, 1.0, points)[:, None]
    freq = jnp.arange(1, count + 1, dtype=jnp.float32)
    return x, jnp.sin(freq[:, None, None] * np.pi * x[None])


hyper = HyperNet(signals=3)
hyper_tx = optax.adam(5e-3)


@jax.jit
def hyper_step(params, opt_state, x, targets):
    def loss_fn(p):
        outputs = jax.vmap(lambda i: hyper.apply({"params": p}, i, x))(jnp.arange(3))
        return jnp.mean((outputs - targets) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = hyper_tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def run():
    coords, values = image()
    params = initial = siren.init(jax.random.key(1), coords)["params"]
    out = {"ranges": {k: [jnp.min(v["kernel"]), jnp.max(v["kernel"])] for k, v in params.items()},
           "fit": []}  # fmt: skip
    opt_state = tx.init(params)
    for _ in range(20):
        params, opt_state, loss = fit_step(params, opt_state, coords, values)
        out["fit"].append(loss)
    point = jnp.array([0.3, -0.2])
    # derivatives of the initial field: w0 = 30 multiplies the trained weights' float32
    # round-off (XLA's sums and sines are not numbax's bits) into the derivatives
    params = initial
    grad = jax.grad(scalar_field, argnums=1)(params, point)
    eps = 1e-2
    finite = jnp.stack([
        (scalar_field(params, point + eps * e) - scalar_field(params, point - eps * e)) / (2 * eps)
        for e in jnp.eye(2)
    ])  # fmt: skip
    hessians = jax.vmap(jax.hessian(scalar_field, argnums=1), (None, 0))(params, coords[:4])
    out["derivatives"] = {"grad": grad, "finite": finite,
                          "laplacian": jnp.trace(hessians, axis1=1, axis2=2)}  # fmt: skip
    target_grads = jnp.stack([3.0 * jnp.cos(3.0 * coords[:, 0]) * jnp.cos(2.0 * coords[:, 1]) + 0.5,
                              -2.0 * jnp.sin(3.0 * coords[:, 0]) * jnp.sin(2.0 * coords[:, 1])],
                             axis=-1)  # fmt: skip
    g_params = siren.init(jax.random.key(2), coords)["params"]
    g_state = tx.init(g_params)
    out["gradient_fit"] = []
    for _ in range(8):
        g_params, g_state, loss = gradient_step(g_params, g_state, coords, target_grads)
        out["gradient_fit"].append(loss)
    x, targets = signals()
    h_params = hyper.init(jax.random.key(3), jnp.array(0), x)["params"]
    out["hyper_sizes"] = [int(_flat.size), jax.tree.map(lambda a: list(a.shape), h_params)]
    h_state = hyper_tx.init(h_params)
    out["hyper"] = []
    for _ in range(20):
        h_params, h_state, loss = hyper_step(h_params, h_state, x, targets)
        out["hyper"].append(loss)
    out["hyper_outputs"] = jax.vmap(lambda i: hyper.apply({"params": h_params}, i, x))(
        jnp.arange(3))  # fmt: skip
    out["codes"] = h_params["codes"]["embedding"]
    return out
