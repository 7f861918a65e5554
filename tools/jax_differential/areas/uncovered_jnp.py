"""jax.numpy names no other area calls (session 35's survey): the array API's inverse
trigonometric aliases (acos, asin, atan, atan2, acosh, asinh, atanh), degrees/radians,
euler_gamma and newaxis, the scalar type hierarchy (generic, complexfloating, unsignedinteger,
character, flexible, object_, double, single, cdouble, csingle, complex_) as issubdtype and
constructors take it, the float8 and sub-byte integer scalar types, fromiter, s_,
printoptions/set_printoptions; over ints, bools, float16, complex, Python scalars, under jit,
vmap and grad, and with the usual mistakes.
"""

# ruff: noqa: E501

_INVERSE = ("acos", "asin", "atan", "acosh", "asinh", "atanh")
_ARGS = (
    "jnp.array([-1.0, -0.5, 0.0, 0.5, 1.0])",
    "jnp.array([1.0, 1.5, 2.0, 10.0])",
    "jnp.array([0, 1, 2], jnp.int32)",
    "jnp.array([0, 1], jnp.uint8)",
    "jnp.array([True, False])",
    "jnp.array([0.25, 0.5], jnp.float16)",
    "jnp.array([0.25, 0.5], jnp.bfloat16)",
    "jnp.array([0.5 + 0.5j, -2.0 + 1.0j], jnp.complex64)",
    "0.5",
    "2",
    "jnp.float32(0.5)",
    "X34 / 12",
)


def _inverse_trig() -> list[str]:
    c = []
    for f in _INVERSE:
        for a in _ARGS:
            c.append(f"jnp.{f}({a})")
        c += [
            f"jax.jit(jnp.{f})(jnp.array([0.3, 1.3]))",
            f"jax.vmap(jnp.{f})(jnp.array([[0.1, 0.2], [0.3, 0.4]]) + 1.0)",
            f"jax.grad(jnp.{f})(0.5 if '{f}' != 'acosh' else 1.5)",
            f"jnp.{f}(jnp.array([0.5]), out=None)",
            f"jnp.{f}('a')",
            f"jnp.{f}([0.1, 0.2])",
            f"jnp.{f} is getattr(jnp, {f!r}.replace('a', 'arc', 1))",
        ]
    for a, b in (
        ("1.0", "2.0"),
        ("jnp.array([1.0, -1.0, 0.0])", "jnp.array([0.0, 0.0, -1.0])"),
        ("jnp.array([1, 2], jnp.int8)", "3"),
        ("jnp.array([1.0, 2.0], jnp.float16)", "2"),
        ("jnp.array([True])", "jnp.array([False])"),
        ("X34", "X34.T[:3, :3].sum()"),
        ("jnp.float32(1)", "jnp.array(2.0, jnp.bfloat16)"),
        ("0.0", "-0.0"),
        ("jnp.array([0.0, -0.0])", "jnp.array([-1.0, -1.0])"),
        ("jnp.inf", "jnp.array([jnp.inf, -jnp.inf, 1.0])"),
    ):
        c.append(f"jnp.atan2({a}, {b})")
    c += [
        "jax.grad(jnp.atan2, argnums=(0, 1))(1.0, 2.0)",
        "jax.jit(jnp.atan2)(jnp.arange(3.0), 1)",
        "jax.vmap(jnp.atan2, in_axes=(0, None))(jnp.arange(3.0), 2.0)",
        "jnp.atan2(jnp.array([1j]), 1.0)",
        "jnp.atan2(jnp.ones(2), jnp.ones(3))",
        "jnp.atan2(1.0)",
    ]
    return c


def _angles_and_constants() -> list[str]:
    c = []
    for f in ("degrees", "radians"):
        for a in (
            "jnp.pi",
            "180",
            "jnp.array([0, 90, 180], jnp.int32)",
            "jnp.array([0, 90], jnp.int8)",
            "jnp.array([1.0, 2.0], jnp.float16)",
            "jnp.array([1.0, 2.0], jnp.bfloat16)",
            "jnp.array([True, False])",
            "jnp.array([1 + 1j], jnp.complex64)",
            "X34",
            "jnp.float32(2)",
        ):
            c.append(f"jnp.{f}({a})")
        c += [
            f"jax.grad(jnp.{f})(1.0)",
            f"jax.jit(jnp.{f})(jnp.arange(3))",
            f"jax.vmap(jnp.{f})(X34)",
            f"jnp.{f}('x')",
        ]
    c += [
        "jnp.euler_gamma",
        "type(jnp.euler_gamma).__name__",
        "jnp.array(jnp.euler_gamma)",
        "jnp.exp(-jnp.euler_gamma)",
        "jnp.newaxis is None",
        "X34[jnp.newaxis].shape",
        "X34[:, jnp.newaxis, :, jnp.newaxis].shape",
        "jnp.arange(3)[jnp.newaxis, :] + jnp.arange(3)[:, jnp.newaxis]",
        "jax.jit(lambda x: x[jnp.newaxis, ..., jnp.newaxis])(jnp.ones(2)).shape",
        "jnp.s_[1:3]",
        "jnp.s_[::2, 1]",
        "jnp.s_[..., jnp.newaxis]",
        "X34[jnp.s_[1:, ::2]]",
        "jnp.index_exp[1:2]",
        "X34.at[jnp.s_[:, 1]].set(0.0)",
    ]
    return c


