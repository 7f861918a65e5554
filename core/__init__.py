"""numbax core: a JAX-like array library with composable transformations.

    import core                      # like `import jax`
    import core.numpy as jnp         # like `jax.numpy`
    from core import grad, jit, vmap, random, lax
"""

from core import dtypes, tree, tree_util
from core.api import (
    eval_shape, grad, hessian, jacfwd, jacobian, jacrev, jvp, linearize, make_jaxpr,
    stop_gradient, value_and_grad, vjp, vmap,
)
from core.array import Array
from core.avals import ShapeDtypeStruct, ShapedArray
from core.config import config, disable_jit, enable_x64
from core.devices import (
    block_until_ready, default_backend, device_count, device_get, device_put, devices,
    local_device_count, process_index,
)
import core.numpy as numpy  # noqa: E402
from core.jit.api import clear_caches, compile_count, jit  # noqa: E402
from core import random  # noqa: E402
from core import lax  # noqa: E402
from core import nn  # noqa: E402
from core.checkpoint import checkpoint, checkpoint_policies, remat  # noqa: E402
from core.custom_derivatives import custom_jvp, custom_vjp  # noqa: E402

__all__ = [
    "Array", "ShapeDtypeStruct", "clear_caches", "compile_count", "jit", "ShapedArray", "block_until_ready", "config", "default_backend",
    "device_count", "device_get", "device_put", "devices", "disable_jit", "dtypes",
    "enable_x64", "eval_shape", "grad", "hessian", "jacfwd", "jacobian", "jacrev", "jvp", "lax",
    "linearize", "local_device_count", "make_jaxpr", "numpy", "process_index", "stop_gradient",
    "tree", "tree_util", "value_and_grad", "vjp", "vmap",
    "checkpoint", "checkpoint_policies", "custom_jvp", "custom_vjp", "remat",
]
