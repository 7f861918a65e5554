"""`pmap` in explicit stages, as JAX 0.10's `jax.pmap(f).lower(...)`:

    lowered = pmap(f, axis_name="i").lower(xs)    # Lowered: the per-device program
    lowered.as_text()                              # its generated source
    compiled = lowered.compile()                   # Compiled: call it like the pmap
    compiled(xs)

The stages are `core.stages.Lowered` and `Compiled` (subclasses), and use the pmapped
function's caches: lowering traces what a call would trace, compiling compiles what a call
would run, so calling `pmap(f)(xs)` afterwards compiles nothing. As in JAX, a `Compiled`
takes the dynamic arguments only (static broadcasted ones were fixed when lowering) with the
tree, shapes and dtypes it was lowered for, and refuses tracers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core import tree_util
from core.avals import ShapedArray, ShapeDtypeStruct
from core.backends import numba as numba_backend
from core.config import config
from core.devices import process_count
from core.jit.stages import Compiled, Lowered, args_info, check_compiled_call
from core.parallel import axis_env, dispatch
from core.sharding import pmap_sharding

if TYPE_CHECKING:
    from core.pmap import _Entry, _Pmapped

__all__ = ["PmapCompiled", "PmapLowered"]


class _PmapStage:
    """What the pmap stages tell about their signature (JAX's `Stage`)."""

    _pmapped: _Pmapped
    _entry: _Entry
    _static: tuple
    _in_tree: Any
    _avals: list[ShapedArray]
    _axes: list
    _devices: list

    @property
    def args_info(self) -> Any:
        """The dynamic arguments as a tree `(args, kwargs)` of `ArgInfo`s (global shapes)."""
        static = {i for i, _ in self._static}
        return args_info(self._in_tree, list(self._avals), static, self._pmapped._donated)

    def _program(self) -> Any:
        """The per-device program."""
        return self._entry.jaxpr

    @property
    def in_avals(self) -> Any:
        """The dynamic arguments' `ShapedArray`s (global shapes), as a tree `(args, kwargs)`."""
        return tree_util.tree_unflatten(self._in_tree, list(self._avals))

    @property
    def in_tree(self) -> Any:
        """The tree structure of `(args, kwargs)` (dynamic arguments only)."""
        return self._in_tree

    @property
    def out_tree(self) -> Any:
        """The tree structure of the output."""
        return self._entry.out_tree

    @property
    def out_info(self) -> Any:
        """The outputs as `ShapeDtypeStruct`s of their stacked shapes, with the shardings a
        call places them by."""
        n, name = len(self._devices), self._pmapped._axis_name
        outs = []
        for aval, ax in zip(self._entry.jaxpr.out_avals, self._entry.out_axes):
            shape = aval.shape if ax is None else (*aval.shape[:ax], n, *aval.shape[ax:])
            sharding = pmap_sharding(self._devices, ax, name)
            outs.append(ShapeDtypeStruct(shape, aval.dtype, aval.weak_type, sharding=sharding))
        return tree_util.tree_unflatten(self._entry.out_tree, outs)

    @property
    def donate_argnums(self) -> tuple[int, ...]:
        """The donated argument positions given to `pmap`."""
        return self._pmapped._donated


class PmapLowered(_PmapStage, Lowered):
    """A pmapped function lowered for some arguments (`pmap(f).lower(*args)`)."""

    def __init__(
        self,
        pmapped: _Pmapped,
        entry: _Entry,
        static: tuple,
        in_tree: Any,
        avals: list[ShapedArray],
        axes: list,
        size: int,
        devices: list,
    ):
        self._pmapped, self._entry, self._static = pmapped, entry, static
        self._in_tree, self._avals, self._axes = in_tree, avals, axes
        self._devices = devices
        self.backend: str = config.jit_backend
        """"numba" (generated Python compiled by numba) or "python" (numpy, op by op)."""

    def as_text(self) -> str:
        """The per-device program: the Python source numba compiles (every distinct kernel
        when it is split into kernels), or the jaxpr the numpy back end runs."""
        jaxpr = self._entry.jaxpr
        if self.backend == "python" or not config._jit_enabled:
            return str(jaxpr)
        with axis_env.tracing(self._pmapped._axis_name, len(self._devices) * process_count()):
            return numba_backend.generated_source(jaxpr)

    def compile(self) -> PmapCompiled:
        """Compiles the per-device program (or takes it from the pmap's caches)."""
        self._pmapped._compile(self._entry, len(self._devices))
        return PmapCompiled(self)


class PmapCompiled(_PmapStage, Compiled):
    """A compiled pmapped function (`lowered.compile()`): call it with the dynamic arguments
    it was lowered for."""

    def __init__(self, lowered: PmapLowered):
        for name in ("_pmapped", "_entry", "_static", "_in_tree", "_avals", "_axes", "_devices"):
            setattr(self, name, getattr(lowered, name))

    def as_text(self) -> str:
        """The source of the compiled program (the numba back end), else the jaxpr."""
        return getattr(self._entry.exe, "source", None) or str(self._entry.jaxpr)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves, avals, vals = check_compiled_call(
            args, kwargs, self._in_tree, self._avals,
            lambda leaves: dispatch.device_inputs(leaves, self._axes, self._devices),
        )  # fmt: skip
        fixed = dict(self._static)
        dyn = iter(args)
        full = tuple(fixed[i] if i in fixed else next(dyn) for i in range(len(args) + len(fixed)))
        return self._pmapped._run(self._entry, full, leaves, vals, self._axes, self._devices)
