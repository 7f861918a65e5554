"""A differential fuzzer: runs the same calls on numbax and on JAX/Flax/Optax and compares them.

Each case is Python source run in a namespace whose names (`jax`, `jnp`, `lax`, `random`,
`jtu`, `init`, `jsp`, `optax`, `flax`) are numbax's modules on one side and the real libraries
on the other; an expression's value (or the variable `out` of a block of statements) is turned
into plain data (arrays as dtype, shape, weak type and values; exceptions as class names and
message; other objects as their repr) by each side's own process, and the two are compared:
values to round-off (bit for bit for cases marked exact, e.g. random bits), dtypes, weak types,
shapes, exception classes (JAX's class must be among numbax's bases) and messages (JAX's first
line must be numbax's first line; numbax adds its fix on later lines).

Usage (from the repository root; the JAX side runs under the reference interpreter)::

    python -m tools.jax_differential [--area AREA] [--ref /opt/ref/bin/python] [-v]
    python -m tools.jax_differential --list          # the areas and their case counts

The areas are lax control flow, tree_util, random samplers (float16/bfloat16/float32 and,
under x64, float64), nn initializers, indexing and `.at[]`, linalg/fft and optax schedules and
losses. The script never imports JAX in numbax's process.
"""

# ruff: noqa: E501
from __future__ import annotations

import argparse
import math
import os
import pickle
import re
import subprocess
import sys
import tempfile
import traceback
import warnings
from typing import Any

PRELUDE = """
import dataclasses, functools, collections
import numpy as np
Pt = collections.namedtuple('Pt', ['x', 'y'])
X34 = jnp.arange(12.0).reshape(3, 4)
I34 = jnp.arange(12).reshape(3, 4)
K0 = random.key(0)
K1 = random.PRNGKey(1)
def body_pair(c, x):
    return c + x, c * x
"""


# ----------------------------------------------------------------------------------------------
# cases: (area, source, exact); source is an expression or statements that set `out`


def _control_flow() -> list[str]:
    c = []
    s = "lax.scan"
    c += [
        f"{s}(body_pair, 0.0, jnp.arange(5.0))",
        f"{s}(body_pair, 0, jnp.arange(5))",
        f"{s}(body_pair, jnp.int8(0), jnp.arange(5, dtype=jnp.int8))",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), reverse=True)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), unroll=2)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), unroll=True)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), unroll=0)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), unroll=-1)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), length=5)",
        f"{s}(body_pair, 0.0, jnp.arange(5.0), length=4)",
        f"{s}(body_pair, 0.0, jnp.zeros((0,)))",
        f"{s}(lambda c, x: (c + 1, c), 0, None, length=3)",
        f"{s}(lambda c, x: (c + 1, c), 0, None)",
        f"{s}(lambda c, x: (c + 1, c), 0, None, length=0)",
        f"{s}(lambda c, x: (c + 1, c), 0, None, length=3, reverse=True)",
        f"{s}(lambda c, x: (c + 1, c), 0, None, length=-1)",
        f"{s}(lambda c, x: (c + 1, c), 0, None, length=2.0)",
        f"{s}(lambda c, x: (c, None), 1.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (c, {{'a': x, 'b': (x, x * 2)}}), 1.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: ({{'s': c['s'] + x['u']}}, x['v']), {{'s': 0.0}}, "
        "{'u': jnp.arange(3.0), 'v': jnp.arange(6).reshape(3, 2)})",
        f"{s}(lambda c, x: (Pt(c.x + x, c.y * 2), c), Pt(0.0, 1), jnp.arange(3.0))",
        f"{s}(lambda c, x: ((c[0] + x, c[1]), x), (0.0, jnp.ones(2)), jnp.arange(3.0))",
        f"{s}(lambda c, x: (c, x), 0.0, (jnp.arange(3.0), jnp.arange(4.0)))",
        f"{s}(lambda c, x: (c, x), 0.0, jnp.float32(3.0))",
        f"{s}(lambda c, x: (c, x), 0.0, 3.0)",
        f"{s}(lambda c, x: c + x, 0.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (c + x,), 0.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (c + x, c, c), 0.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (jnp.stack([c, c]), x), 0.0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (c.astype(jnp.float32), x), 0, jnp.arange(3.0))",
        f"{s}(lambda c, x: (c + 1, x), jnp.int32(0), jnp.arange(3.0))",
        f"{s}(lambda c, x: (c + x, x), jnp.int32(0), jnp.arange(3.0))",
        f"{s}(lambda c, x: (c + x, x), jnp.float16(0), jnp.arange(3.0))",
        f"{s}(lambda c, x: ([c[0] + x], x), (0.0,), jnp.arange(3.0))",
        f"{s}(lambda c, x: ({{'b': c['a']}}, x), {{'a': 0.0}}, jnp.arange(3.0))",
        f"{s}(lambda c, x: ((c[0], c[1] + x), x), (0.0, 0), jnp.arange(3.0))",
        f"{s}(lambda c, x: (c, x), 0.0, jnp.arange(6.0).reshape(3, 2), reverse=True)",
        f"{s}(lambda c, x: (c + x.sum(), x[::-1]), 0.0, jnp.arange(6.0).reshape(3, 2))",
        f"{s}(lambda c, x: (c + x, x), jnp.zeros(2), jnp.ones((3, 2)), unroll=5)",
        f"{s}(lambda c, x: (c, x), 0.0, jnp.arange(3.0), _split_transpose=False)",
        f"{s}(lambda c, x: (c, x), 0.0, [jnp.arange(3.0), jnp.arange(3)])",
        f"{s}(lambda c, x: (c, x), 0.0, jnp.arange(3.0), length=3.5)",
        f"{s}(lambda c, x: (c, x), 0.0, jnp.arange(3.0), unroll=1.5)",
        f"{s}(lambda c, x: (c, x), 0.0, 'abc')",
        f"{s}(lambda c: (c, c), 0.0, jnp.arange(3.0))",
        f"{s}(1, 0.0, jnp.arange(3.0))",
        f"jax.jit(lambda xs: {s}(body_pair, 0.0, xs))(jnp.arange(4.0))",
        f"jax.jit(lambda xs: {s}(body_pair, 0.0, xs, reverse=True, unroll=3))(jnp.arange(4.0))",
        f"jax.vmap(lambda xs: {s}(body_pair, 0.0, xs))(jnp.arange(6.0).reshape(2, 3))",
        f"jax.grad(lambda a: {s}(lambda c, x: (c * x, None), a, jnp.arange(1.0, 4.0))[0])(2.0)",
    ]
    w = "lax.while_loop"
    c += [
        f"{w}(lambda c: c < 10, lambda c: c + 1, 0)",
        f"{w}(lambda c: c < 10, lambda c: c + 3, jnp.int8(0))",
        f"{w}(lambda c: c < 10.0, lambda c: c * 2, 1.0)",
        f"{w}(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2), (0, 1.0))",
        f"{w}(lambda c: c['i'] < 3, lambda c: {{'i': c['i'] + 1, 'x': c['x'] + c['i']}}, "
        "{'i': 0, 'x': jnp.zeros(2)})",
        f"{w}(lambda c: c < 0, lambda c: c + 1, 5)",
        f"{w}(lambda c: jnp.array([True, False]), lambda c: c + 1, 0)",
        f"{w}(lambda c: c, lambda c: c - 1, 3)",
        f"{w}(lambda c: 1, lambda c: c - 1, 3)",
        f"{w}(lambda c: c > 0.5, lambda c: c - 1, 3.0)",
        f"{w}(lambda c: c < 3, lambda c: c + 1.0, 0)",
        f"{w}(lambda c: c < 3, lambda c: (c + 1).astype(jnp.int16), 0)",
        f"{w}(lambda c: c < 3, lambda c: jnp.float32(c + 1), 0.0)",
        f"{w}(lambda c: c[0] < 3, lambda c: [c[0] + 1, c[1]], (0, 1.0))",
        f"{w}(lambda c: c[0] < 3, lambda c: (c[0] + 1,), (0, 1.0))",
        f"{w}(lambda c: c.sum() < 3, lambda c: jnp.concatenate([c, c]), jnp.ones(1))",
        f"{w}(lambda c: (c < 3, c), lambda c: c + 1, 0)",
        f"{w}(lambda c: c < 3, lambda c: c + 1, jnp.uint8(250))",
        f"jax.jit(lambda n: {w}(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + 0.5), (0, 0.0)))(4)",
        f"jax.vmap(lambda n: {w}(lambda c: c < n, lambda c: c + 1, 0))(jnp.arange(4))",
    ]
    f = "lax.fori_loop"
    c += [
        f"{f}(0, 5, lambda i, c: c + i, 0.0)",
        f"{f}(0, 5, lambda i, c: c + i, 0)",
        f"{f}(5, 0, lambda i, c: c + i, 0)",
        f"{f}(-3, 2, lambda i, c: c + i, 0)",
        f"{f}(0, 5, lambda i, c: c + i, 0.0, unroll=2)",
        f"{f}(0, 5, lambda i, c: c + i, 0.0, unroll=True)",
        f"{f}(0, 5, lambda i, c: i, 0)",
        f"{f}(0, 5, lambda i, c: i, 0.0)",
        f"{f}(jnp.int8(0), jnp.int8(4), lambda i, c: c + i, jnp.int8(0))",
        f"{f}(jnp.int8(0), 4, lambda i, c: c + i, 0)",
        f"{f}(jnp.int8(0), jnp.int16(4), lambda i, c: c + i, 0)",
        f"{f}(jnp.uint32(1), jnp.uint32(4), lambda i, c: c * i, 1)",
        f"{f}(0.0, 3.0, lambda i, c: c + i, 0.0)",
        f"{f}(0, 3.0, lambda i, c: c + 1, 0)",
        f"{f}(0, jnp.array([3]), lambda i, c: c + 1, 0)",
        f"{f}(0, 3, lambda i, c: (c[0] + i, c[1] * 2.0), (0, 1.0))",
        f"{f}(0, 3, lambda i, c: {{'a': c['a'] + i}}, {{'a': jnp.zeros(2)}})",
        f"{f}(0, 3, lambda i, c: c + 0.5, 0)",
        f"{f}(0, 3, lambda i, c: [c[0]], (0,))",
        f"{f}(0, 3, lambda i: i, 0)",
        f"{f}(0, 3, lambda i, c: c + i, 0, unroll=2)",
        f"{f}(jnp.int32(0), jnp.int32(3), lambda i, c: c + i, 0, unroll=2)",
        f"jax.jit(lambda n: {f}(0, n, lambda i, c: c + i, 0))(6)",
        f"jax.jit(lambda n: {f}(0, n, lambda i, c: c + i, 0, unroll=2))(6)",
        f"jax.grad(lambda x: {f}(0, 3, lambda i, c: c * x, 1.0))(2.0)",
    ]
    k = "lax.cond"
    c += [
        f"{k}(True, lambda x: x + 1, lambda x: x - 1, 3.0)",
        f"{k}(False, lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(2, lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(jnp.int8(0), lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(1.5, lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(jnp.float32(0.0), lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(jnp.array([True]), lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(jnp.array([True, False]), lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(1 + 2j, lambda x: x + 1, lambda x: x - 1, 3)",
        f"{k}(True, lambda: 1, lambda: 2)",
        f"{k}(True, lambda: 1.0, lambda: jnp.float32(2))",
        f"{k}(True, lambda: 1, lambda: 2.0)",
        f"{k}(True, lambda: jnp.int32(1), lambda: jnp.float32(2))",
        f"{k}(True, lambda: jnp.float16(1), lambda: jnp.float32(2))",
        f"{k}(True, lambda: jnp.ones(2), lambda: jnp.ones(3))",
        f"{k}(True, lambda: (1.0, 2.0), lambda: [1.0, 2.0])",
        f"{k}(True, lambda: {{'a': 1.0}}, lambda: {{'b': 1.0}})",
        f"{k}(True, lambda: (1.0, 2.0), lambda: (1.0,))",
        f"{k}(False, lambda a, b: a + b, lambda a, b: a - b, 1, 2.0)",
        f"{k}(False, lambda a: a['x'] * 2, lambda a: a['x'], {{'x': jnp.arange(3)}})",
        f"{k}(True, 1, lambda: 2)",
        f"{k}(True, lambda x: x, lambda x: x)",
        f"{k}(True, lambda: None, lambda: None)",
        f"{k}(None, lambda: 1, lambda: 2)",
        f"{k}('a', lambda: 1, lambda: 2)",
        f"jax.jit(lambda p: {k}(p, lambda: 1.0, lambda: 2))(True)",
        f"jax.vmap(lambda p, x: {k}(p, lambda y: y * 2, lambda y: -y, x))"
        "(jnp.array([True, False]), jnp.arange(2.0))",
        f"jax.grad(lambda x: {k}(x > 0, jnp.sin, jnp.cos, x))(1.0)",
    ]
    w = "lax.switch"
    br = "[lambda x: x, lambda x: x * 2, lambda x: x * 3]"
    c += [f"{w}({i}, {br}, 5.0)" for i in (0, 1, 2, 3, 100, -1, -100)]
    c += [
        f"{w}(jnp.int8(1), {br}, 5)",
        f"{w}(jnp.uint32(7), {br}, 5)",
        f"{w}(True, {br}, 5)",
        f"{w}(1.0, {br}, 5)",
        f"{w}(jnp.float32(1.0), {br}, 5)",
        f"{w}(jnp.array([1]), {br}, 5)",
        f"{w}(jnp.array([1, 2]), {br}, 5)",
        f"{w}(0, [], 5)",
        f"{w}(0, (), 5)",
        f"{w}(3, [lambda x: x], 5)",
        f"{w}(0, [lambda: 1, lambda: 2.0])",
        f"{w}(0, [lambda: 1.0, lambda: jnp.ones(2)])",
        f"{w}(0, [lambda: (1.0,), lambda: 1.0])",
        f"{w}(1, [lambda a, b: a, lambda a, b: b], 1, 2.0)",
        f"{w}(1, [lambda: 1, 2])",
        f"{w}(1, lambda: 1)",
        f"{w}(1, {{'a': lambda: 1}})",
        f"jax.jit(lambda i: {w}(i, {br}, 5.0))(7)",
        f"jax.vmap(lambda i: {w}(i, {br}, 5.0))(jnp.array([-1, 0, 1, 2, 3]))",
    ]
    m = "lax.map"
    c += [
        f"{m}(lambda x: x * 2, jnp.arange(5.0))",
        f"{m}(lambda x: x * 2, jnp.arange(5.0), batch_size=2)",
        f"{m}(lambda x: x * 2, jnp.arange(6.0), batch_size=3)",
        f"{m}(lambda x: x * 2, jnp.arange(5.0), batch_size=10)",
        f"{m}(lambda x: x * 2, jnp.arange(5.0), batch_size=0)",
        f"{m}(lambda x: x * 2, jnp.arange(5.0), batch_size=-1)",
        f"{m}(lambda x: x.sum(), jnp.arange(6.0).reshape(3, 2), batch_size=2)",
        f"{m}(lambda t: t[0] + t[1], (jnp.arange(3.0), jnp.arange(3)))",
        f"{m}(lambda t: {{'s': t['a'] * 2}}, {{'a': jnp.arange(3)}}, batch_size=2)",
        f"{m}(lambda t: t, (jnp.arange(3.0), jnp.arange(4)))",
        f"{m}(lambda t: None, jnp.arange(3.0))",
        f"{m}(lambda t: t, jnp.float32(1))",
        f"{m}(lambda t: t, jnp.zeros((0, 2)))",
    ]
    a = "lax.associative_scan"
    c += [
        f"{a}(jnp.add, jnp.arange(6))",
        f"{a}(jnp.add, jnp.arange(6.0), reverse=True)",
        f"{a}(jnp.multiply, jnp.arange(1, 6, dtype=jnp.int8))",
        f"{a}(jnp.maximum, jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]))",
        f"{a}(jnp.add, jnp.arange(12).reshape(3, 4), axis=1)",
        f"{a}(jnp.add, jnp.arange(12).reshape(3, 4), axis=-1, reverse=True)",
        f"{a}(jnp.add, jnp.arange(12).reshape(3, 4), axis=2)",
        f"{a}(jnp.add, jnp.arange(12).reshape(3, 4), axis=-3)",
        f"{a}(lambda a, b: (a[0] + b[0], a[1] * b[1]), (jnp.arange(5.0), jnp.arange(1.0, 6.0)))",
        f"{a}(lambda a, b: {{'x': a['x'] + b['x']}}, {{'x': jnp.arange(4)}})",
        f"{a}(lambda a, b: (a[0] + b[0], a[1] + b[1]), (jnp.arange(5.0), jnp.arange(4.0)))",
        f"{a}(jnp.add, jnp.zeros((0,)))",
        f"{a}(jnp.add, jnp.ones((1,)))",
        f"{a}(jnp.add, jnp.float32(1))",
        f"{a}(lambda a, b: a @ b, jnp.tile(jnp.eye(2) * 2, (3, 1, 1)))",
        f"{a}(lambda a, b: a, jnp.arange(5))",
        f"{a}(lambda a, b: b, jnp.arange(5))",
        f"{a}(lambda a, b: a - b, jnp.arange(7), reverse=True)",
        f"{a}(lambda a, b: (a + b).sum(), jnp.arange(4))",
    ]
    return c


