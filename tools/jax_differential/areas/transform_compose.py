"""Transformations composed as users compose them (`transform_compose`): grad of jit of vmap and
every other order; vmap with pytree in_axes/out_axes and keyword arguments; jacfwd, jacrev and
hessian with has_aux and argnums tuples over pytrees; custom_jvp and custom_vjp under vmap, jit
and higher-order derivatives; checkpoint with policies and names; scan, while_loop, fori_loop,
cond and switch with pytree carries under grad, vmap and jit; linearize and linear_transpose of
composed functions; value_and_grad with holomorphic=True; reduce_precision and stop_gradient in
the middle of a derivative; closures over tracers; jit's static and donated arguments and their
errors; eval_shape and the jaxpr text of common compositions.

`transforms` and `transform_api` cover each transformation's own arguments and errors,
`autodiff_edges` derivatives at special points, `control_flow` and `lax_more` the loops
themselves; this area does not repeat them.

Left knowingly (6 of 516): JAX's failures (jacfwd of a bool output, `astype` of a
stop_gradient'ed Python float) and incidental messages (scan over a scalar, the Array class
in static-argument hashing), the jaxpr text of `grad` of `jnp.where` (JAX's partial
evaluation keeps a known zero as an output of the inner jit), and the MLIR text of `lower()`
(numbax's lowered text is not MLIR).
"""

# ruff: noqa: E501

PRELUDE = """
def tc_mlp(p, x):
    h = jnp.tanh(x @ p['w1'] + p['b1'])
    return h @ p['w2'] + p['b2']
TC_P = {'w1': jnp.arange(6.0).reshape(3, 2) / 10, 'b1': jnp.array([0.1, -0.2]), 'w2': jnp.array([[0.5], [-1.0]]), 'b2': jnp.array([0.3])}
TC_X = jnp.arange(12.0).reshape(4, 3) / 7 - 0.5
TC_Y = jnp.array([[0.2], [-0.1], [0.4], [0.0]])
def tc_loss(p, x, y):
    return jnp.mean((tc_mlp(p, x) - y) ** 2)
@jax.custom_jvp
def tc_softclip(x):
    return jnp.tanh(x) * 2.0
@tc_softclip.defjvp
def _tc_softclip_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.tanh(x) * 2.0, 2.0 * (1 - jnp.tanh(x) ** 2) * t
@jax.custom_vjp
def tc_clip_grad(x):
    return x
def _tc_clip_fwd(x):
    return x, None
def _tc_clip_bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)
tc_clip_grad.defvjp(_tc_clip_fwd, _tc_clip_bwd)
@jax.custom_vjp
def tc_scale_grad(x, s):
    return x
def _tc_scale_fwd(x, s):
    return x, s
def _tc_scale_bwd(s, g):
    return (g * s, jnp.zeros_like(s))
tc_scale_grad.defvjp(_tc_scale_fwd, _tc_scale_bwd)
def tc_body(c, x):
    h, s = c
    h = jnp.tanh(h * 0.5 + x)
    return (h, s + h.sum()), h * 2
"""


def _compositions() -> list[str]:
    fs = [
        "lambda x: jnp.sum(jnp.sin(x) * x)",
        "lambda x: jnp.sum(jax.nn.softplus(x) ** 2)",
        "lambda x: jax.nn.logsumexp(x * 2.0)",
        "lambda x: jnp.sum(x ** 3 - x)",
        "lambda x: jnp.linalg.norm(x + 1.0)",
        "lambda x: jnp.sum(jax.nn.gelu(x))",
    ]
    wraps = [
        "jax.grad(jax.jit({f}))(jnp.arange(3.0) - 1)",
        "jax.jit(jax.grad({f}))(jnp.arange(3.0) - 1)",
        "jax.vmap(jax.grad({f}))(jnp.arange(6.0).reshape(2, 3) - 2)",
        "jax.jit(jax.vmap(jax.grad({f})))(jnp.arange(6.0).reshape(2, 3) - 2)",
        "jax.vmap(jax.jit(jax.grad({f})))(jnp.arange(6.0).reshape(2, 3) - 2)",
        "jax.grad(lambda xs: jax.vmap({f})(xs).sum())(jnp.arange(6.0).reshape(2, 3) - 2)",
        "jax.grad(jax.jit(lambda xs: jax.vmap({f})(xs).mean()))(jnp.arange(6.0).reshape(2, 3) - 2)",
        "jax.jacfwd(jax.grad({f}))(jnp.arange(3.0) - 1)",
        "jax.hessian(jax.jit({f}))(jnp.arange(3.0) - 1)",
        "jax.value_and_grad(jax.jit({f}))(jnp.arange(3.0, dtype=jnp.float16) - 1)",
    ]
    return [w.format(f=f) for f in fs for w in wraps]


def _vmap_axes() -> list[str]:
    return [
        "jax.vmap(lambda d: d['a'] * d['b'], in_axes=({'a': 0, 'b': None},))({'a': jnp.arange(3.0), 'b': 2.0})",
        "jax.vmap(lambda d: d['a'] @ d['b'], in_axes=({'a': 0, 'b': 1},))({'a': jnp.ones((2, 3)), 'b': jnp.arange(12.0).reshape(3, 2, 2)})",
        "jax.vmap(lambda x, y: (x + y, x * y), in_axes=(0, None), out_axes=(0, 1))(jnp.arange(6.0).reshape(3, 2), jnp.ones(2))",
        "jax.vmap(lambda x: {'s': x.sum(), 'm': x.max()}, out_axes={'s': 0, 'm': None})(jnp.ones((3, 2)))",
        "jax.vmap(lambda x: {'s': x.sum(), 'm': x * 0 + 1.0}, out_axes={'s': 0, 'm': None})(jnp.ones((3, 2)))",
        "jax.vmap(lambda x, y: x - y, in_axes=(-1, 0))(jnp.arange(6.0).reshape(2, 3), jnp.arange(3.0))",
        "jax.vmap(lambda x: x.T, in_axes=2, out_axes=-1)(jnp.arange(24.0).reshape(2, 3, 4))",
        "jax.vmap(lambda x, *, k: x * k)(jnp.arange(3.0), k=jnp.arange(3.0))",
        "jax.vmap(lambda x, k=2.0: x * k)(jnp.arange(3.0))",
        "jax.vmap(lambda p: tc_mlp(p, TC_X[0]), in_axes=({'w1': 0, 'b1': None, 'w2': None, 'b2': None},))({**TC_P, 'w1': jnp.stack([TC_P['w1'], -TC_P['w1']])})",
        "jax.vmap(tc_mlp, in_axes=(None, 0))(TC_P, TC_X)",
        "jax.vmap(jax.vmap(lambda a, b: a * b, in_axes=(0, None)), in_axes=(None, 0))(jnp.arange(3.0), jnp.arange(2.0))",
        "jax.vmap(jax.vmap(jnp.dot))(jnp.ones((2, 3, 4)), jnp.arange(24.0).reshape(2, 3, 4))",
        "jax.vmap(lambda x: jax.vmap(lambda y: x + y)(jnp.arange(2.0)))(jnp.arange(3.0))",
        "jax.vmap(lambda x: (x, None))(jnp.arange(3.0))",
        "jax.vmap(lambda t: t[0] + t[1])((jnp.arange(3.0), jnp.ones(3)))",
        "jax.vmap(lambda t: t.x * t.y)(Pt(jnp.arange(3.0), jnp.arange(3.0)))",
        "jax.vmap(lambda x: x, in_axes=(0,), out_axes=[0])(jnp.arange(3.0))",
        "jax.vmap(lambda x, y: x + y, in_axes=[0, None])(jnp.arange(3.0), 1.0)",
        "jax.vmap(lambda x: x.sum(), in_axes=({'a': 0},))({'a': jnp.ones((2, 3)), 'b': jnp.ones(3)})",
        "jax.vmap(lambda d: d['a'], in_axes=({'a': 0, 'b': 1},))({'a': jnp.ones((2, 3)), 'b': jnp.ones(3)})",
        "jax.vmap(lambda x, y: x + y, in_axes=(0, 0))(jnp.ones(3), jnp.ones(4))",
        "jax.vmap(lambda x: x, out_axes=(0, 1))(jnp.ones(3))",
        "jax.vmap(lambda x: (x, x), out_axes=(0, 2))(jnp.ones((3, 2)))",
        "jax.vmap(lambda x: x.sum(), axis_size=3, in_axes=None)(jnp.ones(2))",
        "jax.vmap(lambda x: x.sum(), in_axes=None, axis_size=3, out_axes=None)(jnp.ones(2))",
        "jax.vmap(lambda x: lax.psum(x, 'b') / 3, axis_name='b')(jnp.arange(3.0))",
        "jax.vmap(lambda x: x - lax.pmean(x, 'b'), axis_name='b')(jnp.arange(6.0).reshape(3, 2))",
        "jax.vmap(lambda x: lax.axis_index('b') * x, axis_name='b')(jnp.ones(3))",
        "jax.vmap(jax.vmap(lambda x: lax.psum(x, ('i', 'j')), axis_name='j'), axis_name='i')(jnp.arange(6.0).reshape(2, 3))",
        "jax.grad(lambda x: jax.vmap(lambda v: v - lax.pmean(v, 'b'), axis_name='b')(x).var())(jnp.arange(3.0))",
        "jax.vmap(jax.grad(lambda x, y: x * y), in_axes=(0, None))(jnp.arange(3.0), 2.0)",
        "jax.vmap(jax.grad(lambda x, y: x * y, argnums=1), in_axes=(0, None))(jnp.arange(3.0), 2.0)",
        "jax.vmap(jax.grad(lambda x, y: (x * y).sum(), argnums=(0, 1)), in_axes=(0, None), out_axes=(0, None))(jnp.ones((3, 2)), jnp.ones(2))",
        "jax.vmap(jax.grad(lambda x, y: (x * y).sum(), argnums=(0, 1)), in_axes=(0, None), out_axes=0)(jnp.ones((3, 2)), jnp.ones(2))",
        "jax.vmap(jax.grad(tc_loss), in_axes=(None, 0, 0))(TC_P, TC_X[:, None], TC_Y[:, None])",
        "jax.vmap(jax.value_and_grad(lambda w, x: jnp.sum(w * x)), in_axes=(None, 0))(jnp.ones(2), jnp.arange(6.0).reshape(3, 2))",
    ]


