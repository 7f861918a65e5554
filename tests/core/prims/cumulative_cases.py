"""The cases of `test_cumulative_order.py`, shared with `record_cumulative.py`: cumsum and
cumprod of every float kind in both directions, over axes of at most 16 elements (one block),
17 (a partial block), 256 (blocks of blocks) and 4097 (three levels), along the first, middle
and last axis, with -0.0 first (XLA folds from +0.0). `operand` makes the same input in numbax's
test and under JAX."""

import ml_dtypes
import numpy as np

DTYPES = ["float32", "float64", "complex64", "float16", "bfloat16"]
SHAPES = [((5,), 0), ((17,), 0), ((4097,), 0), ((33, 3), 0), ((2, 256), 1), ((3, 20, 2), 1)]
# under jit (each case is a kernel to compile): float32 on two shapes, one shape and
# operation of each other dtype (16-bit floats take `core/jit/narrow.py`'s path)
JIT = {
    "float32": [
        ("cumsum", (4097,)),
        ("cumprod", (4097,)),
        ("cumsum", (3, 20, 2)),
        ("cumprod", (3, 20, 2)),
    ],
    "float64": [("cumsum", (4097,))],
    "complex64": [("cumsum", (3, 20, 2))],
    "float16": [("cumsum", (4097,))],
    "bfloat16": [("cumprod", (3, 20, 2))],
}


def cases():
    """(name, dtype, shape, axis, reverse, op) for every case."""
    return [
        (f"{op}-{dtype}-{'x'.join(map(str, shape))}-{axis}-{rev}", dtype, shape, axis, rev, op)
        for dtype in DTYPES
        for shape, axis in SHAPES
        for rev in (False, True)
        for op in ("cumsum", "cumprod")
        if not (op == "cumprod" and dtype == "complex64")  # XLA's complex product differs
    ]


def operand(name: str, dtype: str, shape: tuple, op: str) -> np.ndarray:
    """The input of case `name`: values in [0, 1) (products: within 1% of 1)."""
    rng = np.random.RandomState(sum(map(ord, name)))
    x = rng.rand(*shape)
    if dtype == "complex64":
        x = x + 1j * rng.rand(*shape)
    if op == "cumprod":
        x = 1 + (x - 0.5) * 0.02
    x = x.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    if op == "cumsum":
        x.flat[0] = -0.0
    return x
