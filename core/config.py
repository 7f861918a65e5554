"""Global configuration, like `jax.config`.

`config.update(name, value)` sets a flag; `config.<name>` reads it. Flags that change what a traced
program means (x64, the numpy-dtype-promotion mode) are part of every jit cache key through
`config.trace_context()`. Names may be given with or without JAX's `jax_` prefix.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

_DEFAULTS: dict[str, Any] = {
    "enable_x64": os.environ.get("NUMBAX_ENABLE_X64", "0") not in ("0", "", "false", "False"),
    "disable_jit": False,
    "log_compiles": False,
    "explain_cache_misses": False,
    "debug_nans": False,
    "jit_backend": os.environ.get("NUMBAX_JIT_BACKEND", "numba"),
    "numpy_dtype_promotion": "standard",
}
# Flags that change the meaning of a traced program, hence part of every jit cache key.
_TRACE_FLAGS = ("enable_x64", "jit_backend", "numpy_dtype_promotion", "debug_nans")


class Config:
    """The flag store. Read flags as attributes, change them with `update` or `override`."""

    def __init__(self) -> None:
        object.__setattr__(self, "_values", dict(_DEFAULTS))
        self._refresh()

    def _refresh(self) -> None:
        # Snapshots read on every jitted call: the trace context and whether jit is disabled.
        v = self._values
        object.__setattr__(self, "_ctx", tuple(v[k] for k in _TRACE_FLAGS))
        object.__setattr__(self, "_jit_enabled", not v["disable_jit"])

    @staticmethod
    def _canonical(name: str) -> str:
        key = name[4:] if name.startswith("jax_") else name
        if key not in _DEFAULTS:
            raise AttributeError(
                f"Unknown config option {name!r}. Known options: {', '.join(sorted(_DEFAULTS))}."
            )
        return key

    def __getattr__(self, name: str) -> Any:
        return self._values[self._canonical(name)]

    def __setattr__(self, name: str, value: Any) -> None:
        self.update(name, value)

    def update(self, name: str, value: Any) -> None:
        """Sets flag `name` (e.g. "enable_x64" or "jax_enable_x64") to `value`."""
        self._values[self._canonical(name)] = value
        self._refresh()

    def read(self, name: str) -> Any:
        """Returns the value of flag `name`."""
        return self._values[self._canonical(name)]

    @contextlib.contextmanager
    def override(self, name: str, value: Any) -> Iterator[None]:
        """Context manager that sets a flag for the duration of a block."""
        key = self._canonical(name)
        old = self._values[key]
        self._values[key] = value
        self._refresh()
        try:
            yield
        finally:
            self._values[key] = old
            self._refresh()

    def trace_context(self) -> tuple:
        """The flags that change what a traced program means (part of jit cache keys)."""
        return self._ctx


config = Config()


def enable_x64(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager turning 64-bit types on (or off) inside a block, like `jax.enable_x64`."""
    return config.override("enable_x64", new_val)


def disable_jit(disable: bool = True) -> contextlib.AbstractContextManager:
    """Context manager that runs `jit`-decorated functions eagerly, op by op."""
    return config.override("disable_jit", disable)
