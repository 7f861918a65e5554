"""Whole serial kernels as LLVM functions that Python calls directly: no numba at all.

Once its loop nests are lean (`rewrite.py`), what numba compiles of a serial kernel is its
shell: a few lines of straight-line code that read sizes, allocate, call the nests and the
library, and return arrays.

    def kernel(sz, a0, a1):
        n_0 = rt.ld(sz, 0)
        o1 = rt.empty((n_0,), np.float32)
        _ln0((o1, a0, a1, n_0))
        return (o1, )

numba's fixed cost per function (typing, lowering, its CPython wrapper, O3 on the module,
machine code: 0.1-0.4 s) is then most of the kernel's compile. This module lowers such a
shell itself, statement by statement, into the LLVM module of its nests, and wraps it in an
entry point that CPython calls like a builtin function:

    PyObject *entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs)

(`METH_FASTCALL`, made a builtin by `PyCFunction_NewEx` from a `PyMethodDef`; the builtin's
`__self__`, which the entry ignores, holds that definition and the kernel's code library, so
both go with the last program using the kernel, as a numba kernel's module does; its machine
code stays in numba's execution engine, like numba's: MCJIT frees none). The entry checks
each argument is an ndarray of the kernel's dtype and rank, C-contiguous, native byte order (a
`TypeError` otherwise), reads its data pointer, dimensions and strides from numpy's
`PyArrayObject` (offsets checked against the installed numpy when this module loads: a numpy
laid out otherwise leaves every kernel to numba), builds numba's array structs from them,
releases the GIL (`PyEval_SaveThread`: device worker threads run kernels at the same time),
runs the shell, takes the GIL back and boxes the returned arrays as numba does
(`NRT_adapt_ndarray_to_python_acqref`: a numpy array owning numba's MemInfo).

The shell's statements and how they lower:

    n = <scalar expression>       `translate.Expressions` (numba's typing and implementations)
    o = rt.empty/full/copy(...)   numba's allocator (`NRT_MemInfo_alloc_aligned`, 32-byte
                                  aligned, as numba allocates), filled or copied in place
    v = rt.reshape(a, shape)      a view: a's data, meminfo and parent, C strides
    _lnK((...))                   a direct call of nest K (`translate.Nest`, same library)
    lib.<f>(...), rt.dynamic(n)   numba's own lowering of those intrinsics (slot calls, BLAS),
                                  array arguments and `x.T` of 2-d arrays as numba's structs
    v = rt.reshape(a[i, j], shape)  a view of a row of a C array (a chunk of a scan's rows)
    a, b, = x, y,                 names bound anew together (a scan's carries)
    rt.st(a, i, <scalar>)         a store (a scan's scalar ys, a step's scalars)
    for i in range(...): <block>  a step loop (`rewrite._State`: a scan's iterations) of these
                                  statements; names it assigns that the shell knew before are
                                  carried (a stack slot each), the others are the iteration's
    while True: <block>           a `while_loop`'s step loop, left by `if <test>: break` before
                                  its carries are bound anew
    for c in threaded_range(n):   at the top, a threaded step loop (a scan's chunks of rows):
        <block>                   its body outlined as `<name>.step<k>(data, lo, hi)`, which
                                  runs iterations lo..hi-1 on the kernel's names packed in
                                  `data`, run by `parallel.emit_for` on numba's pieces
    return (o1, o2, )             arrays the kernel allocated (or views of them); an input or
                                  a carry (which may view an input) is returned as a copy

Every array the kernel allocates is released once after the outputs are boxed (a returned
one lives on in its numpy array). In a step loop each iteration is a scope of its own: it
releases the arrays it allocated when it ends, but those a carry is bound to, which the carry
then owns (and releases when it is bound to another, or when the enclosing scope ends); an
allocation that fails in a threaded loop's body sets a flag the kernel raises MemoryError from
after the loop. Anything else (a `prange`, a loop nest the rewrite did not lower, which a
shell never runs itself (its sums would not fold as a lowered nest's do), a host call, an
implementation that needs numba's calling convention or links compiled code, a symbol the
process does not define) raises `translate.Unsupported` and the kernel stays numba's (`entry`
returns None): never a wrong result, never an error the user sees. `why_not` says which
construct it was (the compile log prints it, `config.log_compiles`).

The nests, shell and entry are one code library compiled by numba's code generator (O3, its
target machine) and cached on disk as object code (no IR: `_serialized`) in one verified file
written atomically (`core/jit/cache_files.py`, like the nests': concurrent processes leave one
whole file, a damaged one is compiled again); a kernel that cannot be lowered leaves a file
holding the reason, so later processes neither try again nor forget why. The key hashes the
source and argument types with this package's sources and the numba, llvmlite and LLVM versions
(`nests.key_of`).
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import functools
import operator
import pickle
import threading
import weakref
from collections.abc import Callable, Sequence

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.np.arrayobj import mark_positive

from core.backends.llvm import nests, parallel, pool, rewrite, target, translate, vecmath
from core.backends.numba import library as lib
from core.backends.numba.library import entry as library
from core.jit import cache_files
from core.jit import runtime as rt

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_PTR = ir.PointerType()
_METH_FASTCALL = 0x80
# numpy's PyArrayObject fields and PyArray_Descr's type number (`_numpy_layout` checks them)
_DATA, _NDIM, _DIMS, _STRIDES, _DESCR, _FLAGS = 16, 24, 32, 40, 56, 64
_TYPE_OFFSET, _BYTEORDER, _TYPE_NUM = 8, 26, 28
_C_CONTIGUOUS = 1
_NEW_ARRAYS = ("rt.empty", "rt.full", "rt.copy")

_lock = threading.Lock()
# key -> the kernel's builtin, while something uses it (it holds its code library)
_LOADED: weakref.WeakValueDictionary[str, Callable] = weakref.WeakValueDictionary()
_NUMBA: set[str] = set()  # keys of the kernels that stay numba's
_REASONS: dict[str, str] = {}  # key -> why that kernel stays numba's (`why_not`)
_CELLS: dict[str, object] = {}  # cell symbol -> the Python object whose address it holds
_stats = {"compiled": 0, "loaded": 0, "unsupported": 0}


def stats() -> dict[str, int]:
    """Counters of this process: kernels `compiled` here as shells, `loaded` from the disk
    cache, and `unsupported` ones (left to numba)."""
    return dict(_stats)


@functools.cache
def available() -> bool:
    """Whether numpy's array struct is laid out as the entry reads it (checked on real
    arrays) and numba's runtime is up (its allocator's symbols defined)."""
    from numba.core.registry import cpu_target  # noqa: PLC0415
    from numba.core.runtime import rtsys  # noqa: PLC0415

    rtsys.initialize(cpu_target.target_context)
    for dtype in ("f4", "i8", "?"):
        a = np.zeros((2, 3), dtype)[::1]

        def at(address, kind=ctypes.c_int64):
            return kind.from_address(address).value

        base = id(a)
        ok = (
            at(base + _DATA) == a.ctypes.data
            and at(base + _NDIM, ctypes.c_int) == 2
            and at(at(base + _DIMS) + 8) == 3
            and at(at(base + _STRIDES)) == a.strides[0]
            and at(base + _DESCR) == id(a.dtype)
            and at(base + _FLAGS, ctypes.c_int) & _C_CONTIGUOUS
            and not at(id(a.T) + _FLAGS, ctypes.c_int) & _C_CONTIGUOUS
            and at(base + _TYPE_OFFSET) == id(np.ndarray)
            and at(id(a.dtype) + _TYPE_NUM, ctypes.c_int) == a.dtype.num
        )
        if not ok:
            return False
    # the cells the entry points read: registered before any is loaded from the disk cache
    _type_cell()
    for exc in (TypeError, MemoryError):
        _cell(f"numbax_shell_{exc.__name__}", exc)
    for code in "?bBhHiIlLfdFD":
        _descr_cell(np.dtype(code))
    return llvm.address_of_symbol("NRT_adapt_ndarray_to_python_acqref") is not None


def entry(source: str, arg_types: Sequence[tuple[str, int]]) -> Callable | None:
    """The builtin function running kernel `source` (a generated, possibly rewritten, serial
    kernel module), or None if it stays numba's (see the module docstring).

    Args:
      source: the kernel module's source (`codegen.lean`'s output).
      arg_types: its arguments' `(dtype str, ndim)` (`codegen.in_types`).

    Returns:
      `f(*arrays) -> tuple of arrays`, like the numba dispatcher of the kernel, or None.
    """
    if "prange(" in source or "def kernel(" not in source or not available():
        return None
    key = nests.key_of(("shell", source, tuple(arg_types)))
    fn = _LOADED.get(key)
    if fn is not None or key in _NUMBA:
        return fn
    for attr in library.required(source):  # registers the slots the machine code names
        library.require(attr)
    with global_compiler_lock, _lock:  # numba's typing and target contexts, its code generator
        fn = _LOADED.get(key)
        if fn is None and key not in _NUMBA:
            fn = _load(key, source, tuple(arg_types))
            if fn is None:
                _NUMBA.add(key)
            else:
                _LOADED[key] = fn
    return fn


def why_not(source: str, arg_types: Sequence[tuple[str, int]]) -> str | None:
    """Why kernel `source` stays numba's: the construct the shell translator met that it does
    not lower (`translate.Unsupported`'s message), as `entry` found it in this process or an
    earlier one left it in the disk cache; None if it is a shell or was not tried."""
    if "prange(" in source:
        return "a threaded loop left to numba"
    key = nests.key_of(("shell", source, tuple(arg_types)))
    if key not in _REASONS:  # a compile worker's, or an earlier process's
        state = cache_files.read_pickled(nests.cache_path(key, "shell"))
        if isinstance(state, str):
            _REASONS[key] = state
    return _REASONS.get(key)


def is_shell(fn: Callable) -> bool:
    """Whether `fn` is the builtin of a shell (made by `entry`)."""
    return isinstance(getattr(fn, "__self__", None), _Owner)


def cached(source: str, arg_types: Sequence[tuple[str, int]]) -> bool:
    """Whether `entry(source, arg_types)` has its answer at hand: made in this process or in
    the disk cache (a shell, or the note that the kernel stays numba's)."""
    key = nests.key_of(("shell", source, tuple(arg_types)))
    return key in _LOADED or key in _NUMBA or nests.cache_path(key, "shell").exists()


def _load(key: str, source: str, arg_types: tuple) -> Callable | None:
    pool.prepare()  # fills the cell of the state that threaded nests read
    path = nests.cache_path(key, "shell")
    state = cache_files.read_pickled(path)
    if isinstance(state, str):  # an earlier process found it unsupported, for this reason
        _stats["unsupported"] += 1
        _REASONS[key] = state
        return None
    library_ = _library_of(state, nests._codegen())
    shared = nests.cache_path(key, f"{target.QUICK_SUFFIX}shell")
    if library_ is None and target.is_quick():  # quick code a compile worker left
        library_ = _library_of(cache_files.read_pickled(shared), target.quick_codegen())
    if library_ is None:
        try:
            module = _linked(*Shell(source, arg_types, _name(key)).build())
            symbols = sorted(
                v.name for v in (*module.functions, *module.global_variables) if v.is_declaration
            )
            missing = [s for s in symbols if not _defined(s)]
            if missing:
                raise translate.Unsupported(f"undefined symbols {missing}")
        except translate.Unsupported as e:
            _stats["unsupported"] += 1
            _REASONS[key] = reason = str(e) or type(e).__name__
            with contextlib.suppress(OSError):
                cache_files.write_verified(path, pickle.dumps(reason))
            return None
        library_ = _finalized(module, f"numbax_shell_{key}", "\n    for " in source)
        _stats["compiled"] += 1
        # quick code never goes to disk as the optimized code (`target.quick_tier`)
        if not target.is_quick() or target.shares_quick():
            try:
                blob = pickle.dumps((_serialized(library_, _name(key)), symbols))
                cache_files.write_verified(path if not target.is_quick() else shared, blob)
            except OSError as e:
                cache_files.warn(f"kernel shell not cached ({e})")
            else:
                if not target.is_quick():  # the quick code it replaces is loaded no more
                    with contextlib.suppress(OSError):
                        cache_files.remove(shared)
    return _builtin(library_, _name(key))


def _serialized(library_, name: str) -> tuple:
    """What the disk cache keeps of a shell's code library: numba's serialization with object
    code (`serialize_using_object_code`, which `unserialize_library` loads), but in place of
    the library's module for linking (its IR as bitcode, which numba clones the module to make
    and parses again on loading) the bitcode of a stub defining the entry `name` only, all a
    load registers of it (numba's defined symbols): nothing links a shell into other code.
    The transformer's cold first call spent 4% of its samples making that bitcode (the module
    cloned) and 3% parsing it."""
    stub = llvm.parse_assembly(f'define void @"{name}"() {{\n  ret void\n}}\n')
    return library_.name, "object", (library_._get_compiled_object(), stub.as_bitcode())


def _library_of(state, gen):
    """The code library of cached `state` loaded by code generator `gen`, or None (no state,
    a symbol this process does not define, or another LLVM's object code)."""
    if not state or not all(_defined(s) for s in state[1]):
        return None
    with target.callbacks_raise():  # an interrupt while it loads is raised, not dropped
        try:
            library_ = gen.unserialize_library(state[0])
        except Exception:
            return None
    _stats["loaded"] += 1
    return library_


def _finalized(module, name: str, loops: bool = False):
    """The code library of `module`, compiled by this thread's code generator (`target.codegen`:
    numba's, O3, or the quick tier's; `loops`: the shell has step loops)."""
    pool.prepare()
    library_ = target.codegen(loops).create_library(name)
    library_.enable_object_caching()
    library_.add_llvm_module(module)
    with target.callbacks_raise():  # an interrupt while it compiles is raised, not dropped
        library_.finalize()
    return library_


def is_quick(fn: Callable) -> bool:
    """Whether `fn` is the builtin of a shell compiled in the quick tier (`target.quick_tier`),
    whose optimized twin `optimized` loads once it is in the disk cache."""
    return is_shell(fn) and target.is_quick_library(fn.__self__.library)


def optimized(source: str, arg_types: Sequence[tuple[str, int]], build: bool = False) -> bool:
    """Makes the builtin of kernel `source` that runs quick-tier code run its optimized shell
    from the disk cache (a compile worker built it; `build`: or compiled now, and cached): the
    builtin's method definition then points at the optimized entry (CPython reads it at every
    call; a call running goes on in the quick code, which stays loaded), so every driver and
    cache holding the builtin runs the optimized code. Whether it runs optimized code now
    (False too if this process has no builtin of it).
    """
    key = nests.key_of(("shell", source, tuple(arg_types)))
    with global_compiler_lock, _lock:
        fn = _LOADED.get(key)
        if fn is None or not is_quick(fn):
            return fn is not None
        state = cache_files.read_pickled(nests.cache_path(key, "shell"))
        library_ = _library_of(state, nests._codegen())
        if library_ is None and build:
            with target.quick_tier(False):
                new = _load(key, source, tuple(arg_types))
            library_ = None if new is None else new.__self__.library
        if library_ is None:
            return False
        owner = fn.__self__
        owner.retired.append(owner.library)
        owner.method.meth = library_.get_pointer_to_function(_name(key))
        owner.library = library_
    return True


def _linked(texts: list[str], internal: list[str]):
    """The modules of `texts` linked into one, functions `internal` made private to it (a
    nest's symbol is also that of its lean function for numba's kernel, `nests.py`) and kept
    out of line, as they are in numba's kernels."""
    main = llvm.parse_assembly(texts[0])
    for text in texts[1:]:
        main.link_in(llvm.parse_assembly(text))
    for name in internal:
        fn = main.get_function(name)
        fn.linkage = llvm.Linkage.internal
        fn.add_function_attribute("noinline")
    return main


def _name(key: str) -> str:
    return f"numbax_shell_{key[:24]}"


def _defined(symbol: str) -> bool:
    """Whether the process defines `symbol` for LLVM (an intrinsic, a registered cell, a C
    function of numba's runtime or of CPython)."""
    return symbol.startswith("llvm.") or llvm.address_of_symbol(symbol) is not None


class _MethodDef(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("meth", ctypes.c_void_p),
        ("flags", ctypes.c_int),
        ("doc", ctypes.c_char_p),
    ]


_new_function = ctypes.pythonapi.PyCFunction_NewEx
_new_function.restype = ctypes.py_object
_new_function.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]


class _Owner:
    """What a shell's builtin holds as its `__self__` (which the entry ignores): its code
    library and method definition, released with it."""

    __slots__ = ("library", "method", "retired", "__weakref__")

    def __init__(self, library_, method: _MethodDef):
        self.library, self.method = library_, method
        self.retired = []  # the quick tier's library, once `optimized` replaced it


def _builtin(library_, name: str) -> Callable:
    """The builtin function of entry point `name` of `library_`, which it holds."""
    address = library_.get_pointer_to_function(name)
    method = _MethodDef(name.encode(), address, _METH_FASTCALL, None)
    return _new_function(ctypes.addressof(method), _Owner(library_, method), None)


def _cell(symbol: str, obj: object) -> str:
    """Registers cell `symbol` holding the address of `obj` (a type or dtype, kept alive)."""
    cell = library.register_slot(symbol)
    cell[0] = id(obj)
    _CELLS[symbol] = obj
    return symbol


def _descr_cell(dtype: np.dtype) -> str:
    return _cell(f"numbax_shell_descr_{dtype.str[1:].replace('?', 'b1')}", dtype)


def _type_cell() -> str:
    return _cell("numbax_shell_ndarray", np.ndarray)


class _Owned:
    """An array a scope of a shell owns (its meminfo, which a loop's carry may hold as null),
    until it releases it or hands it to a carry (`held` False)."""

    __slots__ = ("meminfo", "maybe_null", "held")

    def __init__(self, meminfo, maybe_null: bool):
        self.meminfo, self.maybe_null, self.held = meminfo, maybe_null, True


class Shell(translate.Expressions):
    """The kernel of a generated module as an entry point (see the module docstring).

    Args:
      source: the module's source.
      arg_types: the kernel's arguments' `(dtype str, ndim)`.
      name: the entry point's symbol (its nests are `<name>_<k>`).
    """

    def __init__(self, source: str, arg_types: tuple, name: str):
        super().__init__({}, None, vecmath)
        tree = ast.parse(source)
        self.name = name
        self.key, self.spec, self.callers, kernel = "", (), [], None
        for st in tree.body:
            if isinstance(st, ast.FunctionDef) and st.name == "kernel":
                kernel = st
            elif not _module_statement(st):
                self._declaration(st)
        if kernel is None or len(kernel.args.args) != len(arg_types):
            raise translate.Unsupported("no kernel of these arguments")
        self.kernel = kernel
        self.arg_types = [
            types.Array(translate.scalar_type(d), n, "C", readonly=True) for d, n in arg_types
        ]

    def _declaration(self, st: ast.stmt) -> None:
        """Reads `_ln0, ... = ln.load(key, spec)`; anything else is not a shell's module."""
        value = getattr(st, "value", None)
        if not (
            isinstance(st, ast.Assign)
            and isinstance(value, ast.Call)
            and translate.dotted(value.func) == "ln.load"
            and isinstance(st.targets[0], ast.Tuple)
        ):
            raise translate.Unsupported(f"module statement {ast.unparse(st)[:60]}")
        self.key = ast.literal_eval(value.args[0])
        self.spec = ast.literal_eval(value.args[1])
        self.callers = [t.id for t in st.targets[0].elts]

    def build(self) -> tuple[list[str], list[str]]:
        """The LLVM IR of the shell's module and of its nests' modules (those the rewrite
        built in this process, `nests.remember`, else built again) and the names of the
        nests' functions."""
        _, target = translate.contexts()
        self.nests = {}
        for k, caller in enumerate(self.callers):
            _, params, _, outputs = self.spec[k]
            argtys = [
                _PTR if kind == "a" else target.get_value_type(translate.scalar_type(dtype))
                for _, kind, dtype, _ in params
            ] + [_PTR] * len(outputs)
            fnty = ir.FunctionType(ir.VoidType(), argtys)
            self.nests[caller] = (nests.symbol(self.key, k), fnty, self.spec[k])
        module = ir.Module(name=self.name)
        self._entry(module)
        translate.add_fastmath(module)
        texts = nests.texts([module])
        if self.spec:
            texts += nests._MODULES.get(self.key) or nests.texts(nests.build(self.spec, self.key))
        return texts, [name for name, _, _ in self.nests.values()]

    # the entry point
    def _entry(self, module: ir.Module) -> None:
        _, target = translate.contexts()
        self.target = target
        n = len(self.arg_types)
        fnty = ir.FunctionType(_PTR, [_PTR, _PTR, _I64])
        fn = ir.Function(module, fnty, self.name)
        fn.attributes.add("nounwind")
        self.fn = fn
        b = self.builder = ir.IRBuilder(fn.append_basic_block("entry"))
        self.bad_args = fn.append_basic_block("bad_args")
        self.no_memory = fn.append_basic_block("no_memory")
        args_ok = fn.append_basic_block("check")
        b.cbranch(b.icmp_signed("==", fn.args[2], ir.Constant(_I64, n)), args_ok, self.bad_args)
        b.position_at_end(args_ok)
        ndarray = b.load(self._global(_type_cell()), typ=_PTR)
        objects = []
        for k, arrty in enumerate(self.arg_types):
            obj = b.load(b.gep(fn.args[1], [ir.Constant(_I64, k)], source_etype=_PTR), typ=_PTR)
            objects.append(obj)
            self._check(obj, arrty, ndarray)
        self.arrays: dict[str, tuple] = {}  # name -> (type, struct value, fresh root or None)
        self.values: dict[str, object] = {}  # scalar name -> LLVM value
        # the arrays the scope being lowered (the kernel, an iteration of a step loop) owns,
        # released at its end: `_Owned`s, and which of them each fresh marker names
        self.meminfos: list[_Owned] = []
        self.owners: dict[str, _Owned] = {}
        self.steps = 0  # threaded step loops so far
        # the loops being lowered, innermost last: a `while`'s exit (block after it, carries'
        # values as the iteration started, their buffers), None for a `for` (`_break`)
        self.exits: list = []
        for arg, obj, arrty in zip(self.kernel.args.args, objects, self.arg_types):
            self._bind_array(arg.arg, arrty, self._unbox(obj, arrty), None)
        save = self._c_function(module, "PyEval_SaveThread", _PTR, [])
        self.thread = b.call(save, [])
        outputs = None
        for st in self.kernel.body:
            if isinstance(st, ast.Return):
                outputs = self._outputs(st)
                break
            self._top(st)
        if outputs is None:
            raise translate.Unsupported("a kernel without a return")
        restore = self._c_function(module, "PyEval_RestoreThread", ir.VoidType(), [_PTR])
        b.call(restore, [self.thread])
        b.ret(self._box(module, outputs))
        self._failures(module, restore)

    def _failures(self, module: ir.Module, restore: ir.Function) -> None:
        """The blocks raising TypeError (arguments not as compiled for) and MemoryError."""
        b = self.builder
        set_error = self._c_function(module, "PyErr_SetString", ir.VoidType(), [_PTR, _PTR])
        for block, exc, message in (
            (self.bad_args, TypeError, "a numbax kernel got arguments of other types"),
            (self.no_memory, MemoryError, "a numbax kernel could not allocate an array"),
        ):
            b.position_at_end(block)
            if block is self.no_memory:
                b.call(restore, [self.thread])
            text = cgutils.make_bytearray((message + "\0").encode())
            const = ir.GlobalVariable(module, text.type, f"{self.name}_{exc.__name__}")
            const.initializer, const.global_constant, const.linkage = text, True, "internal"
            cell = self._global(_cell(f"numbax_shell_{exc.__name__}", exc))
            b.call(set_error, [b.load(cell, typ=_PTR), const])
            b.ret(ir.Constant(_PTR, None))

    def _global(self, symbol: str) -> ir.GlobalVariable:
        module = self.builder.module
        g = module.globals.get(symbol)
        return g if g is not None else ir.GlobalVariable(module, _PTR, symbol)

    def _c_function(self, module, symbol: str, ret: ir.Type, args: list) -> ir.Function:
        return cgutils.get_or_insert_function(module, ir.FunctionType(ret, args), symbol)

    def _field(self, base, offset: int, ty: ir.Type):
        b = self.builder
        return b.load(b.gep(base, [ir.Constant(_I64, offset)], source_etype=ir.IntType(8)), typ=ty)

    def _check(self, obj, arrty: types.Array, ndarray) -> None:
        """Goes on if `obj` is an ndarray that `arrty` describes, else raises TypeError."""
        b = self.builder
        is_array = b.icmp_unsigned("==", self._field(obj, _TYPE_OFFSET, _PTR), ndarray)
        self._require(is_array)
        dtype = np.dtype(str(arrty.dtype))
        descr = self._field(obj, _DESCR, _PTR)
        num = self._field(descr, _TYPE_NUM, _I32)
        nums = {np.dtype(c).num for c in np.typecodes["All"] if np.dtype(c) == dtype}
        byteorder = self._field(descr, _BYTEORDER, ir.IntType(8))
        checks = [
            b.icmp_signed("==", self._field(obj, _NDIM, _I32), ir.Constant(_I32, arrty.ndim)),
            b.icmp_unsigned("!=", byteorder, ir.Constant(ir.IntType(8), ord(">"))),
            b.trunc(self._field(obj, _FLAGS, _I32), ir.IntType(1)),  # C-contiguous
            functools.reduce(
                b.or_, [b.icmp_signed("==", num, ir.Constant(_I32, v)) for v in sorted(nums)]
            ),
        ]
        self._require(functools.reduce(b.and_, checks))

    def _require(self, ok) -> None:
        b = self.builder
        go_on = self.fn.append_basic_block("checked")
        b.cbranch(ok, go_on, self.bad_args)
        b.position_at_end(go_on)

    def _unbox(self, obj, arrty: types.Array):
        """numba's struct of ndarray `obj` (no meminfo: the caller's array outlives the call)."""
        b, target = self.builder, self.target
        dims_ptr, strides_ptr = self._field(obj, _DIMS, _PTR), self._field(obj, _STRIDES, _PTR)
        dims = [
            b.load(b.gep(dims_ptr, [ir.Constant(_I64, i)], source_etype=_I64), typ=_I64)
            for i in range(arrty.ndim)
        ]
        strides = [
            b.load(b.gep(strides_ptr, [ir.Constant(_I64, i)], source_etype=_I64), typ=_I64)
            for i in range(arrty.ndim)
        ]
        ary = _ArrayValue(b, arrty)
        itemsize = _itemsize(arrty.dtype)
        return ary.populate(
            data=self._field(obj, _DATA, _PTR),
            shape=dims,
            strides=strides,
            itemsize=target.get_constant(types.intp, itemsize),
            meminfo=None,
            parent=obj,
        )

    def _box(self, module: ir.Module, outputs: list[str]):
        """The tuple of the output arrays as numpy arrays, then every allocation released."""
        b = self.builder
        adapt = self._c_function(
            module, "NRT_adapt_ndarray_to_python_acqref", _PTR, [_PTR, _PTR, _I32, _I32, _PTR]
        )
        new_tuple = self._c_function(module, "PyTuple_New", _PTR, [_I64])
        set_item = self._c_function(module, "PyTuple_SetItem", _I32, [_PTR, _I64, _PTR])
        result = b.call(new_tuple, [ir.Constant(_I64, len(outputs))])
        ndarray = b.load(self._global(_type_cell()), typ=_PTR)
        boxed = []
        for name in outputs:
            arrty, value, _ = self.arrays[name]
            descr = b.load(self._global(_descr_cell(np.dtype(str(arrty.dtype)))), typ=_PTR)
            slot = cgutils.alloca_once_value(b, value)
            flags = [ir.Constant(_I32, arrty.ndim), ir.Constant(_I32, int(arrty.mutable))]
            boxed.append(b.call(adapt, [slot, ndarray, *flags, descr]))
        self._release(self.meminfos)
        for k, obj in enumerate(boxed):  # numba's boxing of a new array cannot fail but for memory
            b.call(set_item, [result, ir.Constant(_I64, k), obj])
        return result

    def _outputs(self, st: ast.Return) -> list[str]:
        value = st.value
        elts = value.elts if isinstance(value, ast.Tuple) else [value]
        names = []
        for k, e in enumerate(elts):
            if not isinstance(e, ast.Name) or e.id not in self.arrays:
                raise translate.Unsupported(f"returns {ast.unparse(e)}, not an array")
            fresh = self.arrays[e.id][2]
            if not fresh or fresh.startswith("~"):  # an input or a carry (a view of one, maybe):
                self._copy(f"{e.id}.out{k}", e)  # returned as a copy of its own
                names.append(f"{e.id}.out{k}")
            else:
                names.append(e.id)
        return names

    # statements
    def _top(self, st: ast.stmt) -> None:
        if isinstance(st, ast.For):
            return self._loop(st)
        if isinstance(st, ast.While):
            return self._while(st)
        if (
            isinstance(st, ast.If)
            and not st.orelse
            and len(st.body) == 1
            and isinstance(st.body[0], ast.Break)
        ):
            return self._break(st)
        if isinstance(st, ast.Assign) and len(st.targets) == 1:
            target, value = st.targets[0], st.value
            if isinstance(target, ast.Tuple) and _call_of(value) in self.nests:
                return self._nest(value, [t.id for t in target.elts])
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                return self._assign_tuple(target, value)
            if isinstance(target, ast.Name):
                return self._assign(target.id, value)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            fn = _call_of(st.value)
            if fn in self.nests:
                return self._nest(st.value, [])
            if fn == "rt.st":  # a step loop's store of a scalar (a scan's ys row)
                return self.store(st.value)
            if fn.startswith("lib.") or fn == "rt.dynamic":
                return self._intrinsic(st.value)
        raise translate.Unsupported(f"statement {ast.unparse(st)[:60]}")

    def _assign(self, name: str, value: ast.AST) -> None:
        fn = _call_of(value)
        if fn in _NEW_ARRAYS:
            return getattr(self, f"_{fn[3:]}")(name, *value.args)
        if fn == "rt.reshape" or (isinstance(value, ast.Name) and value.id in self.arrays):
            return self._bind_array(name, *self._view(value))
        if fn == "rt.dynamic":
            ty, v = self._intrinsic(value)
        else:
            ty, v = self.expr(value)
        ty = types.unliteral(ty)
        pair = isinstance(ty, types.UniTuple) and ty.dtype in translate.INTS  # threefry's
        if not isinstance(ty, (types.Number, types.Boolean)) and not pair:
            raise translate.Unsupported(f"{name} of type {ty}")
        self._bind_scalar(name, ty, v)

    def _bind_scalar(self, name: str, ty: types.Type, value) -> None:
        if self.env.get(name, ty) != ty:  # numba would unify the two types: not ours
            raise translate.Unsupported(f"{name} is {self.env[name]} and {ty}")
        self.env[name] = ty
        self.values[name] = value
        self.arrays.pop(name, None)

    def _bind_array(self, name: str, arrty: types.Array, value, fresh) -> None:
        before = self.env.get(name, arrty)
        if before != arrty and before != arrty.copy(readonly=True):
            if before.copy(readonly=True) != arrty:
                raise translate.Unsupported(f"{name} is {self.env[name]} and {arrty}")
            arrty = before  # a step loop's carry, one binding read-only: read-only
        self.env[name] = arrty
        self.arrays[name] = (arrty, value, fresh)

    def lower_name(self, name: str):
        return self.values[name]

    def array_pointer(self, name: str):
        _, value, _ = self.arrays[name]
        return self.builder.extract_value(value, 4)  # numba's array struct: data is field 4

    def _Call(self, node: ast.Call):
        if _call_of(node) == "rt.dynamic":
            return self._intrinsic(node)
        return super()._Call(node)

    # arrays
    def _shape(self, node: ast.AST) -> list:
        if not isinstance(node, ast.Tuple):
            raise translate.Unsupported(f"shape {ast.unparse(node)}")
        dims = []
        for e in node.elts:
            ty, v = self.expr(e)
            if not isinstance(ty, types.Integer):
                raise translate.Unsupported(f"size {ast.unparse(e)}")
            dims.append(self.cast((ty, v), types.intp))
        return dims

    def _allocate(self, name: str, dims: list, dtype: types.Type) -> _ArrayValue:
        """A new C array of `dims` (numba's allocator) bound to `name`: its `_ArrayValue`."""
        b, target = self.builder, self.target
        arrty = types.Array(dtype, len(dims), "C")
        itemsize = _itemsize(dtype)
        size, overflow = ir.Constant(_I64, itemsize), ir.Constant(ir.IntType(1), 0)
        for d in dims:
            product = b.smul_with_overflow(size, d)
            size, overflow = (
                b.extract_value(product, 0),
                b.or_(overflow, b.extract_value(product, 1)),
            )
        alloc = self._c_function(b.module, "NRT_MemInfo_alloc_aligned", _PTR, [_I64, _I32])
        data_of = self._c_function(b.module, "NRT_MemInfo_data", _PTR, [_PTR])
        size = b.select(overflow, ir.Constant(_I64, -1), size)
        mi = b.call(alloc, [size, ir.Constant(_I32, target.get_preferred_array_alignment(dtype))])
        failed = b.or_(overflow, b.icmp_unsigned("==", mi, ir.Constant(_PTR, None)))
        go_on = self.fn.append_basic_block(f"{name}.allocated")
        b.cbranch(failed, self.no_memory, go_on)
        b.position_at_end(go_on)
        self.owners[name] = _Owned(mi, maybe_null=False)
        self.meminfos.append(self.owners[name])
        ary = _ArrayValue(b, arrty)
        value = ary.populate(
            data=b.call(data_of, [mi]),
            shape=dims,
            strides=_c_strides(b, dims, itemsize),
            itemsize=ir.Constant(_I64, itemsize),
            meminfo=mi,
            parent=None,
        )
        self._bind_array(name, arrty, value, name)
        return ary

    def _empty(self, name: str, shape: ast.AST, dtype: ast.AST) -> None:
        self._allocate(name, self._shape(shape), _dtype(dtype))

    def _full(self, name: str, shape: ast.AST, fill: ast.AST, dtype: ast.AST) -> None:
        dt = _dtype(dtype)
        value = self.expr(fill)
        ary = self._allocate(name, self._shape(shape), dt)
        b = self.builder
        data = self.target.get_value_as_data(b, dt, self.cast(value, dt))
        with cgutils.for_range(b, ary.nitems) as loop:
            b.store(data, b.gep(ary.data, [loop.index], source_etype=data.type))

    def _copy(self, name: str, src: ast.AST) -> None:
        arrty, value = self._array(src)
        b = self.builder
        old = _ArrayValue(b, arrty, value)
        dims = cgutils.unpack_tuple(b, old.shape, arrty.ndim)
        ary = self._allocate(name, dims, arrty.dtype)
        itemsize = _itemsize(arrty.dtype)
        cgutils.raw_memcpy(b, ary.data, old.data, old.nitems, itemsize)

    def _view(self, value: ast.AST) -> tuple:
        """The array `value` names, or the view `rt.reshape(a, shape)` makes of an array or of
        a row of one (`a[i]`, `a[i, j]`: a step loop's chunk of rows): its type, struct value
        and fresh marker."""
        if isinstance(value, ast.Name):
            return self.arrays[value.id]
        src, shape = value.args
        index = []
        if isinstance(src, ast.Subscript):
            index = src.slice.elts if isinstance(src.slice, ast.Tuple) else [src.slice]
            src = src.value
        arrty, struct = self._array(src)
        if (
            not isinstance(src, ast.Name)
            or arrty.layout != "C"
            or (index and len(index) >= arrty.ndim)
        ):
            raise translate.Unsupported(f"rt.reshape of {ast.unparse(value.args[0])}")
        dims = self._shape(shape)
        b = self.builder
        old = _ArrayValue(b, arrty, struct)
        data = old.data
        if index:  # numba's `a[i]` of a C array: negative indices wrap, no bounds check
            sizes = cgutils.unpack_tuple(b, old.shape, arrty.ndim)
            steps = cgutils.unpack_tuple(b, old.strides, arrty.ndim)
            offset = ir.Constant(_I64, 0)
            for e, size, step in zip(index, sizes, steps):
                ty, i = self.expr(e)
                if not isinstance(ty, types.Integer):
                    raise translate.Unsupported(f"index {ast.unparse(e)}")
                i = self.cast((ty, i), types.intp)
                i = b.select(b.icmp_signed("<", i, ir.Constant(_I64, 0)), b.add(i, size), i)
                offset = b.add(offset, b.mul(i, step))
            data = b.inttoptr(b.add(b.ptrtoint(data, _I64), offset), data.type)
        view = arrty.copy(ndim=len(dims))
        itemsize = _itemsize(arrty.dtype)
        ary = _ArrayValue(b, view)
        value = ary.populate(
            data=data,
            shape=dims,
            strides=_c_strides(b, dims, itemsize),
            itemsize=old.itemsize,
            meminfo=old.meminfo,
            parent=old.parent,
        )
        return view, value, self.arrays[src.id][2]

    def _assign_tuple(self, target: ast.Tuple, value: ast.Tuple) -> None:
        """`a, b, = x, y,` (a step loop's carries): every value first, then the names."""
        if len(target.elts) != len(value.elts) or not all(
            isinstance(t, ast.Name) for t in target.elts
        ):
            raise translate.Unsupported(f"assignment {ast.unparse(target)}")
        bound = []
        for v in value.elts:
            if _call_of(v) == "rt.reshape" or (isinstance(v, ast.Name) and v.id in self.arrays):
                bound.append((True, self._view(v)))
            else:
                ty, x = self.expr(v)
                ty = types.unliteral(ty)
                if not isinstance(ty, (types.Number, types.Boolean)):
                    raise translate.Unsupported(f"{ast.unparse(v)} of type {ty}")
                bound.append((False, (ty, x)))
        for t, (array, item) in zip(target.elts, bound):
            if array:
                self._bind_array(t.id, *item)
            else:
                self._bind_scalar(t.id, *item)

    # step loops
    def _release(self, owned: list) -> None:
        """Releases the arrays of `owned` (`_Owned`s) still held."""
        b = self.builder
        release = self._c_function(b.module, "NRT_MemInfo_release", ir.VoidType(), [_PTR])
        for o in owned:
            if not o.held:
                continue
            if o.maybe_null:
                with b.if_then(b.icmp_unsigned("!=", o.meminfo, ir.Constant(_PTR, None))):
                    b.call(release, [o.meminfo])
            else:
                b.call(release, [o.meminfo])

    def _loop(self, st: ast.For) -> None:
        """A step loop (`rewrite._State`): `for i in range(...)` whose body is statements of
        the shell's language, or at the top `for i in threaded_range(...)` (`_threaded`)."""
        it = st.iter
        fn = _call_of(it)
        if st.orelse or not isinstance(st.target, ast.Name) or it.keywords:
            raise translate.Unsupported(f"loop {ast.unparse(st.target)}")
        if fn not in ("range", translate.THREADED_RANGE) or not 1 <= len(it.args) <= 3:
            raise translate.Unsupported(f"loop over {ast.unparse(it)[:40]}")
        if not rewrite.is_step(st):
            raise translate.Unsupported(
                f"a loop nest left to numba: {ast.unparse(st).splitlines()[0]}"
            )
        bounds = []
        for a in it.args:
            ty, v = self.expr(a)
            if types.unliteral(ty) not in (types.int64, types.intp):
                raise translate.Unsupported(f"range over {ty}")
            bounds.append(v)
        if fn == "range":
            return self._serial(st.target.id, bounds, st.body)
        if len(bounds) > 2:
            raise translate.Unsupported("a threaded loop with a step")
        self._threaded(st, bounds)

    def _serial(self, var: str, bounds: list, body: list) -> None:
        """`for var in range(*bounds)` (int64 values) running `body` (`_iterate`)."""

        def enter():
            b = self.builder
            i, step, head, done = translate.open_range(b, var, bounds)
            self._bind_scalar(var, types.int64, i)

            def latch():
                i.add_incoming(self.builder.add(i, step, name=f"{var}.next"), self.builder.block)
                self.builder.branch(head)

            return latch, done

        self._iterate(body, enter, {var})

    def _while(self, st: ast.While) -> None:
        """A step loop of a `while_loop`: `while True:` running its body (`_iterate`), which
        leaves it by `if <test>: break` (`_break`)."""
        if st.orelse or not (isinstance(st.test, ast.Constant) and st.test.value is True):
            raise translate.Unsupported(f"loop while {ast.unparse(st.test)}")
        if not rewrite.is_step(st):
            raise translate.Unsupported("a while loop nest left to numba")

        def enter():
            head = self.fn.append_basic_block("while.head")
            self.builder.branch(head)
            self.builder.position_at_end(head)
            return lambda: self.builder.branch(head), self.fn.append_basic_block("while.done")

        self._iterate(st.body, enter, set(), leaves=True)

    def _iterate(self, body: list, enter: Callable, own: set, leaves: bool = False) -> None:
        """A loop running `body`, opened by `enter()` (which returns a function closing an
        iteration, and the block after the loop), `own` its names that end with it. A name the
        body assigns that the shell knew before is carried from one iteration to the next (a
        stack slot, and for an array the buffer it owns, if any); the others are the
        iteration's. Each iteration releases the arrays it allocated but those its carries
        keep, and what a carry owned before it was bound anew; after the loop the carries'
        arrays are the enclosing scope's to release. `leaves`: the body may `break` (`_break`)."""
        b = self.builder
        assigned = {
            n.id
            for st in body
            for n in ast.walk(st)
            if isinstance(n, ast.Name)
            if isinstance(n.ctx, ast.Store)
        }
        carried = sorted(n for n in assigned if n in self.arrays or n in self.values)
        slots, owns = {}, {}
        for n in carried:
            value = self.arrays[n][1] if n in self.arrays else self.values[n]
            slots[n] = cgutils.alloca_once_value(b, value)
            if n in self.arrays:
                owns[n] = cgutils.alloca_once_value(b, ir.Constant(_PTR, None))
        latch, done = enter()
        b = self.builder
        outer = self.meminfos, self.owners
        self.meminfos, self.owners = [], {}
        types_before = {n: self.env[n] for n in carried}
        start = {}
        for n in carried:
            value = start[n] = b.load(slots[n], typ=slots[n].allocated_type)
            if n in owns:
                marker = f"~{n}"
                self.owners[marker] = _Owned(b.load(owns[n], typ=_PTR), maybe_null=True)
                self.meminfos.append(self.owners[marker])
                self.arrays[n] = (self.env[n], value, marker)
            else:
                self.values[n] = value
        kept = list(self.meminfos)  # the carries' buffers: a `break` leaves them to the loop's end
        self.exits.append((done, start, kept) if leaves else None)
        try:
            for st in body:
                self._top(st)
        finally:
            self.exits.pop()
        b = self.builder
        for n in carried:  # the carries' new values, and the buffers they own
            if n in owns:
                arrty, value, fresh = self.arrays.get(n) or (None, None, None)
                if arrty is None or value.type != slots[n].allocated_type:
                    raise translate.Unsupported(f"carry {n} changes type")
                owner = self.owners.get(fresh) if isinstance(fresh, str) else None
                if owner is not None and not owner.held:
                    raise translate.Unsupported(f"carries share the buffer of {n}")
                if owner is not None:
                    owner.held = False
                    b.store(owner.meminfo, owns[n])
                else:
                    b.store(ir.Constant(_PTR, None), owns[n])
            elif n not in self.values or self.env[n] != types_before[n]:
                raise translate.Unsupported(f"carry {n} changes type")
            b.store(self.arrays[n][1] if n in owns else self.values[n], slots[n])
        self._release(self.meminfos)
        self.meminfos, self.owners = outer
        latch()
        b.position_at_end(done)
        for n in assigned | own:  # the iteration's names end with it
            if n not in carried:
                self.arrays.pop(n, None)
                self.values.pop(n, None)
                self.env.pop(n, None)
        for n in carried:
            value = b.load(slots[n], typ=slots[n].allocated_type)
            if n in owns:
                self.steps += 1
                marker = f"~{n}.{self.steps}"
                self.owners[marker] = _Owned(b.load(owns[n], typ=_PTR), maybe_null=True)
                self.meminfos.append(self.owners[marker])
                self.arrays[n] = (self.env[n], value, marker)
            else:
                self.values[n] = value

    def _break(self, st: ast.If) -> None:
        """`if <test>: break` in a `while` step loop's body, before any carry is bound anew
        (the carries' slots hold the loop's results): where the test holds, the arrays the
        iteration allocated so far are released and the loop ends."""
        exit_ = self.exits[-1] if self.exits else None
        if exit_ is None:
            raise translate.Unsupported("break outside a while loop")
        done, start, kept = exit_
        for n, value in start.items():
            now = self.arrays[n][1] if n in self.arrays else self.values.get(n)
            if now is not value:
                raise translate.Unsupported(f"break after carry {n} is bound anew")
        b = self.builder
        test = self.cast(self.expr(st.test), types.boolean)
        leave = self.fn.append_basic_block("break")
        go_on = self.fn.append_basic_block("go_on")
        b.cbranch(test, leave, go_on)
        b.position_at_end(leave)
        self._release([o for o in self.meminfos if o not in kept])
        b.branch(done)
        b.position_at_end(go_on)

    def _threaded(self, st: ast.For, bounds: list) -> None:
        """`for i in threaded_range(...)` at the kernel's top: its body run by
        `parallel.emit_for` as `<name>.step<k>(data, lo, hi)`, which runs iterations lo..hi-1
        (`_serial`, each iteration its own scope) on the names of the kernel it reads, packed
        in `data` with a flag that an allocation failed (raised as MemoryError after the
        loop). Its iterations are independent: the body assigns no name the kernel knew."""
        assigned, read = translate._names(st)
        if any(n in self.env for n in assigned):
            raise translate.Unsupported("a threaded step loop assigning the kernel's names")
        free = [n for n in read if n in self.arrays or n in self.values]
        b, module = self.builder, self.builder.module
        flag = cgutils.alloca_once_value(b, ir.Constant(_I64, 0))
        items = [self.arrays[n][1] if n in self.arrays else self.values[n] for n in free]
        struct = ir.LiteralStructType([v.type for v in items] + [_PTR])
        data = cgutils.alloca_once(b, struct)
        for k, v in enumerate([*items, flag]):
            b.store(v, cgutils.gep_inbounds(b, data, 0, k))
        self.steps += 1
        body = ir.Function(module, parallel.body_type(), f"{self.name}.step{self.steps}")
        body.linkage = "internal"
        start, stop = bounds if len(bounds) == 2 else (ir.Constant(_I64, 0), bounds[0])
        parallel.emit_for(b, body, b.bitcast(data, parallel.body_type().args[0]), start, stop)
        go_on = self.fn.append_basic_block("steps.done")
        b.cbranch(
            b.icmp_signed("!=", b.load(flag, typ=_I64), ir.Constant(_I64, 0)), self.no_memory, go_on
        )
        b.position_at_end(go_on)
        saved = (self.builder, self.fn, self.no_memory, self.arrays, self.values, self.env)
        outer = self.meminfos, self.owners
        self.fn = body
        self.builder = b = ir.IRBuilder(body.append_basic_block("entry"))
        self.no_memory = body.append_basic_block("no_memory")
        at = b.bitcast(body.args[0], struct.as_pointer())
        arrays, values = {}, {}
        for k, n in enumerate(free):
            value = b.load(cgutils.gep_inbounds(b, at, 0, k), typ=struct.elements[k])
            if n in self.arrays:
                arrays[n] = (self.arrays[n][0], value, self.arrays[n][2])
            else:
                values[n] = value
        failed = b.load(cgutils.gep_inbounds(b, at, 0, len(free)), typ=_PTR)
        self.arrays, self.values, self.env = arrays, values, dict(self.env)
        self.meminfos, self.owners = [], {}
        self._serial(st.target.id, list(body.args[1:]), st.body)
        b = self.builder
        self._release(self.meminfos)
        b.ret_void()
        b.position_at_end(self.no_memory)
        b.store(ir.Constant(_I64, 1), failed)
        b.ret_void()
        self.builder, self.fn, self.no_memory, self.arrays, self.values, self.env = saved
        self.meminfos, self.owners = outer

    def _array(self, node: ast.AST) -> tuple:
        """An array argument: a name, or the `.T` of a 2-d C array (numba's F-ordered view)."""
        if isinstance(node, ast.Name) and node.id in self.arrays:
            arrty, value, _ = self.arrays[node.id]
            return arrty, value
        if isinstance(node, ast.Attribute) and node.attr == "T":
            arrty, value = self._array(node.value)
            if arrty.ndim != 2 or arrty.layout != "C":
                raise translate.Unsupported(f"{ast.unparse(node)}")
            b = self.builder
            old = _ArrayValue(b, arrty, value)
            shape, strides = (cgutils.unpack_tuple(b, v, 2) for v in (old.shape, old.strides))
            tty = arrty.copy(layout="F")
            ary = _ArrayValue(b, tty)
            value = ary.populate(
                data=old.data,
                shape=shape[::-1],
                strides=strides[::-1],
                itemsize=old.itemsize,
                meminfo=old.meminfo,
                parent=old.parent,
            )
            return tty, value
        raise translate.Unsupported(f"array {ast.unparse(node)}")

    # calls
    def _argument(self, node: ast.AST) -> tuple:
        if isinstance(node, ast.Tuple):
            items = [self.expr(e) for e in node.elts]
            tys = [types.unliteral(t) for t, _ in items]
            ty = types.BaseTuple.from_types(tys)
            return ty, self.target.make_tuple(self.builder, ty, [v for _, v in items])
        if isinstance(node, ast.Attribute) or (
            isinstance(node, ast.Name) and node.id in self.arrays
        ):
            return self._array(node)
        return self.expr(node)

    def _intrinsic(self, node: ast.Call) -> tuple:
        """A call of a numba intrinsic of the kernel language (`lib.*`, `rt.dynamic`), lowered
        by numba's own code generator for it."""
        fn = _call_of(node)
        if node.keywords:
            raise translate.Unsupported(f"keywords of {fn}")
        try:
            obj = operator.attrgetter(fn.partition(".")[2])(lib if fn.startswith("lib.") else rt)
        except AttributeError:
            raise translate.Unsupported(f"call of {fn}") from None
        args = [self._argument(a) for a in node.args]
        _, target = translate.contexts()
        argtys = tuple(t for t, _ in args)
        fnty, sig = _intrinsic_signature(fn, obj, argtys)
        scratch = translate._scratch_library()
        try:
            with target.push_code_library(scratch):
                value = translate._implementation(fnty, sig)(self.builder, [v for _, v in args])
        except Exception as e:
            raise translate.Unsupported(f"{fn} on {argtys}: {e}") from None
        if scratch._linking_libraries:
            scratch._linking_libraries.clear()
            raise translate.Unsupported(f"{fn} on {argtys} calls compiled code")
        return sig.return_type, value

    def _nest(self, node: ast.Call, outputs: list[str]) -> None:
        """A call `_lnK((...))` of a lean nest: its function called directly."""
        name, fnty, (_, params, _, outs) = self.nests[_call_of(node)]
        (tup,) = node.args
        if not isinstance(tup, ast.Tuple) or len(tup.elts) != len(params):
            raise translate.Unsupported(f"a call of {ast.unparse(node.func)}")
        b = self.builder
        args = []
        for arg, (_, kind, dtype, _) in zip(tup.elts, params):
            ty = translate.scalar_type(dtype)
            if kind == "a":
                arrty, _ = self._array(arg)
                if arrty.layout != "C" or arrty.dtype != ty:
                    raise translate.Unsupported(f"{ast.unparse(arg)} for a {dtype} array")
                args.append(self.array_pointer(arg.id))
            else:
                typed = self.expr(arg)
                if types.unliteral(typed[0]) != ty:
                    raise translate.Unsupported(f"{ast.unparse(arg)} for a {dtype}")
                args.append(typed[1])
        out_types = [translate.scalar_type(d) for _, d in outs]
        if len(outputs) != len(out_types):
            raise translate.Unsupported(f"{len(outputs)} results of a nest of {len(out_types)}")
        slots = [cgutils.alloca_once(b, self.target.get_value_type(t)) for t in out_types]
        callee = b.module.globals.get(name) or ir.Function(b.module, fnty, name)
        b.call(callee, args + slots)
        for name, ty, slot in zip(outputs, out_types, slots):
            self._bind_scalar(name, ty, b.load(slot, typ=slot.allocated_type))


class _ArrayValue:
    """An array struct of `arrty`, new (`populate` stores its fields and returns its value) or
    holding `value` (its fields read as properties): the instructions of numba's
    `make_array(arrty)(context, builder[, value])`, `populate_array`, `_getvalue()` and field
    reads, in their order, without numba's struct proxy, which looks up the data model and
    searches an `__array__` implementation for every array (not finding one, numba refreshes
    its typing and target contexts: a fifth of a shell's build)."""

    def __init__(self, builder: ir.IRBuilder, arrty: types.Array, value=None):
        self.builder, self.ndim = builder, arrty.ndim
        self.struct, self.fields, self.meminfo_t, self.parent_t = _array_model(arrty)
        self.ref = cgutils.alloca_once(builder, self.struct, zfill=True)
        if value is not None:
            if value.type != self.struct:
                raise AssertionError(f"bad value type: expected {self.struct}, got {value.type}")
            builder.store(value, self.ref)

    def populate(self, data, shape: list, strides: list, itemsize, meminfo, parent):
        """Stores the fields as `populate_array` does and returns the struct's value."""
        b = self.builder
        values = {
            "shape": cgutils.pack_array(b, shape, _I64),
            "strides": cgutils.pack_array(b, strides, _I64),
            "data": data,
            "itemsize": itemsize,
            "meminfo": ir.Constant(self.meminfo_t, None) if meminfo is None else meminfo,
            "parent": ir.Constant(self.parent_t, None) if parent is None else parent,
        }
        nitems = ir.Constant(_I64, 1)
        for size in cgutils.unpack_tuple(b, values["shape"], len(shape)):
            nitems = b.mul(nitems, size, flags=["nsw"])
        values["nitems"] = nitems
        for name, value in values.items():
            ptr = self._pointer(name)
            if value.type != ptr.type.pointee:
                raise TypeError(f"array field {name}: {value.type}, not {ptr.type.pointee}")
            b.store(value, ptr)
        return b.load(self.ref)

    @property
    def shape(self):
        """The sizes, each load marked non-negative (numba's `ArrayStruct.shape`)."""
        if not self.ndim:
            return self._load("shape")
        b, ptr = self.builder, self._pointer("shape")
        dims = []
        for i in range(self.ndim):
            dims.append(b.load(cgutils.gep_inbounds(b, ptr, 0, i)))
            mark_positive(b, dims[-1])
        return cgutils.pack_array(b, dims)

    data = property(lambda self: self._load("data"))
    nitems = property(lambda self: self._load("nitems"))
    strides = property(lambda self: self._load("strides"))
    itemsize = property(lambda self: self._load("itemsize"))
    meminfo = property(lambda self: self._load("meminfo"))
    parent = property(lambda self: self._load("parent"))

    def _pointer(self, name: str):
        return cgutils.gep_inbounds(self.builder, self.ref, 0, self.fields[name])

    def _load(self, name: str):
        return self.builder.load(self._pointer(name))


@functools.cache
def _array_model(arrty: types.Array) -> tuple:
    """numba's LLVM struct of arrays of `arrty`, its fields' positions, and the LLVM types of
    its `meminfo` and `parent` fields."""
    _, target = translate.contexts()
    model = target.data_model_manager[arrty]
    fields = {name: model.get_field_position(name) for name in model._fields}
    meminfo, parent = (target.get_value_type(model.get_type(f)) for f in ("meminfo", "parent"))
    return model.get_value_type(), fields, meminfo, parent


@functools.cache
def _itemsize(dtype: types.Type) -> int:
    """The bytes of an element of `dtype` in an array (LLVM's ABI size of numba's data type,
    which llvmlite finds by parsing a module: asked once per dtype)."""
    _, target = translate.contexts()
    return target.get_abi_sizeof(target.get_data_type(dtype))


@functools.cache
def _intrinsic_signature(fn: str, obj, argtys: tuple) -> tuple:
    """numba's function type of intrinsic `obj` (called `fn` in the kernel) and its signature
    for arguments of types `argtys`: typed once per process (a shell's library calls repeat).
    An intrinsic made since the typing context last loaded its registries (a library
    function's, made when a kernel first requires it) is typed after a refresh, as numba's
    target context looks an implementation up again after one."""
    typing, _ = translate.contexts()
    for refreshed in (False, True):
        try:
            fnty = typing.resolve_value_type(obj)
            sig = typing.resolve_function_type(fnty, argtys, {})
            break
        except Exception as e:
            if refreshed:
                raise translate.Unsupported(f"{fn} on {argtys}: {e}") from None
            typing.refresh()
    if sig is None:
        raise translate.Unsupported(f"{fn} on {argtys}")
    return fnty, sig


def _module_statement(st: ast.stmt) -> bool:
    """Whether module-level statement `st` is one a shell does without: imports, the
    docstring, `lib.require(...)` (the caller registers the slots), constants `c_<code>_<bits>`
    (read from their names)."""
    if isinstance(st, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(st, ast.Expr):
        return isinstance(st.value, ast.Constant) or _call_of(st.value) == "lib.require"
    return (
        isinstance(st, ast.Assign)
        and len(st.targets) == 1
        and isinstance(st.targets[0], ast.Name)
        and translate.constant_type(st.targets[0].id) is not None
    )


def _c_strides(b: ir.IRBuilder, dims: list, itemsize: int) -> list:
    """The byte strides of a C-contiguous array of `dims` (LLVM int64 values)."""
    strides, acc = [], ir.Constant(_I64, itemsize)
    for d in reversed(dims):
        strides.insert(0, acc)
        acc = b.mul(acc, d)
    return strides


def _call_of(node: ast.AST) -> str:
    return translate.dotted(node.func) if isinstance(node, ast.Call) else ""


def _dtype(node: ast.AST) -> types.Type:
    text = translate.dotted(node)
    if not text.startswith("np.") or not hasattr(np, text[3:]):
        raise translate.Unsupported(f"dtype {text}")
    return translate.scalar_type(np.dtype(getattr(np, text[3:])))
