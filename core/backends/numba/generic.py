"""Shape-generic kernels: sizes and literals that are a value here and a variable in the source.

Every kernel jit compiles, a kernel of a program split into kernels (`core/jit/partition.py`) or a
whole program compiled as one function, is compiled once for every program and batch size that
has it: its source names no size. Every size-derived integer the generator or a rule writes into
the source (a loop bound, an allocation's shape, a stride, a flat offset's multiplier, a block's
start) is a `Size`: an `int` with this program's value, which the generator's decisions (is this
axis 1, do two accesses walk alike, is this loop large enough for threads) read like any int,
and a source text, which is what an f-string writes. `Params.size(n)` makes one: in kernel mode
a fresh variable `n_<k>` that the kernel reads from its size argument (an int64 array the
program's driver passes, or bound to the one function), in the constant-size reference
(`codegen.generate`, which tests compare with) the plain int. Arithmetic between sizes and ints
builds the expression (`(n_0 * n_1)`), so strides and offsets computed from sizes stay
symbolic; 0 and 1 stay literals, as do values that decide structure (rank, which axes, dtypes,
static parameters), which the source spells out and so the kernel's key holds.

A size is never reused for an equal value of another origin: a batch of 32 on 32x32 images
must not make `n` of the batch and of the height one variable, or the kernel would not serve
batch 16. Each variable is bound to the value it was made for by the driver, so a kernel's
source is correct for every program that generates the same text.

Literals of the program (`Params.constant`) are arguments too: float ones `l_<k>` read from a
float64 array `lit`, int ones `m_<k>` from `sz`. A mean divides by a literal count (`1 / 32.`),
a negative index wraps around by a literal axis size, an optimizer's hyperparameters are
literals: a kernel holding them would serve one batch size or learning rate only. 0 and +-1,
non-finite values and bools stay constants (they decide what LLVM can fold away), and so do
the divisors of integer division and the amounts of shifts (a constant divisor becomes a
multiplication); a loaded constant in a loop costs what a literal does.
"""

from __future__ import annotations

import re

import numpy as np


class Size(int):
    """A size-derived int whose source text is `text` (an expression of size variables)."""

    text: str

    def __new__(cls, value: int, text: str) -> Size:
        obj = super().__new__(cls, value)
        obj.text = text
        return obj

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return self.text if not spec else format(int(self), spec)

    def __add__(self, other):
        return _combine(self, "+", other)

    def __radd__(self, other):
        return _combine(other, "+", self)

    def __sub__(self, other):
        return _combine(self, "-", other)

    def __rsub__(self, other):
        return _combine(other, "-", self)

    def __mul__(self, other):
        return _combine(self, "*", other)

    def __rmul__(self, other):
        return _combine(other, "*", self)

    def __floordiv__(self, other):
        return _combine(self, "//", other)

    def __rfloordiv__(self, other):
        return _combine(other, "//", self)

    def __mod__(self, other):
        return _combine(self, "%", other)

    def __rmod__(self, other):
        return _combine(other, "%", self)

    def __neg__(self):
        return _combine(0, "-", self)


_OPS = {
    "+": int.__add__,
    "-": int.__sub__,
    "*": int.__mul__,
    "//": int.__floordiv__,
    "%": int.__mod__,
}


def _combine(a, op: str, b):
    """`a op b` for ints of which at least one is a `Size`, its text simplified where one side
    is a neutral literal."""
    if not isinstance(a, int) or not isinstance(b, int) or isinstance(a, bool):
        return NotImplemented
    value = _OPS[op](int(a), int(b))
    sa, sb = isinstance(a, Size), isinstance(b, Size)
    if op == "*" and ((not sa and int(a) == 0) or (not sb and int(b) == 0)):
        return 0
    if op in ("*", "+") and not sa and int(a) == (1 if op == "*" else 0):
        return b
    if op in ("*", "//", "+", "-") and not sb and int(b) == (1 if op in ("*", "//") else 0):
        return a
    return Size(value, f"({a} {op} {b})")


