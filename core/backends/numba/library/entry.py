"""Library functions: numba functions compiled once per dtype, called by generated kernels.

A library function is an ordinary Python function written for numba over flat C-contiguous
arrays, an int64 parameter array (sizes, strides, paddings, ...) and scalars. It is compiled
once per argument dtype with `numba_cache.cached_njit` (the verified, atomic disk cache) and
never again, whatever the shapes it serves. Kernels call it through `Entry`, a numba intrinsic
that flattens the kernel's arrays, stores a tuple of ints into a stack array and emits one
indirect call through a slot: an 8-byte cell, registered with LLVM under a symbol derived
from the library's sources and the signature (`slot`, `llvmlite.binding.add_symbol`) as soon
as a kernel names the function, that `load` fills with the address of the compiled function
itself, called in numba's calling convention (`call_native`: library functions compile with
neither a C nor a Python wrapper; `dispatcher` makes a Python entry). A kernel therefore
compiles no library code at all (linking the function's IR into
every caller, as a call of a numba dispatcher does, would re-optimize it in each of them), it
compiles and links before the function it calls is compiled (a program's kernels and library
functions compile at the same time, in this process and the compile workers; only running a
kernel needs its functions loaded), and its cached machine code stays valid as long as the
library's sources are unchanged (they are part of the disk cache's fingerprint,
`core/jit/disk_cache.py`).

Every library function compiles serial, but one: `run_parts` (`parts.py`), the only `prange`
(numba's parallel passes cost 1-3 s of compile for each function with one, once per function
and dtype; numbax's routine of it runs numba's threading layer without them,
`core/backends/llvm/parallel.py`, and numba compiles it with `parallel=True` only where the
routine is not available). A function that shares work between threads cuts it into parts and hands
`run_parts` the address of a part function and of its arguments (`in_parts`): the threads call
the part function (a serial library function, through its slot) once per part. Functions that
call others through slots name them (`register(..., calls=...)`): they load first.

The slot must exist before a kernel that calls it is loaded from the disk cache, so generated
modules declare what they call at module level (`requirements`): executing the module
registers the slots and loads (or compiles) those library functions, unless a compile is under
way (`deferred_loading`: the program's compile loads them once, `core/jit/program.py`, and a
compile worker never runs what it compiles).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array
from numba.np.numpy_support import as_dtype, from_dtype

from core.backends.llvm import parallel, routines, target
from core.backends.llvm.translate import Unsupported
from core.jit import disk_cache
from core.jit.array_struct import array_struct
from core.jit.numba_cache import cached_njit

# Library code is compiled like kernels: inf/nan instead of exceptions, FMA contraction. Kernels
# call the function itself, in numba's calling convention (`call_native`): no C or Python
# wrapper to compile (`dispatcher` makes a Python entry).
OPTIONS = dict(
    error_model="numpy",
    fastmath={"contract"},
    nogil=True,
    no_cpython_wrapper=True,
    no_cfunc_wrapper=True,
)

_VERSION = hashlib.sha256(
    b"".join(p.read_bytes() for p in sorted(Path(__file__).parent.glob("*.py")))
).hexdigest()[:16]
_FUNCTIONS: dict[str, tuple[Callable, tuple[str, ...]]] = {}  # name -> (function, template)
_CALLS: dict[str, tuple[str, ...]] = {}  # name -> the library functions it calls through slots
_THREADED: set[str] = set()  # the functions compiled with `parallel=True` (`run_parts`)
_OPTIMIZED: set[str] = set()  # compiled optimized in the quick tier too (`register`)
_CALLERS: dict[str, Callable] = {}  # "<name>__<codes>" -> intrinsic
_LOADED: dict[tuple, int] = {}  # (name, signature) -> the compiled function's address
_KEEP: list = []  # the dispatchers of the functions numba compiled, kept for the process
_PYTHON: dict[str, Callable] = {}  # "<name>__<codes>" -> its Python entry (`dispatcher`)
_SLOTS: dict[str, np.ndarray] = {}  # slot symbol -> its cell (the function's address, 0 before)
_slot_lock = threading.Lock()
_defer = threading.local()  # .on: `require` registers slots only (`deferred_loading`)
_stats = {"compiled": 0, "loaded": 0}


def stats() -> dict[str, int]:
    """Counters of this process: library functions `compiled` here and `loaded` from disk."""
    return dict(_stats)


def register(
    template: str, calls: tuple[str, ...] = (), parallel: bool = False, optimized: bool = False
) -> Callable[[Callable], Callable]:
    """Makes the decorated function a library function named by its `__name__`.

    Args:
      template: its argument types, space-separated: a letter ("a", "b", ...) is a flat array
        of the call's first, second, ... dtype, "p" the int64 parameter array, "i" an int64
        scalar, "s:" + a letter a scalar of that dtype. A call `lib.<name>__f4_i4(...)` gives
        a = float32, b = int32; a function without letters is called `<name>__any`.
      calls: the library functions it calls through their slots (`callee`, `in_parts`), in
        the dtypes of its own call: loaded with it.
      parallel: compile it with `parallel=True` (`run_parts` only).
      optimized: compile it optimized in the quick tier too (`core.backends.llvm.target`):
        a function whose work is its own arithmetic loops, which quick code runs many times
        slower (`skinny_columns`).

    Returns:
      The decorator (it returns the function unchanged).
    """

    def wrap(fn: Callable) -> Callable:
        _FUNCTIONS[fn.__name__] = (fn, tuple(template.split()))
        _CALLS[fn.__name__] = calls
        if parallel:
            _THREADED.add(fn.__name__)
        if optimized:
            _OPTIMIZED.add(fn.__name__)
        return fn

    return wrap


def slot(name: str, signature: tuple) -> str:
    """The symbol of the cell through which kernels call library function `name` compiled for
    `signature` (registered with LLVM on first use; it holds 0 until the function loads)."""
    tag = hashlib.sha256(f"{_VERSION}{name}{signature}".encode()).hexdigest()[:16]
    sym = f"numbax_slot_{name}_{tag}"
    register_slot(sym)
    return sym


def register_slot(sym: str) -> np.ndarray:
    """The cell of slot `sym`, registered with LLVM on first use (it holds 0 until filled):
    for library functions (`slot`) and the LLVM back end's loop nests (`core/backends/llvm`)."""
    with _slot_lock:
        if sym not in _SLOTS:
            cell = _SLOTS[sym] = np.zeros(1, np.uint64)
            llvm.add_symbol(sym, cell.ctypes.data)
        return _SLOTS[sym]


