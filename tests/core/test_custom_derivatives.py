"""The errors of `custom_jvp`/`custom_vjp` rules that return the wrong thing, and the calls
JAX's rules take (`core/custom_derivatives.py`): JAX 0.10.2's classes and first lines."""

import functools

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import CustomDerivativeError


def _jvp_rule(ret):
    @core.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return ret(primals[0], tangents[0])

    return f


@pytest.mark.parametrize(
    ("ret", "first"),
    [  # JAX 0.10.2
        (
            lambda x, t: (jnp.sin(x), jnp.ones(2)),
            "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
            "and dtypes. Expected float32[] (tangent type of float32[]) but got float32[2].",
        ),
        (
            lambda x, t: (jnp.sin(x), jnp.float16(1.0)),
            "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
            "and dtypes. Expected float32[] (tangent type of float32[]) but got float16[].",
        ),
        (
            lambda x, t: (jnp.sin(x).astype(jnp.float16), t),
            "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
            "and dtypes. Expected float16[] (tangent type of float16[]) but got float32[].",
        ),
        (
            lambda x, t: (jnp.sin(x), 1),
            "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
            "and dtypes. Expected float32[] (tangent type of float32[]) but got int32[].",
        ),
        (
            lambda x, t: (jnp.sin(x), (t, t)),
            "Custom JVP rule f_jvp for function f must produce primal and tangent outputs with "
            "equal container (pytree) structures, but got PyTreeDef(*) and PyTreeDef((*, *)) "
            "respectively.",
        ),
    ],
)
def test_jvp_rule_outputs_are_checked_as_jax(ret, first):
    with pytest.raises(TypeError) as e:
        core.grad(_jvp_rule(ret))(1.0)
    assert str(e.value).splitlines()[0] == first


def test_jvp_rule_must_return_a_pair():
    with pytest.raises(TypeError, match="^Custom JVP rule f_jvp for function f must produce a "
                       r"pair \(list or tuple of length two\)"):  # fmt: skip
        core.grad(_jvp_rule(lambda x, t: jnp.sin(x)))(1.0)


def _vjp_rule(fwd, bwd):
    @core.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(fwd, bwd)
    return f


def test_vjp_rules_outputs_are_checked_as_jax():
    good_fwd = lambda x: (jnp.sin(x), jnp.cos(x))  # noqa: E731
    with pytest.raises(TypeError) as e:
        core.grad(_vjp_rule(good_fwd, lambda r, g: r * g))(1.0)
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2
        "Custom VJP bwd rule must produce an output with the same container (pytree) structure "
        "as the args tuple of the primal function, and in particular must produce a tuple of "
        "length equal to the number of arguments to the primal function, but got bwd output "
        "structure PyTreeDef(*) for primal input structure PyTreeDef((*,))."
    )
    with pytest.raises(ValueError) as e:
        core.grad(_vjp_rule(good_fwd, lambda r, g: (jnp.ones(2),)))(1.0)
    assert str(e.value).splitlines()[0] == (
        "Custom VJP bwd rule must produce an output with the same type as the args tuple of "
        "the primal function, but at output[0] the bwd rule produced an output of type "
        "float32[2] corresponding to an input of type float32[], so the shapes do not match"
    )
    with pytest.raises(TypeError, match="^Custom VJP fwd rule <lambda> for function f must "
                       r"produce a pair \(list or tuple of length two\)"):  # fmt: skip
        core.grad(_vjp_rule(lambda x: jnp.sin(x), lambda r, g: (g,)))(1.0)


def _tree_rule(ret):
    @core.custom_vjp
    def f(x, y):
        return x["a"] * y

    f.defvjp(lambda x, y: (f(x, y), None), lambda r, g: ret(g))
    return f


