"""The MNIST example: parameter counts, a one-epoch smoke run, TensorBoard tags, --resume."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core import random, tree_util
from examples.mnist import train as example
from examples.mnist.models import get_model
from train.checkpoints import available_steps
from train.tensorboard import read_events, read_scalars

REPO = Path(__file__).resolve().parents[2]
MLP_PARAMS = 784 * 128 + 128 + 128 * 128 + 128 + 128 * 10 + 10  # 118_282
CNN_PARAMS_1CH = 824_458  # MNIST images have 1 channel
CNN_PARAMS_3CH = 825_034  # Flax's examples/mnist test (3-channel input)


@pytest.mark.parametrize(
    "model, style, channels, expected",
    [
        ("mlp", "compact", 1, MLP_PARAMS),
        ("mlp", "setup", 1, MLP_PARAMS),
        ("cnn", "compact", 1, CNN_PARAMS_1CH),
        ("cnn", "setup", 1, CNN_PARAMS_1CH),
        ("cnn", "compact", 3, CNN_PARAMS_3CH),
    ],
)
def test_parameter_count(model, style, channels, expected):
    net = get_model(model, style)
    x = np.ones((1, 28, 28, channels), np.float32)
    out, variables = net.init_with_output(random.key(0), x)
    assert out.shape == (1, 10)
    assert example.count_params(variables["params"]) == expected
    assert MLP_PARAMS == 118_282


def test_compact_and_setup_compute_the_same_function():
    x = np.linspace(0, 1, 2 * 784, dtype=np.float32).reshape(2, 28, 28, 1)
    compact, setup = get_model("mlp", "compact"), get_model("mlp", "setup")
    params = compact.init(random.key(0), x)["params"]
    renamed = {
        "hidden_0": params["Dense_0"],
        "hidden_1": params["Dense_1"],
        "classifier": params["Dense_2"],
    }
    np.testing.assert_allclose(
        setup.apply({"params": renamed}, x), compact.apply({"params": params}, x), rtol=1e-6
    )


@pytest.mark.parametrize(
    "argv, batch_size, lr, schedule",
    [
        ([], 32, 1e-3, "cosine"),
        (["--schedule", "constant"], 32, 1e-3, "constant"),
        (["--model", "cnn"], 128, 0.1, "constant"),
        (["--model", "cnn", "--lr", "0.05", "--schedule", "cosine"], 128, 0.05, "cosine"),
    ],
)
def test_per_model_defaults(argv, batch_size, lr, schedule):
    config = example.parse_args(argv).resolved()
    assert (config.batch_size, config.lr, config.schedule) == (batch_size, lr, schedule)
    assert config.checkpoint_dir == os.path.join("runs/mnist", "checkpoints")


def test_learning_rate_schedules():
    config = example.Config(epochs=3).resolved()
    cosine = example.learning_rate_fn(config, 100)
    assert [float(cosine(s)) for s in (0, 150, 300)] == pytest.approx([1e-3, 5e-4, 0.0], abs=1e-9)
    constant = example.learning_rate_fn(dataclasses.replace(config, schedule="constant"), 100)
    assert float(constant(300)) == pytest.approx(1e-3)
    with pytest.raises(ValueError, match="use 'cosine' or 'constant'"):
        example.learning_rate_fn(dataclasses.replace(config, schedule="step"), 100)


def _config(tmp_path, name, **kwargs):
    return example.Config(
        limit_train=2048,
        limit_test=1000,
        logdir=str(tmp_path / name),
        progress=False,
        **kwargs,
    )


def test_one_epoch_smoke_logs_and_checkpoints(tmp_path):
    results = example.train_and_evaluate(_config(tmp_path, "run", epochs=1))
    assert results["test_accuracy"] > 0.6  # chance is 0.1
    assert results["train_loss"] < 1.5  # log(10) = 2.3 at the start
    assert results["num_params"] == MLP_PARAMS
    assert int(results["state"].step) == 2048 // 32

    logdir = tmp_path / "run"
    scalars = read_scalars(logdir)
    expected = {"train/loss", "train/accuracy", "test/loss", "test/accuracy"}
    expected |= {"learning_rate", "steps_per_sec", "epoch_time"}
    assert expected <= set(scalars)
    assert scalars["test/accuracy"] == [(1, pytest.approx(results["test_accuracy"]))]
    last_lr = 1e-3 * 0.5 * (1 + np.cos(np.pi * 63 / 64))  # cosine decay, last of 64 steps
    assert scalars["learning_rate"] == [(1, pytest.approx(last_lr, rel=1e-4))]
    tags = {v.tag for e in read_events(logdir) for v in e.summary.value}
    assert {"config/text_summary", "params/Dense_0/kernel", "_hparams_/experiment"} <= tags
    assert available_steps(logdir / "checkpoints") == [1]


def test_resume_continues_exactly(tmp_path, monkeypatch):
    straight = example.train_and_evaluate(_config(tmp_path, "straight", epochs=2))
    train_epoch = example._train_epoch

    def interrupted_in_epoch_2(state, data, config, key, epoch):
        if epoch == 2:
            raise KeyboardInterrupt
        return train_epoch(state, data, config, key, epoch)

    with monkeypatch.context() as m:  # the run is stopped during its second epoch
        m.setattr(example, "_train_epoch", interrupted_in_epoch_2)
        with pytest.raises(KeyboardInterrupt):
            example.train_and_evaluate(_config(tmp_path, "resumed", epochs=2))
    resumed = example.train_and_evaluate(_config(tmp_path, "resumed", epochs=2, resume=True))
    assert resumed["start_epoch"] == 1 and len(resumed["epoch_times"]) == 1
    assert available_steps(tmp_path / "resumed" / "checkpoints") == [1, 2]
    a = tree_util.tree_leaves(straight["state"].params)
    b = tree_util.tree_leaves(resumed["state"].params)
    for x, y in zip(a, b):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6, atol=1e-7)
    assert resumed["test_accuracy"] == pytest.approx(straight["test_accuracy"], abs=1e-3)
    points = read_scalars(tmp_path / "resumed")["test/accuracy"]
    assert [step for step, _ in points] == [1, 2]


def test_command_line(tmp_path):
    help_text = subprocess.run(
        [sys.executable, "-m", "examples.mnist.train", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for flag in ("--epochs", "--model", "--style", "--dataset", "--checkpoint-dir", "--resume"):
        assert flag in help_text
    assert "--limit-train" not in help_text
    args = ["--epochs", "1", "--limit-train", "512", "--limit-test", "500", "--no-progress"]
    run = subprocess.run(
        [sys.executable, "-m", "examples.mnist.train", *args, "--logdir", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("final test accuracy") and "wall time" in last
