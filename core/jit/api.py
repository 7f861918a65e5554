"""`jit`: stage a function to a jaxpr once per input signature, then run it compiled.

`jit(f)` traces `f` on abstract values (shapes, dtypes, weak types) into a constvar-free jaxpr
and binds the higher-order primitive `jit` with it. Because `jit` is a primitive with
every rule (jvp, transpose, batching, partial evaluation), `grad(jit(f))`, `jit(grad(f))`,
`vmap(jit(f))` and nested jits all compose. Its eager `impl` compiles the jaxpr once with numba
(the numba back end, `core/backends/numba/`: one function, or for a large program a sequence of
shared kernels, `core/jit/program.py`) or, with `backend="python"`, runs it with numpy
(`core/backends/numpy/`).

The trace cache lives in a `WeakKeyDictionary` keyed on the user's function and is keyed on
(input tree, abstract values incl. weak types, static arguments, trace-relevant config). It keeps
the `config.jit_cache_max_entries` most recently used signatures per function (LRU); everything
compiled for a function (jaxprs, kernels, generated modules) is released with its last
reference, when the function is garbage-collected or its entry evicted.
Static arguments must be hashable. `config.log_compiles` logs every trace+compile and
`config.explain_cache_misses` says which argument changed; `compile_count()` counts them.
On a cache hit with concrete inputs (Arrays, numpy arrays, Python scalars), a call skips
the tracing machinery altogether (`core/jit/call_path.py`: generated guards, the kernel call,
generated output builders); only misses reach `Jitted._miss` here.
`jit(f).trace(x)`, `.lower()` and `.compile()` expose the stages one at a time
(`core/jit/stages.py`, as `jax.stages`).
"""

from __future__ import annotations

import functools
import inspect
import logging
import operator
import os
import sys
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, ir, ref_scope, source_info, tree_util
from core.ad_util import Zero, instantiate
from core.api import check_callable, register_jit_stage
from core.array import Array, placement
from core.avals import ShapedArray, ShapeDtypeStruct
from core.backends import numba as numba_backend
from core.backends import numpy as numpy_backend
from core.config import config
from core.debug_nans import checked_build
from core.errors import IncompatibleDevicesError, InvalidJaxTypeError
from core.interpreters import batching
from core.interpreters.partial_eval import (
    close_over_consts,
    dce_jaxpr,
    trace_to_closed_jaxpr,
    trace_to_jaxpr,
)
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.jit import batch_split, call_path, dispatch, gc_pause, narrow, packing
from core.jit.errors import (
    JitArgumentError,
    JitOutputTypeError,
    NumpyFallbackWarning,
    StaticArgumentError,
    UnsupportedDTypeError,
    static_hash_error,
)
from core.jit.kernel_call import abstract_leaf_key, key_aval, leaf_key, reraise_signal, ticks
from core.jit.kernel_call import concrete_inputs as _concrete_inputs
from core.jit.stages import Lowered, Traced, check_compiled_call
from core.named_sharding import NamedSharding, place, untyped_results
from core.parallel.axis_env import staged_axes
from core.primitive import Primitive
from core.prims import prng
from core.prims.control_flow import common as _derived_jaxprs  # memo
from core.prims.control_flow import eager_program
from core.prims.control_flow.common import (  # they split control-flow bodies too
    axis_name_of,
    jvp_jaxpr,
    partial_eval_jaxpr,
)
from core.prng_key import PRNGKeyArray
from core.ref import Ref
from core.sharding_base import Sharding, SingleDeviceSharding
from core.trace import (
    EvalTrace,
    Tracer,
    as_output_value,
    as_value,
    closure_values,
    current_trace,
    set_current_trace,
)

logger = logging.getLogger("core.jit")


_stats = {"compiles": 0, "traces": 0}


def compile_count() -> int:
    """How many jaxprs `jit` has compiled in this process (tests assert no recompilation)."""
    return _stats["compiles"]


def trace_count() -> int:
    """How many times `jit` has traced a Python function in this process."""
    return _stats["traces"]


# ---------------------------------------------------------------------------------------------
# The jit primitive

jit_call_p = Primitive("jit", multiple_results=True, higher_order=True)

_executables: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def executable(jaxpr: ir.Jaxpr, backend: str, name: str = "fun") -> Callable[..., list[np.ndarray]]:
    """The compiled callable of a constvar-free jaxpr: numpy arrays in, numpy arrays out
    (`name` names the program in messages)."""
    per = _executables.get(jaxpr)
    if per is None:
        per = _executables[jaxpr] = {}
    exe = per.get(backend)
    if exe is None:
        _stats["compiles"] += 1
        if config.log_compiles:
            logger.warning(
                "Compiling %s jaxpr with %d equations for backend %s",
                jaxpr.in_avals,
                len(jaxpr.eqns),
                backend,
            )
        # a program taking or returning keys runs on their data (`physicalize`)
        exe = per[backend] = _compile(prng.physicalize(jaxpr)[0], backend, name)
    return exe


def _eager_program(jaxpr: ir.Jaxpr) -> Callable[..., list[np.ndarray]]:
    # An eager control-flow equation's program (`core/prims/control_flow/eager_program.py`).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumpyFallbackWarning)  # the user wrote no jit
        return executable(jaxpr, config.jit_backend, "eager_scan")


eager_program.compile_program = _eager_program
eager_program.compile_at_once = lambda jaxpr: bool(narrow.narrow_dtypes(jaxpr))


def _compile(jaxpr: ir.Jaxpr, backend: str, name: str) -> Callable[..., list[np.ndarray]]:
    if backend == "python":
        return numpy_backend.compile_jaxpr(jaxpr)
    if backend != "numba":
        raise ValueError(f"unknown jit backend {backend!r}; use 'numba' or 'python'")
    from core.jit import fork_safety  # noqa: PLC0415 (loads numba: on first compile)

    try:
        return fork_safety.serialized(numba_backend.compile_jaxpr(jaxpr, name))
    except UnsupportedDTypeError as err:
        warnings.warn(
            f"numba cannot compile arrays of dtype {', '.join(err.dtypes)}: this jitted "
            "function runs on the numpy back end instead (correct, but op by op). Compute in "
            "float32 for compiled speed.",
            NumpyFallbackWarning,
            stacklevel=_user_stacklevel(),
        )
        return numpy_backend.compile_jaxpr(jaxpr)


