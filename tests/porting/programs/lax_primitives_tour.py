"""`jax.lax` used directly, as library authors write kernels below `jax.numpy`: a tour of the
primitives' semantics that differ from NumPy's, on small arrays.

- integer `lax.div`/`lax.rem` (round toward zero) against `jnp.floor_divide`/`jnp.mod`,
  `lax.integer_pow`, `lax.clamp`, `lax.select_n` with several cases, `lax.nextafter`;
- `lax.pad` with negative and interior padding, `lax.rev`, `lax.collapse`, `lax.squeeze`,
  `lax.expand_dims`, `lax.broadcasted_iota`, `lax.iota`;
- `lax.dynamic_slice`/`dynamic_update_slice` with out-of-range starts (clamped),
  `dynamic_index_in_dim`, `slice_in_dim` with a stride;
- `lax.sort` of several operands with `num_keys=2`, `lax.sort_key_val`, `lax.top_k` ties,
  `lax.argmax(index_dtype=)`, `lax.cumsum`/`cummax`/`cumprod`/`cumlogsumexp` with `reverse=`;
- special functions: `lax.lgamma`, `digamma`, `igamma`/`igammac`, `erf_inv`, `bessel_i0e`/
  `i1e`, `polygamma`, `zeta`, `betainc`, `logistic`, `cbrt`, `atan2`, `rsqrt`, and the
  gradients of some;
- `lax.dot_general` with batch and contracting dimensions and `precision=`, against `einsum`.
"""

import jax
import jax.numpy as jnp
from jax import lax


def arithmetic(out):
    a = jnp.array([7, -7, 7, -7, 0], jnp.int32)
    b = jnp.array([2, 2, -2, -2, 3], jnp.int32)
    out["div"] = lax.div(a, b)
    out["rem"] = lax.rem(a, b)
    out["floor_divide"] = jnp.floor_divide(a, b)
    out["mod"] = jnp.mod(a, b)
    out["float_rem"] = lax.rem(jnp.array([5.5, -5.5]), jnp.array([2.0, 2.0]))
    out["fmod_remainder"] = [jnp.fmod(-5.5, 2.0), jnp.remainder(-5.5, 2.0)]
    x = jnp.linspace(-2.0, 2.0, 5)
    out["integer_pow"] = [lax.integer_pow(x, 3), lax.integer_pow(x + 3.0, -2)]
    out["clamp"] = lax.clamp(-1.0, x, 1.5)
    out["clamp_int"] = lax.clamp(0, jnp.array([-3, 2, 9]), 5)
    which = jnp.array([0, 1, 2, 1, 0], jnp.int32)
    out["select_n"] = lax.select_n(which, x, 10 * x, -x)
    out["select_n_bool"] = lax.select_n(x > 0, x, jnp.zeros_like(x))
    out["nextafter"] = lax.nextafter(jnp.float32(0.0), jnp.float32(1.0))
    out["shift_arith"] = lax.shift_right_arithmetic(jnp.int32(-16), jnp.int32(2))


def shapes(out):
    m = jnp.arange(12.0).reshape(3, 4)
    out["pad_interior"] = lax.pad(m, -1.0, ((1, 0, 1), (0, 2, 0)))
    out["pad_negative"] = lax.pad(m, 0.0, ((-1, 0, 0), (1, -2, 0)))
    out["rev"] = lax.rev(m, (0, 1))
    out["collapse"] = lax.collapse(jnp.ones((2, 3, 4)), 1, 3).shape
    out["squeeze"] = lax.squeeze(jnp.ones((1, 3, 1)), (0, 2)).shape
    out["expand_dims"] = lax.expand_dims(m, (0, 3)).shape
    out["iota"] = [lax.iota(jnp.int32, 4), lax.broadcasted_iota(jnp.float32, (2, 3), 1)]
    out["dynamic_slice_clamped"] = lax.dynamic_slice(m, (2, 3), (2, 2))
    out["dynamic_update_clamped"] = lax.dynamic_update_slice(m, jnp.full((2, 2), -5.0), (5, -3))
    out["dynamic_index"] = lax.dynamic_index_in_dim(m, 1, axis=1, keepdims=False)
    out["slice_stride"] = lax.slice_in_dim(m, 0, 4, stride=2, axis=1)
    out["slice"] = lax.slice(m, (0, 1), (3, 4), (2, 2))
    out["traced_start"] = jax.jit(lambda i: lax.dynamic_slice_in_dim(m, i, 2, axis=1))(3)


