"""Where a `Ref`'s value lives while functions are staged: the scopes of `jit` and the barriers
of the other staged functions (see `core/ref.py` for the user's side).

A `Ref` (a mutable array reference, `jax.new_ref`) holds its value in the Python object; eager
reads and writes use it directly. Staging must not bake a value in or leak a tracer out, so
every staged trace pushes a scope while the function runs:

* `jit` pushes a *binding* scope. A Ref made outside it and touched inside is *discovered*:
  the scope's `bind` makes its value a new input of the program being traced (as JAX's jit
  closes over it, the function is traced once), its final value an extra output, which `jit`
  writes back after each call.
* the bodies of `lax.scan`, `while_loop`/`fori_loop` and the branches of `cond`/`switch` run
  in binding scopes too (`threaded`, `bind_refs`): a discovered Ref (`Discovered` is raised
  to the loop, which traces its body again) becomes an extra carry (an extra operand and
  output of the branches), written back after the loop.
* every other staged function (`trace_to_jaxpr`: `make_jaxpr`, custom rules, checkpoint)
  pushes a *barrier*: reads see through it to the scope below, writes to a Ref made outside
  it raise `RefEffectError`.

A Ref made inside a scope belongs to it (its value is a tracer of that trace). Writes are also
checked against the Ref's trace, so a `grad` or `vmap` tracer cannot be stored in a Ref made
outside that transformation.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core.trace import Tracer, current_trace
from numbax.errors import NumbaxError


class RefEffectError(NumbaxError, TypeError):
    """A `Ref` used where numbax cannot thread its effect.

    Failing code: ``lax.scan(lambda c, x: (acc.__setitem__(..., c), c), ...)`` with ``acc =
    core.new_ref(...)`` made outside the scan body, ``core.grad(lambda x: ref.__setitem__(...,
    x))`` on a Ref made outside ``grad``, or a ``jit`` function that returns a Ref. Fix: make the
    Ref inside the transformed function, or read it before and write it after the staged body
    (`jit` itself reads and writes Refs made outside it).
    """


class RefArgumentError(NumbaxError, ValueError):
    """A `Ref` a `jit` function cannot take or give as JAX's `jit` refuses it (a ValueError):
    returned, passed as two arguments, or passed and also closed over.

    Failing code: ``jit(lambda r: r)(ref)``, ``jit(f)(ref, ref)``, or ``jit(lambda r: r[...] +
    ref[...])(ref)``. Fix: return ``ref[...]``; pass each Ref once, and use it through its
    argument only.
    """


class Discovered(BaseException):  # noqa: N818 (a signal, not an error)
    """Raised to the control-flow call that owns `scope` when its body touches a Ref made
    outside it; a BaseException, so the user's `except Exception` lets it pass."""

    def __init__(self, scope: Scope, ref: Any):
        super().__init__("a Ref made outside a jit-compiled function is used inside it")
        self.scope = scope
        self.ref = ref


class Scope:
    """A staged trace's scope: `bound` maps the Refs made outside it (binding scopes only) to
    their current values, tracers of `trace`; `bind(ref)`, if given, gives the value of a Ref
    found while tracing (jit's: a new input), else `Discovered` is raised."""

    def __init__(self, binding: bool, bind: Callable[[Any], Any] | None = None):
        self.binding = binding
        self.bind = bind
        self.bound: dict[Any, Any] = {}
        self.trace: Any = None


class _Stack(threading.local):
    def __init__(self) -> None:
        self.scopes: list[Scope] = []


_stack = _Stack()


def innermost() -> Scope | None:
    """The scope of the innermost staged trace, or None when eager."""
    return _stack.scopes[-1] if _stack.scopes else None


@contextlib.contextmanager
def entered(scope: Scope, bound: dict | None = None) -> Iterator[Scope]:
    """Runs the body in `scope` (a `jit` binds `bound`: Ref -> its value's tracer)."""
    scope.bound = dict(bound or {})
    scope.trace = current_trace()
    _stack.scopes.append(scope)
    try:
        yield scope
    finally:
        _stack.scopes.pop()


def barrier() -> contextlib.AbstractContextManager:
    """A barrier scope, for `trace_to_jaxpr`."""
    return entered(Scope(binding=False))


def threaded(call: Callable[[list, Scope], Any]) -> Any:
    """Runs `call(refs, scope)` (a control-flow call whose bodies run in `scope`, see
    `bind_refs`), again with each Ref a body discovers added to `refs`, and returns its result.
    """
    scope = Scope(binding=True)
    refs: list = []
    while True:
        try:
            return call(refs, scope)
        except Discovered as found:
            if found.scope is not scope:
                raise
            refs.append(found.ref)


def bind_refs(scope: Scope, refs: Sequence[Any], values: Sequence[Any], fun: Callable, *args):
    """`fun(*args)` run in `scope` with `refs` bound to `values`; returns (its output, the
    Refs' new values)."""
    with entered(scope, dict(zip(refs, values))):
        out = fun(*args)
        return out, [scope.bound[r] for r in refs]


