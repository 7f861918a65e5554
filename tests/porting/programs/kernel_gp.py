"""Kernel regression two ways: our own program over the APIs of JAX's kernel least-squares and
Gaussian-process regression examples, on small synthetic data.

- Gram matrices by a `vmap` of a `vmap` of a kernel (a linear one with
  `precision=lax.Precision.HIGH`, a squared-exponential one), `jit(partial(gram, kernel))`,
  and the primitives and output avals of `make_jaxpr` of them;
- kernel ridge weights found by jitted `optimizers.momentum` steps on the gradient of a
  quadratic objective, predictions by `jit(vmap(predict))`;
- a GP's negative log marginal likelihood through `jax.scipy.linalg.cholesky(lower=True)` and
  `solve_triangular` (lower, and upper on the transposed factor), its gradient in a dict of
  (1, 1) hyperparameters (positive by `logaddexp(x, 0)`) under `jit(grad(...))`, RMSProp-like
  steps with momentum written on the dicts, and the predictive mean, variance and two-sigma
  band at test points (a cross-covariance by two `vmap`s and a transpose).
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random
from jax.example_libraries import optimizers
from jax.scipy import linalg


def pairwise(kernel, rows, cols):
    return jax.vmap(lambda r: jax.vmap(lambda c: kernel(r, c))(cols))(rows)


def dot_kernel(a, b):
    return jnp.dot(a, b, precision=lax.Precision.HIGH)


def se_kernel(a, b):
    return jnp.exp(-0.5 * jnp.sum((a - b) ** 2))


def eqns(closed):
    return [(e.primitive.name, [str(v.aval) for v in e.outvars]) for e in closed.jaxpr.eqns]


def ridge(out):
    rs = np.random.RandomState(42)
    points = rs.randn(10, 3)
    targets = points @ np.array([0.5, -1.0, 2.0]) + 0.1 * rs.randn(10)
    gram = jax.jit(partial(pairwise, dot_kernel))(points, points)

    def objective(weights):
        fit = 0.5 * jnp.sum((gram @ weights - targets) ** 2)
        return fit + 0.05 * jnp.sum(weights**2)

    init, update, get = optimizers.momentum(0.002, 0.9)

    @jax.jit
    def step(i, state):
        return update(i, jax.grad(objective)(get(state)), state)

    state = init(jnp.zeros(len(points)))
    for i in range(150):
        state = step(i, state)
    weights = get(state)

    def predict(x):
        return jnp.sum(weights * jax.vmap(lambda p: dot_kernel(x, p))(points))

    predictions = jax.jit(jax.vmap(predict))(points)
    out["ridge"] = [weights, predictions, jnp.sum((predictions - targets) ** 2)]
    out["dot_jaxpr"] = eqns(jax.make_jaxpr(lambda p: pairwise(dot_kernel, p, p))(points))
    se_jaxpr = jax.make_jaxpr(partial(pairwise, se_kernel))(points, points)
    out["se_jaxpr"] = [name for name, _ in eqns(se_jaxpr)]
    out["se_gram"] = pairwise(se_kernel, points, points)


def positive(v):
    return jnp.logaddexp(v, 0.0)


def gp_pieces(hyper, x, y):
    scale = positive(hyper["scale"])
    width = positive(hyper["width"])
    noise = positive(hyper["noise"])
    xs = x / width
    cov = scale * pairwise(se_kernel, xs, xs) + (noise + 1e-6) * jnp.eye(len(x))
    factor = linalg.cholesky(cov, lower=True)
    centred = y - jnp.mean(y)
    alpha = linalg.solve_triangular(factor.T, linalg.solve_triangular(factor, centred, lower=True))
    return scale, width, factor, centred, alpha


def neg_marginal(hyper, x, y):
    scale, _, factor, centred, alpha = gp_pieces(hyper, x, y)
    fit = 0.5 * jnp.sum(centred * alpha)
    log_det = jnp.sum(jnp.log(jnp.diag(factor)))
    prior = 0.5 * jnp.log(scale) ** 2
    return jnp.sum(fit + log_det + 0.5 * len(x) * jnp.log(2 * jnp.pi) + prior)


def gp_predict(hyper, x, y, x_new):
    scale, width, factor, _, alpha = gp_pieces(hyper, x, y)
    cross = scale * pairwise(se_kernel, x_new / width, x / width).T
    mean = cross.T @ alpha + jnp.mean(y)
    v = linalg.solve_triangular(factor, cross, lower=True)
    var = scale * pairwise(se_kernel, x_new / width, x_new / width) - v.T @ v
    return mean, var


def gaussian_process(out):
    key_x, key_noise = random.split(random.key(17))
    x = 5.0 * random.uniform(key_x, (8, 1))
    y = jnp.cos(x[:, 0]) + 0.05 * random.normal(key_noise, (8,))
    hyper = {
        "scale": jnp.zeros((1, 1)),
        "width": jnp.zeros((1, 1)),
        "noise": jnp.full((1, 1), -4.0),
    }
    grad_fn = jax.jit(jax.grad(neg_marginal))
    velocity = {k: jnp.zeros_like(v) for k, v in hyper.items()}
    sq_avg = {k: jnp.ones_like(v) for k, v in hyper.items()}
    trace = []
    for i in range(40):
        grads = grad_fn(hyper, x, y)
        for k in hyper:
            velocity[k] = 0.8 * velocity[k] + 0.2 * grads[k]
            sq_avg[k] = 0.8 * sq_avg[k] + 0.2 * grads[k] ** 2
            hyper[k] = hyper[k] - 0.05 * velocity[k] / jnp.sqrt(sq_avg[k] + 1e-6)
        if i % 10 == 9:
            trace.append(neg_marginal(hyper, x, y))
    x_new = jnp.linspace(-0.5, 5.5, 9)[:, None]
    mean, var = gp_predict(hyper, x, y, x_new)
    sd = jnp.sqrt(jnp.diag(var))
    out["gp_trace"] = trace
    out["gp_hyper"] = hyper
    out["gp_prediction"] = [mean, var, mean - 2 * sd, mean + 2 * sd]


def run():
    out = {}
    ridge(out)
    gaussian_process(out)
    return out
