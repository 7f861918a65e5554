"""`jax.core` and `jax.extend` as numbax's own classes (`core.core`, `core.extend`), and a
program's own primitive (`jax.extend.core.Primitive`) through every transformation, with the
values JAX 0.10.2 gives (its tutorial "How JAX primitives work")."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import PrimitiveRuleError
from core.extend import core as xcore
from core.interpreters import ad, batching, mlir

# JAX 0.10.2's public names
JAX_CORE = """AbstractValue Atom ParamDict ShapedArray Trace Tracer Value ensure_compile_time_eval
eval_context eval_jaxpr max_dim min_dim""".split()  # noqa: SIM905


def test_jax_core_has_jaxs_names_as_numbax_classes():
    assert sorted(core.core.__all__) == sorted(JAX_CORE)
    assert core.core.Tracer is core.trace.Tracer
    assert core.core.ShapedArray is core.ShapedArray
    assert isinstance(core.ShapedArray((2,), np.float32), core.core.AbstractValue)
    assert core.core.eval_jaxpr is core.ir.eval_jaxpr
    assert (core.core.max_dim(3, 4), core.core.min_dim(3, 4)) == (4, 3)


def test_tracers_are_jax_core_tracers():
    seen = []
    core.grad(lambda x: seen.append(isinstance(x, core.core.Tracer)) or x * x)(1.0)
    core.jit(lambda x: seen.append(isinstance(x, core.core.Tracer)) or x)(1.0)
    core.vmap(lambda x: seen.append(isinstance(x, core.core.Tracer)) or x)(jnp.ones(2))
    assert seen == [True, True, True]
    assert not isinstance(jnp.ones(2), core.core.Tracer)


def test_eval_context_runs_eagerly_inside_jit():
    def f(x):
        with core.core.eval_context():
            c = jnp.sin(1.0)
        assert not isinstance(c, core.core.Tracer)
        return x + c

    np.testing.assert_allclose(core.jit(f)(1.0), 1.0 + np.sin(1.0), rtol=1e-6)


def test_extend_core_jaxprs_and_primitives():
    closed = core.make_jaxpr(lambda x: jnp.exp(jnp.tanh(x)) + 1.0)(jnp.ones(3))
    assert isinstance(closed, xcore.ClosedJaxpr) and closed.literals is closed.consts
    eqns = closed.jaxpr.eqns
    assert [e.primitive for e in eqns][:2] == [
        xcore.primitives.tanh_p,
        xcore.primitives.exp_p,
    ]
    assert all(isinstance(e.primitive, xcore.Primitive) for e in eqns)
    assert all(isinstance(v, xcore.Var) for v in closed.jaxpr.invars)
    np.testing.assert_allclose(
        xcore.jaxpr_as_fun(closed)(jnp.zeros(3))[0], np.full(3, 2.0), rtol=1e-6
    )
    xcore.check_jaxpr(closed.jaxpr)
    assert repr(closed.jaxpr.invars[0]).endswith("):float32[3]")  # JAX's `Var(id=...):float32[3]`


def test_linear_util_and_source_info_util():
    from core.extend import linear_util as lu
    from core.extend import source_info_util as siu

    assert lu.wrap_init(lambda x, k: x + k, {"k": 2}).call_wrapped(1) == 3
    eqn = core.make_jaxpr(jnp.sin)(1.0).jaxpr.eqns[0]
    assert "test_core_module.py" in siu.summarize(eqn.source_info)


def _multiply_add():
    """The tutorial's primitive, its rules given one by one by the caller."""
    p = xcore.Primitive("multiply_add")

    def prim(x, y, z):
        return p.bind(x, y, z)

    return p, prim, lambda a, b: prim(a, a, b)


def _jvp_rule(prim):
    def rule(arg_values, arg_tangents):
        x, y, z = arg_values
        xt, yt, zt = arg_tangents

        def make_zero(tan):
            return lax.full_like(x, 0) if type(tan) is ad.Zero else tan

        out = prim(make_zero(xt), y, prim(x, make_zero(yt), make_zero(zt)))
        return prim(x, y, z), out

    return rule


