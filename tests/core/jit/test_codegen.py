"""Every primitive, lowered to numba, against the numpy reference backend (values and dtypes)."""

import numpy as np
import pytest

from core import ir
from core.api import make_jaxpr
from core.backends.numba.registry import (
    Reduce,
    Scalar,
    lowering_rule,
    lowering_rules,
    register_lowering,
)
from core.jit.codegen import compile_jaxpr, threaded
from core.lax import special
from core.primitive import all_primitives
from core.prims import elementwise as ew
from core.prims import gather, indexing, linalg, random_bits, reductions, rev, shapes, sorting

rng = np.random.default_rng(0)
F32, F64, I32, U32, B = np.float32, np.float64, np.int32, np.uint32, np.bool_


def rand(shape, dtype=F32, lo=-2.0, hi=2.0):
    x = rng.uniform(lo, hi, shape)
    if np.dtype(dtype).kind in "iu":
        x = np.floor(x)
    return x.astype(dtype)


SPECIAL = np.array([[0.0, -0.0, np.inf], [-np.inf, np.nan, 1e-30]], F32)
POS = rand((2, 3), lo=0.1, hi=4.0)
UNIT = rand((2, 3), lo=-0.99, hi=0.99)
X, Y = rand((2, 3)), rand((2, 3))
IX, IY = rand((2, 3), I32, -9, 9), np.array([[3, -2, 5], [0, 7, -1]], I32)
UX = np.array([[0, 1, 7], [2**31, 2**32 - 1, 12]], U32)
SHIFT = np.array([[0, 1, 31], [32, -1, 4]], I32)
BX, BY = X > 0, Y > 0


def _unary(name, *inputs, **kw):
    fn = getattr(ew, name)
    return [pytest.param(fn, (x,), kw, id=f"{name}-{x.dtype}-{i}") for i, x in enumerate(inputs)]


def _binary(name, *pairs, **kw):
    fn = getattr(ew, name)
    return [pytest.param(fn, p, kw, id=f"{name}-{p[0].dtype}-{i}") for i, p in enumerate(pairs)]


