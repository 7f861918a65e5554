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

A loop that is not a nest but a step of a `scan` or `while_loop` (its body allocates, takes
views, calls the library) is a step loop: its own nests are lowered the same way and the loop
stays in the kernel's source for `shells.py` to run (`_State`); a threaded one is respelled
`translate.THREADED_RANGE`, so such a kernel runs as a shell or, where it cannot, as numba's
kernel of the source it was generated as (`threaded_steps`, `core/jit/codegen.py`).

Two constructs of the rules are written in the translator's language first. Element accesses
`a[i, j, k]` (argmax/argmin's, the cumulative reductions', the FFT's copies, a sort's gathers)
become `rt.ld(a, (i * n1 + j) * n2 + k)` and `a[...] = v` `rt.st(a, flat, v)`, where `a` has
one dimension or a shape the rewrite saw it made with (`rt.empty/full/reshape/copy`, of names
not assigned since: `_Names.shapes`), in nests and in the kernel's own statements alike
(`_flattened`). A sort's loop over rows (`np.arange` and `np.argsort(..., kind='mergesort')`
per key) becomes the allocation of its permutation and workspace and a nest that sorts the
permutation by a stable merge sort written out in the language (`_sorting`, `_ARGSORT`): a
stable sort has one result, so the bits are numba's mergesort's.

A loop the rewrite leaves to numba is noted with the translator's reason (`why_not`: the
compile log prints it, `config.log_compiles`).

The rewrite lowers each nest to LLVM IR to decide (about a millisecond a nest); `nests.load` in
the same process reuses that IR (`nests.remember`), and the rewritten source is cached on disk
(a verified file beside the kernels', keyed like the nests), so a later process with a warm
cache neither rewrites nor translates.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import re

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.compiler_lock import global_compiler_lock

from core.backends.llvm import nests, translate, vecmath
from core.jit import cache_files

_NEW_ARRAYS = ("rt.empty", "rt.full", "rt.copy")
_rewritten: dict[tuple, str] = {}  # (source, types) -> rewritten source, for this process
_originals: dict[str, str] = {}  # rewritten source -> source
# rewritten source -> why the first loop nest left to numba was (`why_not`), in this process
_why: dict[str, str] = {}


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
        key, why = nests.key_of(memo), None
        new = _from_disk(memo)
        if new is None:
            with global_compiler_lock:  # numba's typing and target contexts
                new, why = _rewrite(source, arg_types)
            with contextlib.suppress(OSError):
                if why:  # for the compile log of a later process (`why_not`)
                    cache_files.write_verified(nests.cache_path(key, "why"), why.encode())
                path = nests.cache_path(key, "rewrite")
                cache_files.write_verified(path, b"" if new == source else new.encode())
        else:
            with contextlib.suppress(OSError, ValueError):  # none: every nest was lowered
                why = cache_files.read_verified(nests.cache_path(key, "why")).decode()
        if why:
            _why[new] = why
        _rewritten[memo] = new
        if new != source:
            _originals[new] = source
    return _rewritten[memo]


def cached(source: str, arg_types) -> bool:
    """Whether `rewrite(source, arg_types)` has its answer at hand (made in this process, or
    in the disk cache): a kernel of a process that compiles it anew has neither."""
    memo = (source, tuple(arg_types))
    return memo in _rewritten or nests.cache_path(nests.key_of(memo), "rewrite").exists()


def _from_disk(memo: tuple) -> str | None:
    """The rewrite of `memo` (source, types) an earlier process left in the disk cache (an
    empty file: the source unchanged), or None."""
    try:
        text = cache_files.read_verified(nests.cache_path(nests.key_of(memo), "rewrite"))
    except (OSError, ValueError):  # missing or damaged: rewrite again
        return None
    return text.decode() if text else memo[0]


def why_not(source: str) -> str | None:
    """Why the first loop nest of kernel `source` (a rewrite's output, made in this process or
    read from the disk cache) that stays numba code was not lowered: its line and the
    translator's reason."""
    return _why.get(source)


def original(source: str) -> str | None:
    """The source that `rewrite` made `source` of in this process (None if it did not)."""
    return _originals.get(source)


def _rewrite(source: str, arg_types) -> tuple[str, str | None]:
    """The rewritten source and why its first nest left to numba was (None if none was)."""
    tree = ast.parse(source)
    kernel = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "kernel"), None
    )
    if kernel is None or "\n_ln0" in source:
        return source, None
    env: dict[str, types.Type] = {}
    roots: dict[str, str] = {}  # array name -> the name of the buffer it views
    fresh: set[str] = set()  # buffers allocated by the kernel
    for arg, (dtype, ndim) in zip(kernel.args.args, arg_types):
        with contextlib.suppress(translate.Unsupported):
            env[arg.arg] = types.Array(translate.scalar_type(dtype), ndim, "C", readonly=True)
        roots[arg.arg] = arg.arg
    state = _State(nests.key_of((source, tuple(arg_types))))
    if not state.block(kernel.body, _Names(env, roots, fresh), [], top=True) or not state.spec:
        return source, state.why
    nests.remember(state.key, state.modules)
    lines = source.split("\n")
    for st in state.threaded:  # a threaded step loop: spelled as the nests spell theirs
        line = lines[st.lineno - 1]
        lines[st.lineno - 1] = line.replace(" prange(", f" {translate.THREADED_RANGE}(", 1)
    edits = [(st, [ast.unparse(new)]) for st, new in state.edits]
    for st, k in state.calls:
        _, params, _, outputs = state.spec[k]
        args = [name for name, *_ in params]
        tup = f"({', '.join(args)},)" if len(args) == 1 else f"({', '.join(args)})"
        call = f"_ln{k}({tup})"
        if outputs:
            call = f"{''.join(n + ', ' for n, _ in outputs)}= {call}"
        edits.append((st, [*state.before.get(k, []), call]))
    for st, texts in sorted(edits, key=lambda e: -e[0].lineno):
        lines[st.lineno - 1 : st.end_lineno] = [" " * st.col_offset + t for t in texts]
    text = "\n".join(lines)
    names = ", ".join(f"_ln{k}" for k in range(len(state.spec)))
    declare = (
        "from core.backends.llvm import nests as ln\n"
        f"{names}, = ln.load({state.key!r}, {tuple(state.spec)!r})\n\n\n"
    )
    at = 0 if text.startswith("def kernel(") else text.index("\ndef kernel(") + 1
    return text[:at] + declare + text[at:], state.why


