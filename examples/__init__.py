"""Runnable examples; run them from the repository root:

* ``python -m examples.mnist.train``: MNIST MLP/CNN with TensorBoard and checkpoints.
* ``python -m examples.linear_regression.train``: the first JAX program, jitted.
* ``python -m examples.lstm_lm.train``: a character LSTM language model over `nn.RNN`.
* ``python -m examples.stax_mnist.classifier`` / ``.vae``: the programs of JAX's
  `mnist_classifier.py` and `mnist_vae.py` on `core.example_libraries` (stax + optimizers).

They ship in the numbax distribution, so they also run after ``pip install numbax`` from any
directory. Importing this package first checks that ``train``, ``datasets``, ... are numbax's
packages (`core.packages`) and stops with `PackageShadowedError` naming the module that takes
the name (a ``train.py`` of yours, HuggingFace's ``datasets``).
"""

from core.packages import check_numbax_packages

check_numbax_packages(strict=True)
