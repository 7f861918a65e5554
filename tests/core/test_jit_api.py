"""The `jit` wrapper: caching, static arguments, composition with other transformations.

These run on the numpy backend (`backend="python"`) so they test the staging machinery, not
numba; `tests/core/jit/` tests the compiled back end.
"""

import logging

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit.api import StaticArgumentError, trace_count
from core.jit.errors import JitArgumentError


def pyjit(f, **kw):
    return core.jit(f, backend="python", **kw)


def test_same_signature_traces_once_new_shape_or_dtype_retraces():
    calls = []

    def f(x):
        calls.append(1)
        return x * 2

    g = pyjit(f)
    g(jnp.ones(3))
    g(jnp.zeros(3))
    assert len(calls) == 1
    g(jnp.ones(4))
    assert len(calls) == 2
    g(jnp.ones(4, dtype=jnp.int32))
    assert len(calls) == 3
    assert g._cache_size() == 3


def test_weak_type_is_part_of_the_key():
    g = pyjit(lambda x: x + 1)
    before = trace_count()
    g(1.0)  # weak f32
    g(np.float32(1.0))  # numpy scalar: strong f32
    assert trace_count() - before == 2
    out = g(1.0)
    assert out.weak_type and out.dtype == np.float32


def test_static_argnums_and_argnames_and_shape_branching():
    def f(x, n, *, mode="sum"):
        if x.ndim == 2:  # Python branching on shapes works under jit
            x = x.sum(0)
        y = x * n
        return y.sum() if mode == "sum" else y

    g = pyjit(f, static_argnums=1, static_argnames="mode")
    assert float(g(jnp.ones((2, 3)), 3)) == 18.0
    np.testing.assert_allclose(g(jnp.ones(3), 2, mode="keep"), [2.0, 2.0, 2.0])


def test_unhashable_static_argument_raises_a_clear_error():
    g = pyjit(lambda x, cfg: x, static_argnums=1)
    with pytest.raises(StaticArgumentError, match="Non-hashable static arguments"):
        g(jnp.ones(2), [1, 2])


def test_non_array_argument_names_the_fix():
    g = pyjit(lambda x, s: x)
    with pytest.raises(JitArgumentError, match="static_argnums"):
        g(jnp.ones(2), "relu")


def test_traced_bool_conversion_error_names_the_fixes():
    g = pyjit(lambda x: x if x.sum() > 0 else -x)
    with pytest.raises(core.errors.TracerBoolConversionError, match="jnp.where") as e:
        g(jnp.ones(2))
    assert "lax.cond" in str(e.value) and "static_argnames" in str(e.value)


def test_explain_cache_misses_names_the_changed_argument(caplog):
    g = pyjit(lambda x, y: x + y)
    g(jnp.ones((32, 4)), jnp.ones(4))
    with core.config.override("explain_cache_misses", True), caplog.at_level(logging.WARNING):
        g(jnp.ones((16, 4)), jnp.ones(4))
    assert "  * at x, now f32[16,4] and before f32[32,4]" in caplog.text


def _with_rank_promotion_warn(f):
    with core.numpy_rank_promotion("warn"):
        return f(0.0, 1.0)


# (calls made before, the call explained, lines of JAX 0.10.2's explanation of it)
CACHE_MISSES = [
    ([], lambda f, g: f(jnp.float32(1.0), 1.0), ["  never seen function:"]),
    (
        [lambda f, g: f(np.float32(0), np.ones(1, np.float32))],
        lambda f, g: f(np.float32(0), np.ones(2, np.float32)),
        [
            "  all previously seen cache keys differ. For the closest previous key:",
            "  different input types:",
            "  * at y, now f32[2] and before f32[1]",
        ],
    ),
    (
        [lambda f, g: f(jnp.float32(0), 1.0), lambda f, g: f(jnp.ones(2), 1.0)],
        lambda f, g: f(0.0, 1.0),
        ["  * at x, now f32[]{weak_type=True} and before f32[]{weak_type=False}"],
    ),
    (
        [lambda f, g: f(0.0, 1.0)],
        lambda f, g: _with_rank_promotion_warn(f),
        [
            "  Tracing context doesn't match, e.g. due to config or context manager.",
            "  * jax_numpy_rank_promotion differs: now warn and before allow",
        ],
    ),
    ([lambda f, g: g(0.0, 1.0, y=(2.0, 2.1))], lambda f, g: g(0.0, (1.0, 1.1), y=2.0),
     ["  different input pytree:"]),
]  # fmt: skip


