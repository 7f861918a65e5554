"""The `debug_nans` / `debug_infs` checks: eager primitive outputs and jitted calls.

Called only when `config._check_floats` is set (see `core/config.py`). A jitted call with a bad
output calls its Python function again without `jit` on the same arguments (`rerun_deoptimized`,
after printing JAX's "Calling the de-optimized version" line), so the eager operation that
produces the value raises, as in JAX (Python scalars' own arithmetic raises ZeroDivisionError
there); a `jit` bound eagerly without its arguments at hand is re-run op by op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from core import ir, tree_util
from core.config import config
from core.errors import NumbaxError


def _special_value(values: Sequence[Any]) -> str | None:
    """ "nan" or "inf" when some value holds one that an enabled debug flag catches."""
    for v in values:
        if not isinstance(getattr(v, "dtype", None), np.dtype):  # a key array: no floats
            continue
        v = np.asarray(v)
        if v.dtype.kind not in "fc":
            continue
        if config.debug_nans and np.isnan(v).any():
            return "nan"
        if config.debug_infs and np.isinf(v).any():
            return "inf"
    return None


def _rerun_error(kind: str, name: str) -> FloatingPointError:
    return FloatingPointError(
        f"invalid value ({kind}) encountered in {name}. Because debug_nans/debug_infs is set, "
        "the function was re-run op by op (as without `jit`), but no operation produced the "
        "invalid value: it comes from a nan/inf input or constant passed through."
    )


def check_primitive_outputs(prim: Any, args: Sequence[Any], out: Any, params: dict) -> None:
    """Raises `FloatingPointError` when an eager primitive's output has a nan (inf) and
    `debug_nans` (`debug_infs`) is on. A `jit` is re-run op by op to name the primitive."""
    kind = _special_value(out if prim.multiple_results else [out])
    if kind is None:
        return
    if prim.name == "jit":
        ir.eval_jaxpr(params["jaxpr"], [], *args)
        raise _rerun_error(kind, f"jit({params['name']})")
    raise FloatingPointError(f"invalid value ({kind}) encountered in {prim.name}")


class InvalidJitOutput(NumbaxError):
    """A jitted call's output holds a nan (inf) while `debug_nans` (`debug_infs`) is on; the
    jit's call catches it and calls `rerun_deoptimized` (never seen by users)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def rerun_deoptimized(fun: Callable, name: str, args: tuple, kwargs: dict, kind: str) -> NoReturn:
    """Calls `fun` (the jitted function named `name`) without `jit` on the call's arguments, as
    JAX does when a jitted call's output holds an invalid value: the de-optimized call's
    FloatingPointError or ZeroDivisionError propagates; if it raises none, a FloatingPointError
    says so (JAX's message)."""
    print(
        "Invalid nan value encountered in the output of a jax.jit function. Calling the "
        "de-optimized version."
    )
    try:
        fun(*args, **kwargs)
    except (FloatingPointError, ZeroDivisionError) as err:
        raise err from None
    raise FloatingPointError(
        f"('jit({name})', '{kind}'). Because jax_config.debug_nans.value and/or "
        "config.jax_debug_infs is set, the de-optimized function (i.e., the function as if the "
        "`jit` decorator were removed) was called in an attempt to get a more precise error "
        "message. However, the de-optimized function did not produce invalid values during its "
        "execution. This behavior can result from `jit` optimizations causing the invalid value "
        "to be produced. It may also arise from having nan/inf literals as inputs or outputs, "
        "like `jax.jit(lambda ...: jax.numpy.nan)(...)`. \n\nIt may be possible to avoid the "
        "invalid value by removing the `jit` decorator, at the cost of losing optimizations. "
        "\n\nIf you see this error, consider opening a bug report at "
        "https://github.com/jax-ml/jax."
    ) from None


def checked_build(build: Callable) -> Callable:
    """A jit kernel's output builder that checks the outputs for nan/inf (raising
    `InvalidJitOutput`); `checked(kernel(*vals))` works as `build(kernel(*vals))`."""

    def check(raw: Any) -> Any:
        out = build(raw)
        kind = _special_value(tree_util.tree_leaves(out))
        if kind is not None:
            raise InvalidJitOutput(kind)
        return out

    return check
