"""`library_jit`: JAX's `@jit` on its own jax.numpy / jax.nn / jax.random / lax functions.

JAX defines `jnp.clip`, `jnp.flip` (its `_flip`), `jnp.where` (`_where`), `nn.relu`, ... with
`@jit` or `@partial(jit, static_argnames=...)` (not `inline=True`), so a staged program that
calls one holds a nested `jit[name=clip jaxpr={ ... }]` equation. numbax's versions do the same
while a staging trace (`make_jaxpr`, `jit`, a control-flow body) is on the trace stack: they
bind `jit` with their jaxpr, traced once per signature by `jit`'s cache, so the printed
jaxpr is JAX's, and `grad`, `vmap` and partial evaluation go through `jit`'s rules as for
a user's nested jit. Compiled inside a program, the call is inlined (`core/jit/simplify.py`), so
the generated code is the same as without it.

Everything else runs the function directly, as it ran before (its keyword arguments sorted by
name, as `jit` passes them, so an unexpected one is named as JAX names it): eager calls, and eager
`grad`/`vmap` (whose traces stage nothing to a program), so an eager `jnp.clip` neither traces
nor compiles (JAX's eager call compiles; numbax's op-by-op eager mode has nothing to gain).
The call's `backend` is None: evaluated eagerly after all (a staged program run by
`eval_jaxpr`, an eager `cond`'s branch, the numpy back end), its body is interpreted op by op
(`_jit_call_impl`), never compiled on its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from core.config import config
from core.interpreters.partial_eval import JaxprTrace
from core.jit.api import Jitted
from core.trace import current_trace


def staging() -> bool:
    """Whether operations are being staged into a program: a `JaxprTrace` staging everything
    (not linearize's, whose known values are computed now) is on the trace stack."""
    trace = current_trace()
    while trace is not None:
        if type(trace) is JaxprTrace and trace.stage_all:
            return True
        trace = trace.parent
    return False


def library_jit(
    fun: Callable | None = None,
    *,
    static_argnames: str | Sequence[str] = (),
    static_argnums: int | Sequence[int] = (),
    name: str | None = None,
) -> Any:
    """JAX's `@jit` (`@partial(jit, static_argnames=...)`) on a library function.

    Args:
      fun: the function (None: returns the decorator).
      static_argnames: the arguments JAX makes static, by name.
      static_argnums: the arguments JAX makes static, by position.
      name: the printed name (JAX's function name) when numbax's function has another.

    Returns:
      A function that runs `fun` directly, or, while staging, as a nested `jit`.
    """
    if fun is None:
        return functools.partial(
            library_jit, static_argnames=static_argnames, static_argnums=static_argnums, name=name
        )
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    jitted = Jitted(fun, nums, names, (), None)
    jitted._library = True
    shown = name or fun.__name__

    @functools.wraps(fun)
    def call(*args: Any, **kwargs: Any) -> Any:
        if not staging() or not config._jit_enabled:
            # Keyword arguments sorted by name, as jit passes them: an unexpected one is named
            # as JAX names it (`clip(x, a_min=0, a_max=1)`: 'a_max').
            if len(kwargs) > 1:
                kwargs = dict(sorted(kwargs.items()))
            return fun(*args, **kwargs)
        entry, leaves = jitted._entry(args, kwargs)
        return jitted._bind(entry, leaves, shown, None)

    return call
