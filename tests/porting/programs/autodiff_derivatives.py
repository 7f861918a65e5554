"""Derivatives with JAX on a small tanh regression of our own: what `grad`, its options and the
Jacobian/Hessian/JVP/VJP family compute, what they print and how they fail.

Checked (values within float32 round-off, reprs as printed, errors by built-in class and first
line):
- `grad` with `argnums` (an int and a tuple), `has_aux`, `value_and_grad` (also with
  `has_aux`), dict and `NamedTuple` parameters (the gradient keeps the container), derivatives of
  order 1-4 by nesting `grad`, `grad`/`jit` interleaved, `grad` through Python `if` and a data-
  dependent `while` on concrete values;
- `jacfwd`/`jacrev`/`jacobian`/`hessian` of a vector function, of a dict argument and
  `jacfwd(jacrev)`;
- `jvp`, `vjp` (its cotangent tuple; a list of them is not an array: `jnp.stack`'s error),
  `linearize`, `jvp`/`vjp` under `vmap` (matrix-Jacobian and Jacobian-matrix products), the
  Jacobians rebuilt from them, a `vjp` function under `jit`, three Hessian-vector products
  against `tensordot` of the Hessian;
- `stop_gradient` in a semi-gradient update, a straight-through `floor`, per-example gradients
  by `jit(vmap(grad))`, the NaN gradient of `where` and its safe form, the zero gradients of a
  step function and `jax.nn.sigmoid`'s under `vmap(grad)` (printed with
  `np.printoptions(suppress=True, precision=2)`);
- complex inputs: `jvp`/`vjp` of a non-holomorphic map, `grad` of a real function of a complex
  number, `grad(holomorphic=True)` of `cos`, of `conj` and through a complex Cholesky factor;
- finite differences against `grad`, `check_grads(order=2)`.
"""

