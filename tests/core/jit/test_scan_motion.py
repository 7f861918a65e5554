"""core/jit/scan_motion.py: products moved out of scans (accumulated, ys-only, xs-only ones),
weights transposed for the products left in them, the rewritten programs against numpy, the
numpy backend and the same program compiled without the rewrites, and the cases that must stay
in the loop."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.backends.numba.library.skinny import SKINNY_ROWS
from core.config import config
from core.ir import Eqn, Var
from core.jit import scan_motion, simplify
from core.prims import elementwise as ew
from core.prims import indexing, linalg, reductions, shapes
from core.prims.control_flow.scan import scan_p
from core.scipy import linalg as sla
from tests.core.jit.backends import compare, split_kernels

rng = np.random.default_rng(0)
T, B, H, D = 6, 2, 4, 3
W = (rng.standard_normal((H, H)) * 0.5).astype(np.float32)
U = (rng.standard_normal((D, H)) * 0.5).astype(np.float32)
X = rng.standard_normal((T, B, D)).astype(np.float32)


def rewritten(f, *args):
    """The top-level equations of `f`'s program after `simplify`."""
    jaxpr = core.make_jaxpr(f)(*args).jaxpr
    return simplify.simplify(jaxpr.eqns, jaxpr.outvars)[0]


def scans(eqns):
    return [e for e in eqns if e.prim is scan_p]


def body_prims(eqn):
    return [e.prim for e in eqn.params["jaxpr"].eqns]


def unoptimized(f, *args):
    """`f` compiled with the rewrites off (a new function, so nothing cached is reused)."""
    with config.override("jit_scan_motion", False):
        return core.jit(lambda *a: f(*a))(*args)


def check_all(f, *args):
    """numba (rewritten) == numpy backend, and == numba without the rewrites."""
    got = compare(f, *args)
    base = core.tree_util.tree_leaves(unoptimized(f, *args))
    for g, b in zip(got, base):
        np.testing.assert_allclose(g, np.asarray(b), rtol=1e-5, atol=1e-5)
    return got


def rnn_loss(w, u, x):
    """An RNN whose gradient scan accumulates `dW += h^T dz` and `dU += x^T dz`, and emits
    `dx = dz U^T` per step; the forward scan's input projection reads xs only."""

    def body(h, xt):
        h = jnp.tanh(h @ w + xt @ u)
        return h, h @ w.T

    h, ys = lax.scan(body, jnp.ones((B, H), jnp.float32), x)
    return jnp.sum(ys**2) + jnp.sum(h)


def test_rnn_gradient_products_leave_the_loops():
    f = core.grad(rnn_loss, argnums=(0, 1, 2))
    eqns = rewritten(f, W, U, X)
    fwd, bwd = scans(eqns)
    # inside each loop only the recurrent product is left: h @ w forward, dz @ w^T backward
    assert body_prims(fwd).count(linalg.dot_general_p) == 1
    assert body_prims(bwd).count(linalg.dot_general_p) == 1
    # dW and dU are single products contracting over steps and batch
    contracting = [
        e.params["dimension_numbers"][0][0]
        for e in eqns
        if e.prim is linalg.dot_general_p and len(e.params["dimension_numbers"][0][0]) == 2
    ]
    assert len(contracting) >= 2
    check_all(f, W, U, X)


def test_rnn_gradient_matches_numpy():
    got = core.jit(core.grad(rnn_loss, argnums=(0, 1)))(W, U, X)
    # numpy reference: the same recurrence, differentiated by hand
    hs, h = [np.ones((B, H), np.float32)], np.ones((B, H), np.float32)
    for t in range(T):
        h = np.tanh(h @ W + X[t] @ U)
        hs.append(h)
    dw, du, dh = np.zeros_like(W), np.zeros_like(U), np.ones((B, H), np.float32)
    for t in reversed(range(T)):
        y = hs[t + 1] @ W.T
        dw += (2 * y).T @ hs[t + 1]  # d(h W^T)/dW^T
        dh = dh + 2 * y @ W
        dz = dh * (1 - hs[t + 1] ** 2)
        dw += hs[t].T @ dz
        du += X[t].T @ dz
        dh = dz @ W.T
    np.testing.assert_allclose(np.asarray(got[0]), dw, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(got[1]), du, rtol=1e-4, atol=1e-4)


