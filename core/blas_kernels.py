"""Which kernels numpy's OpenBLAS multiplies with: its AVX2 ones on Zen 4.

numpy's OpenBLAS (a dynamic-arch build) picks its AVX-512 kernels (SkylakeX) on Zen 4, which
runs a 512-bit instruction as two 256-bit halves; its AVX2 kernels (Haswell, what it picks on
Zen 1-3) multiply faster there (one thread, SkylakeX -> Haswell: a 1024x128x512 sgemm
1316-1389 -> 1236-1309 us; train steps' CPU 5-9% less; bench/README.md, session 39), while
SkylakeX's small-matrix kernels beat Haswell's generic C ones. `prefer_avx2` switches the
library: its own initialization run again with `OPENBLAS_CORETYPE=Haswell` after its choice
(`gotoblas`) is cleared, SkylakeX's small-matrix kernels put into the Haswell table. numpy's
products use the same library, so numbax's compiled products (`core/jit/gemm.py`) and numpy's
have the same bits.

Switching while another thread multiplies in the library could corrupt that product (it mixes
the two tables' blocking sizes mid-call: one run in six of a test that multiplied on a second
thread), so it switches only when `threading` knows no thread but the caller: at `import core`
(before a program starts its threads: a tqdm bar's monitor, a data loader) or, failing that,
when the jit back end loads. A process that runs other threads at both moments (a Jupyter
kernel's) keeps the AVX-512 kernels; `OPENBLAS_CORETYPE=Haswell` set before Python starts gets
the AVX2 ones there (a user's `OPENBLAS_CORETYPE` is never overridden). Only ctypes and numpy's
files are used here: `import core` loads neither numba nor scipy.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import importlib.util
import os
import threading


def bundled_libraries(package: str, directory: str, pattern: str) -> list[str]:
    """The paths of the shared libraries a wheel bundles beside its package, sorted.

    Args:
      package: the package whose wheel bundles them ("numpy").
      directory: the folder beside the package ("numpy.libs").
      pattern: a file pattern in that folder ("*openblas*").

    Returns:
      The matching paths (empty if the package or the folder is not there).
    """
    spec = importlib.util.find_spec(package)
    roots = (spec.submodule_search_locations or []) if spec else []
    return [
        path
        for root in roots
        for path in sorted(glob.glob(os.path.join(os.path.dirname(root), directory, pattern)))
    ]


def numpy_openblas() -> str | None:
    """The path of the OpenBLAS bundled in numpy's wheel (`numpy.libs/*openblas*`), or None."""
    found = bundled_libraries("numpy", "numpy.libs", "*openblas*")
    return found[0] if found else None


@functools.cache
def amd_family_25() -> bool:
    """Whether this CPU is AMD's family 25 (Zen 3 and 4; of these OpenBLAS picks its AVX-512
    kernels on Zen 4 only), read from Linux's /proc/cpuinfo (elsewhere False)."""
    try:
        with open("/proc/cpuinfo") as f:
            fields = {}
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
                if not line.strip():
                    break
    except OSError:
        return False
    return fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"


def core_name(lib: ctypes.CDLL) -> str:
    """The kernels `lib` multiplies with, as OpenBLAS names them ("Haswell", "SkylakeX", ...);
    "" when it does not say."""
    try:
        name = lib.gotoblas_corename
    except AttributeError:
        return ""
    name.restype = ctypes.c_char_p
    return name().decode()


def prefer_avx2(lib: ctypes.CDLL) -> None:
    """Switches the dynamic-arch OpenBLAS `lib` from its SkylakeX kernels to its Haswell ones
    on Zen 4, unless the user chose its kernels (`OPENBLAS_CORETYPE`) or another thread is
    running (see the module's docstring). Nothing changes if the library lacks any symbol this
    needs, or when it runs other kernels already."""
    if "OPENBLAS_CORETYPE" in os.environ or not amd_family_25() or core_name(lib) != "SkylakeX":
        return
    if any(t is not threading.current_thread() for t in threading.enumerate()):
        return
    try:
        init = lib.gotoblas_dynamic_init
        chosen = ctypes.c_void_p.in_dll(lib, "gotoblas")
        ctypes.c_char.in_dll(lib, "gotoblas_HASWELL")
    except (AttributeError, ValueError):
        return
    before = chosen.value
    os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    try:
        _small_kernels(lib, "SKYLAKEX", "HASWELL")
        chosen.value = None
        init()
    finally:
        del os.environ["OPENBLAS_CORETYPE"]
        if core_name(lib) != "Haswell":
            chosen.value = before


def prefer_avx2_at_import() -> None:
    """`prefer_avx2` on numpy's OpenBLAS, as `import core` runs (a program's threads mostly
    start later)."""
    if not amd_family_25():
        return
    path = numpy_openblas()
    if path is None:
        return
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return
    prefer_avx2(lib)


# The small-matrix functions of an OpenBLAS kernel table (`gotoblas_<CORE>`): whether a product
# takes them (`permit`), and the kernels, which read their operands unpacked.
_SMALL = ("small_matrix_permit",) + tuple(
    f"small_kernel_{beta}{t}" for beta in ("", "b0_") for t in ("nn", "nt", "tn", "tt")
)

# The bytes of a kernel table searched (`_small_kernels`; numpy's OpenBLAS 0.3.31 has its `init`
# entry at 0x1798): the entries lie before it, and a value found twice changes nothing.
TABLE_BYTES = 0x1800


def _small_kernels(lib: ctypes.CDLL, source: str, target: str) -> None:
    """Puts the single and double precision small-matrix functions of OpenBLAS's kernel table
    `source` into table `target` (each entry found by its value, the address of the exported
    `<s|d>gemm_<function>_<TARGET>`; nothing changes unless every one is found once): Haswell's
    are generic C, SkylakeX's AVX-512 code that Zen 4 runs faster (the transformer's 64
    attention products `p @ v` of 64x64x32 each, one thread: 184 us a kernel with SkylakeX's,
    252 with Haswell's), while its large products run faster on Haswell's kernels."""
    try:
        table = ctypes.addressof(ctypes.c_char.in_dll(lib, f"gotoblas_{target}"))
        pairs = [
            (
                ctypes.cast(getattr(lib, f"{p}gemm_{f}_{target}"), ctypes.c_void_p).value,
                ctypes.cast(getattr(lib, f"{p}gemm_{f}_{source}"), ctypes.c_void_p).value,
            )
            for p in "sd"
            for f in _SMALL
        ]
    except (AttributeError, ValueError):
        return
    words = (ctypes.c_void_p * (TABLE_BYTES // 8)).from_address(table)
    where = {}
    for i, word in enumerate(words):
        where.setdefault(word, []).append(i)
    if any(len(where.get(old, ())) != 1 for old, _ in pairs):
        return
    for old, new in pairs:
        words[where[old][0]] = new
