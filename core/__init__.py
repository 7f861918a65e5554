"""numbax core: a JAX-like array library with composable transformations.

import core                      # like `import jax`
import core.numpy as jnp         # like `jax.numpy`
from core import grad, jit, vmap, random, lax
"""

import core.numpy as numpy
from core import (
    debug,
    dtypes,
    experimental,
    lax,
    nn,
    random,
    sharding,
    struct,
    test_util,
    tree,
    tree_util,
)
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
from core.api_extras import (
    checking_leaks,
    closure_convert,
    custom_gradient,
    default_device,
    ensure_compile_time_eval,
    float0,
    linear_transpose,
    local_devices,
    named_call,
    named_scope,
    print_environment_info,
    typeof,
)
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.callbacks import pure_callback
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
    "checking_leaks",
    "checkpoint",
    "checkpoint_policies",
    "clear_caches",
    "closure_convert",
    "compile_count",
    "config",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "debug",
    "experimental",
    "default_backend",
    "default_device",
    "device_count",
    "device_get",
    "device_put",
    "devices",
    "disable_jit",
    "dtypes",
    "enable_x64",
    "ensure_compile_time_eval",
    "eval_shape",
    "float0",
    "grad",
    "hessian",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jit",
    "jvp",
    "lax",
    "linear_transpose",
    "linearize",
    "local_device_count",
    "local_devices",
    "make_jaxpr",
    "named_call",
    "named_scope",
    "nn",
    "numpy",
    "print_environment_info",
    "process_index",
    "pure_callback",
    "random",
    "remat",
    "stop_gradient",
    "sharding",
    "struct",
    "test_util",
    "tree",
    "tree_util",
    "typeof",
    "value_and_grad",
    "vjp",
    "vmap",
]