def threaded_steps(source: str) -> bool:
    """Whether kernel `source` (a rewrite's output) has a threaded step loop (see `_State`),
    which only shells run: numba compiles the source it was rewritten from."""
    return re.search(rf"^\s+for \w+ in {translate.THREADED_RANGE}\(", source, re.M) is not None


class _NotStep(Exception):
    """A loop is not a step loop (`_State`): its body does what a shell cannot."""


class _Names:
    """What the rewrite knows of the kernel's names at a point of its code: their types
    (`env`), the buffer each array views (`roots`), the buffers the kernel allocated (`fresh`),
    for an array a loop carries from one iteration to the next, every buffer it may view
    there (`carried`), and the shape of each array made by `rt.empty/full/reshape/copy`
    (`shapes`: its dimensions' expressions, of names not assigned since)."""

    def __init__(
        self,
        env: dict,
        roots: dict,
        fresh: set,
        carried: dict | None = None,
        shapes: dict | None = None,
    ):
        self.env, self.roots, self.fresh = env, roots, fresh
        self.carried: dict[str, set] = carried if carried is not None else {}
        self.shapes: dict[str, tuple] = shapes if shapes is not None else {}

    def buffers(self, name: str) -> set:
        """The buffers array `name` may view."""
        return self.carried.get(name) or {self.roots.get(name, name)}


