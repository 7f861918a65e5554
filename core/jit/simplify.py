"""Jaxpr rewrites before code generation: inline nested `jit`s, fold conversions of
literals, make elementwise
broadcasts explicit (`canonical`), XLA's algebraic
simplifications that change results (`algebraic`), move products out of scans
(`core/jit/scan_motion.py`), merge duplicate equations, divide by square roots as XLA does, let
BLAS write transposed products directly, add float sums in XLA:CPU's order
(`core/jit/sum_order.py`, when `config.jit_xla_sum_order` is on), recompute cheap broadcast
values where they are read (`core/jit/recompute.py`), and drop dead code. Each
returns new lists and leaves the input jaxpr untouched.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core import ir
from core.avals import ShapedArray
from core.backends.numpy import run_jaxpr
from core.config import config
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var
from core.jit import recompute, scan_motion, sum_order
from core.jit.canonical import (
    canonical,
    composition_jaxpr,
    fold_constant_converts,
    physical_jaxpr,
)
from core.jit.structure import literal_value
from core.prims import elementwise, linalg, prng, shapes


def simplify(eqns: list[Eqn], outvars: list) -> tuple[list[Eqn], list]:
    """All rewrites, in order; returns `(eqns, outvars)`."""
    eqns, outvars = inline_calls(eqns, outvars)
    eqns = fold_constant_converts(eqns, outvars)
    eqns = canonical(eqns)
    eqns, outvars = algebraic(eqns, outvars)
    eqns, outvars = scan_motion.optimize(eqns, outvars, simplify)
    eqns, outvars = common_subexpressions(eqns, outvars)
    eqns = divisions_by_roots(eqns, outvars)
    eqns = swap_transposed_dots(eqns, outvars)
    eqns = swap_complex_products(eqns)
    if config.jit_xla_sum_order:
        eqns = sum_order.in_xla_order(eqns)
    eqns = recompute.recomputed(eqns, outvars)
    return dead_code_elimination(eqns, outvars), outvars


# Calls whose body runs as is when compiled (a custom rule only changes differentiation).
_CALLS = {
    "jit": "jaxpr",
    "custom_jvp_call": "call_jaxpr",
    "custom_vjp_call": "call_jaxpr",
    "custom_vmap_call": "call_jaxpr",  # core/custom_batching.py: the rule only changes vmap
    "custom_linear_solve": "call_jaxpr",  # core/lax/solves.py: the solve runs as is
    "linear_call": "call_jaxpr",  # core/linear_call.py: the callee runs as is
    "remat2": "jaxpr",  # core/checkpoint.py: rematerialization only changes reverse mode
}
# Identities that only tag a value for a transformation (`checkpoint_name`'s `name`).
_IDENTITIES = {"name"}


def inline_calls(
    eqns: list[Eqn],
    outvars: list,
    known: dict[Var, int] | None = None,
    keys: dict[Var, object] | None = None,
) -> tuple[list[Eqn], list]:
    """Replaces `jit` equations by their bodies (renaming variables), recursively, and
    the primitives numbax composes by their compositions (`Primitive.composition`) and the
    equations on PRNG keys by the same on the keys' data (`physical_jaxpr`), and drops the
    tagging identities (`_IDENTITIES`). A `cond` whose index is known when compiling
    (`_known_index`: a `lax.cond` on a static Python bool, as Optax's cifar10 ResNet picks its
    train or eval apply) becomes its chosen branch, as XLA's conditional simplifier inlines
    it: a cond is one kernel with every branch inline (`core/backends/numba/rules/
    control_flow/cond.py`), so that program's forward and backward passes were two cond
    kernels in one function (27 s of CPU to compile), not the kernels the partitioner cuts."""
    out: list[Eqn] = []
    rename: dict[Var, object] = dict(keys or {})  # `keys`: key variables -> their data
    known = {} if known is None else known  # integer scalars computed from literals only
    sub = lambda x: rename.get(x, x) if isinstance(x, Var) else x  # noqa: E731
    for eqn in eqns:
        ins = [sub(x) for x in eqn.inputs]
        if eqn.prim.name in _IDENTITIES:
            rename[eqn.outputs[0]] = ins[0]
            continue
        index = _known_index(eqn, ins, known)
        if eqn.prim.name == "cond" and index is not None:
            branches = eqn.params["branches"]
            inner = branches[min(max(index, 0), len(branches) - 1)]
            ins = ins[1:]
        elif eqn.prim.name in _CALLS:
            inner = eqn.params[_CALLS[eqn.prim.name]]
        elif prng.touches_keys(eqn):  # keys: computed on their data
            inner = physical_jaxpr(eqn)
        elif getattr(eqn.prim, "composition", None) is not None:  # numbax composes it
            inner = composition_jaxpr(Eqn(eqn.prim, ins, eqn.params, eqn.outputs))
        else:
            if index is not None:
                known[eqn.outputs[0]] = index
            out.append(
                Eqn(eqn.prim, ins, eqn.params, eqn.outputs, eqn.source_info)
                if ins != eqn.inputs
                else eqn
            )
            continue
        inner = inner.jaxpr if isinstance(inner, ClosedJaxpr) else inner
        # literal operands reach the body; key operands (their data now) stay key variables
        # there, renamed to the data, so the body's equations on keys are seen as such
        keys = {}
        for i, (v, x) in enumerate(zip([*inner.constvars, *inner.invars], ins)):
            if prng.is_key(v.aval) and not prng.is_key(x.aval):
                ins[i] = Var(v.aval)
                keys[ins[i]] = x
        copied, results = ir.copy_eqns(inner, ins)
        body, results = inline_calls(copied, results, known, keys)
        if eqn.prim.name == "jit" and eqn.params.get("name") in _FMA_CALLS:
            body, results = contract_fma(body, results, eqn.params["backend"])
        out += body
        rename.update(zip(eqn.outputs, results))
    return out, [sub(v) for v in outvars]


# The library functions (`core/jit/library.py`: their calls' backend is None) whose multiply-adds
# XLA's CPU back end contracts into FMAs, so their values depend on it: `random.uniform`'s affine
# map (`core/random_base.py`). Elsewhere numbax rounds the product and the sum apart.
_FMA_CALLS = {"_uniform"}


def contract_fma(eqns: list[Eqn], outvars: list, backend: str | None) -> tuple[list[Eqn], list]:
    """`eqns` (the body of a library call in `_FMA_CALLS`, with outputs `outvars`) with each
    float32/float64 `add` of a `mul`'s result used nowhere else computed as one rounding of
    `a * b + c` (`core.prims.prng.fma`, exact products), as XLA computes it."""
    if backend is not None:  # a user's function of that name
        return eqns, outvars
    uses = scan_motion._uses(eqns, outvars)
    producer = {e.outputs[0]: e for e in eqns if e.prim is elementwise.mul_p}
    out: list[Eqn] = []
    rename: dict[Var, object] = {}
    sub = lambda x: rename.get(x, x) if isinstance(x, Var) else x  # noqa: E731
    for e in eqns:
        m, c = None, None
        if e.prim is elementwise.add_p and e.outputs[0].aval.dtype in _FMA_DTYPES:
            for i, x in enumerate(e.inputs):
                if isinstance(x, Var) and x in producer and uses[x] == 1:
                    m, c = producer[x], e.inputs[1 - i]
                    break
        if m is None:
            out.append(Eqn(e.prim, [sub(x) for x in e.inputs], e.params, e.outputs, e.source_info))
            continue
        ins = [sub(x) for x in (*m.inputs, c)]
        jaxpr, _ = trace_to_jaxpr(lambda *xs: [prng.fma(*xs)], [x.aval for x in ins])
        body, (result,) = ir.copy_eqns(jaxpr, ins)
        out += body
        rename[e.outputs[0]] = result
    outvars = [sub(v) for v in outvars]
    return dead_code_elimination(out, outvars), outvars  # the products computed again


_FMA_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


# The pure elementwise primitives that compute an index from literals (a callback never runs
# while compiling).
_INDEX_ARITHMETIC = frozenset((
    "convert_element_type", "clamp", "select_n", "eq", "ne", "lt", "le", "gt", "ge", "and", "or",
    "not", "xor", "add", "sub", "mul", "neg", "max", "min",
))  # fmt: skip


def _known_index(eqn: Eqn, ins: list, known: dict[Var, int]) -> int | None:
    """The value of `eqn`'s integer index when all it reads are literals or `known` (a
    `cond`'s index operand; `lax.switch`'s clamp of a Python int, the comparison and
    conversion of a Python bool), else None. Integers only, which the numpy back end computes
    exactly as compiled code would."""
    if eqn.prim.name == "cond":
        (x,) = ins[:1]
        if isinstance(x, Literal):
            return int(np.asarray(x.val))
        return known.get(x)
    if eqn.prim.name not in _INDEX_ARITHMETIC:
        return None
    aval = eqn.outputs[0].aval
    if aval.shape != () or np.dtype(aval.dtype).kind not in "biu":
        return None
    values = []
    for x in ins:
        if isinstance(x, Literal):
            values.append(np.asarray(x.val, x.aval.dtype))
        elif x in known and x.aval.shape == ():
            values.append(np.asarray(known[x], x.aval.dtype))
        else:
            return None
    holes = [Var(x.aval) for x in ins]
    (value,) = run_jaxpr(Jaxpr([], holes, [Eqn(eqn.prim, holes, eqn.params, eqn.outputs)],
                               eqn.outputs), *values)  # fmt: skip
    return int(value)


# XLA's algebraic simplifier (xla/service/algebraic_simplifier.cc) rewrites these patterns
# of real floats under jit whatever the other uses of the inner value, so JAX's jitted
# results differ from its eager ones (docs/faq.rst: `jit(lambda x: log(exp(x)))(100.)` is 100,
# eagerly inf; `divisions_by_roots` does A/sqrt(B)). (outer, operand i, its producer) -> the
# replacement, given an equation builder, the producer's operand and the outer equation's
# other operands. Each checked bit for bit
# against JAX 0.10.2's jit (tests/core/jit/test_simplify.py).
_ALGEBRAIC: dict[tuple[str, int, str], Callable] = {
    ("log", 0, "exp"): lambda f, a: a,  # ln(exp(A)) => A
    ("log", 0, "sqrt"): lambda f, a: f.mul(f.log(a), f.const(0.5, a)),  # => 0.5*ln(A)
    ("log", 0, "rsqrt"): lambda f, a: f.mul(f.log(a), f.const(-0.5, a)),  # => -0.5*ln(A)
    ("div", 1, "exp"): lambda f, b, a: f.mul(a, f.exp(f.neg(b))),  # A/exp(B) => A*exp(-B)
    ("pow", 0, "exp"): lambda f, a, b: f.exp(f.mul(a, b)),  # pow(exp(A),B) => exp(A*B)
}


class _Builder:
    """Equations appended to `eqns` by primitive name (`f.mul(x, y)`), each a fresh output."""

    def __init__(self, eqns: list[Eqn], source_info):
        self.eqns, self.source_info = eqns, source_info

    def __getattr__(self, name: str) -> Callable:
        prim = getattr(elementwise, f"{name}_p")
        return lambda *xs: self._emit(prim, list(xs), {})

    def _emit(self, prim, inputs: list, params: dict) -> Var:
        aval = prim.abstract_eval(*[x.aval for x in inputs], **params)
        out = Var(aval)
        self.eqns.append(Eqn(prim, inputs, params, [out], self.source_info))
        return out

    def const(self, value: float, like: Var) -> Var:
        """`value` broadcast to `like`'s shape and dtype."""
        dtype = like.aval.dtype
        scalar = Literal(np.asarray(value, dtype)[()], ShapedArray((), dtype))
        params = {"shape": like.aval.shape, "broadcast_dimensions": ()}
        return self._emit(shapes.broadcast_in_dim_p, [scalar], params)


