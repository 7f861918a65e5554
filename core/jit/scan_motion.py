"""Moving products out of compiled scans: one large GEMM instead of one small one per iteration.

A scan body runs once per iteration, so a product in it is small (an RNN's (batch, hidden) x
(hidden, hidden)) and pays a BLAS call, an allocation and a poorly filled kernel every time.
Before code generation, `optimize` rewrites every `scan` equation of a program (the code
generator simplifies every body it emits, so nested scans are rewritten too):

* **Accumulators become sums.** A carry updated only as `acc + g` (the const cotangents a
  transposed scan accumulates: the weight gradient `dW += h_t^T dz_t` of an RNN) stops being a
  carry when `g` is computed by a product or a sum (a bias gradient, `db += sum_rows(dz_t)`)
  that can be sunk (below): `g` becomes a per-iteration output `G` and the final value is
  `init + reduce_sum(G, 0)` (just the sum when `init` is a broadcast zero). What is left in the
  loop then no longer mixes the rows of its carries (`core/backends/numba/scan_rows.py`).
* **Sinking.** Products whose results only feed per-iteration outputs (ys), and everything
  computed from them, run once after the loop on the stacked operands: the sub-jaxpr is
  vectorized over the iterations (`batch_jaxpr`) and its loop-varying inputs become extra ys
  (xs slices and consts are read as they are, loop-invariant values recomputed once). A sum
  over the iterations of a stacked product becomes one product that contracts over them as
  well (`sum_over`): `sum_t h_t^T dz_t` is `H^T DZ`, one GEMM over all steps.
* **Hoisting.** Products that read only xs slices and consts (an RNN's input projection
  `x_t @ W_x`) run once before the loop on the whole xs (vectorized the same way); the body
  reads rows of the result as new xs. Products of one xs slice by several consts are merged
  first (below), so an LSTM's four input projections become one product.
* **Merging.** What stays in the loop is the recurrent product, a few rows (the batch) times
  weight matrices. Products of one value by several consts of one shape (an LSTM's four
  gates, `h @ U_i`) become one product by the consts concatenated before the loop, each
  former result a slice of it; a sum of products of few rows by consts (the backward loop's
  `sum_i dz_i @ U_i^T`) one product contracting the concatenated axes (the `dz_i`
  concatenated in each iteration): one product per iteration, shared between threads at one
  hand-off instead of four.
* **Stacked concatenations.** When the loop stacks values that it also concatenates (the
  backward loop's `dz_i`, read by the products moved after it and concatenated for its merged
  product), it stacks the concatenation instead, each former stack a slice of it; after the
  loop, equations that read slices covering one array merge (`merge_sliced`): the four gates'
  weight gradients `H^T DZ_i` become one product `H^T [DZ_0 .. DZ_3]` (sliced), the `X^T DZ_i`
  another, the inputs' gradient `sum_i DZ_i W_i^T` one product by the concatenated weights,
  and the bias gradients' sums one sum: three BLAS calls instead of twelve.
* **Transposed weights.** A product of few rows runs fastest with the weights stored as
  (contracted, kept) rows, each of which its register tiles read as vectors
  (`core/backends/numba/library/skinny.py`): a const such a product contracts over its second
  axis (the backward loop's `dz [U_0 .. U_3]^T`) is transposed once before the loop.

Only products move (with what feeds or follows them inside the moved region); elementwise work
stays in the loop. Each scan may add at most `STACK_BUDGET` bytes of stacked values. Floating
point: a sum over the iterations, or of merged products, is added in another order (a GEMM's
blocked order instead of one product after another; a merged product's elements come from
other BLAS calls), so results agree with the loop's within float rounding.
`config.jit_scan_motion = False` (or `NUMBAX_JIT_SCAN_MOTION=0`) turns the rewrites off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.backends.numba.library.skinny import SKINNY_ROWS
from core.config import config
from core.interpreters.partial_eval import dce_jaxpr
from core.ir import Eqn, Jaxpr, Literal, Var, copy_eqns, typecheck
from core.prims import elementwise as ew
from core.prims import indexing, linalg, reductions, shapes
from core.prims.control_flow.common import batch_jaxpr
from core.prims.control_flow.scan import scan_p

# Bytes of stacked values (new ys or xs) one scan's rewrite may add.
STACK_BUDGET = 1 << 27
Simplifier = Callable[[list[Eqn], list], tuple[list[Eqn], list]]


def _uses(eqns: list[Eqn], outvars: list) -> dict[Var, int]:
    count: dict[Var, int] = {}
    for x in [*(x for e in eqns for x in e.inputs), *outvars]:
        if isinstance(x, Var):
            count[x] = count.get(x, 0) + 1
    return count


def _new(prim, inputs: list, **params) -> Eqn:
    """The equation `prim[params](*inputs)` with a fresh output variable."""
    aval = prim.abstract_eval(*[x.aval for x in inputs], **params)
    return Eqn(prim, inputs, params, [Var(aval)])


def _stacked(aval, length: int):
    return aval.update(shape=(length, *aval.shape))


def _movable(e: Eqn) -> bool:
    return not (e.prim.effectful or e.prim.higher_order)


@dataclass
class _Loop:
    """A scan equation taken apart: each operand and result next to its body variable.

    `consts`/`xs`: (outer atom, body var); `carry`: (init atom, body in var, body out atom,
    outer var); `ys`: (body out atom, outer var)."""

    consts: list[tuple]
    carry: list[tuple]
    xs: list[tuple]
    ys: list[tuple]
    eqns: list[Eqn]
    params: dict
    source_info: object
    producers: dict  # outer variable -> the equation defining it
    simplify_body: Simplifier

    @staticmethod
    def of(eqn: Eqn, simplify_body: Simplifier, producers: dict) -> _Loop:
        p = eqn.params
        jaxpr, nc, ncar = p["jaxpr"], p["num_consts"], p["num_carry"]
        body, outs = simplify_body(jaxpr.eqns, jaxpr.outvars)
        ins, inv = eqn.inputs, jaxpr.invars
        carry = list(zip(ins[nc : nc + ncar], inv[nc : nc + ncar], outs[:ncar], eqn.outputs))
        return _Loop(
            consts=list(zip(ins[:nc], inv[:nc])),
            carry=carry,
            xs=list(zip(ins[nc + ncar :], inv[nc + ncar :])),
            ys=list(zip(outs[ncar:], eqn.outputs[ncar:])),
            eqns=list(body),
            params=p,
            source_info=eqn.source_info,
            producers=producers,
            simplify_body=simplify_body,
        )

    @property
    def length(self) -> int:
        return self.params["length"]

    def outvars(self) -> list:
        return [c[2] for c in self.carry] + [y[0] for y in self.ys]

    def eqn(self) -> Eqn:
        """The scan equation of the loop as it now is (unused consts and xs dropped)."""
        outvars = self.outvars()
        used = _uses(self.eqns, outvars)
        self.consts = [c for c in self.consts if c[1] in used]
        self.xs = [x for x in self.xs if x[1] in used]
        invars = [c[1] for c in self.consts] + [c[1] for c in self.carry] + [x[1] for x in self.xs]
        body = dce_jaxpr(Jaxpr([], invars, self.eqns, outvars))
        typecheck(body)
        params = dict(
            self.params, jaxpr=body, num_consts=len(self.consts), num_carry=len(self.carry)
        )
        inputs = [c[0] for c in self.consts] + [c[0] for c in self.carry] + [x[0] for x in self.xs]
        outputs = [c[3] for c in self.carry] + [y[1] for y in self.ys]
        return Eqn(scan_p, inputs, params, outputs, self.source_info)

    # -- sinking ------------------------------------------------------------------------------

    def _sum_last(self) -> None:
        """Rewrites a carry updated as a chain of adds with the carry innermost, `(acc + g1) +
        g2` (a transposed loop adds each of a const's cotangents to the carried sum where it is
        computed, as JAX's does), as `acc + (g1 + g2)`, the form `_accumulators` finds. The
        inner sums must feed nothing else; floats only (the order of the additions changes)."""
        outvars = self.outvars()
        uses = _uses(self.eqns, outvars)
        producer = {v: e for e in self.eqns for v in e.outputs}

        def chain(v: Var, vin: Var) -> tuple[list, list[Eqn]] | None:
            """The terms added to `vin` to make `v`, and the adds that did it (outermost last)."""
            if v is vin:
                return [], []
            e = producer.get(v)
            if e is None or e.prim is not ew.add_p:
                return None
            for x, other in (e.inputs, e.inputs[::-1]):
                inner = chain(x, vin) if isinstance(x, Var) and uses.get(x) == 1 else None
                if inner is not None and other is not vin:
                    return [*inner[0], other], [*inner[1], e]
            return None

        for _, vin, vout, _ in self.carry:
            if vout.aval.dtype.kind not in "fc" or uses.get(vin) != 1:
                continue
            found = chain(vout, vin) if isinstance(vout, Var) else None
            if found is None or len(found[0]) < 2:
                continue
            terms, adds = found
            new = []
            total = terms[0]
            for t in terms[1:]:
                new.append(_new(ew.add_p, [total, t]))
                total = new[-1].outputs[0]
            new.append(Eqn(ew.add_p, [vin, total], {}, [vout]))
            drop = {id(e) for e in adds}
            top = next(i for i, e in enumerate(self.eqns) if e is adds[-1])
            self.eqns = (
                [e for e in self.eqns[:top] if id(e) not in drop]
                + new
                + [e for e in self.eqns[top + 1 :] if id(e) not in drop]
            )

    def _accumulators(self) -> dict[int, tuple[Eqn, Var]]:
        """Carry index -> (its `add` equation, the added value g) for carries updated only as
        `acc + g` (float dtypes)."""
        self._sum_last()
        uses = _uses(self.eqns, self.outvars())
        producer = {v: e for e in self.eqns for v in e.outputs}
        found = {}
        for k, (_, vin, vout, _) in enumerate(self.carry):
            e = producer.get(vout)
            if e is None or e.prim is not ew.add_p or vout.aval.dtype.kind not in "fc":
                continue
            if uses.get(vin) != 1 or uses.get(vout) != 1:
                continue
            a, b = e.inputs
            g = b if a is vin else a if b is vin else None
            if isinstance(g, Var) and g is not vin and g.aval.shape == vout.aval.shape:
                found[k] = (e, g)
        return found

    def _sunk(self, accs: dict[int, tuple[Eqn, Var]]) -> list[int]:
        """Indices of the body equations to run after the loop: products none of whose results
        reach a carry (the accumulators `accs` no longer being carries), sums an accumulator
        adds up (through reshapes), and all they feed."""
        skip = {id(e) for e, _ in accs.values()}
        carried = {c[2] for k, c in enumerate(self.carry) if k not in accs}
        consumers: dict[Var, list[int]] = {}
        for i, e in enumerate(self.eqns):
            if id(e) not in skip:
                for x in e.inputs:
                    if isinstance(x, Var):
                        consumers.setdefault(x, []).append(i)
        free: set[int] = set()
        for i in reversed(range(len(self.eqns))):
            e = self.eqns[i]
            if id(e) in skip or not _movable(e):
                continue
            if all(v not in carried and set(consumers.get(v, ())) <= free for v in e.outputs):
                free.add(i)
        producer = {v: i for i, e in enumerate(self.eqns) for v in e.outputs}
        seeds = {i for i, e in enumerate(self.eqns) if e.prim is linalg.dot_general_p}
        for _, g in accs.values():  # an accumulated sum (a bias gradient: the rows' sum of dz)
            i = producer.get(g)
            while i is not None and self.eqns[i].prim is shapes.reshape_p:
                i = producer.get(self.eqns[i].inputs[0])
            if i is not None and self.eqns[i].prim in _SUMS:
                seeds.add(i)
        sunk, made = [], set()
        for i, e in enumerate(self.eqns):
            if i in free and (i in seeds or any(x in made for x in e.inputs)):
                sunk.append(i)
                made.update(e.outputs)
        return sunk

    def sink_products(self) -> tuple[list[Eqn], dict[Var, object]]:
        """Moves accumulated and ys-only products after the loop (see the module docstring).

        Returns the equations to run after the scan and what each removed scan result is now.
        """
        accs = self._accumulators()
        while True:
            sunk = self._sunk(accs)
            made = {v for i in sunk for v in self.eqns[i].outputs}
            kept = {k: a for k, a in accs.items() if a[1] in made}
            if kept == accs:
                break
            accs = kept
        if not sunk:
            return [], {}
        moved = [self.eqns[i] for i in sunk]
        eqns, inputs = self._with_invariants(moved)
        const_of = {b: o for o, b in self.consts}
        xs_of = {b: o for o, b in self.xs}
        ys_of = {y[0]: y[1] for y in self.ys if isinstance(y[0], Var)}
        stack = [x for x in inputs if x not in const_of and x not in xs_of and x not in ys_of]
        if sum(x.aval.size * x.aval.dtype.itemsize for x in stack) * self.length > STACK_BUDGET:
            return [], {}
        results = [y[0] for y in self.ys if y[0] in made] + [g for _, g in accs.values()]
        results = list(dict.fromkeys(results))
        vec = self._vectorized(eqns, inputs, results)
        if vec is None:
            return [], {}
        for x in stack:
            ys_of[x] = Var(_stacked(x.aval, self.length))
            self.ys.append((x, ys_of[x]))
        outer_of = {**ys_of, **xs_of, **const_of}
        outer = [outer_of[x] for x in inputs]
        post, values = copy_eqns(vec, outer)
        value = dict(zip(results, values))
        rename = {y[1]: value[y[0]] for y in self.ys if y[0] in made}
        self.ys = [y for y in self.ys if y[0] not in made]
        producer = {v: e for e in post for v in e.outputs}
        uses = _uses(post, [*rename.values(), *(value[g] for _, g in accs.values())])
        for k, (_, g) in accs.items():
            init, out = self.carry[k][0], self.carry[k][3]
            total = Var(out.aval)
            post += sum_over(value[g], (0,), total, producer, uses)
            rename[out] = total
            if not _is_zeros(init, self.producers):
                post.append(_new(ew.add_p, [init, total]))
                rename[out] = post[-1].outputs[0]
        self.carry = [c for k, c in enumerate(self.carry) if k not in accs]
        gone = {id(e) for e in moved} | {id(e) for e, _ in accs.values()}
        self.eqns = [e for e in self.eqns if id(e) not in gone]
        return post, rename

    # -- hoisting -----------------------------------------------------------------------------

    def hoist_products(self) -> list[Eqn]:
        """Moves products of xs slices and consts before the loop (see the module docstring);
        returns the equations to run before the scan."""
        varying = {b for _, b in self.xs}  # computed from xs slices (and consts) only
        carried = {c[1] for c in self.carry}  # depends on the carry (or runs for an effect)
        for e in self.eqns:
            ins = [x for x in e.inputs if isinstance(x, Var)]
            if not _movable(e) or any(x in carried for x in ins):
                carried.update(e.outputs)
            elif any(x in varying for x in ins):
                varying.update(e.outputs)
        producer = {v: e for e in self.eqns for v in e.outputs if v in varying}
        todo = [e for e in self.eqns if e.prim is linalg.dot_general_p and e.outputs[0] in varying]
        taken: set[int] = set()
        while todo:
            e = todo.pop()
            if id(e) not in taken:
                taken.add(id(e))
                todo += [producer[x] for x in e.inputs if x in producer]
        moved = [e for e in self.eqns if id(e) in taken]
        if not moved:
            return []
        later = _uses([e for e in self.eqns if id(e) not in taken], self.outvars())
        results = [v for e in moved for v in e.outputs if v in later]
        if sum(v.aval.size * v.aval.dtype.itemsize for v in results) * self.length > STACK_BUDGET:
            return []
        eqns, inputs = self._with_invariants(moved)
        vec = self._vectorized(eqns, inputs, results)
        if vec is None:
            return []
        outer_of = {b: o for o, b in [*self.consts, *self.xs]}
        pre, values = copy_eqns(vec, [outer_of[x] for x in inputs])
        self.xs += list(zip(values, results))
        self.eqns = [e for e in self.eqns if id(e) not in taken]
        return pre

    # -- merged products ----------------------------------------------------------------------

    def merge_products(self) -> list[Eqn]:
        """Products of one body value by several consts of one shape (an LSTM's four gates,
        `h @ U_i`) become one product by the consts concatenated once before the loop, each
        former result a slice of it (see the module docstring); returns the equations to run
        before the scan."""
        const_of = {b: o for o, b in self.consts}
        groups: dict[tuple, list[int]] = {}
        for i, e in enumerate(self.eqns):
            if e.prim is not linalg.dot_general_p:
                continue
            x, y = e.inputs
            (_, yc), (xb, _) = e.params["dimension_numbers"]
            if xb or y not in const_of or y.aval.ndim != 2 or not isinstance(x, Var):
                continue
            params = tuple(sorted((k, repr(v)) for k, v in e.params.items()))
            groups.setdefault((x, y.aval.shape, y.aval.dtype, params), []).append(i)
        pre: list[Eqn] = []
        replace: dict[int, list[Eqn]] = {}
        for group in groups.values():
            if len(group) < 2:
                continue
            first = self.eqns[group[0]]
            free = 1 - first.params["dimension_numbers"][0][1][0]  # the weights' output axis
            weights = [const_of[self.eqns[i].inputs[1]] for i in group]
            pre.append(_new(indexing.concatenate_p, weights, dimension=free))
            merged = Var(pre[-1].outputs[0].aval)
            self.consts.append((pre[-1].outputs[0], merged))
            product = _new(linalg.dot_general_p, [first.inputs[0], merged], **first.params)
            shape = product.outputs[0].aval.shape
            width = first.outputs[0].aval.shape[-1]
            new = [product]
            for j, i in enumerate(group):
                start, limit = [0] * len(shape), list(shape)
                start[-1], limit[-1] = j * width, (j + 1) * width
                params = dict(
                    start_indices=tuple(start),
                    limit_indices=tuple(limit),
                    strides=(1,) * len(shape),
                )
                e = self.eqns[i]
                new.append(Eqn(indexing.slice_p, product.outputs, params, e.outputs, e.source_info))
                replace[i] = []
            replace[group[0]] = new
        self.eqns = [n for i, e in enumerate(self.eqns) for n in replace.get(i, [e])]
        return pre

    def merge_sums(self) -> list[Eqn]:
        """A sum of products of body values of few rows (`SKINNY_ROWS`) by consts of one
        shape, each contracting the value's last axis and one of the const's (the four gates'
        `dz_i @ U_i^T` of an LSTM's backward loop), becomes one product contracting the
        concatenated axes: the values concatenated in the loop, the consts once before it (see
        the module docstring); returns the equations to run before the scan."""
        const_of = {b: o for o, b in self.consts}
        producer = {v: i for i, e in enumerate(self.eqns) for v in e.outputs}
        uses = _uses(self.eqns, self.outvars())

        def key(v):
            i = producer.get(v) if isinstance(v, Var) else None
            e = self.eqns[i] if i is not None else None
            if e is None or e.prim is not linalg.dot_general_p or uses.get(v) != 1:
                return None
            x, y = e.inputs
            (xc, yc), (xb, _) = e.params["dimension_numbers"]
            if xb or tuple(xc) != (x.aval.ndim - 1,) or y not in const_of or y.aval.ndim != 2:
                return None
            if x.aval.size // x.aval.shape[-1] > SKINNY_ROWS:
                return None  # BLAS: a transposed merged operand cost it more than the merge saved
            params = tuple(sorted((k, repr(v)) for k, v in e.params.items()))
            return x.aval.shape, x.aval.dtype, y.aval.shape, y.aval.dtype, params

        pre: list[Eqn] = []
        replace: dict[int, list[Eqn]] = {}
        gone: set[int] = set()
        consumed = {x for e in self.eqns if e.prim is ew.add_p for x in e.inputs}
        for r, root in enumerate(self.eqns):
            if root.prim is not ew.add_p:
                continue  # (a debug callback has no outputs at all)
            out = root.outputs[0]
            if out in consumed and uses.get(out) == 1:
                continue  # inside a larger sum
            adds: list[int] = []
            leaves = _sum_terms(out, self.eqns, producer, uses, adds)
            groups: dict[tuple, list] = {}
            for t in leaves:
                if key(t) is not None:
                    groups.setdefault(key(t), []).append(t)
            group = max(groups.values(), key=len, default=[])
            if len(group) < 2:
                continue
            dots = [self.eqns[producer[t]] for t in group]
            (xc, yc), _ = dots[0].params["dimension_numbers"]
            weights = [const_of[e.inputs[1]] for e in dots]
            pre.append(_new(indexing.concatenate_p, weights, dimension=yc[0]))
            merged = Var(pre[-1].outputs[0].aval)
            self.consts.append((pre[-1].outputs[0], merged))
            new = [_new(indexing.concatenate_p, [e.inputs[0] for e in dots], dimension=xc[0])]
            rest = [t for t in leaves if t not in group]
            target = Var(out.aval) if rest else out
            new.append(
                Eqn(linalg.dot_general_p, [new[0].outputs[0], merged], dots[0].params, [target])
            )
            total = target
            for k, t in enumerate(rest):
                total_next = out if k == len(rest) - 1 else Var(out.aval)
                new.append(Eqn(ew.add_p, [total, t], {}, [total_next]))
                total = total_next
            gone.update([*adds, *(producer[t] for t in group)])
            replace[r] = new
        self.eqns = [
            n for i, e in enumerate(self.eqns) for n in replace.get(i, [] if i in gone else [e])
        ]
        return pre

    # -- stacked concatenations --------------------------------------------------------------

    def stack_concatenated(self, post: list[Eqn]) -> list[Eqn]:
        """A concatenation in the body of values the loop stacks as ys (the backward loop's
        `dz_i`, which `merge_sums` concatenates for its product and whose stacks the products
        moved after the loop read) is stacked itself instead: each former stacked y becomes a
        slice of it, and products and sums after the loop that read slices of one stack merge
        (`merge_sliced`: `H^T DZ_i` for the four gates becomes one `H^T [DZ_0 .. DZ_3]`).
        Returns `post`, the equations after the scan, rewritten."""
        ys_of: dict[Var, list[Var]] = {}
        for body, outer in self.ys:
            if isinstance(body, Var):
                ys_of.setdefault(body, []).append(outer)
        slices: list[Eqn] = []
        for e in self.eqns:
            ins = e.inputs
            if e.prim is not indexing.concatenate_p or len(ins) < 2 or len(set(ins)) < len(ins):
                continue
            if not all(isinstance(x, Var) and x in ys_of for x in ins):
                continue
            cat = e.outputs[0]
            stacked = Var(_stacked(cat.aval, self.length))
            self.ys = [y for y in self.ys if y[0] not in ins] + [(cat, stacked)]
            axis, offset = e.params["dimension"] + 1, 0
            for x in ins:
                start, limit = [0] * stacked.aval.ndim, list(stacked.aval.shape)
                start[axis], limit[axis] = offset, offset + x.aval.shape[axis - 1]
                offset = limit[axis]
                params = dict(
                    start_indices=tuple(start),
                    limit_indices=tuple(limit),
                    strides=(1,) * len(start),
                )
                for outer in ys_of.pop(x):
                    slices.append(Eqn(indexing.slice_p, [stacked], params, [outer]))
        return merge_sliced(slices + post) if slices else post

    # -- transposed weights -------------------------------------------------------------------

    def transpose_weights(self, earlier: list[Eqn]) -> list[Eqn]:
        """Makes the products of few rows (`SKINNY_ROWS`: an RNN's state times a weight matrix)
        read their const operand as (contracted, kept) rows: a const contracted over its
        second axis is transposed once before the loop and contracted over its first (see the
        module docstring; `_transposed`); returns the equations to run before the scan
        (`earlier`: those before them)."""
        made_by = {v: e for e in earlier for v in e.outputs}
        const_of = {b: o for o, b in self.consts}
        pre: list[Eqn] = []
        made: dict[Var, Var] = {}
        for i, e in enumerate(self.eqns):
            if e.prim is not linalg.dot_general_p:
                continue
            (xc, yc), (xb, _) = e.params["dimension_numbers"]
            x, y = e.inputs
            if xb or y not in const_of or y.aval.ndim != 2 or tuple(yc) != (1,):
                continue
            if tuple(xc) != (x.aval.ndim - 1,) or x.aval.dtype.kind != "f":
                continue
            if x.aval.size // x.aval.shape[-1] > SKINNY_ROWS:
                continue
            if y not in made:
                pre += _transposed(const_of[y], made_by)
                made[y] = Var(pre[-1].outputs[0].aval)
                self.consts.append((pre[-1].outputs[0], made[y]))
            params = dict(e.params, dimension_numbers=((xc, (0,)), ((), ())))
            self.eqns[i] = Eqn(e.prim, [x, made[y]], params, e.outputs, e.source_info)
        return pre

    # -- shared -------------------------------------------------------------------------------

    def _with_invariants(self, moved: list[Eqn]) -> tuple[list[Eqn], list[Var]]:
        """`moved` with the loop-invariant body equations they read (computed from consts
        alone: copied out of the loop, not stacked), in body order, and the variables they read
        from outside (consts, xs slices, other body values)."""
        invariant = {b: None for _, b in self.consts}
        for e in self.eqns:
            if _movable(e) and all(not isinstance(x, Var) or x in invariant for x in e.inputs):
                invariant.update(dict.fromkeys(e.outputs, e))
        taken = {id(e) for e in moved}
        todo = [x for e in moved for x in e.inputs]
        while todo:
            x = todo.pop()
            e = invariant.get(x) if isinstance(x, Var) else None
            if e is not None and id(e) not in taken:
                taken.add(id(e))
                todo += e.inputs
        eqns = [e for e in self.eqns if id(e) in taken]
        made = {v for e in eqns for v in e.outputs}
        inputs = dict.fromkeys(x for e in eqns for x in e.inputs if isinstance(x, Var))
        return eqns, [x for x in inputs if x not in made]

    def _vectorized(self, eqns: list[Eqn], inputs: list[Var], results: list[Var]):
        """The jaxpr computing `results` from `inputs` by `eqns` for every iteration at once:
        inputs that are not consts and all results get a leading axis of the loop's length.
        None if vectorizing needs array constants."""
        consts = {b for _, b in self.consts}
        batched = tuple(x not in consts for x in inputs)
        sub = Jaxpr([], inputs, eqns, results)
        vec, vec_consts, _ = batch_jaxpr(sub, self.length, batched, True)
        if vec_consts:
            return None
        # batching rules bind primitives numbax composes (a batched dynamic_update_slice is a
        # scatter), which the code generator only knows by their compositions
        eqns, outvars = self.simplify_body(vec.eqns, vec.outvars)
        return Jaxpr(vec.constvars, vec.invars, eqns, outvars)


def _transposed(x: Var, made_by: dict[Var, Eqn]) -> list[Eqn]:
    """Equations computing the 2-d `x` transposed (the last one's output). A concatenation
    (`merge_products`' gate weights `[U_0 .. U_3]`) is transposed as the concatenation of its
    pieces transposed: a transpose reads its operand down the columns, rows 4 KB apart in a
    (256, 1024) matrix, so that the reads of a column all fall in the same cache sets and miss
    (1.65 ms here, serial, before the backward loop of every step); pieces of 256 columns read
    rows 1 KB apart (0.50 ms)."""
    e = made_by.get(x)
    if e is None or e.prim is not indexing.concatenate_p:
        return [_new(shapes.transpose_p, [x], permutation=(1, 0))]
    parts = [_new(shapes.transpose_p, [p], permutation=(1, 0)) for p in e.inputs]
    pieces = [p.outputs[0] for p in parts]
    return [*parts, _new(indexing.concatenate_p, pieces, dimension=1 - e.params["dimension"])]


def _is_zeros(x, producers: dict[Var, Eqn]) -> bool:
    """Whether atom `x` is a zero literal or a broadcast of one."""
    e = producers.get(x) if isinstance(x, Var) else None
    if e is not None and e.prim is shapes.broadcast_in_dim_p:
        x = e.inputs[0]
    return isinstance(x, Literal) and not x.aval.shape and x.val == 0


# A sum (in XLA's windows or YNNPACK's order too: a body is simplified, `core/jit/sum_order.py`,
# before it moves).
_SUMS = (reductions.reduce_sum_p, reductions.reduce_sum_in_order_p, reductions.reduce_sum_ynn_p)


def sum_over(x: Var, axes: tuple, out: Var, producer: dict, uses: dict) -> list[Eqn]:
    """Equations that set `out = reduce_sum(x, axes)`, moving the sum into what computes `x`
    when nothing else reads it: a sum over batch axes of a `dot_general` becomes a product that
    contracts them too (`sum_t h_t^T dz_t = H^T DZ`); a sum of an `add` is the sum of two sums,
    a sum of a transpose the transpose of a sum. What `x`'s producer no longer feeds is left
    for dead-code elimination.

    Args:
      x: the summed variable (defined by an equation of `producer`, or anything else).
      axes: the summed axes of `x`.
      out: the variable the equations define.
      producer: variable -> defining equation.
      uses: variable -> how many times it is read.
    """
    d = producer.get(x) if uses.get(x) == 1 else None
    if d is not None and d.prim is linalg.dot_general_p:
        (xc, yc), (xb, yb) = d.params["dimension_numbers"]
        if all(a < len(xb) for a in axes):
            keep = [i for i in range(len(xb)) if i not in axes]
            gone = sorted(axes)  # leading axes: contracted first, in the order they are stored
            contract = ((*(xb[i] for i in gone), *xc), (*(yb[i] for i in gone), *yc))
            batch = (tuple(xb[i] for i in keep), tuple(yb[i] for i in keep))
            params = dict(d.params, dimension_numbers=(contract, batch))
            return [Eqn(d.prim, d.inputs, params, [out], d.source_info)]
    same = lambda v: isinstance(v, Var) and v.aval.shape == x.aval.shape  # noqa: E731
    if d is not None and d.prim is ew.add_p and all(same(v) for v in d.inputs):
        parts = [Var(out.aval), Var(out.aval)]
        eqns = [e for v, p in zip(d.inputs, parts) for e in sum_over(v, axes, p, producer, uses)]
        return [*eqns, Eqn(ew.add_p, parts, {}, [out])]
    if d is not None and d.prim is shapes.transpose_p:
        perm = d.params["permutation"]
        kept = [perm[i] for i in range(len(perm)) if i not in axes]
        order = sorted(kept)
        if [order.index(a) for a in kept] == list(range(len(kept))):
            return sum_over(d.inputs[0], tuple(sorted(perm[a] for a in axes)), out, producer, uses)
        inner = Var(out.aval.update(shape=tuple(d.inputs[0].aval.shape[a] for a in order)))
        eqns = sum_over(d.inputs[0], tuple(sorted(perm[a] for a in axes)), inner, producer, uses)
        permutation = tuple(order.index(a) for a in kept)
        return [*eqns, Eqn(shapes.transpose_p, [inner], {"permutation": permutation}, [out])]
    return [Eqn(reductions.reduce_sum_p, [x], {"axes": tuple(axes)}, [out])]


def _sum_terms(v, eqns: list[Eqn], at: dict, uses: dict, adds: list[int]) -> list:
    """The terms of the sum `v` computed by `eqns` (`at`: variable -> index of the equation
    defining it); `adds` gets the indices of its add equations (each read once, but the root)."""
    i = at.get(v) if isinstance(v, Var) else None
    if i is None or (adds and uses.get(v) != 1):
        return [v]
    e = eqns[i]
    if e.prim is not ew.add_p or e.inputs[0].aval.shape != e.inputs[1].aval.shape:
        return [v]
    adds.append(i)
    return [t for x in e.inputs for t in _sum_terms(x, eqns, at, uses, adds)]


def _piece(x, producer: dict) -> tuple | None:
    """`(source, axis, start, limit)` when `x` is a slice of `source` along one axis (unit
    strides), else None."""
    e = producer.get(x) if isinstance(x, Var) else None
    if e is None or e.prim is not indexing.slice_p:
        return None
    src, p = e.inputs[0], e.params
    if any(st != 1 for st in p.get("strides") or ()):
        return None
    cut = [
        a
        for a, (lo, hi, size) in enumerate(
            zip(p["start_indices"], p["limit_indices"], src.aval.shape)
        )
        if (lo, hi) != (0, size)
    ]
    if len(cut) != 1 or not isinstance(src, Var):
        return None
    a = cut[0]
    return src, a, p["start_indices"][a], p["limit_indices"][a]


def _tiles(pieces: list[tuple], size: int) -> bool:
    """Whether the `(start, limit)` pieces cover `range(size)` exactly, in order."""
    return [lo for lo, _ in pieces] == [0, *(hi for _, hi in pieces[:-1])] and pieces[-1][1] == size


def _slice_eqn(x: Var, axis: int, lo: int, hi: int, out: Var, source_info=None) -> Eqn:
    start, limit = [0] * x.aval.ndim, list(x.aval.shape)
    start[axis], limit[axis] = lo, hi
    params = dict(start_indices=tuple(start), limit_indices=tuple(limit), strides=(1,) * len(start))
    return Eqn(indexing.slice_p, [x], params, [out], source_info)


def _passes(e: Eqn, side: int, axis: int) -> int | None:
    """The axis of `e`'s result that axis `axis` of its input `side` becomes, when `e` (a
    product, a sum) keeps it as it is; else None."""
    if e.prim in _SUMS and side == 0 and axis not in e.params["axes"]:
        return axis - sum(1 for a in e.params["axes"] if a < axis)
    if e.prim is linalg.dot_general_p:
        (xc, yc), (xb, yb) = e.params["dimension_numbers"]
        contract, batch = (xc, yc)[side], (xb, yb)[side]
        if axis in contract or axis in batch:
            return None
        free = [a for a in range(e.inputs[side].aval.ndim) if a not in contract and a not in batch]
        before = 0 if side == 0 else e.inputs[0].aval.ndim - len(xc) - len(xb)
        return len(xb) + before + free.index(axis)
    return None


def _origin(x, producer: dict) -> tuple:
    """A key equal for `x` and for copies of it made by equal transposes (the moved products'
    operands, transposed once per product)."""
    e = producer.get(x) if isinstance(x, Var) else None
    if e is not None and e.prim is shapes.transpose_p and isinstance(e.inputs[0], Var):
        return ("transpose", id(e.inputs[0]), e.params["permutation"])
    return ("atom", id(x)) if isinstance(x, Var) else ("literal", repr(x))


def merge_sliced(eqns: list[Eqn]) -> list[Eqn]:
    """Equations that read slices of one array along one axis that they keep (products whose
    other operand is the same, sums over other axes), the slices together covering the array,
    become one equation on the whole array followed by slices of its result: the four gates'
    weight gradients `H^T DZ_i` of an LSTM, one product `H^T [DZ_0 .. DZ_3]` (see
    `_Loop.stack_concatenated`). A sum of products contracting the slices (`sum_i DZ_i W_i^T`)
    becomes one product by the other operands concatenated (`DZ [W_0 .. W_3]^T`)."""
    producer = {v: e for e in eqns for v in e.outputs}
    groups: dict[tuple, list[tuple]] = {}
    for i, e in enumerate(eqns):
        for side, x in enumerate(e.inputs):
            piece = _piece(x, producer)
            if piece is None or len(e.outputs) != 1:
                continue
            src, axis, lo, hi = piece
            at = _passes(e, side, axis)
            if at is None:
                continue
            rest = tuple(_origin(y, producer) for k, y in enumerate(e.inputs) if k != side)
            params = repr(sorted(e.params.items()))
            key = (e.prim, side, id(src), axis, hi - lo, rest, params)
            groups.setdefault(key, []).append((i, side, src, axis, lo, hi, at))
    replace: dict[int, list[Eqn]] = {}
    for group in groups.values():
        group.sort(key=lambda g: g[4])
        i0, side, src, axis, _, _, at = group[0]
        if len(group) < 2 or not _tiles([(g[4], g[5]) for g in group], src.aval.shape[axis]):
            continue
        first = eqns[min(g[0] for g in group)]
        ins = list(eqns[i0].inputs)
        ins[side] = src
        whole = _new(first.prim, ins, **first.params)
        new = [whole]
        for i, *_, lo, hi, _ in group:
            e = eqns[i]
            new.append(_slice_eqn(whole.outputs[0], at, lo, hi, e.outputs[0], e.source_info))
            replace[i] = []
        replace[min(g[0] for g in group)] = new
    eqns = [n for i, e in enumerate(eqns) for n in replace.get(i, [e])]
    return _merge_sliced_sums(eqns)


def _merge_sliced_sums(eqns: list[Eqn]) -> list[Eqn]:
    """`merge_sliced`'s sums of products contracting slices that cover an array."""
    producer = {v: e for e in eqns for v in e.outputs}
    at = {v: i for i, e in enumerate(eqns) for v in e.outputs}
    uses = _uses(eqns, [])
    consumed = {x for e in eqns if e.prim is ew.add_p for x in e.inputs}
    replace: dict[int, list[Eqn]] = {}
    gone: set[int] = set()
    for r, root in enumerate(eqns):
        out = root.outputs[0] if root.prim is ew.add_p else None
        if out is None or (out in consumed and uses.get(out) == 1):
            continue
        adds: list[int] = []
        terms = _sum_terms(out, eqns, at, uses, adds)
        found = []
        for t in terms:
            e = producer.get(t) if isinstance(t, Var) else None
            if e is None or e.prim is not linalg.dot_general_p or uses.get(t) != 1:
                continue
            (xc, yc), (xb, _) = e.params["dimension_numbers"]
            piece = _piece(e.inputs[0], producer)
            if piece is None or xb or piece[1] not in xc:
                continue
            paired = yc[list(xc).index(piece[1])]
            y = e.inputs[1]
            found.append((piece, paired, y, e, t))
        if len(found) < 2 or len(found) != len(terms):
            continue
        found.sort(key=lambda f: f[0][2])
        (src, axis, _, _), paired, _, e0, _ = found[0]
        same = all(
            f[0][0] is src
            and f[0][1] == axis
            and f[1] == paired
            and f[2].aval.shape == e0.inputs[1].aval.shape
            and f[3].params == e0.params
            for f in found
        )
        if not same or not _tiles([(f[0][2], f[0][3]) for f in found], src.aval.shape[axis]):
            continue
        weights = _new(indexing.concatenate_p, [f[2] for f in found], dimension=paired)
        product = Eqn(linalg.dot_general_p, [src, weights.outputs[0]], e0.params, [out])
        gone.update([*adds, *(at[f[4]] for f in found)])
        replace[r] = [weights, product]
    return [n for i, e in enumerate(eqns) for n in replace.get(i, [] if i in gone else [e])]


def optimize(eqns: list[Eqn], outvars: list, simplify_body: Simplifier) -> tuple[list[Eqn], list]:
    """Rewrites every `scan` of `eqns` (see the module docstring); returns `(eqns, outvars)`.

    Args:
      eqns: a jaxpr's equations (nested calls inlined).
      outvars: its outputs.
      simplify_body: how a scan body is simplified before its products are looked at (the
        code generator's `simplify`, which makes a transposed product one `dot_general`).
    """
    if not config.jit_scan_motion or not any(e.prim is scan_p for e in eqns):
        return eqns, outvars
    producers = {v: e for e in eqns for v in e.outputs}
    rename: dict[Var, object] = {}
    sub = lambda x: rename.get(x, x) if isinstance(x, Var) else x  # noqa: E731
    out: list[Eqn] = []
    for e in eqns:
        ins = [sub(x) for x in e.inputs]
        if ins != e.inputs:
            e = Eqn(e.prim, ins, e.params, e.outputs, e.source_info)
        if e.prim is not scan_p or e.params["length"] < 2:
            out.append(e)
            continue
        loop = _Loop.of(e, simplify_body, producers)
        post, moved = loop.sink_products()
        pre = loop.merge_products()  # first: merged input projections are hoisted as one
        pre += loop.hoist_products()
        pre += loop.merge_sums()
        pre += loop.transpose_weights(pre)
        post = loop.stack_concatenated(post)
        if not pre and not post:
            out.append(e)
            continue
        out += [*pre, loop.eqn(), *post]
        rename.update(moved)
    return out, [sub(v) for v in outvars]
