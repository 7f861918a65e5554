"""The `shard_map` primitive: a per-block program over a device mesh, under every transformation.

`shard_map(f)` called on tracers (under `jit`, `make_jaxpr`, `grad`, `vmap`...) stages `f` on
one block's abstract values into a jaxpr and binds `shard_map_p`, whose parameters are JAX
0.10.2's: `jaxpr`, `mesh`, `in_specs` and `out_specs` (one `PartitionSpec` per flat input and
output), `check_vma` and `manual_axes` (printed `newly_manual_axes`). With `check_vma` the body
carries JAX's vma types (`core/shard_map_vma.py`). The rules derive new bodies and bind
`shard_map_p` again, as JAX's do:

* jvp: a shard_map of the jvp, tangents split like their primals;
* partial evaluation (`linearize`, `grad`): a shard_map of the known part now and one of the
  unknown part staged; each residual gets a leading unit axis split over the mesh axes it
  varies along (every mesh axis without `check_vma`), so the unknown part sees it vary as
  it does and adds no pvary (whose transpose would sum the cotangent over the others); JAX
  forwards inputs and keeps the residuals' shapes: its jaxprs of `grad` differ there;
* transpose: a shard_map of the transposed body, cotangents first. Without `check_vma` the
  cotangent of an output replicated over axes is divided by their size and that of an input
  replicated over axes is psummed over them, as JAX does; with it, `pvary` and
  `psum_invariant` transpose into each other;
* batching (`vmap`): the batch axis goes first and every spec gets a leading None.

Its value (`impl`, and `jit`'s compilation: `Primitive.def_composition`) is `expand`: the
body run as nested `vmap`s over the mesh axes, one per axis with `axis_name` set, as the eager
`shard_map` runs it (`core/shard_map.py`): the blocks are computed on the calling thread (or
in the compiled program), not spread over the devices.
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

from core import ir
from core import numpy as jnp
from core.ad_util import Zero, instantiate
from core.api import vmap
from core.avals import ShapedArray
from core.errors import ShardMapOutSpecError, ShardMapSpecError
from core.interpreters import batching
from core.interpreters.partial_eval import trace_to_closed_jaxpr
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.mesh import Mesh
from core.parallel import axis_env
from core.placement import device_put
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.collectives import psum_p
from core.prims.control_flow.common import (
    axis_name_of,
    batch_jaxpr,
    jvp_jaxpr,
    memo,
    partial_eval_jaxpr,
)
from core.shard_map_vma import annotate, spec_axes
from core.sharding import NamedSharding, PartitionSpec
from core.trace import EvalTrace, current_trace, get_aval, set_current_trace

__all__ = ["bind_body", "block_aval", "expand", "shard_map_p"]

shard_map_p = Primitive("shard_map", multiple_results=True, higher_order=True)
P = PartitionSpec


def entry_axes(entry: Any) -> tuple:
    """The mesh axes one entry of a `PartitionSpec` names."""
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


def block_aval(
    aval: ShapedArray, spec: PartitionSpec, mesh: Mesh, index: int, fun_name: str = "fun"
) -> ShapedArray:
    """The aval of one block of an argument of `aval` split by `spec` (JAX's errors, naming
    the mapped function `fun_name`)."""
    if len(spec) > len(aval.shape):
        raise ShardMapSpecError(
            f"shard_map in_specs[{index}] {spec} has more entries than args[{index}] has axes "
            f"(shape {aval.shape})."
        )
    shape = []
    for d, size in enumerate(aval.shape):
        names = entry_axes(spec[d]) if d < len(spec) else ()
        pieces = math.prod(mesh.shape[n] for n in names)
        if size % pieces:
            raise ShardMapSpecError(
                f"shard_map applied to the function '{fun_name}' was given argument arrays "
                "with axis sizes that are not evenly divisible by the corresponding mesh axis "
                f"sizes:\nargs[{index}] of shape {aval.shape}, axis {d} split over mesh axes "
                f"{names} of total size {pieces}."
            )
        shape.append(size // pieces)
    return ShapedArray(tuple(shape), aval.dtype, aval.weak_type)


def _whole_aval(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh) -> ShapedArray:
    shape = [
        size * math.prod(mesh.shape[n] for n in (entry_axes(spec[d]) if d < len(spec) else ()))
        for d, size in enumerate(aval.shape)
    ]
    return ShapedArray(tuple(shape), aval.dtype, aval.weak_type)


def split(x: Any, spec: PartitionSpec, mesh: Mesh, index: int) -> tuple[Any, list[str]]:
    """`x` reshaped so every mesh axis its spec names is a leading axis, in mesh order."""
    x = jnp.asarray(x)
    block_aval(get_aval(x), spec, mesh, index)  # the errors
    shape, position = [], {}
    for d, size in enumerate(x.shape):
        names = entry_axes(spec[d]) if d < len(spec) else ()
        for n in names:
            position[n] = len(shape)
            shape.append(mesh.shape[n])
        shape.append(size // math.prod(mesh.shape[n] for n in names))
    used = [n for n in mesh.axis_names if n in position]
    front = [position[n] for n in used]
    perm = front + [i for i in range(len(shape)) if i not in front]
    return jnp.transpose(x.reshape(shape), perm), used


def join(y: Any, spec: PartitionSpec, mesh: Mesh, check_vma: bool) -> Any:
    """The inverse of `split` for an output: leading mesh axes merged into their dims.

    The output has a leading axis for every mesh axis its spec names (and, without
    `check_vma`, for the others too: of those, block 0 is kept)."""
    named = spec_axes(spec)
    leading = [n for n in mesh.axis_names if n in named or not check_vma]
    y = y[tuple(slice(None) if n in named else 0 for n in leading)]
    used = [n for n in leading if n in named]
    block = y.shape[len(used) :]
    if len(spec) > len(block):
        raise ShardMapOutSpecError(
            f"shard_map out_specs {spec} has more entries than the output has axes "
            f"(block shape {block})."
        )
    perm, shape = [], []
    for d, size in enumerate(block):
        names = entry_axes(spec[d]) if d < len(spec) else ()
        perm += [used.index(n) for n in names] + [len(used) + d]
        shape.append(size * math.prod(mesh.shape[n] for n in names))
    return jnp.transpose(y, perm).reshape(shape)


def place(y: Any, spec: PartitionSpec, mesh: Mesh) -> Any:
    """An eager output laid out as JAX's: `NamedSharding(mesh, spec)` (its blocks one per
    device); traced outputs are left to the enclosing `jit`."""
    if type(current_trace()) is not EvalTrace or not isinstance(mesh, Mesh):
        return y
    return device_put(y, NamedSharding(mesh, spec))


def traces(inner: Any, n: int) -> list:
    """The `n` traces from `inner` outwards, outermost first."""
    out = [inner]
    while len(out) < n:
        out.append(out[-1].parent)
    return out[::-1]


def nested_vmaps(fn, mesh: Mesh, in_used: list, out_specs, check_vma: bool):
    """`fn` (one block's function) mapped over the mesh axes, outermost first: input `k` is
    mapped along the axes `in_used[k]`, an output along those its spec (a tree prefix of the
    outputs) names, or all of them without `check_vma`."""
    for name in reversed(mesh.axis_names):
        in_axes = [0 if name in used else None for used in in_used]
        out_axes = _tree_map_specs(
            lambda s, n=name: 0 if n in spec_axes(s) or not check_vma else None, out_specs
        )
        fn = vmap(
            fn, in_axes=in_axes, out_axes=out_axes, axis_name=name, axis_size=mesh.shape[name]
        )
    return fn


def _tree_map_specs(f, specs):
    if isinstance(specs, PartitionSpec):
        return f(specs)
    if isinstance(specs, (list, tuple)):
        return type(specs)(_tree_map_specs(f, s) for s in specs)
    if isinstance(specs, dict):
        return {k: _tree_map_specs(f, s) for k, s in specs.items()}
    return f(specs)


def expand(*args, jaxpr, mesh, in_specs, out_specs, check_vma, **_):
    """The value of a `shard_map` equation: its body on every block, as nested `vmap`s."""
    pieces = [split(x, spec, mesh, i) for i, (x, spec) in enumerate(zip(args, in_specs))]
    n = len(mesh.axis_names)

    def body(*blocks):
        for trace in traces(current_trace(), n):
            trace.per_device = True  # a pure_callback runs once per block (core/shard_map.py)
        return ir.eval_jaxpr(jaxpr, [], *blocks)

    fn = nested_vmaps(body, mesh, [used for _, used in pieces], list(out_specs), check_vma)
    outs = fn(*[b for b, _ in pieces])
    return [join(y, spec, mesh, check_vma) for y, spec in zip(outs, out_specs)]


def _impl(*args, **params):
    outs = expand(*args, **params)
    return [place(y, spec, params["mesh"]) for y, spec in zip(outs, params["out_specs"])]


def _abstract_eval(*avals, jaxpr, mesh, out_specs, **_):
    return [_whole_aval(a, s, mesh) for a, s in zip(jaxpr.out_avals, out_specs)]


def axes_bound(mesh: Mesh) -> contextlib.ExitStack:
    """The mesh's axis names bound for staging (collectives in the body know their sizes)."""
    stack = contextlib.ExitStack()
    for name in mesh.axis_names:
        stack.enter_context(axis_env.staging(name, mesh.shape[name]))
    return stack


def bind_body(jaxpr: ir.Jaxpr, args: list, params: dict, in_specs, out_specs) -> list:
    """Binds `shard_map_p` on `jaxpr` (typed by vma with `check_vma`) and `args`."""
    if params["check_vma"]:
        order = tuple(params["mesh"].axis_names)
        jaxpr, _ = annotate(jaxpr, [spec_axes(s) for s in in_specs], order)
    new = dict(params, jaxpr=jaxpr, in_specs=tuple(in_specs), out_specs=tuple(out_specs))
    return shard_map_p.bind(*args, **new)


def _derived(params: dict, key: tuple, make):
    """`make()` memoized on the equation's body, traced with the mesh axes bound."""
    with axes_bound(params["mesh"]):
        return memo(params["jaxpr"], key, make)


def _kept(items, flags) -> tuple:
    return tuple(x for x, f in zip(items, flags) if f)


def _jvp(primals, tangents, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    nonzero = tuple(type(t) is not Zero for t in tangents)
    n = len(jaxpr.outvars)
    new, consts, out_nz = _derived(
        params, ("shard_map_jvp", nonzero), lambda: jvp_jaxpr(jaxpr, nonzero, (False,) * n)
    )
    outs = bind_body(
        new,
        [*consts, *primals, *[t for t in tangents if type(t) is not Zero]],
        params,
        (P(),) * len(consts) + in_specs + _kept(in_specs, nonzero),
        out_specs + _kept(out_specs, out_nz),
    )
    tans = iter(outs[n:])
    avals = _abstract_eval(*primals, **params)
    out_tans = [next(tans) if nz else Zero(a) for a, nz in zip(avals, out_nz)]
    return outs[:n], out_tans


def _residual_specs(jk: ir.Jaxpr, nres: int, known_specs: tuple, params: dict) -> tuple:
    """The specs of the residuals (the last `nres` outputs of the known body `jk`, each with a
    leading unit axis): split over the mesh axes each varies along with `check_vma` (JAX's
    types: the unknown body sees them vary as they do), else over every mesh axis."""
    order = tuple(params["mesh"].axis_names)
    if not params["check_vma"]:
        return (P(order),) * nres
    _, vmas = annotate(jk, [spec_axes(s) for s in known_specs], order)
    names = [tuple(n for n in order if n in v) for v in vmas[len(vmas) - nres :]]
    return tuple(P(n) if n else P() for n in names)


def _partial_eval(trace, args, params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    unknowns = tuple(trace.is_own(a) for a in args)

    def make():
        jk, ju, out_unk, nres = partial_eval_jaxpr(jaxpr, list(unknowns))
        res_specs = _residual_specs(
            jk, nres, _kept(in_specs, tuple(not u for u in unknowns)), params
        )
        nk = len(jk.outvars) - nres
        res_avals = [x.aval for x in jk.outvars[nk:]]

        def known(*xs):  # residuals with a leading unit axis, split by `res_specs`
            outs = ir.eval_jaxpr(jk, [], *xs)
            res = [
                sh.broadcast_in_dim(r, (1, *a.shape), tuple(range(1, len(a.shape) + 1)))
                for r, a in zip(outs[nk:], res_avals)
            ]
            return outs[:nk] + res

        def unknown(*xs):
            res = [sh.reshape(r, a.shape) for r, a in zip(xs[:nres], res_avals)]
            return ir.eval_jaxpr(ju, [], *res, *xs[nres:])

        unit = [a.update(shape=(1, *a.shape)) for a in res_avals]
        jk2, ck = trace_to_closed_jaxpr(known, jk.in_avals)
        ju2, cu = trace_to_closed_jaxpr(unknown, unit + ju.in_avals[nres:])
        return jk2, ck, ju2, cu, tuple(out_unk), res_specs

    key = ("shard_map_pe", unknowns, in_specs, params["check_vma"])
    jk, ck, ju, cu, out_unk, res_specs = _derived(params, key, make)
    nres = len(res_specs)
    known_in = tuple(not u for u in unknowns)
    known_out = tuple(not u for u in out_unk)
    with set_current_trace(trace.parent):
        known = bind_body(
            jk,
            [*ck, *_kept(args, known_in)],
            params,
            (P(),) * len(ck) + _kept(in_specs, known_in),
            _kept(out_specs, known_out) + res_specs,
        )
    nk = len(known) - nres
    staged = dict(params)
    if params["check_vma"]:
        order = tuple(params["mesh"].axis_names)
        specs = (P(),) * len(cu) + res_specs + _kept(in_specs, unknowns)
        ju, _ = annotate(ju, [spec_axes(s) for s in specs], order)
    unknown_outs = trace.stage(
        shard_map_p,
        [*cu, *known[nk:], *_kept(args, unknowns)],
        dict(
            staged,
            jaxpr=ju,
            in_specs=(P(),) * len(cu) + res_specs + _kept(in_specs, unknowns),
            out_specs=_kept(out_specs, out_unk),
        ),
    )
    k, u = iter(known[:nk]), iter(unknown_outs)
    return [next(u) if unk else next(k) for unk in out_unk]


def _unmentioned(spec: PartitionSpec, mesh: Mesh) -> tuple:
    named = spec_axes(spec)
    return tuple(n for n in mesh.axis_names if n not in named)


def _transpose(cts, *args, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    mesh, check_vma = params["mesh"], params["check_vma"]
    undef = tuple(is_undefined(a) for a in args)
    live = tuple(type(c) is not Zero for c in cts)

    def make():
        known_avals = [a for a, u in zip(jaxpr.in_avals, undef) if not u]
        ct_avals = list(_kept(tuple(jaxpr.out_avals), live))

        def f(*vals):
            cts_iter, known = iter(vals[: len(ct_avals)]), iter(vals[len(ct_avals) :])
            full = [UndefinedPrimal(a) if u else next(known) for a, u in zip(jaxpr.in_avals, undef)]
            cts_in = []
            for a, lv, spec in zip(jaxpr.out_avals, live, out_specs):
                ct = next(cts_iter) if lv else Zero(a)
                size = math.prod(mesh.shape[n] for n in _unmentioned(spec, mesh))
                if lv and not check_vma and size != 1:  # each block's share of a replicated ct
                    ct = ew.div(ct, sh.full(get_aval(ct).shape, size, get_aval(ct).dtype))
                cts_in.append(ct)
            res = backward_pass(jaxpr, [], full, cts_in)
            outs = []
            for r, u, spec in zip(res, undef, in_specs):
                if not u:
                    continue
                r = instantiate(r)
                rest = _unmentioned(spec, mesh)
                outs.append(psum_p.bind(r, axis_name=rest) if rest and not check_vma else r)
            return outs

        return trace_to_closed_jaxpr(f, ct_avals + known_avals)

    key = ("shard_map_transpose", undef, live, in_specs, out_specs, check_vma, mesh.shape_tuple)
    new, consts = _derived(params, key, make)
    outs = iter(
        bind_body(
            new,
            [
                *consts,
                *[c for c in cts if type(c) is not Zero],
                *_kept(args, tuple(not u for u in undef)),
            ],
            params,
            (P(),) * len(consts)
            + _kept(out_specs, live)
            + _kept(in_specs, tuple(not u for u in undef)),
            _kept(in_specs, undef),
        )
    )
    return [next(outs) if u else None for u in undef]


def _batch(args, dims, *, axis_trace=None, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    size = batching.batch_size(args, dims)
    batched = tuple(d is not None for d in dims)
    axis_name = axis_name_of(axis_trace)
    new, consts, _ = _derived(
        params,
        ("shard_map_batch", batched, size, axis_name),
        lambda: batch_jaxpr(jaxpr, size, batched, True, axis_name),
    )
    moved = batching.batched_first(args, dims, size)
    outs = bind_body(
        new,
        [*consts, *moved],
        params,
        (P(),) * len(consts) + tuple(P(None, *s) if b else s for s, b in zip(in_specs, batched)),
        tuple(P(None, *s) for s in out_specs),
    )
    return outs, [0] * len(outs)


shard_map_p.def_impl(_impl)
shard_map_p.def_abstract_eval(_abstract_eval)
shard_map_p.def_composition(expand)
shard_map_p.def_jvp(_jvp)
shard_map_p.def_partial_eval(_partial_eval)
shard_map_p.def_transpose(_transpose)
shard_map_p.def_batch(_batch)
