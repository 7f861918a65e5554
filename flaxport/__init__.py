"""``flaxport``: the ``flax`` package's layout over numbax, so ``import flax`` ports as
``import flaxport as flax``.

Each Flax module name is an alias of the numbax module that implements it (the same module
object, registered in ``sys.modules`` so every import spelling works:
``from flaxport.training.train_state import TrainState``, ``import flaxport.linen as nn``):

====================================  ==============================
Flax                                  numbax
====================================  ==============================
``flax.linen``                        ``nn``
``flax.linen.initializers``           ``nn.initializers``
``flax.linen.partitioning``           ``nn.partitioning``
``flax.linen.spmd``                   ``nn.spmd``
``flax.linen.fp8_ops``                ``nn.fp8_ops``
``flax.core`` (``FrozenDict``...)     ``nn.core``
``flax.core.frozen_dict``             ``nn.frozen_dict``
``flax.core.nn`` (functional layers)  ``nn.core_nn``
``flax.core.partial_eval``            ``nn.partial_eval``
``flax.core.lift``                    ``nn.lift``
``flax.core.tracers``                 ``nn.tracers``
``flax.core.meta``                    ``nn.meta``
``flax.core.scope``                   ``nn.scope``
``flax.struct``                       ``core.struct``
``flax.serialization``                ``train.serialization``
``flax.traverse_util``                ``nn.traverse_util``
``flax.cursor``                       ``nn.cursor``
``flax.errors``                       ``nn.errors``
``flax.ids``                          ``nn.ids``
``flax.training``                     ``train``
``flax.training.train_state``         ``train.train_state``
``flax.training.checkpoints``         ``train.checkpoints``
``flax.training.common_utils``        ``train.common_utils``
``flax.training.dynamic_scale``       ``train.dynamic_scale``
``flax.training.early_stopping``      ``train.early_stopping``
``flax.training.lr_schedule``         ``train.lr_schedule``
``flax.training.prefetch_iterator``   ``train.prefetch_iterator``
``flax.jax_utils``                    ``train.jax_utils``
``flax.metrics.tensorboard``          ``train.tensorboard``
``flax.config``                       ``flaxport.config`` (``flaxport/configurations.py``)
``flax.training.orbax_utils``         not provided (Orbax is not supported)
``flax.nnx``                          not provided (Flax NNX is not supported)
====================================  ==============================

``python -m flaxport.port program.py`` does the whole mechanical port of a program's imports
(``jax`` -> ``core``, ``flax`` -> ``flaxport``, ``optax`` -> ``optim``; ``flaxport/port.py``).
This package sits above ``nn`` and ``train`` (it imports both); nothing in numbax imports it.
It finds them with `core.packages.numbax_package`, so a ported Flax example whose directory
holds its own ``train.py`` (every one of them does) gets numbax's ``train`` here and its own
file from ``import train``.
"""

import importlib
import sys
import types

from core.packages import numbax_package
from flaxport.configurations import config
from numbax import __version__

ALIASES = {
    "linen": "nn",
    "linen.initializers": "nn.initializers",
    "linen.partitioning": "nn.partitioning",
    "linen.spmd": "nn.spmd",
    "linen.fp8_ops": "nn.fp8_ops",
    "core": "nn.core",
    "core.frozen_dict": "nn.frozen_dict",
    "core.nn": "nn.core_nn",
    "core.nn.linear": "nn.core_nn",
    "core.partial_eval": "nn.partial_eval",
    "core.lift": "nn.lift",
    "core.tracers": "nn.tracers",
    "core.meta": "nn.meta",
    "core.scope": "nn.scope",
    "struct": "core.struct",
    "serialization": "train.serialization",
    "traverse_util": "nn.traverse_util",
    "cursor": "nn.cursor",
    "errors": "nn.errors",
    "ids": "nn.ids",
    "typing": "nn.typing",
    "training": "train",
    "training.train_state": "train.train_state",
    "training.checkpoints": "train.checkpoints",
    "training.common_utils": "train.common_utils",
    "training.dynamic_scale": "train.dynamic_scale",
    "training.early_stopping": "train.early_stopping",
    "training.lr_schedule": "train.lr_schedule",
    "training.prefetch_iterator": "train.prefetch_iterator",
    "jax_utils": "train.jax_utils",
    "metrics.tensorboard": "train.tensorboard",
}
"""Flax module path (under ``flax.``) -> the numbax module it is."""

# `flax.metrics` holds only `tensorboard`: numbax has no module for it, so it is a namespace.
metrics = sys.modules[f"{__name__}.metrics"] = types.ModuleType(f"{__name__}.metrics")

for _name, _target in ALIASES.items():
    _package, _, _rest = _target.partition(".")
    _module = numbax_package(_package)
    if _rest:
        _module = importlib.import_module(f"{_module.__name__}.{_rest}")
    sys.modules[f"{__name__}.{_name}"] = _module
    _parent, _, _leaf = _name.rpartition(".")
    setattr(
        sys.modules[f"{__name__}.{_parent}"] if _parent else sys.modules[__name__], _leaf, _module
    )

linen = sys.modules[f"{__name__}.linen"]
core = sys.modules[f"{__name__}.core"]
struct = sys.modules[f"{__name__}.struct"]
serialization = sys.modules[f"{__name__}.serialization"]
traverse_util = sys.modules[f"{__name__}.traverse_util"]
errors = sys.modules[f"{__name__}.errors"]
training = sys.modules[f"{__name__}.training"]
jax_utils = sys.modules[f"{__name__}.jax_utils"]

__all__ = [
    "__version__",
    "config",
    "core",
    "errors",
    "jax_utils",
    "linen",
    "metrics",
    "serialization",
    "struct",
    "training",
    "traverse_util",
]
