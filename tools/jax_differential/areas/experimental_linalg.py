"""jax.experimental's user-facing pieces and jnp.linalg's less-used functions
(`experimental_linalg`, session 36): checkify (user checks with formatted messages, the
automatic nan/div/index checks, under jit, vmap, grad and control flow, `Error`'s get/throw
and the usual mistakes); jet (Taylor-mode series of elementwise functions, products,
reductions and compositions, several orders, pytrees and errors); ode.odeint (linear,
oscillating and pytree systems, args, tolerances, jit, vmap and gradients); sparse BCOO basics
(fromdense/todense, products with dense operands, sums, transposes, under jit and grad);
jnp.linalg's tensorinv, tensorsolve, multi_dot, matrix_power with negative exponents, slogdet
of singular matrices, pinv(hermitian=True) and eigvals under jit, vmap and grad (236 calls;
25 differed at first, 14 after session 36's fixes. Left: messages naming JAX's array class
(`jaxlib._jax.ArrayImpl`); JAX quirks: checkify of a cond handing back numpy arrays, jet
zipping surplus primals, failing on int series, logaddexp (a leaked tracer) and atan (no rule),
its sqrt and division rules' strong series and its shape message; BCOO's batch dimensions,
which numbax does not implement; slogdet(method='qr') of a singular matrix, rounding noise).
"""

# ruff: noqa: E501

PRELUDE = """
import importlib
XL_ck = importlib.import_module(jax.__name__ + '.experimental.checkify')
XL_jet = importlib.import_module(jax.__name__ + '.experimental.jet').jet
XL_odeint = importlib.import_module(jax.__name__ + '.experimental.ode').odeint
XL_sp = importlib.import_module(jax.__name__ + '.experimental.sparse')
def xl_run(f, *args, errors=None):
    # a checkified call as plain data: the error message (None when no check failed) and the output
    ck = XL_ck.checkify(f) if errors is None else XL_ck.checkify(f, errors=errors)
    err, out = ck(*args)
    return err.get(), out
def xl_pos(x):
    XL_ck.check(jnp.all(x > 0), 'x must be positive, got {}', x)
    return jnp.log(x)
def xl_decay(y, t, k):
    return -k * y
def xl_osc(y, t):
    return jnp.array([y[1], -y[0]])
def xl_tree_rhs(y, t):
    return {'a': -y['a'], 'b': y['a'] * 0.5}
XL_D = jnp.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0], [4.0, 0.0, 0.0]])
XL_A = jnp.array([[4.0, 1.0, 2.0], [1.0, 5.0, 0.5], [2.0, 0.5, 6.0]])
XL_N = jnp.array([[1.0, 2.0, 0.5], [-1.0, 0.3, 2.0], [0.7, -0.4, 1.5]])
"""