def _user_stacklevel() -> int:
    """The `stacklevel` of a warning that names the first caller outside the `core` package."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _contiguous(v: np.ndarray, aval: ShapedArray) -> np.ndarray:
    if v.dtype != aval.dtype:
        v = v.astype(aval.dtype)
    return v if v.flags.c_contiguous else np.ascontiguousarray(v)


def _jit_call_impl(*args, jaxpr, name, backend):
    if backend is None:  # a library function's jit (`core/jit/library.py`): interpreted
        return numpy_backend.run_jaxpr(jaxpr, *args)
    exe = executable(jaxpr, backend, name)
    try:
        return exe(*[_contiguous(np.asarray(a), av) for a, av in zip(args, jaxpr.in_avals)])
    except SystemError as err:
        reraise_signal(err)
        raise


def _jit_call_abstract_eval(*avals, jaxpr, name, backend):
    for a, b in zip(avals, jaxpr.in_avals):
        if a.shape != b.shape or a.dtype != b.dtype:
            raise TypeError(
                f"jit_call of {name} expects {b.str_short(short_dtypes=True)}, got "
                f"{a.str_short(short_dtypes=True)}"
            )
    return jaxpr.out_avals


def _jit_call_jvp(primals, tangents, *, jaxpr, name, backend):
    nonzero = tuple(type(t) is not Zero for t in tangents)
    new, consts, _ = jvp_jaxpr(jaxpr, nonzero, (True,) * len(jaxpr.outvars))
    nz_tangents = [t for t in tangents if type(t) is not Zero]
    outs = jit_call_p.bind(*consts, *primals, *nz_tangents, jaxpr=new, name=name, backend=backend)
    n = len(jaxpr.outvars)
    return outs[:n], outs[n:]


def _jit_call_transpose(cts, *args, jaxpr, name, backend):
    undef = tuple(is_undefined(a) for a in args)
    # As JAX's pjit transpose, symbolic zero cotangents are not passed in: the equations they
    # would reach are skipped (no `0 * inf` NaNs from the unused outputs' derivatives).
    nonzero = tuple(c is not None and type(c) is not Zero for c in cts)
    cts = [c for c, nz in zip(cts, nonzero) if nz]

    def make():
        known_avals = [a for a, u in zip(jaxpr.in_avals, undef) if not u]
        ct_avals = [a for a, nz in zip(jaxpr.out_avals, nonzero) if nz]

        def f(*vals):
            known, ct_vals = vals[: len(known_avals)], iter(vals[len(known_avals) :])
            it = iter(known)
            full = [UndefinedPrimal(av) if u else next(it) for av, u in zip(jaxpr.in_avals, undef)]
            full_cts = [next(ct_vals) if nz else Zero(a) for a, nz in zip(jaxpr.out_avals, nonzero)]
            res = backward_pass(jaxpr, [], full, full_cts)
            return [instantiate(r) for r, u in zip(res, undef) if u]

        return trace_to_closed_jaxpr(f, known_avals + ct_avals)

    new, consts = _derived_jaxprs.memo(jaxpr, ("transpose", undef, nonzero), make)
    known = [a for a in args if not is_undefined(a)]
    outs = iter(jit_call_p.bind(*consts, *known, *cts, jaxpr=new, name=name, backend=backend))
    return [next(outs) if u else None for u in undef]


def _jit_call_batch(args, dims, *, jaxpr, name, backend, axis_trace=None):
    size = batching.batch_size(args, dims)
    axis_name = axis_name_of(axis_trace)
    batched = tuple(d is not None for d in dims)
    moved = batching.batched_first(args, dims, size)
    # as JAX's pjit batching: an output computed from unbatched inputs only stays unbatched
    # (jacfwd's primal output of a jitted function, vmap's out_axes=None)
    new, consts, out_b = _derived_jaxprs.batch_jaxpr(jaxpr, size, batched, False, axis_name)
    outs = jit_call_p.bind(*consts, *moved, jaxpr=new, name=name, backend=backend)
    return outs, [0 if b else None for b in out_b]


def _forwarding_split(jaxpr: ir.Jaxpr, unknowns: list[bool]) -> tuple:
    """`partial_eval_jaxpr`'s split, the known jaxpr without the outputs that are its inputs
    or (residuals) its primal outputs again, as JAX's `_pjit_partial_eval` prunes them: with
    where each output comes from (`in_fwd`: a known input's index, `out_fwd`: a kept
    output's, or None)."""
    jk, ju, out_unk, nres = partial_eval_jaxpr(jaxpr, unknowns)
    nk = len(jk.outvars) - nres
    position = {v: i for i, v in enumerate(jk.invars)}
    in_fwd = [position.get(v) if isinstance(v, ir.Var) else None for v in jk.outvars]
    kept = [v for v, f in zip(jk.outvars, in_fwd) if f is None]
    nk_kept = sum(f is None for f in in_fwd[:nk])
    primal = {v: i for i, v in enumerate(kept[:nk_kept])}
    out_fwd = [None] * nk_kept + [primal.get(v) for v in kept[nk_kept:]]
    final = [v for v, f in zip(kept, out_fwd) if f is None]
    if len(final) < len(jk.outvars):
        jk = ir.Jaxpr(jk.constvars, jk.invars, jk.eqns, final)
    return jk, ju, out_unk, nres, in_fwd, out_fwd


def _jit_call_partial_eval(trace, args, params):
    jaxpr = params["jaxpr"]
    unknowns = [trace.is_own(a) for a in args]
    jk, ju, out_unk, nres, in_fwd, out_fwd = _derived_jaxprs.memo(
        jaxpr, ("pe", tuple(unknowns)), lambda: _forwarding_split(jaxpr, unknowns)
    )
    known_args = [a for a, u in zip(args, unknowns) if not u]
    unknown_args = [a for a, u in zip(args, unknowns) if u]
    with set_current_trace(trace.parent):  # (a known part with no output is dead code)
        outs = iter(
            jit_call_p.bind(*known_args, jaxpr=jk, name=params["name"], backend=params["backend"])
            if jk.outvars or ir.has_effects(jk)
            else ()
        )
    kept: list = []
    for f in out_fwd:
        kept.append(next(outs) if f is None else kept[f])
    outs = iter(kept)
    known = [next(outs) if f is None else known_args[f] for f in in_fwd]
    nk = len(known) - nres
    known_outs, res = known[:nk], known[nk:]
    unknown_outs = trace.stage(
        jit_call_p,
        [*res, *unknown_args],
        dict(jaxpr=ju, name=params["name"], backend=params["backend"]),
    )
    k, u = iter(known_outs), iter(unknown_outs)
    return [next(u) if unk else next(k) for unk in out_unk]


jit_call_p.def_impl(_jit_call_impl)
jit_call_p.def_abstract_eval(_jit_call_abstract_eval)
jit_call_p.def_jvp(_jit_call_jvp)
jit_call_p.def_transpose(_jit_call_transpose)
jit_call_p.def_batch(_jit_call_batch)
jit_call_p.def_partial_eval(_jit_call_partial_eval)


# ---------------------------------------------------------------------------------------------
# The user-facing wrapper

_trace_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _is_ref(x: Any) -> bool:
    return isinstance(x, Ref)


def _to_input(x: Any, aval: ShapedArray) -> Any:
    if isinstance(x, (Array, Tracer, PRNGKeyArray)) or type(x) in (bool, int, float, complex):
        return x  # a Python scalar stays a literal of its value, as JAX prints it
    return Array(np.asarray(x, dtype=aval.dtype), aval.weak_type)


class _Entry:
    __slots__ = (
        "jaxpr",
        "consts",
        "out_tree",
        "exe",
        "const_vals",
        "used",
        "cost",
        "ordered",
        "refs",
        "specs",
        "unused",
        "donations",
        "staged",
        "split",
    )

    def __init__(self, jaxpr, consts, out_tree, refs=(), staged=None):
        self.jaxpr = jaxpr
        # the program as traced, with its constvars and unused equations: what `make_jaxpr`
        # shows (`jaxpr` is it without the unused equations, the consts leading inputs)
        self.staged = staged
        self.consts = consts
        self.out_tree = out_tree
        # Refs made outside the function that it reads or writes (`core/ref_scope.py`): their
        # values are the last inputs, their new values the last outputs (out_tree: (out, new)).
        self.refs = refs
        self.exe = None
        self.const_vals = None
        self.used = 0  # when last called (`kernel_call.ticks`): the least recently used is evicted
        self.cost = 0.0  # estimated microseconds of a run (`dispatch.estimate_us`), once compiled
        self.ordered = False  # has side effects: queued behind calls in flight (`dispatch`)
        self.specs: dict = {}  # inputs' specs -> outputs' (`call_path._out_specs`)
        self.unused: frozenset | None = None  # leaves it never reads (`donation.unused_leaves`)
        self.donations: dict = {}  # donated and output avals -> those taken (`donation.usable`)
        self.split = None  # `batch_split.Split`, or why not (decided on its first call)


class Jitted:
    """A jit-compiled function (what `jit(f)` returns). Call it like `f`."""

    _library = False  # a library function's staged jit (`core/jit/library.py`)
    _inline = False  # `jit(f, inline=True)`: staged into an enclosing trace as `f`'s equations

    def __init__(
        self,
        fun: Callable,
        static_argnums: Sequence[int],
        static_argnames: Sequence[str],
        donate_argnums: Sequence[int],
        backend: str | None,
        donate_argnames: Sequence[str] = (),
        keep_unused: bool = False,
        infer: tuple[bool, bool] = (True, True),
    ):
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._backend = backend
        self._static_argnames = frozenset(static_argnames)
        try:
            sig = inspect.signature(fun)
        except (TypeError, ValueError):
            sig = None
        self._signature = sig
        nums = set(static_argnums)
        # as JAX: the names of the static positions and the positions of the static names
        # count too, unless both were given (`infer`: whether each pair was given alone)
        if sig is not None:
            _validate_static(sig, tuple(static_argnums), tuple(static_argnames))
            _validate_static(sig, tuple(donate_argnums), tuple(donate_argnames), "donate")
            params = list(sig.parameters.values())
            for i, p in enumerate(params if infer[0] else ()):
                if p.name in self._static_argnames and p.kind in (
                    p.POSITIONAL_ONLY,
                    p.POSITIONAL_OR_KEYWORD,
                ):
                    nums.add(i)
                if i in nums and p.kind == p.POSITIONAL_OR_KEYWORD:
                    self._static_argnames |= {p.name}
        self._static_argnums = frozenset(nums)
        donated, donated_names = set(donate_argnums), set(donate_argnames)
        if sig is not None and infer[1]:
            for i, p in enumerate(sig.parameters.values()):
                if p.name in donated_names and p.kind in (
                    p.POSITIONAL_ONLY,
                    p.POSITIONAL_OR_KEYWORD,
                ):
                    donated.add(i)
                if i in donated and p.kind == p.POSITIONAL_OR_KEYWORD:
                    donated_names.add(p.name)
        self._donate_argnums = tuple(sorted(donated))
        self._donate_argnames = frozenset(donated_names)
        self._keep_unused = keep_unused
        both = set(self._static_argnames & self._donate_argnames)
        if both:
            raise ValueError(
                "static_argnames and donate_argnames cannot intersect. Argument names "
                f"{both} appear in both static_argnames and donate_argnames"
            )
        # Cache-hit fast path (no static arguments, concrete Array leaves, eager context):
        # (structure node, leaf signatures, trace context) -> (entry, kernel).
        self._fast: dict = {}
        # Before even that: generated guards that check a known input structure and pick the
        # leaves without flattening: [(guard, kernel, build, touch)], see `_make_guard`. Both
        # hold the trace cache entry, to mark it used (`entry.used`, the LRU order).
        self._guards: list = []
        self._guarded: set = set()  # fast-cache keys a guard was tried for
        self._fast_ok = not self._static_argnums and not self._static_argnames

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def _cache(self) -> dict:
        try:
            cache = _trace_caches.get(self._fun)
            if cache is None:
                cache = _trace_caches[self._fun] = {}
        except TypeError:  # not weak-referenceable: keep the cache on the wrapper
            cache = self.__dict__.setdefault("_own_cache", {})
        return cache

    def _cache_size(self) -> int:
        return len(self._cache())

    def _split(self, args: tuple, kwargs: dict):
        static = []
        dyn_args = []
        for i, a in enumerate(args):
            if i in self._static_argnums or i - len(args) in self._static_argnums:
                static.append((i, a))
            else:
                dyn_args.append(a)
        dyn_kwargs = {}
        for k, v in kwargs.items():
            if k in self._static_argnames:
                static.append((k, v))
            else:
                dyn_kwargs[k] = v
        return tuple(static), dyn_args, dyn_kwargs

    __call__ = call_path.call

    def _profiled(self, args: tuple, kwargs: dict) -> Any:
        """A call while the profiler records a trace (`core.profiler.execution`)."""
        from core.profiler.execution import call_jitted  # noqa: PLC0415

        return call_jitted(self, args, kwargs)

    def _miss(self, args: tuple, kwargs: dict, fast_key: tuple | None, concrete: bool) -> Any:
        """A call the fast path (`core.jit.call_path.call`) could not serve: trace and compile
        on a cache miss, a call with tracers or keyword arguments, or `disable_jit`."""
        if not config._jit_enabled:
            if config._no_execution and concrete:
                raise RuntimeError(
                    f"JAX tried to execute function {self._name()}, but the no_execution "
                    "config option is set"
                )
            return self._fun(*args, **kwargs)
        if self._inline and type(current_trace()) is not EvalTrace:
            return self._fun(*args, **kwargs)  # JAX's inlining: no nested `jit` equation
        entry, leaves = self._entry(args, kwargs)
        backend = self._backend or config.jit_backend
        if entry.refs:
            return self._call_with_refs(entry, leaves, backend)
        if concrete:
            avals, vals = _concrete_inputs(leaves)
            if avals is not None:
                hit = (*self._prepare(entry, backend, avals, self._name()), entry)
                if len(self._fast) >= config.jit_cache_max_entries:
                    self._drop_fast()
                if fast_key is not None:
                    self._fast[fast_key] = hit
                    self._add_guard(fast_key, hit, leaves)
                if dispatch.asynchronous(entry):
                    slots = call_path.numpy_slots(leaves)
                    return dispatch.call(self, hit[0], hit[1], vals, args, slots)
                return call_path.run(hit, vals)
        return self._bind(entry, leaves, self._name(), backend)

    @staticmethod
    def _bind(entry: _Entry, leaves: list, name: str, backend: str | None) -> Any:
        """The call as a `jit` bound under the current trace (with tracers, or staged)."""
        invars = entry.jaxpr.invars[len(entry.consts) :]
        flat = [_to_input(x, v.aval) for x, v in zip(leaves, invars)]
        outs = jit_call_p.bind(*entry.consts, *flat, jaxpr=entry.jaxpr, name=name, backend=backend)
        return tree_util.tree_unflatten(entry.out_tree, outs)

    def _call_with_refs(self, entry: _Entry, leaves: list, backend: str) -> Any:
        """A call of a function that uses Refs made outside it: their current values go in,
        the new values of those it writes are written back (always through `jit`, never
        the fast paths). A Ref only read keeps its value: under a transformation (`grad`,
        `vmap`) or in a staged trace, a call's output written back would be that trace's value
        in a Ref made outside it, which the write refuses."""
        invars = entry.jaxpr.invars[len(entry.consts) :]
        flat = [_to_input(x, v.aval) for x, v in zip(leaves, invars)]
        outs = jit_call_p.bind(
            *entry.consts,
            *flat,
            *[ref_scope.read(r) for r in entry.refs],
            jaxpr=entry.jaxpr,
            name=self._name(),
            backend=backend,
        )
        out, new = tree_util.tree_unflatten(entry.out_tree, outs)
        n = len(entry.refs)
        for ref, value, old, now in zip(
            entry.refs, new, entry.jaxpr.invars[-n:], entry.jaxpr.outvars[-n:]
        ):
            if now is not old:
                ref_scope.write(ref, value)
        return out

    def _entry(self, args: tuple, kwargs: dict, key_of: Callable = leaf_key) -> tuple[_Entry, list]:
        """The cache entry for these arguments (tracing on a miss) and the flat dynamic leaves;
        `key_of` is `abstract_leaf_key` for `trace`, whose arguments may be abstract."""
        static, dyn_args, dyn_kwargs = self._split(args, kwargs)
        leaves, in_tree = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        ref_args = ()  # Refs passed as arguments: keyed by identity, read like closed-over ones
        try:
            leaf_keys = tuple(map(key_of, leaves))
        except JitArgumentError:  # not an array: a Ref, or the error
            ref_args = tuple((i, x) for i, x in enumerate(leaves) if type(x) is Ref)
            if not ref_args:
                raise JitArgumentError(self._non_array_message(args, kwargs)) from None
            leaves = [x for x in leaves if type(x) is not Ref]
            leaf_keys = tuple(map(key_of, leaves))
        context = config.trace_context()
        # the axes `make_jaxpr(axis_env=...)` binds: another trace, as in JAX
        # and the static values' types: 2 and 2.0 are equal keys but trace apart, as in JAX
        static_types = tuple(type(v) for _, v in static)
        key = (in_tree, leaf_keys, static, context, self._backend, ref_args, staged_axes())
        key += (static_types,)
        self._check_ref_args(args, dyn_kwargs, static, ref_args)
        try:
            hash(key)
        except TypeError as e:
            bad = next(v for _, v in static if not _hashable(v))
            raise static_hash_error(bad, self._fun) from e
        cache = self._cache()
        entry = cache.get(key)
        if entry is None:
            entry = self._trace(args, kwargs, static, leaves, in_tree, key, cache)
        entry.used = next(ticks)
        if len(cache) > config.jit_cache_max_entries:
            self._evict(cache)
        return entry, leaves

    def _add_guard(self, fast_key: tuple, hit: tuple, leaves: list) -> None:
        """Tries once per fast-cache key to make a guard for it (see `_make_guard`), when every
        leaf is an array (a Python scalar leaf may be an Array in later calls with this key)."""
        if not all(
            type(x) is Array
            or type(x) is np.ndarray
            or type(x) is PRNGKeyArray
            and type(x._base) is Array
            for x in leaves
        ):
            return
        self._guarded.add(fast_key)
        guard = call_path.make_guard(fast_key[0], fast_key[1], leaves, hit[2])
        if guard is not None:  # most recent first, a few structures at most
            self._guards = [(guard, hit[0], hit[1], hit[3]), *self._guards[:3]]

    def _name(self) -> str:
        return getattr(self._fun, "__name__", "fun")

    def _describe(self, k: int, args: tuple, kwargs: dict, static: tuple) -> str:
        """Dynamic input leaf `k` as JAX's errors name it: ``argument x of f`` (the function's
        qualified name)."""
        static_pos = {i for i, _ in static if isinstance(i, int)}
        named = tuple(None if i in static_pos else a for i, a in enumerate(args))
        named_kw = {n: v for n, v in kwargs.items() if n not in self._static_argnames}
        names = source_info.arg_names(self._fun, named, named_kw)
        name = names[k] if k < len(names) else f"args[{k}]"
        return f"argument {name} of {getattr(self._fun, '__qualname__', self._name())}"

    def _where(self) -> str:
        """The function as JAX's errors name it: ``f at file.py:12``."""
        code = getattr(self._fun, "__code__", None)
        if code is None:
            return self._name()
        return f"{self._name()} at {code.co_filename}:{code.co_firstlineno}"

    def _explain_miss(self, key: tuple, old_keys: list[tuple], names: list[str]) -> str:
        """JAX's account of a tracing cache miss (`config.explain_cache_misses`): where the call
        is, and either that the function is new (and whether another function was defined on
        its line: a function re-created in a loop is never a cache hit) or how the key differs
        from the most similar cached one."""
        caller = source_info.current()
        code = getattr(self._fun, "__code__", None)
        defined = "<unknown>" if code is None else f"{code.co_filename}:{code.co_firstlineno}"
        head = f"TRACING CACHE MISS at {caller.summary() if caller else '<unknown>'}:\n"
        if not old_keys:
            text = f"  never seen function:\n    {self._name()} id={id(self._fun)}"
            text += f" defined at {defined}"
            if code is not None:
                site = (code.co_filename, code.co_firstlineno)
                if site in _defined_sites:
                    text += (
                        "\n  but seen another function defined on the same line; maybe the "
                        "function is\n  being re-defined repeatedly, preventing caching?"
                    )
                _defined_sites.add(site)
            return head + text
        return (
            f"{head}  for {self._name()} defined at {defined}\n  all previously seen cache keys "
            "differ. For the closest previous key:\n" + _explain(key, old_keys, names)
        )

    def _dyn_leaf_names(self, args: tuple, dyn_kwargs: dict, static: tuple) -> list[str]:
        """The names of the dynamic leaves of a call, as JAX's errors give them."""
        skip = {k for k, _ in static if isinstance(k, int)}
        return call_path._leaf_names(self, args, dyn_kwargs, skip)

    def _check_ref_args(self, args: tuple, dyn_kwargs: dict, static: tuple, ref_args: tuple):
        """JAX's checks of the Refs passed to a call: none twice, none also closed over (a
        closure cell or a global the function names holding it; JAX sees the ones it
        reads)."""
        if not ref_args:
            return
        names = self._dyn_leaf_names(args, dyn_kwargs, static)
        seen: dict = {}
        for i, ref in ref_args:
            if id(ref) in seen:
                raise ref_scope.RefArgumentError(
                    "only one reference to a mutable array may be passed as an argument to a "
                    f"function, but when tracing {self._where()} for jit the mutable array "
                    f"reference of type {ref.aval} appeared at both {names[seen[id(ref)]]} and "
                    f"{names[i]}."
                )
            seen[id(ref)] = i
        fun = inspect.unwrap(self._fun)
        cells = closure_values(fun)
        code = getattr(fun, "__code__", None)
        glob = getattr(fun, "__globals__", {})
        used = cells + [glob[n] for n in (code.co_names if code else ()) if n in glob]
        for i, ref in ref_args:
            if any(u is ref for u in used):
                raise ref_scope.RefArgumentError(
                    f"when tracing {self._where()} for jit, a mutable array reference of type "
                    f"{ref.aval} was both closed over and passed as the argument {names[i]}"
                )

    def _returned_ref_error(
        self, ref: Ref, ref_args: tuple, args: tuple, dyn_kwargs: dict, static: tuple
    ) -> Exception:
        """JAX's error for a Ref among the function's outputs."""
        names = self._dyn_leaf_names(args, dyn_kwargs, static)
        where = next((names[i] for i, r in ref_args if r is ref), None)
        origin = (
            ""
            if where is None
            else f"\n\nThe returned mutable array was passed in as the argument {where}."
        )
        return ref_scope.RefArgumentError(
            f"function {self._where()} traced for jit returned a mutable array reference of "
            f"type {ref.aval}, but mutable array references cannot be returned.{origin}"
        )

    def _output_type_error(self, out: Any) -> JitOutputTypeError:
        """JAX's error for an output leaf that is not an array (a string, an object): its type
        and, in a container, its path."""
        for path, leaf in tree_util.tree_flatten_with_path(out)[0]:
            try:
                as_value(leaf)
            except InvalidJaxTypeError:
                where = f" at output component {tree_util.keystr(path)}" if path else ""
                return JitOutputTypeError(
                    f"function {self._where()} traced for jit returned a value of type "
                    f"{type(leaf)}{where}, which is not a valid JAX type\nReturn arrays, "
                    "scalars or pytrees of them; return other values from outside the "
                    "jitted function."
                )
        raise AssertionError("no invalid output leaf")

    def _named_args(self, args: tuple, kwargs: dict) -> list[tuple[str, Any]]:
        """The dynamic arguments with the names JAX's errors give them: the parameter's name
        (``x``), ``args[1]`` for a `*args` entry, ``kw['k']`` for a `**kw` entry."""
        params = list(self._signature.parameters.values()) if self._signature else []
        positional = [
            p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        star = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), "args")
        named = {p.name for p in params if p.kind != p.VAR_KEYWORD}
        starstar = next((p.name for p in params if p.kind == p.VAR_KEYWORD), "kwargs")
        named_args = [
            (positional[i] if i < len(positional) else f"{star}[{i - len(positional)}]", a)
            for i, a in enumerate(args)
            if i not in self._static_argnums and i - len(args) not in self._static_argnums
        ]
        named_args += [
            (k if k in named else f"{starstar}[{k!r}]", v)
            for k, v in kwargs.items()
            if k not in self._static_argnames
        ]
        return named_args

    def overflow_error(self, args: tuple, kwargs: dict) -> OverflowError | None:
        """JAX's error for a Python int argument out of its canonical integer's range (int32,
        int64 under x64), naming its path; None if no argument is one."""
        info = np.iinfo(np.int64 if config.enable_x64 else np.int32)
        for name, a in self._named_args(args, kwargs):
            for path, x in tree_util.tree_flatten_with_path(a)[0]:
                if type(x) is int and not info.min <= x <= info.max:
                    return OverflowError(
                        "An overflow was encountered while parsing an argument to a jitted "
                        f"computation, whose argument path is {name}{tree_util.keystr(path)}. "
                        f"Got {type(x)} with value {x}\nPass a value that fits in "
                        f"{info.dtype}, or an array of a wider dtype."
                    )
        return None

    def _non_array_message(self, args: tuple, kwargs: dict) -> str:
        """JAX's error for a dynamic argument that is not an array: its type and its path, the
        parameter's name and the key path inside it (``d['a']``, ``args[1]``, ``kw['k']``)."""
        named_args = self._named_args(args, kwargs)
        where, bad = "an argument", None
        for name, a in named_args:
            for path, x in tree_util.tree_flatten_with_path(a)[0]:
                try:
                    leaf_key(x)
                except JitArgumentError:
                    where, bad = f"path {name}{tree_util.keystr(path)}", x
                    break
            if where != "an argument":
                break
        if isinstance(bad, ShapeDtypeStruct):  # JAX's words: a call takes no such struct
            return (
                f"Argument '{where.removeprefix('path ')}' of shape {bad.aval.str_short()} of type "
                f"{type(bad)} is not a valid JAX type.\nA jitted function is called with "
                "arrays; pass ShapeDtypeStructs to its .trace, .lower or .eval_shape instead."
            )
        return (
            f"Error interpreting argument to {self._fun!r} as an abstract array. The problematic"
            f" value is of type {type(bad)} and was passed to the function at {where}.\n"
            "This typically means that a jit-wrapped function was called with a non-array"
            " argument, and this argument was not marked as static using the static_argnums or"
            " static_argnames parameters of jax.jit."
        )

    @staticmethod
    def _prepare(entry: _Entry, backend: str, in_avals: list[ShapedArray], name: str) -> tuple:
        """Compiles `entry` and returns what `_run` needs: (kernel with the consts bound, output
        builder, `in_avals`). `in_avals` are kept alive by the result: the fast cache keys on
        their ids."""

        def compile_split(local: ir.Jaxpr) -> Callable:  # a split's per-device program
            return executable(local, backend, name)

        if entry.exe is None:
            entry.cost = dispatch.estimate_us(entry.jaxpr)
            entry.ordered = ir.has_effects(entry.jaxpr)
            entry.const_vals = [
                c._base._value
                if isinstance(c, PRNGKeyArray)
                else _contiguous(np.asarray(c), v.aval)
                for c, v in zip(entry.consts, entry.jaxpr.invars)
            ]
            if config.jit_batch_split:  # a split program compiles its unsplit one when used
                unsplit = batch_split.Deferred(
                    functools.partial(executable, entry.jaxpr, backend, name)
                )
                entry.split = batch_split.for_signature(
                    entry.jaxpr, len(entry.consts), unsplit, compile_split, backend, name,
                    entry.cost,
                )  # fmt: skip
                if callable(entry.split):
                    entry.exe = unsplit
            if entry.exe is None:
                entry.exe = executable(entry.jaxpr, backend, name)
        elif config.jit_batch_split and entry.split is None:  # compiled with the flag off
            entry.split = batch_split.for_signature(
                entry.jaxpr, len(entry.consts), entry.exe, compile_split, backend, name,
                entry.cost,
            )  # fmt: skip
        split = callable(entry.split)  # the split program: a list out, as the numpy backend's
        kernel = None if split else getattr(entry.exe, "kernel", None)
        if kernel is None:  # the numpy backend returns a list of arrays
            kernel = entry.split if split else entry.exe
            head, exprs = "", [f"r[{k}]" for k in range(len(entry.jaxpr.outvars))]
        else:
            n, exprs = entry.exe.layout
            head = packing.unpack_results(n)
        if entry.const_vals:
            kernel = functools.partial(kernel, *entry.const_vals)
        build = call_path.output_builder(entry.jaxpr.out_avals, entry.out_tree, head, exprs)
        if config._check_floats:  # debug_nans / debug_infs (part of the cache keys)
            build = checked_build(build)
        return kernel, build, in_avals

    def _trace(self, args, kwargs, static, leaves, in_tree, key, cache) -> _Entry:
        # a library function's own jit is not the user's: neither explained nor counted
        if config.explain_cache_misses and not self._library:
            names = self._dyn_leaf_names(args, kwargs, static)
            logger.warning("%s", self._explain_miss(key, list(cache), names))
        if config.no_tracing:
            raise RuntimeError(
                f"re-tracing function {self._name()} for `jit`, but 'no_tracing' is set"
            )
        _stats["traces"] += not self._library
        static_pos = dict((k, v) for k, v in static if isinstance(k, int))
        static_kw = {k: v for k, v in static if isinstance(k, str)}
        store: list = []
        refs: list = []  # the Refs made outside `fun` that it uses, found while tracing

        def bind(ref: Any) -> Any:  # a Ref found: its value a new input, after the others
            refs.append(ref)
            return scope.trace.late_arg(ref.aval.inner_aval)

        scope = ref_scope.Scope(binding=True, bind=bind)

        def flat_fun(*flat_leaves):
            dyn = list(flat_leaves)
            for i, ref in key[5]:  # the Refs passed as arguments, back in their places
                dyn.insert(i, ref)
            dyn_args, dyn_kwargs = tree_util.tree_unflatten(in_tree, dyn)
            it = iter(dyn_args)
            full = [static_pos[i] if i in static_pos else next(it) for i in range(len(args))]
            with ref_scope.entered(scope):
                out = self._fun(*full, **dyn_kwargs, **static_kw)
                if refs:
                    out = (out, [scope.bound[r] for r in refs])
            out_flat, out_tree = tree_util.tree_flatten(tree_util.tree_map(_float0_node, out))
            returned = [o for o in tree_util.tree_leaves(out, is_leaf=_is_ref) if _is_ref(o)]
            if returned:
                dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_kw}
                raise self._returned_ref_error(returned[0], key[5], args, dyn_kwargs, static)
            store.append(out_tree)
            try:
                return [as_output_value(o) for o in out_flat]
            except InvalidJaxTypeError:
                raise self._output_type_error(out) from None

        # no full collection over the whole process while tracing (`gc_pause`): one took
        # 0.1 s of the ResNet-10's cold first call once init had compiled eager loops
        try:
            with gc_pause.paused():
                staged, consts = trace_to_jaxpr(
                    flat_fun,
                    [key_aval(k) for k in key[1]],
                    dce=False,
                    arguments=leaves if placement.committed_to_device else None,  # `typeof`
                    describe=lambda k: self._describe(k, args, kwargs, static),
                )
        finally:
            # `scope` and `bind` refer to each other: a garbage cycle that kept the trace, and
            # with it the outer trace's tracers a nested jit's arguments are (kept once an array
            # was committed to a device), alive until the collector ran
            scope.bind = scope.trace = None
        # JAX's jitted library functions keep their unused equations
        jaxpr = close_over_consts(staged if self._library else dce_jaxpr(staged))
        entry = cache[key] = _Entry(jaxpr, consts, store[0], tuple(refs), staged)
        return entry

    def trace(self, *args: Any, **kwargs: Any) -> Traced:
        """Stages `fun` for these arguments, as `jax.jit(f).trace` (see `core/jit/stages.py`).

        Args:
          *args, **kwargs: arguments as for a call (arrays, or anything with `shape` and
            `dtype` such as a `ShapeDtypeStruct`: their shapes and dtypes are what counts;
            static arguments by value).

        Returns:
          A `Traced`: `.jaxpr` is the staged program, `.lower()` the next stage.
        """
        entry, _ = self._entry(args, kwargs, abstract_leaf_key)
        static, dyn_args, dyn_kwargs = self._split(args, kwargs)
        in_tree = tree_util.tree_structure((tuple(dyn_args), dyn_kwargs))
        in_avals = [v.aval for v in entry.jaxpr.invars[len(entry.consts) :]]
        # the static arguments as None (no leaves), for the dynamic leaves' names
        static_pos = {k for k, _ in static if isinstance(k, int)}
        named = [None if i in static_pos else a for i, a in enumerate(args)]
        named_kw = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        names = source_info.arg_names(self._fun, tuple(named), named_kw)
        return Traced(self, entry, in_tree, in_avals, static, names)

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """`self.trace(*args, **kwargs).lower()`: the generated program, as `jax.jit(f).lower`."""
        return self.trace(*args, **kwargs).lower()

    def _call_compiled(self, traced: Traced, hit: tuple, args: tuple, kwargs: dict) -> Any:
        """Runs a `Compiled` of this function on the dynamic arguments (the static ones were
        fixed when tracing, as in JAX) of the signature it was traced for."""
        _, _, vals = check_compiled_call(
            args, kwargs, traced._in_tree, traced._in_avals, _concrete_inputs, traced._arg_names
        )
        return call_path.run(hit, vals)

    def _evict(self, cache: dict) -> None:
        """Drops the least recently used signatures beyond `config.jit_cache_max_entries`
        (their jaxprs, compiled kernels and generated modules go with them)."""
        while len(cache) > config.jit_cache_max_entries:
            del cache[min(cache, key=lambda k: cache[k].used)]
        self._drop_fast()  # the fast paths hold kernels of evicted entries too

    def _drop_fast(self) -> None:
        self._fast.clear()
        self._guards = []
        self._guarded.clear()

    def clear_cache(self) -> None:
        self._cache().clear()
        self._drop_fast()

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """The output's shapes and dtypes for these arguments (static ones by value), as
        `jax.jit(f).eval_shape`.

        Args:
          *args, **kwargs: arguments as for `trace`.

        Returns:
          The output tree with a `ShapeDtypeStruct` (with its weak type) per leaf.
        """
        return self.trace(*args, **kwargs).out_info

    def __repr__(self) -> str:
        return f"<PjitFunction of {self._fun!r}>"