def _transpose_rule(prim):
    def rule(ct, x, y, z):
        if not ad.is_undefined_primal(x):
            ct_y = ad.Zero(y.aval) if type(ct) is ad.Zero else prim(x, ct, lax.full_like(x, 0))
            return None, ct_y, ct
        ct_x = ad.Zero(x.aval) if type(ct) is ad.Zero else prim(ct, y, lax.full_like(y, 0))
        return ct_x, None, ct

    return rule


def test_user_primitive_through_every_transformation():
    p, prim, square_add = _multiply_add()
    with pytest.raises(PrimitiveRuleError, match=r"multiply_add_p\.def_impl"):
        square_add(2.0, 10.0)
    p.def_impl(lambda x, y, z: np.add(np.multiply(x, y), z))
    assert square_add(2.0, 10.0) == 14.0
    with pytest.raises(NotImplementedError, match="def_abstract_eval"):
        core.jit(square_add)(2.0, 10.0)
    p.def_abstract_eval(lambda xs, ys, zs: core.core.ShapedArray(xs.shape, xs.dtype))
    # JAX's MLIR lowering: accepted and not used, the impl runs as a host call under jit
    assert mlir.register_lowering(p, print, platform="cpu") is print
    assert core.jit(square_add)(2.0, 10.0) == 14.0
    assert core.jit(square_add, static_argnums=1)(2.0, 10.0) == 14.0
    assert "multiply_add a a b" in str(core.make_jaxpr(square_add)(2.0, 10.0))
    with pytest.raises(NotImplementedError, match=r"ad\.primitive_jvps\[multiply_add_p\]"):
        core.jvp(square_add, (2.0, 10.0), (1.0, 1.0))
    ad.primitive_jvps[p] = _jvp_rule(prim)
    assert p in ad.primitive_jvps and p not in ad.primitive_transposes
    assert core.jvp(square_add, (2.0, 10.0), (1.0, 1.0)) == (14.0, 5.0)
    jitted_jvp = core.jit(lambda v, t: core.jvp(square_add, v, t))
    assert jitted_jvp((2.0, 10.0), (1.0, 1.0)) == (14.0, 5.0)
    with pytest.raises(NotImplementedError, match="primitive_transposes"):
        core.grad(square_add)(2.0, 10.0)
    ad.primitive_transposes[p] = _transpose_rule(prim)
    assert core.grad(square_add)(2.0, 10.0) == 4.0
    assert core.jit(core.grad(square_add))(2.0, 10.0) == 4.0
    a, b = np.array([2.0, 3.0]), np.array([10.0, 20.0])
    with pytest.raises(NotImplementedError, match="primitive_batchers"):
        core.vmap(square_add)(a, b)
    batching.primitive_batchers[p] = lambda args, dims: (prim(*args), dims[0])
    np.testing.assert_array_equal(core.vmap(square_add)(a, b), [14.0, 29.0])
    np.testing.assert_array_equal(core.jit(core.vmap(square_add))(a, b), [14.0, 29.0])


def test_user_primitive_without_impl_fails_under_jit_naming_the_fix():
    p = xcore.Primitive("lowered_only")
    p.def_abstract_eval(lambda x: x)
    mlir.register_lowering(p, mlir.lower_fun(lambda x: x, multiple_results=False))
    with pytest.raises(PrimitiveRuleError, match=r"lowered_only_p\.def_impl"):
        core.jit(lambda x: p.bind(x) + 1.0)(1.0)


def test_user_primitives_may_share_a_name_and_return_several_results():
    p1, p2 = xcore.Primitive("twice"), xcore.Primitive("twice")
    assert p1 is not p2 and "twice" not in core.primitive.all_primitives()
    p1.multiple_results = True
    p1.def_impl(lambda x: [x, 2 * x])
    p1.def_abstract_eval(lambda x: [x, x])
    for f in (lambda x: p1.bind(x), core.jit(lambda x: p1.bind(x))):
        a, b = f(jnp.arange(3.0))
        np.testing.assert_array_equal(b, [0.0, 2.0, 4.0])
        assert a.dtype == jnp.float32