def accumulate(init, a, b, reverse=False):
    """A user-written accumulator carry `acc + a_t^T b_t` next to a carry that is read."""

    def body(c, ab):
        acc, s = c
        at, bt = ab
        return (acc + at.T @ bt, s * 0.5 + jnp.sum(at)), jnp.max(bt)

    return lax.scan(body, (init, jnp.float32(0)), (a, b), reverse=reverse)


@pytest.mark.parametrize("reverse", [False, True])
def test_accumulator_with_initial_value(reverse):
    init = rng.standard_normal((D, H)).astype(np.float32)
    a, b = X, rng.standard_normal((T, B, H)).astype(np.float32)
    eqns = rewritten(lambda *z: accumulate(*z, reverse=reverse), init, a, b)
    (loop,) = scans(eqns)
    assert loop.params["num_carry"] == 1 and linalg.dot_general_p not in body_prims(loop)
    (acc, s), m = core.jit(lambda *z: accumulate(*z, reverse=reverse))(init, a, b)
    want = init + np.einsum("tbd,tbh->dh", a, b)
    np.testing.assert_allclose(np.asarray(acc), want, rtol=1e-5, atol=1e-5)
    check_all(lambda *z: accumulate(*z, reverse=reverse), init, a, b)


def biased_rnn_loss(w, b, x):
    """An RNN with a bias: the gradient scan accumulates `db += sum_rows(dz)` besides `dW`."""

    def body(h, xt):
        h = jnp.tanh(h @ w + xt[:, :H] + b)
        return h, h

    _, ys = lax.scan(body, jnp.ones((B, H), jnp.float32), x)
    return jnp.sum(ys**2)


def test_bias_gradient_sums_leave_the_loop():
    bias = rng.standard_normal((H,)).astype(np.float32)
    x = rng.standard_normal((T, B, H)).astype(np.float32)
    f = core.grad(biased_rnn_loss, argnums=(0, 1))
    _, bwd = scans(rewritten(f, W, bias, x))
    # left in the backward loop: the recurrent product and elementwise work, no row sums
    assert reductions.reduce_sum_p not in body_prims(bwd)
    assert bwd.params["num_carry"] == 1
    check_all(f, W, bias, x)


def test_accumulator_read_in_the_body_stays_a_carry():
    """The carry is read, so it stays; its product reads xs only, so it runs before the loop."""

    def f(a, b):
        def body(acc, ab):
            return acc + ab[0].T @ ab[1] * jnp.sum(acc), None

        return lax.scan(body, jnp.ones((D, H), jnp.float32), (a, b))[0]

    b = rng.standard_normal((T, B, H)).astype(np.float32)
    (loop,) = scans(rewritten(f, X, b))
    assert loop.params["num_carry"] == 1 and linalg.dot_general_p not in body_prims(loop)
    assert loop.params["jaxpr"].in_avals[-1].shape == (D, H)  # the stacked products' row
    check_all(f, X, b)


def dots_per_loop(f, *args):
    return [body_prims(e).count(linalg.dot_general_p) for e in scans(rewritten(f, *args))]


def test_switched_off_and_over_budget(monkeypatch):
    f = core.grad(rnn_loss, argnums=(0, 1, 2))
    assert dots_per_loop(f, W, U, X) == [1, 1]
    with config.override("jit_scan_motion", False):
        off = dots_per_loop(f, W, U, X)
    assert off == [3, 6]
    monkeypatch.setattr(scan_motion, "STACK_BUDGET", 8)
    # only the forward's `h @ w.T` still moves: h is stacked anyway (a residual), so sinking
    # its product stacks nothing new
    assert dots_per_loop(f, W, U, X) == [2, 6]


def test_nested_scans():
    def f(w, x):
        def outer(c, xs):
            def inner(h, xt):
                return jnp.tanh(h @ w + xt @ w), h @ w

            h, ys = lax.scan(inner, c, xs)
            return h, jnp.sum(ys)

        return lax.scan(outer, jnp.ones((B, H), jnp.float32), x)

    x = rng.standard_normal((3, T, B, H)).astype(np.float32)
    check_all(core.grad(lambda w, x: jnp.sum(f(w, x)[1])), W, x)
    check_all(f, W, x)


