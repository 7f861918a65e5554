"""Less common top-level `jax` functions: transformations built on the core machinery
(`linear_transpose`, `fwd_and_bwd`, `ensure_compile_time_eval`; `custom_gradient` and
`closure_convert` live in `core.custom_derivatives`, as in JAX) and
compatibility helpers for a one-CPU-device library (`named_call`, `named_scope`, `typeof`,
`default_device`, `checking_leaks`, `print_environment_info`, `float0`).

* `linear_transpose` stages the function to a jaxpr on abstract values and runs the same
  `backward_pass` as `grad` on it, so no primal values are needed.
* `fwd_and_bwd` splits `vjp` into a forward returning the pullback (a pytree of residuals) and
  a backward applying it, each jitted once.
* `ensure_compile_time_eval` installs a trace that runs primitives on concrete operands eagerly
  and hands everything else to the enclosing trace.
"""

from __future__ import annotations

import contextlib
import functools
import platform
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import numbax
from core import sharding_types, source_info, tree_util
from core.ad_util import Zero, instantiate
from core.api import _given_inputs, vjp
from core.array import placement
from core.avals import ShapedArray
from core.config import config
from core.custom_derivatives import trace_flat
from core.devices import (
    Device,
    device_count,
    devices,
    local_device_count,
    local_devices,
    overriding_default,
    process_count,
)
from core.dtypes import float0 as float0  # re-exported as core.float0
from core.interpreters.transpose import UndefinedPrimal, backward_pass
from core.jit.api import jit
from core.trace import (
    Trace,
    Tracer,
    as_value,
    current_trace,
    eval_trace,
    get_aval,
    set_current_trace,
)


def linear_transpose(fun: Callable, *primals: Any, reduce_axes: Any = ()) -> Callable:
    """The transpose of the linear function `fun`, like `jax.linear_transpose`.

    Args:
      fun: a function linear in its arguments.
      *primals: example arguments (arrays or `ShapeDtypeStruct`s); only shapes and dtypes are
        used.
      reduce_axes: accepted for compatibility (must be empty, as in current JAX).

    Returns:
      `transpose_fn(out_cotangent) -> tuple` with one cotangent per positional argument,
      weakly typed as JAX's (a Python-scalar primal's is, where the cotangent's is).
    """
    if not callable(fun):  # JAX's first line, then the fix
        raise TypeError(
            "the first argument must be callable\n"
            "linear_transpose(fun, *primals): pass the linear function first, then example "
            "arguments"
        )
    jaxpr, consts, in_tree, in_avals, out_tree = trace_flat(fun, primals, keep_weak=True)
    in_dtypes = [a.dtype for a in in_avals]
    out_dtypes = [v.aval.dtype for v in jaxpr.outvars]
    kinds = {d.kind for d in in_dtypes + out_dtypes}
    if not (kinds <= {"f", "c"} or kinds <= {"i", "u"}):  # JAX's first line, then the fix
        raise TypeError(
            "linear_transpose only supports [float or complex] -> [float or complex], and "
            f"integer -> integer functions, but got {in_dtypes} -> {out_dtypes}.\n"
            "linear_transpose: transpose the function without its cast (a linear map's "
            "inputs and outputs are all inexact or all integer)"
        )

    def transposed_fun(consts: list, out_cotangent: Any) -> tuple:
        ct_flat, ct_tree = tree_util.tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError(
                "cotangent tree does not match function output, expected "
                f"{out_tree} but got {ct_tree}\n"
                "linear_transpose: pass one cotangent structured like the function's output"
            )
        out_avals = tuple(v.aval for v in jaxpr.outvars)
        if any(
            get_aval(c).shape != a.shape or get_aval(c).dtype != a.dtype
            for c, a in zip(ct_flat, out_avals)
        ):
            raise TypeError(
                f"cotangent type does not match function output, expected {out_avals} but got "
                f"{ct_flat}\n"
                "linear_transpose: each cotangent needs its output's shape and dtype"
            )
        args = [UndefinedPrimal(a) for a in in_avals]
        ct_values = [as_value(c) for c in ct_flat]
        cts = backward_pass(jaxpr, consts, args, ct_values)
        # an input the function returns as it is gets its cotangent as given, as JAX's
        given = _given_inputs(ct_values, ct_flat)
        returned = {id(v) for v in jaxpr.outvars}
        cts = [
            instantiate(c) if type(c) is Zero else given.get(id(c), c) if id(v) in returned else c
            for c, v in zip(cts, jaxpr.invars)
        ]
        return tuple(tree_util.tree_unflatten(in_tree, cts))

    # A pytree whose leaves are the function's constants, as JAX's (it can leave `jit`).
    return tree_util.Partial(transposed_fun, list(consts))


class _CompileTimeEvalTrace(Trace):
    """Runs primitives with only concrete operands eagerly; defers the rest to the parent."""

    def __init__(self, parent: Trace):
        self.parent = parent

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        concrete = not any(isinstance(a, Tracer) for a in args)
        with set_current_trace(eval_trace if concrete else self.parent):
            return prim.bind(*args, **params)


