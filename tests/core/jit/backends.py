"""Runs a function under `jit` with numba and with the numpy backend and compares the results;
lists the kernels a program split into kernels compiles."""

import numpy as np

import core
from core.config import config
from core.jit import codegen, program


def align(got, want, axis):
    """`got` with each vector along `axis` multiplied by the unit scalar (sign or phase) that
    best matches `want`: eigen- and singular vectors are only unique up to one."""
    dot = np.sum(got * np.conj(want), axis=axis, keepdims=True)
    return got * np.where(dot == 0, 1, np.conj(dot) / np.maximum(np.abs(dot), 1e-30))


def compare(f, *args, vectors=None, rtol=1e-5, atol=1e-5):
    """Jits `f` with numba and with numpy (x64 enabled, so float64 inputs stay float64) and
    checks every output leaf's shape, dtype and values; `vectors` maps leaf positions to the axis
    along which their vectors run (compared up to sign or phase). Returns the numba leaves."""
    with core.enable_x64():
        got = core.tree_util.tree_leaves(core.jit(f)(*args))
        want = core.tree_util.tree_leaves(core.jit(f, backend="python")(*args))
    got, want = [np.asarray(x) for x in got], [np.asarray(x) for x in want]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), i
        if vectors and i in vectors:
            g = align(g, w, vectors[i])
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"leaf {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"leaf {i}")
    return got


def split_kernels(f, args) -> list[tuple[str, tuple]]:
    """The (source, argument types) of each kernel of `f`'s program on `args`, split into
    kernels (shape-generic: equal lists at two batch sizes mean nothing new to compile)."""
    jaxpr = core.make_jaxpr(f)(*args).jaxpr
    with config.override("jit_kernels", "many"):
        split = program.split(jaxpr)
    out = []
    for kj in split.kernels:
        source, extra = codegen.generate_generic(kj)
        out.append((source, tuple(codegen.in_types(kj, extra))))
    return out