def _tree_util() -> list[str]:
    t = "{'b': [1, (2.0, None)], 'a': jnp.ones(2), 'c': {'d': Pt(3, 4), 'e': ()}}"
    c = [
        f"jtu.tree_flatten({t})",
        f"jtu.tree_flatten_with_path({t})",
        f"[jtu.keystr(p) for p, _ in jtu.tree_flatten_with_path({t})[0]]",
        f"[jtu.keystr(p, simple=True, separator='/') for p, _ in jtu.tree_leaves_with_path({t})]",
        f"[jtu.keystr(p, simple=True) for p, _ in jtu.tree_leaves_with_path({t})]",
        "jtu.keystr(())",
        "jtu.keystr((), simple=True, separator='/')",
        "[(str(k), repr(k), type(k).__name__) for p, _ in "
        "jtu.tree_leaves_with_path({'a': [Pt(1, 2)]}) for k in p]",
        f"jtu.tree_map_with_path(lambda p, x: jtu.keystr(p), {t})",
        "jtu.tree_map_with_path(lambda p, x, y: len(p), {'a': 1, 'b': [2]}, {'a': 3, 'b': [4]})",
        "jtu.tree_map_with_path(lambda p, x: p, [1, (2,)], is_leaf=lambda x: isinstance(x, tuple))",
        f"repr(jtu.tree_structure({t}))",
        f"str(jtu.tree_structure({t}))",
        "repr(jtu.tree_structure(None))",
        "repr(jtu.tree_structure(1))",
        "repr(jtu.tree_structure((None,)))",
        "repr(jtu.tree_structure(collections.OrderedDict([('b', 1), ('a', 2)])))",
        "repr(jtu.tree_structure(collections.defaultdict(list, {'b': 1, 'a': 2})))",
        "repr(jtu.tree_structure(Pt(1, [2])))",
        "repr(jtu.tree_structure({1: 'x', 0: 'y'}))",
        "repr(jtu.tree_structure(jtu.Partial(jnp.add, 1.0)))",
        f"jtu.tree_structure({t}).num_leaves",
        f"jtu.tree_structure({t}).num_nodes",
        f"[repr(d) for d in jtu.tree_structure({t}).children()]",
        f"jtu.tree_structure({t}).unflatten(list(range(6)))",
        f"jtu.tree_structure({t}).unflatten(list(range(5)))",
        f"jtu.tree_structure({t}).unflatten(list(range(7)))",
        f"jtu.tree_structure({t}).flatten_up_to({t})",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([[5], (6, [7])])",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([1, [2, 3]])",
        "jtu.tree_structure([1, (2, 3)]).flatten_up_to([1, (2,)])",
        "jtu.tree_structure([1, {'a': 2}]).flatten_up_to([1, {'b': 2}])",
        "jtu.tree_structure([1, 2]).flatten_up_to((1, 2))",
        "jtu.tree_structure([1, 2]).flatten_up_to([1, 2, 3])",
        "jtu.tree_structure([1, 2]) == jtu.tree_structure([3, 4])",
        "jtu.tree_structure([1, 2]) == jtu.tree_structure((3, 4))",
        "jtu.tree_structure({'a': 1}).node_data()",
        "jtu.tree_structure([1, 2]).node_data()",
        "jtu.tree_structure((1, 2)).node_data()",
        "jtu.tree_structure(None).node_data()",
        "jtu.tree_structure(1).node_data()",
        "repr(jtu.tree_structure([1, 2]).compose(jtu.tree_structure((1, 2))))",
        "repr(jtu.treedef_tuple([jtu.tree_structure(1), jtu.tree_structure([1, 2])]))",
        "[repr(x) for x in jtu.treedef_children(jtu.tree_structure({'a': 1, 'b': [2, 3]}))]",
        "jtu.treedef_is_leaf(jtu.tree_structure(1))",
        "jtu.treedef_is_leaf(jtu.tree_structure(None))",
        "jtu.treedef_is_strict_leaf(jtu.tree_structure(None))",
        "jtu.all_leaves([1, 2.0, jnp.ones(2)])",
        "jtu.all_leaves([1, [2]])",
        "jtu.all_leaves([None])",
        "jtu.tree_leaves([None, 1, (), [None, 2]])",
        "jtu.tree_leaves([None, 1], is_leaf=lambda x: x is None)",
        "jtu.tree_leaves({'a': (1, 2), 'b': 3}, is_leaf=lambda x: isinstance(x, tuple))",
        "jtu.tree_map(lambda a, b: a + b, {'a': 1, 'b': 2}, {'a': 10, 'b': 20})",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, {'b': 1})",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, {'a': 1, 'b': 2})",
        "jtu.tree_map(lambda a, b: a, (1, 2), [1, 2])",
        "jtu.tree_map(lambda a, b: a, (1, 2), (1, 2, 3))",
        "jtu.tree_map(lambda a, b: a, [1, 2], [1])",
        "jtu.tree_map(lambda a, b: a, [1, None], [1, 2])",
        "jtu.tree_map(lambda a, b: a, [1, 2], [1, None])",
        "jtu.tree_map(lambda a, b: (a, b), [1, 2], [[3], (4, 5)])",
        "jtu.tree_map(lambda a, b: a, Pt(1, 2), (1, 2))",
        "jtu.tree_map(lambda a, b: a, {'a': 1}, 5)",
        "jtu.tree_map(lambda a: a, 1, 2)",
        "jtu.tree_map(lambda a, b: a, collections.OrderedDict(a=1, b=2), {'a': 1, 'b': 2})",
        "jtu.tree_map(lambda a, b: a, {'a': 1, 'b': 2}, collections.OrderedDict(b=1, a=2))",
        "jtu.tree_map(lambda x: x, {'a': 1, 2: 3})",
        "jtu.tree_leaves({'a': 1, 2: 3})",
        "jtu.tree_map(lambda x: x * 2, [1, None, (2,)])",
        "jtu.tree_map(lambda x: x, [], is_leaf=lambda x: True)",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), jtu.tree_structure((0, 0, 0)), "
        "[(1, 2, 3), (4, 5, 6)])",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), jtu.tree_structure((0, 0)), "
        "[(1, 2, 3), (4, 5, 6)])",
        "jtu.tree_transpose(jtu.tree_structure([0, 0]), None, [(1, 2), (3, 4)])",
        "jtu.tree_reduce(lambda a, b: a + b, [1, 2, 3])",
        "jtu.tree_reduce(lambda a, b: a + b, [], 7)",
        "jtu.tree_reduce(lambda a, b: a + b, [])",
        "jtu.tree_reduce(lambda a, b: a + b, [[1], 2], is_leaf=lambda x: isinstance(x, list) and len(x) == 1)",
        "jtu.tree_all([True, 1, [0]])",
        "jtu.tree_all([])",
        "jtu.tree_all([True, [jnp.array(True)]])",
        "jtu.tree_unflatten(jtu.tree_structure([1, (2, 3)]), 'abc')",
        "jtu.tree_unflatten(jtu.tree_structure([1, (2, 3)]), 'ab')",
        "jtu.build_tree(jtu.tree_structure([1, (2, 3)]), [7, (8, 9)])",
        "jtu.Partial(jnp.add, 1.0)(2.0)",
        "jtu.tree_leaves(jtu.Partial(jnp.add, 1.0, y=2))",
        "jtu.tree_flatten_with_path(jtu.Partial(jnp.add, 1.0))[0]",
        "jax.tree.map(lambda x: x + 1, {'a': 1, 'b': (2, 3)})",
        "jax.tree.leaves({'b': 1, 'a': [2, None]})",
        "jax.tree.leaves([None, 1], is_leaf=lambda x: x is None)",
        "repr(jax.tree.structure({'b': 1, 'a': [2, None]}))",
        "jax.tree.flatten_with_path({'b': 1, 'a': [2]})",
        "jax.tree.leaves_with_path(Pt(1, [2]))",
        "jax.tree.map_with_path(lambda p, x: len(p), {'a': [1, 2]})",
        "jax.tree.reduce(jnp.maximum, [1, 5, 3])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [1, 2, 3, 4])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [])",
        "jax.tree.reduce_associative(lambda a, b: a + b, [], identity=0)",
        "jax.tree.all([1, 2])",
        "jax.tree.transpose(jax.tree.structure([0, 0]), jax.tree.structure((0, 0)), [(1, 2), (3, 4)])",
        "jax.tree.broadcast([1, 2], [[3, 4], (5,)])",
        "jax.tree.broadcast(1, {'a': 2, 'b': [3]})",
        "jax.tree.broadcast([1, 2], [3])",
        "jax.tree.flatten({'b': 1, 'a': 2})",
        "jax.tree.unflatten(jax.tree.structure((1, 2)), [5, 6])",
        "jax.tree.map(lambda x: x, {'a': 1}, {'a': 2, 'b': 3})",
        "jax.tree.map(lambda x, y: x + y, (1, 2), (3,))",
        "jtu.tree_map(lambda x, y: x + y, {'a': 1, 'b': 2}, {'a': 1, 'c': 2})",
        "jtu.tree_map(lambda x, y: x + y, collections.OrderedDict(a=1, b=2), "
        "collections.OrderedDict(b=1, a=2))",
        "jtu.tree_map(lambda x, y: x + y, collections.defaultdict(int, a=1), {'a': 2})",
        "jtu.tree_flatten_with_path(collections.OrderedDict([('b', 1), ('a', 2)]))",
        "jtu.tree_flatten_with_path(collections.defaultdict(int, b=1, a=2))",
        "[repr(k) for p, _ in jtu.tree_flatten_with_path(jtu.Partial(jnp.add, 1.0))[0] for k in p]",
        "jtu.tree_flatten_with_path([1, None, [2]])[1] == jtu.tree_structure([1, None, [2]])",
        "repr(jtu.tree_flatten_with_path([1, None, [2]])[1])",
        "jtu.SequenceKey(2), jtu.DictKey('a'), jtu.GetAttrKey('x'), jtu.FlattenedIndexKey(3)",
        "[str(k) for k in (jtu.SequenceKey(2), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3), jtu.DictKey(1))]",
        "jtu.SequenceKey(2) == jtu.SequenceKey(2), jtu.SequenceKey(2) == jtu.FlattenedIndexKey(2)",
        "hash(jtu.DictKey('a')) == hash(jtu.DictKey('a'))",
        "jtu.SequenceKey(2).idx, jtu.DictKey('a').key, jtu.GetAttrKey('x').name, "
        "jtu.FlattenedIndexKey(3).key",
        "jtu.keystr((jtu.SequenceKey(0), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3)))",
        "jtu.keystr((jtu.SequenceKey(0), jtu.DictKey('a'), jtu.GetAttrKey('x'), "
        "jtu.FlattenedIndexKey(3)), simple=True, separator='.')",
        "jtu.keystr((jtu.DictKey(1), jtu.DictKey((1, 2)), jtu.DictKey(None)))",
        "jtu.tree_flatten([1, 2], is_leaf=lambda x: isinstance(x, list))",
        "jtu.tree_flatten_with_path([1, 2], is_leaf=lambda x: isinstance(x, list))",
        "jtu.tree_flatten_with_path([1, [2]], is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True)",
        "jtu.tree_map_with_path(lambda p, x: jtu.keystr(p), [1, [2]], "
        "is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True)",
        "jtu.tree_map(lambda x: x, [1, [2]], is_leaf=lambda p, x: True, is_leaf_takes_path=True)",
    ]
    c += [
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=['n'])
@dataclasses.dataclass
class DC:
    x: object
    n: int