def _validate_static(
    sig: inspect.Signature, argnums: tuple, argnames: tuple, what: str = "static"
) -> None:
    """Raises `StaticArgumentError` for static (or, `what="donate"`, donated) argnums and
    argnames the signature cannot take, with JAX's messages."""
    kinds = [p.kind for p in sig.parameters.values()]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    n_pos = sum(k in positional for k in kinds)
    var_pos = inspect.Parameter.VAR_POSITIONAL in kinds
    if argnums and not var_pos and (-min(argnums) > n_pos or max(argnums) >= n_pos):
        raise StaticArgumentError(
            f"Jitted function has {what}_argnums={argnums}, but only accepts {n_pos} "
            f"positional arguments.\nCount from 0, or use {what}_argnames=."
        )
    params = sig.parameters
    bad_kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_POSITIONAL)
    pos_only = {n for n in argnames if n in params and params[n].kind in bad_kinds}
    if pos_only:
        raise StaticArgumentError(
            f"Jitted function has invalid argnames {pos_only} in {what}_argnames. These are "
            f"positional-only\nUse {what}_argnums= for them."
        )
    if inspect.Parameter.VAR_KEYWORD not in kinds and set(argnames) - set(params):
        raise StaticArgumentError(
            f"Jitted function has invalid argnames {set(argnames) - set(params)} in "
            f"{what}_argnames. Function does not take these args.\nIt takes {list(params)}."
        )


