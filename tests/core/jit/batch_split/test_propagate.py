"""Batch splitting's rules (core/jit/batch_split/propagate.py, partition.py): per primitive, the
split program's values against the unsplit program's, and the states the rules choose.

The table's programs run on the numpy back end (no compile); each case's batch is 8 on 2
devices (the tests' `NUMBAX_NUM_THREADS=2`).
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit import batch_split
from core.jit.batch_split import decide
from core.jit.batch_split.propagate import P, R, propagate

B = 8
rng = np.random.default_rng(0)


def _f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def _lstm_like(w, xs):
    # xs: (batch, time, features), scanned time-major as nn.RNN does
    def cell(h, x):
        h = jnp.tanh(x @ w + h)
        return h, h.sum(axis=1)

    h, ys = lax.scan(cell, jnp.zeros((xs.shape[0], w.shape[1])), jnp.swapaxes(xs, 0, 1))
    return h, ys


def _loss_of_scan(w, xs):
    return core.grad(lambda w: _lstm_like(w, xs)[1].sum())(w)


@core.custom_jvp
def _softplus(x):
    return jnp.log1p(jnp.exp(x))


_softplus.defjvp(lambda p, t: (_softplus(p[0]), t[0] * core.nn.sigmoid(p[0])))


def _batched_product(a, b):
    return jnp.einsum("bij,bjk->bik", a, b)


def _conv(x, k):
    return lax.conv_general_dilated(
        x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def _cond(w, x):
    return lax.cond(w.sum() > 0, lambda v: v * 2.0, lambda v: v - 1.0, x @ w)


# (name, function, arguments[, whether it splits]): the batch is the arguments' leading axis of
# size B; a case that does not split (its batch would have to be gathered) runs unsplit
CASES = [
    ("elementwise", lambda x, y: jnp.maximum(x * y + 1.0, 0.0) / 2.0, (_f32(B, 3), _f32(B, 3))),
    ("select_convert", lambda x: jnp.where(x > 0, x, 0).astype(jnp.float16), (_f32(B, 3),)),
    ("size1_broadcast", lambda x, b: x + b, (_f32(B, 3, 4), _f32(1, 1, 4))),
    ("broadcast_in_dim", lambda x: jnp.broadcast_to(x[:, None, :], (B, 5, 3)) * 2, (_f32(B, 3),)),
    ("reshape_keeps", lambda x: x.reshape(B * 3, 2).sum(axis=1), (_f32(B, 3, 2),)),
    ("reshape_merges_later", lambda x: x.reshape(B, 6) ** 2, (_f32(B, 3, 2),)),
    ("reshape_loses", lambda x: x.reshape(3, B * 2).sum(axis=0), (_f32(B, 3, 2),), False),
    ("transpose", lambda x: jnp.transpose(x, (2, 0, 1)) + 1, (_f32(B, 3, 2),)),
    ("squeeze_expand", lambda x: jnp.squeeze(x, 1)[:, None] * 3, (_f32(B, 1, 2),)),
    ("reduce_sum_P", lambda x: x.sum(), (_f32(B, 3),)),
    ("mean_P_scaled", lambda x: (x * 2.0).mean(axis=0) / 3.0, (_f32(B, 3),)),
    ("centered_by_batch_mean", lambda x: x - jnp.broadcast_to(x.mean(0), x.shape), (_f32(B, 3),)),
    ("reduce_max_split", lambda x: x.max(axis=0), (_f32(B, 3),)),
    ("reduce_min_other", lambda x: x.min(axis=1), (_f32(B, 3),)),
    ("argmax_other", lambda x: jnp.argmax(x, axis=1), (_f32(B, 3),)),
    ("argmax_split", lambda x: jnp.argmax(x, axis=0), (_f32(B, 3),), False),
    ("cumsum_other", lambda x: jnp.cumsum(x, axis=1), (_f32(B, 3),)),
    ("log_softmax", lambda x: core.nn.log_softmax(x), (_f32(B, 5),)),
    ("logsumexp", lambda x: core.nn.logsumexp(x, axis=-1).sum(), (_f32(B, 5),)),
    ("custom_jvp_grad", lambda x: core.grad(lambda v: _softplus(v).sum())(x), (_f32(B, 3),)),
    ("dot_batch_rows", lambda x, w: x @ w, (_f32(B, 4), _f32(4, 3))),
    ("dot_contract_P", lambda x, g: x.T @ g, (_f32(B, 4), _f32(B, 3))),
    (
        "dot_batch_dims",
        lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
        (_f32(B, 2, 3), _f32(B, 3, 2)),
    ),
    (
        "conv_and_kernel_grad",
        lambda x, k: core.grad(
            lambda k: (
                lax.conv_general_dilated(
                    x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
                )
                ** 2
            ).sum()
        )(k),
        (_f32(B, 5, 5, 2), _f32(3, 3, 2, 4)),
    ),
    (
        "avg_pool_grad",
        lambda x: (
            core.grad(lambda v: (core.nn.relu(v) ** 2).sum())(x)
            + lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "SAME")
        ),
        (_f32(B, 4, 4, 2),),
    ),
    ("concatenate", lambda x, y: jnp.concatenate([x, y], axis=1), (_f32(B, 2), _f32(B, 3))),
    ("pad_slice", lambda x: jnp.pad(x, ((0, 0), (1, 2)))[:, 1:3], (_f32(B, 3),)),
    ("rev", lambda x: jnp.flip(x, axis=1), (_f32(B, 3),)),
    ("iota_mask", lambda x: x * (jnp.arange(3) > 0), (_f32(B, 3),)),
    (
        "take_along_axis",
        lambda x, y: jnp.take_along_axis(x, y[:, None], axis=1),
        (_f32(B, 5), rng.integers(0, 5, B).astype(np.int32)),
    ),
    (
        "embedding_and_grad",
        lambda t, ids: core.grad(lambda t: (t[ids] ** 2).sum())(t) + t[ids].sum(),
        (_f32(7, 3), rng.integers(0, 7, (B, 2)).astype(np.int32)),
    ),
    ("scan_carry", _lstm_like, (_f32(3, 3), _f32(B, 5, 3))),
    ("scan_gradient_carry", _loss_of_scan, (_f32(3, 3), _f32(B, 5, 3))),
    ("cond", _cond, (_f32(3, 3), _f32(B, 3))),
    ("cond_on_the_batch", lambda x: lax.cond(x.sum() > 0, jnp.sin, jnp.cos, x), (_f32(B, 3),)),
    (
        "dynamic_slices",
        lambda x: lax.dynamic_update_slice_in_dim(x, lax.dynamic_slice_in_dim(x, 1, 2, 1), 0, 1),
        (_f32(B, 4),),
    ),
]


def _run(fun, args, split: bool):
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", split),
    ):
        jf = core.jit(fun)
        out = jf(*args)
        return out, batch_split.describe(jf)


@pytest.fixture(autouse=True)
def any_size(monkeypatch):
    monkeypatch.setattr(decide, "MIN_US", 0.0)
    monkeypatch.setattr(decide, "MIN_SPLIT_FRACTION", 0.0)


@pytest.mark.parametrize(
    "name,fun,args,splits", [(*c, True)[:4] for c in CASES], ids=[c[0] for c in CASES]
)
def test_split_program_equals_unsplit(name, fun, args, splits):
    want, _ = _run(fun, args, False)
    got, how = _run(fun, args, True)
    assert how and how[0].startswith("split over 2 devices" if splits else "not split"), how
    for a, b in zip(core.tree_util.tree_leaves(want), core.tree_util.tree_leaves(got)):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(
            np.asarray(b, np.float64), np.asarray(a, np.float64), rtol=2e-5, atol=2e-5
        )


def _plan(fun, *args, seeds=None):
    jaxpr = core.make_jaxpr(fun)(*args).jaxpr
    flat = decide.inline_calls(jaxpr)
    seeds = decide._seeds(flat, 0, 2) if seeds is None else seeds
    states = [0 if k in seeds else R for k in range(len(flat.invars))]
    origins = [frozenset({k}) if k in seeds else frozenset() for k in range(len(flat.invars))]
    return flat, propagate(flat, 2, states, origins)


STATES = [
    ("sum_is_P", lambda x: x.sum(axis=0), (_f32(B, 3),), P),
    ("rows_stay_split", lambda x, w: x @ w, (_f32(B, 4), _f32(4, 3)), 0),
    ("weight_grad_is_P", lambda x, g: x.T @ g, (_f32(B, 4), _f32(B, 3)), P),
    ("P_times_R_is_P", lambda x: x.sum(axis=0) * 2.0, (_f32(B, 3),), P),
    ("P_plus_literal_psums", lambda x: x.sum(axis=0) + 1.0, (_f32(B, 3),), R),
    (
        "P_broadcast_psums_first",
        lambda x: jnp.broadcast_to(x.sum(axis=0), (B, 3)),
        (_f32(B, 3),),
        R,
    ),
    ("P_expand_dims_stays_P", lambda x: x.sum(axis=0)[None], (_f32(B, 3),), P),
    ("max_over_batch_is_R", lambda x: x.max(axis=0), (_f32(B, 3),), R),
    ("reshape_keeps_axis", lambda x: x.reshape(B * 3), (_f32(B, 3),), 0),
    ("reshape_blocks_stay", lambda x: x.reshape(2, 4 * 3), (_f32(B, 3),), 0),
    ("reshape_loses_axis", lambda x: x.reshape(3, B), (_f32(B, 3),), R),
    ("transpose_moves_axis", lambda x: x.T, (_f32(B, 3),), 1),
]


@pytest.mark.parametrize("name,fun,args,state", STATES, ids=[c[0] for c in STATES])
def test_output_state(name, fun, args, state):
    flat, plan = _plan(fun, *args)
    assert plan.state(flat.outvars[0]) == state


def test_coincidental_bias_is_dropped():
    # a bias of the batch's size: seeded with the batch, it conflicts (it broadcasts along
    # the features) and is dropped; the batch still splits
    def f(b, x):
        return (x + b[None, :]).sum()

    x, b = _f32(B, B), _f32(B)
    jaxpr = core.make_jaxpr(f)(b, x).jaxpr
    decision = decide.split_plan(jaxpr, 0, 2, 1e9)
    assert decision.seeds == {1}
    got, how = _run(f, (b, x), True)
    np.testing.assert_allclose(got, f(b, x), rtol=1e-5)
    assert how[0].startswith("split")


def test_state_inputs_are_not_seeds():
    # inputs shaped like an output are state (parameters), not the batch
    def step(w, x):
        return w - 0.1 * (x.T @ x), (x**2).sum()

    jaxpr = core.make_jaxpr(step)(_f32(4, 4), _f32(B, 4)).jaxpr
    assert decide._seeds(jaxpr, 0, 2) == {1}


def test_scan_carries_split_and_partial():
    flat, plan = _plan(_loss_of_scan, _f32(3, 3), _f32(B, 5, 3))
    scans = [(e, s) for e, s in zip(flat.eqns, plan.steps) if e.prim.name == "scan"]
    assert any(0 in s.outs for _, s in scans)  # the forward carry: the batch's rows
    assert any(P in s.outs for _, s in scans)  # the weight's gradient accumulated: partial