v = DC(jnp.ones(2), 3)
out = (jtu.tree_leaves(v), repr(jtu.tree_structure(v)).replace(' at 0x', '@'),
       [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)], jtu.tree_map(lambda a: a * 2, v).x,
       jtu.tree_map(lambda a: a * 2, v).n)
""",
        """
@jtu.register_dataclass
@dataclasses.dataclass
class DC2:
    x: object
    y: object
    n: int = dataclasses.field(metadata=dict(static=True), default=4)
v = DC2(1, [2, 3])
out = (jtu.tree_flatten_with_path(v)[0], jtu.tree_map(lambda a: a + 1, v).n,
       jtu.tree_structure(v).num_leaves, jtu.tree_structure(v) == jtu.tree_structure(DC2(5, [6, 7], 4)),
       jtu.tree_structure(v) == jtu.tree_structure(DC2(5, [6, 7], 5)))
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=[])
@dataclasses.dataclass
class DC3:
    x: object
    y: int
out = 1
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x', 'z'], meta_fields=['y'])
@dataclasses.dataclass
class DC4:
    x: object
    y: int
out = 1
""",
        """
class NotDC:
    pass
jtu.register_dataclass(NotDC)
out = 1
""",
        """
class NotDC2:
    def __init__(self, x):
        self.x = x
jtu.register_dataclass(NotDC2, data_fields=['x'], meta_fields=[])
out = jtu.tree_flatten_with_path(NotDC2(5))[0], jtu.tree_map(lambda a: a + 1, NotDC2(5)).x
""",
        """
@functools.partial(jtu.register_dataclass, data_fields=['x'], meta_fields=['n'], drop_fields=['d'])
@dataclasses.dataclass
class DC5:
    x: object
    n: int
    d: int = 0
out = jtu.tree_leaves(DC5(1, 2, 3)), jtu.tree_map(lambda a: a, DC5(1, 2, 3)).d
""",
        """
class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_with_keys(
    Box,
    lambda x: (((jtu.GetAttrKey('a'), x.a), (jtu.GetAttrKey('b'), x.b)), None),
    lambda aux, ch: Box(*ch))
v = Box(1, [2, 3])
out = (jtu.tree_flatten_with_path(v)[0], [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)],
       jtu.tree_leaves(v), jtu.tree_map(lambda x: x * 10, v).b)
""",
        """
class Box2:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_with_keys(
    Box2,
    lambda x: (((jtu.DictKey('a'), x.a), (jtu.DictKey('b'), x.b)), 'aux'),
    lambda aux, ch: Box2(*ch),
    flatten_func=lambda x: ((x.b, x.a), 'aux'))
v = Box2(1, 2)
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_leaves(v), jtu.tree_structure(v).node_data()[1]
""",
        """
class Box3:
    def __init__(self, a, b):
        self.a, self.b = a, b
jtu.register_pytree_node(Box3, lambda x: ((x.a, x.b), None), lambda aux, ch: Box3(*ch))
v = Box3(1, [2])
out = jtu.tree_flatten_with_path(v)[0], [jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(v)]
""",
        """
class Box4:
    def __init__(self, a):
        self.a = a
jtu.register_pytree_node(Box4, lambda x: ((x.a,), None), lambda aux, ch: Box4(*ch))
jtu.register_pytree_node(Box4, lambda x: ((x.a,), None), lambda aux, ch: Box4(*ch))
out = 1
""",
        """
@jtu.register_pytree_node_class
class Box5:
    def __init__(self, a, n):
        self.a, self.n = a, n
    def tree_flatten(self):
        return (self.a,), self.n
    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(ch[0], aux)
v = Box5(jnp.ones(2), 'meta')
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_structure(v).node_data()[1], jtu.tree_map(lambda x: x + 1, v).n
""",
        """
@jtu.register_pytree_with_keys_class
class Box6:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def tree_flatten_with_keys(self):
        return ((jtu.GetAttrKey('a'), self.a), (jtu.GetAttrKey('b'), self.b)), None
    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(*ch)
v = Box6(1, 2)
out = jtu.tree_flatten_with_path(v)[0], jtu.tree_flatten(v)[0]
""",
        """
class Box7:
    def __init__(self, a):
        self.a = a