def test_sum_over_moves_into_products():
    x, y = (
        Var(core.ShapedArray((T, B, D), np.float32)),
        Var(core.ShapedArray((T, B, H), np.float32)),
    )
    dot = Eqn(
        linalg.dot_general_p,
        [x, y],
        {"dimension_numbers": (((1,), (1,)), ((0,), (0,))), "preferred_element_type": None},
        [Var(core.ShapedArray((T, D, H), np.float32))],
    )
    tr = Eqn(
        shapes.transpose_p,
        dot.outputs,
        {"permutation": (0, 2, 1)},
        [Var(dot.outputs[0].aval.update(shape=(T, H, D)))],
    )
    add = Eqn(ew.add_p, [tr.outputs[0], tr.outputs[0]], {}, [Var(tr.outputs[0].aval)])
    out = Var(core.ShapedArray((H, D), np.float32))
    producer = {e.outputs[0]: e for e in (dot, tr)}
    eqns = scan_motion.sum_over(
        tr.outputs[0], (0,), out, producer, {dot.outputs[0]: 1, tr.outputs[0]: 1}
    )
    assert [e.prim for e in eqns] == [linalg.dot_general_p, shapes.transpose_p]
    assert eqns[0].params["dimension_numbers"] == (((0, 1), (0, 1)), ((), ()))
    # read twice (by the add): summed as it is
    eqns = scan_motion.sum_over(
        add.outputs[0], (0,), out, {add.outputs[0]: add}, {add.outputs[0]: 1, tr.outputs[0]: 2}
    )
    assert [e.prim for e in eqns] == [reductions.reduce_sum_p] * 2 + [ew.add_p]


def test_small_products_read_their_weights_untransposed():
    """Both loops' recurrent products contract the weights over their first axis (backward:
    `w^T` transposed back once before the loop) and run as `lib.skinny_nn`; with more rows
    the backward product keeps its transposed operand."""
    f = core.grad(rnn_loss, argnums=(0, 1, 2))
    eqns = rewritten(f, W, U, X)
    fwd, bwd = scans(eqns)
    for loop in (fwd, bwd):
        (dot,) = [e for e in loop.params["jaxpr"].eqns if e.prim is linalg.dot_general_p]
        assert dot.params["dimension_numbers"][0][1] == (0,)
    made = {v: e.prim for e in eqns for v in e.outputs}
    assert shapes.transpose_p not in [made.get(x) for x in fwd.inputs]
    assert shapes.transpose_p in [made.get(x) for x in bwd.inputs]
    loops = [src for src, _ in split_kernels(f, (W, U, X)) if "for it" in src]
    assert len(loops) == 2
    assert all("lib.skinny_nn__f4(" in src and "lib.dot(" not in src for src in loops)
    check_all(f, W, U, X)
    many = np.ones((SKINNY_ROWS + 1, H), np.float32)
    nt = (((1,), (1,)), ((), ()))  # h @ w.T, contracting w's second axis

    def wide(w, h0):
        return lax.scan(lambda h, _: (jnp.tanh(lax.dot_general(h, w, nt)), None), h0, None, T)[0]

    (loop,) = scans(rewritten(wide, W, many))
    (dot,) = [e for e in loop.params["jaxpr"].eqns if e.prim is linalg.dot_general_p]
    assert dot.params["dimension_numbers"][0][1] == (1,)


def lstm_loss(wx, wh, x):
    """An LSTM with one input and one recurrent weight matrix per gate (Flax's `LSTMCell`)."""

    def body(carry, xt):
        c, h = carry
        i, f, g, o = (xt @ a + h @ b for a, b in zip(wx, wh))
        c = core.nn.sigmoid(f) * c + core.nn.sigmoid(i) * jnp.tanh(g)
        h = core.nn.sigmoid(o) * jnp.tanh(c)
        return (c, h), h

    zeros = jnp.zeros((x.shape[1], H), jnp.float32)
    _, hs = lax.scan(body, (zeros, zeros), x)
    return jnp.sum(hs**2)


