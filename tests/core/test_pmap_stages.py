"""core/pmap_stages.py: `pmap(f).lower(*args)`, `.as_text()`, `.compile()` and calling the
`Compiled`, against what JAX 0.10.2 does with eight CPU devices (recorded with
/opt/ref/bin/python)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax, stages
from core.jit.stages import CompiledArgumentTypeError, CompiledTracerError, CompiledTreeError
from core.pmap import PmapArgumentError, PmapDeviceCountError


def _f(x, y):
    return x * y, lax.psum(x, "i")


def _lowered():
    return core.pmap(_f, axis_name="i", in_axes=(0, None)).lower(jnp.ones((4, 3)), 2.0)


def test_the_stages_are_jaxs_types_and_the_compiled_runs_like_the_pmap():
    lowered = _lowered()
    compiled = lowered.compile()
    assert isinstance(lowered, stages.Lowered) and isinstance(compiled, stages.Compiled)
    prod, total = compiled(jnp.ones((4, 3)), 3.0)
    np.testing.assert_array_equal(np.asarray(prod), np.full((4, 3), 3.0, np.float32))
    np.testing.assert_array_equal(np.asarray(total), np.full((4, 3), 4.0, np.float32))
    assert repr(prod.sharding) == (
        "NamedSharding(mesh=Mesh('i': 4, axis_types=(Auto,)), spec=P('i',), memory_kind=device)"
    )
    assert isinstance(lowered.as_text(), str) and isinstance(compiled.as_text(), str)


@pytest.mark.parametrize("stage", ["lower", "compile"])
def test_signature_as_jax_tells_it(stage):
    obj = _lowered() if stage == "lower" else _lowered().compile()
    # JAX 0.10.2's reprs (its out_info adds a `format=Layout(...)`)
    assert str(obj.in_tree) == "PyTreeDef(((*, *), {}))"
    assert str(obj.out_tree) == "PyTreeDef((*, *))"
    assert str(obj.in_avals) == (
        "((ShapedArray(float32[4,3]), ShapedArray(float32[], weak_type=True)), {})"
    )
    assert str(obj.args_info) == (
        "((ArgInfo(_aval=ShapedArray(float32[4,3]), donated=False), "
        "ArgInfo(_aval=ShapedArray(float32[], weak_type=True), donated=False)), {})"
    )
    sharding = (
        "NamedSharding(mesh=Mesh('i': 4, axis_types=(Auto,)), spec=P('i',), memory_kind=device)"
    )
    want = f"ShapeDtypeStruct(shape=(4, 3), dtype=float32, sharding={sharding})"
    assert str(obj.out_info) == f"({want}, {want})"
    assert obj.donate_argnums == ()


# (pmap keywords, lowered with, called with) -> the output's shape and sharding's spec, as JAX
INTERNAL = "P('_internal_pmap_axis_name',)"
SIGNATURES = [
    (dict(), [jnp.ones((2, 3))], [np.ones((2, 3), np.float32)], (2, 3), INTERNAL),
    (dict(), [jnp.ones((2, 3))], [np.ones((2, 3))], (2, 3), INTERNAL),
    (dict(), [core.ShapeDtypeStruct((8, 3), jnp.float32)], [jnp.ones((8, 3))], (8, 3), INTERNAL),
    (dict(), [core.core.ShapedArray((8, 3), jnp.float32)], [jnp.ones((8, 3))], (8, 3), INTERNAL),
    (dict(axis_name="i", out_axes=None), [jnp.ones((2, 3))], [jnp.ones((2, 3))], (3,), "P()"),
]  # fmt: skip


@pytest.mark.parametrize("kw, lower_args, call_args, shape, spec", SIGNATURES)
def test_compiled_takes_what_jax_takes(kw, lower_args, call_args, shape, spec):
    fun = (lambda x: lax.psum(x, "i")) if kw.get("out_axes", 0) is None else (lambda x: x * 2)
    out = core.pmap(fun, **kw).lower(*lower_args).compile()(*call_args)
    assert out.shape == shape and out.dtype == np.float32 and f"spec={spec}" in repr(out.sharding)


def test_static_arguments_are_fixed_when_lowering():
    pmapped = core.pmap(lambda x, n: x * n, static_broadcasted_argnums=1)
    compiled = pmapped.lower(jnp.ones((2, 3)), 4).compile()
    np.testing.assert_array_equal(np.asarray(compiled(jnp.ones((2, 3)))), np.full((2, 3), 4.0))
    with pytest.raises(CompiledTreeError, match="input pytree does not match"):
        compiled(jnp.ones((2, 3)), 4)  # JAX's TypeError: the static one is not passed


def test_keyword_arguments_and_donation():
    pmapped = core.pmap(lambda x, y: x * y, donate_argnums=0)
    compiled = pmapped.lower(jnp.ones((2, 3)), y=jnp.ones((2, 3))).compile()
    assert compiled.donate_argnums == (0,)
    x = pmapped(jnp.ones((2, 3)), y=jnp.ones((2, 3)))  # laid out over the devices
    out = compiled(x, y=jnp.full((2, 3), 2.0))
    assert x.is_deleted() and np.asarray(out).tolist() == [[2.0] * 3] * 2


def test_lowering_then_calling_compiles_once():
    pmapped = core.pmap(lambda x: jnp.sin(x) + 1.5)
    pmapped.lower(jnp.ones((2, 5))).compile()
    before = core.compile_count()
    pmapped(jnp.ones((2, 5)))
    assert core.compile_count() == before


# bad calls of a Compiled lowered for one float32[2,3] -> JAX 0.10.2's TypeError's first line
BAD_CALLS = [
    ([jnp.ones((2, 4))], CompiledArgumentTypeError, "Argument types differ from the types"),
    ([jnp.ones((2, 3), jnp.int32)], CompiledArgumentTypeError,
     "Argument types differ from the types"),
    ([jnp.ones((4, 3))], CompiledArgumentTypeError, "Argument types differ from the types"),
    ([jnp.ones((2, 3)), jnp.ones((2, 3))], CompiledTreeError,
     "Function compiled with input pytree does not match the input pytree it was called with."),
]  # fmt: skip


@pytest.mark.parametrize("args, error, first", BAD_CALLS)
def test_a_compiled_refuses_other_signatures_as_jax(args, error, first):
    compiled = core.pmap(lambda x: x * 2).lower(jnp.ones((2, 3))).compile()
    with pytest.raises(TypeError) as info:
        compiled(*args)
    assert type(info.value) is error and str(info.value).startswith(first)


def test_the_type_mismatch_names_the_argument_as_jax():
    compiled = core.pmap(lambda x: x * 2).lower(jnp.ones((2, 3))).compile()
    with pytest.raises(CompiledArgumentTypeError) as info:
        compiled(jnp.ones((2, 4)))
    line = "Argument 'flat_args[0]' compiled with float32[2,3] and called with float32[2,4]"
    assert str(info.value).splitlines()[1] == line


@pytest.mark.parametrize("transform", ["grad", "jit"])
def test_a_compiled_refuses_tracers_as_jax(transform):
    compiled = core.pmap(lambda x: x * 2).lower(jnp.ones((2, 3))).compile()
    f = lambda x: compiled(x).sum()
    wrapped = core.grad(f) if transform == "grad" else core.jit(f)
    with pytest.raises(CompiledTracerError, match="Cannot apply JAX transformations to a "
                       "function lowered and compiled for a particular signature"):  # fmt: skip
        wrapped(jnp.ones((2, 3)))


# bad lowerings -> the error a call with the same arguments raises (JAX: ValueError)
BAD_LOWERINGS = [
    (dict(axis_size=3), (2, 3), PmapArgumentError,
     "Specified axis_size 3 doesn't match received axis_size 2."),
    (dict(), (9, 3), PmapDeviceCountError, "requires 9 logical devices"),
]  # fmt: skip


@pytest.mark.parametrize("kw, shape, error, message", BAD_LOWERINGS)
def test_bad_lowerings_raise_the_calls_errors(kw, shape, error, message):
    with pytest.raises(error, match=message):
        core.pmap(lambda x: x, **kw).lower(jnp.ones(shape))
