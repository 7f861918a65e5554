"""The empirical neural tangent kernel of a small MLP, computed three ways, and the linearised
network it describes (ours, in the style of the "Fast finite width NTK" tutorial and of the
neural-tangents library's empirical kernels, written with JAX's transformations only).

The MLP's parameters are a list of dicts (NTK parameterisation: weights scaled by
1/sqrt(fan_in) in the forward pass). The kernel J(x1) J(x2)^T is computed by contracting
`jax.jacrev` Jacobians leaf by leaf (`jax.tree.map` and `einsum`), by `vmap` over the
standard basis of `jax.vjp` followed by `jax.jvp` (the implicit kernel-vector product), and
from `jax.flatten_util.ravel_pytree` Jacobians (`jacfwd`); all agree. `jax.linearize` gives
the linearised model f(x; theta0) + J (theta - theta0), its transpose by
`jax.linear_transpose` is checked against `vjp`, and `jax.closure_convert` hoists the
parameters a closure captures. The kernel's spectrum (`eigh`), its condition number and NTK
regression predictions (`cho_factor`/`cho_solve`, against `jnp.linalg.solve`) are compared
with a few gradient-descent steps of the linearised model."""

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree
from jax.scipy.linalg import cho_factor, cho_solve


def init(key, sizes=(3, 16, 16, 2)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (m, n)), "b": 0.1 * jax.random.normal(jax.random.fold_in(k, 1), (n,))}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]  # fmt: skip


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] / jnp.sqrt(layer["w"].shape[0]) + layer["b"])
    last = params[-1]
    return x @ last["w"] / jnp.sqrt(last["w"].shape[0]) + last["b"]


def ntk_jacobian_contraction(params, x1, x2):
    j1 = jax.jacrev(mlp)(params, x1)
    j2 = jax.jacrev(mlp)(params, x2)
    terms = jax.tree.map(lambda a, b: jnp.einsum("ia...,jb...->iajb", a, b), j1, j2)
    return sum(jax.tree.leaves(terms))


def ntk_vjp_jvp(params, x1, x2):
    _, pullback = jax.vjp(lambda p: mlp(p, x2), params)

    def column(cotangent):
        (tangent,) = pullback(cotangent)
        return jax.jvp(lambda p: mlp(p, x1), (params,), (tangent,))[1]

    out2 = mlp(params, x2)
    basis = jnp.eye(out2.size).reshape(-1, *out2.shape)
    cols = jax.vmap(column)(basis)  # (j*b, i, a)
    return jnp.moveaxis(cols.reshape(*out2.shape, *cols.shape[1:]), (0, 1), (2, 3))


def ntk_flat(params, x1, x2):
    flat, unravel = ravel_pytree(params)
    f = lambda theta, x: mlp(unravel(theta), x).ravel()  # noqa: E731
    j1 = jax.jacfwd(f)(flat, x1)
    j2 = jax.jacfwd(f)(flat, x2)
    n1, n2 = x1.shape[0], x2.shape[0]
    return (j1 @ j2.T).reshape(n1, -1, n2, j2.shape[0] // n2)


def run():
    out = {}
    params = init(jax.random.PRNGKey(0))
    kx, ky, kt = jax.random.split(jax.random.PRNGKey(1), 3)
    x_train = jax.random.normal(kx, (6, 3))
    y_train = jnp.stack([jnp.sin(x_train[:, 0]), jnp.cos(x_train[:, 1])], 1)
    x_test = jax.random.normal(kt, (3, 3))

    k1 = ntk_jacobian_contraction(params, x_train, x_test)
    k2 = ntk_vjp_jvp(params, x_train, x_test)
    k3 = ntk_flat(params, x_train, x_test)
    out["kernels"] = [
        k1.shape,
        k1[:, 0, :, 0],
        jnp.abs(k1 - k2).max() < 1e-4,
        jnp.abs(k1 - k3).max() < 1e-4,
    ]
    flat, _ = ravel_pytree(params)
    out["n_params"] = flat.size

    k_train = ntk_jacobian_contraction(params, x_train, x_train)[:, 0, :, 0]
    evals = jnp.linalg.eigh(k_train)[0]
    out["spectrum"] = [
        evals,
        jnp.linalg.cond(k_train) > 100,
        jnp.allclose(k_train, k_train.T, atol=1e-5),
    ]

    f0_train, f0_test = mlp(params, x_train), mlp(params, x_test)
    reg = k_train + 1e-3 * jnp.eye(6)
    alpha = cho_solve(cho_factor(reg, lower=True), y_train - f0_train)
    k_test = k1[:, 0, :, 0].T
    pred = f0_test + k_test @ alpha
    out["ntk_regression"] = [
        pred,
        jnp.abs(alpha - jnp.linalg.solve(reg, y_train - f0_train)).max() < 1e-3,
    ]

    f0, jvp_fn = jax.linearize(lambda p: mlp(p, x_train), params)
    transpose = jax.linear_transpose(jvp_fn, params)
    ct = jnp.ones_like(f0)
    (by_transpose,) = transpose(ct)
    by_vjp = jax.vjp(lambda p: mlp(p, x_train), params)[1](ct)[0]
    out["transpose"] = [jax.tree.map(lambda a, b: jnp.abs(a - b).max() < 1e-5, by_transpose, by_vjp),
                        by_transpose[0]["b"]]  # fmt: skip

    delta = jax.tree.map(jnp.zeros_like, params)
    lr = 0.5
    for _ in range(5):
        residual = f0 + jvp_fn(delta) - y_train
        (g,) = transpose(residual / residual.size)
        delta = jax.tree.map(lambda d, gi: d - lr * gi, delta, g)
    out["linearized_gd"] = [
        jnp.mean((f0 + jvp_fn(delta) - y_train) ** 2),
        jnp.mean((f0 - y_train) ** 2),
    ]
    moved = jax.tree.map(lambda p, d: p + d, params, delta)
    out["linear_vs_network"] = [
        mlp(moved, x_test) - (f0_test + jax.jvp(lambda p: mlp(p, x_test), (params,), (delta,))[1])
    ]

    seen = []

    def through_converted(p, x):
        def scaled_output(z):
            return mlp(p, z).sum() * 2.0

        converted, consts = jax.closure_convert(scaled_output, x)
        seen.append((len(consts), [c.shape for c in consts]))
        return converted(x, *consts)

    g_converted = jax.grad(through_converted)(params, x_test[0])
    g_direct = jax.grad(lambda p, x: mlp(p, x).sum() * 2.0)(params, x_test[0])
    out["closure_convert"] = [seen[0][0], through_converted(params, x_test[0]), g_converted[1]["w"][:2],
                              jax.tree.map(lambda a, b: jnp.abs(a - b).max() < 1e-6, g_converted, g_direct)]  # fmt: skip
    return out