def _jacobians() -> list[str]:
    j = []
    for jac in ("jax.jacfwd", "jax.jacrev"):
        j += [
            f"{jac}(lambda x, y: (x * y, {{'x': x}}), argnums=(0, 1), has_aux=True)(jnp.arange(2.0), 3.0)",
            f"{jac}(lambda x, y: x @ y, argnums=(0, 1))(jnp.ones((2, 3)), jnp.arange(3.0))",
            f"{jac}(lambda p: tc_mlp(p, TC_X))(TC_P)",
            f"{jac}(lambda p: (tc_mlp(p, TC_X).sum(), p['b2']), has_aux=True)(TC_P)",
            f"{jac}(lambda d: {{'u': d['a'] * 2, 'v': d['a'].sum() * d['b']}})({{'a': jnp.arange(3.0), 'b': 2.0}})",
            f"{jac}(lambda x: jnp.stack([x[0] * x[1], jnp.sin(x[2])]))(jnp.arange(1.0, 4.0))",
            f"{jac}(lambda x, y: x * y, argnums=1)(jnp.arange(3.0), jnp.arange(3.0))",
            f"{jac}(lambda x, y: x * y, argnums=-1)(jnp.arange(3.0), 2.0)",
            f"{jac}(lambda x: (x ** 2, x.sum()), has_aux=True)(jnp.arange(3.0))",
            f"jax.jit({jac}(lambda x: jnp.outer(x, x)))(jnp.arange(2.0))",
            f"jax.vmap({jac}(lambda x: jnp.sin(x) * x))(jnp.arange(6.0).reshape(2, 3))",
            f"{jac}(jax.vmap(lambda x: x ** 2))(jnp.arange(3.0))",
            f"{jac}(lambda z: z ** 2, holomorphic=True)(jnp.array([1.0 + 1.0j, 2.0 - 1.0j]))",
            f"{jac}(lambda x: x.astype(jnp.float16) * 2)(jnp.arange(2.0))",
            f"{jac}(lambda x: x[::2])(jnp.arange(4.0))",
            f"{jac}(lambda x: x.reshape(2, 2))(jnp.arange(4.0))",
            f"{jac}(lambda x: (x, x * 2))(1.0)",
        ]
    j += [
        "jax.hessian(lambda x, y: jnp.sum(x ** 2 * y), argnums=(0, 1))(jnp.arange(2.0), 3.0)",
        "jax.hessian(lambda x: (jnp.sum(x ** 3), x * 2), has_aux=True)(jnp.arange(2.0))",
        "jax.hessian(lambda p: tc_loss(p, TC_X, TC_Y))({'b1': TC_P['b1'], 'b2': TC_P['b2'], 'w1': TC_P['w1'], 'w2': TC_P['w2']})['b1']['b2']",
        "jax.hessian(lambda d: d['a'] ** 2 * d['b'])({'a': 1.5, 'b': 2.0})",
        "jax.hessian(lambda x: jax.nn.logsumexp(x))(jnp.arange(3.0))",
        "jax.jit(jax.hessian(lambda x: jnp.prod(x)))(jnp.arange(1.0, 4.0))",
        "jax.vmap(jax.hessian(lambda x: jnp.sum(jnp.sin(x))))(jnp.arange(4.0).reshape(2, 2))",
        "jax.hessian(lambda x, y: x * y, argnums=1)(2.0, 3.0)",
        "jax.hessian(lambda z: z ** 3, holomorphic=True)(1.0 + 1.0j)",
        "jax.hessian(lambda x: x ** 2)(jnp.arange(2.0))",
        "jax.jacfwd(jax.jacrev(lambda x: jnp.sum(x ** 4)))(jnp.arange(2.0))",
        "jax.jacrev(jax.jacfwd(lambda x: x ** 3))(jnp.arange(2.0))",
        "jax.jacrev(lambda x: x, argnums=(0,))(jnp.arange(2.0))",
        "jax.jacfwd(lambda x: x ** 2, argnums=(0,), has_aux=False)(2.0)",
        "jax.jacrev(lambda x: jnp.arange(3) * x)(2.0)",
        "jax.jacfwd(lambda x: jnp.arange(3) > x)(2.0)",
    ]
    return j


