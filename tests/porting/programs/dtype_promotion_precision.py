"""Dtypes the way mixed-precision and quantisation code meets them: JAX's promotion lattice,
weak types, narrow floats and integers, and their limits.

- `jnp.result_type`/`promote_types` across bool, int8, uint8, int32, uint32, bfloat16,
  float16, float32 and Python scalars (weak types), `jnp.astype`, `jax.dtypes.
  canonicalize_dtype`, `jax.dtypes.issubdtype`, `jnp.issubdtype`, `isdtype`;
- `finfo` of bfloat16/float16/float32/float8 types, `iinfo` of int8/uint16/int4;
- float8 (`float8_e4m3fn`, `float8_e5m2`) and int4 casts with saturation and rounding,
  `lax.reduce_precision`, bfloat16/float16 overflow and round-half-even, `jnp.round`'s halves;
- `lax.convert_element_type` of floats to integers (truncation, NaN and out-of-range),
  `clip` before casting, unsigned wrap-around;
- the strict promotion mode's error (`jax.numpy_dtype_promotion("strict")`), and weak types
  kept through `jit` and `grad`.
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

KINDS = ["bool", "int8", "uint8", "int32", "uint32", "bfloat16", "float16", "float32"]


def promotion(out):
    table = []
    for a in KINDS:
        table.append([str(jnp.promote_types(a, b)) for b in KINDS])
    out["promote_table"] = table
    scalars = {}
    for k in KINDS:
        x = jnp.zeros(2, k)
        scalars[k] = [
            str((x + 1).dtype),
            str((x + 1.0).dtype),
            str((x + 1j).dtype),
            str((x * True).dtype),
        ]
    out["with_python_scalars"] = scalars
    out["result_type"] = [str(jnp.result_type(jnp.int8, 3.0)), str(jnp.result_type(jnp.uint8, jnp.int8)),
                          str(jnp.result_type(1, 2.0)), str(jnp.result_type(jnp.float16, jnp.bfloat16))]  # fmt: skip
    out["canonicalize"] = [
        str(jax.dtypes.canonicalize_dtype(t))
        for t in (np.int64, np.float64, np.complex128, np.uint64)
    ]
    out["issubdtype"] = [bool(jnp.issubdtype(jnp.bfloat16, jnp.floating)), bool(jnp.issubdtype(jnp.int4, jnp.integer)),
                         bool(jax.dtypes.issubdtype(jnp.float8_e4m3fn, jnp.inexact)),
                         bool(jnp.isdtype(jnp.float16, "real floating")), bool(jnp.isdtype(jnp.uint8, ("signed integer", "bool")))]  # fmt: skip
    w = jnp.asarray(2.0)
    out["weak"] = [str(w.dtype), w.weak_type if hasattr(w, "weak_type") else None]
    f = jax.jit(lambda x: x * 2)
    out["weak_through_jit"] = [
        str((f(2.0) + jnp.float16(1)).dtype),
        str((f(jnp.float32(2.0)) + jnp.float16(1)).dtype),
    ]
    g = jax.grad(lambda x: x * 3.0)(2.0)
    out["grad_of_python_float"] = [str(g.dtype), str((g + jnp.bfloat16(1)).dtype)]
    out["astype"] = [
        jnp.astype(jnp.array([1.7, -1.7]), jnp.int32),
        str(jnp.astype(jnp.arange(3), jnp.bfloat16).dtype),
    ]
    try:
        with jax.numpy_dtype_promotion("strict"):
            jnp.zeros(2, jnp.int32) + jnp.zeros(2, jnp.float32)
        out["strict"] = "no error"
    except ValueError as e:  # JAX lists the dtypes in the order of a Python set of types
        out["strict"] = re.sub(r"^Input dtypes \(.*?\) ", "", str(e).splitlines()[0])
    with jax.numpy_dtype_promotion("strict"):
        out["strict_weak_ok"] = str((jnp.zeros(2, jnp.float16) + 1.0).dtype)


def limits(out):
    fl = {}
    for t in (jnp.bfloat16, jnp.float16, jnp.float32, jnp.float8_e4m3fn, jnp.float8_e5m2):
        fi = jnp.finfo(t)
        fl[str(np.dtype(t))] = [
            float(fi.max),
            float(fi.min),
            float(fi.eps),
            float(fi.tiny),
            int(fi.bits),
            int(fi.nmant),
            int(fi.nexp),
        ]
    out["finfo"] = fl
    out["iinfo"] = {str(np.dtype(t)): [int(jnp.iinfo(t).min), int(jnp.iinfo(t).max), int(jnp.iinfo(t).bits)]
                    for t in (jnp.int8, jnp.uint16, jnp.int4, jnp.uint4)}  # fmt: skip


def narrow(out):
    x = jnp.array([0.1, 1.0625, 3.3, 300.0, 500.0, -1000.0, 1e-4, jnp.nan], jnp.float32)
    for t in ("float8_e4m3fn", "float8_e5m2", "bfloat16", "float16"):
        y = x.astype(t)
        out[t] = [str(y.dtype), y.astype(jnp.float32)]
    out["reduce_precision_e4m3"] = lax.reduce_precision(x, exponent_bits=4, mantissa_bits=3)
    out["reduce_precision_bf16"] = lax.reduce_precision(x, exponent_bits=8, mantissa_bits=7)
    halves = jnp.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.5])
    out["round_half_even"] = jnp.round(halves)
    out["round_decimals"] = jnp.round(jnp.array([1.25, 2.675, -0.125]), 2)
    out["bf16_ties"] = (
        jnp.array([1.00390625, 1.01171875], jnp.float32).astype(jnp.bfloat16).astype(jnp.float32)
    )
    out["f16_overflow"] = (jnp.float16(60000) * jnp.float16(2)).astype(jnp.float32)
    out["bf16_sum"] = jnp.sum(jnp.full(300, 0.01, jnp.bfloat16)).astype(jnp.float32)
    i4 = jnp.array([-8, -1, 0, 7], jnp.int4)
    out["int4"] = [str(i4.dtype), i4.astype(jnp.int32), (i4 + jnp.int4(1)).astype(jnp.int32)]
    f = jnp.array([1.9, -1.9, 2.5e9, -3e9, jnp.nan, jnp.inf], jnp.float32)
    out["to_int32"] = lax.convert_element_type(jnp.clip(f, -(2**31), 2**31 - 128), jnp.int32)
    out["to_uint8_in_range"] = jnp.array([0.0, 1.7, 254.9], jnp.float32).astype(jnp.uint8)
    out["uint_wrap"] = jnp.array([0, 1], jnp.uint8) - jnp.uint8(2)
    out["int_to_bool"] = jnp.array([0, 2, -1]).astype(bool)
    out["bool_sum_dtype"] = str(jnp.sum(jnp.array([True, True])).dtype)
    out["int8_mean_dtype"] = str(jnp.mean(jnp.array([1, 2], jnp.int8)).dtype)
    out["uint8_cumsum_dtype"] = str(jnp.cumsum(jnp.array([200, 100], jnp.uint8)).dtype)
    out["f16_matmul"] = jnp.ones((4, 4), jnp.float16) @ jnp.full((4,), 0.1, jnp.float16)


def run():
    out = {}
    promotion(out)
    limits(out)
    narrow(out)
    return out
