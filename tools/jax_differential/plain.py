"""A case's value as plain picklable data that both sides' processes can build."""

from __future__ import annotations

import re
from typing import Any


def plain(x: Any, ns: dict[str, Any], depth: int = 0) -> Any:
    """`x` as picklable plain data that both processes can build."""
    import numpy as np

    if depth > 20:
        return ("deep",)
    if x is None:
        return ("py", "NoneType", None)
    for base in (bool, int, float, complex, str, bytes):
        if isinstance(x, base):  # JAX's TypedFloat/TypedInt are Python scalars too
            return ("py", base.__name__, base(x))
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return ("namedtuple", type(x).__name__, [plain(v, ns, depth + 1) for v in x])
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, [plain(v, ns, depth + 1) for v in x])
    if isinstance(x, dict):
        return (
            "dict",
            type(x).__name__,
            [(plain(k, ns, depth + 1), plain(v, ns, depth + 1)) for k, v in x.items()],
        )
    if isinstance(x, (np.ndarray, np.generic)):
        return ("np", str(x.dtype), x.shape, np.array(x))
    dtype = getattr(x, "dtype", None)
    if dtype is not None and hasattr(x, "shape"):
        if "key" in str(dtype):
            return ("key", str(dtype), tuple(x.shape), np.array(ns["random"].key_data(x)))
        try:
            vals = np.array(x)
        except Exception as e:  # noqa: BLE001
            return ("arr?", str(dtype), tuple(x.shape), repr(e))
        if vals.dtype == object:  # ShapeDtypeStruct and other array descriptions
            return ("obj", type(x).__name__, repr(x))
        return ("arr", str(dtype), tuple(x.shape), bool(getattr(x, "weak_type", False)), vals)
    if type(x).__name__ in ("DictKey", "SequenceKey", "GetAttrKey", "FlattenedIndexKey"):
        return ("keyentry", type(x).__name__, repr(x))
    return ("obj", type(x).__name__, re.sub(r" at 0x[0-9a-f]+", "", repr(x)))