def _custom_rules() -> list[str]:
    return [
        "jax.vmap(tc_softclip)(jnp.arange(-2.0, 2.0))",
        "jax.vmap(jax.grad(tc_softclip))(jnp.arange(-2.0, 2.0))",
        "jax.jit(jax.vmap(jax.grad(tc_softclip)))(jnp.arange(-2.0, 2.0))",
        "jax.grad(jax.grad(tc_softclip))(0.5)",
        "jax.hessian(lambda x: tc_softclip(x).sum())(jnp.arange(2.0))",
        "jax.jacrev(jax.vmap(tc_softclip))(jnp.arange(2.0))",
        "jax.jvp(jax.vmap(tc_softclip), (jnp.arange(3.0),), (jnp.ones(3),))",
        "jax.linearize(tc_softclip, 0.5)[1](2.0)",
        "jax.make_jaxpr(jax.vmap(tc_softclip))(jnp.arange(2.0))",
        "jax.grad(lambda x: tc_clip_grad(x * 10.0))(1.0)",
        "jax.grad(lambda x: jnp.sum(tc_clip_grad(x) * jnp.array([5.0, -0.5, -3.0])))(jnp.ones(3))",
        "jax.vmap(jax.grad(lambda x: tc_clip_grad(x) * 4.0))(jnp.arange(3.0))",
        "jax.jit(jax.grad(lambda x: tc_clip_grad(x) * 4.0))(1.0)",
        "jax.grad(lambda x: jax.vmap(tc_clip_grad)(x * 3.0).sum())(jnp.arange(3.0))",
        "jax.grad(lambda x: tc_scale_grad(x, 0.5) ** 2)(3.0)",
        "jax.grad(lambda x, s: tc_scale_grad(x, s) ** 2, argnums=(0, 1))(3.0, 0.5)",
        "jax.vmap(jax.grad(lambda x, s: tc_scale_grad(x, s) ** 2), in_axes=(0, None))(jnp.arange(3.0), 0.1)",
        "jax.vmap(tc_scale_grad, in_axes=(0, None))(jnp.arange(3.0), 0.1)",
        "jax.jvp(tc_clip_grad, (1.0,), (2.0,))",
        "jax.jit(tc_clip_grad)(jnp.arange(3.0))",
        "jax.make_jaxpr(jax.grad(lambda x: tc_clip_grad(x) * 3.0))(1.0)",
        "jax.value_and_grad(lambda p: tc_loss(jax.tree.map(tc_clip_grad, p), TC_X, TC_Y))(TC_P)",
        "jax.grad(jax.checkpoint(lambda x: tc_softclip(x) * tc_clip_grad(x)))(0.3)",
        "jax.vmap(jax.jacfwd(tc_softclip))(jnp.arange(3.0))",
        "jax.grad(lambda x: lax.scan(lambda c, _: (tc_softclip(c), c), x, None, length=3)[0])(0.2)",
        "jax.grad(lambda x: lax.scan(lambda c, _: (tc_clip_grad(c) * 3.0, None), x, None, length=3)[0])(0.2)",
        "jax.grad(lambda x: lax.cond(x > 0, tc_softclip, jnp.sin, x))(0.4)",
        "jax.grad(lambda x: lax.cond(x > 0, tc_clip_grad, jnp.sin, x) * 5.0)(0.4)",
    ]


def _checkpoint() -> list[str]:
    pol = "jax.checkpoint_policies"
    c = []
    for policy in (
        "None",
        f"{pol}.dots_saveable",
        f"{pol}.nothing_saveable",
        f"{pol}.everything_saveable",
        f"{pol}.dots_with_no_batch_dims_saveable",
        f"{pol}.save_only_these_names('h')",
        f"{pol}.save_any_names_but_these('h')",
        f"{pol}.save_from_both_policies({pol}.dots_saveable, {pol}.save_only_these_names('h'))",
    ):
        c += [
            "jax.grad(lambda p: tc_loss(p, TC_X, TC_Y))(TC_P)['w1']"
            if policy == "None"
            else f"jax.grad(jax.checkpoint(lambda p: tc_loss(p, TC_X, TC_Y), policy={policy}))(TC_P)['w1']",
            f"jax.jit(jax.grad(jax.checkpoint(lambda x: jnp.sum(jnp.sin(jax.ad_checkpoint.checkpoint_name(x @ x.T, 'h'))), policy={policy})))(jnp.arange(6.0).reshape(2, 3) / 5)",
            f"jax.vmap(jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)), policy={policy})))(jnp.arange(3.0))",
        ]
    c += [
        "jax.grad(jax.remat(lambda x: jnp.sin(x) ** 2, prevent_cse=False))(0.7)",
        "jax.grad(jax.checkpoint(lambda x, n: x ** n, static_argnums=(1,)))(2.0, 3)",
        "jax.grad(jax.checkpoint(lambda x, n: x ** n, static_argnums=1))(2.0, 3)",
        "jax.grad(lambda x: jax.checkpoint(lambda y: lax.scan(lambda c, _: (jnp.sin(c), None), y, None, length=4)[0])(x))(0.5)",
        "jax.grad(lambda x: lax.scan(jax.checkpoint(lambda c, _: (jnp.sin(c) * 1.1, c)), x, None, length=4)[1].sum())(0.5)",
        "jax.grad(lambda xs: lax.scan(jax.checkpoint(tc_body), (jnp.zeros(2), 0.0), xs)[0][1])(jnp.arange(6.0).reshape(3, 2) / 4)",
        "jax.grad(lambda x: jax.checkpoint(jax.checkpoint(jnp.sin))(x) * 2)(0.3)",
        "jax.make_jaxpr(jax.checkpoint(lambda x: jnp.sin(x) * 2))(1.0)",
        "jax.make_jaxpr(jax.grad(jax.checkpoint(jnp.sin)))(1.0)",
        "jax.checkpoint(lambda x: {'a': x, 'b': x * 2})(jnp.arange(2.0))",
        "jax.checkpoint(lambda x, y: x + y)(1.0, y=2.0)",
        "jax.linearize(jax.checkpoint(lambda x: jnp.sin(x) * x), 1.0)[1](1.0)",
        "jax.hessian(jax.checkpoint(lambda x: jnp.sum(jnp.exp(x))))(jnp.arange(2.0))",
        "jax.grad(jax.checkpoint(lambda x: x, policy=jax.checkpoint_policies.dots_saveable))(1.0)",
        "jax.checkpoint(lambda x, n: x * n, static_argnums=(1,))(2.0, jnp.ones(2))",
        "jax.checkpoint(lambda x: x, static_argnums=(3,))(1.0)",
        "jax.remat(lambda x: x, unknown=1)",
        "jax.ad_checkpoint.checkpoint_name(jnp.ones(2), 'w')",
        "jax.grad(lambda x: jax.ad_checkpoint.checkpoint_name(x * 2, 'w') ** 2)(1.5)",
    ]
    return c


