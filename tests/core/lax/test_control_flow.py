"""cond / switch / scan / fori_loop / while_loop / map through every transformation.

Each case is checked eagerly against plain Python, with `check_grads` (orders 1 and 2, float64),
under `vmap` against a Python loop, and under `jit` against eager.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit.errors import LoweringError
from core.test_util import check_grads

_rng = np.random.RandomState(0)


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


def R(*shape):
    return _rng.standard_normal(shape)


def _cell(c, x):
    h = jnp.tanh(c * 0.5 + x)
    return h, jnp.sin(h) * c


# name, function of float arrays, args, python reference (or None), grad orders
CASES = [
    (
        "cond_true",
        lambda x, y: lax.cond(
            jnp.sum(x) > -100, lambda a, b: jnp.sin(a) * b, lambda a, b: a**3, x, y
        ),
        (R(3), R(3)),
        lambda x, y: np.sin(x) * y,
        2,
    ),
    (
        "cond_false",
        lambda x, y: lax.cond(
            jnp.sum(x) > 100, lambda a, b: jnp.sin(a) * b, lambda a, b: a**3 + b, x, y
        ),
        (R(3), R(3)),
        lambda x, y: x**3 + y,
        2,
    ),
    (
        "cond_pytree",
        lambda x, y: lax.cond(
            True, lambda o: {"a": o[0] * o[1], "b": o[1]}, lambda o: {"a": o[1], "b": o[0]}, (x, y)
        )["a"],
        (R(2, 2), R(2, 2)),
        lambda x, y: x * y,
        2,
    ),
    ("switch", lambda x: lax.switch(1, [jnp.sin, jnp.cos, lambda a: a * a], x), (R(4),), np.cos, 2),
    (
        "switch_clamped",
        lambda x: lax.switch(9, [jnp.sin, jnp.cos, lambda a: a * a], x),
        (R(4),),
        lambda x: x * x,
        2,
    ),
    ("scan_carry_ys", lambda c, xs: lax.scan(_cell, c, xs), (R(3), R(5, 3)), None, 2),
    ("scan_reverse", lambda c, xs: lax.scan(_cell, c, xs, reverse=True), (R(3), R(5, 3)), None, 2),
    (
        "scan_const",
        lambda w, xs: lax.scan(lambda c, x: (c * w + x, c), jnp.zeros(2), xs)[1],
        (R(2), R(4, 2)),
        None,
        2,
    ),
    (
        "scan_no_xs",
        lambda c: lax.scan(lambda c, _: (jnp.sin(c) + 1.0, None), c, None, length=4)[0],
        (R(3),),
        None,
        2,
    ),
    (
        "fori_static",
        lambda x: lax.fori_loop(0, 4, lambda i, v: jnp.sin(v) * x + i, x),
        (R(3),),
        None,
        2,
    ),
    (
        "map",
        lambda xs: lax.map(lambda r: jnp.sum(jnp.sin(r)) * r, xs),
        (R(4, 3),),
        lambda xs: np.sum(np.sin(xs), 1, keepdims=True) * xs,
        2,
    ),
    (
        "map_batched",
        lambda xs: lax.map(lambda r: r * r, xs, batch_size=3),
        (R(7, 2),),
        lambda xs: xs * xs,
        2,
    ),
    (
        "scan_nested_cond",
        lambda xs: lax.scan(
            lambda c, x: (lax.cond(x[0] > 0, lambda a: a * x, lambda a: a + x, c), c),
            jnp.ones(2),
            xs,
        ),
        (R(4, 2),),
        None,
        2,
    ),
    (
        "scan_in_scan",
        lambda xs: lax.scan(
            lambda c, x: (lax.scan(lambda d, y: (d * jnp.cos(y), d), c, x)[0], jnp.sum(c)),
            jnp.ones(2),
            xs,
        ),
        (R(3, 4, 2),),
        None,
        2,
    ),
]


def _py_scan(f, init, xs, reverse=False):
    c, ys = init, []
    idx = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    out = [None] * len(xs)
    for i in idx:
        c, y = f(c, xs[i])
        out[i] = y
    del ys
    return c, np.stack([np.asarray(y) for y in out])


def test_scan_matches_python_loop():
    c, xs = R(3), R(5, 3)
    for reverse in (False, True):
        got = lax.scan(_cell, c, xs, reverse=reverse)
        want = _py_scan(_cell, c, xs, reverse)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-12)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("jitted", [False, True])
def test_scan_forwards_unchanged_carries_and_xs_as_jax(reverse, jitted):
    """JAX 0.10.2's scan returns a carry its body passes through as the caller gave it (a
    Python float stays one) and a y that is an x slice as the x itself (not a stacked copy)."""
    xs = jnp.arange(3.0)

    def run(xs):
        return lax.scan(lambda c, x: ((c[0], c[1] + x), (x, c[1])), (0.5, 1.0), xs, reverse=reverse)

    (kept, total), (same, seen) = (core.jit(run) if jitted else run)(xs)
    if not jitted:  # under jit every output is an Array
        assert type(kept) is float and kept == 0.5
        assert same is xs
    np.testing.assert_array_equal(same, xs)
    assert float(total) == 4.0
    np.testing.assert_array_equal(seen, [1.0, 1.0, 2.0] if not reverse else [4.0, 3.0, 1.0])


def test_cond_forwards_an_operand_every_branch_returns_as_jax():
    """JAX 0.10.2's cond returns an operand that every branch passes through as the very
    object given, outside the cond (its jaxpr below), so under vmap it stays unbatched."""
    y = jnp.array(3.0)

    def f(x, y):
        return lax.cond(x < 3, lambda x, y: (x * 2, y), lambda x, y: (x * 3, y), x, y)

    x2, y2 = core.vmap(f, in_axes=(0, None), out_axes=(0, None))(jnp.arange(3), y)
    assert y2 is y
    np.testing.assert_array_equal(x2, [0, 2, 4])
    text = str(core.make_jaxpr(f)(1, y))  # JAX's: the branches return x only
    assert text.endswith("] d a b\n  in (e, b) }") and text.count("in (h,) }") == 1
    assert "in (k,) }" in text

    def g(x, y):  # the scan's read-only carry is y itself, so the cond forwards it too
        body = lambda _, y: lax.scan(lambda c, _: (c, None), y, None, length=1)[0]  # noqa: E731
        return lax.cond(x < 0, body, body, x, y)

    assert float(core.vmap(g, (0, None), None)(jnp.arange(3.0), 3.0)) == 3.0


def test_a_loop_reading_the_vmapped_axis_is_batched_without_batched_operands():
    # JAX 0.10.2: [0, 2, 2, 4]; the jitted loop's operand is unbatched (in_axes None)
    def fun(x):
        return lax.while_loop(lambda x: x < lax.axis_index("i"), lambda x: x + 2, x)

    run = core.vmap(lambda _, x: core.jit(fun)(x), axis_name="i", in_axes=(0, None))
    np.testing.assert_array_equal(run(np.zeros(4, np.int32), 0), [0, 2, 2, 4])
    np.testing.assert_array_equal(
        core.vmap(fun, axis_name="i")(np.zeros(4, np.int32)), [0, 2, 2, 4]
    )


def test_a_promoted_forwarded_carry_comes_back_promoted():
    # the weak int 0 becomes a float32 carry (the body's cast): JAX returns the converted value
    carry, _ = lax.scan(lambda c, x: (c.astype(jnp.float32), x), 0, jnp.arange(3.0))
    assert isinstance(carry, core.Array) and carry.dtype == np.float32 and not carry.weak_type


@pytest.mark.parametrize("name,fn,args,ref,order", CASES, ids=[c[0] for c in CASES])
def test_values(name, fn, args, ref, order):
    out = fn(*args)
    if ref is not None:
        np.testing.assert_allclose(out, ref(*args), rtol=1e-12)


@pytest.mark.parametrize("name,fn,args,ref,order", CASES, ids=[c[0] for c in CASES])
def test_grads(name, fn, args, ref, order):
    check_grads(fn, args, order)


@pytest.mark.parametrize("name,fn,args,ref,order", CASES, ids=[c[0] for c in CASES])
def test_vmap_matches_loop(name, fn, args, ref, order):
    batched = [np.stack([a, a * 0.5 + 0.1, -a]) for a in args]
    got = core.vmap(fn)(*batched)
    for i in range(3):
        want = fn(*[b[i] for b in batched])
        core.tree.map(lambda g, w, i=i: np.testing.assert_allclose(g[i], w, rtol=1e-12), got, want)


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("name,fn,args,ref,order", CASES, ids=[c[0] for c in CASES])
def test_jit_matches_eager(name, fn, args, ref, order, backend):
    try:
        got = core.jit(fn, backend=backend)(*args)
        grad = core.jit(core.grad(lambda *a: _total(fn(*a))), backend=backend)(*args)
    except (LoweringError, NotImplementedError, ImportError) as e:
        pytest.skip(f"numba lowering not available yet: {e}")
    core.tree.map(lambda g, w: np.testing.assert_allclose(g, w, rtol=1e-10), got, fn(*args))
    np.testing.assert_allclose(grad, core.grad(lambda *a: _total(fn(*a)))(*args), rtol=1e-10)


def _total(out):
    return sum(jnp.sum(jnp.sin(leaf)) for leaf in core.tree.leaves(out))


def test_batched_predicate_becomes_select():
    f = lambda p, x: lax.cond(p > 0, lambda a: a * 2.0, lambda a: a - 1.0, x)  # noqa: E731
    ps, x = np.array([1.0, -1.0, 2.0]), R(3)
    got = core.vmap(f, in_axes=(0, None))(ps, x)
    np.testing.assert_allclose(got, np.stack([x * 2, x - 1, x * 2]))
    jaxpr = core.make_jaxpr(core.vmap(f, in_axes=(0, None)))(ps, x)
    assert "select_n" in str(jaxpr) and "cond" not in str(jaxpr)
    sw = core.vmap(lambda i: lax.switch(i, [lambda: 1.0, lambda: 2.0, lambda: 3.0]))
    np.testing.assert_allclose(sw(np.array([0, 2, 5, -1], np.int32)), [1, 3, 3, 1])


# grad of a batched cond whose untaken branch is undefined there, as JAX 0.10.2 printed it:
# each branch sees the elements it does not take through stop_gradient (no NaN leaks back)
GUARDED = [
    (
        lambda xs: core.vmap(lambda x: lax.cond(x > 0, jnp.sqrt, lambda v: v, x))(xs).sum(),
        [-1.0, 4.0],
        [1.0, 0.25],
    ),
    (
        lambda xs: core.vmap(lambda x: lax.cond(x > 0, jnp.log, lambda v: v * 2, x))(xs).sum(),
        [-1.0, 0.0, 4.0],
        [2.0, 2.0, 0.25],
    ),
    (
        lambda xs: core.vmap(lambda i, x: lax.switch(i, [jnp.sqrt, jnp.log, lambda v: v], x))(
            jnp.array([0, 1, 2]), xs
        ).sum(),
        [-1.0, -2.0, 4.0],
        [np.nan, -0.5, 1.0],
    ),
]


@pytest.mark.parametrize("f, x, want", GUARDED)
def test_batched_cond_gradient_stops_untaken_branches(f, x, want):
    x = jnp.array(x, jnp.float32)
    np.testing.assert_allclose(core.grad(f)(x), want)
    np.testing.assert_allclose(core.jit(core.grad(f))(x), want)


def test_batched_cond_jaxpr_is_jaxs():
    text = str(
        core.make_jaxpr(core.vmap(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x)))(
            np.ones(2, np.float32)
        )
    )
    # JAX 0.10.2's text
    assert text == (
        "{ lambda ; a:f32[2]. let\n    b:bool[2] = gt a 0.0:f32[]\n"
        "    c:i32[2] = convert_element_type[new_dtype=int32 weak_type=False] b\n"
        "    d:bool[2] = eq c 0:i32[]\n    e:f32[2] = stop_gradient a\n"
        "    f:f32[2] = select_n d e a\n    g:f32[2] = cos f\n    h:bool[2] = eq c 1:i32[]\n"
        "    i:f32[2] = stop_gradient a\n    j:f32[2] = select_n h i a\n    k:f32[2] = sin j\n"
        "    l:f32[2] = select_n c g k\n  in (l,) }"
    )


def test_while_loop():
    f = lambda x: lax.while_loop(
        lambda v: v[0] < 5,
        lambda v: (v[0] + 1, v[1] * x),  # noqa
        (0, jnp.ones_like(x)),
    )[1]
    x = R(3)
    np.testing.assert_allclose(f(x), x**5, rtol=1e-12)
    t = R(3)
    _, tan = core.jvp(f, (x,), (t,))
    np.testing.assert_allclose(tan, 5 * x**4 * t, rtol=1e-10)
    np.testing.assert_allclose(core.jit(f, backend="python")(x), x**5, rtol=1e-12)
    np.testing.assert_allclose(core.jacfwd(lambda x: jnp.sum(f(x)))(x), 5 * x**4, rtol=1e-10)
    with pytest.raises(lax.WhileLoopReverseModeError, match="scan"):
        core.grad(lambda x: jnp.sum(f(x)))(x)


def test_while_batched_predicate_runs_until_all_done():
    f = lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2.0, x)  # noqa: E731
    xs = np.array([1.0, 3.0, 20.0, 0.5])
    np.testing.assert_allclose(core.vmap(f)(xs), [f(x) for x in xs])
    g = lambda x: core.jvp(f, (x,), (1.0,))[1]  # noqa: E731
    np.testing.assert_allclose(core.vmap(g)(xs), [g(x) for x in xs])


def test_fori_loop_traced_bounds_is_while():
    f = core.jit(lambda n, x: lax.fori_loop(0, n, lambda i, v: v + i, x), backend="python")
    assert f(5, 0.0) == 10.0
    assert "while" in str(core.make_jaxpr(lambda n: lax.fori_loop(0, n, lambda i, v: v, 0.0))(3))


def test_scan_of_1000_steps_is_one_equation():
    f = lambda x: lax.fori_loop(0, 1000, lambda i, v: v * 1.001 + 1.0, x)  # noqa: E731
    jaxpr = core.make_jaxpr(f)(1.0)
    assert [e.prim.name for e in jaxpr.eqns] == ["scan"]
    assert jaxpr.eqns[0].params["length"] == 1000
    g = core.make_jaxpr(
        core.grad(lambda x: lax.scan(lambda c, _: (jnp.sin(c), c), x, None, length=1000)[0])
    )(1.0)
    assert sum(e.prim.name == "scan" for e in g.eqns) == 2 and len(g.eqns) < 20
    ref = 1.0
    for _ in range(1000):
        ref = ref * 1.001 + 1.0
    np.testing.assert_allclose(f(1.0), ref, rtol=1e-10)


@pytest.mark.parametrize(
    "bad,err",
    [
        (lambda: lax.cond(True, lambda: 1.0, lambda: jnp.ones(2)), lax.BranchTypeError),
        (lambda: lax.scan(lambda c, x: (jnp.ones(2), x), 1.0, jnp.ones(3)), lax.CarryTypeError),
        (
            lambda: lax.scan(lambda c, x: (c, x), 1.0, (jnp.ones(3), jnp.ones(4))),
            lax.ScanLengthError,
        ),
        (lambda: lax.scan(lambda c, x: (c, x), 1.0, None), lax.ScanLengthError),
        (lambda: lax.cond(jnp.ones(2) > 0, lambda: 1.0, lambda: 2.0), TypeError),
    ],
)
def test_errors(bad, err):
    with pytest.raises(err):
        bad()


# (predicate, branch taken) recorded from jax.lax.cond: numbers count as true when nonzero
_PREDICATES = [
    (1.0, "true"),
    (0.0, "false"),
    (-0.0, "false"),
    (0.5, "true"),
    (np.float32(np.nan), "true"),
    (2, "true"),
    (np.int32(0), "false"),
    (np.uint8(3), "true"),
    (True, "true"),
]


@pytest.mark.parametrize("pred,taken", _PREDICATES)
def test_cond_number_predicate(pred, taken):
    f = lambda p: lax.cond(p, lambda: 1, lambda: 2)  # noqa: E731
    want = 1 if taken == "true" else 2
    assert int(f(pred)) == want
    assert int(f(jnp.asarray(pred))) == want


def test_cond_number_predicate_jit_vmap_grad():
    f = lambda p: lax.cond(p, lambda: 1, lambda: 2)  # noqa: E731
    np.testing.assert_array_equal(core.jit(f)(jnp.array([0.0, 2.0, np.nan])[1]), 1)
    np.testing.assert_array_equal(core.vmap(f)(jnp.array([0.0, 1.0, 2.0, np.nan])), [2, 1, 1, 1])
    g = core.grad(lambda x: lax.cond(x, lambda y: y * 3.0, lambda y: y * 5.0, x))
    assert (float(g(2.0)), float(g(0.0))) == (3.0, 5.0)
    jaxpr = core.make_jaxpr(f)(1.0)
    assert [e.prim.name for e in jaxpr.eqns] == ["ne", "convert_element_type", "cond"]


@pytest.mark.parametrize(
    "pred,match",
    [  # JAX raises TypeError for each, with these messages
        (jnp.array([True]), "Pred must be a scalar"),
        (jnp.array([1.0, 0.0]), "Pred must be a scalar"),
        (jnp.array(1 + 0j), "Pred type must be either boolean or number"),
        ("a", "Pred must be a scalar"),
        (None, "cond predicate is None"),
    ],
)
def test_cond_bad_predicate(pred, match):
    with pytest.raises(lax.PredicateTypeError, match=match) as info:
        lax.cond(pred, lambda: 1, lambda: 2)
    assert isinstance(info.value, TypeError)


F32 = jnp.float32
CARRY_MESSAGES = [  # JAX 0.10.2's messages for the same bodies
    (lambda: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, jnp.ones((2, 2), F32)),
                            (0, jnp.ones((2, 1), F32))),
     "while_loop body function carry input and carry output must have equal types, but they "
     "differ:\n\nThe input carry component c[1] has type float32[2,1] but the corresponding "
     "output carry component has type float32[2,2], so the shapes do not match.\n\nRevise the "
     "function so that all output types match the corresponding input types."),
    (lambda: lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, jnp.ones(3, F32),
                            jnp.ones(2, jnp.int32)), (0, jnp.ones(2, F32), jnp.ones(2, F32))),
     "while_loop body function carry input and carry output must have equal types, but they "
     "differ:\n\n  * the input carry component s[1] has type float32[2] but the corresponding "
     "output carry component has type float32[3], so the shapes do not match;\n  * the input "
     "carry component s[2] has type float32[2] but the corresponding output carry component "
     "has type int32[2], so the dtypes do not match.\n\nRevise the function so that all output "
     "types match the corresponding input types."),
    (lambda: lax.scan(lambda carry, x: ((carry[0], carry[1], 1), x), (1.0, 2.0), jnp.ones(3)),
     "scan body function carry input and carry output must have the same pytree structure, but "
     "they differ:\n\nThe input carry carry is a tuple of length 2 but the corresponding "
     "component of the carry output is a tuple of length 3, so the lengths do not match.\n\n"
     "Revise the function so that the carry output has the same pytree structure as the carry "
     "input."),
    (lambda: lax.scan(lambda carry, x: ({"a": carry["a"]}, x), {"a": 1.0, "b": 2.0}, jnp.ones(3)),
     "scan body function carry input and carry output must have the same pytree structure, but "
     "they differ:\n\nThe input carry carry is a <class 'dict'> with 2 children but the "
     "corresponding component of the carry output is a <class 'dict'> with 1 child, so the "
     "numbers of children do not match, with the symmetric difference of key sets: {'b'}.\n\n"
     "Revise the function so that the carry output has the same pytree structure as the carry "
     "input."),
    (lambda: lax.while_loop(lambda c: c[0] < 3, lambda c: [c[0] + 1, c[1]], (0, 1.0)),
     "while_loop body function carry input and carry output must have the same pytree "
     "structure, but they differ:\n\nThe input carry c is a <class 'tuple'> but the "
     "corresponding component of the carry output is a <class 'list'>, so their Python types "
     "differ.\n\nRevise the function so that the carry output has the same pytree structure as "
     "the carry input."),
]  # fmt: skip


@pytest.mark.parametrize("case", range(len(CARRY_MESSAGES)))
def test_carry_type_errors_have_jaxs_messages(case):
    run, message = CARRY_MESSAGES[case]
    with pytest.raises(TypeError) as info:
        run()
    assert isinstance(info.value, lax.CarryTypeError) and str(info.value) == message


def test_cond_traces_the_true_branch_first():
    # JAX 0.10.2 traces lax.cond's true_fun before its false_fun (switch's branches in order);
    # Flax's nn.cond draws RNG keys in that order
    order = []

    def branch(name):
        def fun(x):
            order.append(name)
            return x

        return fun

    lax.cond(True, branch("true"), branch("false"), 1.0)
    lax.switch(1, [branch("b0"), branch("b1")], 1.0)
    assert order == ["true", "false", "b0", "b1"]


def test_scan_and_fori_loop_under_disable_jit_are_python_loops_as_jax():
    # JAX 0.10.2 under disable_jit: a Python loop; the carry as the body returns it (a Python
    # int stays one), the ys stacked at the end (a Python float's first y does not keep them
    # weak); a loop of no step returns the initial value, a scan of no step raises
    with core.disable_jit():
        out = lax.fori_loop(0, 3, lambda i, c: c + i, 0)
        assert type(out) is int and out == 3
        assert lax.fori_loop(0, 0, lambda i, c: c + i, 0) == 0
        c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, jnp.arange(3.0), reverse=True)
        assert not ys.weak_type and ys.tolist() == [3.0, 2.0, 0.0] and float(c) == 3.0
        c, ys = lax.scan(lambda c, x: (c * 2, {"a": x + c}), 1, jnp.arange(6).reshape(3, 2))
        assert type(c) is int and c == 8 and ys["a"].tolist() == [[1, 2], [4, 5], [8, 9]]
        with pytest.raises(ValueError, match="^zero-length scan is not supported in disable_jit"):
            lax.scan(lambda c, x: (c, x), 0, jnp.zeros((0, 2)))
