"""Lean nests at run time: compiling, caching on disk and calling them from numba kernels.

A rewritten kernel module (`core/backends/llvm/rewrite.py`) declares its lean nests at module
level, like the library functions it calls:

    _ln0, _ln1 = ln.load('<key>', <spec>)

`load` makes them callable: it registers one slot per nest (an 8-byte cell named
`numbax_lean_<key>_<k>`, the library's mechanism, `core/backends/numba/library/entry.py`),
finds the nests' machine code in the disk cache or compiles it, and fills the cells with the
functions' addresses. It returns one numba intrinsic per nest, which the kernel calls with a
tuple of the nest's arrays and scalars: the intrinsic passes the arrays' data pointers and the
scalars' values and calls through the cell (the kernel's own machine code, cached by numba,
names only the cell's symbol, which `load` registers before numba loads it), then returns the
nest's output scalars as a tuple.

The spec is the nests' source text and their parameters' types (a Python literal), so any
process can compile them: this one, a compile worker, a later process whose disk cache lost
them. The key hashes the spec with the sources of this package and of the `vm.*` emitters, and
the numba, llvmlite and LLVM versions. All nests of a kernel are one LLVM module, compiled by
numba's code generator (its target machine, O3 pipeline and loop-vectorizer options, so a nest
vectorizes as the same loop in a numba kernel would) and cached as object code (numba's
serialized form) in one verified file written atomically (`core/jit/cache_files.py`): two
processes writing the same entry leave one whole file; a damaged or unreadable one is compiled
again.
"""

from __future__ import annotations

import ast
import hashlib
import pickle
import threading
from pathlib import Path

import llvmlite
import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.errors import TypingError
from numba.extending import intrinsic

from core.backends.llvm import pool, target, translate, vecmath
from core.backends.numba.library import entry
from core.jit import cache_files, disk_cache
from core.jit.array_struct import array_struct
from core.jit.rsqrt_estimate import target_cpu

_lock = threading.Lock()
_LOADED: dict[str, tuple] = {}  # key -> the nests' intrinsics
_MODULES: dict[
    str, list[str]
] = {}  # key -> LLVM IR built by a rewrite of this process, not compiled yet
_stats = {"compiled": 0, "loaded": 0}


def _version() -> str:
    h = hashlib.sha256(
        f"{numba.__version__} {llvmlite.__version__} {llvm.llvm_version_info}".encode()
    )
    h.update(disk_cache.fingerprint().encode())  # runtime and vecmath, which vecmath.py mirrors
    h.update(repr(target_cpu()).encode())  # numba's own cache keys hold its target too
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


VERSION = _version()


def stats() -> dict[str, int]:
    """Counters of this process: lean modules `compiled` here and `loaded` from disk."""
    return dict(_stats)


def key_of(kernel: tuple) -> str:
    """The cache key of the lean nests of `kernel` (its source and argument types, which
    determine them; see the module docstring)."""
    return hashlib.sha256(f"{VERSION}{kernel!r}".encode()).hexdigest()[:40]


def symbol(key: str, k: int) -> str:
    """The function name of nest `k` of module `key`."""
    return f"numbax_lean_{key[:20]}_{k}"


def slot_symbol(key: str, k: int) -> str:
    """The symbol of the slot through which kernels call nest `k` of module `key`."""
    return f"numbax_lean_slot_{key[:20]}_{k}"


def build(spec: tuple, key: str) -> list[ir.Module]:
    """The LLVM modules of the nests of `spec`: function `symbol(key, k)` for nest k."""
    modules = []
    emitter = vecmath
    for k, (source, params, noalias, outputs) in enumerate(spec):
        env = {}
        for name, kind, dtype, writable in params:
            ty = translate.scalar_type(dtype)
            env[name] = types.Array(ty, 1, "C", readonly=not writable) if kind == "a" else ty
        (node,) = ast.parse(source).body
        nest = translate.Nest(node, env, [name for name, _ in outputs], emitter)
        if [p[0] for p in nest.params if p[2] != "o"] != [p[0] for p in params]:
            raise translate.Unsupported(f"the parameters of nest {k} are not those of {key}")
        modules.append(ir.Module(name=symbol(key, k)))
        nest.function(modules[-1], symbol(key, k), noalias)
    return modules


def remember(key: str, modules: list[ir.Module]) -> None:
    """Keeps the IR a rewrite built for `key`, so that `load` in this process compiles it
    without translating the nests again."""
    _MODULES[key] = texts(modules)


def texts(modules: list[ir.Module]) -> list[str]:
    """The IR texts of `modules`, which are then released (`translate.release`)."""
    out = [str(m) for m in modules]
    for m in modules:
        translate.release(m)
    return out


