"""The `pmap` primitive: a per-device program mapped over devices, under every transformation.

`pmap(f)` called on tracers (inside `grad`, `jvp`, `vmap`, `jit` of an enclosing function)
binds `pmap_p` with `f`'s per-device jaxpr, as JAX binds `xla_pmap`. Its rules transform that
jaxpr and bind `pmap_p` again, so the derived computations still run one program per device on
the device threads (`core/parallel/dispatch.py`):

* jvp: a pmap of the jvp (tangents mapped like their primals);
* partial evaluation (`linearize`, `grad`): a pmap of the known part now, and a pmap of the
  unknown part staged, the residuals mapped along axis 0;
* transpose: a pmap of the transposed program. `psum` transposes to `psum` inside it, as in
  JAX; the cotangent of an unmapped input (`in_axes=None`, the same value on every device) is
  the sum over devices of the per-device cotangents, and the cotangent of an `out_axes=None`
  output (device 0's value) flows back through device 0 only;
* batching (`vmap` of a pmapped function): the batch axis moves into the per-device program
  (a pmap of the vmap);
* under `jit`, the numba lowering is a host call into the impl
  (`core/backends/numba/rules/pmap.py`), which runs the per-device programs on the devices.

The impl run on a device thread inside another pmap's program (nested pmaps) maps as `vmap`
on that thread: the devices are busy with the outer program.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import ir
from core.ad_util import Zero, instantiate
from core.array import Array
from core.avals import ShapedArray
from core.config import config
from core.devices import local_devices
from core.interpreters.batching import batch_size
from core.interpreters.partial_eval import trace_to_closed_jaxpr
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.jit.api import executable
from core.parallel import axis_env, dispatch
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import reductions as rd
from core.prims import shapes as sh
from core.prims.collectives import axis_index_p
from core.prims.control_flow.common import (
    axis_name_of,
    batch_jaxpr,
    jvp_jaxpr,
    memo,
    partial_eval_jaxpr,
)
from core.trace import get_aval, set_current_trace

__all__ = ["pmap_p", "run_jaxpr"]

pmap_p = Primitive("pmap", multiple_results=True, higher_order=True)


def mapped_aval(aval: ShapedArray, axis: int | None, size: int) -> ShapedArray:
    """The aval of the stacked value whose per-device slices have `aval` (`axis` None: itself)."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    shape.insert(axis, size)
    return ShapedArray(tuple(shape), aval.dtype, aval.weak_type)


def _devices(devices: tuple | None, size: int) -> list:
    return list(devices) if devices is not None else local_devices()[:size]


def run_jaxpr(jaxpr: ir.Jaxpr, vals: list[np.ndarray], params: dict) -> list:
    """Runs the per-device `jaxpr` of a pmap on the devices (the impl of `pmap_p`).

    Args:
      jaxpr: the constvar-free per-device program.
      vals: its inputs as C-contiguous numpy arrays, stacked along `params["in_axes"]`.
      params: the `pmap_p` parameters.

    Returns:
      The stacked outputs (`Array`s placed over the devices).
    """
    if axis_env.inside_shard():
        return _as_vmap(jaxpr, vals, params)
    backend = params["backend"] if config._jit_enabled else "python"
    with axis_env.tracing(params["axis_name"], params["global_axis_size"]):
        exe = executable(jaxpr, backend, params["name"])
    return dispatch.run(
        exe,
        [],
        vals,
        params["in_axes"],
        jaxpr.out_avals,
        params["out_axes"],
        _devices(params["devices"], params["axis_size"]),
        params["axis_name"],
        params["name"],
    )


def _as_vmap(jaxpr: ir.Jaxpr, vals: list[np.ndarray], params: dict) -> list:
    """The pmap computed as a vmap on this thread: the batched program, run op by op."""
    in_axes, size = params["in_axes"], params["axis_size"]
    batched = tuple(ax is not None for ax in in_axes)
    new, consts, _ = _derived(
        jaxpr,
        params,
        ("pmap_as_vmap", batched, size),
        lambda: batch_jaxpr(jaxpr, size, batched, True, params["axis_name"]),
    )
    moved = [v if ax is None else np.moveaxis(v, ax, 0) for v, ax in zip(vals, in_axes)]
    outs = ir.eval_jaxpr(new, [], *consts, *moved)
    return [
        Array(np.asarray(o)[0] if ax is None else np.moveaxis(np.asarray(o), 0, ax), aval.weak_type)
        for o, ax, aval in zip(outs, params["out_axes"], jaxpr.out_avals)
    ]


