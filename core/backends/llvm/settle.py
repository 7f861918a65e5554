"""Float IR whose rounding is settled before LLVM sees it: the same bits from either tier.

A kernel's shell and a library routine compile in two tiers (`target.py`): the quick tier's
pipeline (SROA, then LLVM's fast instruction selection) and numba's O3. Fast-math flags leave
choices to the pipeline, and the two pipelines choose differently:

- `contract`: O3's instruction selection fuses a product into the sum that is its only user,
  in the same block (one rounding: an FMA); the quick tier's fast instruction selection never
  fuses (two roundings);
- `arcp`: O3 turns a division by a constant into a multiplication by its reciprocal
  (instcombine), and hoists the reciprocal of a loop-invariant divisor out of the loop (LICM);
  the quick tier divides;
- `reassoc`: O3 vectorizes a sum loop with partial sums in vector lanes; the quick tier sums in
  order (`translate.Nest` now writes the lanes itself: `translate.LANES`).

`settle(module)` makes those choices in the IR, as O3 would make them, and removes the three
flags, so that no pipeline has a choice left: a product whose only user is a sum in its block
becomes an `llvm.fma` with it (also through a variable: a product stored to a slot that one
load reads back in the block, as the kernel language's `t5 = t3 * t4; t7 = t5 + t6` lowers);
a division by a float constant whose reciprocal is finite becomes a multiplication by it (the
reciprocals of loop-invariant divisors are the translator's: `translate.Nest`). The flags'
effects on speed are kept (FMAs, multiplications by reciprocals, vectorized sums), and the
result no longer depends on which tier compiled the code (`tests/core/jit/test_tier_bits.py`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

# The fast-math flags whose effect depends on the pipeline: settled here, then removed.
CHOICES = frozenset(("contract", "arcp", "reassoc"))


def settle(module: ir.Module, optimized_reassoc: bool = False) -> None:
    """Makes the pipeline-dependent choices of `module`'s float operations (see the module
    docstring) and removes their flags, in place.

    Args:
      module: an llvmlite module whose functions are complete.
      optimized_reassoc: leave operations marked `reassoc` as they are (flags and all), for
        code that O3 compiles in both tiers (a library routine registered `optimized=True`,
        `skinny_columns`'s reassociable multiply-adds).
    """
    for fn in list(module.functions):
        if fn.blocks:
            _settle_function(module, fn, optimized_reassoc)


def _regions(fn: ir.Function) -> dict[int, tuple]:
    """Each instruction's (by id) place in `fn` as O3 sees it once SimplifyCFG has merged the
    empty diamonds numba's implementations leave (a float division's `if divisor == 0:` with
    nothing to do under the numpy error model): (region, rank), where a region is a block and
    the blocks such diamonds join to it, and rank orders the instructions of a region."""
    preds: dict[int, int] = {}
    for block in fn.blocks:
        term = block.terminator
        for op in term.operands if term is not None else ():
            if isinstance(op, ir.Block):
                preds[id(op)] = preds.get(id(op), 0) + 1
    follows: dict[int, ir.Block] = {}
    joined: set[int] = set()
    for block in fn.blocks:
        term = block.terminator
        loop = None
        if isinstance(term, ir.Branch):
            loop = _one_trip_loop(term.operands[0], block, preds)
        if loop is not None:  # numba's loop of one trip around a ufunc's kernel (`np.abs`)
            head, body, done = loop
            follows.update({id(block): head, id(head): body, id(body): done})
            joined.update((id(head), id(body), id(done)))
            continue
        if not isinstance(term, ir.ConditionalBranch):
            continue
        _, then, other = term.operands
        for empty, join in ((then, other), (other, then)):
            jump = empty.instructions
            if (
                len(jump) == 1
                and isinstance(jump[0], ir.Branch)
                and jump[0].operands[0] is join
                and preds.get(id(empty)) == 1
                and preds.get(id(join)) == 2
                and not any(isinstance(i, ir.PhiInstr) for i in join.instructions)
            ):
                follows[id(block)] = join
                joined.add(id(join))
                break
    places: dict[int, tuple] = {}
    for block in fn.blocks:
        if id(block) in joined:
            continue
        rank, at = 0, block
        while at is not None:
            for ins in at.instructions:
                places[id(ins)] = (id(block), rank)
                rank += 1
            at = follows.get(id(at))
    return places


def _uses(fn: ir.Function) -> dict[int, int]:
    """How many times each value (by id) is an operand in `fn`."""
    count: dict[int, int] = {}
    for block in fn.blocks:
        for ins in block.instructions:
            for op in _operands(ins):
                count[id(op)] = count.get(id(op), 0) + 1
    return count


def _operands(ins) -> list:
    if isinstance(ins, ir.PhiInstr):
        return [v for v, _ in ins.incomings]
    return list(ins.operands)


def _slots(fn: ir.Function) -> tuple[dict[int, list], dict[int, list]]:
    """The stores into and the loads from each alloca of `fn` (by the alloca's id); an alloca
    used otherwise (a pointer taken) is left out."""
    stores: dict[int, list] = {}
    loads: dict[int, list] = {}
    allocas = {id(i) for b in fn.blocks for i in b.instructions if isinstance(i, ir.AllocaInstr)}
    for block in fn.blocks:
        for ins in block.instructions:
            if isinstance(ins, ir.StoreInstr) and id(ins.operands[1]) in allocas:
                stores.setdefault(id(ins.operands[1]), []).append(ins)
                if id(ins.operands[0]) in allocas:
                    allocas.discard(id(ins.operands[0]))
            elif isinstance(ins, ir.LoadInstr) and id(ins.operands[0]) in allocas:
                loads.setdefault(id(ins.operands[0]), []).append(ins)
            else:
                for op in _operands(ins):
                    allocas.discard(id(op))
    stores = {k: v for k, v in stores.items() if k in allocas}
    loads = {k: v for k, v in loads.items() if k in allocas}
    return stores, loads


def _flagged(ins, flag: str) -> bool:
    return flag in getattr(ins, "flags", ())


def _is_constant(value, number: int) -> bool:
    return isinstance(value, ir.Constant) and value.constant == number


def _one_trip_loop(head, pre, preds: dict):
    """`(head, body, exit)` if `head`, entered from `pre`, is the header of a loop that runs
    its body once (`for i in range(1)` as numba lowers a ufunc of scalars: a phi of 0 from
    `pre`, `i < 1`, a body of one block back to it; O3 unrolls it), else None."""
    if not isinstance(head, ir.Block) or preds.get(id(head)) != 2 or len(head.instructions) != 3:
        return None
    phi, test, branch = head.instructions
    if not (isinstance(phi, ir.PhiInstr) and isinstance(branch, ir.ConditionalBranch)):
        return None
    start = [v for v, b in phi.incomings if b is pre]
    if len(start) != 1 or not _is_constant(start[0], 0):
        return None
    if getattr(test, "op", None) != "slt" or test.operands[0] is not phi:
        return None
    if not _is_constant(test.operands[1], 1):
        return None
    _, body, done = branch.operands
    back = body.terminator
    if not (isinstance(back, ir.Branch) and back.operands[0] is head and preds.get(id(body)) == 1):
        return None
    if preds.get(id(done)) != 1 or any(isinstance(i, ir.PhiInstr) for i in done.instructions):
        return None
    return head, body, done


def _settle_function(module: ir.Module, fn: ir.Function, optimized_reassoc: bool) -> None:
    uses = _uses(fn)
    stores, loads = _slots(fn)
    places = _regions(fn)
    region = lambda ins: places[id(ins)][0]  # noqa: E731
    # a load that reads back the product its slot's only store wrote, in the same region:
    # the product it stands for
    # (or copied through other slots so: `t6 = t5`)
    through: dict[int, ir.Instruction] = {}
    changed = True
    while changed:
        changed = False
        for key, (store, *more) in stores.items():
            value = store.operands[0]
            product = value if _is_product(value) else through.get(id(value))
            reads = loads.get(key, [])
            if more or len(reads) != 1 or product is None or uses.get(id(value)) != 1:
                continue
            (load,) = reads
            if id(load) in through or not region(load) == region(store) == region(product):
                continue
            if places[id(store)][1] < places[id(load)][1]:
                through[id(load)] = product
                changed = True
    new: dict[int, ir.Value] = {}
    for block in fn.blocks:
        k = 0
        while k < len(block.instructions):
            ins = block.instructions[k]
            replacement = None
            kept = optimized_reassoc and _flagged(ins, "reassoc")
            if ins.opname in ("fadd", "fsub") and _flagged(ins, "contract") and not kept:
                replacement = _fused(module, ins, uses, through, region)
            elif ins.opname == "fdiv" and _flagged(ins, "arcp"):
                replacement = _reciprocal(block, ins)
            if replacement is not None:
                new[id(ins)] = replacement
                block.instructions.remove(ins)
                k = block.instructions.index(replacement)
            k += 1
    for block in fn.blocks:
        for ins in block.instructions:
            if new:
                _replace_operands(ins, new)
            if not (optimized_reassoc and _flagged(ins, "reassoc")):
                _drop_choices(ins)


def _is_product(value) -> bool:
    return (
        isinstance(value, ir.Instruction) and value.opname == "fmul" and _flagged(value, "contract")
    )


def _product_of(value, ins, uses: dict, through: dict, region):
    """The product `value` is, if it is one that fuses into its only user `ins` (in its
    region)."""
    if id(value) in through:  # a load of a product's slot
        product = through[id(value)]
        same = region(value) == region(ins)
        return product if uses.get(id(value)) == 1 and same else None
    if _is_product(value) and region(value) == region(ins) and uses.get(id(value)) == 1:
        return value
    return None


def _fused(module: ir.Module, ins, uses: dict, through: dict, region):
    """`ins` (an fadd or fsub with `contract`) as an FMA of an operand's product, as O3's
    instruction selection fuses (the first operand's product first), or None."""
    if not isinstance(ins.type, (ir.FloatType, ir.DoubleType)):
        return None  # a vector operation of the translator's lanes: no products
    a, b = ins.operands
    builder = ir.IRBuilder(ins.parent)
    builder.position_before(ins)
    p = _product_of(a, ins, uses, through, region)
    if p is not None:
        x, y = p.operands
        c = builder.fneg(b) if ins.opname == "fsub" else b
        return builder.call(_fma_function(module, ins.type), [x, y, c])
    p = _product_of(b, ins, uses, through, region)
    if p is not None:
        if ins.opname == "fsub" and isinstance(a, ir.Constant) and _is_negative_zero(a):
            return None  # numba's negation of a product: a negation, as O3 keeps it
        x, y = p.operands
        x = builder.fneg(x) if ins.opname == "fsub" else x
        return builder.call(_fma_function(module, ins.type), [x, y, a])
    return None


def _is_negative_zero(c: ir.Constant) -> bool:
    try:
        v = float(c.constant)
    except (TypeError, ValueError):
        return False
    return v == 0.0 and np.signbit(v)


def _fma_function(module: ir.Module, ty: ir.Type) -> ir.Function:
    name = f"llvm.fma.{'f32' if isinstance(ty, ir.FloatType) else 'f64'}"
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(ty, [ty, ty, ty]), name)
    return fn


def _reciprocal(block, ins):
    """`x / c` (with `arcp`) for a float constant `c` whose reciprocal is a normal number:
    `x * (1 / c)`, as O3's instcombine rewrites it; else None."""
    x, c = ins.operands
    if not isinstance(c, ir.Constant) or not isinstance(c.type, (ir.FloatType, ir.DoubleType)):
        return None
    try:
        value = float(c.constant)
    except (TypeError, ValueError):
        return None
    dtype = np.float32 if isinstance(c.type, ir.FloatType) else np.float64
    with np.errstate(all="ignore"):
        r = dtype(1) / dtype(value)
    if not np.isfinite(r) or abs(r) < np.finfo(dtype).tiny:
        return None
    builder = ir.IRBuilder(block)
    builder.position_before(ins)
    return builder.fmul(x, ir.Constant(c.type, float(r)))


def _replace_operands(ins, new: dict) -> None:
    if isinstance(ins, ir.PhiInstr):
        if any(id(v) in new for v, _ in ins.incomings):
            ins.incomings = [(new.get(id(v), v), b) for v, b in ins.incomings]
        return
    ops = ins.operands
    if any(id(v) in new for v in ops):
        replaced = [new.get(id(v), v) for v in ops]
        ins.operands = type(ops)(replaced) if isinstance(ops, tuple) else replaced
        ins._clear_string_cache()


def _drop_choices(ins) -> None:
    flags = getattr(ins, "flags", None)
    if flags and CHOICES.intersection(flags):
        ins.flags = [f for f in flags if f not in CHOICES]
        ins._clear_string_cache()
    fastmath = getattr(ins, "fastmath", None)
    if fastmath and CHOICES.intersection(fastmath):
        for f in CHOICES.intersection(fastmath):
            fastmath.discard(f)
        ins._clear_string_cache()
