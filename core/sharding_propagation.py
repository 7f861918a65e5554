"""Where the results of a computation on `NamedSharding`-placed arrays are placed: a forward
pass of per-primitive rules, standing in for XLA's sharding propagation (GSPMD).

JAX computes an operation on sharded arrays on their devices, and the compiler chooses the
results' shardings. numbax computes everything in host memory, so only the chosen shardings
matter (`x.sharding`, `visualize_array_sharding`): these rules give what GSPMD gives for the
common operations. A spec is a tuple of one entry per array axis (None, or a tuple of mesh axis
names); each result's spec comes from its inputs':

- elementwise operations (and any whose result has an input's shape) take, axis by axis, the
  first input's entry that is not None (`P('a') + P(None, 'b')` -> `P('a', 'b')`);
- `dot_general` keeps the batch and free axes' entries; a contracted axis's sharding is summed
  away (`P(None, 'b') @ P('b', None)` -> `P()`);
- reductions drop the reduced axes, `transpose` permutes, `broadcast_in_dim` maps the operand's
  axes, `reshape` keeps an entry on the major axis of a group of axes it merges or splits,
  `slice`-like operations drop the entries of the axes they shorten;
- nested jaxprs (`jit`, `custom_jvp_call`, ...) are followed inside; a `scan`'s body on
  its operands' slices, its stacked results unsharded along the stacked axis; a `shard_map`'s
  results are sharded by its `out_specs`;
- anything else is replicated (`P()`).

Inside `jit`, `with_sharding_constraint` records its sharding on the traced value
(`constrain`); the pass takes it there. A result's spec is printed without trailing Nones, as
JAX's are, but over a mesh of Explicit axes with one entry per axis (JAX's sharding in types,
`core/sharding_types.py`). Over Explicit axes (a `MeshAxes` names them) operations follow
JAX's type rules: an elementwise operation's operands sharding an axis differently raise
`IncompatibleShardingsError`, a result using a mesh axis twice `IllegalShardingError`, a
`dot_general` contracting two sharded axes `AmbiguousContractionError` (give `out_sharding`)
or sharding batch/contracted axes differently `InconsistentDotShardingError` (all JAX's
`ShardingTypeError`). Eager operations raise when they place their results, `jit` calls when
they place theirs (JAX raises while tracing); a product's `out_sharding`, a gradient's
transposed products and `auto_axes` exempt what they compute (`core/sharding_exemptions.py`). A
reshape of an operand sharded over Explicit axes only follows JAX's type rule
(`core/sharding_reshape.py`; `ReshapeShardingError` when ambiguous).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, ir
from core.bounded_record import BoundedRecord
from core.errors import (
    AmbiguousContractionError,
    IllegalShardingError,
    IncompatibleShardingsError,
    InconsistentDotShardingError,
    ReshapeShardingError,
)
from core.sharding_base import PartitionSpec
from core.sharding_exemptions import checked_axes, exempted
from core.sharding_reshape import reshape_spec

Spec = tuple  # one entry per array axis: None or a tuple of mesh axis names

# Constraints of `with_sharding_constraint` on traced values: jaxpr variable -> its sharding.
# Variables are made once per trace; the oldest entries are dropped past a bound.
_constraints = BoundedRecord(4096)


def constrain(var: ir.Var, sharding: Any) -> None:
    """Records that the traced value `var` is constrained to `sharding` (a `NamedSharding`).

    Args:
      var: the jaxpr variable of the traced value.
      sharding: the `NamedSharding` it is constrained to.
    """
    _constraints.put(var, sharding)


class MeshAxes(dict):
    """A mesh's axis sizes by name (what the rules take as `sizes`), with its `Explicit` axes
    (`explicit`), whose shardings the rules check as JAX's types are checked."""

    def __init__(self, mesh: Any) -> None:
        super().__init__(mesh.shape)
        self.explicit = frozenset(mesh.explicit_axes)


def stored_constraint(var: ir.Var) -> Any:
    """The sharding `with_sharding_constraint` (or `reshard`) constrained the traced value
    `var` to, or None."""
    return _constraints.get(var)