def call_slot(builder: ir.IRBuilder, sym: str, fnty: ir.FunctionType, args: list) -> ir.Value:
    """Emits a call, with `args`, of the function of type `fnty` whose address slot `sym`
    holds."""
    cell = builder.module.globals.get(sym)
    if cell is None:  # an external global: the slot's address, resolved by LLVM
        cell = ir.GlobalVariable(builder.module, fnty.as_pointer(), sym)
    return builder.call(builder.load(cell), args)


def call_native(context, builder: ir.IRBuilder, sym: str, sig: tuple, values: list) -> None:
    """Emits a call, with the lowered arguments `values`, of the library function of numba
    signature `sig` whose address slot `sym` holds, in numba's calling convention (status,
    return slot, exception slot, the arguments' data models): library functions compile
    without a C wrapper (each cost 0.03 s of numba's time and its lowering). Their error
    model raises nothing; the status is ignored, as a C wrapper would."""
    fnty = context.call_conv.get_function_type(types.none, sig)
    cell = builder.module.globals.get(sym)
    if cell is None:  # an external global: the slot's address, resolved by LLVM
        cell = ir.GlobalVariable(builder.module, fnty.as_pointer(), sym)
    ret = cgutils.alloca_once(builder, fnty.args[0].pointee)
    builder.store(cgutils.get_null_value(ret.type.pointee), ret)
    exc = cgutils.alloca_once(builder, fnty.args[1].pointee)
    args = list(context.get_arg_packer(sig).as_arguments(builder, values))
    builder.call(builder.load(cell), [ret, exc, *args])


