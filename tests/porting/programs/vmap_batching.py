"""Automatic vectorization and its multi-device sibling on functions of our own: `vmap` with its
axes arguments, nested, composed with `jit` and `grad`, what it traces and prints, and `pmap`
over the eight CPU devices with collectives.

Checked (values; reprs and jaxpr texts as printed, numbers apart; errors by built-in class and
first line):
- a windowed filter written for one example, batched by a Python loop, by hand and by `vmap`
  (`in_axes` 0, 1 with `out_axes=1`, `[0, None]`, a dict of axes, `out_axes=-1`), under `jit`
  (`jit(vmap)` and `vmap(jit)`); the jaxprs of one example and of its `vmap`, and of `vmap` and
  `vmap(vmap)` of `jnp.dot`, and `jit(...).trace` of the Python loop over the batch;
- nested `vmap` for a pairwise matrix, per-example gradients by `vmap(grad)`, Jacobians built
  from `jvp`/`vjp` and `vmap` (`out_axes=(None, -1)`);
- a batched value printed inside `vmap` (`VmapTracer`, `jax.typeof`, `.val`), the `if` on a
  batched value's error and `jnp.where` instead;
- `pmap`: `jax.devices()`/`device_count`, a mapped square printed and shown, arithmetic on its
  result, per-device random matrices from split keys, `psum` over a named axis returning a
  tuple, per-device Hessians of a small MLP by `jit(jacfwd(jacrev))`.
"""

