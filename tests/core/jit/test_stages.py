"""jit in explicit stages (core/jit/stages.py), as `jax.stages`: trace -> lower -> compile."""

from functools import partial

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit import api as jit_api
from core.jit.stages import CompiledTracerError, CompiledTreeError


def f(x, y):
    return {"out": jnp.sin(x) * y + 1.0}


def test_trace_gives_the_jaxpr_make_jaxpr_prints():
    x = jnp.arange(3.0)
    traced = core.jit(f).trace(x, 2.0)
    assert str(traced.jaxpr) == str(core.make_jaxpr(f)(x, 2.0))
    args, kwargs = traced.in_avals  # JAX 0.10.2: a tree (args, kwargs) of ShapedArrays
    assert [a.str_short(short_dtypes=True) for a in args] == ["f32[3]", "f32[]"] and kwargs == {}
    out = traced.out_info["out"]
    assert (out.shape, out.dtype) == ((3,), np.float32)


def test_lower_as_text_is_the_generated_source_and_compile_runs_it():
    x = jnp.arange(3.0, dtype=jnp.float32)
    lowered = core.jit(f).lower(x, 2.0)
    text = lowered.as_text()
    assert "def kernel(" in text and "sin" in text
    compiled = lowered.compile()
    assert compiled.as_text() == text
    got = compiled(x, 2.0)["out"]
    np.testing.assert_allclose(got, np.sin(np.arange(3.0, dtype=np.float32)) * 2 + 1, rtol=1e-6)


def test_compiled_shares_jits_caches():
    def g(x):
        return x * 3.0 + 1.0

    jitted = core.jit(g)
    compiled = jitted.trace(jnp.ones(5)).lower().compile()
    before = jit_api.compile_count(), jit_api.trace_count()
    np.testing.assert_array_equal(jitted(jnp.ones(5)), np.full(5, 4.0, np.float32))
    np.testing.assert_array_equal(compiled(jnp.ones(5)), np.full(5, 4.0, np.float32))
    assert (jit_api.compile_count(), jit_api.trace_count()) == before


def test_compiled_rejects_another_signature():
    compiled = core.jit(f).lower(jnp.arange(3.0), 2.0).compile()
    with pytest.raises(TypeError, match="Argument types differ"):
        compiled(jnp.arange(4.0), 2.0)
    with pytest.raises(TypeError, match="Argument types differ"):
        compiled(jnp.arange(3, dtype=jnp.int32), 2.0)


def test_static_arguments_and_python_backend():
    @partial(core.jit, static_argnums=1, backend="python")
    def power(x, n):
        for _ in range(n - 1):
            x = x * x
        return x

    lowered = power.lower(jnp.float32(2.0), 3)
    assert lowered.backend == "python"
    assert lowered.as_text() == str(power.trace(jnp.float32(2.0), 3)._entry.jaxpr)
    compiled = lowered.compile()
    assert float(compiled(jnp.float32(3.0))) == 81.0  # the static one fixed, as in JAX
    with pytest.raises(CompiledTreeError, match="input pytree does not match"):
        compiled(jnp.float32(3.0), 3)  # JAX 0.10.2's TypeError: statics are not passed


# (static_argnums, static_argnames, lowered with (args, kwargs), called with) as JAX 0.10.2 runs
STATIC_CALLS = [
    ((1,), (), ((jnp.ones(3), 4), {}), ((jnp.ones(3),), {})),
    ((), ("n",), ((jnp.ones(3),), {"n": 4}), ((jnp.ones(3),), {})),
    ((-1,), (), ((jnp.ones(3), 4), {}), ((jnp.ones(3),), {})),
]


@pytest.mark.parametrize("argnums, argnames, lowered_with, called_with", STATIC_CALLS)
def test_a_compiled_takes_the_dynamic_arguments_only(argnums, argnames, lowered_with, called_with):
    jitted = core.jit(lambda x, n: x * n, static_argnums=argnums, static_argnames=argnames)
    compiled = jitted.lower(*lowered_with[0], **lowered_with[1]).compile()
    np.testing.assert_array_equal(compiled(*called_with[0], **called_with[1]), np.full(3, 4.0))
    assert str(compiled.in_tree) == "PyTreeDef(((*,), {}))"  # a tuple of args, as JAX


def test_a_compiled_refuses_tracers_as_jax():
    compiled = core.jit(f).lower(jnp.arange(3.0), 2.0).compile()
    with pytest.raises(CompiledTracerError, match="Cannot apply JAX transformations"):
        core.grad(lambda x: compiled(x, 2.0)["out"].sum())(jnp.arange(3.0))


def test_jit_rejects_unknown_keywords_as_jax():
    with pytest.raises(TypeError, match="unexpected keyword argument 'static_argnum'"):
        core.jit(f, static_argnum=0)
    # JAX's other keywords are accepted.
    core.jit(f, compiler_options={}, inline=True, keep_unused=True)


def test_every_stage_has_xlas_cost_analysis():
    f = core.jit(lambda x, y: jnp.tanh(x @ y).sum())
    lowered = f.lower(jnp.ones((8, 16)), jnp.ones((16, 4)))
    want = {"flops": 1055.0, "transcendentals": 32.0, "bytes accessed": 1288.0}  # JAX 0.10.2
    assert lowered.cost_analysis() == want and lowered.compile().cost_analysis() == want
    pmapped = core.pmap(lambda x: jnp.tanh(x)).lower(jnp.ones((2, 3)))
    assert pmapped.cost_analysis() == {"transcendentals": 3.0, "bytes accessed": 24.0}
    assert pmapped.compile().cost_analysis() == pmapped.cost_analysis()