def shape_str(shape: Sequence[int], spec: PartitionSpec) -> str:
    """An array type's shape with its sharding, as JAX prints it: `4@X,4`, `8@(X,Y)`.

    Args:
      shape: the array's shape.
      spec: one entry per array axis (None, a mesh axis name or a tuple of names).

    Returns:
      The text between the brackets of `float32[...]`.
    """
    out = []
    for size, entry in zip(shape, tuple(spec) + (None,) * (len(shape) - len(spec))):
        if entry is None:
            out.append(f"{size}")
        elif isinstance(entry, tuple):
            out.append(f"{size}@({','.join(entry)})")
        else:
            out.append(f"{size}@{entry}")
    return ",".join(out)


def _type_str(aval: Any, spec: Spec | None, explicit: frozenset) -> str:
    """`i32[4@X,4]`: the short type of an operand, its sharding over the `Explicit` axes."""
    entries = [_entry(e) for e in _typed(spec, aval, explicit)]
    return f"{dtypes.short_name(aval.dtype)}[{shape_str(aval.shape, PartitionSpec(*entries))}]"


def _check_explicit(name: str, specs, avals, out_aval: Any, explicit: frozenset) -> None:
    """JAX's sharding rule of an elementwise operation over `Explicit` mesh axes: an axis's
    shardings must agree (or be None), and the result may use a mesh axis once.

    Raises:
      IncompatibleShardingsError: two operands shard one axis over different mesh axes.
      IllegalShardingError: the result would use a mesh axis twice.
    """
    shape = tuple(out_aval.shape)
    typed = [_typed(spec, aval, explicit) for spec, aval in zip(specs, avals) if aval.shape]
    if not typed or any(len(t) != len(shape) for t in typed):
        return
    out: list = []
    for d in range(len(shape)):
        found = {t[d] for t in typed if t[d] is not None}
        if len(found) > 1:
            raise IncompatibleShardingsError(name, [tuple(_entry(e) for e in t) for t in typed])
        out.append(found.pop() if found else None)
    used = [n for entry in out for n in entry or ()]
    if len(used) != len(set(used)):
        inputs = [_type_str(a, s, explicit) for s, a in zip(specs, avals)]
        raise IllegalShardingError(name, inputs, _type_str(out_aval, tuple(out), explicit))


def _entry(entry: tuple | None) -> Any:
    """A spec entry as a `PartitionSpec` holds it: None, a name, or a tuple of names."""
    return None if entry is None else entry[0] if len(entry) == 1 else entry


def spec_of(sharding: Any, ndim: int) -> Spec:
    """The spec of a `NamedSharding` as one entry per axis of a rank-`ndim` array."""
    return _entries(sharding.spec, ndim)


def _entries(spec: PartitionSpec, ndim: int) -> Spec:
    """`spec` as one entry per axis of a rank-`ndim` array."""
    out: list = []
    for entry in tuple(spec)[:ndim]:
        if entry is None or entry is PartitionSpec.UNCONSTRAINED:
            out.append(None)
        else:
            out.append(tuple(entry) if isinstance(entry, (tuple, list)) else (entry,))
    return tuple(out) + (None,) * (ndim - len(out))


def as_partition_spec(spec: Spec, full_rank: bool = False) -> PartitionSpec:
    """The `PartitionSpec` JAX reports for a result: one-name entries as the name, trailing
    Nones dropped unless `full_rank` (a mesh of Explicit axes: the spec is the type's, one
    entry per axis)."""
    entries = list(spec)
    while entries and entries[-1] is None and not full_rank:
        entries.pop()
    return PartitionSpec(*[e if e is None or len(e) > 1 else e[0] for e in entries])


def _devices(entry: tuple, sizes: dict) -> int:
    """How many pieces the mesh axes of one spec entry cut an array axis into."""
    return int(np.prod([sizes[n] for n in entry]))


def _replicated(aval: Any) -> Spec:
    return (None,) * len(aval.shape)


def _merge(
    specs: Sequence[Spec | None], avals: Sequence[Any], out_aval: Any, same_shape: bool = True
) -> Spec:
    """Axis by axis, the first entry of the inputs of the result's shape (of its rank, unless
    `same_shape`) that is not None and whose mesh axes no earlier axis took. An input of the
    result's rank whose size-1 axes a broadcasting elementwise primitive broadcast
    (`Primitive.broadcasting`: `f32[4@X,1]` plus `f32[1,8@Y]`) gives its other axes."""
    shape = tuple(out_aval.shape)
    out: list = [None] * len(shape)
    used: set = set()
    for d, size in enumerate(shape):
        for spec, aval in zip(specs, avals):
            if spec is None or len(aval.shape) != len(shape):
                continue
            if same_shape and (
                aval.shape[d] != size or any(a not in (1, s) for a, s in zip(aval.shape, shape))
            ):
                continue
            entry = spec[d]
            if entry is not None and not used.intersection(entry) and size > 1:
                out[d] = entry
                used.update(entry)
                break
    return tuple(out)