def fwd_and_bwd(
    fun: Callable, argnums: int | Sequence[int], has_aux: bool = False, jitted: bool = True
) -> tuple[Callable, Callable]:
    """The forward and backward passes of `fun` as two functions, as JAX's: the backward can be
    reused (and compiles once) across forward calls.

    Args:
      fun: the function to differentiate.
      argnums: an int or a sequence of ints, the positional arguments differentiated.
      has_aux: `fun` returns `(out, aux)`; `fwd` then returns `(out, residuals, aux)`.
      jitted: return the `jit` of both passes.

    Returns:
      `(fwd, bwd)`: `fwd(*args)` returns `(fun(*args), residuals)` (as `vjp`);
      `bwd(residuals, ct)` returns the cotangents of the `argnums` arguments (one array, not a
      tuple, for an int `argnums`).
    """
    if not callable(fun):
        raise TypeError(f"fwd_and_bwd requires a callable argument, got {fun!r}.")
    multiple = not isinstance(argnums, (int, np.integer))
    nums = tuple(argnums) if multiple else (argnums,)

    def fwd(*args: Any) -> Any:
        nums_ = [n % len(args) for n in nums]

        def f_dyn(*dyn: Any) -> Any:
            full = list(args)
            for i, a in zip(nums_, dyn):
                full[i] = a
            return fun(*full)

        return vjp(f_dyn, *(args[i] for i in nums_), has_aux=has_aux)

    def bwd(f_vjp: Callable, outgrad: Any) -> Any:
        g = f_vjp(outgrad)
        return g if multiple else g[0]

    return (jit(fwd), jit(bwd)) if jitted else (fwd, bwd)


@contextlib.contextmanager
def ensure_compile_time_eval() -> Iterator[None]:
    """Inside the block, operations on concrete values run eagerly even while tracing (`jit`).

    Operations involving traced values are traced as usual.
    """
    with set_current_trace(_CompileTimeEvalTrace(current_trace())):
        yield


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """`fun` with its operations traced under the name scope `name` (default: its `__name__`).

    Args:
      fun: the function.
      name: the scope's name.

    Returns:
      The wrapped function.
    """
    scope_name = name if name is not None else getattr(fun, "__name__", "named_call")

    @functools.wraps(fun)
    def named(*args: Any, **kwargs: Any) -> Any:
        with source_info.scope(scope_name):
            return fun(*args, **kwargs)

    return named


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[str]:
    """Adds `name` to the name stack of the operations traced in the block.

    The profiler labels equations and kernels with the stack (`"outer/inner/dot_general"`),
    as JAX's profiler and HLO metadata do.

    Args:
      name: the scope's name.

    Returns:
      A context manager whose `as` target is the name stack inside the block,
      `"outer/name"` (JAX's `NameStack`, whose `str` this is).
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope name argument must be a string.\nGot {name!r}.")
    with source_info.scope(name):
        yield source_info.name_stack()


def typeof(x: Any) -> ShapedArray:
    """The JAX-level type of `x` (`jax.typeof`): its abstract value (`ShapedArray`: shape,
    dtype, weak type) with its sharding over `Explicit` mesh axes (`core/sharding_types.py`).

    Args:
      x: an array, a traced value, a numpy array or a Python scalar.

    Returns:
      The type; `str` of it reads `float32[4@X,4]`.
    """
    return sharding_types.typeof(x)


@contextlib.contextmanager
def default_device(device: Any) -> Iterator[None]:
    """Context manager naming this thread's default device (`jax.default_device`): the
    computations on uncommitted arrays inside the block run on `device` and their results live
    there, uncommitted (`core/committed.py`); committed inputs still decide for themselves.

    Args:
      device: a local `Device`, or None / "cpu" for the platform's default (device 0).
    """
    if device is not None and device not in devices() and device != "cpu":
        raise ValueError(f"default_device: unknown device {device!r}; available: {devices()}")
    chosen = device if isinstance(device, Device) and device != local_devices()[0] else None
    if chosen is not None:
        placement.committed_to_device = True  # the calls' placement hooks look from now on
    with overriding_default(chosen):
        yield


@contextlib.contextmanager
def checking_leaks() -> Iterator[None]:
    """Checks, at the end of every trace (`jit`, `make_jaxpr`, control flow bodies), that the
    traced function kept none of its tracers (`jax.checking_leaks`): a leak raises
    `core.errors.LeakedTracerError` (JAX raises an `Exception`, "Leaked trace"). Tracing is
    slower inside (a garbage collection per trace).

    Returns:
      A context manager.
    """
    with config.override("check_tracer_leaks", True):
        yield


def copy_to_host_async(x: Any) -> Any:
    """Starts the host copy of every array leaf of `x`, like `jax.copy_to_host_async` (calls
    each leaf's `copy_to_host_async`, a no-op for numbax's host-memory arrays).

    Args:
      x: a pytree.

    Returns:
      `x` itself.
    """
    for leaf in tree_util.tree_leaves(x):
        copy = getattr(leaf, "copy_to_host_async", None)
        if copy is not None:
            copy()
    return x


def print_environment_info(return_string: bool = False) -> str | None:
    """Prints (or returns) the versions of numbax's dependencies and the platform."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    def ver(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    lines = [
        f"numbax:  {numbax.__version__}",
        f"numpy:   {np.__version__}",
        f"numba:   {ver('numba')}",
        f"scipy:   {ver('scipy')}",
        f"python:  {sys.version}",
        f"device info: cpu-{device_count()}, {local_device_count()} local devices",
        f"process_count: {process_count()}",
        f"platform: {platform.uname()}",
        f"jit backend: {config.jit_backend}, x64: {config.enable_x64}",
    ]
    text = "\n".join(lines)
    if return_string:
        return text
    print(text)
    return None
