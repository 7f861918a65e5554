"""`jax.lax`'s option types (`core/prims/options.py`): `Precision` and its aliases, dot
algorithms and presets, `AccuracyMode`/`Tolerance` for transcendental functions,
`RandomAlgorithm`. On the CPU they change no value (JAX 0.10.2's either), and numbax refuses
what JAX refuses, with JAX's messages."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

A = np.array([1.0001, 2.0003, 3.0007], np.float32)


@pytest.mark.parametrize(
    "precision",
    [None, "highest", "fastest", ("high", "highest"), lax.Precision.HIGH,
     (lax.Precision.DEFAULT, lax.Precision.HIGHEST), "F32_F32_F32",
     lax.DotAlgorithmPreset.BF16_BF16_F32_X3, lax.DotAlgorithmPreset.DEFAULT,
     lax.DotAlgorithm(np.float32, np.float32, np.float32)],
)  # fmt: skip
def test_accepted_precisions_compute_the_same_product(precision):
    # JAX on the CPU: 14.005601 for each (BF16_BF16_F32 too: XLA's CPU ignores the algorithm)
    jitted = core.jit(jnp.dot, static_argnames="precision")
    for f in (jnp.dot, jnp.matmul, jnp.inner, jnp.vdot, lax.dot, jitted):
        np.testing.assert_allclose(f(A, A, precision=precision), np.float32(14.005601), rtol=1e-7)


@pytest.mark.parametrize(
    "call",
    [lambda p: jnp.dot(2.0, 3.0, precision=p), lambda p: jnp.einsum("i,i", A, A, precision=p),
     lambda p: jnp.linalg.multi_dot([np.eye(2)] * 3, precision=p),
     lambda p: jnp.convolve(A, A[:2], precision=p), lambda p: jnp.correlate(A, A[:2], precision=p),
     lambda p: jnp.tensordot(A, A, 1, precision=p), lambda p: jnp.linalg.vecdot(A, A, precision=p),
     lambda p: lax.dot_general(A, A, (((0,), (0,)), ((), ())), precision=p),
     lambda p: lax.conv_general_dilated(np.ones((1, 1, 4)), np.ones((1, 1, 2)), (1,), "VALID",
                                        precision=p)],
)  # fmt: skip
def test_a_misspelled_precision_is_refused_with_jaxs_message(call):
    with pytest.raises(ValueError) as e:
        call("hihgest")
    assert str(e.value) == (  # JAX's message
        "Precision argument must be one of:\n- None,\n- a string in ['highest', 'float32', "
        "'high', 'bfloat16_3x', 'tensorfloat32', 'default', 'bfloat16', 'fastest', None],\n"
        "- a lax.Precision value,\n- a tuple of two lax.Precision values or strings,\n"
        "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
        "- a lax.DotAlgorithm value;\nbut got hihgest."
    )


@pytest.mark.parametrize(
    "name", ["F16_F16_F32", "BF16_BF16_BF16", "TF32_TF32_F32", "ANY_F8_ANY_F8_F32"]
)
def test_dot_algorithms_the_cpu_does_not_run_are_refused(name):
    # JAX: ValueError("The precision 'F16_F16_F32' is not supported by dot_general on CPU")
    msg = f"^The precision '{name}' is not supported by dot_general on CPU$"
    for precision in (name, lax.DotAlgorithmPreset[name]):
        with pytest.raises(ValueError, match=msg):
            jnp.dot(A, A, precision=precision)


def test_precision_enums_print_and_parse_as_jaxs():
    assert lax.Precision("highest") is lax.Precision.HIGHEST
    assert lax.Precision("bfloat16_3x") is lax.Precision.HIGH
    assert (repr(lax.Precision.HIGH), str(lax.Precision.HIGH)) == ("Precision.HIGH", "HIGH")
    preset = lax.DotAlgorithmPreset.F32_F32_F32
    assert (repr(preset), str(preset)) == ("DotAlgorithmPreset.F32_F32_F32", "F32_F32_F32")
    assert len(lax.DotAlgorithmPreset) == 16
    assert lax.DotAlgorithm(np.float32, np.float32, np.float32).num_primitive_operations == 1
    assert [str(a) for a in lax.RandomAlgorithm] == ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]
    assert lax.RandomAlgorithm.RNG_PHILOX == 2


@pytest.mark.parametrize(
    "fn",
    [lax.exp, lax.exp2, lax.log, lax.log1p, lax.expm1, lax.sqrt, lax.rsqrt, lax.cbrt, lax.tanh,
     lax.logistic, lax.sin, lax.cos, lax.tan],
)  # fmt: skip
def test_accuracy_is_accepted_and_changes_nothing(fn):
    # JAX on the CPU: lax.exp(x, accuracy=Tolerance(atol=1e-3)) == lax.exp(x), AccuracyMode too
    want = fn(A)
    for accuracy in (lax.Tolerance(atol=1e-3), lax.AccuracyMode.HIGHEST, None):
        np.testing.assert_array_equal(fn(A, accuracy=accuracy), want)
    jitted = core.jit(lambda x: fn(x, accuracy=lax.AccuracyMode.DEFAULT))
    np.testing.assert_array_equal(jitted(A), core.jit(fn)(A))
    np.testing.assert_array_equal(fn.primitive.bind(A, accuracy=lax.Tolerance(ulps=2)), want)


def test_bad_accuracies_and_tolerances_are_refused_with_jaxs_messages():
    with pytest.raises(NotImplementedError, match="^Accuracy high not supported$"):
        lax.exp(A, accuracy="high")
    with pytest.raises(ValueError, match="^At least one of atol, rtol, or ulps must be set.$"):
        lax.Tolerance()
    with pytest.raises(ValueError, match="^Tolerances must be non-negative.$"):
        lax.Tolerance(atol=-1.0)


def test_broadcast_like():
    # JAX: [[1, 2, 3], [1, 2, 3]] int32; a Python float keeps its (weak float32) dtype
    out = lax.broadcast_like(jnp.array([1, 2, 3]), jnp.zeros((2, 3)))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [[1, 2, 3], [1, 2, 3]])
    assert lax.broadcast_like(2.0, jnp.zeros(2, np.int32)).dtype == np.float32
    np.testing.assert_array_equal(
        core.jit(lax.broadcast_like)(jnp.arange(3.0).reshape(3, 1), jnp.zeros((2, 3, 4)))[1],
        np.repeat(np.arange(3.0)[:, None], 4, 1),
    )
    msg = "input type=float32\\[3\\] and requested type=float32\\[2,4\\]$"
    with pytest.raises(ValueError, match="^Incompatible types for broadcasting: " + msg):
        lax.broadcast_like(jnp.ones(3), jnp.zeros((2, 4)))
