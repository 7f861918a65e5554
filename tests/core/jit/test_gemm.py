"""Matrix products of generated kernels (core/jit/gemm.py) against numpy: one BLAS call per
block of rows or columns, both operand layouts, every BLAS dtype, empty and k == 0 products,
and the same results, bit for bit, whether a product's bands run on one thread or several."""

import ctypes
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from llvmlite import binding as llvm

import core
import core.numpy as jnp
from core import blas_kernels
from core.backends.numba.library import bands, products
from core.jit import gemm

_TOL = {np.float32: 1e-4, np.float64: 1e-12, np.complex64: 1e-4, np.complex128: 1e-12}


@numba.njit
def _block(a, b, out, r0, r1, c0, c1):
    gemm.gemm_block(a, b, out, r0, r1, c0, c1)


def _operands(m, k, n, dtype, layouts, seed=0):
    rng = np.random.default_rng(seed)
    a, b = (
        rng.standard_normal(s) + (1j * rng.standard_normal(s) if dtype().dtype.kind == "c" else 0)
        for s in ((m, k), (k, n))
    )
    a, b = a.astype(dtype), b.astype(dtype)
    return tuple(np.asfortranarray(x) if lay == "F" else x for x, lay in zip((a, b), layouts))


@pytest.mark.parametrize("dtype", list(_TOL))
@pytest.mark.parametrize("layouts", ["CC", "CF", "FC", "FF"])
def test_a_block_is_that_block_of_the_product(dtype, layouts):
    a, b = _operands(37, 19, 23, dtype, layouts)
    want = a.astype(np.complex128) @ b
    out = np.full((37, 23), 7, dtype)
    _block(a, b, out, 5, 30, 3, 17)
    np.testing.assert_allclose(
        out[5:30, 3:17], want[5:30, 3:17], rtol=_TOL[dtype], atol=_TOL[dtype]
    )
    untouched = np.ones(out.shape, bool)
    untouched[5:30, 3:17] = False
    assert (out[untouched] == 7).all()


def _on_threads(n, fn, *args):
    """`fn(*args)` with the calling thread's share of numba's pool set to `n` threads."""
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        return fn(*args)
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize(
    ("shape", "plan"),
    [
        ((301, 211, 257), (2, 151, True)),  # 16.3M multiply-adds, odd sizes: 2 bands of rows
        ((129, 517, 263), (2, 132, False)),  # wider than tall: bands of columns
        ((1031, 131, 509), (4, 258, True)),  # 68.8M: 4 bands, the last narrower
        ((200, 300, 100), (1, 200, True)),  # 6M: below `PARALLEL_FLOPS`, one call
        ((128, 784, 128), (2, 64, True)),  # 12.8M, a short contraction: `SHORT_BAND`s
        ((150, 8192, 120), (1, 150, True)),  # 147M, but no second band of `BAND` rows
        ((256, 1024, 1100), (2, 550, False)),  # a long contraction: bands of `WIDE_BAND`
        ((64, 1024, 1024), (4, 256, False)),  # ... unless each packs fewer than `REPACKED`
        ((1024, 1024, 64), (4, 256, True)),
        ((300, 1024, 1000), (7, 143, False)),  # ... where two of them fit
    ],
)
@pytest.mark.parametrize("layouts", ["CC", "FC", "CF"])
def test_bands_cover_the_product_the_same_way_on_any_thread_count(shape, plan, layouts):
    m, k, n = shape
    assert bands.band_plan(m, k, n) == plan
    a, b = _operands(m, k, n, np.float64, layouts)
    results = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        out = np.full((m, n), np.nan)
        _on_threads(threads, products.bands, a, b, out)
        results.append(out)
    np.testing.assert_allclose(results[0], a @ b, rtol=1e-12, atol=1e-12)
    for out in results[1:]:
        np.testing.assert_array_equal(out, results[0])


@pytest.mark.parametrize(("m", "k", "n"), [(0, 3, 4), (3, 0, 4), (3, 4, 0), (1, 1, 1)])
def test_empty_products(m, k, n):
    a, b = _operands(m, k, n, np.float32, "CC")
    out = np.full((m, n), np.nan, np.float32)
    products.bands(a, b, out)
    np.testing.assert_array_equal(out, a @ b)