@pytest.mark.parametrize("before, call, lines", CACHE_MISSES)
def test_explain_cache_misses_as_jax(caplog, before, call, lines):
    def f(x, y):  # new functions: jit's caches are shared by the jits of one function
        return x + y

    def g(*args, **kwargs):
        return args[0]

    f, g = pyjit(f), pyjit(g)
    for b in before:
        b(f, g)
    with core.config.override("explain_cache_misses", True), caplog.at_level(logging.WARNING):
        call(f, g)
    (record,) = caplog.records
    text = record.getMessage().split("\n")
    assert text[0].startswith("TRACING CACHE MISS at " + __file__)
    assert all(line in text for line in lines), text


def test_explain_cache_misses_of_a_function_made_again_on_its_line(caplog):
    with core.config.override("explain_cache_misses", True), caplog.at_level(logging.WARNING):
        for _ in range(2):
            pyjit(lambda x: 2 * x)(3)
    first, second = (r.getMessage() for r in caplog.records)
    assert "same line" not in first
    assert second.endswith(
        "  but seen another function defined on the same line; maybe the function is\n"
        "  being re-defined repeatedly, preventing caching?"
    )


def test_log_compiles(caplog):
    g = pyjit(lambda x: x * 3)
    with core.config.override("log_compiles", True), caplog.at_level(logging.WARNING):
        g(jnp.ones(5))
    assert "Compiling" in caplog.text


def test_pytrees_in_and_out_and_kwargs():
    g = pyjit(lambda p, x, scale=1.0: {"y": p["w"] * x * scale, "n": (x.sum(),)})
    out = g({"w": jnp.full(3, 2.0)}, jnp.arange(3.0), scale=2.0)
    np.testing.assert_allclose(out["y"], [0.0, 4.0, 8.0])
    np.testing.assert_allclose(out["n"][0], 3.0)


def test_closed_over_arrays_become_arguments_not_constants_in_the_program():
    w = jnp.arange(6.0).reshape(2, 3)
    g = pyjit(lambda x: x @ w)
    jaxpr = core.make_jaxpr(g)(jnp.ones(2))
    inner = jaxpr.eqns[0].params["jaxpr"]
    assert len(inner.invars) == 2  # w is an input of the compiled program
    np.testing.assert_allclose(g(jnp.ones(2)), [3.0, 5.0, 7.0])


def f_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))


@pytest.mark.parametrize(
    "transform",
    [
        lambda f: core.grad(pyjit(f)),
        lambda f: pyjit(core.grad(f)),
        lambda f: pyjit(core.grad(pyjit(f))),
        lambda f: core.grad(pyjit(pyjit(f))),
    ],
    ids=["grad(jit)", "jit(grad)", "jit(grad(jit))", "grad(jit(jit))"],
)
def test_jit_composes_with_grad(transform):
    x = jnp.arange(3.0)
    np.testing.assert_allclose(transform(f_logistic)(x), core.grad(f_logistic)(x), rtol=1e-6)


def test_jit_composes_with_vmap_and_jvp():
    f = lambda x, y: jnp.tanh(x) * y
    xs, y = jnp.arange(6.0).reshape(2, 3), jnp.ones(3)
    want = jnp.stack([f(x, y) for x in xs])
    np.testing.assert_allclose(core.vmap(pyjit(f), in_axes=(0, None))(xs, y), want, rtol=1e-6)
    np.testing.assert_allclose(pyjit(core.vmap(f, in_axes=(0, None)))(xs, y), want, rtol=1e-6)
    p, t = core.jvp(pyjit(f), (xs[0], y), (jnp.ones(3), jnp.zeros(3)))
    np.testing.assert_allclose(t, 1 - jnp.tanh(xs[0]) ** 2, rtol=1e-6)


def test_grad_of_jit_keeps_primal_concrete_for_python_control_flow():
    g = pyjit(lambda x: x**2)

    def f(x):
        y = g(x)
        return y * 3 if y > 1.0 else y  # y is concrete: partial evaluation ran the jit now

    assert float(core.grad(f)(2.0)) == 12.0


def test_disable_jit_runs_python():
    seen = []

    def f(x):
        seen.append(type(x).__name__)
        return x + 1

    with core.disable_jit():
        pyjit(f)(jnp.ones(2))
    assert seen == ["Array"]


def test_decorator_factory_form():
    @core.jit(static_argnames=("n",), backend="python")
    def f(x, n):
        return x * n

    np.testing.assert_allclose(f(jnp.ones(2), n=3), [3.0, 3.0])


def test_cache_hit_fast_path_handles_views_and_config_changes():
    g = pyjit(lambda x: x * 2)
    x = jnp.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(g(x), np.arange(6.0).reshape(2, 3) * 2)
    np.testing.assert_allclose(g(x.T), np.arange(6.0).reshape(2, 3).T * 2)  # non-contiguous
    np.testing.assert_allclose(g(x.T), np.arange(6.0).reshape(2, 3).T * 2)  # cached
    with core.disable_jit():
        assert type(g(x)).__name__ == "Array"
    f = pyjit(lambda x: x + 1.5)
    i = jnp.arange(3)
    assert f(i).dtype == np.float32
    with core.enable_x64():
        assert f(jnp.arange(3, dtype=jnp.int64)).dtype == np.float64
    assert f(i).dtype == np.float32


