"""The option types of `jax.lax` functions that choose among XLA's implementations: matmul
`Precision` and dot algorithms (`DotAlgorithm`, `DotAlgorithmPreset`), the `accuracy` of
transcendental functions (`AccuracyMode`, `Tolerance`) and `RandomAlgorithm`.

On the CPU JAX computes the same values whichever of these a program passes (XLA's CPU back
end has one implementation of each), and so does numbax. What they still decide is whether a
call is accepted: `canonicalize_precision` and `check_accuracy` refuse what JAX refuses, with
JAX's messages (a misspelled precision, a dot algorithm XLA's CPU back end does not run, an
`accuracy` that is neither a mode nor a tolerance).
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from core.errors import NumbaxError


class PrecisionError(NumbaxError, ValueError):
    """A `precision=` JAX refuses: not a `Precision`, alias, pair, dot algorithm or preset
    name, or a dot algorithm XLA's CPU back end does not run.

    Failing code: ``jnp.dot(a, b, precision="hihgest")`` or
    ``jnp.dot(a, b, precision="F16_F16_F32")``. Fix: one of the message's values; on the CPU
    `precision=None` (or "highest") computes the same values as any other accepted one.
    """


class ToleranceError(NumbaxError, ValueError):
    """A `Tolerance` with a negative tolerance or none set (JAX's ValueErrors).

    Failing code: ``lax.Tolerance()``. Fix: set `atol`, `rtol` or `ulps` (non-negative).
    """


class AccuracyError(NumbaxError, NotImplementedError):
    """An `accuracy=` that is neither an `AccuracyMode` nor a `Tolerance` (JAX's
    "Accuracy high not supported").

    Failing code: ``lax.exp(x, accuracy="high")``. Fix: `lax.AccuracyMode.HIGHEST` or
    `lax.Tolerance(atol=...)`, or leave it out (no effect on the CPU).
    """


class Precision(enum.Enum):
    """`lax.Precision`: the speed/accuracy trade-off of float32 matmuls on accelerators; no
    effect on the CPU (JAX's and numbax's). Also made from JAX's aliases:
    `Precision("highest")`, `"float32"`, `"high"`, `"bfloat16_3x"`, `"tensorfloat32"`,
    `"default"`, `"bfloat16"`, `"fastest"`."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value: object) -> Precision | None:
        return _PRECISION_STRINGS.get(value)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}.{self.name}"

    def __str__(self) -> str:
        return self.name


_PRECISION_STRINGS: dict[Any, Precision] = {
    "highest": Precision.HIGHEST,
    "float32": Precision.HIGHEST,
    "high": Precision.HIGH,
    "bfloat16_3x": Precision.HIGH,
    "tensorfloat32": Precision.HIGH,
    "default": Precision.DEFAULT,
    "bfloat16": Precision.DEFAULT,
    "fastest": Precision.DEFAULT,
    None: Precision.DEFAULT,
}


class DotAlgorithm(NamedTuple):
    """`lax.DotAlgorithm`: an explicit algorithm for a dot product (input storage types,
    accumulation type, component counts), passed as `precision=`. Fields as JAX's."""

    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class DotAlgorithmPreset(enum.Enum):
    """`lax.DotAlgorithmPreset`: JAX's named dot algorithms (`LHS_RHS_ACCUM`), passed as
    `precision=` or by name (`precision="F32_F32_F32"`)."""

    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}.{self.name}"

    def __str__(self) -> str:
        return self.name


# JAX's annotation type `lax.PrecisionLike`, for ported code that names it.
PrecisionLike = (
    None
    | str
    | Precision
    | tuple[str, str]
    | tuple[Precision, Precision]
    | DotAlgorithm
    | DotAlgorithmPreset
)


