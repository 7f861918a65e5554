"""Time-series forecasting with an N-BEATS-style network and quantile outputs (ours, written
as JAX/Flax forecasting code is).

Synthetic series (trend, two seasonalities, noise) have missing values (NaN) that are filled by
`jnp.interp` over the observed times; windows are cut by `vmap` of `lax.dynamic_slice` and
scaled by their `jnp.nanmean`/`nanstd`. The network stacks interpretable blocks: a trend block
whose basis is `jnp.polyval` of low-degree polynomials over the backcast and forecast times, a
seasonality block with a Fourier basis, and a generic block; each removes its backcast from the
residual and adds its forecast. A quantile head predicts the 10/50/90% quantiles, trained by
the pinball loss with `optax.adamw`; the quantiles are kept ordered by `jnp.sort` (checked
against `lax.sort` of several operands carrying the indices). Features and diagnostics use
`lax.reduce_window` moving averages and maxima, `lax.cummax` drawdowns, `lax.cumlogsumexp`,
`jnp.correlate` autocorrelations, `jnp.quantile`, and `lax.approx_max_k`. Checks the filled
series, the windows, the bases, the losses, the forecasts and coverage, the diagnostics and
the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax

BACK, HORIZON = 16, 4
QUANTILES = jnp.array([0.1, 0.5, 0.9])


def make_series(key, n=3, length=96):
    k1, k2, k3 = jax.random.split(key, 3)
    t = jnp.arange(length, dtype=jnp.float32)
    slope = jax.random.uniform(k1, (n, 1), minval=-0.02, maxval=0.05)
    series = (slope * t + jnp.sin(2 * jnp.pi * t / 12) + 0.5 * jnp.cos(2 * jnp.pi * t / 7)
              + 0.2 * jax.random.normal(k2, (n, length)))  # fmt: skip
    missing = jax.random.bernoulli(k3, 0.1, (n, length)).at[:, 0].set(False)
    return jnp.where(missing, jnp.nan, series), t


def fill_missing(row, t):
    observed = ~jnp.isnan(row)
    # jnp.interp needs the observed points: push the missing ones to +inf times, sorted last
    times = jnp.where(observed, t, jnp.inf)
    order = jnp.argsort(times)
    return jnp.where(observed, row, jnp.interp(t, times[order], jnp.nan_to_num(row)[order]))


def windows(series, stride=4):
    starts = jnp.arange(0, series.shape[-1] - BACK - HORIZON + 1, stride)
    cut = lambda s: lax.dynamic_slice(series, (s,), (BACK + HORIZON,))
    w = jax.vmap(cut)(starts)
    return w[:, :BACK], w[:, BACK:]


def polynomial_basis(degree, times):
    coeffs = jnp.eye(degree + 1)[:, ::-1]
    return jax.vmap(lambda c: jnp.polyval(c, times))(coeffs)


def fourier_basis(harmonics, times, period):
    k = jnp.arange(1, harmonics + 1)[:, None]
    angle = 2 * jnp.pi * k * times[None] / period
    return jnp.concatenate([jnp.ones((1, times.shape[0])), jnp.cos(angle), jnp.sin(angle)])


class Block(nn.Module):
    kind: str
    hidden: int = 32

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.hidden)(x))
        h = nn.relu(nn.Dense(self.hidden)(h))
        back_t = jnp.arange(BACK) / BACK
        fore_t = (BACK + jnp.arange(HORIZON)) / BACK
        if self.kind == "trend":
            back_basis, fore_basis = polynomial_basis(2, back_t), polynomial_basis(2, fore_t)
        elif self.kind == "seasonal":
            back_basis = fourier_basis(3, back_t * BACK, 12.0)
            fore_basis = fourier_basis(3, fore_t * BACK, 12.0)
        else:
            return nn.Dense(BACK)(h), nn.Dense(HORIZON * 3)(h).reshape(*h.shape[:-1], HORIZON, 3)
        theta_b = nn.Dense(back_basis.shape[0], use_bias=False)(h)
        theta_f = nn.Dense(fore_basis.shape[0] * 3, use_bias=False)(h)
        theta_f = theta_f.reshape(*h.shape[:-1], 3, fore_basis.shape[0])
        return theta_b @ back_basis, jnp.swapaxes(theta_f @ fore_basis, -1, -2)


class NBeats(nn.Module):
    @nn.compact
    def __call__(self, x):
        residual, forecast = x, 0.0
        for kind in ("trend", "seasonal", "generic"):
            backcast, block_forecast = Block(kind)(residual)
            residual = residual - backcast
            forecast = forecast + block_forecast
        return jnp.sort(forecast, axis=-1)


def pinball(pred, target):
    diff = target[..., None] - pred
    return jnp.mean(jnp.maximum(QUANTILES * diff, (QUANTILES - 1) * diff))


def run():
    out = {}
    raw, t = make_series(jax.random.PRNGKey(0))
    out["missing"] = jnp.isnan(raw).sum()
    filled = jax.vmap(fill_missing, (0, None))(raw, t)
    out["filled"] = filled[:, :12]
    inputs, targets = jax.vmap(windows)(filled)
    inputs, targets = inputs.reshape(-1, BACK), targets.reshape(-1, HORIZON)
    masked = jnp.where(jnp.arange(BACK) % 5 == 0, jnp.nan, inputs)
    loc = jnp.nanmean(masked, axis=-1, keepdims=True)
    scale = jnp.nanstd(masked, axis=-1, keepdims=True) + 1e-3
    x, y = (inputs - loc) / scale, (targets - loc) / scale
    out["window_shape"] = list(x.shape)
    out["scales"] = jnp.stack([loc[:5, 0], scale[:5, 0]])
    out["bases"] = (polynomial_basis(2, jnp.linspace(0, 1, 5)),
                    fourier_basis(2, jnp.arange(4.0), 12.0))  # fmt: skip

    model = NBeats()
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    tx = optax.adamw(3e-3, weight_decay=1e-4)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        loss, grads = jax.value_and_grad(lambda p: pinball(model.apply({"params": p}, x), y))(
            params
        )
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(10):
        params, opt_state, loss = step(params, opt_state)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    pred = model.apply({"params": params}, x)
    out["forecast"] = pred[:3] * scale[:3, :, None] + loc[:3, :, None]
    out["coverage"] = jnp.mean((y >= pred[..., 0]) & (y <= pred[..., 2]))
    unsorted = jnp.array([[0.3, -0.1, 0.2], [1.0, 0.5, 0.7]])
    keys, idx = lax.sort((unsorted, jnp.broadcast_to(jnp.arange(3), (2, 3))), num_keys=1)
    out["sort_operands"] = (keys, idx)

    # diagnostics of the filled series
    series = filled[0]
    out["moving_average"] = lax.reduce_window(series, 0.0, lax.add, (7,), (1,), "VALID") / 7
    out["rolling_max"] = lax.reduce_window(series, -jnp.inf, lax.max, (5,), (2,), "SAME")
    out["drawdown"] = series - lax.cummax(series)
    out["cumlogsumexp"] = lax.cumlogsumexp(series[:10])
    centered = series - series.mean()
    acf = jnp.correlate(centered, centered, mode="full")[series.shape[0] - 1 :]
    out["acf"] = (acf / acf[0])[:14]
    out["quantiles"] = jnp.quantile(series, QUANTILES)
    out["top_values"] = lax.approx_max_k(series, 3)
    out["params"] = params
    return out