_VARIABLE = re.compile(r"\b([nml])_(\d+)\b")
SIZE_DTYPE, CONSTANT_DTYPE = np.dtype(np.int64), np.dtype(np.float64)
# variable prefix -> the kernel argument it is read from: sizes and int literals from `sz`
# (int64), float literals from `lit` (float64)
_ARRAY = {"n": "sz", "m": "sz", "l": "lit"}


class Params:
    """The size and constant variables of one kernel's source (see the module docstring)."""

    def __init__(self, generic: bool):
        self.generic = generic
        self._vars: dict[str, list[tuple[int | float, np.dtype]]] = {"n": [], "m": [], "l": []}

    def _new(self, prefix: str, value, dtype) -> str:
        self._vars[prefix].append((value, np.dtype(dtype)))
        return f"{prefix}_{len(self._vars[prefix]) - 1}"

    def size(self, n: int, variable: bool = False) -> int:
        """`n` as the source should see it: a `Size` variable in kernel mode (kept if `n`
        already is one; 0 and 1 stay literals unless `variable`), the int `n` otherwise."""
        if isinstance(n, Size) or not self.generic or (int(n) in (0, 1) and not variable):
            return n
        return Size(int(n), self._new("n", int(n), SIZE_DTYPE))

    def shape(self, shape) -> tuple[int, ...]:
        """Each size of `shape` through `size`."""
        return tuple(self.size(n) for n in shape)

    def constant(self, value, dtype: np.dtype) -> str | None:
        """The variable holding the literal `value` of `dtype` in kernel mode, or None if it
        stays a constant of the source: in the constant-size reference, and for bools, complex
        numbers, 0, +-1, inf, nan and ints beyond int64."""
        dtype = np.dtype(dtype)
        if not self.generic or dtype.kind not in "fiu" or value in (0, 1, -1):
            return None
        if dtype.kind == "f":
            return self._new("l", float(value), dtype) if np.isfinite(value) else None
        if not -(1 << 63) <= int(value) < 1 << 63:
            return None
        return self._new("m", int(value), dtype)

    def finish(self, body: str) -> tuple[str, list[str], list[np.ndarray]]:
        """The kernel's `body` with the variables it uses renumbered in order of first use, the
        statements that load them (to put first) and the arrays that hold their values (the
        kernel's last arguments, `sz` then `lit`, each only if used).

        Variables made but never written into the source are dropped, so two kernels that
        differ only in such leftovers get one source.
        """
        if not self.generic:
            return body, [], []
        order: dict[str, dict[int, int]] = {p: {} for p in self._vars}
        for m in _VARIABLE.finditer(body):
            used = order[m.group(1)]
            used.setdefault(int(m.group(2)), len(used))
        body = _VARIABLE.sub(lambda m: f"{m.group(1)}_{order[m.group(1)][int(m.group(2))]}", body)
        loads, values = [], {"sz": [], "lit": []}
        for prefix, used in order.items():
            array = values[_ARRAY[prefix]]
            for new, old in enumerate(used):
                value, dtype = self._vars[prefix][old]
                load = f"rt.ld({_ARRAY[prefix]}, {len(array)})"
                if prefix != "n":
                    load = f"np.{dtype.name}({load})"
                loads.append(f"{prefix}_{new} = {load}")
                array.append(value)
        dtypes = {"sz": SIZE_DTYPE, "lit": CONSTANT_DTYPE}
        arrays = [_read_only(np.array(v, dtypes[name])) for name, v in values.items() if v]
        return body, loads, arrays


def argument_names(arrays: list[np.ndarray]) -> list[str]:
    """The names of the kernel's parameters that take `arrays` (see `Params.finish`)."""
    return ["sz" if a.dtype == SIZE_DTYPE else "lit" for a in arrays]


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a
