"""The IR and the API surface: make_jaxpr's printed format (JAX's), eval_jaxpr, typecheck,
linearize/vjp/jvp on pytrees, eval_shape."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import ir
from core.prims import elementwise as ew


@pytest.mark.parametrize(
    "fn,args,expected",
    [
        (jnp.sin, (jnp.ones(3),), "{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }"),
        (lambda x: x, (1.0,), "{ lambda ; a:f32[]. let  in (a,) }"),
        (lambda x: (), (1.0,), "{ lambda ; a:f32[]. let  in () }"),
        (lambda x: (x, x), (jnp.ones(3),), "{ lambda ; a:f32[3]. let  in (a, a) }"),
        (
            lambda x: jnp.sin(jnp.cos(x)),
            (1.0,),
            "{ lambda ; a:f32[]. let b:f32[] = cos a; c:f32[] = sin b in (c,) }",
        ),
        (
            lambda x: x * jnp.arange(3.0),
            (jnp.ones(3),),
            "{ lambda ; a:f32[3]. let\n"
            "    b:f32[3] = iota[dimension=0 dtype=float32 shape=(3,) sharding=None] \n"
            "    c:f32[3] = mul a b\n"
            "  in (c,) }",
        ),
        (
            lambda x: ew.add(x, ew.full_like(x, 2)),
            (jnp.ones((), jnp.int32),),
            "{ lambda ; a:i32[]. let b:i32[] = add a 2:i32[] in (b,) }",
        ),
        (
            lambda x: ew.bitwise_or(x, True),
            (jnp.ones((), bool),),
            "{ lambda ; a:bool[]. let b:bool[] = or a True:bool[] in (b,) }",
        ),
        (
            lambda x: jnp.exp(jnp.log(jnp.tanh(jnp.sin(x)))),
            (jnp.ones((2, 3)),),
            "{ lambda ; a:f32[2,3]. let\n"
            "    b:f32[2,3] = sin a\n"
            "    c:f32[2,3] = tanh b\n"
            "    d:f32[2,3] = log c\n"
            "    e:f32[2,3] = exp d\n"
            "  in (e,) }",
        ),
    ],
)
def test_make_jaxpr_format(fn, args, expected):
    assert str(core.make_jaxpr(fn)(*args)) == expected


def test_long_params_break_like_jax():
    text = str(core.make_jaxpr(lambda x, y: jnp.dot(x, y))(jnp.ones((2, 3)), jnp.ones((3, 4))))
    assert text == (
        "{ lambda ; a:f32[2,3] b:f32[3,4]. let\n"
        "    c:f32[2,4] = dot_general[\n"
        "      dimension_numbers=(([1], [0]), ([], []))\n"
        "      preferred_element_type=float32\n"
        "    ] a b\n"
        "  in (c,) }"
    )


def test_nested_jaxpr_printing():
    @core.custom_jvp
    def f(x):
        return jnp.sin(jnp.cos(x)) * 2.0

    f.defjvp(lambda p, t: (f(p[0]), t[0]))
    text = str(core.make_jaxpr(lambda x: f(x) + x)(1.0))
    assert text == (  # JAX 0.10.2's: the nested jaxpr's names go on from the enclosing one's
        "{ lambda ; a:f32[]. let\n"
        "    b:f32[] = custom_jvp_call[\n"
        "      name=f\n"
        "      call_jaxpr={ lambda ; c:f32[]. let\n"
        "          d:f32[] = cos c\n"
        "          e:f32[] = sin d\n"
        "          f:f32[] = mul e 2.0:f32[]\n"
        "        in (f,) }\n"
        "      jvp=<lambda>\n"
        "      symbolic_zeros=False\n"
        "    ] a\n"
        "    g:f32[] = add b a\n"
        "  in (g,) }"
    )


def test_make_jaxpr_options_and_eval_jaxpr():
    closed = core.make_jaxpr(lambda x, n: x * n, static_argnums=1)(jnp.ones(2), 3)
    assert [a.shape for a in closed.in_avals] == [(2,)]
    np.testing.assert_allclose(
        ir.eval_jaxpr(closed.jaxpr, closed.consts, jnp.arange(2.0))[0], [0.0, 3.0]
    )
    closed, shape = core.make_jaxpr(lambda x: {"y": x.sum()}, return_shape=True)(jnp.ones(2))
    assert shape["y"].shape == () and shape["y"].dtype == np.float32
    # evaluating a jaxpr under a transformation transforms it
    closed = core.make_jaxpr(lambda x: jnp.sin(x) * x)(1.0)
    g = core.grad(lambda x: ir.eval_jaxpr(closed.jaxpr, closed.consts, x)[0])(0.5)
    np.testing.assert_allclose(g, np.cos(0.5) * 0.5 + np.sin(0.5), rtol=1e-6)


def test_typecheck_rejects_bad_jaxprs():
    a = ir.Var(core.ShapedArray((3,), np.float32))
    b = ir.Var(core.ShapedArray((4,), np.float32))
    bad = ir.Jaxpr([], [a], [ir.Eqn(ew.sin_p, [a], {}, [b])], [b])
    with pytest.raises(ir.JaxprTypeError, match="produces"):
        ir.typecheck(bad)
    unbound = ir.Jaxpr([], [], [], [a])
    with pytest.raises(ir.JaxprTypeError, match="before it is bound"):
        ir.typecheck(unbound)


def test_grad_and_linearize_jaxprs_typecheck():
    # The linear program of linearize is a typechecked jaxpr with only tangent work in it.
    f = lambda x: jnp.sum(jnp.sin(x) * x)
    out, f_lin = core.linearize(f, jnp.arange(3.0))
    np.testing.assert_allclose(f_lin(jnp.ones(3)), core.grad(f)(jnp.arange(3.0)).sum(), rtol=1e-6)
    jaxpr = core.make_jaxpr(lambda t: f_lin(t))(jnp.ones(3))
    names = {e.prim.name for e in jaxpr.eqns}
    assert "sin" not in names and "cos" not in names
    ir.typecheck(jaxpr.jaxpr)
    jaxpr = core.make_jaxpr(core.grad(f))(jnp.arange(3.0))
    ir.typecheck(jaxpr.jaxpr)
    assert {"sin", "cos"} <= {e.prim.name for e in jaxpr.eqns}


def test_vjp_and_jvp_on_pytrees():
    def f(d):
        return {"s": jnp.sum(d["a"] * d["b"]), "p": d["a"] * 2.0}

    d = {"a": jnp.arange(3.0), "b": jnp.ones(3)}
    out, pullback = core.vjp(f, d)
    (ct,) = pullback({"s": 1.0, "p": jnp.ones(3)})
    np.testing.assert_allclose(ct["a"], np.ones(3) + 2.0)
    np.testing.assert_allclose(ct["b"], np.arange(3.0))
    _, t = core.jvp(f, (d,), ({"a": jnp.ones(3), "b": jnp.zeros(3)},))
    np.testing.assert_allclose(t["s"], 3.0)
    np.testing.assert_allclose(t["p"], [2.0, 2.0, 2.0])


def test_eval_shape():
    out = core.eval_shape(
        lambda x, y: {"z": jnp.dot(x, y), "w": x.sum()},
        core.ShapeDtypeStruct((2, 3), np.float32),
        jnp.ones((3, 5)),
    )
    assert out["z"].shape == (2, 5) and out["z"].dtype == np.float32
    assert out["w"].shape == ()


def test_weak_types_survive_transformations():
    assert core.grad(lambda x: x * 2.0)(1.0).weak_type
    g = core.grad(lambda x: jnp.sum(x * 2.0))(jnp.ones(2))
    assert g.dtype == np.float32 and not g.weak_type
    assert core.vmap(lambda x: x + 1)(jnp.ones(2, jnp.int32)).dtype == np.int32


def test_jaxpr_equations_have_jaxs_field_names():
    # JAX: ('sin', 'exp'), ['float32[3]'], invars of exp = outvars of sin
    jaxpr = core.make_jaxpr(lambda x: jnp.exp(jnp.sin(x)))(jnp.ones(3))
    sin, exp = jaxpr.jaxpr.eqns
    assert (sin.primitive.name, exp.primitive.name) == ("sin", "exp")
    assert [str(v.aval) for v in sin.outvars] == ["float32[3]"]
    assert exp.invars == sin.outvars


def test_vmap_sum_match_sums_mapped_outputs_with_out_axes_none():
    f = core.vmap(lambda x, y: (x * y, y), in_axes=(0, None), out_axes=(None, None), sum_match=True)
    total, y = f(np.arange(3.0, dtype=np.float32), 2.0)
    assert (float(total), y) == (6.0, 2.0)  # 2 * (0 + 1 + 2), JAX's answer
