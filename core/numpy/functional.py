"""Functions of functions: `vectorize`, `apply_along_axis`, `apply_over_axes`, `fromfunction`,
`piecewise`.

As in JAX these are sugar over `vmap`, not Python loops: `vectorize(f)` maps `f` over the
broadcast (non-core) dimensions of its arguments with one `vmap` per dimension, so `f` is traced
once on arrays of the core shape given by `signature` (scalars by default) and the whole call
stays one staged computation under `jit`. `piecewise` picks a branch per element with
`lax.switch` under `vectorize` (every branch runs; a batched switch selects).
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Collection, Sequence
from typing import Any

from core.api import vmap
from core.config import config
from core.errors import VectorizeRankPromotionError, vectorize_rank_promotion_text
from core.lax import switch
from core.numpy._util import (
    broadcast_shapes,
    canonical_shape,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
)
from core.numpy.creation import arange, array, asarray, zeros_like
from core.numpy.reductions import argmax, cumsum
from core.numpy.shapes import concatenate, expand_dims, squeeze
from core.trace import get_aval

_DIMENSION_NAME = r"\w+"
_CORE_DIMENSION_LIST = f"(?:{_DIMENSION_NAME}(?:,{_DIMENSION_NAME})*)?"
_ARGUMENT = rf"\({_CORE_DIMENSION_LIST}\)"
_ARGUMENT_LIST = f"{_ARGUMENT}(?:,{_ARGUMENT})*"
_SIGNATURE = f"^{_ARGUMENT_LIST}->{_ARGUMENT_LIST}$"

CoreDims = tuple[str, ...]


def _parse_signature(signature: str) -> tuple[list[CoreDims], list[CoreDims]]:
    """`"(m,n),(n)->(m)"` -> input and output core dimension names."""
    if not re.match(_SIGNATURE, signature.replace(" ", "")):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = (
        [tuple(re.findall(_DIMENSION_NAME, arg)) for arg in re.findall(_ARGUMENT, part)]
        for part in signature.replace(" ", "").split("->")
    )
    return ins, outs


def _update_dim_sizes(
    sizes: dict[str, int], shape: tuple[int, ...], core: CoreDims, context: str, is_input: bool
) -> None:
    n = len(core)
    if is_input and len(shape) < n:
        raise ValueError(
            f"input with shape {shape!r} does not have enough dimensions for all core "
            f"dimensions {core!r} {context}"
        )
    if not is_input and len(shape) != n:
        raise ValueError(
            f"output shape {shape!r} does not match core dimensions {core!r} {context}"
        )
    for dim, size in zip(core, shape[len(shape) - n :] if n else ()):
        if sizes.setdefault(dim, size) != size:
            raise ValueError(
                f"inconsistent size for core dimension {dim!r}: {size!r} vs {sizes[dim]!r} "
                f"{context}"
            )


def _apply_excluded(
    func: Callable, excluded: Collection[int | str], args: Sequence[Any], kwargs: dict[str, Any]
) -> tuple[Callable, list[Any], dict[str, Any]]:
    """Binds the excluded positional and keyword arguments: they are passed through unmapped."""
    if not excluded:
        return func, list(args), kwargs
    dyn_args = [a for i, a in enumerate(args) if i not in excluded]
    dyn_kwargs = {k: v for k, v in kwargs.items() if k not in excluded}
    static_args = [
        (i, args[i]) for i in sorted(e for e in excluded if isinstance(e, int)) if i < len(args)
    ]
    static_kwargs = {k: v for k, v in kwargs.items() if k in excluded}

    def bound(*a: Any, **kw: Any) -> Any:
        a = list(a)
        for i, v in static_args:
            a.insert(i, v)
        return func(*a, **kw, **static_kwargs)

    return bound, dyn_args, dyn_kwargs


def vectorize(
    pyfunc: Callable, *, excluded: Collection[int | str] = frozenset(), signature: str | None = None
) -> Callable:
    """A version of `pyfunc` that broadcasts over leading dimensions, built on `vmap`.

    Args:
      pyfunc: the function to vectorize, written for core-shaped inputs (scalars by default).
      excluded: positions (ints) or keyword names (strs) of arguments passed through unmapped.
      signature: a generalized-ufunc signature such as `"(n,k),(k)->(n)"` giving the core
        dimensions of each input and output; without it inputs are scalars and outputs may have
        any shape.

    Returns:
      The vectorized function. Keyword arguments that are not excluded are passed through
      unmapped too (JAX 0.10.2 silently drops them instead).
    """
    if any(not isinstance(e, (str, int)) for e in excluded):
        raise TypeError(
            "jax.numpy.vectorize can only exclude integer or string arguments, but "
            f"excluded={excluded!r}"
        )
    if any(isinstance(e, int) and e < 0 for e in excluded):
        raise ValueError(f"excluded={excluded!r} contains negative numbers")

    @functools.wraps(pyfunc)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        context = f"on vectorized function with excluded={excluded!r} and signature={signature!r}"
        func, args, kwargs = _apply_excluded(pyfunc, excluded, args, kwargs)
        if kwargs:  # JAX drops these silently; passing them through unmapped is less surprising
            func = functools.partial(func, **kwargs)
        if signature is not None:
            in_core, out_core = _parse_signature(signature)
        else:
            in_core, out_core = [()] * len(args), None
        none_args = {i for i, a in enumerate(args) if a is None}
        if none_args:
            if any(in_core[i] != () for i in none_args):
                raise ValueError(
                    f"Cannot pass None at locations {none_args} with signature={signature!r}"
                )
            func, args, _ = _apply_excluded(func, none_args, args, {})
            in_core = [d for i, d in enumerate(in_core) if i not in none_args]
        args = [asarray(a) for a in args]
        if len(args) != len(in_core):
            raise TypeError(
                f"wrong number of positional arguments: expected {len(in_core)}, got "
                f"{len(args)} {context}"
            )
        sizes: dict[str, int] = {}
        shapes = []
        for a, core in zip(args, in_core):
            shape = get_aval(a).shape
            _update_dim_sizes(sizes, shape, core, context, True)
            shapes.append(shape[: len(shape) - len(core)])
        _check_loop_ranks(args, shapes, signature)
        bshape = broadcast_shapes(*shapes)
        checked = func if out_core is None else _check_outputs(func, sizes, out_core, context)
        squeezed, rev_filled = [], []
        for a, noncore in zip(args, shapes):
            rev_filled.append(((1,) * (len(bshape) - len(noncore)) + noncore)[::-1])
            ones = tuple(i for i, s in enumerate(noncore) if s == 1)
            squeezed.append(squeeze(a, axis=ones) if ones else a)
        vfunc, expand = checked, []
        for negdim, axis_sizes in enumerate(zip(*rev_filled)):
            in_axes = tuple(None if s == 1 else 0 for s in axis_sizes)
            if all(ax is None for ax in in_axes):
                expand.append(len(bshape) - 1 - negdim)
            else:
                vfunc = vmap(vfunc, in_axes)
        out = vfunc(*squeezed)
        if not expand:
            return out
        if isinstance(out, tuple):
            return tuple(expand_dims(r, tuple(expand)) for r in out)
        return expand_dims(out, tuple(expand))

    return wrapped


def _check_loop_ranks(args: Sequence[Any], loop_shapes: list[Any], signature: str | None) -> None:
    """JAX's `jax_numpy_rank_promotion` check of `vectorize`: the loop dimensions of the
    non-scalar operands must have one rank unless the mode is 'allow' ('warn' warns)."""
    mode = config.read("numpy_rank_promotion")
    ranks = {len(s) for a, s in zip(args, loop_shapes) if get_aval(a).ndim}
    if mode == "allow" or len(ranks) < 2:
        return
    shapes = [get_aval(a).shape for a in args]
    if mode == "raise":
        raise VectorizeRankPromotionError(shapes, signature)
    warnings.warn(vectorize_rank_promotion_text(shapes, signature), UserWarning, stacklevel=3)


def _check_outputs(
    func: Callable, sizes: dict[str, int], out_core: list[CoreDims], context: str
) -> Callable:
    def checked(*args: Any) -> Any:
        out = func(*args)
        outs = out if isinstance(out, tuple) else [out]
        if len(out_core) > 1 and not isinstance(out, tuple):
            raise TypeError(
                "output must be a tuple when multiple outputs are expected, got: "
                f"{out!r}\n{context}"
            )
        if len(outs) != len(out_core):
            raise TypeError(
                f"wrong number of output arguments: expected {len(out_core)}, got {len(outs)} "
                f"{context}"
            )
        local = dict(sizes)
        for o, core in zip(outs, out_core):
            _update_dim_sizes(local, get_aval(ensure_array(o)).shape, core, context, False)
        return out

    return checked


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Any:
    """`func1d` applied to every 1-D slice of `arr` along `axis` (via nested `vmap`).

    Args:
      func1d: a function of a 1-D array (plus `args`/`kwargs`).
      axis: the axis along which slices are taken.
      arr: the input array.
      *args: extra positional arguments for `func1d`.
      **kwargs: extra keyword arguments for `func1d`.

    Returns:
      An array whose `axis` is replaced by the dimensions of `func1d`'s output.
    """
    check_arraylike("apply_along_axis", arr)
    arr = ensure_array(arr)
    nd = get_aval(arr).ndim
    axis = canonicalize_axis(axis, nd)

    def func(x: Any) -> Any:
        return func1d(x, *args, **kwargs)

    for i in range(1, nd - axis):
        func = vmap(func, in_axes=i, out_axes=-1)
    for _ in range(axis):
        func = vmap(func, in_axes=0, out_axes=0)
    return func(arr)


def apply_over_axes(func: Callable[[Any, int], Any], a: Any, axes: Sequence[int]) -> Any:
    """`func(a, axis)` applied repeatedly over `axes`, keeping the number of dimensions.

    Args:
      func: a function `(array, axis) -> array` that keeps or removes `axis` (like `jnp.sum`).
      a: the input array.
      axes: the axes to apply `func` over, in order.

    Returns:
      The result, with removed axes put back as length-1 dimensions.
    """
    check_arraylike("apply_over_axes", a)
    out = ensure_array(a)
    for axis in axes:
        b = ensure_array(func(out, axis))
        nd, bnd = get_aval(out).ndim, get_aval(b).ndim
        if bnd == nd:
            out = b
        elif bnd == nd - 1:
            out = expand_dims(b, axis)
        else:
            raise ValueError(
                f"function is not returning an array of the correct shape: input has {nd} "
                f"dimensions, output {bnd}"
            )
    return out


def fromfunction(
    function: Callable[..., Any], shape: Any, *, dtype: Any = float, **kwargs: Any
) -> Any:
    """An array whose entry at index `(i, j, ...)` is `function(i, j, ...)`.

    As in JAX, `function` is `vmap`ped over one index per dimension (it sees scalar indices
    when it is written elementwise), not called once on index grids as in numpy.

    Args:
      function: a function of `len(shape)` index arrays.
      shape: the output shape (concrete).
      dtype: the dtype of the index values (float by default, like numpy).
      **kwargs: extra keyword arguments for `function`.

    Returns:
      The array of values.
    """
    shape = canonical_shape(shape)
    rank = len(shape)
    # One vmap per index, the last index innermost, so that output axis d runs over index d.
    over_grid = function
    for d in reversed(range(rank)):
        over_grid = vmap(over_grid, in_axes=tuple(0 if a == d else None for a in range(rank)))
    return over_grid(*(arange(n, dtype=dtype) for n in shape), **kwargs)


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> Any:
    """Evaluates a piecewise-defined function: `funclist[i]` where `condlist[i]` is true.

    Args:
      x: the input array.
      condlist: boolean arrays (or a stacked array) of `x`'s shape; the last true one wins.
      funclist: functions of `x` (called with `*args, **kw`) or constants, one per condition,
        plus optionally one more: the default where no condition holds (else 0).
      *args: extra positional arguments for the functions.
      **kw: extra keyword arguments for the functions.

    Returns:
      An array of `x`'s shape and dtype.
    """
    check_arraylike("piecewise", x)
    x = ensure_array(x)
    nc, nf = len(condlist), len(funclist)
    if nf == nc + 1:
        funclist = list(funclist[-1:]) + list(funclist[:-1])
    elif nf == nc:
        funclist = [0] + list(funclist)
    else:
        raise ValueError(
            f"with {nc} condition(s), either {nc} or {nc + 1} functions are expected; got {nf}"
        )
    conds = asarray(condlist, dtype=bool)
    dtype = get_aval(x).dtype
    index = argmax(cumsum(concatenate([zeros_like(conds[:1]), conds], 0), 0), 0)

    def branch(f: Any) -> Callable[[Any], Any]:
        if callable(f):
            return lambda v: ensure_array(f(v, *args, **kw)).astype(dtype)
        return lambda v: array(f).astype(dtype)  # a constant wraps into `dtype`, as JAX's

    branches = [branch(f) for f in funclist]
    return vectorize(switch, excluded=(1,))(index, branches, x)