jtu.register_static(Box7)
out = jtu.tree_leaves([Box7(1), 2]), jtu.tree_structure([Box7(1)]) == jtu.tree_structure([Box7(2)])
""",
    ]
    return c


SAMPLERS = [
    ("uniform", "", True),
    ("uniform", "minval=-2.0, maxval=3.0", True),
    ("uniform", "minval=jnp.array([0.0, 1.0, 2.0]), maxval=5.0", True),
    ("normal", "", True),
    ("truncated_normal", "lower=-1.0, upper=2.0", True),
    ("truncated_normal", "lower=jnp.array([-1.0, 0.0, 1.0]), upper=3.0", True),
    ("gumbel", "", True),
    ("gumbel", "mode='high'", True),
    ("laplace", "", True),
    ("logistic", "", True),
    ("exponential", "", True),
    ("cauchy", "", True),
    ("rayleigh", "scale=2.0", True),
    ("maxwell", "", True),
    ("double_sided_maxwell", "loc=1.0, scale=2.0", True),
    ("weibull_min", "scale=2.0, concentration=1.5", True),
    ("pareto", "b=jnp.array([1.0, 2.0, 3.0])", True),
    ("lognormal", "sigma=0.5", True),
    ("wald", "mean=jnp.array([1.0, 2.0, 3.0])", True),
    ("triangular", "left=0.0, mode=1.0, right=3.0", True),
    ("generalized_normal", "p=1.5", True),
    ("gamma", "a=jnp.array([0.5, 1.0, 3.0])", False),
    ("loggamma", "a=jnp.array([0.5, 1.0, 3.0])", False),
    ("beta", "a=2.0, b=jnp.array([0.5, 1.0, 3.0])", False),
    ("chisquare", "df=jnp.array([1.0, 2.0, 5.0])", False),
    ("f", "dfnum=2.0, dfden=jnp.array([1.0, 3.0, 5.0])", False),
    ("t", "df=jnp.array([1.0, 3.0, 5.0])", False),
]


def _random() -> list[tuple[str, bool]]:
    c: list[tuple[str, bool]] = []
    for name, params, exact in SAMPLERS:
        p = (params + ", ") if params else ""
        for dt in ("jnp.float16", "jnp.bfloat16", "jnp.float32"):
            c.append((f"random.{name}(K0, {p}shape=(2, 3), dtype={dt})", exact))
        c.append((f"random.{name}(K1, {p}shape=(4, 3))", exact))
        c.append((f"random.{name}(K1, {p}shape=(3,))", exact))
        c.append((f"random.{name}(K1, {p}shape=(2,))", exact))
        c.append((f"random.{name}(K1, {p}dtype=jnp.int32)", exact))
        c.append((f"random.{name}(K1, {p}shape=())", exact))
        c.append((f"random.{name}(random.split(K1, 3)[1], {p}shape=(0, 3))", exact))
    c += [
        ("random.dirichlet(K0, jnp.array([0.5, 1.0, 2.0]), shape=(2,))", False),
        ("random.dirichlet(K0, jnp.array([[0.5, 1.0], [2.0, 3.0]]), dtype=jnp.float16)", False),
        ("random.dirichlet(K0, jnp.array([0.5, 1.0]), shape=(3, 2))", False),
        ("random.dirichlet(K0, jnp.float32(1.0))", False),
        ("random.poisson(K0, 3.0, shape=(5,))", True),
        ("random.poisson(K0, jnp.array([0.5, 20.0, 200.0]), shape=(2, 3))", True),
        ("random.poisson(K0, 3.0, shape=(3,), dtype=jnp.int8)", True),
        ("random.poisson(K0, 3.0, shape=(3,), dtype=jnp.float32)", True),
        ("random.poisson(K0, -1.0, shape=(3,))", True),
        ("random.poisson(K0, 0.0, shape=(3,))", True),
        ("random.poisson(K0, jnp.array([1.0, 2.0]), shape=(3,))", True),
        ("random.binomial(K0, 10.0, 0.3, shape=(5,))", False),
        ("random.binomial(K0, jnp.array([5.0, 50.0, 500.0]), 0.4)", False),
        ("random.binomial(K0, 10.0, jnp.array([0.0, 1.0, 0.5]))", False),
        ("random.binomial(K0, 10.0, 0.3, shape=(3,), dtype=jnp.float16)", False),
        ("random.geometric(K0, 0.3, shape=(5,))", True),
        ("random.geometric(K0, jnp.array([0.1, 0.9]), dtype=jnp.int8)", True),
        ("random.geometric(K0, 0.3, shape=(3,), dtype=jnp.float32)", True),
        ("random.bernoulli(K0, 0.3, shape=(7,))", True),
        ("random.bernoulli(K0, jnp.array([0.0, 1.0, 0.5]))", True),
        ("random.bernoulli(K0, jnp.float16(0.5), shape=(4,))", True),
        ("random.bernoulli(K0, 0.5, shape=(2, 3), mode='high')", True),
        ("random.bernoulli(K0, jnp.array([0.1, 0.9]), shape=(3,))", True),
        ("random.rademacher(K0, (6,))", True),
        ("random.rademacher(K0, (6,), dtype=jnp.float32)", True),
        ("random.rademacher(K0, (6,), dtype=jnp.int8)", True),
        ("random.randint(K0, (6,), 0, 10)", True),
        ("random.randint(K0, (6,), -1000, 1000, dtype=jnp.int8)", True),
        ("random.randint(K0, (6,), 5, 2)", True),
        ("random.randint(K0, (6,), 0, 2**32, dtype=jnp.uint32)", True),
        ("random.randint(K0, (6,), -(2**31), 2**31 - 1)", True),
        (
            "random.randint(K0, (6,), jnp.array([0, 10, 100]).reshape(3, 1)[:, :1].ravel()[:1], 200)",
            True,
        ),
        ("random.randint(K0, (2, 3), jnp.array([0, 10, 100]), 200)", True),
        ("random.randint(K0, (6,), 0, 10, dtype=jnp.uint8)", True),
        ("random.randint(K0, (6,), 0, 10, dtype=jnp.float32)", True),
        ("random.randint(K0, (6,), 0.5, 10)", True),
        ("random.randint(K0, (2,), jnp.array([0, 10, 100]), 200)", True),
        ("random.bits(K0, (5,))", True),
        ("random.bits(K0, (5,), dtype=jnp.uint8)", True),
        ("random.bits(K0, (5,), dtype=jnp.uint16)", True),
        ("random.bits(K0, (5,), dtype=jnp.int32)", True),
        ("random.bits(K0, (5,), dtype=jnp.float32)", True),
        ("random.bits(K0)", True),
        ("random.categorical(K0, jnp.log(jnp.array([0.1, 0.2, 0.7])), shape=(6,))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)), axis=0)", True),
        ("random.categorical(K0, jnp.zeros((2, 4)), shape=(3, 2))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)), shape=(3,))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)), replace=False, shape=(2, 2))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)), mode='high')", True),
        ("random.categorical(K0, jnp.array([-jnp.inf, 0.0, -jnp.inf]), shape=(4,))", True),
        ("random.permutation(K0, 6)", True),
        ("random.permutation(K0, jnp.arange(6.0))", True),
        ("random.permutation(K0, jnp.arange(6).reshape(2, 3), axis=1)", True),
        ("random.permutation(K0, jnp.arange(6).reshape(2, 3), axis=1, independent=True)", True),
        ("random.permutation(K0, 0)", True),
        ("random.permutation(K0, 2.0)", True),
        ("random.permutation(K0, jnp.float32(3))", True),
        ("random.choice(K0, 5, (3,))", True),
        ("random.choice(K0, 5, (3,), replace=False)", True),
        ("random.choice(K0, 5, (6,), replace=False)", True),
        ("random.choice(K0, jnp.arange(10.0), (2, 2), p=jnp.arange(10.0) / 45)", True),
        ("random.choice(K0, jnp.arange(10.0), (3,), replace=False, p=jnp.arange(10.0) / 45)", True),
        ("random.choice(K0, jnp.arange(6).reshape(2, 3), (2,), axis=1)", True),
        ("random.choice(K0, 0, (2,))", True),
        ("random.choice(K0, 5, (2,), p=jnp.ones(4) / 4)", True),
        ("random.choice(K0, jnp.float32(3.0), (2,))", True),
        ("random.choice(K0, 5, (2,), mode='high')", True),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), shape=(3,))", False),
        (
            "random.multivariate_normal(K0, jnp.zeros((4, 2)), jnp.array([[2.0, 0.5], [0.5, 1.0]]))",
            False,
        ),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), method='eigh')", False),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), method='svd')", False),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), method='qr')", False),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(3))", False),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), shape=(3, 2))", False),
        ("random.ball(K0, 3, shape=(2,))", False),
        ("random.ball(K0, 2, p=1.0, shape=(3,))", False),
        ("random.ball(K0, 2.0)", False),
        ("random.orthogonal(K0, 3)", False),
        ("random.orthogonal(K0, 2, shape=(2,), m=3)", False),
        ("random.orthogonal(K0, 3, dtype=jnp.float16)", False),
        ("random.multinomial(K0, 10, jnp.array([0.2, 0.3, 0.5]))", False),
        (
            "random.multinomial(K0, jnp.array([5, 10]), jnp.array([0.2, 0.3, 0.5]), shape=(2, 3))",
            False,
        ),
        ("random.multinomial(K0, 10.0, jnp.array([0.2, 0.8]), dtype=jnp.int32)", False),
        ("random.multinomial(K0, 10, jnp.array([0.2, 0.8]), unroll=2)", False),
        ("random.split(K0)", True),
        ("random.split(K0, 3)", True),
        ("random.split(K0, (2, 3))", True),
        ("random.split(K0, 0)", True),
        ("random.split(random.split(K0, 2))", True),
        ("random.split(K1, 3)", True),
        ("random.split(K1, 3.0)", True),
        ("random.fold_in(K0, 7)", True),
        ("random.fold_in(K0, -1)", True),
        ("random.fold_in(K0, 2**32 - 1)", True),
        ("random.fold_in(K0, 2**32)", True),
        ("random.fold_in(K0, jnp.uint32(5))", True),
        ("random.fold_in(K0, jnp.int8(-5))", True),
        ("random.fold_in(K0, 1.5)", True),
        ("random.fold_in(random.split(K0, 2), jnp.arange(2))", True),
        ("random.fold_in(K1, 3)", True),
        ("random.PRNGKey(-1)", True),
        ("random.PRNGKey(2**32 + 5)", True),
        ("random.PRNGKey(2**63 - 1)", True),
        ("random.PRNGKey(2**64)", True),
        ("random.PRNGKey(jnp.uint32(7))", True),
        ("random.PRNGKey(jnp.int8(-7))", True),
        ("random.PRNGKey(1.0)", True),
        ("random.PRNGKey(jnp.array([1, 2]))", True),
        ("random.key(-3)", True),
        ("random.key(np.uint64(2**63 + 5))", True),
        ("random.key_data(random.key(3))", True),
        ("random.key_data(random.PRNGKey(3))", True),
        ("random.wrap_key_data(jnp.array([1, 2], jnp.uint32))", True),
        ("random.wrap_key_data(jnp.array([1, 2], jnp.int32))", True),
        ("random.wrap_key_data(jnp.array([1, 2, 3], jnp.uint32))", True),
        ("random.uniform(random.split(K0, 2), (2,))", True),
        ("random.uniform(jnp.zeros(3, jnp.uint32), (2,))", True),
        ("random.uniform(K0, (2,), dtype=jnp.int32)", True),
        ("random.uniform(K0, (2,), minval=jnp.ones(3))", True),
        ("random.uniform(K0, (2,), minval=jnp.float16(1.0), maxval=2)", True),
        ("random.uniform(K0, (3,), minval=1.0, maxval=1.0)", True),
        ("random.uniform(K0, (3,), minval=2.0, maxval=1.0)", True),
        ("random.normal(K0, (2,), dtype=jnp.complex64)", True),
        ("random.normal(K0, (2, 3), dtype=jnp.float16)", True),
        ("random.normal(K0, 3)", True),
        ("random.normal(K0, [2, 3])", True),
        ("random.normal(K0, (2.0,))", True),
        ("random.normal(K0, (-1,))", True),
        ("random.truncated_normal(K0, 2.0, 1.0, (3,))", True),
        ("random.truncated_normal(K0, -jnp.inf, jnp.inf, (3,))", True),
        ("random.truncated_normal(K0, jnp.array([-1.0, 0.0]), 1.0, (3,))", True),
        ("random.gamma(K0, 0.0, (3,))", False),
        ("random.gamma(K0, -1.0, (3,))", False),
        ("random.gamma(K0, 1e-4, (3,))", False),
        ("random.gamma(K0, jnp.array([1.0, 2.0]), (3,))", False),
        ("random.beta(K0, 0.0, 1.0, (3,))", False),
        ("random.t(K0, 0.0, (3,))", False),
        ("random.exponential(K0, (3,), dtype=jnp.int32)", True),
        ("random.laplace(K0, (3,), dtype=jnp.bool_)", True),
        ("random.generalized_normal(K0, 2.0, (3,))", True),
        ("random.generalized_normal(K0, jnp.array([0.5, 2.0, 8.0]))", True),
        ("random.triangular(K0, 0.0, 3.0, 1.0, (3,))", True),
        ("random.weibull_min(K0, jnp.array([1.0, 2.0, 3.0]), 1.0)", True),
        ("random.lognormal(K0, jnp.array([0.5, 1.0]), (2,))", True),
        ("random.pareto(K0, 0.0, (3,))", True),
        ("random.rayleigh(K0, jnp.array([1.0, 2.0, 3.0]))", True),
        ("random.wald(K0, jnp.array([-1.0, 0.0]))", True),
        ("random.clone(K0)", True),
        ("random.key_impl(K0)", True),
        ("str(random.key_impl(K1))", True),
        ("random.key(0, impl='rbg')", True),
        ("random.uniform(random.key(0, impl='rbg'), (4,))", True),
        ("random.uniform(random.key(0, impl='unsafe_rbg'), (4,))", True),
        ("random.normal(random.key(0, impl='rbg'), (3,))", True),
        ("random.split(random.key(0, impl='rbg'), 2)", True),
        ("random.fold_in(random.key(0, impl='rbg'), 3)", True),
        ("random.key(0, impl='nope')", True),
        ("random.bits(random.key(0, impl='threefry2x32'), (3,), dtype=jnp.uint8)", True),
    ]
    return c


def _random_x64() -> list[tuple[str, bool]]:
    c: list[tuple[str, bool]] = []
    for name, params, exact in SAMPLERS:
        p = (params + ", ") if params else ""
        c.append((f"random.{name}(K0, {p}shape=(2, 3), dtype=jnp.float64)", exact))
        c.append((f"random.{name}(K1, {p}shape=(3,))", exact))
    c += [
        ("random.bits(K0, (5,), dtype=jnp.uint64)", True),
        ("random.randint(K0, (6,), 0, 2**40, dtype=jnp.int64)", True),
        ("random.randint(K0, (6,), -(2**62), 2**62)", True),
        ("random.randint(K0, (6,), 0, 2**64 - 1, dtype=jnp.uint64)", True),
        ("random.poisson(K0, 3.0, shape=(5,))", True),
        ("random.poisson(K0, jnp.array([0.5, 20.0, 200.0]), shape=(2, 3), dtype=jnp.int64)", True),
        ("random.binomial(K0, 10.0, 0.3, shape=(5,))", False),
        ("random.geometric(K0, 0.3, shape=(5,))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)))", True),
        ("random.permutation(K0, 6)", True),
        ("random.choice(K0, 5, (3,), replace=False)", True),
        ("random.dirichlet(K0, jnp.array([0.5, 1.0, 2.0]), shape=(2,))", False),
        ("random.normal(K0, (2,), dtype=jnp.complex128)", True),
        ("random.normal(K0, (2,))", True),
        ("random.uniform(K0, (2,), minval=jnp.float32(1.0))", True),
        ("random.fold_in(K0, 2**40)", True),
        ("random.PRNGKey(2**40 + 3)", True),
        ("random.PRNGKey(-(2**40))", True),
        ("random.key(2**63 - 1)", True),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), shape=(3,))", False),
        ("random.orthogonal(K0, 3)", False),
        ("random.ball(K0, 3)", False),
        ("random.multinomial(K0, 10, jnp.array([0.2, 0.3, 0.5]))", False),
        ("random.rademacher(K0, (4,))", True),
        ("random.bernoulli(K0, 0.3, shape=(5,))", True),
        ("random.truncated_normal(K0, -1.0, 2.0, (3,), dtype=jnp.float64)", True),
    ]
    return c


INITS = [
    "init.zeros",
    "init.ones",
    "init.constant(0.5)",
    "init.constant(-2, dtype=jnp.int32)",
    "init.uniform()",
    "init.uniform(2.0)",
    "init.normal()",
    "init.normal(0.5)",
    "init.truncated_normal()",
    "init.truncated_normal(2.0, lower=-1.0, upper=3.0)",
    "init.glorot_uniform()",
    "init.glorot_normal()",
    "init.xavier_uniform()",
    "init.xavier_normal()",
    "init.he_uniform()",
    "init.he_normal()",
    "init.kaiming_uniform()",
    "init.kaiming_normal()",
    "init.lecun_uniform()",
    "init.lecun_normal()",
    "init.variance_scaling(2.0, 'fan_avg', 'uniform')",
    "init.variance_scaling(1.0, 'fan_out', 'normal')",
    "init.variance_scaling(1.0, 'fan_in', 'truncated_normal')",
    "init.variance_scaling(1.0, 'fan_geo_avg', 'truncated_normal')",
    "init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=0, out_axis=1)",
    "init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=(0, 1), out_axis=-1)",
    "init.variance_scaling(1.0, 'fan_avg', 'uniform', batch_axis=0)",
    "init.variance_scaling(1.0, 'fan_avg', 'uniform', in_axis=1, out_axis=2, batch_axis=(0,))",
    "init.glorot_uniform(in_axis=0, out_axis=1)",
    "init.he_normal(batch_axis=0)",
    "init.lecun_normal(in_axis=-1, out_axis=-2)",
    "init.orthogonal()",
    "init.orthogonal(scale=2.0)",
    "init.orthogonal(column_axis=0)",
    "init.delta_orthogonal()",
    "init.delta_orthogonal(scale=0.5, column_axis=-2)",
]


def _initializers() -> list[tuple[str, bool]]:
    c: list[tuple[str, bool]] = []
    shapes = ["(3, 4)", "(2, 3, 4)", "(5,)", "()", "(2, 2, 3, 4)", "(3, 3, 2, 2)", "(0, 3)"]
    for ini in INITS:
        for shape in shapes:
            c.append((f"{ini}(K0, {shape})", True))
        for dt in ("jnp.float16", "jnp.bfloat16", "jnp.int32", "jnp.complex64"):
            c.append((f"{ini}(K0, (3, 4), {dt})", True))
        c.append((f"{ini}(K1, [4, 3])", True))
        c.append((f"{ini}(K0, (3, 4), dtype=jnp.float16)", True))
    c += [
        ("init.variance_scaling(1.0, 'fan_x', 'normal')", True),
        ("init.variance_scaling(1.0, 'fan_in', 'bad')", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal')(K0, (2, 3), jnp.complex64)", True),
        ("init.variance_scaling(1.0, 'fan_in', 'uniform')(K0, (2, 3), jnp.complex64)", True),
        (
            "init.variance_scaling(1.0, 'fan_in', 'truncated_normal')(K0, (2, 3), jnp.complex64)",
            True,
        ),
        ("init.variance_scaling(-1.0, 'fan_in', 'normal')(K0, (2, 3))", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=5)(K0, (2, 3))", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal', dtype=jnp.float16)(K0, (2, 3))", True),
        ("init.normal(dtype=jnp.float16)(K0, (2, 3))", True),
        ("init.uniform(dtype=jnp.bfloat16)(K0, (2, 3))", True),
        ("init.glorot_uniform(dtype=jnp.bfloat16)(K0, (2, 3))", True),
        ("init.orthogonal()(K0, (2, 3), jnp.complex64)", True),
        ("init.delta_orthogonal()(K0, (3, 3, 5, 2))", True),
        ("init.delta_orthogonal()(K0, (3, 2, 3))", True),
        ("init.delta_orthogonal()(K0, (3, 4, 2, 2))", True),
        ("init.delta_orthogonal()(K0, (3, 3, 3, 2, 2))", True),
        ("init.zeros(K0, (2, 3), jnp.bool_)", True),
        ("init.ones(K0, (2,), jnp.int8)", True),
        ("init.constant(jnp.array([1.0, 2.0]))(K0, (3, 2))", True),
        ("init.constant(jnp.array([1.0, 2.0]))(K0, (3, 3))", True),
        ("init.constant(1.5)(K0, (2,), jnp.int32)", True),
        ("init.zeros(K0, 3)", True),
        ("init.zeros(K0, (2.0, 3))", True),
        ("init.he_normal()(K0, (-1, 3))", True),
    ]
    return c


def _indexing() -> list[str]:
    x = "I34"
    idx = [
        "-1",
        "-3",
        "-4",
        "3",
        "5",
        "(0, -1)",
        "(0, 4)",
        "(-4, 0)",
        "None",
        "(None, 1)",
        "(1, None)",
        "(..., None)",
        "(None, ..., None, 1)",
        "(1, None, slice(None, None, 2))",
        "(slice(None), [0, 2])",
        "([0, 1], None, [1, 2])",
        "([0, 1], slice(None), None)",
        "(0, ..., [1, 2])",
        "([0, 2], ..., [1, 3])",
        "(..., ...)",
        "(None, None, ..., 0)",
        "jnp.array(5)",
        "jnp.array(-5)",
        "jnp.array([0, 5, -1, -5])",
        "jnp.array([[0], [2]])",
        "(jnp.array([0, 5]), jnp.array([-9, 1]))",
        "jnp.int8(-1)",
        "np.uint32(2)",
        "jnp.uint8(200)",
        "True",
        "False",
        "(True, 0)",
        "(None, False)",
        "jnp.array(True)",
        "jnp.array([True, False, True])",
        "(slice(None), jnp.array([True, False, True, False]))",
        "(..., jnp.array([True, False, True, False]))",
        "jnp.array([True, False])",
        "I34 > 5",
        "I34 > 100",
        "(I34 > 5)[0]",
        "[True, False, True]",
        "[[0, 1], [1, 2]]",
        "[0, 1]",
        "(0, 1)",
        "[0, [1, 2]]",
        "1.5",
        "jnp.array(1.0)",
        "jnp.array([1.0])",
        "'a'",
        "slice(None, None, 0)",
        "slice(10, -10, -1)",
        "slice(-100, 100)",
        "(slice(1, 2), slice(None, None, -1))",
        "jnp.array([], dtype=jnp.int32)",
        "[]",
        "((),)",
        "(0, 0, 0)",
        "(..., 0, ...)",
        "Ellipsis",
        "jnp.arange(3)[:, None]",
        "(jnp.arange(3)[:, None], jnp.arange(4))",
        "(jnp.arange(2)[:, None], slice(1, 3))",
        "jnp.array([2**31 - 1])",
        "jnp.array([-(2**31)])",
        "np.array([1, 2], np.int64)",
        "jnp.array([1, 2], jnp.uint8)",
        "jnp.array([1, 2], jnp.int16)",
    ]
    c = [f"{x}[{i}]" for i in idx]
    c += [f"{x}.at[{i}].get()" for i in idx[:30]]
    modes = [
        "",
        "mode='fill'",
        "mode='fill', fill_value=-1",
        "mode='clip'",
        "mode='drop'",
        "mode='promise_in_bounds'",
        "mode='bogus'",
        "mode='fill', fill_value=2.5",
    ]
    for i in ("jnp.array([0, 5, -1, -5])", "jnp.array(5)", "(0, jnp.array([-5, 3, 4, 9]))", "3"):
        for m in modes:
            c.append(f"{x}.at[{i}].get({m})")
            c.append(f"X34.at[{i}].get({m})")
    c.append("X34.at[jnp.array([0, 5])].get(mode='fill', fill_value=jnp.nan)")
    c.append("jnp.arange(4, dtype=jnp.uint8).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("jnp.arange(4.0, dtype=jnp.float16).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("jnp.array([True, False]).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("(jnp.arange(4) * (1 + 1j)).at[jnp.array([0, 7])].get(mode='fill')")
    c.append(
        "jnp.arange(4, dtype=jnp.int8).at[jnp.array([0, 7])].get(mode='fill', fill_value=1000)"
    )
    c.append("jnp.arange(4, dtype=jnp.uint8).at[jnp.array([0, 7])].get(mode='fill', fill_value=-1)")
    ops = ["set", "add", "multiply", "divide", "power", "min", "max", "subtract"]
    for op in ops:
        for arr in (
            "I34",
            "X34",
            "jnp.arange(4, dtype=jnp.uint8)",
            "jnp.arange(4, dtype=jnp.int8)",
            "jnp.array([True, False, True])",
            "jnp.arange(3.0, dtype=jnp.float16)",
        ):
            for v in ("2", "2.7", "-1", "jnp.float32(2.5)", "True", "1j"):
                c.append(f"{arr}.at[1].{op}({v})")
    for op in ("set", "add", "min", "max", "multiply"):
        for i in (
            "jnp.array([0, 5, -1, -5])",
            "jnp.array([0, 0, 2])",
            "(jnp.array([0, 0]), jnp.array([1, 1]))",
        ):
            for m in (
                "",
                ", mode='clip'",
                ", mode='drop'",
                ", mode='fill'",
                ", mode='promise_in_bounds'",
                ", mode='bogus'",
                ", indices_are_sorted=True, unique_indices=True",
            ):
                c.append(f"X34.at[{i}].{op}(7.0{m})")
    c += [
        "X34.at[2:].set(jnp.arange(4.0))",
        "X34.at[2:].set(jnp.arange(3.0))",
        "X34.at[:, 1].set(jnp.ones((3, 1)))",
        "X34.at[:, 1].set(jnp.ones((1, 3)))",
        "X34.at[I34 > 5].set(0.0)",
        "X34.at[I34 > 5].set(jnp.arange(6.0))",
        "X34.at[I34 > 5].add(jnp.arange(5.0))",
        "X34.at[None].set(1.0)",
        "X34.at[..., None].add(1.0)",
        "X34.at[1].apply(jnp.sin)",
        "X34.at[jnp.array([0, 0, 1])].apply(lambda v: v + 1)",
        "I34.at[1].apply(lambda v: v * 2.5)",
        "X34.at[1].set(jnp.ones(4, jnp.int32))",
        "X34.at[1].set(jnp.ones(4, jnp.float16)).dtype",
        "I34.at[0].divide(2)",
        "I34.at[0].divide(0)",
        "I34.at[0].power(-1)",
        "I34.at[0].power(2.5)",
        "jnp.arange(3).at[1].set(2**40)",
        "jnp.arange(3, dtype=jnp.uint8).at[1].set(300)",
        "jnp.arange(3, dtype=jnp.uint8).at[1].set(jnp.int32(300))",
        "jnp.arange(3.0).at[1].set(jnp.nan)",
        "jnp.float32(3).at[()].set(1)",
        "jnp.float32(3).at[0].set(1)",
        "jnp.arange(3).at[1.0].set(1)",
        "jnp.arange(3).at['a'].set(1)",
        "jnp.arange(3).at[1].set(1, mode='fill')",
        "jnp.arange(3).at[1].set(1, mode='clip').weak_type",
        "X34.at[1].set(1.0).weak_type",
        "jnp.asarray(3.0).at[()].set(jnp.float32(1)).weak_type",
        "jnp.asarray(3.0).at[()].get().weak_type",
        "jnp.asarray(3.0)[()].weak_type",
        "jnp.asarray(3.0)[None].weak_type",
        "jnp.asarray([3.0])[jnp.array([0])]",
        "X34.at",
        "X34.at[1]",
        "X34.at[1].get",
        "jnp.arange(5)[jnp.array([1, 2]), jnp.array([1, 2])]",
        "jnp.arange(5)[jnp.array([True, True, False, False, True])]",
        "jnp.arange(5)[[True, True, False, False, True]]",
        "jnp.arange(5)[jnp.array([1, 2], dtype=jnp.bool_)]",
        "jnp.arange(5)[np.array([True, False, True, False, False])]",
        "jax.jit(lambda a, m: a[m])(jnp.arange(3), jnp.array([True, False, True]))",
        "jax.jit(lambda a, i: a[i])(jnp.arange(3), 7)",
        "jax.jit(lambda a, i: a[i])(jnp.arange(3), -7)",
        "jax.jit(lambda a, i: a.at[i].set(9))(jnp.arange(3), 7)",
        "jax.jit(lambda a, i: a[i:i + 2])(jnp.arange(5), 1)",
        "jax.jit(lambda a, i: lax.dynamic_slice_in_dim(a, i, 2))(jnp.arange(5), 4)",
        "jax.jit(lambda a, i: a[i, ::2])(I34, -1)",
    ]
    return c


def _linalg_fft() -> list[str]:
    A = "jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])"
    B = f"jnp.stack([{A}, {A} * 2])"
    R = "jnp.arange(12.0).reshape(3, 4) / 7"
    I = "jnp.array([[2, 1], [1, 3]])"
    F16 = f"{A}.astype(jnp.float16)"
    c = []
    la = "jnp.linalg"
    for fn in (
        "inv",
        "det",
        "slogdet",
        "cholesky",
        "eigh",
        "eigvalsh",
        "pinv",
        "matrix_rank",
        "qr",
        "svd",
        "svdvals",
        "eigvals",
        "norm",
        "cond",
        "matrix_norm",
        "trace",
        "diagonal",
        "matrix_transpose",
        "tensorinv",
    ):
        for a in (
            A,
            B,
            I,
            F16,
            R,
            "jnp.ones(3)",
            "jnp.ones((0, 0))",
            "jnp.ones((2, 0, 0))",
            "jnp.array([[1 + 1j, 2], [3, 4j]])",
            "jnp.zeros((2, 2))",
        ):
            c.append(f"{la}.{fn}({a})")
    c += [
        f"{la}.solve({A}, jnp.arange(3.0))",
        f"{la}.solve({B}, jnp.arange(3.0))",
        f"{la}.solve({B}, jnp.ones((2, 3)))",
        f"{la}.solve({B}, jnp.ones((3, 2)))",
        f"{la}.solve({B}, jnp.ones((2, 3, 1)))",
        f"{la}.solve({A}, jnp.ones(4))",
        f"{la}.solve({I}, jnp.array([1, 2]))",
        f"{la}.solve({R}, jnp.ones(3))",
        f"{la}.lstsq({R}, jnp.ones(3))",
        f"{la}.lstsq({R}.T, jnp.ones(4))",
        f"{la}.lstsq({R}.T, jnp.ones((4, 2)), rcond=0.1)",
        f"{la}.lstsq({R}, jnp.ones(4))",
        f"{la}.matrix_power({A}, 3)",
        f"{la}.matrix_power({A}, 0)",
        f"{la}.matrix_power({A}, -2)",
        f"{la}.matrix_power({I}, 3)",
        f"{la}.matrix_power({I}, -1)",
        f"{la}.matrix_power({A}, 1.5)",
        f"{la}.matrix_power({R}, 2)",
        f"{la}.multi_dot([{R}, {R}.T, {A}])",
        f"{la}.multi_dot([jnp.ones(3), {A}, jnp.ones(3)])",
        f"{la}.multi_dot([{A}])",
        f"{la}.cross(jnp.arange(3.0), jnp.ones(3))",
        f"{la}.cross(jnp.arange(2.0), jnp.ones(2))",
        f"{la}.cross(jnp.arange(6).reshape(2, 3), jnp.ones(3, jnp.int32))",
        f"{la}.outer(jnp.arange(3), jnp.ones(2))",
        f"{la}.outer(jnp.ones((2, 2)), jnp.ones(2))",
        f"{la}.vecdot(jnp.arange(3.0), jnp.ones((2, 3)))",
        f"{la}.vecdot(jnp.array([1j, 2]), jnp.array([1j, 1]))",
        f"{la}.matmul({R}, {R}.T)",
        f"{la}.tensordot({R}, {R}.T, axes=1)",
        f"{la}.vector_norm({R}, ord=jnp.inf)",
        f"{la}.vector_norm({R}, ord=0, axis=1)",
        f"{la}.vector_norm({R}, ord=-1, keepdims=True)",
        f"{la}.norm({R}, ord='fro')",
        f"{la}.norm({R}, ord='nuc')",
        f"{la}.norm({R}, ord=2)",
        f"{la}.norm({R}, ord=-2)",
        f"{la}.norm({R}, ord=1, axis=0)",
        f"{la}.norm({R}, ord='fro', axis=0)",
        f"{la}.norm({R}, ord=3)",
        f"{la}.norm({R}, axis=(0, 1, 2))",
        f"{la}.norm(jnp.arange(3.0), ord='fro')",
        f"{la}.cond({A}, p=1)",
        f"{la}.cond({A}, p='fro')",
        f"{la}.cond(jnp.zeros((2, 2)), p=1)",
        f"{la}.matrix_rank({R}, rtol=0.5)",
        f"{la}.matrix_rank({R}, tol=0.5)",
        f"{la}.pinv({R}, rtol=0.5)",
        f"{la}.pinv({A}, hermitian=True)",
        f"{la}.eigh({A}, UPLO='U')",
        f"{la}.eigh({A}, UPLO='X')",
        f"{la}.eigh({A}, symmetrize_input=False)",
        f"{la}.cholesky({A}, upper=True)",
        f"{la}.cholesky(-{A})",
        f"{la}.qr({R}, mode='complete')",
        f"{la}.qr({R}, mode='r')",
        f"{la}.qr({R}, mode='raw')",
        f"{la}.qr({R}, mode='x')",
        f"{la}.qr({R}.T, mode='reduced')",
        f"{la}.svd({R}, full_matrices=False)",
        f"{la}.svd({R}, compute_uv=False)",
        f"{la}.svd({R}, hermitian=True)",
        f"{la}.eig({A})",
        f"{la}.slogdet({A}, method='qr')",
        f"{la}.slogdet(jnp.zeros((2, 2)))",
        f"{la}.slogdet(-{A})",
        f"{la}.slogdet({A}, method='x')",
        f"{la}.det(jnp.array([[1, 2], [2, 4]]))",
        f"{la}.inv(jnp.array([[1.0, 2.0], [2.0, 4.0]]))",
        f"{la}.tensorsolve(jnp.eye(6).reshape(2, 3, 6), jnp.ones((2, 3)))",
        f"{la}.tensorinv(jnp.eye(6).reshape(2, 3, 6), ind=2)",
        f"{la}.tensorinv(jnp.eye(6).reshape(6, 2, 3), ind=1)",
        f"{la}.diagonal({B}, offset=1)",
        f"{la}.trace({B}, offset=-1, dtype=jnp.int32)",
        f"{la}.matrix_norm({R}, ord=1, keepdims=True)",
        f"{la}.svdvals({B})",
    ]
    v = "jnp.arange(8.0)"
    m = "jnp.arange(12.0).reshape(3, 4)"
    iv = "jnp.arange(8)"
    ff = "jnp.fft"
    for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        for a in (
            v,
            iv,
            m,
            "jnp.arange(8.0, dtype=jnp.float16)",
            "jnp.arange(4) * (1 + 1j)",
            "jnp.array([True, False])",
            "jnp.float32(1)",
            "jnp.zeros((0,))",
        ):
            c.append(f"{ff}.{fn}({a})")
        for kw in (
            "n=5",
            "n=12",
            "n=0",
            "n=-1",
            "n=1",
            "axis=0",
            "axis=2",
            "axis=-2",
            "norm='ortho'",
            "norm='forward'",
            "norm='backward'",
            "norm='bad'",
            "norm=None",
        ):
            c.append(f"{ff}.{fn}({m}, {kw})")
    for fn in ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"):
        for kw in (
            "",
            "s=(2, 3)",
            "s=(5, 6)",
            "axes=(0,)",
            "axes=(1, 0)",
            "axes=(0, 0)",
            "s=(2,), axes=(1,)",
            "s=(2, 3), axes=(0,)",
            "norm='ortho'",
            "axes=(2,)",
            "s=(0, 2)",
            "axes=()",
        ):
            for a in (m, "jnp.arange(24).reshape(2, 3, 4)"):
                c.append(f"{ff}.{fn}({a}{', ' + kw if kw else ''})")
        c.append(f"{ff}.{fn}(jnp.arange(3.0))")
    for fn in ("fftfreq", "rfftfreq"):
        for a in (
            "8",
            "7",
            "8, 0.1",
            "8, d=2",
            "0",
            "1",
            "8, dtype=jnp.float16",
            "8.0",
            "jnp.int32(8)",
            "8, d=jnp.array(0.5)",
            "-2",
        ):
            c.append(f"{ff}.{fn}({a})")
    for fn in ("fftshift", "ifftshift"):
        for a in (
            v,
            m,
            f"{m}, axes=0",
            f"{m}, axes=(0, 1)",
            f"{m}, axes=5",
            "jnp.float32(2)",
            "[1, 2, 3]",
        ):
            c.append(f"{ff}.{fn}({a})")
    return c


def _optax() -> list[str]:
    o = "optax"
    sched = [
        f"{o}.constant_schedule(0.1)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, 10)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, 0)",
        f"{o}.polynomial_schedule(1.0, 0.1, 2.0, -3)",
        f"{o}.polynomial_schedule(1.0, 0.1, 1, 10, transition_begin=3)",
        f"{o}.polynomial_schedule(1.0, 0.1, 1, 10, transition_begin=-3)",
        f"{o}.linear_schedule(1.0, 0.0, 10)",
        f"{o}.linear_schedule(1, 0, 10)",
        f"{o}.linear_schedule(1.0, 0.0, 0)",
        f"{o}.exponential_decay(1.0, 5, 0.5)",
        f"{o}.exponential_decay(1.0, 5, 0.5, staircase=True)",
        f"{o}.exponential_decay(1.0, 5, 0.5, transition_begin=3, end_value=0.3)",
        f"{o}.exponential_decay(1.0, 5, 2.0, end_value=3.0)",
        f"{o}.exponential_decay(1.0, 0, 0.5)",
        f"{o}.exponential_decay(1.0, -1, 0.5)",
        f"{o}.exponential_decay(1.0, 5, 0.5, transition_begin=-2)",
        f"{o}.exponential_decay(1.0, 5, 0.0)",
        f"{o}.cosine_decay_schedule(1.0, 10)",
        f"{o}.cosine_decay_schedule(1.0, 10, alpha=0.1, exponent=2.0)",
        f"{o}.cosine_decay_schedule(1.0, 0)",
        f"{o}.cosine_decay_schedule(1.0, -5)",
        f"{o}.cosine_decay_schedule(1, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 0, 10, end_value=0.1)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 10, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 12, 10)",
        f"{o}.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10, exponent=0.5)",
        f"{o}.warmup_exponential_decay_schedule(0.0, 1.0, 3, 4, 0.5)",
        f"{o}.warmup_exponential_decay_schedule(0.0, 1.0, 0, 4, 0.5, staircase=True, end_value=0.2)",
        f"{o}.piecewise_constant_schedule(1.0, {{3: 0.5, 6: 0.1}})",
        f"{o}.piecewise_constant_schedule(1.0, {{3: -0.5}})",
        f"{o}.piecewise_constant_schedule(1.0)",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{3: 0.5, 6: 2.0}})",
        f"{o}.piecewise_interpolate_schedule('cosine', 1.0, {{3: 0.5, 6: 2.0}})",
        f"{o}.piecewise_interpolate_schedule('cubic', 1.0, {{3: 0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{3: -0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0, {{-3: 0.5}})",
        f"{o}.piecewise_interpolate_schedule('linear', 1.0)",
        f"{o}.linear_onecycle_schedule(10, 1.0)",
        f"{o}.linear_onecycle_schedule(10, 1.0, pct_start=0.5, pct_final=0.9)",
        f"{o}.linear_onecycle_schedule(10, 1.0, pct_start=0.9, pct_final=0.5)",
        f"{o}.cosine_onecycle_schedule(10, 1.0)",
        f"{o}.cosine_onecycle_schedule(10, 1.0, pct_start=0.0)",
        f"{o}.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=5), "
        "dict(init_value=0.0, peak_value=0.5, warmup_steps=1, decay_steps=4)])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0), {o}.linear_schedule(1.0, 0.0, 4)], [3])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0)], [])",
        f"{o}.join_schedules([{o}.constant_schedule(1.0), {o}.constant_schedule(2)], [3])",
        f"{o}.warmup_constant_schedule(0.0, 1.0, 4)",
        f"{o}.warmup_constant_schedule(0.0, 1.0, 0)",
    ]
    c = []
    for s in sched:
        for step in (
            "0",
            "3",
            "7",
            "10",
            "25",
            "-2",
            "jnp.int32(5)",
            "jnp.arange(12)",
            "2.5",
            "jnp.array(4.5)",
            "jnp.float16(3)",
        ):
            c.append(f"({s})({step})")
    logits = "jnp.array([[1.0, -jnp.inf, 2.0], [0.0, 0.0, 0.0]])"
    labels = "jnp.array([[0.0, 0.0, 1.0], [0.5, 0.5, 0.0]])"
    L = f"{o}.losses"
    c += [
        f"{L}.softmax_cross_entropy({logits}, {labels})",
        f"{L}.softmax_cross_entropy({logits}, jnp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))",
        f"{L}.softmax_cross_entropy({logits}, {labels}, axis=0)",
        f"{L}.softmax_cross_entropy({logits}, {labels}, where=jnp.array([[True, False, True], [True] * 3]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([2, 0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([5, -1]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([2.0, 0.0]))",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0]), axis=0)",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}, jnp.array([1, 0, 1]), axis=0)",
        f"{L}.softmax_cross_entropy_with_integer_labels({logits}.astype(jnp.float16), jnp.array([2, 0]))",
        f"{L}.safe_softmax_cross_entropy({logits}, {labels})",
        f"{L}.safe_softmax_cross_entropy(jnp.full((2, 3), -jnp.inf), {labels})",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([-100.0, 0.0, 100.0]), jnp.array([1, 0, 1]))",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([-100.0, 0.0, 100.0]), jnp.array([1.0, 0.5, 0.0]))",
        f"{L}.sigmoid_binary_cross_entropy(jnp.array([1.0]), jnp.array([1.0, 0.0]))",
        f"{L}.sigmoid_focal_loss(jnp.array([-3.0, 0.0, 3.0]), jnp.array([1.0, 0.0, 1.0]))",
        f"{L}.sigmoid_focal_loss(jnp.array([-3.0, 0.0, 3.0]), jnp.array([1.0, 0.0, 1.0]), alpha=0.25, gamma=0.0)",
        f"{L}.huber_loss(jnp.array([0.0, 1.0, 5.0]), jnp.array([0.5, 0.0, 0.0]), delta=1.0)",
        f"{L}.huber_loss(jnp.array([0.0, 1.0, 5.0]), delta=0.0)",
        f"{L}.huber_loss(jnp.array([0, 1, 5]))",
        f"{L}.l2_loss(jnp.array([1, 2]))",
        f"{L}.l2_loss(jnp.array([1.0, 2.0]), jnp.array([1, 1]))",
        f"{L}.squared_error(jnp.array([1.0, 2.0]), jnp.array([1.0]))",
        f"{L}.squared_error(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0, 3.0]))",
        f"{L}.log_cosh(jnp.array([0.0, 100.0, -1000.0]))",
        f"{L}.log_cosh(jnp.array([0.0, 100.0], jnp.float16))",
        f"{L}.cosine_similarity(jnp.zeros((2, 3)), jnp.ones((2, 3)))",
        f"{L}.cosine_similarity(jnp.ones((2, 3)), jnp.ones((2, 3)), epsilon=0.5)",
        f"{L}.cosine_distance(jnp.array([1.0, 0.0]), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.log(jnp.array([0.5, 0.5])), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.array([-jnp.inf, 0.0]), jnp.array([0.0, 1.0]))",
        f"{L}.kl_divergence(jnp.array([-jnp.inf, 0.0]), jnp.array([0.5, 0.5]))",
        f"{L}.kl_divergence_with_log_targets(jnp.array([-1.0, -0.5]), jnp.array([-jnp.inf, 0.0]))",
        f"{L}.convex_kl_divergence(jnp.array([-1.0, -0.5]), jnp.array([0.2, 0.8]))",
        f"{L}.hinge_loss(jnp.array([0.5, -2.0]), jnp.array([1, -1]))",
        f"{L}.hinge_loss(jnp.array([0.5, -2.0]), jnp.array([1, 0]))",
        f"{L}.multiclass_hinge_loss(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([0]))",
        f"{L}.perceptron_loss(jnp.array([0.5, -2.0]), jnp.array([1, -1]))",
        f"{L}.multiclass_perceptron_loss(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([2]))",
        f"{L}.poly_loss_cross_entropy({logits}, {labels})",
        f"{L}.poly_loss_cross_entropy({logits}, {labels}, epsilon=-1.0)",
        f"{L}.smooth_labels({labels}, 0.1)",
        f"{L}.smooth_labels(jnp.array([[0, 1]]), 0.1)",
        f"{L}.smooth_labels({labels}, 1.5)",
        f"{L}.sigmoid_binary_cross_entropy(jnp.float16(50), jnp.float16(0))",
        f"{L}.safe_softmax_cross_entropy({logits}.astype(jnp.bfloat16), {labels})",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 0.0]))",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 0.0, 0.0]))",
        f"{L}.ranking_softmax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 1.0]), "
        "where=jnp.array([True, True, False]))",
        f"{L}.ntxent(jnp.eye(4)[:, :3] + 0.1, jnp.array([0, 0, 1, 1]))",
        f"{L}.ntxent(jnp.eye(4)[:, :3] + 0.1, jnp.array([0, 1, 2, 3]))",
        f"{L}.triplet_margin_loss(jnp.ones((2, 3)), jnp.zeros((2, 3)), jnp.ones((2, 3)) * 2)",
        f"{L}.dice_loss(jnp.array([[[1.0, -1.0]]]), jnp.array([[[1.0, 0.0]]]))",
        f"{L}.kl_divergence(jnp.array([0.0]), jnp.array([0.0]))",
        f"{L}.ctc_loss(jnp.zeros((1, 4, 3)), jnp.zeros((1, 4)), jnp.array([[1, 2, 0]]), jnp.zeros((1, 3)))",
        f"{L}.ctc_loss(jnp.zeros((1, 4, 3)), jnp.zeros((1, 4)), jnp.array([[1, 1, 1]]), jnp.zeros((1, 3)))",
        f"{L}.ctc_loss_with_forward_probs(jnp.zeros((1, 2, 3)), jnp.zeros((1, 2)), jnp.array([[1]]), "
        "jnp.zeros((1, 1)))[0]",
        f"{L}.sparsemax_loss(jnp.array([1.0, 2.0, 0.5]), jnp.array([0.0, 1.0, 0.0]))",
        f"{L}.make_fenchel_young_loss(lambda z: jnp.sum(z ** 2) / 2)(jnp.array([1.0, 2.0]), jnp.array([0.0, 1.0]))",
    ]
    c += [
        "flax.training.common_utils.onehot(jnp.array([0, 2, 5]), 3)",
        "flax.training.common_utils.onehot(jnp.array([0, 2]), 3, on_value=2.0, off_value=-1.0)",
        "flax.training.common_utils.onehot(jnp.array([[0, 2]]), 3)",
        "flax.training.common_utils.onehot(jnp.array([0.0, 2.0]), 3)",
        "flax.training.common_utils.get_metrics([{'a': jnp.array(1.0)}, {'a': jnp.array(2.0)}])",
        "flax.training.common_utils.stack_forest([{'a': 1}, {'a': 2}])",
        "flax.training.common_utils.shard(jnp.arange(6).reshape(6, 1))",
        "flax.training.common_utils.shard(jnp.arange(5))",
        "flax.training.common_utils.shard_prng_key(K1)",
        "flax.training.common_utils.shard_prng_key(K0)",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
st2 = st.apply_gradients(grads={'w': jnp.array([1.0, 2.0])})
out = st2.step, st2.params, st2.opt_state, type(st2).__name__
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.adam(0.1))
st2 = st.apply_gradients(grads={'w': jnp.array([1.0, 2.0])}, step=7)
out = st2.step, st2.params
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
out = st.apply_gradients(grads={'v': jnp.array([1.0, 2.0])})
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1), opt_state=5)
out = st.opt_state
""",
        """
st = flax.training.train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)},
                                                 tx=optax.sgd(0.1))
out = jtu.tree_leaves(st), repr(jtu.tree_structure(st)).split('[')[0]
""",
        "flax.training.dynamic_scale.DynamicScale().scale",
        """
ds = flax.training.dynamic_scale.DynamicScale()
fn = ds.value_and_grad(lambda p: jnp.sum(p ** 2))
ds2, finite, v, g = fn(jnp.array([1.0, jnp.inf]))
out = ds2.scale, ds2.fin_steps, finite, v, g
""",
        """
ds = flax.training.dynamic_scale.DynamicScale(growth_interval=1)
fn = ds.value_and_grad(lambda p: jnp.sum(p ** 2))
ds2, finite, v, g = fn(jnp.array([1.0, 2.0]))
out = ds2.scale, ds2.fin_steps, finite, v, g
""",
        "flax.training.early_stopping.EarlyStopping(min_delta=0.1, patience=1).update(1.0)",
        """
es = flax.training.early_stopping.EarlyStopping(min_delta=0.1, patience=1)
for v in (1.0, 0.95, 0.97, 0.5):
    es = es.update(v)
out = es.best_metric, es.patience_count, es.should_stop, es.has_improved
""",
        "flax.training.common_utils.onehot(jnp.array([1]), 2, dtype=jnp.int8)",
    ]
    return c


