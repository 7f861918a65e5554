"""Control flow under `jit` and `grad`, and JAX's scans, on functions of our own.

Checks what JAX's control-flow guides and `lax.associative_scan`'s documentation describe: Python
loops unrolled while tracing (over a static count and over a traced array's static shape), the first
lines of the errors of Python `if`, `while` and `and` on traced values and of a traced length given
to an array constructor, `static_argnums`/`static_argnames` (also as `jax.jit(static_argnames=...)`
decorating), `print` of tracers while tracing, `lax.cond` on a traced predicate and with several
operands, `lax.switch` with out-of-range indices (clamped), `while_loop` on a tuple, `fori_loop`
with static and traced bounds, `scan` with a pytree carry, `reverse=True` (and its jaxpr) and
`length` without `xs`, `jnp.logical_and` against Python's `and` (the truth-value error of an array),
`grad` through Python branches. Then `lax.associative_scan`: `operator.add` over every axis of
several shapes (empty, one element, 2-D, 3-D) against `np.cumsum`, a long reversed sum, prefix
products of 2x2 matrices, running maxima, a namedtuple of arrays, booleans under `bitwise_xor`, a
`vmap`ped combiner composing affine maps through `jax.scipy.linalg.solve`, scans under `jit` and
`grad`, and the not-callable error.
"""

import collections
import operator

import jax
import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np
from jax import lax

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _try(errors, f, *args, **kwargs):
    try:
        printed.show(f(*args, **kwargs))
    except Exception as e:  # noqa: BLE001
        printed.error(errors, e)


def _unrolled(mark):
    @jax.jit
    def cube_twice(v):
        for _ in range(2):
            v = v**3
        return v

    print(cube_twice(2), cube_twice(1.5))

    @jax.jit
    def weighted_rows(m):
        total = jnp.zeros(m.shape[1])
        for i in range(m.shape[0]):
            total = total + (i + 1) * m[i]
        return total

    print(weighted_rows(jnp.arange(6.0).reshape(3, 2)))
    mark("unrolled")


def _static_arguments(errors, mark):
    def shrink(x):
        if x > 1.0:
            return x - 1.0
        return x * x

    def steps_below(start, limit):
        k = 0
        while 3 * k < limit:
            k += 1
        return start + k

    @jax.jit
    def inside(x):
        return (x > -1.0) and (x < 1.0)

    def padded(n, value):
        return jnp.zeros((n,)) + value

    _try(errors, jax.jit(shrink), 0.5)
    _try(errors, jax.jit(steps_below), 1, 10)
    _try(errors, inside, 0.25)
    _try(errors, jax.jit(padded), 3, 2.0)
    mark("tracer_errors")

    shrink_static = jax.jit(shrink, static_argnums=0)
    print(shrink_static(0.5), shrink_static(3.0))
    steps_static = jax.jit(steps_below, static_argnames="limit")
    print(steps_static(1, limit=10), steps_static(jnp.int32(5), limit=4))
    padded_static = jax.jit(padded, static_argnames=["n"])
    print(padded_static(3, 2.0))
    print(padded_static(n=2, value=-1))

    @jax.jit(static_argnames=["rounds"])
    def halvings(x, rounds):
        for _ in range(rounds):
            x = x / 2
        return x

    printed.show(halvings(jnp.float32(40.0), rounds=3))
    mark("static")

    @jax.jit
    def tripled(x):
        print("tracing with", x)
        y = 3 * x
        print("y is", y)
        return y

    printed.show(tripled(jnp.arange(2)))
    printed.show(tripled(jnp.arange(2) + 5))  # cached: nothing printed
    mark("print_tracers")


def _lax_branches_and_loops(mark):
    v = jnp.array([1.0, -2.0, 0.5])
    print(lax.cond(v.sum() > 0, lambda a: 2 * a, lambda a: -a, v))
    print(lax.cond(False, jnp.negative, jnp.abs, v))
    printed.show(lax.cond(jnp.array(True), lambda a, b: a + b, lambda a, b: a - b, 3, 4))
    printed.show(jax.jit(lambda p, a: lax.cond(p, jnp.sin, jnp.cos, a))(False, 0.0))
    mark("cond")

    branches = [lambda x: x + 1.0, lambda x: 10.0 * x, jnp.square]
    print([float(lax.switch(i, branches, 3.0)) for i in (-2, 0, 1, 2, 9)])
    printed.show(jax.jit(lambda i: lax.switch(i, branches, jnp.arange(2.0)))(1))
    mark("switch")

    printed.show(lax.while_loop(lambda c: c[0] < 100, lambda c: (2 * c[0], c[1] + 1), (1, 0)))
    printed.show(lax.fori_loop(1, 6, lambda i, acc: acc * i, 1))
    squares = jax.jit(lambda n: lax.fori_loop(0, n, lambda i, acc: acc + i * i, 0.0))
    printed.show(squares(5))
    mark("loops")

    def running(carry, x):
        total, best = carry
        total = total + x
        return (total, jnp.maximum(best, total)), 0.5 * total

    (total, best), halves = lax.scan(running, (0.0, -jnp.inf), jnp.array([2.0, -5.0, 4.0, 1.5]))
    print(total, best)
    print(halves)
    decayed, previous = lax.scan(lambda c, x: (0.5 * c + x, c), 0.0, jnp.arange(4.0), reverse=True)
    print(decayed, previous)
    count, squares_seen = lax.scan(lambda c, _: (c + 1, c * c), 0, None, length=4)
    print(count, squares_seen)

    def discounted(rewards, gamma):
        def step(acc, r):
            acc = r + gamma * acc
            return acc, acc

        return lax.scan(step, 0.0, rewards, reverse=True)

    print(jax.make_jaxpr(discounted)(jnp.ones(5), 0.9))
    mark("scan")


