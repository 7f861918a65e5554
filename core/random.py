"""`core.random` (`jax.random`): JAX's counter-based PRNG, bit for bit.

The public namespace. Keys, bits and the basic samplers (uniform, normal, randint,
permutation, ...) are in `core/random_base.py`; the other distributions (gamma family,
Poisson, binomial, ...), written on its helpers, in `core/random_distributions.py`. Each
module lists its public names once, in its `__all__`.
"""

from core.random_base import *  # noqa: F403
from core.random_base import __all__ as _base
from core.random_distributions import *  # noqa: F403
from core.random_distributions import __all__ as _distributions

__all__ = [*_base, *_distributions]