def load(key: str, spec: tuple) -> tuple:
    """Makes the nests of `spec` callable (see the module docstring); returns their intrinsics.

    Args:
      key: `key_of((source, types))` of the kernel the nests come from.
      spec: per nest, `(source, params, noalias, outputs)`: the `for` statement's text, its
        parameters `(name, kind, dtype, writable)` (kind "a" an array, "s" a scalar), whether
        its arrays are noalias, and the `(name, dtype)` of each scalar it returns.

    Returns:
      One intrinsic per nest, called with the tuple of its parameters' values.
    """
    if key in _LOADED:
        return _LOADED[key]
    with global_compiler_lock, _lock:
        if key in _LOADED:
            return _LOADED[key]
        cells = [entry.register_slot(slot_symbol(key, k)) for k in range(len(spec))]
        library = _from_disk(key)
        if library is None:
            library = _compile(key, spec)
        else:
            _stats["loaded"] += 1
        for k, cell in enumerate(cells):
            cell[0] = library.get_pointer_to_function(symbol(key, k))
        _KEEP.append(library)
        callers = tuple(
            _caller(slot_symbol(key, k), params, outputs)
            for k, (_, params, _, outputs) in enumerate(spec)
        )
        _LOADED[key] = callers
        return callers


_KEEP: list = []  # the code libraries whose functions cells point to: alive for the process


def cache_path(key: str, suffix: str) -> Path:
    """The disk cache file of `key` with `suffix`: named like a generated module's files
    (`core/jit/disk_cache.py`), so that the cache's size limit and `clear` handle it."""
    return cache_files.secure_dir(cache_files.cache_dir()) / f"numbax_jit_{key}.{suffix}"


def _from_disk(key: str):
    """The code library of `key` from the disk cache, or None (missing or damaged)."""
    try:
        state = pickle.loads(cache_files.read_verified(cache_path(key, "lean")))  # noqa: S301 (verified)
    except Exception:  # missing or damaged: compile it again
        return None
    with target.callbacks_raise():  # an interrupt while it loads is raised, not dropped
        try:
            return _codegen().unserialize_library(state)
        except Exception:  # of another LLVM: compile it again
            return None


def _codegen():
    """numba's JIT code generator (its typing and target contexts need no refresh for it), with
    numbax's thread pool prepared (the cell of its state, which threaded nests read, filled)."""
    pool.prepare()
    from numba.core.registry import cpu_target  # noqa: PLC0415

    return cpu_target.target_context.codegen()


def _compile(key: str, spec: tuple):
    """Compiles the nests of `spec` and writes them to the disk cache (best effort)."""
    ir_texts = _MODULES.pop(key, None) or texts(build(spec, key))
    library = _codegen().create_library(f"numbax_lean_{key}")
    library.enable_object_caching()
    for text in ir_texts:
        library.add_llvm_module(llvm.parse_assembly(text))
    with target.callbacks_raise():  # an interrupt while it compiles is raised, not dropped
        library.finalize()
    _stats["compiled"] += 1
    try:
        state = pickle.dumps(library.serialize_using_object_code())
        cache_files.write_verified(cache_path(key, "lean"), state)
    except OSError as e:
        cache_files.warn(f"lean nests not cached ({e})")
    return library


def _caller(sym: str, params: tuple, outputs: tuple):
    """The intrinsic through which a kernel calls the nest of slot `sym` (its `params` and
    `outputs` as in `load`'s spec)."""
    expected = [(kind, translate.scalar_type(dtype)) for _, kind, dtype, _ in params]

    def typer(typingctx, args):
        if not isinstance(args, types.BaseTuple) or len(args) != len(expected):
            raise TypingError(f"lean nest {sym} takes {len(expected)} values, got {args}")
        for (kind, ty), arg in zip(expected, args):
            ok = (
                isinstance(arg, types.Array) and arg.layout == "C" and arg.dtype == ty
                if kind == "a"
                else types.unliteral(arg) == ty
            )
            if not ok:
                raise TypingError(f"lean nest {sym}: {arg} where {kind} {ty} was expected")
        out_types = [translate.scalar_type(np.dtype(d)) for _, d in outputs]
        ret = types.Tuple(out_types) if outputs else types.none

        def codegen(context, builder, signature, llargs):
            values = cgutils.unpack_tuple(builder, llargs[0], len(expected))
            lowered = []
            for (kind, ty), arg, value in zip(expected, args, values):
                if kind == "a":
                    lowered.append(array_struct(arg)(context, builder, value).data)
                else:
                    lowered.append(context.cast(builder, value, arg, ty))
            outs = [cgutils.alloca_once(builder, context.get_value_type(t)) for t in out_types]
            fnty = ir.FunctionType(ir.VoidType(), [v.type for v in lowered + outs])
            entry.call_slot(builder, sym, fnty, lowered + outs)
            if not outs:
                return context.get_dummy_value()
            return context.make_tuple(builder, ret, [builder.load(p) for p in outs])

        return ret(args), codegen

    return intrinsic(typer)
