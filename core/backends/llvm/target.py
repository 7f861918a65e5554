"""numba's typing and target contexts for the kernel language, without numba's whole registry.

The translator (`translate.py`) types each operation with numba's typing context and lowers it
with numba's implementation (`translate.contexts`). numba's own CPU contexts load everything on
their first refresh: every module of implementations (`numba.np.arraymath`, linear algebra,
polynomials, random generators, typed containers, jitclass, datetimes, ...) and the template
of every `@overload_method` they register; `numba.np.arraymath` imports `scipy.linalg` to check
for BLAS. That first refresh took 0.28 s of CPU, and `scipy.linalg`'s import 0.34 s more, in
every process that compiled a kernel (the framework's start-up, each compile worker), although
the kernel language needs scalar arithmetic, casts, `math`/`np` functions of scalars and numba
intrinsics only.

So the translator has contexts of its own: `numbax_lean`, a target derived from numba's CPU
(registered with numba's target extension API, so that intrinsics and overloads typed in its
typing context register and find their lowering in its target context) whose target context
loads numba's implementations of numbers, builtins, tuples, slices, ranges, arrays and the
scalar `math`/`np` functions, and whose typing context is numba's (its declarations are cheap).
The registries it installs are the same objects numba's contexts install, so an operation gets
the same typing and the same implementation as in a numba kernel; what is missing raises when
typed or lowered, which the translator reports as `Unsupported` (the nest stays numba's). Its
code is compiled by numba's own code generator (one JIT engine for both). numba's own contexts
still load everything, when numba compiles a function. Functions of numbax's runtime written
for numba compile on the lean target too (`numba.njit(_target=NAME)`: eager loops,
`core/backends/numba/eager_loops.py`). Loading this module also stops numba's events on
llvmlite's lock from being built when nothing listens (`_quiet_lock_events`). Every code
library numbax finalizes or loads does so under `callbacks_raise`, so that a signal's exception
raised inside the engine's callbacks (Ctrl-C while LLVM compiles) is raised, not dropped.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
from collections.abc import Iterator

from llvmlite import binding as llvm
from llvmlite.binding import ffi
from llvmlite.binding.executionengine import ExecutionEngine
from numba.core import cpu, dispatcher, event, registry, typing
from numba.core.codegen import JITCodeLibrary, JITCPUCodegen
from numba.core.runtime import rtsys
from numba.core.target_extension import (
    CPU,
    dispatcher_registry,
    jit_registry,
    target_override,
    target_registry,
)

NAME = "numbax_lean"


class LeanCPU(CPU):
    """The `numbax_lean` target: numba's CPU, for the kernel language's typing and lowering."""


class LeanTyping(typing.Context):
    """numba's typing context, resolving under the `numbax_lean` target (where intrinsics and
    overloads register their lowering)."""

    def load_additional_registries(self) -> None:
        # numba's list (typing.Context) without cffi's (0.1 s: pycparser), lists, sets, dicts
        # and enums
        from numba.core.typing import cmathdecl, mathdecl, npydecl  # noqa: PLC0415

        for module in (cmathdecl, mathdecl, npydecl):
            self.install_registry(module.registry)

    def refresh(self) -> None:
        with target_override(NAME):
            super().refresh()

    def resolve_function_type(self, *args, **kws):
        with target_override(NAME):
            return super().resolve_function_type(*args, **kws)

    def resolve_getattr(self, *args, **kws):
        with target_override(NAME):
            return super().resolve_getattr(*args, **kws)


class LeanContext(cpu.CPUContext):
    """numba's CPU target context with the implementations of the kernel language only,
    compiling with numba's code generator."""

    def init(self) -> None:
        super().init()
        self._internal_codegen = registry.cpu_target.target_context.codegen()
        self._target_data = self._internal_codegen.target_data

    def load_additional_registries(self) -> None:
        # numba's list (cpu.CPUContext) without its modules of array functions, containers,
        # random generators, polynomials, datetimes, strings and jitclass
        from numba.core import optional  # noqa: F401, PLC0415
        from numba.cpython import (  # noqa: F401, PLC0415
            builtins,
            cmathimpl,
            enumimpl,
            iterators,
            mathimpl,
            numbers,
            rangeobj,
            slicing,
            tupleobj,
        )
        from numba.misc import literal  # noqa: F401, PLC0415
        from numba.np import arrayobj, npyimpl  # noqa: F401, PLC0415

        rtsys.initialize(self)
        self.install_registry(cmathimpl.registry)
        self.install_registry(mathimpl.registry)
        self.install_registry(npyimpl.registry)

    def refresh(self) -> None:
        with target_override(NAME):
            super().refresh()

    def get_function(self, *args, **kws):
        with target_override(NAME):
            return super().get_function(*args, **kws)


