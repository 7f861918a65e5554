"""Train an MNIST classifier: ``python -m examples.mnist.train [--model cnn] [--epochs 3] ...``.

The program is the Flax MNIST example with numbax imports (``core`` for ``jax``, ``nn`` for
``flax.linen``, ``optim`` for ``optax``, ``train`` for ``flax.training``):

1. load MNIST (or Fashion-MNIST) as numpy arrays and scale it to float32 once;
2. ``model.init`` the parameters and wrap them with the optimizer in a `TrainState`;
3. every epoch, shuffle with a key folded with the epoch number, run the jitted
   ``train_step(state, batch)`` over the batches (a tqdm bar shows the running loss and the
   steps per second; TensorBoard gets the loss, accuracy, learning rate and steps per second
   every ``--log-every`` steps), evaluate on the test set with the jitted ``eval_step`` and save
   a checkpoint.

Each run has its own directory ``{logdir}/{name}`` (`examples.mnist.runs`) with the event
files, ``config.json`` and the checkpoints, numbered by global step. The running loss and
accuracy are `train.metrics` pytrees kept in the state, so they are updated inside the compiled
step and saved with it. ``--resume`` restores the latest checkpoint of the latest (or named)
run with that run's settings and continues at the next step, drawing the batches an
uninterrupted run would, so it ends with the same parameters. Ctrl-C finishes the step, saves
a checkpoint and says how to resume (`examples.mnist.interrupt`).

``--devices N`` splits every batch over N CPU devices (`core.pmap`, gradients averaged), and
``mpiexec -n P python -m examples.mnist.train ...`` over P processes as well
(`examples.mnist.parallel`): the same batches and, to float rounding, the same results as one
device; only process 0 writes logs and checkpoints.

``train_and_evaluate(Config(...))`` runs the same program from Python and returns the results.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import itertools
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import core
import datasets
import optim
import train
from core import lax, random, tree_util
from examples.mnist import parallel, runs
from examples.mnist.errors import (
    CheckpointDirInUseError,
    DataDirNotFoundError,
    ExampleError,
    ResumeMismatchError,
)
from examples.mnist.interrupt import StopOnInterrupt
from examples.mnist.models import get_model
from examples.mnist.profiling import ProfileWindow
from examples.mnist.progress import StepLogger, first_call
from train import checkpoints, jax_utils
from train.metrics import Accuracy, Average, Collection
from train.tensorboard import SummaryWriter

# Per-model defaults, used when --lr / --batch-size / --schedule are not given.
MODEL_DEFAULTS = {
    # Adam, the Flax tutorial; the cosine decay of the learning rate over the run lifts the test
    # accuracy after 3 epochs from ~97.2% (constant 1e-3, in JAX too) to ~97.6% (4 seeds).
    "mlp": {"batch_size": 32, "lr": 1e-3, "schedule": "cosine"},
    # SGD with momentum 0.9 and a constant learning rate, the Flax MNIST example
    "cnn": {"batch_size": 128, "lr": 0.1, "schedule": "constant"},
}
# Defaults of the other settings that define a run (None in `Config` means "not given").
RUN_DEFAULTS = {"epochs": 3, "model": "mlp", "style": "compact", "seed": 0, "dataset": "mnist"}
# The settings that decide the model, the batches and the learning-rate schedule: a resumed
# run keeps the ones it was started with.
RUN_SETTINGS = (
    "epochs",
    "batch_size",
    "lr",
    "schedule",
    "model",
    "style",
    "seed",
    "dataset",
    "limit_train",
)


@dataclasses.dataclass
class Config:
    """Everything that defines a run (the command-line flags).

    Attributes:
        epochs: passes over the training set; None for 3.
        batch_size: examples per step; None for the model's default (32 MLP, 128 CNN).
        lr: (peak) learning rate; None for the model's default (Adam 1e-3 MLP, SGD 0.1 CNN).
        schedule: ``"cosine"`` (decay from ``lr`` to 0 over all the steps of the run) or
            ``"constant"``; None for the model's default (cosine MLP, constant CNN).
        model: ``"mlp"`` or ``"cnn"``; None for ``"mlp"``.
        style: ``"compact"`` or ``"setup"`` (how the model is written; same function); None
            for ``"compact"``.
        seed: seeds the parameters and the shuffling; None for 0.
        dataset: ``"mnist"`` or ``"fashion_mnist"``; None for ``"mnist"``.
        data_dir: where the dataset files are (see `datasets`); None searches the defaults.
        logdir: the directory of all runs; each run writes to ``{logdir}/{name}``.
        name: the run's name; None for the start time (``20261125-140102``).
        checkpoint_dir: checkpoint directory; None for ``{logdir}/{name}/checkpoints``.
        resume: continue the run called ``name`` (None: the latest run in ``logdir``) from its
            latest checkpoint, with its settings; the settings above left None take the run's
            values and any other value must equal the run's.
        log_every: optimizer steps between TensorBoard points of the training curves.
        limit_train: use only the first N training examples (smoke tests).
        limit_test: use only the first N test examples.
        progress: show the tqdm bar.
        eval_batch_size: examples per evaluation step.
        profile: trace this many steps of the second epoch for TensorBoard's Profile tab and
            save a memory profile (`examples.mnist.profiling`); 0 for none.
        devices: CPU devices per process that share each batch (`examples.mnist.parallel`).
    """

    epochs: int | None = None
    batch_size: int | None = None
    lr: float | None = None
    schedule: str | None = None
    model: str | None = None
    style: str | None = None
    seed: int | None = None
    dataset: str | None = None
    data_dir: str | None = None
    logdir: str = "runs/mnist"
    name: str | None = None
    checkpoint_dir: str | None = None
    resume: bool = False
    log_every: int = 50
    limit_train: int | None = None
    limit_test: int | None = None
    progress: bool = True
    eval_batch_size: int = 1000
    profile: int = 0
    devices: int = 1

    def resolved(self) -> Config:
        """A copy with the defaults of the run settings (per model where they differ)."""
        given = {k: getattr(self, k) for k in RUN_DEFAULTS}
        filled = {k: RUN_DEFAULTS[k] if v is None else v for k, v in given.items()}
        defaults = MODEL_DEFAULTS[filled["model"]]
        return dataclasses.replace(
            self,
            **filled,
            batch_size=self.batch_size or defaults["batch_size"],
            lr=self.lr if self.lr is not None else defaults["lr"],
            schedule=self.schedule or defaults["schedule"],
        )

    @property
    def optimizer(self) -> str:
        """A description of the optimizer the model uses."""
        lr = f"{self.lr}" if self.schedule == "constant" else f"cosine_decay({self.lr})"
        return f"adam({lr})" if self.model == "mlp" else f"sgd({lr}, momentum=0.9)"

    def resume_command(self) -> str:
        """The command line that continues this run."""
        logdir = "" if self.logdir == "runs/mnist" else f" --logdir {self.logdir}"
        return f"python -m examples.mnist.train --resume --name {self.name}{logdir}"


class Metrics(Collection):
    """Loss and accuracy, averaged over examples."""

    loss: Average.from_output("loss")
    accuracy: Accuracy


class TrainState(train.TrainState):
    """`train.TrainState` plus the running metrics of the current epoch."""

    metrics: Metrics


def learning_rate_fn(config: Config, steps_per_epoch: int) -> optim.Schedule:
    """The learning rate as a function of the step: constant, or a cosine decay from
    ``config.lr`` to 0 over ``config.epochs * steps_per_epoch`` steps."""
    if config.schedule == "constant":
        return optim.constant_schedule(config.lr)
    if config.schedule == "cosine":
        return optim.cosine_decay_schedule(config.lr, config.epochs * steps_per_epoch)
    raise ValueError(f"unknown schedule {config.schedule!r}; use 'cosine' or 'constant'")


def make_optimizer(config: Config, steps_per_epoch: int) -> optim.GradientTransformation:
    """Adam for the MLP (the Flax tutorial), SGD with momentum 0.9 for the CNN (Flax example),
    with the learning rate of `learning_rate_fn`."""
    lr = learning_rate_fn(config, steps_per_epoch)
    if config.model == "mlp":
        return optim.adam(lr)
    return optim.sgd(lr, momentum=0.9)


def create_train_state(
    config: Config, key: Any, image_shape: Sequence[int], steps_per_epoch: int
) -> TrainState:
    """Initializes the model's parameters with ``key`` and the optimizer state.

    Args:
        config: the run's settings (resolved).
        key: the PRNG key of the initialization.
        image_shape: the shape of one image, e.g. ``(28, 28, 1)``.
        steps_per_epoch: optimizer steps per epoch (the learning-rate schedule spans the run).

    Returns:
        The `TrainState` at step 0 with empty metrics.
    """
    model = get_model(config.model, config.style)
    variables = model.init(key, np.ones((1, *image_shape), np.float32))
    return TrainState.create(
        apply_fn=model.apply,
        params=variables["params"],
        tx=make_optimizer(config, steps_per_epoch),
        metrics=Metrics.empty(),
    )


def _loss_and_logits(params, state, batch):
    logits = state.apply_fn({"params": params}, batch["image"])
    losses = optim.softmax_cross_entropy_with_integer_labels(logits, batch["label"])
    return losses.mean(), (losses, logits)


def _step(state: TrainState, batch: dict[str, Any], axis_name: str | None = None) -> TrainState:
    grad_fn = core.value_and_grad(_loss_and_logits, has_aux=True)
    (_, (losses, logits)), grads = grad_fn(state.params, state, batch)
    batch_metrics = Metrics.single_from_model_output(
        loss=losses, logits=logits, labels=batch["label"]
    )
    if axis_name is not None:  # data-parallel: the global batch's gradients and metrics
        grads = lax.pmean(grads, axis_name)
        batch_metrics = lax.psum(batch_metrics, axis_name)
    return state.apply_gradients(grads=grads, metrics=state.metrics.merge(batch_metrics))


@core.jit
def train_step(state: TrainState, batch: dict[str, Any]) -> TrainState:
    """One optimizer step on ``batch``; also adds the batch to ``state.metrics``."""
    return _step(state, batch)


@core.jit
def eval_step(state: TrainState, batch: dict[str, Any]) -> Metrics:
    """The loss and accuracy of the model on ``batch``."""
    _, (losses, logits) = _loss_and_logits(state.params, state, batch)
    return Metrics.single_from_model_output(loss=losses, logits=logits, labels=batch["label"])


def evaluate(state: TrainState, data: dict[str, np.ndarray], batch_size: int) -> dict[str, float]:
    """Loss and accuracy on all of ``data`` (the last batch may be smaller). Under ``mpiexec``
    each process evaluates its share of ``data`` and the processes' metrics are merged."""
    data = parallel.process_share(data)
    metrics = Metrics.empty()
    size = max(1, min(batch_size, len(data["label"])))
    for i, batch in enumerate(datasets.batches(data, size, shuffle=False, drop_remainder=False)):
        if i == 0:
            out = first_call(eval_step, state, batch, label="eval_step", write=tqdm.write)
        else:
            out = eval_step(state, batch)
        metrics = metrics.merge(out)
    metrics = parallel.merge_over_processes(metrics)
    return {name: float(value) for name, value in metrics.compute().items()}


