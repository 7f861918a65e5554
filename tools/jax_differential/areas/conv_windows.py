"""Convolutions, windowed reductions, scans, sorts and searches (940 calls).

15 still differ from JAX 0.10.2, knowingly: XLA's verifier refuses zero/negative strides,
dilations of the wrong length and repeated ConvDimensionNumbers axes ('Cannot lower jaxpr
with verifier errors', numbax raises its own ValueError); JAX's conv/transpose shape tuple
helpers return numpy ints (numbax Python ints); JAX raises AttributeError for list operands
of conv_general_dilated; JAX's reduce_window with string padding and window_strides=None
fails in its numpy arithmetic (numbax computes unit strides); numbax differentiates
reduce_window with any computation in reverse mode (JAX cannot) and takes list window
shapes in pooling. (`nn.min_pool`, which Flax has only in flax.linen.pooling, is no longer
exported: both sides raise AttributeError.)
"""

# ruff: noqa: E501

PRELUDE = """
def CA(shape, dtype=jnp.float32, k=5):
    n = int(np.prod(shape))
    v = (np.arange(n) * k) % 11 - 5
    if dtype == jnp.bfloat16 or np.dtype(dtype).kind in 'fc':
        v = v / 2
    return jnp.asarray(v.reshape(shape)).astype(dtype)
def CC(shape):
    return lax.complex(CA(shape), CA(shape, k=3))
def FNAN():
    return jnp.array([1.0, jnp.nan, -0.0, 0.0, -jnp.inf, 1.0, jnp.nan, jnp.inf, -1.0, 0.0])
"""

# sizes of the dimensions named by conv spec letters: batch, features, spatial
_CW_SIZES = {"N": 2, "C": 2, "O": 3, "I": 2}

_CW_SPATIAL = {"lhs": (5, 4, 3), "rhs": (3, 2, 2)}


def _cw_shape(spec: str, side: str) -> tuple[int, ...]:
    """The shape of a conv operand laid out by `spec` (e.g. 'NHWC' or 'HWIO')."""
    sp = iter(_CW_SPATIAL[side])
    return tuple(_CW_SIZES[ch] if ch in _CW_SIZES else next(sp) for ch in spec)


