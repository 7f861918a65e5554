"""Multilayer perceptrons written with `jax.numpy` alone and trained by hand-written SGD on
batches that numpy collates: our own program over the APIs of JAX's from-scratch MNIST example
and its data-loading tutorials, on synthetic 8x8 images.

- A batched tanh network whose parameters are a list of `(w, b)` tuples of float64 numpy
  arrays from a seeded `RandomState` default argument, a log-softmax by
  `logsumexp(axis=1, keepdims=True)`, a jitted SGD step returning a new list of tuples (float32
  arrays under JAX's default 32-bit mode): the types and dtypes before and after, accuracies.
- A per-example ReLU network from split keys with `logsumexp` over all axes; the error of
  feeding it a batch (a `TypeError` from `dot`), `vmap(predict, in_axes=(None, 0))`.
- One-hot targets by comparing numpy labels with `jnp.arange`, batches collated by
  `tree_map(np.asarray, ...)` from lists of (float32 image, int64 label) pairs, and uint8 images
  `jnp.reshape`d and fed to the same jitted step (a second compile); accuracies on uint8 and
  float32 images.
- What it prints: shapes, accuracies as formatted JAX scalars, types and dtypes.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import random
from jax.scipy.special import logsumexp
from jax.tree_util import tree_map

from tests.porting import printed

PIXELS, CLASSES = 64, 10


def labelled_images(rs, count):
    """uint8 (count, 8, 8) images whose label brightens two rows, and int64 labels."""
    labels = rs.randint(0, CLASSES, count).astype("int64")
    images = rs.randint(0, 90, (count, 8, 8))
    images[np.arange(count), labels % 8] += 100
    images[np.arange(count), (labels + 3) % 8] += 60 * (labels >= 5)[:, None]
    return images.astype("uint8"), labels


LAYER_RNG = np.random.RandomState(7)


def gaussian_layers(sizes, scale=0.05, rng=LAYER_RNG):
    return [
        (scale * rng.randn(n_in, n_out), scale * rng.randn(n_out))
        for n_in, n_out in zip(sizes[:-1], sizes[1:])
    ]


def batch_log_probs(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    logits = x @ w + b
    return logits - logsumexp(logits, axis=1, keepdims=True)


def keyed_layers(sizes, key):
    def layer(n_in, n_out, k):
        w_key, b_key = random.split(k)
        return 0.01 * random.normal(w_key, (n_out, n_in)), 0.01 * random.normal(b_key, (n_out,))

    keys = random.split(key, len(sizes) - 1)
    return [layer(n_in, n_out, k) for n_in, n_out, k in zip(sizes[:-1], sizes[1:], keys)]


def example_log_probs(params, image):
    h = image
    for w, b in params[:-1]:
        h = jnp.maximum(0.0, jnp.dot(w, h) + b)
    w, b = params[-1]
    logits = jnp.dot(w, h) + b
    return logits - logsumexp(logits)


def one_hot(labels, k=CLASSES):
    return jnp.array(labels[:, None] == jnp.arange(k), jnp.float32)


def sgd_step(log_probs_fn, rate):
    def loss(params, x, y):
        return -jnp.mean(jnp.sum(log_probs_fn(params, x) * y, axis=1))

    @jax.jit
    def step(params, x, y):
        grads = jax.grad(loss)(params, x, y)
        return [(w - rate * gw, b - rate * gb) for (w, b), (gw, gb) in zip(params, grads)]

    return step


def accuracy(log_probs_fn, params, x, y):
    return jnp.mean(jnp.argmax(log_probs_fn(params, x), axis=1) == jnp.argmax(y, axis=1))


def collate(pairs):
    images = np.stack([image for image, _ in pairs])
    labels = np.array([label for _, label in pairs])
    return tree_map(np.asarray, [images, labels])


def batched_tanh_net(rs):
    images, labels = labelled_images(rs, 96)
    x = images.reshape(96, PIXELS).astype("float32") / 255.0
    y = (labels[:, None] == np.arange(CLASSES)).astype("float32")
    params = gaussian_layers([PIXELS, 32, 24, CLASSES])
    print("init", type(params).__name__, [type(w).__name__ + str(w.dtype) for w, _ in params])
    step = sgd_step(batch_log_probs, 0.5)
    for epoch in range(2):
        for start in range(0, 96, 32):
            params = step(params, x[start : start + 32], y[start : start + 32])
        print(f"tanh epoch {epoch} accuracy {accuracy(batch_log_probs, params, x, y)}")
    print("trained", type(params).__name__, [type(p).__name__ for p in params])
    print([str(w.dtype) for w, _ in params])
    return params


def per_example_relu_net(rs):
    params = keyed_layers([PIXELS, 32, CLASSES], random.key(0))
    one = random.normal(random.key(1), (PIXELS,))
    print(example_log_probs(params, one).shape)
    many = random.normal(random.key(1), (5, PIXELS))
    try:
        example_log_probs(params, many)
    except TypeError as e:
        print("batch refused:", str(e).splitlines()[0])
    predict = jax.vmap(example_log_probs, in_axes=(None, 0))
    print(predict(params, many).shape)

    train_images, train_labels = labelled_images(rs, 96)
    test_images, test_labels = labelled_images(rs, 40)
    pairs = [
        (np.ravel(np.array(im, dtype=np.float32)), lab)
        for im, lab in zip(train_images, train_labels)
    ]
    loader = [collate(pairs[i : i + 32]) for i in range(0, len(pairs), 32)]
    step = sgd_step(predict, 0.001)
    for x, labels in loader:
        params = step(params, x, one_hot(labels))
    print("collated", x.dtype, labels.dtype, one_hot(labels).dtype)

    flat_uint8 = jnp.reshape(train_images, (len(train_images), PIXELS))
    for start in range(0, 96, 48):
        chunk = jnp.reshape(train_images[start : start + 48], (48, PIXELS))
        params = step(params, chunk, one_hot(train_labels[start : start + 48]))
    test_x = jnp.array(test_images.reshape(40, PIXELS), dtype=jnp.float32)
    train_acc = accuracy(predict, params, flat_uint8, one_hot(train_labels))
    test_acc = accuracy(predict, params, test_x, one_hot(test_labels))
    print(f"relu train accuracy {train_acc}, test accuracy {test_acc}")
    print(flat_uint8.dtype, test_x.dtype, train_acc.dtype)
    return params


def run():
    rs = np.random.RandomState(3)
    with printed.Cells() as cells:
        tanh_params = batched_tanh_net(rs)
        relu_params = per_example_relu_net(rs)
    return dict(
        printed=printed.numbered(cells.take(), printed.NUMBER),
        tanh_params=tanh_params,
        relu_params=relu_params,
    )
