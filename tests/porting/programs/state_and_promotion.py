"""State and dtypes in JAX on programs of our own: Python state that `jit` freezes at trace
time, state threaded through pure functions (an optimizer's, a `NamedTuple` model's), array
refs (`jax.new_ref`) mutated under `jit`, `grad` and `vmap`, and the type promotion rules
(weak Python scalars, the promotion lattice, strict promotion).

Checked (values; text as printed, numbers apart; errors by built-in class and first line):
- a ticker object whose method is jitted (its jaxpr: the count as a constant) against a
  stateless version returning its new state, its jaxpr;
- an Adagrad-like optimizer's state threaded through `jax.tree.map`, a `NamedTuple` linear
  model fitted by a jitted update (the result's type kept);
- refs: `jax.new_ref` updated in `jit` (`+=` on an index), printed; a ref inside a function
  under `grad`; math on a ref's error; int, tuple, slice and integer-array indexing reads and
  writes; `jax.freeze`; `vmap` over a ref argument and writing one shared ref's error;
- promotion: the lattice of 18 types by `jax._src.dtypes.lattice_result_type` (weak results
  as Python types) and where `jnp.promote_types` differs from numpy's, printed as a table;
  weak scalars with int8/int16 arrays, numpy and JAX scalars mixed in either order,
  `jnp.asarray`'s `weak_type=True` repr; `numpy_dtype_promotion('strict')`: its error (the
  dtypes sorted: JAX names them in a set's order) and the weak promotion it still allows.
"""

from tests.porting import printed
from tests.porting.printed import error as _error
from tests.porting.printed import show as _show


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    import numpy as np

    class Ticker:
        def __init__(self, step):
            self.step, self.total = step, 0

        def tick(self):
            self.total += self.step
            return self.total

    ticker = Ticker(3)
    print([ticker.tick() for _ in range(3)])
    fast = jax.jit(Ticker(3).tick)
    print([int(fast()) for _ in range(3)])
    _show(jax.jit(Ticker(5).tick).trace().jaxpr)
    mark("ticker")

    def tick(total, step):
        new = total + step
        return new, new

    total, seen = 0, []
    for _ in range(3):
        value, total = jax.jit(tick)(total, 3)
        seen.append(int(value))
    print(seen)
    _show(jax.jit(tick).trace(0, 3).jaxpr)
    mark("pure_ticker")

    def adagrad_step(params, accum, grads, lr=0.5):
        accum = jax.tree.map(lambda a, g: a + g * g, accum, grads)
        params = jax.tree.map(lambda p, a, g: p - lr * g / jnp.sqrt(a + 1e-8), params, accum, grads)
        return params, accum

    xs = jnp.array([-1.0, 0.0, 1.0, 2.0])
    ys = 0.5 - 3.0 * xs

    def quad_loss(p):
        return jnp.mean((p["slope"] * xs + p["shift"] - ys) ** 2)

    params = {"slope": jnp.float32(0.0), "shift": jnp.float32(0.0)}
    accum = jax.tree.map(jnp.zeros_like, params)
    for _ in range(60):
        params, accum = adagrad_step(params, accum, jax.grad(quad_loss)(params))
    print(jax.tree.map(lambda a: round(float(a), 1), params))
    mark("adagrad")
    out["adagrad"] = [params, accum]

    class Line(NamedTuple):
        slope: jax.Array
        shift: jax.Array

    @jax.jit
    def fit_step(line, x, y):
        grads = jax.grad(lambda l: jnp.mean((l.slope * x + l.shift - y) ** 2))(line)
        return jax.tree.map(lambda p, g: p - 0.1 * g, line, grads)

    kx, kn = jax.random.split(jax.random.key(9))
    px = jax.random.normal(kx, (16,))
    py = 1.5 * px + 0.5 + 0.1 * jax.random.normal(kn, (16,))
    line = Line(jnp.float32(0.0), jnp.float32(0.0))
    for _ in range(40):
        line = fit_step(line, px, py)
    print(type(line).__name__)
    mark("line")
    out["line"] = line

    # refs
    counts = jax.new_ref(jnp.zeros(4))

    @jax.jit
    def bump():
        counts[2] += 1.5

    print(counts)
    bump()
    bump()
    print(counts)
    mark("ref_jit")

    def via_ref(x):
        scratch = jax.new_ref(0.0)
        scratch[...] = jnp.cos(x) * x
        return scratch[...]

    print(jax.grad(via_ref)(0.5))
    mark("ref_grad")
    try:
        jnp.exp(jax.new_ref(2.0))
    except Exception as e:
        _error(errors, e)

    grid = jax.new_ref(jnp.arange(12.0).reshape(4, 3))
    grid[3] = grid[0]
    grid[0, 1] = grid[2, 2]
    grid[1:3, 0] = grid[:2, 2]
    grid[jnp.array([0, 3]), jnp.array([2, 0])] = grid[jnp.array([1, 1]), jnp.array([0, 1])]
    _show(jax.freeze(grid))
    mark("ref_index")

    def fill(v, dest):
        dest[...] = v * v - 1.0

    dest = jax.new_ref(jnp.zeros(4))
    jax.vmap(fill)(jnp.arange(4.0), dest)
    print(dest[...])
    mark("ref_vmap")
    shared = jax.new_ref(1.0)

    def overwrite(v):
        shared[...] = v

    try:
        jax.vmap(overwrite)(jnp.arange(2.0))
    except Exception as e:
        _error(errors, e)

    # type promotion
    from jax._src import dtypes

    kinds = [
        np.bool_, np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32,
        np.int64, jnp.bfloat16, np.float16, np.float32, np.float64, np.complex64,
        np.complex128, int, float, complex,
    ]  # fmt: skip

    def short(t):
        if t == jnp.bfloat16:
            return "bf"
        return np.dtype(t).kind + ("*" if t in (int, float, complex) else str(np.dtype(t).itemsize))

    rows = []
    for a in kinds:
        cells = []
        for b in kinds:
            result, weak = dtypes.lattice_result_type(a, b)
            if weak:
                result = type(result.type(0).item())
            differs = jnp.bfloat16 in (a, b) or jnp.promote_types(a, b) is not np.promote_types(
                a, b
            )
            cells.append(short(result) + ("!" if differs else ""))
        rows.append(short(a) + ": " + " ".join(cells))
    out["lattice"] = rows

    def kind(value):
        return [repr(value), str(getattr(value, "dtype", type(value).__name__))]

    weak = jnp.arange(3, dtype="int8")
    out["promotion"] = [
        kind(jnp.int16(3) * 2),
        kind(jnp.int16(3) * np.array(2)),
        kind(np.int16(3) * 2),
        kind(np.int16(3) * 2 * jnp.int16(1)),
        kind(jnp.int16(1) * np.int16(3) * 2),
        kind(weak * 3),
        kind(weak * jnp.int32(3)),
        kind(weak + 1.5),
        kind(jnp.asarray(7)),
        kind(jnp.asarray(7.0)),
        kind(jnp.asarray(7, dtype="int32")),
        kind(jnp.uint8(200) + 100),
    ]
    a, b = jnp.int16(4), jnp.float32(0.5)
    try:
        with jax.numpy_dtype_promotion("strict"):
            a * b
    except Exception as e:
        first = str(e).splitlines()[0]
        names = first[first.index("(") : first.index(")") + 1]
        errors.append([type(e).__name__, sorted(eval(names)), first.replace(names, "(...)")])
    with jax.numpy_dtype_promotion("strict"):
        out["strict_weak"] = kind(b * 3)
