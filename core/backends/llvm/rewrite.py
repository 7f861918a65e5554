"""Which loop nests of a generated kernel leave numba: the source-to-source rewrite.

`rewrite(source, types)` reads a generated kernel module (`core/jit/codegen.py`) whose kernel
takes arrays of `types`, types its straight-line code the way numba will (`Expressions` of
`translate.py`, numba's typing context; arrays from `rt.empty`/`rt.full`/`rt.copy` are new and
writable, `rt.reshape` views share their array's buffer) and replaces each top-level loop nest
(`for ... in range(...)` or `prange(...)`) that `translate.Nest` lowers with one call of it:

    _ln0((a0, d4, n_13, n_14))          # a nest without outputs
    acc33, = _ln1((p4, acc33, n_2))     # a nest whose scalars the kernel reads afterwards

declared at module level by `_ln0, _ln1 = ln.load(...)` (`nests.py`). A nest the translator
does not lower, or whose free names the rewrite cannot type, stays as it was; a kernel with no
lowered nest, or with a threaded nest not lowered, is returned unchanged (a kernel's threaded
loops leave numba all together, so a rewritten kernel names no `prange`: its spec spells them
`translate.THREADED_RANGE`). The nest's arrays are `noalias` when every array it writes
is a new array of the kernel (a fresh allocation) that no other array argument of the nest
shares (reading the same array as two names would break it); inputs are never written.

The rewrite lowers each nest to LLVM IR to decide (about a millisecond a nest); `nests.load` in
the same process reuses that IR (`nests.remember`), and the rewritten source is cached on disk
(a verified file beside the kernels', keyed like the nests), so a later process with a warm
cache neither rewrites nor translates.
"""

from __future__ import annotations

import ast
import contextlib

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.compiler_lock import global_compiler_lock

from core.backends.llvm import nests, translate, vecmath
from core.jit import cache_files

_NEW_ARRAYS = ("rt.empty", "rt.full", "rt.copy")
_rewritten: dict[tuple, str] = {}  # (source, types) -> rewritten source, for this process
_originals: dict[str, str] = {}  # rewritten source -> source


def rewrite(source: str, arg_types) -> str:
    """`source` with its lowerable serial loop nests replaced by calls of lean functions.

    Args:
      source: a generated kernel module (`def kernel(...)` at top level).
      arg_types: the kernel's argument types, `(dtype str, ndim)` pairs (`codegen.in_types`).

    Returns:
      The rewritten module source (`source` itself if no nest was lowered).
    """
    memo = (source, tuple(arg_types))
    if memo not in _rewritten:
        new = _from_disk(memo)
        if new is None:
            with global_compiler_lock:  # numba's typing and target contexts
                new = _rewrite(source, arg_types)
            with contextlib.suppress(OSError):
                path = nests.cache_path(nests.key_of(memo), "rewrite")
                cache_files.write_verified(path, b"" if new == source else new.encode())
        _rewritten[memo] = new
        if new != source:
            _originals[new] = source
    return _rewritten[memo]


def _from_disk(memo: tuple) -> str | None:
    """The rewrite of `memo` (source, types) an earlier process left in the disk cache (an
    empty file: the source unchanged), or None."""
    try:
        text = cache_files.read_verified(nests.cache_path(nests.key_of(memo), "rewrite"))
    except (OSError, ValueError):  # missing or damaged: rewrite again
        return None
    return text.decode() if text else memo[0]


def original(source: str) -> str | None:
    """The source that `rewrite` made `source` of in this process (None if it did not)."""
    return _originals.get(source)


