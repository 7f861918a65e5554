"""The jaxpr rewrites of `core/jit/simplify.py`, by the primitives a simplified program keeps;
`algebraic`'s XLA simplifications that change results by JAX's jitted values bit for bit
(JAX 0.10.2's, recorded here), not the op-by-op ones (docs/faq.rst:
`jit(lambda x: jnp.log(jnp.exp(x)))(100.)` is 100.0)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit import simplify

X = np.ones(3, np.float32)


def _simplified(f, *args) -> list[str]:
    closed = core.make_jaxpr(f)(*args)
    eqns, _ = simplify.simplify(closed.jaxpr.eqns, closed.jaxpr.outvars)
    return [e.prim.name for e in eqns]


@pytest.mark.parametrize(
    ("f", "want"),
    [
        # XLA's algebraic simplifier: a / sqrt(b) => a * rsqrt(b), a / rsqrt(b) => a * sqrt(b)
        (lambda x, y: x / jnp.sqrt(y), ["rsqrt", "mul"]),
        (lambda x, y: x / core.lax.rsqrt(y), ["sqrt", "mul"]),
        # a root read elsewhere too is kept for that use (XLA's rule asks for one use and then
        # divides exactly; LLVM's `arcp` estimate would give nan at 0)
        (lambda x, y: (x / jnp.sqrt(y), jnp.sqrt(y)), ["sqrt", "rsqrt", "mul"]),
        (lambda x, y: jnp.sqrt(y) / x, ["sqrt", "div"]),
    ],
)
def test_divisions_by_roots(f, want):
    assert _simplified(f, X, X) == want


def test_complex_divisions_by_roots_stay():
    z = X.astype(np.complex64)
    assert _simplified(lambda x, y: x / jnp.sqrt(y), z, z) == ["sqrt", "div"]


XS = np.float32([1e-30, 0.3, np.pi, 100.0, -80.0])
Y = np.float32([2.0, 0.7, 1.5, 60.0, 30.0])
CASES = {
    "log_exp": lambda x, y: jnp.log(jnp.exp(x)),
    "log_sqrt": lambda x, y: jnp.log(jnp.sqrt(y)),
    "log_rsqrt": lambda x, y: jnp.log(lax.rsqrt(y)),
    "sqrt_square": lambda x, y: jnp.sqrt(x * x),
    "exp_div_exp": lambda x, y: jnp.exp(x) / jnp.exp(y),
    "div_exp": lambda x, y: x / jnp.exp(y),
    "pow_exp": lambda x, y: jnp.exp(y) ** x,
    "log_exp_mul_exp": lambda x, y: jnp.log(jnp.exp(x) * jnp.exp(y)),
    "div_div": lambda x, y: (x / y) / (y + 1.0),
    "div_of_div": lambda x, y: x / (y / (x + 2.0)),
    "div_div_by_constant": lambda x, y: (x / y) / 3.0,
    # constant chains: (A * C1) * C2 => A * (C1 * C2), (A + C1) + C2 => A + (C1 + C2)
    "mul_mul_constants": lambda x, y: (y * 0.7978) * 0.0447,
    "add_add_constants": lambda x, y: (x + 0.3) + 1.7,
    # A / C => A * (1/C), then the chain: eager JAX divides, its jit multiplies once
    "mul_div_constants": lambda x, y: (y * 2.0) / 7.0,
    "div_mul_constants": lambda x, y: (y / 7.0) * 3.0,
    "div_div_constants": lambda x, y: (x / 3.0) / 7.0,
}
JAX_JIT = [
    ("log_exp", [1e-30, 0.3, 3.1415927, 100.0, -80.0]),
    ("log_sqrt", [0.3465736, -0.17833748, 0.20273255, 2.0471723, 1.7005987]),
    ("log_rsqrt", [-0.3465736, 0.17833748, -0.20273255, -2.0471723, -1.7005987]),
    ("sqrt_square", [1e-30, 0.3, 3.1415927, 100.0, 80.0]),
    ("exp_div_exp", [0.13533528, 0.67032003, 5.163387, 2.3538527e+17, 0.0]),
    ("div_exp", [1.3533529e-31, 0.1489756, 0.7009841, 8.756511e-25, -7.4860985e-12]),
    ("pow_exp", [1.0, 1.2336781, 111.31778, np.inf, 0.0]),
    ("log_exp_mul_exp", [2.0, 1.0, 4.641593, 160.0, -50.0]),
    ("div_div", [1.6666667e-31, 0.25210083, 0.83775806, 0.027322404, -0.086021505]),
    ("div_of_div", [1e-30, 0.9857143, 10.768528, 170.0, 208.0]),
    ("div_div_by_constant", [1.6666667e-31, 0.14285716, 0.69813174, 0.5555556, -0.88888896]),
    ("mul_mul_constants", [0.07132332, 0.024963161, 0.05349249, 2.1396997, 1.0698498]),
    ("add_add_constants", [2.0, 2.3, 5.141593, 102.0, -78.0]),
    ("mul_div_constants", [0.5714286, 0.2, 0.42857146, 17.142859, 8.571429]),
    ("div_mul_constants", [0.8571429, 0.3, 0.6428572, 25.714287, 12.857143]),
    ("div_div_constants", [4.7619053e-32, 0.014285716, 0.14959967, 4.761905, -3.809524]),
]  # fmt: skip


@pytest.mark.parametrize("name, want", JAX_JIT)
def test_jit_simplifies_as_xla(name, want):
    got = core.jit(CASES[name])(XS, Y)
    np.testing.assert_array_equal(np.asarray(got), np.float32(want))


# Closed-over scalars are literals: XLA folds what is computed from them alone before its
# simplifier runs, so JAX 0.10.2's jit gives the op-by-op value (recorded)
_C100, _HALF, _SEVEN = np.float32(100.0), np.float32(0.5), np.float32(7.0)
FROM_LITERALS = [
    (lambda: jnp.log(jnp.exp(_C100)), np.inf),
    (lambda: jnp.sqrt(_HALF) / np.float32(0.87962566103423978), 0.8038723468780518),
    (lambda: (jnp.sqrt(_SEVEN) / 7.0) * 3.0, 1.133893370628357),
    (lambda: _HALF / jnp.exp(_SEVEN), 0.00045594098628498614),
]


@pytest.mark.parametrize("f, want", FROM_LITERALS)
def test_values_of_literals_alone_are_not_simplified(f, want):
    np.testing.assert_array_equal(np.asarray(core.jit(f)()), np.float32(want))


def test_eager_is_not_simplified_and_the_inner_value_stays_usable():
    # JAX's eager log(exp(100.)) is inf; an inner value used elsewhere keeps its own value
    assert np.isinf(jnp.log(jnp.exp(np.float32(100.0))))
    log_exp, exp = core.jit(lambda x: (jnp.log(jnp.exp(x)), jnp.exp(x)))(XS)
    np.testing.assert_array_equal(np.asarray(log_exp), XS)
    np.testing.assert_array_equal(np.asarray(exp), np.asarray(core.jit(jnp.exp)(XS)))


def _twice(x):
    return x * 2.0


def _add_one(x):
    return x + 1.0


def _neg_exp(x):
    return -jnp.exp(x)


BRANCHES = [_twice, _add_one, _neg_exp]
# A cond or switch whose index is known when compiling becomes its chosen branch (as XLA's
# conditional simplifier inlines it); (function of x, the branch it computes: None when the
# index is only known at run time and the cond stays).
KNOWN_INDEX = [
    (lambda x: lax.cond(True, _add_one, _twice, x), _add_one),
    (lambda x: lax.cond(False, _add_one, _twice, x), _twice),
    (lambda x: lax.cond(0.0, _add_one, _twice, x), _twice),  # a number: true when nonzero
    (lambda x: lax.switch(2, BRANCHES, x), _neg_exp),
    (lambda x: lax.switch(7, BRANCHES, x), _neg_exp),  # clamped into range
    (lambda x: lax.switch(-3, BRANCHES, x), _twice),
    # a Python int handed to an inner jit reaches its switch as a literal
    (lambda x: core.jit(lambda i, y: lax.switch(i, BRANCHES, y))(1, x), _add_one),
    (lambda x: lax.cond(x[0] > 0, _add_one, _twice, x), None),
]


@pytest.mark.parametrize("k", range(len(KNOWN_INDEX)))
def test_a_cond_of_a_known_index_is_its_branch(k):
    f, branch = KNOWN_INDEX[k]
    names = _simplified(f, X)
    if branch is None:
        assert names == ["slice", "squeeze", "gt", "convert_element_type", "cond"]
        return
    assert names == _simplified(branch, X)
    np.testing.assert_allclose(np.asarray(core.jit(f)(XS)), branch(XS.astype(np.float64)), 1e-6)


def test_a_callback_of_no_operands_runs_once_per_call_not_while_compiling():
    calls = []

    def index():
        calls.append(1)
        return np.int32(1)

    f = core.jit(lambda x: lax.switch(core.pure_callback(index, np.int32(0)), BRANCHES, x))
    np.testing.assert_allclose(np.asarray(f(XS)), XS + 1.0)
    assert len(calls) == 1