@contextlib.contextmanager
def deferred_loading() -> Iterator[None]:
    """On this thread, generated modules' `require` registers the library functions' slots
    without loading the functions: for compiling kernels while the library functions they call
    compile elsewhere. Whoever runs such kernels loads those functions first."""
    before = getattr(_defer, "on", False)
    _defer.on = True
    try:
        yield
    finally:
        _defer.on = before


def load(name: str, signature: tuple) -> None:
    """Makes library function `name` for `signature` callable by kernels in this process:
    loads it from the disk cache, or compiles it, and fills its slot (once)."""
    key = (name, signature)
    if key in _LOADED:
        return
    for dep in _CALLS.get(name, ()):
        load(*signature_of(call_name(dep, _codes(_FUNCTIONS[name][1], signature))))
    # numba's (re-entrant) compiler lock, not a lock of our own: a thread typing a kernel holds
    # it when it gets here, and a thread holding another lock here would need it to compile.
    with global_compiler_lock:
        if key in _LOADED:
            return
        # One process at a time writes a library function's cache index (other processes wait,
        # then load what it wrote); kernels compile under the directory's shared lock.
        with disk_cache.library_lock(name):
            address = _routine(name, signature)
            if address is None:
                address = _numba(name, signature)
        _SLOTS[slot(name, signature)][0] = address
        _LOADED[key] = address


def _routine(name: str, signature: tuple) -> int | None:
    """The address of library function `name` compiled by numbax as LLVM
    (`core/backends/llvm/routines.py`), or None if it uses a construct that needs numba."""
    try:
        with target.quick_tier(False) if name in _OPTIMIZED else contextlib.nullcontext():
            address, compiled, quick = routines.load(_FUNCTIONS[name][0], signature, _VERSION)
    except Unsupported:
        return None
    _stats["compiled" if compiled else "loaded"] += 1
    if quick:
        _QUICK.add((name, signature))
    return address


_QUICK: set[tuple] = set()  # library functions whose slots hold quick-tier code


def quick(attr: str) -> bool:
    """Whether library function `attr`'s slot holds code compiled in the quick tier
    (`core.backends.llvm.target.quick_tier`), which `upgrade` replaces."""
    return signature_of(attr) in _QUICK


def upgrade(attr: str, build: bool = False) -> bool:
    """Points the slot of library function `attr` at its optimized code from the disk cache (a
    compile worker built it; `build`: or compiled now, and cached), if its slot holds quick-tier
    code; whether it does now. Kernels running meanwhile call either (one 8-byte store)."""
    name, signature = key = signature_of(attr)
    with global_compiler_lock, target.quick_tier(False):
        if key not in _QUICK:
            return True
        address, _, _ = routines.load(
            _FUNCTIONS[name][0], signature, _VERSION, cached_only=not build
        )
        if not address:
            return False
        _SLOTS[slot(name, signature)][0] = _LOADED[key] = address
        _QUICK.discard(key)
    return True


def _numba(name: str, signature: tuple) -> int:
    """The address of library function `name` compiled by numba (or loaded from its cache)."""
    options = dict(OPTIONS, parallel=name in _THREADED)
    if options["parallel"]:
        parallel.before_parfors()  # numba's parfors on numbax's pool, if it is on
    # Keyed by the library's and runtime's sources too: a function's machine code names its
    # callees' slots, which change with any of them, and links the helpers it calls.
    salt = disk_cache.fingerprint()
    disp = cached_njit(types.none(*signature), salt=salt, **options)(_FUNCTIONS[name][0])
    cres = disp.overloads[signature]
    _stats["loaded" if disp.stats.cache_hits else "compiled"] += 1
    _KEEP.append(disp)
    return cres.library.get_pointer_to_function(cres.fndesc.mangled_name)


def loaded(attr: str) -> bool:
    """Whether library function `attr` (`<name>__<codes>`) is loaded in this process."""
    return signature_of(attr) in _LOADED


def callees(attr: str) -> list[str]:
    """The call names of the library functions that library function `attr` calls through
    their slots (loaded before it)."""
    name, sig = signature_of(attr)
    codes = _codes(_FUNCTIONS[name][1], sig)
    return [call_name(dep, codes) for dep in _CALLS.get(name, ())]


