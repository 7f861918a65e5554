"""Library functions as LLVM IR: the library's own sources, compiled without numba's front end.

A library function (`core/backends/numba/library`) is a numba function over flat arrays, an
int64 parameter array and scalars, compiled once per dtype. numba costs 0.3-2 s of CPU for each
of the large ones, two thirds of it typing and lowering in Python (`bench/compile_attribution.py`,
`bench/README.md`): a cold first call of a convolutional network paid it for a dozen of them.
`compile` writes such a function as one LLVM function from the same source, typed and lowered
by `translate.Nest`'s expressions (numba's typing context and implementations for every
operator, so results are numba's), and numba's code generator compiles it (its O3 pipeline and
target machine). The function has numba's calling convention for the library's signature
(`entry.call_native`): callers and slots cannot tell which compiler built it.

The language is the library's numba code, whatever of it this module knows:

    scalars      int64 and the arrays' dtypes, named once per type; tuple assignments,
                 `a = b = v`; `a.dtype.type(v)`
    statements   `for i in range(a[, b[, step]])`, `while`, `if`/`else`, assignments, `+=`,
                 `return` (the statements after an `if` that returns move into its `else`)
    threads      `for t in prange(a[, b])` over scalars: its body outlined and run on numba's
                 threads as numba's parfor runs it (`parallel.py`)
    arrays       flat, as pointers: `a[i]` and `rt.ld`/`rt.st` unchecked (i >= 0), `len(a)`,
                 `a.shape[0]`, `segment(a, start, n)` and `a[lo:hi]` (views), `x if c else
                 y` of views, `rt.empty((n,), dtype)`/`np.empty(n, dtype)`/`rt.full(...)`
                 (malloc, freed on return, or when the statement runs again in a loop)
    blocks       `copy`, `zero` (memcpy, memset), `product` (one BLAS call, float dtypes),
                 `extremum`, `zero_of`
    calls        of other library functions through their slots (`entry.callee`,
                 `entry.in_parts`) and of numba intrinsics (`rt.threads()`, `rt.dynamic`,
                 `gemm.flat_block`, ...), lowered by their own code generators
    helpers      calls of the library's `jit`/`inline` helpers, inlined from their source (one
                 `return` at the end, a tuple or a value)

Anything else (a `return` in a loop, a `prange` reading arrays, an integer product, a complex
dtype but for arrays only passed on to calls, `_passed_only`) raises `translate.Unsupported` and
numba compiles the function as before (`entry.load`): the same source serves both, and a
construct this module does not know never gives a wrong answer.

The machine code is cached on disk like the lean nests (`nests.py`: numba's serialized object
code in one verified file, written atomically; a damaged entry is compiled again), keyed by the
library's and this package's sources, the function, its signature and the LLVM version; so is
the reason a function is not lowered (a later process goes straight to numba's cache).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import hashlib
import inspect
import itertools
import pickle
import textwrap
from pathlib import Path

import llvmlite
import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils, fastmathpass
from numba.core.compiler_lock import global_compiler_lock
from numba.core.cpu_options import FastMathOptions
from numba.core.errors import TypingError
from numba.core.registry import cpu_target
from numba.np.arrayobj import populate_array

from core.backends.llvm import parallel, settle, target, translate, vecmath
from core.backends.numba.library import blocks
from core.jit import cache_files, disk_cache
from core.jit import runtime as rt
from core.jit.array_struct import array_struct
from core.jit.gemm import emit_gemm, ensure_blas

_I64 = ir.IntType(64)
# The library's fastmath flags (`entry.OPTIONS`), not the kernels'.
_FASTMATH = FastMathOptions({"contract"})
_BLAS = (types.float32, types.float64)

# Calls the translator lowers itself, by the object the name refers to.
_INTRINSICS = {
    id(rt.ld): "rt.ld",
    id(rt.st): "rt.st",
    id(rt.where): "rt.where",
    id(rt.empty): "rt.empty",
    id(rt.full): "rt.full",
    id(blocks.copy): "copy",
    id(blocks.zero): "zero",
    id(blocks.zero_of): "zero_of",
    id(blocks.segment): "segment",
    id(blocks.product): "product",
    id(len): "len",
    id(max): "max",
    id(min): "min",
    id(range): "range",
    id(numba.prange): "prange",
}


_ALLOCATIONS = ("rt.empty", "rt.full", "np.empty")
_EXTREMUM = {}  # "max": the `kind` value of `extremum` that asks for the maximum
_CALLS: dict[str, object] = {}  # canonical name -> the typer of a call of another library function


_INTRINSIC = type(blocks.segment)  # numba's `@intrinsic` objects


def _intrinsic(obj) -> str:
    """The canonical name of a call of numba intrinsic `obj` (e.g. `gemm.flat_block`), lowered
    by its own typer and code generator (a statement: its result is dropped)."""
    if id(obj) not in _INTRINSICS:
        register_call(obj, lambda *tys: obj._defn(translate.contexts()[0], *tys))
    return _INTRINSICS[id(obj)]


def register_call(obj, typer) -> None:
    """Makes calls of `obj`, an intrinsic calling another library function through its slot
    (`entry.callee`, `entry.in_parts`), reach the translator: `typer(*argument types)` gives
    the call's signature and code generator, as numba's intrinsic would have."""
    name = f"_slot_call_{len(_CALLS)}"
    _CALLS[name] = typer
    _INTRINSICS[id(obj)] = name


def register_extremum(fn, max_kind: int) -> None:
    """Makes calls of `fn(a, b, kind)` (`windows.extremum`: max(a, b) if kind == `max_kind`,
    else min(a, b), NaN-propagating for floats) reach the translator."""
    _INTRINSICS[id(fn)] = "extremum"
    _EXTREMUM["max"] = max_kind


class _Expander:
    """The body of a function with its helpers inlined and its globals resolved: constants
    become literals, intrinsics canonical names, `x += y` `x = x + y`, helper calls the
    helper's body on renamed locals (one fresh prefix per call)."""

    def __init__(self):
        self.counter = itertools.count()

    def function(self, fn) -> tuple[list[str], list[ast.stmt]]:
        tree, stored = _parse(fn)
        params = [a.arg for a in tree.args.args]
        names = {n: n for n in [*params, *stored]}
        body = list(tree.body)
        if any(isinstance(n, ast.Return) for st in body for n in ast.walk(st)):
            body = _single_exit([*body, ast.Return(None)], [])  # an early `return`
        return params, self.block(body, fn.__globals__, names)

    def block(self, body: list[ast.stmt], env: dict, names: dict) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in body:
            out.extend(self.statement(st, env, names))
        return out

    def statement(self, st: ast.stmt, env: dict, names: dict) -> list[ast.stmt]:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            return []  # a docstring
        if isinstance(st, ast.Assign) and len(st.targets) > 1:  # a = b = value
            *others, last = st.targets
            if not all(isinstance(t, ast.Name) for t in st.targets):
                raise translate.Unsupported("chained assignment")
            chain = [ast.Assign([last], st.value)]
            chain += [ast.Assign([t], ast.Name(last.id, ast.Load())) for t in others]
            return self.block(chain, env, names)
        if isinstance(st, ast.AugAssign):
            target = (
                ast.Name(st.target.id, ast.Load()) if isinstance(st.target, ast.Name) else st.target
            )
            value = ast.BinOp(target, st.op, st.value)
            st = ast.Assign([st.target], value)
        pre: list[ast.stmt] = []
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            helper = self._helper(st.value.func, env)
            if helper is not None:
                args = [self.expr(a, env, names, pre) for a in st.value.args]
                body, _ = self.inline(helper, args, pre)
                return pre + body
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Call):
            helper = self._helper(st.value.func, env)
            if helper is not None:
                args = [self.expr(a, env, names, pre) for a in st.value.args]
                body, ret = self.inline(helper, args, pre)
                targets = self._targets(st.targets, env, names)
                return pre + body + _assign(targets, ret)
        if isinstance(st, ast.Assign):
            value = self.expr(st.value, env, names, pre)
            return pre + _assign(self._targets(st.targets, env, names), value)
        if isinstance(st, ast.For):
            it = self.expr(st.iter, env, names, pre)
            target = self._targets([st.target], env, names)[0]
            body = self.block(st.body, env, names)
            if st.orelse:
                raise translate.Unsupported("for ... else")
            return pre + [ast.For(target, it, body, [])]
        if isinstance(st, ast.While):
            if st.orelse:
                raise translate.Unsupported("while ... else")
            test = self.expr(st.test, env, names, None)  # evaluated at every iteration
            return [ast.While(test, self.block(st.body, env, names), [])]
        if isinstance(st, ast.If):
            test = self.expr(st.test, env, names, pre)
            body = self.block(st.body, env, names)
            orelse = self.block(st.orelse, env, names)
            return pre + [ast.If(test, body, orelse)]
        if isinstance(st, ast.Expr):
            return pre + [ast.Expr(self.expr(st.value, env, names, pre))]
        if isinstance(st, ast.Pass):
            return []
        raise translate.Unsupported(f"statement {ast.unparse(st)}")

    def _targets(self, targets: list, env: dict, names: dict) -> list[ast.expr]:
        if len(targets) != 1:
            raise translate.Unsupported("chained assignment")
        (t,) = targets
        return [self._target(e, env, names) for e in (t.elts if isinstance(t, ast.Tuple) else [t])]

    def _target(self, t: ast.expr, env: dict, names: dict) -> ast.expr:
        if isinstance(t, ast.Name):
            return ast.Name(names.get(t.id, t.id), ast.Store())
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
            array = ast.Name(names.get(t.value.id, t.value.id), ast.Load())
            return ast.Subscript(array, self.expr(t.slice, env, names, None), ast.Store())
        raise translate.Unsupported(f"assignment to {ast.unparse(t)}")

    def _resolve(self, node: ast.expr, env: dict):
        """The object a global name or `module.attr` refers to, or None."""
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else getattr(builtins, node.id, None)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = env.get(node.value.id)
            if base is not None and inspect.ismodule(base):
                return getattr(base, node.attr, None)
        return None

    def _helper(self, func: ast.expr, env: dict):
        obj = self._resolve(func, env)
        if obj is None or id(obj) in _INTRINSICS or isinstance(obj, _INTRINSIC):
            return None
        py = getattr(obj, "py_func", obj)  # a numba dispatcher, or a `register_jitable` function
        if isinstance(func, ast.Attribute) and not inspect.isfunction(py):
            return None  # np.*, vm.*: the translator's
        if not inspect.isfunction(py):
            raise translate.Unsupported(f"call of {ast.unparse(func)}")
        return py

    def inline(self, fn, args: list[ast.expr], pre: list) -> tuple[list[ast.stmt], ast.expr]:
        """The statements of helper `fn` called with `args` (bound to fresh names first) and
        the expression of its result."""
        tree, stored = _parse(fn)
        prefix = f"_h{next(self.counter)}_"
        params = [a.arg for a in tree.args.args]
        defaults = [ast.Constant(v) for v in fn.__defaults__ or ()]
        args = args + defaults[len(args) - len(params) :] if len(args) < len(params) else args
        if len(params) != len(args) or tree.args.vararg or tree.args.kwonlyargs:
            raise translate.Unsupported(f"call of {fn.__name__}")
        names = {n: prefix + n for n in [*params, *stored]}
        out: list[ast.stmt] = []
        for p, a in zip(params, args):
            out.append(ast.Assign([ast.Name(names[p], ast.Store())], a))
        body = list(tree.body)
        ret: ast.expr = ast.Constant(None)
        if body and isinstance(body[-1], ast.Return):
            ret = body.pop().value
        if any(isinstance(n, ast.Return) for st in body for n in ast.walk(st)):
            # one exit: the statements after an `if` that returns go into both its branches,
            # each `return v` becomes an assignment of the result
            arity = len(ret.elts) if isinstance(ret, ast.Tuple) else 1
            results = [f"{prefix}return{k}" for k in range(arity)]
            body = _single_exit([*body, ast.Return(ret)], results)
            names.update({n: n for n in results})
            ret = ast.Tuple([ast.Name(n, ast.Load()) for n in results], ast.Load())
            ret = ret.elts[0] if arity == 1 else ret
        out.extend(self.block(body, fn.__globals__, names))
        ret = self.expr(ret, fn.__globals__, names, out) if ret is not None else ast.Constant(None)
        return out, ret

    def expr(self, node: ast.expr, env: dict, names: dict, pre: list | None) -> ast.expr:
        """`node` with locals renamed, globals resolved and helper calls hoisted into `pre`."""
        if isinstance(node, ast.Name):
            if node.id in names:
                return ast.Name(names[node.id], ast.Load())
            obj = self._resolve(node, env)
            if isinstance(obj, bool | int | float) and not isinstance(obj, np.generic):
                return ast.Constant(obj)
            if node.id in ("True", "False", "None"):
                return node
            return ast.Name(node.id, ast.Load())  # a local of the function itself
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id not in names:
                obj = self._resolve(node, env)
                if isinstance(obj, int) and not isinstance(obj, bool):
                    return ast.Constant(obj)
                if isinstance(obj, type) and issubclass(obj, np.generic):
                    return ast.Attribute(ast.Name("np", ast.Load()), obj.__name__, ast.Load())
                return node  # rt.ld, vm.maximum, ...: the translator's own names
            return ast.Attribute(self.expr(node.value, env, names, pre), node.attr, ast.Load())
        if isinstance(node, ast.Call):
            obj = self._resolve(node.func, env)
            if isinstance(obj, _INTRINSIC):
                _intrinsic(obj)
            if obj is not None and id(obj) in _INTRINSICS:
                func = _canonical(_INTRINSICS[id(obj)])
                args = [self.expr(a, env, names, pre) for a in node.args]
                return ast.Call(func, args, [])
            py = getattr(obj, "py_func", obj)
            if isinstance(node.func, ast.Attribute) and not inspect.isfunction(py):
                func = self.expr(node.func, env, names, pre)  # vm.*, np.*: the translator's
                return ast.Call(func, [self.expr(a, env, names, pre) for a in node.args], [])
            helper = self._helper(node.func, env)
            if pre is None:
                raise translate.Unsupported("a helper call in an assignment target")
            args = [self.expr(a, env, names, pre) for a in node.args]
            body, ret = self.inline(helper, args, pre)
            pre.extend(body)
            return ret
        if isinstance(node, ast.Constant):
            return node
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            value = self.expr(node.value, env, names, pre)
            k = node.slice.value
            if isinstance(value, ast.Tuple) and isinstance(k, int) and 0 <= k < len(value.elts):
                return value.elts[k]  # `plan(...)[0]`: the element itself (pure expressions)
            return ast.Subscript(value, node.slice, ast.Load())
        fields = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                fields[field] = self.expr(value, env, names, pre)
            elif isinstance(value, list) and all(isinstance(v, ast.expr) for v in value):
                fields[field] = [self.expr(v, env, names, pre) for v in value]
            else:
                fields[field] = value
        return type(node)(**fields)


