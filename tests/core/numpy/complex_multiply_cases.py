"""The operands of `test_arithmetic.py`'s complex products, shared with
`record_complex_multiply.py`: each broadcast pattern XLA's CPU loops round differently (the
right operand broadcast along the minor axis swaps the operands), in complex64 and complex128."""

import numpy as np

SHAPES = {
    "arr*arr": ((40,), (40,)),
    "arr*0d": ((40,), ()),
    "0d*arr": ((), (40,)),
    "mat*col": ((4, 10), (4, 1)),
    "mat*row": ((4, 10), (1, 10)),
    "col*row": ((4, 1), (1, 10)),
}


def operands(name: str, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """The two operands of case `name`, drawn from a fixed seed."""
    rng = np.random.default_rng(sorted(SHAPES).index(name))
    return tuple((rng.normal(size=s) + 1j * rng.normal(size=s)).astype(dtype) for s in SHAPES[name])
