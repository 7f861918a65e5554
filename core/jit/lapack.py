"""LAPACK routines that generated kernels call directly (as `rt.lapack.<routine>_<dtype>`).

These are numba's own wrappers of scipy's LAPACK (`numba.np.linalg._LAPACK`, the functions
numba's `np.linalg.cholesky`, `inv`, `eigh`, `svd` and `qr` call), without numba's `np.linalg`
implementations around them: those raise `LinAlgError`s with formatted messages, copy through
`np.nditer` and assign arrays into slices, which made numba compile about 5 s of CPU for a
kernel holding one `np.linalg.cholesky` (0.25 s calling `potrf` directly). The kernels do what
numba's implementations do around the call (copies, zeroed triangles, the finiteness check), so
results are the same bits. An attribute (`potrf_float32`, `getrf_complex128`, ...) is made on
first use, so scipy's LAPACK loads only when a kernel needs it.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype
from numba.np.linalg import _LAPACK

_ROUTINES = {
    "potrf": "numba_xxpotrf",
    "getrf": "numba_xxgetrf",
    "getri": "numba_ez_xxgetri",
    "evd": "numba_ez_xxxevd",  # syevd / heevd
    "gesdd": "numba_ez_gesdd",
    "geqrf": "numba_ez_geqrf",
    "gqr": "numba_ez_xxgqr",  # orgqr / ungqr
}


def __getattr__(name: str):
    routine, _, dtype = name.partition("_")
    if routine not in _ROUTINES or not dtype:
        raise AttributeError(name)
    function = getattr(_LAPACK(), _ROUTINES[routine])(from_dtype(np.dtype(dtype)))
    globals()[name] = function
    return function
