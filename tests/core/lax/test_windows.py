"""reduce_window (sum/max/min): values against a direct loop and recorded JAX values, gradients
(orders 1 and 2), vmap against a loop, jit against eager."""

import itertools

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit.errors import LoweringError
from core.test_util import check_grads

_rng = np.random.RandomState(0)


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


def reference(x, init, op, dims, strides, pads, base, wdil):
    """Direct definition: dilate, pad with `init`, reduce every window tap by tap."""
    shape = [(d - 1) * b + 1 for d, b in zip(x.shape, base)]
    xd = np.full(shape, init)
    xd[tuple(slice(None, None, b) for b in base)] = x
    xp = np.pad(xd, pads, constant_values=init)
    eff = [(k - 1) * d + 1 for k, d in zip(dims, wdil)]
    out_shape = [(p - e) // s + 1 for p, e, s in zip(xp.shape, eff, strides)]
    out = np.full(out_shape, init)
    for o in itertools.product(*map(range, out_shape)):
        for k in itertools.product(*map(range, dims)):
            idx = tuple(oi * s + ki * d for oi, s, ki, d in zip(o, strides, k, wdil))
            out[o] = op(out[o], xp[idx])
    return out


OPS = {
    "sum": (lax.add, 0.0, np.add),
    "max": (lax.max, -np.inf, np.maximum),
    "min": (lax.min, np.inf, np.minimum),
}

# window_dimensions, strides, padding, base_dilation, window_dilation
CONFIGS = [
    ((1, 2, 2, 1), (1, 2, 2, 1), "VALID", None, None),
    ((1, 3, 3, 1), (1, 2, 2, 1), "SAME", None, None),
    ((1, 3, 2, 1), (1, 1, 2, 1), ((0, 0), (1, 1), (1, 0), (0, 0)), None, None),
    ((1, 2, 2, 1), (1, 1, 1, 1), "VALID", (1, 2, 1, 1), (1, 1, 2, 1)),
    ((2, 2, 1, 1), (1, 2, 1, 1), ((0, 1), (0, 0), (0, 0), (0, 0)), None, None),
    # tiling windows (stride = window) with low padding and a cropped remainder
    ((1, 2, 4, 1), (1, 2, 4, 1), ((0, 0), (1, 0), (2, 1), (0, 0)), None, None),
]


def _pads(x, cfg):
    dims, strides, padding, base, wdil = cfg
    if isinstance(padding, str):
        eff = [(k - 1) * d + 1 for k, d in zip(dims, wdil or (1,) * 4)]
        return lax.padtype_to_pads(x.shape, eff, strides, padding)
    return padding


@pytest.mark.parametrize("kind", list(OPS))
@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
def test_values_match_direct_loop(kind, cfg):
    comp, init, np_op = OPS[kind]
    x = _rng.standard_normal((2, 5, 6, 3))
    dims, strides, padding, base, wdil = cfg
    got = lax.reduce_window(x, init, comp, dims, strides, padding, base, wdil)
    want = reference(
        x, init, np_op, dims, strides, _pads(x, cfg), base or (1,) * 4, wdil or (1,) * 4
    )
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize(
    "comp, pads, base, want",
    [
        # Recorded from jax.lax.reduce_window (JAX 0.10.2) on [[1, 2, 3]] with init 10: the init
        # joins once per window; padding and dilation holes hold no element.
        (lax.add, ((0, 0), (1, 1)), (1, 1), [[11.0, 13.0, 15.0, 13.0]]),
        (lax.max, ((0, 0), (1, 1)), (1, 1), [[10.0, 10.0, 10.0, 10.0]]),
        (lax.mul, ((0, 0), (1, 1)), (1, 1), [[10.0, 20.0, 60.0, 30.0]]),
        (lax.add, ((0, 0), (0, 0)), (1, 2), [[11.0, 12.0, 12.0, 13.0]]),
        (lambda a, b: a - b + 2 * b, ((0, 0), (1, 1)), (1, 1), [[11.0, 13.0, 15.0, 13.0]]),
    ],
)
def test_non_identity_init_joins_once(comp, pads, base, want):
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    got = lax.reduce_window(x, np.float32(10), comp, (1, 2), (1, 1), pads, base_dilation=base)
    np.testing.assert_array_equal(got, want)


def test_generic_computation_matches_jax():
    # jax.lax.reduce_window(x, 1.0, lax.mul, (1, 2, 2), (1, 1, 2), 'VALID'), x = arange(1, 25)/10
    x = np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4) / 10
    got = lax.reduce_window(x, np.float32(1), lax.mul, (1, 2, 2), (1, 1, 2), "VALID")
    want = [[[0.006, 0.0672], [0.27, 0.7392]], [[5.5692, 9.12], [14.1372, 20.976]]]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    grad = core.grad(lambda x: lax.reduce_window(x, 1.0, lax.mul, (1, 2), (1, 1), "VALID").sum())
    np.testing.assert_array_equal(grad(np.float32([[1, 2, 3]])), [[2.0, 4.0, 2.0]])