from tests.porting import printed
from tests.porting.printed import error as _error


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    feats = jnp.array(
        [[1.0, -0.5, 2.0], [0.3, 0.8, -1.2], [-1.5, 0.2, 0.4], [0.7, 1.1, 0.9], [0.0, -2.0, 0.5]]
    )
    labels = jnp.array([0.5, -0.3, 0.8, 0.9, -0.6])
    w = jnp.array([0.2, -0.4, 0.6])
    b = jnp.float32(0.1)

    def model(w, b, x):
        return jnp.tanh(jnp.dot(x, w) + b)

    def mse(w, b):
        return jnp.mean((model(w, b, feats) - labels) ** 2)

    # grad and its arguments
    gw = jax.grad(mse)(w, b)
    gb = jax.grad(mse, argnums=1)(w, b)
    both = jax.grad(mse, (0, 1))(w, b)
    print(f"{gw=}")
    print(f"{gb=}")
    print(type(both).__name__, len(both))
    value, grads = jax.value_and_grad(mse, argnums=(0, 1))(w, b)
    print(value, grads[1])
    mark("grad")

    def mse_aux(w, b):
        resid = model(w, b, feats) - labels
        return jnp.mean(resid**2), {"max": jnp.max(jnp.abs(resid))}

    g_aux, aux = jax.grad(mse_aux, has_aux=True)(w, b)
    (v_aux, aux2), g_aux2 = jax.value_and_grad(mse_aux, has_aux=True)(w, b)
    out["has_aux"] = [g_aux, aux, v_aux, aux2, g_aux2]

    class Affine(NamedTuple):
        w: jax.Array
        b: jax.Array

    def mse_params(p):
        return mse(p["w"], p["b"]) if isinstance(p, dict) else mse(p.w, p.b)

    g_dict = jax.grad(mse_params)({"b": b, "w": w})
    g_tuple = jax.grad(mse_params)(Affine(w, b))
    print(sorted(g_dict), type(g_tuple).__name__, g_tuple._fields)
    print(g_tuple)
    mark("containers")

    def quartic(x):
        return 0.5 * x**4 - 2.0 * x**3 + x

    d = quartic
    for order in range(1, 5):
        d = jax.grad(d)
        print(order, d(1.5))
    print(jax.grad(jax.jit(jax.grad(jax.jit(jax.grad(jnp.sin)))))(0.7))
    mark("higher")

    def bumpy(x):
        if x < 1.0:
            return jnp.sin(x) * x
        return 4.0 - x**2

    def cube_root(a):
        x = a
        while abs(x**3 - a) > 1e-5:
            x = x - (x**3 - a) / (3.0 * x**2)
        return x

    out["python_flow"] = [jax.grad(bumpy)(0.5), jax.grad(bumpy)(2.0), jax.grad(cube_root)(8.0)]

    # Jacobians and Hessians
    def preds(w):
        return model(w, b, feats)

    j_fwd = jax.jacfwd(preds)(w)
    j_rev = jax.jacrev(preds)(w)
    print("jacobian", j_fwd.shape, jnp.allclose(j_fwd, j_rev, atol=1e-6))
    j_dict = jax.jacrev(lambda p: model(p["w"], p["b"], feats))({"w": w, "b": b})
    print({k: v.shape for k, v in j_dict.items()})
    hess = jax.hessian(mse)(w, b)
    hess2 = jax.jacfwd(jax.jacrev(mse))(w, b)
    print("hessian", hess.shape, jnp.allclose(hess, hess2, atol=1e-6))
    mark("jacobians")
    out["jacobians"] = [j_fwd, j_dict, hess, jax.jacobian(jnp.cos)(jnp.array([0.3, 1.2]))]

    # jvp, vjp, linearize
    tangent = jnp.array([1.0, 0.5, -1.0])
    y, y_dot = jax.jvp(preds, (w,), (tangent,))
    y_lin, push = jax.linearize(preds, w)
    y_vjp, pull = jax.vjp(preds, w)
    cot = jnp.array([0.1, -0.2, 0.3, 0.0, 1.0])
    pulled = pull(cot)
    print(type(pulled).__name__, len(pulled), pulled[0].shape)
    out["jvp"] = [y, y_dot, push(tangent), y_lin, y_vjp, pulled]
    try:
        jnp.stack([pull(c) for c in jnp.eye(5)])
    except Exception as e:
        _error(errors, e)
    mark("jvp_vjp")

    covecs = jnp.linspace(-1.0, 1.0, 20).reshape(4, 5)
    vecs = jnp.linspace(0.5, -0.5, 12).reshape(4, 3)
    (mjp,) = jax.vmap(pull)(covecs)
    jmp = jax.vmap(lambda v: jax.jvp(preds, (w,), (v,))[1])(vecs)
    loop_mjp = jnp.stack([pull(c)[0] for c in covecs])
    loop_jmp = jnp.stack([push(v) for v in vecs])
    (rev_jac,) = jax.vmap(pull)(jnp.eye(5))
    fwd_jac = jax.vmap(push, in_axes=1, out_axes=1)(jnp.eye(3))
    print(
        jnp.allclose(mjp, loop_mjp, atol=1e-6),
        jnp.allclose(jmp, loop_jmp, atol=1e-6),
        jnp.allclose(rev_jac, j_rev, atol=1e-6),
        jnp.allclose(fwd_jac, j_fwd, atol=1e-6),
    )
    mark("batched_products")
    out["products"] = [mjp, jmp]

    def guarded(x):
        try:
            if x > 2.0:
                raise ArithmeticError
            return x**3
        except ArithmeticError:
            return 5.0 * jnp.log(x)

    _, guarded_pull = jax.vjp(guarded, 3.0)
    out["jit_vjp"] = jax.jit(guarded_pull)(2.0)

    def energy(m):
        return jnp.sum(jnp.cos(m) * m**2)

    m = jnp.array([[0.1, -0.7, 1.3], [0.4, 0.9, -1.1]])
    dm = jnp.array([[1.0, 0.0, -0.5], [0.25, -1.0, 0.5]])
    fwd_rev = jax.jvp(jax.grad(energy), (m,), (dm,))[1]
    rev_fwd = jax.grad(lambda m: jax.jvp(energy, (m,), (dm,))[1])(m)
    rev_rev = jax.grad(lambda m: jnp.vdot(jax.grad(energy)(m), dm))(m)
    dense = jnp.tensordot(jax.hessian(energy)(m), dm, 2)
    print([bool(jnp.allclose(h, dense, atol=1e-5)) for h in (fwd_rev, rev_fwd, rev_rev)])
    mark("hvp")
    out["hvp"] = fwd_rev

    # stop_gradient, straight-through estimators, per-example gradients
    def value(theta, s):
        return jnp.dot(theta, s)

    def td_loss(theta, s, r, s_next):
        target = r + 0.9 * value(theta, s_next)
        return 0.5 * (lax.stop_gradient(target) - value(theta, s)) ** 2

    def full_loss(theta, s, r, s_next):
        return 0.5 * (r + 0.9 * value(theta, s_next) - value(theta, s)) ** 2

    theta = jnp.array([0.3, -0.2, 0.5])
    s, s_next, r = jnp.array([1.0, 0.0, 2.0]), jnp.array([0.0, 1.0, 1.0]), jnp.float32(0.5)
    states = jnp.stack([s, s_next, s + s_next])
    rewards = jnp.array([0.5, -1.0, 2.0])
    per_example = jax.jit(jax.vmap(jax.grad(td_loss), in_axes=(None, 0, 0, 0)))
    out["stop_gradient"] = [
        jax.grad(td_loss)(theta, s, r, s_next),
        jax.grad(full_loss)(theta, s, r, s_next),
        per_example(theta, states, rewards, states[::-1]),
        jax.vmap(jax.grad(td_loss))(jnp.stack([theta] * 3), states, rewards, states[::-1]),
    ]

    def straight_floor(x):
        return x - lax.stop_gradient(x) + lax.stop_gradient(jnp.floor(x))

    print(jnp.floor(2.7), straight_floor(2.7), jax.grad(jnp.floor)(2.7))
    print(jax.grad(straight_floor)(2.7))
    mark("straight_through")

    def unsafe_sqrt(x):
        return jnp.where(x > 0.0, jnp.sqrt(x), 0.0)

    def safe_sqrt(x):
        return jnp.where(x > 0.0, jnp.sqrt(jnp.where(x > 0.0, x, 1.0)), 0.0)

    xs = jnp.array([-1.0, 0.0, 0.5, 2.0])
    print(jax.vmap(jax.grad(unsafe_sqrt))(xs))
    print(jax.vmap(jax.grad(safe_sqrt))(xs))
    print(jax.vmap(jax.grad(lambda x: (x > 0.25).astype(jnp.float32)))(xs))
    with np.printoptions(suppress=True, precision=2):
        print(jax.vmap(jax.grad(jax.nn.sigmoid))(jnp.array([-8.0, -0.5, 0.0, 3.0])))
    mark("where")

    # complex numbers
    def warp(z):
        return z * jnp.conj(z) * 0.5 + (2.0 - 1.0j) * jnp.real(z) + 3.0j * jnp.imag(z)

    z = jnp.complex64(0.6 - 1.3j)
    _, z_dot = jax.jvp(warp, (z,), (jnp.complex64(0.2 + 0.9j),))
    _, warp_pull = jax.vjp(warp, z)
    (z_bar,) = warp_pull(jnp.complex64(-0.4 + 1.1j))
    hermitian = jnp.array(
        [[4.0, 1.0 - 1.0j, 0.5j], [1.0 + 1.0j, 5.0, 2.0 + 0.5j], [-0.5j, 2.0 - 0.5j, 6.0]]
    )

    def chol_score(a):
        low = jnp.linalg.cholesky(a)
        return jnp.sum(low * jnp.cos(low))

    complex_values = [
        z_dot,
        z_bar,
        jax.grad(lambda z: jnp.abs(z) ** 2 + jnp.real(z))(jnp.complex64(1.0 + 2.0j)),
        jax.grad(jnp.cos, holomorphic=True)(jnp.complex64(0.5 + 1.5j)),
        jax.grad(jnp.conj, holomorphic=True)(jnp.complex64(2.0 - 1.0j)),
        jax.grad(chol_score, holomorphic=True)(hermitian),
    ]
    print([str(c.dtype) for c in complex_values])
    out["complex"] = [[c.real, c.imag] for c in complex_values]
    mark("complex")

    # finite differences and check_grads
    from jax.test_util import check_grads

    eps = 1e-3
    direction = jnp.array([0.6, 0.0, -0.8])
    numeric = (mse(w + eps * direction, b) - mse(w - eps * direction, b)) / (2 * eps)
    print(round(float(numeric), 3), round(float(jnp.vdot(gw, direction)), 3))
    print(check_grads(mse, (w, b), order=2))
    mark("numerics")