# The presets JAX lets through to XLA's CPU back end (`_handle_dot_precision`); it refuses the
# others before compiling.
_CPU_PRESETS = frozenset(
    DotAlgorithmPreset[n]
    for n in (
        "DEFAULT",
        "F16_F16_F16",
        "F32_F32_F32",
        "F64_F64_F64",
        "BF16_BF16_F32",
        "BF16_BF16_F32_X3",
        "BF16_BF16_F32_X6",
    )
)


def canonicalize_precision(precision: Any) -> Any:
    """JAX's reading of a `precision=` argument (`lax.canonicalize_precision`).

    Args:
      precision: None, one of `Precision`'s aliases, a `Precision`, a pair of them (or of
        aliases), a `DotAlgorithmPreset` or its name, or a `DotAlgorithm`.

    Returns:
      None, a pair of `Precision`s, a `DotAlgorithmPreset` or a `DotAlgorithm`.

    Raises:
      PrecisionError: (a ValueError, as JAX's) anything else, with JAX's message, or a dot
        algorithm XLA's CPU back end does not run ("The precision 'F16_F16_F32' is not
        supported by dot_general on CPU").
    """
    if precision is None:
        return None
    if isinstance(precision, str):
        if precision in _PRECISION_STRINGS:
            return Precision(precision), Precision(precision)
        if precision in DotAlgorithmPreset.__members__:
            return _on_cpu(DotAlgorithmPreset[precision])
    elif isinstance(precision, Precision):
        return precision, precision
    elif isinstance(precision, (DotAlgorithm, DotAlgorithmPreset)):
        return _on_cpu(precision)
    elif isinstance(precision, (list, tuple)) and len(precision) == 2:
        if all(isinstance(p, Precision) for p in precision):
            return tuple(precision)
        if all(isinstance(s, str) for s in precision):
            return tuple(canonicalize_precision(s)[0] for s in precision)
    raise PrecisionError(
        "Precision argument must be one of:\n"
        "- None,\n"
        f"- a string in {list(_PRECISION_STRINGS)},\n"
        "- a lax.Precision value,\n"
        "- a tuple of two lax.Precision values or strings,\n"
        "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
        "- a lax.DotAlgorithm value;\n"
        f"but got {precision}."
    )


def _on_cpu(algorithm: Any) -> Any:
    if isinstance(algorithm, DotAlgorithmPreset) and algorithm not in _CPU_PRESETS:
        raise PrecisionError(f"The precision '{algorithm}' is not supported by dot_general on CPU")
    return algorithm


class AccuracyMode(enum.Enum):
    """`lax.AccuracyMode`: the accuracy of a transcendental function (`lax.exp(x,
    accuracy=AccuracyMode.HIGHEST)`); no effect on the CPU."""

    HIGHEST = 1
    DEFAULT = 2


class Tolerance:
    """`lax.Tolerance`: the tolerances a transcendental function may have (`lax.exp(x,
    accuracy=Tolerance(atol=1e-3))`): at most atol and rtol, or atol and ulps; no effect on
    the CPU.

    Args:
      atol: the absolute tolerance.
      rtol: the relative tolerance.
      ulps: the tolerance in units in the last place.
    """

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        given = (atol, rtol, ulps)
        if any(t < 0.0 for t in given):
            raise ToleranceError("Tolerances must be non-negative.")
        if all(t == 0 for t in given):
            raise ToleranceError("At least one of atol, rtol, or ulps must be set.")
        self.atol, self.rtol, self.ulps = given


def check_accuracy(accuracy: Any) -> None:
    """Refuses an `accuracy=` that is neither None, an `AccuracyMode` nor a `Tolerance`
    (`AccuracyError`, a NotImplementedError with JAX's message)."""
    if accuracy is not None and not isinstance(accuracy, (AccuracyMode, Tolerance)):
        raise AccuracyError(f"Accuracy {accuracy} not supported")


class RandomAlgorithm(enum.IntEnum):
    """`lax.RandomAlgorithm`: the bit generator of `lax.rng_bit_generator`
    (`core/prims/rng_bit_generator.py`); `RNG_DEFAULT` is Philox on CPU."""

    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self) -> str:
        return self.name