def test_trace_takes_shape_dtype_structs_and_errors_name_the_arguments_as_jax():
    # JAX 0.10.2 (docs/aot.md): anything with shape and dtype stands for an argument when
    # tracing (not when calling); a compiled function's mismatches name the parameters and the
    # leaves' paths, without the static ones
    def g(x, p, *a, k=1, **kw):
        return 2 * x + p["w"]

    i32 = core.ShapeDtypeStruct((), jnp.dtype("int32"))
    np.testing.assert_array_equal(core.jit(lambda x, y: 2 * x + y).trace(i32, i32).lower()
                                  .compile()(3, 4), 10)  # fmt: skip
    with pytest.raises(TypeError, match="ShapeDtypeStruct"):
        core.jit(lambda x: x)(i32)
    jitted = core.jit(g, static_argnums=(3,))
    compiled = jitted.lower(1.0, {"w": 1.0, "b": (2.0, 3.0)}, 4.0, 5, k=2.0, z=3.0).compile()
    with pytest.raises(TypeError) as e:
        two = jnp.ones(2)
        compiled(1, {"w": two, "b": (two, 1.0)}, 4.0, k=two, z=two)
    assert str(e.value).splitlines()[1:6] == [
        "Argument 'x' compiled with float32[] and called with int32[]",
        "Argument 'p['b'][0]' compiled with float32[] and called with float32[2]",
        "Argument 'p['w']' compiled with float32[] and called with float32[2]",
        "Argument 'k' compiled with float32[] and called with float32[2]",
        "Argument 'kw['z']' compiled with float32[] and called with float32[2]",
    ]


def test_out_info_is_shape_dtype_structs_weak_only_when_traced():
    # JAX 0.10.2: a Traced tells the weak type, a Lowered and a Compiled do not
    traced = core.jit(lambda x: x * 2).trace(1.0)
    assert repr(traced.out_info) == "ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)"
    lowered = traced.lower()
    assert repr(lowered.out_info) == "ShapeDtypeStruct(shape=(), dtype=float32)"
    assert repr(lowered.compile().out_info) == "ShapeDtypeStruct(shape=(), dtype=float32)"


def test_args_info_marks_arguments_donated_by_name():
    g = core.jit(lambda x, y: x + y, donate_argnames="y")
    donated = core.tree_util.tree_map(lambda a: a.donated, g.lower(1.0, y=jnp.ones(2)).args_info)
    assert donated == ((False,), {"y": True})  # JAX 0.10.2
    donated = core.tree_util.tree_map(lambda a: a.donated, g.lower(1.0, jnp.ones(2)).args_info)
    assert donated == ((False, True), {})


@pytest.mark.parametrize(
    ("call", "count", "first"),
    [  # JAX 0.10.2's counts and first mismatches
        (lambda c: c(jnp.arange(3.0), 2, 3), 1, "* at args, seen tuple of length 2 but now "
         "given tuple of length 3, so the lengths do not match"),
        (lambda c: c({"a": jnp.arange(3.0)}, (2, 3)), 2, "* at args[0], seen pytree leaf but "
         "now given <class 'dict'>, so their Python types differ"),
        (lambda c: c(jnp.arange(3.0), y=2), 2, "* at args, seen tuple of length 2 but now "
         "given tuple of length 1, so the lengths do not match"),
    ],
)  # fmt: skip
def test_compiled_call_with_another_tree_counts_the_mismatches(call, count, first):
    compiled = core.jit(lambda x, y: (x * y, x.sum())).lower(jnp.arange(3.0), 2).compile()
    with pytest.raises(TypeError) as e:
        call(compiled)
    lines = str(e.value).splitlines()
    assert lines[0] == (
        "Function compiled with input pytree does not match the input pytree it was called "
        f"with. There are {count} mismatches, including:"
    )
    assert lines[1].strip() == first


def test_compiled_shardings_are_the_default_devices():
    compiled = core.jit(lambda x, y: (x * 2, y)).lower(jnp.ones(4), y=1.0).compile()
    one = "SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)"  # JAX 0.10.2
    assert repr(compiled.input_shardings) == f"(({one},), {{'y': {one}}})"
    assert repr(compiled.output_shardings) == f"({one}, {one})"


def test_stage_attributes_users_read():
    def my(x, y, z=1):
        return x * 2 + y

    traced = core.jit(my, donate_argnames="y", static_argnums=0).trace(1.0, y=jnp.ones(2))
    # JAX 0.10.2: (0,) ((), {'y': ShapedArray(float32[2])}) my
    assert traced.donate_argnums == (0,) and traced.fun_name == "my"
    assert repr(traced.in_avals) == "((), {'y': ShapedArray(float32[2])})"
    lowered = core.jit(my, donate_argnums=1).lower(1.0, jnp.ones(2))
    assert lowered.donate_argnums == lowered.compile().donate_argnums == (1,)
    out = core.jit(lambda x: (x, {"a": x})).trace(1).out_avals
    assert repr(out) == (
        "(ShapedArray(int32[], weak_type=True), {'a': ShapedArray(int32[], weak_type=True)})"
    )
