"""`jax.extend`: the modules JAX offers libraries that build on its internals, as numbax's own
classes and functions.

* `core.extend.core`: `Primitive` (a program's own primitive, `ExtensionPrimitive`), the jaxpr
  classes (`Jaxpr`, `ClosedJaxpr`, `JaxprEqn`, `Var`, `Literal`), `jaxpr_as_fun`,
  `check_jaxpr`, `new_jaxpr_eqn`, and `primitives` (every `*_p` of numbax's that JAX names).
* `core.extend.linear_util`: `WrappedFun` and `wrap_init`.
* `core.extend.source_info_util`: `SourceInfo`, `current`, `summarize`, name stacks.
* `core.extend.random`: `threefry2x32_p` and `threefry_2x32`.

Not provided: `backend`, `sharding`, `mlir`, `lowering`, `xla` and `pallas`, which
are about XLA's back ends and lowering to MLIR (numbax has one CPU back end, compiled by
numba).
"""

from core.extend import core, linear_util, random, source_info_util

__all__ = ["core", "linear_util", "random", "source_info_util"]
