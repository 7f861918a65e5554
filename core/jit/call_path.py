"""The fast call path of `jit`: what a call costs once its signature is compiled.

A cache hit with concrete inputs (Arrays, numpy arrays, Python scalars, typed key arrays)
skips tracing and the `jit` primitive. Two levels, cheapest first:

1. guards (`make_guard`): per known input structure, generated straight-line code that checks
   the arguments' structure, leaf types and interned avals and picks the kernel's input
   values without flattening (a key array: its implementation, then its data's Array);
2. the fast cache: flatten, key on the tree and the identities of the leaves' interned avals.

Either way the compiled kernel is called on the leaves' numpy values and a generated output
builder (`output_builder`) turns its results into the output tree of Arrays; or, for an
expensive program or pending inputs, the call is queued on a device (`core/jit/dispatch.py`,
asynchronous dispatch) and returns pending Arrays.

Kernels are compiled for C-contiguous arrays only (`codegen.signature`), and every input
reaches them that way without a check per call on the common path: an `Array`'s buffer is
C-contiguous and of its aval's dtype by construction (`core.array.Array`), so Array leaves pass
as they are; numpy leaves are the only ones checked (`flags.c_contiguous`, a copy only for a
view such as a transposed or strided one). A TypeError from a kernel call is therefore always
the kernel's own (a host callback's) and propagates; a kernel never runs twice. Misses go to
`Jitted._miss` (core/jit/api.py), which traces, compiles and normalizes inputs before calling.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import committed, tree_util
from core.array import Array
from core.array import placement as _placement
from core.avals import ShapedArray, interned
from core.config import config
from core.debug_nans import InvalidJitOutput, rerun_deoptimized
from core.jit import dispatch as _dispatch
from core.jit import donation
from core.jit.kernel_call import as_c, concrete_inputs, reraise_signal, ticks
from core.jit.threads import FOLLOW_MIN_US as _FOLLOW_MIN_US
from core.jit.threads import follow_on_caller as _follow_on_caller
from core.pending import PendingArray
from core.prims import prng
from core.prng_key import PRNGKeyArray
from core.profiler import hooks as _profiler
from core.sharding_propagation import jaxpr_specs
from core.trace import EvalTrace, current_trace
from core.tree_util.flatten import _flatten as _flatten_node


def output_builder(out_avals: list[ShapedArray], out_tree: Any, head: str, exprs: list[str]):
    """A generated function from a kernel's results to the output tree of `Array`s (with
    their interned avals): straight-line code, no loop over the outputs or the tree.

    Args:
      out_avals: the avals of the outputs.
      out_tree: the output tree (a `PyTreeDef`).
      head: the statements that name the kernel's results (the result is `r`).
      exprs: the numpy value of each output, in terms of those names.

    Returns:
      `build(r)`, the output tree. For asynchronous dispatch (`core/jit/dispatch.py`) it has
      two siblings: `build.pend(task)`, the output tree of `PendingArray`s of `task` and the
      list of its leaves, and `build.fill(leaves, r)`, which gives those their values.
    """
    namespace: dict = {"A": Array, "P": PendingArray, "K": PRNGKeyArray, "new": object.__new__}
    lines, pending, filling, keys = [], [], [], []
    for k, (expr, a) in enumerate(zip(exprs, out_avals, strict=True)):
        if prng.is_key(a):  # keys: an Array of their data (`d{k}`), wrapped
            keys.append((k, prng.impl_of(a.dtype).name))
            a = prng.physical_aval(a)
        namespace[f"v{k}"] = interned(a.shape, a.dtype, a.weak_type)
        # Array(...) without the call of __init__: a quarter cheaper, 20 outputs save 0.7 us
        lines.append(f"a{k} = new(A); a{k}._value = {expr}; a{k}._aval = v{k}")
        pending.append(f"a{k} = new(P); a{k}._aval = v{k}; a{k}._pending = t")
        filling.append(f"a = o[{k}]; a._value = {expr}; a.__class__ = A")
    names = [f"a{k}" for k in range(len(exprs))]
    wrapped = list(names)
    for k, impl in keys:
        wrapped[k] = f"d{k}"
        for part in (lines, pending):
            part.append(f"d{k} = K(a{k}, {impl!r})")
    body = out_tree.builder_source(wrapped, namespace)
    code, pend, fill = ("".join(f"    {ln}\n" for ln in part) for part in (lines, pending, filling))
    exec(f"def build(r):\n    {head}\n{code}    return {body}\n", namespace)
    exec(f"def pend(t):\n{pend}    return {body}, [{', '.join(names)}]\n", namespace)
    exec(f"def fill(o, r):\n    {head}\n{fill}    return None\n", namespace)
    build = namespace["build"]
    build.pend, build.fill = namespace["pend"], namespace["fill"]
    return build


def make_guard(nargs: int, node: Any, leaves: list, avals: list) -> Callable | None:
    """A generated function `guard(args)` returning the kernel's input values when `args` has
    this structure (`node`) and these leaf types and avals, else None; or None when the
    structure cannot be checked that way (see `tree_util.guard_source`; Python scalar leaves).

    It is what flattening + keying would decide, at a fraction of the cost: a train state of
    27 leaves in 21 nodes takes 14 us to flatten, its guard about 3 us.
    """
    ns: dict = {"A": Array, "P": PendingArray, "K": PRNGKeyArray, "NDA": np.ndarray, "C": as_c}
    ns.update(config=config, CTX=config._ctx)
    lines = [f"if len(args) != {nargs} or config._ctx != CTX: return None"]
    root = "args[0]" if nargs == 1 else "args"
    exprs = tree_util.guard_source(tree_util.PyTreeDef(node), root, ns, lines)
    if exprs is None:
        return None
    # `guard` picks the values; its sibling `guard.leaves` the leaves themselves, pending
    # arrays accepted (for asynchronous dispatch: `core.jit.dispatch.chained_guarded`)
    picks, keeps = list(lines), list(lines)
    for k, (expr, x, aval) in enumerate(zip(exprs, leaves, avals, strict=True)):
        for out in (picks, keeps):
            out.append(f"l{k} = {expr}")
        if type(x) is PRNGKeyArray:  # keys: checked and passed as the Array of their data
            ns[f"i{k}"] = x.impl
            for out in (picks, keeps):
                out.append(f"if type(l{k}) is not K or l{k}.impl != i{k}: return None")
                out.append(f"l{k} = l{k}._base")
            x, aval = x._base, x._base._aval
        if type(x) is Array:
            ns[f"v{k}"] = aval
            picks.append(f"if type(l{k}) is not A or l{k}._aval is not v{k}: return None")
            picks.append(f"x{k} = l{k}._value")
            keeps.append(
                f"if type(l{k}) is not A and type(l{k}) is not P or l{k}._aval is not v{k}: "
                "return None"
            )
        elif x.dtype == aval.dtype:  # a numpy array
            ns[f"d{k}"] = aval.dtype
            check = (
                f"if type(l{k}) is not NDA or l{k}.dtype != d{k} or l{k}.shape != {aval.shape}: "
                "return None"
            )
            picks.append(check)
            picks.append(f"x{k} = l{k} if l{k}.flags.c_contiguous else C(l{k}, d{k})")
            keeps.append(check)
        else:
            return None
    names = ", ".join(f"x{k}" for k in range(len(exprs)))
    picks.append(f"return [{names}]")
    keeps.append(f"return [{', '.join(f'l{k}' for k in range(len(exprs)))}]")
    for name, body in (("guard", picks), ("leaves", keeps)):
        code = "".join(f"        {line}\n" for line in body)
        exec(
            f"def {name}(args):\n    try:\n{code}"
            "    except (LookupError, AttributeError, TypeError):\n        return None\n",
            ns,
        )
    guard = ns["guard"]
    guard.leaves = ns["leaves"]
    guard.numpy_slots = numpy_slots(leaves)
    return guard


def numpy_slots(leaves: list) -> tuple[int, ...]:
    """The positions of the numpy arrays among `leaves`: the kernel inputs that may be the
    caller's own (mutable) buffers, which an asynchronous call copies (`core/jit/dispatch.py`)."""
    return tuple(k for k, x in enumerate(leaves) if type(x) is np.ndarray)


