"""Runnable examples; run them from the repository root:

* ``python -m examples.mnist.train``: MNIST MLP/CNN with TensorBoard and checkpoints.
* ``python -m examples.linear_regression.train``: the first JAX program, jitted.
* ``python -m examples.lstm_lm.train``: a character LSTM language model over `nn.RNN`.
* ``python -m examples.stax_mnist.classifier``: JAX's own `mnist_classifier.py` (stax +
  optimizers), ported by changing its imports.
"""
