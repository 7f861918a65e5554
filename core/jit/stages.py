"""`jit` in explicit stages, as `jax.stages`: trace, lower, compile.

    traced = jit(f).trace(x)         # Traced: the jaxpr staged for these arguments
    lowered = traced.lower()         # Lowered: the generated program (`as_text()`)
    compiled = lowered.compile()     # Compiled: the native function, called like `f`
    compiled(x)

`jit(f).lower(x)` is `jit(f).trace(x).lower()`. Each stage uses `jit`'s own caches: tracing
shares the trace cache of `jit(f)`, and compiling shares its compiled kernels, so calling
`jit(f)(x)` afterwards compiles nothing. A `Compiled` accepts only arguments with the tree
structure, shapes and dtypes it was compiled for (a `TypeError` otherwise, as in JAX).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from core import ir, tree_util
from core.avals import ShapedArray
from core.backends import numba as numba_backend
from core.config import config

if TYPE_CHECKING:
    from core.jit.api import Jitted, _Entry


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


class _Stage:
    """What every stage tells about its signature (JAX's `Stage`)."""

    _traced: Traced

    @property
    def args_info(self) -> Any:
        """The dynamic arguments as a tree `(args, kwargs)` of `ArgInfo`s."""
        traced = self._traced
        donate = set(traced._jitted._donate_argnums)
        static = {k for k, _ in traced._static if isinstance(k, int)}
        args, kwargs = tree_util.tree_unflatten(traced._in_tree, list(traced.in_avals))
        positions = [i for i in range(len(args) + len(static)) if i not in static]
        return (
            tuple(
                tree_util.tree_map(lambda v, d=pos in donate: ArgInfo(v, d), a)
                for pos, a in zip(positions, args)
            ),
            tree_util.tree_map(lambda v: ArgInfo(v, False), kwargs),
        )

    @property
    def in_tree(self) -> Any:
        """The tree structure of `(args, kwargs)` (dynamic arguments only)."""
        return self._traced._in_tree

    @property
    def out_tree(self) -> Any:
        """The tree structure of the output."""
        return self._traced._entry.out_tree

    @property
    def out_info(self) -> Any:
        """The outputs' `ShapedArray`s, in the output tree."""
        entry = self._traced._entry
        return tree_util.tree_unflatten(entry.out_tree, entry.jaxpr.out_avals)


class Traced(_Stage):
    """The program `jit(f)` staged for some arguments (`jit(f).trace(*args)`)."""

    def __init__(self, jitted: Jitted, entry: _Entry, in_tree: Any, in_avals: list, static: tuple):
        self._traced = self
        self._jitted = jitted
        self._entry = entry
        self._in_tree = in_tree
        self._static = static
        self.in_avals: list[ShapedArray] = in_avals
        """The abstract values of the dynamic (non-static) argument leaves."""

    @property
    def jaxpr(self) -> ir.ClosedJaxpr:
        """The staged program, with its constants (what `make_jaxpr` prints)."""
        jaxpr, consts = self._entry.jaxpr, self._entry.consts
        n = len(consts)
        inner = ir.Jaxpr(jaxpr.invars[:n], jaxpr.invars[n:], jaxpr.eqns, jaxpr.outvars)
        return ir.ClosedJaxpr(inner, consts)

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
        hit = jitted._prepare(traced._entry, self.backend, traced.in_avals, jitted._name())
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

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._traced._jitted._call_compiled(self._traced, self._hit, args, kwargs)