def test_jax_style_linear_rules():
    p = xcore.Primitive("scale3")
    p.def_impl(lambda x: 3 * x)
    p.def_abstract_eval(lambda x: x)
    ad.deflinear(p, lambda ct: [3 * ct])
    batching.defvectorized(p)
    f = lambda x: jnp.sum(p.bind(x) ** 2)
    # JAX: d/dx sum(9 x^2) = 18 x
    np.testing.assert_allclose(core.grad(f)(jnp.arange(3.0)), [0.0, 18.0, 36.0])
    np.testing.assert_allclose(core.vmap(core.grad(f))(jnp.ones((2, 3))), np.full((2, 3), 18.0))


def test_extend_core_helpers():
    aval = core.ShapedArray((3, 4), np.float32)
    assert xcore.mapped_aval(3, 0, aval) == core.ShapedArray((4,), np.float32)
    assert xcore.unmapped_aval(5, 1, aval) == core.ShapedArray((3, 5, 4), np.float32)
    assert xcore.primal_dtype_to_tangent_dtype(np.int32) == core.float0
    assert xcore.valid_jaxtype(1.0) and not xcore.valid_jaxtype("a")
    closed = core.make_jaxpr(lambda x: lax.cond(x > 0, lambda: x, lambda: -x))(1.0)
    assert len(list(xcore.subjaxprs(closed.jaxpr))) == 2
    assert xcore.concrete_or_error(int, jnp.array(3)) == 3
    with pytest.raises(core.errors.ConcretizationTypeError, match="shape"):
        core.jit(lambda x: xcore.concrete_or_error(int, x, "shape"))(1)


def test_extend_random_threefry_2x32_gives_jaxs_bits():
    from core.extend import random as xrandom

    # JAX 0.10.2: jax.extend.random.threefry_2x32(jnp.array([1, 2], jnp.uint32), arange(6))
    want = [[2052595727, 3504730591, 1038787879], [1880214352, 1914734168, 1027009547]]
    count = jnp.arange(6, dtype=jnp.uint32).reshape(2, 3)
    for f in (xrandom.threefry_2x32, core.jit(xrandom.threefry_2x32)):
        np.testing.assert_array_equal(f(jnp.array([1, 2], jnp.uint32), count), want)
    odd = xrandom.threefry_2x32((np.uint32(1), np.uint32(2)), jnp.arange(5, dtype=jnp.uint32))
    np.testing.assert_array_equal(odd, [2052595727, 3504730591, 2527474599, 1880214352, 1914734168])
    with pytest.raises(TypeError, match="uint32"):
        xrandom.threefry_2x32((1, 2), jnp.arange(3))


def test_effectful_abstract_eval_keeps_an_unused_result():
    calls = []
    p = xcore.Primitive("record")
    p.def_impl(lambda x: calls.append(float(x)) or x)
    p.def_effectful_abstract_eval(lambda x: (x, {"an effect"}))
    assert core.jit(lambda x: (p.bind(x), x + 1.0)[1])(2.0) == 3.0
    assert calls == [2.0]


@pytest.mark.parametrize(
    "impl, kind, dtype",
    [  # JAX 0.10.2: an eager bind returns what `impl` returns, unconverted
        (lambda x: np.asarray(x, np.float64) * 2, np.ndarray, np.float64),
        (lambda x: np.float64(2.0), np.float64, np.float64),
        (lambda x: np.arange(2), np.ndarray, np.int64),
        (lambda x: 2.0, float, None),
    ],
)
def test_user_primitive_eager_result_is_impls_own(impl, kind, dtype):
    p = xcore.Primitive("raw")
    p.def_impl(impl)
    out = p.bind(np.ones(2, np.float32))
    assert type(out) is kind and getattr(out, "dtype", None) == dtype
