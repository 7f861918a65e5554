"""`jnp.einsum_path`'s second result: the report of a contraction path that JAX's opt_einsum
gives (``PathInfo``): its FLOP counts, speedup, largest intermediate, one line per pairwise
contraction with the BLAS kernel it maps to, and the attributes users read (``speedup``,
``opt_cost``, ``naive_cost``, ``largest_intermediate``, ``contraction_list``, ``path``, ...).

The numbers follow opt_einsum's cost model: a contraction over the labels ``L`` of ``n`` terms
costs ``prod(sizes of L) * max(1, n - 1)`` FLOPs, one more factor when it sums a label away.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

# opt_einsum's symbols: the letters, then characters from U+00C0 on
_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _symbol(i: int) -> str:
    return _SYMBOLS[i] if i < len(_SYMBOLS) else chr(i + 140)


def _unused(used: str, count: int) -> str:
    """The first ``count`` symbols not in ``used``."""
    out, i = [], 0
    while len(out) < count:
        if _symbol(i) not in used:
            out.append(_symbol(i))
        i += 1
    return "".join(out)


def einsum_terms(subscripts: str, shapes: Sequence[tuple[int, ...]]) -> tuple[list[str], str]:
    """The input terms and output of ``subscripts`` with ``...`` spelled out in unused
    symbols (the last ones of as many as the largest rank) and an implicit output made
    explicit (the ellipsis' labels, then the labels seen once, sorted), as opt_einsum's
    ``parse_einsum_input`` gives them.

    Args:
      subscripts: an einsum equation such as ``"ab...,bc...->ac..."``.
      shapes: the operands' shapes.

    Returns:
      ``(terms, output)``: one label string per operand and the output's labels.
    """
    subscripts = subscripts.replace(" ", "")
    lhs, arrow, out = subscripts.partition("->")
    terms = lhs.split(",")
    longest = 0
    if "." in subscripts:
        used = subscripts.replace(",", "").replace("->", "").replace(".", "")
        spare = _unused(used, max((len(s) for s in shapes), default=0))
        for i, term in enumerate(terms):
            if "..." in term:
                count = max(len(shapes[i]), 1) - (len(term) - 3) if shapes[i] else 0
                longest = max(longest, count)
                terms[i] = term.replace("...", spare[len(spare) - count :] if count else "")
        ellipsis = spare[len(spare) - longest :] if longest else ""
    else:
        ellipsis = ""
    if arrow:
        return terms, out.replace("...", ellipsis)
    flat = "".join(terms)
    once = sorted(c for c in set(flat) if flat.count(c) == 1 and c not in ellipsis)
    return terms, ellipsis + "".join(once)


def label_sizes(subscripts: str, shapes: Sequence[tuple[int, ...]]) -> dict[str, int]:
    """Each label's size (a size 1 broadcasts), in order of first appearance.

    Raises:
      ValueError: a label's sizes differ (opt_einsum's message, which JAX gives).
    """
    sizes: dict[str, int] = {}
    for i, (term, shape) in enumerate(zip(einsum_terms(subscripts, shapes)[0], shapes)):
        for c, d in zip(term, shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = int(d)
            elif d not in (1, sizes[c]):
                raise ValueError(
                    f"Size of label '{c}' for operand {i} ({sizes[c]}) does not match previous "
                    f"terms ({d})."
                )
    return sizes


def _size(labels: Any, sizes: dict[str, int]) -> int:
    out = 1
    for c in labels:
        out *= sizes[c]
    return out


def _flops(labels: Any, sums: bool, n_terms: int, sizes: dict[str, int]) -> int:
    return _size(labels, sizes) * (max(1, n_terms - 1) + (1 if sums else 0))


def _blas(inputs: list[str], result: str, removed: frozenset, shapes: list) -> str | bool:
    """The BLAS kernel a pairwise contraction maps to (opt_einsum's classification), or
    ``False``."""
    if len(inputs) != 2:
        return False
    left, right = inputs
    for c in set(left + right):
        nl, nr = left.count(c), right.count(c)
        if nl > 1 or nr > 1 or nl + nr > 2 or nl + nr - 1 == int(c in result):
            return False
    if any(shapes[0][left.find(c)] != shapes[1][right.find(c)] for c in removed):
        return False  # a broadcast label
    if not removed:
        return "OUTER/EINSUM"
    k = len(removed)
    if left == right:
        return "DOT"
    if set(left) == set(right):
        return "DOT/EINSUM"
    if left[-k:] == right[:k] or left[:k] == right[-k:] or left[-k:] == right[-k:]:
        return "GEMM"
    if left[:k] == right[:k]:
        return "GEMM"
    if not set(left) - removed or not set(right) - removed:
        return "GEMV/EINSUM"
    return "TDOT"


class PathInfo:
    """The report of an einsum contraction path (opt_einsum's ``PathInfo``, which
    ``jax.numpy.einsum_path`` returns): ``print`` it for the table.

    Attributes:
      contraction_list: one ``(positions, labels summed away, "ab,bc->ac", remaining terms,
        BLAS kernel or False)`` per pairwise contraction.
      input_subscripts: the input terms, comma-separated (ellipses spelled out).
      output_subscript: the output's labels.
      path: the contraction path.
      indices: every label of the inputs.
      scale_list: the number of labels each contraction loops over.
      naive_cost: FLOPs of contracting everything at once (a ``Decimal``).
      opt_cost: FLOPs along the path (a ``Decimal``).
      speedup: ``naive_cost / opt_cost``.
      size_list: the number of elements of each contraction's result.
      size_dict: each label's size.
      shapes: the inputs' shapes.
      eq: ``"ab,bc->ac"``.
      largest_intermediate: the most elements of a contraction's result (a ``Decimal``).
    """

    def __init__(self, subscripts: str, shapes: Sequence[tuple[int, ...]], path: list) -> None:
        terms, output = einsum_terms(subscripts, shapes)
        sizes = label_sizes(subscripts, shapes)
        sets = [frozenset(t) for t in terms]
        indices = frozenset("".join(terms))
        self.input_subscripts = ",".join(terms)
        self.output_subscript = output
        self.path = path
        self.indices = indices
        self.size_dict = sizes
        self.shapes = [tuple(sizes[c] for c in t) for t in terms]
        self.eq = f"{self.input_subscripts}->{output}"
        inner = sum(len(s) for s in sets) - len(indices) > 0
        naive = _flops(indices, inner, len(terms), sizes)
        live, live_shapes, out_set = list(terms), [tuple(s) for s in shapes], frozenset(output)
        costs, self.scale_list, self.size_list, self.contraction_list = [], [], [], []
        for step, positions in enumerate(path):
            positions = tuple(sorted(positions, reverse=True))
            picked = [sets.pop(i) for i in positions]
            labels = frozenset().union(*picked)
            result_set = out_set.union(*sets) & labels
            removed = labels - result_set
            sets.append(result_set)
            costs.append(_flops(labels, bool(removed), len(positions), sizes))
            self.scale_list.append(len(labels))
            self.size_list.append(_size(result_set, sizes))
            picked_terms = [live.pop(i) for i in positions]
            picked_shapes = [live_shapes.pop(i) for i in positions]
            blas = _blas(picked_terms, "".join(result_set), removed, picked_shapes)
            joined = "".join(picked_terms)
            if step == len(path) - 1:
                result = output
            else:  # in the order the labels come in the operands (fewest transpositions)
                result = "".join(sorted(result_set, key=joined.find))
            live.append(result)
            live_shapes.append(
                tuple(
                    max(s[t.find(c)] for t, s in zip(picked_terms, picked_shapes) if c in t)
                    for c in result
                )
            )
            remaining = tuple(live) if len(live) <= 20 else None
            self.contraction_list.append(
                (positions, removed, ",".join(picked_terms) + "->" + result, remaining, blas)
            )
        self.naive_cost = Decimal(naive)
        self.opt_cost = Decimal(sum(costs))
        self.speedup = self.naive_cost / max(self.opt_cost, Decimal(1))
        self.largest_intermediate = Decimal(max(self.size_list, default=1))

    def __repr__(self) -> str:
        lines = [
            f"  Complete contraction:  {self.eq}\n",
            f"         Naive scaling:  {len(self.indices)}\n",
            f"     Optimized scaling:  {max(self.scale_list, default=0)}\n",
            f"      Naive FLOP count:  {self.naive_cost:.3e}\n",
            f"  Optimized FLOP count:  {self.opt_cost:.3e}\n",
            f"   Theoretical speedup:  {self.speedup:.3e}\n",
            f"  Largest intermediate:  {self.largest_intermediate:.3e} elements\n",
            "-" * 80 + "\n",
            f"{'scaling':>6} {'BLAS':>11} {'current':>22} {'remaining':>37}\n",
            "-" * 80,
        ]
        for scale, (_, _, current, remaining, blas) in zip(self.scale_list, self.contraction_list):
            rest = (
                "..." if remaining is None else ",".join(remaining) + "->" + self.output_subscript
            )
            width = max(0, 56 - max(22, len(current)))
            # a False kernel prints as 0, as opt_einsum's format of a bool does
            lines.append(f"\n{scale:>4} {format(blas, '>14')} {current:>22}    {rest:>{width}}")
        return "".join(lines)