def call_name(name: str, codes: str) -> str:
    """The call name of library function `name` in the dtypes `codes` (`f4_i4`) of its caller:
    `<name>__any` for a function without array dtypes."""
    return f"{name}__{codes if _letters(_FUNCTIONS[name][1]) else 'any'}"


_REQUIRE = re.compile(r"^lib\.require\('(\w+)'\)$", re.M)


def required(source: str) -> list[str]:
    """The call names of the library functions a generated module loads (`requirements`)."""
    return _REQUIRE.findall(source)


def dispatcher(attr: str) -> Callable:
    """Library function `attr` (`<name>__<codes>`), loaded, as a function callable from Python
    with flat arrays, an int64 parameter array and scalars (tests and benchmarks use it): a
    numba function calling it through its slot, compiled on first use (library functions
    have no Python entry point of their own: every function compiled one, 0.05 s of numba's
    time and 250 lines of LLVM each, for callers that are nearly all kernels)."""
    if attr not in _PYTHON:
        name, sig = signature_of(attr)
        load(name, sig)
        call = caller(attr)
        _PYTHON[attr] = numba.njit(lambda *args: call(*args))
    return _PYTHON[attr]


def _letters(template: tuple[str, ...]) -> list[str]:
    """The dtype letters of a template, in order."""
    return sorted({item[-1] for item in template if item not in ("p", "i")})


def _codes(template: tuple[str, ...], tys: tuple) -> str:
    """The dtype codes (`f4_i4`) of a call with argument types `tys` of a `template`."""
    dtypes = {}
    for item, ty in zip(template, tys):
        if item not in ("p", "i"):
            dtypes[item[-1]] = as_dtype(getattr(ty, "dtype", ty))
    return "_".join(dtypes[letter].str[1:] for letter in _letters(template))


def signature_of(attr: str) -> tuple[str, tuple]:
    """The function name and numba signature of the call name `<name>__<code>_<code>...`."""
    name, _, codes = attr.partition("__")
    if name not in _FUNCTIONS or not codes:
        raise AttributeError(f"no library function {attr!r}")
    generic = not _letters(_FUNCTIONS[name][1])
    if generic != (codes == "any"):
        raise AttributeError(f"no library function {attr!r}")
    dtypes = [] if generic else [from_dtype(np.dtype(c)) for c in codes.split("_")]
    sig = []
    for item in _FUNCTIONS[name][1]:
        if item == "p":
            sig.append(types.Array(types.int64, 1, "C"))
        elif item == "i":
            sig.append(types.int64)
        elif item.startswith("s:"):
            sig.append(dtypes[ord(item[2]) - ord("a")])
        else:
            sig.append(types.Array(dtypes[ord(item) - ord("a")], 1, "C"))
    return name, tuple(sig)


def precompile(dtypes=("float32",)) -> None:
    """Compiles (or loads) every library function for each of `dtypes` ahead of use, e.g.
    while building a container image: later first calls then compile no library code.

    Args:
      dtypes: the array dtypes (every array argument of a function gets the same one).
    """
    for dtype in dtypes:
        code = np.dtype(dtype).str[1:]
        for name, (_, template) in _FUNCTIONS.items():
            require(call_name(name, "_".join([code] * len(_letters(template)))))


def require(attr: str) -> None:
    """Registers the slot of the library function of call name `attr` (see `signature_of`),
    makes its intrinsic (numba must find that before it types a call of it) and loads (or
    compiles) the function, unless loading is deferred on this thread (`deferred_loading`)."""
    name, signature = signature_of(attr)
    slot(name, signature)
    caller(attr)
    if not getattr(_defer, "on", False):
        load(name, signature)


def flat_view(context, builder, ty, canon, value):
    """The C array `value` of type `ty` seen as the 1-d array `canon` (same memory)."""
    src = array_struct(ty)(context, builder, value)
    out = array_struct(canon)(context, builder)
    populate_array(
        out,
        data=src.data,
        shape=[src.nitems],
        strides=[src.itemsize],
        itemsize=src.itemsize,
        meminfo=src.meminfo,
        parent=src.parent,
    )
    return out._getvalue()


