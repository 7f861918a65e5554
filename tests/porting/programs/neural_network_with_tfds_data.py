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

"""JAX's docs/notebooks/neural_network_with_tfds_data.md ("Training a simple neural network,
with tensorflow/datasets data loading", 075da916a3): its code cells verbatim in `_cells()` (an
MLP's parameters as a list of `(w, b)` tuples from split keys, a per-example `predict` with
`logsumexp`, its shape error on a batch caught as `TypeError`, `vmap(predict, in_axes=(None,
0))`, a `one_hot` by broadcasting comparison, a jitted `update` fed uint8 batches, the full
sets `jnp.reshape`d from uint8 images). Synthetic MNIST-shaped data (uint8 (28, 28, 1) images,
int64 labels, `tfds.as_numpy`'s types) and its batches in place of `tfds.load`: 3 batches of
128 per epoch, 384 training and 128 test images, hidden layers of 128 instead of 512, 2
epochs instead of 10. run() returns what it printed (the epochs' seconds taken out) and the
parameters."""

from tests.porting import printed

import re


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

  layer_sizes = [784, 128, 128, 10]  # (port) [784, 512, 512, 10]
  step_size = 0.01
  num_epochs = 2  # (port) 10
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

  # (port) synthetic MNIST as `tfds.as_numpy` gives it, in place of `tfds.load`
  rng = np.random.RandomState(0)
  mnist_data = {split: {'image': rng.randint(0, 256, (n, 28, 28, 1)).astype('uint8'),
                        'label': rng.randint(0, 10, (n,)).astype('int64')}
                for split, n in [('train', 3 * batch_size), ('test', batch_size)]}
  train_data, test_data = mnist_data['train'], mnist_data['test']
  num_labels = 10
  h, w, c = (28, 28, 1)
  num_pixels = h * w * c

  # Full train set
  train_images, train_labels = train_data['image'], train_data['label']
  train_images = jnp.reshape(train_images, (len(train_images), num_pixels))
  train_labels = one_hot(train_labels, num_labels)

  # Full test set
  test_images, test_labels = test_data['image'], test_data['label']
  test_images = jnp.reshape(test_images, (len(test_images), num_pixels))
  test_labels = one_hot(test_labels, num_labels)

  print('Train:', train_images.shape, train_labels.shape)
  print('Test:', test_images.shape, test_labels.shape)

  import time

  def get_train_batches():
    # (port) the batches of `ds.batch(batch_size)`, as_supervised: (image, label) tuples
    return [(train_data['image'][i:i + batch_size], train_data['label'][i:i + batch_size])
            for i in range(0, len(train_data['image']), batch_size)]

  for epoch in range(num_epochs):
    start_time = time.time()
    for x, y in get_train_batches():
      x = jnp.reshape(x, (len(x), num_pixels))
      y = one_hot(y, num_labels)
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
