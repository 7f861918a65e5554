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

"""Optax's examples/adversarial_training.ipynb: a CNN trained with adam on PGD adversarial
examples (`jit`-compiled attack unrolling ten `grad`s, `tree_norm` weight decay), clean and
adversarial accuracies, the search for a misclassified adversarial image. The notebook's cells
verbatim in `run()` without the plots and timing; mnist is random uint8 images of its shape
(two training batches and one test batch of 4), 2 epochs instead of 10; run() returns what it
printed, the accuracies, the parameters and the image found."""

import datetime

import jax
from jax import numpy as jnp
from flax import linen as nn

import optax
from optax.losses import softmax_cross_entropy_with_integer_labels
from optax.tree_utils import tree_norm



import numpy as np


def run():
  printed = []
  print = lambda *args: printed.append(' '.join(map(str, args)))
  # @markdown Total number of epochs to train for:
  EPOCHS = 2  # @param{type:"integer"}
  # @markdown Number of samples for each batch in the training set:
  TRAIN_BATCH_SIZE = 4  # @param{type:"integer"}
  # @markdown Number of samples for each batch in the test set:
  TEST_BATCH_SIZE = 4  # @param{type:"integer"}
  # @markdown Learning rate for the optimizer:
  LEARNING_RATE = 0.001  # @param{type:"number"}
  # @markdown The dataset to use.
  DATASET = "mnist"  # @param{type:"string"}
  # @markdown The amount of L2 regularization to use:
  L2_REG = 0.0001  # @param{type:"number"}
  # @markdown Adversarial perturbations lie within the infinity-ball of radius epsilon.
  EPSILON = 0.01  # @param{type:"number"}

  # mnist's shapes and dtypes, random images: two training and one test batch
  rs = np.random.RandomState(0)
  train_loader_batched = [(rs.randint(0, 256, (TRAIN_BATCH_SIZE, 28, 28, 1)).astype(np.uint8),
                           rs.randint(0, 10, TRAIN_BATCH_SIZE)) for _ in range(2)]
  test_loader_batched = [(rs.randint(0, 256, (TEST_BATCH_SIZE, 28, 28, 1)).astype(np.uint8),
                          rs.randint(0, 10, TEST_BATCH_SIZE))]
  input_shape = (1, 28, 28, 1)
  num_classes = 10
  iter_per_epoch_train = len(train_loader_batched)
  iter_per_epoch_test = len(test_loader_batched)

  class CNN(nn.Module):
    """A simple CNN model."""
    num_classes: int

    @nn.compact
    def __call__(self, x):
      x = nn.Conv(features=32, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = nn.Conv(features=64, kernel_size=(3, 3))(x)
      x = nn.relu(x)
      x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
      x = x.reshape((x.shape[0], -1))  # flatten
      x = nn.Dense(features=256)(x)
      x = nn.relu(x)
      x = nn.Dense(features=self.num_classes)(x)
      return x

  net = CNN(num_classes)

  @jax.jit
  def accuracy(params, data):
    inputs, labels = data
    logits = net.apply({"params": params}, inputs)
    return jnp.mean(jnp.argmax(logits, axis=-1) == labels)


  @jax.jit
  def loss_fun(params, l2reg, data):
    """Compute the loss of the network."""
    inputs, labels = data
    x = inputs.astype(jnp.float32)
    logits = net.apply({"params": params}, x)
    sqnorm = tree_norm(params, squared=True)
    loss_value = jnp.mean(softmax_cross_entropy_with_integer_labels(logits, labels))
    return loss_value + 0.5 * l2reg * sqnorm

  @jax.jit
  def pgd_attack(image, label, params, epsilon=0.1, maxiter=10):
    """PGD attack on the L-infinity ball with radius epsilon.

    Args:
      image: array-like, input data for the CNN
      label: integer, class label corresponding to image
      params: tree, parameters of the model to attack
      epsilon: float, radius of the L-infinity ball.
      maxiter: int, number of iterations of this algorithm.

    Returns:
      perturbed_image: Adversarial image on the boundary of the L-infinity ball
        of radius epsilon and centered at image.

    Notes:
      PGD attack is described in (Madry et al. 2017),
      https://arxiv.org/pdf/1706.06083.pdf
    """
    image_perturbation = jnp.zeros_like(image)
    def adversarial_loss(perturbation):
      return loss_fun(params, 0, (image + perturbation, label))

    grad_adversarial = jax.grad(adversarial_loss)
    for _ in range(maxiter):
      # compute gradient of the loss wrt to the image
      sign_grad = jnp.sign(grad_adversarial(image_perturbation))

      # heuristic step-size 2 eps / maxiter
      image_perturbation += (2 * epsilon / maxiter) * sign_grad
      # projection step onto the L-infinity ball centered at image
      image_perturbation = jnp.clip(image_perturbation, - epsilon, epsilon)

    # clip the image to ensure pixels are between 0 and 1
    return jnp.clip(image + image_perturbation, 0, 1)

  def dataset_stats(params, data_loader, iter_per_epoch):
    """Computes accuracy on clean and adversarial images."""
    adversarial_accuracy = 0.
    clean_accuracy = 0.
    for batch in data_loader:
      images, labels = batch
      images = images.astype(jnp.float32) / 255
      clean_accuracy += jnp.mean(accuracy(params, (images, labels))) / iter_per_epoch
      adversarial_images = pgd_attack(images, labels, params, epsilon=EPSILON)
      adversarial_accuracy += jnp.mean(accuracy(params, (adversarial_images, labels))) / iter_per_epoch
    return {"adversarial accuracy": adversarial_accuracy, "accuracy": clean_accuracy}

  @jax.jit
  def train_step(params, opt_state, batch):
    images, labels = batch
    # convert images to float as attack requires to take gradients wrt to them
    images = images.astype(jnp.float32) / 255
    adversarial_images_train = pgd_attack(images, labels, params, epsilon=EPSILON)
    # train on adversarial images
    loss_grad_fun = jax.grad(loss_fun)
    grads = loss_grad_fun(params, L2_REG, (adversarial_images_train, labels))
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state

  # Initialize parameters.
  key = jax.random.PRNGKey(0)
  var_params = net.init(key, jnp.zeros(input_shape))["params"]

  # Initialize the optimizer.
  optimizer = optax.adam(LEARNING_RATE)
  opt_state = optimizer.init(var_params)

  start = datetime.datetime.now().replace(microsecond=0)

  accuracy_train = []
  accuracy_test = []
  adversarial_accuracy_train = []
  adversarial_accuracy_test = []
  for epoch in range(EPOCHS):
    for train_batch in train_loader_batched:
      var_params, opt_state = train_step(var_params, opt_state, train_batch)

    # compute train set accuracy, both on clean and adversarial images
    train_stats = dataset_stats(var_params, train_loader_batched, iter_per_epoch_train)
    accuracy_train.append(train_stats["accuracy"])
    adversarial_accuracy_train.append(train_stats["adversarial accuracy"])

    # compute test set accuracy, both on clean and adversarial images
    test_stats = dataset_stats(var_params, test_loader_batched, iter_per_epoch_test)
    accuracy_test.append(test_stats["accuracy"])
    adversarial_accuracy_test.append(test_stats["adversarial accuracy"])

    time_elapsed = (datetime.datetime.now().replace(microsecond=0) - start)
    print(f"Epoch {epoch} out of {EPOCHS}")
    print(f"Accuracy on train set: {accuracy_train[-1]:.3f}")
    print(f"Accuracy on test set: {accuracy_test[-1]:.3f}")
    print(f"Adversarial accuracy on train set: {adversarial_accuracy_train[-1]:.3f}")
    print(f"Adversarial accuracy on test set: {adversarial_accuracy_test[-1]:.3f}")

  def find_adversarial_imgs(params, loader_batched):
    """Finds a test set image that is correctly classified but not its adversarial perturbation."""
    for batch in loader_batched:
      images, labels = batch
      images = images.astype(jnp.float32) / 255
      logits = net.apply({"params": params}, images)
      labels_clean = jnp.argmax(logits, axis=-1)

      adversarial_images = pgd_attack(images, labels, params, epsilon=EPSILON)
      labels_adversarial = jnp.argmax(
          net.apply({"params": params}, adversarial_images), axis=-1
      )
      idx_misclassified = jnp.where(labels_clean != labels_adversarial)[0]
      for j in idx_misclassified:
        clean_image = images[j]
        prediction_clean = labels_clean[j]
        if prediction_clean != labels[j]:
          # the clean image predicts the wrong label, skip
          continue
        adversarial_image = adversarial_images[j]
        adversarial_prediction = labels_adversarial[j]
        # we found our image
        return (
            clean_image,
            prediction_clean,
            adversarial_image,
            adversarial_prediction,
        )

    raise ValueError("No mismatch between clean and adversarial prediction found")


  try:  # none on these random images (the notebook's own error)
    img_clean, pred_clean, img_adversarial, prediction_adversarial = (
        find_adversarial_imgs(var_params, test_loader_batched)
    )
    found = [img_clean, pred_clean, img_adversarial, prediction_adversarial]
  except ValueError as e:
    found = str(e)
  return dict(printed=printed, accuracy_train=accuracy_train, accuracy_test=accuracy_test,
              adversarial_accuracy_train=adversarial_accuracy_train,
              adversarial_accuracy_test=adversarial_accuracy_test,
              params=jax.tree_util.tree_leaves(var_params), found=found)