def _checkify() -> list[str]:
    ck = "XL_ck"
    c = [
        "xl_run(xl_pos, jnp.array([1.0, 2.0]))",
        "xl_run(xl_pos, jnp.array([1.0, -2.0]))",
        "xl_run(jax.jit(xl_pos), jnp.array([1.0, -2.0]))",
        "jax.jit(lambda x: xl_run(xl_pos, x))(jnp.array([-1.0]))[0] is None",
        "xl_run(xl_pos, 3.0)",
        "xl_run(lambda x: (XL_ck.check(x < 5, 'too big: {x}', x=x), x * 2)[1], 7)",
        "xl_run(lambda x: (XL_ck.check(x < 5, 'plain message'), x)[1], jnp.float32(9))",
        "xl_run(lambda x: (XL_ck.check(x < 5, 'a {} and {}', x, x + 1), x)[1], 6)",
        "xl_run(lambda x: (XL_ck.check(x > 0, 'first'), XL_ck.check(x > 10, 'second'), x)[2], 3.0)",
        "xl_run(lambda x: (XL_ck.check(x > 0, 'first'), XL_ck.check(x > 10, 'second'), x)[2], -3.0)",
        "xl_run(lambda x: jnp.log(x), jnp.array([-1.0]), errors=XL_ck.float_checks)",
        "xl_run(lambda x: jnp.log(x), jnp.array([1.0]), errors=XL_ck.float_checks)",
        "xl_run(lambda x: jnp.sin(x) / 0.0 * 0.0, 1.0, errors=XL_ck.nan_checks)",
        "xl_run(lambda x, y: x // y, jnp.array([4, 5]), jnp.array([2, 0]), errors=XL_ck.div_checks)",
        "xl_run(lambda x, y: x % y, jnp.array([4, 5]), jnp.array([2, 0]), errors=XL_ck.div_checks)",
        "xl_run(lambda x, y: x / y, jnp.array([4.0]), jnp.array([0.0]), errors=XL_ck.div_checks)",
        "xl_run(lambda x, i: x[i], jnp.arange(3.0), 5, errors=XL_ck.index_checks)",
        "xl_run(lambda x, i: x[i], jnp.arange(3.0), -1, errors=XL_ck.index_checks)",
        "xl_run(lambda x, i: x[i], jnp.arange(3.0), 1, errors=XL_ck.index_checks)",
        "xl_run(lambda x, i: x.at[i].set(1.0), jnp.arange(3.0), 4, errors=XL_ck.index_checks)",
        "xl_run(lambda x, i: jnp.take(x, i), jnp.arange(3.0), jnp.array([0, 7]), errors=XL_ck.index_checks)",
        "xl_run(lambda x: jnp.log(x)[5], jnp.array([-1.0, 2.0]), errors=XL_ck.all_checks)",
        "xl_run(lambda x: jnp.log(x), jnp.array([-1.0]), errors=XL_ck.user_checks)",
        "xl_run(lambda x: lax.cond(x > 0, lambda y: (XL_ck.check(y < 3, 'cond {}', y), y)[1], lambda y: y, x), 5.0)",
        "xl_run(lambda x: lax.cond(x > 0, lambda y: (XL_ck.check(y < 3, 'cond {}', y), y)[1], lambda y: y, x), -5.0)",
        "xl_run(lambda xs: lax.scan(lambda c, x: ((XL_ck.check(x != 2.0, 'hit {}', x), c + x)[1], c), 0.0, xs), jnp.arange(4.0))",
        "xl_run(lambda x: lax.fori_loop(0, 3, lambda i, v: (XL_ck.check(v < 4.0, 'v={}', v), v * 2)[1], x), 1.0)",
        "xl_run(jax.vmap(xl_pos), jnp.array([1.0, -2.0, 3.0]))",
        "xl_run(jax.vmap(xl_pos), jnp.array([1.0, 2.0, 3.0]))",
        "jax.vmap(lambda x: xl_run(xl_pos, x)[1])(jnp.array([1.0, 2.0]))",
        "xl_run(jax.grad(lambda x: xl_pos(x).sum()), jnp.array([1.0, 2.0]))",
        "xl_run(jax.grad(lambda x: xl_pos(x).sum()), jnp.array([-1.0, 2.0]))",
        "xl_run(lambda x: {'y': x * 2, 'z': (x, 1)}, jnp.ones(2))",
        "XL_ck.checkify(xl_pos)(jnp.array([-1.0]))[0].throw()",
        "XL_ck.checkify(xl_pos)(jnp.array([1.0]))[0].throw()",
        "XL_ck.check_error(XL_ck.checkify(xl_pos)(jnp.array([-2.0]))[0])",
        "xl_pos(jnp.array([-1.0]))",
        "xl_pos(jnp.array([1.0]))",
        "jax.jit(xl_pos)(jnp.array([1.0]))",
        "XL_ck.check(jnp.array([True, False]), 'vector predicate')",
        "XL_ck.check(True, 'python bool')",
        "XL_ck.check(False, 'python bool {}', 3)",
        "XL_ck.check(jnp.float32(1), 'float predicate')",
        "XL_ck.checkify(xl_pos, errors=XL_ck.user_checks)(jnp.array([2.0]))[1]",
        "type(XL_ck.checkify(xl_pos)(jnp.array([2.0]))[0]).__name__",
        "sorted(e.__name__ for e in XL_ck.all_checks)",
        "sorted(e.__name__ for e in XL_ck.float_checks)",
        "XL_ck.checkify(xl_pos)(jnp.array([-1.0]))[0].get_exception().__class__.__name__",
        "XL_ck.checkify(xl_pos)(jnp.array([1.0]))[0].get_exception()",
        f"xl_run(jax.jit(lambda x: {ck}.checkify(xl_pos)(x)[1]), jnp.array([-1.0]))",
        "xl_run(lambda x: (XL_ck.debug_check(x > 0, 'debug {}', x), x)[1], -1.0)",
    ]
    return c


