"""Option pricing: Black-Scholes prices and Greeks by automatic differentiation, implied
volatility by Newton's method, and Monte Carlo estimates (ours, in the style of the
quantitative-finance notebooks that use JAX for Greeks).

The call price uses `jax.scipy.stats.norm.cdf`; delta, vega, theta and rho are one
`jax.grad(argnums=(0, 1, 2, 3))` call, gamma, vanna and volga come from `jax.hessian`, all
checked against the closed forms (`norm.pdf`) and `vmap`ped over a strike ladder; a
`jnp.vectorize` with a signature prices a grid. Put-call parity, the implied volatility by
Newton in a `lax.while_loop` (the iteration count returned) and its derivative wrt the price
through `lax.custom_root` (the implicit function theorem: one over vega). Monte Carlo prices a
call with antithetic normals and `jax.scipy.special.ndtri` of stratified uniforms, with
pathwise deltas by `grad` through the simulation, and an Asian option on `lax.scan` paths;
`jax.scipy.special.erfc` and `log_ndtr` give the same probabilities as `norm`."""

import jax
import jax.numpy as jnp
from jax.scipy.special import erfc, log_ndtr, ndtri
from jax.scipy.stats import norm


def d1_d2(s, k, t, r, sigma):
    d1 = (jnp.log(s / k) + (r + 0.5 * sigma**2) * t) / (sigma * jnp.sqrt(t))
    return d1, d1 - sigma * jnp.sqrt(t)


def call_price(s, sigma, t, r, k):
    d1, d2 = d1_d2(s, k, t, r, sigma)
    return s * norm.cdf(d1) - k * jnp.exp(-r * t) * norm.cdf(d2)


def put_price(s, sigma, t, r, k):
    d1, d2 = d1_d2(s, k, t, r, sigma)
    return k * jnp.exp(-r * t) * norm.cdf(-d2) - s * norm.cdf(-d1)


def closed_form_greeks(s, sigma, t, r, k):
    d1, d2 = d1_d2(s, k, t, r, sigma)
    delta = norm.cdf(d1)
    gamma = norm.pdf(d1) / (s * sigma * jnp.sqrt(t))
    vega = s * norm.pdf(d1) * jnp.sqrt(t)
    theta = -s * norm.pdf(d1) * sigma / (2 * jnp.sqrt(t)) - r * k * jnp.exp(-r * t) * norm.cdf(d2)
    rho = k * t * jnp.exp(-r * t) * norm.cdf(d2)
    return jnp.stack([delta, vega, -theta, rho, gamma])


def ad_greeks(s, sigma, t, r, k):
    first = jax.grad(call_price, argnums=(0, 1, 2, 3))(s, sigma, t, r, k)
    second = jax.hessian(call_price, argnums=(0, 1))(s, sigma, t, r, k)
    return jnp.stack(first), jnp.array([second[0][0], second[0][1], second[1][1]])


def implied_vol_newton(price, s, t, r, k, sigma0=0.3, tol=1e-6):
    vega = jax.grad(call_price, argnums=1)

    def cond(state):
        sigma, step, i = state
        return (jnp.abs(step) > tol) & (i < 50)

    def body(state):
        sigma, _, i = state
        step = (call_price(s, sigma, t, r, k) - price) / vega(s, sigma, t, r, k)
        return sigma - step, step, i + 1

    sigma, _, iters = jax.lax.while_loop(cond, body, (jnp.asarray(sigma0), jnp.asarray(1.0), 0))
    return sigma, iters


def implied_vol_root(price, s, t, r, k):
    def f(sigma):
        return call_price(s, sigma, t, r, k) - price

    def solve(f, x0):
        def body(_, x):
            return x - f(x) / jax.grad(f)(x)

        return jax.lax.fori_loop(0, 8, body, x0)

    def tangent_solve(g, y):
        return y / g(1.0)

    return jax.lax.custom_root(f, jnp.asarray(0.3), solve, tangent_solve)