TREE_ARG = {"a": 1.0, "b": None, "c": (2.0, 3.0)}
# bwd outputs for f(TREE_ARG, 2.0) -> the gradients JAX 0.10.2 gave (a None stands for its
# argument subtree's zeros, an array for each leaf of the subtree it stands at)
TREE_BWD = [
    (lambda g: ({"a": g, "b": None, "c": None}, g), [1.0, 0.0, 0.0, 1.0]),
    (lambda g: ({"a": g, "b": None, "c": g}, g), [1.0, 1.0, 1.0, 1.0]),
    (lambda g: [None, g], [0.0, 0.0, 0.0, 1.0]),
    (lambda g: ({"a": g, "b": g, "c": None}, g), [1.0, 0.0, 0.0, 1.0]),
]


@pytest.mark.parametrize("ret, want", TREE_BWD)
def test_vjp_rule_cotangents_match_argument_trees_with_none_as_jax(ret, want):
    g = core.grad(_tree_rule(ret), argnums=(0, 1))(TREE_ARG, 2.0)
    assert g[0]["b"] is None
    got = [g[0]["a"], *g[0]["c"], g[1]]
    np.testing.assert_array_equal(got, want)


def test_vjp_rule_tree_mismatch_is_jaxs_type_error():
    with pytest.raises(TypeError) as e:
        core.grad(_tree_rule(lambda g: ({"a": g, "b": None}, g)), argnums=(0, 1))(TREE_ARG, 2.0)
    assert (
        str(e.value)
        .splitlines()[0]
        .endswith(  # JAX 0.10.2
            "but got bwd output structure PyTreeDef(({'a': *, 'b': None}, *)) for primal input "
            "structure PyTreeDef(({'a': *, 'b': None, 'c': (*, *)}, *))."
        )
    )


def test_a_function_without_its_rule_is_jaxs_attribute_error():
    for make in (core.custom_jvp, core.custom_vjp):
        with pytest.raises(AttributeError, match="^No [JV]+P defined for custom_[jv]+p function"):
            make(jnp.sin)(1.0)
        with pytest.raises(CustomDerivativeError):
            make(jnp.sin)(1.0)


def test_defaults_reach_the_jvp_rule():
    @core.custom_jvp
    def f(x, y=2.0):
        return x * y

    @f.defjvp
    def f_jvp(p, t):
        return p[0] * p[1], t[0] * p[1] + t[1] * p[0]

    assert (f(3.0), core.grad(f)(3.0)) == (6.0, 2.0)  # JAX 0.10.2


def test_closure_convert_keeps_the_example_s_weak_type():
    g, consts = core.closure_convert(lambda a: a * 2, 1.0)
    assert consts == [] and g(3.0).weak_type  # JAX 0.10.2: Array(6., weak_type=True)
    assert not g(jnp.float32(3)).weak_type


def test_symbolic_zeros_reach_the_rule_as_jaxs_symbolic_zero():
    # JAX 0.10.2: the undifferentiated input's tangent is a SymbolicZero (shape/dtype of its
    # aval); a SymbolicZero tangent output is zeros: grad wrt x is 0.0, wrt y 1.0
    from core.custom_derivatives import SymbolicZero, zero_from_primal

    seen = []
    f = core.custom_jvp(lambda x, y: x * y)

    def f_jvp(primals, tangents):
        seen.append([type(t).__name__ for t in tangents])
        if isinstance(tangents[1], SymbolicZero):
            assert tangents[1].shape == () and tangents[1].dtype == np.float32
        return primals[0] * primals[1], tangents[1]

    f.defjvp(f_jvp, symbolic_zeros=True)
    assert core.grad(f)(2.0, 3.0) == 0.0 and core.grad(f, argnums=1)(2.0, 3.0) == 1.0
    assert seen[0][1] == "SymbolicZero"
    assert core.jit(core.grad(f))(2.0, 3.0) == 0.0
    zeros = zero_from_primal({"a": jnp.ones(2), "i": 3})
    np.testing.assert_array_equal(zeros["a"], np.zeros(2, np.float32))
    assert zeros["i"].dtype == core.float0  # JAX 0.10.2: float0 zeros for integers
    assert repr(zero_from_primal(jnp.ones(2), symbolic_zeros=True)) == "SymbolicZero"