class _State:
    """The nests a rewrite lowers, and where.

    Top-level loop nests are lowered as they are. A loop that is not a nest (its body
    allocates, takes views, calls the library: a step of a `scan`, `core/backends/numba/rules/
    control_flow/scan.py`) is a step loop: its body is a block of the kernel's language whose
    own nests are lowered the same way (a serial loop at any depth; a threaded one, `prange`,
    at the top only, respelled `THREADED_RANGE` so that the kernel's source names no `prange`:
    `core/backends/llvm/shells.py` runs it, numba compiles the kernel as generated). Names a
    step loop assigns are known after it only if they were before, with the same type; an
    array it carries from one iteration to the next may view any buffer it is bound to in the
    loop (`_Names.carried`), and its nests' arrays are noalias only where none of those can be
    a buffer they write.
    """

    def __init__(self, key: str):
        self.key = key
        self.spec: list = []
        self.modules: list = []
        self.calls: list = []  # (statement, nest index)
        self.edits: list = []  # (statement, its element accesses flattened: `_flattened`)
        self.before: dict = {}  # nest index -> the kernel's statements before its call
        self.threaded: list = []  # threaded step loops
        self.dry = False  # binding names only (`_step`'s first pass)
        self.why: str | None = None  # the first nest not lowered: its line and the reason

    def block(self, body: list, names: _Names, after: list, top: bool = False) -> bool:
        """Lowers the nests of statements `body`, followed by statements whose `_uses` are
        `after`; False if the kernel must stay as generated (a threaded loop not lowered).
        Raises `_NotStep` in a step loop's body that is not one."""
        items = [(st, [st]) for st in body]
        if top:  # element code without loops: runs of scalar statements as one-trip nests
            runs = _scalar_runs(body)
            items = []
            for pos, st in enumerate(body):
                if pos in runs:
                    items.append((_one_trip(runs[pos]), runs[pos]))
                elif not any(start < pos < start + len(run) for start, run in runs.items()):
                    items.append((st, [st]))
        uses = [_uses(st) for st, _ in items]
        for pos, (st, parts) in enumerate(items):
            later = uses[pos + 1 :] + after
            if _nest(st):
                threaded = translate.is_prange(st)
                if threaded and not top:
                    raise _NotStep  # threaded loops in a step loop: numba's
                if self.dry:  # binding names only (a step loop's as `_step` leaves them)
                    if threaded or not self._step(st, names, later, threaded):
                        for each in parts:
                            _bind(each, names)
                    continue
                name = nests.symbol(self.key, len(self.spec))
                module = ir.Module(name=name)
                allocs, nest = _sorting(st) or ([], st)
                for each in allocs:
                    _bind(each, names)
                try:
                    lowered = _lower(nest, names, later, vecmath, module, name)
                except translate.Unsupported as e:
                    lowered, why = None, e
                if lowered is not None:
                    self.modules.append(module)
                    self.calls.append((st, len(self.spec)))
                    if allocs:
                        self.before[len(self.spec)] = [ast.unparse(a) for a in allocs]
                    self.spec.append(lowered)
                    continue
                for each in allocs:
                    _forget(each.targets[0].id, names)
                if self._step(st, names, later, threaded):
                    continue
                self.why = self.why or f"{ast.unparse(st).splitlines()[0][:50]}...: {why}"
                if threaded:  # threaded loops all leave numba, or none does
                    return False
                if not top:
                    raise _NotStep
            elif not top and not isinstance(st, (ast.Assign, ast.Expr)) and not _breaks(st):
                raise _NotStep
            for each in parts:
                flat = _flattened(each, names, set(translate._names(each)[0]), typed=True)
                if flat is not each and not self.dry and not _nest(each):
                    self.edits.append((each, flat))
                _bind(flat, names)
        return True

    def _step(self, st: ast.For, names: _Names, later: list, threaded: bool) -> bool:
        """Lowers the nests of step loop `st` (see the class docstring); False if it is not
        one (then nothing is lowered and `names` are as before)."""
        it = getattr(st, "iter", None)
        if it is not None and (not isinstance(st.target, ast.Name) or not 1 <= len(it.args) <= 3):
            return False
        if not is_step(st):
            return False  # a loop nest: numba's if not lowered
        if st.orelse or (threaded and len(it.args) > 2):
            return False
        assigned, _ = translate._names(st)
        before = {n: names.env[n] for n in assigned if n in names.env}
        if threaded and before:  # its iterations are independent: nothing carried
            return False
        marks = len(self.spec), len(self.calls), len(self.threaded), len(self.edits)
        try:
            # first pass: which buffers the carried arrays are bound to in the loop
            env, roots, fresh = dict(names.env), dict(names.roots), set(names.fresh)
            loop_names = _Names(env, roots, fresh, dict(names.carried), dict(names.shapes))
            dry, self.dry = self.dry, True
            try:
                self._enter(st, loop_names, names, before)
                self.block(st.body, loop_names, [])
            finally:
                self.dry = dry
            carried: dict[str, set] = {}
            made = loop_names.fresh - names.fresh  # buffers the loop allocates (anew each time)
            for n, ty in before.items():
                if isinstance(ty, types.Array) and isinstance(env.get(n), types.Array):
                    carried[n] = (names.buffers(n) | loop_names.buffers(n)) - made
            # second pass: the nests, lowered
            env, roots, fresh = dict(names.env), dict(names.roots), set(names.fresh)
            loop_names = _Names(env, roots, fresh, {**names.carried, **carried}, dict(names.shapes))
            self._enter(st, loop_names, names, before, carried)
            self.block(st.body, loop_names, [_uses(s) for s in st.body] + later)
        except _NotStep:
            del self.spec[marks[0] :], self.modules[marks[0] :]
            del self.calls[marks[1] :], self.threaded[marks[2] :], self.edits[marks[3] :]
            for k in [k for k in self.before if k >= marks[0]]:
                del self.before[k]
            return False
        if threaded:
            self.threaded.append(st)
        for n in assigned:  # after the loop
            _forget(n, names)
        for n, ty in before.items():
            now = env.get(n)
            if isinstance(ty, types.Array) and isinstance(now, types.Array):
                if (now.dtype, now.ndim, now.layout) == (ty.dtype, ty.ndim, ty.layout):
                    names.env[n] = ty.copy(readonly=not (ty.mutable and now.mutable))
                    names.carried[n] = carried[n]
            elif now == ty:
                names.env[n] = ty
        return True

    def _enter(self, st, loop: _Names, names: _Names, before: dict, carried=None) -> None:
        """`loop`'s names at the start of an iteration of step loop `st`: the loop variable an
        int64, the names it assigns known only as they were before it (arrays read-only where
        any binding in the loop may be)."""
        assigned, _ = translate._names(st)
        _unshape(assigned, loop)
        for n in assigned:
            if n not in before:
                loop.env.pop(n, None)
        if isinstance(st, ast.For):
            loop.env[st.target.id] = types.int64
        if carried is not None:  # arrays bound in it to what the rewrite cannot type: unknown
            for n, ty in before.items():
                if isinstance(ty, types.Array):
                    if n in carried:
                        loop.env[n] = ty.copy(readonly=True)
                    else:
                        loop.env.pop(n, None)


