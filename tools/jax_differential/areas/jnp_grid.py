"""jnp and lax over a generated grid (`jnp_grid`): every array-taking family of `jax.numpy`
(elementwise functions, reductions and their axis/keepdims/where/initial/dtype arguments,
cumulative functions, sorting and searching, set operations, shape functions, indexing helpers,
products, polynomials, rounding, comparisons) called from tables over the dtypes bool, int8,
uint8, int16, int32, uint32, float16, bfloat16, float32, complex64 and Python scalars (weak
types), over shapes (scalar, 0-size, (3,), (2, 3), broadcasting pairs) and over special values
(nan, infinities, -0.0, integer limits), plus the argument errors users make (bad axis,
mismatched shapes, a wrong dtype argument).

The cases are generated deterministically (no random numbers): `GA(shape, dtype, sp, k)` in the
prelude fills an array with small values (`sp=0`, shifted by `k`) or with the dtype's special
values (`sp=1`). Each case is a `Call` (a template whose `{0}`, `{1}`, ... are its array
arguments), so `jnp_grid_jit` runs the same calls with the arrays passed through `jax.jit` and
`jnp_grid_x64` runs the 64-bit dtypes.
"""

# ruff: noqa: E501

from __future__ import annotations

from typing import NamedTuple

PRELUDE = """
def GA(shape, dt, sp=0, k=0):
    # a deterministic array of `shape` and dtype `dt`: small values (sp=0, shifted by k) or
    # the dtype's special values (sp=1), cycled
    n = int(np.prod(shape, dtype=int))
    name = jnp.dtype(dt).name
    if name == 'bool':
        v = np.array([(i * 7 + k) % 3 == 0 for i in range(n)], bool)
        return jnp.asarray(v.reshape(shape))
    if name[0] in 'iu':
        info = np.iinfo(name)
        if sp and name[0] == 'i':
            s = [info.min, info.max, 0, -1, 1, info.min + 1, info.max - 1, 7]
        elif sp:
            s = [info.max, 0, 1, info.max - 1, 7, 2 ** (info.bits - 1), 3, 2]
        else:
            s = [(i * 5 + k) % 11 - (5 if name[0] == 'i' else 0) for i in range(11)]
        v = np.array([s[(i + k * sp) % len(s)] for i in range(n)], name)
        return jnp.asarray(v.reshape(shape))
    big = float(jnp.finfo(dt).max)
    if sp:
        s = [np.nan, np.inf, -0.0, -np.inf, 1.5, 0.0, -2.5, big]
        re_ = [s[(i + k) % 8] for i in range(n)]
        im_ = [s[(i + k + 3) % 8] for i in range(n)]
    else:
        re_ = [((i * 5 + k) % 11 - 5) / 2 for i in range(n)]
        im_ = [((i * 3 + k + 1) % 7 - 3) / 2 for i in range(n)]
    if name.startswith('complex'):
        v = np.array(re_, np.float64) + 1j * np.array(im_, np.float64)
        return jnp.asarray(v.reshape(shape)).astype(dt)
    return jnp.asarray(np.array(re_, np.float64).reshape(shape)).astype(dt)
"""


class Call(NamedTuple):
    """One call: `template` with `{i}` for its i-th array argument, `args` their sources."""

    template: str
    args: tuple[str, ...]


DTYPES = (
    "bool",
    "int8",
    "uint8",
    "int16",
    "int32",
    "uint32",
    "float16",
    "bfloat16",
    "float32",
    "complex64",
)
INTS = ("int8", "uint8", "int16", "int32", "uint32")
FLOATS = ("float16", "bfloat16", "float32")
DTYPES_X64 = ("int64", "uint64", "float64", "complex128", "int32", "float32")


def A(shape: tuple[int, ...], dt: str, sp: int = 0, k: int = 0) -> str:
    """The source of a generated array."""
    return f"GA({shape!r}, jnp.{dt}, {sp}, {k})"


def _w(text: str) -> list[str]:
    return text.split()


UNARY = _w(
    "abs negative positive sign sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan "
    "arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint fix round "
    "square reciprocal isnan isinf isfinite isposinf isneginf signbit logical_not invert "
    "bitwise_count deg2rad rad2deg sinc real imag conj angle fabs spacing frexp modf nan_to_num "
    "iscomplex isreal"
)

BINARY = _w(
    "add subtract multiply divide floor_divide remainder fmod divmod power float_power maximum "
    "minimum fmax fmin arctan2 hypot copysign nextafter logaddexp logaddexp2 ldexp left_shift "
    "right_shift bitwise_and bitwise_or bitwise_xor logical_and logical_or logical_xor equal "
    "not_equal less less_equal greater greater_equal heaviside isclose"
)

# dtype pairs beyond the diagonal: promotion across kinds and widths
MIXED = [
    ("int16", "uint32"),
    ("uint32", "int32"),
    ("bool", "float16"),
    ("uint8", "bfloat16"),
    ("int32", "float16"),
    ("bfloat16", "float16"),
    ("float16", "complex64"),
]

# (array dtype, Python scalar, scalar first?) for weak types
SCALARS = [
    ("int8", "3", False),
    ("uint8", "2", True),
    ("int16", "-2.5", False),
    ("float16", "2.5", True),
    ("bfloat16", "3", False),
    ("float32", "1j", False),
    ("bool", "2", False),
    ("int32", "0.5", True),
]


