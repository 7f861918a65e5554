"""The back end's library functions (`core/backends/numba/library`): convolutions and pooling
of any size run one compiled function per algorithm and dtype, called by kernels whose source
holds no loops of their own, and a new process loads both from the disk cache."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import lax
from core.backends import numba as numba_backend
from core.backends.numba import library
from core.backends.numba.library import products
from core.config import config
from core.jit import codegen
from tests.core.jit.backends import split_kernels

_ROOT = Path(__file__).resolve().parents[4]
_DN = ("NHWC", "HWIO", "NHWC")
_rng = np.random.default_rng(0)


def _conv(x, w, strides, padding):
    return lax.conv_general_dilated(x, w, strides, padding, dimension_numbers=_DN)


def _check(f, *args):
    got = core.tree_util.tree_leaves(core.jit(f)(*args))
    want = core.tree_util.tree_leaves(f(*args))  # eager: numpy
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-4, atol=1e-4)


def test_convs_and_pools_of_other_sizes_reuse_one_compile():
    x = _rng.standard_normal((2, 9, 7, 3), dtype=np.float32)
    w = _rng.standard_normal((3, 3, 3, 4), dtype=np.float32)
    _check(lambda x, w: _conv(x, w, (1, 1), "SAME"), x, w)
    _check(lambda x: nn.max_pool(x, (2, 2), (2, 2)), x)
    before = library.stats()
    x2 = _rng.standard_normal((3, 12, 10, 5), dtype=np.float32)
    w2 = _rng.standard_normal((2, 3, 5, 6), dtype=np.float32)
    _check(lambda x, w: _conv(x, w, (2, 1), ((1, 0), (2, 1))), x2, w2)
    _check(lambda x: nn.max_pool(x, (3, 2), (1, 2), padding="SAME"), x2)
    assert library.stats() == before  # nothing compiled or loaded for the new sizes


def test_windows_of_scalars_and_vectors():
    """The library walks rows of the last leading axis: 0-d and 1-d operands still work."""
    y = np.arange(7, dtype=np.float32)

    def vector_max(y):
        return lax.reduce_window(y, -np.inf, lax.max, (3,), (2,), ((1, 1),))

    _check(lambda x: lax.reduce_window(x, -np.inf, lax.max, (), (), ()), np.float32(3.0))
    _check(lambda y: lax.reduce_window(y, 0.0, lax.add, (3,), (2,), ((1, 1),)), y)
    _check(core.grad(lambda y: vector_max(y).sum()), y)


def test_kernels_call_the_library_and_emit_no_loops():
    x = np.zeros((2, 8, 8, 3), np.float32)
    w = np.zeros((3, 3, 3, 4), np.float32)

    def f(x, w):
        y = _conv(x, w, (1, 1), "SAME")
        return lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    source = numba_backend.generated_source(core.make_jaxpr(f)(x, w).jaxpr)
    assert "lib.conv_forward__f4(" in source
    assert "lib.reduce_window__f4(" in source
    assert "lib.require('conv_forward__f4')" in source  # loaded before the kernel's code
    assert "for " not in source


def test_the_input_gradient_reads_the_reversed_kernel_without_a_copy():
    """The input gradient's kernel is JAX's `rev` of the forward's (K.., I, O) weights with I
    and O swapped: the library multiplies those weights as the transposed matrix they are and
    reads the taps in reverse (layout 1 in the call), so no weight-sized copy is made; a 3x2
    kernel with stride (2, 1) and uneven padding checks each axis's reversal, 1x1 images with
    16 -> 16 channels a y as large as the patch matrix (a ResNet's last layer)."""
    for xs, ws, strides, padding in (
        ((2, 5, 4, 8), (3, 3, 8, 16), (1, 1), "SAME"),
        ((2, 5, 4, 8), (3, 2, 8, 16), (2, 1), ((1, 0), (1, 1))),
        ((2, 1, 1, 16), (3, 3, 16, 16), (1, 1), "SAME"),
    ):
        x = _rng.standard_normal(xs, dtype=np.float32)
        w = _rng.standard_normal(ws, dtype=np.float32)
        grad = core.grad(lambda x, w, s=strides, p=padding: (_conv(x, w, s, p) ** 2).sum())
        # the constant-size reference of jit's code spells the shapes it allocates
        source = codegen.generate(core.make_jaxpr(grad)(x, w).jaxpr)
        assert "rt.empty((16, " not in source and "rt.empty((3, " not in source
        # conv_output_side's (nsp, n, c = O, o = I, layout 1, ...)
        assert "conv_output_side__f4(" in source and f", {ws[3]}, {ws[2]}, 1, " in source
        _check(grad, x, w)


def test_split_programs_serve_every_batch_size_with_the_same_kernels():
    w = _rng.standard_normal((3, 3, 3, 4), dtype=np.float32)

    def step(x, w):
        def loss(x, w):
            y = _conv(x, w, (2, 1), "SAME")
            return jnp.sum(nn.max_pool(y, (2, 2), (1, 1)) ** 2) + jnp.sum(nn.avg_pool(y, (2, 2)))

        return core.grad(loss, argnums=(0, 1))(x, w)

    xs = [_rng.standard_normal((b, 9, 7, 3), dtype=np.float32) for b in (3, 5)]
    three, five = (split_kernels(step, (x, w)) for x in xs)
    assert three == five
    assert any("lib.conv_" in source and "rt.ld(sz, " in source for source, _ in three)
    with config.override("jit_kernels", "many"):
        for x in xs:
            _check(step, x, w)


def test_grouped_convolutions_of_per_example_gradients_serve_every_batch_size():
    """Per-example gradients under vmap convolve with as many groups as the batch has items:
    the group count is a size of the kernel, not a constant of its source."""
    w = _rng.standard_normal((3, 3, 2, 4), dtype=np.float32)

    def per_example(x, w):
        def loss(w, xi):
            return (_conv(xi[None], w, (1, 1), "SAME") ** 2).sum()

        return core.vmap(core.grad(loss), in_axes=(None, 0))(w, x)

    xs = [_rng.standard_normal((b, 6, 5, 2), dtype=np.float32) for b in (3, 5)]
    three, five = (split_kernels(per_example, (x, w)) for x in xs)
    assert three == five
    assert any("lib.conv_forward__f4(" in source for source, _ in three)
    with config.override("jit_kernels", "many"):
        for x in xs:
            _check(per_example, x, w)


_CHILD = """
import json, numpy as np, core
from core import lax
from core.backends.numba import library
from core.jit import program
x = np.arange(2 * 11 * 3, dtype=np.float32).reshape(2, 11, 3) / 10
w = np.linspace(-1, 1, 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 2)
f = core.jit(lambda x, w: lax.conv_general_dilated(
    x, w, (2,), ((1, 2),), rhs_dilation=(2,), dimension_numbers=("NWC", "WIO", "NWC")))
out = np.asarray(f(x, w))
print(json.dumps(dict(lib=library.stats(), kernels=program.stats(), out=out.tolist())))
"""


_CLEAR = """
import json
from core.jit import clear_cache
clear_cache()
print(json.dumps({}))
"""


def _child(cache: Path, code: str = _CHILD, workers: int = 0) -> dict:
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(cache / "numbax"),
        NUMBA_CACHE_DIR=str(cache / "numba"),
        NUMBAX_JIT_WORKERS=str(workers),
        PYTHONPATH=str(_ROOT),
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.splitlines()[-1])


