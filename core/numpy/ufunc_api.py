"""`ufunc` objects for user functions: `frompyfunc(f, nin, nout)` and the `ufunc` class.

As in JAX, calling a ufunc is `vectorize(f)` (a `vmap` per broadcast dimension), and the
numpy ufunc methods of a binary, single-output ufunc are built from control flow over the
scalar function: `reduce` is a `fori_loop` folding slices along the axis, `accumulate` a
`scan`, `at` a `scan` of one `.at[...]` update per index, `reduceat` a `fori_loop` over
segments, `outer` two nested `vmap`s. Loops over concrete bounds stay one native loop under
`jit`. A ufunc may name faster implementations of its call and methods (`call=`, `reduce=`,
...): the built-in ufuncs (`jnp.add`, `jnp.maximum`, ..., `core.numpy.ufunc_builtins`) call
the elementwise function directly and reduce with `sum`, `max`, ... as JAX's do.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from core.api import eval_shape, vmap
from core.lax import fori_loop, scan
from core.numpy._util import broadcast_to, canonicalize_axis, check_arraylike, ensure_array
from core.numpy.creation import asarray, full
from core.numpy.functional import vectorize
from core.numpy.lookup import take
from core.numpy.shapes import append, expand_dims, moveaxis, ravel, reshape
from core.numpy.where import where as _where
from core.trace import get_aval

_AT_INPLACE = (
    "ufunc.at cannot update arrays in place, because arrays are immutable: pass inplace=False "
    "to get the updated copy, e.g. x = jnp.frompyfunc(f, 2, 1).at(x, idx, y, inplace=False)."
)


class ufunc:  # noqa: N801  (numpy's and JAX's name)
    """A universal function: `func` applied elementwise with broadcasting, plus the numpy
    ufunc methods (`reduce`, `accumulate`, `at`, `reduceat`, `outer`).

    Args:
      func: a function of `nin` scalar arrays returning `nout` values (a tuple if several).
      nin: the number of inputs.
      nout: the number of outputs.
      name: the name shown in reprs (default: `func.__name__`).
      nargs: numpy's `nargs` attribute (default: `nin`).
      identity: the identity of a binary ufunc, the default `initial` of `reduce`.
      call: what calling the ufunc runs (default: `vectorize(func)`).
      reduce: `reduce`'s implementation, `f(a, axis, dtype, keepdims, initial, where)` after
        the checks (default: a `fori_loop` over `func`).
      accumulate: `accumulate`'s, `f(a, axis, dtype)` (default: a `scan`).
      at: `at`'s, `f(a, indices, *b)` (default: a `scan` of updates).
      reduceat: `reduceat`'s, `f(a, indices, axis, dtype)` (default: a `fori_loop`).
    """

    def __init__(
        self,
        func: Callable[..., Any],
        /,
        nin: int,
        nout: int,
        *,
        name: str | None = None,
        nargs: int | None = None,
        identity: Any = None,
        call: Callable[..., Any] | None = None,
        reduce: Callable[..., Any] | None = None,
        accumulate: Callable[..., Any] | None = None,
        at: Callable[..., Any] | None = None,
        reduceat: Callable[..., Any] | None = None,
    ):
        self.__doc__ = func.__doc__
        self.__name__ = name or getattr(func, "__name__", "ufunc")
        # (func, nin, nout, nargs, identity): read-only, as JAX's properties
        nin, nout = operator.index(nin), operator.index(nout)
        self._spec = (func, nin, nout, operator.index(nargs or nin), identity)
        # Implementation details, not part of the ufunc's identity (`_key`), as in JAX.
        self._call = call or vectorize(func)
        self._fast = dict(reduce=reduce, accumulate=accumulate, at=at, reduceat=reduceat)

    @property
    def _func(self) -> Callable[..., Any]:
        return self._spec[0]

    @property
    def nin(self) -> int:
        return self._spec[1]

    @property
    def nout(self) -> int:
        return self._spec[2]

    @property
    def nargs(self) -> int:
        return self._spec[3]

    @property
    def identity(self) -> Any:
        return self._spec[4]

    def _key(self) -> tuple:
        return (self._func, self.__name__, self.identity, self.nin, self.nout, self.nargs)

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ufunc) and self._key() == other._key()

    def __repr__(self) -> str:
        return f"<jnp.ufunc '{self.__name__}'>"

    def __call__(self, *args: Any, out: None = None, where: None = None) -> Any:
        for option, given in (("out", out), ("where", where)):
            if given is not None:  # numpy's output buffers and masks have no JAX counterpart
                raise NotImplementedError(f"{option} argument of {self}")
        return self._call(*args)

    def _check_binary(self, method: str) -> None:
        if self.nin != 2:
            raise ValueError(
                f"{method} only supported for binary ufuncs, {self} has nin={self.nin}"
            )
        if self.nout != 1:
            raise ValueError(
                f"{method} only supported for functions returning a single value, {self} has "
                f"nout={self.nout}"
            )

    def _result_dtype(self, *args: Any) -> np.dtype:
        ones = [full((), 1, get_aval(a).dtype) for a in args]
        return np.dtype(eval_shape(self._func, *ones).dtype)

    def reduce(
        self,
        a: Any,
        axis: int | None = 0,
        dtype: Any = None,
        out: None = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        """Folds the binary ufunc over `axis` (like `numpy.ufunc.reduce`).

        Args:
          a: the input array.
          axis: one axis, or None for all of them (tuples of axes are not supported).
          dtype: the dtype of the accumulator (default: the ufunc's result dtype).
          out: unsupported (must be None).
          keepdims: keep the reduced axis with size 1.
          initial: the starting value (default: `identity`, else the first slice).
          where: a boolean mask of elements to include (needs `initial` or an identity).

        Returns:
          The reduced array.
        """
        self._check_binary("reduce")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduce()")
        check_arraylike(f"{self.__name__}.reduce", a)
        arr = ensure_array(a)
        given = initial
        if initial is None:
            initial = self.identity
        if where is not None:
            check_arraylike(f"{self.__name__}.reduce", where)
            where = ensure_array(where)
            if initial is None:
                raise ValueError(
                    f"reduction operation {self.__name__!r} does not have an identity, so to "
                    "use a where mask one has to specify 'initial'."
                )
            if get_aval(where).dtype != np.bool_:
                raise ValueError(
                    f"where argument must have dtype=bool; got dtype={get_aval(where).dtype}"
                )
            where = broadcast_to(where, get_aval(arr).shape)
        if self._fast["reduce"] is not None:
            return self._fast["reduce"](arr, axis, dtype, keepdims, given, where)
        dtype = self._result_dtype(arr, arr) if dtype is None else np.dtype(dtype)
        shape = get_aval(arr).shape
        if isinstance(axis, tuple):
            raise NotImplementedError("ufunc.reduce over a tuple of axes")
        if axis is None:
            final = (1,) * len(shape) if keepdims else ()
            arr = ravel(arr)
            where = None if where is None else ravel(where)
            axis = 0
        else:
            axis = canonicalize_axis(axis, len(shape))
            rest = (*shape[:axis], *shape[axis + 1 :])
            final = (*shape[:axis], 1, *shape[axis + 1 :]) if keepdims else rest
            arr = moveaxis(arr, axis, 0)
            where = None if where is None else moveaxis(where, axis, 0)
        n = get_aval(arr).shape[0]
        if n == 0:
            if initial is None:
                raise ValueError(
                    f"zero-size array to reduction operation {self.__name__} which has no identity"
                )
            return full(final, initial, dtype)

        def body(i: Any, acc: Any) -> Any:
            new = self(acc, arr[i].astype(dtype))
            return new if where is None else _where(where[i], new, acc)

        start, init = (1, arr[0]) if initial is None else (0, initial)
        init = broadcast_to(asarray(init).astype(dtype), get_aval(arr).shape[1:])
        result = fori_loop(start, n, body, init)
        return reshape(result, final) if keepdims else result

    def accumulate(self, a: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Any:
        """The running fold of the binary ufunc along `axis` (like `numpy.ufunc.accumulate`).

        Args:
          a: the input array.
          axis: the axis to accumulate along.
          dtype: the dtype of the accumulator (default: the ufunc's result dtype).
          out: unsupported (must be None).

        Returns:
          An array of `a`'s shape.
        """
        self._check_binary("accumulate")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
        if self._fast["accumulate"] is not None:
            return self._fast["accumulate"](a, axis, dtype)
        arr = ensure_array(a)
        dtype = self._result_dtype(arr, arr) if dtype is None else np.dtype(dtype)
        if axis is None or isinstance(axis, tuple):
            raise ValueError("accumulate does not allow multiple axes")
        axis = canonicalize_axis(axis, get_aval(arr).ndim)
        if get_aval(arr).size == 0:
            return full(get_aval(arr).shape, 0, dtype)
        arr = moveaxis(arr, axis, 0)

        def step(acc: Any, x: Any) -> tuple[Any, Any]:
            new = self(acc, x.astype(dtype)).astype(dtype)  # (logical_and's bools, as JAX's)
            return new, new

        first = arr[0].astype(dtype)
        _, rest = scan(step, first, arr[1:])
        return moveaxis(append(expand_dims(first, 0), rest, axis=0), 0, axis)

    def at(self, a: Any, indices: Any, b: Any = None, /, *, inplace: bool = True) -> Any:
        """`a` with `a[indices] = ufunc(a[indices], b)`, repeated indices applied in turn.

        Args:
          a: the array to update.
          indices: an index (ints, int arrays, slices) into `a`.
          b: the second operand of a binary ufunc (broadcast to the indexed positions).
          inplace: must be False (arrays are immutable).

        Returns:
          The updated copy.
        """
        if inplace:
            raise NotImplementedError(_AT_INPLACE)
        check_arraylike(f"{self.__name__}.at", a)
        if self._fast["at"] is not None:
            return self._fast["at"](a, indices, *(() if b is None else (b,)))
        args = () if b is None else (ensure_array(b),)
        a = ensure_array(a)
        dtype = self._result_dtype(a, *args)
        a = a.astype(dtype)
        args = tuple(x.astype(dtype) for x in args)
        idx = indices if isinstance(indices, tuple) else (indices,)
        if not idx:
            return a
        idx = tuple(i if isinstance(i, slice) else ensure_array(i) for i in idx)
        shapes = [get_aval(i).shape for i in idx if not isinstance(i, slice)]
        shape = np.broadcast_shapes(*shapes) if shapes else ()
        if not shape:
            return a.at[idx].set(self(a[idx], *args))
        count = math.prod(shape)
        if args:
            tail = get_aval(args[0]).shape[len(shape) :]
            args = (reshape(broadcast_to(args[0], (*shape, *tail)), (count, *tail)),)
        flat = [i if isinstance(i, slice) else ravel(broadcast_to(i, shape)) for i in idx]

        def step(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
            k, x = carry
            pos = tuple(i if isinstance(i, slice) else i[k] for i in flat)
            x = x.at[pos].set(self(x[pos], *(v[k] for v in args)))
            return (k + 1, x), None

        (_, out), _ = scan(step, (asarray(0), a), None, length=count)
        return out

    def reduceat(
        self, a: Any, indices: Any, axis: int = 0, dtype: Any = None, out: None = None
    ) -> Any:
        """Reductions over the segments `a[indices[i]:indices[i + 1]]` along `axis`.

        Args:
          a: the input array (at least 1-D).
          indices: 1-D increasing segment starts (a segment with `indices[i] >= indices[i+1]`
            is just `a[indices[i]]`, as in numpy).
          axis: the axis to reduce along.
          dtype: the output dtype (default: `a`'s).
          out: unsupported (must be None).

        Returns:
          An array with `len(indices)` entries along `axis`.
        """
        self._check_binary("reduceat")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduceat()")
        if self._fast["reduceat"] is not None:
            return self._fast["reduceat"](a, indices, axis, dtype)
        check_arraylike(f"{self.__name__}.reduceat", a, indices)
        a = ensure_array(a)
        ind = ensure_array(indices)
        if get_aval(a).ndim == 0:
            raise ValueError(f"reduceat: a must have 1 or more dimension, got {get_aval(a).shape}")
        if get_aval(ind).ndim != 1:
            raise ValueError(
                f"reduceat: indices must be one-dimensional, got shape {get_aval(ind).shape}"
            )
        if axis is None or isinstance(axis, (tuple, list)):
            raise ValueError("reduceat requires a single integer axis.")
        dtype = get_aval(a).dtype if dtype is None else np.dtype(dtype)
        a = a.astype(dtype)
        axis = canonicalize_axis(axis, get_aval(a).ndim)
        result = take(a, ind, axis=axis)
        others = [d for d in range(get_aval(result).ndim) if d != axis]
        bounds = (
            expand_dims(append(ind, get_aval(a).shape[axis]), others)
            if others
            else append(ind, get_aval(a).shape[axis])
        )
        n = get_aval(bounds).shape[axis]
        starts = take(bounds, asarray(np.arange(n - 1)), axis=axis)
        ends = take(bounds, asarray(np.arange(1, n)), axis=axis)

        def body(i: Any, acc: Any) -> Any:
            inside = (i > starts) & (i < ends)
            return _where(inside, self(acc, take(a, expand_dims(i, 0), axis=axis)), acc)

        return fori_loop(0, get_aval(a).shape[axis], body, result)

    def outer(self, A: Any, B: Any, /) -> Any:  # noqa: N803  (numpy's argument names)
        """The ufunc applied to every pair `(A[i...], B[j...])`.

        Args:
          A: an array.
          B: an array.

        Returns:
          An array of shape `A.shape + B.shape`.
        """
        self._check_binary("outer")
        check_arraylike(f"{self.__name__}.outer", A, B)
        A, B = ensure_array(A), ensure_array(B)
        out = vmap(vmap(self, (None, 0)), (0, None))(ravel(A), ravel(B))
        return reshape(out, get_aval(A).shape + get_aval(B).shape)


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> ufunc:
    """Makes a `ufunc` from a function of scalars written with `core.numpy` operations.

    Args:
      func: a function of `nin` scalar arrays returning `nout` values.
      nin: the number of inputs.
      nout: the number of outputs.
      identity: the identity element of a binary `func` (used by `reduce`).

    Returns:
      The `ufunc`.
    """
    return ufunc(func, nin, nout, identity=identity)
