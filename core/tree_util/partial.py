"""`Partial`: a `functools.partial` that is a pytree node (the function static, the bound
arguments children), so a partially applied function passes through `jit` and `grad`.
"""

from __future__ import annotations

import functools

from core.tree_util.registry import register_pytree_node


class _HashableCallableShim:
    """Boxes a partial so `functools.partial` does not merge its arguments into ours."""

    def __init__(self, fun):
        self.fun = fun

    def __call__(self, *args, **kw):
        return self.fun(*args, **kw)

    def __hash__(self):
        return hash(self.fun)

    def __eq__(self, other):
        if isinstance(other, _HashableCallableShim):
            return self.fun == other.fun
        return self.fun == other

    def __repr__(self):
        return f"_HashableCallableShim({self.fun!r})"


class Partial(functools.partial):
    """A `functools.partial` that is a pytree: ``func`` is static, args/keywords are children.

    Bound arguments are leaves, so a ``Partial`` can be passed through ``jit``/``grad``.
    """

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial):
            func = _HashableCallableShim(func)
        return super().__new__(cls, func, *args, **kw)


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, xs: Partial(func, *xs[0], **xs[1]),
)
