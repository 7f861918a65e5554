"""core.debug.print / debug.callback and core.pure_callback: eager, jit (both back ends), grad,
vmap, and the errors for what is not supported."""

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import debug, lax
from core.callbacks import (
    CallbackBatchingError,
    CallbackDifferentiationError,
    CallbackResultError,
    OrderedCallbackBatchingError,
)
from core.jit import host_calls

BACKENDS = ["python", "numba"]


def _printing(x):
    debug.print("x={x} total={}", x.sum(), x=x)
    return x * 2


def test_debug_print_eager(capsys):
    _printing(jnp.arange(3.0))
    assert capsys.readouterr().out == "x=[0. 1. 2.] total=3.0\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_debug_print_runs_each_call_under_jit(capsys, backend):
    f = core.jit(_printing, backend=backend)
    np.testing.assert_array_equal(f(jnp.arange(3.0)), [0.0, 2.0, 4.0])
    f(jnp.arange(3.0) + 1)
    out = capsys.readouterr().out
    assert out == "x=[0. 1. 2.] total=3.0\nx=[1. 2. 3.] total=6.0\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_debug_print_kept_when_result_unused(capsys, backend):
    def f(x):
        debug.print("side {}", x)
        return x + 1

    core.jit(f, backend=backend)(jnp.float32(2.0))
    assert capsys.readouterr().out == "side 2.0\n"


