"""Slicing primitives: slice, pad, concatenate, stack, and their static-index relatives.

`slice` and `pad` are each other's transposes; `concatenate` transposes into slices, `stack`
into slices squeezed.
(Dynamic indexing lives in `core/prims/gather.py` (gather, scatter) and
`core/prims/dynamic_slice.py`.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.ad_util import Zero, instantiate, ops
from core.avals import ShapedArray
from core.errors import ShapeError
from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.interpreters.transpose import is_undefined
from core.primitive import Primitive
from core.prims.elementwise import check_same_dtypes, select_n, sub
from core.prims.shapes import broadcast_in_dim, full, reshape, squeeze, static_ints
from core.trace import get_aval

# ---------------------------------------------------------------------------------------------
# slice

slice_p = Primitive("slice")


def _unit(strides, n: int) -> tuple:
    """The strides, `None` (JAX's unit strides) as ones."""
    return (1,) * n if strides is None else strides


def _slice_impl(x, *, start_indices, limit_indices, strides):
    strides = _unit(strides, x.ndim)
    idx = tuple(builtins_slice(s, l, st) for s, l, st in zip(start_indices, limit_indices, strides))
    return x[idx]


builtins_slice = slice


def _slice_shape(start, limit, strides):
    return tuple(max(0, -(-(lim - s) // st)) for s, lim, st in zip(start, limit, strides))


def _slice_abstract_eval(x, *, start_indices, limit_indices, strides):
    strides = _unit(strides, x.ndim)
    ok = len(start_indices) == len(limit_indices) == len(strides) == x.ndim and all(
        0 <= s <= lim <= d and st >= 1
        for s, lim, st, d in zip(start_indices, limit_indices, strides, x.shape)
    )
    if not ok:
        sizes = tuple(lim - s for s, lim in zip(start_indices, limit_indices))
        head = (
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of "
            f"{sizes}.\n"
            if any(n < 0 for n in sizes)
            else ""
        )  # JAX's first line for a limit below its start
        raise ShapeError(
            f"{head}slice start_indices={start_indices} limit_indices={limit_indices} "
            f"strides={strides} do not fit an operand of shape {x.shape}"
        )
    return ShapedArray(_slice_shape(start_indices, limit_indices, strides), x.dtype, x.weak_type)


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    shape, dtype = x.aval.shape, x.aval.dtype
    if any(n == 0 for n in get_aval(ct).shape):
        return [full(shape, 0, dtype)]
    # JAX's rule computes the high and interior padding with numpy (numpy ints, as printed)
    if strides is None or all(st == 1 for st in strides):
        config = zip(start_indices, np.subtract(shape, limit_indices), (0,) * len(shape))
    else:
        ends = np.add(
            start_indices, np.add(1, np.multiply(np.subtract(get_aval(ct).shape, 1), strides))
        )
        config = zip(start_indices, np.subtract(shape, ends), np.subtract(strides, 1))
    return [pad(ct, full((), 0, dtype), tuple(config))]


def _slice_batch(args, dims, *, start_indices, limit_indices, strides):
    (x,), (d,) = args, dims
    size = get_aval(x).shape[d]
    s, lim = list(start_indices), list(limit_indices)
    s.insert(d, 0)
    lim.insert(d, size)
    if strides is None:
        return slice(x, tuple(s), tuple(lim)), d
    st = list(strides)
    st.insert(d, 1)
    return slice(x, tuple(s), tuple(lim), tuple(st)), d


slice_p.def_impl(_slice_impl)
slice_p.def_abstract_eval(_slice_abstract_eval)
deflinear(slice_p)
slice_p.def_transpose(_slice_transpose)
slice_p.def_batch(_slice_batch)


def slice(operand: Any, start_indices, limit_indices, strides=None) -> Any:  # noqa: A001
    """Static slice `x[start:limit:stride]` per dimension, like `lax.slice` (`strides=None`
    for unit strides, kept as JAX's parameter)."""
    strides = None if strides is None else tuple(int(s) for s in strides)
    return slice_p.bind(
        operand,
        start_indices=tuple(int(i) for i in start_indices),
        limit_indices=tuple(int(i) for i in limit_indices),
        strides=strides,
    )


def slice_in_dim(
    operand: Any, start_index: int | None, limit_index: int | None, stride: int = 1, axis: int = 0
) -> Any:
    """`lax.slice_in_dim`: slice along one axis (`None` and negative bounds as in JAX)."""
    shape = get_aval(operand).shape
    axis = axis % len(shape)
    size = shape[axis]
    start_index = (
        0 if start_index is None else start_index + size if start_index < 0 else start_index
    )
    limit_index = (
        size if limit_index is None else limit_index + size if limit_index < 0 else limit_index
    )
    s = [0] * len(shape)
    lim = list(shape)
    st = [1] * len(shape)
    s[axis], lim[axis], st[axis] = start_index, limit_index, stride
    return slice(operand, s, lim, st)


# ---------------------------------------------------------------------------------------------
# pad: (low, high, interior) per dimension; negative low/high crop

pad_p = Primitive("pad")


def _pad_impl(x, padding_value, *, padding_config):
    if x.ndim == 0:  # np.pad rejects an empty pad_width
        return x.copy()
    lo_hi = []
    interior_shape = []
    for d, (_, _, it) in zip(x.shape, padding_config):
        interior_shape.append(d + max(d - 1, 0) * it)
    core = np.full(interior_shape, padding_value, dtype=x.dtype)
    core[tuple(builtins_slice(None, None, it + 1) for (_, _, it) in padding_config)] = x
    for lo, hi, _ in padding_config:
        lo_hi.append((max(lo, 0), max(hi, 0)))
    out = np.pad(core, lo_hi, constant_values=padding_value)
    crop = tuple(
        builtins_slice(-lo if lo < 0 else 0, out.shape[i] + hi if hi < 0 else None)
        for i, (lo, hi, _) in enumerate(padding_config)
    )
    return out[crop]


def _pad_abstract_eval(x, padding_value, *, padding_config):
    # JAX's shape rule, its messages
    if padding_value.shape != ():
        raise ShapeError(
            f"padding_value must be a scalar; got np.shape(padding_value)={padding_value.shape}"
        )
    if len(padding_config) != x.ndim:
        raise ShapeError(
            "length of padding_config must equal the number of axes of operand, got "
            f"padding_config {padding_config} for operand shape {x.shape}"
        )
    if any(it < 0 for _, _, it in padding_config):
        raise ShapeError(
            f"interior padding in padding_config must be nonnegative, got padding_config "
            f"{padding_config}"
        )
    shape = tuple(
        lo + hi + d + max(d - 1, 0) * it for d, (lo, hi, it) in zip(x.shape, padding_config)
    )
    if any(s < 0 for s in shape):
        raise ShapeError(
            f"Dimension size after padding is not at least 0, got result shape {shape}, for "
            f"padding_config {padding_config} and operand shape {x.shape}"
        )
    # weakly typed only if the padding value is too (JAX's rule: a strong zero pads a weak
    # operand to a strong result, as slice's transpose does)
    return ShapedArray(shape, x.dtype, x.weak_type and padding_value.weak_type)


def _pad_transpose(ct, x, padding_value, *, padding_config):
    out = []
    if is_undefined(x):
        lo_cropped = pad(ct, _zero_scalar(ct), tuple((-lo, -hi, 0) for lo, hi, _ in padding_config))
        t_x = slice(
            lo_cropped,
            (0,) * len(padding_config),
            get_aval(lo_cropped).shape,
            tuple(it + 1 for _, _, it in padding_config),
        )
        out.append(t_x)
    else:
        out.append(None)
    if is_undefined(padding_value):
        # `ad_util.ops.reduce_sum`: the reductions import this module (reduce_prod's jvp)
        axes = tuple(range(get_aval(ct).ndim))
        total = ops.reduce_sum(ct, axes)
        inner = ops.reduce_sum(out[0], axes) if out[0] is not None else None

        out.append(sub(total, inner) if inner is not None else total)
    else:
        out.append(None)
    return out


def _zero_scalar(x):
    return full((), 0, get_aval(x).dtype)


def _pad_jvp(primals, tangents, *, padding_config):
    (x, v), (tx, tv) = primals, tangents
    out = pad_p.bind(x, v, padding_config=padding_config)
    if type(tx) is Zero and type(tv) is Zero:
        return out, Zero(get_aval(out))
    return out, pad_p.bind(instantiate(tx), instantiate(tv), padding_config=padding_config)


def _pad_batch(args, dims, *, padding_config):
    (x, v), (dx, dv) = args, dims
    if dv is None:
        cfg = list(padding_config)
        cfg.insert(dx, (0, 0, 0))
        return pad(x, v, tuple(cfg)), dx
    # A batched padding value: pad with zeros, then select the value where the padding went.

    size = get_aval(v).shape[dv]
    x = batching.moveaxis(x, dx, 0, size)
    cfg = ((0, 0, 0), *padding_config)
    padded = pad(x, full((), 0, get_aval(x).dtype, get_aval(x).weak_type), cfg)
    mask = pad(full(get_aval(x).shape, True, bool), full((), False, bool), cfg)
    shape = get_aval(padded).shape
    return select_n(mask, broadcast_in_dim(v, shape, (0,)), padded), 0


pad_p.def_impl(_pad_impl)
pad_p.def_abstract_eval(_pad_abstract_eval)
pad_p.def_jvp(_pad_jvp)
pad_p.def_transpose(_pad_transpose)
pad_p.linear = True
pad_p.def_batch(_pad_batch)


def pad(operand: Any, padding_value: Any, padding_config) -> Any:
    """`lax.pad`: `padding_config` is one `(low, high, interior)` per dimension."""
    cfg = tuple(static_ints((lo, hi, it)) for lo, hi, it in padding_config)
    if isinstance(padding_value, (int, float, bool)):
        padding_value = full((), padding_value, get_aval(operand).dtype)
    return pad_p.bind(operand, padding_value, padding_config=cfg)


# ---------------------------------------------------------------------------------------------
# concatenate

concatenate_p = Primitive("concatenate")


def _concat_abstract_eval(*xs, dimension):
    # JAX's shape rule, then its dtype rule (their messages)
    x0 = xs[0]
    shapes = ", ".join(str(x.shape) for x in xs)
    if len({x.ndim for x in xs}) != 1:
        raise ShapeError(
            f"Cannot concatenate arrays with different numbers of dimensions: got {shapes}."
        )
    if not 0 <= dimension < x0.ndim:
        raise ShapeError(
            f"concatenate dimension out of bounds: dimension {dimension} for shapes {shapes}."
        )
    if any(
        x.shape[:dimension] + x.shape[dimension + 1 :]
        != x0.shape[:dimension] + x0.shape[dimension + 1 :]
        for x in xs
    ):
        raise ShapeError(
            "Cannot concatenate arrays with shapes that differ in dimensions other than the one "
            f"being concatenated: concatenating along dimension {dimension} for shapes {shapes}."
        )
    check_same_dtypes("concatenate", [x.dtype for x in xs], "concatenate")
    shape = list(x0.shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(tuple(shape), x0.dtype, all(x.weak_type for x in xs))


def _concat_transpose(ct, *xs, dimension):
    """JAX's: one `split` of the cotangent (the pieces of known operands unused)."""
    if type(ct) is Zero:
        return [Zero(x.aval) if is_undefined(x) else None for x in xs]
    sizes = tuple((x.aval if is_undefined(x) else get_aval(x)).shape[dimension] for x in xs)
    pieces = split_p.bind(ct, sizes=sizes, axis=dimension)
    return [p if is_undefined(x) else None for p, x in zip(pieces, xs)]


def _concat_batch(args, dims, *, dimension):
    size = batching.batch_size(args, dims)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    return concatenate(moved, dimension + 1), 0


concatenate_p.def_impl(lambda *xs, dimension: np.concatenate(xs, axis=dimension))
concatenate_p.def_abstract_eval(_concat_abstract_eval)
deflinear(concatenate_p)
concatenate_p.def_transpose(_concat_transpose)
concatenate_p.def_batch(_concat_batch)


def concatenate(operands, dimension: int) -> Any:
    """`lax.concatenate`: joins arrays of one dtype along `dimension`."""
    operands = list(operands)
    if not operands:
        raise ValueError(
            "concatenate requires a non-empty sequences of arrays\nPass at least one operand."
        )
    ndim = get_aval(operands[0]).ndim
    if not -ndim <= dimension < ndim:
        shapes = ", ".join(str(get_aval(o).shape) for o in operands)
        raise ShapeError(
            f"concatenate dimension out of bounds: dimension {dimension} for shapes {shapes}.\n"
            f"The operands have rank {ndim}."
        )
    if len(operands) == 1:
        return operands[0]
    return concatenate_p.bind(*operands, dimension=int(dimension))


# ---------------------------------------------------------------------------------------------
# stack: joins arrays of one shape along a new axis (JAX's `stack` primitive)

stack_p = Primitive("stack")


def _stack_abstract_eval(*xs, axis):
    x0 = xs[0]
    if any(x.shape != x0.shape for x in xs):
        raise ShapeError(f"stack needs operands of one shape, got shapes {[x.shape for x in xs]}")
    if any(x.dtype != x0.dtype for x in xs):
        raise TypeError(f"stack needs equal dtypes, got {[x.dtype for x in xs]}")
    if not 0 <= axis <= x0.ndim:
        raise ShapeError(f"stack axis {axis} is out of bounds for operands of rank {x0.ndim}")
    shape = (*x0.shape[:axis], len(xs), *x0.shape[axis:])
    return ShapedArray(shape, x0.dtype, all(x.weak_type for x in xs))


def _stack_transpose(ct, *xs, axis):
    # JAX's: the cotangent unstacked (one `unstack` equation)
    cts = unstack_p.bind(instantiate(ct), axis=axis)
    return [c if is_undefined(x) else None for c, x in zip(cts, xs)]


def _stack_batch(args, dims, *, axis):
    # JAX's rule: operands batched along one axis stack around it, the others move it first
    bdim = dims[0]
    if bdim is not None and all(d == bdim for d in dims):
        if axis <= bdim:
            return stack_p.bind(*args, axis=axis), bdim + 1
        return stack_p.bind(*args, axis=axis + 1), bdim
    size = batching.batch_size(args, dims)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    return stack(moved, axis + 1), 0


stack_p.def_impl(lambda *xs, axis: np.stack(xs, axis=axis))
stack_p.def_abstract_eval(_stack_abstract_eval)
deflinear(stack_p)
stack_p.def_transpose(_stack_transpose)
stack_p.def_batch(_stack_batch)


def stack(operands, axis: int) -> Any:
    """Joins arrays of one shape and dtype along a new axis `axis` (of the result)."""
    operands = list(operands)
    if not operands:
        raise ValueError("stack needs at least one operand")
    ndim = get_aval(operands[0]).ndim
    if not -ndim - 1 <= axis <= ndim:
        raise ShapeError(f"stack axis {axis} is out of bounds for operands of rank {ndim}")
    return stack_p.bind(*operands, axis=int(axis) % (ndim + 1))


# ---------------------------------------------------------------------------------------------
# split, unstack, tile: JAX's primitives, compiled as slices and broadcasts
# (`Primitive.composition`; jaxprs print JAX's one equation)


def _zeros_for(ct: Any, aval: ShapedArray) -> Any:
    return full(aval.shape, 0, aval.dtype) if type(ct) is Zero else ct


split_p = Primitive("split", multiple_results=True)


def _split_abstract_eval(x, *, sizes, axis):
    if not 0 <= axis < x.ndim:
        raise ShapeError(f"axis {axis} is out of bounds for array of dimension {x.ndim}")
    if any(s < 0 for s in sizes):  # JAX's messages
        raise ShapeError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if sum(sizes) != x.shape[axis]:
        raise ShapeError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand shape "
            f"{list(x.shape)}"
        )
    shape = list(x.shape)
    out = []
    for s in sizes:
        shape[axis] = int(s)
        out.append(ShapedArray(tuple(shape), x.dtype, x.weak_type))
    return out


def _split_pieces(x: Any, *, sizes, axis) -> list[Any]:
    starts = np.cumsum([0, *sizes])
    return [slice_in_dim(x, int(a), int(b), 1, axis) for a, b in zip(starts[:-1], starts[1:])]


def _split_transpose(cts, x, *, sizes, axis):
    return [
        concatenate(
            [
                _zeros_for(c, a)
                for c, a in zip(cts, split_p.abstract_eval(x.aval, sizes=sizes, axis=axis))
            ],
            axis,
        )
    ]


def _split_batch(args, dims, *, sizes, axis):
    (x,), (d,) = args, dims
    return split_p.bind(x, sizes=sizes, axis=axis + 1 if d <= axis else axis), [d] * len(sizes)


split_p.def_impl(
    lambda x, *, sizes, axis: np.split(x, np.cumsum(sizes[:-1]).astype(np.int64), axis)
)
split_p.def_abstract_eval(_split_abstract_eval)
deflinear(split_p)
split_p.def_transpose(_split_transpose)
split_p.def_batch(_split_batch)
split_p.def_composition(_split_pieces)


def split(operand: Any, sizes, axis: int = 0) -> list[Any]:
    """`lax.split`: consecutive pieces of `sizes` along `axis` (numpy ints kept, as JAX's
    `jnp.split` passes them: they print as `np.int64(2)`)."""
    ndim = get_aval(operand).ndim
    if not -ndim <= axis < ndim:
        raise ShapeError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return split_p.bind(operand, sizes=static_ints(sizes), axis=int(axis) % ndim)


unstack_p = Primitive("unstack", multiple_results=True)


def _unstack_abstract_eval(x, *, axis):
    if not 0 <= axis < x.ndim:
        raise ShapeError(f"unstack: axis {axis} is out of bounds for an operand of shape {x.shape}")
    shape = x.shape[:axis] + x.shape[axis + 1 :]
    return [ShapedArray(shape, x.dtype, x.weak_type)] * x.shape[axis]


def _unstack_pieces(x: Any, *, axis) -> list[Any]:
    n = get_aval(x).shape[axis]
    return [squeeze(slice_in_dim(x, i, i + 1, 1, axis), (axis,)) for i in range(n)]


def _unstack_transpose(cts, x, *, axis):
    aval = _unstack_abstract_eval(x.aval, axis=axis)
    return [stack_p.bind(*[_zeros_for(c, a) for c, a in zip(cts, aval)], axis=axis)]


def _unstack_batch(args, dims, *, axis):
    (x,), (d,) = args, dims
    n = get_aval(x).shape[axis + 1 if d <= axis else axis]
    if d <= axis:
        return unstack_p.bind(x, axis=axis + 1), [d] * n
    return unstack_p.bind(x, axis=axis), [d - 1] * n


unstack_p.def_impl(lambda x, *, axis: list(np.moveaxis(x, axis, 0)))
unstack_p.def_abstract_eval(_unstack_abstract_eval)
deflinear(unstack_p)
unstack_p.def_transpose(_unstack_transpose)
unstack_p.def_batch(_unstack_batch)
unstack_p.def_composition(_unstack_pieces)


def unstack(x: Any, axis: int = 0) -> list[Any]:
    """`lax.unstack`: the slices of `x` along `axis`, that axis removed."""
    ndim = get_aval(x).ndim
    if not -ndim <= axis < ndim:
        raise ShapeError(f"unstack: axis {axis} is out of bounds for an operand of rank {ndim}")
    return unstack_p.bind(x, axis=int(axis) % ndim)


tile_p = Primitive("tile")


def _tile_abstract_eval(x, *, reps):
    if len(reps) != x.ndim or any(r < 0 for r in reps):
        raise ShapeError(
            f"tile: reps {reps} must be one non-negative count per dimension of {x.shape}"
        )
    return ShapedArray(tuple(r * n for r, n in zip(reps, x.shape)), x.dtype, x.weak_type)


def _tiled(x: Any, *, reps) -> Any:
    # broadcast to (r0, s0, r1, s1, ...) then merge the pairs
    shape = get_aval(x).shape
    pairs = tuple(v for r, n in zip(reps, shape) for v in (r, n))
    out = broadcast_in_dim(x, pairs, tuple(range(1, 2 * len(shape), 2)))
    return reshape(out, tuple(r * n for r, n in zip(reps, shape)))


def _tile_transpose(ct, x, *, reps):
    # JAX's: the cotangent as (r0, s0, r1, s1, ...) summed over the repetitions
    pairs = [v for r, n in zip(reps, x.aval.shape) for v in (r, n)]
    return [ops.reduce_sum(reshape(instantiate(ct), tuple(pairs)), tuple(range(0, len(pairs), 2)))]


def _tile_batch(args, dims, *, reps):
    (x,), (d,) = args, dims
    return tile_p.bind(x, reps=(*reps[:d], 1, *reps[d:])), d


tile_p.def_impl(lambda x, *, reps: np.tile(x, reps))
tile_p.def_abstract_eval(_tile_abstract_eval)
deflinear(tile_p)
tile_p.def_transpose(_tile_transpose)
tile_p.def_batch(_tile_batch)
tile_p.def_composition(_tiled)


def tile(operand: Any, reps) -> Any:
    """`lax.tile`: `operand` repeated `reps[i]` times along each dimension i."""
    reps = tuple(int(r) for r in reps)
    ndim = get_aval(operand).ndim
    if len(reps) != ndim:
        raise ShapeError(
            f"reps length must be equal to the ndim of x, got len(reps)={len(reps)} and "
            f"x.ndim={ndim}. Pass one repeat count per dimension of the operand."
        )
    return tile_p.bind(operand, reps=reps)
