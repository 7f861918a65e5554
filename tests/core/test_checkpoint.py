"""`checkpoint` (rematerialization): what reverse mode saves under each policy (the residual
tables are JAX 0.10.2's `saved_residuals`, locations left out), that checkpointing never
changes a value (gradients with and without it, under `jit`, `vmap` and `scan`; JAX's values
where a tangent reads a checkpointed result), and JAX's jaxpr of the backward pass."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.ad_checkpoint import checkpoint_name, saved_residuals

P = core.checkpoint_policies


def g(W, x):
    return jnp.sin(jnp.dot(W, x))


def chain(W1, W2, x):
    return g(W2, g(W1, x))


def per_layer(W1, W2, x):
    return core.checkpoint(g)(W2, core.checkpoint(g)(W1, x))


def named(W1, W2, x):
    return checkpoint_name(g(W2, checkpoint_name(g(W1, x), "a")), "b")


def recursive(x):
    inner = core.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
    return jnp.sin(jnp.sin(core.checkpoint(lambda x: inner(jnp.sin(jnp.sin(x))))(x)))


W1, W2, X = jnp.ones((3, 2)) * 0.3, jnp.ones((4, 3)) * 0.2, jnp.arange(2.0)
XX = jnp.stack([X, X])
ARGS = (
    "f32[3,2] from the argument W1",
    "f32[4,3] from the argument W2",
    "f32[2] from the argument x",
)
CASES = [
    ("chain", chain, ARGS + ("f32[3] sin (g)", "f32[3] cos (g)", "f32[4] cos (g)")),
    ("per_layer", per_layer, ARGS + ("f32[3] sin (g)",)),
    ("dots_no_batch", core.checkpoint(chain, policy=P.dots_with_no_batch_dims_saveable),
     ARGS + ("f32[3] dot_general (g)", "f32[4] dot_general (g)")),
    ("dots", core.checkpoint(chain, policy=P.dots_saveable),
     ARGS + ("f32[3] dot_general (g)", "f32[4] dot_general (g)")),
    ("everything", core.checkpoint(chain, policy=P.everything_saveable),
     ARGS + ("f32[3] sin (g)", "f32[3] cos (g)", "f32[4] cos (g)")),
    ("nothing", core.checkpoint(chain, policy=P.nothing_saveable), ARGS),
    ("only_a", core.checkpoint(named, policy=P.save_only_these_names("a")),
     ARGS + ("f32[3] named 'a' (named)",)),
    ("all_but_a", core.checkpoint(named, policy=P.save_any_names_but_these("a")), ARGS),
]  # fmt: skip


def _short(aval, src):
    """`f32[3] sin (g)` for `output of sin from file:line:col (g)`."""
    if " from " in src and src.startswith(("output of ", "named ")):
        what, where = src.split(" from ")
        short = aval.str_short(short_dtypes=True)
        return f"{short} {what.removeprefix('output of ')} {where.split(' ', 1)[1]}"
    return f"{aval.str_short(short_dtypes=True)} {src}"


@pytest.mark.parametrize("name, fun, want", CASES, ids=[c[0] for c in CASES])
def test_saved_residuals_are_jaxs(name, fun, want):
    assert tuple(_short(*r) for r in saved_residuals(fun, W1, W2, X)) == want


def test_nested_checkpoints_save_their_inputs_only():
    got = [_short(*r) for r in saved_residuals(recursive, 1.0)]
    assert got == ["f32[] from the argument x", "f32[] cos (recursive)", "f32[] cos (recursive)"]


@pytest.mark.parametrize("name, fun, want", CASES, ids=[c[0] for c in CASES])
def test_gradients_do_not_change(name, fun, want):
    loss = lambda *a: jnp.sum(fun(*a) ** 2)  # noqa: E731
    expected = core.grad(lambda *a: jnp.sum(chain(*a) ** 2), (0, 1, 2))(W1, W2, X)
    for got in (
        core.grad(loss, (0, 1, 2))(W1, W2, X),
        core.jit(core.grad(loss, (0, 1, 2)))(W1, W2, X),  # remat2 and name inlined, compiled
        [a[1] for a in core.vmap(core.grad(loss, (0, 1, 2)), (None, None, 0))(W1, W2, XX)],
    ):  # fmt: skip
        for a, b in zip(got, expected):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(fun(W1, W2, X), chain(W1, W2, X), rtol=1e-6)


def test_forward_mode_and_second_order():
    f = core.checkpoint(lambda x: jnp.sin(x) ** 3)
    np.testing.assert_allclose(core.jvp(f, (0.5,), (1.0,))[1], 3 * np.sin(0.5) ** 2 * np.cos(0.5))
    want = core.hessian(lambda x: jnp.sin(x) ** 3)(0.5)
    np.testing.assert_allclose(core.hessian(f)(0.5), want, rtol=1e-5)


def test_static_argnums_are_python_values():
    def h(x, n):
        for _ in range(n):  # a Python loop on the static argument
            x = jnp.sin(x)
        return x

    hc = core.checkpoint(h, static_argnums=(1,))
    np.testing.assert_allclose(core.grad(hc)(1.0, 3), core.grad(h)(1.0, 3), rtol=1e-6)
    assert [r[1] for r in saved_residuals(lambda x: hc(x, 3), 1.0)] == ["from the argument x"]


def test_checkpointed_scan_body():
    def layer(x, w):
        return jnp.maximum(jnp.dot(x, w), 0.1 * x), None

    def net(layer, ws, x):
        return jnp.sum(core.lax.scan(layer, x, ws)[0])

    ws = jnp.arange(18.0).reshape(2, 3, 3) / 20 - 0.3
    x = jnp.arange(3.0) - 1
    remat = core.checkpoint(layer, policy=P.dots_with_no_batch_dims_saveable)
    want = core.grad(net, (1, 2))(layer, ws, x)
    for got in (core.grad(net, (1, 2))(remat, ws, x),
                core.jit(core.grad(net, (1, 2)), static_argnums=0)(remat, ws, x)):  # fmt: skip
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_a_function_is_traced_once_per_argument_types_whatever_the_policy():
    # As JAX's cache (so redefining what the function calls does not re-trace it).
    calls = []

    def f(x):
        calls.append(1)
        return jnp.sin(x)

    core.grad(core.checkpoint(f, policy=P.dots_saveable))(1.0)
    core.grad(core.checkpoint(f))(2.0)
    assert len(calls) == 1
    core.grad(core.checkpoint(f))(np.float32(3.0))  # not weakly typed: another type
    assert len(calls) == 2


def test_jaxpr_shows_remat2_and_name_as_jax():
    text = str(core.make_jaxpr(core.checkpoint(lambda x: checkpoint_name(jnp.sin(x), "a")))(1.0))
    assert "remat2[" in text and "differentiated=False" in text
    assert "name[name=a] " in text  # strings unquoted, as JAX prints them
    assert str(P.dots_with_no_batch_dims_saveable) == "DotsSaveable(only_if_no_batch_dims=True)"
    assert (
        str(P.save_only_these_names("a")) == "SaveOnlyTheseNames(saveable_names=frozenset({'a'}))"
    )


def test_a_function_writing_an_outer_ref_runs_as_is():
    # JAX allows it too; numbax cannot stage the write, so it runs without rematerializing.
    r = core.new_ref(jnp.zeros(3))

    def f(x):
        r[...] = x
        return x * 2

    np.testing.assert_allclose(core.checkpoint(f)(jnp.ones(3)), 2.0)
    np.testing.assert_allclose(r[...], 1.0)


def test_saved_arguments_are_named_by_jaxs_paths():
    # JAX 0.10.2: `**kw`'s leaves are kw['z'], `*a`'s a[0]
    got = [r[1] for r in saved_residuals(lambda x, **kw: x * kw["z"], 1.0, z=2.0)]
    assert got == ["from the argument x", "from the argument kw['z']"]
    got = [r[1] for r in saved_residuals(lambda x, *a: x * a[0], 1.0, 2.0)]
    assert got == ["from the argument x", "from the argument a[0]"]


@pytest.mark.parametrize("call", [lambda g, x: g(x, mode="a"), lambda g, x: g(x, "a")])
def test_static_argnames_keeps_named_arguments_static(call):
    def f(x, mode):
        return jnp.sin(x) * 2 if mode == "a" else jnp.cos(x)

    g = core.checkpoint(f, static_argnames="mode")
    np.testing.assert_allclose(core.grad(lambda x: call(g, x))(1.0), 2 * np.cos(1.0), rtol=1e-6)


# A checkpointed function whose result a tangent equation reads through exp or tanh (their jvp
# rules use the primal output): reverse mode recomputes the result for the backward pass, and
# the forward pass must still return its own value (it returned the recomputed copy, a value
# of the backward program: a TracerArrayConversionError at the top level, "transpose rule for
# 'exp' not implemented" inside a scan). Values and gradients are JAX 0.10.2's (the gradients
# also agree with central differences in float64).
XR = np.array([1.0, 0.5, -0.3], np.float32)
XS = np.array([[0.3, 0.7, 1.1], [0.2, -0.4, 0.9], [1.2, 0.1, 0.5]], np.float32)


def reads_result(x):
    y = jnp.tanh(x) * 1.1
    return y, jnp.exp(y)


def body_reads_result(c, _):
    c = jnp.tanh(c) * 1.1 + jnp.exp(-c)
    return c, jnp.sum(jnp.exp(c))


def body_with_xs(c, x):
    c = jnp.exp(-c * x)
    return c, jnp.tanh(c)


def body_with_cond(c, x):
    c = core.lax.cond(x > 0, lambda c: jnp.tanh(c) * 1.1, lambda c: jnp.exp(-c), c)
    return c, jnp.sum(jnp.exp(c))


@core.custom_jvp
def custom_exp(x):
    return jnp.exp(x)


@custom_exp.defjvp
def _custom_exp_jvp(primals, tangents):
    y = custom_exp(primals[0])
    return y, tangents[0] * y


def body_with_custom_jvp(c, _):
    c = jnp.tanh(c) + 0.1
    return c, jnp.sum(custom_exp(c))


def scan_loss(body, wrap=core.checkpoint, xs=None, unroll=1):
    def loss(x):
        c, ys = core.lax.scan(
            wrap(body), x, xs, length=None if xs is not None else 4, unroll=unroll
        )
        return jnp.sum(c) + jnp.sum(ys)

    return loss


def product_loss(x):
    y, z = core.checkpoint(reads_result)(x)
    return jnp.sum(y * z)


def nested_loss(x):
    y, z = core.checkpoint(lambda x: core.checkpoint(reads_result)(jnp.sin(x)))(x)
    return jnp.sum(y * z)


def around_scan_loss(x):
    c, ys = core.checkpoint(lambda x: core.lax.scan(body_reads_result, x, None, length=4))(x)
    return jnp.sum(c) + jnp.sum(ys)


def fori_loss(x):
    step = core.checkpoint(lambda i, c: jnp.exp(jnp.tanh(c) - 0.5))
    return jnp.sum(core.lax.fori_loop(0, 4, step, x))


def with_policy(policy):
    return lambda f: core.checkpoint(f, policy=policy)


SCAN = (43.23868, [0.3249468, 0.84037185, -1.0609814])
READS_RESULT = {
    "top_level": (product_loss, 2.548706, [1.9621603, 2.169317, 0.49652043]),
    "nested": (nested_loss, 2.1776342, [1.1735241, 1.8824202, 0.48090175]),
    "scan": (scan_loss(body_reads_result), *SCAN),
    "scan_nothing_saveable": (scan_loss(body_reads_result, with_policy(P.nothing_saveable)), *SCAN),
    "scan_dots_saveable": (scan_loss(body_reads_result, with_policy(P.dots_saveable)), *SCAN),
    "scan_names": (scan_loss(body_reads_result, with_policy(P.save_only_these_names("a"))), *SCAN),
    "scan_unrolled": (scan_loss(body_reads_result, unroll=2), *SCAN),
    "checkpoint_around_scan": (around_scan_loss, *SCAN),
    "scan_xs": (scan_loss(body_with_xs, xs=XS), 7.8074636, [-0.14523593, -0.34129494, -0.23055199]),
    "fori_loop": (fori_loss, 4.3927603, [0.016961578, 0.049910866, 0.07292778]),
    "cond_in_body": (scan_loss(body_with_cond, xs=np.array([1.0, -1.0, 2.0, -0.5], np.float32)),
                     24.705109, [0.81143546, 0.36986098, -5.352533]),
    "custom_jvp_in_body": (scan_loss(body_with_custom_jvp),
                           21.668413, [1.9535145, 4.051439, 4.3021836]),
}  # fmt: skip


@pytest.mark.parametrize("name", list(READS_RESULT))
def test_a_result_the_tangents_read_keeps_its_forward_value(name):
    loss, value, grad = READS_RESULT[name]
    got_value, got_grad = core.value_and_grad(loss)(XR)
    assert isinstance(got_value, core.Array)  # a value, not a tracer of the backward program
    np.testing.assert_allclose(got_value, value, rtol=2e-6)
    np.testing.assert_allclose(got_grad, grad, rtol=2e-5, atol=1e-6)


# JAX 0.10.2's values for the checkpointed scan `scan_loss(body_reads_result)` (4 steps) under
# the other transformations.
AROUND_THE_SCAN = [
    ("jit", lambda f: core.jit(core.grad(f))(XR), [0.3249468, 0.84037185, -1.0609814]),
    ("grad_of_grad", lambda f: core.grad(lambda x: jnp.sum(core.grad(f)(x)))(XR),
     [-1.13796, -0.49120182, 6.1848845]),
    ("vmap_of_grad", lambda f: core.vmap(core.grad(f))(XS),
     [[0.83660156, 0.67539459, 0.21617724], [0.7396394, -1.7456354, 0.44215402],
      [0.11962194, 0.56496817, 0.84037185]]),
    ("linearize", lambda f: core.linearize(f, XR)[1](np.ones(3, np.float32)), 0.10433728),
    ("vjp", lambda f: core.vjp(f, XR)[1](np.float32(1.0))[0], [0.3249468, 0.84037185, -1.0609814]),
]  # fmt: skip


@pytest.mark.parametrize("name, run, want", AROUND_THE_SCAN, ids=[c[0] for c in AROUND_THE_SCAN])
def test_checkpointed_scan_reading_its_result_under_transformations(name, run, want):
    got = run(scan_loss(body_reads_result, with_policy(P.nothing_saveable)))
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)


def test_residuals_of_a_result_the_tangents_read_are_the_inputs_only():
    # JAX 0.10.2: the result is recomputed from the argument, not saved
    assert [r[1] for r in saved_residuals(core.checkpoint(reads_result), XR)] == [
        "from the argument x"
    ]


# JAX 0.10.2's `make_jaxpr(grad(product_loss))`: the forward pass, then the backward pass as
# one remat2 that recomputes tanh and exp from the argument (the transposed staged remat2).
GRAD_JAXPR = """\
{ lambda ; a:f32[3]. let
    b:f32[3] = tanh a
    c:f32[3] = mul b 1.100000023841858:f32[]
    d:f32[3] = exp c
    e:f32[3] = mul c d
    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] e
    f:f32[3] = broadcast_in_dim 1.0:f32[]
    g:f32[3] = mul c f
    h:f32[3] = mul f d
    i:f32[3] = remat2[
      differentiated=True
      jaxpr={ lambda ; j:f32[3] k:f32[3] l:f32[3]. let
          m:f32[3] = tanh j
          n:f32[3] = sub 1.0:f32[] m
          o:f32[3] = mul m 1.100000023841858:f32[]
          p:f32[3] = exp o
          q:f32[3] = mul l p
          r:f32[3] = add_any k q
          s:f32[3] = mul r 1.100000023841858:f32[]
          t:f32[3] = mul s n
          u:f32[3] = mul t m
          v:f32[3] = add_any t u
        in (v,) }
      policy=None
      prevent_cse=True
    ] a h g
  in (i,) }"""


def test_grad_jaxpr_is_jaxs():
    assert str(core.make_jaxpr(core.grad(product_loss))(XR)) == GRAD_JAXPR


def test_transposing_a_checkpoint_binds_a_differentiated_remat2():
    # JAX 0.10.2: linear_transpose of a checkpointed linear function
    f = core.linear_transpose(core.checkpoint(lambda x: 2.0 * x + jnp.sum(x)), XR)
    np.testing.assert_allclose(f(XR)[0], [3.2, 2.2, 0.6], rtol=1e-6)
    text = str(core.make_jaxpr(lambda x: f(x)[0])(XR))
    assert "remat2[\n      differentiated=True" in text


@pytest.mark.parametrize(
    "fun",
    [
        around_scan_loss,
        core.checkpoint(lambda x: core.lax.cond(jnp.sum(x) > 0, jnp.tanh, jnp.sin, jnp.exp(x))),
    ],
    ids=["scan", "cond"],
)
def test_a_checkpoint_around_control_flow_saves_its_inputs_only(fun):
    # JAX 0.10.2: the backward pass recomputes the scan or cond from the argument
    assert [r[1] for r in saved_residuals(fun, XR)] == ["from the argument x"]


def around_cond_loss(x):
    return jnp.sum(
        core.checkpoint(lambda x: core.lax.cond(jnp.sum(x) > 0, jnp.tanh, jnp.sin, x))(x)
    )


@pytest.mark.parametrize(
    "fun, prim, shapes",
    [(around_scan_loss, "scan", [(3,), (4,)]), (around_cond_loss, "cond", [(3,)])],
    ids=["scan", "cond"],
)
def test_the_forward_pass_around_control_flow_computes_no_residuals(fun, prim, shapes):
    # As JAX 0.10.2's: the forward pass's scan (in a closed_call, as JAX's) or cond returns its
    # results only; the backward pass recomputes what it needs.
    eqns = core.make_jaxpr(core.grad(fun))(XR).jaxpr.eqns
    first = next(e for e in eqns if e.prim.name in (prim, "closed_call"))
    assert [v.aval.shape for v in first.outputs] == shapes


def _scanned(x):
    def body(c, xi):
        return jnp.sin(c) * xi, c * 2

    c, ys = lax.scan(body, x[0], x)
    return c + ys.sum()


def test_known_scan_of_a_differentiated_checkpoint_is_a_closed_call():
    # JAX 0.10.2's program: the forward pass's scan inside a closed_call, before the remat2
    x = np.linspace(0.5, 1.5, 3).astype(np.float32)
    text = str(core.make_jaxpr(core.grad(core.checkpoint(_scanned)))(x))
    assert (
        "d:f32[] e:f32[3] = closed_call[\n      call_jaxpr={ lambda ; f:f32[] g:f32[3]. let\n"
        in text
    )
    want = core.grad(_scanned)(x)
    for fun in (
        core.grad(core.checkpoint(_scanned)),
        core.jit(core.grad(core.checkpoint(_scanned))),
    ):
        np.testing.assert_allclose(fun(x), want, rtol=1e-6)
    # its jvp, batching and transpose: a Hessian, a batch of gradients
    hess = core.jacfwd(core.grad(core.checkpoint(_scanned)))(x)
    np.testing.assert_allclose(hess, core.hessian(_scanned)(x), rtol=1e-5, atol=1e-6)
    xs = np.stack([x, 2 * x])
    batched = core.vmap(core.grad(core.checkpoint(_scanned)))(xs)
    np.testing.assert_allclose(batched, core.vmap(core.grad(_scanned))(xs), rtol=1e-6)


def test_checkpoint_argument_errors_are_jaxs():
    f = core.checkpoint(lambda y, n: y**n, static_argnums=2)
    with pytest.raises(ValueError) as e:
        f(2.0, 3)
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2
        "the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take integer "
        "values greater than or equal to `-len(args)` and less than `len(args)`, but got (2,), "
        "while `len(args)` = 2"
    )
    with pytest.raises(NotImplementedError, match="The `concrete` option to `jax.checkpoint`"):
        core.checkpoint(lambda y: y, concrete=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        core.checkpoint(jnp.sin, bogus=1)


def test_checkpoint_name_outside_transformations_is_the_identity():
    tree = {"a": 1.0, "b": jnp.ones(2)}
    out = checkpoint_name(tree, "n")
    assert out["a"] == 1.0 and type(out["a"]) is float  # JAX 0.10.2: the Python float
    assert out["b"] is tree["b"]


@pytest.mark.parametrize(
    "call, first_line",
    [  # JAX 0.10.2's TypeErrors: remat has its own, narrower signature
        (
            lambda: core.remat(lambda x: x, unknown=1),
            "remat() got an unexpected keyword argument 'unknown'",
        ),
        (
            lambda: core.remat(lambda x, n: x * n, static_argnames="n"),
            "remat() got an unexpected keyword argument 'static_argnames'",
        ),
        (lambda: core.remat(policy=None), "remat() missing 1 required positional argument: 'fun'"),
        (
            lambda: core.checkpoint(lambda x: x, unknown=1),
            "checkpoint() got an unexpected keyword argument 'unknown'",
        ),
    ],
)
def test_remat_signature_errors(call, first_line):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_vjp_of_a_vjp_of_a_checkpointed_scan_keeps_primals_known():
    # The known scan of the inner backward pass is a closed_call; linearizing it again splits
    # it (its own partial evaluation), so the outer primal outputs are values. JAX 0.10.2's
    # numbers (the inner cotangent is the function's own output).
    def body(c, x):
        b = jnp.sum(jnp.sin(x)) + jnp.sum(jnp.sin(c))
        return jnp.sin(c * b), b

    g = core.checkpoint(lambda c, xs: lax.scan(body, c, xs), policy=P.nothing_saveable)

    def g_vjp(c, xs):
        out, v = core.vjp(g, c, xs)
        return v(out)

    c = jnp.array([0.5, -1.0, 2.0])
    xs = jnp.arange(6.0).reshape(2, 3) / 4
    (dc, dxs), v = core.vjp(g_vjp, c, xs)
    assert isinstance(dc, core.Array) and isinstance(dxs, core.Array)
    np.testing.assert_allclose(dc, [-0.11927548, -0.23948592, -1.2719469], rtol=2e-5)
    np.testing.assert_allclose(dxs[1], [1.6962479, 1.2525634, 0.73100048], rtol=2e-5)
    tc, txs = v((jnp.ones(3), jnp.ones((2, 3))))
    np.testing.assert_allclose(tc, [-134.38486, -82.09896, -37.505623], rtol=1e-4)
    np.testing.assert_allclose(txs[1], [2.1201012, 0.78168178, -0.60533875], rtol=1e-4, atol=1e-5)