def _loops() -> list[str]:
    scan_f = "lambda xs: lax.scan(tc_body, (jnp.zeros(2), 0.0), xs)"
    xs = "jnp.arange(6.0).reshape(3, 2) / 4"
    return [
        f"({scan_f})({xs})",
        f"jax.jit({scan_f})({xs})",
        f"jax.grad(lambda xs: ({scan_f})(xs)[0][1])({xs})",
        f"jax.grad(lambda xs: ({scan_f})(xs)[1].sum())({xs})",
        f"jax.vmap({scan_f})(jnp.stack([{xs}, -{xs}]))",
        f"jax.jacrev(lambda xs: ({scan_f})(xs)[0][0])({xs})",
        f"jax.jit(jax.vmap(jax.grad(lambda xs: ({scan_f})(xs)[0][1])))(jnp.stack([{xs}, {xs} * 2]))",
        "jax.grad(lambda h: lax.scan(tc_body, (h, 0.0), jnp.ones((3, 2)), reverse=True)[0][1])(jnp.array([0.1, -0.3]))",
        "jax.grad(lambda h: lax.scan(tc_body, (h, 0.0), jnp.ones((4, 2)), unroll=2)[1].sum())(jnp.array([0.1, -0.3]))",
        "jax.jvp(lambda h: lax.scan(tc_body, (h, 0.0), jnp.ones((3, 2)))[0], (jnp.zeros(2),), (jnp.ones(2),))",
        "jax.linearize(lambda h: lax.scan(tc_body, (h, 0.0), jnp.ones((3, 2)))[0][1], jnp.zeros(2))[1](jnp.ones(2))",
        "jax.vmap(lambda c: lax.scan(lambda c, x: (c * x, c), c, jnp.arange(1.0, 4.0)))(jnp.arange(3.0))",
        "jax.grad(lambda c: lax.scan(lambda c, x: ({'a': c['a'] * x, 'b': c['b'] + c['a']}, None), c, jnp.arange(1.0, 4.0))[0]['b'])({'a': 1.0, 'b': 0.0})",
        "jax.grad(lambda w: lax.scan(lambda c, x: (c, jnp.dot(w, x)), 0.0, jnp.ones((3, 2)))[1].sum())(jnp.arange(2.0))",
        "jax.grad(lambda x: lax.fori_loop(0, 4, lambda i, c: c * x + i, 1.0))(0.5)",
        "jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: (c[0] * x, c[1] + c[0]), (1.0, 0.0))[1])(2.0)",
        "jax.vmap(lambda x: lax.fori_loop(0, 3, lambda i, c: c + x * i, 0.0))(jnp.arange(3.0))",
        "jax.jit(lambda n, x: lax.fori_loop(0, n, lambda i, c: c * x, 1.0))(4, 2.0)",
        "jax.vmap(lambda n: lax.fori_loop(0, n, lambda i, c: c + 1, 0))(jnp.arange(4))",
        "jax.grad(lambda x: lax.fori_loop(0, jnp.int32(3), lambda i, c: c * x, 1.0))(2.0)",
        "jax.jacfwd(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, jnp.ones(2)))(2.0)",
        "jax.vmap(lambda x: lax.while_loop(lambda c: c < 10, lambda c: c * 2, x))(jnp.array([1.0, 3.0, 7.0]))",
        "jax.vmap(lambda x, n: lax.while_loop(lambda c: c[1] < n, lambda c: (c[0] * x, c[1] + 1), (1.0, 0))[0])(jnp.array([2.0, 3.0]), jnp.array([3, 1]))",
        "jax.jit(jax.vmap(lambda x: lax.while_loop(lambda c: c['n'] < 3, lambda c: {'n': c['n'] + 1, 'v': c['v'] * x}, {'n': 0, 'v': 1.0})))(jnp.arange(3.0))",
        "jax.jvp(lambda x: lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * x, c[1] + 1), (1.0, 0))[0], (2.0,), (1.0,))",
        "jax.jacfwd(lambda x: lax.while_loop(lambda c: c[1] < 2, lambda c: (jnp.sin(c[0]) + x, c[1] + 1), (x, 0))[0])(jnp.arange(2.0))",
        "jax.grad(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x))(1.0)",
        "jax.grad(lambda x: lax.cond(x > 1.0, lambda v: {'a': v ** 2}, lambda v: {'a': -v}, x)['a'])(2.0)",
        "jax.grad(lambda x: lax.cond(x > 1.0, lambda v: {'a': v ** 2}, lambda v: {'a': -v}, x)['a'])(0.5)",
        "jax.vmap(lambda x: lax.cond(x > 1.0, lambda v: v ** 2, lambda v: -v, x))(jnp.arange(4.0))",
        "jax.vmap(jax.grad(lambda x: lax.cond(x > 1.0, lambda v: v ** 2, lambda v: -v, x)))(jnp.arange(4.0))",
        "jax.jit(jax.vmap(lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x)))(jnp.array([True, False]), jnp.ones(2))",
        "jax.vmap(lambda x: lax.cond(True, lambda v: v * 2, lambda v: v, x))(jnp.arange(3.0))",
        "jax.grad(lambda x, y: lax.cond(x > y, lambda a, b: a * b, lambda a, b: a + b, x, y), argnums=(0, 1))(3.0, 2.0)",
        "jax.jacrev(lambda x: lax.cond(x.sum() > 0, lambda v: v[::-1], lambda v: v * 2, x))(jnp.arange(3.0))",
        "jax.grad(lambda x: lax.switch(1, [jnp.sin, jnp.cos, jnp.tanh], x))(0.5)",
        "jax.vmap(lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x))(jnp.array([0, 1, 2, 5]), jnp.full(4, 0.5))",
        "jax.vmap(jax.grad(lambda x, i: lax.switch(i, [lambda v: v ** 2, lambda v: v ** 3], x)), in_axes=(0, 0))(jnp.array([1.0, 2.0]), jnp.array([0, 1]))",
        "jax.jit(lambda i, x: lax.switch(i, [lambda v: {'o': v}, lambda v: {'o': -v}], x))(-1, 2.0)",
        "jax.grad(lambda x: lax.switch(jnp.int32(0), [lambda a: a * 3.0, lambda a: a], x))(1.0)",
        "jax.make_jaxpr(jax.grad(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x)))(1.0)",
        "jax.make_jaxpr(jax.vmap(lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x)))(jnp.ones(2))",
        "jax.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs))(jnp.ones(3))",
        "jax.make_jaxpr(jax.vmap(lambda x: lax.fori_loop(0, 2, lambda i, c: c * 2, x)))(jnp.ones(2))",
        "jax.eval_shape(lambda xs: lax.scan(tc_body, (jnp.zeros(2), 0.0), xs), jax.ShapeDtypeStruct((5, 2), jnp.float32))",
        "jax.eval_shape(jax.vmap(lambda x: lax.while_loop(lambda c: c < 3, lambda c: c + 1, x)), jnp.ones(4, jnp.int32))",
        "lax.scan(lambda c, x: (c + x, c), jnp.zeros(2), jnp.ones((3, 3)))",
        "jax.grad(lambda x: lax.scan(lambda c, _: (c + 1, None), x, None, length=2)[0])(1)",
        "jax.vmap(lambda x: lax.scan(lambda c, y: (c + y, None), 0.0, x))(jnp.ones(3))",
        "lax.cond(jnp.array([True]), lambda: 1.0, lambda: 2.0)",
        "jax.grad(lambda x: lax.cond(x > 0, lambda v: v, lambda v: jnp.int32(1), x))(1.0)",
    ]


