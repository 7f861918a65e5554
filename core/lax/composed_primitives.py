"""JAX's primitives that numbax computes by composition, under JAX's names (`lax.conj_p`...).

`jax.lax` exports one primitive per operation; numbax builds a few of those operations from
other primitives without a primitive of their own (`lax.mulhi` is a bit composition,
`lax.scatter_sub` a `scatter-add` of the negated updates; most of JAX's others, `igamma`,
`nextafter`, `reduce_window`, ..., are numbax primitives with a composition, see
`Primitive.def_composition`). For code written against JAX's objects, each such name here is a
`ComposedPrimitive`: it has JAX's `name` and `multiple_results`, and its `bind` takes JAX's
operands and parameters and runs numbax's composition (under any transformation, like every
`core.lax` function). They never appear in numbax's jaxprs: those show the primitives the
composition binds, so an interpreter that matches `eqn.prim is lax.conj_p` finds none.

JAX's primitives that numbax does not implement at all are `UnsupportedPrimitive`s: their
`bind` raises `PrimitiveNotImplementedError`, which names what to use instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.lax import composites as co
from core.lax.gather_api import scatter_sub
from core.named_sharding import with_sharding_constraint
from core.trace import as_value
from numbax.errors import NumbaxError


class PrimitiveNotImplementedError(NumbaxError, NotImplementedError):
    """A `jax.lax` primitive numbax has no counterpart for, bound directly.

    Failing code: ``lax.create_token_p.bind()``. Fix: the message names the numbax function
    to use instead (numbax orders effects without tokens).
    """

    def __init__(self, name: str, instead: str):
        super().__init__(f"lax.{name}_p is not implemented in numbax: {instead}")


class ComposedPrimitive:
    """A JAX primitive's name whose `bind` runs numbax's composition of the operation."""

    def __init__(self, name: str, compose: Callable[..., Any], multiple_results: bool = False):
        """Args:
        name: JAX's name of the primitive (as its jaxprs print it).
        compose: takes the operands and parameters JAX's `bind` takes; returns the result
          (a list when `multiple_results`).
        multiple_results: as JAX's primitive.
        """
        self.name = name
        self.multiple_results = multiple_results
        self._compose = compose

    def bind(self, *args: Any, **params: Any) -> Any:
        """Computes the operation on `args` with JAX's parameters."""
        return self._compose(*args, **params)

    def __repr__(self) -> str:
        return self.name


class UnsupportedPrimitive:
    """A JAX primitive's name with no numbax counterpart: `bind` says what to use instead."""

    def __init__(self, name: str, instead: str, multiple_results: bool = False):
        """Args:
        name: JAX's name of the primitive.
        instead: what a numbax program uses instead (ends the error message).
        multiple_results: as JAX's primitive.
        """
        self.name = name
        self.multiple_results = multiple_results
        self._instead = instead

    def bind(self, *args: Any, **params: Any) -> Any:
        """Raises `PrimitiveNotImplementedError`."""
        raise PrimitiveNotImplementedError(self.name, self._instead)

    def __repr__(self) -> str:
        return self.name


def _scatter(fn: Callable) -> Callable:
    def bind(
        operand: Any,
        indices: Any,
        updates: Any,
        *,
        dimension_numbers: Any,
        update_jaxpr: Any = None,
        update_consts: Any = (),
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: Any = None,
    ) -> Any:
        del update_jaxpr, update_consts  # the primitive fixes the combiner
        return fn(
            operand,
            indices,
            updates,
            dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )

    return bind


def _sharding_constraint(x: Any, *, sharding: Any, **_layout_and_mesh: Any) -> Any:
    return with_sharding_constraint(x, sharding)


_TOKENS = "numbax orders effects without tokens; drop the token arguments"
mulhi_p = ComposedPrimitive("mulhi", co.mulhi)
stage_p = ComposedPrimitive("stage", as_value)
dce_sink_p = ComposedPrimitive(
    "dce_sink", lambda x, *, prevent_mlir_dce=False: [], multiple_results=True
)
optimization_barrier_p = ComposedPrimitive(
    "optimization_barrier", lambda *xs: list(xs), multiple_results=True
)
scatter_sub_p = ComposedPrimitive("scatter-sub", _scatter(scatter_sub))
sharding_constraint_p = ComposedPrimitive("sharding_constraint", _sharding_constraint)

select_and_scatter_p = UnsupportedPrimitive(
    "select_and_scatter",
    "it takes XLA's select/scatter computations; use lax.select_and_scatter_add_p (the "
    "max-pooling gradient) or differentiate lax.reduce_window_max",
)
ragged_all_to_all_p = UnsupportedPrimitive(
    "ragged_all_to_all", "use lax.all_to_all on padded chunks"
)
create_token_p = UnsupportedPrimitive("create_token", _TOKENS)
after_all_p = UnsupportedPrimitive("after_all", _TOKENS)
