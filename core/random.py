"""`core.random` (`jax.random`): JAX's counter-based PRNG, bit for bit.

The public namespace. Keys, bits and the basic samplers (uniform, normal, randint,
permutation, ...) are in `core/random_base.py`; the other distributions (gamma family,
Poisson, binomial, ...), written on its helpers, in `core/random_distributions.py`. Each
module lists its public names once, in its `__all__`.

Every function taking a key runs in `random_base.key_scope(key)`: on an `rbg`/`unsafe_rbg` key,
the keys it splits and passes on internally (as bare data) are keys of that implementation, as
in JAX.
"""

import functools
import inspect

from core import random_base as _random_base
from core.random_base import *  # noqa: F403
from core.random_base import __all__ as _base
from core.random_distributions import *  # noqa: F403
from core.random_distributions import __all__ as _distributions

__all__ = [*_base, *_distributions]


def _in_key_scope(fn):
    @functools.wraps(fn)
    def wrapper(key, *args, **kwargs):
        _random_base.check_legacy_key(fn.__name__, key)
        with _random_base.key_scope(key):
            return fn(key, *args, **kwargs)

    return wrapper


for _name in __all__:
    _fn = globals()[_name]
    if inspect.isfunction(_fn) and next(iter(inspect.signature(_fn).parameters), None) == "key":
        globals()[_name] = _in_key_scope(_fn)