def _linear() -> list[str]:
    return [
        "jax.linearize(lambda p: tc_mlp(p, TC_X).sum(), TC_P)[1](jax.tree.map(jnp.ones_like, TC_P))",
        "jax.linearize(jax.jit(lambda x: jnp.sin(x) * x), jnp.arange(3.0))[1](jnp.ones(3))",
        "jax.linearize(jax.vmap(lambda x: x ** 2), jnp.arange(3.0))[1](jnp.ones(3))",
        "jax.linearize(lambda x, y: x * y, 2.0, 3.0)[1](1.0, 0.0)",
        "jax.linearize(lambda x: (x, x * 2), 1.0)[1](1.0)",
        "jax.vmap(jax.linearize(jnp.sin, 1.0)[1])(jnp.arange(3.0))",
        "jax.jit(jax.linearize(jnp.sin, 1.0)[1])(2.0)",
        "jax.linearize(lambda x: x, jnp.float16(1.0))[1](jnp.float16(2.0))",
        "jax.linearize(jnp.sin, 1.0)[1](jnp.ones(2))",
        "jax.linear_transpose(lambda x: jnp.cumsum(x) * 2, jnp.ones(3))(jnp.arange(3.0))",
        "jax.linear_transpose(lambda x: x @ jnp.arange(6.0).reshape(3, 2), jnp.ones(3))(jnp.ones(2))",
        "jax.linear_transpose(lambda d: d['a'] + d['b'].sum(), {'a': 1.0, 'b': jnp.ones(2)})(3.0)",
        "jax.linear_transpose(jax.vmap(lambda x: x * 2), jnp.ones(3))(jnp.arange(3.0))",
        "jax.linear_transpose(jax.jit(lambda x: x[::-1] * 3), jnp.ones(3))(jnp.arange(3.0))",
        "jax.linear_transpose(lambda x: jnp.fft.rfft(x).real, jnp.ones(4))(jnp.ones(3))",
        "jax.linear_transpose(lambda x: lax.stop_gradient(2.0) * x, 1.0)(1.0)",
        "jax.linear_transpose(lambda x: jnp.pad(x, 1), jnp.ones(2))(jnp.arange(4.0))",
        "jax.linear_transpose(lambda x: x.astype(jnp.float16), jnp.ones(2))(jnp.ones(2, jnp.float16))",
        "jax.linear_transpose(lambda x: x * 2, jnp.ones(2))(jnp.ones(3))",
        "jax.linear_transpose(lambda x: x * 2, jnp.ones(2))(jnp.ones(2, jnp.float16))",
        "jax.linear_transpose(lambda x: jnp.sum(x, axis=0), jax.ShapeDtypeStruct((2, 3), jnp.float32))(jnp.ones(3))",
        "jax.vjp(lambda x: jax.linear_transpose(lambda y: y * x, 1.0)(2.0)[0], 3.0)[1](1.0)",
        "jax.grad(lambda x: jax.linearize(jnp.sin, x)[1](1.0))(0.5)",
        "jax.jvp(lambda x: jax.linearize(jnp.exp, x)[1](2.0), (0.0,), (1.0,))",
    ]


def _holomorphic() -> list[str]:
    return [
        "jax.value_and_grad(lambda z: z ** 2, holomorphic=True)(1.0 + 2.0j)",
        "jax.value_and_grad(lambda z: jnp.sum(jnp.exp(z)), holomorphic=True)(jnp.array([1.0 + 1.0j, 0.5j]))",
        "jax.value_and_grad(lambda z, w: z * w, argnums=(0, 1), holomorphic=True)(1.0 + 1.0j, 2.0 - 1.0j)",
        "jax.value_and_grad(lambda z: (z ** 3, z.real), has_aux=True, holomorphic=True)(1.0j)",
        "jax.jit(jax.grad(lambda z: jnp.sin(z) * z, holomorphic=True))(0.5 + 0.5j)",
        "jax.vmap(jax.grad(lambda z: jnp.log(z), holomorphic=True))(jnp.array([1.0 + 1.0j, 2.0 + 0j]))",
        "jax.grad(jax.grad(lambda z: z ** 4, holomorphic=True), holomorphic=True)(1.0 + 1.0j)",
        "jax.value_and_grad(lambda z: z ** 2, holomorphic=True)(jnp.complex64(1.0 + 1.0j))",
        "jax.value_and_grad(lambda z: jnp.abs(z), holomorphic=True)(1.0 + 1.0j)",
        "jax.value_and_grad(lambda z: z ** 2, holomorphic=True)(1.0)",
        "jax.value_and_grad(lambda z: (z * z).real)(1.0 + 1.0j)",
        "jax.grad(lambda x: jnp.abs(x * (1.0 + 1.0j)) ** 2)(2.0)",
        "jax.grad(lambda z: jnp.real(z * jnp.conj(z)))(1.0 + 2.0j)",
        "jax.grad(lambda z: (z ** 2).imag)(1.0 + 2.0j)",
        "jax.vjp(lambda z: z ** 2, 1.0 + 1.0j)[1](1.0 + 0.0j)",
        "jax.jvp(lambda z: jnp.exp(z), (1.0j,), (1.0 + 0.0j,))",
        "jax.jacrev(lambda z: z ** 2, holomorphic=True)(jnp.array([1.0j, 2.0 + 0j]))",
    ]


def _precision_and_stops() -> list[str]:
    rp = "lax.reduce_precision"
    return [
        f"jax.grad(lambda x: {rp}(x, exponent_bits=5, mantissa_bits=10) ** 2)(1.1)",
        f"jax.grad(lambda x: jnp.sum({rp}(jnp.sin(x), 8, 7)))(jnp.arange(3.0))",
        f"jax.vmap(lambda x: {rp}(x, 5, 2))(jnp.array([1.1, 2.3, 1000.0]))",
        f"jax.jit(lambda x: {rp}(x * 3, exponent_bits=8, mantissa_bits=7))(jnp.array([1.001, 3.14159]))",
        f"jax.jvp(lambda x: {rp}(x, 5, 10), (1.1,), (0.3333,))",
        f"jax.make_jaxpr(jax.grad(lambda x: {rp}(x, 5, 10) ** 2))(1.0)",
        f"{rp}(jnp.float16(1.1), 8, 7)",
        f"{rp}(jnp.arange(3), 5, 10)",
        f"{rp}(1.1, 5, 10)",
        f"jax.vmap(jax.grad(lambda x: {rp}(jnp.exp(x), 8, 3)))(jnp.arange(3.0))",
        "jax.grad(lambda x: jnp.sum(lax.stop_gradient(x) * x))(jnp.arange(3.0))",
        "jax.grad(lambda x: jnp.sin(x) + lax.stop_gradient(jnp.cos(x)) * x)(0.4)",
        "jax.grad(lambda p: tc_loss({**p, 'w1': lax.stop_gradient(p['w1'])}, TC_X, TC_Y))(TC_P)['w1']",
        "jax.grad(lambda x: jax.tree.map(lax.stop_gradient, {'a': x, 'b': x * 2})['b'] * x)(1.5)",
        "jax.vmap(jax.grad(lambda x: x * lax.stop_gradient(x ** 2)))(jnp.arange(3.0))",
        "jax.jit(jax.grad(lambda x: (x - lax.stop_gradient(x)) + x ** 2))(2.0)",
        "jax.hessian(lambda x: lax.stop_gradient(x) * x ** 2)(2.0)",
        "jax.jacfwd(lambda x: lax.stop_gradient(x) * x)(jnp.arange(2.0))",
        "jax.grad(lambda x: jnp.sum(jax.nn.softmax(lax.stop_gradient(x)) * x))(jnp.arange(3.0))",
        "jax.grad(lambda x: lax.stop_gradient(x).astype(jnp.int32) * x)(2.7)",
        "lax.stop_gradient({'a': 1.0, 'b': jnp.arange(2)})",
        "jax.grad(lambda x: (x + lax.stop_gradient(jnp.round(x) - x)) ** 2)(1.3)",
    ]