def sorting(out):
    k1 = jnp.array([2, 1, 2, 1, 0])
    k2 = jnp.array([0.5, 0.3, 0.1, 0.9, 0.0])
    v = jnp.arange(5)
    out["sort_two_keys"] = lax.sort((k1, k2, v), num_keys=2)
    out["sort_one_key"] = lax.sort((k1, k2, v), num_keys=1, is_stable=True)
    out["sort_key_val"] = lax.sort_key_val(k2, v)
    out["sort_nan"] = lax.sort(jnp.array([3.0, jnp.nan, -jnp.inf, -0.0, 0.0, 1.0]))
    vals, idx = lax.top_k(jnp.array([1.0, 3.0, 3.0, 2.0, 3.0]), 2)
    out["top_k_ties"] = [vals, idx]
    out["argmax_int8"] = lax.argmax(jnp.array([[1, 5, 5], [7, 0, 7]]), 1, jnp.int8)
    out["argmin_nan"] = lax.argmin(jnp.array([2.0, jnp.nan, 0.0]), 0, jnp.int32)
    x = jnp.array([1.0, -2.0, 3.0, 0.5])
    out["cumsum_rev"] = lax.cumsum(x, reverse=True)
    out["cummax_rev"] = lax.cummax(x, reverse=True)
    out["cumprod"] = lax.cumprod(x)
    out["cumlogsumexp_rev"] = lax.cumlogsumexp(x, reverse=True)
    out["cummin_2d"] = lax.cummin(jnp.array([[3, 1], [2, 4], [0, 5]]), axis=0)


def special(out):
    x = jnp.array([0.3, 1.0, 2.5, 7.0])
    out["lgamma_digamma"] = [lax.lgamma(x), lax.digamma(x)]
    out["igamma"] = [lax.igamma(x, 1.5 * x), lax.igammac(x, 0.5 * x)]
    out["erf_inv"] = lax.erf_inv(jnp.array([-0.9, 0.0, 0.5, 0.999]))
    out["bessel"] = [lax.bessel_i0e(x), lax.bessel_i1e(x)]
    out["polygamma"] = lax.polygamma(jnp.array([1.0, 2.0, 1.0, 3.0]), x)
    out["zeta"] = lax.zeta(jnp.array([2.0, 3.0, 4.5, 2.0]), x + 1.0)
    out["betainc"] = lax.betainc(
        jnp.array([0.5, 2.0, 3.0, 1.0]),
        jnp.array([0.5, 1.0, 2.0, 4.0]),
        jnp.array([0.2, 0.5, 0.7, 0.9]),
    )
    out["elementary"] = [lax.logistic(x - 1.0), lax.cbrt(-x), lax.atan2(x - 1.0, -x), lax.rsqrt(x)]
    out["grads"] = [jax.vmap(jax.grad(lax.lgamma))(x), jax.vmap(jax.grad(lax.digamma))(x),
                    jax.vmap(jax.grad(lax.erf_inv))(jnp.array([-0.5, 0.0, 0.3, 0.8])),
                    jax.vmap(jax.grad(lax.bessel_i0e))(x), jax.vmap(jax.grad(lax.logistic))(x)]  # fmt: skip
    out["igamma_grad_x"] = jax.vmap(jax.grad(lax.igamma, argnums=1))(x, 1.5 * x)


def contractions(out):
    a = jnp.arange(24.0).reshape(2, 3, 4) / 10
    b = jnp.arange(40.0).reshape(2, 4, 5) / 10
    dn = (((2,), (1,)), ((0,), (0,)))
    out["dot_general_batch"] = lax.dot_general(a, b, dn)
    out["dot_general_matches"] = bool(
        jnp.allclose(lax.dot_general(a, b, dn), jnp.einsum("bij,bjk->bik", a, b))
    )
    out["dot_general_highest"] = lax.dot_general(a, b, dn, precision=lax.Precision.HIGHEST)
    out["dot_general_two_contract"] = lax.dot_general(a, a, (((1, 2), (1, 2)), ((), ())))
    out["dot_general_int_pref"] = lax.dot_general(jnp.arange(6, dtype=jnp.int8).reshape(2, 3), jnp.ones((3, 2), jnp.int8),
                                                  (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)  # fmt: skip


def run():
    out = {}
    arithmetic(out)
    shapes(out)
    sorting(out)
    special(out)
    contractions(out)
    return out