def _logic_and_grad(errors, mark):
    def odd_and_positive(n):
        return (n % 2 == 1) and (n > 0)

    @jax.jit
    def odd_and_positive_jit(n):
        return jnp.logical_and(n % 2 == 1, n > 0)

    print(odd_and_positive(7), odd_and_positive(-3), odd_and_positive_jit(7))
    print(odd_and_positive_jit(jnp.array([-3, 4, 9])))
    _try(errors, odd_and_positive, jnp.array([-3, 4, 9]))
    mark("logical")

    def piecewise(x):
        if x < 2.0:
            return x**3
        return 5.0 * x - 1.0

    print(jax.grad(piecewise)(1.5), jax.grad(piecewise)(2.5))
    mark("grad")


def _associative_scans(out, errors, mark):
    sums = {}
    for shape in [(0,), (1,), (6,), (3, 4), (2, 3, 5)]:
        data = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape) * 3 - 5
        for axis in range(-len(shape), len(shape)):
            got = lax.associative_scan(operator.add, data, axis=axis)
            np.testing.assert_array_equal(got, np.cumsum(data, axis=axis))
            sums[f"{shape} axis {axis}"] = got
    out["cumsums"] = sums

    long = (np.arange(300) % 7).astype(np.float32)
    backwards = lax.associative_scan(jnp.add, long, reverse=True)
    np.testing.assert_allclose(backwards, np.cumsum(long[::-1])[::-1])
    out["reversed"] = backwards

    turn = jnp.array([[0.0, 1.0], [-1.0, 0.0]])
    mats = jnp.stack([jnp.eye(2) + 0.3 * k * turn for k in range(5)])
    prefix = lax.associative_scan(jnp.matmul, mats)
    expected = [np.asarray(mats[0])]
    for m in np.asarray(mats[1:]):
        expected.append(expected[-1] @ m)
    np.testing.assert_allclose(prefix, np.stack(expected), rtol=1e-5)
    out["matrix_products"] = prefix
    out["running_max"] = lax.associative_scan(jnp.maximum, jnp.array([3, 1, 4, 1, 5, 9, 2, 6]))

    Tally = collections.namedtuple("Tally", ["count", "total"])
    tally = lax.associative_scan(
        lambda a, b: Tally(a.count + b.count, a.total + b.total),
        Tally(jnp.ones(4, jnp.int32), jnp.array([0.5, 1.5, -2.0, 4.0])),
    )
    out["namedtuple"] = [type(tally).__name__, tally.count, tally.total]
    out["parity"] = lax.associative_scan(
        lax.bitwise_xor, jnp.array([True, False, True, True, False, False, True])
    )

    @jax.vmap
    def compose(first, second):  # x -> inv(m) x + v, the first map applied first
        m1, v1 = first
        m2, v2 = second
        return m1 @ m2, jsp.linalg.solve(m2, v1) + v2

    for n in (2, 5):
        ms = jnp.stack([jnp.array([[2.0, 0.5], [0.0, 1.0 + k]]) for k in range(n)])
        vs = jnp.arange(2.0 * n).reshape(n, 2)
        out[f"affine_{n}"] = lax.associative_scan(compose, (ms, vs))
    mark("associative")

    @jax.jit
    def both_ways(m):
        return (
            lax.associative_scan(jnp.add, m, reverse=True),
            lax.associative_scan(jnp.multiply, m, axis=1),
        )

    out["jit"] = both_ways(jnp.linspace(0.5, 2.0, 12).reshape(3, 4))
    out["grad"] = jax.grad(
        lambda v: (
            (lax.associative_scan(jnp.add, v) ** 2).sum()
            + lax.associative_scan(jnp.multiply, v, reverse=True)[0]
        )
    )(jnp.linspace(0.5, 1.5, 5))
    _try(errors, lax.associative_scan, "add", jnp.ones(3))
    mark("associative_errors")


def _cells(out, errors, mark):
    _unrolled(mark)
    _static_arguments(errors, mark)
    _lax_branches_and_loops(mark)
    _logic_and_grad(errors, mark)
    _associative_scans(out, errors, mark)