def test_arrays_are_read_only_through_numpy():
    x = jnp.arange(3.0)
    view = np.asarray(x)
    with pytest.raises(ValueError):
        view[0] = 5.0
    with pytest.raises(TypeError, match=r"\.at\[idx\]"):
        x[0] = 5.0


def test_numpy_and_python_scalar_leaves_take_the_cache_hit_path():
    g = pyjit(lambda x, y, s: x * y + s)
    x, y = np.arange(3.0, dtype=np.float32), jnp.ones(3)
    np.testing.assert_allclose(g(x, y, 2.0), np.arange(3.0) + 2)
    before = trace_count()
    out = g(x + 1, y, 3.0)
    np.testing.assert_allclose(out, np.arange(3.0) + 4)
    assert trace_count() == before
    assert len(g._fast) == 1
    # float64 numpy input: canonicalized to float32 (no x64), the same program
    out = g(np.arange(3.0), y, 3.0)
    assert out.dtype == np.float32 and trace_count() == before
    with core.enable_x64():
        assert g(np.arange(3.0), jnp.ones(3, jnp.float64), 3.0).dtype == np.float64
    assert g(np.arange(3.0), y, 3.0).dtype == np.float32


def test_cache_hit_outputs_carry_their_abstract_value():
    g = pyjit(lambda t: {"a": t["a"] * 2, "b": (t["b"], None, [t["a"]])})
    tree = {"a": jnp.ones(2), "b": jnp.arange(3)}
    for _ in range(2):  # the second call goes through the cache-hit path
        out = g(tree)
        assert core.tree_util.tree_structure(out) == core.tree_util.tree_structure(
            {"a": 0, "b": (0, None, [0])}
        )
        np.testing.assert_allclose(out["b"][2][0], [1.0, 1.0])
        assert out["a"].aval is core.numpy.ones(2).aval  # interned


def _guarded_calls(g, first, *others):
    """Calls `g` on `first` twice (a guard is made on the cache-hit path), then on `others`."""
    g(*first)
    g(*first)
    assert g._guards, "expected a guard for this structure"
    return [g(*args) for args in others]


def test_guards_never_reuse_a_program_for_another_structure():
    g = pyjit(jax_tree_sum)
    x = jnp.ones(2)
    base = ({"a": x, "b": (x, x)},)
    outs = _guarded_calls(
        g,
        base,
        ({"a": x, "c": (x, x)},),  # another key
        ({"a": x, "b": [x, x]},),  # a list instead of a tuple
        ({"a": x, "b": (x, x, x)},),  # another length
        ({"a": {"z": x}, "b": (x, x)},),  # a subtree where a leaf was
        ({"a": jnp.ones(3), "b": (x, x)},),  # another shape
        ({"a": np.ones(2, np.float32), "b": (x, x)},),  # a numpy leaf
        ({"a": np.ones((2, 2), np.float32)[:, 0], "b": (x, x)},),  # a non-contiguous view
    )
    np.testing.assert_allclose([float(o) for o in outs], [6, 6, 8, 6, 7, 6, 6])
    np.testing.assert_allclose(g(x, x), 4.0)  # two arguments, not one tuple
    np.testing.assert_allclose(g((x, x)), 4.0)


def jax_tree_sum(*trees):
    return sum(jnp.sum(leaf) for leaf in core.tree_util.tree_leaves(trees))


def test_guards_read_current_values_and_respect_config_and_disable_jit():
    calls = []

    def f(t):
        calls.append(1)
        return t["w"] * 2

    g = pyjit(f)
    params = {"w": jnp.ones(2)}
    _guarded_calls(g, (params,))
    params["w"] = jnp.full(2, 5.0)  # a mutable container changed in place
    np.testing.assert_allclose(g(params), [10.0, 10.0])
    n = len(calls)
    with core.disable_jit():
        g(params)
    assert len(calls) == n + 1
    with core.enable_x64():
        assert g({"w": jnp.ones(2, jnp.float64)}).dtype == np.float64


def test_guards_check_dataclass_meta_fields():
    @core.struct.dataclass
    class State:
        w: object
        scale: float = core.struct.field(pytree_node=False)

    g = pyjit(lambda s: s.w * s.scale)
    outs = _guarded_calls(g, (State(jnp.ones(2), 2.0),), (State(jnp.ones(2), 3.0),))
    np.testing.assert_allclose(outs[0], [3.0, 3.0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"static_argnums": 3},
        {"static_argnums": -3},
        {"static_argnames": "zz"},
        {"static_argnames": "args"},
    ],
    ids=["argnum-too-large", "argnum-too-negative", "unknown-name", "var-positional-name"],
)
def test_jit_validates_static_arguments_against_the_signature(kwargs):
    # JAX raises ValueError when jit is applied, before any call.
    def f(a, b=1, *args):
        return a

    def g(a, b=1):
        return a

    with pytest.raises(StaticArgumentError):
        core.jit(f if kwargs.get("static_argnames") == "args" else g, **kwargs)


