"""``nn.core`` (``flax.core``): the functional layer under modules, and Flax's immutable dicts.

``FrozenDict``/``freeze``/``unfreeze``/``copy``/``pop``/``pretty_repr`` (``nn/frozen_dict.py``),
``Scope``/``DenyList``/``apply``/``init``/``bind`` over plain functions of a scope
(``nn/scope.py``), and the axis-metadata boxes (``nn/meta.py``), under the names
``flax.core`` gives them. Flax's scope-level lifted transforms (``flax.core.lift``: ``vmap``,
``scan``... over functions of a scope) are not provided; ``nn.vmap``/``nn.scan`` lift modules.
"""

from nn import frozen_dict, meta, scope
from nn.frozen_dict import FrozenDict, copy, freeze, pop, pretty_repr, unfreeze
from nn.meta import AxisMetadata, map_axis_meta, unbox
from nn.scope import DenyList, Scope, apply, bind, init

__all__ = [
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
    "unbox",
    "unfreeze",
]
