"""Primitives behind `core.random`: the Threefry-2x32 hash, bit casts, and a multi-operand sort.

`threefry2x32(k0, k1, x0, x1)` is the counter-based hash of Random123 (20 rounds) that JAX uses:
four uint32 arrays of one shape in, two uint32 arrays out, pure wrapping add/rotate/xor per
element. Everything random is built on it in `core/random.py` with ordinary primitives, so
random functions compose with jit, vmap and grad like any other code.

`bitcast_convert_type` reinterprets the bits of an array as another dtype of the same width
(uniform floats are built from mantissa bits). `sort` is `lax.sort`: several operands sorted
together along one dimension by the first `num_keys` of them; `permutation` sorts by fresh
random keys, as JAX does.

Lowering slots: the numba code generator (core/jit/) registers `def_lowering` for each primitive
here. `threefry2x32` is elementwise: one scalar kernel (the loop of `_threefry_impl` on uint32
scalars) inside a fused loop; `bitcast_convert_type` is a view; `sort` is a stable argsort along
`dimension` of the key operands followed by a gather of every operand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import Zero, defjvp_zero
from core.primitive import Primitive
from core.trace import get_aval

# ---------------------------------------------------------------------------------------------
# threefry2x32: (k0, k1, x0, x1) -> (y0, y1), all uint32 of one shape

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = np.uint32(0x1BD11BDA)

threefry2x32_p = Primitive("threefry2x32", multiple_results=True)


def _rotate_left(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def _threefry_impl(k0, k1, x0, x1):
    shape = x0.shape
    # 1-D views: numpy wraps uint32 overflow silently on arrays (it warns on 0-d scalars).
    k0, k1, x0, x1 = (np.asarray(a, np.uint32).reshape(-1) for a in (k0, k1, x0, x1))
    ks = (k0, k1, k0 ^ k1 ^ _PARITY)
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = x0 + x1
            x1 = _rotate_left(x1, r) ^ x0
        x0 = x0 + ks[(i + 1) % 3]
        x1 = x1 + ks[(i + 2) % 3] + np.uint32(i + 1)
    return [x0.reshape(shape), x1.reshape(shape)]


def _threefry_abstract_eval(k0, k1, x0, x1):
    avals = (k0, k1, x0, x1)
    if any(a.dtype != dtypes.uint32 for a in avals):
        raise DTypeError(
            "threefry2x32 requires uint32 operands, got "
            f"{', '.join(str(a.dtype) for a in avals)}; keys are uint32[2] arrays."
        )
    if any(a.shape != x0.shape for a in avals):
        raise ShapeError(
            "threefry2x32 requires operands of one shape, got "
            f"{', '.join(str(a.shape) for a in avals)}; broadcast the key words first."
        )
    out = ShapedArray(x0.shape, dtypes.uint32)
    return [out, out]


def _threefry_batch(args, dims):
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    return threefry2x32_p.bind(*moved), [0, 0]


threefry2x32_p.def_impl(_threefry_impl)
threefry2x32_p.def_abstract_eval(_threefry_abstract_eval)
threefry2x32_p.def_weak_type_rule(lambda weak: [False, False])
threefry2x32_p.def_batch(_threefry_batch)
defjvp_zero(threefry2x32_p)


def threefry2x32(k0: Any, k1: Any, x0: Any, x1: Any) -> list[Any]:
    """The Threefry-2x32 hash of counters `(x0, x1)` under key `(k0, k1)` (uint32, one shape)."""
    return threefry2x32_p.bind(k0, k1, x0, x1)


# ---------------------------------------------------------------------------------------------
# bitcast_convert_type: same bits, another dtype of the same width

bitcast_convert_type_p = Primitive("bitcast_convert_type")


def _bitcast_abstract_eval(x, *, new_dtype):
    if x.dtype.itemsize != new_dtype.itemsize:
        raise DTypeError(
            f"bitcast_convert_type needs dtypes of one width, got {x.dtype} "
            f"({x.dtype.itemsize * 8} bits) and {new_dtype} ({new_dtype.itemsize * 8} bits)"
        )
    return ShapedArray(x.shape, new_dtype)


bitcast_convert_type_p.def_impl(lambda x, *, new_dtype: x.view(new_dtype))
bitcast_convert_type_p.def_abstract_eval(_bitcast_abstract_eval)
bitcast_convert_type_p.def_weak_type_rule(lambda weak, **params: False)
batching.broadcast_batcher(bitcast_convert_type_p)
defjvp_zero(bitcast_convert_type_p)


def bitcast_convert_type(x: Any, new_dtype: Any) -> Any:
    """Reinterprets the bits of `x` as `new_dtype` (same width), like `lax.bitcast_convert_type`."""
    new_dtype = np.dtype(new_dtype)
    if get_aval(x).dtype == new_dtype:
        return x
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype)


# ---------------------------------------------------------------------------------------------
# sort: operands of one shape sorted together along `dimension` by the first `num_keys`


sort_p = Primitive("sort", multiple_results=True)


def _sort_order(keys: list[np.ndarray], dimension: int, is_stable: bool) -> np.ndarray:
    moved = [np.moveaxis(k, dimension, -1) for k in keys]
    if len(moved) == 1:
        order = np.argsort(moved[0], axis=-1, kind="stable" if is_stable else None)
    else:  # lexsort's last key is the primary one, and it is stable
        order = np.lexsort(moved[::-1], axis=-1)
    return np.moveaxis(order, -1, dimension)


def _sort_impl(*operands, dimension, is_stable, num_keys):
    order = _sort_order(list(operands[:num_keys]), dimension, is_stable)
    return [np.take_along_axis(op, order, axis=dimension) for op in operands]


def _sort_abstract_eval(*operands, dimension, is_stable, num_keys):
    shape = operands[0].shape
    if any(op.shape != shape for op in operands):
        raise ShapeError(
            f"sort requires operands of one shape, got {[op.shape for op in operands]}"
        )
    if not 0 <= dimension < len(shape) or not 1 <= num_keys <= len(operands):
        raise ShapeError(
            f"sort: dimension={dimension} and num_keys={num_keys} do not fit "
            f"{len(operands)} operand(s) of shape {shape}"
        )
    return [ShapedArray(shape, op.dtype, op.weak_type) for op in operands]


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    # A tangent moves with its primal: sort it as one more (non-key) operand by the same keys.
    nonzero = [i for i, t in enumerate(tangents) if type(t) is not Zero]
    outs = sort_p.bind(
        *primals, *(tangents[i] for i in nonzero),
        dimension=dimension, is_stable=is_stable, num_keys=num_keys,
    )
    primal_out = outs[: len(primals)]
    tangent_out = [Zero(get_aval(o)) for o in primal_out]
    for i, t in zip(nonzero, outs[len(primals):]):
        tangent_out[i] = t
    return primal_out, tangent_out


def _sort_batch(args, dims, *, dimension, is_stable, num_keys):
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    outs = sort_p.bind(*moved, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return outs, [0] * len(outs)


sort_p.def_impl(_sort_impl)
sort_p.def_abstract_eval(_sort_abstract_eval)
sort_p.def_jvp(_sort_jvp)
sort_p.def_batch(_sort_batch)
sort_p.def_weak_type_rule(lambda weak, **params: list(weak))


def sort(operands: Any, dimension: int = -1, is_stable: bool = True, num_keys: int = 1) -> Any:
    """`lax.sort`: sorts `operands` (one array or a sequence) along `dimension` by the first
    `num_keys` of them, lexicographically; numpy's order (NaNs last)."""
    single = not isinstance(operands, (list, tuple))
    ops = [operands] if single else list(operands)
    ndim = get_aval(ops[0]).ndim
    if not -ndim <= dimension < ndim:
        raise ShapeError(f"sort: dimension {dimension} is out of range for rank {ndim}")
    outs = sort_p.bind(
        *ops, dimension=dimension % ndim, is_stable=bool(is_stable), num_keys=int(num_keys)
    )
    return outs[0] if single else tuple(outs)


def sort_key_val(keys: Any, values: Any, dimension: int = -1, is_stable: bool = True):
    """`lax.sort_key_val`: sorts `values` by `keys` along `dimension`; returns both, sorted."""
    return sort((keys, values), dimension, is_stable, 1)
