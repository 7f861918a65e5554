"""Weak types of results as JAX 0.10.2 gives them: comparisons and predicates of weakly typed
(Python scalar) operands are weak booleans, `jnp` reductions and cumulative reductions return
strongly typed results (their `lax` primitives keep the weak type), elementwise functions keep
it."""

import pytest

import core as jax
import core.numpy as jnp
import core.scipy.special  # noqa: F401  (jax.scipy.special)

# (expression, dtype, weak_type), recorded from JAX 0.10.2 (default 32-bit mode).
CASES = [
    # logaddexp2/hypot (and complex logaddexp) use strongly typed constants: weak results only
    # from weak operands; heaviside's constants come from x1.
    ("jnp.logaddexp2(jnp.array([True]), 2.5)", "float32", False),
    ("jnp.logaddexp2(True, 3)", "float32", True),
    ("jnp.logaddexp2(True, False)", "float32", False),
    ("jnp.logaddexp2(2.5, 3.0)", "float32", True),
    ("jnp.hypot(jnp.array([1], jnp.int8), 2.5)", "float32", False),
    ("jnp.hypot(2.5, 3.0)", "float32", True),
    ("jnp.logaddexp(jnp.array([1], jnp.int8), 1.5 - 0.5j)", "complex64", False),
    ("jnp.logaddexp(jnp.array([True]), 2.5)", "float32", True),
    ("jnp.heaviside(2.5, jnp.array([1], jnp.int8))", "float32", True),
    ("jnp.heaviside(jnp.array([1], jnp.int8), 2.5)", "float32", False),
    ("jnp.heaviside(2.5, jnp.array([1], jnp.bfloat16))", "bfloat16", False),
    ("jnp.equal(1, 2)", "bool", True),
    ("jnp.not_equal(1, 1.0)", "bool", True),
    ("jnp.less(3, 7)", "bool", True),
    ("jnp.greater_equal(2.0, 1.0)", "bool", True),
    ("jnp.equal(jnp.float32(1), 2)", "bool", False),
    ("jnp.full((2,), 1.0) < 2", "bool", True),
    ("jnp.isnan(6.0)", "bool", True),
    ("jnp.isnan(6)", "bool", True),
    ("jnp.isfinite(3 - 4j)", "bool", True),
    ("jnp.isinf(1.0)", "bool", False),
    ("jnp.logical_not(1)", "bool", True),
    ("jnp.iscomplex(1j)", "bool", True),
    ("jnp.isreal(1)", "bool", True),
    ("jnp.isclose(1.0, 1.0)", "bool", False),
    ("jnp.signbit(-2.0)", "bool", False),
    # the diagonal of a 2-D array and diagflat are strongly typed; diag builds a weak matrix
    ("jnp.diagonal(jnp.atleast_2d(3))", "int32", False),
    ("jnp.diagonal(jnp.broadcast_to(2.0, (2, 2, 2)))", "float32", True),
    ("jnp.diag(jnp.atleast_1d(3))", "int32", True),
    ("jnp.diagflat(3)", "int32", False),
    ("jnp.diagflat(2.5, k=1)", "float32", False),
    ("jnp.sum(3.0)", "float32", False),
    ("jnp.sum(jnp.full((3,), 2.0))", "float32", False),
    ("jnp.prod(2)", "int32", False),
    ("jnp.max(3.0)", "float32", False),
    ("jnp.min(jnp.full((2,), 1.0))", "float32", False),
    ("jnp.max(jnp.full((3,), 2.0), initial=0)", "float32", False),
    ("jnp.sum(jnp.full((3,), 2.0), where=jnp.array([True, False, True]))", "float32", False),
    ("jnp.mean(3)", "float32", False),
    ("jnp.mean(2.0)", "float32", False),
    ("jnp.var(3.0)", "float32", False),
    ("jnp.std(3.0)", "float32", False),
    ("jnp.cumsum(2.0)", "float32", False),
    ("jnp.cumprod(2.0)", "float32", False),
    ("jnp.cumulative_sum(jnp.full((2,), 1.0))", "float32", False),
    ("jnp.cumulative_prod(jnp.full((2,), 1.0))", "float32", False),
    ("jnp.nansum(2.0)", "float32", False),
    ("jnp.nanmax(2.0)", "float32", False),
    ("jnp.nanmean(2.0)", "float32", False),
    ("jnp.ptp(2.0)", "float32", False),
    ("jnp.average(2.0)", "float32", False),
    ("jnp.trace(jnp.full((2, 2), 1.0))", "float32", False),
    ("jnp.median(2.0)", "float32", False),
    ("jnp.linalg.norm(3.0)", "float32", False),
    ("jnp.nan_to_num(2.0)", "float32", False),
    ("jnp.heaviside(1.0, 0.5)", "float32", True),
    ("jnp.sum(jnp.array([1.0, 2.0]))", "float32", False),
    ("jnp.sin(1)", "float32", True),
    ("jnp.where(True, 1, 2)", "int32", True),
    ("jnp.maximum(1, 2.0)", "float32", True),
    ("jnp.dot(2.0, 3.0)", "float32", True),
    ("jax.nn.logsumexp(1.0)", "float32", False),
    ("jax.nn.relu(2.0)", "float32", True),
    # integer inputs of activations built from Python-float arithmetic: weak floats
    ("jax.nn.relu6(jnp.array([1, 2], jnp.int8))", "float32", True),
    ("jax.nn.celu(jnp.array([True]))", "float32", True),
    ("jax.nn.selu(jnp.array([1], jnp.uint32))", "float32", True),
    ("jax.nn.hard_sigmoid(jnp.array([1, 2]))", "float32", True),
    ("jax.nn.hard_swish(jnp.array([1, 2]))", "float32", True),
    ("jax.nn.sparse_plus(jnp.array([1, 2]))", "float32", True),
    ("jax.nn.elu(jnp.array([-1.0, 7.0]))", "float32", False),
    ("jax.lax.nextafter(0.0, 1.0)", "float32", True),
    ("jax.lax.reduce_precision(2.0, 8, 7)", "float32", True),
    ("jax.lax.reduce_sum(jnp.full((3,), 2.0), (0,))", "float32", True),
    ("jax.lax.cumsum(jnp.full((3,), 2.0))", "float32", True),
    ("jnp.argmax(3.0)", "int32", False),
    ("jnp.all(1)", "bool", False),
    ("jnp.count_nonzero(2.0)", "int32", False),
    # from a differential run against JAX 0.10.2
    ("jnp.isfinite(2)", "bool", False),
    ("jnp.isfinite(2.0)", "bool", True),
    ("jnp.rint(2)", "float32", False),
    ("jnp.rint(2.5)", "float32", True),
    ("jnp.log2(2.0)", "float32", False),
    ("jnp.log10(3)", "float32", False),
    ("jnp.log2(1j)", "complex64", False),
    ("jnp.logical_and(1, 2)", "bool", True),
    ("jnp.logical_xor(1.5, 0j)", "bool", True),
    ("jnp.logical_or(jnp.float32(1), 2)", "bool", False),
    ("jnp.logical_and(True, 3)", "bool", True),  # promoted first: a weak int
    ("jnp.logical_and(True, True)", "bool", False),
    ("jnp.logical_or(jnp.array([1, 0], jnp.int8), 2.5)", "bool", False),
    ("jnp.logical_xor(jnp.array([True]), 3)", "bool", False),
    ("jnp.log10(1j)", "complex64", False),
    # lax.pow(x, y) of the unpromoted operands: weak only if both are
    ("jnp.power(2.5, jnp.array([1, 2], jnp.int8))", "float32", False),
    ("jnp.power(2.5, 3)", "float32", True),
    # pow's derivative in x makes its operands strong first; in y it keeps the weak type
    ("jax.grad(jnp.power)(3.0, 2.0)", "float32", False),
    ("jax.grad(jnp.power, 1)(3.0, 2.0)", "float32", True),
    ("jax.grad(lambda x: jnp.power(x, jnp.float32(2.0)))(3.0)", "float32", True),
    ("jax.grad(lambda x: x**2)(3.0)", "float32", True),
    # gcd's loop body mixes in a strong 0: only scalars stay weak
    ("jnp.gcd(jnp.array([True, False]), 3)", "int32", False),
    ("jnp.lcm(jnp.full((2,), 3), 6)", "int32", False),
    ("jnp.gcd(3, 6)", "int32", True),
    ("jax.nn.mish(jnp.array([True]))", "float32", True),
    ("jax.lax.conj(2.5)", "complex64", True),
    ("jax.lax.betainc(0.5, 0.5, 0.5)", "float32", True),
    ("jax.scipy.special.gamma(3)", "float32", False),
    ("jax.scipy.special.beta(3, 3)", "float32", False),
    ("jax.scipy.special.poch(3, True)", "float32", False),
    ("jax.scipy.special.exp1(2.5)", "float32", False),
    ("jax.scipy.special.rel_entr(3, 3)", "float32", True),
    ("jax.scipy.special.kl_div(jnp.array([True]), 3)", "float32", False),
]


@pytest.mark.parametrize("expr, dtype, weak", CASES, ids=[c[0] for c in CASES])
def test_weak_type_as_in_jax(expr, dtype, weak):
    out = eval(expr, {"jnp": jnp, "jax": jax})
    assert (out.dtype.name, bool(out.weak_type)) == (dtype, weak)