def test_jit_static_arguments_valid_forms():
    def g(a, n=1, **kw):
        return a * n

    assert int(core.jit(g, static_argnums=-1)(2, 3)) == 6
    assert int(core.jit(g, static_argnames="anything")(2, n=3)) == 6
    assert int(core.jit(lambda *a: a[0] * a[1], static_argnums=5)(2, 3)) == 6


@pytest.mark.parametrize(
    "fn, arg",
    [
        (lambda x: core.lax.lgamma(x * 0.5), np.ones(3, np.float16)),  # float16 in and out
        (lambda x: core.lax.lgamma(x.astype(jnp.float16)).astype(jnp.float32) * 3, np.full(3, 0.5)),
        (
            lambda x: core.lax.fori_loop(
                0,
                3,
                lambda i, c: c + core.lax.lgamma(x.astype(jnp.float16)).sum().astype(jnp.float32),
                0.0,
            ),
            np.ones(3, np.float32),
        ),  # float16 only inside a loop body
    ],
)
def test_float16_programs_fall_back_to_numpy_with_a_warning(fn, arg):
    """float16 primitives whose XLA expansions `core/jit/narrow.py` does not reproduce (lgamma,
    digamma, ...): the program runs on the numpy back end (same values as eager)."""
    from core.jit.errors import NumpyFallbackWarning

    with pytest.warns(NumpyFallbackWarning, match="float16"):
        got = core.jit(fn)(jnp.asarray(arg))
    want = fn(jnp.asarray(arg))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "args, kwargs, path",
    [
        (("s", 2), {}, "x"),
        ((1, {"a": "z"}), {}, "d['a']"),
        ((1, 2, 3, "q"), {}, "a[1]"),
        ((1, 2), {"k": "q"}, "k"),
        ((1, 2), {"zz": "q"}, "kw['zz']"),
    ],
)
def test_non_array_argument_error_is_jaxs_with_the_arguments_path(args, kwargs, path):
    def f(x, d, *a, k=1, **kw):
        return x

    with pytest.raises(TypeError) as e:
        pyjit(f)(*args, **kwargs)
    first = str(e.value).splitlines()[0]
    assert first == (
        f"Error interpreting argument to {f!r} as an abstract array. The problematic value is of"
        f" type <class 'str'> and was passed to the function at path {path}."
    )


# JAX 0.10.2's jaxpr of `vmap(lambda v: h(x, v))` for the jitted `h` below: the output that
# depends only on the unbatched `x` leaves the jit unbatched and is broadcast after it
UNBATCHED_OUT_JAXPR = """\
{ lambda a:f32[3]; b:f32[3,3]. let
    c:f32[3] d:f32[3,3] = jit[
      name=<lambda>
      jaxpr={ lambda ; a:f32[3] b:f32[3,3]. let
          c:f32[3] = jit[
            name=cumsum
            jaxpr={ lambda ; a:f32[3]. let
                c:f32[3] = cumsum[axis=0 reverse=False] a
              in (c,) }
          ] a
          d:f32[3,3] = jit[
            name=cumsum
            jaxpr={ lambda ; b:f32[3,3]. let
                d:f32[3,3] = cumsum[axis=1 reverse=False] b
              in (d,) }
          ] b
        in (c, d) }
    ] a b
    e:f32[3,3] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] c
  in (e, d) }"""


def test_vmapped_jit_keeps_outputs_of_unbatched_inputs_unbatched():
    """As JAX's pjit batching: `out_axes=None` (and so jacfwd's primal output through a jit)
    works for an output computed from unbatched inputs only."""
    x = jnp.asarray([0.1, -0.2, 0.0])
    h = core.jit(lambda a, b: (jnp.cumsum(a), jnp.cumsum(b)))
    first, second = core.vmap(lambda v: h(x, v), out_axes=(None, 0))(jnp.eye(3))
    np.testing.assert_allclose(np.asarray(first), [0.1, -0.1, -0.1], rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(second), np.triu(np.ones((3, 3))))
    assert str(core.make_jaxpr(core.vmap(lambda v: h(x, v)))(jnp.eye(3))) == UNBATCHED_OUT_JAXPR
    jac = core.jacfwd(lambda t: core.jit(jnp.cumsum)(t))(x)
    np.testing.assert_array_equal(np.asarray(jac), np.tril(np.ones((3, 3))))
