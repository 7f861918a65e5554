"""The collective primitives with lowerings of their own: psum, pmax, pmin, all_gather and
axis_index.

The primitives are marked `collective`, so the `BatchTrace` of a name they reduce over hands
them to their batch rule with `axis_trace=` set (see `core/interpreters/batching.py`); there
the collective becomes an ordinary computation over the batch axis: psum of a batched value
is JAX 0.10.2's `psum` over the positional batch axis, moved first (`axes=(0,)`), which
`jit` compiles as `reduce_sum`; pmax and pmin become `reduce_max`/`reduce_min` (partial: JAX
binds pmax/pmin over the positional axis, their jaxprs differ). A batch trace of another name
treats them as elementwise. A name bound by `pmap` stays in the traced program: on each device the
collective exchanges values with the other devices (`core/parallel/collective_ops.py`;
eagerly, or from compiled code through a host call). Outside any `vmap` or `pmap` that binds
the name, the impl raises `UnboundAxisNameError`.

Differentiation follows the per-element semantics: psum is linear and its own transpose (the
cotangent of x_j sums the cotangents of every output), the transpose of all_gather sums the
gathered cotangents and keeps the caller's slice.
"""

from __future__ import annotations

from core import dtypes
from core.ad_util import Zero
from core.avals import ShapedArray
from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.parallel import collective_ops
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import reductions as rd
from core.prims import shapes as sh
from core.prims.collectives.names import _names, _rest
from core.trace import get_aval


def _collective(name: str) -> Primitive:
    prim = Primitive(name, collective=True)
    prim.def_impl(collective_ops.eager(name))
    return prim


# ---------------------------------------------------------------------------------------------
# psum / pmax / pmin: reduce over the named axis, the result is the same for every element


def _reducer(name: str, reduce, scale_unbatched: bool, nan_fill: float | None = None) -> Primitive:
    """A reducing collective; `nan_fill` (pmax, pmin) is what a float NaN counts as when the
    batch elements are a `shard_map`'s devices: XLA's CPU all-reduce max and min skip NaNs
    there (a NaN on every device gives -inf / inf), as over a `pmap` (`collective_ops`),
    while a `vmap`'s reduce propagates them, as JAX 0.10.2 does."""
    prim = _collective(name)
    prim.def_abstract_eval(lambda x, *, axis_name: x)

    def batch(args, dims, *, axis_name, axis_trace=None):
        (x,), (d,) = args, dims
        if axis_trace is None:  # another vmap's name: elementwise along this batch axis
            return prim.bind(x, axis_name=axis_name), d
        rest = _rest(_names(axis_name), axis_trace)
        if d is None:
            out = ew.mul(x, ew.full_like(x, axis_trace.axis_size)) if scale_unbatched else x
        else:
            if nan_fill is not None and axis_trace.per_device and _is_float(x):
                x = ew.select_n(ew.ne(x, x), x, ew.full_like(x, nan_fill))
            out = reduce(x, (d,))
        return (prim.bind(out, axis_name=rest) if rest else out), None

    prim.def_batch(batch)
    return prim


def _psum_axes(x, axes):
    """The sum over the batch axis `axes[0]`, as JAX's psum batcher binds it: the axis moved
    first, then `psum[axes=(0,)]`."""
    (d,) = axes
    x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
    return psum_axes_p.bind(x, axis_name=(0,))


psum_p = _reducer("psum", _psum_axes, True)
deflinear(psum_p)
psum_p.def_transpose(lambda ct, x, *, axis_name: [psum_p.bind(ct, axis_name=axis_name)])


# psum over positional axes: what JAX 0.10.2's batcher binds for a psum over the vmap axis
# (printed `psum[axes=(0,) ...]`); numbax computes it as `reduce_sum`, eagerly and compiled.
psum_axes_p = Primitive("psum_axes")
psum_axes_p.def_impl(lambda x, *, axis_name: rd.reduce_sum_p.impl(x, axes=axis_name))
psum_axes_p.def_abstract_eval(
    lambda x, *, axis_name: x.update(
        shape=tuple(n for i, n in enumerate(x.shape) if i not in axis_name)
    )
)
psum_axes_p.def_composition(lambda x, *, axis_name: rd.reduce_sum(x, axis_name))


def _psum_axes_batch(args, dims, *, axis_name):
    (x,), (d,) = args, dims
    axes = tuple(a + (a >= d) for a in axis_name)
    return psum_axes_p.bind(x, axis_name=axes), d - sum(a < d for a in axes)


def _psum_axes_transpose(ct, x, *, axis_name):
    shape = x.aval.shape
    kept = tuple(i for i in range(len(shape)) if i not in axis_name)
    return [sh.broadcast_in_dim(ct, shape, kept)]


