"""Influence functions of training points on a test loss, by Hessian-vector products and
conjugate gradients (ours, written as JAX influence-function and data-attribution code is).

A Flax logistic-regression head on fixed random features is trained to convergence by
full-batch Newton steps (`jax.hessian` of the raveled loss, `jnp.linalg.solve`).
The Hessian-vector product is forward-over-reverse (`jax.jvp` of `jax.grad`) on parameter
pytrees; `jax.scipy.sparse.linalg.cg` solves `H s = grad(test loss)` with a pytree right-hand
side and a function operator (`tol`, `maxiter`), checked against the dense solve; LiSSA's
recursion (`lax.fori_loop`) approximates the same inverse product. Each training point's
influence is `-grad_i . s` (`vmap` of per-example `grad`), the self-influences use the
dense inverse, and the prediction of removing the most influential point is compared with
actually retraining without it (weights of zero). Checks the Newton losses, the HVP against
the dense Hessian, the solutions, the influences and the leave-one-out comparison."""

import jax
import jax.numpy as jnp
from flax import linen as nn
from jax import lax
from jax.flatten_util import ravel_pytree
from jax.scipy.sparse.linalg import cg

DAMPING = 1e-2


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)[..., 0]


model = Head()


def make_data(key, n=24, d=4):
    k1, k2, k3 = jax.random.split(key, 3)
    x = jax.random.normal(k1, (n, d))
    w = jnp.array([1.5, -2.0, 0.5, 1.0])
    y = (x @ w + 0.8 * jax.random.normal(k2, (n,)) > 0).astype(jnp.float32)
    x_test = jax.random.normal(k3, (3, d))
    return x, y, x_test


def example_loss(params, x, y):
    logit = model.apply({"params": params}, x)
    return jnp.logaddexp(0.0, logit) - y * logit


def train_loss(params, x, y, weights):
    l2 = sum(jnp.sum(p**2) for p in jax.tree.leaves(params))
    return jnp.sum(weights * example_loss(params, x, y)) / x.shape[0] + DAMPING / 2 * l2


def newton_fit(params, x, y, weights, steps=6):
    flat, unravel = ravel_pytree(params)
    flat_loss = lambda f: train_loss(unravel(f), x, y, weights)
    losses = []
    for _ in range(steps):
        losses.append(flat_loss(flat))
        flat = flat - jnp.linalg.solve(jax.hessian(flat_loss)(flat), jax.grad(flat_loss)(flat))
    return unravel(flat), jnp.stack(losses)


def hvp(params, x, y, weights, v):
    grad_fn = lambda p: jax.grad(train_loss)(p, x, y, weights)
    return jax.jvp(grad_fn, (params,), (v,))[1]


def lissa(params, x, y, weights, v, scale=2.0, steps=60):
    def body(_, estimate):
        hv = hvp(params, x, y, weights, estimate)
        return jax.tree.map(lambda vv, e, h: vv + e - h / scale, v, estimate, hv)

    return jax.tree.map(lambda e: e / scale, lax.fori_loop(0, steps, body, v))


def run():
    out = {}
    x, y, x_test = make_data(jax.random.PRNGKey(0))
    weights = jnp.ones(x.shape[0])
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    params, losses = newton_fit(params, x, y, weights)
    out["newton_losses"] = losses
    out["params"] = params

    flat, unravel = ravel_pytree(params)
    dense_h = jax.hessian(lambda f: train_loss(unravel(f), x, y, weights))(flat)
    probe = jax.tree.map(jnp.ones_like, params)
    out["hvp"] = hvp(params, x, y, weights, probe)
    out["hvp_matches_dense"] = bool(
        jnp.allclose(ravel_pytree(out["hvp"])[0], dense_h @ ravel_pytree(probe)[0], atol=1e-5)
    )

    test_y = jnp.array([1.0, 0.0, 1.0])
    test_grad = jax.grad(lambda p: jnp.sum(example_loss(p, x_test, test_y)))(params)
    operator = lambda v: hvp(params, x, y, weights, v)
    s_cg, info = cg(operator, test_grad, tol=1e-6, maxiter=50)
    out["cg_info_is_none"] = info is None
    out["s_cg"] = s_cg
    s_dense = jnp.linalg.solve(dense_h, ravel_pytree(test_grad)[0])
    out["cg_error"] = jnp.max(jnp.abs(ravel_pytree(s_cg)[0] - s_dense))
    out["s_lissa"] = lissa(params, x, y, weights, test_grad)
    out["cg_jitted"] = jax.jit(lambda g: cg(operator, g, maxiter=5)[0])(test_grad)

    per_example = jax.vmap(jax.grad(example_loss), (None, 0, 0))(params, x, y)
    flat_grads = jax.vmap(lambda g: ravel_pytree(g)[0])(per_example)
    influence = -flat_grads @ s_dense / x.shape[0]
    out["influence"] = influence
    out["self_influence"] = jnp.einsum("ni,ij,nj->n", flat_grads, jnp.linalg.inv(dense_h),
                                       flat_grads)  # fmt: skip

    # remove the point whose up-weighting raises the test loss most, and retrain
    worst = int(jnp.argmax(influence))
    out["worst"] = worst
    loo_params, _ = newton_fit(params, x, y, weights.at[worst].set(0.0))
    before = jnp.sum(example_loss(params, x_test, test_y))
    after = jnp.sum(example_loss(loo_params, x_test, test_y))
    out["loo_change"] = after - before
    out["predicted_change"] = -influence[worst]
    return out