def _child_reference() -> np.ndarray:
    """What `_CHILD`'s (and `_KERNEL_FIRST`'s) jitted convolution computes, eagerly."""
    return np.asarray(
        lax.conv_general_dilated(
            np.arange(66, dtype=np.float32).reshape(2, 11, 3) / 10,
            np.linspace(-1, 1, 18, dtype=np.float32).reshape(3, 3, 2),
            (2,),
            ((1, 2),),
            rhs_dilation=(2,),
            dimension_numbers=("NWC", "WIO", "NWC"),
        )
    )


def test_a_new_process_loads_library_and_kernel_from_disk(tmp_path):
    first = _child(tmp_path)
    second = _child(tmp_path)
    # conv_forward, the conv_forward_items it calls for each part and the im2col they call,
    # run_parts running them, and conv_taps and copy_taps (the taps that read only padding)
    assert first["lib"]["compiled"] == 6
    assert second["lib"] == {"compiled": 0, "loaded": 6}
    assert second["kernels"]["compiled"] == 0  # the kernel's cached code found its symbol
    want = _child_reference()
    np.testing.assert_allclose(second["out"], np.asarray(want), rtol=1e-5)
    np.testing.assert_allclose(first["out"], second["out"])
    # all six are numbax's routines (core/backends/llvm/routines.py), none numba's
    assert len(list(tmp_path.glob("numbax/**/*.routine"))) == 6
    assert not list(tmp_path.glob("numba/library_*/*.nbxc"))
    _child(tmp_path, _CLEAR)  # a process that compiled nothing clears the library's files too
    assert not list(tmp_path.glob("numbax/**/*.routine"))
    assert _child(tmp_path)["lib"] == {"compiled": 6, "loaded": 0}