def test_debug_print_under_grad_and_vmap(capsys):
    g = core.grad(lambda x: _printing(x).sum())(jnp.ones(2))
    np.testing.assert_array_equal(g, [2.0, 2.0])
    assert capsys.readouterr().out == "x=[1. 1.] total=2.0\n"
    core.vmap(_printing)(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
    assert capsys.readouterr().out == "x=[1. 2.] total=3.0\nx=[3. 4.] total=7.0\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_debug_callback_receives_arrays_and_static_leaves(backend):
    # JAX 0.10.2 hands the callback Arrays (device_put to the CPU), weak types kept
    seen = []

    def cb(x, tag, scale=None, n=None):
        seen.append((isinstance(x, core.Array), x.tolist(), tag, float(scale), n.weak_type))

    def f(x):
        debug.callback(cb, x, "label", scale=x[0] * 10, n=3)
        return x

    core.jit(f, backend=backend)(jnp.array([1.5, 2.5]))
    assert seen == [(True, [1.5, 2.5], "label", 15.0, True)]


def test_debug_print_in_a_compiled_scan_runs_per_iteration(capsys):
    def body(c, x):
        debug.print("c={c} x={x}", c=c, x=x)
        return c + x, c

    carry, ys = core.jit(lambda xs: core.lax.scan(body, 0.0, xs))(jnp.arange(3.0))
    assert float(carry) == 3.0
    np.testing.assert_array_equal(ys, [0.0, 0.0, 1.0])
    assert capsys.readouterr().out == "c=0.0 x=0.0\nc=0.0 x=1.0\nc=1.0 x=2.0\n"


def test_host_call_keys_are_stable_names_and_never_shared():
    def cb(arrays):
        return arrays

    def other(arrays):
        return arrays

    av = [core.ShapedArray((2,), np.dtype(np.float32))]
    key = host_calls.register(cb, cb, av, av)
    assert key == host_calls.register(cb, cb, av, av)
    assert key.startswith("test_host_call_keys_are_stable_names_and_never_shared.<locals>.cb#")
    assert host_calls.register(other, other, av, av) != key


def _sin_cb(x):
    return core.pure_callback(
        lambda a: np.sin(a), core.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential"
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_pure_callback_eager_and_jit(backend):
    x = jnp.array([0.5, 1.0])
    np.testing.assert_allclose(_sin_cb(x), np.sin([0.5, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(core.jit(_sin_cb, backend=backend)(x), np.sin([0.5, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(core.jit(core.vmap(_sin_cb))(x[:, None]), np.sin([[0.5], [1.0]]))


def test_pure_callback_under_numba_jit_mixed_outputs():
    def host(a):
        return a.sum(), a > 1, (a * 2).astype(np.int32)

    spec = (
        core.ShapeDtypeStruct((), np.float32),
        core.ShapeDtypeStruct((3,), np.bool_),
        core.ShapeDtypeStruct((3,), np.int32),
    )
    total, mask, ints = core.jit(lambda x: core.pure_callback(host, spec, x * 1))(jnp.arange(3.0))
    assert total.dtype == np.float32 and float(total) == 3.0
    np.testing.assert_array_equal(mask, [False, False, True])
    assert ints.dtype == np.int32 and ints.tolist() == [0, 2, 4]


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
    with pytest.raises(core.errors.JaxRuntimeError):  # JAX 0.10.2's class, eager and jitted
        core.jit(bad_shape)(x)
    plain = lambda x: core.pure_callback(np.sin, core.ShapeDtypeStruct((2,), np.float32), x)  # noqa: E731
    # JAX 0.10.2's classes (ValueError, NotImplementedError) and first lines
    with pytest.raises(ValueError, match=r"^Pure callbacks do not support JVP\. Please use `jax"):
        core.grad(lambda x: plain(x).sum())(x)
    with pytest.raises(NotImplementedError, match=r"^vmap is only supported .* vmap_method=None"):
        core.vmap(plain)(jnp.ones((3, 2)))
    with pytest.raises(ValueError, match=r"allowed methods \['sequential', 'sequential_unrolled'"):
        core.pure_callback(np.sin, core.ShapeDtypeStruct((2,), np.float32), x, vmap_method="x")
    unrolled = core.vmap(
        lambda v: core.pure_callback(
            np.sin, core.ShapeDtypeStruct((2,), np.float32), v, vmap_method="sequential_unrolled"
        )
    )
    np.testing.assert_allclose(unrolled(jnp.ones((3, 2))), np.sin(np.ones((3, 2))), rtol=1e-6)
    with pytest.raises(CallbackResultError, match=r"shape \(3,\)"):
        core.jit(bad_shape)(x)

    def failing(a):
        raise KeyError("from the host")

    with pytest.raises(KeyError, match="from the host"):
        core.jit(lambda x: core.pure_callback(failing, core.ShapeDtypeStruct((2,), x.dtype), x))(x)


def test_pure_callback_inside_custom_jvp_is_differentiable():
    @core.custom_jvp
    def host_sin(x):
        return core.pure_callback(np.sin, core.ShapeDtypeStruct(x.shape, x.dtype), x)

    @host_sin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return host_sin(x), jnp.cos(x) * t

    np.testing.assert_allclose(core.grad(host_sin)(0.5), np.cos(0.5), rtol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_io_callback_runs_every_call_in_order_even_when_unused(backend):
    from core.experimental import io_callback

    log = []

    def f(x):
        io_callback(lambda a: log.append(("first", a.tolist())), None, x)
        total = io_callback(
            lambda a: np.float32(a.sum()), core.ShapeDtypeStruct((), np.float32), x, ordered=True
        )
        io_callback(lambda t: log.append(("second", float(t))), None, total)
        io_callback(
            lambda a: log.append(("unused", 0)) or a, core.ShapeDtypeStruct((3,), np.float32), x
        )
        return x * 2

    g = core.jit(f, backend=backend)
    np.testing.assert_array_equal(g(jnp.arange(3.0)), [0.0, 2.0, 4.0])
    g(jnp.ones(3))
    assert log == [
        ("first", [0.0, 1.0, 2.0]),
        ("second", 3.0),
        ("unused", 0),
        ("first", [1.0, 1.0, 1.0]),
        ("second", 3.0),
        ("unused", 0),
    ]


def test_io_callback_vmap_and_grad():
    from core.experimental import io_callback

    spec = core.ShapeDtypeStruct((), np.float32)
    out = core.vmap(lambda x: io_callback(lambda a: a * 2, spec, x))(jnp.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    # JAX 0.10.2's class (ValueError) and first lines
    with pytest.raises(OrderedCallbackBatchingError, match=r"^Cannot `vmap` ordered IO callback\."):
        core.vmap(lambda x: io_callback(lambda a: a, spec, x, ordered=True))(jnp.arange(3.0))
    with pytest.raises(CallbackDifferentiationError, match=r"^IO callbacks do not support JVP\."):
        core.grad(lambda x: io_callback(lambda a: a, spec, x))(1.0)
    assert issubclass(OrderedCallbackBatchingError, ValueError)
    assert issubclass(CallbackDifferentiationError, ValueError)
    assert issubclass(CallbackBatchingError, NotImplementedError)
    assert core.experimental.io_callback is io_callback


# (fmt, args, kwargs, printed): JAX's formatting, with and without placeholders
PRINT_CASES = [
    ("x={}", (1.5,), {}, "x=1.5\n"),
    ("x={x}", (), {"x": jnp.arange(2.0)}, "x=[0. 1.]\n"),
    ("values", (1, jnp.ones(2)), {"skip_format_check": True}, "values 1 [1. 1.]\n"),
]


@pytest.mark.parametrize("fmt, args, kwargs, printed", PRINT_CASES)
def test_debug_print_formats_like_jax(capsys, fmt, args, kwargs, printed):
    debug.print(fmt, *args, **kwargs)
    assert capsys.readouterr().out == printed


def test_debug_print_two_call_form(capsys):
    assert debug.print(ordered=True)("{} and {y}", 1, y=2) is None
    assert capsys.readouterr().out == "1 and 2\n"
    with pytest.raises(TypeError, match="two-call form"):
        debug.print(None, 1)


UNUSED = "Unused keyword arguments to `jax.debug.print`: "
# (fmt, args, kwargs, error): JAX 0.10.2's check that the format uses every argument
FORMAT_ERRORS = [
    ("hello: {x}", (), {"x": 1, "y": 2}, UNUSED + r"\['y'\]. You may be passing an f-string"),
    ("hello", (jnp.arange(2),), {}, r"Unused positional arguments to `jax.debug.print`: \[Arr"),
    ("hello: 1", (), {"x": 1}, UNUSED + r"\['x'\]"),
]


@pytest.mark.parametrize("fmt, args, kwargs, error", FORMAT_ERRORS)
def test_debug_print_checks_its_format_at_trace_time(fmt, args, kwargs, error):
    with pytest.raises(ValueError, match=error):
        core.jit(lambda: debug.print(fmt, *args, **kwargs), backend="python")()


def test_debug_print_shows_pytree_leaves_as_arrays(capsys):
    core.jit(lambda x: debug.print("x: {}", {"foo": x}), backend="python")(np.int32(2))
    assert capsys.readouterr().out == "x: {'foo': Array(2, dtype=int32)}\n"


def test_debug_print_second_call_options_are_format_arguments():
    # JAX: in the two-call form `partitioned` of the second call is a keyword to format
    with pytest.raises(ValueError, match=UNUSED + r"\['partitioned'\]"):
        debug.print(ordered=True)("hello {a}", a=42, partitioned=True)


def test_debug_print_formats_with_the_callers_numpy_printoptions(capsys):
    x = np.array([1.2345, 2.3456, 1e-7])
    with np.printoptions(precision=2, suppress=True):
        debug.print("{}", x)
        core.jit(lambda v: debug.print("{}", v), backend="python")(x)
    debug.print("{}", x)
    want = "[1.23 2.35 0.  ]\n" * 2 + "[1.2345e+00 2.3456e+00 1.0000e-07]\n"
    assert capsys.readouterr().out == want


def test_debug_callback_two_call_form(capsys):
    got = []
    assert debug.callback(ordered=True)(lambda a, b: got.append((int(a), b)), 3, b="s") is None
    assert got == [(3, "s")]
    with pytest.raises(TypeError, match=r"debug_callback received unexpected arguments in the"):
        debug.callback(ordered=True, a=42)
    with pytest.raises(TypeError, match=r"two-call form: args=\(42,\) kwargs=\{\}"):
        debug.callback(None, 42, ordered=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_debug_log_writes_an_info_record_at_the_call_site(caplog, backend):
    def f(x):
        debug.log("y={y}", y=x * 2)
        return x

    with caplog.at_level("INFO", logger="core.debug"):
        core.jit(f, backend=backend)(jnp.arange(2.0))
    (record,) = caplog.records
    assert record.getMessage() == "y=[0. 2.]"
    assert (record.name, record.levelname) == ("core.debug", "INFO")
    assert record.pathname == __file__ and record.funcName == "f"


def _breaking(x, stdin, stdout):
    y = x * 2
    debug.breakpoint(stdin=stdin, stdout=stdout)
    return y


@pytest.mark.parametrize(
    "transform", [lambda f: f, core.jit, lambda f: core.jit(f, backend="python")]
)
def test_breakpoint_shows_runtime_values_of_the_frame(transform):
    stdin, stdout = io.StringIO("p y\npp x.shape\nw\nnot_a_name\nc\n"), io.StringIO()
    out = transform(lambda x: _breaking(x, stdin, stdout))(jnp.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    lines = stdout.getvalue().splitlines()
    assert lines[0] == "Entering jdb:"
    assert lines[1] == "(jdb) Array([0., 2., 4.], dtype=float32)"
    assert lines[2] == "(jdb) (3,)"
    assert "debug.breakpoint(stdin=stdin, stdout=stdout)" in stdout.getvalue()
    assert "*** NameError: name 'not_a_name' is not defined" in stdout.getvalue()


def test_breakpoint_shows_a_frame_holding_a_dict_that_holds_itself():
    """A cyclic local (under pytest-xdist a module-level frame's `__builtins__` holds `_`, which
    an earlier doctest-like run left pointing at a namespace: RecursionError) is one leaf, shown
    as it is; the other locals have their runtime values."""

    def f(x):
        loop = {"x": x}
        loop["self"] = loop
        debug.breakpoint(stdin=stdin, stdout=stdout)
        return x

    stdin, stdout = io.StringIO("p x\np sorted(loop)\nc\n"), io.StringIO()
    core.jit(f)(jnp.arange(2.0))
    lines = stdout.getvalue().splitlines()
    assert lines[1:3] == ["(jdb) Array([0., 1.], dtype=float32)", "(jdb) ['self', 'x']"]


def test_breakpoint_under_vmap_stops_per_element():
    stdin, stdout = io.StringIO("p y\nc\np y\nc\n"), io.StringIO()
    core.vmap(lambda x: _breaking(x, stdin, stdout))(jnp.arange(2.0))
    assert "Array(0., dtype=float32)" in stdout.getvalue()
    assert "Array(2., dtype=float32)" in stdout.getvalue()


def test_breakpoint_without_a_terminal_continues_and_says_where(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    token = debug.breakpoint(token=jnp.ones(2))
    np.testing.assert_array_equal(token, [1.0, 1.0])
    err = capsys.readouterr().err
    assert "core.debug.breakpoint at" in err and "not a terminal" in err
    with pytest.raises(ValueError, match="mutually exclusive"):
        debug.breakpoint(token=1.0, ordered=True)


def test_inspect_array_sharding_eager_and_under_jit():
    seen = []
    debug.inspect_array_sharding({"a": jnp.ones(2), "b": jnp.ones(3)}, callback=seen.append)
    core.jit(lambda x: debug.inspect_array_sharding(x, callback=seen.append) or x)(jnp.ones(2))
    assert len(seen) == 3
    assert all(s == core.sharding.SingleDeviceSharding(core.devices()[0]) for s in seen)


def _cond_print(pred, fmt, *args):
    return lax.cond(pred, lambda: (debug.print(fmt, *args), 0)[1], lambda: 0)


def test_a_print_in_a_cond_whose_result_is_unused_runs_in_loops(capsys):
    # Optax's rosenbrock_ademamix notebook: the cond's output is dropped, its print is not
    def body(c, _):
        _cond_print(c % 3 == 0, "it {} {}", c, c * 2.0)
        return c + 1, c

    lax.scan(body, 0, length=7)
    core.jit(lambda: lax.scan(body, 0, length=7))()
    lax.while_loop(lambda c: c < 4, lambda c: (_cond_print(c % 2 == 0, "w {}", c), c + 1)[1], 0)
    assert capsys.readouterr().out == "it 0 0.0\nit 3 6.0\nit 6 12.0\n" * 2 + "w 0\nw 2\n"


def test_objmode_warning_stays_filtered_when_the_first_compile_is_an_eager_scan():
    # The back end is imported inside the eager scan's `catch_warnings` block, which used to
    # undo its filter: numba's "Code running in object mode" warning reached the user.
    code = (
        "import warnings, core\n"
        "core.lax.scan(lambda c, _: (c + 1, c), 0, length=3)\n"
        "print(any(f[1] is not None and 'object mode' in f[1].pattern for f in warnings.filters))"
    )
    root = str(Path(__file__).resolve().parents[2])
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert out.stdout.strip() == "True", out.stderr


@pytest.mark.parametrize(
    ("returned", "declared", "error"),
    [
        (lambda v: v * 2.0, np.int32, "Expected: int32, Actual: float32"),
        (lambda v: np.ones(2, np.float32), np.float16, "Expected: float16, Actual: float32"),
        (lambda v: np.ones(2, np.bool_), np.int32, "Expected: int32, Actual: bool"),
        (lambda v: np.ones(2, np.int64), np.int32, None),  # 64-bit values are canonicalized
        (lambda v: np.ones(2), np.float32, None),
    ],
)
def test_pure_callback_checks_result_dtypes_as_jax(returned, declared, error):
    # JAX 0.10.2: a JaxRuntimeError (RuntimeError) "Incorrect output dtype for return value #0"
    f = core.jit(lambda a: core.pure_callback(returned, core.ShapeDtypeStruct((2,), declared), a))
    if error is None:
        assert f(jnp.array([1, 2])).dtype == declared
    else:
        with pytest.raises(
            RuntimeError, match=f"Incorrect output dtype for return value #0: {error}"
        ):
            f(jnp.array([1, 2]))