def _escaped(ref: Any) -> RefEffectError:
    return RefEffectError(
        f"{ref.aval} was made inside a jit-compiled or staged function that has returned; a "
        "Ref cannot leave the function it was made in (return its value, ref[...], instead)"
    )


def _discover(scope: Scope, ref: Any) -> None:
    """Binds `ref`, made outside the binding `scope`, to its value there (`Scope.bind`), or
    raises `Discovered` to the scope's owner, which traces again with it."""
    if scope.bind is None:
        raise Discovered(scope, ref)
    scope.bound[ref] = scope.bind(ref)


def read(ref: Any) -> Any:
    """The value of `ref` as seen from the innermost scope."""
    for scope in reversed(_stack.scopes):
        if ref._scope is scope:
            return ref._contents
        if scope.binding:
            if ref not in scope.bound:
                _discover(scope, ref)
            return scope.bound[ref]
    if ref._scope is not None:
        raise _escaped(ref)
    return ref._contents


def write(ref: Any, value: Any) -> None:
    """Stores `value` in `ref` as seen from the innermost scope."""
    for scope in reversed(_stack.scopes):
        if ref._scope is scope:
            _store_checked(ref, value, ref._trace, lambda v: setattr(ref, "_contents", v))
            return
        if scope.binding:
            if ref not in scope.bound:
                _discover(scope, ref)
            _store_checked(ref, value, scope.trace, functools.partial(scope.bound.__setitem__, ref))
            return
        raise outer_write_error(ref)
    if ref._scope is not None:
        raise _escaped(ref)
    _store_checked(ref, value, ref._trace, lambda v: setattr(ref, "_contents", v))


def outer_write_error(ref: Any) -> RefEffectError:
    """The error of a write to `ref`, made outside, inside a staged function other than `jit`
    and the lax control flow (`make_jaxpr`, checkpoint, a custom rule)."""
    return RefEffectError(
        f"{ref.aval} is written inside a staged function (make_jaxpr, checkpoint, a "
        "custom rule) but was made outside it; numbax threads Refs through jit and the lax "
        "control flow only: read the Ref before the function and write the result after it"
    )


def written_back(refs: Sequence[Any], out: Any) -> Any:
    """`out` of a function traced with `bind_refs`, with the Refs' new values (its second
    half) stored in `refs`; without Refs, `out` itself.

    Args:
      refs: the Refs the function read or wrote, in the order it returned their values.
      out: the function's output, `(result, new values)` when `refs` is not empty.

    Returns:
      The result.
    """
    if not refs:
        return out
    result, new = out
    for r, v in zip(refs, new):
        write(r, v)
    return result


class RefTransformWriteError(NumbaxError):
    """A value of `grad`'s or `vmap`'s trace written to a `Ref` made outside that
    transformation (JAX raises a plain `Exception` with this text).

    Failing code: ``core.vmap(lambda x: ref.__setitem__(..., x))(xs)`` or ``core.grad(lambda x:
    (ref.__setitem__(..., x), x)[1])(1.0)`` with ``ref`` made outside. Fix: pass the Ref as an
    argument of the transformed function (`vmap` maps it), or write `lax.stop_gradient(x)`.
    """


def _escaping(ref: Any, value: Any, owner: Any) -> RefTransformWriteError | None:
    """The error for storing `value` in `ref`, whose values are tracers of `owner`: a tracer
    of a transformation started after the Ref was made (grad, vmap) would escape it."""
    if not isinstance(value, Tracer) or value._trace is owner:
        return None
    t = value._trace.parent
    while t is not None and t is not owner:
        t = t.parent
    if t is None:
        return None
    kind = type(value._trace).__name__
    if kind == "BatchTrace":
        return RefTransformWriteError(
            "performing a set/swap operation with vmapped value on an unbatched array "
            f"reference of type {ref.aval}. Move the array reference to be an argument to the "
            "vmapped function?"
        )
    if kind == "JVPTrace":
        return RefTransformWriteError(
            "performing a set/swap operation with a differentiated value on a "
            f"non-differentiated array reference of type {ref.aval}. Move the array reference "
            "to be an argument of the differentiated function?"
        )
    return RefTransformWriteError(
        f"a value traced by {kind} is written to {ref.aval}, made outside that "
        "transformation; make the Ref inside the transformed function, or pass the Ref's "
        "value in as an argument and return the new value"
    )


def _store_checked(ref: Any, value: Any, owner: Any, store: Callable[[Any], None]) -> None:
    """`store(value)`, unless `value` would escape its transformation (`_escaping`); a
    differentiated value's primal is stored before the error, as JAX's swap JVP rule writes
    the primal before it raises."""
    error = _escaping(ref, value, owner)
    if error is None:
        store(value)
        return
    primal = getattr(value, "primal", None)  # a JVPTracer's
    if primal is not None and _escaping(ref, primal, owner) is None:
        store(primal)
    raise error