_POOLED = """
import json, numpy as np, core, nn
from core import lax
from core.backends.numba import library
from core.jit import program
x = np.arange(2 * 11 * 3, dtype=np.float32).reshape(2, 11, 3) / 10
w = np.linspace(-1, 1, 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 2)
f = core.jit(lambda x, w: nn.avg_pool(lax.conv_general_dilated(
    x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")), (2,), (2,)))
from core.jit import workers
workers.start(1)[0].wait_started()  # takes work at once (else only once started up)
out = np.asarray(f(x, w))
stats = dict(lib=library.stats(), kernels=program.stats())
program.wait_optimized()  # the first call's quick tier: the optimized twins reach the disk too
print(json.dumps(dict(stats, out=out.tolist())))
"""


def test_a_compile_worker_compiles_library_functions_in_parallel(tmp_path):
    """With a compile worker, a new kernel and the library functions it calls are compiled in
    both processes at once: this process takes the kernel first (its calls go through slots),
    the worker library functions from the back of the list (`reduce_window` first;
    `conv_forward` once the functions it calls are built, by either), and this
    process loads what the worker built from the disk cache before the kernel runs. The first
    process waits for its optimized code (the quick tier's twins, `program.wait_optimized`): a
    process that exits before they are built leaves them to the next one."""
    first = _child(tmp_path, _POOLED, workers=1)
    assert first["lib"]["loaded"] >= 1  # built by the worker
    assert first["lib"]["compiled"] + first["lib"]["loaded"] == 6
    x = np.arange(2 * 11 * 3, dtype=np.float32).reshape(2, 11, 3) / 10
    w = np.linspace(-1, 1, 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 2)
    y = lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))
    np.testing.assert_allclose(first["out"], np.asarray(nn.avg_pool(y, (2,), (2,))), atol=1e-6)
    assert _child(tmp_path, _POOLED)["lib"] == {"compiled": 0, "loaded": 6}


_KERNEL_FIRST = """
import json, numpy as np, core
from core import lax
from core.backends.numba.library import entry
from core.jit import program
events = []
load, build, shell = entry.load, program._load, program._shell
entry.load = lambda name, sig: (events.append("library " + name), load(name, sig))[1]
program._load = lambda *a: (events.append("kernel"), build(*a))[1]
program._shell = lambda *a: (events.append("kernel"), shell(*a))[1]
x = np.arange(2 * 11 * 3, dtype=np.float32).reshape(2, 11, 3) / 10
w = np.linspace(-1, 1, 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 2)
f = core.jit(lambda x, w: lax.conv_general_dilated(
    x, w, (2,), ((1, 2),), rhs_dilation=(2,), dimension_numbers=("NWC", "WIO", "NWC")))
out = np.asarray(f(x, w))
print(json.dumps(dict(events=events, out=out.tolist())))
"""


