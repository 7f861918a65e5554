"""`jax_numpy_rank_promotion` ('allow', 'warn', 'raise'): which `jnp` functions check operands
of different ranks, under which name, and the warning's and error's texts, as JAX 0.10.2 gives
them (the names below were read off JAX's errors for these calls)."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import RankPromotionError, RankPromotionWarning

X = jnp.arange(12.0).reshape(4, 3)
Y = jnp.array([0.0, 1.0, 2.0])
I = jnp.arange(12).reshape(4, 3)
J = jnp.array([1, 2, 3])

# call -> the name JAX's check reports for operands of shapes (4, 3) and (3,); None: no check
CASES = [
    (lambda: X + Y, "add"),
    (lambda: X - Y, "subtract"),
    (lambda: X * Y, "multiply"),
    (lambda: X / Y, "true_divide"),
    (lambda: I / J, "true_divide"),
    (lambda: X // Y, "floor_divide"),
    (lambda: X % Y, "remainder"),
    (lambda: X**Y, "power"),
    (lambda: I**J, "power"),
    (lambda: X < Y, "less"),
    (lambda: X >= Y, "greater_equal"),
    (lambda: X != Y, "not_equal"),
    (lambda: I ^ J, "bitwise_xor"),
    (lambda: I << J, "left_shift"),
    (lambda: jnp.arctan2(X, Y), "arctan2"),
    (lambda: jnp.maximum(X, Y), "maximum"),
    (lambda: jnp.minimum(X, Y), "minimum"),
    (lambda: jnp.logaddexp(X, Y), "logaddexp"),
    (lambda: jnp.logaddexp2(X, Y), "logaddexp2"),
    (lambda: jnp.logical_and(X, Y), "logical_and"),
    (lambda: jnp.hypot(X, Y), "hypot"),
    (lambda: jnp.fmod(X, Y), "fmod"),
    (lambda: jnp.divmod(X, Y), "divmod"),
    (lambda: jnp.isclose(X, Y), "isclose"),
    (lambda: jnp.copysign(X, Y), "copysign"),
    (lambda: jnp.float_power(X, Y), "float_power"),
    (lambda: jnp.nextafter(X, Y), "nextafter"),
    (lambda: jnp.ldexp(X, J), "add"),  # JAX's names inside its compositions
    (lambda: jnp.fmax(X, Y), "greater"),
    (lambda: jnp.fmin(X, Y), "less"),
    (lambda: jnp.lcm(I, J), "floor_divide"),
    (lambda: jnp.where(X > 1, X, Y), None),  # broadcast without the check
    (lambda: jnp.nanquantile(X, Y / 2, axis=1), None),  # JAX's own rank-raising tests run these
    (lambda: jnp.nanpercentile(X, Y, axis=0), None),
    (lambda: jnp.quantile(X, Y / 2, axis=1, weights=X + 1, method="inverted_cdf"), None),
    (lambda: jnp.nanpercentile(X, Y, axis=0, weights=X + 1, method="inverted_cdf"), None),
    (lambda: jnp.heaviside(X, Y), None),
    (lambda: jnp.gcd(I, J), None),
    (lambda: X @ Y, None),
    (lambda: X + 1.0, None),  # scalars never count
    (lambda: X * jnp.float32(2), None),
]


@pytest.mark.parametrize("call,name", CASES)
def test_raise_names_jaxs_function(call, name):
    with core.numpy_rank_promotion("raise"):
        if name is None:
            call()
            return
        with pytest.raises(ValueError) as info:
            call()
    assert isinstance(info.value, RankPromotionError)
    assert str(info.value) == (
        f"Operands could not be broadcast together for {name} on shapes (4, 3) (3,) and with "
        "the config option jax_numpy_rank_promotion='raise'. For more information, see "
        "https://docs.jax.dev/en/latest/rank_promotion_warning.html."
    )


def test_warn_warns_with_jaxs_text_and_computes():
    with warnings.catch_warnings(record=True) as caught, core.numpy_rank_promotion("warn"):
        warnings.simplefilter("always")
        z = X + Y
    np.testing.assert_array_equal(z, np.arange(12.0).reshape(4, 3) + [0, 1, 2])
    assert [(w.category, str(w.message)) for w in caught] == [
        (
            RankPromotionWarning,
            "Following NumPy automatic rank promotion for add on shapes (4, 3) (3,). Set the "
            "jax_numpy_rank_promotion config option to 'allow' to disable this warning; for "
            "more information, see https://docs.jax.dev/en/latest/rank_promotion_warning.html.",
        )
    ]


def test_the_mode_is_part_of_jits_cache_key():
    f = core.jit(lambda a, b: a + b)
    np.testing.assert_array_equal(f(X, Y), np.asarray(X) + np.asarray(Y))  # traced: 'allow'
    with core.numpy_rank_promotion("raise"), pytest.raises(RankPromotionError):
        f(X, Y)  # retraced under 'raise', as JAX's jit key holds the mode
