"""The programs of JAX's `mnist_classifier.py` and `mnist_vae.py` (stax + optimizers), written
against JAX's API with the imports renamed (`examples/stax_mnist`), give JAX's numbers: the
classifier for 2 epochs of 5 steps on the first 640 MNIST images, the VAE (`lax.fori_loop` over
the optimizer state under `jit`, `random.bernoulli` binarization) for one epoch on 64. The
constants were printed by `make_stax_mnist_answers.py`, which runs the same files with their
imports turned back into JAX's."""

import numpy as np
import pytest

import core
from examples.stax_mnist import classifier, data, vae

TRAIN_ACC = 0.125
TEST_ACC = 0.14800000190734863
PARAM_SUMS = [
    41.493577956591075,
    -0.20538553747064725,
    -51.12733363645029,
    0.39936966772052074,
    14.548979463911337,
    -0.005119749112054706,
]
VAE_ELBOS = [-543.6778564453125]
VAE_IMAGE_MEAN = 0.6897321343421936
FIRST_BIAS = [
    -0.013347258791327477,
    -0.003497431753203273,
    0.003348531201481819,
    -0.00999149214476347,
]


def test_ported_example_matches_jax():
    lines = []
    params, train_acc, test_acc = classifier.main(
        num_epochs=2, num_train=640, num_test=500, log=lines.append
    )
    assert lines[-1].startswith("Test set accuracy")
    np.testing.assert_allclose(float(train_acc), TRAIN_ACC, atol=1e-6)
    np.testing.assert_allclose(float(test_acc), TEST_ACC, atol=1e-6)
    sums = [float(np.sum(np.asarray(x, np.float64))) for x in core.tree_util.tree_leaves(params)]
    np.testing.assert_allclose(sums, PARAM_SUMS, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(params[0][1][:4], FIRST_BIAS, rtol=1e-4, atol=1e-7)

    images, labels, _, _ = data.mnist(640, 0)
    _, init_params = classifier.net_init(core.random.key(0), (-1, 784))
    before = float(classifier.cross_entropy(init_params, (images, labels)))
    after = float(classifier.cross_entropy(params, (images, labels)))
    assert after < before - 0.05


@pytest.mark.slow  # ~15 s of compiling; the classifier above already proves the port
def test_ported_vae_matches_jax():
    lines = []
    elbos, images = vae.main(num_epochs=1, num_train=64, num_test=100, rows=2, cols=2,
                             log=lines.append)  # fmt: skip
    np.testing.assert_allclose(elbos, VAE_ELBOS, rtol=1e-5)
    assert np.shape(images) == (56, 56) and len(lines) == 1
    np.testing.assert_allclose(float(np.mean(images)), VAE_IMAGE_MEAN, atol=1e-3)
