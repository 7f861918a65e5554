"""The MNIST models, each written in both `nn` styles: ``@nn.compact`` and ``setup``.

* `MLP`: 784-128-128-10 with ReLU, the classic Flax tutorial network (118,282 parameters).
* `CNN`: the linen-era Flax MNIST example network: Conv 32 3x3, ReLU, average pool 2x2,
  Conv 64 3x3, ReLU, average pool 2x2, flatten, Dense 256, ReLU, Dense 10 (824,458 parameters
  on 1-channel images; 825,034 on the 3-channel input of Flax's own test).

The two styles compute the same function; they differ in the parameter names (``Dense_0``,
``Conv_0``... for compact, the attribute names ``hidden_0``, ``conv1``... for setup). Inputs
are ``[batch, 28, 28, 1]`` float images in [0, 1]; outputs are ``[batch, 10]`` logits.
"""

from __future__ import annotations

from collections.abc import Sequence

import nn


class MLP(nn.Module):
    """Multilayer perceptron, ``@nn.compact`` style.

    Attributes:
        features: widths of the hidden layers.
        num_classes: number of outputs.
    """

    features: Sequence[int] = (128, 128)
    num_classes: int = 10

    @nn.compact
    def __call__(self, x):
        x = x.reshape((x.shape[0], -1))
        for width in self.features:
            x = nn.relu(nn.Dense(width)(x))
        return nn.Dense(self.num_classes)(x)


class MLPSetup(nn.Module):
    """The same `MLP`, ``setup`` style: layers are attributes created once."""

    features: Sequence[int] = (128, 128)
    num_classes: int = 10

    def setup(self):
        self.hidden = [nn.Dense(width) for width in self.features]
        self.classifier = nn.Dense(self.num_classes)

    def __call__(self, x):
        x = x.reshape((x.shape[0], -1))
        for layer in self.hidden:
            x = nn.relu(layer(x))
        return self.classifier(x)


class CNN(nn.Module):
    """The Flax MNIST convolutional network, ``@nn.compact`` style."""

    num_classes: int = 10

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(features=32, kernel_size=(3, 3))(x))
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(features=64, kernel_size=(3, 3))(x))
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        x = nn.relu(nn.Dense(features=256)(x))
        return nn.Dense(features=self.num_classes)(x)


class CNNSetup(nn.Module):
    """The same `CNN`, ``setup`` style."""

    num_classes: int = 10

    def setup(self):
        self.conv1 = nn.Conv(features=32, kernel_size=(3, 3))
        self.conv2 = nn.Conv(features=64, kernel_size=(3, 3))
        self.dense = nn.Dense(features=256)
        self.classifier = nn.Dense(features=self.num_classes)

    def __call__(self, x):
        x = nn.avg_pool(nn.relu(self.conv1(x)), window_shape=(2, 2), strides=(2, 2))
        x = nn.avg_pool(nn.relu(self.conv2(x)), window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        x = nn.relu(self.dense(x))
        return self.classifier(x)


MODELS = {
    ("mlp", "compact"): MLP,
    ("mlp", "setup"): MLPSetup,
    ("cnn", "compact"): CNN,
    ("cnn", "setup"): CNNSetup,
}


def get_model(name: str, style: str = "compact") -> nn.Module:
    """The model called ``name`` (``"mlp"`` or ``"cnn"``) written in ``style``.

    Args:
        name: ``"mlp"`` or ``"cnn"``.
        style: ``"compact"`` or ``"setup"``.

    Returns:
        A new, unbound module.
    """
    return MODELS[name, style]()
