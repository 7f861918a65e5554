# Copyright 2019 DeepMind Technologies Limited. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Optax's examples/cifar10_resnet.ipynb, Linen version (9015713f, before 6d4c8313 moved it to
NNX): a Flax Linen ResNet V1 (`ResNetBlock`s given `partial`s of `nn.Conv` and
`nn.BatchNorm(scale_init=zeros_init())`, a dict-valued module attribute, a 1x1 projection
shortcut) whose train and eval applies are the branches of a `lax.cond` on a static Python
bool, a loss jitted with `static_argnums=(3,)` called with it by keyword under
`value_and_grad(has_aux=True)`, L2 regularization over the leaves with `ndim > 1`,
`sgd(linear_onecycle_schedule, momentum=0.9)`, a jitted train step carrying `batch_stats`.
The notebook's cells verbatim in `run()`: its model and loss at module level, the `@param`
cell's values smaller (`resnet1`, 1 epoch, batches of 16), synthetic CIFAR10-shaped uint8
images (unscaled, as tfds gave them) and int64 labels in place of `tfds.load` (3 training and 2
test batches, without the tf augmentation), the learning-rate plot's values instead of the
plots. run() returns what it printed (each line's text with the numbers taken out, compared
exactly, and its numbers), the accuracies, losses, parameters and batch statistics. One epoch:
at the peak learning rate on unscaled pixels the second epoch's steps amplify float32
round-off (a momentum entry of the first convolution 0.8% from JAX's after six steps)."""

import functools
from collections.abc import Callable
from typing import Any, Sequence, Tuple, Optional, Dict

from tests.porting import printed

from flax import linen as nn

import jax
import jax.numpy as jnp

import numpy as np

import optax
from functools import partial

# @markdown Total number of epochs to train for:
MAX_EPOCHS = 1  # @param{type:"integer"}
# @markdown Number of samples in each batch:
BATCH_SIZE = 16  # @param{type:"integer"}
# @markdown The initial learning rate for the optimizer:
PEAK_LR = 0.12  # @param{type:"number"}
# @markdown The model architecture for the neural network. Can be one of `'resnet1'`, `'resnet18'`, `'resnet34'`, `'resnet50'`, `'resnet101'`, `'resnet152'`, `'resnet200'`:
MODEL = "resnet1"  # @param{type:"string"}
# @markdown The dataset to use. Could be either `'cifar10'` or `'cifar100'`:
DATASET = "cifar10"  # @param{type:"string"}
# @markdown The amount of L2 regularization (aka weight decay) to use:
L2_REG = 1e-4  # @param{type:"number"}


class _Loader:
  """(port) A tfds split batched: `as_numpy_iterator()` over seeded CIFAR10-shaped batches."""

  def __init__(self, seed, num_batches):
    rng = np.random.RandomState(seed)
    self.batches = [(rng.randint(0, 256, (BATCH_SIZE, 32, 32, 3)).astype(np.uint8),
                     rng.randint(0, 10, (BATCH_SIZE,)).astype(np.int64))
                    for _ in range(num_batches)]

  def as_numpy_iterator(self):
    return iter(self.batches)


class _Info:
  """(port) The parts of tfds's `DatasetInfo` the notebook reads."""

  class _Label:
    num_classes = 10

  class _Image:
    shape = (32, 32, 3)

  class _Split:
    num_examples = 3 * BATCH_SIZE

  features = {"label": _Label, "image": _Image}
  splits = {"train": _Split}


info = _Info
NUM_CLASSES = info.features["label"].num_classes
IMG_SIZE = info.features["image"].shape
train_loader_batched = _Loader(0, 3)
test_loader_batched = _Loader(1, 2)

ModuleDef = Any


class ResNetBlock(nn.Module):
  """ResNet block."""

  filters: int
  conv: ModuleDef
  norm: ModuleDef
  act: Callable
  strides: Tuple[int, int] = (1, 1)

  @nn.compact
  def __call__(
      self,
      x,
  ):
    residual = x
    y = self.conv(self.filters, (3, 3), self.strides)(x)
    y = self.norm()(y)
    y = self.act(y)
    y = self.conv(self.filters, (3, 3))(y)
    y = self.norm(scale_init=nn.initializers.zeros_init())(y)

    if residual.shape != y.shape:
      residual = self.conv(self.filters, (1, 1), self.strides, name="conv_proj")(
          residual
      )
      residual = self.norm(name="norm_proj")(residual)

    return self.act(residual + y)


class BottleneckResNetBlock(nn.Module):
  """Bottleneck ResNet block."""

  filters: int
  conv: ModuleDef
  norm: ModuleDef
  act: Callable
  strides: Tuple[int, int] = (1, 1)

  @nn.compact
  def __call__(self, x):
    residual = x
    y = self.conv(self.filters, (1, 1))(x)
    y = self.norm()(y)
    y = self.act(y)
    y = self.conv(self.filters, (3, 3), self.strides)(y)
    y = self.norm()(y)
    y = self.act(y)
    y = self.conv(self.filters * 4, (1, 1))(y)
    y = self.norm(scale_init=nn.initializers.zeros_init())(y)

    if residual.shape != y.shape:
      residual = self.conv(self.filters * 4, (1, 1), self.strides, name="conv_proj")(
          residual
      )
      residual = self.norm(name="norm_proj")(residual)

    return self.act(residual + y)


class ResNet(nn.Module):
  """ResNetV1."""

  stage_sizes: Sequence[int]
  block_cls: ModuleDef
  num_classes: int
  num_filters: int = 64
  dtype: Any = jnp.float32
  act: Callable = nn.relu
  conv: ModuleDef = nn.Conv
  initial_conv_config: Optional[Dict[str, Any]] = None

  @nn.compact
  def __call__(self, x, train: bool = True):
    conv = partial(self.conv, use_bias=False, dtype=self.dtype)
    norm = partial(
        nn.BatchNorm,
        use_running_average=not train,
        momentum=0.9,
        epsilon=1e-5,
        dtype=self.dtype,
    )

    initial_conv_config = dict(self.initial_conv_config)
    initial_conv_config.setdefault("kernel_size", 7)
    initial_conv_config.setdefault("strides", 2)
    initial_conv_config.setdefault("with_bias", False)
    initial_conv_config.setdefault("padding", "SAME")
    initial_conv_config.setdefault("name", "initial_conv")

    x = conv(self.num_filters, **self.initial_conv_config)(x)
    x = norm(name="bn_init")(x)
    x = nn.relu(x)
    x = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")
    for i, block_size in enumerate(self.stage_sizes):
      for j in range(block_size):
        strides = (2, 2) if i > 0 and j == 0 else (1, 1)
        x = self.block_cls(
            self.num_filters * 2**i,
            strides=strides,
            conv=conv,
            norm=norm,
            act=self.act,
        )(x)
    x = jnp.mean(x, axis=(1, 2))
    x = nn.Dense(self.num_classes, dtype=self.dtype)(x)
    x = jnp.asarray(x, self.dtype)
    return x


ResNet1 = partial(ResNet, stage_sizes=[1], block_cls=ResNetBlock)
ResNet18 = partial(ResNet, stage_sizes=[2, 2, 2, 2], block_cls=ResNetBlock)
ResNet34 = partial(ResNet, stage_sizes=[3, 4, 6, 3], block_cls=ResNetBlock)
ResNet50 = partial(ResNet, stage_sizes=[3, 4, 6, 3], block_cls=BottleneckResNetBlock)
ResNet101 = partial(ResNet, stage_sizes=[3, 4, 23, 3], block_cls=BottleneckResNetBlock)
ResNet152 = partial(ResNet, stage_sizes=[3, 8, 36, 3], block_cls=BottleneckResNetBlock)
ResNet200 = partial(ResNet, stage_sizes=[3, 24, 36, 3], block_cls=BottleneckResNetBlock)

initial_conv_config = {"kernel_size": (3, 3), "strides": 1, "padding": "SAME"}

RESNET_CONSTRUCTOR = {
    "resnet1": ResNet1,
    "resnet18": ResNet18,
    "resnet34": ResNet34,
    "resnet50": ResNet50,
    "resnet101": ResNet101,
    "resnet152": ResNet152,
    "resnet200": ResNet200,
}

net = RESNET_CONSTRUCTOR[MODEL](num_classes=NUM_CLASSES, initial_conv_config=initial_conv_config)

def predict(params, bn_params, inputs, is_training=False):
  all_params = {"params": params, "batch_stats": bn_params}

  def train_fn(inputs):
    logits, net_state = net.apply(
        all_params, inputs, train=True, mutable=["batch_stats"]
    )
    return logits, net_state

  def eval_fn(inputs):
    logits = net.apply(all_params, inputs, train=False, mutable=False)
    return logits, {"batch_stats": bn_params}

  return jax.lax.cond(
      is_training, lambda x: train_fn(x), lambda x: eval_fn(x), inputs
  )


@partial(jax.jit, static_argnums=(3,))
def loss_accuracy(params, bn_params, data, is_training: bool = True):
  """Computes loss and accuracy over a mini-batch.

  Args:
    params: parameters of the model.
    bn_params: state of the model.
    data: tuple of (inputs, labels).
    is_training: if true, uses train mode, otherwise uses eval mode.

  Returns:
    loss: float
    aux: dictionary with keys "accuracy" and "batch_stats".
  """
  inputs, labels = data
  logits, net_state = predict(params, bn_params, inputs, is_training=is_training)
  mean_loss = optax.softmax_cross_entropy_with_integer_labels(
      logits=logits, labels=labels
  ).mean()
  accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
  l2_params = jax.tree.leaves(params)
  # Computes regularization on all except batchnorm parameters.
  weight_l2 = sum(jnp.sum(x**2) for x in l2_params if x.ndim > 1)
  loss = mean_loss + 0.5 * L2_REG * weight_l2
  return loss, {"accuracy": accuracy, "batch_stats": net_state["batch_stats"]}


def run():
  out = {}
  with printed.Cells(printed.numbered) as cells:
    _cells(out)
    cells.mark("cells")
  out["printed"] = cells.printed
  return out


def _cells(out):
  # Show on which platform JAX is running.
  print("JAX running on", jax.devices()[0].platform.upper())

  iter_per_epoch_train = info.splits["train"].num_examples // BATCH_SIZE
  lr_schedule = optax.linear_onecycle_schedule(
      MAX_EPOCHS * iter_per_epoch_train, PEAK_LR
  )

  iterate_subsample = np.linspace(0, MAX_EPOCHS * iter_per_epoch_train, 100)
  out["lr_plot"] = [lr_schedule(i) for i in iterate_subsample]

  solver = optax.sgd(lr_schedule, momentum=0.9, nesterov=False)

  # Initializes parameters.
  rng = jax.random.PRNGKey(0)
  dummy_data = jnp.ones((1,) + IMG_SIZE, dtype=jnp.float32)
  dummy_targets = jnp.ones(1, int)
  variables = net.init({"params": rng}, dummy_data)

  var_params, net_state = variables["params"], variables["batch_stats"]

  # Defines parameter update function.
  var_solver_state = solver.init(var_params)


  def dataset_stats(params, net_state, data_loader):
    """Computes loss and accuracy over the dataset `data_loader`."""
    all_accuracy = []
    all_loss = []
    for cur_batch in data_loader.as_numpy_iterator():
      batch_loss, batch_aux = loss_accuracy(
          params, net_state, cur_batch, is_training=False
      )
      all_loss.append(batch_loss)
      all_accuracy.append(batch_aux["accuracy"])
    return {"loss": np.mean(all_loss), "accuracy": np.mean(all_accuracy)}

  train_accuracy = []
  train_losses = []

  # Computes test set accuracy at initialization.
  test_stats = dataset_stats(var_params, net_state, test_loader_batched)
  test_accuracy = [test_stats["accuracy"]]
  test_losses = [test_stats["loss"]]


  @jax.jit
  def train_step(params, net_state, solver_state, batch):
    # Performs a one step update.
    (loss, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
        params, net_state, batch, is_training=True
    )
    updates, solver_state = solver.update(grad, solver_state)
    params = optax.apply_updates(params, updates)
    return params, solver_state, loss, aux


  # Executes a training loop.
  for epoch in range(MAX_EPOCHS):
    train_accuracy_epoch = []
    train_losses_epoch = []

    for train_batch in train_loader_batched.as_numpy_iterator():
      var_params, var_solver_state, train_loss, train_aux = train_step(
          var_params, net_state, var_solver_state, train_batch
      )
      net_state = train_aux["batch_stats"]
      train_accuracy_epoch.append(train_aux["accuracy"])
      train_losses_epoch.append(train_loss)

    #  Once per epoch, makes a pass over the test set to compute accuracy.
    test_stats = dataset_stats(var_params, net_state, test_loader_batched)
    test_accuracy.append(test_stats["accuracy"])
    test_losses.append(test_stats["loss"])
    train_accuracy.append(np.mean(train_accuracy_epoch))
    train_losses.append(np.mean(train_losses_epoch))

    # Prints accuracy every 10 epochs.
    if epoch % 10 == 0:
      print("Epoch: ", epoch)
      print("Test set accuracy: ", test_accuracy[-1])
      print("Train set accuracy: ", np.mean(train_accuracy_epoch))

  # Finally, let's print the test set accuracy
  print("Final accuracy on test set: ", test_accuracy[-1])

  # What the plots showed.
  out["curves"] = dict(test_accuracy=test_accuracy, train_accuracy=train_accuracy,
                       test_losses=test_losses, train_losses=train_losses)
  out["dtypes"] = [str(np.asarray(v).dtype) for v in (test_accuracy[-1], train_losses[-1])]
  out["params"] = var_params
  out["batch_stats"] = net_state
  out["solver_state"] = var_solver_state
