"""The back ends of `jit`, one package each; `jit(..., backend=...)` picks one.

    numpy/   the reference back end: runs a jaxpr primitive by primitive with each primitive's
             numpy `impl` (the eager interpreter), so it needs no compiler.
    numba/   the compiled back end: the numba lowering rule of each primitive (registered with
             `register_lowering`, one module per primitive family under `numba/rules/`, mirroring
             `core/prims/`) and the narrow kernel-building context they write code through. The
             code generator that reads the rules and the compiler live in `core/jit/`.

Importing this package imports neither numba nor the lowering rules: `core.backends.numba`
loads its rules on the first lookup (the first `jit` compile), and the generator starts numba.
"""
