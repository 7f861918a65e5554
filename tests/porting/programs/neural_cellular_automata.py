"""A growing neural cellular automaton (ours): each cell perceives its neighbourhood by fixed
identity and Sobel filters applied per channel (`lax.conv_general_dilated` with
`feature_group_count` equal to the channels, the filters stacked into one HWIO kernel), a
1x1-convolution update network whose last layer starts at zero (`kernel_init=zeros`), a
stochastic per-cell update mask from `jax.random.bernoulli`, and alive masking by
`nn.max_pool` of the alpha channel before and after the update. A rollout is a `lax.scan`
over steps with a key per step; training grows a seed into a small target pattern with a
loss on the RGBA channels after a random number of steps (two rollout lengths, each its own
jitted compile), per-parameter gradient normalisation written with `optax.stateless` in front
of `optax.adam` on a `piecewise_constant_schedule`. Also damage (a disc of cells zeroed) and
regrowth. Checks the perception of a known grid, the alive masks, losses and the grown
patterns."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn

CHANNELS, SIZE = 8, 10


def perception_kernel(channels):
    identity = np.zeros((3, 3), np.float32)
    identity[1, 1] = 1.0
    sobel_x = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], np.float32) / 8.0
    filters = np.stack([identity, sobel_x, sobel_x.T], axis=-1)  # (3, 3, 3)
    return jnp.asarray(np.tile(filters[:, :, None, :], (1, 1, 1, channels)).reshape(
        3, 3, 1, 3 * channels))  # fmt: skip


def perceive(grid):
    """Each channel's value and its x and y gradients, channel by channel."""
    channels = grid.shape[-1]
    return jax.lax.conv_general_dilated(grid, perception_kernel(channels), (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                        feature_group_count=channels)  # fmt: skip


def alive(grid):
    return nn.max_pool(grid[..., 3:4], (3, 3), strides=(1, 1), padding="SAME") > 0.1


class UpdateRule(nn.Module):
    hidden: int = 32

    @nn.compact
    def __call__(self, grid, key):
        before = alive(grid)
        h = nn.relu(nn.Conv(self.hidden, (1, 1))(perceive(grid)))
        delta = nn.Conv(CHANNELS, (1, 1), use_bias=False, kernel_init=nn.initializers.zeros)(h)
        fire = jax.random.bernoulli(key, 0.5, grid.shape[:-1] + (1,))
        grid = grid + delta * fire
        return grid * (before & alive(grid))


rule = UpdateRule()


def rollout(params, grid, key, steps):
    def step(grid, key):
        grid = rule.apply({"params": params}, grid, key)
        return grid, grid[..., 3].sum()

    return jax.lax.scan(step, grid, jax.random.split(key, steps))


def seed(batch=1):
    grid = jnp.zeros((batch, SIZE, SIZE, CHANNELS))
    return grid.at[:, SIZE // 2, SIZE // 2, 3:].set(1.0)


def target_pattern():
    yy, xx = np.mgrid[:SIZE, :SIZE] - (SIZE - 1) / 2
    ring = (np.abs(np.hypot(yy, xx) - 2.5) < 1.0).astype(np.float32)
    return jnp.asarray(np.stack([ring, 0.5 * ring, 0.2 * ring, ring], axis=-1))


normalise = optax.stateless(
    lambda grads, params: jax.tree.map(lambda g: g / (jnp.linalg.norm(g) + 1e-8), grads)
)
schedule = optax.piecewise_constant_schedule(2e-2, {6: 0.3})
tx = optax.chain(normalise, optax.adam(schedule))


@functools.partial(jax.jit, static_argnums=4)
def train_step(params, opt_state, grids, key, steps):
    target = target_pattern()

    def loss_fn(p):
        grown, mass = rollout(p, grids, key, steps)
        return jnp.mean((grown[..., :4] - target) ** 2), mass

    (loss, mass), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss, mass


def run():
    rs = np.random.RandomState(1)
    grid = jnp.asarray(rs.rand(1, 5, 5, 2).astype(np.float32))
    out = {"perception": perceive(grid)[0, 2], "kernel": perception_kernel(2)[..., 0, :]}
    noisy = jnp.asarray((rs.rand(1, 6, 6, 4) * (rs.rand(1, 6, 6, 1) < 0.2)).astype(np.float32))
    out["alive"] = alive(noisy)[0, ..., 0]
    grids = seed(2)
    params = rule.init(jax.random.key(0), grids, jax.random.key(1))["params"]
    out["zero_update"] = bool(jnp.array_equal(rule.apply({"params": params}, grids,
                                                         jax.random.key(1)), grids))  # fmt: skip
    opt_state = tx.init(params)
    out["rates"] = [schedule(i) for i in (0, 5, 6, 10)]
    out["training"] = []
    key = jax.random.key(2)
    for i in range(10):
        key, sub = jax.random.split(key)
        steps = 6 if i % 2 == 0 else 8
        params, opt_state, loss, mass = train_step(params, opt_state, grids, sub, steps)
        out["training"].append([loss, mass])
    grown, _ = rollout(params, seed(), jax.random.key(3), 8)
    out["grown"] = grown[0, ..., :4]
    yy, xx = np.mgrid[:SIZE, :SIZE]
    disc = jnp.asarray(np.hypot(yy - 3, xx - 3) < 2.0)[None, ..., None]
    damaged = jnp.where(disc, 0.0, grown)
    regrown, mass = rollout(params, damaged, jax.random.key(4), 6)
    out["regrown"] = [regrown[0, ..., 3], mass]
    return out
