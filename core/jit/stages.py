"""`jit` in explicit stages, as `jax.stages`: trace, lower, compile.

    traced = jit(f).trace(x)         # Traced: the jaxpr staged for these arguments
    lowered = traced.lower()         # Lowered: the generated program (`as_text()`)
    compiled = lowered.compile()     # Compiled: the native function, called like `f`
    compiled(x)

`jit(f).lower(x)` is `jit(f).trace(x).lower()`. Each stage uses `jit`'s own caches: tracing
shares the trace cache of `jit(f)`, and compiling shares its compiled kernels, so calling
`jit(f)(x)` afterwards compiles nothing. A `Compiled` takes the dynamic arguments only (the
static ones were fixed when tracing) with the tree structure, shapes and dtypes it was
compiled for, and no tracers (JAX's `TypeError`s otherwise: `check_compiled_call`, which
`pmap`'s stages share).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from core import ir, tree_util
from core.avals import ShapedArray, ShapeDtypeStruct
from core.backends import numba as numba_backend
from core.config import config
from core.devices import default_device
from core.errors import NumbaxError
from core.profiler.cost import jaxpr_cost
from core.sharding_base import SingleDeviceSharding
from core.trace import Tracer

if TYPE_CHECKING:
    from core.jit.api import Jitted, _Entry


class CompiledTreeError(NumbaxError, TypeError):
    """A compiled function called with arguments of another tree than it was lowered for.

    Failing code: ``jit(f, static_argnums=1).lower(x, 4).compile()(x, 4)`` (the
    static argument was fixed when lowering). Fix: pass the dynamic arguments only, in the
    lowered structure, or call the jitted (or pmapped) function itself, which traces for
    every new structure.
    """


class CompiledArgumentTypeError(NumbaxError, TypeError):
    """A compiled function called with arrays of other shapes or dtypes than it was lowered for.

    Failing code: ``jit(f).lower(jnp.ones(3)).compile()(jnp.ones(4))``. Fix: lower
    again for the new shapes, or call the jitted (or pmapped) function itself, which
    compiles for them.
    """


class CompiledTracerError(NumbaxError, TypeError):
    """A compiled function called inside a transformation (`jit`, `grad`, `vmap`).

    Failing code: ``jax.grad(lambda x: compiled(x).sum())(xs)``. Fix: transform the jitted or
    pmapped function itself (``jax.grad(lambda x: jit(f)(x).sum())``); a compiled one runs
    only on concrete arrays.
    """


def _short(aval: ShapedArray) -> str:
    """`float32[2,3]`, as JAX names a compiled argument's type."""
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"


def _children(n: int) -> str:
    return f"{n} child" + ("ren" if n > 1 else "")


def _tree_mismatches(want: Any, got: Any, path: str = "") -> list[tuple[str, str]]:
    """Where and how the tree `got` differs from `want`, as JAX lists a `Compiled`'s call's
    mismatches: a node each (`args`, `kwargs['k']`, `args[0][1]`), not below it."""
    if want == got:
        return []
    if tree_util.treedef_is_leaf(want) or tree_util.treedef_is_leaf(got):
        seen, given = (
            "pytree leaf" if tree_util.treedef_is_leaf(t) else str(t.node_data()[0])
            for t in (want, got)
        )
        return [(path, f"seen {seen} but now given {given}, so their Python types differ")]
    (wt, wa), (gt, ga) = want.node_data(), got.node_data()
    wc, gc = want.children(), got.children()
    if wt is not gt:
        return [(path, f"seen {wt} but now given {gt}, so their Python types differ")]
    if len(wc) != len(gc) or wa != ga:
        if wt in (tuple, list):
            n = wt.__name__
            what = f"seen {n} of length {len(wc)} but now given {n} of length {len(gc)}, "
            return [(path, what + "so the lengths do not match")]
        what = (
            f"seen {wt} with {_children(len(wc))} but now given {gt} with "
            f"{_children(len(gc))}, so the numbers of children do not match"
        )
        if wt is dict:
            what += f", with the symmetric difference of key sets: {set(wa) ^ set(ga)}"
        return [(path, what)]
    if not path:  # the top level: the call's (args, kwargs)
        keys = ["args", "kwargs"]
    elif wt is dict:
        keys = [f"{path}[{k!r}]" for k in wa]
    else:
        keys = [f"{path}[{i}]" for i in range(len(wc))]
    return [e for k, w, g in zip(keys, wc, gc) for e in _tree_mismatches(w, g, k)]


