"""An MNIST classifier written against JAX's `stax` and `optimizers` example libraries.

The program of JAX's `examples/mnist_classifier.py` (a 784-1024-1024-10 ReLU MLP with a
log-softmax output, cross-entropy on one-hot labels, SGD with momentum 0.9 at step size 1e-3,
batches of 128 drawn from a `numpy.random.RandomState(0)` permutation per epoch), written for
this repository: it imports `jax` under numbax's names (the marked block is the only part that
differs from the same program on JAX; `flaxport.port` turns one into the other), and
`tests/examples/test_stax_mnist.py` checks that both give the same numbers. Run it with
`python -m examples.stax_mnist.classifier`.
"""

import itertools
import time

import numpy.random as npr

# --- imports: JAX's, renamed (jax -> core) ---
import core.numpy as jnp
from core import grad, jit, random
from core.example_libraries import optimizers, stax

# --- end of the imports ---
from examples.stax_mnist import data

net_init, net_apply = stax.serial(
    stax.Dense(1024), stax.Relu, stax.Dense(1024), stax.Relu, stax.Dense(10), stax.LogSoftmax
)


def cross_entropy(params, batch):
    """Mean negative log-likelihood of the one-hot labels."""
    images, onehot = batch
    return -jnp.mean(jnp.sum(net_apply(params, images) * onehot, axis=1))


def accuracy(params, batch):
    """Fraction of images whose most likely class is the label."""
    images, onehot = batch
    return jnp.mean(jnp.argmax(net_apply(params, images), axis=1) == jnp.argmax(onehot, axis=1))


def shuffled_batches(images, labels, batch_size, seed=0):
    """Endless batches: a fresh permutation of the examples every epoch (the last batch of an
    epoch may be smaller)."""
    rs, n = npr.RandomState(seed), images.shape[0]
    while True:
        order = rs.permutation(n)
        for start in range(0, n, batch_size):
            chosen = order[start : start + batch_size]
            yield images[chosen], labels[chosen]


def main(num_epochs=10, num_train=None, num_test=None, batch_size=128, log=print):
    """Trains and evaluates; returns `(params, train_accuracy, test_accuracy)` of the last
    epoch. `num_train`/`num_test` keep only the first examples (for a quick run)."""
    train_x, train_y, test_x, test_y = data.mnist(num_train, num_test)
    steps_per_epoch = -(-train_x.shape[0] // batch_size)
    batches = shuffled_batches(train_x, train_y, batch_size)
    opt_init, opt_update, get_params = optimizers.momentum(0.001, mass=0.9)

    @jit
    def step(i, opt_state, batch):
        return opt_update(i, grad(cross_entropy)(get_params(opt_state), batch), opt_state)

    _, params = net_init(random.key(0), (-1, 28 * 28))
    opt_state = opt_init(params)
    counter = itertools.count()
    log("\nStarting training...")
    for epoch in range(num_epochs):
        started = time.time()
        for _ in range(steps_per_epoch):
            opt_state = step(next(counter), opt_state, next(batches))
        params = get_params(opt_state)
        train_acc = accuracy(params, (train_x, train_y))
        test_acc = accuracy(params, (test_x, test_y))
        log(f"Epoch {epoch} in {time.time() - started:0.2f} sec")
        log(f"Training set accuracy {train_acc}")
        log(f"Test set accuracy {test_acc}")
    return params, train_acc, test_acc


if __name__ == "__main__":
    main()
