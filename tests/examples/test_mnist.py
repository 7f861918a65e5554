"""The MNIST example: parameter counts, a one-epoch smoke run, TensorBoard curves, run
directories, --resume, Ctrl-C and the command line."""

import dataclasses
import gzip
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from core import random, tree_util
from examples.mnist import progress
from examples.mnist import train as example
from examples.mnist.errors import (
    CheckpointDirInUseError,
    DataDirNotFoundError,
    ResumeMismatchError,
    RunExistsError,
    RunNameError,
    RunNotFoundError,
)
from examples.mnist.models import get_model
from tests.core.profiler.protos import parse_pprof
from train import checkpoints
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
    assert (config.epochs, config.seed, config.style, config.log_every) == (3, 0, "compact", 50)


def test_learning_rate_schedules():
    config = example.Config(epochs=3).resolved()
    cosine = example.learning_rate_fn(config, 100)
    assert [float(cosine(s)) for s in (0, 150, 300)] == pytest.approx([1e-3, 5e-4, 0.0], abs=1e-9)
    constant = example.learning_rate_fn(dataclasses.replace(config, schedule="constant"), 100)
    assert float(constant(300)) == pytest.approx(1e-3)
    with pytest.raises(ValueError, match="use 'cosine' or 'constant'"):
        example.learning_rate_fn(dataclasses.replace(config, schedule="step"), 100)


def _config(tmp_path, name=None, **kwargs):
    kwargs.setdefault("limit_train", 2048)
    return example.Config(
        limit_test=1000, logdir=str(tmp_path), name=name, progress=False, **kwargs
    )


def test_one_epoch_smoke_logs_and_checkpoints(tmp_path, capsys):
    results = example.train_and_evaluate(_config(tmp_path, "run", epochs=1, log_every=16))
    assert results["test_accuracy"] > 0.6  # chance is 0.1
    assert results["train_loss"] < 1.5  # log(10) = 2.3 at the start
    assert results["num_params"] == MLP_PARAMS
    assert int(results["state"].step) == 2048 // 32

    run = tmp_path / "run"
    scalars = read_scalars(run)
    # per-step curves, the global step on the x axis
    for tag in ("train/loss", "train/accuracy", "learning_rate"):
        assert [step for step, _ in scalars[tag]] == [16, 32, 48, 64], tag
    assert [step for step, _ in scalars["steps_per_sec"]] == [16, 32, 48, 64]
    lr_at = [1e-3 * 0.5 * (1 + np.cos(np.pi * (s - 1) / 64)) for s in (16, 32, 48, 64)]
    assert [v for _, v in scalars["learning_rate"]] == pytest.approx(lr_at, rel=1e-4)
    losses = [v for _, v in scalars["train/loss"]]
    assert losses[0] > losses[-1] and np.mean(losses) == pytest.approx(
        results["train_loss"], rel=0.05
    )
    # per-epoch test metrics at the epoch's last step
    assert scalars["test/accuracy"] == [(64, pytest.approx(results["test_accuracy"]))]
    tags = [v.tag for e in read_events(run) for v in e.summary.value]
    assert {"config/text_summary", "params/Dense_0/kernel"} <= set(tags)
    assert tags.count("_hparams_/experiment") == 1
    assert available_steps(run / "checkpoints") == [64]
    assert json.loads((run / "config.json").read_text())["lr"] == 1e-3
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-3].startswith("final test accuracy")
    assert out[-2] == f"logs:       {run}  (view: tensorboard --logdir {tmp_path})"
    assert out[-1].startswith(f"checkpoint: {run / 'checkpoints' / 'checkpoint_64'}")
    assert f"--resume --name run --logdir {tmp_path}" in out[-1]


def test_every_run_gets_its_own_directory(tmp_path):
    first, second = (example.prepare_run(_config(tmp_path))[1] for _ in range(2))
    assert first != second and first.parent == second.parent == tmp_path
    example.prepare_run(_config(tmp_path, "named"))
    with pytest.raises(RunExistsError, match="--resume --name named"):
        example.prepare_run(_config(tmp_path, "named"))
    for bad in ("../elsewhere", "a/b", ".."):
        with pytest.raises(RunNameError, match="one directory name"):
            example.prepare_run(_config(tmp_path, bad))
    shared = tmp_path / "shared_checkpoints"
    checkpoints.save_checkpoint(shared, {"w": np.zeros(2)}, step=8)
    with pytest.raises(CheckpointDirInUseError, match="holds checkpoints \\(steps 8\\)"):
        example.prepare_run(_config(tmp_path, checkpoint_dir=str(shared)))