def _jet() -> list[str]:
    J = "XL_jet"
    c = []
    for f in (
        "jnp.sin",
        "jnp.exp",
        "jnp.log",
        "jnp.tanh",
        "jnp.sqrt",
        "jax.nn.sigmoid",
        "lambda x: x ** 3",
        "lambda x: 1.0 / x",
        "jnp.cos",
        "lambda x: jnp.sin(x) * jnp.exp(x)",
    ):
        c += [
            f"{J}({f}, (0.7,), ((1.0, 0.0, 0.0),))",
            f"{J}({f}, (jnp.array([0.5, 1.5]),), ((jnp.ones(2), jnp.array([0.5, -1.0])),))",
        ]
    c += [
        f"{J}(lambda x, y: x * y, (2.0, 3.0), ((1.0, 0.0), (0.0, 1.0)))",
        f"{J}(lambda x, y: jnp.sin(x) + y ** 2, (jnp.array(0.5), jnp.array(1.5)), ((jnp.array(1.0),), (jnp.array(2.0),)))",
        f"{J}(lambda x: jnp.sum(x ** 2), (jnp.arange(3.0),), ((jnp.ones(3), jnp.zeros(3)),))",
        f"{J}(lambda x: x @ x, (jnp.arange(3.0),), ((jnp.ones(3),),))",
        f"{J}(lambda x: jnp.maximum(x, 0.0), (jnp.array([-1.0, 2.0]),), ((jnp.ones(2), jnp.ones(2)),))",
        f"{J}(lambda x: jnp.where(x > 0, x ** 2, -x), (jnp.array([-1.0, 2.0]),), ((jnp.ones(2), jnp.ones(2)),))",
        f"{J}(jnp.sin, (0.5,), ((1.0,),))",
        f"{J}(jnp.sin, (0.5,), ((1.0, 0.5, 0.25, 0.125, 0.0),))",
        f"{J}(jnp.exp, (jnp.float16(0.5),), ((jnp.float16(1.0), jnp.float16(0.0)),))",
        f"{J}(lambda x: x * 2, (jnp.arange(3),), ((jnp.ones(3, jnp.int32),),))",
        f"{J}(jnp.sin, (0.5,), ((1.0, 0.0), (0.0,)))",
        f"{J}(jnp.sin, (0.5, 1.0), ((1.0,),))",
        f"{J}(jnp.sin, (jnp.ones(2),), ((jnp.ones(3),),))",
        f"{J}(jnp.sin, (jnp.ones(2),), ((jnp.ones(2, jnp.float16),),))",
        f"{J}(lambda d: d['a'] * d['b'], ({{'a': 1.5, 'b': 2.0}},), (({{'a': 1.0, 'b': 0.0}}, {{'a': 0.0, 'b': 0.0}}),))",
        f"{J}(jax.jit(jnp.tanh), (0.3,), ((1.0, 0.0, 0.0),))",
        f"{J}(lambda x: jnp.cumsum(x), (jnp.arange(3.0),), ((jnp.ones(3), jnp.ones(3)),))",
        f"{J}(lambda x: jnp.logaddexp(x, 1.0), (0.5,), ((1.0, 0.0),))",
        f"{J}(lambda x: jnp.arctan(x), (0.5,), ((1.0, 0.0, 0.0),))",
        f"{J}(lambda x: jnp.abs(x), (jnp.array([-1.0, 2.0]),), ((jnp.ones(2),),))",
        f"{J}(jnp.sin, (), ())",
        f"{J}(jnp.sin, (0.5,), ((),))",
    ]
    return c