def _rewrite(source: str, arg_types) -> str:
    tree = ast.parse(source)
    kernel = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "kernel"), None
    )
    if kernel is None or "\n_ln0" in source:
        return source
    env: dict[str, types.Type] = {}
    roots: dict[str, str] = {}  # array name -> the name of the buffer it views
    fresh: set[str] = set()  # buffers allocated by the kernel
    for arg, (dtype, ndim) in zip(kernel.args.args, arg_types):
        with contextlib.suppress(translate.Unsupported):
            env[arg.arg] = types.Array(translate.scalar_type(dtype), ndim, "C", readonly=True)
        roots[arg.arg] = arg.arg
    spec, calls = [], {}
    emitter = vecmath
    key = nests.key_of((source, tuple(arg_types)))
    modules = []
    uses = [_uses(st) for st in kernel.body]
    runs = _scalar_runs(kernel.body)
    body = dict(enumerate(kernel.body))  # position -> statement, a run as its one-trip nest
    for pos, run in runs.items():
        body[pos] = _one_trip(run)
        for skipped in range(pos + 1, pos + len(run)):
            del body[skipped]
    for pos, st in body.items():
        if _nest(st):
            later = uses[pos + (len(runs[pos]) if pos in runs else 1) :]
            name = nests.symbol(key, len(spec))
            module = ir.Module(name=name)
            lowered = _lower(st, env, roots, fresh, later, emitter, module, name)
            if lowered is not None:
                modules.append(module)
                spec.append(lowered)
                calls[pos] = lowered
                continue
            if translate.is_prange(st):  # threaded loops all leave numba, or none does
                return source
        for each in runs.get(pos, [st]):
            _bind(each, env, roots, fresh, emitter)
    if not spec:
        return source
    nests.remember(key, modules)
    lines = source.split("\n")
    for pos in sorted(calls, reverse=True):
        st = body[pos]
        k = spec.index(calls[pos])
        _, params, _, outputs = calls[pos]
        args = [name for name, *_ in params]
        tup = f"({', '.join(args)},)" if len(args) == 1 else f"({', '.join(args)})"
        call = f"_ln{k}({tup})"
        if outputs:
            call = f"{''.join(n + ', ' for n, _ in outputs)}= {call}"
        indent = " " * st.col_offset
        lines[st.lineno - 1 : st.end_lineno] = [indent + call]
    text = "\n".join(lines)
    names = ", ".join(f"_ln{k}" for k in range(len(spec)))
    declare = (
        "from core.backends.llvm import nests as ln\n"
        f"{names}, = ln.load({key!r}, {tuple(spec)!r})\n\n\n"
    )
    at = 0 if text.startswith("def kernel(") else text.index("\ndef kernel(") + 1
    return text[:at] + declare + text[at:]


def _nest(st: ast.stmt) -> bool:
    """Whether `st` is a loop nest: `for ... in range(...)` or `prange(...)`."""
    it = getattr(st, "iter", None)
    return (
        isinstance(st, ast.For)
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id in ("range", "prange")
    )


def _scalar_runs(body: list[ast.stmt]) -> dict[int, list[ast.stmt]]:
    """The runs of consecutive top-level scalar statements (assignments of scalar expressions,
    `rt.st` stores) that end with a store, by the position of their first statement: the
    element-wise code of arrays of one element, which has no loop (`jit(lambda a: a + 1)` on a
    1-element array), is lowered as a nest of one trip, like a loop's body."""
    runs: dict[int, list[ast.stmt]] = {}
    start = 0
    for pos, st in enumerate([*body, None]):
        if st is not None and _scalar_statement(st):
            continue
        run = body[start:pos]
        while run and not _store(run[-1]):  # assignments after the last store stay the kernel's
            run = run[:-1]
        if run:
            runs[start] = run
        start = pos + 1
    return runs


def _store(st: ast.stmt) -> bool:
    return isinstance(st, ast.Expr) and _call_name(st.value) == "rt.st"


def _scalar_statement(st: ast.stmt) -> bool:
    """Whether top-level `st` is an `rt.st` store or the assignment of a name by an expression
    of scalars (no allocation, view, library or host call)."""
    if _store(st):
        return True
    if not (
        isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
    ):
        return False
    calls = [_call_name(c) for c in ast.walk(st.value) if isinstance(c, ast.Call)]
    return not any(c.startswith(("rt.", "lib.", "hc.")) and c != "rt.ld" for c in calls)


def _one_trip(run: list[ast.stmt]) -> ast.For:
    """The statements of `run` as the body of `for _s in range(1)`, placed where they are."""
    loop = ast.For(
        target=ast.Name("_s", ast.Store()),
        iter=ast.Call(ast.Name("range", ast.Load()), [ast.Constant(1)], []),
        body=run,
        orelse=[],
    )
    loop.lineno, loop.col_offset = run[0].lineno, run[0].col_offset
    loop.end_lineno, loop.end_col_offset = run[-1].end_lineno, run[-1].end_col_offset
    return loop


