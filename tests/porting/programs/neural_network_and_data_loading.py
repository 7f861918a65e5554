# Copyright 2018 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""JAX's docs/notebooks/Neural_Network_and_Data_Loading.md ("Training a simple neural network,
with PyTorch data loading"): its code cells verbatim in `run()` (an MLP's parameters as a list
of `(w, b)` tuples from split keys, a per-example `predict` with `logsumexp`, its shape error
on a batch caught as `TypeError`, `vmap(predict, in_axes=(None, 0))`, a `one_hot` by
broadcasting comparison, a jitted `update` returning a list of tuples, `tree_map(np.asarray,
...)` as the collate function, accuracies on uint8 train images and float32 test images).
Synthetic MNIST-shaped data (uint8 pixels, int64 labels) and batches collated as the
`DataLoader` did (float32 pixels from `flatten_and_cast`) in place of torchvision's MNIST: 4
batches of 128 per epoch, 512 training and 256 test images, 2 epochs instead of 8. run()
returns what it printed (the epochs' seconds taken out) and the parameters."""

from tests.porting import printed

import re


def _mnist_like(rng, n):
  """(port) `n` MNIST-shaped uint8 images and int64 labels, torchvision's MNIST's types."""
  return (rng.randint(0, 256, (n, 28, 28)).astype('uint8'),
          rng.randint(0, 10, (n,)).astype('int64'))


def run():
  with printed.Cells() as cells:
    params = _cells()
  lines = [re.sub(r' in [\d.]+ sec$', ' in # sec', line)  # (port) the times taken out
           for line in cells.take().splitlines()]
  return dict(printed=printed.numbered('\n'.join(lines), printed.NUMBER), params=params)


def _cells():
  import jax.numpy as jnp
  from jax import grad, jit, vmap
  from jax import random

  # A helper function to randomly initialize weights and biases
  # for a dense neural network layer
  def random_layer_params(m, n, key, scale=1e-2):
    w_key, b_key = random.split(key)
    return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

  # Initialize all layers for a fully-connected neural network with sizes "sizes"
  def init_network_params(sizes, key):
    keys = random.split(key, len(sizes))
    return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

  layer_sizes = [784, 512, 512, 10]
  step_size = 0.01
  num_epochs = 2  # (port) 8
  batch_size = 128
  n_targets = 10
  params = init_network_params(layer_sizes, random.key(0))

  from jax.scipy.special import logsumexp

  def relu(x):
    return jnp.maximum(0, x)

  def predict(params, image):
    # per-example predictions
    activations = image
    for w, b in params[:-1]:
      outputs = jnp.dot(w, activations) + b
      activations = relu(outputs)

    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, activations) + final_b
    return logits - logsumexp(logits)

  # This works on single examples
  random_flattened_image = random.normal(random.key(1), (28 * 28,))
  preds = predict(params, random_flattened_image)
  print(preds.shape)

  # Doesn't work with a batch
  random_flattened_images = random.normal(random.key(1), (10, 28 * 28))
  try:
    preds = predict(params, random_flattened_images)
  except TypeError:
    print('Invalid shapes!')

  # Let's upgrade it to handle batches using `vmap`

  # Make a batched version of the `predict` function
  batched_predict = vmap(predict, in_axes=(None, 0))

  # `batched_predict` has the same call signature as `predict`
  batched_preds = batched_predict(params, random_flattened_images)
  print(batched_preds.shape)

  def one_hot(x, k, dtype=jnp.float32):
    """Create a one-hot encoding of x of size k."""
    return jnp.array(x[:, None] == jnp.arange(k), dtype)

  def accuracy(params, images, targets):
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
    return jnp.mean(predicted_class == target_class)

  def loss(params, images, targets):
    preds = batched_predict(params, images)
    return -jnp.mean(preds * targets)

  @jit
  def update(params, x, y):
    grads = grad(loss)(params, x, y)
    return [(w - step_size * dw, b - step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]

  import numpy as np
  from jax.tree_util import tree_map

  def numpy_collate(batch):
    """
    Collate function specifies how to combine a list of data samples into a batch.
    default_collate creates pytorch tensors, then tree_map converts them into numpy arrays.
    """
    return tree_map(np.asarray, default_collate(batch))

  def flatten_and_cast(pic):
    """Convert PIL image to flat (1-dimensional) numpy array."""
    return np.ravel(np.array(pic, dtype=jnp.float32))

  # (port) synthetic MNIST in place of torchvision's; torch's default_collate as numpy's
  # stacking (each sample a (flat float32 image, int64 label) pair), DataLoader as batching
  rng = np.random.RandomState(0)
  train_data, train_targets = _mnist_like(rng, 4 * batch_size)
  test_data, test_targets = _mnist_like(rng, 2 * batch_size)

  def default_collate(batch):
    return [np.stack([sample[0] for sample in batch]),
            np.array([sample[1] for sample in batch])]

  mnist_dataset = [(flatten_and_cast(img), label) for img, label in zip(train_data, train_targets)]
  training_generator = [numpy_collate(mnist_dataset[i:i + batch_size])
                        for i in range(0, len(mnist_dataset), batch_size)]

  # Get the full train dataset (for checking accuracy while training)
  train_images = np.array(train_data).reshape(len(train_data), -1)
  train_labels = one_hot(np.array(train_targets), n_targets)

  # Get full test dataset
  test_images = jnp.array(test_data.reshape(len(test_data), -1), dtype=jnp.float32)
  test_labels = one_hot(np.array(test_targets), n_targets)

  import time

  for epoch in range(num_epochs):
    start_time = time.time()
    for x, y in training_generator:
      y = one_hot(y, n_targets)
      params = update(params, x, y)
    epoch_time = time.time() - start_time

    train_acc = accuracy(params, train_images, train_labels)
    test_acc = accuracy(params, test_images, test_labels)
    print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
    print("Training set accuracy {}".format(train_acc))
    print("Test set accuracy {}".format(test_acc))

  print(type(params).__name__, [type(p).__name__ for p in params])  # (port) shown
  print(train_images.dtype, train_labels.dtype, test_images.dtype, x.dtype, y.dtype)  # (port)
  return params
