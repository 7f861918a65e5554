"""Primitives: the smallest operations the core knows, each with its rules side by side.

A `Primitive` is a name plus one slot per transformation. The definition of each primitive (in
`core/prims/`) fills the slots right where the primitive is declared:

    impl            numpy arrays in -> numpy array(s) out (the eager interpreter and the
                    reference backend of `jit`)
    abstract_eval   ShapedArrays in -> ShapedArray(s) out (staging, typechecking, and the
                    weak types of eager results too: one rule for both)
    jvp             (primals, tangents, **params) -> (primal_out, tangent_out); tangents may be
                    the symbolic `Zero`
    transpose       (cotangent, *args, **params) -> one cotangent (or None) per arg; the linear
                    args arrive as `UndefinedPrimal(aval)` (only linear primitives have one)
    batch           (args, batch_dims, **params) -> (out, out_batch_dim); a dim is an int or None
    partial_eval    higher-order primitives only: split known from unknown work

`jax_params` is not a rule but a translation: the parameters JAX's `bind` passes that numbax's
rules do not take (`accuracy=None`, `out_sharding=None`, ...), so code written against
`jax.lax.exp_p.bind(x, accuracy=None)` runs on `core.lax.exp_p` (see `jax_params` below).

Back ends are not slots: the numba lowering rules are registered in the back end
(`core/backends/numba/registry.py`, `register_lowering(prim, rule)`, as JAX's
`mlir.register_lowering`), and the numpy back end runs `impl`. A primitive JAX has and numbax
computes from others (`split` is slices, `erfc` a polynomial) sets `composition`, a function of
its operands and parameters binding those others: jaxprs print JAX's one equation, and `jit`
compiles the composition in its place (`core.jit.canonical.composition_jaxpr`).

A program's own primitive (`jax.extend.core.Primitive("multiply_add")`, JAX's tutorial "How
JAX primitives work") is an `ExtensionPrimitive`: JAX's semantics for a primitive defined
outside the library (eager calls run `impl` alone, names may repeat), and under `jit`, with no
numba lowering, its `impl` runs as a host call from the compiled code. JAX's rule tables
(`ad.primitive_jvps`, `ad.primitive_transposes`, `batching.primitive_batchers`) are
`RuleTable`s over the slots above.

`prim.bind(*args, **params)` is the single entry point: it hands the primitive to the current
interpreter (see `core/trace.py`). Array operands are positional; parameters are keywords with
hashable values, so equations can be printed, compared and used in cache keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.errors import PrimitiveRuleError
from core.trace import _state as _trace_state
from core.trace import eval_trace, set_current_trace, to_numpy
from numbax.errors import NumbaxError

ANY = object()  # `jax_params(precision=ANY)`: any value is accepted (and dropped)


class JaxParamError(NumbaxError, NotImplementedError):
    """A primitive bound with a JAX parameter value numbax does not implement.

    Failing code: ``lax.exp_p.bind(x, accuracy=lax.Tolerance(atol=1e-3))`` or
    ``lax.dot_general_p.bind(a, b, ..., out_sharding=NamedSharding(...))``. Fix: leave the
    parameter at JAX's default (numbax has one implementation per primitive and computes on
    one device), or call the `core.lax` function, which takes numbax's parameters.
    """

    def __init__(self, prim: str, param: str, value: Any, accepted: Any):
        super().__init__(
            f"{prim}_p.bind: numbax does not implement {param}={value!r} (only "
            f"{param}={accepted!r}, JAX's default); leave it out or call lax.{prim}"
        )


_REGISTRY: dict[str, Primitive] = {}


class Primitive:
    """An operation with one rule per transformation. See the module docstring."""

    _registered = True  # in `all_primitives`, its name unique
    impl_on_host = False  # under `jit` without a numba lowering, `impl` runs as a host call
    on_keys = False  # a key primitive (`core/prims/prng.py`): eager binds go to `trace.on_keys`
    # n-ary elementwise: rank-0 operands and size-1 axes broadcast to the result's shape
    # (`core/prims/elementwise.py`); the compiler makes the broadcasts explicit
    broadcasting = False

    def __init__(
        self,
        name: str,
        multiple_results: bool = False,
        higher_order: bool = False,
        *,
        linear: bool = False,
        collective: bool = False,
        effectful: bool = False,
        dtype_kinds: str | None = None,
        elementwise: bool = False,
    ):
        """Declares a primitive; its facts are fields, read by the interpreters and `jit`.

        Args:
          name: the name jaxprs print (unique).
          multiple_results: `bind` returns a list.
          higher_order: its params hold jaxprs (control flow, `jit`, custom rules).
          linear: linear in (some of) its operands, so it has a `transpose` rule.
          collective: communicates along a named axis (`psum`, `axis_index`, ...): the batching
            interpreter passes it its own trace.
          effectful: has a side effect (callbacks): dead-code elimination keeps it.
          dtype_kinds: the dtype kinds (`np.dtype.kind` letters, "iufcb") its operands may
            have, where it restricts them: its abstract eval rejects the others, and
            `core.lax`'s checked wrappers read them (`core/lax/checked.py`).
          elementwise: each element of each result is computed from the operands' elements at
            its index alone (operands of rank 0 or with size-1 axes broadcast), so a slice of
            the operands gives that slice of the results: the batch split keeps a split
            operand split (`core/jit/batch_split/propagate.py`).
        """
        if self._registered and name in _REGISTRY:
            raise ValueError(f"primitive {name!r} is defined twice")
        self.name = name
        self.multiple_results = multiple_results
        self.higher_order = higher_order
        self.linear = linear
        self.collective = collective
        self.effectful = effectful
        self.dtype_kinds = dtype_kinds
        self.elementwise = elementwise
        self.impl: Callable | None = None
        self.abstract_eval: Callable | None = None
        self.jvp: Callable | None = None
        self.transpose: Callable | None = None
        self.batch: Callable | None = None
        self.partial_eval: Callable | None = None
        self.composition: Callable | None = None
        self.jax_params: Callable[[tuple, dict], dict] | None = None
        if self._registered:
            _REGISTRY[name] = self

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive under the current interpreter (JAX's parameters translated
        by `jax_params` first, where the primitive has them)."""
        if params and self.jax_params is not None:
            params = self.jax_params(args, params)
        state = _trace_state
        if state.vma is not None:  # inside a `shard_map(check_vma=True)` body
            return state.vma.bind(self, args, params)
        return state.trace.process_primitive(self, args, params)

    def def_impl(self, f: Callable) -> Callable:
        self.impl = f
        return f

    def def_abstract_eval(self, f: Callable) -> Callable:
        self.abstract_eval = f
        return f

    def def_jvp(self, f: Callable) -> Callable:
        self.jvp = f
        return f

    def def_transpose(self, f: Callable) -> Callable:
        self.transpose = f
        return f

    def def_batch(self, f: Callable) -> Callable:
        self.batch = f
        return f

    def def_partial_eval(self, f: Callable) -> Callable:
        self.partial_eval = f
        return f

    def def_composition(self, f: Callable) -> Callable:
        """`f(*operands, **params)`: the primitive from others, what `jit` compiles."""
        self.composition = f
        return f

    def def_composed(self, f: Callable) -> Callable:
        """`f` as the composition (`def_composition`) and, evaluated eagerly, the `impl`."""
        self.impl = composition_impl(f)
        return self.def_composition(f)

    def __repr__(self) -> str:
        return self.name