def _single_exit(body: list[ast.stmt], results: list[str]) -> list[ast.stmt]:
    """`body` (ending in a `return`) with its returns assigning `results` instead (none: a
    function returning nothing), and no statement after one (see `_Expander.inline`)."""
    out: list[ast.stmt] = []
    for k, st in enumerate(body):
        if isinstance(st, ast.Return):
            if not results:  # a function returning nothing
                if st.value is not None:
                    raise translate.Unsupported("a routine returning a value")
                return out
            targets = [ast.Name(n, ast.Store()) for n in results]
            return out + _assign(targets, st.value)
        if any(isinstance(n, ast.Return) for n in ast.walk(st)):
            if not isinstance(st, ast.If):
                raise translate.Unsupported("a return in a loop")
            rest = body[k + 1 :]
            then = _single_exit(st.body + rest, results)
            return out + [ast.If(st.test, then, _single_exit(st.orelse + rest, results))]
        out.append(st)
    raise translate.Unsupported("a helper that can end without returning")


def _stored(tree: ast.AST) -> list[str]:
    """The names `tree` assigns."""
    found = (
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    )
    return list(dict.fromkeys(found))


def _canonical(name: str) -> ast.expr:
    module, _, attr = name.rpartition(".")
    if module:
        return ast.Attribute(ast.Name(module, ast.Load()), attr, ast.Load())
    return ast.Name(attr, ast.Load())