CASES = [
    *_binary("add", (X, Y), (IX, IY), (X.astype(F64), Y.astype(F64))),
    *_binary("sub", (X, Y), (IX, IY)),
    *_binary("mul", (X, Y), (IX, IY), (BX, BY)),
    *_binary("div", (X, Y), (IX, IY), (UX, UX[::-1])),
    *_binary("rem", (X, Y), (IX, IY)),
    *_binary("pow", (POS, Y)),
    *_binary("max", (X, Y), (IX, IY), (SPECIAL, X)),
    *_binary("min", (X, Y), (IX, IY), (SPECIAL, X)),
    *_binary("atan2", (X, Y)),
    *_binary("eq", (X, Y), (IX, IY)),
    *_binary("ne", (X, Y)),
    *_binary("lt", (X, Y)),
    *_binary("le", (IX, IY)),
    *_binary("gt", (X, Y)),
    *_binary("ge", (X, Y)),
    *_binary("bitwise_and", (IX, IY), (BX, BY)),
    *_binary("bitwise_or", (IX, IY), (BX, BY)),
    *_binary("bitwise_xor", (IX, IY), (BX, BY)),
    *_binary("shift_left", (IX, SHIFT), (UX, SHIFT.astype(U32))),
    *_binary("shift_right_logical", (IX, SHIFT), (UX, SHIFT.astype(U32))),
    *_binary("shift_right_arithmetic", (IX, SHIFT), (UX, SHIFT.astype(U32))),
    *_unary("neg", X, IX),
    *_unary("sign", X, IX, SPECIAL),
    *_unary("floor", X),
    *_unary("ceil", X),
    *_unary("is_finite", SPECIAL),
    *_unary("abs", X, IX),
    *_unary("exp", X, X.astype(F64), SPECIAL),
    *_unary("exp2", X, X.astype(F64)),
    *_unary("log", POS, POS.astype(F64), SPECIAL),
    *_unary("log1p", X * 0.4, SPECIAL),
    *_unary("expm1", X, SPECIAL),
    *_unary("sqrt", POS),
    *_unary("rsqrt", POS),
    *_unary("cbrt", X),
    *_unary("tanh", X, X.astype(F64), SPECIAL),
    *_unary("logistic", X, X.astype(F64), SPECIAL),
    *_unary("sin", X * 10, X.astype(F64)),
    *_unary("cos", X * 10),
    *_unary("tan", X),
    *_unary("asin", UNIT),
    *_unary("acos", UNIT),
    *_unary("atan", X),
    *_unary("sinh", X),
    *_unary("cosh", X),
    *_unary("asinh", X),
    *_unary("acosh", POS + 1),
    *_unary("atanh", UNIT),
    *_unary("erf", X * 2, X.astype(F64), SPECIAL),
    *_unary("erf_inv", UNIT, UNIT.astype(F64)),
    *_unary("lgamma", POS),
    *_unary("digamma", POS, X),
    *_unary("bitwise_not", IX, BX),
    *_unary("population_count", np.abs(IX), UX),
    *_unary("stop_gradient_prim", X),
    *[
        pytest.param(p.bind, ((X + 1j * Y).astype(np.complex64),), {}, id=p.name)
        for p in (ew.real_p, ew.imag_p)
    ],
    pytest.param(ew.complex_p.bind, (X, SPECIAL), {}, id="complex-f32"),
    pytest.param(ew.round, (X * 3,), {"rounding_method": 0}, id="round-away"),
    pytest.param(
        ew.round,
        (np.array([0.5, 1.5, -2.5, 0.49999997], F32),),
        {"rounding_method": 1},
        id="round-even",
    ),
    pytest.param(ew.integer_pow, (X,), {"y": 3}, id="integer_pow-3"),
    pytest.param(ew.square, (X,), {}, id="square"),
    pytest.param(ew.square, (IX,), {}, id="square-int"),
    pytest.param(ew.integer_pow, (X,), {"y": -2}, id="integer_pow--2"),
    pytest.param(ew.integer_pow, (IX,), {"y": 5}, id="integer_pow-int"),
    pytest.param(ew.select_n, (BX, X, Y), {}, id="select_n-bool"),
    pytest.param(
        ew.select_n, (np.array([[0, 1, 2], [2, 1, 0]], I32), X, Y, X * 2), {}, id="select_n-int"
    ),
    pytest.param(shapes.convert_element_type, (X * 1e9,), {"new_dtype": I32}, id="convert-f32-i32"),
    pytest.param(shapes.convert_element_type, (IX,), {"new_dtype": F32}, id="convert-i32-f32"),
    pytest.param(shapes.convert_element_type, (X,), {"new_dtype": B}, id="convert-f32-bool"),
    pytest.param(shapes.convert_element_type, (BX,), {"new_dtype": F32}, id="convert-bool-f32"),
    pytest.param(shapes.convert_element_type, (UX,), {"new_dtype": I32}, id="convert-u32-i32"),
    pytest.param(
        shapes.broadcast_in_dim,
        (rand((3,)),),
        {"shape": (2, 3), "broadcast_dimensions": (1,)},
        id="broadcast-row",
    ),
    pytest.param(
        shapes.broadcast_in_dim,
        (rand((2, 1)),),
        {"shape": (2, 4, 3), "broadcast_dimensions": (0, 2)},
        id="broadcast-unit",
    ),
    pytest.param(shapes.reshape, (rand((2, 3, 4)),), {"new_sizes": (6, 4)}, id="reshape"),
    pytest.param(shapes.squeeze, (rand((2, 1, 4, 1)),), {"dimensions": (1, 3)}, id="squeeze"),
    pytest.param(shapes.transpose, (rand((2, 3, 4)),), {"permutation": (2, 0, 1)}, id="transpose"),
    pytest.param(lambda: shapes.iota(I32, (2, 3), 1), (), {}, id="iota"),
    pytest.param(
        indexing.slice,
        (rand((5, 6)),),
        {"start_indices": (1, 0), "limit_indices": (5, 5), "strides": (2, 3)},
        id="slice",
    ),
    pytest.param(
        indexing.pad, (X, np.float32(-1)), {"padding_config": ((1, 2, 1), (-1, 0, 0))}, id="pad"
    ),
    pytest.param(lambda a, b: indexing.concatenate([a, b, a], 1), (X, Y), {}, id="concatenate"),
    pytest.param(lambda a, b: indexing.stack([a, b, a], 1), (X, Y), {}, id="stack"),
    pytest.param(lambda a, b: indexing.stack([a, b], 2), (X, Y), {}, id="stack-last"),
    pytest.param(
        lambda a: indexing.stack([shapes.squeeze(a, (0,)), shapes.iota(F32, (3,))], 0),
        (rand((1, 3)),),
        {},
        id="stack-view-iota",
    ),
    pytest.param(reductions.argmax, (SPECIAL,), {"axis": 1}, id="argmax-nan"),
    pytest.param(reductions.argmin, (rand((3, 4, 2)),), {"axis": 1}, id="argmin"),
    pytest.param(
        reductions.reduce_sum, (rand((3, 4, 5)),), {"axes": (0, 2)}, id="reduce_sum-outer"
    ),
    pytest.param(reductions.reduce_sum, (IX,), {"axes": (1,)}, id="reduce_sum-int"),
    pytest.param(
        reductions.reduce_sum_in_order_p.bind,
        (rand((3, 4, 5)),),
        {"axes": (0, 2)},
        id="reduce_sum_in_order-outer",
    ),
    pytest.param(
        reductions.reduce_sum_in_order_p.bind,
        ((rand((3, 4, 5)) + 1j * rand((3, 4, 5))).astype(np.complex64),),
        {"axes": (1, 2)},
        id="reduce_sum_in_order-inner",
    ),
    pytest.param(
        reductions.reduce_sum_ynn_p.bind,
        (rand((3, 40, 50)),),
        {"axes": (0, 2)},
        id="reduce_sum_ynn",
    ),
    pytest.param(reductions.reduce_max, (SPECIAL,), {"axes": (1,)}, id="reduce_max-nan"),
    pytest.param(reductions.reduce_min, (IX,), {"axes": (0, 1)}, id="reduce_min-all"),
    pytest.param(reductions.reduce_prod, (X,), {"axes": (0,)}, id="reduce_prod"),
    pytest.param(reductions.reduce_and, (BX,), {"axes": (1,)}, id="reduce_and"),
    pytest.param(reductions.reduce_or, (BX,), {"axes": (0,)}, id="reduce_or"),
]


