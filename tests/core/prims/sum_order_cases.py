"""The cases of `sum_order_jax.json` (recorded by record_sum_order.py, read by
test_sum_order.py): float sums of 4096 elements or more, which XLA:CPU hands to YNNPACK."""

from __future__ import annotations

import numpy as np


def data(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values whose sums round in `dtype` (float64 too: 40-bit integers scaled by powers of two
    from 2**-48 to 2**-32), from integer arithmetic only, so both interpreters make them."""
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    m = (i * 2654435761 + 12345) % (1 << 40) - (1 << 39)
    v = m.astype(np.float64) * np.exp2((i * 31) % 17 - 48.0)
    return v.astype(dtype).reshape(shape)


def digest(a: np.ndarray) -> int:
    """A digest of every bit of `a` and their places."""
    u = a.view(np.uint32 if a.dtype.itemsize == 4 else np.uint64).ravel().astype(np.uint64)
    return int(np.sum(u * (np.arange(u.size, dtype=np.uint64) + 1)) % (1 << 61))


def _axes(axes):
    return None if axes is None else tuple(axes)


# form -> (numpy module, axes) -> the function of x; `None` axes: all of them
FORMS = {
    "sum": lambda np_, axes: lambda x: np_.sum(x, axis=_axes(axes)),
    "mean": lambda np_, axes: lambda x: np_.mean(x, axis=_axes(axes)),
    "sumsq": lambda np_, axes: lambda x: np_.sum(x * x, axis=_axes(axes)),
    "var": lambda np_, axes: lambda x: np_.var(x, axis=_axes(axes)),
    "norm": lambda np_, axes: lambda x: np_.linalg.norm(x, axis=_axes(axes)),
}

_SUMS = [
    # one axis: the whole run, just below and above the thresholds, odd sizes, tiles of 128 KB
    ((4096,), None),
    ((4097,), None),
    ((8191,), None),
    ((16384,), None),
    ((16385,), None),
    ((32768,), None),
    ((32769,), None),
    ((65537,), None),
    ((100003,), None),
    # the last axis, rows of runs; whole 2-D sums (one run, tiles of whole rows)
    ((128, 512), (1,)),
    ((64, 64), (1,)),
    ((7, 4099), (1,)),
    ((3, 50000), (1,)),
    ((128, 512), None),
    ((4096, 10), None),
    ((1000, 100), None),
    ((300, 300), None),
    # leading axes: rows of kept columns, tiles of rows
    ((64, 64), (0,)),
    ((128, 512), (0,)),
    ((300, 128), (0,)),
    ((1000, 128), (0,)),
    ((4096, 10), (0,)),
    ((8192, 64), (0,)),
    ((129, 513), (0,)),
    ((30, 30, 64), (0, 1)),
    # several axes, kept axes before and after, size-1 axes (BatchNorm statistics)
    ((32, 16, 16, 64), (0, 1, 2)),
    ((64, 1, 1, 128), (0, 1, 2)),
    ((40, 3, 50), (1,)),
    ((16, 16, 16), (0, 2)),
    ((16, 16, 16), (1, 2)),
    ((16, 16, 16), (0, 1)),
    ((5, 7, 9, 13), (1, 2, 3)),
    ((8, 8, 8, 8), (1, 3)),
    ((2, 4096), (0,)),
    ((6, 4096), (0,)),
]

CASES = [("sum", s, a, d) for d in ("float32", "float64") for s, a in _SUMS] + [
    (form, s, a, d)
    for d in ("float32", "float64")
    for form, s, a in [
        ("mean", (128, 784), None),
        ("mean", (32, 16, 16, 64), (0, 1, 2)),
        ("sumsq", (20000,), None),
        ("sumsq", (64, 1000), (1,)),
        ("var", (32, 16, 16, 64), (0, 1, 2)),
        ("var", (8192, 3), (0,)),
        ("norm", (64, 1000), (1,)),
        ("norm", (5000,), None),
    ]
]
# axes as lists, as JSON keeps them
CASES = [(f, s, None if a is None else list(a), d) for f, s, a, d in CASES]

# sums that tile over looped reduced axes, outer kept axes or a row wider than a tile: numbax
# tiles the run or rows of each call alone, which is not YNNPACK's split there (not matched yet)
UNMATCHED = [
    ("sum", [400, 3, 100], [0, 2], "float32"),
    ("sum", [2, 3, 40000], [0, 2], "float32"),
    ("sum", [8, 40000], [0], "float32"),
    ("sum", [64, 64, 64], [0, 2], "float32"),
    ("sum", [4, 300, 128], [1], "float64"),
]