def composition_impl(composition: Callable) -> Callable:
    """The `impl` of a primitive numbax computes from others (`Primitive.def_composition`):
    `composition` evaluated eagerly on the numpy operands.

    Args:
      composition: `composition(*operands, **params)` binds the other primitives.

    Returns:
      `impl(*operands, **params)`: a numpy array (a list of them for a list of results).
    """

    def impl(*args: Any, **params: Any) -> Any:
        with set_current_trace(eval_trace):
            out = composition(*args, **params)
        return [to_numpy(o) for o in out] if isinstance(out, (list, tuple)) else to_numpy(out)

    return impl


class CompilerPrimitive(Primitive):
    """A primitive that only the compiler writes into the programs it compiles (not in
    `all_primitives`, no differentiation or batching rules): the bfloat16 rounding of
    `core/prims/narrow.py`, the point gather/scatter of `core/prims/gather_points.py`."""

    _registered = False


class _AnyPrimitive(type):
    """Makes every `Primitive` an instance of `ExtensionPrimitive`, as every JAX primitive is
    a `jax.extend.core.Primitive` (`isinstance(eqn.primitive, core.Primitive)` in a program's
    jaxpr interpreter holds for `lax.exp_p` too)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Primitive)


class ExtensionPrimitive(Primitive, metaclass=_AnyPrimitive):
    """A primitive a program defines (`jax.extend.core.Primitive`), with JAX's semantics.

    Its rules come from JAX's spellings: `def_impl`, `def_abstract_eval` (or
    `def_effectful_abstract_eval`),
    `ad.primitive_jvps[p] = rule` (or `ad.defjvp`), `ad.primitive_transposes[p] = rule`,
    `batching.primitive_batchers[p] = rule`. A missing rule raises `PrimitiveRuleError`
    (a `NotImplementedError`, as JAX raises) naming the one to define. Unlike numbax's own
    primitives it is not listed by `all_primitives` and its name may repeat.

    * Eagerly, `bind` runs `impl` alone (JAX's `EvalTrace`: no abstract evaluation), on the
      operands' numpy values, and returns what `impl` returns, unconverted (a float64 numpy
      array stays one, as in JAX).
    * Under `jit`, numbax has no MLIR: the equation runs `impl` as a host call from the
      compiled code (`core/backends/numba/registry.py`), and `mlir.register_lowering` rules
      are accepted and not used (`core.interpreters.mlir`).
    """

    _registered = False
    impl_on_host = True

    def __init__(self, name: str):
        """Args:
        name: the name jaxprs print (two primitives may share it, as in JAX).
        """
        super().__init__(name)

    def def_effectful_abstract_eval(self, f: Callable) -> Callable:
        """JAX's abstract evaluation that also returns effects, `f(*avals, **params) ->
        (aval(s), effects)`: the primitive becomes `effectful` (numbax has no effect types:
        dead-code elimination keeps its equations).

        Args:
          f: the rule.

        Returns:
          `f`.
        """
        self.effectful = True
        self.abstract_eval = lambda *avals, **params: f(*avals, **params)[0]
        return f

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive under the current interpreter; eagerly, runs `impl`."""
        trace = _trace_state.trace
        if trace is not eval_trace:
            return trace.process_primitive(self, args, params)
        return self._impl([to_numpy(a) for a in args], params)

    def _impl(self, args: list[np.ndarray], params: dict) -> Any:
        if self.impl is None:
            raise PrimitiveRuleError(self.name, "impl")
        return self.impl(*args, **params)

    def run_impl(self, args: list[np.ndarray], params: dict) -> list[np.ndarray]:
        """`impl` on numpy values in the host call `jit` makes: its results as a list of numpy
        arrays of canonical dtypes (the equation's types)."""
        out = self._impl(args, params)
        outs = [np.asarray(o) for o in (out if self.multiple_results else [out])]
        return [o.astype(dtypes.canonicalize_dtype(o.dtype), copy=False) for o in outs]


class RuleTable:
    """One rule slot of every primitive as a mapping, JAX's rule tables:
    `ad.primitive_jvps[p] = rule` sets `p.jvp`, `p in batching.primitive_batchers` says whether
    `p.batch` is defined."""

    def __init__(self, slot: str):
        """Args:
        slot: the `Primitive` attribute the table reads and writes (`jvp`, `transpose`, ...).
        """
        self.slot = slot

    def __setitem__(self, prim: Primitive, rule: Callable) -> None:
        setattr(prim, self.slot, rule)

    def __getitem__(self, prim: Primitive) -> Callable:
        rule = getattr(prim, self.slot)
        if rule is None:
            raise KeyError(prim)
        return rule

    def __contains__(self, prim: Any) -> bool:
        return isinstance(prim, Primitive) and getattr(prim, self.slot) is not None

    def __delitem__(self, prim: Primitive) -> None:
        self[prim]  # KeyError when undefined, as a dict's
        setattr(prim, self.slot, None)

    def get(self, prim: Primitive, default: Any = None) -> Any:
        """The rule of `prim`, or `default` when it has none."""
        return getattr(prim, self.slot) if prim in self else default

    def __repr__(self) -> str:
        return f"RuleTable({self.slot!r})"


def jax_params(prim: Primitive, **accepted: Any) -> None:
    """Lets `prim.bind` take the parameters JAX's binds pass that numbax's rules do not.

    Each keyword names such a parameter and the one value numbax implements (JAX's default,
    usually None; `ANY` for a hint numbax may ignore, such as `precision`; or a function that
    raises what JAX raises for a value it refuses, for a hint such as `accuracy`); `bind`
    drops it when it holds an accepted value and raises `JaxParamError` otherwise. numbax's
    own binds, which never pass these names, go through unchanged.

    Args:
      prim: the primitive.
      **accepted: JAX's parameter names and the values numbax accepts for them.
    """
    names = frozenset(accepted)

    def translate(args: tuple, params: dict) -> dict:
        if names.isdisjoint(params):
            return params
        for k in names.intersection(params):
            want = accepted[k]
            if callable(want):
                want(params[k])
            elif want is not ANY and params[k] is not want and params[k] != want:
                raise JaxParamError(prim.name, k, params[k], want)
        return {k: v for k, v in params.items() if k not in names}

    prim.jax_params = translate


def all_primitives() -> dict[str, Primitive]:
    """Every primitive defined so far, by name (`import core` defines them all)."""
    return dict(_REGISTRY)