@pytest.mark.parametrize("shape", [(256, 300, 200), (32, 256, 2048)])
def test_jitted_products_agree_on_one_and_several_threads(shape):
    m, k, n = shape
    a, b = _operands(m, k, n, np.float32, "CC", seed=1)
    f = core.jit(lambda x, y: jnp.dot(x, y) * 0.5)
    want = (a.astype(np.float64) @ b) * 0.5
    several = np.asarray(f(a, b))
    one = _on_threads(1, lambda: np.asarray(f(a, b)))
    np.testing.assert_allclose(several, want, rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(one, several)


@pytest.mark.parametrize(
    ("shape", "slabs"),
    [
        ((128, 1024, 128), (2, 512)),  # 16.8M multiply-adds, no two bands: two slabs of k
        ((64, 4099, 64), (2, 2050)),  # the last slab shallower
        ((128, 1024, 512), (1, 1024)),  # bands instead
        ((128, 784, 128), (1, 784)),  # 12.8M, but a contraction shorter than `LONG_K`
        ((100, 100, 100), (1, 100)),  # below `PARALLEL_FLOPS`
    ],
)
@pytest.mark.parametrize("layouts", ["CC", "FC", "CF", "FF"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_slabs_of_the_contraction_the_same_way_on_any_thread_count(shape, slabs, layouts, dtype):
    m, k, n = shape
    assert bands.slab_plan(m, k, n) == slabs
    a, b = _operands(m, k, n, dtype, layouts)
    results = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        out = np.full((m, n), np.nan, dtype)
        _on_threads(threads, products.bands, a, b, out)
        results.append(out)
    want = a.astype(np.complex128) @ b
    np.testing.assert_allclose(results[0], want, rtol=_TOL[dtype], atol=_TOL[dtype] * k**0.5)
    for out in results[1:]:
        np.testing.assert_array_equal(out, results[0])


# CPUs (LLVM's names) where numpy's OpenBLAS picks its AVX-512 kernels and numbax its AVX2 ones.
_AVX2_FASTER = ("znver4",)
_SWITCHES = llvm.get_host_cpu_name() in _AVX2_FASTER and "OPENBLAS_CORETYPE" not in os.environ


def test_the_avx2_kernels_where_they_multiply_faster():
    """On Zen 4 numpy's dynamic-arch OpenBLAS picks its SkylakeX kernels; numbax switches it
    to its Haswell ones (`core/blas_kernels.py`), which numpy's own products then use too: a
    jitted product has numpy's bits, and the float64 product's values."""
    if not _SWITCHES:
        pytest.skip("not a CPU of _AVX2_FASTER, or the user chose OpenBLAS's kernels")
    if not gemm.blas_core():
        pytest.skip("not an OpenBLAS that names its kernels")
    assert gemm.blas_core() == "Haswell"
    lib = gemm._LOADED[0]  # its small-matrix kernels are SkylakeX's (`_small_kernels`)
    table = ctypes.addressof(ctypes.c_char.in_dll(lib, "gotoblas_HASWELL"))
    entries = list((ctypes.c_void_p * (blas_kernels.TABLE_BYTES // 8)).from_address(table))
    small = lib.sgemm_small_kernel_b0_nn_SKYLAKEX, lib.sgemm_small_kernel_b0_nn_HASWELL
    assert [ctypes.cast(f, ctypes.c_void_p).value in entries for f in small] == [True, False]
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 96, 80), dtype=np.float32)
    got = np.asarray(core.jit(lambda a, b: a @ b.T)(a, b))
    np.testing.assert_array_equal(got, a @ b.T)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.T, rtol=1e-5, atol=1e-4)


def test_the_users_openblas_coretype_is_kept():
    """`OPENBLAS_CORETYPE` set by the user keeps the kernels it names."""
    if llvm.get_host_cpu_name() not in _AVX2_FASTER:
        pytest.skip("not a CPU of _AVX2_FASTER")
    code = "import core; from core.jit import gemm; print(gemm.blas_core())"
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() in ("SkylakeX", ""), out.stderr


# A thread multiplying in numpy's OpenBLAS (checked against float64), started before or after
# `import core`, while the main thread imports core and loads the back end; prints the wrong
# products' errors, the kernels after `import core` and after the back end loads, and whether
# numba had loaded at `import core`.
_MULTIPLY_WHILE_LOADING = """
import ctypes, json, sys, threading
import numpy as np
a, b = np.random.default_rng(0).standard_normal((2, 512, 512), dtype=np.float32)
want, stop, started, wrong = a.astype(np.float64) @ b, threading.Event(), threading.Event(), []
def multiply():
    while not stop.is_set():
        got = a @ b
        started.set()
        if not np.allclose(got, want, rtol=1e-4, atol=1e-3):
            wrong.append(float(np.abs(got - want).max()))
thread = threading.Thread(target=multiply)
if sys.argv[1] == "before":
    thread.start()
    started.wait()
import core
from core import blas_kernels
at_import = blas_kernels.core_name(ctypes.CDLL(blas_kernels.numpy_openblas()))
numba = "numba" in sys.modules
if sys.argv[1] == "after":
    thread.start()
    started.wait()
from core.jit import gemm
stop.set()
thread.join()
print(json.dumps([wrong, at_import, gemm.blas_core(), numba]))
"""


@pytest.mark.parametrize("thread", ["before", "after"])
def test_a_product_on_another_thread_is_right_and_the_kernels_switch_when_alone(thread):
    """Switching OpenBLAS's kernels while another thread multiplies could corrupt that product
    (it did in one run of six before the check): with a thread multiplying from before `import
    core` the kernels stay; with one started after it (a tqdm bar's monitor, a data loader)
    `import core` has switched them already, without loading numba."""
    out = subprocess.run(
        [sys.executable, "-c", _MULTIPLY_WHILE_LOADING, thread], capture_output=True, text=True
    )
    wrong, at_import, loaded, numba = json.loads(out.stdout or "null") or [None] * 4
    assert (wrong, numba) == ([], False), out.stderr
    if not (_SWITCHES and gemm.blas_core()):
        assert at_import == loaded == gemm.blas_core()
    else:
        want = "SkylakeX" if thread == "before" else "Haswell"
        assert at_import == loaded == want
