"""numbax core: a JAX-like array library with composable transformations.

import core                      # like `import jax`
import core.numpy as jnp         # like `jax.numpy`
from core import grad, jit, vmap, random, lax
"""

import core.numpy as numpy
from core import (
    ad_checkpoint,
    debug,
    distributed,
    dtypes,
    experimental,
    flatten_util,
    image,
    lax,
    nn,
    ops,
    random,
    scipy,
    sharding,
    stages,
    struct,
    test_util,
    tree,
    tree_util,
    typing,
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
    default_device,
    ensure_compile_time_eval,
    float0,
    linear_transpose,
    named_call,
    named_scope,
    print_environment_info,
    typeof,
)
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.callbacks import pure_callback
from core.checkpoint import checkpoint, checkpoint_policies, remat
from core.config import (
    check_tracer_leaks,
    config,
    debug_infs,
    debug_nans,
    default_matmul_precision,
    default_prng_impl,
    disable_jit,
    enable_checks,
    enable_x64,
    explain_cache_misses,
    log_compiles,
    numpy_dtype_promotion,
    numpy_rank_promotion,
    threefry_partitionable,
)
from core.custom_derivatives import closure_convert, custom_gradient, custom_jvp, custom_vjp
from core.devices import CpuDevice as Device
from core.devices import (
    default_backend,
    device_count,
    devices,
    local_device_count,
    local_devices,
    process_count,
    process_index,
)
from core.jit.api import clear_caches, compile_count, jit

# Sets `core.lax.linalg`, which `core/lax/__init__.py` cannot import (core/lax/linalg.py).
from core.lax import linalg as _lax_linalg  # noqa: F401
from core.packages import check_numbax_packages as _check_numbax_packages
from core.pending import block_until_ready
from core.placement import (
    device_get,
    device_put,
    device_put_replicated,
    device_put_sharded,
    make_array_from_callback,
    make_array_from_process_local_data,
    make_array_from_single_device_arrays,
    process_indices,
)
from core.pmap import (
    effects_barrier,
    host_count,
    host_id,
    live_arrays,
    pmap,
)
from core.shard_map import shard_map
from core.sharding import NamedSharding, make_mesh, set_mesh
from core.sharding import PartitionSpec as P
from numbax import __version__

__all__ = [
    "__version__",
    "ad_checkpoint",
    "Array",
    "Device",
    "NamedSharding",
    "P",
    "ShapeDtypeStruct",
    "ShapedArray",
    "block_until_ready",
    "checking_leaks",
    "checkpoint",
    "checkpoint_policies",
    "check_tracer_leaks",
    "clear_caches",
    "closure_convert",
    "compile_count",
    "config",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "debug",
    "debug_infs",
    "debug_nans",
    "distributed",
    "default_matmul_precision",
    "default_prng_impl",
    "experimental",
    "default_backend",
    "default_device",
    "device_count",
    "device_get",
    "device_put",
    "device_put_replicated",
    "device_put_sharded",
    "make_array_from_callback",
    "make_array_from_process_local_data",
    "make_array_from_single_device_arrays",
    "process_indices",
    "devices",
    "disable_jit",
    "dtypes",
    "effects_barrier",
    "enable_checks",
    "enable_x64",
    "ensure_compile_time_eval",
    "explain_cache_misses",
    "eval_shape",
    "float0",
    "flatten_util",
    "grad",
    "hessian",
    "host_count",
    "host_id",
    "image",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jit",
    "jvp",
    "lax",
    "linear_transpose",
    "linearize",
    "live_arrays",
    "local_device_count",
    "local_devices",
    "log_compiles",
    "make_jaxpr",
    "make_mesh",
    "named_call",
    "named_scope",
    "nn",
    "numpy",
    "numpy_dtype_promotion",
    "numpy_rank_promotion",
    "ops",
    "pmap",
    "print_environment_info",
    "process_count",
    "process_index",
    "pure_callback",
    "random",
    "remat",
    "scipy",
    "set_mesh",
    "shard_map",
    "stop_gradient",
    "sharding",
    "stages",
    "struct",
    "test_util",
    "threefry_partitionable",
    "tree",
    "tree_util",
    "typeof",
    "typing",
    "value_and_grad",
    "vjp",
    "vmap",
]

# Last: warn when `train`, `datasets`, ... resolve to someone else's module (core/packages.py).
_check_numbax_packages()
