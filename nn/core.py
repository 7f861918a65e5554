"""``nn.core`` (``flax.core``): the functional layer under modules, and Flax's immutable dicts.

``FrozenDict``/``freeze``/``unfreeze``/``copy``/``pop``/``pretty_repr`` (``nn/frozen_dict.py``),
``Scope``/``DenyList``/``apply``/``init``/``bind`` over plain functions of a scope
(``nn/scope.py``), and the axis-metadata boxes (``nn/meta.py``), under the names
``flax.core`` gives them, and ``flax.core.lift``'s transforms over functions of a scope
(``vmap``, ``scan``, ``jit``, ``remat``/``checkpoint``, ``while_loop``, ``vjp``, ``jvp``,
``remat_scan``, ``lazy_init``, ``custom_vjp``, ``broadcast``; ``nn/lift.py``).
"""

from core import Array
from nn import frozen_dict, lift, meta, scope, tracers
from nn.frozen_dict import FrozenDict, copy, freeze, pop, pretty_repr, unfreeze
from nn.lift import (
    broadcast,
    checkpoint,
    custom_vjp,
    jit,
    jvp,
    lazy_init,
    remat,
    remat_scan,
    scan,
    vjp,
    vmap,
    while_loop,
)
from nn.meta import AxisMetadata, map_axis_meta, unbox
from nn.scope import DenyList, Scope, apply, bind, init
from nn.tracers import check_trace_level, current_trace

__all__ = [
    "Array",
    "broadcast",
    "check_trace_level",
    "checkpoint",
    "current_trace",
    "custom_vjp",
    "jit",
    "jvp",
    "lazy_init",
    "lift",
    "remat",
    "remat_scan",
    "scan",
    "vjp",
    "vmap",
    "while_loop",
    "AxisMetadata",
    "DenyList",
    "FrozenDict",
    "Scope",
    "apply",
    "bind",
    "copy",
    "freeze",
    "frozen_dict",
    "init",
    "map_axis_meta",
    "meta",
    "pop",
    "pretty_repr",
    "scope",
    "tracers",
    "unbox",
    "unfreeze",
]