def run(hit: tuple, vals: list[np.ndarray]) -> Any:
    """Calls the kernel of `hit` (kernel, build, ...) on C-contiguous arrays of its input avals'
    dtypes and builds the output tree of Arrays (`reraise_signal` for a signal's exception)."""
    try:
        return hit[1](hit[0](*vals))
    except SystemError as err:
        reraise_signal(err)
        raise


def call(self, *args: Any, **kwargs: Any) -> Any:
    """`Jitted.__call__`: a guard or the fast cache, else `Jitted._miss`; on arrays committed
    to a device, its results are committed to it too (`core/committed.py`); donated arguments
    are deleted after the call (`core/jit/donation.py`)."""
    try:
        if _placement.committed_to_device:
            leaves = tree_util.tree_leaves((args, kwargs))
            names = lambda: _leaf_names(self, args, kwargs)  # noqa: E731 - only for an error
            specs = lambda spec_for, sizes: _out_specs(self, args, kwargs, spec_for, sizes)  # noqa: E731
            out = committed.follow(_call(self, args, kwargs), leaves, self._name(), names, specs)
        else:
            out = _call(self, args, kwargs)
    except InvalidJitOutput as err:  # debug_nans / debug_infs: JAX calls `fun` without jit
        rerun_deoptimized(self._fun, self._name(), args, kwargs, err.kind)
    except OverflowError:  # a Python int argument too wide for its integer: JAX's words
        overflow = self.overflow_error(args, kwargs)
        if overflow is None:
            raise
        raise overflow from None
    donating = self._donate_argnums or self._donate_argnames
    if donating and type(current_trace()) is EvalTrace and config._jit_enabled:
        statics = self._static_argnums | self._static_argnames
        # every call path marks its trace cache entry with a new tick: the call's is the newest
        entry = max(self._cache().values(), key=lambda e: e.used)
        if self._keep_unused:
            unused = frozenset()
        elif entry.unused is None:  # JAX prunes them before it matches donated buffers
            unused = entry.unused = donation.unused_leaves(
                entry.jaxpr, len(entry.consts), len(entry.refs)
            )
        else:
            unused = entry.unused
        out = donation.delete_donated(
            self._donate_argnums, self._donate_argnames, args, kwargs, out, statics, unused,
            entry.donations,
        )  # fmt: skip
    return out


