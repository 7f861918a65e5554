"""`jnp.abs` of complex numbers against `jnp.hypot` at infinities and NaNs (core/numpy/ufuncs.py):
the modulus is XLA's (NaN if either part is NaN), hypot JAX's (inf if either operand is),
eagerly and under `jit`. Expected values printed by JAX 0.10.2 (CPU)."""

import numpy as np
import pytest

import core
import core.numpy as jnp

inf, nan = np.inf, np.nan

# (real, imaginary) -> |z| and hypot(real, imaginary), float32
CASES = [
    ((nan, inf), nan, inf),
    ((inf, nan), nan, inf),
    ((-inf, 1.0), inf, inf),
    ((inf, -inf), inf, inf),
    ((nan, 0.0), nan, nan),
    ((3.0, -4.0), 5.0, 5.0),
    ((0.0, -0.0), 0.0, 0.0),
]


@pytest.mark.parametrize("jit", [False, True])
def test_modulus_and_hypot_at_infinities_and_nans(jit):
    parts = np.array([c for c, _, _ in CASES], np.float32).T
    z = np.empty(len(CASES), np.complex64)
    z.real, z.imag = parts

    def f(z, x, y):
        return jnp.abs(z), jnp.hypot(x, y)

    modulus, hyp = (core.jit(f) if jit else f)(z, *parts)
    np.testing.assert_array_equal(np.asarray(modulus), np.float32([m for _, m, _ in CASES]))
    np.testing.assert_array_equal(np.asarray(hyp), np.float32([h for _, _, h in CASES]))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_modf_of_complex_names_jaxs_comparison(dtype):
    with core.enable_x64(), pytest.raises(TypeError) as e:
        jnp.modf(jnp.ones(2, dtype))
    # JAX 0.10.2 printed
    assert str(e.value).splitlines()[0] == (
        f"ge does not accept dtype {dtype} at position 0. Accepted dtypes at position 0 are "
        "subtypes of integer, floating, bool."
    )


@pytest.mark.parametrize("jitted", [False, True])
def test_complex_log2_parts_round_as_jaxs_product(jitted):
    """Eagerly the parts were divided by log(2): XLA multiplies by 1 / log(2) (last bits)."""
    z = np.array([complex(-np.inf, -2.5), complex(1.5, 1.7976931348623157e308), 3 - 4j])
    with core.enable_x64():
        got = np.asarray((core.jit(jnp.log2) if jitted else jnp.log2)(z))
    # JAX 0.10.2 printed
    want = [
        (np.inf, -4.532360141827193),
        (1024.0, 2.2661800709135966),
        (2.321928094887362, -1.3378042124509761),
    ]
    assert [(float(c.real), float(c.imag)) for c in got] == want


@pytest.mark.parametrize(
    ("call", "function", "path"),
    [  # JAX 0.10.2's first lines (without the function's address)
        (lambda: jnp.sin("a"), "sin", "x"),
        (lambda: jnp.acos("a"), "acos", "x"),
        (lambda: jnp.add(1, "a"), "add", "y"),
        (lambda: jnp.multiply(2, "b"), "multiply", "y"),
        (lambda: jnp.arctan2("a", 1), "arctan2", "x1"),
        (lambda: jnp.degrees("a"), "rad2deg", "x"),
        (lambda: jnp.abs("a"), "abs", "x"),
        (lambda: jnp.isnan("a"), "isnan", "x"),
        (lambda: jnp.sum("a"), "_reduce_sum", "a"),
        (lambda: jnp.amax("a"), "_reduce_max", "a"),
        (lambda: jnp.all("a"), "_reduce_all", "a"),
        (lambda: jnp.mean("a"), "_mean", "a"),
    ],
)
def test_string_arguments_are_jaxs_type_error(call, function, path):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).splitlines()[0] == (
        f"Error interpreting argument to <function {function}> as an abstract array. The "
        f"problematic value is of type <class 'str'> and was passed to the function at path "
        f"{path}."
    )


def test_isclose_of_key_arrays_is_equality():
    # JAX compares keys (an extended dtype) with `eq`, eagerly and under jit
    k = core.random.key(0)
    assert bool(jnp.isclose(k, k)) and bool(core.jit(jnp.isclose)(k, k))
    np.testing.assert_array_equal(jnp.isclose(core.random.split(k, 2), k), [False, False])


# JAX 0.10.2: these aliases are functions of their own name (programs and tests read __name__)
@pytest.mark.parametrize(
    "alias, target, args",
    [
        ("absolute", "abs", (-2.0,)),
        ("divide", "true_divide", (1.0, 4.0)),
        ("mod", "remainder", (7, -3)),
        ("radians", "deg2rad", (90.0,)),
        ("degrees", "rad2deg", (1.0,)),
        ("bitwise_right_shift", "right_shift", (-8, 1)),
        ("conj", "conjugate", (1 - 2j,)),
    ],
)
def test_aliases_carry_their_own_names(alias, target, args):
    fn = getattr(jnp, alias)
    assert fn.__name__ == alias
    np.testing.assert_array_equal(fn(*args), getattr(jnp, target)(*args))