# jax.scipy.stats: distribution -> (functions, good parameter values, discrete)
STATS = {
    "bernoulli": (("logpmf", "cdf", "ppf", "pmf"), ("0.3",), True),
    "beta": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("2.0", "0.5"), False),
    "betabinom": (("logpmf", "pmf"), ("5.0", "2.0", "0.5"), True),
    "binom": (("logpmf", "pmf"), ("5.0", "0.3"), True),
    "cauchy": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf", "isf"), (), False),
    "chi2": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("3.0",), False),
    "expon": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "gamma": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("2.0",), False),
    "gennorm": (("logpdf", "cdf", "pdf"), ("1.5",), False),
    "geom": (("logpmf", "pmf"), ("0.3",), True),
    "gumbel_l": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "gumbel_r": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "laplace": (("logpdf", "cdf", "pdf"), (), False),
    "logistic": (("logpdf", "cdf", "sf", "ppf", "pdf", "isf"), (), False),
    "nbinom": (("logpmf", "pmf"), ("5.0", "0.3"), True),
    "norm": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf", "isf"), (), False),
    "pareto": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), ("2.0",), False),
    "poisson": (("logpmf", "cdf", "pmf"), ("2.0",), True),
    "t": (("logpdf", "pdf"), ("3.0",), False),
    "truncnorm": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("-1.0", "2.0"), False),
    "uniform": (("logpdf", "cdf", "ppf", "pdf"), (), False),
    "vonmises": (("logpdf", "pdf"), ("1.5",), False),
    "wrapcauchy": (("logpdf", "pdf"), ("0.5",), False),
}