def test_nondiff_argnames_name_the_static_arguments():
    # JAX 0.10's nondiff_argnames: the named parameters join nondiff_argnums, in sorted order,
    # and the rules get them first (values recorded from JAX 0.10.2)
    @functools.partial(core.custom_jvp, nondiff_argnames=("n",))
    def f(x, n):
        return x**n

    @f.defjvp
    def f_jvp(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x, n), n * x ** (n - 1) * t * 10

    assert float(f(2.0, 3)) == 8.0
    assert float(core.grad(f)(2.0, 3)) == 120.0
    assert float(core.grad(lambda x: f(x, n=3))(2.0)) == 120.0

    @functools.partial(core.custom_vjp, nondiff_argnums=(2,), nondiff_argnames=("s",))
    def h(x, s, k, y):
        return x * y * s * k

    h.defvjp(
        lambda s, k, x, y: (h(x, s, k, y), (x, y)),
        lambda s, k, r, ct: (r[1] * ct * s * k, r[0] * ct),
    )
    assert h.nondiff_argnums == (1, 2)
    assert float(h(2.0, 3.0, 5.0, 4.0)) == 120.0
    gx, gy = core.grad(h, argnums=(0, 3))(2.0, 3.0, 5.0, 4.0)
    assert (float(gx), float(gy)) == (60.0, 5.0)


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
def test_arguments_that_do_not_bind_are_jaxs_error(kind):
    def f(x, y):
        return x

    g = getattr(core, kind)(f)
    if kind == "custom_jvp":
        g.defjvp(lambda p, t: (p[0], t[0]))
    else:
        g.defvjp(lambda x, y: (x, None), lambda r, c: (c, c))
    with pytest.raises(TypeError) as info:
        g(1.0)
    assert str(info.value) == (  # JAX 0.10.2's text
        f"The input arguments to the {kind}-decorated function f could not be resolved to "
        "positional-only arguments. Binding failed with the error:\n"
        "missing a required argument: 'y'"
    )
    assert float(g(1.0, y=2.0)) == 1.0


def _logged_symbolic_vjp():
    """`f(x, y) = (x * y, y)` with `symbolic_zeros=True` rules that log the perturbed bits
    `fwd` gets and which output cotangents `bwd` gets as `SymbolicZero`s."""
    from core.custom_derivatives import SymbolicZero, custom_vjp_primal_tree_values

    log = []
    f = core.custom_vjp(lambda x, y: (x * y, y))

    def fwd(x, y):
        log.append(("fwd", x.perturbed, y.perturbed))
        x, y = custom_vjp_primal_tree_values((x, y))
        return (x * y, y), (x, y)

    def bwd(res, cts):
        x, y = res
        log.append(("bwd", *(type(c) is SymbolicZero for c in cts)))
        a, b = (0.0 if type(c) is SymbolicZero else c for c in cts)
        return a * y, a * x + b

    f.defvjp(fwd, bwd, symbolic_zeros=True)
    return f, log


SYMBOLIC_VJP = {  # case: (run(f), result, log), recorded from JAX 0.10.2
    "grad_first": (
        lambda f: core.grad(lambda x, y: f(x, y)[0])(2.0, 3.0),
        [3.0],
        [("fwd", True, False), ("bwd", False, True)],
    ),
    "grad_second_wrt_y": (
        lambda f: core.grad(lambda x, y: f(x, y)[1], argnums=1)(2.0, 3.0),
        [1.0],
        [("fwd", False, True), ("bwd", True, False)],
    ),
    "jit_grad_both": (
        lambda f: core.jit(core.grad(lambda x, y: sum(f(x, y)), argnums=(0, 1)))(2.0, 3.0),
        [3.0, 3.0],
        [("fwd", True, True), ("bwd", False, False)],
    ),
    "grad_of_jit": (
        lambda f: core.grad(core.jit(lambda x, y: f(x, y)[0]))(2.0, 3.0),
        [3.0],
        [("fwd", True, False), ("bwd", False, True)],
    ),
    "vmap_grad": (
        lambda f: core.vmap(core.grad(lambda x, y: f(x, y)[0]))(jnp.arange(2.0), jnp.ones(2)),
        [[1.0, 1.0]],
        [("fwd", True, False), ("bwd", False, True)],
    ),
    "integer_input": (
        lambda f: core.jacrev(lambda x, y: f(x, y)[0], argnums=(0, 1), allow_int=True)(
            2.0, np.int32(3)
        ),
        [3.0, 0],
        [("fwd", True, False), ("bwd", False, True)],
    ),
}