def _hashable(v: Any) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


# where functions explained as never seen were defined (`Jitted._explain_miss`)
_defined_sites: set[tuple[str, int]] = set()
_WEAK_TYPES_DOC = "https://docs.jax.dev/en/latest/type_promotion.html#weak-types"


def _explain(key: tuple, old_keys: list[tuple], names: list[str]) -> str:
    """How `key` differs from the most similar cached key, in JAX's sections (different input
    pytree, different input types, static arguments, tracing context), one ``*`` line a
    difference."""

    def short(k: tuple, weak: bool) -> str:
        text = key_aval(k).str_short(short_dtypes=True)
        if len(k) > 3:  # inside a shard_map body: the mesh axes it varies along
            text += "{V:" + ",".join(map(str, sorted(k[3]))) + "}"
        return text + (f"{{weak_type={k[2]}}}" if weak else "")

    def diffs(old: tuple) -> list[str]:
        out = []
        if old[0] != key[0]:
            out.append(f"  different input pytree:\n  * now {key[0]} and before {old[0]}")
        else:
            leaves = [
                f"  * at {names[i] if i < len(names) else f'args[{i}]'}, now "
                f"{short(b, a[2] != b[2])} and before {short(a, a[2] != b[2])}"
                + (f"\n    see {_WEAK_TYPES_DOC}" if a[2] != b[2] else "")
                for i, (a, b) in enumerate(zip(old[1], key[1]))
                if a != b
            ]
            if leaves:
                out.append("  different input types:\n" + "\n".join(leaves))
        if old[2] != key[2] or old[7] != key[7]:
            out.append(
                "  different value of static args:\n"
                f"  * now {_static_text(key)} and before {_static_text(old)}"
            )
        if old[3] != key[3]:
            flags = [
                f"  * jax_{name} differs: now {b} and before {a}"
                for name, a, b in zip(config.trace_context_names(), old[3], key[3])
                if a != b
            ]
            out.append(
                "  Tracing context doesn't match, e.g. due to config or context manager.\n"
                + "\n".join(flags)
            )
        return out

    best = min((diffs(k) for k in old_keys), key=lambda d: sum(t.count("\n  * ") for t in d))
    return "\n".join(best) or "  explanation unavailable! (an identical key)"


