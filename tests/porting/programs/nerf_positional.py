"""A tiny neural radiance field (ours): rays from a pinhole camera (`jnp.meshgrid` of pixel
centres, directions normalised by `jnp.linalg.norm`), stratified samples along each ray
(`jnp.linspace` bins plus uniform jitter), NeRF's positional encoding (sin and cos of
2^k pi x), an MLP with a skip connection (the encoded point concatenated back in) giving a
density (`nn.softplus`) and a view-dependent colour (`nn.sigmoid`), and volume rendering
(alphas from `jnp.diff` distances, transmittance by an exclusive `jnp.cumprod`, weights,
expected colour and depth). Hierarchical sampling: new depths drawn by inverting the coarse
weights' CDF (`jnp.cumsum`, `jnp.searchsorted`, `jnp.take_along_axis`, `lax.stop_gradient`),
merged with `jnp.sort`. Rays are rendered by `jax.vmap` over rays of a `vmap` over samples;
normals are minus the density's gradient (`jax.vmap(jax.grad(...))` with respect to points).
The scene: a coloured sphere rendered analytically. Training: `optax.adam` on an
`exponential_decay` with `transition_begin`, `optax.apply_if_finite` around it. Checks
encodings, rendered colours, depths and opacities, samples, normals, losses and PSNRs."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

NEAR, FAR, SAMPLES = 1.0, 3.0, 8


def encode(x, frequencies):
    scaled = x[..., None, :] * (2.0 ** jnp.arange(frequencies))[:, None] * jnp.pi
    features = jnp.concatenate([jnp.sin(scaled), jnp.cos(scaled)], axis=-1)
    return jnp.concatenate([x, features.reshape(*x.shape[:-1], -1)], axis=-1)


class Field(nn.Module):
    width: int = 24

    @nn.compact
    def __call__(self, points, direction):
        p = encode(points, 4)
        h = p
        for i in range(3):
            if i == 2:
                h = jnp.concatenate([h, p], axis=-1)
            h = nn.relu(nn.Dense(self.width, name=f"layer{i}")(h))
        density = nn.softplus(nn.Dense(1, name="density")(h)[..., 0] - 1.0)
        d = encode(jnp.broadcast_to(direction, points.shape), 2)
        h = nn.relu(nn.Dense(self.width // 2, name="view")(jnp.concatenate([h, d], axis=-1)))
        return density, nn.sigmoid(nn.Dense(3, name="rgb")(h))


def camera_rays(size, distance=2.5):
    centres = (jnp.arange(size) + 0.5) / size * 2.0 - 1.0
    u, v = jnp.meshgrid(centres, centres, indexing="xy")
    directions = jnp.stack([u * 0.4, -v * 0.4, -jnp.ones_like(u)], axis=-1).reshape(-1, 3)
    directions = directions / jnp.linalg.norm(directions, axis=-1, keepdims=True)
    origins = jnp.broadcast_to(jnp.array([0.0, 0.0, distance]), directions.shape)
    return origins, directions


def sphere_image(origins, directions, radius=0.7):
    b = jnp.sum(origins * directions, -1)
    c = jnp.sum(origins**2, -1) - radius**2
    disc = b**2 - c
    t = -b - jnp.sqrt(jnp.maximum(disc, 0.0))
    hit = origins + t[:, None] * directions
    colour = 0.5 + 0.5 * hit / radius
    return jnp.where((disc > 0)[:, None], colour, 0.0)


def stratified(key, rays):
    edges = jnp.linspace(NEAR, FAR, SAMPLES + 1)
    jitter = jax.random.uniform(key, (rays, SAMPLES))
    return edges[:-1] + (edges[1:] - edges[:-1]) * jitter


def render_ray(field, origin, direction, depths):
    points = origin + depths[:, None] * direction
    density, rgb = field(points, direction)
    deltas = jnp.append(jnp.diff(depths), 1e10)
    alpha = 1.0 - jnp.exp(-density * deltas)
    transmittance = jnp.cumprod(jnp.concatenate([jnp.ones(1), 1.0 - alpha[:-1] + 1e-10]))
    weights = alpha * transmittance
    return weights @ rgb, weights @ depths, jnp.sum(weights), weights


def resample(key, depths, weights, count):
    mids = 0.5 * (depths[1:] + depths[:-1])
    pdf = weights[1:-1] + 1e-5
    cdf = jnp.concatenate([jnp.zeros(1), jnp.cumsum(pdf / jnp.sum(pdf))])
    u = jax.random.uniform(key, (count,))
    above = jnp.clip(jnp.searchsorted(cdf, u, side="right"), 1, cdf.shape[0] - 1)
    below = above - 1
    c0, c1 = jnp.take_along_axis(cdf, below, 0), jnp.take_along_axis(cdf, above, 0)
    b0, b1 = jnp.take_along_axis(mids, below, 0), jnp.take_along_axis(mids, above, 0)
    fraction = (u - c0) / jnp.maximum(c1 - c0, 1e-5)
    return jax.lax.stop_gradient(b0 + fraction * (b1 - b0))


def render(params, model, origins, directions, key):
    coarse_key, fine_key = jax.random.split(key)
    field = functools.partial(model.apply, {"params": params})
    depths = stratified(coarse_key, origins.shape[0])
    per_ray = jax.vmap(render_ray, in_axes=(None, 0, 0, 0))
    rgb, depth, opacity, weights = per_ray(field, origins, directions, depths)
    fine_keys = jax.random.split(fine_key, origins.shape[0])
    extra = jax.vmap(resample, in_axes=(0, 0, 0, None))(fine_keys, depths, weights, SAMPLES)
    merged = jnp.sort(jnp.concatenate([depths, extra], axis=-1), axis=-1)
    fine = per_ray(field, origins, directions, merged)
    return (rgb, depth, opacity), fine[:3], merged


@functools.partial(jax.jit, static_argnums=1, donate_argnums=0)
def train_step(state, model, origins, directions, target, key):
    def loss_fn(params):
        coarse, fine, _ = render(params, model, origins, directions, key)
        return jnp.mean((coarse[0] - target) ** 2) + jnp.mean((fine[0] - target) ** 2), fine[0]

    (loss, rgb), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    psnr = -10.0 * jnp.log10(jnp.mean((rgb - target) ** 2))
    return state.apply_gradients(grads=grads), loss, psnr


def run():
    model = Field()
    origins, directions = camera_rays(4)
    target = sphere_image(origins, directions)
    params = model.init(jax.random.key(0), jnp.zeros((SAMPLES, 3)), directions[0])["params"]
    coarse, fine, merged = render(params, model, origins, directions, jax.random.key(1))
    points = origins[:3] + 2.0 * directions[:3]

    def density_at(p, d):
        return model.apply({"params": params}, p[None], d)[0][0]

    normals = -jax.vmap(jax.grad(density_at))(points, directions[:3])
    out = {
        "encoding": encode(jnp.array([[0.1, -0.2, 0.3]]), 4),
        "target": target,
        "coarse": list(coarse),
        "fine": list(fine),
        "merged_depths": merged[:4],
        "sorted": bool(jnp.all(jnp.diff(merged, axis=-1) >= 0)),
        "normals": normals / jnp.linalg.norm(normals, axis=-1, keepdims=True),
        "losses": [],
        "psnr": [],
    }
    schedule = optax.exponential_decay(5e-3, transition_steps=4, decay_rate=0.5,
                                       transition_begin=3)  # fmt: skip
    tx = optax.apply_if_finite(optax.adam(schedule), max_consecutive_errors=2)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    key = jax.random.key(2)
    for step in range(8):
        state, loss, psnr = train_step(state, model, origins, directions, target,
                                       jax.random.fold_in(key, step))  # fmt: skip
        out["losses"].append(loss)
        out["psnr"].append(psnr)
    out["finite_steps"] = state.opt_state.total_notfinite
    out["params"] = state.params
    return out