def _constant(x, producer: dict) -> bool:
    """Whether atom `x` is a literal or a broadcast one."""
    e = producer.get(x) if isinstance(x, Var) else None
    if e is not None and e.prim is shapes.broadcast_in_dim_p:
        x = e.inputs[0]
    return isinstance(x, Literal)


def _constant_value(x, producer: dict) -> np.ndarray | None:
    """The value of atom `x` if it is a scalar literal or a broadcast of one."""
    e = producer.get(x) if isinstance(x, Var) else None
    if e is not None and e.prim is shapes.broadcast_in_dim_p:
        x = e.inputs[0]
    if isinstance(x, Literal) and np.ndim(x.val) == 0:
        return np.asarray(x.val)
    return None


def _with_constant(q: Eqn | None, prim, producer: dict) -> tuple | None:
    """`(A, C)` for an equation `q` of primitive `prim` (`mul` or `add`) whose operands are a
    non-constant `A` and a scalar constant `C`, else None."""
    if q is None or q.prim is not prim:
        return None
    values = [_constant_value(x, producer) for x in q.inputs]
    if sum(v is not None for v in values) != 1:
        return None
    j = 0 if values[0] is not None else 1
    return q.inputs[1 - j], values[j]


def _constant_chain(e: Eqn, inner: list, producer: dict) -> tuple | None:
    """`(A, C1 op C2)` (in the dtype) for `e` = `(A op C1) op C2`, op `mul` or `add`, C1 and
    C2 constants and A not one (XLA's simplifier folds them whatever the other uses of
    `A op C1`: gelu's gradient, LayerNorm's `x * 2 / n`), else None."""
    outer = _with_constant(e, e.prim, producer)
    if outer is None:
        return None
    a, c2 = outer
    folded = _with_constant(inner[e.inputs.index(a)], e.prim, producer)
    if folded is None:
        return None
    dtype = e.outputs[0].aval.dtype
    step = np.multiply if e.prim.name == "mul" else np.add
    return folded[0], step(folded[1].astype(dtype), c2.astype(dtype))


