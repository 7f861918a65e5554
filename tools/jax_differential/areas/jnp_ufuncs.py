"""jnp's elementwise functions (`jnp_ufuncs`): every common ufunc over
int8/uint8/int32/float16/bfloat16/float32/complex64/bool and Python scalars, promotion, weak
types, special values, integer division and power by zero, shifts and rounding.
"""

# ruff: noqa: E501


def _words(text: str) -> list[str]:
    return text.split()


UF_VALS = {
    "int8": "jnp.array([-128, -3, -1, 0, 2, 127], jnp.int8)",
    "uint8": "jnp.array([0, 1, 3, 7, 200, 255], jnp.uint8)",
    "int32": "jnp.array([-2147483648, -7, -1, 0, 3, 2147483647], jnp.int32)",
    "float16": "jnp.array([-jnp.inf, -2.5, -0.0, 0.5, 65504, jnp.nan], jnp.float16)",
    "bfloat16": "jnp.array([-jnp.inf, -2.5, -0.0, 0.5, 3e38, jnp.nan], jnp.bfloat16)",
    "float32": "jnp.array([-jnp.inf, -1.5, -0.0, 0.5, jnp.inf, jnp.nan], jnp.float32)",
    "complex64": "jnp.array([1 + 1j, -2.5, 0j, -1j, 0.5 - 2j, 3 + 0.25j], jnp.complex64)",
    "bool": "jnp.array([True, False, True, True, False, False])",
}

UF_OTHER = {
    "int8": "jnp.array([3, -2, 0, -1, 5, 1], jnp.int8)",
    "uint8": "jnp.array([2, 0, 1, 9, 3, 255], jnp.uint8)",
    "int32": "jnp.array([2, 0, -3, 5, -1, 2], jnp.int32)",
    "float16": "jnp.array([2.0, 0.0, -1.5, 0.0, jnp.inf, 3.0], jnp.float16)",
    "bfloat16": "jnp.array([2.0, 0.0, -1.5, 0.0, jnp.inf, 3.0], jnp.bfloat16)",
    "float32": "jnp.array([2.0, 0.0, -1.5, -0.0, jnp.inf, 3.0], jnp.float32)",
    "complex64": "jnp.array([1j, 2, 0j, 1 + 1j, -1, 0.5j], jnp.complex64)",
    "bool": "jnp.array([False, False, True, False, True, True])",
}

UNARY = _words(
    "abs negative positive sign sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan "
    "arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint round "
    "fix square reciprocal isnan isinf isfinite signbit logical_not invert deg2rad sinc "
    "real imag conj angle fabs"
)

BINARY = _words(
    "add subtract multiply divide floor_divide remainder fmod power float_power maximum "
    "minimum fmax fmin arctan2 hypot copysign nextafter logaddexp left_shift right_shift "
    "bitwise_and bitwise_or bitwise_xor logical_and logical_xor equal less greater_equal "
    "heaviside"
)  # not gcd/lcm: on int8(-128) and int32 min their loops never end, JAX's too (abs overflows)

UF_PAIRS = [
    ("int8", "int8"),
    ("uint8", "int8"),
    ("int32", "uint8"),
    ("float16", "bfloat16"),
    ("bool", "bool"),
    ("int8", "float16"),
    ("complex64", "float32"),
]

UF_SCALARS = [("int8", "2"), ("float16", "2.5"), ("uint8", "-1"), ("bfloat16", "1j"), ("bool", "3")]


