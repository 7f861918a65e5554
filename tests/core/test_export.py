"""`core.export` (`jax.export`): an `Exported`'s fields, `call` (also under `jit`, `grad` and
`vmap`), JAX's errors for a wrong call, and numbax's serialization round trip, in this process
and another one. The values and messages are JAX 0.10.2's (run on the reference interpreter;
JAX's own `serialize` needs `flatbuffers`, which it lacks)."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import export
from core.export import (
    ExportedDtypeError,
    ExportedPlatformError,
    ExportedShapeError,
    ExportedTreeError,
    ExportSerializationError,
    NotJittedError,
    ShapePolymorphismError,
)

ONES = np.ones((2, 3), np.float32)


def f(x, y):
    return {"s": jnp.sin(x) * y, "t": (x.sum(),)}


@pytest.fixture(scope="module")
def exported():
    return export.export(core.jit(f))(ONES, core.ShapeDtypeStruct((2, 3), jnp.float32))


def test_fields_are_jaxs(exported):
    assert exported.fun_name == "f"
    assert repr(exported.in_avals) == "(ShapedArray(float32[2,3]), ShapedArray(float32[2,3]))"
    assert repr(exported.out_avals) == "(ShapedArray(float32[2,3]), ShapedArray(float32[]))"
    assert repr(exported.in_tree) == "PyTreeDef(((*, *), {}))"
    assert repr(exported.out_tree) == "PyTreeDef({'s': *, 't': (*,)})"
    assert exported.platforms == ("cpu",)
    assert exported.nr_devices == 1
    assert exported.in_shardings_hlo == exported.out_shardings_hlo == (None, None)
    assert exported.calling_convention_version == 10
    assert exported.module_kept_var_idx == (0, 1)
    assert exported.has_vjp()
    assert export.default_export_platform() == "cpu"
    assert export.minimum_supported_calling_convention_version == 9
    assert export.maximum_supported_calling_convention_version == 10


def test_call_and_transformations(exported):
    out = exported.call(ONES, 2 * ONES)
    np.testing.assert_allclose(out["s"], np.full((2, 3), 1.6829419), rtol=1e-6)
    assert float(out["t"][0]) == 6.0
    grad = core.grad(lambda x: exported.call(x, x)["s"].sum())(ONES)
    np.testing.assert_allclose(grad, np.full((2, 3), 1.3817732), rtol=1e-6)  # JAX's
    jitted = core.jit(lambda x: exported.call(x, x)["s"])(ONES)
    np.testing.assert_allclose(jitted, np.full((2, 3), 0.84147096), rtol=1e-6)
    # JAX's Exported.call has no batching rule; numbax's runs a jaxpr, which vmap batches
    assert core.vmap(lambda x: exported.call(x, x)["s"])(np.ones((4, 2, 3))).shape == (4, 2, 3)
    vjp = exported.vjp()
    assert [a.shape for a in vjp.in_avals] == [(2, 3), (2, 3), (2, 3), ()]


def test_static_and_keyword_arguments():
    ek = export.export(core.jit(lambda x, *, k: x * k))(np.ones(2, np.float32), k=np.float32(3))
    assert repr(ek.in_tree) == "PyTreeDef(((*,), {'k': *}))"
    np.testing.assert_array_equal(ek.call(np.ones(2, np.float32), k=np.float32(2)), [2, 2])
    es = export.export(core.jit(lambda x, n: x * n, static_argnums=1))(np.ones(2, np.float32), 3)
    assert repr(es.in_tree) == "PyTreeDef(((*,), {}))"
    np.testing.assert_array_equal(es.call(np.ones(2, np.float32)), [3, 3])


def test_call_errors_are_jaxs(exported):
    head = (
        "The invocation args and kwargs must have the same pytree structure as when the "
        "function 'f' was exported, but they have the following structural differences:\n"
    )
    cases = [
        ((np.ones((2, 4)), ONES), {}, ExportedShapeError,
         "Shape mismatch for args[0].shape[1] (expected same constant): expected (2, 3) and "
         "called with (2, 4)"),
        ((1.0, ONES), {}, ExportedShapeError,
         "Rank mismatch for args[0]: expected (2, 3) and called with ()"),
        ((ONES.astype(np.int32), ONES), {}, ExportedDtypeError,
         "Dtype mismatch for args[0]: expected float32 and called with int32"),
        ((ONES,), {}, ExportedTreeError,
         head + "   - args is a tuple of length 1 in the invocation and a tuple of length 2 "
         "when exported, so the lengths do not match.\n"),
        (((ONES,), ONES), {}, ExportedTreeError,
         head + "   - args[0] is a <class 'tuple'> in the invocation and a <class 'int'> when "
         "exported, so their Python types differ.\n"),
        ((ONES,), {"y": ONES}, ExportedTreeError,
         head + "   - args is a tuple of length 1 in the invocation and a tuple of length 2 "
         "when exported, so the lengths do not match.\n\n   - kwargs is a <class 'dict'> with "
         "1 child in the invocation and a <class 'dict'> with 0 child when exported, so the "
         "numbers of children do not match, with the symmetric difference of key sets: "
         "{'y'}.\n"),
    ]  # fmt: skip
    for args, kwargs, cls, message in cases:
        with pytest.raises(cls) as info:
            exported.call(*args, **kwargs)
        assert isinstance(info.value, ValueError)
        assert str(info.value) == message


def test_dict_metadata_difference_is_jaxs():
    e = export.export(core.jit(lambda x, d: x))(np.ones(2, np.float32), {"a": np.ones(2)})
    with pytest.raises(ExportedTreeError, match=r"args\[1\] is a <class 'dict'> with pytree "
                       r"metadata \('b',\) in the invocation and a <class 'dict'> with pytree "
                       r"metadata \('a',\) when exported"):  # fmt: skip
        e.call(np.ones(2, np.float32), {"b": np.ones(2, np.float32)})


def test_export_errors():
    with pytest.raises(NotJittedError, match="must be the result of `jit` but is: <function f"):
        export.export(f)
    tpu = export.export(core.jit(jnp.sin), platforms=["tpu"])(ONES)
    with pytest.raises(ExportedPlatformError, match=r"exported for platforms '\('tpu',\)' but "):
        tpu.call(ONES)
    skip = export.DisabledSafetyCheck.platform()
    assert str(skip) == "platform"
    ran = export.export(core.jit(jnp.sin), platforms=["tpu"], disabled_checks=[skip])(ONES)
    np.testing.assert_allclose(ran.call(ONES), np.sin(ONES))
    for fn in (
        lambda: export.symbolic_shape("a, b"),
        lambda: export.symbolic_args_specs((ONES,), "a, b"),
        export.SymbolicScope,
    ):
        with pytest.raises(ShapePolymorphismError, match="no shape polymorphism"):
            fn()
    assert not export.is_symbolic_dim(3)


def _g(x):
    c = jnp.asarray(np.arange(3.0, dtype=np.float32))
    z = core.lax.scan(lambda c, a: (c + a, c * a), 0.0, x)[1]
    return core.nn.relu(z) * c + core.nn.softmax(x) + core.nn.gelu(x)


def test_serialize_round_trip_with_custom_derivatives_and_scan():
    x = np.array([0.5, -1.0, 2.0], np.float32)
    blob = export.export(core.jit(_g))(x).serialize()
    assert isinstance(blob, bytearray)
    back = export.deserialize(blob)
    assert back.fun_name == "_g"
    np.testing.assert_allclose(back.call(x), _g(x), rtol=1e-6)
    np.testing.assert_allclose(
        core.grad(lambda x: back.call(x).sum())(x),
        core.grad(lambda x: _g(x).sum())(x),
        rtol=1e-6,
    )
    # the docstring example of jax.export.export (JAX's `jnp.sin` is jitted, numbax's plain)
    sin = export.deserialize(export.export(jnp.sin)(np.arange(4, dtype=np.float32)).serialize())
    np.testing.assert_allclose(
        sin.call(np.array([0.1, 0.2, 0.3, 0.4], np.float32)),
        [0.09983342, 0.19866933, 0.29552022, 0.38941833],
        rtol=1e-6,
    )


def test_deserialize_in_another_process(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(export.export(core.jit(f))(ONES, ONES).serialize())
    code = (
        "import sys, numpy as np; from core import export; "
        f"e = export.deserialize(open({str(path)!r}, 'rb').read()); "
        "print(float(e.call(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))['t'][0]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "6.0"


def test_deserialize_refuses_foreign_bytes():
    with pytest.raises(ExportSerializationError, match="not a numbax serialized export"):
        export.deserialize(b"junk")
    head = b"numbax-export\x00\x01"
    evil = io.BytesIO()
    pickle.dump(subprocess.getoutput, evil)
    with pytest.raises(ExportSerializationError, match="subprocess.getoutput"):
        export.deserialize(head + evil.getvalue())


def test_callbacks_are_not_serializable():
    def h(x):
        return core.pure_callback(
            lambda v: np.asarray(v) * 2, core.ShapeDtypeStruct((2,), x.dtype), x
        )

    with pytest.raises(ExportSerializationError, match="host callbacks and closures"):
        export.export(core.jit(h))(np.ones(2, np.float32)).serialize()
