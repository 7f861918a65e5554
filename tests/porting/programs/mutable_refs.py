"""Mutable array references (`jax.new_ref`): reading, writing and plumbing data through
transformations, on code of our own.

Checks what JAX's `Ref` guide describes: a ref closed over by a jitted function and updated
with `+=` at an index (printed before and after), refs created inside `jit` and `grad` (pure
from outside), `jax.freeze` in the creation scope, the error of doing math on a ref; reads and
writes by int, tuple, slice, `...` and integer-array indices; impure jitted functions taking a
ref or closing over one; the `jit` errors of returning a ref, passing one ref twice, passing
and closing over the same ref, and freezing a ref outside its creation scope (which JAX
0.10.2 allows); `vmap` over ref arguments (a pairwise-distance table written in place) and
the error of writing a batched value to a closed-over ref; `grad` writing a differentiated
value to a ref (its error) and a `stop_gradient`ed one (fine); a `custom_vjp` stashing its
cotangent into a ref; an in-place `sin` by a jitted function; `scan` used as a for-each loop
accumulating into a ref; a ref's class name, `jax.typeof`, dtype and shape.
"""

import re

import jax
import jax.numpy as jnp

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _basics(out, errors, mark):
    counts = jax.new_ref(jnp.zeros(4, jnp.int32))

    @jax.jit
    def hit(i):
        counts[i] += 2

    print(counts)
    hit(1)
    hit(3)
    hit(1)
    print(counts)
    mark("closed_over")

    def squared_sum(x):
        acc = jax.new_ref(jnp.zeros(()))
        for k in range(3):
            acc[...] += (x + k) ** 2
        return acc[...]

    print(squared_sum(1.0), jax.grad(squared_sum)(1.0), jax.jit(jax.grad(squared_sum))(2.0))

    @jax.jit
    def doubled_then_frozen(x):
        r = jax.new_ref(x)
        r[...] = r[...] * 2
        return jax.freeze(r)

    printed.show(doubled_then_frozen(jnp.arange(3.0)))
    printed.attempt(errors, jnp.cos, jax.new_ref(jnp.ones(2)))
    mark("pure")

    grid = jax.new_ref(jnp.arange(20.0).reshape(4, 5))
    row = grid[2]
    grid[0] = row
    corner = grid[3, 4]
    grid[1, 1] = corner
    column = grid[:, 2]
    grid[2, 1:] = column
    picked = grid[jnp.array([0, 3, 3]), jnp.array([4, 0, 2])]
    grid[jnp.array([1, 2, 3]), jnp.array([0, 0, 0])] = picked
    grid[...] = grid[...] - 1.0
    out["indexing"] = [row, corner, column, picked, grid[...]]
    mark("indexing")

    @jax.jit
    def copy_into(dst, src):
        dst[...] = src[::-1]

    latest = jax.new_ref(jnp.zeros((), jnp.int32))

    @jax.jit
    def remember(v):
        latest[...] = v

    dst = jax.new_ref(jnp.zeros(3))
    copy_into(dst, jnp.arange(3.0))
    remember(jnp.int32(12))
    out["impure"] = [dst[...], latest[...]]


def _errors(out, mark):
    def show_error(e):  # the built-in class and the message, the traced function's file cut
        builtin = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
        print(builtin, re.sub(r" at \S+\.py:\d+", " at <file>", str(e)))

    r = jax.new_ref(jnp.zeros(()))

    @jax.jit
    def hands_back(x_ref):
        x_ref[...] = 3.0
        return x_ref

    @jax.jit
    def two_names(a_ref, b_ref):
        a_ref[...] = b_ref[...]

    @jax.jit
    def both_ways(a_ref):
        a_ref[...] = r[...] + 1

    @jax.jit
    def freezes_argument(a_ref):
        jax.freeze(a_ref)

    for name, f, args in [
        ("returned", hands_back, (r,)),
        ("twice", two_names, (r, r)),
        ("closed_and_passed", both_ways, (r,)),
        ("freeze_argument", freezes_argument, (r,)),
    ]:
        try:
            f(*args)
        except Exception as e:  # noqa: BLE001
            show_error(e)
        mark(name)
    out["after_errors"] = r[...]

    points = jnp.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])

    def sq_dist(p, q, slot):
        assert p.ndim == q.ndim == 1 and slot.ndim == 0
        slot[...] = jnp.sum((p - q) ** 2)

    table = jax.new_ref(jnp.zeros((3, 3)))
    jax.vmap(jax.vmap(sq_dist, (None, 0, 0)), (0, None, 0))(points, points, table)
    print(table)
    mark("vmap")

    sink = jax.new_ref(jnp.zeros(()))

    def writes_batched(v):
        sink[...] = v * 2

    try:
        jax.vmap(writes_batched)(jnp.arange(3.0))
    except Exception as e:  # noqa: BLE001
        show_error(e)
    mark("vmap_error")

    def leaks(x, log_ref):
        y = 3 * x
        log_ref[...] += y
        return y

    def logs(x, log_ref):
        y = 3 * x
        log_ref[...] += jax.lax.stop_gradient(y)
        return y

    try:
        jax.grad(leaks)(2.0, jax.new_ref(jnp.zeros(())))
    except Exception as e:  # noqa: BLE001
        show_error(e)
    mark("grad_error")
    log = jax.new_ref(jnp.zeros(()))
    print(jax.grad(logs)(2.0, log), log)
    mark("grad_stop_gradient")


def _plumbing(out, mark):
    @jax.custom_vjp
    def tap(ref, x):
        return x

    def tap_bwd(ref, ct):
        ref[...] = ct
        return None, ct

    tap.defvjp(lambda ref, x: (x, ref), tap_bwd)

    def model(x, ref):
        return jnp.exp(tap(ref, jnp.sin(x)))

    seen = jax.new_ref(jnp.zeros(()))
    print(model(0.5, seen), seen)
    print(jax.grad(model)(0.5, seen), seen)
    mark("stash")

    @jax.jit
    def sin_inplace(x_ref):
        x_ref[...] = jnp.sin(x_ref[...])

    angles = jax.new_ref(jnp.array([0.0, 0.5, 1.0]))
    sin_inplace(angles)
    print(angles)
    mark("inplace")

    total = jax.new_ref(jnp.zeros((), jnp.int32))

    def each(xs, body):
        return jax.lax.scan(lambda _, x: (None, body(x)), None, xs)[1]

    def visit(x):
        total[...] += x * x
        return x - 1

    print(each(jnp.arange(1, 6), visit))
    print(total)
    mark("foreach")
    out["types"] = [type(total).__name__, str(jax.typeof(total)), str(total.dtype), total.shape]


def _cells(out, errors, mark):
    _basics(out, errors, mark)
    _errors(out, mark)
    _plumbing(out, mark)
