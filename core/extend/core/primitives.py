"""`jax.extend.core.primitives`: the primitives JAX names `<name>_p`, as numbax's own (those
numbax has under the same name: its `core.primitive.all_primitives()` that JAX lists too).

`linear_solve_p`, `remat_p` and `add_jaxvals_p` are numbax's
`custom_linear_solve`, `remat2` and `add_any`. JAX's others numbax lacks are not defined here:
`call_p` (bound on a `lu.WrappedFun`, written by none of JAX's public functions),
`select_and_scatter_p` (only inside XLA's lowering of `select_and_scatter_add`, which numbax
has), `create_token_p`/`after_all_p` (numbax's tokens are leafless pytrees, not values of a
token type), `get_p`/`swap_p` (numbax discharges `Ref`s while tracing: no `Ref` types in its
jaxprs), `empty2_p` and `ragged_all_to_all_p`.
"""

from core.primitive import Primitive, all_primitives

# The names JAX 0.10.2's `jax.extend.core.primitives` defines (each with `_p` appended).
_JAX_NAMES = """
    abs acos acosh add_jaxvals add after_all all_gather all_to_all and approx_top_k argmax
    argmin asin asinh atan2 atan atanh axis_index bessel_i0e bessel_i1e bitcast_convert_type
    broadcast_in_dim call cbrt ceil cholesky clamp closed_call clz complex concatenate cond conj
    conv_general_dilated convert_element_type copy cos cosh create_token cumlogsumexp cummax
    cummin cumprod cumsum custom_jvp_call custom_lin custom_vjp_call device_put digamma div
    dot_general dynamic_slice dynamic_update_slice eig eigh empty2 eq eq_to erf_inv erf erfc
    exp2 exp expm1 fft floor gather ge get gt hessenberg householder_product igamma_grad_a
    igamma igammac imag integer_pow iota is_finite jit le le_to lgamma linear_solve log1p log
    logistic lt lt_to lu max min mul name ne neg nextafter not or pad pmax pmin polygamma
    population_count pow ppermute psum qr ragged_all_to_all random_bits random_fold_in
    random_gamma random_seed random_split real reduce_and reduce_max reduce_min reduce_or reduce
    reduce_precision reduce_prod reduce_sum reduce_window_max reduce_window_min reduce_window
    reduce_window_sum reduce_xor regularized_incomplete_beta rem remat reshape rev
    rng_bit_generator rng_uniform round rsqrt scan scatter_add scatter_max scatter_min
    scatter_mul scatter schur select_and_gather_add select_and_scatter_add select_and_scatter
    select_n sharding_constraint shift_left shift_right_arithmetic shift_right_logical sign sin
    sinh slice sort sqrt square squeeze stop_gradient sub svd swap tan tanh threefry2x32 top_k
    transpose triangular_solve tridiagonal tridiagonal_solve while xor zeta
""".split()  # noqa: SIM905  (175 names, one list)

_numbax = all_primitives()
# JAX's names of these primitives are dashed ("scatter-add"), as their jaxprs print them
_numbax.update({n.replace("-", "_"): p for n, p in _numbax.items() if n.startswith("scatter-")})
globals().update({f"{name}_p": _numbax[name] for name in _JAX_NAMES if name in _numbax})
linear_solve_p: Primitive = _numbax["custom_linear_solve"]
remat_p: Primitive = _numbax["remat2"]
add_jaxvals_p: Primitive = _numbax["add_any"]
__all__ = sorted(n for n in globals() if n.endswith("_p") and not n.startswith("_"))
