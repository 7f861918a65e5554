"""core.debug.print / debug.callback and core.pure_callback: eager, jit (numpy back end), grad,
vmap, and the errors for what is not supported."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import debug
from core.callbacks import CallbackBatchingError, CallbackDifferentiationError, CallbackResultError
from core.jit.errors import LoweringError


def _printing(x):
    debug.print("x={x} total={}", x.sum(), x=x)
    return x * 2


def test_debug_print_eager(capsys):
    _printing(jnp.arange(3.0))
    assert capsys.readouterr().out == "x=[0. 1. 2.] total=3.0\n"


def test_debug_print_runs_each_call_under_python_jit(capsys):
    f = core.jit(_printing, backend="python")
    np.testing.assert_array_equal(f(jnp.arange(3.0)), [0.0, 2.0, 4.0])
    f(jnp.arange(3.0) + 1)
    out = capsys.readouterr().out
    assert out == "x=[0. 1. 2.] total=3.0\nx=[1. 2. 3.] total=6.0\n"


def test_debug_print_kept_when_result_unused(capsys):
    def f(x):
        debug.print("side {}", x)
        return x + 1

    core.jit(f, backend="python")(jnp.float32(2.0))
    assert capsys.readouterr().out == "side 2.0\n"


def test_debug_print_under_grad_and_vmap(capsys):
    g = core.grad(lambda x: _printing(x).sum())(jnp.ones(2))
    np.testing.assert_array_equal(g, [2.0, 2.0])
    assert capsys.readouterr().out == "x=[1. 1.] total=2.0\n"
    core.vmap(_printing)(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
    assert capsys.readouterr().out == "x=[1. 2.] total=3.0\nx=[3. 4.] total=7.0\n"


def test_debug_callback_receives_numpy_values_and_static_leaves():
    seen = []

    def cb(x, tag, scale=None):
        seen.append((type(x), x.tolist(), tag, float(scale)))

    def f(x):
        debug.callback(cb, x, "label", scale=x[0] * 10)
        return x

    core.jit(f, backend="python")(jnp.array([1.5, 2.5]))
    assert seen == [(np.ndarray, [1.5, 2.5], "label", 15.0)]


@pytest.mark.xfail(
    strict=True,
    reason="needs core/jit/simplify.py dead_code_elimination to keep effectful equations; "
    "today the numba back end drops the print without an error (remove this mark then)",
)
def test_debug_print_under_numba_jit_raises_lowering_error():
    with pytest.raises(LoweringError, match="backend='python'"):
        core.jit(lambda x: _printing(x))(jnp.arange(2.0))


def _sin_cb(x):
    return core.pure_callback(
        lambda a: np.sin(a), core.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential"
    )


def test_pure_callback_eager_and_python_jit():
    x = jnp.array([0.5, 1.0])
    np.testing.assert_allclose(_sin_cb(x), np.sin([0.5, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(
        core.jit(_sin_cb, backend="python")(x), np.sin([0.5, 1.0]), rtol=1e-6
    )


def test_pure_callback_pytrees_and_kwargs():
    def host(a, b, *, power):
        return {"s": (a + b["v"]) ** power, "n": np.int32(a.size)}

    spec = {"s": core.ShapeDtypeStruct((2,), np.float32), "n": core.ShapeDtypeStruct((), np.int32)}
    out = core.pure_callback(host, spec, jnp.ones(2), {"v": jnp.full(2, 2.0)}, power=2)
    np.testing.assert_array_equal(out["s"], [9.0, 9.0])
    assert out["s"].dtype == np.float32 and out["n"].dtype == np.int32 and int(out["n"]) == 2


@pytest.mark.parametrize("method", ["sequential", "expand_dims", "broadcast_all"])
def test_pure_callback_vmap_methods(method):
    calls = []

    def host(x, y):
        calls.append((x.shape, y.shape))
        return x * y

    def f(x, y):
        return core.pure_callback(
            host, core.ShapeDtypeStruct(x.shape, x.dtype), x, y, vmap_method=method
        )

    xs = jnp.arange(6.0).reshape(3, 2)
    y = jnp.array([1.0, 10.0])
    np.testing.assert_array_equal(core.vmap(f, in_axes=(0, None))(xs, y), np.asarray(xs) * [1, 10])
    want = {
        "sequential": [((2,), (2,))] * 3,
        "expand_dims": [((3, 2), (1, 2))],
        "broadcast_all": [((3, 2), (3, 2))],
    }[method]
    assert calls == want


def test_pure_callback_errors():
    x = jnp.ones(2)
    bad_shape = lambda x: core.pure_callback(  # noqa: E731
        lambda a: np.ones(3), core.ShapeDtypeStruct((2,), np.float32), x
    )
    with pytest.raises(CallbackResultError, match=r"shape \(3,\)"):
        bad_shape(x)
    plain = lambda x: core.pure_callback(np.sin, core.ShapeDtypeStruct((2,), np.float32), x)  # noqa: E731
    with pytest.raises(CallbackDifferentiationError, match="custom_jvp"):
        core.grad(lambda x: plain(x).sum())(x)
    with pytest.raises(CallbackBatchingError, match="vmap_method"):
        core.vmap(plain)(jnp.ones((3, 2)))
    with pytest.raises(LoweringError, match="backend='python'"):
        core.jit(plain)(x)


def test_pure_callback_inside_custom_jvp_is_differentiable():
    @core.custom_jvp
    def host_sin(x):
        return core.pure_callback(np.sin, core.ShapeDtypeStruct(x.shape, x.dtype), x)

    @host_sin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return host_sin(x), jnp.cos(x) * t

    np.testing.assert_allclose(core.grad(host_sin)(0.5), np.cos(0.5), rtol=1e-6)