class _Descriptor(registry.CPUTarget):
    @functools.cached_property
    def _toplevel_target_context(self) -> LeanContext:
        return LeanContext(self.typing_context, NAME)

    @functools.cached_property
    def _toplevel_typing_context(self) -> LeanTyping:
        return LeanTyping()


class _Dispatcher(dispatcher.Dispatcher):
    targetdescr = _Descriptor(NAME)


target_registry[NAME] = LeanCPU
dispatcher_registry[LeanCPU] = _Dispatcher
jit_registry[LeanCPU] = jit_registry[CPU]  # an overload's implementation compiles as numba's


def contexts() -> tuple[LeanTyping, LeanContext]:
    """The `numbax_lean` typing and target contexts (not refreshed yet)."""
    descr = _Dispatcher.targetdescr
    return descr.typing_context, descr.target_context


# llvmlite's object cache callbacks, which LLVM calls (through ctypes) as it compiles or loads a
# module (`callbacks_raise`).
_CACHE_CALLBACKS = (
    ExecutionEngine._raw_object_cache_notify,
    ExecutionEngine._raw_object_cache_getbuffer,
)


@contextlib.contextmanager
def callbacks_raise() -> Iterator[None]:
    """Raises, when the block ends, what was raised on this thread inside the JIT engine's
    object cache callbacks meanwhile (wrap a code library's `finalize` and
    `unserialize_library` in it).

    A signal that arrives while LLVM compiles (Ctrl-C's KeyboardInterrupt, a SIGALRM timeout's
    exception) runs its Python handler at the first Python code the main thread runs next: the
    callback by which the engine hands numba the object code it made. ctypes prints what the
    handler raised there and drops it, so the interrupt was lost, numba never recorded the
    object code, and caching the library then failed with numba's "no compiled object yet"
    RuntimeError (an Optax test stopped by its harness's timeout). The exception is caught by
    `sys.unraisablehook` (others go on to the hook in place before) and raised here instead
    (in place of what the block raised meanwhile).
    """
    caught: list[BaseException] = []
    me = threading.get_ident()
    previous = sys.unraisablehook

    def hook(info) -> None:
        if active and info.object in _CACHE_CALLBACKS and threading.get_ident() == me:
            caught.append(info.exc_value)
        else:
            previous(info)

    active = True
    sys.unraisablehook = hook
    try:
        yield
    except BaseException as e:  # numba's "no compiled object yet", as it caches its function
        if caught:
            raise caught[0] from e
        raise
    finally:
        active = False
        if sys.unraisablehook is hook:
            sys.unraisablehook = previous
    if caught:
        raise caught[0]


# The quick tier (`config.jit_quick_first_call`, `core/jit/program.py`): kernels a first call
# compiles run code built by a cheap pipeline while their optimized twins compile elsewhere.
_tier = threading.local()


@contextlib.contextmanager
def quick_tier(on: bool = True, shared: bool = False) -> Iterator[None]:
    """On this thread, `codegen()` is the quick code generator (if `on`): what the code built
    meanwhile compiles to is not the optimized code, and is never cached on disk as such.
    `shared`: quick code compiled meanwhile goes to the disk cache under names of its own
    (`QUICK_SUFFIX`), where the process that asked a compile worker for it finds it, and so
    does a later process (a short script run again, whose first run exited before its twins
    were built); a process compiling in the quick tier loads such code where the optimized
    code is not cached."""
    before = getattr(_tier, "quick", False), getattr(_tier, "shared", False)
    _tier.quick, _tier.shared = on, on and shared
    try:
        yield
    finally:
        _tier.quick, _tier.shared = before


def is_quick() -> bool:
    """Whether this thread compiles in the quick tier (`quick_tier`)."""
    return getattr(_tier, "quick", False)


def shares_quick() -> bool:
    """Whether this thread writes the quick code it compiles to the disk cache (`quick_tier`)."""
    return getattr(_tier, "shared", False)


# What the disk cache's file suffixes of quick code start with ("qshell", "qroutine").
QUICK_SUFFIX = "q"