@pytest.mark.parametrize("case", SYMBOLIC_VJP)
def test_symbolic_zeros_of_custom_vjp_as_jax(case):
    run, want, want_log = SYMBOLIC_VJP[case]
    f, log = _logged_symbolic_vjp()
    out = run(f)
    out = out if isinstance(out, tuple) else (out,)
    assert [np.asarray(o).tolist() for o in out] == want
    assert log == want_log


def test_symbolic_zero_vjp_flags_and_errors_are_jaxs():
    from core.custom_derivatives import SymbolicZero, custom_vjp_primal_tree_values

    f = core.custom_vjp(lambda x: x)
    with pytest.raises(NotImplementedError, match="does not support symbolic zeros"):
        f.defvjp(lambda x: (x, None), lambda r, c: (c,), symbolic_zeros=True, optimize_remat=True)
    f.defvjp(lambda x: (x, None), lambda r, c: (c * 2,), optimize_remat=True)
    assert float(core.grad(f)(1.0)) == 2.0
    with pytest.raises(TypeError, match="unexpected leaf type"):
        custom_vjp_primal_tree_values([1.0])
    # a SymbolicZero cotangent of the wrong shape: JAX's ValueError
    f.defvjp(
        lambda x: (x.value, None),
        lambda r, c: (SymbolicZero(core.core.ShapedArray((2,), jnp.float32)),),
        symbolic_zeros=True,
    )
    with pytest.raises(ValueError) as info:
        core.grad(f)(1.0)
    assert str(info.value).startswith(  # JAX 0.10.2's text
        "Custom VJP bwd rule produced a SymbolicZero with a shape/dtype that does not match "
        "the corresponding input tangent shape/dtype: at output[0] the SymbolicZero had "
        "shape/dtype float32[2] while the corresponding input had shape/dtype float32[]. "
        "Consider just returning a None here instead of a SymbolicZero object."
    )


def test_symbolic_zero_jvp_outputs_stay_symbolic():
    # a SymbolicZero tangent output (also from a rule without symbolic_zeros) is a symbolic
    # zero: under vmap of jit, and fed to another rule (JAX 0.10.2: no crash, zero tangents)
    from core.custom_derivatives import SymbolicZero, zero_from_primal

    f = core.custom_jvp(lambda x: x + 1)
    f.defjvp(lambda p, t: (f(p[0]), zero_from_primal(p[0], symbolic_zeros=True)))
    x = jnp.arange(3.0)
    out, t = core.jvp(core.vmap(core.jit(f)), (x,), (x,))
    np.testing.assert_array_equal(t, np.zeros(3, np.float32))
    seen = []
    g = core.custom_jvp(lambda x, y: y)

    def g_jvp(primals, tangents):
        seen.append(type(tangents[1]) is SymbolicZero)
        return primals[1], tangents[1]

    g.defjvp(g_jvp, symbolic_zeros=True)
    out, t = core.jvp(core.vmap(lambda x: g(x, g(x, 1.0))), (jnp.ones(3),), (jnp.ones(3),))
    assert seen == [True, True] and t.weak_type
    np.testing.assert_array_equal(t, np.zeros(3, np.float32))


def _closing_jvp(x):
    f = core.custom_jvp(lambda y: x * y)
    f.defjvp(lambda p, t: (f(*p), 10 * x * t[0]))
    return f