def _scipy() -> list[str]:
    xs = "jnp.array([-1.0, 0.0, 0.3, 1.0, 2.5, jnp.inf, -jnp.inf, jnp.nan])"
    ks = "jnp.array([-1.0, 0.0, 1.0, 2.5, 3.0, 10.0, jnp.nan])"
    qs = "jnp.array([-0.1, 0.0, 0.3, 0.5, 1.0, 1.1, jnp.nan])"
    c = []
    for dist, (fns, good, discrete) in STATS.items():
        for fn in fns:
            x = qs if fn in ("ppf", "isf") else ks if discrete else xs
            call = f"jsp.stats.{dist}.{fn}"
            g = "".join(", " + v for v in good)
            c += [
                f"{call}({x}{g})",
                f"{call}({x}.astype(jnp.float16){g})",
                f"{call}(jnp.array([0, 1, 2, 3]){g})",
                f"{call}(1{g})",
                f"{call}(0.5{g})",
                f"{call}(jnp.array([True, False]){g})",
            ]
            if good:
                zero = ", 0.0" * len(good)
                neg = ", -1.0" * len(good)
                one = ", 1.0" * len(good)
                c += [f"{call}({x}{zero})", f"{call}({x}{neg})", f"{call}({x}{one})"]
                c.append(
                    f"{call}({x}, jnp.array([[{good[0]}], [1.0]]){''.join(', ' + v for v in good[1:])})"
                )
                c.append(f"{call}({x}, {good[0]}" + ", 2" * (len(good) - 1) + ")")
            c.append(f"{call}({x}{g}, 1.0)")
            if not discrete:
                c += [
                    f"{call}({x}{g}, 1.0, 2.0)",
                    f"{call}({x}{g}, 0.0, 0.0)",
                    f"{call}({x}{g}, 0.0, -1.0)",
                    f"{call}({x}{g}, scale=jnp.array([[1.0], [3.0]]))",
                ]
    c += [
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.6]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([[0.2, 0.3], [0.8, 0.7]]), jnp.array([1.0, 2.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0]))",
        "jsp.stats.dirichlet.pdf(jnp.array([0.5, 0.5]), jnp.array([-1.0, 2.0]))",
        "jsp.stats.multinomial.logpmf(jnp.array([1, 2, 0]), 3, jnp.array([0.2, 0.3, 0.5]))",
        "jsp.stats.multinomial.logpmf(jnp.array([1, 2, 0]), 4, jnp.array([0.2, 0.3, 0.5]))",
        "jsp.stats.multinomial.pmf(jnp.array([1.5, 1.5]), 3, jnp.array([0.5, 0.5]))",
        "jsp.stats.multivariate_normal.logpdf(jnp.array([0.5, 1.0]), jnp.zeros(2), jnp.eye(2))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones((3, 2)), jnp.zeros(2), 2.0)",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones((3, 2)), jnp.zeros(2), jnp.array([1.0, 2.0]))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones(2), jnp.zeros(3), jnp.eye(3))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones(2), jnp.zeros(2), jnp.eye(2), allow_singular=True)",
        "jsp.stats.multivariate_normal.pdf(jnp.array([1, 2]), jnp.zeros(2), jnp.eye(2))",
        "jsp.stats.multivariate_normal.logpdf(1.0, 0.0, 2.0)",
    ]
    return c


