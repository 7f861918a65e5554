"""``flax.config`` (``flax.configurations``): Flax's feature flags, for programs that set them.

Old Flax programs start with ``flax.config.update("flax_use_orbax_checkpointing", False)`` and
similar. Every Flax 0.12 flag exists here with Flax's default. numbax behaves as Flax does with
the defaults; flags that only tune Flax's machinery (traceback filtering, profiling names,
the C++ helpers, reprs) and NNX-only flags take any value without effect,
``flax_use_orbax_checkpointing`` off makes `train.checkpoints.save_checkpoint` write Flax's
legacy msgpack format (on, numbax's npz stands in for Orbax's directories),
and ``flax_pytree_module``, which would change what a program computes, accepts only its
default (other values raise ``NotImplementedError``); ``flax_fix_rng_separator`` (the hashing
of RNG paths in ``nn.scope``), ``flax_return_frozendict`` (``init``/``apply`` returning
``FrozenDict``s) and ``flax_preserve_adopted_names`` (``nn.module``'s adoption naming) are
implemented.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

from core.packages import numbax_package
from nn import module, scope
from nn.errors import ConfigValueNotImplementedError, UnknownConfigOptionError

checkpoints = importlib.import_module(f"{numbax_package('train').__name__}.checkpoints")

# Flax 0.12.8's flags and defaults.
DEFAULTS: dict[str, Any] = {
    "flax_filter_frames": True,
    "flax_profile": True,
    "flax_use_orbax_checkpointing": True,
    "flax_preserve_adopted_names": False,
    "flax_return_frozendict": False,
    "flax_fix_rng_separator": False,
    "flax_use_flaxlib": False,
    "flax_array_ref": False,
    "flax_pytree_module": True,
    "flax_max_repr_depth": None,
    "flax_always_shard_variable": True,
    "flax_hijax_variable": False,
    "nnx_graph_mode": True,
    "nnx_graph_updates": True,
}
# Flags whose other values would change results; numbax implements only the default.
_SEMANTIC = ("flax_pytree_module",)


class Config:
    """The flag store: read flags as attributes, change them with `update`."""

    def __init__(self) -> None:
        object.__setattr__(self, "_values", dict(DEFAULTS))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise UnknownConfigOptionError(name) from None

    def update(self, name: Any, value: Any, /) -> None:
        """Sets flag `name` (a name, or an object with a `.name`) to `value`.

        Raises:
          UnknownConfigOptionError: (a `LookupError`) for a name Flax does not have.
          ConfigValueNotImplementedError: (a `NotImplementedError`) for a non-default value of
            a flag that changes results.
        """
        name = getattr(name, "name", name)
        if name not in self._values:
            raise UnknownConfigOptionError(name)
        if name in _SEMANTIC and value != DEFAULTS[name]:
            raise ConfigValueNotImplementedError(name, value, DEFAULTS[name])
        if name == "flax_preserve_adopted_names":
            module.set_preserve_adopted_names(value)
        if name == "flax_fix_rng_separator":
            scope.set_rng_separator(value)
        if name == "flax_return_frozendict":
            scope.set_return_frozendict(value)
        if name == "flax_use_orbax_checkpointing":
            checkpoints.set_default_format("npz" if value else "msgpack")
        self._values[name] = value

    @contextlib.contextmanager
    def temp_flip_flag(self, var_name: str, var_value: bool) -> Iterator[None]:
        """Sets ``flax_<var_name>`` inside a ``with`` block."""
        name = f"flax_{var_name}"
        old = getattr(self, name)
        self.update(name, var_value)
        try:
            yield
        finally:
            self.update(name, old)

    def __repr__(self) -> str:
        body = ", ".join(f"\n  {k}={v!r}" for k, v in self._values.items())
        return f"Config({body}\n)"


config = Config()