def _stack_params(context, builder, ty, value):
    """The int tuple `value` as an int64 array on the caller's stack."""
    n = len(ty)
    i64 = ir.IntType(64)
    data = cgutils.alloca_once(builder, i64, size=n)
    for k, (t, v) in enumerate(zip(ty, cgutils.unpack_tuple(builder, value, n))):
        item = context.cast(builder, v, t, types.int64)
        builder.store(item, builder.gep(data, [ir.Constant(i64, k)]))
    canon = types.Array(types.int64, 1, "C")
    out = array_struct(canon)(context, builder)
    itemsize = context.get_constant(types.intp, 8)
    populate_array(
        out,
        data=data,
        shape=[context.get_constant(types.intp, n)],
        strides=[itemsize],
        itemsize=itemsize,
        meminfo=None,
        parent=None,
    )
    return out._getvalue()


def _lowered(context, builder, ty, canon, value):
    """Kernel argument `value` of type `ty` as the library's `canon` type."""
    if isinstance(ty, types.Array):
        return flat_view(context, builder, ty, canon, value)
    if isinstance(ty, types.BaseTuple):
        return _stack_params(context, builder, ty, value)
    return context.cast(builder, value, ty, canon)


def _accepts(ty: types.Type, canon: types.Type) -> bool:
    """Whether a kernel argument of type `ty` can be passed as the library's `canon`."""
    if isinstance(ty, types.BaseTuple):
        ints = all(isinstance(t, types.Integer) for t in ty)
        return isinstance(canon, types.Array) and canon.dtype == types.int64 and ints
    if isinstance(canon, types.Array):
        return isinstance(ty, types.Array) and ty.layout == "C" and ty.dtype == canon.dtype
    return isinstance(ty, (types.Number, types.Boolean))


def _arity3(typer):
    @intrinsic
    def call(typingctx, a, b, c):
        return typer(a, b, c)

    return call


def _arity4(typer):
    @intrinsic
    def call(typingctx, a, b, c, d):
        return typer(a, b, c, d)

    return call


def _arity5(typer):
    @intrinsic
    def call(typingctx, a, b, c, d, e):
        return typer(a, b, c, d, e)

    return call


def _arity6(typer):
    @intrinsic
    def call(typingctx, a, b, c, d, e, f):
        return typer(a, b, c, d, e, f)

    return call


def _arity7(typer):
    @intrinsic
    def call(typingctx, a, b, c, d, e, f, g):
        return typer(a, b, c, d, e, f, g)

    return call


# numba intrinsics take a fixed number of arguments: one wrapper per arity of the templates.
_ARITY = {3: _arity3, 4: _arity4, 5: _arity5, 6: _arity6, 7: _arity7}


def caller(attr: str) -> Callable:
    """The intrinsic that kernels call library function `attr` (`<name>__<codes>`) with:
    C-contiguous arrays of any rank, a tuple of ints for the parameter array, scalars."""
    if attr in _CALLERS:
        return _CALLERS[attr]
    name, sig = signature_of(attr)
    call = _ARITY[len(sig)](functools.partial(_typed_call, attr))
    _CALLERS[attr] = call
    return call


def _typed_call(attr: str, *args):
    """The intrinsic typing of a call of library function `attr` with arguments `args`: the
    signature and the code generator emitting one call of its external symbol."""
    name, sig = signature_of(attr)
    if len(args) != len(sig) or not all(map(_accepts, args, sig)):
        raise TypingError(f"lib.{attr} takes {sig}, got {args}")
    sym = slot(name, sig)

    def codegen(context, builder, signature, values):
        lowered = [_lowered(context, builder, *tcv) for tcv in zip(args, sig, values)]
        call_native(context, builder, sym, sig, lowered)
        return context.get_dummy_value()

    return types.none(*args), codegen


def call_emitter(attr: str, *args: types.Type) -> Callable:
    """The code generator `emit(context, builder, None, values)` of a call of library function
    `attr` with arguments of numba types `args`, for intrinsics that call the library (as
    `lib.dot` calls `gemm_bands`); loads the function first."""
    return _typed_call(attr, *args)[1]


def callee(name: str) -> Callable:
    """The intrinsic with which a library function calls library function `name` (named in
    its `register(..., calls=...)`) in the dtypes of its arguments: one call of the compiled
    function's slot, so the caller's compile never sees the callee's code."""
    template = _FUNCTIONS[name][1]

    def typer(*args):
        return _typed_call(call_name(name, _codes(template, args)), *args)

    call = _ARITY[len(template)](typer)
    routines.register_call(call, typer)
    return call


