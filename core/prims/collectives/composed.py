"""Collectives JAX has as primitives and numbax computes from others (`_composed_collective`).

ppermute, all_to_all and psum_scatter are JAX's primitives `ppermute`, `all_to_all` and
`reduce_scatter` (jaxprs print JAX's equations, with JAX's transposes) that numbax computes
from all_gather, psum and axis_index: each element gathers (or sums) the axis and keeps its
own slice. `jit` compiles that composition in their place (`Primitive.def_composition`), so
they need no lowering of their own; over the vmap axis they name, JAX's batch rules make
them reshapes, transposes and sums. With `axis_index_groups` the wrappers inline the
composite where they are traced (their jaxprs differ from JAX's one equation).
"""

from __future__ import annotations

from typing import Any

from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.primitive import Primitive
from core.prims import shapes as sh
from core.prims.collectives.names import _names, _one_name, axis_size
from core.trace import get_aval, set_current_trace, to_numpy


def _group_size(axis_name: Any, groups: Any, name: str) -> int:
    return axis_size(_one_name(_names(axis_name)), name) if groups is None else len(groups[0])


def _composed_collective(
    name: str, composite, abstract_eval, batch_other, transpose, batch_named
) -> Primitive:
    """A collective primitive JAX has and numbax computes from `all_gather`, `psum` and
    `axis_index` (`composite(x, **params)`, per leaf).

    Jaxprs print JAX's one equation. `jit` compiles the composite in its place
    (`Primitive.def_composition`), eager calls run it, and under a `vmap` that binds the axis
    Over a vmap that binds the axis alone, `batch_named(x, d, size, **params)` computes it on
    the batch axis as JAX's batchers do (None where it does not: axis_index_groups, several
    names, a partial ppermute), and otherwise the composite runs on that vmap's trace, each of
    its collectives batched by its own rule. Over another vmap's axis,
    `batch_other(x, d, **params)` moves the parameters past the batch axis, as JAX's do.

    With `axis_index_groups` the wrappers inline the composite where they are traced instead
    of binding the primitive: it reads the groups from arrays, and a composition `jit` inlines
    must not close over arrays (`core.jit.canonical.composition_jaxpr`).
    """
    prim = Primitive(name, collective=True)
    prim.def_impl(lambda x, **params: to_numpy(composite(x, **params)))
    prim.def_abstract_eval(abstract_eval)
    prim.def_composition(composite)

    def batch(args, dims, *, axis_trace=None, **params):
        (x,), (d,) = args, dims
        if axis_trace is None:
            return batch_other(x, d, **params)
        alone = _names(params["axis_name"]) == (axis_trace.axis_name,)
        if alone and params.get("axis_index_groups") is None:
            out = batch_named(x, d, axis_trace.axis_size, **params)
            if out is not None:
                return out
        with set_current_trace(axis_trace):
            out = composite(batching.BatchTracer(axis_trace, x, d), **params)
        return axis_trace.to_val_dim(out)

    prim.def_batch(batch)
    deflinear(prim)
    prim.def_transpose(transpose)
    return prim


def _split_axis(x: Any, axis: int, size: int) -> Any:
    """Axis `axis` of `x` cut into `size` rows of its size / `size` (JAX's `_splitaxis`)."""
    shape = get_aval(x).shape
    return sh.reshape(x, (*shape[:axis], size, shape[axis] // size, *shape[axis + 1 :]))


def _fold_axis(x: Any, axis: int) -> Any:
    """Axes `axis` and `axis + 1` of `x` merged into one (JAX's `_foldaxis`)."""
    shape = get_aval(x).shape
    return sh.reshape(x, (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :]))