def _lower(st, env, roots, fresh, later, emitter, module, name):
    """The spec entry of nest `st` (see `nests.load`), its function built into `module`; None
    if it stays numba code (the environment then forgets what it assigns)."""
    assigned, _ = translate._names(st)
    outputs = [n for n in assigned if _live(n, later)]
    try:
        nest = translate.Nest(st, env, outputs, emitter)
        written = {
            c.args[0].id
            for c in ast.walk(st)
            if isinstance(c, ast.Call) and ast.unparse(c.func) == "rt.st"
        }
        arrays = [name for name, _, kind in nest.params if kind == "a"]
        shared = [roots.get(a, a) for a in arrays]
        noalias = all(
            roots.get(w, w) in fresh and shared.count(roots.get(w, w)) == 1 for w in written
        )
        nest.function(module, name, noalias)
    except translate.Unsupported:
        for n in assigned:
            env.pop(n, None)
        return None
    params = []
    for pname, ty, kind in nest.params:
        if kind == "a":
            params.append((pname, "a", str(np.dtype(str(ty.dtype))), ty.mutable))
        elif kind == "s":
            params.append((pname, "s", str(np.dtype(str(ty))), False))
    outs = tuple((n, str(np.dtype(str(nest.types[n])))) for n in outputs)
    for n in assigned:
        env.pop(n, None)
    for n in outputs:
        env[n] = nest.types[n]
    text = ast.unparse(st)
    if translate.is_prange(st):  # spelled so that the kernel's source names no `prange`
        text = text.replace("prange(", f"{translate.THREADED_RANGE}(", 1)
    return (text, tuple(params), noalias, outs)


def _uses(st: ast.stmt) -> tuple[set[str], str | None, bool]:
    """What statement `st` does with names: those it reads, the one it assigns first (a loop
    variable, or the target of a plain assignment), and whether that read of the name it
    assigns can come first (a loop's bounds, an assignment's value)."""
    reads = {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if isinstance(st, ast.For) and isinstance(st.target, ast.Name):
        name = st.target.id
        return reads, name, any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(st.iter))
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        name = st.targets[0].id
        return reads, name, name in reads
    return reads, None, True


def _live(name: str, later: list[tuple]) -> bool:
    """Whether the kernel may read `name` in the statements after a nest (their `_uses`) before
    assigning it (a loop variable or a plain assignment that does not read it ends its life)."""
    for reads, first, read_first in later:
        if first == name:
            return read_first
        if name in reads:
            return True
    return False


def _bind(st: ast.stmt, env: dict, roots: dict, fresh: set, emitter) -> None:
    """Records what top-level statement `st` (not a lowered nest) defines: the types of the
    names it assigns, or forgets them where it cannot tell."""
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        name = st.targets[0].id
        env.pop(name, None)
        roots[name] = name
        fresh.discard(name)
        ty = _array_type(st.value, env, roots, name)
        if ty is None:
            try:
                ty, _ = translate.Expressions(env, None, emitter).expr(st.value)
            except translate.Unsupported:
                return
        elif _call_name(st.value) in _NEW_ARRAYS:
            fresh.add(name)
        env[name] = types.unliteral(ty)
        return
    for node in ast.walk(st):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            env.pop(node.id, None)
            roots[node.id] = node.id
            fresh.discard(node.id)


def _call_name(node: ast.AST) -> str:
    return ast.unparse(node.func) if isinstance(node, ast.Call) else ""


def _array_type(value: ast.AST, env: dict, roots: dict, name: str) -> types.Array | None:
    """The type of the array an `rt.empty/full/copy/reshape` call makes (None for others)."""
    fn = _call_name(value)
    if fn not in (*_NEW_ARRAYS, "rt.reshape"):
        return None
    try:
        if fn in ("rt.empty", "rt.full"):
            shape, dtype = value.args[0], value.args[-1]
            if not isinstance(shape, ast.Tuple) or not ast.unparse(dtype).startswith("np."):
                return None
            dt = translate.scalar_type(ast.unparse(dtype)[3:].replace("bool_", "bool"))
            return types.Array(dt, len(shape.elts), "C")
        src = value.args[0]
        if not isinstance(src, ast.Name) or not isinstance(env.get(src.id), types.Array):
            return None
        arr = env[src.id]
        if fn == "rt.copy":
            return types.Array(arr.dtype, arr.ndim, "C")
        shape = value.args[1]
        if not isinstance(shape, ast.Tuple):
            return None
        roots[name] = roots.get(src.id, src.id)
        return types.Array(arr.dtype, len(shape.elts), "C", readonly=not arr.mutable)
    except translate.Unsupported:
        return None