def _by_reciprocal(e: Eqn, inner: list, producer: dict) -> tuple | None:
    """`(A, C)` for `e` = `A / D`, D a scalar constant and A not one: XLA's simplifier makes it
    `A * C` with `C = 1/D` (in the dtype), then folds `(B * C1) * C` as `B * (C1 * C)`, so
    `x * 2 / n` and `x / n * 2` multiply by one constant. None for other equations."""
    values = [_constant_value(x, producer) for x in e.inputs]
    if e.prim.name != "div" or values[0] is not None or values[1] is None:
        return None
    dtype = e.outputs[0].aval.dtype
    c = np.divide(np.ones((), dtype), values[1].astype(dtype))
    folded = _with_constant(inner[0], elementwise.mul_p, producer)
    if folded is None:
        return e.inputs[0], c
    return folded[0], np.multiply(folded[1].astype(dtype), c)


def _algebraic_rewrite(e: Eqn, producer: dict, f: _Builder, from_literals: set):
    """The replacement of `e`'s result (see `_ALGEBRAIC`), its equations given to `f`; None
    if no rule applies, or if `e` reads only literals and values computed from literals alone
    (`from_literals`): XLA folds those before its simplifier rewrites them, so `jnp.sqrt(0.5) / c`
    stays a division (Flax's truncated normal initializers' scale)."""
    if len(e.outputs) != 1 or e.outputs[0].aval.dtype.kind != "f":
        return None
    if all(isinstance(x, Literal) or x in from_literals for x in e.inputs):
        return None  # XLA folds it first: `jit(lambda: log(exp(c)))()` is inf for c = 100.
    inner = [producer.get(x) if isinstance(x, Var) else None for x in e.inputs]
    names = [q.prim.name if q is not None else None for q in inner]
    if e.prim.name == "div" and names == ["exp", "exp"]:  # exp(A)/exp(B) => exp(A-B)
        return f.exp(f.sub(inner[0].inputs[0], inner[1].inputs[0]))
    if e.prim.name == "mul" and names == ["exp", "exp"]:  # exp(A)*exp(B) => exp(A+B)
        return f.exp(f.add(inner[0].inputs[0], inner[1].inputs[0]))
    # divisions by constants are products by their reciprocals first (as numbax's kernels do)
    if e.prim.name == "div" and names[1] == "div" and not _constant(inner[1].inputs[1], producer):
        b, c = inner[1].inputs  # A/(B/C) => (A*C)/B
        return f.div(f.mul(e.inputs[0], c), b)
    if e.prim.name == "div" and names[0] == "div" and not _constant(e.inputs[1], producer):
        a, b = inner[0].inputs  # (A/B)/C => A/(B*C)
        if not _constant(b, producer):
            return f.div(a, f.mul(b, e.inputs[1]))
    if e.prim.name in ("mul", "add", "div"):  # (A * C1) * C2 => A * (C1 * C2), also for +
        chain = _by_reciprocal if e.prim.name == "div" else _constant_chain
        folded = chain(e, inner, producer)
        if folded is not None:
            a, c = folded
            return (f.add if e.prim.name == "add" else f.mul)(a, f.const(c, a))
    if e.prim.name == "sqrt" and names[0] == "mul":  # sqrt(A*A) => |A|
        x, y = inner[0].inputs
        return f.abs(x) if x is y else None
    for i, inner_name in enumerate(names):
        rule = _ALGEBRAIC.get((e.prim.name, i, inner_name))
        if rule is not None:
            return rule(f, inner[i].inputs[0], *(x for j, x in enumerate(e.inputs) if j != i))
    return None


