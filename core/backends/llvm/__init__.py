"""The LLVM back end: the loop nests of generated kernels written as LLVM IR by numbax itself.

numba spends 18-27x LLVM's own time on a generated kernel (`bench/llvm_floor.py`): typing every
statement, lowering each to generic IR (array structs, overflow-checked ranges, reference
counts), then LLVM cleaning that up. Most of a kernel is its loop nests, and those are written
in a small closed language (`core/jit/codegen.py`, `core/jit/loops.py`): flat offsets,
`rt.ld`/`rt.st`, scalar arithmetic, casts, math calls. This package writes those nests as LLVM
IR directly and leaves the rest of the kernel (allocations, library calls, the return of
arrays to Python) to numba, which then compiles a short shell, or lowers that shell too:

    rewrite.py    which nests of a kernel's source leave numba: types the kernel's straight-line
                  code, replaces each serial nest it can lower by one call, declared at module
                  level (`_ln0, ... = ln.load(key, spec)`); anything else stays numba code.
    translate.py  a nest as an LLVM function over data pointers and int64 sizes: types from
                  numba's typing context, operators and casts lowered by numba's own
                  implementations (so results are numba's, bit for bit), loops, `if`, loads
                  and stores ours.
    vecmath.py    the IR of the scalar calls of a nest (`vm.*` math kernels as numba compiles
                  `core/jit/vecmath.py`, numpy's functions and casts, `rt.*`): the table of
                  calls, over `float_ir.py` (float IR with numba's flags), `vm_f32.py`,
                  `vm_trig.py` (glibc's sinf/cosf/tanf), `vm_f64.py`, `numpy_ir.py` and
                  `runtime_ir.py` (`core/jit/runtime.py`'s functions).
    complex_ir.py complex products and quotients (`rt.cmul`, `rt.cdiv`) on numba's pairs of
                  floats, as XLA rounds them.
    settle.py     the fast-math choices (FMA contraction, reciprocals) made in the IR and the
                  flags removed, so that the quick tier and O3 compute the same bits.
    nests.py      at module execution: compiles a kernel's nests as one module with numba's
                  code generator (O3, its target machine), caches the object code on disk,
                  fills the slots through which the kernel calls them.
    shells.py     a whole serial kernel (its shell and nests) as one LLVM library with a
                  CPython entry point the driver calls directly: no numba compile at all.
    routines.py   the library functions (`core/backends/numba/library`) from their own
                  source, in numba's calling convention: called through the same slots.

Routines are always on (`core/backends/numba/library/entry.load` asks for them first).
`config.jit_lean_loops` (`NUMBAX_JIT_LEAN_LOOPS`) turns the nests on; `core/jit/codegen.lean` is the
hook; `config.jit_lean_shells` (`NUMBAX_JIT_LEAN_SHELLS`, on by default) turns on shells, which
`core/jit/program.py` asks for first. Threaded (`prange`) nests are lean nests too: the nest's
function packs its parameters and runs the loop's iterations in numba's chunks on numba's
threading layer or numbax's pool (`parallel.py`, `pool.py`, no parfor compile); a kernel
is rewritten only when all its threaded nests are, so its source names no `prange` and it is
compiled (and made a shell) like a serial one; otherwise it stays numba's, compiled in its
serial form on the cold path (`core/jit/program._serial`).

    parallel.py   `for i in prange(...)` in numba's parfor's pieces (numba's scheduler) on an
                  outlined loop body, run by numbax's pool (or `numba_parallel_for`).
    pool.py       numbax's thread pool: persistent workers that spin briefly, then sleep on a
                  futex, and take pieces from one atomic counter with the calling thread.
"""
