"""JAX's private `jax._src.lax.lax`, where JAX defines most of `jax.lax`, which programs import
(`from jax._src.lax import lax`, JAX's tutorial "How JAX primitives work"): numbax's
`core.lax` namespace."""

from core.lax import *  # noqa: F403