def _breaks(st: ast.stmt) -> bool:
    """Whether `st` is `if <test>: break` (a `while_loop`'s exit, in its step loop)."""
    return (
        isinstance(st, ast.If)
        and not st.orelse
        and len(st.body) == 1
        and isinstance(st.body[0], ast.Break)
    )


def is_step(st: ast.For | ast.While) -> bool:
    """Whether loop `st` is a step loop's, not a loop nest's: its body allocates, takes views or
    calls the library (a nest left to numba is not one: a shell never runs it itself, as its
    sums would not be in the lanes of a lowered nest)."""
    steps = (*_NEW_ARRAYS, "rt.reshape")
    return any(
        _call_name(c) in steps or _call_name(c).startswith("lib.") for c in translate.walk(st)
    )


def _nest(st: ast.stmt) -> bool:
    """Whether `st` is a loop nest: `for ... in range(...)` or `prange(...)`, or a
    `while_loop`'s `while True:`."""
    if isinstance(st, ast.While):
        return isinstance(st.test, ast.Constant) and st.test.value is True and not st.orelse
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
    calls = [_call_name(c) for c in translate.walk(st.value) if isinstance(c, ast.Call)]
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


def _lower(st, names: _Names, later, emitter, module, name):
    """The spec entry of nest `st` (see `nests.load`), its function built into `module`;
    raises `translate.Unsupported` if it is not lowered (the environment as it was)."""
    env = names.env
    assigned, _ = translate._names(st)
    st = _flattened(st, names, set(assigned))
    outputs = [n for n in assigned if _live(n, later)]
    nest = translate.Nest(st, env, outputs, emitter)
    written = {  # by stores, or by LAPACK through a pointer
        c.args[0].id
        for c in translate.walk(st)
        if isinstance(c, ast.Call) and translate.dotted(c.func) in ("rt.st", "rt.ptr")
    }
    arrays = [name for name, _, kind in nest.params if kind == "a"]
    views = [names.buffers(a) for a in arrays]
    noalias = all(
        w not in names.carried
        and names.buffers(w) <= names.fresh
        and sum(bool(names.buffers(w) & v) for v in views) == 1
        for w in written
    )
    nest.function(module, name, noalias)
    params = []
    for pname, ty, kind in nest.params:
        if kind == "a":
            params.append((pname, "a", str(np.dtype(str(ty.dtype))), ty.mutable))
        elif kind == "s":
            params.append((pname, "s", str(np.dtype(str(ty))), False))
    outs = tuple((n, str(np.dtype(str(nest.types[n])))) for n in outputs)
    for n in assigned:
        env.pop(n, None)
    _unshape(assigned, names)
    for n in outputs:
        env[n] = nest.types[n]
    text = ast.unparse(st)
    if translate.is_prange(st):  # spelled so that the kernel's source names no `prange`
        text = text.replace("prange(", f"{translate.THREADED_RANGE}(", 1)
    return (text, tuple(params), noalias, outs)