def test_gate_products_merge_into_one_per_loop():
    """Forward, the four `h @ U_i` become `h @ [U_0 .. U_3]` and four slices (and the four input
    projections one product before the loop); backward, the sum of the four `dz_i @ U_i^T` one
    product of the concatenated `dz_i` by the concatenated weights (for products of few rows).
    Each loop keeps one product."""
    wx = [(rng.standard_normal((D, H)) * 0.5).astype(np.float32) for _ in range(4)]
    wh = [(rng.standard_normal((H, H)) * 0.5).astype(np.float32) for _ in range(4)]
    f = core.grad(lstm_loss, argnums=(0, 1, 2))
    assert dots_per_loop(f, wx, wh, X) == [1, 1]
    eqns = rewritten(f, wx, wh, X)
    fwd, bwd = scans(eqns)
    assert (H, 4 * H) in [a.shape for a in fwd.params["jaxpr"].in_avals]  # [U_0 .. U_3]
    # backward, [U_i]^T as the U_i transposed, then concatenated (a transpose of [U_i] reads
    # far-apart rows)
    made = {v: e for e in eqns for v in e.outputs}
    (weights,) = [x for x in bwd.inputs if x.aval.shape == (4 * H, H)]
    assert made[weights].prim is indexing.concatenate_p
    assert all(made[x].prim is shapes.transpose_p for x in made[weights].inputs)
    assert (T, B, 4 * H) in [x.aval.shape for x in fwd.inputs]  # x_t @ [W_i], hoisted as one
    assert indexing.concatenate_p in body_prims(bwd)  # the dz_i, in each iteration
    with config.override("jit_scan_motion", False):
        assert dots_per_loop(f, wx, wh, X) == [8, 16]
    check_all(f, wx, wh, X)
    # more rows than a skinny product's: the backward sum stays four products (BLAS)
    many = np.ones((T, SKINNY_ROWS + 1, D), np.float32)
    assert dots_per_loop(f, wx, wh, many) == [1, 4]


def test_gate_gradients_are_one_product_each():
    """The backward loop stacks the `dz_i` it concatenates as one y; after it, the four gates'
    `h^T dz_i` are one product `H^T [DZ_0 .. DZ_3]`, the four `x^T dz_i` another, and the sum of
    the four `dz_i W_i^T` (the inputs' gradient) one product by the concatenated weights."""
    wx = [(rng.standard_normal((D, H)) * 0.5).astype(np.float32) for _ in range(4)]
    wh = [(rng.standard_normal((H, H)) * 0.5).astype(np.float32) for _ in range(4)]
    f = core.grad(lstm_loss, argnums=(0, 1, 2))
    eqns = rewritten(f, wx, wh, X)
    bwd = scans(eqns)[1]
    assert (T, B, 4 * H) in [v.aval.shape for v in bwd.outputs]
    after = eqns[eqns.index(bwd) + 1 :]
    products = [e for e in after if e.prim is linalg.dot_general_p]
    assert sorted(e.outputs[0].aval.shape for e in products) == [(D, 4 * H), (H, 4 * H), (T, B, D)]
    check_all(f, wx, wh, X)


def test_merge_sliced():
    """Products of one operand by slices covering an array become one product and slices of
    it; slices that leave part of the array out stay apart."""
    s = Var(core.ShapedArray((T, 2 * H), np.float32))
    a = Var(core.ShapedArray((D, T), np.float32))
    dims = {"dimension_numbers": (((1,), (0,)), ((), ())), "preferred_element_type": None}

    def program(cuts):
        eqns = []
        for lo, hi in cuts:
            piece = Var(core.ShapedArray((T, hi - lo), np.float32))
            eqns.append(scan_motion._slice_eqn(s, 1, lo, hi, piece))
            out = Var(core.ShapedArray((D, hi - lo), np.float32))
            eqns.append(Eqn(linalg.dot_general_p, [a, piece], dims, [out]))
        return eqns

    merged = scan_motion.merge_sliced(program([(0, H), (H, 2 * H)]))
    (product,) = [e for e in merged if e.prim is linalg.dot_general_p]
    assert product.inputs == [a, s]
    results = [e for e in merged if e.inputs[0] is product.outputs[0]]
    assert all(e.prim is indexing.slice_p for e in results)
    assert [e.params["start_indices"] for e in results] == [(0, 0), (0, H)]
    apart = scan_motion.merge_sliced(program([(0, H), (H, 2 * H - 1)]))
    assert [e.prim for e in apart].count(linalg.dot_general_p) == 2


def test_moved_work_is_in_primitives_the_code_generator_knows():
    """Vectorizing moved equations binds primitives numbax composes (the gradient of a
    triangular solve's loop: a batched dynamic_update_slice is a scatter, which has no lowering
    of its own); they are composed before the code is generated."""
    a = (np.tril(rng.standard_normal((5, 5))) + 4 * np.eye(5)).astype(np.float32)
    b = rng.standard_normal((5, 2)).astype(np.float32)
    f = core.grad(lambda a, b: jnp.sum(sla.solve_triangular(a, b, lower=True) ** 2))
    composed = {e.prim.name for e in rewritten(f, a, b)}
    assert not {"scatter", "scatter-add"} & composed
    got = np.asarray(core.jit(f)(a, b))
    x = np.linalg.solve(a.astype(np.float64), b)
    want = -np.tril(np.linalg.solve(a.T.astype(np.float64), 2 * x) @ x.T)
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-5)