def test_a_kernel_compiles_before_the_library_functions_it_calls(tmp_path):
    """A kernel calls library functions through slots that loading fills, so it compiles (and
    links) before they exist: the program's compile takes its kernels first and loads the
    library functions after them (with workers, both at once), before the first run."""
    first = _child(tmp_path, _KERNEL_FIRST)
    assert first["events"][0] == "kernel"
    assert "library conv_forward" in first["events"][1:]
    want = _child_reference()
    np.testing.assert_allclose(first["out"], np.asarray(want), rtol=1e-5)
    second = _child(tmp_path, _KERNEL_FIRST)  # from the disk cache: the slots found again
    np.testing.assert_allclose(second["out"], first["out"])


def _on_threads(attr, n, x, w, out_shape, params):
    """Library function `attr` run on `n` threads of numba's pool (set on this thread)."""
    out = np.zeros(int(np.prod(out_shape)), np.float32)
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        library.entry.dispatcher(attr)(x.ravel(), w.ravel(), out, np.array(params, np.int64))
    finally:
        numba.set_num_threads(before)
    return out.reshape(out_shape)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba's pool has one thread")
def test_batch_split_between_threads_equals_one_thread():
    """7 items (8.3M multiply-adds, above `rt.workers`' threshold) split 4 + 3 between two
    workers, each with its own patch buffer: the same values as on one thread."""
    x = _rng.standard_normal((7, 16, 16, 16), dtype=np.float32)
    w = _rng.standard_normal((3, 3, 16, 32), dtype=np.float32)
    axes = [16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1]  # sizes, outs, kernel, ..., lo
    forward = [2, 7, 16, 16, 32, 1, 0, 0, *axes]
    one, two = (_on_threads("conv_forward__f4", n, x, w, (7, 16, 16, 32), forward) for n in (1, 2))
    np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-5)
    want = np.asarray(_conv(x, w, (1, 1), "SAME"))
    np.testing.assert_allclose(two, want, rtol=1e-4, atol=1e-4)
    # x (N, S.., C) @ w (C, K.., O), summed onto out[q] from y[q + k - 1]: the same conv.
    wt = np.ascontiguousarray(w.transpose(2, 0, 1, 3))
    one, two = (
        _on_threads("conv_output_side__f4", n, x, wt, (7, 16, 16, 32), [2, 7, 16, 32, 0, *axes])
        for n in (1, 2)
    )
    np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(two, want, rtol=1e-4, atol=1e-4)


def test_convs_with_weights_larger_than_a_chunk():
    """3x3x96x160 weights (138K elements, more than `conv.CHUNK`) on 2x2 outputs: every product
    takes the whole batch at once (not one per 38 items; the packing of the weights dominated
    such products), and the forward, the input gradient (output side) and the kernel gradient
    (accumulated over batch chunks before, one product now) equal numpy's."""
    x = _rng.standard_normal((40, 2, 2, 96), dtype=np.float32)
    w = _rng.standard_normal((3, 3, 96, 160), dtype=np.float32) / 30
    loss = lambda x, w: (_conv(x, w, (1, 1), "SAME") ** 2).sum()
    _check(lambda x, w: _conv(x, w, (1, 1), "SAME"), x, w)
    _check(core.grad(loss, argnums=(0, 1)), x, w)


def test_matrix_products_call_the_threaded_bands_through_their_slot():
    """`lib.dot` runs a large product's bands through the library function `gemm_bands` (one
    call through its slot): the kernel links none of its parallel code, and its module
    registers the slot and loads the function, so that a new process can load the kernel's
    cached machine code and run it."""
    a = _rng.standard_normal((256, 160)).astype(np.float32)  # 256 * 256 * 160 > 8M: bands
    f = core.jit(lambda a, b: jnp.tanh(a @ b))
    np.testing.assert_allclose(np.asarray(f(a, a.T)), np.tanh(a @ a.T), rtol=1e-5, atol=1e-5)
    source = f.lower(a, a.T).as_text()
    assert "lib.require('gemm_bands__f4')" in source
    assert library.requirements(
        "    lib.dot(x, y, o)\n", [np.dtype("float64"), np.dtype("i4")]
    ) == [
        "from core.backends.numba import library as lib",
        "lib.require('gemm_bands__f8')",
    ]
    out = np.zeros((256, 256), np.float32)
    products.bands(a, np.asfortranarray(a.T), out)
    np.testing.assert_allclose(out, a @ a.T, rtol=1e-5, atol=1e-4)
