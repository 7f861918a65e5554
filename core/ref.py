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
* `vmap` maps a Ref argument with an axis: each example sees a Ref of its slice, and what the
  function writes there lands in the Ref after the call (`core/api.py`'s `_mapped_ref`);
* a written value must have the Ref's shape at the index (no broadcasting) and its dtype
  (Python scalars and weakly typed values are converted), and a `jit` function cannot return
  a Ref.

The bodies of `lax.scan`, `cond` and `while_loop` thread the Refs made outside them as extra
carries (`core/ref_scope.py`); other staged functions (`make_jaxpr`, `checkpoint`, custom
rules) raise `RefEffectError` for a write to a Ref made outside them; storing a `grad` or
`vmap` tracer in a Ref made outside that transformation raises `RefTransformWriteError` (JAX's
text; a differentiated value's primal is stored first, as in JAX). A Ref
passed to `jit` is part of the cache key by identity: a new Ref of the same shape traces again.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from core import dtypes
from core.avals import AbstractValue, ShapedArray
from core.prims import shapes
from core.prims.random_bits import bitcast_convert_type
from core.ref_scope import RefEffectError, RefTransformWriteError, innermost, read, write
from core.trace import as_value, current_trace, get_aval
from numbax.errors import NumbaxError

__all__ = [
    "AbstractRef",
    "Ref",
    "RefEffectError",
    "RefTransformWriteError",
    "TransformedRef",
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


class AbstractRef(AbstractValue):
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

    __slots__ = ("_contents", "_scope", "_trace", "_ref_aval", "__weakref__")

    def __init__(self, value: Any):
        """Args:
        value: the initial array (an `Array`, a tracer, or a numpy/Python value).
        """
        self._contents = value
        self._scope = innermost()
        self._trace = current_trace()
        self._ref_aval = AbstractRef(get_aval(value))

    aval = property(lambda self: self._ref_aval)
    shape = property(lambda self: self._ref_aval.shape)
    dtype = property(lambda self: self._ref_aval.dtype)
    ndim = property(lambda self: self._ref_aval.ndim)
    size = property(lambda self: int(np.prod(self._ref_aval.shape, dtype=np.int64)))

    def __len__(self) -> int:
        if not self._ref_aval.shape:
            raise TypeError("len() of unsized object")
        return self._ref_aval.shape[0]

    def __getitem__(self, idx: Any) -> Any:
        return get(self, idx)

    def __setitem__(self, idx: Any, value: Any) -> None:
        swap(self, idx, value, _function_name="swap")

    def addupdate(self, x: Any, idx: Any = None) -> None:
        """Adds `x` to the Ref at `idx` (the whole Ref when None)."""
        addupdate(self, idx, x)

    at = property(lambda self: TransformedRef(self, ()).at)
    T = property(lambda self: TransformedRef(self, ()).T)

    def transpose(self, permutation: Any) -> TransformedRef:
        """A view of the Ref with its axes permuted (see `TransformedRef`)."""
        return TransformedRef(self, ()).transpose(permutation)

    def reshape(self, *shape: Any) -> TransformedRef:
        """A view of the Ref in another shape (see `TransformedRef`)."""
        return TransformedRef(self, ()).reshape(*shape)

    def bitcast(self, dtype: Any) -> TransformedRef:
        """A view of the Ref's bits as `dtype`, of the same width (see `TransformedRef`)."""
        return TransformedRef(self, ()).bitcast(dtype)

    def unsafe_buffer_pointer(self) -> int:
        """The address of the buffer holding the Ref's value. numbax's writes replace the
        Ref's array (JAX's update the buffer in place), so it changes with each write."""
        return read(self).unsafe_buffer_pointer()

    def __repr__(self) -> str:
        value = read(self)
        text = repr(value)
        return "Ref(" + text[len("Array(") :] if text.startswith("Array(") else f"Ref({text})"


class _Index(NamedTuple):
    idx: Any

    def forward(self, value: Any) -> Any:
        return value if _index_all(self.idx) else value[self.idx]

    def backward(self, base: Any, new: Any) -> Any:
        return new if _index_all(self.idx) else base.at[self.idx].set(new)


class _Transpose(NamedTuple):
    permutation: tuple[int, ...]

    def forward(self, value: Any) -> Any:
        return shapes.transpose(value, self.permutation)

    def backward(self, base: Any, new: Any) -> Any:
        return shapes.transpose(new, tuple(np.argsort(self.permutation)))


class _Reshape(NamedTuple):
    shape: tuple[int, ...]

    def forward(self, value: Any) -> Any:
        return shapes.reshape(value, self.shape)

    def backward(self, base: Any, new: Any) -> Any:
        return shapes.reshape(new, get_aval(base).shape)


class _Bitcast(NamedTuple):
    dtype: np.dtype

    def forward(self, value: Any) -> Any:
        return bitcast_convert_type(value, self.dtype)

    def backward(self, base: Any, new: Any) -> Any:
        return bitcast_convert_type(new, get_aval(base).dtype)


class TransformedRef:
    """A view of a `Ref` (JAX's `TransformedRef`): `ref.at[idx]`, `ref.T`,
    `ref.transpose(perm)`, `ref.reshape(shape)`, `ref.bitcast(dtype)`, chained as in JAX
    (`ref.at[0].at[1:]`). It reads (`view[idx]`) and writes (`view[idx] = v`, `+=`) the Ref's
    value through its transforms, eagerly and in `jit`. JAX on the CPU writes only through
    indexing (`NotImplementedError` for the others) and makes views only of traced Refs;
    numbax allows both.
    """

    __slots__ = ("ref", "transforms")

    def __init__(self, ref: Ref, transforms: tuple):
        """Args:
        ref: the `Ref` viewed.
        transforms: what the view applies to the Ref's value, in order.
        """
        self.ref = ref
        self.transforms = transforms

    def _then(self, transform: Any) -> TransformedRef:
        return TransformedRef(self.ref, (*self.transforms, transform))

    def _read(self) -> Any:
        value = read(self.ref)
        for t in self.transforms:
            value = t.forward(value)
        return value

    def _write(self, new: Any) -> None:
        bases = [read(self.ref)]
        for t in self.transforms[:-1]:
            bases.append(t.forward(bases[-1]))
        for t, base in zip(reversed(self.transforms), reversed(bases)):
            new = t.backward(base, new)
        write(self.ref, new)

    aval = property(lambda self: AbstractRef(get_aval(self._read())))
    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: len(self.aval.shape))
    size = property(lambda self: int(np.prod(self.aval.shape, dtype=np.int64)))
    T = property(lambda self: self.transpose(tuple(reversed(range(self.ndim)))))

    @property
    def at(self) -> Any:
        """`view.at[idx]`: the view indexed."""
        return _RefIndexer(self)

    def transpose(self, permutation: Any) -> TransformedRef:
        """The view with its axes permuted."""
        return self._then(_Transpose(tuple(int(p) for p in permutation)))

    def reshape(self, *shape: Any) -> TransformedRef:
        """The view in another shape (one -1 may be inferred)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(d) for d in shape)
        if -1 in shape:
            known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
            shape = tuple(self.size // known if d == -1 else d for d in shape)
        if int(np.prod(shape, dtype=np.int64)) != self.size:
            raise TypeError(f"cannot reshape a Ref view of shape {self.shape} to {shape}")
        return self._then(_Reshape(shape))

    def bitcast(self, dtype: Any) -> TransformedRef:
        """The view's bits as `dtype` (of the same width)."""
        dtype = np.dtype(dtype)
        if dtype.itemsize != np.dtype(self.dtype).itemsize:
            raise NotImplementedError(
                f"numbax bitcasts Ref views only between dtypes of one width: "
                f"{np.dtype(self.dtype).name} to {dtype.name}"
            )
        return self._then(_Bitcast(dtype))

    def __getitem__(self, idx: Any) -> Any:
        return get(self, idx)

    def __setitem__(self, idx: Any, value: Any) -> None:
        swap(self, idx, value, _function_name="swap")

    def __repr__(self) -> str:
        return f"TransformedRef(ref={self.ref!r}, transforms={self.transforms!r})"


class _RefIndexer:
    __slots__ = ("view",)

    def __init__(self, view: TransformedRef):
        self.view = view

    def __getitem__(self, idx: Any) -> TransformedRef:
        return self.view._then(_Index(idx))


def _value(ref: Ref | TransformedRef) -> Any:
    return ref._read() if isinstance(ref, TransformedRef) else read(ref)


def _store(ref: Ref | TransformedRef, value: Any) -> None:
    if isinstance(ref, TransformedRef):
        ref._write(value)
    else:
        write(ref, value)


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
      ref: a `Ref` (an array is given back as it is, as JAX does).

    Returns:
      Its value.
    """
    if not isinstance(ref, Ref):
        return as_value(ref)
    return read(ref)


def get(ref: Ref, idx: Any = None) -> Any:
    """`ref[idx]` (`jax.ref.get`): the Ref's value at a NumPy-style index (all when None).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None.

    Returns:
      The indexed array.
    """
    value = _value(ref)
    return value if _index_all(idx) else value[idx]


def _casts(have: ShapedArray, dtype: Any) -> bool:
    """Whether a write converts a value of aval `have` to the Ref's `dtype` as JAX's swap does:
    a weak float into a float Ref, any integer into an integer Ref (bool is no integer); the
    rest must match the Ref's dtype (a Python int into a float Ref is an error)."""
    kinds = dtypes.kind(np.dtype(have.dtype)), dtypes.kind(np.dtype(dtype))
    return (have.weak_type and kinds == ("f", "f")) or (kinds[0] in "iu" and kinds[1] in "iu")


def _checked(ref: Ref, old: Any, idx: Any, value: Any, name: str) -> Any:
    if isinstance(value, Ref):
        raise TypeError(f"{name}: the value written to a Ref must be an array, not a Ref")
    value = as_value(value)
    want = get_aval(old if _index_all(idx) else old[idx])
    have = get_aval(value)
    if have.shape != want.shape:
        view = isinstance(ref, TransformedRef)
        base, transforms = (ref.ref, ref.transforms) if view else (ref, ())
        raise RefValueError(
            f"Invalid shape for `{name}`. Ref shape: {base.shape}. Expected shape: "
            f"{want.shape}. Value shape: {have.shape}. Transforms: {transforms}."
        )
    if have.dtype != want.dtype and not (name != "addupdate" and _casts(have, want.dtype)):
        # JAX's addupdate text says "Value shape" where it shows the value's dtype
        what = "shape" if name == "addupdate" else "dtype"
        raise RefValueError(
            f"Invalid dtype for `{name}`. Ref dtype: {ref.dtype}. Value {what}: {have.dtype}. "
            f"Write a value of the Ref's dtype (`x.astype({np.dtype(ref.dtype).name})`)."
        )
    # the value takes the Ref's type, weak if the Ref's initial value was (JAX reads a Ref as
    # its type): `ref[...] = 4` stores the Ref's dtype, a strong value in a weak Ref is weak
    weak = (ref.ref if isinstance(ref, TransformedRef) else ref).aval.inner_aval.weak_type
    if (have.dtype, have.weak_type) == (want.dtype, weak):
        return value
    return shapes.convert_element_type(value, want.dtype, weak)


def swap(ref: Ref, idx: Any, value: Any, _function_name: str = "ref_swap") -> Any:
    """Writes `value` at `idx` and returns what was there (`jax.ref.swap`).

    Args:
      ref: a `Ref`.
      idx: an index, `...` or None (the whole Ref).
      value: an array of the indexed shape and the Ref's dtype.

    Returns:
      The previous value at `idx`.
    """
    old = _value(ref)
    value = _checked(ref, old, idx, value, _function_name)
    if _index_all(idx):
        _store(ref, value)
        return old
    _store(ref, old.at[idx].set(value))
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
    old = _value(ref)
    x = _checked(ref, old, idx, x, "addupdate")
    _store(ref, old + x if _index_all(idx) else old.at[idx].add(x))
