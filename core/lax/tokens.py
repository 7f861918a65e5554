"""`lax.create_token` and `lax.after_all`: XLA's ordering tokens, as values that order
nothing. numbax runs side effects in program order already, so a token only has to exist:
it is a pytree with no leaves, passed into and returned from `jit` functions freely."""

from __future__ import annotations

from typing import Any

from core import tree_util


class Token:
    """An ordering token (`jax.core.Token`): no data, no effect."""

    __slots__ = ()


tree_util.register_pytree_node(Token, lambda t: ((), None), lambda aux, children: Token())


def create_token(_: Any = None) -> Token:
    """A new token (JAX's `lax.create_token`).

    Args:
      _: ignored (JAX's former operand).

    Returns:
      A `Token`.
    """
    return Token()


def after_all(*operands: Token) -> Token:
    """A token ordered after ``operands`` (JAX's `lax.after_all`); numbax orders effects by
    program order, so this only checks the operands.

    Args:
      *operands: tokens.

    Returns:
      A `Token`.

    Raises:
      TypeError: if an operand is not a token (JAX's message).
    """
    if not all(isinstance(t, Token) for t in operands):
        raise TypeError("Arguments to after_all must be tokens")
    return Token()
