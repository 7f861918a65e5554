"""Lean loop nests (core/backends/llvm) against the numba-only kernels: the same results, bit for
bit, over a table of primitives and fusion patterns; nests the translator does not lower stay
numba code; one compiled kernel serves other sizes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.backends.llvm import nests, translate
from core.backends.llvm.rewrite import rewrite
from core.config import config

RNG = np.random.default_rng(0)
F32 = RNG.standard_normal((6, 37)).astype(np.float32)
G32 = RNG.standard_normal((6, 37)).astype(np.float32)
F64 = RNG.standard_normal((5, 9))
I32 = RNG.integers(-1000, 1000, (4, 33)).astype(np.int32)
J32 = RNG.integers(-7, 8, (4, 33)).astype(np.int32)  # zeros included: division by zero
U32 = RNG.integers(0, 2**32, (4, 33), dtype=np.uint64).astype(np.uint32)
SPECIAL = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 1e-40, 3e38], np.float32)


def _rows(x):
    return jnp.sum(x, axis=1)


CASES = {
    "arith": (lambda x, y: x * y + x / (y + 2.0) - 1.5, (F32, G32)),
    "compare_select": (lambda x, y: jnp.where(x > y, x, -y) * (x <= 0.5), (F32, G32)),
    "abs_sqrt_neg": (lambda x: jnp.sqrt(jnp.abs(x)) - x, (F32,)),
    "max_min_nan": (lambda x: jnp.maximum(x, 0.5) + jnp.minimum(x, -0.5), (SPECIAL,)),
    "isfinite_floor": (lambda x: jnp.where(jnp.isfinite(x), jnp.floor(x), 7.0), (SPECIAL,)),
    "broadcast_bias": (lambda x, b: x + b[None, :] * 2.0, (F32, F32[0])),
    "transpose": (lambda x: x.T * 3.0, (F32,)),
    "row_sum": (_rows, (F32,)),
    "col_sum": (lambda x: jnp.sum(x * x, axis=0), (F32,)),
    "full_sum": (lambda x: jnp.sum(x) * 2.0, (F32,)),
    "row_max": (lambda x: jnp.max(x, axis=1), (F32,)),
    "argmax": (lambda x: jnp.argmax(x, axis=1), (F32,)),
    "mean_var": (lambda x: jnp.var(x, axis=-1) + jnp.mean(x), (F32,)),
    "float64": (lambda x: x * 1.0000001 + jnp.sqrt(x * x), (F64,)),
    "int_wrap": (lambda a, b: a * a * a + b - 7, (I32, J32)),
    "int_div_rem": (lambda a, b: (a // b) + (a % b) * 3, (I32, J32)),
    "int_div_const": (lambda a: a // 7 + a % 5 - a // -3, (I32,)),
    "int_shift_bits": (lambda a, b: (a << 3) ^ (a >> 2) & (b | 5), (I32, J32)),
    "uint_ops": (lambda u: (u * np.uint32(2654435761)) >> 7 | (u + np.uint32(1)), (U32,)),
    "casts": (
        lambda x: (x * 100).astype(jnp.int32).astype(jnp.float32) + (x > 0).astype(jnp.float32),
        (F32,),
    ),
    "float_to_uint8": (lambda x: jnp.clip(x * 50 + 100, 0, 255).astype(jnp.uint8), (F32,)),
    "bool_logic": (lambda x, y: ((x > 0) & (y < 0)) | ~(x > y), (F32, G32)),
    "slice_pad_concat": (
        lambda x: jnp.concatenate([x[:, 1:], jnp.pad(x[:, :1], ((0, 0), (0, 0)))], axis=1) * 2,
        (F32,),
    ),
    "iota_mask": (lambda x: x * (jnp.arange(37)[None, :] < 20), (F32,)),
    "cumsum": (lambda x: jnp.cumsum(x, axis=1), (F32,)),
    "softmax": (lambda x: core.nn.softmax(x, axis=-1), (F32,)),
    "relu_grad": (core.grad(lambda x: jnp.sum(jnp.maximum(x, 0.0) ** 2)), (F32,)),
    "integer_pow": (lambda x: x**3 + lax.integer_pow(x, -2), (F32,)),
    "dot_then_bias": (lambda x, w: jnp.maximum(x @ w + 1.0, 0.0), (F32, G32.T.copy())),
}


# Float sums (`vm.radd`) over a loop: a lean nest folds them in the lanes of
# `translate.LANES` (the same bits in both compile tiers), a numba kernel in the order LLVM's
# vectorizer picks for its reassociable adds: within a few float32 ulps, not bit for bit.
REASSOCIATED = {"softmax", "full_sum", "mean_var"}


def _run(f, args, lean: bool):
    """`f` jitted afresh with lean nests on or off: its output leaves and kernel source."""
    with config.override("jit_lean_loops", lean):
        jitted = core.jit(lambda *a: f(*a))
        out = [np.asarray(x) for x in core.tree_util.tree_leaves(jitted(*args))]
        source = jitted.lower(*args).compile().as_text()
    return out, source


@pytest.mark.parametrize("name", sorted(CASES))
def test_lean_equals_numba(name):
    f, args = CASES[name]
    want, plain = _run(f, args, False)
    got, source = _run(f, args, True)
    assert "ln.load" not in plain
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        if name in REASSOCIATED:
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-9)
        else:
            np.testing.assert_array_equal(g, w)  # bit for bit: the same operations, same flags
    # argmax's and cumsum's nests index arrays as numba does (`o2[i, j] = p`): flattened into
    # `rt.ld`/`rt.st` by the rewrite, they are lowered too
    assert "ln.load" in source


@pytest.mark.parametrize(
    "f, args",
    [
        (lambda x: x + 1.0, (F32[0, :1],)),
        (lambda x, y: (x * y - x / (y + 2.0), jnp.sum(x)), (F32[:1, :1], G32[:1, :1])),
        (lambda a, b: a // b + a % b * 3, (np.int32(-7), np.int32(2))),
        (lambda c: (c + 1, c.astype(jnp.float32) * 0.5), (np.int64(41),)),
    ],
)
def test_element_code_without_loops_leaves_numba(f, args):
    """Arrays of one element have no loop: their element code is lowered as a nest of one
    trip (the kernel can then be a shell), with numba's results bit for bit."""
    want, _ = _run(f, args, False)
    got, source = _run(f, args, True)
    assert "\n    rt.st(" not in source.split("def kernel")[1]  # no store left outside nests
    for g, w in zip(got, want):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        np.testing.assert_array_equal(g, w)


