"""jnp calls whose results differed from JAX's in the generated `jnp_grid` differential area
(tools/jax_differential/areas/jnp_grid.py), with the answers JAX 0.10.2 gave as literals: a
value as (dtype, weak type, shape, values), an error as ("raises", JAX's class, its first
line). numbax's class may subclass JAX's (AxisError is a ValueError, ShapeError a TypeError)."""

# ruff: noqa: E501

import math

import numpy as np
import pytest

import core as jax  # noqa: F401 (the sources use it)
import core.numpy as jnp  # noqa: F401

inf, nan = math.inf, math.nan

# (source, JAX 0.10.2's answer)
CASES = [
    # jnp_grid_jit and jnp_grid_x64 (session 34)
    (
        "jax.jit(jnp.logical_and)(jnp.array([nan, 0, 1.5], jnp.float16), jnp.array([1j, 0, 2], jnp.complex64))",
        ("bool", False, (3,), [True, False, True]),
    ),
    (
        "jax.jit(lambda x: jnp.nanmedian(x, axis=1.0))(jnp.ones((2, 3)))",
        ("raises", "TypeError", "'float' object cannot be interpreted as an integer"),
    ),
    (
        "jnp.median(jnp.ones((2, 3)), axis=1.0)",
        ("raises", "TypeError", "'float' object cannot be interpreted as an integer"),
    ),
    (
        "jnp.quantile(jnp.ones((2, 3)), 0.5, axis=1.0)",
        ("raises", "TypeError", "'float' object cannot be interpreted as an integer"),
    ),
    *[
        (f"jnp.{f}(jnp.ones((2, 3)), axis=(0, 0))", ("raises", "ValueError", "repeated axis"))
        for f in ("median", "nanmedian")
    ],
    (
        "jnp.nanquantile(jnp.ones((2, 3)), 0.5, axis=(1, -1))",
        ("raises", "ValueError", "repeated axis"),
    ),
    *[
        (
            f"jax.jit(jnp.{f})(jnp.ones((2, 4), jnp.int8))",
            (
                "raises",
                "ConcretizationTypeError",
                "Abstract tracer value encountered where concrete value is expected: traced array with shape int8[2,4]",
            ),
        )
        for f in ("unique_counts", "unique_inverse", "unique_all", "unique_values")
    ],
    *[
        (
            f"jax.jit(jnp.{f})(jnp.ones((3,), jnp.int16), jnp.ones((2,), jnp.float16))",
            (
                "raises",
                "ConcretizationTypeError",
                "Abstract tracer value encountered where concrete value is expected: traced array with shape float16[3]",
            ),
        )
        for f in ("intersect1d", "setxor1d")
    ],
    # reductions (_util.reduction_axes, reductions)
    (
        "jnp.sum(jnp.ones((2, 3)), axis=1.0)",
        ("raises", "TypeError", "'float' object is not iterable"),
    ),
    (
        "jnp.max(jnp.ones((2, 3)), axis=(0, 1.0))",
        ("raises", "TypeError", "'float' object cannot be interpreted as an integer"),
    ),
    (
        "jnp.sum(jnp.float32(2), axis=0)",
        ("raises", "ValueError", "axis 0 is out of bounds for array of dimension 0"),
    ),
    (
        "jnp.prod(jnp.int8(2), axis=-1)",
        ("raises", "ValueError", "axis -1 is out of bounds for array of dimension 0"),
    ),
    (
        "jnp.all(jnp.float32(2), axis=0)",
        ("raises", "ValueError", "axis 0 is out of bounds for array of dimension 0"),
    ),
    (
        "jnp.cumsum(jnp.array([0.0, 1.0, -1.0]), dtype=bool)",
        ("bool", False, (3,), [False, True, True]),
    ),
    (
        "jnp.cumprod(jnp.array([0.5, 0.0, 2.0]), dtype=bool)",
        ("bool", False, (3,), [True, False, False]),
    ),
    (
        "jnp.nancumsum(jnp.array([0.0, jnp.nan, 2.0]), dtype=bool)",
        ("bool", False, (3,), [False, False, True]),
    ),
    (
        "jnp.cumulative_sum(jnp.array([0, 1, -1], jnp.int8), dtype=bool, include_initial=True)",
        ("bool", False, (4,), [False, False, True, True]),
    ),
    (
        "jax.jit(lambda x: jnp.cumsum(x, dtype=bool))(jnp.array([0.0, 1.0, -1.0]))",
        ("bool", False, (3,), [False, True, True]),
    ),
    ("jnp.nanmax(jnp.zeros((2, 0)), axis=1, initial=0.5)", ("float32", False, (2,), [0.5, 0.5])),
    ("jnp.nanmin(jnp.array([jnp.nan, jnp.nan, 1.0]), initial=0.5)", ("float32", False, (), 0.5)),
    ("jnp.nanmin(jnp.array([jnp.nan, jnp.nan]), initial=0.5)", ("float32", False, (), 0.5)),
    ("jnp.var(jnp.arange(4, dtype=jnp.int8), dtype=jnp.int32)", ("float32", True, (), 1.0)),
    (
        "jnp.var(jnp.array([3, 1, 4, 1], jnp.uint8), axis=0, dtype=jnp.uint8)",
        ("float32", True, (), 1.0),
    ),
    (
        "jnp.nanstd(jnp.ones(3), correction=1)",
        ("raises", "TypeError", "nanstd() got an unexpected keyword argument 'correction'"),
    ),
    (
        "jnp.average(jnp.ones((2, 3)), axis=0, weights=jnp.ones(3))",
        (
            "raises",
            "ValueError",
            "Shape of weights must be consistent with shape of a along specified axis.",
        ),
    ),
    (
        "jnp.sum(jnp.ones((2, 3)), where=jnp.ones((2, 2), bool))",
        (
            "raises",
            "ValueError",
            "Incompatible shapes for broadcasting: shapes=[(2, 2), (2, 3), ()]",
        ),
    ),
    (
        "jnp.all(jnp.ones((2, 3)), axis=1, where=jnp.ones((2, 2), bool))",
        (
            "raises",
            "ValueError",
            "Incompatible shapes for broadcasting: shapes=[(2, 2), (2, 3), ()]",
        ),
    ),
    (
        "jnp.nanmean(jnp.ones((2, 3)), where=jnp.ones((2, 2), bool))",
        (
            "raises",
            "ValueError",
            "Incompatible shapes for broadcasting: shapes=[(2, 2), (2, 3), ()]",
        ),
    ),
    (
        "jnp.nanvar(jnp.ones((2, 3)), axis=0, where=jnp.ones((2, 2), bool))",
        (
            "raises",
            "ValueError",
            "Incompatible shapes for broadcasting: shapes=[(2, 2), (2, 3), ()]",
        ),
    ),
    (
        "jnp.nansum(jnp.array([[1.0, jnp.nan, 2.0]]), where=jnp.array([True, True, False]))",
        ("float32", False, (), 1.0),
    ),
    # statistics: nanquantile's weights in q's dtype (16-bit: float32, as XLA), JAX's weighted sum
    (
        "jnp.nanquantile(jnp.array([jnp.nan, jnp.inf, -0.0, -jnp.inf, 1.5, 0.0, -2.5, 3e38], jnp.bfloat16), 0.3)",
        ("bfloat16", False, (), -0.5),
    ),
    (
        "jnp.nanquantile(jnp.array([jnp.nan, -0.0, 1.5, 0.0, -2.5, 0.7, -1.3, 2.2], jnp.bfloat16), 0.3)",
        ("bfloat16", False, (), -0.259765625),
    ),
    (
        "jnp.nanquantile(jnp.array([0.1, 0.7, -1.3, 2.2, 5.5, jnp.nan, 3.3], jnp.float16), 0.3)",
        ("float16", False, (), 0.400146484375),
    ),
    (
        "jnp.nanpercentile(jnp.array([[0.1, 0.7, -1.3], [2.2, jnp.nan, 3.3]], jnp.bfloat16), 77, axis=1)",
        ("bfloat16", False, (2,), [0.423828125, 3.046875]),
    ),
    (
        "jnp.nanquantile(jnp.array([-jnp.inf, 1.0, 2.0, jnp.nan]), jnp.array([0.0, 0.2, 1.0]))",
        ("float32", False, (3,), [nan, -inf, 2.0]),
    ),
    # ufuncs (round, the binary functions' shape errors, fmax/fmin, ldexp)
    (
        "jnp.round(jnp.array([jnp.inf + 1.25j, -2.5 - jnp.inf * 1j, 1.26 + 0.5j], jnp.complex64), 1)",
        (
            "complex64",
            False,
            (3,),
            [(inf + 1.2000000476837158j), complex(nan, -inf), (1.3000000715255737 + 0.5j)],
        ),
    ),
    (
        "jnp.fmod(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        ("raises", "TypeError", "rem got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.float_power(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        ("raises", "TypeError", "pow got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.fmax(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        ("raises", "TypeError", "gt got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.fmin(jnp.ones((2, 3), jnp.int8), jnp.ones((3, 2), jnp.int8))",
        ("raises", "TypeError", "lt got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.fmax(jnp.array([[0.0], [jnp.nan]]), jnp.array([-1.0, jnp.nan, 2.0]))",
        ("float32", False, (2, 3), [[0.0, 0.0, 2.0], [-1.0, nan, 2.0]]),
    ),
    ("jnp.fmin(2, jnp.array([1.5, jnp.nan], jnp.float16))", ("float16", False, (2,), [1.5, 2.0])),
    (
        "jnp.left_shift(jnp.ones((2, 3), jnp.int8), jnp.ones((3, 2), jnp.int8))",
        (
            "raises",
            "TypeError",
            "shift_left got incompatible shapes for broadcasting: (2, 3), (3, 2).",
        ),
    ),
    (
        "jnp.right_shift(jnp.ones((2, 3), jnp.uint8), jnp.ones((3, 2), jnp.uint8))",
        (
            "raises",
            "TypeError",
            "shift_right_logical got incompatible shapes for broadcasting: (2, 3), (3, 2).",
        ),
    ),
    (
        "jnp.logical_and(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        ("raises", "TypeError", "and got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.logical_xor(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        ("raises", "TypeError", "xor got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.divmod(jnp.ones((2, 3), jnp.int32), jnp.ones((3, 2), jnp.int32))",
        ("raises", "TypeError", "div got incompatible shapes for broadcasting: (2, 3), (3, 2)."),
    ),
    (
        "jnp.ldexp(jnp.ones(2, jnp.bfloat16), jnp.ones(2, jnp.bfloat16))",
        (
            "raises",
            "ValueError",
            "ldexp not supported for input types (dtype(bfloat16), dtype(bfloat16))",
        ),
    ),
    # round: bfloat16 scaled as itself, float16 in float32, no-op past the precision, weak
    # arrays become strong (scalars stay weak); logical_* of a weak scalar and an array
    (
        "jnp.round(jnp.array([-1 / 3, 0.17, 2.675, -7.45, 33.3, 1234.5], jnp.bfloat16), 2)",
        ("bfloat16", False, (6,), [-0.33984375, 0.169921875, 2.6875, -7.4375, 33.25, 1232.0]),
    ),
    (
        "jnp.round(jnp.array([-1 / 3, 0.17, 2.675, -7.45, 33.3, 1234.5], jnp.bfloat16), -1)",
        ("bfloat16", False, (6,), [-0.0, 0.0, 0.0, -10.0, 30.0, 1240.0]),
    ),
    (
        "jax.jit(lambda x: jnp.round(x, 2))(jnp.array([-1 / 3, 0.17, 2.675, -7.45], jnp.bfloat16))",
        ("bfloat16", False, (4,), [-0.33984375, 0.169921875, 2.6875, -7.4375]),
    ),
    (
        "jnp.round(jnp.array([-1 / 3, 0.17, 2.675], jnp.float16), 5)",
        ("float16", False, (3,), [-0.333251953125, 0.1700439453125, 2.67578125]),
    ),
    (
        "jnp.round(jnp.array([True, False]) / 3, 1)",
        ("float32", False, (2,), [0.30000001192092896, 0.0]),
    ),
    ("jnp.round((jnp.array([True, False]) / 3)[0], 1)", ("float32", True, (), 0.30000001192092896)),
    ("jnp.round(2.55, 1)", ("float32", True, (), 2.6000001430511475)),
    ("jnp.logical_and(0.5, jnp.arange(3))", ("bool", False, (3,), [False, True, True])),
    ("jnp.logical_xor(jnp.arange(3), 0.5)", ("bool", False, (3,), [True, False, False])),
    ("jnp.logical_or(0.5, 2)", ("bool", True, (), True)),
    # lookup, indexing, setops (bfloat16 NaNs, setxor1d of NaNs)
    (
        "jnp.searchsorted(jnp.array([1.0, 2.0, jnp.nan], jnp.bfloat16), jnp.array([jnp.nan, 1.5, -jnp.inf], jnp.bfloat16))",
        ("int32", False, (3,), [2, 1, 0]),
    ),
    (
        "jnp.searchsorted(jnp.array([1.0, 2.0, jnp.nan], jnp.bfloat16), jnp.array([jnp.nan, 2.0]), side='right')",
        ("int32", False, (2,), [3, 2]),
    ),
    (
        "jnp.unique(jnp.array([jnp.nan, 1.0, -jnp.inf, 1.0, jnp.nan], jnp.bfloat16))",
        ("bfloat16", False, (3,), [-inf, 1.0, nan]),
    ),
    (
        "jnp.unique(jnp.array([jnp.nan, 1.0, -jnp.inf, 1.0, jnp.nan], jnp.bfloat16), return_index=True, return_counts=True)",
        (
            ("bfloat16", False, (3,), [-inf, 1.0, nan]),
            ("int32", False, (3,), [2, 1, 0]),
            ("int32", False, (3,), [1, 2, 2]),
        ),
    ),
    (
        "jnp.unique(jnp.array([jnp.nan, 2.0, 2.0], jnp.bfloat16), equal_nan=False)",
        ("bfloat16", False, (2,), [2.0, nan]),
    ),
    (
        "jnp.setxor1d(jnp.array([jnp.nan, 1.0, jnp.nan]), jnp.array([jnp.nan, 2.0]))",
        ("float32", False, (4,), [1.0, 2.0, nan, nan]),
    ),
    (
        "jnp.setxor1d(jnp.array([jnp.nan, 3.0]), jnp.array([3.0, 2.0]))",
        ("float32", False, (2,), [2.0, nan]),
    ),
    ("jnp.setxor1d(jnp.array([1, 3]), jnp.array([3, 2]))", ("int32", False, (2,), [1, 2])),
    # functional_updates, functional
    (
        "jnp.put(jnp.zeros(6), jnp.array([-1, -6, -7, -100, 6, 7]), jnp.arange(1.0, 7), inplace=False)",
        ("float32", False, (6,), [4.0, 0.0, 0.0, 0.0, 0.0, 6.0]),
    ),
    (
        "jnp.put(jnp.zeros((2, 3), jnp.int8), jnp.array([-1, 9]), jnp.array([5, 6], jnp.int8), inplace=False)",
        ("int8", False, (2, 3), [[0, 0, 0], [0, 0, 6]]),
    ),
    (
        "jnp.piecewise(jnp.array([0, 1, 2], jnp.uint8), [jnp.array([True, False, False])], [-1, 300])",
        ("uint8", False, (3,), [255, 44, 44]),
    ),
    (
        "jnp.piecewise(jnp.array([0, 1, 2], jnp.int8), [jnp.array([True, False, True])], [2.7, -1])",
        ("int8", False, (3,), [2, -1, 2]),
    ),
    (
        "jnp.round(jnp.array([1.26, 0.35, 2.675, -7.45, 1.005], jnp.float32), 1)",
        (
            "float32",
            False,
            (5,),
            [1.3000000715255737, 0.4000000059604645, 2.700000047683716, -7.400000095367432, 1.0],
        ),
    ),
    (
        "jnp.round(jnp.array([1.26, 0.35, 2.675, -7.45, 1.005], jnp.float32), 2)",
        (
            "float32",
            False,
            (5,),
            [1.2599999904632568, 0.3499999940395355, 2.679999828338623, -7.449999809265137, 1.0],
        ),
    ),
    (
        "jnp.round(jnp.array([1.26, 0.35, 2.675, -7.45, 1.005], jnp.complex64), 2)",
        (
            "complex64",
            False,
            (5,),
            [
                (1.2599999904632568 + 0j),
                (0.3499999940395355 + 0j),
                (2.679999828338623 + 0j),
                (-7.449999809265137 + 0j),
                (1 + 0j),
            ],
        ),
    ),
    (
        "jnp.round(jnp.array([126.0, 35.0, -745.0], jnp.float32), -1)",
        ("float32", False, (3,), [130.0, 40.0, -740.0]),
    ),
    (
        "jax.jit(lambda x: jnp.round(x, 2))(jnp.array([1.26, 2.675, -7.45], jnp.float32))",
        ("float32", False, (3,), [1.2599999904632568, 2.679999828338623, -7.449999809265137]),
    ),
    # shapes, sorting, linalg_ops, polynomials
    (
        "jnp.concatenate([jnp.ones(2, jnp.float16), 1.5])",
        (
            "raises",
            "TypeError",
            "Cannot concatenate arrays with different numbers of dimensions: got (2,), ().",
        ),
    ),
    (
        "jnp.concatenate([jnp.float16(1), jnp.ones(2)])",
        ("raises", "ValueError", "Zero-dimensional arrays cannot be concatenated."),
    ),
    (
        "jnp.stack([jnp.ones((2, 3)), jnp.ones((3, 2))])",
        ("raises", "ValueError", "All input arrays must have the same shape. Got (2, 3), (3, 2)."),
    ),
    (
        "jnp.stack([jnp.ones((2, 3)), jnp.ones(3)])",
        (
            "raises",
            "ValueError",
            "Cannot stack arrays with different numbers of dimensions: got (2, 3), (3,).",
        ),
    ),
    (
        "jnp.moveaxis(jnp.ones((2, 3, 1)), (0, 1), 0)",
        ("raises", "ValueError", "Inconsistent number of elements: 2 vs 1"),
    ),
    (
        "jnp.argpartition(jnp.ones(3, jnp.complex64), 1)",
        ("raises", "NotImplementedError", "jnp.argpartition for complex dtype is not implemented."),
    ),
    (
        "jnp.diagonal(jnp.ones(3))",
        ("raises", "ValueError", "diagonal requires an array of at least two dimensions."),
    ),
    (
        "jnp.polyval(jnp.array([[1.0, 2.0], [3.0, 4.0]]), jnp.array([2.0, 3.0]))",
        ("float32", False, (2,), [5.0, 10.0]),
    ),
    (
        "jnp.polyval(jnp.array([[1, 2], [3, 4]]), jnp.array([[2], [3]]))",
        ("int32", False, (2, 2), [[5, 8], [6, 10]]),
    ),
    ("jnp.polyval(jnp.array([1, -2, 3], jnp.int8), 2)", ("int8", False, (), 3)),
    (
        "jnp.polyint(jnp.ones(3), 2, k=[1, 2])",
        (
            "raises",
            "TypeError",
            "polyint requires ndarray or scalar arguments, got <class 'list'> at position 1.",
        ),
    ),
    # under jit: errors of values needed concretely (selection, logic, creation, setops)
    (
        "jax.jit(lambda c, a: jnp.compress(c, a, axis=1))(jnp.array([True, False, True]), jnp.ones((2, 3)))",
        (
            "raises",
            "TracerBoolConversionError",
            "Attempted boolean conversion of traced array with shape bool[].",
        ),
    ),
    (
        "jax.jit(lambda c, a: jnp.extract(c, a))(jnp.array([True, False, True]), jnp.ones(3))",
        (
            "raises",
            "TracerBoolConversionError",
            "Attempted boolean conversion of traced array with shape bool[].",
        ),
    ),
    (
        "jax.jit(lambda a: jnp.bincount(a))(jnp.array([1, 2], jnp.uint8))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape uint8[2]",
        ),
    ),
    (
        "jax.jit(lambda a, b, c: jnp.choose(a, [b, c]))(jnp.array([0, 1, 1]), jnp.ones(3), jnp.zeros(3))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape int32[3]",
        ),
    ),
    (
        "jax.jit(lambda a: jnp.trim_zeros(a))(jnp.array([0.0, 1.0]))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape float32[2]",
        ),
    ),
    (
        "jax.jit(lambda a, b: jnp.ravel_multi_index((a, b), (2, 3)))(jnp.array([0, 1]), jnp.array([2, 0]))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape int32[2]",
        ),
    ),
    (
        "jax.jit(lambda a, b: jnp.union1d(a, b))(jnp.array([1, 2, 3, 4], jnp.int8), jnp.array([3, 5], jnp.int8))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape int8[4]",
        ),
    ),
    (
        "jax.jit(lambda a, b: jnp.setdiff1d(b, a))(jnp.array([1, 2, 3, 4], jnp.int8), jnp.array([3, 5], jnp.int8))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape int8[2]",
        ),
    ),
    (
        "jax.jit(lambda a, b: jnp.setxor1d(a, b))(jnp.array([1.0, 2.0, 3.0]), jnp.array([3.0, 5.0]))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape float32[3]",
        ),
    ),
    (
        "jax.jit(lambda a, b: jnp.intersect1d(b, a))(jnp.array([1, 2]), jnp.array([3, 5, 7]))",
        (
            "raises",
            "ConcretizationTypeError",
            "Abstract tracer value encountered where concrete value is expected: traced array with shape int32[3]",
        ),
    ),
]


def _plain(r):
    if isinstance(r, tuple):
        return tuple(_plain(x) for x in r)
    a = np.asarray(r)
    vals = a.astype(np.float64) if str(a.dtype) == "bfloat16" else a
    return (str(r.dtype), bool(getattr(r, "weak_type", False)), a.shape, vals)


def _check(got, want):
    if isinstance(want[0], tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    dtype, weak, shape, vals = want
    assert got[:3] == (dtype, weak, shape)
    np.testing.assert_array_equal(got[3], np.asarray(vals, dtype=got[3].dtype))


@pytest.mark.parametrize("src, want", CASES, ids=[c[0][:70] for c in CASES])
def test_as_jax(src, want):
    if want[0] == "raises":
        with pytest.raises(Exception) as info:
            eval(src)
        assert want[1] in [c.__name__ for c in type(info.value).__mro__]
        assert str(info.value).splitlines()[0] == want[2]
    else:
        _check(_plain(eval(src)), want)