def _odeint() -> list[str]:
    o = "XL_odeint"
    ts = "jnp.array([0.0, 0.5, 1.0, 2.0])"
    c = [
        f"{o}(xl_decay, jnp.array([1.0, 2.0]), {ts}, 0.7)",
        f"{o}(xl_decay, 1.0, {ts}, 1.5)",
        f"{o}(xl_osc, jnp.array([1.0, 0.0]), jnp.linspace(0.0, jnp.pi, 5))",
        f"{o}(xl_osc, jnp.array([1.0, 0.0]), jnp.linspace(0.0, jnp.pi, 5), rtol=1e-3, atol=1e-3)",
        # five steps cannot reach t = 5: the output extrapolates the last step's quartic far
        # past its interval, so only its shape and finiteness are compared
        f"(lambda y: (y.shape, jnp.isfinite(y)))({o}(xl_osc, jnp.array([1.0, 0.0]), jnp.linspace(0.0, 10.0, 3), mxstep=5))",
        f"{o}(xl_osc, jnp.array([1.0, 0.0]), jnp.linspace(0.0, 2.0, 3), hmax=0.1)",
        f"{o}(xl_tree_rhs, {{'a': jnp.array([1.0, 2.0]), 'b': jnp.array(0.0)}}, {ts})",
        f"{o}(lambda y, t: jnp.sin(t) * jnp.ones_like(y), jnp.zeros(2), {ts})",
        f"{o}(lambda y, t, a, b: a * y + b, jnp.array([1.0]), {ts}, -1.0, 0.5)",
        f"{o}(xl_decay, jnp.array([1.0, 2.0]), jnp.array([1.0, 0.5, 0.0]), 0.7)",
        f"{o}(xl_decay, jnp.array([1.0, 2.0]), jnp.array([0.0]), 0.7)",
        f"{o}(xl_decay, jnp.array([1.0, 2.0], jnp.float16), {ts}, 0.7).dtype",
        f"{o}(xl_decay, jnp.array([1, 2]), {ts}, 0.7)",
        f"{o}(xl_decay, jnp.array([1.0, 2.0]), {ts}, 'k')",
        f"{o}(xl_decay, jnp.array([1.0, 2.0]), {ts}, 2)",
        f"{o}(lambda y, t: y[:1], jnp.array([1.0, 2.0]), {ts})",
        f"jax.jit(lambda y0, k: {o}(xl_decay, y0, {ts}, k))(jnp.array([1.0, 2.0]), 0.7)",
        f"jax.vmap(lambda k: {o}(xl_decay, jnp.array([1.0]), {ts}, k))(jnp.array([0.5, 1.0, 2.0]))",
        f"jax.vmap(lambda y0: {o}(xl_osc, y0, jnp.linspace(0.0, 1.0, 3)))(jnp.eye(2))",
        f"jax.grad(lambda k: {o}(xl_decay, jnp.array([1.0]), {ts}, k)[-1, 0])(0.7)",
        f"jax.grad(lambda y0: {o}(xl_osc, y0, jnp.linspace(0.0, 1.0, 3))[-1].sum())(jnp.array([1.0, 0.0]))",
        f"jax.grad(lambda t1: {o}(xl_decay, jnp.array([1.0]), jnp.array([0.0, t1]), 0.7)[-1, 0])(1.5)",
        f"jax.jacrev(lambda y0: {o}(xl_decay, y0, {ts}, 0.3)[-1])(jnp.array([1.0, 2.0]))",
        f"jax.grad(lambda p: {o}(lambda y, t, q: -q['k'] * y, jnp.array([1.0]), {ts}, p)[-1, 0])({{'k': 0.5}})",
    ]
    return c


def _sparse() -> list[str]:
    S = "XL_sp"
    M = f"{S}.BCOO.fromdense(XL_D)"
    c = [
        f"{M}.todense()",
        f"{M}.data",
        f"{M}.indices",
        f"({M}.nse, {M}.shape, {M}.dtype, {M}.ndim, {M}.n_batch, {M}.n_dense, {M}.n_sparse)",
        f"{S}.BCOO.fromdense(XL_D, nse=6).indices",
        f"{S}.BCOO.fromdense(XL_D, nse=6).todense()",
        f"{S}.BCOO.fromdense(XL_D, nse=2)",
        f"{S}.BCOO.fromdense(XL_D, index_dtype=jnp.int8).indices.dtype",
        f"{S}.BCOO.fromdense(XL_D.astype(jnp.int32)).data.dtype",
        f"{S}.BCOO.fromdense(jnp.zeros((2, 2))).nse",
        f"{S}.BCOO.fromdense(jnp.array([0.0, 3.0, 0.0, 1.0])).todense()",
        f"{S}.bcoo_fromdense(XL_D).indices",
        f"{S}.bcoo_todense({M})",
        f"{S}.BCOO((jnp.array([1.0, 2.0]), jnp.array([[0, 1], [2, 0]])), shape=(3, 3)).todense()",
        f"{S}.BCOO((jnp.array([1.0, 2.0]), jnp.array([[0, 1], [0, 1]])), shape=(2, 2)).todense()",
        f"{S}.BCOO((jnp.array([1.0, 2.0]), jnp.array([[0, 1], [3, 0]])), shape=(3, 3)).todense()",
        f"{M} @ jnp.array([1.0, 2.0, 3.0])",
        f"{M} @ jnp.arange(6.0).reshape(3, 2)",
        f"jnp.array([1.0, 2.0, 3.0]) @ {M}",
        f"({M} @ {M}).todense()",
        f"({M} @ jnp.ones(3, jnp.int32)).dtype",
        f"{M} @ jnp.ones(4)",
        f"({M} * 2.0).todense()",
        f"({M} * jnp.arange(3.0)).todense()",
        f"(-{M}).todense()",
        f"({M} + {M}).todense()",
        f"{M} + XL_D",
        f"{M}.T.todense()",
        f"{M}.transpose((1, 0)).todense()",
        f"{M}.sum()",
        f"{M}.sum(axis=0).todense()",
        f"{S}.bcoo_reduce_sum({M}, axes=(1,)).todense()",
        f"{M}.sum_duplicates().data",
        f"{M}.sort_indices().indices",
        f"{M}.astype(jnp.float16).todense()",
        f"{S}.todense({M})",
        f"{S}.todense(XL_D)",
        f"{S}.eye(3).todense()",
        f"{S}.eye(2, 3, k=1).todense()",
        f"{S}.bcoo_extract({M}.indices, XL_D * 10.0)",
        f"{S}.bcoo_multiply_dense({M}, jnp.full((3, 3), 2.0)).todense()",
        f"jax.jit(lambda m, x: m @ x)({M}, jnp.array([1.0, 2.0, 3.0]))",
        f"jax.jit(lambda m: m.todense())({M})",
        f"jax.jit(lambda d: {S}.BCOO.fromdense(d, nse=4).todense())(XL_D)",
        f"jax.grad(lambda x: ({M} @ x).sum())(jnp.array([1.0, 2.0, 3.0]))",
        f"jax.grad(lambda d: ({S}.BCOO((d, {M}.indices), shape=(3, 3)) @ jnp.ones(3)).sum())({M}.data)",
        f"jax.vmap(lambda x: {M} @ x)(jnp.arange(6.0).reshape(2, 3))",
        f"jax.tree_util.tree_leaves({M})",
        f"repr({M})",
        f"{S}.BCOO.fromdense(jnp.ones((2, 2, 2)), n_batch=1).todense()",
        f"{S}.BCOO.fromdense(XL_D) @ {S}.BCOO.fromdense(jnp.ones((2, 2)))",
    ]
    return c


