"""`core.Array` and `core.numpy.ndarray`: the array type users check against, as `jax.Array`.

In JAX, `jax.Array` (and `jnp.ndarray`, the same class) is an abstract base class: a concrete
array, a typed PRNG key array and a tracer (a value inside `jit`, `grad` or `vmap`) are all its
instances, so a library's `isinstance(x, jax.Array)` check holds inside a transformation too
(clu's metrics, Flax's and Optax's own checks). numbax's code tells concrete arrays from
tracers with the concrete class `core.array.Array`; this module gives users JAX's answer
without changing that one. The class cannot be instantiated, as JAX's cannot: `jnp.asarray`
makes arrays.
"""

from __future__ import annotations

import abc

from core import array
from core.prng_key import PRNGKeyArray
from core.trace import Tracer


class Array(abc.ABC):  # noqa: B024  (an ABC of registered classes, as JAX's basearray.Array)
    """The type of numbax arrays, concrete or traced (JAX's `jax.Array`): `isinstance(x,
    core.Array)` is True for arrays, typed key arrays and tracers, False for numpy arrays and
    Python scalars."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Array:
        raise TypeError(
            "core.Array cannot be instantiated, as jax.Array cannot: make arrays with "
            "core.numpy.asarray(x) or core.numpy.array(x)."
        )


Array.__module__ = "core"
for _cls in (array.Array, PRNGKeyArray, Tracer):
    Array.register(_cls)