def algebraic(eqns: list[Eqn], outvars: list) -> tuple[list[Eqn], list]:
    """XLA's algebraic simplifications that change results (`_ALGEBRAIC`): `ln(exp(A))` is
    `A`, `A/exp(B)` is `A*exp(-B)`, ... as JAX's jitted functions compute them."""
    producer: dict[Var, Eqn] = {}
    rename: dict = {}
    out: list[Eqn] = []
    from_literals: set[Var] = set()
    for e in eqns:
        ins = [rename.get(x, x) if isinstance(x, Var) else x for x in e.inputs]
        if ins != e.inputs:
            e = Eqn(e.prim, ins, e.params, e.outputs, e.source_info)
        new: list[Eqn] = []
        result = _algebraic_rewrite(e, producer, _Builder(new, e.source_info), from_literals)
        want = e.outputs[0].aval if len(e.outputs) == 1 else None
        if result is None or (result.aval.shape, result.aval.dtype) != (want.shape, want.dtype):
            new, result = [e], None  # no rule, or a broadcasting operand: left as it is
        out += new
        producer.update((v, n) for n in new for v in n.outputs)
        for n in new:
            if not ir.eqn_has_effects(n) and all(
                isinstance(x, Literal) or x in from_literals for x in n.inputs
            ):
                from_literals.update(n.outputs)
        if result is not None:
            rename[e.outputs[0]] = result
    return out, [rename.get(v, v) if isinstance(v, Var) else v for v in outvars]