def _static_text(key: tuple) -> str:
    """A cache key's static arguments as JAX's explanation lists them: ``1.0, 'foo'``."""
    return ", ".join(f"{k}={v!r}" if isinstance(k, str) else repr(v) for k, v in key[2])


class ShardedJitted(Jitted):
    """A `Jitted` whose dynamic positional arguments are placed by `in_shardings` (one
    sharding, or a tree prefix of them) and whose outputs are placed by `out_shardings`.

    numbax computes a jitted function on one thread, so shardings do not split the program; as
    in JAX they are checked against the arrays (unknown mesh axes, rank, sizes not divisible)
    and the results carry `out_shardings` (`y.sharding`). The wrapper costs one placement per
    call and is only used when shardings are given; plain `jit` keeps its fast path."""

    def __init__(self, *args: Any, in_shardings: Any, out_shardings: Any) -> None:
        super().__init__(*args)
        self._in_shardings = in_shardings
        self._out_shardings = out_shardings

    def _check_devices(self, args: tuple) -> None:
        """JAX's check: committed arguments must live on the devices of `out_shardings`."""
        out_devices = _devices(self._out_shardings)
        if not out_devices:
            return
        names = list(self._signature.parameters) if self._signature is not None else []
        for i, a in enumerate(args):
            for leaf in tree_util.tree_leaves(a):
                if isinstance(leaf, Array) and leaf.committed and leaf.devices() - out_devices:
                    name = names[i] if i < len(names) else f"args[{i}]"
                    ids = sorted(d.id for d in leaf.devices())
                    shape = f"{leaf.dtype.name}[{','.join(map(str, leaf.shape))}]"
                    raise IncompatibleDevicesError(
                        "Received incompatible devices for jitted computation. Got argument "
                        f"{name} of {self._name()} with shape {shape} and with "
                        f"device ids {ids} on platform CPU and explicit output sharding with "
                        f"device ids {sorted(d.id for d in out_devices)} on platform CPU"
                    )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        typed = any(  # an input placed by a NamedSharding carries it in its type (JAX 0.10)
            isinstance(getattr(leaf, "_sharding", None), NamedSharding)
            for leaf in tree_util.tree_leaves((args, kwargs))
        )
        if self._in_shardings is not None:
            dynamic = [i for i in range(len(args)) if i not in self._static_argnums]
            placed = place(tuple(args[i] for i in dynamic), self._in_shardings, "jit in_shardings")
            args = list(args)
            for i, value in zip(dynamic, placed):
                args[i] = value
        if self._out_shardings is not None:
            self._check_devices(args)
        out = super().__call__(*args, **kwargs)
        if self._out_shardings is None:
            device = _one_device(self._in_shardings)
            if device is not None:  # JAX computes where the inputs are: on their one device
                return place(out, device, "jit in_shardings")
            return out if typed or self._in_shardings is None else untyped_results(out)
        return place(out, self._out_shardings, "jit out_shardings")