def _closures() -> list[str]:
    return [
        "jax.grad(lambda x: jax.grad(lambda y: x * y ** 2)(x))(3.0)",
        "jax.grad(lambda x: jax.vmap(lambda y: x * y)(jnp.arange(3.0)).sum())(2.0)",
        "jax.vmap(lambda x: jax.grad(lambda y: jnp.sin(x * y))(1.0))(jnp.arange(3.0))",
        "jax.jit(lambda x: jax.grad(lambda y: x * y ** 2)(x))(2.0)",
        "jax.grad(lambda x: jax.jit(lambda y: x * y)(2.0))(3.0)",
        "jax.vmap(lambda x: jax.jit(lambda y: x + y)(jnp.ones(2)))(jnp.arange(3.0))",
        "jax.grad(lambda x: lax.scan(lambda c, _: (c * x, None), 1.0, None, length=3)[0])(2.0)",
        "jax.vmap(lambda x: lax.scan(lambda c, y: (c + x * y, None), 0.0, jnp.arange(3.0))[0])(jnp.arange(2.0))",
        "jax.grad(lambda x: lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * x, c[1] + 1), (1.0, 0))[0])(2.0)",
        "jax.grad(lambda x: lax.cond(True, lambda: x * 3.0, lambda: x))(1.0)",
        "jax.jacfwd(lambda x: jax.jacrev(lambda y: x * y ** 3)(x))(2.0)",
        "jax.grad(lambda x: jax.checkpoint(lambda y: jnp.sin(x * y))(2.0))(0.5)",
        "jax.grad(lambda x: jax.custom_jvp(lambda y: y)(x) * x)(2.0)",
        "jax.grad(lambda w: jax.vmap(lambda x: tc_mlp({**TC_P, 'w2': w}, x).sum())(TC_X).sum())(TC_P['w2'])",
        "jax.jit(lambda x: jax.vmap(lambda y: jax.grad(lambda z: z * y * x)(1.0))(jnp.arange(3.0)))(2.0)",
        "jax.grad(lambda x: jnp.sum(jax.vmap(jax.grad(lambda y: x * jnp.sin(y)))(jnp.arange(3.0))))(1.0)",
        "jax.jvp(lambda x: jax.vmap(lambda y: y * x)(jnp.arange(3.0)), (2.0,), (1.0,))",
        "jax.eval_shape(lambda x: jax.grad(lambda y: y * x)(1.0), 2.0)",
        "jax.make_jaxpr(lambda x: jax.grad(lambda y: x * y ** 2)(x))(1.0)",
        "jax.make_jaxpr(lambda x: jax.vmap(lambda y: y * x)(jnp.ones(2)))(1.0)",
    ]


def _jit_args() -> list[str]:
    return [
        "jax.jit(lambda x, n: x ** n, static_argnums=1)(2.0, 3)",
        "jax.grad(jax.jit(lambda x, n: x ** n, static_argnums=1))(2.0, 3)",
        "jax.vmap(jax.jit(lambda x, n: x * n, static_argnums=1), in_axes=(0, None))(jnp.arange(3.0), 2)",
        "jax.jit(lambda x, *, mode: x * 2 if mode == 'a' else x, static_argnames='mode')(1.0, mode='a')",
        "jax.jit(lambda x, mode='a': x * 2 if mode == 'a' else x, static_argnames=('mode',))(1.0, mode='b')",
        "jax.jit(lambda x, mode: x * 2 if mode == 'a' else x, static_argnames='mode')(1.0, 'a')",
        "jax.jit(lambda x, n: x * n, static_argnums=(1,))(1.0, [1, 2])",
        "jax.jit(lambda x, n: x * n, static_argnames='n')(1.0, n={'a': 1})",
        "jax.jit(lambda x, n: x * n, static_argnums=5)(1.0, 2)",
        "jax.jit(lambda x, n: x * n, static_argnums=-1)(1.0, 2)",
        "jax.jit(lambda x, n: x * n, static_argnames='m')(1.0, 2)",
        "jax.jit(lambda x: x * 2, static_argnums=0)(1.0)",
        "jax.jit(lambda x: x * 2, static_argnums=0)(jnp.ones(2))",
        "jax.jit(lambda x, y: x + y, donate_argnums=0)(jnp.ones(2), jnp.ones(2))",
        "jax.jit(lambda x, y: x + y, donate_argnums=(0, 1))(jnp.ones(2), 1.0)",
        "jax.jit(lambda x, y: x + y, donate_argnums=2)(jnp.ones(2), jnp.ones(2))",
        "jax.jit(lambda x, y: x + y, donate_argnames='y')(jnp.ones(2), y=jnp.ones(2))",
        "jax.jit(lambda x, n: x * n, static_argnums=1, donate_argnums=1)(jnp.ones(2), 2)",
        "jax.jit(lambda x, n: x * n, static_argnums=1, donate_argnums=0)(jnp.ones(2), 2)",
        "jax.jit(lambda x: x, donate_argnums=0)({'a': jnp.ones(2)})",
        "jax.grad(jax.jit(lambda x, y: (x * y).sum(), donate_argnums=1))(jnp.ones(2), jnp.arange(2.0))",
        "jax.jit(lambda x: x if x > 0 else -x)(1.0)",
        "jax.jit(lambda x: float(x))(1.0)",
        "jax.jit(lambda x: jnp.zeros(x))(3)",
        "jax.jit(lambda x, n: jnp.zeros(n) + x, static_argnums=1)(1.0, 3)",
        "jax.grad(lambda x: float(x))(1.0)",
        "jax.vmap(lambda x: x if x > 0 else -x)(jnp.arange(3.0))",
        "jax.jit(lambda x: x.item())(jnp.ones(()))",
        "jax.jit(lambda x: np.asarray(x))(jnp.ones(2))",
        "jax.jit(lambda x: bool(x))(True)",
        "jax.jit(lambda x: jnp.arange(x))(3)",
        "jax.jit(lambda x: x[: x.shape[0] // 2])(jnp.arange(6.0))",
        "jax.jit(lambda x, i: x[i:i + 2])(jnp.arange(6.0), 1)",
        "jax.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))(jnp.arange(6.0), 5)",
        "jax.jit(lambda x: x.reshape(-1, 2), static_argnums=())(jnp.arange(6.0))",
        "jax.jit(jax.grad(lambda x, n: x ** n), static_argnums=1)(2.0, 3)",
        "jax.jit(jax.vmap(lambda x, n: x ** n, in_axes=(0, None)), static_argnums=1)(jnp.arange(3.0), 2)",
    ]


