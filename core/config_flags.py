"""Command-line flags for `core.config` (`jax.config.config_with_absl`,
`parse_flags_with_absl`).

JAX programs call `jax.config.config_with_absl()` (or `parse_flags_with_absl()`) so that
`--jax_enable_x64` and friends on the command line set the configuration. numbax does the same
for its options (`--jax_<name>=value`, `--jax_<name>`, `--nojax_<name>` for booleans; the
`jax_` prefix is required, as in JAX). absl is not a dependency: `config_with_absl` defines the
flags with absl when it is installed (they are applied after `absl.app.run` parses the
command line), and otherwise reads them from `sys.argv` at once. Flags for options numbax does
not have (`--jax_platforms=cpu`...) are ignored, as absl's `known_only` parsing does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

_TRUE = ("1", "true", "t", "yes", "y")
_FALSE = ("0", "false", "f", "no", "n")


def _convert(current: Any, text: str, name: str) -> Any:
    """`text` as a value of the type of the option's current value."""
    if isinstance(current, bool):
        low = text.lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise ValueError(f"--jax_{name}={text!r}: expected a boolean (true/false, 1/0).")
    if isinstance(current, int):
        return int(text)
    if isinstance(current, float):
        return float(text)
    return None if text.lower() == "none" else text


def parse_flags(config: Any, argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Applies the `--jax_*` flags of `argv` (default `sys.argv`) to `config`.

    Args:
      config: the `core.config` object.
      argv: the command line.

    Returns:
      The options set, name -> value.
    """
    options = config._values
    applied = {}
    for arg in sys.argv[1:] if argv is None else argv:
        if arg.startswith("--nojax_"):
            name, text = arg[len("--nojax_") :], "false"
        elif arg.startswith("--jax_"):
            name, _, text = arg[len("--jax_") :].partition("=")
            text = text if "=" in arg else "true"
        else:
            continue
        if name not in options:
            continue
        applied[name] = _convert(options[name], text, name)
        config.update(name, applied[name])
    return applied


def define_absl_flags(config: Any) -> bool:
    """Defines one absl flag per option and applies them after `absl.app.run` parses the
    command line; False (nothing done) when absl is not installed."""
    try:
        from absl import app, flags  # noqa: PLC0415 (absl is optional)
    except ImportError:
        return False
    define = {bool: flags.DEFINE_bool, int: flags.DEFINE_integer, float: flags.DEFINE_float}
    names = []
    for name, value in config._values.items():
        flag = f"jax_{name}"
        if flag in flags.FLAGS:
            continue
        default = None if value is None else value
        define.get(type(value), flags.DEFINE_string)(flag, default, f"core.config.{name}")
        names.append(name)

    def complete() -> None:
        for name in names:
            value = getattr(flags.FLAGS, f"jax_{name}")
            if value != config._values[name]:
                config.update(name, value)

    app.call_after_init(complete)
    return True