def _devices(shardings: Any) -> set:
    leaves = tree_util.tree_leaves(shardings, is_leaf=lambda s: isinstance(s, Sharding))
    return set().union(*[s.device_set for s in leaves if isinstance(s, Sharding)])


def _one_device(shardings: Any) -> SingleDeviceSharding | None:
    # The `SingleDeviceSharding` every input sharding is, if they are all the same one.
    leaves = tree_util.tree_leaves(shardings, is_leaf=lambda s: isinstance(s, Sharding))
    if leaves and all(isinstance(s, SingleDeviceSharding) and s == leaves[0] for s in leaves):
        return leaves[0]
    return None


class _NotGiven:
    """`jit`'s default for `fun`: none given (`jit(static_argnames=...)` is a decorator);
    `jit(None)` is JAX's error."""


_NOT_GIVEN = _NotGiven()


def jit(
    fun: Callable | _NotGiven = _NOT_GIVEN,
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: Any = None,
    keep_unused: bool = False,
    device: Any = None,
    backend: str | None = None,
    inline: bool = False,
    in_shardings: Any = None,
    out_shardings: Any = None,
    compiler_options: dict[str, Any] | None = None,
) -> Any:
    """Compiles `fun` into one native function per input signature.

    The first call with a new signature (shapes, dtypes, static values, tree structure)
    traces `fun` into a jaxpr and compiles it with numba; later calls with that signature run
    the compiled code. Compiled code is also cached on disk, so a new process skips the numba
    compilation of programs it has seen (see the README's "Running the tests").

    Example::

        >>> import core, core.numpy as jnp
        >>> @core.jit
        ... def selu(x, alpha=1.67, lmbda=1.05):
        ...     return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
        >>> selu(jnp.arange(3.0))
        Array([0.  , 1.05, 2.1 ], dtype=float32)
        >>> from functools import partial
        >>> @partial(core.jit, static_argnames="n")
        ... def power(x, n):
        ...     for _ in range(n - 1):  # a Python loop over a static value: unrolled
        ...         x = x * x
        ...     return x
        >>> power(jnp.float32(2.0), n=3)
        Array(16., dtype=float32)

    Args:
      fun: the function to compile (arrays and pytrees of arrays in and out).
      static_argnums: positions of arguments that are compile-time constants (hashable);
        each new value compiles again.
      static_argnames: names of such arguments.
      donate_argnums: positions of arguments whose arrays the call may take for its results:
        as in JAX, each one an output can take is deleted after the call (reading it raises
        "Array has been deleted"), the others stay and a warning names them
        (`core/jit/donation.py`; numbax reuses no buffer).
      donate_argnames: names of such arguments.
      keep_unused: whether a donated argument the function never reads (after dead code is
        dropped) still counts for donation. False (JAX's default): such an argument is pruned
        as JAX prunes it, neither deleted nor warned about. numbax's kernels never receive an
        unused argument's buffer either way.
      device: accepted for compatibility (ignored; see `core.device_put` and `core.pmap`).
      backend: "numba" (default, `config.jit_backend`) or "python" (numpy, for debugging).
      inline: whether a call staged into an enclosing trace (`make_jaxpr`, an outer `jit`)
        stages `fun`'s equations there, as JAX inlines it, instead of a nested `jit`.
      in_shardings: shardings the positional (non-static) arguments are placed by: one, or a
        tree prefix of them (`ShardedJitted`; checked as in JAX, no data moves).
      out_shardings: shardings the outputs are placed by (recorded as `y.sharding`).
      compiler_options: accepted for compatibility (XLA's options; numba has none of them).

    Any other keyword raises `TypeError`, as in JAX.

    Returns:
      A `Jitted` callable; ``jit(static_argnames=...)`` without ``fun`` returns a decorator.
    """

    def norm(x, typ):
        if x is None:
            return ()
        out = (x,) if isinstance(x, typ) else tuple(x)
        # positions as JAX takes them: anything `operator.index` takes ("'str' object cannot
        # be interpreted as an integer" otherwise)
        return tuple(map(operator.index, out)) if typ is int else out

    def wrap(f: Callable) -> Jitted:
        check_callable(f)
        if backend not in (None, "numba", "python", "cpu"):
            raise ValueError(f"unknown jit backend {backend!r}; use 'numba' or 'python'")
        args = (
            f,
            norm(static_argnums, int),
            norm(static_argnames, str),
            norm(donate_argnums, int),
            None if backend == "cpu" else backend,
            norm(donate_argnames, str),
            keep_unused,
            (
                static_argnums is None or static_argnames is None,
                donate_argnums is None or donate_argnames is None,
            ),
        )
        if in_shardings is None and out_shardings is None:
            jitted = Jitted(*args)
        else:
            jitted = ShardedJitted(*args, in_shardings=in_shardings, out_shardings=out_shardings)
        jitted._inline = inline
        return jitted

    return wrap if isinstance(fun, _NotGiven) else wrap(fun)