def _closing_vjp(x):
    f = core.custom_vjp(lambda y: x * y)
    f.defvjp(lambda y: (f(y), x), lambda r, g: (10 * r * g,))
    return f


_XS = np.arange(3.0, dtype=np.float32)

VMAP_CLOSURES = {  # case: (run, JAX 0.10.2's values): rules closing over a vmapped value
    "jvp_unbatched_arg": (lambda: core.vmap(lambda x: _closing_jvp(x)(3.0))(_XS), [0, 3, 6]),
    "jvp_batched_arg": (
        lambda: core.vmap(lambda x, y: _closing_jvp(x)(y))(_XS, _XS + 1),
        [0, 2, 6],
    ),
    "jvp_grad_inside": (
        lambda: core.vmap(lambda x: core.grad(_closing_jvp(x))(3.0))(_XS),
        [0, 10, 20],
    ),
    "jvp_jit_grad_inside": (
        lambda: core.vmap(lambda x: core.jit(core.grad(_closing_jvp(x)))(3.0))(_XS),
        [0, 10, 20],
    ),
    "vjp_unbatched_arg": (lambda: core.vmap(lambda x: _closing_vjp(x)(3.0))(_XS), [0, 3, 6]),
    "vjp_grad_inside": (
        lambda: core.vmap(lambda x: core.grad(_closing_vjp(x))(3.0))(_XS),
        [0, 10, 20],
    ),
    "vjp_batched_arg_grad": (
        lambda: core.vmap(lambda x, y: core.grad(_closing_vjp(x))(y))(_XS, _XS + 1),
        [0, 10, 20],
    ),
}


@pytest.mark.parametrize("case", VMAP_CLOSURES)
def test_rules_may_close_over_vmapped_values(case):
    run, want = VMAP_CLOSURES[case]
    np.testing.assert_array_equal(run(), np.array(want, np.float32))


def test_rules_closing_over_differentiated_values_are_jaxs_error():
    # JAX 0.10.2 raises UnexpectedTracerError for a rule closing over a value being
    # differentiated (only vmapped values may be closed over)
    with pytest.raises(core.errors.UnexpectedTracerError):
        core.grad(lambda x: _closing_jvp(x)(3.0))(2.0)


def test_float0_tangents_and_cotangents_of_rules_as_jax():
    # JAX 0.10.2: a float0 tangent output of a jvp rule (zero_from_primal of an integer) and a
    # float0 cotangent from bwd for an integer input (in a scan) are zeros of that input
    from core.custom_derivatives import zero_from_primal

    f0 = core.dtypes.float0
    f = core.custom_jvp(lambda x, y: (x, y))
    f.defjvp(lambda p, t: ((p[0], p[1]), (2.0, zero_from_primal(p[1]))))
    (p_x, p_y), (t_x, t_y) = core.jvp(f, (2.0, 3), (np.ones(()), np.zeros((), f0)))
    assert (float(t_x), t_y.dtype, p_y) == (2.0, f0, 3)

    g = core.custom_vjp(lambda x: x)
    g.defvjp(lambda x: (x, None), lambda r, ct: ((2.0, jnp.zeros((), f0)),))

    def foo(x, y):
        out, _ = core.lax.scan(lambda c, _: (g(c), None), (x, y), None, length=1)
        return out[0]

    gx, gy = core.grad(foo, allow_int=True, argnums=(0, 1))(2.0, 3)
    assert float(gx) == 2.0 and gy.dtype == f0 and gy.shape == ()


def _nondiff_jvp():
    @functools.partial(core.custom_jvp, nondiff_argnums=(0,))
    def f(x, y):
        return x * y

    f.defjvp(lambda x, p, t: (f(x, *p), 5 * x * t[0]))
    return f