def _elementwise(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for f in UNARY:
        for d in dtypes:
            c.append(Call(f"jnp.{f}({{0}})", (A((2, 4), d, 1),)))
            if not x64 and d in ("int16", "uint32", "bfloat16", "complex64"):
                c.append(Call(f"jnp.{f}({{0}})", (A((2, 3), d, 0, 2),)))
        if not x64:
            c += [
                Call(f"jnp.{f}({{0}})", (A((), "float32", 1, 3),)),
                Call(f"jnp.{f}({{0}})", (A((2, 0), "float16"),)),
                Call(f"jnp.{f}(2)", ()),
                Call(f"jnp.{f}(True)", ()),
            ]
    pairs = [(d, d) for d in dtypes] + ([] if x64 else MIXED)
    if x64:
        pairs += [
            ("int64", "uint64"),
            ("float64", "complex64"),
            ("int64", "float32"),
            ("uint64", "float64"),
        ]
    for f in BINARY:
        for a, b in pairs:
            c.append(Call(f"jnp.{f}({{0}}, {{1}})", (A((2, 4), a, 1), A((2, 4), b, 0, 3))))
        for d, s, first in (
            SCALARS
            if not x64
            else [(d, s, fi) for d, s, fi in SCALARS if d in ("int32", "float32")]
        ):
            tmpl = f"jnp.{f}({s}, {{0}})" if first else f"jnp.{f}({{0}}, {s})"
            c.append(Call(tmpl, (A((2, 3), d, 0, 1),)))
        if not x64:
            c += [
                Call(
                    f"jnp.{f}({{0}}, {{1}})", (A((2, 1), "float32", 0, 1), A((3,), "float32", 0, 4))
                ),
                Call(f"jnp.{f}({{0}}, {{1}})", (A((), "int8", 0, 2), A((2, 3), "int8", 0, 5))),
                Call(f"jnp.{f}({{0}}, {{1}})", (A((0,), "int32"), A((1,), "int32", 0, 1))),
                Call(f"jnp.{f}({{0}}, {{1}})", (A((2, 3), "float32"), A((3, 2), "float32"))),
                Call(f"jnp.{f}({{0}}, 300)", (A((3,), "int8"),)),
                Call(f"jnp.{f}({{0}}, -1)", (A((3,), "uint32", 0, 2),)),
            ]
    # gcd/lcm: small values only (on an integer minimum their loops never end, JAX's too)
    for f in ("gcd", "lcm"):
        for d in dtypes:
            if d in INTS + ("bool", "int64", "uint64"):
                c.append(Call(f"jnp.{f}({{0}}, {{1}})", (A((2, 4), d, 0, 1), A((2, 4), d, 0, 3))))
    return c


REDUCTIONS = _w(
    "sum prod max min mean var std all any argmax argmin nansum nanprod nanmax nanmin nanmean "
    "nanvar nanstd nanargmax nanargmin ptp median nanmedian count_nonzero average"
)
HAS_WHERE = set(
    _w("sum prod max min mean var std all any nansum nanprod nanmax nanmin nanmean nanvar nanstd")
)
HAS_INITIAL = set(_w("sum prod max min nansum nanprod nanmax nanmin"))
HAS_DTYPE = set(_w("sum prod mean var std nansum nanprod nanmean nanvar nanstd"))
NO_KEEPDIMS = set(_w("average"))


def _reductions(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for f in REDUCTIONS:
        r = f"jnp.{f}"
        for d in dtypes:
            c.append(Call(f"{r}({{0}})", (A((2, 4), d, 1),)))
            c.append(Call(f"{r}({{0}}, axis=1)", (A((2, 3), d, 0, 1),)))
            if f in HAS_DTYPE and not x64:
                c.append(
                    Call(
                        f"{r}({{0}}, dtype=jnp.{'float32' if d == 'int8' else 'int32'})",
                        (A((2, 3), d, 0, 1),),
                    )
                )
        if x64:
            continue
        x = (A((2, 3), "float32", 0, 2),)
        for ax in ("0", "-1", "(0, 1)", "(1, 0)", "2", "-3", "(0, 0)", "1.0"):
            c.append(Call(f"{r}({{0}}, axis={ax})", x))
        if f not in NO_KEEPDIMS:
            c += [
                Call(f"{r}({{0}}, axis=0, keepdims=True)", x),
                Call(f"{r}({{0}}, keepdims=True)", (A((2, 3), "int8", 0, 1),)),
            ]
        c += [
            Call(f"{r}({{0}})", (A((0,), "float32"),)),
            Call(f"{r}({{0}}, axis=0)", (A((0, 2), "int32"),)),
            Call(f"{r}({{0}}, axis=1)", (A((0, 2), "float16"),)),
            Call(f"{r}({{0}})", (A((), "int16", 0, 3),)),
            Call(f"{r}({{0}}, axis=0)", (A((), "float32", 0, 3),)),
            Call(f"{r}([1, 2, 3])", ()),
            Call(f"{r}(2.5)", ()),
        ]
        if f in HAS_WHERE:
            m = A((2, 3), "bool", 0, 1)
            c += [
                Call(f"{r}({{0}}, where={{1}})", (A((2, 3), "float32", 0, 1), m)),
                Call(f"{r}({{0}}, axis=1, where={{1}})", (A((2, 3), "int8", 0, 1), m)),
                Call(
                    f"{r}({{0}}, axis=0, where={{1}})",
                    (A((2, 3), "float16", 1, 1), A((3,), "bool", 0, 2)),
                ),
                Call(f"{r}({{0}}, where={{1}})", (A((2, 3), "float32"), A((2, 2), "bool"))),
            ]
        if f in HAS_INITIAL:
            c += [
                Call(f"{r}({{0}}, initial=5)", (A((2, 3), "int8", 0, 1),)),
                Call(f"{r}({{0}}, axis=1, initial=-1.5)", (A((2, 3), "float16", 0, 1),)),
                Call(
                    f"{r}({{0}}, initial=2, where={{1}})",
                    (A((2, 3), "uint8", 0, 1), A((2, 3), "bool")),
                ),
                Call(f"{r}({{0}}, axis=1, initial=0.5)", (A((2, 0), "float32"),)),
            ]
        if f in HAS_DTYPE:
            c += [
                Call(f"{r}({{0}}, dtype=jnp.float16)", (A((2, 3), "float32", 0, 1),)),
                Call(f"{r}({{0}}, dtype=jnp.uint8)", (A((2, 3), "int8", 1, 1),)),
                Call(f"{r}({{0}}, dtype=bool)", (A((2, 3), "int32", 0, 1),)),
                Call(f"{r}({{0}}, dtype=jnp.complex64)", (A((2, 3), "float32", 0, 1),)),
                Call(f"{r}({{0}}, dtype='foo')", (A((2, 3), "float32", 0, 1),)),
                Call(f"{r}({{0}}, dtype=jnp.int64)", (A((2, 3), "int8", 0, 1),)),
            ]
    if not x64:
        x = (A((2, 3), "float32", 0, 1),)
        for f in ("var", "std", "nanvar", "nanstd"):
            c += [Call(f"jnp.{f}({{0}}, ddof={dd})", x) for dd in (1, 3, -1)]
            c += [
                Call(f"jnp.{f}({{0}}, axis=1, correction=1)", x),
                Call(f"jnp.{f}({{0}}, ddof=1, correction=1)", x),
            ]
        w = A((2, 3), "int8", 0, 3)
        c += [
            Call("jnp.average({0}, axis=1, weights={1})", (A((2, 3), "float32", 0, 1), w)),
            Call("jnp.average({0}, weights={1}, returned=True)", (A((2, 3), "int16", 0, 1), w)),
            Call(
                "jnp.average({0}, axis=1, weights={1})",
                (A((2, 3), "float16", 0, 1), A((3,), "float32", 0, 2)),
            ),
            Call(
                "jnp.average({0}, axis=0, weights={1})",
                (A((2, 3), "float32", 0, 1), A((3,), "float32", 0, 2)),
            ),
            Call(
                "jnp.average({0}, weights={1})", (A((2, 3), "float32", 0, 1), A((2, 3), "float32"))
            ),
            Call(
                "jnp.average({0}, axis=1, weights={1}, keepdims=True)",
                (A((2, 3), "bfloat16", 0, 1), A((2, 3), "bfloat16", 0, 4)),
            ),
        ]
        for f in ("quantile", "nanquantile", "percentile", "nanpercentile"):
            q = "0.3" if "quant" in f else "30"
            for d in ("int8", "uint32", "float16", "bfloat16", "float32", "bool", "complex64"):
                c.append(Call(f"jnp.{f}({{0}}, {q})", (A((2, 4), d, 1 if d in FLOATS else 0, 1),)))
            c += [
                Call(f"jnp.{f}({{0}}, {q}, axis=1, keepdims=True)", (A((2, 3), "float32", 0, 1),)),
                Call(
                    f"jnp.{f}({{0}}, {{1}}, axis=0)",
                    (A((2, 3), "int16", 0, 1), f"jnp.array([{q}, {q} / 2])"),
                ),
                Call(f"jnp.{f}({{0}}, {q})", (A((0,), "float32"),)),
            ]
    return c


CUMULATIVE = _w("cumsum cumprod nancumsum nancumprod cumulative_sum cumulative_prod")


def _cumulative(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for f in CUMULATIVE:
        ax = "axis=1" if f.startswith("cumulative") else ""
        for d in dtypes:
            c.append(Call(f"jnp.{f}({{0}}, axis=1)", (A((2, 4), d, 1),)))
            if not f.startswith("cumulative"):
                c.append(Call(f"jnp.{f}({{0}})", (A((2, 3), d, 0, 1),)))
        if x64:
            continue
        x = (A((2, 3), "int8", 0, 1),)
        c += [
            Call(f"jnp.{f}({{0}}, axis=0, dtype=jnp.int16)", x),
            Call(f"jnp.{f}({{0}}, axis=1, dtype=jnp.float16)", x),
            Call(f"jnp.{f}({{0}}, axis=-1, dtype=bool)", (A((2, 3), "float32", 0, 1),)),
            Call(f"jnp.{f}({{0}}, axis=2)", x),
            Call(f"jnp.{f}({{0}}, axis=-3)", x),
            Call(f"jnp.{f}({{0}}, {ax or 'axis=0'})", (A((0, 2), "float32"),)),
            Call(f"jnp.{f}({{0}})", (A((), "float32", 0, 3),)),
            Call(f"jnp.{f}({{0}}, {ax or 'axis=None'})", (A((3,), "uint8", 1),)),
            Call(f"jnp.{f}([1, 2, 3])", ()),
        ]
        if f.startswith("cumulative"):
            c += [
                Call(f"jnp.{f}({{0}}, axis=1, include_initial=True)", x),
                Call(f"jnp.{f}({{0}}, include_initial=True)", (A((3,), "bool", 0, 1),)),
                Call(f"jnp.{f}({{0}})", x),
                Call(
                    f"jnp.{f}({{0}}, axis=0, where={{1}})",
                    (A((2, 3), "float32", 0, 1), A((2, 3), "bool")),
                ),
            ]
    for d in dtypes:
        c += [
            Call("jnp.diff({0})", (A((2, 4), d, 1),)),
            Call("jnp.diff({0}, n=2, axis=0)", (A((3, 2), d, 0, 1),)),
            Call("jnp.ediff1d({0})", (A((2, 3), d, 0, 1),)),
        ]
    if not x64:
        x = (A((2, 3), "int8", 0, 1),)
        c += [
            Call("jnp.diff({0}, prepend=1)", x),
            Call("jnp.diff({0}, append=-1.5)", x),
            Call("jnp.diff({0}, axis=0, prepend={1})", (A((2, 3), "float32"), A((1, 3), "int16"))),
            Call("jnp.diff({0}, n=0)", x),
            Call("jnp.diff({0}, n=-1)", x),
            Call("jnp.diff({0}, n=5)", x),
            Call("jnp.diff({0}, axis=2)", x),
            Call("jnp.diff({0})", (A((), "float32"),)),
            Call(
                "jnp.ediff1d({0}, to_begin=1, to_end={1})",
                (A((4,), "uint8", 0, 1), A((2,), "int32")),
            ),
            Call("jnp.ediff1d({0}, to_begin=-1)", (A((4,), "uint8", 0, 1),)),
            Call("jnp.ediff1d({0}, to_end=2.5)", (A((4,), "float16", 0, 1),)),
        ]
    return c


def _sorting(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for d in dtypes:
        sp = (A((2, 4), d, 1),)
        c += [
            Call("jnp.sort({0})", sp),
            Call("jnp.sort({0}, axis=0, descending=True)", sp),
            Call("jnp.sort({0}, axis=None)", sp),
            Call("jnp.argsort({0})", sp),
            Call("jnp.argsort({0}, axis=0, descending=True, stable=True)", sp),
            Call("jnp.argsort({0}, axis=None)", sp),
            Call("jnp.partition({0}, 2)", sp),
            Call("jnp.argpartition({0}, 1, axis=0)", sp),
            Call("jnp.searchsorted({0}, {1})", (f"jnp.sort({A((5,), d, 0, 1)})", A((2, 3), d, 1))),
            Call(
                "jnp.searchsorted({0}, {1}, side='right')",
                (f"jnp.sort({A((6,), d, 1, 2)})", A((4,), d, 1)),
            ),
            Call("jnp.nonzero({0})", sp),
            Call("jnp.nonzero({0}, size=3, fill_value=-1)", sp),
            Call("jnp.argwhere({0})", sp),
            Call("jnp.flatnonzero({0}, size=9)", sp),
            Call("jnp.count_nonzero({0}, axis=0)", sp),
            Call("jnp.unique({0})", sp),
            Call("jnp.unique({0}, return_index=True, return_inverse=True, return_counts=True)", sp),
            Call("jnp.unique({0}, size=6, fill_value=0)", sp),
            Call("jnp.unique({0}, axis=1)", (A((2, 4), d, 0, 1),)),
            Call("jnp.unique({0}, equal_nan=False)", sp),
            Call("jnp.unique_values({0})", sp),
            Call("jnp.unique_counts({0})", sp),
            Call("jnp.unique_inverse({0})", sp),
            Call("jnp.unique_all({0})", sp),
            Call("jnp.union1d({0}, {1})", (A((4,), d, 1), A((3,), d, 0, 2))),
            Call("jnp.intersect1d({0}, {1})", (A((5,), d, 1), A((6,), d, 1, 2))),
            Call(
                "jnp.intersect1d({0}, {1}, return_indices=True)",
                (A((5,), d, 0, 0), A((6,), d, 0, 2)),
            ),
            Call("jnp.setdiff1d({0}, {1})", (A((5,), d, 1), A((3,), d, 1, 2))),
            Call("jnp.setxor1d({0}, {1})", (A((5,), d, 1), A((3,), d, 1, 2))),
            Call("jnp.isin({0}, {1})", (A((2, 4), d, 1), A((3,), d, 1, 2))),
            Call("jnp.isin({0}, {1}, invert=True)", (A((2, 4), d, 0), A((3,), d, 0, 2))),
            Call("jnp.lexsort(({0}, {1}))", (A((5,), d, 1), A((5,), d, 0, 1))),
            Call("lax.sort({0}, dimension=0)", sp),
            Call("lax.top_k({0}, 2)", sp),
            Call("lax.argmax({0}, 1, jnp.int32)", sp),
            Call("lax.argmin({0}, 0, jnp.int32)", sp),
        ]
    if x64:
        return c
    c += [
        Call("jnp.sort_complex({0})", (A((5,), "complex64", 1),)),
        Call("jnp.sort_complex({0})", (A((5,), "int8", 0, 1),)),
        Call("jnp.sort({0}, axis=2)", (A((2, 3), "float32"),)),
        Call("jnp.sort({0})", (A((), "float32"),)),
        Call("jnp.sort({0})", (A((0,), "int8"),)),
        Call("jnp.argsort({0}, axis=-3)", (A((2, 3), "float32"),)),
        Call("jnp.partition({0}, 3)", (A((3,), "float32"),)),
        Call("jnp.partition({0}, -1)", (A((4,), "float32", 1),)),
        Call("jnp.argpartition({0}, -2)", (A((4,), "int16", 1),)),
        Call(
            "jnp.searchsorted({0}, {1}, sorter={2})",
            (
                A((5,), "float32", 0, 1),
                A((3,), "float32", 0, 2),
                f"jnp.argsort({A((5,), 'float32', 0, 1)})",
            ),
        ),
        Call("jnp.searchsorted({0}, {1})", (A((2, 3), "float32"), A((3,), "float32"))),
        Call("jnp.searchsorted({0}, 2.5)", (A((4,), "int8", 0, 1),)),
        Call("jnp.searchsorted({0}, {1}, side='middle')", (A((4,), "int8"), A((2,), "int8"))),
        Call("jnp.searchsorted({0}, {1})", (A((4,), "uint8", 0, 1), A((3,), "int8", 1))),
        Call("jnp.searchsorted({0}, {1})", (A((4,), "float16", 0, 1), A((3,), "int32", 1))),
        Call("jnp.nonzero({0})", (A((), "int8", 0, 1),)),
        Call("jnp.nonzero({0})", (A((0, 2), "float32"),)),
        Call("jnp.unique({0}, return_inverse=True, axis=0)", (A((3, 2), "int8", 0, 1),)),
        Call("jnp.unique({0}, axis=2)", (A((3, 2), "int8", 0, 1),)),
        Call("jnp.unique({0}, return_counts=True, size=2)", (A((6,), "int8", 0, 1),)),
        Call("jnp.unique({0})", (A((0,), "float32"),)),
        Call("jnp.unique({0})", (A((), "float32", 0, 1),)),
        Call("jnp.isin({0}, 3)", (A((2, 4), "int8", 0, 1),)),
        Call("jnp.isin({0}, {1}, assume_unique=True)", (A((4,), "float32", 0), A((2,), "int8"))),
        Call("jnp.union1d({0}, {1})", (A((3,), "int8", 0), A((2,), "uint8", 0, 2))),
        Call(
            "jnp.union1d({0}, {1}, size=6, fill_value=9)",
            (A((3,), "int8", 0), A((2,), "int8", 0, 2)),
        ),
        Call("jnp.setdiff1d({0}, {1}, size=4)", (A((5,), "float32", 0), A((2,), "float32", 0, 2))),
        Call("jnp.intersect1d({0}, {1})", (A((3,), "int16", 0), A((2,), "float16", 0, 2))),
        Call(
            "jnp.lexsort([{0}, {1}], axis=0)", (A((3, 2), "int8", 0, 1), A((3, 2), "float32", 0, 2))
        ),
        Call("jnp.lexsort(({0}, {1}))", (A((3,), "int8", 0, 1), A((4,), "int8", 0, 2))),
        Call("lax.top_k({0}, 5)", (A((4,), "float32"),)),
        Call("lax.top_k({0}, 0)", (A((4,), "float32"),)),
        Call("lax.sort(({0}, {1}), num_keys=2)", (A((6,), "int8", 0, 0), A((6,), "float32", 1, 2))),
        Call("lax.sort({0}, is_stable=False)", (A((6,), "bfloat16", 1),)),
        Call("jnp.digitize({0}, {1})", (A((2, 4), "float32", 1), "jnp.array([-1.0, 0.0, 1.5])")),
        Call(
            "jnp.digitize({0}, {1}, right=True)", (A((2, 4), "int8", 0, 1), "jnp.array([3, 1, -2])")
        ),
        Call("jnp.bincount({0})", (A((6,), "uint8", 0, 1),)),
        Call(
            "jnp.bincount({0}, weights={1}, length=4)",
            (A((6,), "int16", 0, 6), A((6,), "float16", 0, 1)),
        ),
        Call("jnp.bincount({0}, minlength=12)", (A((6,), "int8", 0, 6),)),
        Call("jnp.bincount({0})", (A((6,), "float32", 0, 6),)),
    ]
    return c


def _shapes() -> list[Call]:
    x = (A((2, 3), "int8", 0, 1),)
    f = (A((2, 3), "float16", 1),)
    c = [
        Call("jnp.reshape({0}, (3, -1))", x),
        Call("jnp.reshape({0}, (4, -1))", x),
        Call("jnp.reshape({0}, (-1, -1))", x),
        Call("jnp.reshape({0}, 6)", x),
        Call("jnp.reshape({0}, (3, 2), order='F')", x),
        Call("jnp.reshape({0}, ())", (A((1, 1), "float32"),)),
        Call("jnp.reshape({0}, (0, -1))", (A((0, 3), "float32"),)),
        Call("jnp.ravel({0}, order='F')", f),
        Call("jnp.transpose({0})", (A((2, 3, 1), "uint32"),)),
        Call("jnp.transpose({0}, (1, 0, 2))", (A((2, 3, 1), "uint32"),)),
        Call("jnp.transpose({0}, (1, 1, 0))", (A((2, 3, 1), "uint32"),)),
        Call("jnp.transpose({0}, (1, 0))", (A((2, 3, 1), "uint32"),)),
        Call("jnp.swapaxes({0}, 0, -1)", x),
        Call("jnp.swapaxes({0}, 0, 2)", x),
        Call("jnp.moveaxis({0}, (0, 1), (-1, 0))", (A((2, 3, 1), "bool"),)),
        Call("jnp.moveaxis({0}, 0, 0)", (A((2, 3, 1), "bool"),)),
        Call("jnp.moveaxis({0}, (0, 1), 0)", (A((2, 3, 1), "bool"),)),
        Call("jnp.expand_dims({0}, (0, -1))", x),
        Call("jnp.expand_dims({0}, 3)", x),
        Call("jnp.expand_dims({0}, (1, 1))", x),
        Call("jnp.squeeze({0})", (A((1, 3, 1), "float32"),)),
        Call("jnp.squeeze({0}, axis=-1)", (A((1, 3, 1), "float32"),)),
        Call("jnp.squeeze({0}, axis=1)", (A((1, 3, 1), "float32"),)),
        Call("jnp.squeeze({0}, axis=3)", (A((1, 3, 1), "float32"),)),
        Call("jnp.concatenate([{0}, {1}])", (A((2, 3), "int8"), A((1, 3), "uint8", 1))),
        Call("jnp.concatenate([{0}, {1}], axis=1)", (A((2, 3), "bool"), A((2, 1), "float16", 1))),
        Call(
            "jnp.concatenate([{0}, {1}], axis=None)", (A((2, 3), "int16"), A((4,), "bfloat16", 1))
        ),
        Call("jnp.concatenate([{0}, {1}], axis=0)", (A((2, 3), "int8"), A((2, 2), "int8"))),
        Call("jnp.concatenate([{0}, {1}], axis=2)", (A((2, 3), "int8"), A((2, 3), "int8"))),
        Call("jnp.concatenate([{0}, {1}])", (A((), "int8"), A((), "int8"))),
        Call("jnp.concatenate([{0}, 1.5])", (A((2,), "float16"),)),
        Call(
            "jnp.concatenate([{0}, {1}], dtype=jnp.int16)",
            (A((2,), "float32", 0, 1), A((1,), "int8")),
        ),
        Call("jnp.concatenate([])", ()),
        Call("jnp.concat([{0}, {1}], axis=-1)", (A((2, 1), "uint32"), A((2, 2), "int32"))),
        Call("jnp.stack([{0}, {1}], axis=-1)", (A((2, 3), "int8"), A((2, 3), "uint8", 1))),
        Call("jnp.stack([{0}, {1}])", (A((2, 3), "int8"), A((3, 2), "int8"))),
        Call("jnp.stack([{0}, {1}], axis=3)", (A((2, 3), "int8"), A((2, 3), "int8"))),
        Call("jnp.stack([{0}, 2])", (A((), "bfloat16"),)),
        Call("jnp.hstack([{0}, {1}])", (A((3,), "int8"), A((2,), "float32", 1))),
        Call("jnp.vstack([{0}, {1}])", (A((3,), "bool"), A((2, 3), "int16", 1))),
        Call("jnp.dstack([{0}, {1}])", (A((3,), "bool"), A((1, 3), "int16", 1))),
        Call("jnp.column_stack([{0}, {1}])", (A((3,), "uint8"), A((3, 2), "int8", 1))),
        Call("jnp.split({0}, 3, axis=1)", x),
        Call("jnp.split({0}, 2, axis=1)", x),
        Call("jnp.split({0}, [1, 5], axis=1)", x),
        Call("jnp.array_split({0}, 2, axis=1)", x),
        Call("jnp.array_split({0}, 4)", (A((6,), "float32"),)),
        Call("jnp.tile({0}, (2, 1, 2))", x),
        Call("jnp.tile({0}, 0)", x),
        Call("jnp.repeat({0}, 2, axis=0)", x),
        Call("jnp.repeat({0}, {1}, axis=1)", (A((2, 3), "int8", 0, 1), "jnp.array([1, 0, 2])")),
        Call(
            "jnp.repeat({0}, {1}, axis=1, total_repeat_length=5)",
            (A((2, 3), "int8", 0, 1), "jnp.array([1, 0, 2])"),
        ),
        Call("jnp.repeat({0}, 2)", (A((2, 3), "complex64", 1),)),
        Call("jnp.repeat({0}, {1}, axis=1)", (A((2, 3), "int8", 0, 1), "jnp.array([1, 2])")),
        Call("jnp.repeat({0}, -1)", x),
        Call("jnp.flip({0}, (0, 1))", f),
        Call("jnp.flip({0}, 2)", f),
        Call("jnp.fliplr({0})", (A((3,), "int8"),)),
        Call("jnp.roll({0}, 4)", f),
        Call("jnp.roll({0}, (1, -1), axis=(0, 1))", f),
        Call("jnp.roll({0}, (1, 2), axis=0)", f),
        Call("jnp.roll({0}, 1, axis=(0, 1))", f),
        Call("jnp.roll({0}, 2)", (A((0,), "float32"),)),
        Call("jnp.rot90({0}, -3)", x),
        Call("jnp.rot90({0}, 1, axes=(0, 0))", x),
        Call("jnp.broadcast_to({0}, (2, 2, 3))", x),
        Call("jnp.broadcast_to({0}, (3, 3))", x),
        Call("jnp.broadcast_to({0}, (2,))", x),
        Call("jnp.broadcast_arrays({0}, {1}, 2.5)", (A((2, 1), "int8"), A((3,), "uint8"))),
        Call("jnp.broadcast_arrays({0}, {1})", (A((2, 3), "int8"), A((2,), "uint8"))),
        Call("jnp.atleast_1d({0}, 3)", (A((), "float16"),)),
        Call("jnp.atleast_2d({0})", (A((3,), "int8"),)),
        Call("jnp.atleast_3d({0})", (A((2, 3), "bool"),)),
        Call("jnp.pad({0}, 1)", x),
        Call("jnp.pad({0}, ((1, 0), (0, 2)), constant_values=300)", x),
        Call("jnp.pad({0}, 1, constant_values=2.7)", x),
        Call("jnp.pad({0}, (1, 2), mode='reflect')", f),
        Call("jnp.pad({0}, (1, 2), mode='edge')", (A((0, 2), "float32"),)),
        Call("jnp.pad({0}, 2, mode='wrap')", x),
        Call("jnp.pad({0}, -1)", x),
        Call("jnp.pad({0}, ((1, 1),) * 3)", x),
        Call("jnp.pad({0}, 1, mode='linear_ramp', end_values=5)", x),
        Call("jnp.pad({0}, 2, mode='maximum')", x),
        Call("jnp.pad({0}, 1, mode='bogus')", x),
        Call("jnp.diagonal({0}, 1)", x),
        Call("jnp.diagonal({0}, -5)", x),
        Call("jnp.diagonal({0})", (A((3,), "int8"),)),
        Call("jnp.trace({0}, offset=1)", x),
        Call("jnp.trace({0}, dtype=jnp.uint8)", (A((3, 3), "int8", 1),)),
        Call("jnp.trace({0})", (A((3, 3), "bool"),)),
        Call("jnp.tril({0}, -1)", x),
        Call("jnp.triu({0}, 1)", (A((2, 3, 3), "float16", 1),)),
        Call("jnp.triu({0})", (A((3,), "float16", 1),)),
        Call("jnp.diag({0}, 1)", (A((3,), "uint8"),)),
        Call("jnp.diag({0}, -1)", x),
        Call("jnp.diag({0})", (A((2, 2, 2), "float32"),)),
        Call("jnp.diagflat({0}, -1)", x),
        Call("jnp.append({0}, {1})", (A((2, 3), "int8"), A((2,), "float16"))),
        Call("jnp.append({0}, {1}, axis=0)", (A((2, 3), "int8"), A((1, 3), "uint8"))),
        Call("jnp.append({0}, {1}, axis=0)", (A((2, 3), "int8"), A((3,), "uint8"))),
        Call("jnp.append({0}, 1.5)", (A((2, 3), "int8"),)),
        Call("jnp.delete({0}, 1, axis=1)", x),
        Call("jnp.delete({0}, [0, -1])", x),
        Call("jnp.delete({0}, slice(0, 2), axis=1)", x),
        Call("jnp.delete({0}, 5, axis=1)", x),
        Call(
            "jnp.delete({0}, {1}, assume_unique_indices=True)",
            (A((5,), "float32"), "jnp.array([1, 3])"),
        ),
        Call("jnp.insert({0}, 1, 9, axis=1)", x),
        Call("jnp.insert({0}, 1, 2.7, axis=0)", x),
        Call("jnp.insert({0}, [0, 2], {1})", (A((4,), "uint8"), A((2,), "int32", 0, 1))),
        Call("jnp.insert({0}, 9, 1)", (A((4,), "uint8"),)),
        Call("jnp.resize({0}, (3, 4))", x),
        Call("jnp.resize({0}, 0)", x),
        Call("jnp.unstack({0}, axis=1)", x),
        Call("jnp.matrix_transpose({0})", (A((2, 2, 3), "uint8"),)),
        Call("jnp.matrix_transpose({0})", (A((3,), "uint8"),)),
        Call("jnp.permute_dims({0}, (1, 0))", x),
        Call("jnp.rollaxis({0}, 1)", (A((2, 3, 1), "int8"),)),
        Call("jnp.block([[{0}, {1}]])", (A((2, 2), "int8"), A((2, 1), "float16"))),
        Call("jnp.block([[{0}], [{1}]])", (A((2, 2), "int8"), A((2, 1), "float16"))),
        Call("jnp.trim_zeros({0})", ("jnp.array([0, 0, 3, 0, 2, 0], jnp.int8)",)),
        Call("jnp.trim_zeros({0}, 'b')", ("jnp.array([0.0, -0.0, 3.0, 0.0])",)),
    ]
    return c


def _indexing(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for d in dtypes:
        x = (A((2, 4), d, 1),)
        c += [
            Call("jnp.take({0}, {1}, axis=1)", x + ("jnp.array([0, -1, 3, 5])",)),
            Call("jnp.take({0}, {1})", x + ("jnp.array([[0, 9], [-9, 2]])",)),
            Call(
                "jnp.take_along_axis({0}, {1}, axis=1)", x + ("jnp.array([[0, 3, -1], [1, 2, 7]])",)
            ),
            Call("jnp.where({0}, {1}, {2})", (A((2, 4), "bool", 0, 1),) + x + (A((4,), d, 0, 3),)),
            Call("jnp.where({0} != 0, {0}, 2)", x),
            Call("jnp.where({0} != 0, 1.5, {0})", x),
            Call("jnp.clip({0}, 1, 3)", x),
            Call("jnp.clip({0}, max=2.5)", x),
            Call("jnp.clip({0}, {1}, {2})", x + (A((4,), d, 0, 1), A((2, 1), d, 0, 4))),
            Call("jnp.select([{0} > 1, {0} < 0], [{0}, -{0}], 7)", (A((2, 4), d, 0, 1),)),
            Call(
                "jnp.put({0}, {1}, {2}, inplace=False)",
                x + ("jnp.array([0, 5, 9])", A((3,), d, 0, 3)),
            ),
            Call(
                "jnp.compress({0}, {1}, axis=1)",
                ("jnp.array([True, False, True])", A((2, 3), d, 1)),
            ),
            Call("jnp.extract({0}, {1})", (A((2, 4), "bool", 0, 1),) + x),
            Call(
                "jnp.choose({0}, [{1}, {2}], mode='clip')",
                ("jnp.array([0, 1, 3, -1])", A((4,), d, 1), A((4,), d, 0, 2)),
            ),
            Call("jnp.nan_to_num({0}, nan=1.5, posinf=7, neginf=-7)", x),
            Call(
                "jnp.piecewise({0}, [{0} < 0, {0} > 1], [-1, lambda v: v * 2, 0.5])",
                (A((2, 4), d, 0, 1),),
            ),
            Call(
                "jnp.put_along_axis({0}, {1}, {2}, axis=1, inplace=False)",
                x + ("jnp.array([[0], [3]])", A((2, 1), d, 0, 3)),
            ),
        ]
    if x64:
        return c
    x = (A((2, 3), "int8", 0, 1),)
    f = (A((2, 3), "float32", 1),)
    c += [
        Call("jnp.take({0}, 1)", x),
        Call("jnp.take({0}, {1}, axis=1, mode='clip')", x + ("jnp.array([-2, 5])",)),
        Call("jnp.take({0}, {1}, axis=1, mode='wrap')", x + ("jnp.array([-2, 5])",)),
        Call(
            "jnp.take({0}, {1}, axis=1, mode='fill', fill_value=9)", f + ("jnp.array([-2, 5, 1])",)
        ),
        Call("jnp.take({0}, {1}, axis=1, mode='fill')", x + ("jnp.array([-4, 5, 1])",)),
        Call("jnp.take({0}, {1}, axis=1, mode='raise')", x + ("jnp.array([0])",)),
        Call("jnp.take({0}, {1}, axis=1, mode='bogus')", x + ("jnp.array([0])",)),
        Call("jnp.take({0}, {1}, axis=2)", x + ("jnp.array([0])",)),
        Call("jnp.take({0}, {1})", x + ("jnp.array([0.5])",)),
        Call("jnp.take({0}, {1}, axis=0)", (A((0, 3), "float32"), "jnp.array([0])")),
        Call(
            "jnp.take({0}, {1}, unique_indices=True, indices_are_sorted=True)",
            x + ("jnp.array([0, 2])",),
        ),
        Call("jnp.take_along_axis({0}, {1}, axis=None)", x + ("jnp.array([5, 0, -1])",)),
        Call("jnp.take_along_axis({0}, {1}, axis=0)", x + ("jnp.array([[1, 0]])",)),
        Call("jnp.take_along_axis({0}, {1}, axis=0)", x + ("jnp.array([1, 0])",)),
        Call("jnp.take_along_axis({0}, {1}, axis=1, mode='clip')", x + ("jnp.array([[9], [-9]])",)),
        Call(
            "jnp.take_along_axis({0}, {1}, axis=1, fill_value=-3)", f + ("jnp.array([[9], [1]])",)
        ),
        Call("jnp.take_along_axis({0}, {1}, axis=1)", x + ("jnp.array([[0.5]])",)),
        Call("jnp.where({0})", x),
        Call("jnp.where({0}, size=4, fill_value=7)", x),
        Call("jnp.where({0}, 1)", x),
        Call(
            "jnp.where({0}, {1}, {2})", (A((2, 1), "bool"), A((3,), "int8"), A((2, 3), "uint8", 1))
        ),
        Call("jnp.where({0}, {1}, {2})", (A((2,), "bool"), A((3,), "int8"), A((3,), "uint8"))),
        Call("jnp.where({0}, 2, 3.5)", (A((3,), "bool"),)),
        Call("jnp.where({0}, 1, 2)", (A((3,), "int8", 0, 1),)),
        Call("jnp.where(True, {0}, 1j)", (A((3,), "float16"),)),
        Call("jnp.where({0}, {1}, 2)", (A((3,), "float32", 1), A((3,), "bfloat16"))),
        Call(
            "jnp.select([{0}, {1}], [{2}, {3}])",
            (A((3,), "bool"), A((3,), "bool", 0, 1), A((3,), "int8"), A((3,), "uint8", 1)),
        ),
        Call(
            "jnp.select([{0}], [{1}], default={2})",
            (A((2, 3), "bool"), A((3,), "float16"), A((2, 1), "float32", 1)),
        ),
        Call("jnp.select([{0}], [{1}, {1}])", (A((3,), "bool"), A((3,), "int8"))),
        Call("jnp.select([{0}], [{1}])", (A((3,), "int8"), A((3,), "int8"))),
        Call("jnp.select([], [])", ()),
        Call("jnp.select([{0}], [{1}], default=1.5)", (A((3,), "bool"), A((3,), "int8"))),
        Call(
            "jnp.piecewise({0}, [{0} < 0], [lambda v: v, lambda v: -v, 3])",
            (A((2, 3), "float32", 0, 1),),
        ),
        Call(
            "jnp.piecewise({0}, [{0} < 0, {0} > 0], [lambda v: v])", (A((2, 3), "float32", 0, 1),)
        ),
        Call("jnp.piecewise({0}, {0} < 0, [2, 7])", (A((2, 3), "int8", 0, 1),)),
        Call("jnp.piecewise({0}, [{0} < 0], [2.5])", (A((2, 3), "int8", 0, 1),)),
        Call(
            "jnp.choose({0}, [{1}, {2}])",
            ("jnp.array([0, 1, 1])", A((3,), "int8"), A((3,), "float16")),
        ),
        Call(
            "jnp.choose({0}, [{1}, {2}])", ("jnp.array([0, 2])", A((2,), "int8"), A((2,), "int8"))
        ),
        Call(
            "jnp.choose({0}, [{1}, {2}], mode='wrap')",
            ("jnp.array([[0], [3]])", A((3,), "int8"), A((2, 3), "uint8")),
        ),
        Call("jnp.choose({0}, [{1}, 5])", ("jnp.array([0, 1, 1])", A((3,), "uint8"))),
        Call("jnp.compress({0}, {1})", ("jnp.array([1, 0, 2])", A((2, 3), "int8", 0, 1))),
        Call(
            "jnp.compress({0}, {1}, axis=0)",
            ("jnp.array([True, False, True])", A((2, 3), "int8", 0, 1)),
        ),
        Call(
            "jnp.compress({0}, {1}, axis=1, size=3, fill_value=-1)",
            ("jnp.array([True, False, True])", A((2, 3), "int8", 0, 1)),
        ),
        Call(
            "jnp.extract({0}, {1}, size=5, fill_value=9)",
            (A((2, 3), "bool", 0, 1), A((2, 3), "int8", 0, 1)),
        ),
        Call("jnp.extract({0}, {1})", (A((2, 3), "int8", 0, 1), A((3, 2), "float32"))),
        Call("jnp.put({0}, {1}, {2})", x + ("jnp.array([0, 1])", "jnp.array([5, 6])")),
        Call(
            "jnp.put({0}, {1}, {2}, mode='wrap', inplace=False)",
            x + ("jnp.array([-1, 8])", "jnp.array([5, 6])"),
        ),
        Call(
            "jnp.put({0}, {1}, {2}, mode='clip', inplace=False)",
            x + ("jnp.array([-1, 8])", "jnp.array([5, 6])"),
        ),
        Call("jnp.put({0}, {1}, 2.7, inplace=False)", x + ("jnp.array([1, 2])",)),
        Call(
            "jnp.put({0}, {1}, {2}, inplace=False)",
            x + ("jnp.array([0, 1, 2])", "jnp.array([5, 6])"),
        ),
        Call(
            "jnp.put({0}, {1}, {2}, mode='bogus', inplace=False)",
            x + ("jnp.array([0])", "jnp.array([5])"),
        ),
        Call(
            "jnp.put_along_axis({0}, {1}, 9, axis=0, inplace=False, mode='clip')",
            x + ("jnp.array([[5, 0, 1]])",),
        ),
        Call(
            "jnp.put_along_axis({0}, {1}, 9, axis=None, inplace=False)", x + ("jnp.array([0, 4])",)
        ),
        Call(
            "jnp.place({0}, {1}, {2}, inplace=False)",
            (A((5,), "int8"), A((5,), "bool", 0, 1), "jnp.array([7, 8])"),
        ),
        Call(
            "jnp.place({0}, {1}, {2})",
            (A((5,), "int8"), A((5,), "bool", 0, 1), "jnp.array([7, 8])"),
        ),
        Call("jnp.clip({0})", x),
        Call("jnp.clip({0}, 5, 1)", x),
        Call("jnp.clip({0}, 1.5)", x),
        Call("jnp.clip({0}, min=300)", x),
        Call("jnp.clip({0}, -1, 1)", (A((4,), "complex64", 0),)),
        Call("jnp.clip({0}, a_min=0)", x),
        Call("jnp.clip({0}, {1})", (A((2, 3), "uint8", 0, 1), A((3,), "int8", 0, 4))),
        Call("jnp.nan_to_num({0})", (A((8,), "complex64", 1),)),
        Call("jnp.nan_to_num({0})", (A((8,), "float16", 1),)),
        Call("jnp.nan_to_num({0}, nan=jnp.inf)", (A((8,), "bfloat16", 1),)),
        Call("jnp.nan_to_num({0}, copy=False)", (A((8,), "float32", 1),)),
        Call(
            "jnp.ravel_multi_index(({0}, {1}), (2, 3))",
            ("jnp.array([0, 1, 1])", "jnp.array([2, 0, 1])"),
        ),
        Call(
            "jnp.ravel_multi_index(({0}, {1}), (2, 3), mode='clip')",
            ("jnp.array([0, 5, -1])", "jnp.array([2, 0, 9])"),
        ),
        Call("jnp.unravel_index({0}, (2, 3))", ("jnp.array([0, 5, 6, -1])",)),
        Call("jnp.unravel_index({0}, (2, 3))", ("jnp.array([1.0])",)),
    ]
    return c


def _products(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for d in dtypes:
        a, b = A((2, 3), d, 0, 1), A((3, 2), d, 0, 4)
        v, w = A((3,), d, 0, 2), A((3,), d, 0, 5)
        c += [
            Call("jnp.dot({0}, {1})", (a, b)),
            Call("jnp.matmul({0}, {1})", (a, b)),
            Call("{0} @ {1}", (a, v)),
            Call("jnp.vdot({0}, {1})", (v, w)),
            Call("jnp.inner({0}, {1})", (a, v)),
            Call("jnp.outer({0}, {1})", (v, w)),
            Call("jnp.tensordot({0}, {1}, axes=1)", (a, b)),
            Call("jnp.tensordot({0}, {1}, axes=([1], [0]))", (a, v)),
            Call("jnp.kron({0}, {1})", (a, v)),
            Call("jnp.cross({0}, {1})", (v, w)),
            Call("jnp.einsum('ij,jk->ik', {0}, {1})", (a, b)),
            Call("jnp.einsum('ij->j', {0})", (a,)),
            Call("jnp.vecdot({0}, {1})", (a, w)),
            Call("jnp.matvec({0}, {1})", (a, v)),
            Call("jnp.vecmat({0}, {1})", (v, b)),
            Call("jnp.trace({0})", (A((3, 3), d, 1),)),
            Call("jnp.linalg.norm({0})", (a,)),
            Call("jnp.linalg.norm({0}, axis=1, ord=1)", (a,)),
            Call("jnp.linalg.norm({0}, ord=jnp.inf)", (v,)),
            Call("jnp.linalg.vector_norm({0}, ord=0)", (a,)),
            Call("lax.dot({0}, {1})", (a, b)),
            Call("jnp.convolve({0}, {1})", (v, A((2,), d, 0, 3))),
            Call("jnp.correlate({0}, {1}, mode='same')", (v, A((2,), d, 0, 3))),
        ]
    if x64:
        return c
    for a, b in MIXED:
        x, y = A((2, 3), a, 0, 1), A((3, 2), b, 0, 4)
        c += [
            Call("jnp.dot({0}, {1})", (x, y)),
            Call("jnp.matmul({0}, {1}, preferred_element_type=jnp.float32)", (x, y)),
            Call("jnp.einsum('ij,jk', {0}, {1})", (x, y)),
            Call("jnp.inner({0}, {1})", (A((3,), a, 0, 1), A((3,), b))),
        ]
    f = A((2, 3), "float32", 0, 1)
    c += [
        Call("jnp.dot({0}, {1})", (f, A((2, 3), "float32"))),
        Call("jnp.matmul({0}, {1})", (f, A((2, 3), "float32"))),
        Call("jnp.matmul({0}, 2.0)", (f,)),
        Call("jnp.dot({0}, 2.0)", (A((2, 3), "float16"),)),
        Call("jnp.dot({0}, 2)", (A((2, 3), "int8"),)),
        Call("jnp.matmul({0}, {1})", (A((4, 2, 3), "int8"), A((3,), "int8"))),
        Call("jnp.matmul({0}, {1})", (A((2, 1, 2, 3), "float32"), A((4, 3, 1), "float32"))),
        Call("jnp.matmul({0}, {1})", (A((0, 3), "float32"), A((3, 2), "float32"))),
        Call(
            "jnp.dot({0}, {1}, preferred_element_type=jnp.int32)",
            (A((2, 3), "int8"), A((3,), "int8")),
        ),
        Call("jnp.dot({0}, {1}, preferred_element_type=jnp.float16)", (f, A((3,), "float32"))),
        Call("jnp.vdot({0}, {1})", (A((2, 2), "complex64", 0, 1), A((4,), "complex64", 0, 3))),
        Call("jnp.vdot({0}, {1})", (A((2, 2), "float32"), A((3,), "float32"))),
        Call("jnp.cross({0}, {1})", (A((2, 3), "float32"), A((2,), "float32"))),
        Call("jnp.cross({0}, {1})", (A((2, 2), "int8", 0, 1), A((2, 2), "int8", 0, 3))),
        Call(
            "jnp.cross({0}, {1}, axisc=0)", (A((2, 3), "float32", 0, 1), A((3,), "float32", 0, 3))
        ),
        Call("jnp.cross({0}, {1})", (A((4,), "float32"), A((4,), "float32"))),
        Call("jnp.tensordot({0}, {1}, axes=2)", (f, A((2, 3), "int8"))),
        Call("jnp.tensordot({0}, {1}, axes=0)", (A((2,), "float32"), A((3,), "int8"))),
        Call("jnp.tensordot({0}, {1}, axes=([0], [1]))", (f, A((3, 3), "float32"))),
        Call("jnp.einsum('ii', {0})", (A((3, 3), "int16", 0, 1),)),
        Call("jnp.einsum('i,i', {0}, {1})", (A((3,), "bool"), A((3,), "bool", 0, 1))),
        Call(
            "jnp.einsum('ij,jk', {0}, {1}, preferred_element_type=jnp.float32)",
            (A((2, 3), "bfloat16"), A((3, 2), "bfloat16", 0, 1)),
        ),
        Call("jnp.einsum('ij,jk', {0}, {1})", (f, A((2, 2), "float32"))),
        Call("jnp.einsum('...j,j', {0}, {1})", (A((2, 2, 3), "float32"), A((3,), "float32", 0, 2))),
        Call("jnp.kron({0}, {1})", (A((2,), "bool"), A((2, 2), "int8", 0, 1))),
        Call("jnp.outer({0}, {1})", (A((2, 2), "uint8"), A((), "float16", 0, 1))),
        Call("jnp.linalg.norm({0}, ord='fro')", (A((2, 3), "float16", 1),)),
        Call("jnp.linalg.norm({0}, ord='nuc')", (f,)),
        Call("jnp.linalg.norm({0}, ord=2)", (f,)),
        Call("jnp.linalg.norm({0}, ord=-1, keepdims=True)", (f,)),
        Call("jnp.linalg.norm({0}, ord=3)", (f,)),
        Call("jnp.linalg.norm({0}, ord=0.5, axis=0)", (f,)),
        Call("jnp.linalg.norm({0})", (A((0,), "float32"),)),
        Call("jnp.linalg.norm({0})", (A((3,), "complex64", 1),)),
        Call("jnp.linalg.det({0})", (A((3, 3), "float32", 0, 1),)),
        Call("jnp.linalg.det({0})", (A((3, 3), "int8", 0, 1),)),
        Call("jnp.linalg.det({0})", (A((2, 3), "float32", 0, 1),)),
        Call("jnp.linalg.inv({0})", (A((2, 2), "float16", 0, 1),)),
        Call("jnp.linalg.slogdet({0})", (A((3, 3), "float32", 0, 1),)),
        Call("jnp.linalg.matrix_power({0}, 3)", (A((2, 2), "int8", 0, 1),)),
        Call("jnp.linalg.matrix_power({0}, -1)", (A((2, 2), "int8", 0, 1),)),
        Call("jnp.linalg.matrix_power({0}, 0)", (A((2, 2), "uint8", 0, 1),)),
        Call("jnp.linalg.outer({0}, {1})", (A((2,), "int8"), A((3,), "float16"))),
        Call("jnp.linalg.cross({0}, {1})", (A((3,), "int8"), A((3,), "int8", 0, 1))),
        Call("jnp.linalg.matrix_norm({0})", (A((2, 2, 3), "float32"),)),
        Call("jnp.linalg.vecdot({0}, {1})", (A((2, 3), "complex64"), A((3,), "complex64", 0, 2))),
        Call("jnp.linalg.tensordot({0}, {1})", (A((2, 3), "float32"), A((2, 3), "int8"))),
        Call("jnp.linalg.trace({0}, offset=-1)", (A((3, 3), "int16", 0, 1),)),
        Call("jnp.linalg.diagonal({0})", (A((2, 3), "int16", 0, 1),)),
        Call("jnp.convolve({0}, {1})", (A((0,), "float32"), A((2,), "float32"))),
        Call("jnp.convolve({0}, {1}, mode='valid')", (A((2,), "int8"), A((4,), "int8", 0, 1))),
        Call("jnp.convolve({0}, {1})", (A((2, 2), "float32"), A((2,), "float32"))),
        Call(
            "jnp.correlate({0}, {1}, mode='full')",
            (A((3,), "complex64", 0, 1), A((2,), "complex64")),
        ),
        Call("jnp.convolve({0}, {1})", (A((3,), "bool"), A((2,), "bool", 0, 1))),
    ]
    return c


def _polynomials(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for d in dtypes:
        p, q = A((3,), d, 0, 1), A((2,), d, 0, 4)
        c += [
            Call("jnp.polyval({0}, {1})", (p, A((2, 2), d, 0, 2))),
            Call("jnp.polyadd({0}, {1})", (p, q)),
            Call("jnp.polysub({0}, {1})", (p, q)),
            Call("jnp.polymul({0}, {1})", (p, q)),
            Call("jnp.polyder({0})", (p,)),
            Call("jnp.polyint({0})", (p,)),
            Call("jnp.poly({0})", (p,)),
            Call("jnp.vander({0})", (p,)),
        ]
    if x64:
        return c
    p = A((4,), "float32", 0, 1)
    c += [
        Call("jnp.polyval({0}, 2)", (A((3,), "int8", 0, 1),)),
        Call("jnp.polyval({0}, 2.5)", (A((3,), "int8", 0, 1),)),
        Call("jnp.polyval({0}, {1})", (A((3,), "int8", 0, 1), A((2,), "float16"))),
        Call("jnp.polyval({0}, {1})", (A((0,), "float32"), A((2,), "float32"))),
        Call("jnp.polyval({0}, {1}, unroll=2)", (p, A((2,), "float32"))),
        Call("jnp.polyval({0}, {1})", (A((2, 2), "float32"), A((2,), "float32"))),
        Call("jnp.polyadd({0}, {1})", (A((3,), "int8"), A((2,), "float16"))),
        Call(
            "jnp.polymul({0}, {1}, trim_leading_zeros=True)",
            ("jnp.array([0.0, 0.0, 1.0, 2.0])", A((2,), "int8")),
        ),
        Call("jnp.polyder({0}, 2)", (p,)),
        Call("jnp.polyder({0}, 0)", (p,)),
        Call("jnp.polyder({0}, -1)", (p,)),
        Call("jnp.polyder({0}, 5)", (A((3,), "int8", 0, 1),)),
        Call("jnp.polyint({0}, 2, k=[1, 2])", (p,)),
        Call("jnp.polyint({0}, 2, k=3)", (A((3,), "int8", 0, 1),)),
        Call("jnp.polyint({0}, 2, k=[1, 2, 3])", (p,)),
        Call("jnp.polyint({0}, -1)", (p,)),
        Call("jnp.polydiv({0}, {1})", (p, A((2,), "float32", 0, 3))),
        Call("jnp.polydiv({0}, {1})", (A((4,), "int8", 0, 1), A((2,), "int8", 0, 3))),
        Call("jnp.poly({0})", (A((2, 2), "float32", 0, 1),)),
        Call("jnp.poly({0})", (A((2, 3), "float32", 0, 1),)),
        Call("jnp.poly({0})", (A((), "float32", 0, 1),)),
        Call("jnp.vander({0}, 4, increasing=True)", (A((3,), "int8", 0, 1),)),
        Call("jnp.vander({0}, 0)", (A((3,), "float32", 0, 1),)),
        Call("jnp.vander({0})", (A((2, 2), "float32", 0, 1),)),
        Call("jnp.polyfit({0}, {1}, 1)", (A((5,), "int8", 0, 1), A((5,), "float32", 0, 4))),
        Call(
            "jnp.polyfit({0}, {1}, 2, w={2})",
            (A((5,), "float32", 0, 1), A((5,), "float32", 0, 4), A((5,), "float32", 0, 2)),
        ),
        Call("jnp.polyfit({0}, {1}, -1)", (A((5,), "float32", 0, 1), A((5,), "float32", 0, 4))),
        Call("jnp.polyfit({0}, {1}, 1)", (A((5,), "float32", 0, 1), A((4,), "float32", 0, 4))),
    ]
    return c


def _rounding_compare(dtypes: tuple[str, ...], x64: bool) -> list[Call]:
    c: list[Call] = []
    for d in dtypes:
        x = (A((2, 4), d, 0, 1),)
        s = (A((2, 4), d, 1),)
        c += [Call(f"jnp.round({{0}}, {n})", x) for n in (-1, 1, 2)]
        c += [Call(f"jnp.round({{0}} / 3, {n})", x) for n in (1, 2)]  # not halves: last bits
        c += [
            Call("jnp.round({0} * 37, -1)", x),
            Call("jnp.around({0}, 1)", s),
            Call("jnp.isclose({0}, {1}, equal_nan=True)", s + (A((2, 4), d, 1, 1),)),
            Call("jnp.isclose({0}, {1}, rtol=0.5, atol=1)", x + (A((2, 4), d, 0, 2),)),
            Call("jnp.allclose({0}, {1})", x + (A((2, 4), d, 0, 2),)),
            Call("jnp.allclose({0}, {0}, equal_nan=True)", s),
            Call("jnp.array_equal({0}, {0})", s),
            Call("jnp.array_equal({0}, {0}, equal_nan=True)", s),
            Call("jnp.array_equiv({0}, {1})", x + (A((4,), d, 0, 1),)),
            Call("jnp.array_equal({0}, {1})", x + (A((4,), d, 0, 1),)),
            Call("{0} == {1}", s + (A((2, 4), d, 1, 1),)),
            Call("{0} // {1}", s + (A((2, 4), d, 0, 3),)),
            Call("{0} % {1}", s + (A((2, 4), d, 0, 3),)),
            Call("-{0}", s),
            Call("~{0}", s),
            Call("{0} ** 2", s),
            Call("{0} ** -1", x),
            Call("2 ** {0}", x),
            Call("{0} ** 0.5", x),
            Call("abs({0})", s),
            Call("{0} << 3", s),
            Call("{0} >> 1", s),
            Call("{0} & {1}", s + (A((2, 4), d, 0, 3),)),
            Call("{0}.astype(jnp.int8)", s),
            Call("{0}.astype(jnp.uint8)", s),
            Call("{0}.astype(jnp.int32)", s),
            Call("{0}.astype(jnp.uint32)", s),
            Call("{0}.astype(jnp.float16)", s),
            Call("{0}.astype(jnp.bfloat16)", s),
            Call("{0}.astype(bool)", s),
            Call("{0}.astype(jnp.complex64)", s),
            Call("lax.convert_element_type({0}, jnp.int16)", s),
            Call("lax.bitcast_convert_type({0}, jnp.uint8)", s),
        ]
    if x64:
        return c
    c += [
        Call("jnp.round({0}, 1.5)", (A((3,), "float32", 0, 1),)),
        Call("jnp.round({0})", (A((6,), "float32", 0, 0),)),
        Call("jnp.round({0} + 0.5)", (A((6,), "float16", 0, 0),)),
        Call("jnp.round(2.5)", ()),
        Call("jnp.round(7, -1)", ()),
        Call("jnp.fix(2.5)", ()),
        Call("jnp.isclose({0}, 1)", (A((3,), "int8", 0, 1),)),
        Call("jnp.isclose({0}, {1})", (A((3,), "int8", 0, 1), A((3,), "float16"))),
        Call("jnp.isclose({0}, 1e-9)", (A((3,), "complex64", 0, 1),)),
        Call("jnp.allclose({0}, {1})", (A((2, 3), "float32"), A((3, 2), "float32"))),
        Call("jnp.array_equal({0}, {1})", (A((2, 3), "int8"), A((2, 3), "float32"))),
        Call("jnp.array_equal({0}, [1, 2])", (A((2, 3), "int8"),)),
        Call("jnp.array_equiv({0}, {1})", (A((2, 3), "float32"), A((3, 2), "float32"))),
    ]
    return c


def grid(x64: bool = False) -> list[Call]:
    """Every generated call (the 64-bit dtypes' smaller set with `x64`)."""
    dt = DTYPES_X64 if x64 else DTYPES
    c = _elementwise(dt, x64) + _reductions(dt, x64) + _cumulative(dt, x64)
    c += _sorting(dt, x64) + _indexing(dt, x64) + _products(dt, x64)
    c += _polynomials(dt, x64) + _rounding_compare(dt, x64)
    return c if x64 else c + _shapes()


def eager(call: Call) -> str:
    """The call's source, run eagerly."""
    return call.template.format(*call.args)


def jitted(call: Call) -> str:
    """The call's source with its array arguments passed through `jax.jit`."""
    names = [f"a{i}" for i in range(len(call.args))]
    body = call.template.format(*names)
    return f"jax.jit(lambda {', '.join(names)}: {body})({', '.join(call.args)})"


def cases() -> list[str]:
    return [eager(c) for c in grid()]