# The library function that runs parts on the threads (`parts.py`), called through its slot.
RUNNER = "run_parts"


def in_parts(name: str) -> Callable:
    """The intrinsic `run(n, *args)` with which a library function runs library function
    `name(*args, t)` for the parts t < n on the calling thread's share of numba's pool,
    taken dynamically (`run_parts`); both are named in its `register(..., calls=...)`.

    The arguments are stored in a struct on the caller's stack; a small function emitted
    into the caller's module (`_part_function`) reads them and calls `name` through its slot,
    and `run_parts` is handed the addresses of both: the caller compiles no parallel code."""
    template = _FUNCTIONS[name][1]

    def typer(n, *args):
        if not isinstance(n, types.Integer):
            raise TypingError(f"the part count of {name} is an integer, got {n}")
        attr = call_name(name, _codes(template, args))
        fname, sig = signature_of(attr)
        if len(args) + 1 != len(sig) or not all(map(_accepts, args, sig)):
            raise TypingError(f"lib.{attr} in parts takes {sig[:-1]}, got {args}")
        sym = slot(fname, sig)
        runner_sig = signature_of(call_name(RUNNER, ""))[1]
        runner = slot(RUNNER, runner_sig)

        def codegen(context, builder, signature, values):
            lowered = [_lowered(context, builder, *tcv) for tcv in zip(args, sig, values[1:])]
            struct = ir.LiteralStructType([v.type for v in lowered])
            ctx = cgutils.alloca_once(builder, struct)
            for k, v in enumerate(lowered):
                builder.store(v, cgutils.gep_inbounds(builder, ctx, 0, k))
            part = _part_function(context, builder.module, sym, sig, struct)
            i64 = ir.IntType(64)
            count = context.cast(builder, values[0], n, types.int64)
            address = [builder.ptrtoint(part, i64), builder.ptrtoint(ctx, i64), count]
            call_native(context, builder, runner, runner_sig, address)
            return context.get_dummy_value()

        return types.none(n, *args), codegen

    call = _ARITY[len(template)](typer)
    routines.register_call(call, typer)
    return call


def _part_function(context, module, sym: str, sig: tuple, struct: ir.Type) -> ir.Function:
    """The function `void(i8* args, i64 t)` of `module` that calls the library function of
    slot `sym` (signature `sig`, its last argument the part) with the arguments stored at
    `args` (a `struct`) and t: what `run_parts` calls for each part."""
    name = f"{sym}_part"
    fn = module.globals.get(name)
    if fn is not None:
        return fn
    i64 = ir.IntType(64)
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i64]), name)
    fn.linkage = "internal"
    builder = ir.IRBuilder(fn.append_basic_block())
    at = builder.bitcast(fn.args[0], struct.as_pointer())
    values = [builder.load(cgutils.gep_inbounds(builder, at, 0, k)) for k in range(len(sig) - 1)]
    call_native(context, builder, sym, sig, [*values, fn.args[1]])
    builder.ret_void()
    return fn


_CALL = re.compile(r"\blib\.(\w+__\w+)\(")


_BLAS_CODES = ("f4", "f8", "c8", "c16")


def requirements(body: str, dtypes=()) -> list[str]:
    """Module-level statements loading every library function that `body` calls (none if it
    calls none): generated modules run them before their kernel's machine code is loaded from
    the disk cache, which would otherwise refer to symbols LLVM cannot resolve. A body with
    matrix products (`lib.dot`) needs `gemm_bands` of each BLAS dtype among `dtypes` (the
    kernel's dtypes)."""
    calls = set(_CALL.findall(body))
    if "lib.dot(" in body:
        codes = {np.dtype(d).str[1:] for d in dtypes}
        calls.update(f"gemm_bands__{c}" for c in _BLAS_CODES if c in codes)
    calls = sorted(calls)
    if not calls:
        return []
    return [
        "from core.backends.numba import library as lib",
        *(f"lib.require({attr!r})" for attr in calls),
    ]
