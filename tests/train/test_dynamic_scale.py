"""train.dynamic_scale.DynamicScale: scales, finiteness and gradients as Flax 0.12.8 gives."""

import numpy as np

import core
import core.numpy as jnp
from train.dynamic_scale import DynamicScale

# after each step with x: (scale, fin_steps, finite, value, grad), recorded from Flax
FLAX = [
    (1.0, 4.0, 1, True, 5.0, [2.0, 4.0]),
    (2.0, 4.0, 2, True, 20.0, [8.0, 16.0]),
    (3.0, 8.0, 0, True, 45.0, [18.0, 36.0]),
    (np.inf, 4.0, 0, False, np.inf, [np.inf, np.inf]),
    (1e30, 2.0, 0, False, np.inf, [np.inf, np.inf]),
    (2.0, 2.0, 1, True, 20.0, [8.0, 16.0]),
]


def loss_fn(p, x):
    return jnp.sum((p * x) ** 2), p * 2.0


def test_steps_match_flax():
    scale = DynamicScale(growth_interval=2, scale=4.0)
    step = core.jit(lambda ds, p, x: ds.value_and_grad(loss_fn, has_aux=True)(p, x))
    p = jnp.array([1.0, 2.0], jnp.float32)
    for x, want_scale, want_fin_steps, want_finite, want_value, want_grad in FLAX:
        scale, finite, (value, aux), grad = step(scale, p, jnp.float32(x))
        assert float(scale.scale) == want_scale and int(scale.fin_steps) == want_fin_steps
        assert bool(finite) == want_finite and float(value) == want_value
        np.testing.assert_array_equal(grad, want_grad)
        np.testing.assert_array_equal(aux, [2.0, 4.0])


def test_defaults_and_the_float32_ceiling():
    ds = DynamicScale()
    assert (ds.growth_factor, ds.backoff_factor, ds.growth_interval) == (2.0, 0.5, 2000)
    assert (ds.fin_steps, ds.scale) == (0, 65536.0)
    assert ds.minimum_scale == np.float32(1.1754944e-38)
    assert type(ds.minimum_scale) is np.float32  # Flax's repr: minimum_scale=np.float32(...)
    assert ds.value_and_grad(jnp.sum).__name__ == "grad_fn_wrapper"  # Flax's function name
    p = jnp.array([1.0, 2.0], jnp.float32)
    grown, _, _, _ = DynamicScale(growth_interval=0, scale=3e38).value_and_grad(jnp.sum)(p)
    assert float(grown.scale) == 3.4028234663852886e38 and int(grown.fin_steps) == 0  # Flax
