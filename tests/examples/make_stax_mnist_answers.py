"""Prints the numbers `test_stax_mnist.py` expects, from JAX: runs the text of
`examples/stax_mnist/classifier.py` with JAX's imports put back, under `/opt/ref/bin/python`
from the repository root (JAX is never a dependency; the test holds the printed constants)."""

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PORTED = """import core.numpy as jnp
from core import grad, jit, random
from core.example_libraries import optimizers, stax
from core.example_libraries.stax import Dense, LogSoftmax, Relu
"""
ORIGINAL = """import jax.numpy as jnp
from jax import grad, jit, random
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import Dense, LogSoftmax, Relu
"""

source = (ROOT / "examples/stax_mnist/classifier.py").read_text()
assert PORTED in source
namespace = {"__name__": "jax_classifier"}
exec(compile(source.replace(PORTED, ORIGINAL), "jax_classifier", "exec"), namespace)
import jax  # noqa: E402

params, train_acc, test_acc = namespace["main"](num_epochs=2, num_train=640, num_test=500)
sums = [float(np.sum(np.asarray(x, np.float64))) for x in jax.tree_util.tree_leaves(params)]
print("TRAIN_ACC =", float(train_acc))
print("TEST_ACC =", float(test_acc))
print("PARAM_SUMS =", sums)
print("FIRST_BIAS =", np.asarray(params[0][1][:4]).tolist())
