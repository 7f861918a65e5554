"""dot_general on operands of two dtypes: JAX 0.10.2's result dtype (XLA's "higher precision"
type, not numpy's promotion) and values (both operands converted to it first, as XLA on the
CPU), in both promotion modes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

X = [200, 3, 7]
Y = [2, -1, 100]


# (lhs dtype, rhs dtype, preferred_element_type, JAX's result dtype, JAX's value of X . Y)
MIXED = [
    ("uint8", "int8", None, "int8", 73),  # 200 wraps to -56 in int8
    ("uint8", "int8", "int32", "int32", 1097),
    ("int16", "uint32", None, "uint32", 1097),
    ("complex64", "uint32", None, "complex64", 12884902912),
    ("bool", "int8", None, "int8", 101),
    ("bfloat16", "int16", "float32", "float32", 1097),
    ("float32", "int32", None, "float32", 1097),
]


@pytest.mark.parametrize("promotion", ["standard", "strict"])
@pytest.mark.parametrize("a, b, pet, want_dtype, want", MIXED)
def test_dot_of_two_dtypes_as_jax(a, b, pet, want_dtype, want, promotion):
    x = np.array(X).astype(jnp.bfloat16 if a == "bfloat16" else a)
    y = np.array(Y).astype(b)
    with core.numpy_dtype_promotion(promotion):
        out = lax.dot(x, y, preferred_element_type=pet)
    assert out.dtype == np.dtype(want_dtype)
    assert np.asarray(out).astype(np.complex128).real == want


# vmap of dot_general: lhs shape, rhs shape, dimension numbers, in_axes, and JAX 0.10.2's
# equations (its rule names the mapped axes in the dimension numbers; only vmap's move of the
# result's mapped axis to the front transposes; JAX's batching_test counts equations)
_DOT, _T = ["dot_general"], ["dot_general", "transpose"]
VMAPPED = [
    ((4, 3), (3, 2), (((1,), (0,)), ((), ())), (0, None), _DOT),
    ((4, 3), (3, 2), (((1,), (0,)), ((), ())), (None, 1), _T),
    ((4, 3), (3, 2), (((1,), (0,)), ((), ())), (1, 0), _DOT),
    ((2, 4, 3), (2, 3), (((2,), (1,)), ((0,), (0,))), (2, 1), _DOT),
    ((2, 4, 3), (2, 3, 5), (((2,), (1,)), ((0,), (0,))), (None, 3), _T),
    ((2, 4, 3), (2, 3, 5), (((2,), (1,)), ((0,), (0,))), (1, None), _T),
]


@pytest.mark.parametrize("ls, rs, dn, axes, eqns", VMAPPED)
def test_vmapped_dot_general_keeps_mapped_axes_in_place(ls, rs, dn, axes, eqns):
    rng = np.random.RandomState(0)
    n = 3
    shape = lambda s, a: s if a is None else (*s[:a], n, *s[a:])  # noqa: E731
    x = rng.randn(*shape(ls, axes[0])).astype(np.float32)
    y = rng.randn(*shape(rs, axes[1])).astype(np.float32)
    f = lambda a, b: lax.dot_general(a, b, dn)  # noqa: E731
    got = core.jit(core.vmap(f, in_axes=axes))(x, y)
    take = lambda v, a, i: v if a is None else np.take(v, i, axis=a)  # noqa: E731
    want = np.stack([np.asarray(f(take(x, axes[0], i), take(y, axes[1], i))) for i in range(n)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    jaxpr = core.make_jaxpr(core.vmap(f, in_axes=axes))(x, y)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == eqns

    def unmapped(v, a, i):
        return v if a is None else lax.index_in_dim(v, i, a, keepdims=False)

    def loss_each(a, b):
        return sum(f(unmapped(a, axes[0], i), unmapped(b, axes[1], i)).sum() for i in range(n))

    loss = lambda a, b: core.vmap(f, in_axes=axes)(a, b).sum()  # noqa: E731
    for g, w in zip(core.grad(loss, (0, 1))(x, y), core.grad(loss_each, (0, 1))(x, y)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-5)
