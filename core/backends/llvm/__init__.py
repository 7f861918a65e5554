"""The direct-LLVM back end: kernels' loop nests translated into LLVM IR with llvmlite, without
numba's typing and lowering (issue 14: numba costs 18-27x LLVM's own compile time).

    vecmath.py   the IR of every scalar function call a loop body makes (`vm.exp_f32`,
                 `np.sqrt`, `rt.idiv`, casts, ...), bit for bit what numba compiles.
"""
