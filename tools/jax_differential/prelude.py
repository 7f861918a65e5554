"""The source run before every case on both sides, ahead of the areas' own preludes: the
modules cases may use besides the libraries' (numpy as `np`, dataclasses, functools, ...), a
namedtuple `Pt`, small arrays (`X34`, `I34`) and keys (`K0`, `K1`, `KS`, `KS23`), and scan's
body `body_pair`."""

PRELUDE = """
import dataclasses, functools, collections, re, math, operator
import numpy as np
Pt = collections.namedtuple('Pt', ['x', 'y'])
X34 = jnp.arange(12.0).reshape(3, 4)
I34 = jnp.arange(12).reshape(3, 4)
K0 = random.key(0)
K1 = random.PRNGKey(1)
KS = random.split(K0, 3)
KS23 = random.split(random.key(1), (2, 3))
def body_pair(c, x):
    return c + x, c * x
"""