def stage(
    fun: Callable, static_argnums: tuple[int, ...], args: tuple, kwargs: dict
) -> tuple[ir.ClosedJaxpr, Any, tuple]:
    """`fun` staged for these arguments as `jit(fun, static_argnums=...).trace` stages it: what
    `make_jaxpr` and `eval_shape` show (JAX's are `jit(f).trace`), from the trace cache that
    `jit(fun)` calls share, so that a function staged by one and called by the other is traced
    once, as in JAX.

    Args:
      fun: the function.
      static_argnums: the positional arguments passed as they are.
      args, kwargs: the example arguments (arrays, scalars or `ShapeDtypeStruct`s).

    Returns:
      The jaxpr as traced (its unused equations kept) with its consts, the output tree, and
      the Refs made outside `fun` that it writes. The values of the Refs it uses (which `jit`
      takes as its last inputs) are closed over, as `make_jaxpr` shows them: constvars, in
      the order the trace first used them and the other constants.
    """
    entry, _ = Jitted(fun, static_argnums, (), (), None)._entry(args, kwargs, abstract_leaf_key)
    staged = entry.staged
    if not entry.refs:
        return ir.ClosedJaxpr(staged, entry.consts), entry.out_tree, ()
    n = len(entry.refs)
    ref_vars, new_values = staged.invars[-n:], staged.outvars[-n:]
    written = tuple(r for r, v, new in zip(entry.refs, ref_vars, new_values) if new is not v)
    # a Var's count orders the variables as the trace made them: a const at its first use, a
    # Ref's value where the function first touched the Ref
    closed = sorted(
        zip(staged.constvars + ref_vars, [*entry.consts, *map(ref_scope.read, entry.refs)]),
        key=lambda pair: pair[0].count,
    )
    jaxpr = ir.Jaxpr([v for v, _ in closed], staged.invars[:-n], staged.eqns, staged.outvars[:-n])
    out_tree = entry.out_tree.children()[0]  # (the output, the Refs' new values)
    return ir.ClosedJaxpr(jaxpr, [c for _, c in closed]), out_tree, written


register_jit_stage(stage)


def clear_caches() -> None:
    """Drops every trace and compile cache (like `jax.clear_caches`)."""
    _trace_caches.clear()
    _executables.clear()
    _derived_jaxprs.clear_memo()


class _Float0:
    """A `float0` output of a jitted function (tangent data, no values): a pytree node with no
    leaves, so the output tree rebuilds it outside the compiled program, as JAX returns one."""

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape


tree_util.register_pytree_node(
    _Float0, lambda z: ((), z.shape), lambda shape, _: np.zeros(shape, dtypes.float0)
)


def _float0_node(x: Any) -> Any:
    """`x`, or the `_Float0` node standing for it if it is a numpy `float0` array."""
    if isinstance(x, np.ndarray) and x.dtype == dtypes.float0:
        return _Float0(x.shape)
    return x