def _staging() -> list[str]:
    return [
        "jax.eval_shape(jax.grad(tc_loss), TC_P, TC_X, TC_Y)",
        "jax.eval_shape(jax.vmap(tc_mlp, in_axes=(None, 0)), TC_P, jax.ShapeDtypeStruct((7, 3), jnp.float32))",
        "jax.eval_shape(jax.jacrev(lambda x: x ** 2), jax.ShapeDtypeStruct((3,), jnp.float16))",
        "jax.eval_shape(jax.hessian(lambda x: jnp.sum(x ** 3)), jnp.ones(2))",
        "jax.eval_shape(jax.value_and_grad(lambda x: x.sum(), has_aux=False), jnp.ones((2, 2), jnp.bfloat16))",
        "jax.eval_shape(lambda x: jax.linearize(jnp.sin, x)[0], 1.0)",
        "jax.eval_shape(jax.checkpoint(lambda x: jnp.sin(x) @ x.T), jnp.ones((2, 3)))",
        "jax.eval_shape(lambda x, y: (x * y, x.sum()), jnp.ones(3, jnp.int8), 2)",
        "jax.eval_shape(lambda x: jnp.zeros_like(x, dtype=jnp.int16), jax.ShapeDtypeStruct((2,), jnp.float32))",
        "jax.eval_shape(jax.grad(lambda x: x), 1)",
        "jax.make_jaxpr(jax.grad(jnp.tanh))(1.0)",
        "jax.make_jaxpr(jax.grad(jax.nn.relu))(1.0)",
        "jax.make_jaxpr(jax.grad(lambda x: jnp.sum(x ** 2)))(jnp.ones(3))",
        "jax.make_jaxpr(jax.vmap(jnp.dot))(jnp.ones((2, 3)), jnp.ones((2, 3)))",
        "jax.make_jaxpr(jax.vmap(lambda x: x @ jnp.ones((3, 2))))(jnp.ones((4, 3)))",
        "jax.make_jaxpr(jax.jit(jax.nn.relu))(jnp.ones(2))",
        "jax.make_jaxpr(jax.value_and_grad(lambda x: jnp.mean(x ** 2)))(jnp.ones(2))",
        "jax.make_jaxpr(jax.jvp, static_argnums=0)(jnp.sin, (1.0,), (1.0,))",
        "jax.make_jaxpr(lambda x: jax.jvp(jnp.exp, (x,), (x,)))(1.0)",
        "jax.make_jaxpr(lambda x: jax.vjp(jnp.sin, x)[1](1.0))(1.0)",
        "jax.make_jaxpr(jax.hessian(lambda x: x ** 3))(1.0)",
        "jax.make_jaxpr(jax.jacfwd(lambda x: x * 2))(jnp.ones(2))",
        "jax.make_jaxpr(jax.grad(jax.nn.sigmoid))(0.5)",
        "jax.make_jaxpr(jax.grad(lambda x: jnp.where(x > 0, x, 0.0)))(1.0)",
        "jax.make_jaxpr(jax.grad(lambda x: jnp.maximum(x, 0.0)))(1.0)",
        "jax.make_jaxpr(jax.vmap(jax.grad(lambda x: x ** 2)))(jnp.ones(3))",
        "jax.make_jaxpr(jax.grad(lambda x: jnp.log1p(jnp.exp(x))))(0.0)",
        "jax.make_jaxpr(lambda x: jax.lax.stop_gradient(x) * 2)(1.0)",
        "jax.make_jaxpr(jax.grad(lambda x: x.astype(jnp.float16).astype(jnp.float32) * 2))(1.0)",
        "jax.make_jaxpr(jax.vmap(lambda x, y: x * y, in_axes=(0, None)))(jnp.ones(3), 2.0)",
        "jax.make_jaxpr(jax.grad(lambda x, y: x * y, argnums=(0, 1)))(1.0, 2.0)",
        "str(jax.make_jaxpr(jax.grad(lambda x: tc_clip_grad(x) ** 2))(1.0)).count('custom_vjp_call')",
        "len(jax.make_jaxpr(jax.grad(lambda p: tc_loss(p, TC_X, TC_Y)))(TC_P).jaxpr.outvars)",
        "jax.make_jaxpr(jax.grad(tc_softclip))(1.0).out_avals",
        "jax.make_jaxpr(jax.vmap(jax.grad(tc_softclip)))(jnp.ones(2)).in_avals",
        "[str(e.primitive) for e in jax.make_jaxpr(jax.grad(lambda x: jnp.sin(x) * x))(1.0).eqns]",
        "[str(e.primitive) for e in jax.make_jaxpr(jax.vmap(lambda x: jnp.sum(x ** 2)))(jnp.ones((2, 3))).eqns]",
        "[str(e.primitive) for e in jax.make_jaxpr(jax.jit(jax.grad(jnp.cos)))(1.0).eqns]",
    ]