@functools.cache
def _parse(fn) -> tuple[ast.FunctionDef, list[str]]:
    """The syntax tree of library function or helper `fn` and the names it assigns, once per
    process (a helper is inlined into several routines: the CNN's 15 routines read 84 sources;
    `inspect.getsource` tokenizes each). The tree is shared: the expander builds new
    statements and never changes it."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    if not isinstance(tree, ast.FunctionDef):
        raise translate.Unsupported(f"{fn} is not a function")
    return tree, _stored(tree)


def _assign(targets: list[ast.expr], value: ast.expr) -> list[ast.stmt]:
    """`targets = value`, a tuple assigned element by element (through fresh names when a
    target is read on the right)."""
    if len(targets) == 1:
        return [ast.Assign(targets, value)]
    if not isinstance(value, ast.Tuple) or len(value.elts) != len(targets):
        raise translate.Unsupported("tuple assignment of a non-tuple")
    read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    written = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if not read & written:
        return [ast.Assign([t], v) for t, v in zip(targets, value.elts)]
    temps = [f"_t{id(value)}_{k}" for k in range(len(targets))]
    first = [ast.Assign([ast.Name(n, ast.Store())], v) for n, v in zip(temps, value.elts)]
    return first + [ast.Assign([t], ast.Name(n, ast.Load())) for t, n in zip(targets, temps)]


def _passed_only(body: list) -> set[str]:
    """The names `body` reads only as whole arguments of calls (a complex array that a batched
    product hands to BLAS, `bgemm.strided_block`, or to the function running its parts): a
    routine may take such arrays of a complex dtype, as it does no complex arithmetic."""
    loads: dict[str, int] = {}
    passed: dict[str, int] = {}
    for st in body:
        for node in translate.walk(st):
            if isinstance(node, ast.Name):
                loads[node.id] = loads.get(node.id, 0) + 1
            elif isinstance(node, ast.Call):
                for arg in node.args:
                    if isinstance(arg, ast.Name):
                        passed[arg.id] = passed.get(arg.id, 0) + 1
    return {name for name, count in passed.items() if loads.get(name) == count}


class Routine(translate.Nest):
    """A library function as one LLVM function of numba's calling convention.

    Args:
      fn: the library function (its source and globals are read).
      signature: its numba argument types (flat C arrays, int64 arrays, scalars).
    """

    reciprocals = False  # the library's flags have no `arcp`

    def __init__(self, fn, signature: tuple):
        translate.Expressions.__init__(self, {}, None, vecmath)
        self.name = fn.__name__
        params, self.body = _Expander().function(fn)
        if len(params) != len(signature):
            raise translate.Unsupported(f"{fn.__name__} takes {len(params)} arguments")
        self.signature = tuple(signature)
        self.params = list(zip(params, signature))
        passed = _passed_only(self.body)
        for name, ty in self.params:
            dtype = np.dtype(str(ty.dtype if isinstance(ty, types.Array) else ty))
            complex_ = isinstance(translate.scalar_type(dtype), types.Complex)
            if complex_ and not (isinstance(ty, types.Array) and name in passed):
                raise translate.Unsupported(f"complex {name}")  # routines are real code
            self.env[name] = ty
        self.types: dict[str, types.Type] = {}
        self._body(self.body)  # types every name (no builder yet)

    def function(self, module: ir.Module, symbol: str) -> ir.Function:
        """Lowers the routine into `module` as `symbol` (numba's calling convention)."""
        _, target = translate.contexts()
        fnty = target.call_conv.get_function_type(types.none, self.signature)
        fn = ir.Function(module, fnty, symbol)
        fn.attributes.add("nounwind")
        self.builder = ir.IRBuilder(fn.append_basic_block("entry"))
        self.slots, self.pointers, self.lengths, self.allocated = {}, {}, {}, []
        values = target.call_conv.decode_arguments(self.builder, self.signature, fn)
        with target.push_code_library(translate._scratch_library()):
            for (name, ty), value in zip(self.params, values):
                if isinstance(ty, types.Array):
                    arr = array_struct(ty)(target, self.builder, value)
                    self._bind(name, arr.data, arr.nitems)
                else:
                    self.builder.store(value, self._slot(name, ty))
            self._body(self.body)
        scratch = translate._scratch_library()
        if scratch._linking_libraries:  # an implementation called code numba compiled
            scratch._linking_libraries.clear()
            raise translate.Unsupported(f"{self.name} calls compiled code")
        free = _libc(module, "free", ir.VoidType(), [cgutils.voidptr_t])
        for held in self.allocated:
            self.builder.call(free, [self.builder.load(held)])
        target.call_conv.return_value(self.builder, target.get_dummy_value())
        fastmathpass.rewrite_module(module, _FASTMATH)
        settle.settle(module, optimized_reassoc=True)  # only `skinny_columns` has reassoc
        return fn

    # arrays: a typed pointer and a length each, in allocas (a view defined in a loop is read
    # there); numba's BLAS emitter reads the element type off the pointer
    def _bind(self, name: str, pointer, length) -> None:
        b = self.builder
        _, target = translate.contexts()
        typed = target.get_data_type(self.env[name].dtype).as_pointer()
        if name not in self.pointers:
            with b.goto_entry_block():
                self.pointers[name] = b.alloca(typed, name=f"{name}.data")
                self.lengths[name] = b.alloca(_I64, name=f"{name}.n")
        b.store(b.bitcast(pointer, typed), self.pointers[name])
        b.store(length, self.lengths[name])

    def array_pointer(self, name: str):
        slot = self.pointers[name]
        return self.builder.load(slot, typ=slot.allocated_type)

    def _array_type(self, name: str) -> types.Array:
        ty = self.env.get(name)
        if not isinstance(ty, types.Array):
            raise translate.Unsupported(f"{name} is not an array")
        return ty

    def _define_array(self, name: str, ty: types.Array) -> None:
        if self.builder is None:
            before = self.env.get(name)
            if before is not None and before != ty:
                raise translate.Unsupported(f"{name} is {before} and {ty}")
            if name in self.types:
                raise translate.Unsupported(f"{name} is a scalar and an array")
            self.env[name] = ty

    def _array_expr(self, node: ast.expr) -> tuple[types.Array, object, object]:
        """(type, data pointer, length) of an array expression: a name or `segment(...)`."""
        if isinstance(node, ast.Name):
            ty = self._array_type(node.id)
            if self.builder is None:
                return ty, None, None
            n = self.builder.load(self.lengths[node.id], typ=_I64)
            return ty, self.array_pointer(node.id), n
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "segment":
            base, start, count = node.args
            ty, ptr, _ = self._array_expr(base)
            start, count = self.expr(start), self.expr(count)
            if self.builder is None:
                return ty, None, None
            _, target = translate.contexts()
            i = self.cast(start, types.int64)
            data = self.builder.gep(ptr, [i], source_etype=target.get_data_type(ty.dtype))
            return ty, data, self.cast(count, types.int64)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            part = node.slice  # a[lo:hi], 0 <= lo <= hi <= len(a) (unchecked): a segment
            if part.step is not None or part.lower is None or part.upper is None:
                raise translate.Unsupported(f"slice {ast.unparse(node)}")
            count = ast.BinOp(part.upper, ast.Sub(), part.lower)
            return self._array_expr(
                ast.Call(ast.Name("segment", ast.Load()), [node.value, part.lower, count])
            )
        if isinstance(node, ast.IfExp):  # a view picked by a condition: both are computed
            cond = self.expr(node.test)
            a, b = self._array_expr(node.body), self._array_expr(node.orelse)
            if a[0] != b[0]:
                raise translate.Unsupported(f"{ast.unparse(node)} of {a[0]} and {b[0]}")
            if self.builder is None:
                return a[0], None, None
            c = self.cast(cond, types.boolean)
            return a[0], self.builder.select(c, a[1], b[1]), self.builder.select(c, a[2], b[2])
        raise translate.Unsupported(f"array expression {ast.unparse(node)}")

    def _stmt_Assign(self, node: ast.Assign) -> None:
        (target,) = node.targets
        if isinstance(target, ast.Subscript):
            call = ast.Call(
                ast.Attribute(ast.Name("rt", ast.Load()), "st", ast.Load()),
                [target.value, target.slice, node.value],
                [],
            )
            return self._stmt_Expr(ast.Expr(call))
        value = node.value
        name = target.id
        if isinstance(value, ast.Call) and ast.unparse(value.func) in _ALLOCATIONS:
            return self._allocate(name, value)
        if self._is_array(value):
            ty, ptr, n = self._array_expr(value)
            self._define_array(name, ty)
            if self.builder is not None:
                self._bind(name, ptr, n)
            return None
        if isinstance(self.env.get(name), types.Array):
            raise translate.Unsupported(f"array {name} reassigned")
        return super()._stmt_Assign(node)

    def _allocate(self, name: str, call: ast.Call) -> None:
        """`name = rt.empty((n,), dtype)`, `np.empty(n, dtype)` or `rt.full((n,), value,
        dtype)`: malloc'ed, freed on return (or when the same statement allocates again, in a
        loop)."""
        shape, *rest = call.args
        if isinstance(shape, ast.Tuple):
            if len(shape.elts) != 1:
                raise translate.Unsupported("an allocation of other than one axis")
            shape = shape.elts[0]
        dtype = self._dtype(rest[-1])
        ty = types.Array(dtype, 1, "C")
        self._define_array(name, ty)
        n = self.expr(shape)
        fill = self.expr(rest[0]) if len(rest) == 2 else None
        if self.builder is None:
            return
        _, target = translate.contexts()
        b = self.builder
        with b.goto_entry_block():
            held = b.alloca(cgutils.voidptr_t, name=f"{name}.held")
            b.store(ir.Constant(cgutils.voidptr_t, None), held)
        self.allocated.append(held)
        count = self.cast(n, types.int64)
        size = b.mul(count, ir.Constant(_I64, target.get_abi_sizeof(target.get_data_type(dtype))))
        b.call(_libc(b.module, "free", ir.VoidType(), [cgutils.voidptr_t]), [b.load(held)])
        ptr = b.call(_libc(b.module, "malloc", cgutils.voidptr_t, [_I64]), [size])
        b.store(ptr, held)
        self._bind(name, ptr, count)
        if fill is not None:
            value = self.cast(fill, dtype)
            if dtype == types.boolean:
                value = b.zext(value, ir.IntType(8))
            data = self.array_pointer(name)
            with cgutils.for_range(b, count) as loop:
                b.store(value, b.gep(data, [loop.index]))

    def _dtype(self, node: ast.expr) -> types.Type:
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "dtype"
            and isinstance(node.value, ast.Name)
        ):
            return self._array_type(node.value.id).dtype
        if isinstance(node, ast.Attribute) and ast.unparse(node.value) == "np":
            return translate.scalar_type(np.dtype(node.attr))
        raise translate.Unsupported(f"dtype {ast.unparse(node)}")

    def _stmt_Expr(self, node: ast.Expr) -> None:
        call = node.value
        fn = ast.unparse(call.func) if isinstance(call, ast.Call) else None
        if fn == "copy":
            return self._copy(call)
        if fn == "zero":
            return self._zero(call)
        if fn == "product":
            return self._product(call)
        if fn in _CALLS:
            self._slot_call(_CALLS[fn], call.args)
            return None
        if fn == "rt.st":
            array, index, value = call.args
            if isinstance(array, ast.Name) and isinstance(self.env.get(array.id), types.Array):
                return super()._stmt_Expr(node)
        raise translate.Unsupported(ast.unparse(node))

    def _slot_call(self, typer, args: list[ast.expr]):
        """A call of an intrinsic (another library function through its slot, or one of
        numba's): the arguments as the numba values it takes (arrays as flat array structs, a
        tuple literal as a tuple of int64s), lowered by its own code generator; its (type,
        value)."""
        tys, values = [], []
        for arg in args:
            if isinstance(arg, ast.Tuple):
                items = [self.expr(e) for e in arg.elts]
                ty = types.UniTuple(types.int64, len(items))
                value = None
                if self.builder is not None:
                    _, target = translate.contexts()
                    ints = [self.cast(v, types.int64) for v in items]
                    value = target.make_tuple(self.builder, ty, ints)
            elif self._is_array(arg):
                ty, ptr, n = self._array_expr(arg)
                value = None if self.builder is None else self._array_value(ty, ptr, n)
            else:
                ty, value = self.expr(arg)
                ty = types.unliteral(ty)
            tys.append(ty)
            values.append(value)
        try:
            sig, codegen = typer(*tys)
        except (TypingError, TypeError) as e:  # TypeError: an intrinsic that does not apply
            raise translate.Unsupported(str(e)) from None
        ret = sig.return_type
        if ret != types.none and not isinstance(ret, (types.Number, types.Boolean)):
            raise translate.Unsupported(f"an intrinsic returning {ret}")
        if self.builder is None:
            return ret, None
        _, target = translate.contexts()
        return ret, codegen(target, self.builder, sig, values)

    def _stmt_For(self, node: ast.For) -> None:
        if translate.is_prange(node):
            return self._threaded(node)
        return super()._stmt_For(node)

    def _threaded(self, node: ast.For) -> None:
        """`for t in prange(n)`: its body outlined into `<routine>.par<k>(data, lo, hi)`, which
        runs `for t in range(lo, hi)` over the scalars the loop reads (stored in `data` on
        the routine's stack), run on numba's threads by `parallel.emit_for` as numba's
        parfor runs it. Its body may not read arrays, allocate, or assign what the routine
        reads elsewhere (numba's reductions)."""
        it = node.iter
        if len(it.args) > 2 or node.orelse or not isinstance(node.target, ast.Name):
            raise translate.Unsupported("a threaded loop other than prange(a[, b])")
        loop = ast.For(
            node.target, ast.Call(ast.Name("range", ast.Load()), it.args, []), node.body, []
        )
        assigned, read = translate._names(loop)
        if self.builder is None:
            for name in read:
                if isinstance(self.env.get(name), types.Array):
                    raise translate.Unsupported(f"array {name} in a threaded loop")
            calls = {ast.unparse(c.func) for c in ast.walk(loop) if isinstance(c, ast.Call)}
            if calls & set(_ALLOCATIONS):
                raise translate.Unsupported("an allocation in a threaded loop")
            inner = [n for n in assigned if n != node.target.id]  # its own index: a local
            outside = [n for n in inner if n in self.types or n in self.env]
            if outside:
                raise translate.Unsupported(f"{outside} assigned in a threaded loop")
            return super()._stmt_For(loop)
        captured = [n for n in read if n in self.slots and n not in assigned]
        bounds = [self.cast(self.expr(a), types.int64) for a in it.args]
        start, stop = bounds if len(bounds) == 2 else (ir.Constant(_I64, 0), bounds[0])
        b, outer = self.builder, self.slots
        values = [b.load(outer[n], typ=outer[n].allocated_type) for n in captured]
        struct = ir.LiteralStructType([v.type for v in values])
        data = cgutils.alloca_once(b, struct)
        for k, v in enumerate(values):
            b.store(v, cgutils.gep_inbounds(b, data, 0, k))
        fn = b.function
        body = ir.Function(
            fn.module, parallel.body_type(), f"{fn.name}.par{len(fn.module.globals)}"
        )
        body.linkage = "internal"
        parallel.emit_for(b, body, b.bitcast(data, cgutils.voidptr_t), start, stop)
        self.builder = inner = ir.IRBuilder(body.append_basic_block("entry"))
        self.slots = {}
        at = inner.bitcast(body.args[0], struct.as_pointer())
        for k, name in enumerate(captured):
            field = inner.load(cgutils.gep_inbounds(inner, at, 0, k), typ=struct.elements[k])
            inner.store(field, self._slot(name, self.env[name]))
        lo, hi = (f"_par_{k}_{len(fn.module.globals)}" for k in ("lo", "hi"))
        for name, value in ((lo, body.args[1]), (hi, body.args[2])):
            self.env[name] = types.int64
            inner.store(value, self._slot(name, types.int64))
        bound = [ast.Name(lo, ast.Load()), ast.Name(hi, ast.Load())]
        super()._stmt_For(
            ast.For(node.target, ast.Call(ast.Name("range", ast.Load()), bound, []), node.body, [])
        )
        self.builder.ret_void()
        self.builder, self.slots = b, outer

    def _is_array(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return isinstance(self.env.get(node.id), types.Array)
        if isinstance(node, ast.IfExp):  # `out if t == 0 else partial[...]`
            return self._is_array(node.body) and self._is_array(node.orelse)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self._is_array(node.value)
        return isinstance(node, ast.Call) and ast.unparse(node.func) == "segment"

    def _array_value(self, ty: types.Array, ptr, n):
        """The numba value of flat C array `ty` at `ptr` of `n` elements (no owner)."""
        _, target = translate.contexts()
        arr = array_struct(ty)(target, self.builder)
        itemsize = target.get_constant(types.intp, target.get_abi_sizeof(ptr.type.pointee))
        populate_array(
            arr,
            data=ptr,
            shape=[n],
            strides=[itemsize],
            itemsize=itemsize,
            meminfo=None,
            parent=None,
        )
        return arr._getvalue()

    def _span(self, array: ast.expr, start: ast.expr, count):
        ty, ptr, _ = self._array_expr(array)
        start = self.expr(start)
        if self.builder is None:
            return ty, None, None
        _, target = translate.contexts()
        item = target.get_data_type(ty.dtype)
        at = self.builder.gep(ptr, [self.cast(start, types.int64)], source_etype=item)
        size = self.builder.mul(count, ir.Constant(_I64, target.get_abi_sizeof(item)))
        return ty, at, size

    def _copy(self, call: ast.Call) -> None:
        dst, at, src, start, n = call.args
        count = self.expr(n)
        count = self.cast(count, types.int64) if self.builder else None
        tdst, to, size = self._span(dst, at, count)
        tsrc, frm, _ = self._span(src, start, count)
        if tdst.dtype != tsrc.dtype:
            raise translate.Unsupported("copy between dtypes")
        if self.builder is not None:
            cgutils.raw_memcpy(self.builder, to, frm, size, 1)

    def _zero(self, call: ast.Call) -> None:
        array, start, stop = call.args
        lo, hi = self.expr(start), self.expr(stop)
        count = (
            self.builder.sub(self.cast(hi, types.int64), self.cast(lo, types.int64))
            if self.builder
            else None
        )
        _, ptr, size = self._span(array, start, count)
        if self.builder is not None:
            cgutils.memset(self.builder, ptr, size, 0)

    def _product(self, call: ast.Call) -> None:
        """`product(a, b, out, (m, k, n), (a_f, b_f), c0, c1)`: one BLAS call (`blocks.product`)."""
        a, b, out, dims, fortran, c0, c1 = call.args
        arrays = [self._array_expr(x) for x in (a, b, out)]
        dtype = arrays[2][0].dtype
        if dtype not in _BLAS or any(t.dtype != dtype for t, _, _ in arrays):
            raise translate.Unsupported(f"a product of {dtype}")
        if not isinstance(dims, ast.Tuple) or not isinstance(fortran, ast.Tuple):
            raise translate.Unsupported("product's sizes and layouts are tuples")
        sizes = [self.expr(d) for d in dims.elts]
        flags = [self.expr(f) for f in fortran.elts]
        cols = [self.expr(c) for c in (c0, c1)]
        if self.builder is None:
            return
        _, target = translate.contexts()
        ensure_blas()
        ints = [self.cast(v, types.int64) for v in sizes]
        bits = [
            self.builder.icmp_signed("!=", self.cast(f, types.int64), ir.Constant(_I64, 0))
            for f in flags
        ]
        ptrs = [p for _, p, _ in arrays]
        emit_gemm(
            target,
            self.builder,
            dtype,
            ptrs,
            ints,
            bits,
            (ir.Constant(_I64, 0), ints[0]),
            [self.cast(c, types.int64) for c in cols],
        )

    # expressions
    def _Tuple(self, node: ast.Tuple):
        """A tuple of integers of one type (`dims = (m, k, n)`)."""
        items = [self.expr(e) for e in node.elts]
        ty = types.unliteral(items[0][0]) if items else None
        if ty not in translate.INTS or any(types.unliteral(t) != ty for t, _ in items):
            raise translate.Unsupported(f"tuple {ast.unparse(node)}")
        tup = types.UniTuple(ty, len(items))
        if self.builder is None:
            return tup, None
        _, target = translate.contexts()
        return tup, target.make_tuple(self.builder, tup, [v for _, v in items])

    def _Subscript(self, node: ast.Subscript):
        if isinstance(node.value, ast.Name) and isinstance(
            self.env.get(node.value.id), types.Array
        ):
            return self._load(ast.Call(None, [node.value, node.slice], []))
        value, index = node.value, node.slice
        if (
            isinstance(value, ast.Attribute)
            and value.attr == "shape"
            and isinstance(index, ast.Constant)
            and index.value == 0
        ):  # the length of a flat array
            _, _, n = self._array_expr(value.value)
            return types.int64, n
        return super()._Subscript(node)

    def _BoolOp(self, node: ast.BoolOp):
        """`a and b`, `a or b` of booleans, short-circuiting."""
        first = self.expr(node.values[0])
        if first[0] != types.boolean:
            raise translate.Unsupported("and/or of non-booleans")
        if len(node.values) > 2:
            rest = ast.BoolOp(node.op, node.values[1:])
        else:
            rest = node.values[1]
        if self.builder is None:
            if self.expr(rest)[0] != types.boolean:
                raise translate.Unsupported("and/or of non-booleans")
            return types.boolean, None
        b = self.builder
        is_and = isinstance(node.op, ast.And)
        start = b.block
        other = b.append_basic_block("bool.rhs")
        done = b.append_basic_block("bool.done")
        if is_and:
            b.cbranch(first[1], other, done)
        else:
            b.cbranch(first[1], done, other)
        b.position_at_end(other)
        second = self.expr(rest)
        if second[0] != types.boolean:
            raise translate.Unsupported("and/or of non-booleans")
        end = b.block
        b.branch(done)
        b.position_at_end(done)
        phi = b.phi(ir.IntType(1))
        phi.add_incoming(first[1], start)
        phi.add_incoming(second[1], end)
        return types.boolean, phi

    def _Call(self, node: ast.Call):
        fn = ast.unparse(node.func)
        if fn == "len":
            (arg,) = node.args
            ty, _, n = self._array_expr(arg)
            return types.int64, n
        if fn == "zero_of":
            ty = self._array_type(node.args[0].id).dtype
            return ty, self._constant(0, ty) if self.builder else None
        if fn == "extremum":
            return self._extremum_of(*node.args)
        if fn in _CALLS:  # an intrinsic's value (`rt.threads()`, `rt.dynamic(n)`, ...)
            return self._slot_call(_CALLS[fn], node.args)
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "type"
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "dtype"
        ):  # `a.dtype.type(v)`: v as a's dtype
            ty = self._array_type(ast.unparse(func.value.value)).dtype
            (arg,) = node.args
            value = self.expr(arg)
            return ty, self.cast(value, ty) if self.builder else None
        return super()._Call(node)

    def _extremum_of(self, a: ast.expr, b: ast.expr, kind: ast.expr):
        """`windows.extremum`: max (kind MAX) or min, NaN-propagating for floats."""
        ty = types.unliteral(self.expr(a)[0])
        if isinstance(ty, types.Float):
            hi = ast.Call(
                ast.Attribute(ast.Name("vm", ast.Load()), "maximum", ast.Load()), [a, b], []
            )
            lo = ast.Call(
                ast.Attribute(ast.Name("vm", ast.Load()), "minimum", ast.Load()), [a, b], []
            )
        elif ty == types.boolean:
            hi, lo = ast.BinOp(a, ast.BitOr(), b), ast.BinOp(a, ast.BitAnd(), b)
        else:
            hi = ast.IfExp(ast.Compare(b, [ast.Gt()], [a]), b, a)
            lo = ast.IfExp(ast.Compare(b, [ast.Lt()], [a]), b, a)
        test = ast.Compare(kind, [ast.Eq()], [ast.Constant(_EXTREMUM["max"])])
        return self.expr(ast.IfExp(test, hi, lo))