def _uses(st: ast.stmt) -> tuple[set[str], str | None, bool]:
    """What statement `st` does with names: those it may read before assigning them, the one
    it assigns first (a loop variable, or the target of a plain assignment), and whether that
    read of the name it assigns can come first (a loop's bounds, an assignment's value)."""
    reads = _exposed([st])
    if isinstance(st, ast.For) and isinstance(st.target, ast.Name):
        name = st.target.id
        return (
            reads,
            name,
            any(isinstance(n, ast.Name) and n.id == name for n in translate.walk(st.iter)),
        )
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        name = st.targets[0].id
        return reads, name, name in reads
    return reads, None, True


def _exposed(body: list) -> set[str]:
    """The names statements `body` may read before assigning them (a loop's body may run no
    time: what it assigns is not assigned after it; an `if`'s branches neither)."""
    reads: set[str] = set()
    assigned: set[str] = set()

    def loads(node):
        return {
            n.id
            for n in translate.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }

    for st in body:
        if isinstance(st, ast.For) and isinstance(st.target, ast.Name):
            inner = _exposed(st.body) - {st.target.id}
            reads |= (loads(st.iter) | inner) - assigned
        elif isinstance(st, ast.Assign) and all(
            isinstance(t, (ast.Name, ast.Tuple)) for t in st.targets
        ):
            reads |= loads(st.value) - assigned
            assigned |= {
                n.id for t in st.targets for n in translate.walk(t) if isinstance(n, ast.Name)
            }
        else:  # `x += v` reads x too (`a[i] += v` loads `a` and `i` already)
            target = st.target if isinstance(st, ast.AugAssign) else None
            own = {target.id} if isinstance(target, ast.Name) else set()
            reads |= (loads(st) | own) - assigned
    return reads


def _live(name: str, later: list[tuple]) -> bool:
    """Whether the kernel may read `name` in the statements after a nest (their `_uses`) before
    assigning it (a loop variable or a plain assignment that does not read it ends its life)."""
    for reads, first, read_first in later:
        if first == name:
            return read_first
        if name in reads:
            return True
    return False


def _bind(st: ast.stmt, names: _Names) -> None:
    """Records what statement `st` (not a lowered nest) defines: the types of the names it
    assigns, or forgets them where it cannot tell."""
    env, roots, fresh = names.env, names.roots, names.fresh
    if isinstance(st, ast.Assign) and len(st.targets) == 1:
        target, value = st.targets[0], st.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            pairs = list(zip(target.elts, value.elts))
            if len(target.elts) == len(value.elts) and all(
                isinstance(t, ast.Name) for t, _ in pairs
            ):  # `a, b, = x, y,` (a scan's carries): all values first, as Python does
                bound = [_value(v, names) for _, v in pairs]
                for (t, _), b in zip(pairs, bound):
                    _forget(t.id, names)
                    if b is not None:
                        env[t.id], root, made = b
                        roots[t.id] = root or t.id
                        if made:
                            fresh.add(t.id)
                return
        if isinstance(target, ast.Name):
            name = target.id
            b = _value(value, names)
            shape = _shape(value, names)
            _forget(name, names)
            if b is not None:
                env[name], root, made = b
                roots[name] = root or name
                if made:
                    fresh.add(name)
                if shape is not None and name not in shape[1]:
                    names.shapes[name] = shape
            return
    for node in translate.walk(st):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            _forget(node.id, names)