from tests.porting import printed
from tests.porting.printed import error as _error
from tests.porting.printed import show as _show


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    from functools import partial

    import jax
    import jax.numpy as jnp
    import numpy as np

    def window(x, taps):
        return jnp.array([jnp.dot(x[i : i + 2], taps) for i in range(x.shape[0] - 1)])

    x = jnp.array([1.0, 4.0, 9.0, 16.0])
    taps = jnp.array([-1.0, 0.5])
    xs = jnp.stack([x, 2.0 * x, x - 3.0])
    tapss = jnp.stack([taps, taps[::-1], 2.0 * taps])

    def loop_window(xs, tapss):
        return jnp.stack([window(xs[i], tapss[i]) for i in range(xs.shape[0])])

    def hand_window(xs, tapss):
        cols = [jnp.sum(xs[:, i : i + 2] * tapss, axis=1) for i in range(xs.shape[1] - 1)]
        return jnp.stack(cols, axis=1)

    _show(window(x, taps))
    _show(loop_window(xs, tapss))
    _show(hand_window(xs, tapss))
    _show(jax.vmap(window)(xs, tapss))
    _show(jax.vmap(window, in_axes=1, out_axes=1)(xs.T, tapss.T))
    _show(jax.vmap(window, in_axes=[0, None])(xs, taps))
    _show(jax.vmap(window, in_axes=(None, 0), out_axes=-1)(x, tapss))
    mark("window")
    out["window"] = [jax.jit(jax.vmap(window))(xs, tapss), jax.vmap(jax.jit(window))(xs, tapss)]

    def weighted_sum(inputs):
        return jnp.sum(inputs["values"] * inputs["weights"])

    batch = {"values": xs, "weights": jnp.array([0.5, 0.25, 0.25, 1.0])}
    out["dict_axes"] = jax.vmap(weighted_sum, in_axes=({"values": 0, "weights": None},))(batch)

    print(jax.make_jaxpr(window)(x, taps))
    mark("jaxpr_one")
    print(jax.make_jaxpr(jax.vmap(window))(xs, tapss))
    mark("jaxpr_vmap")
    print(jax.jit(loop_window).trace(xs, tapss).jaxpr)
    mark("jaxpr_loop")
    print(jax.make_jaxpr(jax.vmap(jnp.dot))(jnp.ones((3, 5)), jnp.ones((3, 5))))
    print(jax.make_jaxpr(jax.vmap(jax.vmap(jnp.dot)))(jnp.ones((2, 3, 5)), jnp.ones((2, 3, 5))))
    mark("jaxpr_dot")

    def cosine(a, b):
        return jnp.dot(a, b) / jnp.sqrt(jnp.dot(a, a) * jnp.dot(b, b))

    def pairwise(f):
        return jax.vmap(jax.vmap(f, in_axes=(None, 0)), in_axes=(0, None))

    pts = jnp.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0], [-1.0, 0.5]])
    out["pairwise"] = pairwise(cosine)(pts, pts[:3])

    def hinge(w, b, x, y):
        return jnp.maximum(0.0, 1.0 - y * (jnp.dot(x, w) + b))

    labels = jnp.array([1.0, -1.0, 1.0, -1.0])
    w, b = jnp.array([0.3, -0.2]), 0.1
    out["per_example"] = jax.vmap(jax.grad(hinge, (0, 1)), in_axes=(None, None, 0, 0))(
        w, b, pts, labels
    )

    def jac_forward(f, v):
        push = partial(jax.jvp, f, (v,))
        basis = (jnp.eye(v.size).reshape((-1, *v.shape)),)
        y, cols = jax.vmap(push, out_axes=(None, -1))(basis)
        return cols.reshape(y.shape + v.shape)

    def jac_reverse(f, v):
        y, pull = jax.vjp(f, v)
        (rows,) = jax.vmap(pull)(jnp.eye(y.size).reshape((-1, *y.shape)))
        return rows.reshape(y.shape + v.shape)

    def field(v):
        return jnp.array([v[0] * v[1], jnp.sin(v[0]), v[1] ** 3])

    v0 = jnp.array([0.4, -1.5])
    jf, jr = jac_forward(field, v0), jac_reverse(field, v0)
    print(jf.shape, jnp.allclose(jf, jax.jacfwd(field)(v0)), jnp.allclose(jr, jf))
    mark("jacobians")
    out["jacobian"] = jf

    def peek(v):
        print("v =", v)
        print("typeof =", jax.typeof(v))
        return v + 1

    jax.vmap(peek)(jnp.arange(4))
    mark("tracer")
    jax.vmap(lambda v: print(v.val))(jnp.array([0.5, 1.5]))
    mark("val")

    def relu_if(v):
        if v > 0:
            return v
        return 0.0 * v

    try:
        jax.vmap(relu_if)(jnp.array([-1.0, 2.0]))
    except Exception as e:
        _error(errors, e)
    _show(jax.vmap(lambda v: jnp.where(v > 0, v, 0.0 * v))(jnp.array([-1.0, 2.0])))
    mark("if")

    # pmap over the eight CPU devices
    _show(jax.devices())
    _show(jax.device_count())
    cubes = jax.pmap(lambda v: v**3 - 1)(jnp.arange(8))
    print(cubes)
    _show(cubes)
    print(cubes * 0.5)
    mark("pmap")

    keys = jax.random.split(jax.random.key(7), 8)
    mats = jax.pmap(lambda k: jax.random.uniform(k, (3, 3)))(keys)
    out["pmap_random"] = [mats, jax.pmap(jnp.trace)(jax.pmap(jnp.matmul)(mats, mats))]

    @partial(jax.pmap, axis_name="dev")
    def share(v):
        total = jax.lax.psum(v, "dev")
        return v / total, total

    fractions, total = share(jnp.arange(1.0, 9.0))
    print(f"fractions:\n{fractions}")
    print("total:", total)
    mark("psum")

    def mlp(params, v):
        for wm, bv in params:
            v = jnp.tanh(wm @ v + bv)
        return jnp.sum(v**2)

    rng = np.random.RandomState(3)
    params = [
        (jnp.asarray(rng.normal(size=(3, 2)), jnp.float32), jnp.zeros(3)),
        (jnp.asarray(rng.normal(size=(1, 3)), jnp.float32), jnp.ones(1)),
    ]
    inputs = jnp.asarray(rng.normal(size=(8, 2)), jnp.float32)
    hess = jax.jit(jax.jacfwd(jax.jacrev(partial(mlp, params))))
    out["pmap_hessians"] = jax.pmap(hess)(inputs)