def test_scalar_run_ends_with_its_last_store():
    """A run of scalar statements is lowered up to its last store: a scalar assigned after it
    stays the kernel's, and one read after the run is an output of the nest."""
    source = (
        "def kernel(sz, a0):\n"
        "    o1 = rt.empty((1,), np.float32)\n"
        "    t2 = rt.ld(a0, 0)\n"
        "    rt.st(o1, 0, t2 * t2)\n"
        "    t3 = t2 + np.float32(1.0)\n"
        "    o4 = rt.empty((1,), np.float32)\n"
        "    rt.st(o4, 0, t3)\n"
        "    return (o1, o4, )\n"
    )
    new = rewrite(source, (("<i8", 1), ("<f4", 1)))
    body = new.split("def kernel")[1]
    assert "t2, = _ln0((a0, o1))" in body
    assert "t3 = t2 + np.float32(1.0)" in body and "_ln1((o4, t3))" in body


def test_unsupported_nest_stays_numba():
    """A nest the translator does not lower (a complete QR of a tall matrix: the rule's
    Householder loops in numba's array syntax, slices assigned) keeps its loop in the kernel;
    the results are numba's."""
    f = lambda x: (jnp.linalg.qr(x[:, :3] * x[:, :3] + 1.0, mode="complete"), x * 2.0)  # noqa: E731
    with core.enable_x64():
        want, _ = _run(f, (F64,), False)
        got, source = _run(f, (F64,), True)
    body = source.split("def kernel")[1]
    assert "np.hypot" in body and " in range(" in body
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_sort_rows_are_a_merge_sort_nest():
    """A sort's rows (numba's `np.argsort(..., kind='mergesort')` per key) are written out as a
    stable merge sort of the permutation (`rewrite._ARGSORT`): lowered, with numba's results."""
    keys = np.floor(F64 * 2)
    keys[0, ::3] = np.nan
    f = lambda k, x: lax.sort((k, x * x + 1.0), num_keys=1)  # noqa: E731
    with core.enable_x64():
        want, _ = _run(f, (keys, F64), False)
        got, source = _run(f, (keys, F64), True)
    body = source.split("def kernel")[1]
    assert "np.argsort" not in body and "rt.empty((n_" in body and "np.int64)" in body
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_translator_refuses_what_it_does_not_know():
    src = "for i in range(n):\n    x = hc.call(a, i)\n"
    import ast  # noqa: PLC0415

    node = ast.parse(src).body[0]
    from numba.core import types  # noqa: PLC0415

    env = {"n": types.int64, "a": types.Array(types.float32, 1, "C")}
    with pytest.raises(translate.Unsupported):
        translate.Nest(node, env, [])


def test_rewrite_keeps_unknown_nests():
    """A nest reading a name of unknown type stays; the threaded one before it is lowered."""
    source = (
        "def kernel(sz, a0):\n"
        "    n_0 = rt.ld(sz, 0)\n"
        "    o1 = rt.empty((n_0,), np.float32)\n"
        "    for i0 in prange(n_0):\n"
        "        rt.st(o1, i0, rt.ld(a0, i0))\n"
        "    q = lib.something(a0)\n"
        "    for i0 in range(n_0):\n"
        "        rt.st(o1, i0, q)\n"
        "    return (o1, )\n"
    )
    new = rewrite(source, (("<i8", 1), ("<f4", 1)))
    body = new.split("def kernel")[1]
    assert "_ln0((o1, a0, n_0))" in body and "prange(" not in body
    assert "for i0 in range(n_0):\n        rt.st(o1, i0, q)" in body