def check_compiled_call(
    args: tuple,
    kwargs: dict,
    in_tree: Any,
    want: list,
    inputs: Callable,
    names: list[str] | None = None,
) -> tuple[list, list, list]:
    """Checks a `Compiled`'s call as JAX does: the dynamic arguments only, no tracers, the
    lowered tree, shapes and dtypes.

    Args:
      args, kwargs: the call's arguments.
      in_tree: the lowered `(args, kwargs)` tree.
      want: the lowered leaves' avals.
      inputs: leaves -> (their avals, their kernel inputs).
      names: the leaves' names in the errors (`source_info.arg_names`), else `flat_args[k]`.

    Returns:
      (the leaves, their avals, their kernel inputs).

    Raises:
      CompiledTracerError, CompiledTreeError, CompiledArgumentTypeError: JAX's TypeErrors.
    """
    leaves, tree = tree_util.tree_flatten((tuple(args), kwargs))
    for x in leaves:
        if isinstance(x, Tracer):
            raise CompiledTracerError(
                "Cannot apply JAX transformations to a function lowered and compiled for a "
                f"particular signature. Detected argument of Tracer type {type(x)}. "
                "Transform the jitted or pmapped function itself instead."
            )
    if tree != in_tree:
        errs = _tree_mismatches(in_tree, tree)
        raise CompiledTreeError(
            "Function compiled with input pytree does not match the input pytree it was "
            f"called with. There are {len(errs)} mismatches, including:\n"
            + "".join(f"    * at {where}, {what}\n" for where, what in errs[:5])
            + "Pass the dynamic arguments only (not the static ones), as when lowering."
        )
    avals, vals = inputs(leaves)
    bad = [
        f"Argument '{names[k] if names else f'flat_args[{k}]'}' compiled with {_short(w)} and "
        f"called with {_short(g)}"
        for k, (w, g) in enumerate(zip(want, avals))
        if (w.shape, w.dtype) != (g.shape, g.dtype)
    ]
    if bad:
        raise CompiledArgumentTypeError(
            "Argument types differ from the types for which this computation was compiled. "
            "Perhaps you are calling the compiled executable with a different enable_x64 "
            "mode than when it was AOT compiled? The mismatches are:\n"
            + "\n".join(bad)
            + "\nLower and compile again for these arguments, or call the jitted (or "
            "pmapped) function, which does so itself."
        )
    return leaves, avals, vals


@dataclasses.dataclass(frozen=True, slots=True)
class ArgInfo:
    """One argument leaf of a stage, as `jax.stages.ArgInfo`: its abstract value and whether
    it is donated (`stage.args_info` is a tree of these, shaped like `(args, kwargs)`)."""

    _aval: ShapedArray
    donated: bool

    @property
    def shape(self) -> tuple[int, ...]:
        return self._aval.shape

    @property
    def dtype(self) -> Any:
        return self._aval.dtype


def args_info(
    in_tree: Any,
    avals: list,
    static: set[int],
    donate: Sequence[int],
    donate_names: Collection[str] = (),
) -> Any:
    """The dynamic arguments of a staged call as a tree `(args, kwargs)` of `ArgInfo`s.

    Args:
      in_tree: the tree of `(args, kwargs)` (dynamic arguments only).
      avals: their leaves' avals, in order.
      static: the static positional arguments' indices (not in `in_tree`).
      donate: the donated positional arguments' indices (counting static ones).
      donate_names: the donated arguments' names (for those passed by keyword).

    Returns:
      `(args, kwargs)` with an `ArgInfo` per leaf.
    """
    args, kwargs = tree_util.tree_unflatten(in_tree, avals)
    positions = [i for i in range(len(args) + len(static)) if i not in static]
    return (
        tuple(
            tree_util.tree_map(lambda v, d=pos in donate: ArgInfo(v, d), a)
            for pos, a in zip(positions, args)
        ),
        {
            k: tree_util.tree_map(lambda v, d=k in donate_names: ArgInfo(v, d), v)
            for k, v in kwargs.items()
        },
    )


