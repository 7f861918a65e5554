"""Batch-split jitted calls (core/jit/batch_split/run.py, decide.py): whole train steps give the
unsplit step's parameters; the programs that must not split run whole; the flag off changes
nothing. Two devices (the tests' `NUMBAX_NUM_THREADS=2`), small shapes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
import optim
from core.jit import batch_split
from core.jit.batch_split import decide


@pytest.fixture
def any_size(monkeypatch):
    monkeypatch.setattr(decide, "MIN_US", 0.0)


class _CNN(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(4, (3, 3), use_bias=False)(x)  # as before BatchNorm in ResNets
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.avg_pool(nn.relu(x), (2, 2), (2, 2))
        x = nn.Dropout(0.25, deterministic=not train)(x.reshape((x.shape[0], -1)))
        return nn.Dense(3)(x)


class _LM(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(11, 8)(tokens)
        x = x + nn.MultiHeadDotProductAttention(num_heads=2)(
            nn.LayerNorm()(x), mask=nn.make_causal_mask(tokens)
        )
        x = nn.RNN(nn.LSTMCell(8))(x)
        return nn.Dense(11)(x)


def _cnn_case(tx=None):
    # eps: parameters whose gradient is zero but for round-off (the attention key's bias)
    # would move by +-lr whichever sign the round-off has
    model, tx = _CNN(), tx or optim.adam(1e-2, eps=1e-3)
    rng = np.random.default_rng(1)  # each case's data the same on every call
    x = rng.random((8, 6, 6, 1), dtype=np.float32)
    y = rng.integers(0, 3, 8).astype(np.int32)
    v = model.init(core.random.PRNGKey(0), x, train=False)
    state = (v["params"], v["batch_stats"], tx.init(v["params"]), core.random.PRNGKey(1))

    def step(params, stats, opt, key, x, y):
        key, sub = core.random.split(key)

        def loss_fn(p):
            logits, new = model.apply(
                {"params": p, "batch_stats": stats}, x, train=True,
                mutable=["batch_stats"], rngs={"dropout": sub},
            )  # fmt: skip
            loss = optim.softmax_cross_entropy_with_integer_labels(logits, y).mean()
            return loss, new["batch_stats"]

        (loss, stats), grads = core.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt = tx.update(grads, opt, params)
        return optim.apply_updates(params, updates), stats, opt, key, loss

    return step, state, (x, y)


def _lm_case():
    model, tx = _LM(), optim.adamw(1e-2, eps=1e-3, weight_decay=0.01)
    tokens = np.random.default_rng(2).integers(0, 11, (4, 6)).astype(np.int32)
    params = model.init(core.random.PRNGKey(0), tokens[:, :-1])["params"]

    def step(params, opt, x, y):
        def loss_fn(p):
            logits = model.apply({"params": p}, x)
            return optim.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        loss, grads = core.value_and_grad(loss_fn)(params)
        updates, opt = tx.update(grads, opt, params)
        return optim.apply_updates(params, updates), opt, loss

    return step, (params, tx.init(params)), (tokens[:, :-1], tokens[:, 1:])


def _steps(case, steps: int = 3, backend: str = "python"):
    """[(unsplit outputs, split outputs)] of each step from the same state (the unsplit
    step's: training is chaotic enough that two trajectories drift apart by more than the
    round-off of one step), and the split decision."""
    step, state, batch = case()
    with core.config.override("jit_backend", backend):
        whole = core.jit(step)
        with core.config.override("jit_batch_split", True):
            split = core.jit(lambda *args: step(*args))
            pairs = []
            for _ in range(steps):
                want, got = whole(*state, *batch), split(*state, *batch)
                pairs.append((want, core.block_until_ready(got)))
                state = want[:-1]
    return pairs, batch_split.describe(split)


@pytest.mark.parametrize("case", [_cnn_case, _lm_case], ids=["cnn_batchnorm", "attention_lstm"])
def test_train_steps_match_unsplit(any_size, case):
    pairs, how = _steps(case)
    assert how[0].startswith("split over 2 devices"), how
    for want, got in pairs:
        for a, b in zip(core.tree_util.tree_leaves(want), core.tree_util.tree_leaves(got)):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-4, atol=1e-5)


def test_compiled_split_step_with_donation(any_size):
    # SGD: on the numba back end the unsplit step sums in another order (threaded loops), and
    # Adam's first step divides tiny gradients by their own size
    step, state, batch = _cnn_case(optim.sgd(0.1, momentum=0.9))
    want = core.jit(step)(*state, *batch)
    with core.config.override("jit_batch_split", True):
        jstep = core.jit(step, donate_argnums=(0,))
        params = core.tree_util.tree_map(jnp.array, state[0])
        got = jstep(params, *state[1:], *batch)
        core.block_until_ready(got)
    assert batch_split.describe(jstep)[0].startswith("split")
    for a, b in zip(core.tree_util.tree_leaves(want), core.tree_util.tree_leaves(got)):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-4, atol=1e-5)
    assert all(p.is_deleted() for p in core.tree_util.tree_leaves(params))


def _with_callback(x):
    core.debug.callback(lambda v: None, x.sum())
    return (x * 2).sum()


NOT_SPLIT = [
    ("callback", _with_callback, (np.ones((8, 3), np.float32),), "side effects"),
    ("odd_batch", lambda x: (x**2).sum(), (np.ones((7, 3), np.float32),), "no batch input"),
    ("gathered_batch", lambda x: jnp.sort(x, axis=0), (np.ones((8, 3), np.float32),), "no batch"),
]


@pytest.mark.parametrize("name,fun,args,reason", NOT_SPLIT, ids=[c[0] for c in NOT_SPLIT])
def test_not_split(any_size, name, fun, args, reason):
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", True),
    ):
        jf = core.jit(fun)
        got = jf(*args)
    np.testing.assert_allclose(np.asarray(got), np.asarray(fun(*args)), rtol=1e-6)
    how = batch_split.describe(jf)
    assert how[0].startswith("not split") and reason in how[0], how


def test_tiny_program_not_split():
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", True),
    ):
        jf = core.jit(lambda x: (x**2).sum())
        jf(np.ones((8, 3), np.float32))
    assert "too little work" in batch_split.describe(jf)[0]


def test_inside_pmap_not_split(any_size):
    def f(x):
        return core.jit(lambda v: (v * 3).sum(axis=0))(x)

    x = np.arange(2 * 8 * 3, dtype=np.float32).reshape(2, 8, 3)
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", True),
    ):
        got = core.pmap(f)(x)
    np.testing.assert_allclose(np.asarray(got), (x * 3).sum(axis=1))


def test_flag_off_decides_nothing(any_size):
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", False),
    ):
        jf = core.jit(lambda x: (x**2).sum())
        jf(np.ones((8, 3), np.float32))
    assert batch_split.describe(jf) == []


def test_log_says_split(any_size, caplog):
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", True),
        core.config.override("log_compiles", True),
    ):
        core.jit(lambda x, w: (x @ w).sum())(
            np.ones((8, 3), np.float32), np.ones((3, 2), np.float32)
        )
    assert any("split over 2 devices: 1 collectives" in r.getMessage() for r in caplog.records)


def test_split_signature_compiles_only_its_split_program(any_size):
    from core.jit.api import compile_count  # noqa: PLC0415

    x, w = np.ones((8, 3), np.float32), np.ones((3, 2), np.float32)
    with (
        core.config.override("jit_backend", "python"),
        core.config.override("jit_batch_split", True),
    ):
        jf = core.jit(lambda x, w: (x @ w).sum())
        before = compile_count()
        np.testing.assert_allclose(jf(x, w), 48.0)
    assert compile_count() - before == 1  # the per-device program; the unsplit one on demand
