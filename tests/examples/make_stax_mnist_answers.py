"""Prints the numbers `test_stax_mnist.py` expects, from JAX: runs the text of
`examples/stax_mnist/classifier.py` and `vae.py` with their imports turned back into JAX's, under
`/opt/ref/bin/python` from the repository root (JAX is never a dependency; the test holds the
printed constants)."""

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

REWRITES = {
    "classifier.py": (
        """import core.numpy as jnp
from core import grad, jit, random
from core.example_libraries import optimizers, stax
""",
        """import jax.numpy as jnp
from jax import grad, jit, random
from jax.example_libraries import optimizers, stax
""",
    ),
    "vae.py": (
        """import core as jax
import core.numpy as jnp
from core import grad, jit, lax, random
from core.example_libraries import optimizers, stax
""",
        """import jax
import jax.numpy as jnp
from jax import grad, jit, lax, random
from jax.example_libraries import optimizers, stax
""",
    ),
}


def load_with_jax(name: str) -> dict:
    """The example's namespace, run with JAX's imports."""
    ported, original = REWRITES[name]
    source = (ROOT / "examples/stax_mnist" / name).read_text()
    assert ported in source
    namespace = {"__name__": f"jax_{name[:-3]}"}
    exec(compile(source.replace(ported, original), namespace["__name__"], "exec"), namespace)
    return namespace


if __name__ == "__main__":
    import jax

    classifier = load_with_jax("classifier.py")
    params, train_acc, test_acc = classifier["main"](num_epochs=2, num_train=640, num_test=500)
    sums = [float(np.sum(np.asarray(x, np.float64))) for x in jax.tree_util.tree_leaves(params)]
    print("TRAIN_ACC =", float(train_acc))
    print("TEST_ACC =", float(test_acc))
    print("PARAM_SUMS =", sums)
    print("FIRST_BIAS =", np.asarray(params[0][1][:4]).tolist())

    vae = load_with_jax("vae.py")
    elbos, images = vae["main"](num_epochs=1, num_train=64, num_test=100, rows=2, cols=2)
    print("VAE_ELBOS =", elbos)
    print("VAE_IMAGE_MEAN =", float(np.mean(images)))
