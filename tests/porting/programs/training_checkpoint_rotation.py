"""Checkpoints on disk during training, as a Flax training loop keeps them: a `TrainState`
with fields of our own (batch statistics, an EMA of the parameters, a step count of skipped
updates) saved every few steps into a temporary directory and restored.

- `checkpoints.save_checkpoint` with `keep=` and `keep_every_n_steps=`: which steps remain
  (the file names, sorted), `latest_checkpoint`, and a step older than the latest (Flax's
  default Orbax writer saves it and prunes by `keep`);
- `restore_checkpoint` into a fresh `TrainState` (the latest and a chosen `step=`), training
  resumed from it gives the uninterrupted run's parameters; `target=None` gives the stored
  tree (its key paths and leaves); a directory without checkpoints gives the target back;
- the first lines of saving an existing step (Orbax's "Destination ... already exists.")
  and of restoring a missing step, with the directory's path replaced by `DIR`;
- `overwrite=True` saving an earlier step over later ones.

The directory is a `tempfile.TemporaryDirectory` made and removed by the program.
"""

import os
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import checkpoints, train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(8, use_bias=False)(x)  # a bias before BatchNorm has no gradient
        x = nn.BatchNorm(use_running_average=not train, momentum=0.8)(x)
        return nn.Dense(1)(nn.gelu(x))


class State(train_state.TrainState):
    batch_stats: dict
    ema: dict
    skipped: int


def make_state(seed):
    model = Net()
    x = jnp.ones((4, 3))
    variables = model.init(jax.random.key(seed), x, train=False)
    return State.create(
        apply_fn=model.apply,
        params=variables["params"],
        tx=optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.05)),
        batch_stats=variables["batch_stats"],
        ema=variables["params"],
        skipped=0,
    )


def batch(i):
    key = jax.random.fold_in(jax.random.key(7), i)
    x = jax.random.normal(key, (16, 3))
    return x, jnp.sin(x.sum(1, keepdims=True))


@jax.jit
def train_step(state, x, y):
    def loss_fn(params):
        pred, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            x,
            train=True,
            mutable=["batch_stats"],
        )
        return jnp.mean((pred - y) ** 2), updates

    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])
    ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, state.ema, state.params)
    return state.replace(ema=ema), loss


def names(d):
    return sorted(os.listdir(d))


def rel(path, d):
    return str(path).replace(d, "DIR")


def first_line(fn, d):
    try:
        fn()
        return "no error"
    except ValueError as e:
        return rel(str(e).splitlines()[0], d)


def rotation(out, d):
    state = make_state(0)
    losses = []
    for i in range(1, 8):
        state, loss = train_step(state, *batch(i))
        losses.append(loss)
        checkpoints.save_checkpoint(d, state, step=i, keep=2, keep_every_n_steps=3)
    out["losses"] = jnp.stack(losses)
    out["kept"] = names(d)
    out["latest"] = rel(checkpoints.latest_checkpoint(d), d)
    # an older step than the latest: saved, then pruned by keep=2 at once (with the steps
    # kept by keep_every_n_steps before, which this call does not pass)
    checkpoints.save_checkpoint(d, state, step=5, keep=2)
    out["after_older_step"] = names(d)
    checkpoints.save_checkpoint(d, state, step=2, keep=5)
    out["older_step_kept"] = names(d)
    return state


def restores(out, d, final):
    latest = checkpoints.restore_checkpoint(d, make_state(1))
    out["restored_step"] = int(latest.step)
    out["restored_params"] = jax.tree.leaves(latest.params)
    out["restored_batch_stats"] = latest.batch_stats["BatchNorm_0"]["var"]
    out["restored_ema"] = latest.ema["Dense_1"]["kernel"]
    out["restored_skipped"] = int(latest.skipped)
    out["opt_count"] = latest.opt_state[1][0].count
    same = jax.tree.map(lambda a, b: bool(jnp.allclose(a, b)), latest.params, final.params)
    out["matches_final"] = all(jax.tree.leaves(same))

    # resume from step 6: one more step gives the uninterrupted run's parameters at step 7
    resumed = checkpoints.restore_checkpoint(d, make_state(2), step=6)
    out["resumed_from"] = int(resumed.step)
    for i in range(7, 8):
        resumed, _ = train_step(resumed, *batch(i))
    diffs = jax.tree.map(lambda a, b: jnp.max(jnp.abs(a - b)), resumed.params, final.params)
    out["resume_max_diff_small"] = bool(max(jax.tree.leaves(diffs)) < 1e-5)

    raw = checkpoints.restore_checkpoint(d, target=None)
    flat = jax.tree_util.tree_flatten_with_path(raw)[0]
    out["raw_paths"] = sorted(jax.tree_util.keystr(p) for p, _ in flat)
    out["raw_kernel"] = np.asarray(raw["params"]["Dense_0"]["kernel"])
    out["raw_step"] = int(raw["step"])

    with tempfile.TemporaryDirectory() as empty:
        target = {"w": jnp.arange(3.0)}
        out["empty_dir_gives_target"] = checkpoints.restore_checkpoint(empty, target) is target


def errors_and_overwrite(out, d, state):
    out["errors"] = {
        "same_step": first_line(lambda: checkpoints.save_checkpoint(d, state, step=7), d),
        "missing_step": first_line(lambda: checkpoints.restore_checkpoint(d, state, step=4), d),
    }
    checkpoints.save_checkpoint(d, state.replace(skipped=5), step=3, overwrite=True, keep=10)
    out["after_overwrite"] = names(d)
    back = checkpoints.restore_checkpoint(d, make_state(3))
    out["overwritten_step"] = int(back.step)
    out["overwritten_skipped"] = int(back.skipped)


def run():
    out = {}
    with tempfile.TemporaryDirectory() as d:
        d = os.path.realpath(d)
        final = rotation(out, d)
        restores(out, d, final)
        errors_and_overwrite(out, d, final)
    return out