psum_axes_p.def_batch(_psum_axes_batch)
deflinear(psum_axes_p)
psum_axes_p.def_transpose(_psum_axes_transpose)


def _is_float(x) -> bool:
    return dtypes.kind(get_aval(x).dtype) == "f"


pmax_p = _reducer("pmax", rd.reduce_max, False, -float("inf"))
pmin_p = _reducer("pmin", rd.reduce_min, False, float("inf"))


def _pext_jvp(prim):
    # Like reduce_max: the tangent at the extremum, shared evenly between ties.
    def rule(primals, tangents, *, axis_name):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axis_name=axis_name)
        at_ext = sh.convert_element_type(ew.eq(x, out), get_aval(t).dtype)
        num = psum_p.bind(ew.mul(t, at_ext), axis_name=axis_name)
        return out, ew.div(num, psum_p.bind(at_ext, axis_name=axis_name))

    prim.def_jvp(rule)


_pext_jvp(pmax_p)
_pext_jvp(pmin_p)

# ---------------------------------------------------------------------------------------------
# all_gather: every element receives the stack (or concatenation, `tiled`) of all of them


all_gather_p = _collective("all_gather")


def _gathered_shape(shape: tuple, axis: int, tiled: bool, axis_size: int) -> tuple:
    shape = list(shape)
    if tiled:
        shape[axis] *= axis_size
    else:
        shape.insert(axis, axis_size)
    return tuple(shape)


def _all_gather_abstract_eval(x, *, axis_name, axis, tiled, axis_size):
    return ShapedArray(_gathered_shape(x.shape, axis, tiled, axis_size), x.dtype, x.weak_type)


def _all_gather_batch(args, dims, *, axis_name, axis, tiled, axis_size, axis_trace=None):
    (x,), (d,) = args, dims
    if axis_trace is None:
        x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
        return all_gather_p.bind(
            x, axis_name=axis_name, axis=axis + 1, tiled=tiled, axis_size=axis_size
        ), 0
    x = batching.moveaxis(x, d, axis, axis_trace.axis_size)
    if tiled:
        shape = get_aval(x).shape
        x = sh.reshape(x, (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :]))
    rest = _rest(_names(axis_name), axis_trace)
    if rest:
        # The remaining names gather around the result, outermost first (as nested vmaps do).
        x = all_gather_p.bind(
            x, axis_name=rest, axis=axis, tiled=True, axis_size=axis_size // axis_trace.axis_size
        )
    if getattr(axis_trace, "vma_order", None) is not None:
        # an eager shard_map's devices: each its own copy, varying along the axis as in JAX
        return batching.moveaxis(x, None, 0, axis_trace.axis_size), 0
    return x, None


def _all_gather_transpose(ct, x, *, axis_name, axis, tiled, axis_size):
    # Sum every element's cotangent of the gathered array, then keep this element's slice.
    total = psum_p.bind(ct, axis_name=axis_name)
    shape = x.aval.shape
    if tiled:
        total = sh.reshape(total, (*shape[:axis], axis_size, shape[axis], *shape[axis + 1 :]))
    index = axis_index_p.bind(axis_name=axis_name)
    onehot = ew.eq(sh.iota(dtypes.int32, axis_size), sh.broadcast_in_dim(index, (axis_size,), ()))
    onehot = sh.convert_element_type(onehot, get_aval(ct).dtype)
    mask = sh.broadcast_in_dim(onehot, get_aval(total).shape, (axis,))
    return [rd.reduce_sum(ew.mul(total, mask), (axis,))]


all_gather_p.def_abstract_eval(_all_gather_abstract_eval)
all_gather_p.def_batch(_all_gather_batch)
deflinear(all_gather_p)
all_gather_p.def_transpose(_all_gather_transpose)

# ---------------------------------------------------------------------------------------------
# axis_index: the position of the current element along the named axis

axis_index_p = _collective("axis_index")
axis_index_p.def_abstract_eval(lambda *, axis_name: ShapedArray((), dtypes.int32))


def _axis_index_batch(args, dims, *, axis_name, axis_trace=None):
    names = _names(axis_name)
    size = axis_trace.axis_size
    idx = sh.iota(dtypes.int32, size)
    # With several names the index is row-major over them: outer_index * inner_size + inner.
    rest = _rest(names, axis_trace)
    if rest:
        outer = axis_index_p.bind(axis_name=rest if len(rest) > 1 else rest[0])
        base = ew.mul(outer, sh.full((), size, dtypes.int32))
        idx = ew.add(idx, sh.broadcast_in_dim(base, (size,), ()))
    return idx, 0


axis_index_p.def_batch(_axis_index_batch)


def _axis_index_jvp(primals, tangents, *, axis_name):
    out = axis_index_p.bind(axis_name=axis_name)
    return out, Zero(get_aval(out))


axis_index_p.def_jvp(_axis_index_jvp)