def test_element_accesses_flattened_where_shapes_are_known():
    """`a[i, j]` of an array whose shape the rewrite saw made becomes `rt.ld`/`rt.st` in nests
    and in the kernel's statements; an access with an array index (numba's fancy indexing), a
    negative constant, or of an array of unknown shape (an input's) stays as written."""
    source = (
        "def kernel(sz, a0, a1, a2):\n"
        "    n_0 = rt.ld(sz, 0)\n"
        "    x = rt.reshape(a0, (2, n_0))\n"
        "    o1 = rt.full((2, n_0), 0.0, np.float32)\n"
        "    for i in range(2):\n"
        "        for j in range(n_0):\n"
        "            o1[i, j] = x[i, j] + a2[j]\n"
        "    for i in range(2):\n"
        "        for j in range(n_0):\n"
        "            o1[i, j] = o1[i, j] * a0[i, j]\n"
        "    s2 = o1[1, 0]\n"
        "    s3 = a2[a1]\n"
        "    s4 = o1[-1, 0]\n"
        "    return (o1, )\n"
    )
    new = rewrite(source, (("<i8", 1), ("<f4", 2), ("<i8", 1), ("<f4", 1)))
    body = new.split("def kernel")[1]
    assert "rt.st(o1, i * n_0 + j, rt.ld(x, i * n_0 + j) + rt.ld(a2, j))" in new
    assert "_ln0((" in body and "o1[i, j] = o1[i, j] * a0[i, j]" in body
    assert "s2 = rt.ld(o1, 1 * n_0 + 0)" in body
    assert "s3 = a2[a1]" in body and "s4 = o1[-1, 0]" in body


def test_outputs_and_noalias():
    """A nest whose scalar the kernel reads afterwards returns it; arrays written are new ones."""
    source = (
        "c_f4_0 = np.float32(0.0)\n\n\n"
        "def kernel(sz, a0):\n"
        "    n_0 = rt.ld(sz, 0)\n"
        "    acc = c_f4_0\n"
        "    for i0 in range(n_0):\n"
        "        acc = vm.radd(acc, rt.ld(a0, i0))\n"
        "    o1 = rt.empty((n_0,), np.float32)\n"
        "    for i0 in range(n_0):\n"
        "        rt.st(o1, i0, rt.ld(a0, i0) - acc)\n"
        "    return (o1, )\n"
    )
    new = rewrite(source, (("<i8", 1), ("<f4", 1)))
    assert "acc, = _ln0((a0, n_0, acc))" in new
    assert "_ln1((o1, a0, n_0, acc))" in new
    assert "True, ())" in new  # the second nest's arrays are noalias


def test_shape_generic_reuse():
    """A program's kernels compiled at one batch size serve another: no lean module compiles."""

    def step(x, w):
        return jnp.sum(jnp.tanh(x @ w) * 2.0 + x[:, :1], axis=0)

    w = RNG.standard_normal((37, 37)).astype(np.float32)
    with config.override("jit_lean_loops", True):
        core.jit(step)(F32, w)
        before = nests.stats()["compiled"]
        x = RNG.standard_normal((11, 37)).astype(np.float32)
        got = core.jit(step)(x, w)
        assert nests.stats()["compiled"] == before
    with config.override("jit_lean_loops", False):
        want = core.jit(step)(x, w)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_why_not_names_the_nest_left_to_numba(tmp_path, monkeypatch):
    """The first loop nest the rewrite leaves to numba is noted with the translator's reason
    (the compile log prints it); a rewrite lowering every nest notes nothing."""
    from core.backends.llvm import rewrite as lean_rewrite  # noqa: PLC0415
    from core.jit import cache_files  # noqa: PLC0415

    monkeypatch.setattr(cache_files, "cache_dir", lambda: tmp_path)
    source = (
        "def kernel(sz, a0):\n"
        "    n_0 = rt.ld(sz, 0)\n"
        "    o1 = rt.empty((n_0,), np.float32)\n"
        "    for i0 in range(n_0):\n"
        "        rt.st(o1, i0, rt.ld(a0, i0) * 3.0)\n"
        "    q = lib.something(a0)\n"
        "    for i1 in range(n_0):\n"
        "        rt.st(o1, i1, q)\n"
        "    return (o1, )\n"
    )
    new = rewrite(source, (("<i8", 1), ("<f4", 1)))
    assert lean_rewrite.why_not(new) == "for i1 in range(n_0):...: name q of unknown type"
    whole = source.replace("    q = lib.something(a0)\n", "    q = np.float32(2.0)\n")
    assert lean_rewrite.why_not(rewrite(whole, (("<i8", 1), ("<f4", 1)))) is None
