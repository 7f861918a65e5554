"""train: the training utilities of numbax (the `flax.training` analogue).

    from train import TrainState, checkpoints, metrics
    from train.tensorboard import SummaryWriter

* `TrainState` bundles parameters, optimizer and optimizer state in one pytree;
  `train.recipes` extends it for BatchNorm statistics and dropout keys.
* `train.checkpoints` saves pytrees as versioned ``.npz`` files (no pickle), atomically, and
  restores them into a target tree, reporting mismatches by key path; it also reads and writes
  Flax's msgpack files (`train.serialization`, ``flax.serialization``), reads Orbax
  directories with the optional tensorstore (`train.orbax`), and `train.convert` converts
  files between the formats.
* `train.metrics` has running averages that are pytrees, so they merge inside `core.jit`.
* `train.tensorboard` writes TensorBoard event files through tensorboardX's protocol buffers
  (``flax.metrics.tensorboard``).
* Flax's smaller modules under the same names: `train.common_utils`, `train.jax_utils`
  (``flax.jax_utils``), `train.dynamic_scale`, `train.early_stopping`.
"""

from . import checkpoints, errors, metrics, recipes, serialization
from .checkpoints import latest_checkpoint, restore_checkpoint, save_checkpoint
from .recipes import BatchStatsTrainState, DropoutTrainState
from .train_state import TrainState

__all__ = [
    "BatchStatsTrainState",
    "DropoutTrainState",
    "TrainState",
    "checkpoints",
    "errors",
    "latest_checkpoint",
    "metrics",
    "recipes",
    "restore_checkpoint",
    "save_checkpoint",
    "serialization",
]