def cases() -> list[str]:
    cg = "lax.conv_general_dilated"
    c: list[str] = []
    # layouts: None (NC.../OI...), strings, tuples of other letters, ConvDimensionNumbers
    layouts = {
        1: [None, ("NCH", "OIH", "NCH"), ("NWC", "WIO", "NWC"), ("NCW", "WIO", "NWC")],
        2: [
            None,
            ("NCHW", "OIHW", "NCHW"),
            ("NHWC", "HWIO", "NHWC"),
            ("NHWC", "OIHW", "NCHW"),
            ("CNHW", "IOHW", "HWNC"),
        ],
        3: [None, ("NDHWC", "DHWIO", "NDHWC")],
    }
    for nd, specs in layouts.items():
        for dn in specs:
            ls, rs = ("NC" + "HWD"[:nd], "OI" + "HWD"[:nd]) if dn is None else dn[:2]
            x, w = f"CA({_cw_shape(ls, 'lhs')})", f"CA({_cw_shape(rs, 'rhs')})"
            kw = "" if dn is None else f", dimension_numbers={dn!r}"
            one = (1,) * nd
            two = (2,) + (1,) * (nd - 1)
            pads = ["'VALID'", "'SAME'", "'SAME_LOWER'", repr([(1, 0)] + [(0, 2)] * (nd - 1))]
            pads.append(repr([(-1, 2)] + [(1, -1)] * (nd - 1)))
            for pad in pads:
                for st in (one, two):
                    c.append(f"{cg}({x}, {w}, {st}, {pad}{kw})")
            ex = repr([(2, 1)] * nd)
            c += [
                f"{cg}({x}, {w}, {one}, {ex}, lhs_dilation={two}{kw})",
                f"{cg}({x}, {w}, {two}, {ex}, rhs_dilation={two}{kw})",
                f"{cg}({x}, {w}, {two}, {ex}, lhs_dilation={two}, rhs_dilation={two}{kw})",
                f"{cg}({x}, {w}, {one}, 'SAME', rhs_dilation={(2,) * nd}{kw})",
                f"{cg}({x}, {w}, {one}, 'SAME', lhs_dilation={two}{kw})",
            ]
    # ConvDimensionNumbers objects and their errors
    cdn = "lax.ConvDimensionNumbers"
    x, w = "CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))"
    c += [
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers={cdn}((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)))",
        f"{cg}(CA((1, 5, 4, 2)), CA((3, 2, 2, 3)), (1, 1), 'VALID', dimension_numbers={cdn}((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2)))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers={cdn}((0, 1, 3, 2), (0, 1, 3, 2), (0, 1, 2, 3)))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'OIHW'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'OIHW', 'NCH'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'OIHW', 'NCHX'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHH', 'OIHW', 'NCHW'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'OIHW', 'NCWH'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'OIWH', 'NCHW'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NCHW', 'IOHW', 'NCHW'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers='NCHW')",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers={cdn}((0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3)))",
        f"{cg}({x}, {w}, (1, 1), 'SAME', dimension_numbers={cdn}((0, 1, 2, 2), (0, 1, 2, 3), (0, 1, 2, 3)))",
        "lax.conv_dimension_numbers((1, 2, 5, 4), (3, 2, 3, 2), ('NCHW', 'OIHW', 'NCHW'))",
        "lax.conv_dimension_numbers((1, 5, 4, 2), (3, 2, 2, 3), ('NHWC', 'HWIO', 'NHWC'))",
        "lax.conv_dimension_numbers((1, 5, 4, 2), (3, 2, 2, 3), None)",
        "lax.conv_dimension_numbers((1, 5, 4, 2), (3, 2, 2), None)",
        "lax.conv_general_permutations(('NHWC', 'HWIO', 'NCHW'))",
        "lax.conv_general_permutations(('NHWC', 'HWIO', 'NCHWX'))",
        "lax.conv_general_permutations(('NHWC', 'HWOO', 'NCHW'))",
        "lax.conv_general_shape_tuple((1, 2, 5, 4), (3, 2, 3, 2), (1, 2), 'SAME', ('NCHW', 'OIHW', 'NCHW'))",
        "lax.conv_shape_tuple((1, 2, 5, 4), (3, 2, 3, 2), (2, 1), [(1, 1), (0, 0)])",
        "lax.conv_transpose_shape_tuple((1, 2, 5, 4), (3, 2, 3, 2), (2, 1), 'SAME', ('NCHW', 'OIHW', 'NCHW'))",
        "lax.padtype_to_pads((5, 4), (3, 2), (2, 1), 'SAME')",
        "lax.padtype_to_pads((5, 4), (3, 2), (2, 1), 'SAME_LOWER')",
        "lax.padtype_to_pads((5, 4), (3, 2), (2, 1), 'VALID')",
        "lax.padtype_to_pads((5, 4), (3, 2), (2, 1), 'FULL')",
        "lax.padtype_to_pads((5, 4), (3, 2), (2, 1), lax.PaddingType.SAME)",
    ]
    # groups
    x4 = "CA((2, 4, 4, 3))"
    c += [
        f"{cg}({x4}, CA((4, 2, 2, 2)), (1, 1), 'VALID', feature_group_count=2)",
        f"{cg}({x4}, CA((2, 2, 2, 2)), (1, 1), 'SAME', feature_group_count=2)",
        f"{cg}({x4}, CA((4, 1, 2, 2)), (1, 1), 'VALID', feature_group_count=4)",
        f"{cg}({x4}, CA((8, 1, 2, 2)), (2, 1), 'SAME', feature_group_count=4)",
        f"{cg}({x4}, CA((3, 2, 2, 2)), (1, 1), 'VALID', feature_group_count=2)",
        f"{cg}({x4}, CA((4, 4, 2, 2)), (1, 1), 'VALID', feature_group_count=2)",
        f"{cg}({x4}, CA((4, 2, 2, 2)), (1, 1), 'VALID', feature_group_count=3)",
        f"{cg}({x4}, CA((4, 2, 2, 2)), (1, 1), 'VALID', feature_group_count=0)",
        f"{cg}({x4}, CA((4, 4, 2, 2)), (1, 1), 'VALID', batch_group_count=2)",
        f"{cg}({x4}, CA((2, 4, 2, 2)), (1, 1), 'SAME', batch_group_count=2)",
        f"{cg}({x4}, CA((3, 4, 2, 2)), (1, 1), 'VALID', batch_group_count=2)",
        f"{cg}({x4}, CA((4, 4, 2, 2)), (1, 1), 'VALID', batch_group_count=3)",
        f"{cg}({x4}, CA((4, 4, 2, 2)), (1, 1), 'VALID', batch_group_count=0)",
        f"{cg}({x4}, CA((4, 2, 2, 2)), (1, 1), 'VALID', feature_group_count=2, batch_group_count=2)",
        f"{cg}(CA((2, 3, 4, 4)), CA((4, 3, 2, 2)), (1, 1), 'VALID', batch_group_count=2, rhs_dilation=(2, 1))",
        f"{cg}(CA((4, 2, 5)), CA((4, 2, 2)), (2,), [(1, 1)], batch_group_count=4, lhs_dilation=(2,))",
        f"{cg}(CA((2, 4, 5)), CA((6, 2, 3)), (1,), 'SAME', feature_group_count=2, lhs_dilation=(2,))",
        f"{cg}(CA((1, 5, 5, 4)), CA((2, 2, 2, 4)), (1, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), feature_group_count=2)",
        f"{cg}(CA((1, 5, 5, 4)), CA((2, 2, 1, 4)), (1, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), feature_group_count=4)",
        f"{cg}(CA((4, 5, 5, 2)), CA((2, 2, 2, 4)), (1, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), batch_group_count=2)",
    ]
    # dtypes, preferred_element_type, precision
    x, w = "CA((1, 2, 5, 4), {d})", "CA((3, 2, 3, 2), {d})"
    for d in (
        "jnp.int8",
        "jnp.int16",
        "jnp.int32",
        "jnp.uint8",
        "jnp.float16",
        "jnp.bfloat16",
        "jnp.float32",
        "jnp.float64",
        "jnp.bool_",
    ):
        c.append(f"{cg}({x.format(d=d)}, {w.format(d=d)}, (1, 1), 'SAME')")
    c += [
        f"{cg}(CC((1, 2, 5, 4)), CC((3, 2, 3, 2)), (1, 1), 'SAME')",
        f"{cg}(CC((1, 2, 5, 4)), CA((3, 2, 3, 2)), (1, 1), 'SAME')",
        f"{cg}(CC((1, 2, 5, 4)).astype(jnp.complex128), CC((3, 2, 3, 2)).astype(jnp.complex128), (2, 1), 'VALID')",
        f"{cg}({x.format(d='jnp.int8')}, {w.format(d='jnp.int8')}, (1, 1), 'SAME', preferred_element_type=jnp.int32)",
        f"{cg}({x.format(d='jnp.int8')}, {w.format(d='jnp.int8')}, (1, 1), 'SAME', preferred_element_type=jnp.float32)",
        f"{cg}({x.format(d='jnp.float16')}, {w.format(d='jnp.float16')}, (1, 1), 'SAME', preferred_element_type=jnp.float32)",
        f"{cg}({x.format(d='jnp.bfloat16')}, {w.format(d='jnp.bfloat16')}, (1, 1), 'SAME', preferred_element_type=jnp.float32)",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', preferred_element_type=jnp.float16)",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', preferred_element_type=jnp.int32)",
        f"{cg}({x.format(d='jnp.int32')}, {w.format(d='jnp.int32')}, (1, 1), 'SAME', preferred_element_type=jnp.int8)",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float16')}, (1, 1), 'SAME')",
        f"{cg}({x.format(d='jnp.int32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME')",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', precision='highest')",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', precision=lax.Precision.HIGH)",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', precision=(lax.Precision.DEFAULT, lax.Precision.HIGHEST))",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', precision='fastest')",
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', precision=3)",
        f"{cg}(np.ones((1, 2, 5, 4), np.float32), np.ones((3, 2, 3, 2), np.float32), (1, 1), 'SAME')",
        f"{cg}([[[1.0, 2.0]]], [[[1.0]]], (1,), 'VALID')",
    ]
    # shape and argument errors
    x, w = "CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))"
    c += [
        f"{cg}({x}, CA((3, 3, 3, 2)), (1, 1), 'SAME')",
        f"{cg}({x}, CA((3, 2, 3)), (1, 1), 'SAME')",
        f"{cg}(CA((2, 5, 4)), {w}, (1, 1), 'SAME')",
        f"{cg}({x}, CA((3, 2, 6, 2)), (1, 1), 'VALID')",
        f"{cg}({x}, {w}, (1, 1, 1), 'SAME')",
        f"{cg}({x}, {w}, (1, 0), 'SAME')",
        f"{cg}({x}, {w}, (1, -1), 'SAME')",
        f"{cg}({x}, {w}, (1, 1), [(1, 1)])",
        f"{cg}({x}, {w}, (1, 1), [(1, 1, 1), (0, 0)])",
        f"{cg}({x}, {w}, (1, 1), 'BOGUS')",
        f"{cg}({x}, {w}, (1, 1), 'same')",
        f"{cg}({x}, {w}, (1, 1), [(-3, 0), (0, 0)])",
        f"{cg}({x}, {w}, (1, 1), [(-5, 0), (0, 0)])",
        f"{cg}({x}, {w}, (1, 1), 'VALID', lhs_dilation=(1,))",
        f"{cg}({x}, {w}, (1, 1), 'VALID', lhs_dilation=(0, 1))",
        f"{cg}({x}, {w}, (1, 1), 'VALID', rhs_dilation=(1, 1, 1))",
        f"{cg}({x}, {w}, (1, 1), 'VALID', rhs_dilation=(0, 1))",
        f"{cg}({x}, {w}, (1, 1), 'VALID', rhs_dilation=(3, 1))",
        f"{cg}({x}, {w}, (1, 1), 'VALID', lhs_dilation=(1, 1), rhs_dilation=None)",
        f"{cg}({x}, {w}, [1, 1], ((1, 1), (0, 0)))",
        f"{cg}({x}, {w}, (1.0, 1), 'SAME')",
        f"{cg}(CA((1, 2, 0, 4)), {w}, (1, 1), 'SAME')",
        f"{cg}(CA((0, 2, 5, 4)), {w}, (1, 1), 'SAME')",
        f"{cg}({x}, CA((0, 2, 3, 2)), (1, 1), 'SAME')",
        f"{cg}(CA((1, 2)), CA((3, 2)), (), 'VALID')",
        f"{cg}(CA((2,)), CA((2,)), (), 'VALID')",
        f"lax.conv({x}, {w}, (1, 1), 'SAME')",
        f"lax.conv({x}, {w}, (2, 2), 'VALID', precision='highest')",
        "lax.conv(CA((1, 2, 5)), CA((3, 2, 2)), (1,), 'SAME')",
        f"lax.conv({x}, {w}, (1, 1), [(1, 1), (1, 1)])",
        f"lax.conv({x}, {w}, (1,), 'SAME')",
        f"lax.conv({x}, {w}, (1, 1), 'SAME', preferred_element_type=jnp.float16)",
        f"lax.conv_with_general_padding({x}, {w}, (1, 1), 'SAME', (2, 1), (1, 2))",
        f"lax.conv_with_general_padding({x}, {w}, (1, 2), [(1, 0), (0, 1)], None, (2, 1))",
        f"lax.conv_with_general_padding({x}, {w}, (2, 1), 'VALID', (1, 1), None)",
        "lax.conv_with_general_padding(CA((1, 2, 5)), CA((3, 2, 2)), (1,), [(0, 1)], (2,), (2,))",
        f"lax.conv_with_general_padding({x}, {w}, (1, 1), [(0, 1)], (1, 1), (1, 1))",
    ]
    # conv_transpose
    ct = "lax.conv_transpose"
    for nd, dn, xs, ws in [
        (1, ("NWC", "WIO", "NWC"), (1, 4, 2), (3, 2, 3)),
        (2, ("NHWC", "HWIO", "NHWC"), (1, 4, 3, 2), (3, 2, 2, 3)),
        (2, ("NCHW", "OIHW", "NCHW"), (1, 2, 4, 3), (3, 2, 3, 2)),
        (3, ("NDHWC", "DHWIO", "NDHWC"), (1, 3, 2, 2, 2), (2, 2, 2, 2, 3)),
    ]:
        x, w = f"CA({xs})", f"CA({ws})"
        one, two = (1,) * nd, (2,) + (1,) * (nd - 1)
        for pad in ("'SAME'", "'VALID'", repr([(1, 2)] * nd)):
            for st in (one, (2,) * nd):
                c.append(f"{ct}({x}, {w}, {st}, {pad}, dimension_numbers={dn!r})")
        c += [
            f"{ct}({x}, {w}, {two}, 'SAME', dimension_numbers={dn!r}, transpose_kernel=True)",
            f"{ct}({x}, {w}, {two}, 'VALID', rhs_dilation={two}, dimension_numbers={dn!r})",
            f"{ct}({x}, {w}, {two}, {[(0, 1)] * nd!r}, rhs_dilation={two}, dimension_numbers={dn!r}, transpose_kernel=True)",
        ]
    x, w = "CA((1, 4, 3, 2))", "CA((3, 2, 2, 3))"
    dn = "dimension_numbers=('NHWC', 'HWIO', 'NHWC')"
    c += [
        f"{ct}({x}, {w}, (2, 2), 'SAME', {dn}, use_consistent_padding=True)",
        f"{ct}({x}, {w}, (2, 1), 'VALID', {dn}, use_consistent_padding=True)",
        f"{ct}({x}, {w}, (2, 2), 'SAME_LOWER', {dn})",
        f"{ct}({x}, {w}, (2, 2), 'FULL', {dn})",
        f"{ct}({x}, {w}, (2, 2), 'SAME')",
        f"{ct}(CA((1, 4, 3, 3)), {w}, (2, 2), 'SAME', {dn})",
        f"{ct}({x}, {w}, (2,), 'SAME', {dn})",
        f"{ct}({x}.astype(jnp.float16), {w}.astype(jnp.float16), (2, 2), 'SAME', {dn})",
        f"{ct}({x}.astype(jnp.int32), {w}.astype(jnp.int32), (2, 2), 'SAME', {dn})",
        f"{ct}({x}, {w}, (2, 2), 'SAME', {dn}, preferred_element_type=jnp.float64)",
        f"{ct}(CA((1, 4, 3, 4)), CA((3, 2, 2, 3)), (1, 1), 'SAME', {dn}, transpose_kernel=True)",
        f"{ct}(CA((1, 4, 3, 3)), CA((3, 2, 2, 3)), (1, 1), 'SAME', {dn}, transpose_kernel=True)",
    ]
    # grads (jvp/vjp values) and vmap over convs
    conf = [
        ("CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))", "(1, 1), 'SAME'"),
        ("CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))", "(2, 1), [(1, 0), (0, 2)]"),
        ("CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))", "(1, 2), [(2, 1), (1, 0)], lhs_dilation=(2, 1)"),
        ("CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))", "(2, 1), 'VALID', rhs_dilation=(1, 2)"),
        ("CA((1, 2, 5, 4))", "CA((3, 2, 3, 2))", "(1, 1), [(-1, 1), (1, -1)]"),
        ("CA((2, 4, 4, 3))", "CA((4, 2, 2, 2))", "(1, 1), 'SAME', feature_group_count=2"),
        ("CA((2, 4, 4, 3))", "CA((4, 4, 2, 2))", "(1, 1), 'VALID', batch_group_count=2"),
        (
            "CA((1, 5, 4, 2))",
            "CA((3, 2, 2, 3))",
            "(1, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC')",
        ),
        ("CA((2, 2, 6))", "CA((3, 2, 3))", "(2,), 'SAME_LOWER'"),
        ("CA((1, 2, 4, 3, 3))", "CA((2, 2, 2, 2, 2))", "(1, 1, 1), 'SAME'"),
        ("CA((1, 2, 5, 4), jnp.float16)", "CA((3, 2, 3, 2), jnp.float16)", "(1, 1), 'SAME'"),
        ("CC((1, 2, 5, 4))", "CC((3, 2, 3, 2))", "(1, 1), 'VALID'"),
    ]
    for x, w, rest in conf:
        f = f"lambda x, w: {cg}(x, w, {rest})"
        c += [
            f"jax.grad(lambda x, w: jnp.sum(jnp.sin({cg}(x, w, {rest}).real)), argnums=(0, 1))({x}, {w})",
            f"jax.jvp({f}, ({x}, {w}), ({x} * 0.5 + 1, {w}[::-1]))",
            f"out, f_vjp = jax.vjp({f}, {x}, {w})\nout = out, f_vjp(jnp.cos(out))",
            f"jax.vmap({f}, in_axes=(0, None))(jnp.stack([{x}, {x} * 2]), {w})",
            f"jax.vmap({f}, in_axes=(None, 0))({x}, jnp.stack([{w}, {w} * 2]))",
            f"jax.vmap({f}, in_axes=(1, 1))(jnp.stack([{x}, -{x}], 1), jnp.stack([{w}, {w} + 1], 1))",
        ]
    c += [
        f"jax.grad(lambda x, w: jnp.sum(jnp.sin({ct}(x, w, (2, 2), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), transpose_kernel=True))), argnums=(0, 1))(CA((1, 4, 3, 2)), CA((3, 2, 3, 2)))",
        f"jax.vmap(lambda x: {ct}(x, CA((3, 2, 2, 3)), (2, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC')))(CA((2, 1, 4, 3, 2)))",
        "jax.hessian(lambda w: jnp.sum(lax.conv(CA((1, 2, 4, 3)), w, (1, 1), 'SAME') ** 2))(CA((1, 2, 2, 1)))",
        "jax.jacfwd(lambda x: lax.conv(x, CA((1, 1, 2)), (1,), 'VALID'))(CA((1, 1, 4)))",
        "jax.jacrev(lambda x: lax.conv(x, CA((1, 1, 2)), (1,), 'VALID'))(CA((1, 1, 4)))",
        "jax.grad(lambda x: jnp.sum(lax.conv(x, CA((3, 2, 3, 2), jnp.int32), (1, 1), 'SAME')))(CA((1, 2, 5, 4)))",
        "jax.grad(lambda x: jnp.sum(lax.conv(x, CA((3, 2, 3, 2)), (1, 1), 'SAME', preferred_element_type=jnp.float64)))(CA((1, 2, 5, 4)))",
    ]
    # jnp.convolve/correlate
    a, b = "CA((6,))", "CA((3,), k=3)"
    for f in ("convolve", "correlate"):
        for m in ("'full'", "'same'", "'valid'"):
            c += [f"jnp.{f}({a}, {b}, mode={m})", f"jnp.{f}({b}, {a}, mode={m})"]
            c += [
                f"jnp.{f}(CA((4,)), CA((4,), k=3), mode={m})",
                f"jnp.{f}(CA((5,)), CA((2,), k=3), mode={m})",
            ]
            c += [f"jnp.{f}(CC((4,)), CC((3,)), mode={m})"]
        c += [
            f"jnp.{f}(CA((6,), jnp.int8), CA((3,), jnp.int8))",
            f"jnp.{f}(CA((6,), jnp.int32), CA((3,), jnp.float16))",
            f"jnp.{f}(CA((6,), jnp.bfloat16), CA((3,), jnp.bfloat16))",
            f"jnp.{f}(CA((6,), jnp.uint8), CA((3,), jnp.int8))",
            f"jnp.{f}({a}, {b}, preferred_element_type=jnp.float64)",
            f"jnp.{f}(CA((6,), jnp.int8), CA((3,), jnp.int8), preferred_element_type=jnp.int32)",
            f"jnp.{f}({a}, 2.0)",
            f"jnp.{f}([1.0, 2.0], [1, 2, 3])",
            f"jnp.{f}({a}, jnp.ones((2, 1)))",
            f"jnp.{f}(jnp.array([]), {a})",
            f"jnp.{f}({a}, {b}, mode='FULL')",
            f"jax.grad(lambda a, b: jnp.sum(jnp.sin(jnp.{f}(a, b, mode='same'))), argnums=(0, 1))({a}, {b})",
            f"jax.jvp(lambda a: jnp.{f}(a, {b}), ({a},), (jnp.ones(6),))",
            f"jax.vmap(jnp.{f}, in_axes=(0, None))(CA((2, 6)), {b})",
            f"jax.vmap(lambda a, b: jnp.{f}(a, b, mode='valid'))(CA((2, 6)), CA((2, 3), k=3))",
        ]
    # jax.scipy.signal
    sig = "jsp.signal"
    for f in ("convolve", "correlate"):
        for m in ("'full'", "'same'", "'valid'"):
            for meth in ("'direct'", "'fft'", "'auto'"):
                # FFT results are rounded: their last bits (and zeros) are the FFT library's
                call = f"{sig}.{f}(CA((5, 4)), CA((2, 3), k=3), mode={m}, method={meth})"
                c.append(f"jnp.round({call}, 4)" if meth == "'fft'" else call)
            c += [
                f"{sig}.{f}(CA((6,)), CA((3,), k=3), mode={m})",
                f"{sig}.{f}(CA((3,)), CA((5,), k=3), mode={m})",
                f"{sig}.{f}(CA((3, 3, 4)), CA((2, 2, 2), k=3), mode={m})",
                f"{sig}.{f}(CC((4, 3)), CC((2, 2)), mode={m})",
                f"{sig}.{f}(CA((4, 3), jnp.int32), CA((2, 2), jnp.int32), mode={m})",
            ]
        c += [
            f"{sig}.{f}(CA((4, 3)), CA((2, 4), k=3), mode='valid')",
            f"{sig}.{f}(CA((4, 3)), CA((3,), k=3))",
            f"{sig}.{f}(CA((4, 3)), CA((2, 2)), mode='bogus')",
            f"{sig}.{f}(CA((4, 3)), CA((2, 2)), method='bogus')",
            f"{sig}.{f}(CA((4, 3), jnp.float16), CA((2, 2)), method='direct')",
            f"jnp.round({sig}.{f}(CA((4, 3), jnp.int8), CA((2, 2), jnp.int8), method='fft'), 4)",
            f"{sig}.{f}(CA((4, 3)), CA((2, 2)), precision='highest')",
            f"jax.grad(lambda a: jnp.sum({sig}.{f}(a, CA((2, 2), k=3), mode='same') ** 2))(CA((4, 3)))",
        ]
        f2 = f + "2d"
        for m in ("'full'", "'same'", "'valid'"):
            for bd in ("'fill'", "'wrap'", "'symm'"):
                c.append(f"{sig}.{f2}(CA((4, 5)), CA((2, 3), k=3), mode={m}, boundary={bd})")
        c += [
            f"{sig}.{f2}(CA((4, 5)), CA((2, 3), k=3), fillvalue=1.5)",
            f"{sig}.{f2}(CA((4, 5)), CA((2, 3), k=3), boundary='bogus')",
            f"{sig}.{f2}(CA((4, 5)), CA((2, 3), k=3), mode='bogus')",
            f"{sig}.{f2}(CA((2, 4, 5)), CA((2, 3), k=3))",
            f"{sig}.{f2}(CA((2, 3)), CA((4, 5), k=3), mode='valid')",
            f"{sig}.{f2}(CC((3, 3)), CC((2, 2)))",
            f"{sig}.{f2}(CA((3, 3), jnp.int32), CA((2, 2), jnp.int32))",
        ]
    # reduce_window
    rw = "lax.reduce_window"
    x = "CA((2, 5, 4))"
    for init, op in (
        ("0.0", "lax.add"),
        ("-jnp.inf", "lax.max"),
        ("jnp.inf", "lax.min"),
        ("1.0", "lax.mul"),
    ):
        for pad in ("'VALID'", "'SAME'", "[(0, 0), (1, 2), (2, 0)]"):
            c.append(f"{rw}({x}, {init}, {op}, (1, 3, 2), (1, 2, 1), {pad})")
        c += [
            f"{rw}({x}, {init}, {op}, (1, 2, 2), (1, 1, 1), 'VALID', base_dilation=(1, 2, 1))",
            f"{rw}({x}, {init}, {op}, (2, 2, 2), (1, 1, 2), [(1, 0), (0, 1), (1, 1)], base_dilation=(2, 1, 2), window_dilation=(1, 2, 1))",
            f"{rw}({x}, {init}, {op}, (1, 2, 2), None, 'SAME_LOWER')",
        ]
    c += [
        f"{rw}({x}, 1.0, lax.add, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.max, (1, 2, 2), (1, 1, 1), [(0, 0), (1, 1), (1, 1)])",
        f"{rw}({x}, 0.0, lambda a, b: jnp.maximum(a, b), (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}({x}, 0.0, lambda a, b: a + b * b, (1, 2, 2), (1, 2, 2), 'VALID')",
        f"{rw}({x}, 0.0, lambda a, b: a - b, (1, 1, 2), (1, 1, 2), 'VALID')",
        f"{rw}(CA((2, 5, 4), jnp.int32), 0, lax.add, (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}(CA((2, 5, 4), jnp.int8), jnp.int8(-128), lax.max, (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}(CA((2, 5, 4), jnp.int32), 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}(CA((2, 5, 4), jnp.float16), jnp.float16(0), lax.add, (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}(CA((2, 5, 4), jnp.bfloat16), -jnp.inf, lax.max, (1, 2, 2), (1, 1, 1), 'SAME')",
        f"{rw}(CC((2, 5, 4)), 0j, lax.add, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}(CA((2, 5, 4)) > 0, False, lax.bitwise_or, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}(CA((2, 5, 4)) > 0, True, lax.bitwise_and, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}((CA((5,)), CA((5,), jnp.int32)), (-jnp.inf, 0), lambda a, b: (lax.max(a[0], b[0]), a[1] + b[1]), (2,), (1,), 'VALID')",
        f"{rw}((CA((5,)), CA((5,), k=3)), (-jnp.inf, 0.0), lambda a, b: (lax.max(a[0], b[0]), lax.select(a[0] >= b[0], a[1], b[1])), (3,), (1,), 'SAME')",
        f"{rw}({x}, 0.0, lax.add, (1, 2), (1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1, 1), [(0, 0)])",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 0, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 0, 2), (1, 1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 9, 2), (1, 1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'VALID', base_dilation=(1, 0, 1))",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'VALID', window_dilation=(1, 1))",
        f"{rw}({x}, jnp.zeros(2), lax.add, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}({x}, 0, lax.add, (1, 2, 2), (1, 1, 1), 'VALID')",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'BOGUS')",
        f"{rw}({x}, 0.0, lax.add, (1, 2, 2), (1, 1, 1), [(0, 0), (-1, 0), (0, -1)])",
        f"{rw}({x}, 0.0, lambda a, b: (a, b), (1, 2, 2), (1, 1, 1), 'VALID')",
        f"jax.grad(lambda x: jnp.sum(jnp.sin({rw}(x, 0.0, lax.add, (1, 2, 2), (1, 2, 1), [(0, 0), (1, 1), (0, 1)]))))({x})",
        f"jax.grad(lambda x: jnp.sum(jnp.sin({rw}(x, -jnp.inf, lax.max, (1, 2, 2), (1, 1, 1), 'SAME'))))({x})",
        f"jax.grad(lambda x: jnp.sum(jnp.sin({rw}(x, jnp.inf, lax.min, (1, 3, 2), (1, 2, 1), 'VALID'))))({x})",
        f"jax.grad(lambda x: jnp.sum({rw}(x, 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'VALID', base_dilation=(1, 2, 1), window_dilation=(1, 1, 2))))({x})",
        f"jax.grad(lambda x: jnp.sum({rw}(x, 1.0, lax.mul, (1, 2, 1), (1, 1, 1), 'VALID')))({x})",
        f"jax.jvp(lambda x: {rw}(x, -jnp.inf, lax.max, (1, 2, 2), (1, 1, 1), 'VALID'), ({x},), (CA((2, 5, 4), k=3),))",
        f"jax.jvp(lambda x: {rw}(x, 0.0, lax.add, (1, 2, 2), (1, 2, 1), 'SAME'), ({x},), (CA((2, 5, 4), k=3),))",
        f"jax.vmap(lambda x: {rw}(x, 0.0, lax.add, (2, 2), (1, 1), 'VALID'))({x})",
        f"jax.vmap(lambda x: {rw}(x, -jnp.inf, lax.max, (2, 2), (1, 2), 'SAME'), in_axes=2)({x})",
        f"jax.vmap(lambda x: {rw}(x, 0.0, lambda a, b: a + 2 * b, (2,), (1,), 'VALID'))(CA((3, 4)))",
        "lax.reduce_window_shape_tuple((2, 5, 4), (1, 3, 2), (1, 2, 1), [(0, 0), (1, 1), (0, 0)])",
    ]
    # cumulative reductions
    cx = "CA((3, 4))"
    for f in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"):
        for ax, rev in ((0, False), (1, True), (-1, False), (0, True)):
            c.append(f"lax.{f}({cx}, axis={ax}, reverse={rev})")
        c += [
            f"lax.{f}(FNAN(), reverse=True)",
            f"lax.{f}(CA((3, 4), jnp.int8), axis=1)",
            f"lax.{f}(CA((3, 4), jnp.float16), axis=1, reverse=True)",
            f"lax.{f}(CA((3, 4), jnp.bfloat16), axis=0)",
            f"lax.{f}(jnp.zeros((0, 3)), axis=0)",
            f"lax.{f}({cx}, axis=-3)",
            f"jax.grad(lambda x: jnp.sum(jnp.sin(lax.{f}(x, axis=1, reverse=True))))({cx})",
            f"jax.jvp(lambda x: lax.{f}(x, axis=0), ({cx},), (CA((3, 4), k=3),))",
            f"jax.vmap(lambda x: lax.{f}(x, reverse=True), in_axes=1)({cx})",
        ]
    c += [
        "lax.cumsum(CA((3, 4), jnp.uint8), axis=0)",
        "lax.cumprod(CA((3, 4), jnp.int32) + 6, axis=1)",
        "lax.cummax(CA((3, 4)) > 0, axis=1)",
        "lax.cumsum(CC((3, 4)), axis=1, reverse=True)",
        "lax.cumprod(CC((3, 4)), axis=0)",
        "lax.cummax(CC((3, 4)), axis=0)",
        "lax.cumlogsumexp(CC((3, 4)), axis=0)",
        "lax.cumsum(3.0)",
        "jnp.cumsum(CA((3, 4), jnp.int8), axis=1)",
        "jnp.cumprod(CA((3, 4), jnp.int16), axis=0, dtype=jnp.float32)",
        "jnp.cumsum(CA((3, 4)) > 0)",
        "jnp.cumulative_prod(CA((3, 4)), axis=1, include_initial=True)",
        "jnp.nancumsum(FNAN())",
    ]
    # lax.sort
    k = "jnp.array([2, 1, 2, 0, 1, 2])"
    k2 = "jnp.array([1, 1, 0, 0, 1, 0])"
    v = "jnp.arange(6.0)"
    for stable in (True, False):
        c += [
            f"lax.sort(({k}, {k2}, {v}), num_keys=1, is_stable={stable})",
            f"lax.sort(({k}, {k2}, {v}), num_keys=2, is_stable={stable})",
            f"lax.sort(({k}, {v}), num_keys=1, is_stable={stable})",
            f"lax.sort(FNAN(), is_stable={stable})",
            f"lax.sort((FNAN(), jnp.arange(10)), is_stable={stable})",
        ]
    c += [
        f"lax.sort(({k}, {k2}, {v}), num_keys=3)",
        f"lax.sort(({k}, {k2}, {v}), num_keys=4)",
        f"lax.sort(({k}, jnp.arange(5.0)), num_keys=1)",
        "lax.sort((), num_keys=1)",
        f"lax.sort({k}, num_keys=2)",
        f"lax.sort({k}, dimension=-2)",
        "lax.sort(CA((3, 4)), dimension=0)",
        "lax.sort((CA((3, 4)), CA((3, 4), jnp.int32, k=3)), dimension=0, num_keys=1)",
        "lax.sort(CA((3, 4), jnp.float16), dimension=1)",
        "lax.sort(CA((3, 4), jnp.bfloat16), dimension=1)",
        "lax.sort(CA((3, 4), jnp.uint8), dimension=1)",
        "lax.sort(jnp.array([-128, 127, 0, -1], jnp.int8))",
        "lax.sort(jnp.array([3 + 1j, 3 - 1j, jnp.nan, 1 + jnp.nan * 1j, -1 + 0j]))",
        "lax.sort(jnp.float32(2.0))",
        "lax.sort_key_val(FNAN(), jnp.arange(10), is_stable=True)",
        "lax.sort_key_val(CA((3, 4)), CA((3, 4), k=3), dimension=0)",
        "lax.sort_key_val(CA((3, 4)), CA((3,)))",
        "jax.grad(lambda x: jnp.sum(jnp.sin(lax.sort(x)) * jnp.arange(6.0)))(CA((6,), k=3))",
        "jax.grad(lambda x, y: jnp.sum(lax.sort((x, y), num_keys=1)[1] * jnp.arange(6.0)), argnums=(0, 1))(CA((6,), k=3), CA((6,)))",
        "jax.jvp(lambda x: lax.sort(x, dimension=0), (CA((3, 4)),), (CA((3, 4), k=3),))",
        "jax.vmap(lambda x: lax.sort(x))(CA((3, 4)))",
        "jax.vmap(lambda x, y: lax.sort((x, y), num_keys=1), in_axes=(1, 1))(CA((3, 4)), CA((3, 4), k=3))",
    ]
    # jnp.sort / argsort
    for f in ("sort", "argsort"):
        for stable in (True, False):
            for desc in (False, True):
                c.append(f"jnp.{f}(FNAN(), stable={stable}, descending={desc})")
                c.append(
                    f"jnp.{f}(jnp.array([2, 1, 2, 0, 1, 2]), stable={stable}, descending={desc})"
                )
        c += [
            f"jnp.{f}(CA((3, 4)), axis=0, descending=True)",
            f"jnp.{f}(CA((3, 4)), axis=None)",
            f"jnp.{f}(CA((3, 4)), axis=-2)",
            f"jnp.{f}(CA((3, 4)), axis=2)",
            f"jnp.{f}(CA((3, 4)), kind='quicksort')",
            f"jnp.{f}(CA((3, 4)), order='a')",
            f"jnp.{f}(jnp.array([True, False, True, False]), descending=True)",
            f"jnp.{f}(jnp.array([1 + 1j, 1 - 1j, jnp.nan, -1j]))",
            f"jnp.{f}(jnp.array([0.0, -0.0, 0.0, -0.0], jnp.float16))",
            f"jnp.{f}(jnp.float32(1.0))",
            f"jnp.{f}(jnp.array([], jnp.int32))",
            f"jnp.{f}([3, 1, 2])",
            f"jax.vmap(lambda x: jnp.{f}(x, descending=True))(CA((3, 4)))",
        ]
    c += [
        "jnp.argsort(CA((3, 4)), dtype=jnp.int8)",
        "jnp.argsort(CA((3, 4)), dtype=jnp.float32)",
        "jnp.sort_complex(jnp.array([1 + 1j, 1 - 1j, -1j, 2]))",
        "jnp.sort_complex(jnp.array([3, 1, 2], jnp.int8))",
        "jax.grad(lambda x: jnp.sum(jnp.sort(x, descending=True) * jnp.arange(6.0)))(CA((6,), k=3))",
        "jnp.lexsort((FNAN(), jnp.arange(10) % 3))",
        "jnp.sort(CA((3, 4)), axis=0, stable=True)",
    ]
    # top_k
    for x in (
        "FNAN()",
        "jnp.array([2, 1, 2, 0, 1, 2])",
        "CA((3, 4))",
        "CA((3, 4), jnp.float16)",
        "CA((3, 4), jnp.int8)",
    ):
        for kk in (1, 3):
            c.append(f"lax.top_k({x}, {kk})")
    c += [
        "lax.top_k(CA((3, 4)), 2, axis=0)",
        "lax.top_k(CA((3, 4)), 2, axis=-2)",
        "lax.top_k(CA((3, 4)), 2, axis=2)",
        "lax.top_k(CA((3, 4)), 5)",
        "lax.top_k(CA((3, 4)), 4)",
        # k=2.0 is left out: JAX 0.10.2 caches top_k's abstract evaluation on k, and 2.0 == 2
        # made the later k=2 calls raise its float error too
        "lax.top_k(CA((3, 4)), jnp.int32(2))",
        "lax.top_k(jnp.array([0.0, -0.0, 0.0, -0.0]), 2)",
        "lax.top_k(jnp.array([3 + 1j, 1j]), 1)",
        "lax.top_k(jnp.array([True, False, True]), 1)",
        "lax.top_k(jnp.array([255, 0, 7], jnp.uint8), 2)",
        "jax.grad(lambda x: jnp.sum(jnp.sin(lax.top_k(x, 2)[0])))(CA((3, 4)))",
        "jax.jvp(lambda x: lax.top_k(x, 2), (CA((3, 4)),), (CA((3, 4), k=3),))",
        "jax.vmap(lambda x: lax.top_k(x, 2), in_axes=1)(CA((3, 4)))",
    ]
    # argmax/argmin
    for f in ("argmax", "argmin", "nanargmax", "nanargmin"):
        c += [
            f"jnp.{f}(FNAN())",
            f"jnp.{f}(jnp.array([jnp.nan, jnp.nan]))",
            f"jnp.{f}(jnp.array([1.0, 1.0, 0.0, 1.0]))",
            f"jnp.{f}(jnp.array([[jnp.nan, 1.0], [1.0, jnp.nan], [2.0, 2.0]]), axis=1)",
            f"jnp.{f}(jnp.array([[jnp.nan, 1.0], [1.0, jnp.nan], [2.0, 2.0]]), axis=0, keepdims=True)",
            f"jnp.{f}(jnp.array([-0.0, 0.0, -0.0]))",
            f"jnp.{f}(jnp.array([1 + 1j, 1 + 2j, 1 + 2j]))",
            f"jnp.{f}(jnp.array([True, False, True]))",
            f"jnp.{f}(CA((3, 4), jnp.int8), axis=-1)",
            f"jnp.{f}(jnp.zeros((0, 3)), axis=1)",
            f"jnp.{f}(jnp.zeros((0, 3)), axis=0)",
            f"jnp.{f}(CA((3, 4)), axis=2)",
        ]
    c += [
        "jnp.argmax(CA((3, 4)), out=jnp.zeros(4))",
        "jnp.argmax(CA((3, 4), jnp.float16), keepdims=True)",
        "jnp.argmin(CA((3, 4), jnp.bfloat16), axis=0)",
        "lax.argmax(FNAN(), 0, jnp.int8)",
        "lax.argmin(FNAN(), 0, jnp.int32)",
        "lax.argmax(FNAN(), 1, jnp.int32)",
        "lax.argmax(FNAN(), 0, jnp.float32)",
        "jax.vmap(jnp.argmax)(jnp.array([[jnp.nan, 1.0], [1.0, 2.0]]))",
        "jax.grad(lambda x: x[jnp.argmax(x)])(CA((6,), k=3))",
    ]
    # searchsorted
    sv = "jnp.array([-1.0, 0.0, -0.0, 1.0, 1.5, jnp.nan, jnp.inf])"
    for a in (
        "jnp.array([-0.0, 0.0, 1.0, 1.0, 2.0])",
        "jnp.array([1, 1, 2, 3, 3])",
        "jnp.array([0.0, 1.0, jnp.nan, jnp.nan])",
    ):
        for side in ("'left'", "'right'"):
            for meth in ("'scan'", "'scan_unrolled'", "'sort'", "'compare_all'"):
                c.append(f"jnp.searchsorted({a}, {sv}, side={side}, method={meth})")
    c += [
        "jnp.searchsorted(jnp.array([1, 2, 3]), jnp.array([[0, 2], [3, 4]]))",
        "jnp.searchsorted(jnp.array([1, 2, 3], jnp.int8), jnp.array([1.5, 2.5]), side='right')",
        "jnp.searchsorted(jnp.array([1, 2, 3], jnp.uint8), jnp.array([-1, 256]))",
        "jnp.searchsorted(jnp.array([1.0, 2.0, 3.0], jnp.float16), 2.0)",
        "jnp.searchsorted(jnp.array([1 + 1j, 1 + 2j, 2 + 0j]), jnp.array([1 + 1.5j, 3j]))",
        "jnp.searchsorted(jnp.array([True, True]), False)",
        "jnp.searchsorted(jnp.array([3.0, 2.0, 1.0]), 2.0, sorter=jnp.array([2, 1, 0]), side='right')",
        "jnp.searchsorted(jnp.array([3.0, 2.0, 1.0]), 2.0, sorter=jnp.array([2, 1]))",
        "jnp.searchsorted(jnp.array([1.0, 2.0]), 2.0, side='LEFT')",
        "jnp.searchsorted(1.0, 2.0)",
        "jax.vmap(lambda a, v: jnp.searchsorted(a, v))(jnp.array([[1.0, 2.0, 3.0], [0.0, 5.0, 9.0]]), jnp.array([2.5, 5.0]))",
        "jax.vmap(lambda v: jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), v, side='right', method='sort'))(jnp.array([[2.0, 0.0], [3.0, 3.5]]))",
        "jax.grad(lambda v: jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), v).astype(float) * v)(2.5)",
        "jnp.digitize(jnp.array([0.5, 1.0, 2.5]), jnp.array([1.0, 2.0, 3.0]), right=True)",
        "jnp.digitize(jnp.array([0.5, 1.0, 2.5]), jnp.array([3.0, 2.0, 1.0]))",
    ]
    # Flax pooling
    xp = "CA((2, 5, 4, 2))"
    for pad in ("'VALID'", "'SAME'", "((1, 1), (0, 2))", "[(2, 0), (1, 1)]"):
        for st in ("None", "(2, 1)", "(2, 2)"):
            c.append(f"fnn.max_pool({xp}, (2, 3), strides={st}, padding={pad})")
        for cip in (True, False):
            c.append(
                f"fnn.avg_pool({xp}, (3, 2), strides=(2, 1), padding={pad}, count_include_pad={cip})"
            )
    c += [
        "fnn.avg_pool(CA((2, 5, 2)), (3,), padding='SAME', count_include_pad=False)",
        "fnn.max_pool(CA((5, 4, 2)), (2, 2), padding='SAME')",
        "fnn.max_pool(CA((1, 3, 3, 3, 2)), (2, 2, 2), strides=(1, 2, 1), padding='SAME')",
        "fnn.avg_pool(CA((1, 3, 3, 3, 2)), (2, 2, 2), padding=((1, 0), (0, 1), (1, 1)), count_include_pad=False)",
        "fnn.max_pool(CA((2, 5, 4, 2), jnp.int32), (2, 2), padding='SAME')",
        "fnn.avg_pool(CA((2, 5, 4, 2), jnp.int32), (2, 2))",
        "fnn.avg_pool(CA((2, 5, 4, 2), jnp.float16), (2, 2), padding='SAME', count_include_pad=False)",
        "fnn.min_pool(CA((2, 5, 4, 2)), (2, 3), strides=(1, 2), padding='SAME')",
        "fnn.pool(CA((2, 5, 4, 2)), 0.0, lambda a, b: a + jnp.abs(b), (2, 2), (1, 1), 'VALID')",
        "fnn.max_pool(CA((2, 5, 4, 2)), (2, 2), padding='CAUSAL')",
        "fnn.max_pool(CA((2, 5, 4, 2)), (2, 2), padding='BOGUS')",
        "fnn.max_pool(CA((2, 5, 4, 2)), (2, 2), strides=(1,))",
        "fnn.max_pool(CA((2, 5, 4, 2)), (2, 2, 2))",
        "fnn.max_pool(CA((2, 5, 4, 2)), [2, 2])",
        "fnn.avg_pool(CA((2, 5, 4, 2)), (2, 2), padding=((1, 1),))",
        "jax.grad(lambda x: jnp.sum(jnp.sin(fnn.avg_pool(x, (2, 2), padding='SAME', count_include_pad=False))))(CA((1, 3, 3, 1)))",
        "jax.grad(lambda x: jnp.sum(jnp.sin(fnn.max_pool(x, (2, 2), strides=(1, 1), padding='SAME'))))(CA((1, 3, 3, 1)))",
    ]
    return c