def _impl(*args, jaxpr, **params):
    vals = []
    for a, aval in zip(args, jaxpr.in_avals, strict=True):
        v = np.asarray(a)
        if v.dtype != aval.dtype:
            v = v.astype(aval.dtype)
        vals.append(v if v.flags.c_contiguous else np.ascontiguousarray(v))
    return run_jaxpr(jaxpr, vals, params)


def _abstract_eval(*avals, jaxpr, axis_size, in_axes, out_axes, name, **_):
    for a, b, axis in zip(avals, jaxpr.in_avals, in_axes):
        want = mapped_aval(b, axis, axis_size)
        if a.shape != want.shape or a.dtype != want.dtype:
            raise TypeError(
                f"pmap of {name} expects {want.str_short(short_dtypes=True)}, got "
                f"{a.str_short(short_dtypes=True)}"
            )
    return [mapped_aval(a, ax, axis_size) for a, ax in zip(jaxpr.out_avals, out_axes)]


def _derived(jaxpr: ir.Jaxpr, params: dict, key: tuple, make):
    """`make()` memoized on the pmap's `jaxpr`, traced with its axis name bound."""
    with axis_env.tracing(params["axis_name"], params["global_axis_size"]):
        return memo(jaxpr, key, make)


def _jvp(primals, tangents, **params):
    jaxpr, in_axes, out_axes = params["jaxpr"], params["in_axes"], params["out_axes"]
    nonzero = tuple(type(t) is not Zero for t in tangents)
    n = len(jaxpr.outvars)
    new, consts, out_nz = _derived(
        jaxpr, params, ("pmap_jvp", nonzero), lambda: jvp_jaxpr(jaxpr, nonzero, (False,) * n)
    )
    outs = pmap_p.bind(
        *consts,
        *primals,
        *[t for t in tangents if type(t) is not Zero],
        **dict(
            params,
            jaxpr=new,
            name=f"jvp({params['name']})",
            in_axes=(None,) * len(consts) + in_axes + _kept(in_axes, nonzero),
            out_axes=out_axes + _kept(out_axes, out_nz),
        ),
    )
    tans = iter(outs[n:])
    out_tans = [
        next(tans) if nz else Zero(mapped_aval(a, ax, params["axis_size"]))
        for a, ax, nz in zip(jaxpr.out_avals, out_axes, out_nz)
    ]
    return outs[:n], out_tans


def _kept(items: tuple, flags: tuple) -> tuple:
    return tuple(x for x, f in zip(items, flags) if f)


def _partial_eval(trace, args, params):
    jaxpr, in_axes, out_axes = params["jaxpr"], params["in_axes"], params["out_axes"]
    unknowns = tuple(trace.is_own(a) for a in args)
    jk, ju, out_unk, nres = _derived(
        jaxpr, params, ("pmap_pe", unknowns), lambda: partial_eval_jaxpr(jaxpr, list(unknowns))
    )
    known_in = tuple(not u for u in unknowns)
    known_out = tuple(not u for u in out_unk)
    with set_current_trace(trace.parent):
        known = pmap_p.bind(
            *_kept(args, known_in),
            **dict(
                params,
                jaxpr=jk,
                in_axes=_kept(in_axes, known_in),
                out_axes=_kept(out_axes, known_out) + (0,) * nres,
            ),
        )
    nk = len(known) - nres
    unknown_outs = trace.stage(
        pmap_p,
        [*known[nk:], *_kept(args, unknowns)],
        dict(
            params,
            jaxpr=ju,
            in_axes=(0,) * nres + _kept(in_axes, unknowns),
            out_axes=_kept(out_axes, tuple(out_unk)),
        ),
    )
    k, u = iter(known[:nk]), iter(unknown_outs)
    return [next(u) if unk else next(k) for unk in out_unk]