NONDIFF_TRACERS = {  # case: (run(f), JAX 0.10.2's values): traced nondiff_argnums of custom_jvp
    "vmap_jvp": (
        lambda f: core.jvp(
            lambda y: core.vmap(f)(jnp.array([2.0, 3.0]), y),
            (jnp.array([3.0, 4.0]),),
            (jnp.array([1.0, 1.0]),),
        ),
        ([6.0, 12.0], [10.0, 15.0]),
    ),
    "grad_through_nondiff": (lambda f: core.grad(lambda x: f(x, 3.0))(2.0), 0.0),
    "grad_both": (lambda f: core.grad(lambda x: f(x, x))(2.0), 10.0),
    "jit_grad": (lambda f: core.jit(core.grad(f, argnums=1))(2.0, 3.0), 10.0),
}


@pytest.mark.parametrize("case", NONDIFF_TRACERS)
def test_custom_jvp_nondiff_arguments_may_be_traced(case):
    run, want = NONDIFF_TRACERS[case]
    got = core.tree.map(lambda a: np.asarray(a).tolist(), run(_nondiff_jvp()))
    assert got == want


def test_custom_vjp_nondiff_tracers_are_jaxs_error():
    @functools.partial(core.custom_vjp, nondiff_argnums=(0,))
    def g(x, y):
        return x * y

    g.defvjp(lambda x, y: (g(x, y), y), lambda x, r, ct: (x * ct,))
    assert float(core.grad(g, 1)(2.0, 3.0)) == 2.0
    with pytest.raises(core.errors.UnexpectedTracerError) as info:
        core.jit(g)(2.0, 3.0)
    assert str(info.value).startswith(  # JAX 0.10.2's first words
        "Found a JAX Tracer object passed as an argument to a custom_vjp function in a "
        "position indicated by nondiff_argnums as non-differentiable."
    )


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp", "custom_vmap"])
def test_keyword_only_arguments_are_jaxs_error(kind):
    # JAX 0.10.2: keyword-only arguments given cannot be resolved to positions (defaulted
    # ones are fine); custom_vmap resolves missing arguments as the others do
    def f(x, y, *, z=None):
        return x + y

    if kind == "custom_vmap":
        g = core.custom_batching.custom_vmap(f)
        g.def_vmap(lambda size, batched, x, y: (x + y, batched[0]))
    else:
        g = getattr(core, kind)(f)
        if kind == "custom_jvp":
            g.defjvp(lambda p, t: (g(*p), t[0]))
        else:
            g.defvjp(lambda x, y: (g(x, y), None), lambda r, c: (c, c))
    assert float(g(1.0, 2.0)) == 3.0
    head = f"The input arguments to the {kind}-decorated function f could not be resolved to "
    head += "positional-only arguments. Binding failed with the error:\n"
    with pytest.raises(TypeError) as info:
        g(1.0, 2.0, z=3.0)
    assert str(info.value) == (
        head + "The following keyword arguments could not be resolved to positions: z"
    )
    with pytest.raises(TypeError) as info:
        g(1.0)
    assert str(info.value) == head + "missing a required argument: 'y'"


@pytest.mark.parametrize("wrap", ["eager", "jit"])
def test_custom_jvp_applied_to_tangents_in_a_loop_transposes(wrap):
    # a jvp rule calling its function on the tangent, in a scan body: under grad the staged
    # call is transposed through the function, as JAX (0.10.2: -1.0 for one step)
    f = core.custom_jvp(lambda x: -x)
    f.defjvp(lambda p, t: (f(p[0]), f(t[0])))

    def foo(x, n):
        return core.lax.scan(lambda c, _: (f(c), None), x, None, length=n)[0]

    g = core.grad(foo)
    g = core.jit(g, static_argnums=1) if wrap == "jit" else g
    assert float(g(3.0, 1)) == -1.0 and float(g(3.0, 2)) == 1.0


def test_bwd_cotangent_nodes_are_not_rebuilt_with_nones():
    # JAX 0.10.2: a custom node in bwd's output is matched, not unflattened with Nones
    class Box(list):
        pass

    def unflatten(_, children):
        assert children[0] is not None
        return Box(children)

    core.tree_util.register_pytree_node(Box, lambda x: (x, None), unflatten)
    f = core.custom_vjp(lambda x: x[0])
    f.defvjp(lambda x: (x[0], None), lambda _, g: (Box([g]),))
    (g,) = core.grad(f)(Box([1.0]))
    assert float(g) == 1.0