def _concatenate(specs, avals, out_aval, params, sizes) -> Spec:
    """As `_merge`, the joined axis included (its operands' lengths differ from the result's)."""
    return _merge(specs, avals, out_aval, same_shape=False)


def _dot_general(specs, avals, out_aval, params, sizes) -> Spec:
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    lhs, rhs = (s if s is not None else _replicated(a) for s, a in zip(specs, avals))
    lfree = [d for d in range(len(lhs)) if d not in lc and d not in lb]
    rfree = [d for d in range(len(rhs)) if d not in rc and d not in rb]
    entries = [lhs[i] or rhs[j] for i, j in zip(lb, rb)]
    entries += [lhs[d] for d in lfree] + [rhs[d] for d in rfree]
    out: list = []
    used: set = set()
    for entry in entries:
        if entry is not None and used.intersection(entry):
            entry = None
        out.append(entry)
        used.update(entry or ())
    return tuple(out)


def _check_dot_general(specs, avals, out_aval: Any, params: dict, explicit: frozenset) -> None:
    """JAX's sharding rule of `dot_general` over `Explicit` mesh axes, without an
    `out_sharding`: batch and contracted axes sharded consistently (alike, or one of them
    not), no contraction of two sharded axes, and a result that uses a mesh axis once.

    Raises:
      InconsistentDotShardingError: the operands shard a batch or contracted axis over
        different mesh axes.
      AmbiguousContractionError: both operands shard a contracted axis.
      IllegalShardingError: the result would use a mesh axis twice.
    """
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    lhs, rhs = (_typed(s, a, explicit) for s, a in zip(specs, avals))
    lbatch, rbatch = tuple(_entry(lhs[d]) for d in lb), tuple(_entry(rhs[d]) for d in rb)
    lcon, rcon = tuple(_entry(lhs[d]) for d in lc), tuple(_entry(rhs[d]) for d in rc)
    for what, left, right in (("batch", lbatch, rbatch), ("contracting", lcon, rcon)):
        if any(x is not None and y is not None and x != y for x, y in zip(left, right)):
            raise InconsistentDotShardingError(what, left, right)
    if any(x is not None and y is not None for x, y in zip(lcon, rcon)):
        raise AmbiguousContractionError(lcon, rcon)
    lfree = [lhs[d] for d in range(len(lhs)) if d not in lc and d not in lb]
    rfree = [rhs[d] for d in range(len(rhs)) if d not in rc and d not in rb]
    out = [lhs[d] for d in lb] + lfree + rfree
    used = [n for entry in out for n in entry or ()]
    if len(used) != len(set(used)):
        inputs = [_type_str(a, s, explicit) for s, a in zip(specs, avals)]
        raise IllegalShardingError("dot_general", inputs, _type_str(out_aval, tuple(out), explicit))


def _typed(spec: Spec | None, aval: Any, explicit: frozenset) -> Spec:
    """`spec` with only the `explicit` mesh axes (an entry of none of them is None)."""
    return tuple(
        tuple(n for n in e or () if n in explicit) or None for e in (spec or _replicated(aval))
    )


def _explicit_reshape(spec, aval: Any, out_aval: Any, sizes: dict, explicit: frozenset) -> Spec:
    """A reshape's spec by JAX's type rule (`core/sharding_reshape.py`) when the operand is
    sharded over `Explicit` axes only, else by `_reshape`.

    Raises:
      ReshapeShardingError: the reshape's result sharding is ambiguous.
    """
    spec = spec or _replicated(aval)
    if any(n not in explicit for e in spec for n in e or ()):
        return _reshape([spec], [aval], out_aval, {}, sizes)
    out = reshape_spec(spec, aval.shape, out_aval.shape, sizes)
    if out is None:
        operand = f"{aval.dtype.name}[{shape_str(aval.shape, PartitionSpec(*map(_entry, spec)))}]"
        raise ReshapeShardingError(operand, tuple(out_aval.shape))
    return out


