"""The cases of `test_mul_out_dtype.py`, shared with `record_mul_out_dtype.py`: `lax.mul` with
`out_dtype` (JAX's parameter of the `mul` primitive: the operands, of any numeric dtypes, are
converted to it and multiplied there) and its transformations. Each case is a function of a
namespace `m` (`m.jax`, `m.jnp`, `m.lax`) returning `(fun, args)`; the table records its
`make_jaxpr` text, its results' types and bytes (or its error). `JIT` names the cases the test
also compiles. Neither this table nor the test imports JAX."""

import ml_dtypes
import numpy as np

F16 = np.array([1.5, -2.25, 300.0], np.float16)
F32 = np.array([1.0001, -3.7, 2.5e5], np.float32)
I8 = np.array([100, -100, 7], np.int8)
I32 = np.array([300, -129, 70000], np.int32)
C64 = np.array([1 + 2j, -0.5 + 4j, 3 - 1j], np.complex64)
BF16 = np.array([1.5, 3.0, -0.125], ml_dtypes.bfloat16)
M16 = np.arange(6, dtype=np.float16).reshape(2, 3) / 4
COL, ROW = np.array([[1.5], [-2.0]], np.float32), np.array([[3.0, 0.5, -1.0]], np.float16)

JIT = [
    "f16_i8_to_f32",
    "f32_to_f16",
    "f32_to_i8_saturates",
    "c64_to_f32",
    "i8_times_float_scalar",
    "bf16_to_f32",
    "size1_axes",
    "grad_mixed",
]


def cases(m):  # noqa: PLR0915  (one line per case)
    jax, jnp, lax = m.jax, m.jnp, m.lax

    def mul(dt):
        return lambda x, y: lax.mul(x, y, out_dtype=dt)

    c = {}
    c["f16_to_f32"] = (mul(jnp.float32), (F16, F16))
    c["f16_i8_to_f32"] = (mul(jnp.float32), (F16, I8))
    c["i8_to_i32"] = (mul(jnp.int32), (I8, I8))
    c["f32_to_f16"] = (mul(jnp.float16), (F32, F32))
    c["f32_to_i8_saturates"] = (mul(jnp.int8), (F32, F32))
    c["f32_to_u8"] = (mul(jnp.uint8), (F32, F32))
    c["i32_to_i8_wraps"] = (mul(jnp.int8), (I32, I32))
    c["c64_to_f32"] = (mul(jnp.float32), (C64, C64))
    c["f32_to_c64"] = (mul(jnp.complex64), (F32, F32))
    c["f32_to_bool"] = (mul(jnp.bool_), (F32, F32))
    c["f32_to_f64_x32"] = (mul(jnp.float64), (F32, F32))  # x64 off: float32
    c["bf16_to_f32"] = (mul(jnp.float32), (BF16, BF16))
    c["f32_to_bf16"] = (mul(jnp.bfloat16), (F32, F32))
    c["same_dtype"] = (mul(jnp.float32), (F32, F32))
    c["dtype_object"] = (mul(np.dtype("float16")), (F32, F32))
    c["dtype_string"] = (mul("float16"), (F32, F32))
    c["numpy_type"] = (mul(np.float16), (F32, F32))
    c["python_float"] = (mul(float), (F16, I8))
    c["python_int"] = (mul(int), (F32, F32))
    c["i8_times_float_scalar"] = (lambda x: lax.mul(x, 2.5, out_dtype=jnp.float32), (I8,))
    c["scalar_times_f16"] = (lambda x: lax.mul(2.0, x, out_dtype=jnp.float32), (F16,))
    c["f16_times_int_scalar"] = (lambda x: lax.mul(x, 3, out_dtype=jnp.float32), (F16,))
    c["scalars_weak"] = (lambda: lax.mul(2.0, 3.0, out_dtype=jnp.float16), ())
    c["rank0_operand"] = (mul(jnp.float32), (M16, np.float16(3)))
    c["size1_axes"] = (mul(jnp.float32), (COL, ROW))
    c["no_out_dtype"] = (lambda x, y: lax.mul(x, y), (F32, F32))
    c["bool_operand"] = (mul(jnp.int32), (np.array([True, False]), np.array([True, True])))
    c["shapes_mismatch"] = (mul(jnp.float32), (F16, np.ones(2, np.float16)))
    c["ranks_mismatch"] = (mul(jnp.float32), (F16, M16))
    c["bad_dtype"] = (mul("foo"), (F32, F32))
    c["jvp"] = (lambda x, y: jax.jvp(mul(jnp.float32), (x, y), (x, y)), (F16, F16))
    c["jvp_scalar"] = (lambda x: jax.jvp(lambda x: mul(jnp.float32)(x, 2.0), (x,), (x,)), (F16,))
    c["grad"] = (jax.grad(lambda x, y: mul(jnp.float32)(x, y).sum(), (0, 1)), (F16, F16))
    c["grad_mixed"] = (jax.grad(lambda x, y: mul(jnp.float32)(x, y).sum(), (0, 1)), (F16, F32))
    c["grad_square"] = (jax.grad(lambda x: mul(jnp.float32)(x, x).sum()), (F16,))
    c["grad_to_f16"] = (jax.grad(lambda x, y: mul(jnp.float16)(x, y).sum(), (0, 1)), (F32, F32))
    c["vmap"] = (jax.vmap(mul(jnp.float32)), (F16, F16))
    c["vmap_axes"] = (jax.vmap(mul(jnp.float32), in_axes=(1, 0)), (M16.T, M16))
    c["vmap_unbatched"] = (jax.vmap(mul(jnp.float32), in_axes=(0, None)), (F16, np.float16(2)))
    c["vmap_grad"] = (jax.vmap(jax.grad(mul(jnp.float32))), (F16, F16))
    c["jit_inside"] = (lambda x, y: jax.jit(mul(jnp.float32))(x, y) * 2, (F16, I8))
    return c