def _forget(name: str, names: _Names) -> None:
    names.env.pop(name, None)
    names.roots[name] = name
    names.fresh.discard(name)
    names.carried.pop(name, None)
    _unshape([name], names)


def _unshape(assigned, names: _Names) -> None:
    """Forgets the shapes of arrays named in `assigned` and those that read a name in it."""
    gone = set(assigned)
    for array, (_, reads) in list(names.shapes.items()):
        if array in gone or reads & gone:
            del names.shapes[array]


def _shape(value: ast.AST, names: _Names) -> tuple | None:
    """The shape of the array `value` makes (`rt.empty/full((dims), ...)`, `rt.reshape(a,
    (dims))`, `rt.copy(a)` of an array of known shape) and the names it reads, or None."""
    fn = _call_name(value)
    if fn in ("rt.empty", "rt.full", "rt.reshape"):
        dims = value.args[0 if fn != "rt.reshape" else 1]
        if not isinstance(dims, ast.Tuple):
            return None
        reads = {n.id for d in dims.elts for n in translate.walk(d) if isinstance(n, ast.Name)}
        return tuple(dims.elts), frozenset(reads)
    if fn == "rt.copy" and isinstance(value.args[0], ast.Name):
        return names.shapes.get(value.args[0].id)
    return None


def _flattened(st: ast.stmt, names: _Names, assigned: set, typed: bool = False) -> ast.stmt:
    """Statement `st` with its element accesses `a[i, j, ...]` (every index, `a` of one
    dimension or of a known shape, `_Names.shapes`, whose names `st` does not assign, `assigned`)
    written as the translator's flat ones, `rt.ld(a, (i * n1 + j) * n2 + ...)`, and `a[...] =
    v` as `rt.st(a, flat, v)`: numba's getitem and setitem on a C-contiguous array, the same
    element and the value cast to its dtype alike. A constant negative index (numba's from the
    end) or a slice is left as it is; `st` itself if it has none. `typed`: a statement of the
    kernel's (not a nest, whose translator checks its offsets), whose indices must be integers
    the rewrite types (not arrays: numba's fancy indexing)."""
    if not any(
        isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and isinstance(names.env.get(n.value.id), types.Array)
        for n in translate.walk(st)
    ):
        return st
    return _Flatten(names, assigned, typed).visit(copy.deepcopy(st))


class _Flatten(ast.NodeTransformer):
    """`_flattened`'s rewriting of the element accesses of a nest."""

    def __init__(self, names: _Names, assigned: set, typed: bool):
        self.names, self.assigned, self.typed = names, assigned, typed

    def integer(self, index: ast.AST) -> bool:
        """Whether `index` is an integer scalar of the kernel's names (`typed`)."""
        try:
            ty, _ = translate.Expressions(self.names.env, None, vecmath).expr(index)
        except translate.Unsupported:
            return False
        return isinstance(ty, types.Integer)

    def flat(self, node: ast.Subscript) -> ast.expr | None:
        """The flat offset of element access `node`, or None if it is not one."""
        array = node.value
        arr = self.names.env.get(array.id) if isinstance(array, ast.Name) else None
        if not isinstance(arr, types.Array):
            return None
        index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(index) != arr.ndim or any(map(_from_end, index)):
            return None
        if self.typed and not all(map(self.integer, index)):
            return None
        index = [self.visit(i) for i in index]
        if arr.ndim == 1:
            return index[0]
        shape, reads = self.names.shapes.get(array.id, ((), frozenset()))
        if len(shape) != arr.ndim or reads & self.assigned:
            return None
        offset = index[0]
        for dim, i in zip(shape[1:], index[1:]):
            if not (isinstance(dim, ast.Constant) and dim.value == 1):
                offset = ast.BinOp(offset, ast.Mult(), copy.deepcopy(dim))
            offset = ast.BinOp(offset, ast.Add(), i)
        return offset

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        offset = self.flat(node) if isinstance(node.ctx, ast.Load) else None
        if offset is None:
            return self.generic_visit(node)
        return _rt_call("ld", [ast.Name(node.value.id, ast.Load()), offset])

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        target = node.targets[0]
        offset = None
        if len(node.targets) == 1 and isinstance(target, ast.Subscript):
            offset = self.flat(target)
        if offset is None:
            return self.generic_visit(node)
        value = self.visit(node.value)
        store = _rt_call("st", [ast.Name(target.value.id, ast.Load()), offset, value])
        return ast.copy_location(ast.Expr(store), node)