def _check_data_dir(config: Config) -> None:
    if config.data_dir is not None and not Path(config.data_dir).expanduser().is_dir():
        raise DataDirNotFoundError(config.data_dir)


def load_data(config: Config) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Train and test splits as ``{"image": float32[N, 28, 28, 1], "label": int32[N]}``.

    Raises:
        DataDirNotFoundError: ``config.data_dir`` is given but is not a directory.
    """
    _check_data_dir(config)
    loader = {"mnist": datasets.mnist, "fashion_mnist": datasets.fashion_mnist}[config.dataset]
    splits = loader.load(config.data_dir)

    def prepare(images, labels, limit):
        images, labels = images[:limit], labels[:limit]
        return {"image": datasets.to_float(images)[..., None], "label": labels.astype(np.int32)}

    return (
        prepare(splits.train_images, splits.train_labels, config.limit_train),
        prepare(splits.test_images, splits.test_labels, config.limit_test),
    )


def count_params(params: Any) -> int:
    """The number of parameters (array elements) in a tree."""
    return sum(int(np.size(leaf)) for leaf in tree_util.tree_leaves(params))


def _config_markdown(config: Config, num_params: int) -> str:
    rows = [f"| {k} | {v} |" for k, v in dataclasses.asdict(config).items()]
    rows += [f"| optimizer | {config.optimizer} |", f"| parameters | {num_params:,} |"]
    return "\n".join(["| setting | value |", "|---|---|", *rows])


def prepare_run(config: Config) -> tuple[Config, Path]:
    """The run's directory and its complete settings.

    A new run gets a new directory and writes its resolved settings to ``config.json``; a
    resumed run takes the settings from its ``config.json``.

    Args:
        config: the settings given.

    Returns:
        ``(config, run_dir)`` with every run setting, ``name`` and ``checkpoint_dir`` filled.

    Raises:
        RunExistsError: a new run would write into an existing run's directory.
        CheckpointDirInUseError: a new run's ``checkpoint_dir`` holds checkpoints.
        RunNotFoundError: ``resume`` found no run.
        ResumeMismatchError: ``resume`` with settings that differ from the run's.
    """
    if config.resume:
        run_dir = runs.find_run(config.logdir, config.name)
        saved = runs.read_config(run_dir)
        differences = {
            k: (saved[k], getattr(config, k))
            for k in RUN_SETTINGS
            if getattr(config, k) is not None and getattr(config, k) != saved[k]
        }
        if differences:
            raise ResumeMismatchError(run_dir, differences)
        checkpoint_dir = config.checkpoint_dir or saved["checkpoint_dir"]
        config = dataclasses.replace(
            config,
            **{k: saved[k] for k in RUN_SETTINGS},
            name=run_dir.name,
            checkpoint_dir=checkpoint_dir,
        )
        return config, run_dir
    config = config.resolved()
    taken = checkpoints.available_steps(config.checkpoint_dir) if config.checkpoint_dir else []
    if taken:
        raise CheckpointDirInUseError(config.checkpoint_dir, taken)
    run_dir = runs.new_run_dir(config.logdir, config.name)
    config = dataclasses.replace(
        config,
        name=run_dir.name,
        checkpoint_dir=config.checkpoint_dir or str(run_dir / "checkpoints"),
    )
    runs.write_config(run_dir, dataclasses.asdict(config))
    return config, run_dir


def _train_epoch(
    state: TrainState,
    data: dict[str, np.ndarray],
    config: Config,
    key: Any,
    epoch: int,
    skip: int,
    logger: StepLogger,
    stop: StopOnInterrupt,
    window: ProfileWindow,
    data_parallel: parallel.DataParallel | None = None,
) -> tuple[TrainState, float, int, bool]:
    """Trains one epoch from its batch ``skip`` on; returns the state, the time, the steps
    run and whether Ctrl-C stopped it (the state is then the last complete step's). With
    ``data_parallel`` the steps run replicated on its devices."""
    if skip == 0:
        state = state.replace(metrics=Metrics.empty())
    logger.start_window(state.metrics)
    epoch_batches = datasets.batches(data, config.batch_size, key=key, epoch=epoch)
    bar = tqdm(
        total=len(epoch_batches),
        initial=skip,
        desc=f"epoch {epoch}/{config.epochs}",
        unit="step",
        disable=not config.progress,
        leave=False,
        dynamic_ncols=True,
    )
    step, done, interrupted = int(state.step), 0, False
    step_fn, feed, metrics_of = train_step, lambda b: b, lambda s: s.metrics
    if data_parallel is not None:
        state = data_parallel.replicate(state)
        step_fn, feed = data_parallel.step, data_parallel.shard
        metrics_of = lambda s: jax_utils.unreplicate(s.metrics)  # noqa: E731
        parallel.wait_for_processes()  # the clock starts when every process can train
    start = time.perf_counter()
    for batch in itertools.islice(epoch_batches, skip, None):
        try:
            with window.around(epoch, skip + done, step + 1):
                if done == 0:
                    new_state = first_call(
                        step_fn, state, feed(batch), label="train_step", write=bar.write
                    )
                else:
                    new_state = step_fn(state, feed(batch))
        except KeyboardInterrupt:  # a second Ctrl-C: abandon this step
            interrupted = True
            break
        state, step, done = new_state, step + 1, done + 1
        logger.after_step(functools.partial(metrics_of, state), step)  # read when logged only
        if config.progress:
            bar.update(1)
            if done % 100 == 0:
                loss = metrics_of(state).loss.compute()
                bar.set_postfix(loss=f"{float(loss):.4f}", refresh=False)
        if stop.requested:
            interrupted = True
            break
    # Jitted steps return before their kernels have run (asynchronous dispatch): the epoch
    # ends when its last step has, not when it was queued.
    state = core.block_until_ready(state)
    epoch_time = time.perf_counter() - start
    bar.close()
    if data_parallel is not None:
        state = jax_utils.unreplicate(state)
    return state, epoch_time, done, interrupted


def _save_interrupted(config: Config, state: TrainState, steps_per_epoch: int) -> None:
    step = int(state.step)
    latest = checkpoints.available_steps(config.checkpoint_dir)
    if step > (latest[-1] if latest else 0):
        path = checkpoints.save_checkpoint(config.checkpoint_dir, state, step=step, keep=3)
    else:
        path = checkpoints.latest_checkpoint(config.checkpoint_dir) or "(none: no step done)"
    epoch, batch = divmod(step, steps_per_epoch)
    if step == 0:
        where = "before the first step"
    elif batch:
        where = f"epoch {epoch + 1}, batch {batch}/{steps_per_epoch}"
    else:
        where = f"end of epoch {epoch}"
    print(f"\ninterrupted at step {step} ({where}); checkpoint: {path}")
    print(f"resume with: {config.resume_command()}")


def train_and_evaluate(config: Config) -> dict[str, Any]:
    """Trains and evaluates as the command line does; returns the final results.

    Args:
        config: the run's settings; unset ones are filled in (from the resumed run's
            ``config.json`` with ``resume``).

    Returns:
        A dict with ``test_accuracy``, ``test_loss``, ``epoch_times`` (seconds, one per epoch
        run by this call), ``wall_time``, ``num_params``, ``start_step`` and ``start_epoch``
        (0, or where a resumed run continued), ``run_dir``, ``checkpoint``, the complete
        ``config``, the final ``state``, and ``train_accuracy``/``train_loss`` of the last
        epoch when this call ran one.

    Raises:
        ExampleError: a setting to fix (missing data directory, run exists or not found,
            settings that differ from the resumed run's).
        KeyboardInterrupt: Ctrl-C; the state of the last complete step was saved first and
            the command to resume printed.
    """
    wall_start = time.perf_counter()
    parallel.start_processes()  # under mpiexec: join the other processes, before any device use
    _check_data_dir(config)  # before a run directory is made
    if not config.resume:
        parallel.check(config.devices, config.resolved().batch_size)
    writes = parallel.is_writer()
    say = print if writes else lambda *args, **kwargs: None
    config, run_dir = parallel.on_writer(lambda: prepare_run(config))
    if not writes:
        config = dataclasses.replace(config, progress=False, profile=0)
    train_data, test_data = load_data(config)
    key = random.key(config.seed)
    init_key, shuffle_key = random.split(key)
    steps_per_epoch = len(train_data["label"]) // config.batch_size
    state = create_train_state(config, init_key, train_data["image"].shape[1:], steps_per_epoch)
    learning_rate = learning_rate_fn(config, steps_per_epoch)
    num_params = count_params(state.params)
    data_parallel = None
    if config.devices > 1 or core.process_count() > 1:
        data_parallel = parallel.DataParallel(config.devices, config.batch_size, _step)

    start_step = 0
    if config.resume:
        latest = checkpoints.latest_checkpoint(config.checkpoint_dir)
        if latest is not None:
            state = checkpoints.restore_checkpoint(config.checkpoint_dir, state)
            start_step = int(state.step)
        say(f"resuming run {config.name} at step {start_step} ({latest or 'no checkpoint yet'})")
    else:
        say(f"run {config.name}: logs and checkpoints in {run_dir}")
    say(
        f"{config.dataset}: {len(train_data['label'])} train / {len(test_data['label'])} test "
        f"examples; model {config.model} ({config.style}), {num_params:,} parameters; "
        f"{config.optimizer}, batch {config.batch_size}"
        + (
            f" over {len(data_parallel.devices) * core.process_count()} devices"
            if data_parallel
            else ""
        )
    )

    start_epoch = start_step // steps_per_epoch
    results: dict[str, Any] = {
        "epoch_times": [],
        "start_step": start_step,
        "start_epoch": start_epoch,
        "run_dir": str(run_dir),
        "config": config,
    }
    log = SummaryWriter(run_dir) if writes else parallel.NullWriter()
    with log as writer, StopOnInterrupt(tqdm.write) as stop:
        if start_step == 0:  # once per run, not again when it is resumed
            writer.text("config", _config_markdown(config, num_params), step=0)
            writer.hparams(
                {k: getattr(config, k) for k in RUN_SETTINGS if k != "limit_train"}
                | {"optimizer": config.optimizer},
                metrics=["test/accuracy", "test/loss", "train/loss"],
            )
        logger = StepLogger(writer, config.log_every, learning_rate)
        window = ProfileWindow(run_dir, config.profile, config.epochs, steps_per_epoch, tqdm.write)
        try:
            for epoch in range(start_epoch + 1, config.epochs + 1):
                skip = start_step - (epoch - 1) * steps_per_epoch if epoch == start_epoch + 1 else 0
                state, epoch_time, steps, interrupted = _train_epoch(
                    state,
                    train_data,
                    config,
                    shuffle_key,
                    epoch,
                    skip,
                    logger,
                    stop,
                    window,
                    data_parallel,
                )
                window.close()  # an epoch that stopped inside the window
                if interrupted:
                    raise KeyboardInterrupt
                step = int(state.step)
                train_metrics = {k: float(v) for k, v in state.metrics.compute().items()}
                test_metrics = evaluate(state, test_data, config.eval_batch_size)
                writer.scalars(
                    step,
                    {
                        "test/loss": test_metrics["loss"],
                        "test/accuracy": test_metrics["accuracy"],
                        "epoch": epoch,
                        "epoch_time": epoch_time,
                    },
                )
                writer.param_histograms(state.params, step)
                if writes:
                    checkpoints.save_checkpoint(config.checkpoint_dir, state, step=step, keep=3)
                results["epoch_times"].append(epoch_time)
                say(
                    f"epoch {epoch}: train loss {train_metrics['loss']:.4f} "
                    f"acc {train_metrics['accuracy']:.4f}, test loss {test_metrics['loss']:.4f} "
                    f"acc {test_metrics['accuracy']:.4f}, {epoch_time:.2f}s "
                    f"({steps / epoch_time:.0f} steps/s)"
                )
                results.update({f"train_{k}": v for k, v in train_metrics.items()})
        except KeyboardInterrupt:
            if writes:
                _save_interrupted(config, state, steps_per_epoch)
            raise
        if not results["epoch_times"]:  # resumed a finished run: just evaluate
            test_metrics = evaluate(state, test_data, config.eval_batch_size)
    results.update({f"test_{k}": v for k, v in test_metrics.items()})
    results.update(num_params=num_params, state=state)
    results["checkpoint"] = checkpoints.latest_checkpoint(config.checkpoint_dir)
    results["wall_time"] = time.perf_counter() - wall_start
    say(
        f"final test accuracy {results['test_accuracy']:.4f} "
        f"({100 * results['test_accuracy']:.2f}%) after {config.epochs} epochs; "
        f"wall time {results['wall_time']:.1f}s"
    )
    say(f"logs:       {run_dir}  (view: tensorboard --logdir {config.logdir})")
    say(f"checkpoint: {results['checkpoint']}  (continue: {config.resume_command()})")
    return results


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each default, except where the help text already explains it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if "(default:" in (action.help or "") or action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def parse_args(argv: Sequence[str] | None = None) -> Config:
    """The `Config` described by command-line arguments."""
    parser = argparse.ArgumentParser(
        prog="python -m examples.mnist.train",
        description="Train an MLP or CNN on MNIST with numbax, logging to TensorBoard.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--epochs",
        type=_positive_int,
        default=None,
        help="passes over the training set (default: 3)",
    )
    parser.add_argument(
        "--batch-size",
        type=_positive_int,
        default=None,
        help="examples per step (default: 32 mlp, 128 cnn)",
    )
    parser.add_argument(
        "--lr",
        type=float,
        default=None,
        help="(peak) learning rate (default: Adam 1e-3 for mlp, SGD 0.1 momentum 0.9 for cnn)",
    )
    parser.add_argument(
        "--schedule",
        choices=["cosine", "constant"],
        default=None,
        help="learning rate over the run: cosine decay to 0 or constant "
        "(default: cosine for mlp, constant for cnn)",
    )
    parser.add_argument(
        "--model", choices=["mlp", "cnn"], default=None, help="the network (default: mlp)"
    )
    parser.add_argument(
        "--style",
        choices=["compact", "setup"],
        default=None,
        help="how the model is written (default: compact)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seeds initialization and shuffling (default: 0)"
    )
    parser.add_argument(
        "--dataset",
        choices=["mnist", "fashion_mnist"],
        default=None,
        help="what to train on (default: mnist)",
    )
    parser.add_argument(
        "--data-dir", default=None, help="directory with the dataset files (default: search)"
    )
    parser.add_argument(
        "--logdir", default="runs/mnist", help="directory of all runs; a run writes to LOGDIR/NAME"
    )
    parser.add_argument(
        "--name", default=None, help="the run's name (default: the start time, 20261125-140102)"
    )
    parser.add_argument(
        "--checkpoint-dir",
        default=None,
        help="checkpoint directory (default: LOGDIR/NAME/checkpoints)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run --name (default: the latest run in LOGDIR) from its latest "
        "checkpoint, with its settings",
    )
    parser.add_argument(
        "--log-every",
        type=_positive_int,
        default=50,
        help="steps between points of the training curves",
    )
    parser.add_argument(
        "--profile",
        type=_positive_int,
        nargs="?",
        const=5,
        default=0,
        metavar="STEPS",
        help="trace STEPS steps (5 if not given) of the second epoch for TensorBoard's Profile "
        "tab (kernel by kernel) and save a pprof memory profile",
    )
    parser.add_argument(
        "--devices",
        type=_positive_int,
        default=1,
        help="CPU devices (per process, under mpiexec) that share every batch; more than the "
        "cores needs NUMBAX_NUM_CPU_DEVICES",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--limit-train", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--limit-test", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return Config(
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        schedule=args.schedule,
        model=args.model,
        style=args.style,
        seed=args.seed,
        dataset=args.dataset,
        data_dir=args.data_dir,
        logdir=args.logdir,
        name=args.name,
        checkpoint_dir=args.checkpoint_dir,
        resume=args.resume,
        log_every=args.log_every,
        limit_train=args.limit_train,
        limit_test=args.limit_test,
        progress=not args.no_progress,
        profile=args.profile,
        devices=args.devices,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point.

    Returns:
        0; 2 after a setting error (printed without a traceback, as argparse does); 130 after
        Ctrl-C (the shell's code for SIGINT), the checkpoint saved.
    """
    config = parse_args(argv)
    try:
        train_and_evaluate(config)
    except ExampleError as e:
        print(f"python -m examples.mnist.train: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