def _drop_axes(axes: Sequence[int]) -> Callable:
    def rule(specs, avals, out_aval, params, sizes) -> Spec:
        spec = specs[0] or _replicated(avals[0])
        return tuple(e for d, e in enumerate(spec) if d not in set(axes))

    return rule


def _reduce(specs, avals, out_aval, params, sizes) -> Spec:
    return _drop_axes(params["axes"])(specs, avals, out_aval, params, sizes)


def _squeeze(specs, avals, out_aval, params, sizes) -> Spec:
    ndim = len(avals[0].shape)
    return _drop_axes([d % ndim for d in params["dimensions"]])(
        specs, avals, out_aval, params, sizes
    )


def _stack(specs, avals, out_aval, params, sizes) -> Spec:
    """As `_merge` of the operands, the new axis unsharded."""
    merged = _merge(specs, avals, avals[0])
    axis = params["axis"]
    return (*merged[:axis], None, *merged[axis:])


def _transpose(specs, avals, out_aval, params, sizes) -> Spec:
    spec = specs[0] or _replicated(avals[0])
    return tuple(spec[d] for d in params["permutation"])


def _broadcast_in_dim(specs, avals, out_aval, params, sizes) -> Spec:
    spec = specs[0] or _replicated(avals[0])
    out: list = [None] * len(out_aval.shape)
    for d, target in enumerate(params["broadcast_dimensions"]):
        if avals[0].shape[d] == out_aval.shape[target]:
            out[target] = spec[d]
    return tuple(out)


def _reshape(specs, avals, out_aval, params, sizes) -> Spec:
    """Groups of input and output axes of equal products; a group keeps the entry of its major
    input axis (of size > 1) on its major output axis when that axis splits evenly over it."""
    spec = specs[0] or _replicated(avals[0])
    ins, outs = list(avals[0].shape), list(out_aval.shape)
    out: list = [None] * len(outs)
    if 0 in ins:
        return tuple(out)
    i = j = 0
    while i < len(ins) and j < len(outs):
        i0, j0 = i, j
        a, b = ins[i], outs[j]
        i, j = i + 1, j + 1
        while a != b:
            if a < b:
                a, i = a * ins[i], i + 1
            else:
                b, j = b * outs[j], j + 1
        major_in = next((d for d in range(i0, i) if ins[d] > 1), i0)
        major_out = next((d for d in range(j0, j) if outs[d] > 1), j0)
        entry = spec[major_in]
        if entry is not None and outs[major_out] % _devices(entry, sizes) == 0:
            out[major_out] = entry
    return tuple(out)


def _shortened(specs, avals, out_aval, params, sizes) -> Spec:
    """Slicing: the entries of the axes the operation leaves as long as they were."""
    spec = specs[0] or _replicated(avals[0])
    return tuple(e if n == m else None for e, n, m in zip(spec, avals[0].shape, out_aval.shape))


_RULES: dict[str, Callable] = {
    "dot_general": _dot_general,
    "concatenate": _concatenate,
    "reduce_sum": _reduce,
    "reduce_max": _reduce,
    "reduce_min": _reduce,
    "reduce_prod": _reduce,
    "reduce_and": _reduce,
    "reduce_or": _reduce,
    "argmax": _reduce,
    "argmin": _reduce,
    "squeeze": _squeeze,
    "stack": _stack,
    "transpose": _transpose,
    "broadcast_in_dim": _broadcast_in_dim,
    "reshape": _reshape,
    "slice": _shortened,
    "dynamic_slice": _shortened,
    "rev": _shortened,
}


def _inner_jaxpr(params: dict) -> ir.Jaxpr | None:
    """The jaxpr a call-like equation runs on its operands, if it has one."""
    for name in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        found = ir.sub_jaxprs(params.get(name))
        if len(found) == 1:
            return found[0]
    return None


def _runs_on(inner: ir.Jaxpr, avals: Sequence[Any], out_avals: Sequence[Any]) -> bool:
    """Whether `inner` takes the operands and gives the results as they are (a call), not
    slices of them (a loop's body over stacked operands)."""

    def same(vs: Sequence[ir.Var], ps: Sequence[Any]) -> bool:
        return len(vs) == len(ps) and all(
            tuple(v.aval.shape) == tuple(p.shape) for v, p in zip(vs, ps)
        )

    return same(inner.invars, avals) and same(inner.outvars, out_avals)