# A stable argsort of a row's permutation `{p}` by keys `{key}` (a row of a sort's operand,
# `core/backends/numba/rules/sorting.py`) in the kernel language, with workspace `{w}` of the
# row's length `{n}`: runs of 16 by insertion, then runs merged pairwise, doubling (the left run
# copied to the workspace, taken on ties). A stable sort leaves one order, the one numba's
# mergesort leaves (`numba/misc/mergesort.py`: insertion below 21, halves merged) with its `<`
# (`{lt}`: numba's `lt_floats` puts NaNs last; plain `<` for integers).
_ARGSORT = """
lo{s} = 0
while lo{s} < {n}:
    hi{s} = min(lo{s} + 16, {n})
    for i{s} in range(lo{s} + 1, hi{s}):
        v{s} = rt.ld({p}, i{s})
        kv{s} = {key_v}
        j{s} = i{s}
        while j{s} > lo{s}:
            u{s} = rt.ld({p}, j{s} - 1)
            ku{s} = {key_u}
            if {lt_vu}:
                rt.st({p}, j{s}, u{s})
                j{s} = j{s} - 1
            else:
                break
        rt.st({p}, j{s}, v{s})
    lo{s} = hi{s}
w{s} = 16
while w{s} < {n}:
    lo{s} = 0
    while lo{s} < {n} - w{s}:
        mid{s} = lo{s} + w{s}
        hi{s} = min(mid{s} + w{s}, {n})
        for t{s} in range(lo{s}, mid{s}):
            rt.st({w}, t{s} - lo{s}, rt.ld({p}, t{s}))
        i{s} = 0
        j{s} = mid{s}
        k{s} = lo{s}
        while (i{s} < w{s}) & (j{s} < hi{s}):
            a{s} = rt.ld({w}, i{s})
            b{s} = rt.ld({p}, j{s})
            ka{s} = {key_a}
            kb{s} = {key_b}
            if {lt_ba}:
                rt.st({p}, k{s}, b{s})
                j{s} = j{s} + 1
            else:
                rt.st({p}, k{s}, a{s})
                i{s} = i{s} + 1
            k{s} = k{s} + 1
        while i{s} < w{s}:
            rt.st({p}, k{s}, rt.ld({w}, i{s}))
            i{s} = i{s} + 1
            k{s} = k{s} + 1
        lo{s} = lo{s} + 2 * w{s}
    w{s} = w{s} * 2
"""


def _sorting(st: ast.stmt) -> tuple[list, ast.For] | None:
    """A sort's loop over rows (`core/backends/numba/rules/sorting.py`: per row, `perm =
    np.arange(n)`, then for each key `perm = perm[np.argsort(key[r][perm], kind='mergesort')]`,
    then a loop gathering the operands' rows by `perm[j]`) as the kernel language: the
    allocations of `perm` and its workspace (int64, the row's length), and the loop with each
    argsort written out (`_ARGSORT`); None if `st` is not one."""
    body = st.body if isinstance(st, ast.For) and isinstance(st.target, ast.Name) else []
    if len(body) < 3 or not isinstance(body[-1], ast.For):
        return None
    first = body[0]
    if not (
        isinstance(first, ast.Assign)
        and isinstance(first.targets[0], ast.Name)
        and _call_name(first.value) == "np.arange"
        and len(first.value.args) == 1
    ):
        return None
    perm, n, r = first.targets[0].id, first.value.args[0], st.target.id
    if any(isinstance(x, ast.Name) and x.id in (perm, r) for x in translate.walk(n)):
        return None
    keys = []
    for line in body[1:-1]:
        text = ast.unparse(line)
        m = re.fullmatch(
            rf"{perm} = {perm}\[np\.argsort\((\w+)\[{r}\]\[{perm}\](\.real|\.imag)?, "
            r"kind='mergesort'\)\]",
            text,
        )
        if m is None:
            return None
        keys.append((m.group(1), m.group(2) or ""))
    work, size = f"{perm}_w", ast.unparse(n)
    allocs = [ast.parse(f"{x} = rt.empty(({size},), np.int64)").body[0] for x in (perm, work)]
    lines = [f"for {r} in {ast.unparse(st.iter)}:", f"    for {perm}_j in range({size}):"]
    lines.append(f"        rt.st({perm}, {perm}_j, {perm}_j)")
    for k, (key, part) in enumerate(keys):
        s = f"_{perm}_{k}"

        def at(i, key=key, part=part):
            return f"{key}[{r}, {i}]{part}"

        def lt(a, b):  # numba's lt_floats (a plain `<` where no NaN)
            return f"(({a} < {b}) | (({b} != {b}) & ({a} == {a})))"

        text = _ARGSORT.format(
            s=s,
            n=size,
            p=perm,
            w=work,
            key_v=at(f"v{s}"),
            key_u=at(f"u{s}"),
            key_a=at(f"a{s}"),
            key_b=at(f"b{s}"),
            lt_vu=lt(f"kv{s}", f"ku{s}"),
            lt_ba=lt(f"kb{s}", f"ka{s}"),
        )
        lines += ["    " + line for line in text.strip("\n").split("\n")]
    loop = ast.parse("\n".join(lines)).body[0]
    loop.body.append(copy.deepcopy(body[-1]))
    return allocs, loop


