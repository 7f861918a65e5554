"""Pseudorandom numbers: numpy's hidden global state against JAX's explicit typed keys.

Checks what JAX's random-number guides describe, on draws of our own: numpy's seeded global
generator advancing between calls (and the order of calls inside a sum mattering); a typed key
from `random.key` shown and printed (`Array((), dtype=key<fry>) overlaying: ...`), its
`jax.typeof` (`key<fry>[]`, `key<fry>[3]` for a split); one key giving the same draw twice;
`split` into two, into `n` keys unpacked as `key, *rest`, their `key_data`; keys printed
before and after a split (unchanged); `fold_in` by a step counter; no sequential equivalence
(three draws from three subkeys differ from one draw of shape 3); `vmap` over a batch of keys
(of `normal` and of a shaped `uniform`); `uniform` with bounds, `randint`, `bernoulli`,
`permutation`, `choice` without replacement, and `wrap_key_data` of raw key data.
"""

import jax
import numpy as np
from jax import random

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    np.random.seed(11)
    print(np.random.uniform(), np.random.uniform())
    np.random.seed(11)

    def first():
        return np.random.uniform()

    def second():
        return np.random.uniform()

    print(first() - 3 * second())
    np.random.seed(11)
    print(-3 * second() + first())  # the same expression, the draws swapped
    mark("numpy_global")

    key = random.key(2024)
    printed.show(key)
    print(key)
    print(jax.typeof(key), key.shape, key.dtype)
    print(random.normal(key), random.normal(key))
    mark("typed_key")

    parent = random.key(5)
    left, right = random.split(parent)
    print(parent)
    print(left)
    print(right)
    print(random.normal(left), random.normal(right))
    key, *rest = random.split(parent, 5)
    print(len(rest), jax.typeof(random.split(parent, 3)))
    out["rest_data"] = random.key_data(jax.numpy.stack(rest))
    out["rest_draws"] = [random.uniform(k, (2,)) for k in rest]
    mark("split")

    base = random.key(99)
    for step in (0, 1, 7):
        print(f"step {step}: {random.normal(random.fold_in(base, step)):.6f}")
    mark("fold_in")

    keys = random.split(random.key(3), 3)
    print("one at a time:", np.stack([random.normal(k) for k in keys]))
    print("in one call:  ", random.normal(random.key(3), (3,)))
    print("by vmap:      ", jax.vmap(random.normal)(keys))
    printed.show(jax.vmap(lambda k: random.uniform(k, (2,), minval=-1.0, maxval=1.0))(keys))
    mark("sequential")

    k = random.key(17)
    out["uniform"] = random.uniform(k, (4,), minval=2.0, maxval=3.0)
    out["randint"] = random.randint(k, (6,), 0, 10)
    out["bernoulli"] = random.bernoulli(k, 0.3, (8,))
    out["permutation"] = random.permutation(k, 6)
    out["choice"] = random.choice(k, 10, (4,), replace=False)
    raw = random.key_data(k)
    out["raw"] = raw
    print(random.normal(random.wrap_key_data(raw)) == random.normal(k))
    mark("distributions")
