"""`core.experimental.pjit` (`jax.experimental.pjit`): `pjit` is `jit` with positional
`in_shardings`/`out_shardings` (`core.jit.api.ShardedJitted`), kept for older programs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.jit.api import jit


def pjit(
    fun: Callable,
    in_shardings: Any = None,
    out_shardings: Any = None,
    static_argnums: Any = None,
    static_argnames: Any = None,
    donate_argnums: Any = None,
    **kwargs: Any,
) -> Callable:
    """`jit(fun, in_shardings=..., out_shardings=..., ...)` (`jax.experimental.pjit.pjit`).

    Args:
      fun: the function.
      in_shardings: shardings of the positional (non-static) arguments.
      out_shardings: shardings of the outputs.
      static_argnums: as for `jit`.
      static_argnames: as for `jit`.
      donate_argnums: as for `jit`.
      **kwargs: other `jit` keywords.

    Returns:
      The jitted function.
    """
    return jit(
        fun,
        in_shardings=in_shardings,
        out_shardings=out_shardings,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
        donate_argnums=donate_argnums,
        **kwargs,
    )