def _rt_call(fn: str, args: list) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name("rt", ast.Load()), fn, ast.Load()), args, [])


def _from_end(index: ast.AST) -> bool:
    """Whether `index` is a negative constant (an element counted from the end) or a slice."""
    if isinstance(index, ast.Slice):
        return True
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index = index.operand
        return not (isinstance(index, ast.Constant) and index.value == 0)
    return isinstance(index, ast.Constant) and (not isinstance(index.value, int) or index.value < 0)


def _value(value: ast.AST, names: _Names) -> tuple | None:
    """The type of `value`, the buffer it views (itself if none) and whether it is a new
    array (`rt.empty/full/copy`); None if the rewrite cannot type it."""
    ty, root = _array_type(value, names)
    if ty is not None:
        return types.unliteral(ty), root, _call_name(value) in _NEW_ARRAYS
    if isinstance(value, ast.Name) and isinstance(names.env.get(value.id), types.Array):
        return names.env[value.id], names.roots.get(value.id, value.id), False
    try:
        ty, _ = translate.Expressions(names.env, None, vecmath).expr(value)
    except translate.Unsupported:
        return None
    return types.unliteral(ty), None, False


def _call_name(node: ast.AST) -> str:
    return translate.dotted(node.func) if isinstance(node, ast.Call) else ""


def _array_type(value: ast.AST, names: _Names) -> tuple:
    """The type of the array an `rt.empty/full/copy/reshape` call makes and the buffer it
    views ((None, None) for other values). `rt.reshape` takes an array or a row of one,
    `a[i]`, `a[i, j]` (a step loop's chunk of rows)."""
    env = names.env
    fn = _call_name(value)
    if fn not in (*_NEW_ARRAYS, "rt.reshape"):
        return None, None
    try:
        if fn in ("rt.empty", "rt.full"):
            shape, dtype = value.args[0], value.args[-1]
            if not isinstance(shape, ast.Tuple) or not translate.dotted(dtype).startswith("np."):
                return None, None
            dt = translate.scalar_type(translate.dotted(dtype)[3:].replace("bool_", "bool"))
            return types.Array(dt, len(shape.elts), "C"), None
        src, indices = value.args[0], 0
        if isinstance(src, ast.Subscript) and fn == "rt.reshape":
            index = src.slice
            indices = len(index.elts) if isinstance(index, ast.Tuple) else 1
            for i in index.elts if isinstance(index, ast.Tuple) else [index]:
                ty, _ = translate.Expressions(env, None, vecmath).expr(i)
                if not isinstance(ty, types.Integer):
                    return None, None
            src = src.value
        if not isinstance(src, ast.Name) or not isinstance(env.get(src.id), types.Array):
            return None, None
        arr = env[src.id]
        if indices and arr.ndim <= indices:
            return None, None
        if fn == "rt.copy":
            return types.Array(arr.dtype, arr.ndim, "C"), None
        shape = value.args[1]
        if not isinstance(shape, ast.Tuple):
            return None, None
        view = types.Array(arr.dtype, len(shape.elts), "C", readonly=not arr.mutable)
        return view, names.roots.get(src.id, src.id)
    except translate.Unsupported:
        return None, None