def _scalar_types() -> list[str]:
    c = []
    kinds = (
        "generic",
        "number",
        "complexfloating",
        "unsignedinteger",
        "signedinteger",
        "character",
        "flexible",
        "object_",
        "inexact",
        "floating",
        "integer",
    )
    dts = (
        "jnp.int8",
        "jnp.uint16",
        "jnp.float16",
        "jnp.bfloat16",
        "jnp.complex64",
        "jnp.bool_",
        "'float32'",
        "jnp.float8_e4m3fn",
        "jnp.int4",
        "jnp.uint4",
        "jnp.float0" if False else "jnp.int32",
    )
    for k in kinds:
        for d in dts:
            c.append(f"jnp.issubdtype({d}, jnp.{k})")
    c += [
        "jnp.issubdtype(jnp.arange(3).dtype, jnp.unsignedinteger)",
        "jnp.issubdtype(jnp.zeros(2, jnp.complex64).dtype, jnp.complexfloating)",
        "jnp.issubdtype(jnp.dtype('S3'), jnp.character)",
        "jnp.issubdtype(jnp.dtype('S3'), jnp.flexible)",
        "jnp.issubdtype(jnp.dtype('O'), jnp.object_)",
        "jnp.issubdtype(jnp.str_, jnp.character)",
    ]
    for t in ("double", "single", "cdouble", "csingle", "complex_"):
        c += [
            f"jnp.{t}(1.5)",
            f"jnp.{t}([1, 2])",
            f"jnp.dtype(jnp.{t})",
            f"jnp.zeros(2, jnp.{t}).dtype",
            f"jnp.arange(3, dtype=jnp.{t})",
            f"jnp.{t}(2) * 1.5",
            f"jax.jit(lambda x: jnp.{t}(x))(jnp.arange(2))",
            f"jnp.{t}.dtype",
            f"jnp.issubdtype(jnp.{t}, jnp.floating)",
        ]
    c += [
        "jnp.complex_(1 + 2j)",
        "jnp.complex_ is jnp.complex128",
        "jnp.double is jnp.float64",
        "jnp.single is jnp.float32",
        "jnp.csingle is jnp.complex64",
        "jnp.generic(1)",
        "jnp.complexfloating(1)",
        "jnp.object_(1)",
        "jnp.array([1, 2], dtype=jnp.object_)",
        "jnp.zeros(2, jnp.generic)",
        "jnp.zeros(2, jnp.complexfloating)",
        "jnp.zeros(2, jnp.unsignedinteger)",
        "jnp.isdtype(jnp.float32, jnp.floating)",
    ]
    kinds = (
        "'bool'",
        "'signed integer'",
        "'unsigned integer'",
        "'integral'",
        "'real floating'",
        "'complex floating'",
        "'numeric'",
    )
    for d in (
        "jnp.bfloat16",
        "jnp.float8_e4m3fn",
        "jnp.int4",
        "jnp.uint2",
        "jnp.float16",
        "jnp.complex64",
        "jnp.bool_",
        "jnp.uint32",
        "'int8'",
        "np.dtype('float32')",
        "jnp.arange(3).dtype",
    ):
        for k in kinds:
            c.append(f"jnp.isdtype({d}, {k})")
        c.append(f"jnp.isdtype({d}, ('bool', 'real floating'))")
        c.append(f"jnp.isdtype({d}, {d})")
    c += [
        "jnp.isdtype(jnp.float32, (jnp.float32, jnp.float16))",
        "jnp.isdtype(jnp.float32, 'float')",
        "jnp.isdtype(jnp.float32, 'floating')",
        "jnp.isdtype(jnp.float32, ['real floating'])",
        "jnp.isdtype(jnp.float32, None)",
        "jnp.isdtype(jnp.arange(3), 'integral')",
        "jnp.isdtype(random.key(0).dtype, 'numeric')",
        "jnp.isdtype(int, 'integral')",
        "jnp.isdtype(float, 'real floating')",
        "jnp.isdtype('foo', 'integral')",
    ]
    return c


