"""Lifted transforms: ``nn.jit``, ``nn.vmap``, ``nn.scan``, ``nn.remat``, ``nn.cond``... on modules.

A core transform (``core.vmap``, ``lax.scan``...) only sees pure functions of arrays, while a
module reads and writes variables through its scope. Lifting bridges the two as in Flax's
``flax.core.lift``: the variables of the module's scope are split into groups by collection
filters (``variable_axes``, ``variable_broadcast``...) and passed to the core transform as
explicit arguments together with the raw keys of the RNG streams; inside, a fresh scope with
the same path is built over them (``_Lift.scope_fn``), the module is cloned onto it and run,
and the mutable collections come back out as outputs (``_Lift.repack``); outside, they are
written to the original scope (``_Lift.publish``). RNG streams keep their static path suffix,
and ``split_rngs`` splits the root key per mapped index / scan step before the suffix is folded
in, exactly like Flax, so ``nn.vmap(nn.Dense, variable_axes={'params': 0}, ...)`` and
``nn.scan(nn.LSTMCell, ...)`` create the same parameters as Flax with the same key.

Every transform exists at two levels: a scope-level function (``lift_vmap(fn, ...)`` takes
``fn(scopes, *args)``, ``scopes`` being the list of lifted scopes) and the public module-level
one that accepts a ``Module`` class (returns a subclass named ``VmapDense``... whose
``methods`` are transformed) or a function whose first argument is a module
(``nn.vmap(lambda mdl, x: mdl(x), ...)(module, x)``, also usable as a method decorator).

Partial, and different from Flax:
  * the module's scope and those of modules held in its fields but bound elsewhere are lifted
    together (as Flax), and so are bound modules and ``Variable`` objects passed as method
    arguments of ``nn.jit``/``nn.vmap``/``nn.scan``/``nn.remat``/``nn.map_variables`` (not
    through ``nn.cond``/``nn.switch``/``nn.while_loop``); a scope nested in another lifted
    one is lifted inside it; ``nn.vjp``/``nn.jvp``/``nn.custom_vjp`` lift one scope (as
    Flax's default);
  * ``nn.jit`` keeps each stream's path when deriving keys (Flax drops it inside ``jit``, so
    its jitted modules get other values than the plain ones); the RNG counters do not advance
    on cache hits; kwargs are dynamic (pytrees of arrays) unless named in ``static_argnames``;
    a module with an unhashable field is traced again on every call;
  * ``nn.scan`` checks no data dependency of broadcast variables on the carry: it creates them
    with one eager call of the body on the first step (Flax traces it abstractly); its
    ``in_axes`` is an int, ``nn.broadcast`` or one of those per argument (not a nested
    prefix tree) and its ``out_axes`` must be ints;
  * ``nn.remat`` computes once (``core.checkpoint`` keeps residuals); policies are accepted;
  * keyword arguments of ``nn.vmap``/``nn.scan`` methods are closed over (broadcast), where
    Flax ignores them with a warning.

The package's modules, bottom to top: `packing` (`_Lift`, the groups of variables and RNG
keys), `scope_level` (the ``lift_*`` transforms of scope functions), `module_level` (running
a transform on a clone of a module bound to the lifted scopes), then the public transforms:
`lifted` (``vmap``, ``scan``, ``jit``, ``fold_rngs``, ``checkpoint``/``remat``,
``remat_scan``, ``map_variables``, ``add_metadata_axis``, ``named_call``), `control_flow`
(``cond``, ``switch``, ``while_loop``) and `autodiff` (``value_and_grad``, ``grad``, ``vjp``,
``jvp``, ``custom_vjp``). This module re-exports them, with the ``lift_*`` functions and
``*_inner`` bodies `nn/lift.py` builds Flax's ``flax.core.lift`` on.
"""

from nn.transforms.autodiff import (
    custom_vjp,
    custom_vjp_inner,
    grad,
    jvp,
    jvp_inner,
    value_and_grad,
    vjp,
    vjp_inner,
)
from nn.transforms.control_flow import (
    branches_inner,
    cond,
    switch,
    while_loop,
    while_loop_inner,
)
from nn.transforms.lifted import (
    add_metadata_axis,
    checkpoint,
    fold_rngs,
    jit,
    map_variables,
    named_call,
    remat,
    remat_scan,
    scan,
    vmap,
)
from nn.transforms.packing import broadcast
from nn.transforms.scope_level import (
    lift_checkpoint,
    lift_fold_rngs,
    lift_jit,
    lift_map_variables,
    lift_scan,
    lift_vmap,
)

__all__ = [
    "add_metadata_axis",
    "broadcast",
    "checkpoint",
    "branches_inner",
    "cond",
    "custom_vjp",
    "custom_vjp_inner",
    "fold_rngs",
    "grad",
    "jit",
    "jvp",
    "jvp_inner",
    "lift_checkpoint",
    "lift_fold_rngs",
    "lift_jit",
    "lift_map_variables",
    "lift_scan",
    "lift_vmap",
    "map_variables",
    "named_call",
    "remat",
    "remat_scan",
    "scan",
    "switch",
    "value_and_grad",
    "vjp",
    "vjp_inner",
    "vmap",
    "while_loop",
    "while_loop_inner",
]
