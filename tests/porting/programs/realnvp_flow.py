"""A RealNVP normalizing flow on 2-D data (ours): affine coupling layers with alternating binary
masks (a Flax module whose `setup` builds its scale and shift networks as a list of `Dense`
submodules, `tanh`-bounded log-scales with a learned `self.param` factor), the forward pass
returning the sum of log-determinants, the inverse pass for sampling as a second method
(`apply(..., method=...)`), a standard normal base density by `jax.scipy.stats.norm.logpdf`,
maximum likelihood with `optax.adamw` on `optax.exponential_decay`. Also the log-determinant
checked against `jnp.linalg.slogdet` of `jax.jacfwd` of the forward map for each point
(`jax.vmap`), and a planar flow's determinant by hand. Checks log-likelihoods, the inverse
round trip, samples and parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn


class Coupling(nn.Module):
    mask: tuple
    hidden: int = 16

    def setup(self):
        self.scale_net = [nn.Dense(self.hidden), nn.Dense(self.hidden), nn.Dense(2)]
        self.shift_net = [nn.Dense(self.hidden), nn.Dense(2)]
        self.scale_factor = self.param("scale_factor", nn.initializers.zeros, (2,))

    def _params(self, masked):
        h = masked
        for layer in self.scale_net[:-1]:
            h = nn.relu(layer(h))
        log_scale = jnp.tanh(self.scale_net[-1](h)) * jnp.exp(self.scale_factor)
        shift = self.shift_net[1](nn.relu(self.shift_net[0](masked)))
        return log_scale, shift

    def __call__(self, x):
        mask = jnp.array(self.mask, jnp.float32)
        log_scale, shift = self._params(x * mask)
        log_scale, shift = log_scale * (1 - mask), shift * (1 - mask)
        y = x * mask + (1 - mask) * (x * jnp.exp(log_scale) + shift)
        return y, jnp.sum(log_scale, axis=-1)

    def inverse(self, y):
        mask = jnp.array(self.mask, jnp.float32)
        log_scale, shift = self._params(y * mask)
        log_scale, shift = log_scale * (1 - mask), shift * (1 - mask)
        return y * mask + (1 - mask) * (y - shift) * jnp.exp(-log_scale)


class RealNVP(nn.Module):
    layers: int = 4

    def setup(self):
        self.couplings = [Coupling(mask=(float(i % 2), float(1 - i % 2)))
                          for i in range(self.layers)]  # fmt: skip

    def __call__(self, x):
        log_det = jnp.zeros(x.shape[:-1])
        for coupling in self.couplings:
            x, ld = coupling(x)
            log_det = log_det + ld
        return x, log_det

    def inverse(self, z):
        for coupling in reversed(self.couplings):
            z = coupling.inverse(z)
        return z

    def log_prob(self, x):
        z, log_det = self(x)
        return jnp.sum(jax.scipy.stats.norm.logpdf(z), axis=-1) + log_det


def moons(rs, count):
    t = rs.uniform(0, np.pi, count)
    upper = rs.rand(count) < 0.5
    x = np.where(upper, np.cos(t), 1 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    return (np.stack([x, y], 1) + 0.05 * rs.randn(count, 2)).astype(np.float32)


def run():
    rs = np.random.RandomState(13)
    flow = RealNVP()
    params = flow.init(jax.random.key(0), jnp.zeros((1, 2)))["params"]
    schedule = optax.exponential_decay(5e-3, transition_steps=2, decay_rate=0.8)
    tx = optax.adamw(schedule, weight_decay=1e-4)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state, x):
        def nll(params):
            return -jnp.mean(flow.apply({"params": params}, x, method=RealNVP.log_prob))

        loss, grads = jax.value_and_grad(nll)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    out = {"losses": []}
    for _ in range(5):
        params, opt_state, loss = step(params, opt_state, moons(rs, 32))
        out["losses"].append(loss)
    points = jnp.asarray(moons(rs, 5))
    z, log_det = flow.apply({"params": params}, points)
    back = flow.apply({"params": params}, z, method="inverse")
    forward = lambda p: flow.apply({"params": params}, p[None])[0][0]  # noqa: E731
    jacobians = jax.vmap(jax.jacfwd(forward))(points)
    out.update(
        z=z, log_det=log_det, slogdet=jnp.linalg.slogdet(jacobians)[1],
        round_trip=bool(jnp.allclose(back, points, atol=1e-5)),
        samples=flow.apply({"params": params}, jax.random.normal(jax.random.key(5), (4, 2)),
                           method=flow.inverse),
        log_prob=flow.apply({"params": params}, points, method=RealNVP.log_prob),
        params=jax.tree.leaves(params),
        names=sorted(params["couplings_0"]),
    )  # fmt: skip

    w, u, b = jnp.array([1.0, -0.5]), jnp.array([0.3, 0.8]), 0.2
    planar = lambda x: x + u * jnp.tanh(w @ x + b)  # noqa: E731
    by_hand = jnp.log(jnp.abs(1 + (1 - jnp.tanh(points @ w + b) ** 2) * (w @ u)))
    out["planar"] = [by_hand, jnp.linalg.slogdet(jax.vmap(jax.jacrev(planar))(points))[1]]
    return out
