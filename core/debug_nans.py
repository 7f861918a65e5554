"""The `debug_nans` / `debug_infs` checks: eager primitive outputs and jitted calls.

Called only when `config._check_floats` is set (see `core/config.py`). A jitted call with a bad
output is re-run op by op (`ir.eval_jaxpr`) to name the primitive that produced it, as JAX does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import ir, tree_util
from core.config import config


def _special_value(values: Sequence[Any]) -> str | None:
    """ "nan" or "inf" when some value holds one that an enabled debug flag catches."""
    for v in values:
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
    `debug_nans` (`debug_infs`) is on. A `jit_call` is re-run op by op to name the primitive."""
    kind = _special_value(out if prim.multiple_results else [out])
    if kind is None:
        return
    if prim.name == "jit_call":
        ir.eval_jaxpr(params["jaxpr"], [], *args)
        raise _rerun_error(kind, f"jit({params['name']})")
    raise FloatingPointError(f"invalid value ({kind}) encountered in {prim.name}")


def checked_kernel(
    kernel: Callable, build: Callable, jaxpr: Any, const_vals: Sequence[Any]
) -> tuple[Callable, Callable]:
    """A compiled jit kernel and output builder that check the outputs for nan/inf (see
    `check_primitive_outputs`); `build(kernel(*vals))` works as with the originals."""

    def run(*vals: Any) -> tuple:
        return vals, kernel(*vals)

    def check(res: tuple) -> Any:
        vals, raw = res
        out = build(raw)
        kind = _special_value(tree_util.tree_leaves(out))
        if kind is not None:
            ir.eval_jaxpr(jaxpr, [], *const_vals, *vals)
            raise _rerun_error(kind, "a jit-compiled function")
        return out

    return run, check