def _libc(module: ir.Module, name: str, ret: ir.Type, args: list) -> ir.Function:
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(ret, args), name)
    return fn


def _version() -> str:
    h = hashlib.sha256(
        f"{numba.__version__} {llvmlite.__version__} {llvm.llvm_version_info}".encode()
    )
    h.update(disk_cache.fingerprint().encode())  # the runtime and vecmath sources
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


_VERSION = _version()


_KEEP: list = []  # the code libraries whose functions slots point to: alive for the process


def load(fn, signature: tuple, version: str, cached_only: bool = False) -> tuple[int, bool, bool]:
    """Library function `fn` compiled as a routine for `signature`, from the disk cache or
    compiled now (and cached): its address, whether it was compiled and whether it is quick-tier
    code (`target.quick_tier`: compiled so, or left by a compile worker; never cached as the
    optimized code). `version` hashes the library's sources. Raises `translate.Unsupported`
    when the function uses a construct this module does not lower (the caller compiles it with
    numba). `cached_only`: the optimized code from the disk cache only (address 0 if it is not
    there).
    """
    ident = f"{_VERSION}{version}{fn.__name__}{signature}"
    key = hashlib.sha256(ident.encode()).hexdigest()[:40]
    sym = f"numbax_routine_{fn.__name__}_{key[:16]}"
    folder = cache_files.secure_dir(cache_files.cache_dir())
    path = folder / f"numbax_jit_{key}.routine"
    shared = folder / f"numbax_jit_{key}.{target.QUICK_SUFFIX}routine"
    state = cache_files.read_pickled(path)
    if isinstance(state, str):  # a function the translator does not lower, and why
        raise translate.Unsupported(state)
    library = _library_of(state, cpu_target.target_context.codegen())
    quick = False
    if library is None and cached_only:
        return 0, False, False
    if library is None and target.is_quick():  # quick code a compile worker left
        library = _library_of(cache_files.read_pickled(shared), target.quick_codegen())
        quick = library is not None
    compiled = library is None
    if compiled:
        try:
            library = _compile(fn, signature, sym)
        except translate.Unsupported as e:
            # remembered, so that later processes (warm first calls) do not translate it again
            _write(path, str(e)[:300], fn.__name__)
            raise
        quick = target.is_quick()
        if not quick or target.shares_quick():
            _write(shared if quick else path, library.serialize_using_object_code(), fn.__name__)
        if not quick:  # the quick code it replaces is loaded no more
            with contextlib.suppress(OSError):
                cache_files.remove(shared)
    _KEEP.append(library)
    return library.get_pointer_to_function(sym), compiled, quick


def _library_of(state, gen):
    """The code library of cached object code `state` loaded by code generator `gen`, or None
    (no state, or another LLVM's)."""
    if state is None or isinstance(state, str):
        return None
    with target.callbacks_raise():  # an interrupt while it loads is raised, not dropped
        try:
            return gen.unserialize_library(state)
        except Exception:
            return None


def _write(path, entry, name: str) -> None:
    """Writes cache entry `entry` (best effort)."""
    try:
        cache_files.write_verified(path, pickle.dumps(entry))
    except OSError as e:
        cache_files.warn(f"library routine {name} not cached ({e})")


def _compile(fn, signature: tuple, sym: str):
    module = ir.Module(name=sym)
    Routine(fn, signature).function(module, sym)
    with global_compiler_lock:  # numba's code generator asks for it (re-entrant)
        library = target.codegen().create_library(sym)
        library.enable_object_caching()
        library.add_ir_module(module)
        translate.release(module)
        with target.callbacks_raise():
            library.finalize()
    return library
