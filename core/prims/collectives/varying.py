"""pvary and psum_invariant: the primitives of `shard_map`'s `check_vma` types (JAX 0.10.2).

Inside a `shard_map` with `check_vma=True`, JAX types each value by the mesh axes along which
it may vary (its "varying manual axes", printed `f32[2]{V:i}`). `pvary` marks an invariant
value as varying along more axes (a no-op on the values: every block holds the same one);
`psum_invariant` is the psum of a varying value, whose result is invariant along the summed
axes. They transpose into each other. numbax inserts them where JAX does when `shard_map`
stages its body (`core/shard_map_vma.py`); the values are computed as today, by nested
`vmap`s over the mesh axes, where pvary is the identity and psum_invariant is psum.
"""

from __future__ import annotations

from typing import Any

from core import tree_util
from core.avals import vma_of
from core.errors import UnboundAxisNameError
from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.primitive import Primitive
from core.prims.collectives.names import _names, _rest, axis_size
from core.prims.collectives.primitives import psum_p
from core.trace import _state, get_aval

pvary_p = Primitive("pvary", collective=True)
pvary_p.def_impl(lambda x, *, axis_name: x)
pvary_p.def_abstract_eval(lambda x, *, axis_name: x)
deflinear(pvary_p)


def _pvary_batch(args, dims, *, axis_name, axis_trace=None):
    (x,), (d,) = args, dims
    if axis_trace is None:  # another vmap's axis: the batched value is marked the same way
        return pvary_p.bind(x, axis_name=axis_name), d
    if getattr(axis_trace, "vma_order", None) is None or d is not None:
        return x, d  # over the axis it names: the same value on every element, as it was
    # an eager shard_map's devices: each holds its own copy (its vma says it varies)
    rest = _rest(_names(axis_name), axis_trace)
    x = pvary_p.bind(x, axis_name=rest) if rest else x
    return batching.moveaxis(x, None, 0, axis_trace.axis_size), 0


pvary_p.def_batch(_pvary_batch)
# What `jit` compiles where a pmap binds the axis (a shard_map's body is vmapped before that).
pvary_p.def_composition(lambda x, *, axis_name: x)

psum_invariant_p = Primitive("psum_invariant", collective=True)
psum_invariant_p.def_impl(psum_p.impl)
psum_invariant_p.def_abstract_eval(lambda x, *, axis_name: x)
deflinear(psum_invariant_p)


def _psum_invariant_batch(args, dims, *, axis_name, axis_trace=None):
    if axis_trace is None:  # another vmap's name: elementwise along this batch axis
        return psum_invariant_p.bind(args[0], axis_name=axis_name), dims[0]
    return psum_p.batch(args, dims, axis_name=axis_name, axis_trace=axis_trace)


psum_invariant_p.def_batch(_psum_invariant_batch)
psum_invariant_p.def_composition(lambda x, *, axis_name: psum_p.bind(x, axis_name=axis_name))
psum_invariant_p.def_transpose(lambda ct, x, *, axis_name: [pvary_p.bind(ct, axis_name=axis_name)])
pvary_p.def_transpose(lambda ct, x, *, axis_name: [psum_invariant_p.bind(ct, axis_name=axis_name)])


def pcast(x: Any, axis_name: Any, *, to: str) -> Any:
    """`lax.pcast`: marks the invariant values of pytree `x` inside a `shard_map` body as
    varying along the mesh axes `axis_name` (`to="varying"`: JAX's `pvary`, a no-op on the
    values, which the body's `check_vma` types need, e.g. for a scan carry that becomes
    varying). Without `check_vma` it returns `x`.

    Args:
      x: a pytree of arrays.
      axis_name: a mesh axis name or a tuple of them (empty: `x` as it is).
      to: "varying" ("reduced" and "unreduced", JAX's other states, are not implemented).

    Returns:
      `x`, varying along `axis_name`.
    """
    if isinstance(axis_name, (set, frozenset)):
        raise TypeError(f"axis_name={axis_name!r} must be a tuple or a str. Got {axis_name}")
    axes = axis_name if isinstance(axis_name, tuple) else (axis_name,)
    if not axis_name:
        return x
    if to not in ("varying", "reduced", "unreduced"):
        raise ValueError(  # JAX's text (its set's order)
            "Got unexpected `to` value. Allowed `to` values are: "
            "{'varying', 'reduced', 'unreduced'}"
        )
    if to != "varying":
        raise NotImplementedError(
            f"lax.pcast(..., to={to!r}): numbax types shard_map values as varying or invariant "
            "only; use to='varying'."
        )
    if _state.vma is None:  # not a check_vma body: JAX's pvary needs a shard_map's axes
        try:
            axis_size(axes)
        except UnboundAxisNameError:
            raise ValueError(
                "pvary should be called under jax.shard_map.\nlax.pcast marks values of a "
                "shard_map body; call it inside the function shard_map maps."
            ) from None
        return x

    def one(leaf: Any) -> Any:
        vma = vma_of(get_aval(leaf))
        varying = {a in vma for a in axes}
        if varying == {True}:
            raise ValueError(f"Unsupported pcast from=varying, to={to!r}")
        if len(varying) > 1:
            raise ValueError(
                "jax.lax.pcast can only accept axis_name which corresponds to one of varying, "
                f"unreduced, reduced or invarying state of the input. Got input type: "
                f"{get_aval(leaf)}, axes: {axes} and input state: {{'varying', 'invarying'}}"
            )
        return pvary_p.bind(leaf, axis_name=axes)

    return tree_util.tree_map(one, x)


__all__ = ["pcast", "psum_invariant_p", "pvary_p"]