def common_subexpressions(eqns: list[Eqn], outvars: list) -> tuple[list[Eqn], list]:
    """Merges equations with the same primitive, inputs and parameters (e.g. Adam's bias
    corrections, traced once per parameter). Higher-order primitives are left alone."""
    rename: dict[Var, Var] = {}
    seen: dict[tuple, list[Var]] = {}
    out = []
    for e in eqns:
        ins = [rename.get(x, x) if isinstance(x, Var) else x for x in e.inputs]
        key = None
        if not e.prim.higher_order and not e.prim.effectful:
            atoms = tuple(
                ("v", id(x)) if isinstance(x, Var) else ("l", literal_value(x.val), str(x.aval))
                for x in ins
            )
            key = (e.prim.name, atoms, repr(sorted(e.params.items())))
        if key is not None and key in seen:
            rename.update(zip(e.outputs, seen[key]))
            continue
        if key is not None:
            seen[key] = e.outputs
        out.append(Eqn(e.prim, ins, e.params, e.outputs, e.source_info) if ins != e.inputs else e)
    return out, [rename.get(v, v) if isinstance(v, Var) else v for v in outvars]


def _use_counts(eqns: list[Eqn], outvars: list) -> dict:
    uses: dict = {}
    for x in [x for e in eqns for x in e.inputs] + list(outvars):
        uses[x] = uses.get(x, 0) + 1
    return uses


# XLA's algebraic simplifier: A / sqrt(B) => A * rsqrt(B), A / rsqrt(B) => A * sqrt(B)
_INVERSE_ROOTS = {elementwise.sqrt_p: elementwise.rsqrt_p, elementwise.rsqrt_p: elementwise.sqrt_p}


