"""The numba back end's library: hand-written algorithms compiled once, called by kernels.

Convolutions and the windowed reductions are loops whose cost is in the sizes, not in the
code, so they are written once, generically (sizes, strides, paddings and dilations are run-time
parameters), compiled once per dtype and cached on disk like kernels, instead of being emitted
with every size a constant into each kernel (several seconds of LLVM time per convolution, and
again for every new shape). A lowering rule emits one call:

    lib.conv_forward__f4(x, w, out, (nsp, n, ...))

which `entry.caller` lowers to a call of the compiled function through its slot.

    entry.py     compiling, caching and registering library functions; the kernels' calls
    blocks.py    building blocks: segments of flat buffers, the matrix product, fill/copy loops
    conv.py      im2col + BLAS convolutions: forward (grouped), kernel gradient, output side,
                 each split between threads; `im2col`, shared by two of them
    taps.py      the box of kernel taps that read the input (the others read only padding)
    windows.py   reduce_window (sum/max/min) and the selections of max/min pooling
    fft.py       the discrete Fourier transform along an axis: mixed-radix passes, Bluestein
    products.py  `lib.dot`, the kernels' matrix product: one BLAS call, or `gemm_bands`
    bands.py     `lib.dot`'s threaded product: bands of rows or columns, one BLAS call each
    skinny.py    products with few rows (an RNN step's): dot products of rows, no BLAS
    parts.py     `run_parts`: the parts of the others' work on the threads (the one `prange`)
    exchange.py  pmap's compiled collectives: the device threads meet in native memory

Compiling these functions was most of a cold first call of a convolutional network (numba costs
0.1-0.2 s for the smallest function, 1-2 s for the large ones, two thirds of it typing and
lowering in Python). So numbax compiles them itself where it can: `entry.load` hands each
function to `core/backends/llvm/routines.py`, which writes the same source as LLVM (helpers
inlined, operators lowered by numba's own implementations, numba's calling convention) for
numba's code generator, 0.05-0.6 s a function; a function using something the translator does
not know (a `return` in a loop, a `prange` over arrays, an integer product, a complex dtype) is
compiled by numba as before. The library's code is therefore written in the subset both
understand (no `break`, `continue` or tuple-valued conditionals; `for` over `range`, `while`,
`prange` around calls; allocations with `rt.empty`/`rt.full`/`np.empty`). Besides, the library
keeps numba's share down: a function that several others use is a library function of its
own, compiled once and called through its slot (`im2col`, the taps' two functions,
`run_parts`), not a helper linked into each caller (which optimizes it and compiles it to
machine code again in every one); helpers compile once per argument types, not once per
constant a caller passes (`blocks.jit`);
library functions have neither a C nor a Python wrapper (callers use numba's calling
convention, `entry.call_native`); every matrix product is one function per dtype with the
operands' layouts as run-time flags (`blocks.product`); parameter vectors are unchecked
segments (`blocks.segment`), not slices.
"""

from __future__ import annotations

from core.backends.numba.library import bands, conv, exchange, fft, parts, skinny, windows  # noqa: F401  (registers the functions)
from core.backends.numba.library.entry import caller, precompile, require, requirements, stats
from core.backends.numba.library.products import dot

__all__ = ["dot", "precompile", "require", "requirements", "stats"]


def __getattr__(attr: str):
    """`lib.<name>__<dtype codes>`: the intrinsic calling that library function."""
    if "__" not in attr or attr.startswith("__"):
        raise AttributeError(attr)
    return caller(attr)