def _scan(params: dict, specs: Sequence[Spec | None], avals: Sequence[Any], sizes: dict) -> list:
    """`scan`: its body sees the constants and carries as they are and one slice of each
    scanned operand (its entries past the stacked axis); the carries come out as the body's,
    the stacked results with an unsharded stacked axis."""
    body = ir.sub_jaxprs(params["jaxpr"])[0]
    leading = params["num_consts"] + params["num_carry"]
    inner = [s if i < leading or s is None else tuple(s[1:]) for i, s in enumerate(specs)]
    outs = jaxpr_specs(body, inner, sizes)
    carries = params["num_carry"]
    return outs[:carries] + [(None, *spec) for spec in outs[carries:]]


def eqn_specs(
    name: str,
    params: dict,
    specs: Sequence[Spec | None],
    avals: Sequence[Any],
    out_avals: list,
    sizes: dict,
) -> list[Spec]:
    """The specs of the results of one operation.

    Args:
      name: the primitive's name.
      params: its parameters.
      specs: each operand's spec, None for an operand placed nowhere in particular.
      avals: the operands' abstract values.
      out_avals: the results' abstract values.
      sizes: the mesh's axis sizes by name; a `MeshAxes` also names the `Explicit` axes,
        over which the operands' shardings are checked as JAX checks their types
        (`_check_explicit`, `_dot_general`), except in an `unchecked` block
        (`core/sharding_exemptions.py`).

    Returns:
      One spec per result.

    Raises:
      ShardingTypeError: (a subclass) the operands' shardings over the `Explicit` axes give
        the result of an elementwise operation none.
    """
    if name == "shard_map" and set(params["mesh"].axis_names) <= set(sizes):
        # the blocks are joined as `out_specs` says, whatever the inputs' shardings
        return [_entries(s, len(a.shape)) for s, a in zip(params["out_specs"], out_avals)]
    if all(s is None for s in specs):
        return [_replicated(a) for a in out_avals]
    if name == "scan":
        return _scan(params, specs, avals, sizes)
    inner = _inner_jaxpr(params)
    if inner is not None and _runs_on(inner, avals, out_avals):
        return jaxpr_specs(inner, list(specs), sizes)
    rule = _RULES.get(name)
    explicit = checked_axes(getattr(sizes, "explicit", frozenset()))
    if explicit and name == "reshape" and len(avals) == 1:
        return [_explicit_reshape(specs[0], avals[0], out_avals[0], sizes, explicit)]
    if explicit and rule is None and len(out_avals) == 1:
        _check_explicit(name, specs, avals, out_avals[0], explicit)
    if explicit and name == "dot_general":
        _check_dot_general(specs, avals, out_avals[0], params, explicit)
    out = []
    for aval in out_avals:
        if rule is not None and len(out_avals) == 1:
            out.append(rule(specs, avals, aval, params, sizes))
        else:
            out.append(_merge(specs, avals, aval))
    return out


def jaxpr_specs(jaxpr: ir.Jaxpr, in_specs: list[Spec | None], sizes: dict) -> list[Spec]:
    """The specs of `jaxpr`'s results.

    Args:
      jaxpr: the program.
      in_specs: one per invar; None for an input placed nowhere in particular (constvars are
        such inputs).
      sizes: the mesh's axis sizes by name.

    Returns:
      One spec per outvar, the constraints of `with_sharding_constraint` applied.
    """
    env: dict = dict(zip(jaxpr.invars, in_specs))

    def read(atom: Any) -> Spec | None:
        return env.get(atom) if isinstance(atom, ir.Var) else None

    def write(var: ir.Var, spec: Spec) -> None:
        constraint = _constraints.get(var)
        env[var] = spec if constraint is None else spec_of(constraint, len(var.aval.shape))

    for var in jaxpr.invars:
        if var in _constraints:
            write(var, env.get(var) or _replicated(var.aval))
    for eqn in jaxpr.eqns:
        specs = [read(a) for a in eqn.inputs]
        with exempted(eqn.outputs[0]) if eqn.outputs else contextlib.nullcontext():
            outs = eqn_specs(
                eqn.prim.name,
                eqn.params,
                specs,
                [a.aval for a in eqn.inputs],
                [v.aval for v in eqn.outputs],
                sizes,
            )
        for var, spec in zip(eqn.outputs, outs):
            write(var, spec)
    return [read(v) or _replicated(v.aval) for v in jaxpr.outvars]