def _in_scan(f, x):
    return core.lax.scan(lambda c, _: (f(c), None), x, None, length=1)[0]


def _pair_jvp():
    f = core.custom_jvp(lambda x: x)
    f.defjvp(lambda p, t: ((p[0], p[0]), (t[0], t[0])))
    return lambda: core.jvp(lambda x: _in_scan(f, x), (jnp.float32(1),), (jnp.float32(1),))


def _shape_fwd():
    k = core.custom_vjp(lambda x: {"a": x})
    k.defvjp(lambda x: ({"a": jnp.zeros((3, *x.shape))}, None), lambda _, y: (y["a"],))
    return lambda: core.grad(lambda x: _in_scan(lambda y: k(y)["a"], x))(jnp.float32(1))


_PRIMAL = (
    "must produce a pair (list or tuple of length two) where the first element represents the "
    "primal output "
)
RULE_PRIMAL_ERRORS = [  # (make the call, JAX 0.10.2's text up to the fix)
    (
        _pair_jvp,
        f"Custom JVP rule <lambda> for function <lambda> {_PRIMAL}(equal in value to the output "
        "of the custom_jvp-decorated function <lambda>, and in particular of the same "
        "container/pytree structure), but instead the JVP rule output's first element had "
        "container/pytree structure:\n    (float32[], float32[])\nwhile the custom_jvp-decorated "
        "function <lambda> had output container/pytree structure:\n    float32[].",
    ),
    (
        _shape_fwd,
        f"Custom VJP fwd rule <lambda> for function <lambda> {_PRIMAL}(equal to the output of the "
        "custom_vjp-decorated function <lambda>) and the second element represents residuals "
        "(i.e. values stored from the forward pass for use on the backward pass), but instead "
        "the fwd rule output's first element had shapes/dtypes of:\n    {a: float32[3]}\nwhile "
        "the custom_vjp-decorated function <lambda> had output shapes/dtypes of:\n"
        "    {a: float32[]}",
    ),
]


@pytest.mark.parametrize("make, text", RULE_PRIMAL_ERRORS)
def test_rule_primal_outputs_unlike_the_function_s_are_jaxs_error(make, text):
    with pytest.raises(TypeError) as info:
        make()()
    assert str(info.value).split("\nReturn")[0] == text


def test_staged_custom_calls_reading_the_vmap_axis_give_unbatched_outputs():
    # JAX 0.10.2: a psum over the vmapped axis inside a custom_jvp/custom_vjp call (staged by
    # make_jaxpr or jit) is unbatched, so out_axes=None takes it: 8.0 for sum(2.0 * 4)
    from core.extend.core import jaxpr_as_fun

    f = core.custom_jvp(lambda x: core.lax.psum(x, "foo"))
    f.defjvp(lambda p, t: (core.lax.psum(p[0], "foo"), t[0]))
    g = core.custom_vjp(lambda x, y: (core.lax.psum(x, "foo"), x * y))
    g.defvjp(lambda x, y: (g(x, y), y), lambda r, ct: (ct[0] + ct[1] * r, ct[1]))

    def staged(fn, *xs):
        return jaxpr_as_fun(core.make_jaxpr(fn)(*xs))(*xs)

    def run(h):
        return core.vmap(h, axis_name="foo", in_axes=(0, None), out_axes=None)(jnp.arange(4.0), 2.0)

    assert float(run(lambda _, x: staged(f, x)[0])) == 8.0
    assert float(run(lambda _, x: core.jit(f)(x))) == 8.0
    s, p = core.vmap(lambda x: core.jit(g)(x, 3.0), axis_name="foo")(jnp.arange(3.0))
    np.testing.assert_array_equal(s, [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(p, [0.0, 3.0, 6.0])
