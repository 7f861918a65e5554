"""`jax.typing`'s annotation types: `ArrayLike` (what jnp functions accept as an array) and
`DTypeLike` (what they accept as a dtype). Annotations only: nothing checks them at run time."""

from __future__ import annotations

from typing import Any

import numpy as np

from core.array import Array

ArrayLike = Array | np.ndarray | np.bool_ | np.number | bool | int | float | complex
DTypeLike = str | type[Any] | np.dtype
