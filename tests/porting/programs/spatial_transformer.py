"""A spatial transformer network (ours, in the style of the spatial transformer tutorial of
pytorch/tutorials `intermediate_source/spatial_transformer_tutorial.py` as its JAX/Flax ports
write it, sampling with `jax.scipy.ndimage.map_coordinates`).

A localisation network (`nn.Conv`, `nn.max_pool`, `nn.Dense`) predicts a 2x3 affine matrix,
its last layer initialised to the identity (zero kernel, bias (1,0,0,0,1,0) by a custom
initialiser); an affine grid in normalised coordinates (`jnp.meshgrid`, `jnp.einsum`) is
sampled bilinearly by `map_coordinates(order=1, mode="constant", cval=0)` under `vmap` over
channels and images, then a small classifier. Also `order=0` and `mode="nearest"`, and
`jax.image.resize` ("linear", "cubic", "lanczos3") and `jax.image.scale_and_translate`
against each other. Trained a few jitted steps by `optax.sgd(momentum=0.9)`. Checks warped
images, gradients through the sampler, resized images, losses and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax.scipy import ndimage


def identity_bias(key, shape, dtype=jnp.float32):
    return jnp.array([1, 0, 0, 0, 1, 0], dtype)


def affine_grid(theta, height, width):
    ys, xs = jnp.meshgrid(jnp.linspace(-1, 1, height), jnp.linspace(-1, 1, width), indexing="ij")
    homogeneous = jnp.stack([xs, ys, jnp.ones_like(xs)], axis=-1)
    return jnp.einsum("ij,hwj->hwi", theta, homogeneous)


def sample(image, grid, order=1, mode="constant"):
    height, width, _ = image.shape
    rows = (grid[..., 1] + 1) * (height - 1) / 2
    cols = (grid[..., 0] + 1) * (width - 1) / 2

    def channel(c):
        return ndimage.map_coordinates(c, [rows, cols], order=order, mode=mode, cval=0.0)

    return jax.vmap(channel, in_axes=-1, out_axes=-1)(image)


def warp(images, thetas, order=1, mode="constant"):
    height, width = images.shape[1:3]
    grids = jax.vmap(lambda t: affine_grid(t, height, width))(thetas)
    return jax.vmap(lambda im, g: sample(im, g, order, mode))(images, grids)


class Localization(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(4, (3, 3))(x))
        x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Dense(16)(x.reshape(x.shape[0], -1)))
        x = nn.Dense(6, kernel_init=nn.initializers.zeros, bias_init=identity_bias)(x)
        return x.reshape(-1, 2, 3)


class STN(nn.Module):
    classes: int = 3

    @nn.compact
    def __call__(self, x):
        theta = Localization()(x)
        x = warp(x, theta)
        x = nn.relu(nn.Conv(6, (3, 3), strides=2)(x))
        x = jnp.mean(x, axis=(1, 2))
        return nn.Dense(self.classes)(x), theta


def make_data(key, n=12, size=10):
    k1, k2, k3 = jax.random.split(key, 3)
    labels = jax.random.randint(k1, (n,), 0, 3)
    ys, xs = jnp.mgrid[:size, :size]
    centre = jax.random.uniform(k2, (n, 2), minval=3.0, maxval=size - 3.0)
    radius = 1.0 + labels.astype(jnp.float32)
    dist = jnp.sqrt((ys[None] - centre[:, 0, None, None]) ** 2
                    + (xs[None] - centre[:, 1, None, None]) ** 2)  # fmt: skip
    blobs = (dist < radius[:, None, None]).astype(jnp.float32)
    noise = 0.1 * jax.random.normal(k3, blobs.shape)
    return (blobs + noise)[..., None], labels


def run():
    out = {}
    images, labels = make_data(jax.random.PRNGKey(0))
    identity = jnp.tile(jnp.array([[1.0, 0, 0], [0, 1.0, 0]]), (2, 1, 1))
    out["identity_warp_error"] = jnp.max(jnp.abs(warp(images[:2], identity) - images[:2]))
    turn = jnp.array([[[0.8, -0.3, 0.1], [0.3, 0.8, -0.2]]])
    out["warped_linear"] = warp(images[:1], turn)[0, ..., 0]
    out["warped_nearest"] = warp(images[:1], turn, order=0)[0, ..., 0]
    out["warped_edge"] = warp(images[:1], 1.3 * turn, mode="nearest")[0, ..., 0]
    out["theta_grad"] = jax.grad(lambda t: jnp.sum(warp(images[:1], t) ** 2))(turn)

    small = images[0, ..., 0]
    out["resized"] = {m: jax.image.resize(small, (7, 13), method=m)
                      for m in ("linear", "cubic", "lanczos3", "nearest")}  # fmt: skip
    out["scale_translate"] = jax.image.scale_and_translate(
        small, (7, 13), (0, 1), jnp.array([0.7, 1.3]), jnp.array([0.5, -1.0]), "linear"
    )
    out["resize_antialias_off"] = jax.image.resize(small, (4, 4), "linear", antialias=False)

    model = STN()
    params = model.init(jax.random.PRNGKey(1), images[:2])
    _, theta0 = model.apply(params, images[:2])
    out["theta_init"] = theta0
    tx = optax.sgd(0.05, momentum=0.9)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        def loss_fn(p):
            logits, theta = model.apply(p, images)
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return loss, theta

        (loss, theta), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss, theta

    losses = []
    for _ in range(4):
        params, opt_state, loss, theta = step(params, opt_state)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["theta"] = theta[:2]
    out["params"] = params
    return out