def _small_floats() -> list[str]:
    c = []
    for t in (
        "float8_e3m4",
        "float8_e4m3",
        "float8_e4m3b11fnuz",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float6_e3m2fn",
    ):
        c += [
            f"jnp.{t}(1.5)",
            f"jnp.array([0.1, 1.0, 3.3, -2.5, 1000.0, 1e-6], jnp.{t})",
            f"jnp.array([0.1, 1.0, 3.3, -2.5], jnp.{t}).astype(jnp.float32)",
            f"jnp.array([1.0, 2.0], jnp.{t}) + jnp.array([0.5, 0.25], jnp.{t})",
            f"jnp.array([1.0, 2.0], jnp.{t}) * 2",
            f"jnp.array([1.0, 2.0], jnp.{t}) + jnp.float32(1)",
            f"jnp.finfo(jnp.{t}).max",
            f"jnp.finfo(jnp.{t}).eps",
            f"jnp.finfo(jnp.{t}).bits",
            f"jnp.array([jnp.nan, jnp.inf, -jnp.inf], jnp.{t})",
            f"jnp.dtype(jnp.{t}).itemsize",
            f"jnp.result_type(jnp.{t}, jnp.float16)",
            f"jnp.promote_types(jnp.{t}, jnp.bfloat16)",
            f"jax.jit(lambda x: x.astype(jnp.{t}))(jnp.array([0.3, 7.0]))",
            f"jnp.zeros((2,), jnp.{t}).sum()",
            f"jnp.issubdtype(jnp.{t}, jnp.floating)",
        ]
    for t in ("int2", "uint1", "int4", "uint2"):
        c += [
            f"jnp.{t}(1)",
            f"jnp.array([0, 1], jnp.{t})",
            f"jnp.array([0, 1], jnp.{t}).astype(jnp.int32)",
            f"jnp.iinfo(jnp.{t}).max",
            f"jnp.iinfo(jnp.{t}).min",
            f"jnp.dtype(jnp.{t}).itemsize",
            f"jnp.result_type(jnp.{t}, jnp.int8)",
            f"jnp.array([1, 0], jnp.{t}) + jnp.array([0, 1], jnp.{t})",
            f"jnp.issubdtype(jnp.{t}, np.integer)",
        ]
    return c


def _misc() -> list[str]:
    return [
        "jnp.fromiter(range(5), dtype=jnp.int32)",
        "jnp.fromiter((x * 0.5 for x in range(4)), dtype=float)",
        "jnp.fromiter(iter([1, 2, 3]), dtype=jnp.float16, count=2)",
        "jnp.fromiter(range(5), jnp.int8, count=-1)",
        "jnp.fromiter(range(3))",
        "jnp.fromiter(range(3), dtype=jnp.int32, count=10)",
        "jnp.fromiter([], dtype=jnp.float32)",
        "jnp.fromfile('nonexistent.bin')",
        "jnp.fromstring('1 2 3', sep=' ', dtype=jnp.int32)",
        "jnp.frombuffer(b'\\x01\\x02\\x03\\x04', dtype=jnp.uint8)",
        "jnp.frombuffer(b'\\x00\\x00\\x80\\x3f', dtype=jnp.float32)",
        "jnp.frombuffer(b'\\x01\\x02\\x03\\x04', dtype=jnp.int16, count=1, offset=2)",
        "out = str(jnp.get_printoptions()['precision'])",
        "with jnp.printoptions(precision=2):\n    out = str(jnp.array([1.23456, 2.5]))",
        "with jnp.printoptions(precision=3, suppress=True):\n    out = repr(jnp.array([1e-8, 1.0]))",
        "with jnp.printoptions(threshold=3):\n    out = str(jnp.arange(10))",
        "with jnp.printoptions(precision=2):\n    pass\nout = str(jnp.array([1.23456]))",
        "jnp.set_printoptions(precision=4)\nout = str(jnp.array([1.234567]))\njnp.set_printoptions(precision=8)",
        "jnp.printoptions is not None and callable(jnp.set_printoptions)",
        "jnp.array([1, None])",
        "jnp.array([[1.0, 2.0], [None, 3.0]])",
        "jnp.asarray([1, 2], dtype=object)",
        "jnp.zeros(2, dtype=object)",
        "jnp.ones(2, dtype='O')",
        "jnp.full(2, 1, dtype=np.dtype(object))",
        "jnp.arange(3, dtype=object)",
        "jnp.array(['a', 'b'])",
        "jnp.array('abc')",
        "jnp.asarray([['x']])",
        "jnp.array(b'ab')",
        "jnp.zeros(2) + jnp.array(['a'])",
    ]


def cases() -> list[str]:
    return _inverse_trig() + _angles_and_constants() + _scalar_types() + _small_floats() + _misc()