def _users_mistakes_and_patterns() -> list[str]:
    nd = "functools.partial(jax.custom_jvp, nondiff_argnums=(0,))"
    return [
        # tracer misuse inside composed transformations
        "jax.grad(lambda x: x if x > 0 else -x)(1.0)",
        "jax.vmap(lambda x: int(x))(jnp.arange(3))",
        "jax.jit(jax.vmap(lambda n: jnp.zeros(n)))(jnp.arange(3))",
        "jax.grad(lambda x: jnp.arange(x).sum())(3.0)",
        "jax.vmap(jax.grad(lambda x: x * 2))(jnp.ones((2, 3)))",
        "jax.vmap(jax.grad(lambda x: x.sum()))(jnp.arange(6).reshape(2, 3))",
        "jax.jit(jax.grad(lambda x: x.sum()))(jnp.arange(3))",
        "jax.grad(lambda x: jax.jit(lambda y: y.sum())(x))(jnp.arange(3))",
        "jax.vmap(lambda x: jnp.where(x > 0)[0])(jnp.arange(6.0).reshape(2, 3))",
        "jax.grad(lambda x: jnp.nonzero(x)[0].sum())(jnp.arange(3.0))",
        "jax.vmap(lambda x: x[jnp.argmax(x)])(jnp.arange(6.0).reshape(2, 3))",
        "jax.grad(lambda x: x[jnp.argmax(x)])(jnp.array([1.0, 3.0, 2.0]))",
        "jax.vmap(lambda x: lax.dynamic_slice_in_dim(x, jnp.argmax(x), 2))(jnp.arange(8.0).reshape(2, 4))",
        "jax.grad(lambda x: jnp.sum(x[x > 1.0]))(jnp.arange(3.0))",
        "jax.vmap(lambda x: x.reshape(x[0].astype(int), -1))(jnp.ones((2, 4)))",
        "jax.vmap(lambda d: d)({'a': 1.0})",
        "jax.vmap(lambda x: x, in_axes={'a': 0})({'a': jnp.ones(2)})",
        "jax.grad(lambda d: d['a'] * 2)({'a': 1.0, 'b': 'x'})",
        "jax.grad(lambda p: p[0] * p[1])([1.0, 2.0])",
        "jax.grad(lambda p: p.x * p.y)(Pt(1.0, 2.0))",
        "jax.jacrev(lambda p: {'o': p['a'] * p['b']})({'a': jnp.ones(2), 'b': 3.0})",
        # hessian-vector products and per-example gradients
        "jax.jvp(jax.grad(lambda x: jnp.sum(jnp.sin(x) * x ** 2)), (jnp.arange(3.0),), (jnp.ones(3),))",
        "jax.grad(lambda x: jnp.vdot(jax.grad(lambda y: jnp.sum(y ** 3))(x), jnp.ones(3)))(jnp.arange(3.0))",
        "jax.linearize(jax.grad(lambda x: jnp.sum(jnp.exp(x))), jnp.zeros(2))[1](jnp.ones(2))",
        "jax.vmap(lambda v: jax.jvp(jax.grad(lambda x: jnp.sum(x ** 4)), (jnp.arange(2.0),), (v,))[1])(jnp.eye(2))",
        "jax.tree.map(lambda g: jnp.linalg.norm(g, axis=-1), jax.vmap(jax.grad(tc_loss), in_axes=(None, 0, 0))(TC_P, TC_X[:, None], TC_Y[:, None]))['b1']",
        "jax.jit(lambda p: jax.tree.map(lambda g: g.mean(0), jax.vmap(jax.grad(tc_loss), in_axes=(None, 0, 0))(p, TC_X[:, None], TC_Y[:, None])))(TC_P)['w2']",
        "jax.value_and_grad(lambda p, x, y: tc_loss(p, x, y), argnums=(0, 1))(TC_P, TC_X, TC_Y)[1][1]",
        "jax.grad(lambda p: tc_loss(p, TC_X, TC_Y), has_aux=False)(TC_P)['b2']",
        "jax.value_and_grad(lambda p: (tc_loss(p, TC_X, TC_Y), tc_mlp(p, TC_X)), has_aux=True)(TC_P)[0][1]",
        # custom rules with nondiff arguments, pytrees and wrong rules
        f"jax.vmap({nd}(lambda n, x: x ** n), in_axes=(None, 0))(2, jnp.arange(3.0))",
        "jax.grad(jax.custom_gradient(lambda x: (x ** 2, lambda g: (g * 10.0,))))(3.0)",
        "jax.vmap(jax.grad(jax.custom_gradient(lambda x: (jnp.sin(x), lambda g: (g * 2.0,)))))(jnp.arange(3.0))",
        "jax.jit(jax.grad(jax.custom_gradient(lambda x: (x * 3.0, lambda g: (g,)))))(1.0)",
        "jax.grad(jax.custom_gradient(lambda x: (x * 2.0, lambda g: g)))(1.0)",
        "jax.grad(lambda x: tc_scale_grad(x, jnp.float32(0.5)).sum())(jnp.ones(3))",
        "jax.jacrev(lambda x: tc_scale_grad(x, 2.0))(jnp.arange(3.0))",
        "jax.jacfwd(lambda x: tc_clip_grad(x) * 3.0)(jnp.arange(3.0))",
        "jax.hessian(lambda x: tc_softclip(x) ** 2)(0.5)",
        "jax.grad(lambda x: jax.vmap(tc_scale_grad, in_axes=(0, 0))(x, jnp.array([1.0, 2.0, 3.0])).sum())(jnp.ones(3))",
        # tree_util.Partial and vjp functions across jit
        "jax.jit(lambda x: jax.vjp(jnp.sin, x)[1])(1.0)(1.0)",
        "jax.jit(lambda f, x: f(x))(jax.tree_util.Partial(jnp.multiply, 2.0), 3.0)",
        "jax.grad(lambda x: jax.tree_util.Partial(jnp.multiply, x)(3.0))(2.0)",
        "jax.jit(lambda x: jax.linear_transpose(lambda y: y * 2.0, x)(1.0))(1.0)",
        # scans and maps under every transformation
        "jax.grad(lambda x: lax.map(jnp.sin, x).sum())(jnp.arange(3.0))",
        "jax.vmap(lambda x: lax.map(lambda r: r ** 2, x))(jnp.arange(6.0).reshape(2, 3))",
        "jax.grad(lambda x: lax.map(lambda r: r ** 2, x, batch_size=2).sum())(jnp.arange(5.0))",
        "jax.jit(jax.grad(lambda c: lax.scan(lambda c, _: (c * 1.5, c), c, None, length=4, reverse=True)[1].sum()))(1.0)",
        "jax.vmap(lambda c: lax.scan(lambda c, _: (c + 1.0, c), c, None, length=3))(jnp.arange(2.0))",
        "jax.grad(lambda w: lax.associative_scan(jnp.add, w * jnp.arange(4.0)).sum())(1.5)",
        "jax.vmap(jax.grad(lambda w: lax.associative_scan(jnp.multiply, w).sum()))(jnp.arange(1.0, 7.0).reshape(2, 3))",
        "jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: {'v': c['v'] * x}, {'v': 1.0})['v'])(2.0)",
        "jax.jit(jax.grad(lambda x: lax.fori_loop(0, 5, lambda i, c: jnp.sin(c) + x, 0.0)))(0.5)",
        "jax.grad(lambda x: lax.cond(x > 0, lambda: x * 2.0, lambda: x * 3.0))(1.0)",
        "jax.vmap(lambda x: lax.cond(x > 0, lambda: jnp.ones(2), lambda: jnp.zeros(2)))(jnp.array([1.0, -1.0]))",
        "jax.grad(lambda x: lax.cond(x > 0, lambda v: (v, v * 2), lambda v: (v * 3, v), x)[1])(1.0)",
        "jax.grad(lambda xs: jax.vmap(lambda x: lax.cond(x > 0, lambda v: jnp.sqrt(v), lambda v: v * 0.0, x))(xs).sum())(jnp.array([-4.0, 4.0]))",
        "jax.grad(lambda xs: jax.vmap(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.0))(xs).sum())(jnp.array([-4.0, 4.0]))",
        "jax.vmap(lambda x: lax.while_loop(lambda c: c[0] < x, lambda c: (c[0] + 1, c[1] * 2.0), (0, 1.0))[1])(jnp.array([1, 3]))",
        "jax.grad(lambda xs: jax.vmap(lambda i, x: lax.switch(i, [lambda v: jnp.log(v), lambda v: v], x))(jnp.array([1, 0]), xs).sum())(jnp.array([-1.0, 2.0]))",
        # jit with static arguments inside other transformations
        "jax.grad(lambda x: jax.jit(lambda y, n: y ** n, static_argnums=1)(x, 3))(2.0)",
        "jax.vmap(lambda x: jax.jit(lambda y, *, k: y * k, static_argnames='k')(x, k=3))(jnp.arange(3.0))",
        "jax.jit(lambda x, n: jax.grad(lambda y: y ** n)(x), static_argnums=1)(2.0, 3)",
        "jax.jit(lambda x, fs: fs[0](x) + fs[1](x), static_argnums=1)(1.0, (jnp.sin, jnp.cos))",
        "jax.jit(lambda x, n: x * n, static_argnums=1)(1.0, np.int32(3))",
        "jax.jit(lambda x, n: x * n, static_argnums=1)(1.0, np.arange(3))",
        "jax.jit(lambda x, s: x * len(s), static_argnames='s')(1.0, s='abc')",
        "jax.jit(lambda x, s: x, static_argnums=(1,))(1.0, {1, 2})",
        "jax.grad(jax.jit(lambda x, n: x ** n, static_argnums=1), argnums=1)(2.0, 3)",
        "jax.vmap(jax.jit(lambda x, n: x ** n, static_argnums=1))(jnp.arange(3.0), 2)",
        "jax.jit(lambda x: x, donate_argnums=(0,))(1.0)",
        "jax.jit(jax.grad(lambda x: x ** 2), donate_argnums=0)(jnp.ones(()))",
        "jax.eval_shape(jax.jit(lambda x, n: jnp.zeros((n,)) + x, static_argnums=1), 1.0, 4)",
        "jax.jit(lambda x, n: jnp.zeros((n,)) + x, static_argnums=1).lower(1.0, 4).as_text().count('func.func')",
        # named calls, ensure_compile_time_eval, debug helpers in compositions
        "jax.grad(jax.named_call(lambda x: jnp.sin(x) * 2, name='blk'))(0.5)",
        "jax.make_jaxpr(jax.named_call(lambda x: x * 2, name='blk'))(1.0)",
        "jax.jit(lambda x: x * jnp.float32(np.pi))(1.0)",
        "jax.grad(lambda x: jax.lax.convert_element_type(x, jnp.bfloat16).astype(jnp.float32) ** 2)(1.1)",
        "jax.vmap(jax.grad(lambda x: (x.astype(jnp.float16) ** 2).astype(jnp.float32)))(jnp.arange(3.0))",
        "jax.grad(lambda x: (x.astype(jnp.bfloat16) * 3).sum())(jnp.ones(2, jnp.bfloat16))",
        "jax.jit(jax.grad(lambda x: jnp.sum(x ** 2)))(jnp.ones(3, jnp.float16))",
        "jax.grad(lambda x: jnp.sum(x))(jnp.ones(2, jnp.int8))",
        "jax.grad(lambda x: jnp.sum(x), allow_int=True)(jnp.ones(2, jnp.int8))",
        "jax.vmap(jax.grad(lambda x: x * 2.0, allow_int=True))(jnp.arange(3))",
        "jax.jacrev(lambda x: x * 2.0, allow_int=True)(jnp.arange(2))",
        "jax.grad(lambda x: x.real ** 2)(jnp.complex64(1 + 1j))",
        "jax.grad(lambda x: (x * x).real, holomorphic=True)(1.0 + 1.0j)",
        "jax.jvp(jax.vmap(lambda x: x ** 2, out_axes=1), (jnp.ones((3, 2)),), (jnp.ones((3, 2)),))",
        "jax.vjp(jax.vmap(lambda x: x ** 2, in_axes=1), jnp.ones((2, 3)))[1](jnp.ones((3, 2)))",
    ]


def cases() -> list[str]:
    return (
        _compositions()
        + _vmap_axes()
        + _jacobians()
        + _custom_rules()
        + _checkpoint()
        + _loops()
        + _linear()
        + _holomorphic()
        + _precision_and_stops()
        + _closures()
        + _jit_args()
        + _staging()
        + _users_mistakes_and_patterns()
    )
