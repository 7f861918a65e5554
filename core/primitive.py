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
`mlir.register_lowering`), and the numpy back end runs `impl`.

`prim.bind(*args, **params)` is the single entry point: it hands the primitive to the current
interpreter (see `core/trace.py`). Array operands are positional; parameters are keywords with
hashable values, so equations can be printed, compared and used in cache keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.trace import _state as _trace_state
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
    ):
        """Declares a primitive; its facts are fields, read by the interpreters and `jit`.

        Args:
          name: the name jaxprs print (unique).
          multiple_results: `bind` returns a list.
          higher_order: its params hold jaxprs (control flow, `jit_call`, custom rules).
          linear: linear in (some of) its operands, so it has a `transpose` rule.
          collective: communicates along a named axis (`psum`, `axis_index`, ...): the batching
            interpreter passes it its own trace.
          effectful: has a side effect (callbacks): dead-code elimination keeps it.
          dtype_kinds: the dtype kinds (`np.dtype.kind` letters, "iufcb") its operands may
            have, where it restricts them: its abstract eval rejects the others, and
            `core.lax`'s checked wrappers read them (`core/lax/checked.py`).
        """
        if name in _REGISTRY:
            raise ValueError(f"primitive {name!r} is defined twice")
        self.name = name
        self.multiple_results = multiple_results
        self.higher_order = higher_order
        self.linear = linear
        self.collective = collective
        self.effectful = effectful
        self.dtype_kinds = dtype_kinds
        self.impl: Callable | None = None
        self.abstract_eval: Callable | None = None
        self.jvp: Callable | None = None
        self.transpose: Callable | None = None
        self.batch: Callable | None = None
        self.partial_eval: Callable | None = None
        self.jax_params: Callable[[tuple, dict], dict] | None = None
        _REGISTRY[name] = self

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive under the current interpreter (JAX's parameters translated
        by `jax_params` first, where the primitive has them)."""
        if params and self.jax_params is not None:
            params = self.jax_params(args, params)
        return _trace_state.trace.process_primitive(self, args, params)

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

    def __repr__(self) -> str:
        return self.name


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