def _interrupt_at(monkeypatch, at_step, how):
    """Makes train_step deliver Ctrl-C at a global step: a real SIGINT after the step
    ("signal", the first Ctrl-C), or a KeyboardInterrupt inside it ("raise", a second one)."""
    step_fn = example.train_step

    def interrupted(state, batch):
        if int(state.step) + 1 == at_step:
            if how == "raise":
                raise KeyboardInterrupt
            signal.raise_signal(signal.SIGINT)
        return step_fn(state, batch)

    monkeypatch.setattr(example, "train_step", interrupted)


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    """An uninterrupted 2-epoch run, to compare interrupted and resumed runs with."""
    return example.train_and_evaluate(_config(tmp_path_factory.mktemp("runs"), "a", epochs=2))


@pytest.mark.parametrize("how, saved_step", [("signal", 80), ("raise", 79)])
def test_ctrl_c_saves_and_resume_continues_exactly(
    tmp_path, monkeypatch, capsys, straight, how, saved_step
):
    handler = signal.getsignal(signal.SIGINT)  # ignored when run as a background job
    with monkeypatch.context() as m:  # stopped in the middle of the second epoch (64 steps each)
        _interrupt_at(m, 80, how)
        with pytest.raises(KeyboardInterrupt):
            example.train_and_evaluate(_config(tmp_path, "resumed", epochs=2))
    checkpoints_dir = tmp_path / "resumed" / "checkpoints"
    assert available_steps(checkpoints_dir) == [64, saved_step]
    out = capsys.readouterr().out
    assert f"interrupted at step {saved_step} (epoch 2, batch {saved_step - 64}/64)" in out
    assert "resume with: python -m examples.mnist.train --resume --name resumed" in out
    assert signal.getsignal(signal.SIGINT) is handler  # restored

    # --resume with nothing else: the latest run (the interrupted one), its settings
    resumed = example.train_and_evaluate(_config(tmp_path, limit_train=None, resume=True))
    assert resumed["config"].name == "resumed" and resumed["config"].limit_train == 2048
    assert resumed["start_step"] == saved_step and len(resumed["epoch_times"]) == 1
    assert available_steps(checkpoints_dir) == [64, saved_step, 128]
    a = tree_util.tree_leaves(straight["state"].params)
    b = tree_util.tree_leaves(resumed["state"].params)
    for x, y in zip(a, b):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6, atol=1e-7)
    assert resumed["test_accuracy"] == pytest.approx(straight["test_accuracy"], abs=1e-3)
    assert resumed["train_loss"] == pytest.approx(straight["train_loss"], rel=1e-5)
    points = read_scalars(tmp_path / "resumed")
    assert [step for step, _ in points["test/accuracy"]] == [64, 128]
    assert [step for step, _ in points["train/loss"]] == [50, 100]
    tags = [v.tag for e in read_events(tmp_path / "resumed") for v in e.summary.value]
    assert tags.count("_hparams_/experiment") == 1  # hparams once per run


def test_resume_refuses_other_settings_and_missing_runs(tmp_path):
    with pytest.raises(RunNotFoundError, match="runs there: none"):
        example.prepare_run(_config(tmp_path, resume=True))
    example.prepare_run(_config(tmp_path, "a", epochs=2))
    with pytest.raises(RunNotFoundError, match="no run 'b'.*runs there: a"):
        example.prepare_run(_config(tmp_path, "b", resume=True))
    with pytest.raises(ResumeMismatchError, match="epochs: the run has 2, given 3"):
        example.prepare_run(_config(tmp_path, "a", epochs=3, resume=True))
    config, _ = example.prepare_run(_config(tmp_path, "a", epochs=2, resume=True))
    assert (config.epochs, config.lr, config.model) == (2, 1e-3, "mlp")


def test_missing_data_dir_is_an_error(tmp_path):
    with pytest.raises(DataDirNotFoundError, match="--data-dir .*nowhere: no such directory"):
        example.train_and_evaluate(_config(tmp_path, data_dir=str(tmp_path / "nowhere")))
    assert list(tmp_path.iterdir()) == [tmp_path / "nowhere"] or not list(tmp_path.iterdir())


