"""The cases of `test_checkify.py`, written once against a namespace `ns` holding `jax`, `jnp`,
`lax` and `checkify` (JAX's when `record_checkify.py` records the answers, numbax's when the test
runs them). Each case returns a JSON-able outcome: the error message `err.get()` and the
output values, or the exception a call raised (its class name and message)."""

import numpy as np


def _vals(x):
    return np.asarray(x, np.float64).ravel().tolist()


def _run(ns, checked, *args):
    args = [ns.jnp.asarray(a) for a in args]
    try:
        err, out = checked(*args)
    except Exception as e:  # noqa: BLE001  (recorded and compared)
        return {"raised": type(e).__name__, "message": str(e)}
    leaves = ns.jax.tree_util.tree_leaves(out)
    return {"get": err.get(), "str": str(err), "out": [_vals(v) for v in leaves]}


def _raises(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (recorded and compared)
        return {"raised": type(e).__name__, "message": str(e)}
    return {"raised": None}


def cases(ns):
    """name -> zero-argument function giving the outcome."""
    jax, jnp, lax, ck = ns.jax, ns.jnp, ns.lax, ns.checkify

    def positive(x):
        ck.check(x > 0, "{x} needs to be positive!", x=x)
        return 1 / x

    def two_checks(x):
        ck.check(x > 0, "first: {}", x)
        ck.check(x > 1, "second")
        return x * 2

    def in_cond(x):
        def yes(v):
            ck.check(v < 10, "too big: {}", v)
            return v + 1

        return lax.cond(x > 0, yes, lambda v: v - 1, x)

    def in_scan(xs):
        def body(c, x):
            ck.check(x != 3.0, "three at carry {}", c)
            return c + x, c * x

        return lax.scan(body, 0.0, xs)

    def in_fori(n):
        def body(i, c):
            ck.check(c < 20.0, "overflow {}", c)
            return c * 2.0

        return lax.fori_loop(0, n, body, 1.0)

    def in_while(x):
        def body(c):
            ck.check(c < 5.0, "c reached {}", c)
            return c + 1.0

        return lax.while_loop(lambda c: c < 8.0, body, x)

    def nan_f(x):
        return jnp.sin(x) * jnp.log(x)

    def div_f(x, y):
        return x // y

    def index_f(x, i):
        return x[i]

    def slice_f(x, i):
        return lax.dynamic_slice(x, (i,), (2,))

    def update_f(x, i):
        return x.at[i].set(7.0)

    def mixed(x, i):
        ck.check(jnp.all(x > -5), "all above -5")
        return jnp.log(x)[i]

    def with_grad(x):
        g = jax.grad(lambda v: jnp.sum(jnp.sqrt(v)))(x)
        ck.check(jnp.all(g < 1.0), "steep")
        return g

    def nested_jit(x):
        return jax.jit(positive)(x)

    def batched_inside(xs):
        return jax.vmap(positive)(xs)

    def debug_f(x):
        ck.debug_check(x > 0, "debug {}", x)
        return x + 1

    def with_error_value(x):
        err, y = ck.checkify(positive)(x)
        ck.check_error(err)
        return y

    def f32(x):
        return jnp.asarray(x, jnp.float32)

    out = {
        "user_ok": lambda: _run(ns, ck.checkify(positive), f32(2.0)),
        "user_fail": lambda: _run(ns, ck.checkify(positive), f32(-3.0)),
        "user_fail_jit_outside": lambda: _run(ns, jax.jit(ck.checkify(positive)), f32(-3.0)),
        "user_fail_jit_inside": lambda: _run(ns, ck.checkify(nested_jit), f32(-3.0)),
        "first_error_wins": lambda: _run(ns, ck.checkify(two_checks), f32(-1.0)),
        "second_error": lambda: _run(ns, ck.checkify(two_checks), f32(0.5)),
        "cond_taken": lambda: _run(ns, jax.jit(ck.checkify(in_cond)), f32(12.0)),
        "cond_other": lambda: _run(ns, ck.checkify(in_cond), f32(-12.0)),
        "scan": lambda: _run(ns, ck.checkify(in_scan), f32(np.arange(6.0))),
        "scan_jit": lambda: _run(ns, jax.jit(ck.checkify(in_scan)), f32(np.arange(6.0))),
        "scan_ok": lambda: _run(ns, ck.checkify(in_scan), f32(np.arange(3.0))),
        "fori": lambda: _run(ns, ck.checkify(in_fori), 6),
        "while": lambda: _run(ns, ck.checkify(in_while), f32(1.0)),
        "nan_off": lambda: _run(ns, ck.checkify(nan_f), f32(-1.0)),
        "nan_on": lambda: _run(ns, ck.checkify(nan_f, errors=ck.nan_checks), f32(-1.0)),
        "nan_jit": lambda: _run(ns, jax.jit(ck.checkify(nan_f, errors=ck.float_checks)), f32(-1.0)),
        "nan_ok": lambda: _run(ns, ck.checkify(nan_f, errors=ck.nan_checks), f32(2.0)),
        "div_on": lambda: _run(
            ns, ck.checkify(div_f, errors=ck.div_checks), np.int32(7), np.int32(0)
        ),
        "div_ok": lambda: _run(
            ns, ck.checkify(div_f, errors=ck.div_checks), np.int32(7), np.int32(2)
        ),
        "index_on": lambda: _run(
            ns, ck.checkify(index_f, errors=ck.index_checks), f32(np.arange(3.0)), 5
        ),
        "index_jit": lambda: _run(
            ns, jax.jit(ck.checkify(index_f, errors=ck.index_checks)), f32(np.arange(3.0)), 4
        ),
        "index_negative": lambda: _run(
            ns, ck.checkify(index_f, errors=ck.index_checks), f32(np.arange(3.0)), -5
        ),
        "index_ok": lambda: _run(
            ns, ck.checkify(index_f, errors=ck.index_checks), f32(np.arange(3.0)), -1
        ),
        "index_off": lambda: _run(ns, ck.checkify(index_f), f32(np.arange(3.0)), 5),
        "index_static_int": lambda: _run(
            ns, ck.checkify(lambda x: index_f(x, 5), errors=ck.index_checks), f32(np.arange(3.0))
        ),
        "index_static_negative": lambda: _run(
            ns, ck.checkify(lambda x: index_f(x, -5), errors=ck.index_checks), f32(np.arange(3.0))
        ),
        "index_static_ok": lambda: _run(
            ns, ck.checkify(lambda x: index_f(x, -2), errors=ck.index_checks), f32(np.arange(3.0))
        ),
        "dynamic_slice": lambda: _run(
            ns, ck.checkify(slice_f, errors=ck.index_checks), f32(np.arange(4.0)), 3
        ),
        "scatter": lambda: _run(
            ns, ck.checkify(update_f, errors=ck.index_checks), f32(np.arange(4.0)), 6
        ),
        "all_checks_user": lambda: _run(
            ns, ck.checkify(mixed, errors=ck.all_checks), f32([-6.0, 2.0]), 0
        ),
        "all_checks_nan": lambda: _run(
            ns, ck.checkify(mixed, errors=ck.all_checks), f32([-1.0, 2.0]), 1
        ),
        "automatic_no_user": lambda: _run(
            ns, ck.checkify(mixed, errors=ck.automatic_checks), f32([-6.0, 2.0]), 1
        ),
        "grad_inside": lambda: _run(ns, ck.checkify(with_grad), f32([0.1, 4.0])),
        # checkify_guide.md: sqrt's JVP is JAX's g * (0.5 / sqrt(x)), so the nan comes from mul
        "grad_nan_primitive": lambda: _run(
            ns, ck.checkify(jax.grad(lambda x: x / (1 + jnp.sqrt(x))), errors=ck.nan_checks), 0.0
        ),
        "vmap_outside": lambda: _run(
            ns, jax.vmap(ck.checkify(positive)), f32([1.0, -2.0, 3.0, -4.0])
        ),
        "vmap_outside_ok": lambda: _run(ns, jax.vmap(ck.checkify(positive)), f32([1.0, 2.0])),
        "vmap_inside": lambda: _run(ns, ck.checkify(batched_inside), f32([1.0, -2.0, 3.0, -4.0])),
        "debug_check": lambda: _run(ns, ck.checkify(debug_f), f32(-1.0)),
        "check_error": lambda: _run(ns, ck.checkify(with_error_value), f32(-2.0)),
        "grad_of_checkified": lambda: {
            "out": _vals(jax.grad(lambda x: ck.checkify(positive)(x)[1])(f32(2.0)))
        },
        "throw": lambda: _raises(lambda: ck.checkify(positive)(f32(-3.0))[0].throw()),
        "throw_ok": lambda: _raises(lambda: ck.checkify(positive)(f32(3.0))[0].throw()),
        "eager_check": lambda: _raises(lambda: positive(f32(-3.0))),
        "eager_check_ok": lambda: _raises(lambda: positive(f32(3.0))),
        "eager_debug_check": lambda: _raises(lambda: debug_f(f32(-3.0))),
        "jit_without_checkify": lambda: _raises(lambda: jax.jit(positive)(f32(3.0))),
        "grad_eager_check": lambda: _raises(lambda: jax.grad(positive)(f32(-3.0))),
        "vmap_eager_check": lambda: _raises(lambda: jax.vmap(positive)(f32([1.0, -2.0, -3.0]))),
        "non_scalar_pred": lambda: _raises(
            lambda: ck.checkify(lambda x: ck.check(x > 0, "m"))(f32([1.0, 1.0]))
        ),
        "python_bool_pred": lambda: _run(ns, ck.checkify(lambda: ck.check(False, "no"))),
        "format_arg_not_array": lambda: _raises(
            lambda: ck.checkify(lambda x: ck.check(x > 0, "{}", 3))(f32(1.0))
        ),
    }
    return out