def _areas() -> dict[str, list[tuple[str, bool]]]:
    def tag(cases, exact=False):
        return [(c, exact) if isinstance(c, str) else c for c in cases]

    return {
        "control_flow": tag(_control_flow()),
        "tree_util": tag(_tree_util()),
        "random": _random(),
        "random_x64": _random_x64(),
        "initializers": _initializers(),
        "indexing": tag(_indexing()),
        "linalg_fft": tag(_linalg_fft()),
        "optax_train": tag(_optax()),
        "scipy_stats": tag(_scipy()),
    }


# ----------------------------------------------------------------------------------------------
# one side


def _namespace(side: str) -> dict[str, Any]:
    if side == "jax":
        import flax
        import flax.training.common_utils
        import flax.training.dynamic_scale
        import flax.training.early_stopping
        import flax.training.train_state
        import jax
        import jax.numpy as jnp
        import jax.scipy as jsp
        import optax
        from jax import lax, random
        from jax import tree_util as jtu
        from jax.nn import initializers as init
    else:
        import flaxport.training.common_utils
        import flaxport.training.dynamic_scale
        import flaxport.training.early_stopping
        import flaxport.training.train_state  # noqa: F401

        import core as jax
        import core.numpy as jnp
        import core.scipy as jsp
        import flaxport as flax
        import optim as optax
        from core import lax, random
        from core import tree_util as jtu
        from core.nn import initializers as init
    ns = dict(
        jax=jax,
        jnp=jnp,
        lax=lax,
        random=random,
        jtu=jtu,
        init=init,
        jsp=jsp,
        optax=optax,
        flax=flax,
        __name__="cases",
    )
    exec(PRELUDE, ns)
    return ns


