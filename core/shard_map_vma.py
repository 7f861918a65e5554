"""`shard_map`'s `check_vma` types: which mesh axes each value of its body may vary along.

JAX 0.10.2 types every value inside a `shard_map(..., check_vma=True)` body by its varying
manual axes (vma), printed `f32[2]{V:i}`, and computes them while it traces: an input varies
along the mesh axes its spec names; `axis_index(i)` varies along `i`; an operation of values
of different vma first marks the less varying ones with `pvary` (a no-op on the values), and
its result varies along the union; `psum` is bound as `psum_invariant`, whose result no longer
varies along the summed axes; pmax/pmin drop their axes too; all_gather, ppermute, all_to_all
and reduce_scatter keep them. An output whose vma holds an axis its `out_specs` entry leaves
out is JAX's static replication error.

numbax traces the body as usual and then rewrites its jaxpr once (`annotate`): the variables
get `VaryingShapedArray` types, the `pvary` equations are inserted where JAX inserts them, and
`psum` becomes `psum_invariant`. The transformations of `shard_map` (jvp, transpose, partial
evaluation, vmap) annotate the jaxprs they derive the same way.

The bodies of a `jit`, `cond`, `scan`, `while` or custom-derivative function inside are typed
the same way (a loop's carries iterated to a fixed point). Partial: the rules of a custom
derivative are not typed, and the results of the other higher-order equations (`remat`, ...)
vary along the union of their operands' axes, their bodies untyped.
`all_gather(..., to="invarying")` gathers as "varying" does.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.avals import ShapedArray
from core.errors import ShardMapOutSpecError
from core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var
from core.prims.collectives import psum_invariant_p, pvary_p

# Collectives whose result varies along the axes of their operand, made varying along theirs.
_KEEPING = frozenset({"all_gather", "ppermute", "all_to_all", "reduce_scatter"})
# Calls whose body takes the operands as they are: the body's parameter.
_CALLS = {"jit_call": "jaxpr", "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
# Collectives whose result no longer varies along their axes.
_DROPPING = frozenset({"psum", "psum_invariant", "pmax", "pmin"})


class VaryingShapedArray(ShapedArray):
    """A `ShapedArray` inside a `shard_map` body that varies along mesh axes `vma` (JAX's
    `jax.typeof(x).vma`), printed `f32[2]{V:i}` (`{V:(x,y)}` for two, in mesh order)."""

    __slots__ = ("vma", "order")

    def __init__(self, aval: ShapedArray, vma: frozenset, order: tuple) -> None:
        super().__init__(aval.shape, aval.dtype, aval.weak_type)
        self.vma = vma
        self.order = order

    def str_short(self, short_dtypes: bool = True, mesh_axis_types: bool = False) -> str:
        text = super().str_short(short_dtypes, mesh_axis_types)
        names = [n for n in self.order if n in self.vma]
        if not names:
            return text
        return text + "{V:" + (str(names[0]) if len(names) == 1 else f"({','.join(names)})") + "}"


def _names(axis_name) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _typed(aval: ShapedArray, vma: frozenset, order: tuple) -> ShapedArray:
    plain = ShapedArray(aval.shape, aval.dtype, aval.weak_type)
    return VaryingShapedArray(plain, vma, order) if vma else plain


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
        new = Var(_typed(v.aval, vma, order))
        rename[v], vmas[new] = new, vma
        return new

    def vma_of(x) -> frozenset:
        return frozenset() if isinstance(x, Literal) else vmas[x]

    def sub(x):
        return x if isinstance(x, Literal) else rename[x]

    constvars = [fresh(v, frozenset()) for v in jaxpr.constvars]
    invars = [fresh(v, frozenset(m)) for v, m in zip(jaxpr.invars, in_vmas, strict=True)]
    eqns: list[Eqn] = []

    def varying(x, want: frozenset):
        """`x` made to vary along `want` (a `pvary` of the axes it lacks)."""
        missing = want - vma_of(x)
        if not missing:
            return x
        out = Var(_typed(x.aval, want | vma_of(x), order))
        vmas[out] = want | vma_of(x)
        axes = tuple(n for n in order if n in missing)
        eqns.append(Eqn(pvary_p, [x], {"axis_name": axes}, [out]))
        return out

    for eqn in jaxpr.eqns:
        ins = [sub(x) for x in eqn.inputs]
        name, prim, params = eqn.prim.name, eqn.prim, eqn.params
        if name == "axis_index":
            out_vma = frozenset(_names(params["axis_name"]))
        elif name == "pvary":
            out_vma = vma_of(ins[0]) | frozenset(_names(params["axis_name"]))
        elif name in _DROPPING or name in _KEEPING:
            axes = frozenset(_names(params["axis_name"]))
            ins = [varying(ins[0], axes)]
            out_vma = vma_of(ins[0]) - axes if name in _DROPPING else vma_of(ins[0])
            prim = psum_invariant_p if name == "psum" else prim
        elif name in _CALLS and len(_open(params[_CALLS[name]]).invars) == len(ins):
            # the body typed too, as JAX types a `jit` or a custom rule's function
            inner = params[_CALLS[name]]
            body, out_vmas = annotate(_open(inner), [vma_of(x) for x in ins], order)
            if isinstance(inner, ClosedJaxpr):
                body = ClosedJaxpr(body, inner.consts)
            params = dict(params, **{_CALLS[name]: body})
            outs = [fresh(v, m) for v, m in zip(eqn.outputs, out_vmas)]
            eqns.append(Eqn(prim, ins, params, outs, eqn.source_info))
            continue
        elif eqn.prim.higher_order:
            typed = _control_flow(name, params, [vma_of(x) for x in ins], order)
            if typed is None:  # other higher-order primitives: the union of the operands'
                out_vmas = [frozenset().union(*map(vma_of, ins))] * len(eqn.outputs)
            else:
                params, wants, out_vmas = typed
                ins = [varying(x, w) for x, w in zip(ins, wants)]
            outs = [fresh(v, m) for v, m in zip(eqn.outputs, out_vmas)]
            eqns.append(Eqn(prim, ins, params, outs, eqn.source_info))
            continue
        else:
            out_vma = frozenset().union(*map(vma_of, ins))
            ins = [varying(x, out_vma) for x in ins]
        outs = [fresh(v, out_vma) for v in eqn.outputs]
        eqns.append(Eqn(prim, ins, params, outs, eqn.source_info))
    outvars = [sub(x) for x in jaxpr.outvars]
    if out_want is not None:
        outvars = [varying(x, w) for x, w in zip(outvars, out_want, strict=True)]
    return Jaxpr(constvars, invars, eqns, outvars), [vma_of(x) for x in outvars]


def _control_flow(name: str, params: dict, vmas: list, order: tuple):
    """A `cond`, `scan` or `while` typed as JAX types it: `(params with the bodies rewritten,
    the vma each operand must have, the vma of each result)`, or None for another primitive.

    A cond's results vary along its branches' (and a varying index's) axes; a loop's carries
    along the axes their updates reach, iterated to a fixed point (and a varying predicate's);
    bodies and operands get `pvary`s where a value must vary more, as JAX's typing requires."""

    def typed(jaxpr, in_vmas, out_want=None):
        body, out = annotate(_open(jaxpr), in_vmas, order, out_want)
        return (ClosedJaxpr(body, jaxpr.consts) if isinstance(jaxpr, ClosedJaxpr) else body), out

    if name == "cond":
        index, ops = vmas[0], vmas[1:]
        per_branch = [typed(b, ops)[1] for b in params["branches"]]
        joined = [index.union(*col) for col in zip(*per_branch)]
        branches = tuple(typed(b, ops, joined)[0] for b in params["branches"])
        return dict(params, branches=branches), vmas, joined
    if name == "scan":
        nc, ncar = params["num_consts"], params["num_carry"]
        consts, carry, xs = vmas[:nc], vmas[nc : nc + ncar], vmas[nc + ncar :]
        while True:
            body = typed(params["jaxpr"], consts + carry + xs)[1]
            grown = [c | o for c, o in zip(carry, body[:ncar])]
            if grown == carry:
                break
            carry = grown
        jaxpr, outs = typed(params["jaxpr"], consts + carry + xs, carry + body[ncar:])
        return dict(params, jaxpr=jaxpr), consts + carry + xs, outs
    if name == "while":
        cn, bn = params["cond_nconsts"], params["body_nconsts"]
        cond_consts, body_consts, carry = vmas[:cn], vmas[cn : cn + bn], vmas[cn + bn :]
        while True:
            (pred,) = typed(params["cond_jaxpr"], cond_consts + carry)[1]
            body = typed(params["body_jaxpr"], body_consts + carry)[1]
            grown = [c | o | pred for c, o in zip(carry, body)]
            if grown == carry:
                break
            carry = grown
        cond_jaxpr = typed(params["cond_jaxpr"], cond_consts + carry)[0]
        body_jaxpr = typed(params["body_jaxpr"], body_consts + carry, carry)[0]
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


__all__ = ["VaryingShapedArray", "annotate", "check_outputs", "spec_axes"]