def _out_specs(self: Any, args: tuple, kwargs: dict, spec_for: Callable, sizes: dict) -> list:
    """The specs of a call's outputs on `NamedSharding`-placed inputs: its traced program's
    (`core/sharding_propagation.py`)."""
    entry, leaves = self._entry(args, kwargs)
    in_specs = [None] * len(entry.consts) + [spec_for(x) for x in leaves]
    key = (tuple(in_specs), tuple(sizes.items()))
    found = entry.specs.get(key)
    if found is None:
        found = entry.specs[key] = jaxpr_specs(
            entry.jaxpr, in_specs[: len(entry.jaxpr.invars)], sizes
        )
    return found


def _leaf_names(self: Any, args: tuple, kwargs: dict, skip: set = frozenset()) -> list[str]:
    """The names JAX's errors give the leaves of a call's arguments: the parameter's name,
    with the leaf's index for a pytree argument (the positions in `skip`, static, left out)."""
    params = list(self._signature.parameters) if self._signature is not None else []
    names = []
    for key, arg in [*enumerate(args), *kwargs.items()]:
        if key in skip:
            continue
        name = params[key] if isinstance(key, int) and key < len(params) else str(key)
        if isinstance(key, int) and key >= len(params):
            name = f"args[{key}]"
        n = len(tree_util.tree_leaves(arg))
        names += [name] if n == 1 else [f"{name}[{j}]" for j in range(n)]
    return names


def _call(self: Any, args: tuple, kwargs: dict) -> Any:
    if _profiler.ACTIVE and not _profiler.IN_JIT:  # a trace is being recorded
        return self._profiled(args, kwargs)
    fast_key = None
    concrete = type(current_trace()) is EvalTrace
    cached = not kwargs and concrete and config._jit_enabled  # may a cache hit skip tracing
    if self._guards and cached:
        if _dispatch._outstanding:  # an input may be pending: queue behind it, do not wait
            out = _dispatch.chained_guarded(self, args)
            if out is not _dispatch.NOT_CHAINED:
                return out
        for guard, kernel, build, entry in self._guards:
            vals = guard(args)
            if vals is not None:
                entry.used = next(ticks)
                # worth a thread hand-off, or side effects to keep behind calls in flight
                if entry.cost >= config._async_min_us or entry.ordered and _dispatch._outstanding:
                    return _dispatch.call(self, kernel, build, vals, args, guard.numpy_slots)
                if entry.cost >= _FOLLOW_MIN_US:
                    _follow_on_caller()
                try:  # `run`, inlined: a call costs 0.1 us
                    return build(kernel(*vals))
                except SystemError as err:
                    reraise_signal(err)
                    raise
    if self._fast_ok and cached:
        leaves: list = []
        node = _flatten_node(args[0] if len(args) == 1 else args, leaves)
        if _dispatch.in_flight():  # an input may be pending: queue behind it, do not wait
            out = _dispatch.chained(self, len(args), node, leaves)
            if out is not _dispatch.NOT_CHAINED:
                return out
        try:  # the common case: every leaf is an Array
            ids = tuple([id(x._aval) for x in leaves])
            vals = [x._value for x in leaves]
        except AttributeError:
            avals, vals = concrete_inputs(leaves)
            ids = None if avals is None else tuple(map(id, avals))
        if ids is not None:
            fast_key = (len(args), node, ids, config._ctx, self._backend)
            try:
                hit = self._fast.get(fast_key)
            except TypeError:  # unhashable pytree aux data: `_miss` compares it, as JAX does
                fast_key = hit = None
            if hit is not None:
                hit[3].used = next(ticks)
                if fast_key not in self._guarded:
                    self._add_guard(fast_key, hit, leaves)
                if _dispatch.asynchronous(hit[3]):
                    return _dispatch.call(self, hit[0], hit[1], vals, args, numpy_slots(leaves))
                if hit[3].cost >= _FOLLOW_MIN_US:
                    _follow_on_caller()
                try:
                    return hit[1](hit[0](*vals))
                except SystemError as err:
                    reraise_signal(err)
                    raise
    return self._miss(args, kwargs, fast_key, concrete)
