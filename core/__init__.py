"""numbax core: a JAX-like array library with composable transformations.

import core                      # like `import jax`
import core.numpy as jnp         # like `jax.numpy`
from core import grad, jit, vmap, random, lax
"""

import core.numpy as numpy
from core import dtypes, lax, nn, random, struct, test_util, tree, tree_util
from core.api import (
    eval_shape,
    grad,
    hessian,
    jacfwd,
    jacobian,
    jacrev,
    jvp,
    linearize,
    make_jaxpr,
    stop_gradient,
    value_and_grad,
    vjp,
    vmap,
)
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.checkpoint import checkpoint, checkpoint_policies, remat
from core.config import config, disable_jit, enable_x64
from core.custom_derivatives import custom_jvp, custom_vjp
from core.devices import (
    block_until_ready,
    default_backend,
    device_count,
    device_get,
    device_put,
    devices,
    local_device_count,
    process_index,
)
from core.jit.api import clear_caches, compile_count, jit

__all__ = [
    "Array",
    "ShapeDtypeStruct",
    "ShapedArray",
    "block_until_ready",
    "checkpoint",
    "checkpoint_policies",
    "clear_caches",
    "compile_count",
    "config",
    "custom_jvp",
    "custom_vjp",
    "default_backend",
    "device_count",
    "device_get",
    "device_put",
    "devices",
    "disable_jit",
    "dtypes",
    "enable_x64",
    "eval_shape",
    "grad",
    "hessian",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jit",
    "jvp",
    "lax",
    "linearize",
    "local_device_count",
    "make_jaxpr",
    "nn",
    "numpy",
    "process_index",
    "random",
    "remat",
    "stop_gradient",
    "struct",
    "test_util",
    "tree",
    "tree_util",
    "value_and_grad",
    "vjp",
    "vmap",
]