def _jnp_linalg() -> list[str]:
    la = "jnp.linalg"
    c = [
        f"{la}.tensorinv(jnp.eye(4).reshape(4, 2, 2) * 2.0, ind=1)",
        f"{la}.tensorinv(jnp.arange(16.0).reshape(2, 2, 2, 2) + jnp.eye(4).reshape(2, 2, 2, 2) * 5.0)",
        f"{la}.tensorinv(jnp.eye(6).reshape(2, 3, 6), ind=0)",
        f"{la}.tensorinv(jnp.ones((2, 3)), ind=1)",
        f"{la}.tensorinv(jnp.eye(4, dtype=jnp.int32).reshape(2, 2, 4) * 2)",
        f"jax.grad(lambda a: {la}.tensorinv(a, ind=1).sum())(XL_A)",
        f"{la}.tensorsolve(jnp.eye(6).reshape(2, 3, 6) * 2.0, jnp.arange(6.0).reshape(2, 3))",
        f"{la}.tensorsolve(jnp.eye(6).reshape(6, 2, 3), jnp.arange(6.0), axes=(0,))",
        f"{la}.tensorsolve(XL_A, jnp.array([1.0, 2.0, 3.0]))",
        f"{la}.tensorsolve(jnp.ones((2, 3)), jnp.ones(2))",
        f"jax.jit({la}.tensorsolve)(XL_A, jnp.ones(3))",
        f"{la}.multi_dot([XL_A, XL_N, jnp.ones((3, 2)), jnp.ones((2, 4))])",
        f"{la}.multi_dot([jnp.ones(3), XL_A, XL_N])",
        f"{la}.multi_dot([XL_A, XL_N, jnp.ones(3)])",
        f"{la}.multi_dot([XL_A.astype(jnp.int32), jnp.ones((3, 2), jnp.int32)])",
        f"{la}.multi_dot([XL_A, XL_N], precision=lax.Precision.HIGHEST)",
        f"{la}.multi_dot([XL_A, jnp.ones((2, 2))])",
        f"{la}.multi_dot([])",
        f"{la}.multi_dot([jnp.ones((2, 3, 3)), XL_A])",
        f"jax.jit({la}.multi_dot)([XL_A, XL_N, XL_A])",
        f"jax.grad(lambda a: {la}.multi_dot([a, XL_N, a]).sum())(XL_A)",
        f"{la}.matrix_power(XL_N, -1)",
        f"{la}.matrix_power(XL_N, -3)",
        f"{la}.matrix_power(jnp.stack([XL_A, XL_N]), -2)",
        f"{la}.matrix_power(jnp.array([[1.0, 2.0], [2.0, 4.0]]), -1)",
        f"{la}.matrix_power(jnp.array([[1, 1], [1, 0]]), 10)",
        f"{la}.matrix_power(jnp.array([[1, 1], [1, 0]], jnp.int8), 12)",
        f"{la}.matrix_power(XL_N.astype(jnp.float16), 5)",
        f"{la}.matrix_power(XL_N, jnp.int32(2))",
        f"{la}.matrix_power(XL_N.astype(jnp.complex64) * 1j, 3)",
        f"jax.jit({la}.matrix_power, static_argnums=1)(XL_N, -2)",
        f"jax.grad(lambda a: {la}.matrix_power(a, 3).sum())(XL_N)",
        f"jax.grad(lambda a: {la}.matrix_power(a, -1).sum())(XL_N)",
        f"jax.vmap(lambda a: {la}.matrix_power(a, 4))(jnp.stack([XL_A / 4, XL_N]))",
        f"{la}.slogdet(jnp.zeros((3, 3)))",
        f"{la}.slogdet(jnp.array([[1.0, 2.0], [2.0, 4.0]]))",
        f"{la}.slogdet(jnp.array([[1.0, 2.0], [2.0, 4.0]]), method='qr')",
        f"{la}.slogdet(jnp.stack([jnp.zeros((2, 2)), jnp.eye(2), -jnp.eye(2)]))",
        f"{la}.slogdet(jnp.array([[0, 1], [1, 0]]))",
        f"{la}.slogdet(jnp.array([[1 + 1j, 0.0], [0.0, 2j]], jnp.complex64))",
        f"{la}.slogdet(jnp.diag(jnp.array([1e-30, 1e-30, 1e-30])))",
        f"{la}.slogdet(XL_A.astype(jnp.float16))",
        f"{la}.slogdet(XL_A).sign.dtype",
        f"type({la}.slogdet(XL_A)).__name__",
        f"jax.grad(lambda a: {la}.slogdet(a).logabsdet)(XL_N)",
        f"jax.jit(lambda a: {la}.slogdet(a))(jnp.zeros((2, 2)))",
        f"jax.vmap({la}.slogdet)(jnp.stack([XL_A, XL_N]))",
        f"{la}.pinv(jnp.array([[2.0, 1j], [-1j, 3.0]], jnp.complex64), hermitian=True)",
        f"{la}.pinv(jnp.array([[1.0, 2.0], [2.0, 4.0]]), hermitian=True)",
        f"{la}.pinv(jnp.stack([XL_A, 2 * XL_A]), hermitian=True)",
        f"{la}.pinv(-XL_A, hermitian=True)",
        f"{la}.pinv(XL_A, hermitian=True, rtol=0.5)",
        f"{la}.pinv(jnp.zeros((2, 2)), hermitian=True)",
        f"{la}.pinv(XL_A.astype(jnp.int32), hermitian=True)",
        f"jax.grad(lambda a: {la}.pinv(a, hermitian=True).sum())(XL_A)",
        f"jax.grad(lambda a: {la}.pinv(a).sum())(jnp.arange(6.0).reshape(2, 3) + 1)",
        f"jax.jit(lambda a: {la}.pinv(a, hermitian=True))(XL_A)",
        f"jnp.sort_complex({la}.eigvals(XL_N))",
        f"jnp.sort_complex({la}.eigvals(jnp.array([[0.0, -1.0], [1.0, 0.0]])))",
        f"jnp.sort_complex({la}.eigvals(XL_N.astype(jnp.complex64) * (1 + 1j)))",
        f"{la}.eigvals(XL_N).dtype",
        f"{la}.eigvals(XL_N.astype(jnp.float16))",
        f"{la}.eigvals(jnp.array([[2, 0], [0, 3]]))",
        f"jnp.sort_complex({la}.eigvals(jnp.stack([XL_A, XL_N])))",
        f"{la}.eigvals(jnp.ones((2, 3)))",
        f"jnp.sort_complex(jax.jit({la}.eigvals)(XL_N))",
        f"jnp.sort_complex(jax.vmap({la}.eigvals)(jnp.stack([XL_A, XL_N])))",
        f"{la}.eigvals(jnp.array([[1.0, jnp.nan], [0.0, 1.0]]))",
    ]
    return c


def cases() -> list[str]:
    return _checkify() + _jet() + _odeint() + _sparse() + _jnp_linalg()