def mc_call(s, sigma, t, r, k, z):
    z = jnp.concatenate([z, -z])
    st = s * jnp.exp((r - 0.5 * sigma**2) * t + sigma * jnp.sqrt(t) * z)
    return jnp.exp(-r * t) * jnp.mean(jnp.maximum(st - k, 0.0))


def asian_call(s, sigma, t, r, k, z):
    dt = t / z.shape[1]

    def step(log_s, zi):
        log_s = log_s + (r - 0.5 * sigma**2) * dt + sigma * jnp.sqrt(dt) * zi
        return log_s, jnp.exp(log_s)

    _, path = jax.lax.scan(step, jnp.full(z.shape[0], jnp.log(s)), z.T)
    return jnp.exp(-r * t) * jnp.mean(jnp.maximum(path.mean(axis=0) - k, 0.0))


def run():
    out = {}
    s, sigma, t, r, k = 100.0, 0.25, 0.75, 0.03, 105.0
    price = call_price(s, sigma, t, r, k)
    parity = price - put_price(s, sigma, t, r, k) - (s - k * jnp.exp(-r * t))
    out["prices"] = [price, put_price(s, sigma, t, r, k), jnp.abs(parity) < 1e-3]
    first, second = ad_greeks(s, sigma, t, r, k)
    closed = closed_form_greeks(s, sigma, t, r, k)
    out["greeks"] = [first, second, jnp.abs(jnp.append(first, second[0]) - closed).max() < 1e-3]

    strikes = jnp.linspace(80.0, 120.0, 5)
    ladder = jax.vmap(ad_greeks, in_axes=(None, None, None, None, 0))(s, sigma, t, r, strikes)
    out["ladder"] = [
        jax.vmap(call_price, in_axes=(None, None, None, None, 0))(s, sigma, t, r, strikes),
        *ladder,
    ]
    grid = jnp.vectorize(call_price, signature="(),(),(),(),()->()")(
        jnp.array([[90.0], [110.0]]), jnp.array([0.2, 0.4]), t, r, k)  # fmt: skip
    out["grid"] = grid

    iv, iters = implied_vol_newton(price, s, t, r, k)
    out["implied_vol"] = [iv, iters, implied_vol_root(price, s, t, r, k)]
    d_iv = jax.grad(implied_vol_root)(price, s, t, r, k)
    out["implied_vol_grad"] = [d_iv, d_iv * jax.grad(call_price, argnums=1)(s, sigma, t, r, k)]
    smile = jax.vmap(lambda p, kk: implied_vol_root(p, s, t, r, kk))(
        jax.vmap(lambda kk, vol: call_price(s, vol, t, r, kk))(strikes, jnp.array([0.3, 0.27, 0.25, 0.24, 0.26])), strikes)  # fmt: skip
    out["smile"] = smile

    z = jax.random.normal(jax.random.PRNGKey(0), (2000,))
    strata = ndtri((jnp.arange(2000) + 0.5) / 2000)
    mc = mc_call(s, sigma, t, r, k, z)
    out["monte_carlo"] = [mc, mc_call(s, sigma, t, r, k, strata), jax.grad(mc_call)(s, sigma, t, r, k, strata),
                          jax.grad(mc_call, argnums=1)(s, sigma, t, r, k, strata)]  # fmt: skip
    paths = jax.random.normal(jax.random.PRNGKey(1), (500, 12))
    out["asian"] = [
        asian_call(s, sigma, t, r, k, paths),
        jax.grad(asian_call)(s, sigma, t, r, k, paths),
    ]

    x = jnp.linspace(-3.0, 3.0, 7)
    out["normal_tails"] = [norm.cdf(x), 0.5 * erfc(-x / jnp.sqrt(2.0)), jnp.exp(log_ndtr(x)), norm.ppf(norm.cdf(x)),
                           log_ndtr(jnp.array([-10.0, -30.0]))]  # fmt: skip
    return out
