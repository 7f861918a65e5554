"""`core.ref` (as `jax.ref`): mutable array references, `Ref`s.

    >>> import core, core.numpy as jnp
    >>> x_ref = core.new_ref(jnp.zeros(3))
    >>> @core.jit
    ... def f():
    ...     x_ref[1] += 1.0
    >>> f(); f()
    >>> x_ref
    Ref([0., 2., 0.], dtype=float32)

A Ref holds an array that reads (`ref[idx]`, `ref[...]`, `get`) and writes (`ref[idx] = v`,
`set`, `swap`, `addupdate`) replace in place, with NumPy's indexing. As in JAX:

* eagerly the value changes at once; a `jit`-compiled function may read and write Refs made
  outside it (closed over or passed as arguments): each call reads their current values and
  writes the new ones back (`core/ref_scope.py`);
* a Ref made inside a transformed function works under `grad`, `vmap` and `jit` (its value is
  differentiated, batched or staged like any array);
* a written value must have the Ref's shape at the index (no broadcasting) and its dtype
  (Python scalars and weakly typed values are converted), and a `jit` function cannot return
  a Ref.

numbax threads Refs only through `jit`: writing, inside a `lax.scan`/`cond`/`while_loop` body,
to a Ref made outside the body raises `RefEffectError` (JAX threads them as effects; read the
Ref before the loop and write the result after it), and so does storing a `grad` or `vmap`
tracer in a Ref made outside that transformation (JAX too refuses it). A Ref passed to `jit`
is part of the cache key by identity: a new Ref of the same shape traces again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tree_util
from core.avals import ShapedArray
from core.ref_scope import RefEffectError, innermost, read, write
from core.trace import as_value, current_trace, get_aval
from numbax.errors import NumbaxError

__all__ = [
    "AbstractRef",
    "Ref",
    "RefEffectError",
    "RefValueError",
    "addupdate",
    "empty_ref",
    "free_ref",
    "freeze",
    "get",
    "new_ref",
    "set",
    "swap",
]


class RefValueError(NumbaxError, ValueError):
    """A value written to a `Ref` whose shape or dtype differs from the Ref's at the index.

    Failing code: ``core.new_ref(jnp.zeros(3))[...] = 2.0`` (no broadcasting) or ``... =
    jnp.ones(3, jnp.int32)`` into a float32 Ref. Fix: write an array of the indexed shape and
    the Ref's dtype (``jnp.full(3, 2.0)``, ``x.astype(ref.dtype)``), as JAX requires.
    """


class AbstractRef:
    """The abstract value of a `Ref` (`jax.ref.AbstractRef`): its array's `ShapedArray`."""

    def __init__(self, inner_aval: ShapedArray, memory_space: Any = None, kind: Any = None):
        """Args:
        inner_aval: the abstract value of the array the Ref holds.
        memory_space: accepted as JAX's (one memory space here).
        kind: accepted as JAX's.
        """
        self.inner_aval = inner_aval
        self.memory_space = memory_space
        self.kind = kind

    shape = property(lambda self: self.inner_aval.shape)
    dtype = property(lambda self: self.inner_aval.dtype)
    ndim = property(lambda self: len(self.inner_aval.shape))

    def __repr__(self) -> str:
        dims = ",".join(map(str, self.shape))
        return f"Ref{{{np.dtype(self.dtype).name}[{dims}]}}"


class Ref:
    """A mutable array reference (`jax.Ref`); make one with `new_ref`. See the module doc."""

    __slots__ = ("_value", "_scope", "_trace", "_aval", "__weakref__")

    def __init__(self, value: Any):
        """Args:
        value: the initial array (an `Array`, a tracer, or a numpy/Python value).
        """
        self._value = value
        self._scope = innermost()
        self._trace = current_trace()
        self._aval = AbstractRef(get_aval(value).update(weak_type=False))

    aval = property(lambda self: self._aval)
    shape = property(lambda self: self._aval.shape)
    dtype = property(lambda self: self._aval.dtype)
    ndim = property(lambda self: self._aval.ndim)
    size = property(lambda self: int(np.prod(self._aval.shape, dtype=np.int64)))

    def __len__(self) -> int:
        if not self._aval.shape:
            raise TypeError("len() of unsized object")
        return self._aval.shape[0]

    def __getitem__(self, idx: Any) -> Any:
        return get(self, idx)

    def __setitem__(self, idx: Any, value: Any) -> None:
        swap(self, idx, value, _function_name="swap")

    def addupdate(self, x: Any, idx: Any = None) -> None:
        """Adds `x` to the Ref at `idx` (the whole Ref when None)."""
        addupdate(self, idx, x)

    @property
    def at(self) -> Any:
        raise NotImplementedError(
            "Ref.at (transformed Refs) is not implemented in numbax; index the Ref itself: "
            "ref[idx] reads, ref[idx] = v writes"
        )

    def __repr__(self) -> str:
        value = read(self)
        text = repr(value)
        return "Ref(" + text[len("Array(") :] if text.startswith("Array(") else f"Ref({text})"


