"""JAX's own docstring examples of `jax.numpy` (with `jax.numpy.linalg` and `jax.numpy.fft`),
run on numbax with their imports ported (`flaxport.port`), print what they print on JAX
0.10.2 (`docstrings_jnp.json`, recorded by `record_docstrings.py`): values, dtypes, weak
types, reprs and errors. Functions whose examples still differ are strict xfails with the
reason."""

import pytest

import core
from flaxport.port import port_source
from tests.porting.docstrings import load, namespace, run_examples, same

_ROUNDING = "float32 rounding of XLA's algorithm differs in the last digit"
_DFT = (
    "numbax's FFT is a DFT matrix product: its float32 rounding (and the signs of its zeros) "
    "differ from pocketFFT's in the last digit"
)
XFAIL = {
    "jax.numpy.angle": _ROUNDING + " (atan2)",
    "jax.numpy.expm1": _ROUNDING + " (expm1, exp)",
    "jax.numpy.i0": _ROUNDING + " (i0)",
    "jax.numpy.linalg.svdvals": _ROUNDING + " (LAPACK's SVD)",
    "jax.numpy.true_divide": (
        "complex64 division: numpy's (numbax's eager impl) multiplies by a reciprocal, "
        "(9+5j)/3j is 1.6666667-3j; XLA divides, 1.6666666-3j"
    ),
    "jax.numpy.poly": "the sign of a zero imaginary part after complex rounding",
    "jax.numpy.cosh": "cos of a complex number: the sign of a zero imaginary part",
    "jax.numpy.fft.fftn": _DFT,
    "jax.numpy.fft.hfft": _DFT,
    "jax.numpy.fft.ifftn": _DFT,
    "jax.numpy.fft.irfftn": _DFT,
    "jax.numpy.fft.rfft2": _DFT,
    "jax.numpy.fft.rfftn": _DFT,
    "jax.numpy.einsum_path": "numbax prints numpy's einsum_path report, JAX opt_einsum's",
}

RECORDED = load("jnp")


@pytest.mark.parametrize(
    "function",
    [
        pytest.param(f, marks=pytest.mark.xfail(reason=XFAIL[f], strict=True)) if f in XFAIL else f
        for f in sorted(RECORDED)
    ],
)
def test_docstring_examples_print_as_on_jax(function):
    examples = RECORDED[function]
    got = run_examples([port_source(s)[0] for s, _ in examples], namespace(core))
    differ = [
        f">>> {s}JAX:    {w!r}\nnumbax: {g!r}"
        for (s, w), g in zip(examples, got)
        if not same(g, w, s)
    ]
    assert not differ, "\n".join(differ)


def test_xfails_are_recorded_functions():
    assert set(XFAIL) <= set(RECORDED)