def test_several_operands_reduce_together():
    # jax 0.10.2: reduce_window((x, x), (1, 0), (product, sum), (2, 2), (1, 2), "SAME") and
    # reduce over axis 0, x = arange(12).reshape(3, 4) / 4 + 1 (one `reduce_window` / `reduce`
    # equation, the jaxpr of the pair computation as its parameter)
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 4 + 1
    pair = lambda a, b: (a[0] * b[0], a[1] + b[1])  # noqa: E731
    init = (np.float32(1), np.float32(0))
    prod, total = lax.reduce_window((x, x), init, pair, (2, 2), (1, 2), "SAME")
    np.testing.assert_allclose(prod, [[5.625, 18.046875], [43.875, 90.234375], [9.75, 13.125]])
    np.testing.assert_allclose(total, [[6.5, 8.5], [10.5, 12.5], [6.25, 7.25]])
    prod, total = lax.reduce((x, x), init, pair, (0,))
    np.testing.assert_allclose(prod, [6.0, 9.140625, 13.125, 18.046875], rtol=1e-6)
    np.testing.assert_allclose(total, [6.0, 6.75, 7.5, 8.25])


def test_computations_calling_jnp_functions_run_per_element():
    # a computation staged on scalars may call jitted jnp functions (`jnp.where`,
    # `jnp.logaddexp`), whose calls take scalars: it runs batched over the windows (it
    # raised "jit_call of _where expects bool[]"); max with its first argmax, against numpy
    x = np.float32([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8], [9, 7, 9, 3, 2, 3]])
    idx = np.arange(x.size, dtype=np.int32).reshape(x.shape)

    def pick(a, b):
        take_a = (a[0] > b[0]) | ((a[0] == b[0]) & (a[1] < b[1]))
        return jnp.where(take_a, a[0], b[0]), jnp.where(take_a, a[1], b[1])

    init = (np.float32(-np.inf), np.int32(0))
    windows = lambda x, i: lax.reduce_window((x, i), init, pick, (2, 3), (1, 3), "VALID")  # noqa: E731
    for f in (windows, core.jit(windows)):
        vals, where = f(x, idx)
        np.testing.assert_array_equal(vals, [[6, 9], [9, 8]])
        np.testing.assert_array_equal(where, [[7, 5], [12, 11]])
    vals, where = lax.reduce((x, idx), init, pick, (1,))
    np.testing.assert_array_equal(vals, x.max(1))
    np.testing.assert_array_equal(where, idx[np.arange(3), x.argmax(1)])
    smooth = lax.reduce_window(x, np.float32(-np.inf), jnp.logaddexp, (1, 2), (1, 2), "VALID")
    np.testing.assert_allclose(smooth, np.logaddexp(x[:, ::2], x[:, 1::2]), rtol=1e-6)


@pytest.mark.parametrize("kind", list(OPS))
@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
def test_grads(kind, cfg):
    comp, init, _ = OPS[kind]
    x = _rng.standard_normal((2, 5, 6, 3))
    check_grads(lambda x: lax.reduce_window(x, init, comp, *cfg), (x,), order=2)


@pytest.mark.parametrize("kind", list(OPS))
def test_vmap_matches_loop(kind):
    comp, init, _ = OPS[kind]
    xs = _rng.standard_normal((3, 2, 5, 6))
    f = lambda x: lax.reduce_window(x, init, comp, (1, 3, 2), (1, 2, 1), "SAME")  # noqa: E731
    for axis in (0, 2):
        got = core.vmap(f, in_axes=axis)(np.moveaxis(xs, 0, axis))
        np.testing.assert_allclose(got, np.stack([f(x) for x in xs]), rtol=1e-12)
    g = core.grad(lambda x: jnp.sum(jnp.sin(f(x))))
    np.testing.assert_allclose(core.vmap(g)(xs), np.stack([g(x) for x in xs]), rtol=1e-12)


def test_matches_recorded_jax_max_pool():
    # jax 0.7: lax.reduce_window(x, -inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), 'SAME').ravel()
    x = np.sin(np.arange(50, dtype=np.float32)).reshape(1, 5, 5, 2)
    want = [
        0.909297,
        0.841471,
        0.990607,
        0.656987,
        0.989358,
        0.656987,
        0.912945,
        0.999912,
        0.990607,
        0.999912,
        0.762558,
        0.963795,
        0.745113,
        0.999912,
        0.901788,
        0.999912,
        0.901788,
        0.963795,
    ]
    got = lax.reduce_window(x, -np.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    np.testing.assert_allclose(np.ravel(got), want, atol=1e-6)


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("kind", list(OPS))
def test_jit_matches_eager(kind, backend):
    comp, init, _ = OPS[kind]
    x = _rng.standard_normal((2, 6, 6, 3))

    def f(x):
        return jnp.sum(
            jnp.sin(lax.reduce_window(x, init, comp, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"))
        )

    try:
        got = core.jit(core.value_and_grad(f), backend=backend)(x)
    except LoweringError as e:
        pytest.skip(f"numba lowering not available yet: {e}")
    core.tree.map(
        lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-10), got, core.value_and_grad(f)(x)
    )