def _transpose(cts, *args, **params):
    jaxpr, in_axes, out_axes = params["jaxpr"], params["in_axes"], params["out_axes"]
    undef = tuple(is_undefined(a) for a in args)
    live = tuple(type(c) is not Zero for c in cts)
    axis_name = params["axis_name"]

    def make():
        known_avals = [a for a, u in zip(jaxpr.in_avals, undef) if not u]
        ct_avals = list(_kept(tuple(jaxpr.out_avals), live))
        device_0_only = _kept(tuple(ax is None for ax in out_axes), live)

        def f(*vals):
            known, ct_vals = vals[: len(known_avals)], iter(vals[len(known_avals) :])
            it = iter(known)
            full = [UndefinedPrimal(av) if u else next(it) for av, u in zip(jaxpr.in_avals, undef)]
            cts_in = [next(ct_vals) if lv else Zero(a) for a, lv in zip(jaxpr.out_avals, live)]
            only0 = iter(device_0_only)
            cts_in = [
                _on_device_0(c, axis_name) if lv and next(only0) else c
                for c, lv in zip(cts_in, live)
            ]
            res = backward_pass(jaxpr, [], full, cts_in)
            return [instantiate(r) for r, u in zip(res, undef) if u]

        return trace_to_closed_jaxpr(f, known_avals + ct_avals)

    new, consts = _derived(jaxpr, params, ("pmap_transpose", undef, live), make)
    outs = iter(
        pmap_p.bind(
            *consts,
            *[a for a in args if not is_undefined(a)],
            *[c for c in cts if type(c) is not Zero],
            **dict(
                params,
                jaxpr=new,
                name=f"transpose({params['name']})",
                in_axes=(None,) * len(consts)
                + _kept(in_axes, tuple(not u for u in undef))
                + _kept(out_axes, live),
                out_axes=tuple(0 if ax is None else ax for ax in _kept(in_axes, undef)),
            ),
        )
    )
    # An unmapped input reached every device: its cotangent sums the devices' ones.
    return [
        (rd.reduce_sum(next(outs), (0,)) if ax is None else next(outs)) if u else None
        for u, ax in zip(undef, in_axes)
    ]


def _on_device_0(ct: Any, axis_name: Any) -> Any:
    """`ct` on device 0 of the axis, zeros on the others."""
    first = ew.eq(axis_index_p.bind(axis_name=axis_name), sh.full((), 0, np.int32))
    first = sh.broadcast_in_dim(first, get_aval(ct).shape, ())
    return ew.select_n(first, sh.zeros_like(ct), ct)


def _batch(args, dims, *, axis_trace=None, **params):
    jaxpr, in_axes, out_axes = params["jaxpr"], params["in_axes"], params["out_axes"]
    size = batch_size(args, dims)
    batched = tuple(d is not None for d in dims)
    axis_name = axis_name_of(axis_trace)
    # Outputs that do not depend on a batched input stay unbatched (jacfwd's primal output).
    new, consts, out_batched = _derived(
        jaxpr,
        params,
        ("pmap_batch", batched, size, axis_name),
        lambda: batch_jaxpr(jaxpr, size, batched, False, axis_name),
    )
    # The batch axis goes first, in front of the device axis, so each device's slice has it
    # first too (where the vmapped program expects it).
    moved = [a if d is None else _move_to_front(a, d) for a, d in zip(args, dims)]
    outs = pmap_p.bind(
        *consts,
        *moved,
        **dict(
            params,
            jaxpr=new,
            name=f"vmap({params['name']})",
            in_axes=(None,) * len(consts)
            + tuple(ax if not b or ax is None else ax + 1 for ax, b in zip(in_axes, batched)),
            out_axes=tuple(
                ax + 1 if b and ax is not None else ax for ax, b in zip(out_axes, out_batched)
            ),
        ),
    )
    return outs, [0 if b else None for b in out_batched]


def _move_to_front(x: Any, d: int) -> Any:
    if d == 0:
        return x
    perm = [d] + [i for i in range(get_aval(x).ndim) if i != d]
    return sh.transpose(x, tuple(perm))


pmap_p.def_impl(_impl)
pmap_p.def_abstract_eval(_abstract_eval)
pmap_p.def_jvp(_jvp)
pmap_p.def_partial_eval(_partial_eval)
pmap_p.def_transpose(_transpose)
pmap_p.def_batch(_batch)
