"""core.numpy input/output and printing helpers (load/save, frombuffer, fromstring, ...)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import JaxRuntimeError
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "frombuffer",
        lambda: jnp.frombuffer(b"\x01\x02\x03\x04", dtype=jnp.uint8),
        ([1, 2, 3, 4], "uint8", False),
    ),
    (
        "frombuffer_f",
        lambda: jnp.frombuffer(np.arange(3.0).tobytes()),
        ([0.0, 1.0, 2.0], "float32", False),
    ),
    ("fromstring", lambda: jnp.fromstring("1 2 3.5", sep=" "), ([1.0, 2.0, 3.5], "float32", False)),
    (
        "fromstring_i",
        lambda: jnp.fromstring("1,2,3", dtype=int, sep=","),
        ([1, 2, 3], "int32", False),
    ),
    ("array_str", lambda: jnp.array_str(jnp.array([1.5, 2.25])), "[1.5  2.25]"),
    ("array_repr", lambda: jnp.array_repr(np.array([1, 2])), "array([1, 2])"),
    ("array_repr_jax", lambda: jnp.array_repr(jnp.array([1, 2])), "ArrayImpl([1, 2], dtype=int32)"),
    (
        "array_repr_wrapped",
        lambda: jnp.array_repr(jnp.arange(6), max_line_width=20),
        "ArrayImpl([0, 1, 2,\n           3, 4, 5],\n          dtype=int32)",
    ),
    (
        "iterable",
        lambda: [jnp.iterable([1]), jnp.iterable(3), jnp.iterable(jnp.arange(2))],
        [True, False, True],
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


@pytest.mark.parametrize(
    "data",
    [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.arange(4, dtype=np.int64),
        np.array([True, False]),
        np.float64(2.5),
    ],
    ids=["f32", "i64", "bool", "scalar-f64"],
)
def test_save_load_roundtrip(tmp_path, data):
    path = tmp_path / "x.npy"
    jnp.save(path, jnp.asarray(data))
    out = jnp.load(path)
    assert isinstance(out, core.Array)
    np.testing.assert_array_equal(np.asarray(out), data)
    assert out.dtype == core.dtypes.canonicalize_dtype(np.asarray(data).dtype)


def test_savez_and_unsupported_dtype_stay_numpy(tmp_path):
    jnp.savez(tmp_path / "z.npz", a=jnp.arange(3), b=jnp.ones(2))
    with jnp.load(tmp_path / "z.npz") as z:
        np.testing.assert_array_equal(z["a"], [0, 1, 2])
        np.testing.assert_array_equal(z["b"], [1.0, 1.0])
    np.save(tmp_path / "s.npy", np.array(["ab", "c"]))
    strings = jnp.load(tmp_path / "s.npy")
    assert isinstance(strings, np.ndarray) and strings.tolist() == ["ab", "c"]


def test_frombuffer_offset_count_and_fromiter():
    buf = np.arange(5, dtype=np.int16).tobytes()
    out = jnp.frombuffer(buf, dtype=np.int16, count=3, offset=2)
    check(out, ([1, 2, 3], "int16", False))
    # JAX 0.10.2's first line
    first = "^jnp.fromiter.. is not implemented because it may be non-pure and thus unsafe for use "
    with pytest.raises(NotImplementedError, match=first + "with JIT and other JAX transformations"):
        jnp.fromiter(iter([1, 2]), dtype=float)


def test_printoptions_delegate_to_numpy():
    before = np.get_printoptions()
    assert jnp.get_printoptions() == before
    with jnp.printoptions(precision=2):
        assert np.get_printoptions()["precision"] == 2
        assert jnp.array_str(jnp.array([1.23456])) == "[1.23]"
    assert jnp.get_printoptions() == before
    jnp.set_printoptions(precision=3)
    try:
        assert np.get_printoptions()["precision"] == 3
    finally:
        np.set_printoptions(**before)


def test_fromfile_raises_jaxs_error_and_from_dlpack_converts():
    with pytest.raises(NotImplementedError, match=r"jnp.asarray\(np.fromfile"):
        jnp.fromfile("data.bin")
    x = jnp.from_dlpack(np.arange(3.0))
    assert x.dtype == np.float32  # canonicalized, as JAX 0.10.2 gives
    np.testing.assert_array_equal(x, [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="copy=False"):
        jnp.from_dlpack(np.arange(3.0), copy=False)


# (id, argument, JAX 0.10.2's error class, first line) and arguments JAX accepts
DLPACK_ERRORS = [
    ("list", [1, 2], TypeError,
     "The array passed to from_dlpack must have __dlpack__ and __dlpack_device__ methods."),
    ("step", np.arange(6, dtype=np.int32)[::2], JaxRuntimeError,
     "UNIMPLEMENTED: Only DLPack tensors with trivial (compact) striding are supported; i.e., "
     "tensors whose striding represents a transposition of the underlying buffer but not "
     "broadcasting. Dimensions were: [3], strides were [2]."),
    ("reversed", np.arange(4)[::-1], JaxRuntimeError, None),
    ("column_slice", np.arange(12).reshape(3, 4)[:, 1:2], JaxRuntimeError, None),
]  # fmt: skip
DLPACK_ACCEPTED = [
    np.arange(6).reshape(2, 3).T,
    np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1),
    np.arange(6)[::2][:1],
    np.zeros((0, 3))[:, ::2],
    np.array(3.0),
]


@pytest.mark.parametrize(
    "x, kind, first", [c[1:] for c in DLPACK_ERRORS], ids=[c[0] for c in DLPACK_ERRORS]
)
def test_from_dlpack_refuses_what_jax_refuses(x, kind, first):
    with pytest.raises(kind) as info:
        jnp.from_dlpack(x)
    if first is not None:
        assert str(info.value).splitlines()[0] == first


@pytest.mark.parametrize("x", DLPACK_ACCEPTED)
def test_from_dlpack_accepts_permuted_contiguous_strides(x):
    np.testing.assert_array_equal(jnp.from_dlpack(x), x)