def _plain(x: Any, ns: dict[str, Any], depth: int = 0) -> Any:
    """`x` as picklable plain data that both processes can build."""
    import numpy as np

    if depth > 20:
        return ("deep",)
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return ("py", type(x).__name__, x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return ("namedtuple", type(x).__name__, [_plain(v, ns, depth + 1) for v in x])
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, [_plain(v, ns, depth + 1) for v in x])
    if isinstance(x, dict):
        return (
            "dict",
            type(x).__name__,
            [(_plain(k, ns, depth + 1), _plain(v, ns, depth + 1)) for k, v in x.items()],
        )
    if isinstance(x, (np.ndarray, np.generic)):
        return ("np", str(x.dtype), x.shape, np.array(x))
    dtype = getattr(x, "dtype", None)
    if dtype is not None and hasattr(x, "shape"):
        if "key" in str(dtype):
            return ("key", str(dtype), tuple(x.shape), np.array(ns["random"].key_data(x)))
        try:
            vals = np.array(x)
        except Exception as e:  # noqa: BLE001
            return ("arr?", str(dtype), tuple(x.shape), repr(e))
        return ("arr", str(dtype), tuple(x.shape), bool(getattr(x, "weak_type", False)), vals)
    if type(x).__name__ in ("DictKey", "SequenceKey", "GetAttrKey", "FlattenedIndexKey"):
        return ("keyentry", type(x).__name__, repr(x))
    return ("obj", type(x).__name__, re.sub(r" at 0x[0-9a-f]+", "", repr(x)))


def run_side(side: str, area_names: list[str], x64: bool, out_path: str) -> None:
    if x64:
        os.environ["JAX_ENABLE_X64"] = "1"
        os.environ["NUMBAX_ENABLE_X64"] = "1"
    if side == "jax":
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
    ns0 = _namespace(side)
    if x64:
        ns0["jax"].config.update("jax_enable_x64", True)
    areas = _areas()
    results: dict[tuple[str, int], Any] = {}
    for area in area_names:
        for i, (src, _) in enumerate(areas[area]):
            ns = dict(ns0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    if "\n" in src.strip() or src.lstrip().startswith(("@", "class ", "def ")):
                        exec(src, ns)
                        val = ns.get("out")
                    else:
                        val = eval(src, ns)
                    res = ("ok", _plain(val, ns0))
                except BaseException as e:  # noqa: BLE001
                    if isinstance(e, KeyboardInterrupt):
                        raise
                    tb = traceback.extract_tb(e.__traceback__)
                    res = (
                        "exc",
                        type(e).__name__,
                        [c.__name__ for c in type(e).__mro__],
                        str(e),
                        tb[-1].filename.split("/")[-1] if tb else "",
                    )
            try:
                results[(area, i)] = pickle.loads(pickle.dumps(res))
            except Exception as e:  # noqa: BLE001
                results[(area, i)] = ("ok", ("unpicklable", repr(e)))
    with open(out_path, "wb") as f:
        pickle.dump(results, f)


# ----------------------------------------------------------------------------------------------
# comparison


def _tol(dtype: str) -> tuple[float, float]:
    if dtype in ("float16", "bfloat16", "complex32"):
        return 2e-2, 2e-3
    if dtype in ("float64", "complex128"):
        return 1e-9, 1e-12
    return 2e-5, 1e-6


_NAMES = [("'core.", "'jax."), ("'optim.", "'optax."), ("'train.", "'flax.training.")]


def _first_line(msg: str) -> str:
    """The message's first line, numbax's module names spelled as JAX's."""
    line = msg.strip().split("\n")[0].strip()
    for ours, theirs in _NAMES:
        line = line.replace(ours, theirs)
    return line


def _cmp(a: Any, b: Any, exact: bool, path: str = "") -> list[str]:
    """Differences of numbax's `a` from JAX's `b`."""
    import numpy as np

    if a[0] != b[0]:
        if {a[0], b[0]} <= {"arr", "np"} and a[1] == b[1]:
            return [f"{path}: kind {a[0]} vs jax {b[0]}"]
        return [f"{path}: kind {a[0]}{a[1:2]} vs jax {b[0]}{b[1:2]}"]
    kind = a[0]
    if kind == "py":
        if a[1] != b[1]:
            return [f"{path}: python type {a[1]} vs jax {b[1]}"]
        va, vb = a[2], b[2]
        if isinstance(va, float) and isinstance(vb, float):
            if not (
                va == vb or (math.isnan(va) and math.isnan(vb)) or abs(va - vb) <= 1e-6 * abs(vb)
            ):
                return [f"{path}: value {va!r} vs jax {vb!r}"]
            return []
        return [] if va == vb else [f"{path}: value {va!r} vs jax {vb!r}"]
    if kind in ("tuple", "list"):
        if len(a[1]) != len(b[1]):
            return [f"{path}: length {len(a[1])} vs jax {len(b[1])}"]
        out = []
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            out += _cmp(x, y, exact, f"{path}[{i}]")
        return out
    if kind == "namedtuple":
        out = [] if a[1] == b[1] else [f"{path}: namedtuple {a[1]} vs jax {b[1]}"]
        return out + _cmp(("tuple", a[2]), ("tuple", b[2]), exact, path)
    if kind == "dict":
        out = [] if a[1] == b[1] else [f"{path}: dict type {a[1]} vs jax {b[1]}"]
        ka = [k for k, _ in a[2]]
        kb = [k for k, _ in b[2]]
        if ka != kb:
            return out + [f"{path}: keys {ka} vs jax {kb}"]
        for (k, x), (_, y) in zip(a[2], b[2]):
            out += _cmp(x, y, exact, f"{path}[{k[2]!r}]")
        return out
    if kind in ("arr", "np", "key"):
        out = []
        if a[1] != b[1]:
            out.append(f"{path}: dtype {a[1]} vs jax {b[1]}")
        if tuple(a[2]) != tuple(b[2]):
            return out + [f"{path}: shape {tuple(a[2])} vs jax {tuple(b[2])}"]
        if kind == "arr" and a[3] != b[3]:
            out.append(f"{path}: weak_type {a[3]} vs jax {b[3]}")
        va, vb = np.asarray(a[-1]), np.asarray(b[-1])
        if va.dtype.kind in "fc" or vb.dtype.kind in "fc" or str(va.dtype) == "bfloat16":
            fa = va.astype(np.complex128 if va.dtype.kind == "c" else np.float64)
            fb = vb.astype(np.complex128 if vb.dtype.kind == "c" else np.float64)
            if exact:
                same = np.array_equal(fa, fb, equal_nan=True)
                if not same:
                    rtol, atol = _tol(b[1])
                    near = np.allclose(fa, fb, rtol=rtol, atol=atol, equal_nan=True)
                    out.append(
                        f"{path}: {'bits (values close)' if near else 'values'} "
                        f"{_short(fa)} vs jax {_short(fb)}"
                    )
            else:
                rtol, atol = _tol(b[1])
                if not np.allclose(fa, fb, rtol=rtol, atol=atol, equal_nan=True):
                    out.append(f"{path}: values {_short(fa)} vs jax {_short(fb)}")
                elif not np.array_equal(np.isinf(fa), np.isinf(fb)):
                    out.append(f"{path}: infs {_short(fa)} vs jax {_short(fb)}")
        elif not np.array_equal(va.astype(object), vb.astype(object)):
            out.append(f"{path}: values {_short(va)} vs jax {_short(vb)}")
        return out
    if kind == "keyentry":
        return [] if a[1:] == b[1:] else [f"{path}: key entry {a[2]} vs jax {b[2]}"]
    if kind == "obj":
        out = []
        if a[2] != b[2]:
            out.append(f"{path}: repr {a[2][:300]!r} vs jax {b[2][:300]!r}")
        return out
    return [] if a == b else [f"{path}: {a!r:.200} vs jax {b!r:.200}"]


def _short(v: Any) -> str:
    import numpy as np

    s = np.array2string(np.asarray(v).ravel()[:8], precision=8, separator=",")
    return s.replace("\n", "")


def compare(na: Any, ja: Any, exact: bool) -> list[str]:
    if na[0] == "exc" and ja[0] == "exc":
        out = []
        if ja[1] not in na[2]:
            out.append(f"exception class {na[1]} (bases {na[2][1:4]}) vs jax {ja[1]}")
        m_n, m_j = _first_line(na[3]), _first_line(ja[3])
        if m_n != m_j and not na[3].strip().startswith(ja[3].strip()):
            out.append(f"message {m_n[:300]!r} vs jax {m_j[:300]!r}")
        return out
    if na[0] == "exc":
        return [f"raises {na[1]}: {_first_line(na[3])[:300]!r}; jax gives a value"]
    if ja[0] == "exc":
        return [f"gives a value; jax raises {ja[1]}: {_first_line(ja[3])[:300]!r}"]
    return _cmp(na[1], ja[1], exact)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--side", choices=["jax", "numbax"])
    ap.add_argument("--out")
    ap.add_argument("--x64", action="store_true")
    ap.add_argument("--area", action="append")
    ap.add_argument("--ref", default="/opt/ref/bin/python")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-v", action="store_true", help="print every differing case")
    args = ap.parse_args()
    areas = _areas()
    names = args.area or list(areas)
    if args.list:
        for k, v in areas.items():
            print(f"{k:14s} {len(v)}")
        return
    if args.side:
        run_side(args.side, names, args.x64, args.out)
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        res = {}
        for x64 in (False, True):
            group = [n for n in names if n.endswith("_x64") == x64]
            if not group:
                continue
            for side, exe in (("numbax", sys.executable), ("jax", args.ref)):
                out = os.path.join(tmp, f"{side}{int(x64)}.pkl")
                cmd = [exe, "-m", "tools.jax_differential", "--side", side, "--out", out]
                cmd += sum((["--area", n] for n in group), []) + (["--x64"] if x64 else [])
                env = dict(os.environ, PYTHONPATH=root)
                subprocess.run(cmd, check=True, cwd=root, env=env)
                with open(out, "rb") as f:
                    res.setdefault(side, {}).update(pickle.load(f))
    total = ndiff = 0
    for area in names:
        n_area = d_area = 0
        for i, (src, exact) in enumerate(areas[area]):
            n_area += 1
            diffs = compare(res["numbax"][(area, i)], res["jax"][(area, i)], exact)
            if diffs:
                d_area += 1
                if args.v:
                    print(f"--- {area}[{i}]: {src.strip()[:400]}")
                    for d in diffs[:6]:
                        print(f"    {d}")
        print(f"== {area}: {n_area} calls, {d_area} differ")
        total += n_area
        ndiff += d_area
    print(f"== total: {total} calls, {ndiff} differ")


if __name__ == "__main__":
    main()
