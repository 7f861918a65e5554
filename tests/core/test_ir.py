"""The jaxpr printer (`core/ir.py`) prints what `jax.make_jaxpr` prints: parameters sorted by
name, JAX's parameters where numbax's differ, nested jaxprs going on with the enclosing one's
variable names. The expected texts were printed by JAX 0.10.2. `copy_eqns` copies a body with
fresh variables."""

import pytest

import core
import core.numpy as jnp
from core import ir, lax

CASES = [
    (
        lambda x: lax.broadcast_in_dim(x, (2, 3), (1,)),
        (jnp.ones(3),),
        "{ lambda ; a:f32[3]. let\n    b:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a"
        "\n  in (b,) }",
    ),
    (
        lambda x: jnp.broadcast_to(x, (3,)),
        (1.0,),
        "{ lambda ; a:f32[]. let b:f32[3] = broadcast_in_dim a in (b,) }",
    ),
    (
        lambda x: x.reshape(6).sum(),
        (jnp.ones((2, 3)),),
        "{ lambda ; a:f32[2,3]. let\n    b:f32[6] = reshape[dimensions=None new_sizes=(6,)"
        " sharding=None] a\n    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] b\n"
        "  in (c,) }",
    ),
    (
        lambda x: lax.slice(x, (1,), (3,)),
        (jnp.ones(4),),
        "{ lambda ; a:f32[4]. let\n    b:f32[2] = slice[limit_indices=(3,) start_indices=(1,)"
        " strides=None] a\n  in (b,) }",
    ),
    (
        lambda x: lax.cond(x > 0, lambda y: y + 1.0, lambda y: y - 1.0, x),
        (1.0,),
        "{ lambda ; a:f32[]. let\n    b:bool[] = gt a 0.0:f32[]\n"
        "    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b\n"
        "    d:f32[] = cond[\n      branches=(\n"
        "        { lambda ; e:f32[]. let f:f32[] = sub e 1.0:f32[] in (f,) }\n"
        "        { lambda ; g:f32[]. let h:f32[] = add g 1.0:f32[] in (h,) }\n"
        "      )\n    ] c a\n  in (d,) }",
    ),
]


@pytest.mark.parametrize("f, args, text", CASES)
def test_jaxprs_print_as_jax_prints_them(f, args, text):
    assert str(core.make_jaxpr(f)(*args)) == text


def test_scan_body_names_go_on_after_the_outputs_of_the_scan():
    def f(xs):
        return lax.scan(lambda c, x: (c + x, c), 0.0, xs)

    lines = str(core.make_jaxpr(f)(jnp.ones(4))).splitlines()
    assert lines[1].split("=")[0].strip() == "b:f32[] c:f32[4]"
    assert lines[2].strip().startswith("jaxpr={ lambda ; d:f32[] e:f32[]. let")


@pytest.mark.parametrize(
    "shapes, head",
    [
        # the space before a binder breaks once the line has reached 80 columns
        ([(1, 2, 3, 4, 5, 6, 7, 8)] * 4, "{ lambda ; a:f32[1,2,3,4,5,6,7,8] b:f32[1,2,3,4,5,6,7,8]"
         " c:f32[1,2,3,4,5,6,7,8] d:f32[1,2,3,4,5,6,7,8]. let"),
        ([(1, 2, 3, 4, 5, 6, 7, 8)] * 2 + [(1, 2, 3, 4, 5, 6, 7, 10), (1, 2, 3, 4, 5, 6, 7, 8)],
         "{ lambda ; a:f32[1,2,3,4,5,6,7,8] b:f32[1,2,3,4,5,6,7,8] c:f32[1,2,3,4,5,6,7,10]\n"
         "    d:f32[1,2,3,4,5,6,7,8]. let"),
        ([()] * 20, "{ lambda ; a:f32[] b:f32[] c:f32[] d:f32[] e:f32[] f:f32[] g:f32[] h:f32[]"
         " i:f32[]\n    j:f32[] k:f32[] l:f32[] m:f32[] n:f32[] o:f32[] p:f32[] q:f32[] r:f32[]"
         " s:f32[]\n    t:f32[]. let"),
    ],
)  # fmt: skip
def test_long_binder_lists_wrap_as_jax_wraps_them(shapes, head):
    text = str(core.make_jaxpr(lambda *a: a[0])(*[jnp.ones(s) for s in shapes]))
    assert text == f"{head}\n    \n  in (a,) }}"


def test_unused_outputs_print_as_jaxs_dropped_variables():
    text = str(core.make_jaxpr(lambda x: lax.sort((x, x), num_keys=1)[0])(jnp.ones(3)))
    assert text == (
        "{ lambda ; a:f32[3]. let\n"
        "    b:f32[3] _:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a a\n  in (b,) }"
    )


def test_a_weak_scan_carry_is_converted_in_the_body_and_the_body_breaks_after_jaxpr_equals():
    text = str(core.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c + x, c), 0.0, xs))(jnp.ones(3)))
    assert text.splitlines()[2:6] == [
        "      jaxpr={ lambda ; d:f32[] e:f32[]. let",
        "          f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d",
        "          g:f32[] = add f e",
        "        in (g, d) }",
    ]
    # fits in 80 columns from the indentation, not after `jaxpr=`: several lines, as in JAX
    text = str(
        core.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c + 1.0, c), 0.0, xs))(jnp.ones(3))
    )
    assert text.splitlines()[2:5] == [
        "      jaxpr={ lambda ; d:f32[] e:f32[]. let",
        "          f:f32[] = add d 1.0:f32[]",
        "        in (f, d) }",
    ]


def test_copy_eqns_gives_a_body_fresh_variables_on_the_given_operands():
    body = core.make_jaxpr(lambda x, y: (jnp.sin(x) * y, y))(1.0, 2.0).jaxpr
    a, b = ir.Var(body.invars[0].aval), ir.Var(body.invars[1].aval)
    eqns, outs = ir.copy_eqns(body, [a, b])
    assert [e.prim.name for e in eqns] == [e.prim.name for e in body.eqns]
    assert eqns[0].inputs == [a] and eqns[1].inputs == [eqns[0].outputs[0], b]
    fresh = {v for e in eqns for v in e.outputs}
    assert not fresh & {v for e in body.eqns for v in e.outputs}
    assert outs == [eqns[1].outputs[0], b]