def _run_cli(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "examples.mnist.train", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        **kwargs,
    )


def test_command_line(tmp_path):
    help_text = _run_cli("--help", check=True).stdout
    for flag in ("--epochs", "--model", "--name", "--log-every", "--checkpoint-dir", "--resume"):
        assert flag in help_text
    assert "--limit-train" not in help_text
    args = ["--epochs", "1", "--limit-train", "512", "--limit-test", "500", "--no-progress"]
    run = _run_cli(*args, "--logdir", str(tmp_path), "--name", "cli")
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-3:]
    assert last[0].startswith("final test accuracy") and "wall time" in last[0]
    assert f"tensorboard --logdir {tmp_path}" in last[1]
    assert "checkpoint_16" in last[2]


def test_command_line_errors_are_one_line_and_status_2(tmp_path, capsys):
    example.prepare_run(_config(tmp_path, "cli"))
    assert example.main(["--logdir", str(tmp_path), "--name", "cli"]) == 2
    assert "error: run 'cli' already exists" in capsys.readouterr().err
    assert example.main(["--data-dir", str(tmp_path / "nowhere"), "--logdir", str(tmp_path)]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_ctrl_c_on_the_command_line(tmp_path):
    args = ["--epochs", "50", "--limit-train", "2048", "--no-progress", "--log-every", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "examples.mnist.train", *args, "--logdir", str(tmp_path)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(tmp_path.glob("*/events.out.tfevents.*")):
        time.sleep(0.2)
    while time.monotonic() < deadline and "train/loss" not in read_scalars(
        next(tmp_path.glob("*"))
    ):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "SystemError" not in err
    assert "resume with: python -m examples.mnist.train --resume --name" in out
    run_dir = next(tmp_path.glob("*"))
    assert available_steps(run_dir / "checkpoints")


def test_profile_traces_steps_of_the_second_epoch(tmp_path, capsys):
    results = example.train_and_evaluate(
        _config(tmp_path, "prof", epochs=2, limit_train=512, profile=3)
    )
    run = tmp_path / "prof"
    (trace_dir,) = (run / "plugins" / "profile").iterdir()
    assert list(trace_dir.glob("*.xplane.pb"))
    trace = json.loads(gzip.decompress((trace_dir / "perfetto_trace.json.gz").read_bytes()))
    events = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    steps_per_epoch = 512 // 32
    first = steps_per_epoch + 10 + 1  # epoch 2, 10 steps in (global steps count from 1)
    assert [e["args"]["step_num"] for e in events if e["name"] == "train"] == [
        first,
        first + 1,
        first + 2,
    ]
    assert [e["name"] for e in events].count("jit_train_step") == 3
    names = {e["name"] for e in events}
    assert {"MLP/Dense_0/dot_general", "transpose(MLP)/Dense_2/dot_general"} <= names
    profile = parse_pprof((run / "memory.prof").read_bytes())
    assert sum(s.value[1] for s in profile.sample) > 4 * results["num_params"]
    assert "profiled 3 steps of epoch 2" in capsys.readouterr().out


def test_profile_flag():
    assert example.parse_args([]).profile == 0
    assert example.parse_args(["--profile"]).profile == 5
    assert example.parse_args(["--profile", "2"]).profile == 2


def test_compile_notice_only_when_slow(monkeypatch):
    monkeypatch.setattr(progress, "COMPILE_NOTICE_AFTER", 0.05)
    monkeypatch.setattr(progress, "_core_reports_compiles", lambda: False)  # jit_progress off
    lines = []

    def slow(x):
        time.sleep(0.3)
        return x

    assert progress.first_call(slow, 3, label="f", write=lines.append) == 3
    assert lines[0].startswith("compiling f with numba") and lines[1].startswith("compiled f in")
    lines.clear()
    assert progress.first_call(lambda: 1, label="g", write=lines.append) == 1
    time.sleep(0.1)
    assert lines == []  # fast calls say nothing
    monkeypatch.setattr(progress, "_core_reports_compiles", lambda: True)
    progress.first_call(slow, 1, label="h", write=lines.append)
    assert lines == []  # core.jit prints its own line
