"""`shard_map`'s `check_vma` types: which mesh axes each value of its body may vary along.

JAX 0.10.2 types every value inside a `shard_map(..., check_vma=True)` body by its varying
manual axes (vma), printed `f32[2]{V:i}`, and computes them while it traces: an input varies
along the mesh axes its spec names; `axis_index(i)` varies along `i`; an operation of values
of different vma first marks the less varying ones with `pvary` (a no-op on the values), and
its result varies along the union; `psum` is bound as `psum_invariant`, whose result no longer
varies along the summed axes; pmax/pmin drop their axes too; all_gather, ppermute, all_to_all
and reduce_scatter keep them. An output whose vma holds an axis its `out_specs` entry leaves
out is JAX's static replication error.

numbax does both. While the body is traced (`typing`, eagerly or staged), `Typing.bind`
runs before every primitive's interpreter and inserts the `pvary`s and `psum_invariant`s
where JAX's `bind` does, with the operands' vma read from their avals (`VaryingShapedArray`:
the staged values are typed by `Typing.types`, the blocks of an eager body by the vmap axes
they are batched along), so a `grad`, `vjp` or `jit` inside the body sees them: the gradient
of a replicated input is the sum of the blocks' gradients, as JAX's. Then the staged body is
rewritten once (`annotate`) into JAX's exact types, and an output varies along the axes its
spec names (`vary_outputs`). The transformations of `shard_map` (jvp, transpose, partial
evaluation, vmap) annotate the jaxprs they derive the same way. With `check_vma=False` none
of this happens: a `grad` inside sees no pvary (each block's gradient), as in JAX.

The bodies of a `jit`, `cond`, `scan`, `while` or custom-derivative function inside are typed
the same way (a loop's carries iterated to a fixed point). Partial: the rules of a custom
derivative are not typed, and the results of the other higher-order equations (`remat`, ...)
vary along the union of their operands' axes, their bodies untyped.
`all_gather(..., to="invarying")` gathers as "varying" does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from core.avals import ShapedArray, VaryingShapedArray, typed, vma_of
from core.errors import ShardMapOutSpecError
from core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var
from core.prims.collectives import psum_invariant_p, pvary_p
from core.trace import _state

# Collectives whose result varies along the axes of their operand, made varying along theirs.
_KEEPING = frozenset({"all_gather", "ppermute", "all_to_all", "reduce_scatter"})
# Calls whose body takes the operands as they are: the body's parameter.
_CALLS = {"jit": "jaxpr", "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
# Collectives whose result no longer varies along their axes.
_DROPPING = frozenset({"psum", "psum_invariant", "pmax", "pmin"})


def _names(axis_name) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def annotate(
    jaxpr: Jaxpr,
    in_vmas: Sequence[frozenset],
    order: tuple,
    out_want: Sequence[frozenset] | None = None,
) -> tuple[Jaxpr, list]:
    """`jaxpr` typed by vma, with JAX's `pvary` equations and `psum` as `psum_invariant`.

    Args:
      jaxpr: a shard_map body (its constvars are invariant), or a `jit` inside one.
      in_vmas: the mesh axes each input varies along.
      order: the mesh's axis names, in mesh order (the order `pvary` lists its axes in).
      out_want: the vma each output must have (a `pvary` added where it varies less), for a
        loop body or a branch; None: as computed.

    Returns:
      The rewritten jaxpr and the vma of each of its outputs.
    """
    vmas: dict[Var, frozenset] = {}
    rename: dict[Var, Var] = {}

    def fresh(v: Var, vma: frozenset) -> Var:
        new = Var(typed(v.aval, vma, order))
        rename[v], vmas[new] = new, vma
        return new

    def vma(x) -> frozenset:
        return frozenset() if isinstance(x, Literal) else vmas[x]

    def sub(x):
        return x if isinstance(x, Literal) else rename[x]

    constvars = [fresh(v, frozenset()) for v in jaxpr.constvars]
    invars = [fresh(v, frozenset(m)) for v, m in zip(jaxpr.invars, in_vmas, strict=True)]
    eqns: list[Eqn] = []

    def varying(x, want: frozenset):
        out = _varying(x, vma(x), want, order, eqns)
        vmas[out] = want | vma(x)
        return out

    for eqn in jaxpr.eqns:
        ins = [sub(x) for x in eqn.inputs]
        prim, params, wants, out_vmas = _rule(
            eqn.prim, eqn.params, [vma(x) for x in ins], len(eqn.outputs), order
        )
        ins = [varying(x, w) for x, w in zip(ins, wants, strict=True)]
        outs = [fresh(v, m) for v, m in zip(eqn.outputs, out_vmas, strict=True)]
        eqns.append(Eqn(prim, ins, params, outs, eqn.source_info))
    outvars = [sub(x) for x in jaxpr.outvars]
    if out_want is not None:
        outvars = [varying(x, w) for x, w in zip(outvars, out_want, strict=True)]
    return Jaxpr(constvars, invars, eqns, outvars), [vma(x) for x in outvars]


def _varying(x, vma: frozenset, want: frozenset, order: tuple, eqns: list):
    """`x` (varying along `vma`) made to vary along `want` too: a `pvary` of the axes it
    lacks appended to `eqns`, or `x` itself."""
    missing = want - vma
    if not missing:
        return x
    out = Var(typed(x.aval, want | vma, order))
    eqns.append(Eqn(pvary_p, [x], {"axis_name": tuple(n for n in order if n in missing)}, [out]))
    return out


def vary_outputs(
    jaxpr: Jaxpr, out_vmas: Sequence[frozenset], wants: Sequence[frozenset], order: tuple
) -> Jaxpr:
    """`jaxpr` whose outputs vary along `wants` (the mesh axes their `out_specs` name), as
    JAX's `shard_map` marks an output that varies along fewer with a `pvary`.

    Args:
      jaxpr: a typed shard_map body.
      out_vmas: the mesh axes each output varies along.
      wants: the mesh axes each output's spec names.
      order: the mesh's axis names.

    Returns:
      The body with the `pvary`s appended.
    """
    eqns = list(jaxpr.eqns)
    outvars = [
        _varying(x, m, w, order, eqns)
        for x, m, w in zip(jaxpr.outvars, out_vmas, wants, strict=True)
    ]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, eqns, outvars)


def _rule(prim, params: dict, vmas: list, n_out: int, order: tuple) -> tuple:
    """JAX's typing of one equation whose operands vary along `vmas`: `(primitive, params
    with typed bodies, the vma each operand must have, the vma of each result)`."""
    name = prim.name
    if name == "axis_index":
        return prim, params, vmas, [frozenset(_names(params["axis_name"]))] * n_out
    if name == "pvary":
        return prim, params, vmas, [vmas[0] | frozenset(_names(params["axis_name"]))]
    if name in _DROPPING or name in _KEEPING:
        axes = frozenset(_names(params["axis_name"]))
        want = vmas[0] | axes
        out = want - axes if name in _DROPPING else want
        return (psum_invariant_p if name == "psum" else prim), params, [want], [out]
    if name in _CALLS and len(_open(params[_CALLS[name]]).invars) == len(vmas):
        # the body typed too, as JAX types a `jit` or a custom rule's function
        inner = params[_CALLS[name]]
        body, out_vmas = annotate(_open(inner), vmas, order)
        if isinstance(inner, ClosedJaxpr):
            body = ClosedJaxpr(body, inner.consts)
        return prim, dict(params, **{_CALLS[name]: body}), vmas, out_vmas
    union = frozenset().union(*vmas)
    if prim.higher_order:
        flow = _control_flow(name, params, vmas, order)
        if flow is None:  # other higher-order primitives: the union of the operands'
            return prim, params, vmas, [union] * n_out
        return (prim, *flow)
    return prim, params, [union] * len(vmas), [union] * n_out


class Typing:
    """The vma typing of a `shard_map(check_vma=True)` body while it is traced, as JAX types
    its values (`_state.vma` of `core/trace.py` while `typing` is entered).

    `bind` runs before every primitive's interpreter: an operation of values of different
    vma first binds `pvary` on the less varying ones, and a collective over mesh axes first
    makes its operand vary along them (`psum` becomes `psum_invariant`), so a `grad` or `vjp`
    inside the body differentiates them (pvary transposes into psum_invariant: the gradient
    of a replicated value is the sum over the blocks). `types` gives staged results their vma.
    """

    def __init__(self, order: tuple) -> None:
        self.order = tuple(order)
        self.axes = frozenset(order)

    def pvary(self, x, want: frozenset):
        """`x` bound through `pvary` along the axes of `want` it does not vary along (a `Ref`
        or other non-array operand as it is)."""
        aval = getattr(x, "aval", None)
        missing = want - vma_of(aval)
        if not missing or not (aval is None or isinstance(aval, ShapedArray)):
            return x
        return pvary_p.bind(x, axis_name=tuple(n for n in self.order if n in missing))

    def bind(self, prim, args: tuple, params: dict):
        """`prim.bind(*args, **params)` with JAX's `pvary`s first (see the class)."""
        name = prim.name
        if name in _DROPPING or name in _KEEPING:
            names = _names(params["axis_name"])
            axes = frozenset(n for n in names if n in self.axes)
            if axes:
                args = (self.pvary(args[0], axes), *args[1:])
                if name == "psum" and len(axes) == len(names):
                    prim = psum_invariant_p
        elif len(args) > 1 and not prim.higher_order and not prim.collective:
            vmas = [vma_of(getattr(x, "aval", None)) for x in args]
            union = frozenset().union(*vmas)
            if any(v != union for v in vmas):
                args = tuple(self.pvary(x, union) for x in args)
        return _state.trace.process_primitive(prim, args, params)

    def types(self, prim, avals: list, params: dict, out):
        """The results `out` of `prim` staged on `avals`, typed by JAX's vma rule."""
        outs = out if prim.multiple_results else [out]
        *_, out_vmas = _rule(prim, params, [vma_of(a) for a in avals], len(outs), self.order)
        outs = [
            typed(a, m, self.order) if type(a) in (ShapedArray, VaryingShapedArray) else a
            for a, m in zip(outs, out_vmas, strict=True)
        ]
        return outs if prim.multiple_results else outs[0]


@contextlib.contextmanager
def typing(order: tuple | None) -> Iterator[None]:
    """Types the values traced in the block by vma over the mesh axes `order` (None: not)."""
    prev = _state.vma
    _state.vma = None if order is None else Typing(order)
    try:
        yield
    finally:
        _state.vma = prev


def _control_flow(name: str, params: dict, vmas: list, order: tuple):
    """A `cond`, `scan` or `while` typed as JAX types it: `(params with the bodies rewritten,
    the vma each operand must have, the vma of each result)`, or None for another primitive.

    A cond's results vary along its branches' (and a varying index's) axes; a loop's carries
    along the axes their updates reach, iterated to a fixed point (and a varying predicate's);
    bodies and operands get `pvary`s where a value must vary more, as JAX's typing requires."""

    def body_typed(jaxpr, in_vmas, out_want=None):
        body, out = annotate(_open(jaxpr), in_vmas, order, out_want)
        return (ClosedJaxpr(body, jaxpr.consts) if isinstance(jaxpr, ClosedJaxpr) else body), out

    if name == "cond":
        index, ops = vmas[0], vmas[1:]
        per_branch = [body_typed(b, ops)[1] for b in params["branches"]]
        joined = [index.union(*col) for col in zip(*per_branch)]
        branches = tuple(body_typed(b, ops, joined)[0] for b in params["branches"])
        return dict(params, branches=branches), vmas, joined
    if name == "scan":
        nc, ncar = params["num_consts"], params["num_carry"]
        consts, carry, xs = vmas[:nc], vmas[nc : nc + ncar], vmas[nc + ncar :]
        while True:
            body = body_typed(params["jaxpr"], consts + carry + xs)[1]
            grown = [c | o for c, o in zip(carry, body[:ncar])]
            if grown == carry:
                break
            carry = grown
        jaxpr, outs = body_typed(params["jaxpr"], consts + carry + xs, carry + body[ncar:])
        return dict(params, jaxpr=jaxpr), consts + carry + xs, outs
    if name == "while":
        cn, bn = params["cond_nconsts"], params["body_nconsts"]
        cond_consts, body_consts, carry = vmas[:cn], vmas[cn : cn + bn], vmas[cn + bn :]
        while True:
            (pred,) = body_typed(params["cond_jaxpr"], cond_consts + carry)[1]
            body = body_typed(params["body_jaxpr"], body_consts + carry)[1]
            grown = [c | o | pred for c, o in zip(carry, body)]
            if grown == carry:
                break
            carry = grown
        cond_jaxpr = body_typed(params["cond_jaxpr"], cond_consts + carry)[0]
        body_jaxpr = body_typed(params["body_jaxpr"], body_consts + carry, carry)[0]
        new = dict(params, cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr)
        return new, cond_consts + body_consts + carry, carry
    return None


def _open(jaxpr: Jaxpr | ClosedJaxpr) -> Jaxpr:
    return jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr


def spec_axes(spec) -> frozenset:
    """The mesh axes a `PartitionSpec` names."""
    return frozenset(
        n for e in spec if e is not None for n in (e if isinstance(e, (tuple, list)) else (e,))
    )


def check_outputs(
    out_vmas: Sequence[frozenset], out_specs: Sequence, names: Sequence[str], mesh, fun_name: str
) -> None:
    """JAX's static replication check: an output may vary only along axes its spec names.

    Args:
      out_vmas: the axes each output varies along.
      out_specs: each output's spec.
      names: where each output's spec sits in `out_specs`, as the error names it.
      mesh: the mesh.
      fun_name: the mapped function's name.

    Raises:
      ShardMapOutSpecError: an output varies along a mesh axis its `out_specs` entry leaves
        out (JAX's message; the fix: psum it, name the axis, or `check_vma=False`).
    """
    for vma, spec, name in zip(out_vmas, out_specs, names, strict=True):
        extra = vma - spec_axes(spec)
        if not extra:
            continue
        shape = tuple(mesh.shape[n] for n in mesh.axis_names)
        named = "{" + ", ".join(n for n in mesh.axis_names if n in spec_axes(spec)) + "}"
        raise ShardMapOutSpecError(
            f"shard_map applied to the function '{fun_name}' was given out_specs which require "
            "replication which can't be statically inferred given the mesh:\n\n"
            f"The mesh given has shape {shape} with corresponding axis names "
            f"{tuple(mesh.axis_names)}.\n\n"
            f"{name} is {spec!r} which implies that the corresponding output value is "
            f"only varying across mesh axes {named} and not "
            "{" + ", ".join(n for n in mesh.axis_names if n in extra) + "}, but it was inferred "
            "to be possibly varying over {"
            + ", ".join(n for n in mesh.axis_names if n in vma)
            + "}\n\n"
            "Check if these output values are meant to be replicated over those mesh axes. If "
            "not, consider revising the corresponding out_specs entries. If so, consider "
            "disabling the check by passing the check_vma=False argument to `jax.shard_map`."
        )


__all__ = [
    "Typing",
    "VaryingShapedArray",
    "annotate",
    "check_outputs",
    "spec_axes",
    "typing",
    "vary_outputs",
]
