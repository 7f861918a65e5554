"""`repr` of arrays as JAX 0.10.2 prints them (recorded): numpy's layout with `Array(` as the
prefix, the dtype after the data (on the last line, or after six spaces when it would not fit),
`shape=` for empty arrays, and `weak_type=True` for weakly typed ones; traced values as
`JitTracer(~float32[])`, `VmapTracer(...)`, `JVPTracer(...)` and `GradTracer(...)`."""

import pytest

import core
import core.numpy as jnp

CASES = [
    ("jnp.arange(3)", "Array([0, 1, 2], dtype=int32)"),
    ("jnp.array(1.5)", "Array(1.5, dtype=float32, weak_type=True)"),
    ("jnp.array(2.0) * 2", "Array(4., dtype=float32, weak_type=True)"),
    ("jnp.zeros((0,))", "Array([], shape=(0,), dtype=float32)"),
    ("jnp.zeros((2, 0), jnp.int32)", "Array([], shape=(2, 0), dtype=int32)"),
    ("jnp.argwhere(1)", "Array([], shape=(1, 0), dtype=int32)"),
    (
        "jnp.linspace(0, 10, 9)",
        (
            "Array([ 0.  ,  1.25,  2.5 ,  3.75,  5.  ,  6.25,  7.5 ,  8.75, 10.  ],"
            "      dtype=float32)"
        ),
    ),
    (
        "jnp.arange(12.0).reshape(3, 4) * 0.37",
        (
            "Array([[0.       , 0.37     , 0.74     , 1.11     ],\n"
            "       [1.48     , 1.85     , 2.22     , 2.5900002],\n"
            "       [2.96     , 3.33     , 3.7      , 4.07     ]], dtype=float32)"
        ),
    ),
    (
        "jnp.array([1.0471976, 1.5707964, 2.0943952, 3.1415927]) * 1",
        "Array([1.0471976, 1.5707964, 2.0943952, 3.1415927], dtype=float32)",
    ),
    (
        "jnp.arange(2000.0)",
        (
            "Array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
            "       1.999e+03], dtype=float32)"
        ),
    ),
    ("jnp.array([[1 + 2j, 3 - 1j]])", "Array([[1.+2.j, 3.-1.j]], dtype=complex64)"),
    ("jnp.array([True, False])", "Array([ True, False], dtype=bool)"),
    (
        "jnp.full((2, 3), 0.1, jnp.float16)",
        ("Array([[0.1, 0.1, 0.1],\n       [0.1, 0.1, 0.1]], dtype=float16)"),
    ),
    (
        "jnp.arange(30).reshape(3, 10) * 1000",
        (
            "Array([[    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,\n"
            "         9000],\n"
            "       [10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000,\n"
            "        19000],\n"
            "       [20000, 21000, 22000, 23000, 24000, 25000, 26000, 27000, 28000,\n"
            "        29000]], dtype=int32)"
        ),
    ),
    ("jnp.array([1e-5, 1e5])", "Array([1.e-05, 1.e+05], dtype=float32)"),
]


@pytest.mark.parametrize("expr, want", CASES, ids=[c[0] for c in CASES])
def test_repr_as_in_jax(expr, want):
    assert repr(eval(expr, {"jnp": jnp})) == want


def test_traced_values_print_as_in_jax():
    seen = []
    core.make_jaxpr(lambda x, n: seen.extend([repr(x), str(n)]) or x)(
        2.0, jnp.ones((2, 3), "int32")
    )
    core.vmap(lambda x: seen.append(repr(x)) or x, in_axes=1)(jnp.ones((2, 3)))
    assert seen == [
        "JitTracer(~float32[])",
        "JitTracer(int32[2,3])",
        "VmapTracer(aval=float32[2], batched=float32[2,3])",
    ]


_NESTED_VMAP = "VmapTracer(aval=float32[], batched=float32[2])"


def _rec(seen):
    return lambda x: seen.append(repr(x)) or x


@pytest.mark.parametrize(
    "call, want",
    [  # recorded from JAX 0.10.2
        (lambda r: core.jvp(r, (1.0,), (1.0,)), "JVPTracer(primal=1.0, tangent=1.0)"),
        (
            lambda r: core.jvp(r, (jnp.arange(2.0),), (jnp.ones(2),)),
            "JVPTracer(primal=[0. 1.], tangent=[1. 1.])",
        ),
        (lambda r: core.grad(r)(1.0), "GradTracer(primal=1.0, typeof(tangent)=f32[])"),
        (
            lambda r: core.grad(lambda x: r(x).sum())(jnp.arange(2.0)),
            "GradTracer(primal=[0. 1.], typeof(tangent)=f32[2])",
        ),
        (lambda r: core.linearize(r, 1.0), "GradTracer(primal=1.0, typeof(tangent)=f32[])"),
        (lambda r: core.vjp(r, 1.0), "GradTracer(primal=1.0, typeof(tangent)=f32[])"),
        (
            lambda r: core.make_jaxpr(core.grad(r))(1.0),
            "GradTracer(primal=JitTracer(~float32[]), typeof(tangent)=f32[])",
        ),
        (
            lambda r: core.vmap(lambda x: core.jvp(r, (x,), (x,)))(jnp.arange(2.0)),
            f"JVPTracer(primal={_NESTED_VMAP}, tangent={_NESTED_VMAP})",
        ),
        (
            lambda r: core.grad(core.grad(r))(1.0),
            "GradTracer(primal=GradTracer(primal=1.0, typeof(tangent)=f32[]), "
            "typeof(tangent)=f32[])",
        ),
        (
            lambda r: core.vmap(core.grad(r))(jnp.arange(2.0)),
            f"GradTracer(primal={_NESTED_VMAP}, typeof(tangent)=f32[])",
        ),
        (lambda r: core.jvp(core.vmap(r), (jnp.arange(2.0),), (jnp.ones(2),)), _NESTED_VMAP),
    ],
)
def test_differentiated_values_print_as_in_jax(call, want):
    seen = []
    call(_rec(seen))
    assert seen == [want]
