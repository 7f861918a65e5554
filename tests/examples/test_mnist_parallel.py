"""The MNIST example's data parallelism: `--devices 2` in this process (the tests have 8 CPU
devices) and `mpiexec -n 2` processes of one device each train on the same global batches as one
device and end with the same parameters and metrics (float tolerance; the processes split the
evaluation); only process 0 writes the run directory and checkpoints; settings that do not fit
are one-line errors."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core import tree_util
from examples.mnist import train as example
from examples.mnist.errors import ParallelSettingError
from train import checkpoints

REPO = Path(__file__).resolve().parents[2]


def _config(tmp_path, name, **kwargs):
    return example.Config(
        epochs=1, limit_train=1024, limit_test=500, logdir=str(tmp_path), name=name,
        progress=False, **kwargs,
    )  # fmt: skip


@pytest.fixture(scope="module")
def one_device(tmp_path_factory):
    return example.train_and_evaluate(_config(tmp_path_factory.mktemp("one"), "one"))


def _assert_same_training(params, results, reference):
    for a, b in zip(
        tree_util.tree_leaves(params), tree_util.tree_leaves(reference["state"].params)
    ):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=2e-6)
    for k in ("test_accuracy", "test_loss", "train_accuracy", "train_loss"):
        if k in results:
            assert results[k] == pytest.approx(reference[k], rel=1e-4, abs=1e-6), k


def test_two_devices_train_like_one(tmp_path, one_device):
    two = example.train_and_evaluate(_config(tmp_path, "two", devices=2))
    _assert_same_training(two["state"].params, two, one_device)
    assert int(two["state"].step) == int(one_device["state"].step) == 1024 // 32
    assert checkpoints.available_steps(tmp_path / "two" / "checkpoints") == [32]


def test_settings_that_do_not_fit(tmp_path):
    with pytest.raises(ParallelSettingError, match="does not split over 3 devices"):
        example.train_and_evaluate(_config(tmp_path, "odd", devices=3))
    with pytest.raises(ParallelSettingError, match="has 8 CPU devices; set NUMBAX_NUM_CPU"):
        example.train_and_evaluate(_config(tmp_path, "many", devices=16, batch_size=32))
    assert not (tmp_path / "odd").exists() and not (tmp_path / "many").exists()


def test_two_processes_under_mpiexec(tmp_path, one_device, mpiexec):
    args = ["--epochs", "1", "--limit-train", "1024", "--limit-test", "500", "--no-progress"]
    run = subprocess.run(
        [mpiexec, "-n", "2", sys.executable, "-m", "examples.mnist.train", *args]
        + ["--logdir", str(tmp_path), "--name", "mpi"],
        env=dict(os.environ, NUMBAX_NUM_CPU_DEVICES="1", PYTHONPATH=str(REPO)),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.count("final test accuracy") == 1  # process 0 reports, process 1 is quiet
    assert "over 2 devices" in run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mpi"]
    state = checkpoints.restore_checkpoint(tmp_path / "mpi" / "checkpoints", one_device["state"])
    _assert_same_training(state.params, {}, one_device)
    # Each process evaluated half of the test set; the merged metrics are the whole set's.
    loss, accuracy = re.search(r"test loss ([0-9.]+) acc ([0-9.]+)", run.stdout).groups()
    assert float(loss) == pytest.approx(one_device["test_loss"], abs=2e-4)
    assert float(accuracy) == pytest.approx(one_device["test_accuracy"], abs=2e-4)