def cases() -> list[str]:
    V, O = UF_VALS, UF_OTHER
    unary_dtypes = ("int8", "uint8", "float16", "bfloat16", "float32", "complex64", "bool")
    c = [f"jnp.{f}({V[d]})" for f in UNARY for d in unary_dtypes]
    c += [f"jnp.{f}({V[a]}, {O[b]})" for f in BINARY for a, b in UF_PAIRS]
    c += [
        f"jnp.{f}({V[a]}, {s})"
        for f in (
            "add",
            "multiply",
            "power",
            "floor_divide",
            "maximum",
            "left_shift",
            "true_divide",
        )
        for a, s in UF_SCALARS
    ]
    c += [
        f"jnp.{f}({s}, {V[a]})"
        for f in ("subtract", "remainder", "arctan2", "bitwise_or")
        for a, s in UF_SCALARS
    ]
    c += [
        # weak types of Python scalars and 0-d arrays
        "jnp.add(1, 2)",
        "jnp.add(1, 2.0)",
        "jnp.multiply(2.0, 1j)",
        "jnp.sin(1)",
        "jnp.sin(1.0)",
        "jnp.sqrt(True)",
        "jnp.floor_divide(7, 2)",
        "jnp.true_divide(7, 2)",
        "jnp.power(2, 3)",
        "jnp.power(2, -1)",
        "jnp.power(2.0, -1)",
        "jnp.negative(True)",
        "jnp.abs(-3)",
        "jnp.left_shift(1, 3)",
        "jnp.int8(3) + 300",
        "jnp.uint8(3) - 5",
        "jnp.float16(1) + 1e6",
        "jnp.bfloat16(1) * 3",
        "jnp.int8(100) * jnp.int8(3)",
        "jnp.array(3) ** 2",
        "jnp.array(3.0) / 2",
        "jnp.int8(5) // jnp.int8(0)",
        "jnp.int8(-5) % jnp.int8(0)",
        "jnp.array([1, 2]) + jnp.array([1.0, 2.0], jnp.float16)",
        "jnp.array([True]) + jnp.array([True])",
        "jnp.array([True]) - jnp.array([True])",
        "jnp.array([1], jnp.uint32) + jnp.array([1], jnp.int32)",
        "jnp.array([1], jnp.uint8) + jnp.array([1], jnp.int64)",
        "jnp.array([1], jnp.int16) * jnp.array([1.0], jnp.bfloat16)",
        "jnp.array([1.0], jnp.float16) + jnp.array([1.0], jnp.bfloat16)",
        "jnp.array([1.0], jnp.bfloat16) + 1j",
        "jnp.array([1], jnp.int8) + jnp.float32(1)",
        "jnp.result_type(jnp.int8, 1.0), jnp.result_type(jnp.uint8, jnp.int8), jnp.result_type(jnp.float16, jnp.bfloat16)",
        "jnp.promote_types(jnp.uint32, jnp.int32), jnp.promote_types('bool', 'uint8'), jnp.promote_types(jnp.int8, jnp.complex64)",
        "jnp.result_type(1, 1.0, 1j), jnp.result_type(jnp.float16, 2.0), jnp.result_type(jnp.int8, 2**40)",
        # integer division, modulo, power: zero and negative
        "jnp.floor_divide(jnp.array([7, -7, 7, -7, 0], jnp.int32), jnp.array([2, 2, -2, -2, 0], jnp.int32))",
        "jnp.remainder(jnp.array([7, -7, 7, -7, 3], jnp.int32), jnp.array([2, 2, -2, -2, 0], jnp.int32))",
        "jnp.fmod(jnp.array([7, -7, 7, -7, 3], jnp.int32), jnp.array([2, 2, -2, -2, 0], jnp.int32))",
        "jnp.divmod(jnp.array([7, -7, 7, -7], jnp.int32), jnp.array([2, 2, -2, -2], jnp.int32))",
        "jnp.divmod(jnp.array([7.5, -7.5, 1.0]), jnp.array([2.0, 2.0, 0.0]))",
        "jnp.floor_divide(jnp.array([7.5, -7.5, 1.0, -1.0, 0.0]), jnp.array([2.0, 2.0, 0.0, 0.0, 0.0]))",
        "jnp.remainder(jnp.array([7.5, -7.5, 1.0, jnp.inf, 3.0]), jnp.array([2.0, 2.0, 0.0, 2.0, jnp.inf]))",
        "jnp.remainder(jnp.array([3.0, -3.0]), jnp.array([-jnp.inf, jnp.inf]))",
        "jnp.floor_divide(jnp.array([-128], jnp.int8), jnp.array([-1], jnp.int8))",
        "jnp.remainder(jnp.array([-128], jnp.int8), jnp.array([-1], jnp.int8))",
        "jnp.floor_divide(jnp.array([-2147483648], jnp.int32), -1)",
        "jnp.power(jnp.array([2, -2, 0, 1, -1], jnp.int32), jnp.array([3, 3, 0, -2, -3], jnp.int32))",
        "jnp.power(jnp.array([2, 0, 3], jnp.int32), -1)",
        "jnp.power(jnp.array([2, 3], jnp.uint8), jnp.array([8, 5], jnp.uint8))",
        "jnp.power(jnp.array([0.0, -0.0, -8.0, -1.0, 1.0]), jnp.array([-1.0, -1.0, 1 / 3, jnp.inf, jnp.nan]))",
        "jnp.power(jnp.array([2.0]), 2)",
        "jnp.power(jnp.array([2], jnp.int8), 2.5)",
        "jnp.float_power(jnp.array([2, 3], jnp.int8), -1)",
        "jnp.int32(2) ** -1",
        "jnp.array([2, 3]) ** jnp.array([-1, 2])",
        "lax.integer_pow(jnp.array([2.0, 3.0]), -2)",
        # shifts and bitwise
        "jnp.left_shift(jnp.array([1, 1, 1, -1], jnp.int8), jnp.array([0, 7, 8, 9], jnp.int8))",
        "jnp.right_shift(jnp.array([-128, -128, 64, 127], jnp.int8), jnp.array([1, 8, 7, 100], jnp.int8))",
        "jnp.right_shift(jnp.array([255, 255, 128], jnp.uint8), jnp.array([1, 8, 9], jnp.uint8))",
        "jnp.left_shift(jnp.array([1, 2], jnp.int32), jnp.array([-1, 33], jnp.int32))",
        "jnp.right_shift(jnp.array([-1, 8], jnp.int32), jnp.array([-1, 40], jnp.int32))",
        "jnp.left_shift(jnp.array([1], jnp.uint8), jnp.array([1], jnp.int8))",
        "jnp.left_shift(jnp.array([1.0]), 1)",
        "jnp.bitwise_left_shift(jnp.array([3], jnp.int8), 2), jnp.bitwise_right_shift(jnp.array([12], jnp.int8), 2)",
        "jnp.bitwise_not(jnp.array([0, 1, -1], jnp.int8)), jnp.bitwise_invert(jnp.array([0, 255], jnp.uint8))",
        "jnp.bitwise_count(jnp.array([0, 1, -1, 127], jnp.int8))",
        "jnp.bitwise_count(jnp.array([0, 255], jnp.uint8))",
        "jnp.bitwise_and(jnp.array([1.0]), 1)",
        "jnp.bitwise_xor(jnp.array([True, False]), True)",
        "jnp.invert(jnp.array([1.5]))",
        "jnp.array([5], jnp.uint8) & -1",
        "jnp.array([5], jnp.uint8) | 256",
        "~jnp.array([True, False])",
        # special values
        "jnp.sign(jnp.array([-0.0, 0.0, jnp.nan, -jnp.inf]))",
        "jnp.sign(jnp.array([1 + 1j, 0j, -3j]))",
        "jnp.sign(jnp.array([True, False]))",
        "jnp.signbit(jnp.array([-0.0, 0.0, -jnp.nan, jnp.nan, -1.0]))",
        "jnp.copysign(jnp.array([1.0, 1.0, 1.0]), jnp.array([-0.0, 0.0, -jnp.nan]))",
        "jnp.maximum(jnp.array([jnp.nan, 1.0, -0.0]), jnp.array([1.0, jnp.nan, 0.0]))",
        "jnp.fmax(jnp.array([jnp.nan, 1.0, jnp.nan]), jnp.array([1.0, jnp.nan, jnp.nan]))",
        "jnp.minimum(jnp.array([0.0]), jnp.array([-0.0]))",
        "jnp.nextafter(jnp.array([0.0, 1.0, -0.0], jnp.float32), jnp.array([1.0, 0.0, -1.0], jnp.float32))",
        "jnp.nextafter(jnp.array([1.0], jnp.float16), 2)",
        "jnp.spacing(jnp.array([1.0, 0.0, 1e30, -1.0], jnp.float32))",
        "jnp.frexp(jnp.array([0.0, 1.0, -3.5, jnp.inf, 1e-40], jnp.float32))",
        "jnp.frexp(jnp.array([1, 8], jnp.int32))",
        "jnp.ldexp(jnp.array([1.0, 0.5, 3.0]), jnp.array([2, -1, 200]))",
        "jnp.ldexp(jnp.array([1.0], jnp.float16), 3)",
        "jnp.ldexp(jnp.array([1.0]), 1.5)",
        "jnp.modf(jnp.array([1.5, -2.5, jnp.inf, -0.0]))",
        "jnp.modf(jnp.array([3, -4], jnp.int8))",
        "jnp.log(jnp.array([0.0, -0.0, -1.0, jnp.inf]))",
        "jnp.log1p(jnp.array([-1.0, -2.0, 1e-10]))",
        "jnp.sqrt(jnp.array([-1.0, -0.0, jnp.inf]))",
        "jnp.sqrt(jnp.array([-1.0 + 0j, -4.0 - 0.0j]))",
        "jnp.log(jnp.array([-1.0 + 0j, 0j]))",
        "jnp.arcsin(jnp.array([2.0, -1.0]))",
        "jnp.arccosh(jnp.array([0.5, 1.0]))",
        "jnp.arctanh(jnp.array([1.0, -1.0, 2.0]))",
        "jnp.exp(jnp.array([89.0, 710.0, -104.0], jnp.float32))",
        "jnp.exp(jnp.array([12.0], jnp.float16))",
        "jnp.expm1(jnp.array([1e-10, -50.0]))",
        "jnp.tan(jnp.array([jnp.pi / 2]))",
        "jnp.arctan2(jnp.array([0.0, -0.0, 0.0, -0.0, 1.0]), jnp.array([0.0, 0.0, -0.0, -0.0, -jnp.inf]))",
        "jnp.hypot(jnp.array([jnp.inf, 3e38]), jnp.array([jnp.nan, 3e38]))",
        "jnp.logaddexp(jnp.array([-jnp.inf, jnp.inf, 0.0]), jnp.array([-jnp.inf, jnp.inf, -jnp.inf]))",
        "jnp.logaddexp2(jnp.array([1.0, -jnp.inf]), jnp.array([1.0, 3.0]))",
        "jnp.reciprocal(jnp.array([0, 2, -1], jnp.int32))",
        "jnp.reciprocal(jnp.array([0.0, -0.0]))",
        "jnp.abs(jnp.array([-128], jnp.int8)), jnp.negative(jnp.array([-128], jnp.int8))",
        "jnp.abs(jnp.array([3 + 4j, -jnp.inf + 1j]))",
        "jnp.sinc(jnp.array([0.0, 0.5, 1.0]))",
        "jnp.heaviside(jnp.array([-1.0, 0.0, 2.0, jnp.nan]), 0.5)",
        "jnp.i0(jnp.array([0.0, 1.0, -2.0]))",
        "jnp.isneginf(jnp.array([-jnp.inf, jnp.inf, jnp.nan])), jnp.isposinf(jnp.array([-jnp.inf, jnp.inf]))",
        "jnp.isreal(jnp.array([1 + 0j, 1j])), jnp.iscomplex(jnp.array([1 + 0j, 1j])), jnp.isreal(jnp.array([1.0]))",
        "jnp.nan_to_num(jnp.array([jnp.nan, jnp.inf, -jnp.inf, 1.0], jnp.float16))",
        "jnp.nan_to_num(jnp.array([jnp.nan, jnp.inf]), nan=1.0, posinf=2.0)",
        "jnp.nan_to_num(jnp.array([1, 2]))",
        "jnp.isclose(jnp.array([1.0, jnp.nan, jnp.inf]), jnp.array([1.0 + 1e-9, jnp.nan, jnp.inf]))",
        "jnp.isclose(jnp.array([jnp.nan]), jnp.array([jnp.nan]), equal_nan=True)",
        "jnp.isclose(jnp.array([1, 2]), jnp.array([1, 3]))",
        # rounding
        "jnp.round(jnp.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.675]))",
        "jnp.round(jnp.array([2.675, 1.005]), 2)",
        "jnp.round(jnp.array([1234, -1250, 15], jnp.int32), -2)",
        "jnp.round(jnp.array([125, -125], jnp.int8), -1)",
        "jnp.round(jnp.array([1.5 + 2.5j]))",
        "jnp.round(jnp.array([1.25], jnp.float16), 1)",
        "jnp.round(2.5), jnp.round(3)",
        "jnp.around(jnp.array([0.5, 1.5]))",
        "jnp.rint(jnp.array([0.5, 1.5, -2.5, 3.7]))",
        "jnp.fix(jnp.array([-2.5, 2.5]))",
        "jnp.trunc(jnp.array([-2.5, 2.5, -0.2]))",
        "jnp.ceil(jnp.array([-0.5, 0.2]))",
        "jnp.floor(jnp.array([3], jnp.int8)), jnp.ceil(jnp.array([True]))",
        "jnp.round(jnp.array([1.5]), 1.5)",
        "jnp.round(jnp.array([1.5]), decimals=-1)",
        # gcd / lcm
        "jnp.gcd(jnp.array([12, -12, 0, 0], jnp.int32), jnp.array([18, 18, 5, 0], jnp.int32))",
        "jnp.lcm(jnp.array([4, -4, 0], jnp.int32), jnp.array([6, 6, 5], jnp.int32))",
        "jnp.gcd(jnp.array([2.0]), jnp.array([4.0]))",
        # argument errors
        "jnp.add(jnp.ones(2), jnp.ones(3))",
        "jnp.add(jnp.ones(2))",
        "jnp.sin()",
        "jnp.sin('a')",
        "jnp.add([1, 2], (3, 4))",
        "jnp.sin([1.0, 2.0])",
        "jnp.add(jnp.ones(2), 1, 2)",
        "jnp.sqrt(jnp.ones(2), out=jnp.ones(2))",
        "jnp.add(jnp.ones(2), 1, where=jnp.array([True, False]))",
        "jnp.add.reduce(jnp.arange(4))",
        "jnp.add.accumulate(jnp.arange(4.0))",
        "jnp.multiply.outer(jnp.arange(3), jnp.arange(2))",
        "jnp.add.at(jnp.zeros(3), jnp.array([0, 0, 2]), 1.0, inplace=False)",
        "jnp.maximum.reduce(jnp.array([1, 5, 3], jnp.int8))",
        "jnp.logical_and.reduce(jnp.array([True, False]))",
        "jnp.add.nin, jnp.add.nout, jnp.add.identity, jnp.multiply.identity, jnp.sin.nin",
        "jnp.subtract.reduce(jnp.arange(4))",
        "jnp.add.reduce(jnp.arange(6).reshape(2, 3), axis=1, keepdims=True)",
        "jnp.bitwise_or.reduce(jnp.array([1, 2, 4], jnp.uint8))",
        "jnp.frompyfunc(lambda a, b: a + b, 2, 1)(jnp.arange(3), 1)",
    ]
    return c
