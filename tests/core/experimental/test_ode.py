"""`core.experimental.ode.odeint` (JAX's Dormand-Prince solver with adjoint gradients) against
closed forms: exponential decay and its derivatives in the rate, the initial value and the
times, a pytree state, and JAX's argument and forward-mode errors. Run under `disable_jit`
(op by op, no numba compiles); `tests/porting/programs/ode_integration.py` runs it jitted."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.experimental.ode import odeint

TS = np.linspace(0.0, 1.0, 4)


def decay(y, t, k):
    return -k * y


@pytest.fixture(autouse=True)
def eager():
    with core.disable_jit():
        yield


def test_decay_and_its_gradients_match_the_closed_form():
    ys = odeint(decay, jnp.float32(2.0), jnp.asarray(TS, jnp.float32), 0.5)
    assert ys.dtype == np.float32 and ys.shape == (4,)
    np.testing.assert_allclose(ys, 2.0 * np.exp(-0.5 * TS), rtol=1e-5)
    last = lambda y0, ts, k: odeint(decay, y0, ts, k)[-1]  # noqa: E731
    dy0, dts, dk = core.grad(last, argnums=(0, 1, 2))(2.0, jnp.asarray(TS, jnp.float32), 0.5)
    np.testing.assert_allclose(dy0, np.exp(-0.5), rtol=1e-4)
    np.testing.assert_allclose(dk, -1.0 * 2.0 * np.exp(-0.5), rtol=1e-4)
    # moving the last time moves y(T) along its slope; the first, against it
    np.testing.assert_allclose(dts, [2.0 * 0.5 * np.exp(-0.5), 0, 0, -2.0 * 0.5 * np.exp(-0.5)],
                               rtol=1e-4, atol=1e-6)  # fmt: skip


def test_pytree_state_and_closed_over_tracers():
    def f(x):
        y0 = {"a": jnp.ones(2), "b": (jnp.float32(3.0),)}
        ys = odeint(lambda y, t: core.tree.map(lambda v: -x * v, y), y0, jnp.asarray(TS))
        return ys["a"][-1, 0] + ys["b"][0][-1]

    value, slope = core.value_and_grad(f)(0.5)
    np.testing.assert_allclose(value, 4.0 * np.exp(-0.5), rtol=1e-5)
    np.testing.assert_allclose(slope, -4.0 * np.exp(-0.5), rtol=1e-4)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: odeint(decay, 1.0, jnp.linspace(0.0, 1.0, 3), "k"),
         "The contents of odeint *args must be arrays or scalars, but got k."),
        (lambda: odeint(decay, 1.0, jnp.arange(3), 0.5),
         "t must be an array of floats, but got [0 1 2]."),
    ],
)  # fmt: skip
def test_argument_errors_are_jaxs(call, message):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_forward_mode_is_refused():
    f = lambda k: odeint(lambda x, t: k * x, 1.0, jnp.linspace(0.0, 1.0, 3)).sum()  # noqa: E731
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        core.jacfwd(f)(3.0)