tree_util.register_pytree_node(Ref, lambda r: ((), r), lambda r, _: r)


def _index_all(idx: Any) -> bool:
    return idx is None or idx is Ellipsis or (isinstance(idx, tuple) and idx == ())


def new_ref(init_val: Any, *, memory_space: Any = None, kind: str | None = None) -> Ref:
    """A mutable array reference with initial value `init_val` (`jax.new_ref`).

    Args:
      init_val: an array (or numpy value or Python scalar); not a list, as in JAX.
      memory_space: accepted as JAX's (numbax has one memory space).
      kind: None or "no_grad_no_remat", as JAX's.

    Returns:
      A `Ref` holding the value.
    """
    if isinstance(init_val, (list, tuple, dict)) or init_val is None:
        raise TypeError(
            "Error interpreting argument to new_ref as a JAX value. The problematic value is "
            f"of type {type(init_val)} and was passed to new_ref at position 0."
        )
    if kind not in (None, "no_grad_no_remat"):
        raise ValueError(f"new_ref: kind must be None or 'no_grad_no_remat', got {kind!r}")
    return Ref(as_value(init_val))


def empty_ref(ty: Any, *, memory_space: Any = None) -> Ref:
    """A Ref of `ty`'s shape and dtype (`jax.empty_ref`); numbax fills it with zeros (JAX
    leaves it uninitialized).

    Args:
      ty: anything with `shape` and `dtype` (`ShapeDtypeStruct`, an array).
      memory_space: accepted as JAX's.

    Returns:
      The new `Ref`.
    """
    return Ref(as_value(np.zeros(ty.shape, ty.dtype)))


def free_ref(ref: Ref) -> tuple:
    """`jax.free_ref`: nothing to free here (the value goes with the Ref). Returns ()."""
    del ref
    return ()


def freeze(ref: Ref) -> Any:
    """The Ref's current value as an array (`jax.ref.freeze`).

    Args:
      ref: a `Ref`.

    Returns:
      Its value.
    """
    return read(ref)


def get(ref: Ref, idx: Any = None) -> Any:
    """`ref[idx]` (`jax.ref.get`): the Ref's value at a NumPy-style index (all when None).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None.

    Returns:
      The indexed array.
    """
    value = read(ref)
    return value if _index_all(idx) else value[idx]


def _checked(ref: Ref, old: Any, idx: Any, value: Any, name: str) -> Any:
    if isinstance(value, Ref):
        raise TypeError(f"{name}: the value written to a Ref must be an array, not a Ref")
    value = as_value(value)
    want = get_aval(old if _index_all(idx) else old[idx])
    have = get_aval(value)
    if have.shape != want.shape:
        raise RefValueError(
            f"Invalid shape for `{name}`. Ref shape: {ref.shape}. Expected shape: "
            f"{want.shape}. Value shape: {have.shape}. Transforms: ()."
        )
    if have.dtype != want.dtype:
        if not have.weak_type:
            raise RefValueError(
                f"Invalid dtype for `{name}`. Ref dtype: {ref.dtype}. Value dtype: {have.dtype}."
            )
        value = value.astype(want.dtype)
    return value


def swap(ref: Ref, idx: Any, value: Any, _function_name: str = "ref_swap") -> Any:
    """Writes `value` at `idx` and returns what was there (`jax.ref.swap`).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None (the whole Ref).
      value: an array of the indexed shape and the Ref's dtype.

    Returns:
      The previous value at `idx`.
    """
    old = read(ref)
    value = _checked(ref, old, idx, value, _function_name)
    if _index_all(idx):
        write(ref, value)
        return old
    write(ref, old.at[idx].set(value))
    return old[idx]


def set(ref: Ref, idx: Any, value: Any) -> None:  # noqa: A001 (JAX's name)
    """`ref[idx] = value` (`jax.ref.set`).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None.
      value: an array of the indexed shape and the Ref's dtype.
    """
    swap(ref, idx, value, _function_name="swap")


def addupdate(ref: Ref, idx: Any, x: Any) -> None:
    """`ref[idx] += x` in one step (`jax.ref.addupdate`).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None.
      x: an array of the indexed shape and the Ref's dtype.
    """
    old = read(ref)
    x = _checked(ref, old, idx, x, "addupdate")
    write(ref, old + x if _index_all(idx) else old.at[idx].add(x))