IDX = np.array([[2, 0], [1, 3], [-1, 9]], I32)  # the last two rows are out of bounds
KEYS = np.array([[3, 1, 2, 1], [0, 0, 5, -1]], I32)
CASES += [
    pytest.param(ew.clamp, (np.float32(-0.5), SPECIAL, np.float32(0.5)), {}, id="clamp-f32"),
    pytest.param(ew.clamp, (IY, IX, IY + 4), {}, id="clamp-i32"),
    pytest.param(ew.polygamma, (np.array([[0, 1, 2], [3, 1, 2]], F32), POS), {}, id="polygamma"),
    pytest.param(
        lambda k0, k1, a, b: random_bits.threefry2x32(k0, k1, a, b),
        (UX, UX[::-1], UX + 5, UX * 3),
        {},
        id="threefry2x32",
    ),
    pytest.param(random_bits.bitcast_convert_type, (X,), {"new_dtype": U32}, id="bitcast-f32-u32"),
    pytest.param(random_bits.bitcast_convert_type, (UX,), {"new_dtype": F32}, id="bitcast-u32-f32"),
    pytest.param(rev.rev, (rand((3, 4)),), {"dimensions": (1,)}, id="rev"),
    pytest.param(gather.gather, (rand((3, 4)), IDX[:2, :1]), {"axes": (0,)}, id="gather-rows"),
    pytest.param(
        gather.gather, (rand((3, 4, 5)), IDX), {"axes": (2, 0), "mode": "fill"}, id="gather-fill"
    ),
    pytest.param(gather.gather, (rand((3, 4)), IDX), {"axes": (0, 1)}, id="gather-clip"),
    pytest.param(
        gather.scatter,
        (rand((4, 3)), IDX[:, :1], rand((3, 3))),
        {"axes": (0,), "kind": "add"},
        id="scatter-add-drop",
    ),
    pytest.param(
        gather.scatter,
        (IX, np.array([[1], [1], [0]], I32), IY.T.copy()),
        {"axes": (1,), "kind": "max", "mode": "clip"},
        id="scatter-max-int",
    ),
    pytest.param(
        gather.scatter,
        (X, np.array([[1, 2], [0, 0]], I32), np.float32([5, 6])),
        {"axes": (0, 1), "kind": "set"},
        id="scatter-set",
    ),
    # JAX's dimension numbers: batching dims, windows, window dims before the batch dims
    pytest.param(
        gather.bind_gather,
        (rand((3, 4)), np.array([[[1]], [[-1]], [[4]]], I32)),
        {
            "dimension_numbers": gather.GatherDimensionNumbers((), (1,), (1,), (0,), (0,)),
            "slice_sizes": (1, 1),
            "mode": "fill",
        },
        id="gather-batching-dims",
    ),
    *(
        pytest.param(
            gather.bind_gather,
            (rand((4, 5)), np.array([[1, 3], [3, 4], [-1, 0]], I32)),
            {
                "dimension_numbers": gather.GatherDimensionNumbers((1, 2), (), (0, 1)),
                "slice_sizes": (2, 2),
                "mode": mode,
            },
            id=f"gather-windows-{mode}",
        )
        for mode in ("clip", "fill")
    ),
    pytest.param(
        gather.bind_gather,
        (rand((3, 4)), IDX[:, :1]),
        {
            "dimension_numbers": gather.GatherDimensionNumbers((0,), (1,), (1,)),
            "slice_sizes": (3, 1),
        },
        id="gather-window-first",
    ),
    pytest.param(
        lambda x, i, u: gather.bind_scatter(
            "add", x, i, u, gather.ScatterDimensionNumbers((1, 2), (), (0, 1))
        ),
        (rand((4, 5)), np.array([[1, 3], [3, 4], [2, 2]], I32), rand((3, 2, 2))),
        {},
        id="scatter-windows-drop",
    ),
    pytest.param(
        lambda x, i, u: gather.bind_scatter(
            "set", x, i, u, gather.ScatterDimensionNumbers((), (1,), (1,), (0,), (0,))
        ),
        (rand((3, 4)), np.array([[[1]], [[-1]], [[2]]], I32), rand((3, 1))),
        {},
        id="scatter-batching-dims",
    ),
    pytest.param(
        lambda x, i: gather.dynamic_slice(x, [i, np.int32(1)], (2, 2)),
        (rand((4, 3)), np.int32(3)),
        {},
        id="dynamic_slice",
    ),
    pytest.param(
        lambda x, u, i: gather.dynamic_update_slice(x, u, [np.int32(0), i]),
        (rand((4, 3)), rand((2, 2)), np.int32(-5)),
        {},
        id="dynamic_update_slice",
    ),
    pytest.param(sorting.cumsum, (rand((3, 4)),), {"axis": 1}, id="cumsum"),
    pytest.param(sorting.cumprod, (rand((3, 4)),), {"axis": 0, "reverse": True}, id="cumprod"),
    pytest.param(sorting.cummax, (SPECIAL,), {"axis": 1}, id="cummax"),
    pytest.param(sorting.cummin, (IX,), {"axis": 0, "reverse": True}, id="cummin"),
    pytest.param(lambda x: sorting.sort(x, 0), (SPECIAL,), {}, id="sort-nan"),
    pytest.param(
        lambda k, v: sorting.sort([k, v], 1, num_keys=2),
        (KEYS, KEYS[::-1] * 2),
        {},
        id="sort-2keys",
    ),
    pytest.param(
        sorting.top_k, (np.array([[1, 3, 3, 2], [0, -1, 5, 5]], F32),), {"k": 3}, id="top_k"
    ),
    pytest.param(sorting.top_k, (rand((4, 3)),), {"k": 2, "axis": 0}, id="top_k-axis0"),
    pytest.param(
        lambda p, x, y: ew.select_n(p, x, y),
        (True, rand((3, 4)), rand((3, 4))),
        {},
        id="select_n-scalar",
    ),
    # JAX's primitives compiled as their compositions (`Primitive.composition`)
    pytest.param(lambda x: indexing.split(x, (1, 3), 1), (rand((3, 4)),), {}, id="split"),
    pytest.param(lambda x: indexing.unstack(x, 1), (rand((3, 4)),), {}, id="unstack"),
    pytest.param(lambda x: indexing.tile(x, (2, 3)), (rand((3, 1)),), {}, id="tile"),
    pytest.param(special.erfc, (SPECIAL,), {}, id="erfc"),
    pytest.param(shapes.copy_p.bind, (rand((3, 4)),), {}, id="copy"),
]


