"""MNIST classification: ``python -m examples.mnist.train`` (see README.md)."""
