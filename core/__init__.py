"""numbax core: a JAX-like array library with composable transformations.

import core                      # like `import jax`
import core.numpy as jnp         # like `jax.numpy`
from core import grad, jit, vmap, random, lax
"""

from typing import Any

import core.numpy as numpy
from core import (
    ad_checkpoint,
    api,
    core,
    custom_batching,
    debug,
    distributed,
    dlpack,
    dtypes,
    experimental,
    export,
    flatten_util,
    image,
    lax,
    monitoring,
    nn,
    ops,
    random,
    ref,
    scipy,
    sharding,
    stages,
    struct,
    test_util,
    tree,
    tree_util,
    typing,
    version,
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
    copy_to_host_async,
    default_device,
    ensure_compile_time_eval,
    float0,
    fwd_and_bwd,
    linear_transpose,
    named_call,
    named_scope,
    print_environment_info,
    typeof,
)
from core.array_type import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.blas_kernels import prefer_avx2_at_import as _prefer_avx2_at_import
from core.callbacks import pure_callback
from core.checkpoint import checkpoint, checkpoint_policies, remat
from core.config import (
    allow_f16_reductions,
    array_garbage_collection_guard,
    auto_pcast,
    check_tracer_leaks,
    config,
    debug_infs,
    debug_key_reuse,
    debug_nans,
    default_matmul_precision,
    default_prng_impl,
    disable_jit,
    enable_checks,
    enable_custom_prng,
    enable_x64,
    explain_cache_misses,
    jax2tf_associative_scan_reductions,
    legacy_prng_key,
    log_compiles,
    make_user_context,
    no_execution,
    no_tracing,
    numpy_dtype_promotion,
    numpy_rank_promotion,
    remove_size_one_mesh_axis_from_type,
    softmax_custom_jvp,
    thread_guard,
    threefry_partitionable,
    transfer_guard,
    transfer_guard_device_to_device,
    transfer_guard_device_to_host,
    transfer_guard_host_to_device,
)
from core.custom_derivatives import (
    closure_convert,
    custom_gradient,
    custom_jvp,
    custom_vjp,
    linear_call,
)
from core.devices import (
    Device,
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
from core.numpy.indexing import ds
from core.packages import check_numbax_packages as _check_numbax_packages
from core.pending import block_until_ready
from core.placement import (
    RemovedPlacementError as _RemovedPlacementError,
)
from core.placement import (
    device_get,
    device_put,
    make_array_from_callback,
    make_array_from_process_local_data,
    make_array_from_single_device_arrays,
    process_indices,
)
from core.pmap import (
    effects_barrier,
    host_count,
    host_id,
    host_ids,
    live_arrays,
    pmap,
)
from core.ref import Ref, empty_ref, free_ref, freeze, new_ref
from core.shard_map import shard_map, smap
from core.sharding import NamedSharding, Shard, make_mesh, reshard, set_mesh
from core.sharding import PartitionSpec as P
from numbax import __version__

# JAX's private `jax._src.api`, which programs import (`from jax._src import api`, JAX's
# tutorial "How JAX primitives work"), holds `jit` beside `grad`: numbax's `core.api` cannot
# import `core.jit` (sibling layers, core/README.md), so the package binds it.
api.jit = jit

__all__ = [
    "Ref",
    "empty_ref",
    "free_ref",
    "freeze",
    "new_ref",
    "ref",
    "__version__",
    "ad_checkpoint",
    "core",
    "custom_batching",
    "Array",
    "Device",
    "NamedSharding",
    "P",
    "ShapeDtypeStruct",
    "ShapedArray",
    "block_until_ready",
    "checking_leaks",
    "copy_to_host_async",
    "checkpoint",
    "checkpoint_policies",
    "check_tracer_leaks",
    "clear_caches",
    "closure_convert",
    "linear_call",
    "compile_count",
    "config",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "debug",
    "debug_infs",
    "debug_key_reuse",
    "debug_nans",
    "distributed",
    "dlpack",
    "default_matmul_precision",
    "default_prng_impl",
    "experimental",
    "export",
    "default_backend",
    "default_device",
    "device_count",
    "device_get",
    "device_put",
    "make_array_from_callback",
    "make_array_from_process_local_data",
    "make_array_from_single_device_arrays",
    "process_indices",
    "devices",
    "disable_jit",
    "ds",
    "dtypes",
    "effects_barrier",
    "enable_checks",
    "enable_custom_prng",
    "allow_f16_reductions",
    "array_garbage_collection_guard",
    "auto_pcast",
    "jax2tf_associative_scan_reductions",
    "legacy_prng_key",
    "remove_size_one_mesh_axis_from_type",
    "softmax_custom_jvp",
    "thread_guard",
    "host_ids",
    "enable_x64",
    "ensure_compile_time_eval",
    "explain_cache_misses",
    "eval_shape",
    "float0",
    "fwd_and_bwd",
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
    "monitoring",
    "linear_transpose",
    "linearize",
    "live_arrays",
    "local_device_count",
    "local_devices",
    "log_compiles",
    "make_user_context",
    "no_execution",
    "no_tracing",
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
    "reshard",
    "Shard",
    "set_mesh",
    "shard_map",
    "smap",
    "stop_gradient",
    "sharding",
    "stages",
    "struct",
    "test_util",
    "threefry_partitionable",
    "transfer_guard",
    "transfer_guard_device_to_device",
    "transfer_guard_device_to_host",
    "transfer_guard_host_to_device",
    "tree",
    "tree_util",
    "typeof",
    "typing",
    "version",
    "value_and_grad",
    "vjp",
    "vmap",
]


def __getattr__(name: str) -> Any:
    """JAX 0.10's error for the placement functions it removed from its namespace."""
    if name in ("device_put_replicated", "device_put_sharded"):
        raise _RemovedPlacementError(name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")


# Before the program starts threads: numpy's OpenBLAS on its faster kernels (core/blas_kernels.py).
_prefer_avx2_at_import()

# Last: warn when `train`, `datasets`, ... resolve to someone else's module (core/packages.py).
_check_numbax_packages()
