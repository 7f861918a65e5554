"""A 2-D Fourier neural operator learning the periodic Poisson solution operator (ours,
written in Flax Linen as neural-operator code writes one).

A spectral convolution takes `jnp.fft.rfft2` of its input over the spatial axes, multiplies
the lowest `modes` frequencies (both signs along the first axis, the non-negative ones along
the second) by complex64 weights (`self.param` with a complex initializer) through
`jnp.einsum`, scatters them into a zero spectrum by `.at[].set` and returns `jnp.fft.irfft2`
with the input's size; a layer adds a pointwise `nn.Dense` and applies `nn.gelu`. Lifting and
projection are `Dense`s, with the grid's coordinates appended as channels. The targets solve
`-laplacian(u) = f` by dividing `fft2(f)` by `|k|^2` (`jnp.fft.fftfreq`), and the loss is the
relative L2 error. Adam updates the complex weights (Optax's conjugate-aware moments).
Checks the data, the losses, a resolution change (the trained operator on a finer grid), the
spectral layer's gradient wrt its complex weights, the trained operator's outputs and the
parameters' norms."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


def complex_init(scale):
    def init(key, shape, dtype=jnp.complex64):
        k1, k2 = jax.random.split(key)
        real = jax.random.uniform(k1, shape, jnp.float32)
        imag = jax.random.uniform(k2, shape, jnp.float32)
        return (scale * (real + 1j * imag)).astype(dtype)

    return init


class SpectralConv2d(nn.Module):
    features: int
    modes: int

    @nn.compact
    def __call__(self, x):
        channels = x.shape[-1]
        scale = 1.0 / (channels * self.features)
        shape = (channels, self.features, self.modes, self.modes)
        w_pos = self.param("w_pos", complex_init(scale), shape, jnp.complex64)
        w_neg = self.param("w_neg", complex_init(scale), shape, jnp.complex64)
        height, width = x.shape[1], x.shape[2]
        x_ft = jnp.fft.rfft2(x, axes=(1, 2))
        m = self.modes
        out_ft = jnp.zeros((x.shape[0], height, width // 2 + 1, self.features), jnp.complex64)
        top = jnp.einsum("bxyi,ioxy->bxyo", x_ft[:, :m, :m], w_pos)
        bottom = jnp.einsum("bxyi,ioxy->bxyo", x_ft[:, -m:, :m], w_neg)
        out_ft = out_ft.at[:, :m, :m].set(top).at[:, -m:, :m].set(bottom)
        return jnp.fft.irfft2(out_ft, s=(height, width), axes=(1, 2))


class FNO(nn.Module):
    width: int = 8
    modes: int = 3
    layers: int = 2

    @nn.compact
    def __call__(self, f):
        n, height, width = f.shape
        gy, gx = jnp.meshgrid(jnp.linspace(0, 1, height), jnp.linspace(0, 1, width), indexing="ij")
        grid = jnp.broadcast_to(jnp.stack([gy, gx], -1), (n, height, width, 2))
        x = nn.Dense(self.width)(jnp.concatenate([f[..., None], grid], -1))
        for i in range(self.layers):
            y = SpectralConv2d(self.width, self.modes)(x) + nn.Dense(self.width)(x)
            x = nn.gelu(y) if i < self.layers - 1 else y
        x = nn.gelu(nn.Dense(16)(x))
        return nn.Dense(1)(x)[..., 0]


def poisson_solve(f):
    """-laplacian(u) = f on the periodic grid of spacing 2 pi / n, u of zero mean."""
    n = f.shape[-1]
    k = jnp.fft.fftfreq(n, d=1.0 / n)
    k2 = k[:, None] ** 2 + k[None, :] ** 2
    f_hat = jnp.fft.fft2(f)
    u_hat = jnp.where(k2 > 0, f_hat / jnp.where(k2 > 0, k2, 1.0), 0.0)
    return jnp.real(jnp.fft.ifft2(u_hat))


def make_sources(key, n, size):
    """Random smooth periodic sources: a few low Fourier modes with random amplitudes."""
    grid = jnp.arange(size) * 2 * jnp.pi / size
    yy, xx = jnp.meshgrid(grid, grid, indexing="ij")
    amps = jax.random.normal(key, (n, 3, 3))
    waves = jnp.stack([jnp.stack([jnp.sin(a * xx + b * yy) for b in range(1, 4)])
                       for a in range(3)])  # fmt: skip
    return jnp.einsum("nab,abxy->nxy", amps, waves)


def relative_l2(pred, target):
    diff = jnp.linalg.norm((pred - target).reshape(pred.shape[0], -1), axis=1)
    return jnp.mean(diff / jnp.linalg.norm(target.reshape(target.shape[0], -1), axis=1))


@jax.jit
def train_step(state, f, u):
    def loss_fn(params):
        return relative_l2(state.apply_fn({"params": params}, f), u)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def run():
    out = {}
    f = make_sources(jax.random.PRNGKey(0), 8, 12)
    u = poisson_solve(f)
    out["u"] = u[0]
    out["u_dtype"] = str(u.dtype)
    model = FNO()
    params = model.init(jax.random.PRNGKey(1), f)["params"]
    out["param_dtypes"] = jax.tree.map(lambda p: str(p.dtype), params)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params,
                                          tx=optax.adam(1e-2))  # fmt: skip
    losses = []
    for _ in range(6):
        state, loss = train_step(state, f, u)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)

    # the operator applies at another resolution: the same modes on a finer grid
    f_fine = make_sources(jax.random.PRNGKey(2), 2, 16)
    u_fine = poisson_solve(f_fine)
    pred_fine = model.apply({"params": state.params}, f_fine)
    out["fine_shape"] = list(pred_fine.shape)
    out["fine_error"] = relative_l2(pred_fine, u_fine)

    # the gradient wrt complex weights is the conjugate-convention cotangent JAX returns
    layer = SpectralConv2d(2, 2)
    x = jax.random.normal(jax.random.PRNGKey(3), (1, 6, 6, 2))
    layer_params = layer.init(jax.random.PRNGKey(4), x)["params"]
    grads = jax.grad(lambda p: jnp.sum(layer.apply({"params": p}, x) ** 2))(layer_params)
    out["complex_grads"] = {k: (jnp.real(v), jnp.imag(v)) for k, v in grads.items()}
    out["grad_dtype"] = str(grads["w_pos"].dtype)
    # the trained operator's outputs and dense weights; the spectral weights are compared by
    # their norms (FFTs' round-off differs from XLA's, and Adam turns the round-off of the
    # smallest gradients into steps of the learning rate's size)
    out["predictions"] = model.apply({"params": state.params}, f[:2])
    out["spectral_norms"] = jax.tree.map(jnp.linalg.norm, state.params)
    return out