def codegen(loops: bool = False):
    """The code generator this thread compiles numbax's LLVM with: numba's JIT code generator
    (its O3 pipeline and target machine), or in the quick tier `quick_codegen(loops)`."""
    if is_quick():
        return quick_codegen(loops)
    from numba.core.registry import cpu_target  # noqa: PLC0415

    return cpu_target.target_context.codegen()


class _QuickLibrary(JITCodeLibrary):
    """A code library of the quick tier: a light function pipeline (`_light`) instead of numba's
    per-function O3 and module O3 passes; its machine code by the quick target machine."""

    def _optimize_functions(self, ll_module) -> None:
        ll_module.data_layout = self._codegen._data_layout

    def _optimize_final_module(self) -> None:
        _light(self._codegen, self._final_module)


def _light(gen, module) -> None:
    """Runs the quick tier's passes on `module` (none with `QUICK_PASSES` empty)."""
    if not QUICK_PASSES:
        return
    pm = llvm.create_new_module_pass_manager()
    for name in QUICK_PASSES:
        getattr(pm, f"add_{name}_pass")()
    pb = llvm.create_pass_builder(gen._tm, llvm.create_pipeline_tuning_options(0))
    pm.run(module, pb)


# The quick tier's passes and code generation level, chosen by the first calls (compile + one
# run) of bench/compile.py's six models (`bench/README.md`, "Quick first calls"): SROA (values
# in registers, not stack slots) and fast instruction selection, 8.4 s for the six against 9.2
# without SROA, 9.3 with O1 code generation and 9.8 with instcombine and simplifycfg too (whose
# code runs the LSTM's step in 0.1 s instead of 0.35, but compiles slower everywhere).
# A shell with step loops (a scan's: its code runs once per step) gets O1 code generation: the
# LSTM's first call 1.67 s against 1.79 s (mean of four cold runs each).
QUICK_PASSES = ("sroa",)
QUICK_OPT = 0
QUICK_LOOPS_OPT = 1


class _QuickCodegen(JITCPUCodegen):
    """numba's JIT code generator for the host CPU, with `_QuickLibrary`'s pipeline and a target
    machine at `QUICK_OPT` (0: LLVM's fast instruction selection, no machine-level
    optimization), or `QUICK_LOOPS_OPT` for code with step loops."""

    _library_class = _QuickLibrary

    def __init__(self, name: str, opt: int):
        self._quick_opt = opt
        super().__init__(name)

    def _customize_tm_options(self, options: dict) -> None:
        super()._customize_tm_options(options)
        options["opt"] = self._quick_opt


def is_quick_library(library) -> bool:
    """Whether code library `library` was compiled in the quick tier."""
    return isinstance(library, _QuickLibrary)


@functools.cache
def quick_codegen(loops: bool = False) -> _QuickCodegen:
    """The quick tier's code generator (its own JIT engine; symbols resolve as numba's do);
    `loops`: the one for code with step loops (a scan's), which runs many times in one call."""
    opt = QUICK_LOOPS_OPT if loops else QUICK_OPT
    return _QuickCodegen(f"numbax_quick{opt}", opt)


# The name of numba's callback on acquiring llvmlite's lock, which every call into LLVM's C API
# takes (`_quiet_lock_events`).
_NUMBA_LOCK_EVENTS = "_initialize_llvm_lock_event.<locals>.enter_fn"


def _quiet_lock_events() -> None:
    """Makes numba's callbacks on llvmlite's lock broadcast their `numba:llvm_lock` start and end
    events only while a listener is installed (numba installs its timer while it compiles a
    function): the events, built and broadcast to no one at every call into LLVM, cost 5 us a
    call (6.2 us against 0.7 us for the lock alone), and the transformer's cold first call
    made 18,250 such calls in its main thread. What a listener receives is unchanged; nothing
    changes if llvmlite keeps its callbacks otherwise."""
    callbacks = getattr(getattr(ffi.lib, "_lock", None), "_cblist", None)
    if not isinstance(callbacks, list):
        return
    listeners = event._registered["numba:llvm_lock"]  # the list listeners join and leave
    for acquire, release in list(callbacks):
        if getattr(acquire, "__qualname__", "") != _NUMBA_LOCK_EVENTS:
            continue
        ffi.unregister_lock_callback(acquire, release)
        ffi.register_lock_callback(
            lambda acquire=acquire: listeners and acquire(),
            lambda release=release: listeners and release(),
        )


_quiet_lock_events()