def _dot(dims, x, y):
    return pytest.param(
        lambda a, b: linalg.dot_general(a, b, dims),
        (x, y),
        {},
        id=f"dot_general-{x.dtype}-{x.shape}-{y.shape}-{dims}",
    )


CASES += [
    _dot((((1,), (0,)), ((), ())), rand((3, 4)), rand((4, 5))),
    _dot((((0,), (0,)), ((), ())), rand((4, 3)), rand((4, 5))),
    _dot((((1,), (1,)), ((), ())), rand((3, 4)), rand((5, 4))),
    _dot((((2,), (1,)), ((0,), (0,))), rand((2, 3, 4)), rand((2, 4, 5))),
    _dot((((0, 2), (2, 0)), ((), ())), rand((2, 3, 4)), rand((4, 5, 2))),
    _dot((((0,), (0,)), ((), ())), rand((4,)), rand((4,))),
    _dot((((1,), (0,)), ((), ())), rand((3, 4), I32), rand((4, 2), I32)),
    _dot((((1,), (0,)), ((), ())), rand((3, 4), F64), rand((4, 2), F64)),
]


def check(fn, args, kw, rtol=2e-6, atol=1e-6):
    closed = make_jaxpr(lambda *a: fn(*a, **kw))(*args)
    got = compile_jaxpr(closed.jaxpr)(*closed.consts, *args)
    want = ir.eval_jaxpr(closed.jaxpr, closed.consts, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fn, args, kw", CASES)
def test_primitive_matches_numpy_backend(fn, args, kw):
    check(fn, args, kw)


# Primitives that never reach the compiler: `core/jit/simplify.py` inlines them (nested jits,
# custom derivatives, linear solves) and linearization removes custom_lin.
NEVER_COMPILED = {
    "jit",
    "custom_jvp_call",
    "custom_vjp_call",
    "custom_lin",
    "custom_linear_solve",
    "linear_call",  # core/linear_call.py: inlined by core/jit/simplify.py, as linear_solve
    "custom_vmap_call",  # core/custom_batching.py: inlined by core/jit/simplify.py
    "remat2",  # core/checkpoint.py: inlined by core/jit/simplify.py
    "name",  # checkpoint_name's identity: dropped by core/jit/simplify.py
    "add_any",  # AD's sums: compiled as `add` (core/jit/canonical.py)
    # JAX's primitives numbax composes: simplify inlines their `Primitive.composition`
    *(n for n, p in all_primitives().items() if p.composition is not None),
    # the key primitives: simplify inlines their physical rules (core/prims/prng.py)
    *(n for n, p in all_primitives().items() if p.on_keys),
}
# Lowered and tested by their own files (control flow), or never lowered: collectives reach the
# compiler only outside vmap, where their rule raises a clear error.
NOT_HERE = NEVER_COMPILED | {"cond", "scan", "while"}
NOT_HERE |= {"psum", "pmax", "pmin", "all_gather", "axis_index"}
# Rule modules whose primitives this file's CASES cover (the others have their own files).
MINE = tuple(
    f"core.backends.numba.rules.{family}"
    for family in (
        "elementwise",
        "shapes",
        "random_bits",
        "indexing",
        "rev",
        "reductions",
        "linalg",
        "collectives",
        "gather",
        "sorting",
    )
)


def test_every_primitive_jit_supports_has_a_registered_rule():
    rules = lowering_rules()
    prims = all_primitives()
    unlowered = sorted(n for n, p in prims.items() if p not in rules and n not in NEVER_COMPILED)
    assert not unlowered, f"primitives without a numba lowering: {unlowered}"
    inlined = sorted(n for n in NEVER_COMPILED if prims[n] in rules)
    assert not inlined, f"inlined primitives should not have a rule: {inlined}"
    assert all(not hasattr(p, "lowering") for p in prims.values())  # no back end in the prims


def test_every_primitive_lowered_here_has_a_case():
    tested = {p.id.split("-")[0] for p in CASES}
    aliases = {
        "bitwise_and": "and",
        "bitwise_or": "or",
        "bitwise_xor": "xor",
        "bitwise_not": "not",
        "stop_gradient_prim": "stop_gradient",
        "convert": "convert_element_type",
        "broadcast": "broadcast_in_dim",
        "bitcast": "bitcast_convert_type",
        "gather": "point_gather",  # what the gather and scatter compositions compile to
        "scatter": "point_scatter",
    }
    tested = {aliases.get(t, t) for t in tested}
    mine = {
        p.name
        for p, rule in lowering_rules().items()
        if isinstance(rule, Reduce) or getattr(rule.fn, "__module__", None) in MINE
    }
    missing = mine - tested - NOT_HERE
    assert not missing, f"primitives without a lowering test case: {sorted(missing)}"


def test_register_lowering_takes_only_rule_kinds():
    with pytest.raises(TypeError, match="Scalar, View, Reduce or Kernel"):
        register_lowering(ew.add_p, lambda ctx, a, b: f"({a} + {b})")
    assert isinstance(lowering_rule(ew.add_p), Scalar)


def test_fusion_chain_broadcast_and_reduction():
    """Softmax cross-entropy shape: max, broadcast back, exp, sum, log, all fused where legal."""

    def f(logits, bias):
        z = ew.add(logits, shapes.broadcast_in_dim(bias, (4, 10), (1,)))
        m = reductions.reduce_max(z, (1,))
        e = ew.exp(ew.sub(z, shapes.broadcast_in_dim(m, (4, 10), (0,))))
        s = reductions.reduce_sum(e, (1,))
        return ew.add(ew.log(s), m), reductions.reduce_sum(ew.mul(e, e), (0, 1))

    check(f, (rand((4, 10)), rand((10,))), {})


def test_transposed_views_feed_dot_without_copies():
    def f(x, y):
        return linalg.dot_general(shapes.transpose(x, (1, 0)), y, (((1,), (0,)), ((), ())))

    x, y = rand((4, 3)), rand((4, 5))
    check(f, (x, y), {})
    source = compile_jaxpr(make_jaxpr(f)(x, y).jaxpr).source
    assert "ascontiguousarray" not in source and "for i0" not in source


def test_scalars_literals_and_constants_as_arguments():
    big = rand((50,))

    def f(x, s):
        return ew.add(ew.mul(x, shapes.broadcast_in_dim(s, (50,), ())), big), ew.mul(s, s)

    closed = make_jaxpr(f)(rand((50,)), np.float32(3))
    assert closed.consts or closed.jaxpr.constvars  # the closed-over array is an argument
    assert "rt.empty((50,)," in compile_jaxpr(closed.jaxpr).source
    check(f, (rand((50,)), np.float32(3)), {})


def test_elementwise_chain_is_one_loop():
    def f(x):
        return ew.mul(ew.logistic(x), ew.sub(ew.full_like(x, 1), ew.logistic(x)))

    source = compile_jaxpr(make_jaxpr(f)(rand((8, 8))).jaxpr).source
    assert source.count("for i") == 1 and source.count("rt.empty") == 1


def test_wrong_dtype_and_layout_arguments_are_converted():
    closed = make_jaxpr(lambda x: ew.mul(x, x))(rand((3, 4)))
    f = compile_jaxpr(closed.jaxpr)
    x = rand((4, 3), F64).T
    np.testing.assert_allclose(f(x)[0], (x * x).astype(F32), rtol=1e-6)


def test_float_to_int_saturates_like_jax():
    x = np.array([np.inf, -np.inf, np.nan, 3e9, -3e9, 2.7, -2.7], F32)
    closed = make_jaxpr(lambda a: shapes.convert_element_type(a, I32))(x)
    got = compile_jaxpr(closed.jaxpr)(x)[0]
    np.testing.assert_array_equal(got, [2**31 - 1, -(2**31), 0, 2**31 - 1, -(2**31), 2, -2])


def test_large_elementwise_loops_run_threaded():
    def f(x, b):
        return ew.mul(ew.exp(x), shapes.broadcast_in_dim(b, (512, 300), (1,)))

    args = (rand((512, 300)), rand((300,)))
    assert threaded(compile_jaxpr(make_jaxpr(f)(*args).jaxpr).source)
    check(f, args, {})


def test_small_outputs_are_stored_into_their_packed_rows():
    """Loops write packed outputs in place (no copy loops), and other units can still read
    them (a reduction, and a dot, which needs them as arrays of their own)."""

    def f(m, v, w):
        m2 = ew.add(ew.mul(m, ew.full_like(m, 0.9)), v)
        v2 = ew.mul(v, v)
        w2 = ew.sub(w, m2)
        dot = linalg.dot_general(
            shapes.broadcast_in_dim(m2, (1, 8), (1,)), rand((8, 3)), (((1,), (0,)), ((), ()))
        )
        return m2, v2, w2, reductions.reduce_sum(m2, (0,)), dot

    args = (rand((8,)), rand((8,)), rand((8,)))
    source = compile_jaxpr(make_jaxpr(f)(*args).jaxpr).source
    assert "for j" not in source  # no copy of a computed row into its pack
    check(f, args, {})


@pytest.mark.parametrize(
    "fn, args",
    [
        pytest.param(
            lambda x, i: indexing.concatenate(
                [shapes.iota(I32, (3, 1), 0), x, shapes.broadcast_in_dim(i, (3, 2), ())], 1
            ),
            (IX[:, :3].T.copy(), np.int32(7)),
            id="concatenate-iota-broadcast",
        ),
        pytest.param(
            lambda x, u: gather.scatter(
                ew.full_like(x, 0), np.array([[1], [1], [3]], I32), u, axes=(0,), kind="add"
            ),
            (rand((4, 2)), rand((3, 2))),
            id="scatter-into-broadcast",
        ),
        pytest.param(
            lambda x, u: indexing.pad(
                gather.dynamic_update_slice(x, u, [np.int32(1), np.int32(0)]),
                np.float32(0),
                ((0, 1, 0), (2, 0, 1)),
            ),
            (rand((3, 4)), rand((1, 4))),
            id="pad-of-update",
        ),
    ],
)
def test_array_blocks_are_copied_with_loops(fn, args):
    """Block copies are loops over `rt.ld`/`rt.st`: assigning an array into a slice would make
    numba compile its shape-mismatch error formatting (seconds per process)."""
    source = compile_jaxpr(make_jaxpr(fn)(*args).jaxpr).source
    assert "] = " not in source
    check(fn, args, {})


def test_rules_live_in_the_numba_backend_mirroring_the_prims():
    """Each rule is defined in `core.backends.numba.rules.<family>`, where `<family>` is the
    module declaring its primitive (`core.prims.<family>`, or `core.<family>` for callbacks and
    debug), and `import core` imports neither numba nor the rules (the registry, numba-free, may
    be loaded: the fusion planner that the profiler's cost model uses reads rule kinds)."""
    import subprocess
    import sys

    for prim, rule in lowering_rules().items():
        fn = getattr(rule, "fn", None)
        if fn is None:
            continue
        family = fn.__module__.removeprefix("core.backends.numba.rules.")
        assert family != fn.__module__, (prim.name, fn.__module__)
        declaring = sys.modules.get(f"core.prims.{family}") or sys.modules[f"core.{family}"]
        assert any(v is prim for v in vars(declaring).values()), (prim.name, fn.__module__)
    code = (
        "import sys, core, core.numpy, nn, optim\n"
        "print([m for m in sys.modules\n"
        "       if m == 'numba' or m.startswith('core.backends.numba.rules')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_rules_use_only_the_kernel_building_context():
    """Rules reach the generator only through `KernelCtx`: they import nothing of `core.jit`
    but its errors, and touch no private member of a context."""
    import ast
    from pathlib import Path

    import core.backends.numba.rules as rules

    for path in Path(rules.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module.startswith("core.jit"):
                assert node.module == "core.jit.errors", (path.name, node.module)
            if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "ctx":
                assert not node.attr.startswith("_"), (path.name, node.attr)