def divisions_by_roots(eqns: list[Eqn], outvars: list) -> list[Eqn]:
    """`a / sqrt(b)` becomes `a * rsqrt(b)` (and `a / rsqrt(b)` becomes `a * sqrt(b)`), as XLA's
    algebraic simplifier rewrites it where the root has no other use: a jitted
    `1 / jnp.sqrt(x)` then gives XLA's bits (its rsqrt, inf at 0). A root read elsewhere too
    (XLA then divides exactly) is rewritten as well: left as a division, the kernels' `arcp`
    let LLVM use its own reciprocal-root estimate, which is as far from the exact quotient and
    gives nan where the root is 0. Real floats only; an unused root is left to dead-code
    elimination."""
    roots = {e.outputs[0]: e for e in eqns if e.prim in _INVERSE_ROOTS}
    out = []
    for e in eqns:
        root = roots.get(e.inputs[1]) if e.prim is elementwise.div_p else None
        if root is None or e.outputs[0].aval.dtype.kind != "f":
            out.append(e)
            continue
        inverse = Var(root.outputs[0].aval)
        out.append(Eqn(_INVERSE_ROOTS[root.prim], root.inputs, {}, [inverse], root.source_info))
        out.append(Eqn(elementwise.mul_p, [e.inputs[0], inverse], {}, e.outputs, e.source_info))
    return out


def swap_transposed_dots(eqns, outvars):
    """`transpose(dot_general(x, y))` with the result's two halves swapped, and the product used
    nowhere else, becomes `dot_general(y, x)`: BLAS then writes the layout the consumer reads
    (the weight gradients of a dense layer, which Adam reads row by row)."""
    uses = _use_counts(eqns, outvars)
    producer = {e.outputs[0]: e for e in eqns if e.prim is linalg.dot_general_p}
    out = []
    for e in eqns:
        d = producer.get(e.inputs[0]) if e.prim is shapes.transpose_p else None
        if d is not None and uses[e.inputs[0]] == 1:
            (xc, yc), (xb, yb) = d.params["dimension_numbers"]
            x, y = d.inputs
            nx = x.aval.ndim - len(xc) - len(xb)
            ny = y.aval.ndim - len(yc) - len(yb)
            perm = (*range(nx, nx + ny), *range(nx))
            if not xb and nx and ny and e.params["permutation"] == perm:
                params = dict(d.params, dimension_numbers=((yc, xc), ((), ())))
                out.append(type(e)(d.prim, [y, x], params, e.outputs, d.source_info))
                continue
        out.append(e)
    used = {x for e in out for x in e.inputs} | set(outvars)
    return [e for e in out if e.prim is not linalg.dot_general_p or e.outputs[0] in used]


def _minor_broadcast(x, producer: dict) -> bool:
    """Whether atom `x` is a `broadcast_in_dim` constant along its last axis (of size > 1)."""
    e = producer.get(x) if isinstance(x, Var) else None
    if e is None or e.prim is not shapes.broadcast_in_dim_p or not x.aval.shape:
        return False
    last = x.aval.ndim - 1
    dims = e.params["broadcast_dimensions"]
    if x.aval.shape[-1] == 1:
        return False
    return last not in dims or e.inputs[0].aval.shape[dims.index(last)] == 1


def swap_complex_products(eqns: list[Eqn]) -> list[Eqn]:
    """Complex `mul(x, broadcast(y))` with `y` constant along the minor axis becomes
    `mul(broadcast(y), x)`: XLA's CPU loop computes it so (its imaginary part fuses the other
    product, `core.prims.elementwise.mul_like_xla`)."""
    producer = {v: e for e in eqns for v in e.outputs}
    out = []
    for e in eqns:
        if (
            e.prim is elementwise.mul_p
            and e.outputs[0].aval.dtype.kind == "c"
            and _minor_broadcast(e.inputs[1], producer)
            and not _minor_broadcast(e.inputs[0], producer)
        ):
            e = Eqn(e.prim, e.inputs[::-1], e.params, e.outputs, e.source_info)
        out.append(e)
    return out


def dead_code_elimination(eqns: list[Eqn], outvars: list) -> list[Eqn]:
    """Drops equations none of whose outputs are used, except effectful ones (a
    `debug_callback` has no outputs and runs for its effect)."""
    live = {v for v in outvars if isinstance(v, Var)}
    kept = []
    for eqn in reversed(eqns):
        if any(v in live for v in eqn.outputs) or ir.eqn_has_effects(eqn):
            kept.append(eqn)
            live.update(x for x in eqn.inputs if isinstance(x, Var))
    return kept[::-1]