class _Stage:
    """What every stage tells about its signature (JAX's `Stage`)."""

    _traced: Traced

    @property
    def args_info(self) -> Any:
        """The dynamic arguments as a tree `(args, kwargs)` of `ArgInfo`s."""
        traced = self._traced
        static = {k for k, _ in traced._static if isinstance(k, int)}
        jitted = traced._jitted
        return args_info(
            traced._in_tree,
            list(traced._in_avals),
            static,
            jitted._donate_argnums,
            jitted._donate_argnames,
        )

    @property
    def in_tree(self) -> Any:
        """The tree structure of `(args, kwargs)` (dynamic arguments only)."""
        return self._traced._in_tree

    @property
    def in_avals(self) -> Any:
        """The dynamic arguments' abstract values, a tree `(args, kwargs)` of `ShapedArray`s."""
        return tree_util.tree_unflatten(self._traced._in_tree, self._traced._in_avals)

    @property
    def donate_argnums(self) -> tuple[int, ...]:
        """The donated arguments' indices among the dynamic positional ones (JAX's: static
        arguments do not count; those donated by name count)."""
        static = {k for k, _ in self._traced._static if isinstance(k, int)}
        donated = self._traced._jitted._donate_argnums
        return tuple(i - sum(s < i for s in static) for i in donated if i not in static)

    @property
    def out_tree(self) -> Any:
        """The tree structure of the output."""
        return self._traced._entry.out_tree

    # JAX's `Traced` tells the outputs' weak types, its `Lowered` and `Compiled` do not
    _weak_out = False

    @property
    def out_info(self) -> Any:
        """The outputs as `ShapeDtypeStruct`s, in the output tree."""
        entry = self._traced._entry
        outs = [
            ShapeDtypeStruct(a.shape, a.dtype, a.weak_type and self._weak_out)
            for a in entry.jaxpr.out_avals
        ]
        return tree_util.tree_unflatten(entry.out_tree, outs)

    def _program(self) -> ir.Jaxpr:
        """The staged program (a pmap's: the per-device one)."""
        return self._traced._entry.jaxpr

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimate of the program, as JAX's `cost_analysis()`: "flops",
        "transcendentals" and "bytes accessed" (XLA's counting rules on the program before
        fusion, `core/profiler/cost.py`; zero counts left out as XLA leaves them out). A
        `Compiled` reports the same numbers (JAX's counts its fused program's bytes instead),
        and a pmap's stages its per-device program's.

        Returns:
          The counts by XLA's names.
        """
        return jaxpr_cost(self._program())


class Traced(_Stage):
    """The program `jit(f)` staged for some arguments (`jit(f).trace(*args)`)."""

    _weak_out = True

    def __init__(
        self,
        jitted: Jitted,
        entry: _Entry,
        in_tree: Any,
        in_avals: list,
        static: tuple,
        arg_names: list[str],
    ):
        self._traced = self
        self._arg_names = arg_names  # the dynamic leaves' names, for a Compiled's errors
        self._jitted = jitted
        self._entry = entry
        self._in_tree = in_tree
        self._static = static
        self._in_avals: list[ShapedArray] = in_avals  # the dynamic argument leaves'

    @property
    def fun_name(self) -> str:
        """The traced function's name."""
        return self._jitted._name()

    @property
    def out_avals(self) -> Any:
        """The outputs' abstract values (`ShapedArray`s, weak types kept), in the output tree."""
        return tree_util.tree_unflatten(self._entry.out_tree, self._entry.jaxpr.out_avals)

    @property
    def jaxpr(self) -> ir.ClosedJaxpr:
        """The staged program as traced (its unused equations kept, as JAX's), with its
        constants: what `make_jaxpr` prints."""
        return ir.ClosedJaxpr(self._entry.staged, self._entry.consts)

    def lower(self) -> Lowered:
        """The program generated for the back end (no compilation yet)."""
        return Lowered(self)


class Lowered(_Stage):
    """The program generated from a `Traced` for the jit back end (`traced.lower()`)."""

    def __init__(self, traced: Traced):
        self._traced = traced
        self.backend: str = traced._jitted._backend or config.jit_backend
        """"numba" (generated Python compiled by numba) or "python" (numpy, op by op)."""

    def as_text(self) -> str:
        """The generated program: the Python source numba compiles (for the numba back end;
        every distinct kernel when the program is split into kernels), or the jaxpr that the
        numpy back end runs equation by equation."""
        jaxpr = self._traced._entry.jaxpr
        if self.backend == "python":
            return str(jaxpr)
        return numba_backend.generated_source(jaxpr)

    def compile(self) -> Compiled:
        """Compiles the program (or takes it from `jit`'s caches, in memory or on disk)."""
        traced = self._traced
        jitted = traced._jitted
        hit = jitted._prepare(traced._entry, self.backend, traced._in_avals, jitted._name())
        return Compiled(traced, hit)


class Compiled(_Stage):
    """A compiled program (`lowered.compile()`): call it like `f`, with arguments of the
    signature it was traced for (the same tree, shapes, dtypes and static values)."""

    def __init__(self, traced: Traced, hit: tuple):
        self._traced = traced
        self._hit = hit

    def as_text(self) -> str:
        """The source of the compiled program (the numba back end), else the jaxpr."""
        exe = self._traced._entry.exe
        return getattr(exe, "source", None) or str(self._traced._entry.jaxpr)

    @property
    def input_shardings(self) -> Any:
        """The dynamic arguments' shardings, a tree `(args, kwargs)` of them: the default
        device's `SingleDeviceSharding` per leaf (JAX's on one CPU device)."""
        one = SingleDeviceSharding(default_device())
        return tree_util.tree_map(lambda _: one, self.args_info)

    @property
    def output_shardings(self) -> Any:
        """The outputs' shardings, in the output tree (as `input_shardings`)."""
        one = SingleDeviceSharding(default_device())
        return tree_util.tree_map(lambda _: one, self.out_info)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._traced._jitted._call_compiled(self._traced, self._hit, args, kwargs)
