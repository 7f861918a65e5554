"""Derivatives at the edges (`autodiff_edges`): grad, jvp, vjp, jacfwd, jacrev, hessian and
linearize of jnp, lax, jax.nn and jax.scipy.special functions at 0 and -0, infinities and nans,
at kinks and ties (how max, sort, top_k, median, cummax and scatters split the cotangent), with
integer, bool and complex inputs (float0 tangents, holomorphic, the conjugate convention),
through cumulative ops, scatters with repeated indices and gathers out of bounds, reductions
with `where=` and `initial=`, linalg at singular and degenerate matrices, custom_jvp and
custom_vjp with nondiff_argnums, and the dtypes and weak types of the gradients.

`transforms` covers the transformations' own arguments and errors, `nn_funcs` the activations'
gradients at 0.0; this area does not repeat them.

Left knowingly (8 of 821): derivatives of scatter-multiply (`.at[].mul/divide/power`,
`segment_prod`) with repeated indices, which JAX does not implement (NotImplementedError;
numbax differentiates the product); the weak type of `jvp(jnp.abs, (3+4j,), (1+0j,))`'s
tangent (JAX's complex-abs rule converts to a strong type on the way); and the primal of
`value_and_grad` through a custom_vjp whose fwd multiplies two Python floats (JAX returns the
Python float as is).
"""

# ruff: noqa: E501

PRELUDE = """
ADP = jnp.array([0.0, -0.0, 1.0, -1.0, 0.5, jnp.inf, -jnp.inf, jnp.nan])
def ad_sign0(g):
    # a gradient and the sign bits of its zeros (allclose does not see -0.0)
    g = jnp.asarray(g)
    return g, jnp.signbit(g)
@jax.custom_jvp
def ad_safe_log(x):
    return jnp.log(x)
@ad_safe_log.defjvp
def _ad_safe_log_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.log(x), jnp.where(x > 0, t / jnp.where(x > 0, x, 1.0), 0.0)
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def ad_scaled(k, x):
    return k * jnp.sin(x)
@ad_scaled.defjvp
def _ad_scaled_jvp(k, primals, tangents):
    (x,), (t,) = primals, tangents
    return k * jnp.sin(x), k * jnp.cos(x) * t * 10.0
@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def ad_clipgrad(x, c):
    return x
def _ad_clipgrad_fwd(x, c):
    return x, None
def _ad_clipgrad_bwd(c, res, g):
    return (jnp.clip(g, -c, c),)
ad_clipgrad.defvjp(_ad_clipgrad_fwd, _ad_clipgrad_bwd)
@jax.custom_vjp
def ad_twice(x, y):
    return x * y
def _ad_twice_fwd(x, y):
    return x * y, (x, y)
def _ad_twice_bwd(res, g):
    x, y = res
    return (2.0 * g * y, 2.0 * g * x)
ad_twice.defvjp(_ad_twice_fwd, _ad_twice_bwd)
@jax.custom_vjp
def ad_badbwd(x):
    return x
ad_badbwd.defvjp(lambda x: (x, None), lambda r, g: (g, g))
@jax.custom_jvp
def ad_inttan(x):
    return x * 2
ad_inttan.defjvp(lambda p, t: (p[0] * 2, (t[0] * 2).astype(jnp.int32)))
SING = jnp.array([[1.0, 2.0], [2.0, 4.0]])
DEG = jnp.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]])
SPD = jnp.array([[4.0, 1.0], [1.0, 3.0]])
"""

# unary jnp/lax/scipy functions, gradients over ADP (0, -0, 1, -1, 0.5, inf, -inf, nan)
UNARY = [
    "jnp.abs",
    "jnp.fabs",
    "jnp.sqrt",
    "jnp.cbrt",
    "lax.rsqrt",
    "jnp.exp",
    "jnp.expm1",
    "jnp.log",
    "jnp.log1p",
    "jnp.log2",
    "jnp.tan",
    "jnp.tanh",
    "jnp.cosh",
    "jnp.arcsin",
    "jnp.arccos",
    "jnp.arctan",
    "jnp.arcsinh",
    "jnp.arccosh",
    "jnp.arctanh",
    "jnp.sign",
    "jnp.floor",
    "jnp.round",
    "jnp.sinc",
    "jnp.reciprocal",
    "jnp.square",
    "jnp.i0",
    "jnp.signbit",
    "lax.logistic",
    "lax.erf_inv",
    "lax.lgamma",
    "lax.digamma",
    "jsp.special.logit",
    "jsp.special.erf",
    "jsp.special.erfc",
    "jsp.special.erfinv",
    "jsp.special.gammaln",
    "jsp.special.ndtr",
    "jsp.special.ndtri",
    "jsp.special.log_ndtr",
    "jsp.special.entr",
    "jsp.special.i0e",
    "jsp.special.i1",
    "jsp.special.spence",
]

# jax.nn functions with kinks or edges (nn_funcs covers grad at 0.0 only)
NN = [
    "relu",
    "relu6",
    "leaky_relu",
    "elu",
    "celu",
    "selu",
    "gelu",
    "silu",
    "softplus",
    "sigmoid",
    "log_sigmoid",
    "hard_tanh",
    "hard_sigmoid",
    "hard_silu",
    "sparse_plus",
    "sparse_sigmoid",
    "soft_sign",
    "squareplus",
    "mish",
]


def _elementwise() -> list[str]:
    c = []
    for f in UNARY:
        c.append(f"jax.vmap(jax.grad({f}))(ADP)")
    for f in (
        "jnp.abs",
        "jnp.sqrt",
        "jnp.cbrt",
        "jnp.sinc",
        "jnp.sign",
        "jnp.tanh",
        "jnp.arctan",
        "jnp.expm1",
        "jnp.log1p",
        "jsp.special.entr",
    ):
        c += [
            f"ad_sign0(jax.grad({f})(-0.0))",
            f"jax.jvp({f}, (0.0,), (1.0,))",
            f"jax.grad(jax.grad({f}))(0.0)",
        ]
    for a in NN:
        c.append(f"jax.vmap(jax.grad(jax.nn.{a}))(ADP)")
    c += [
        "jax.vmap(jax.grad(lambda x: jax.nn.leaky_relu(x, negative_slope=0.2)))(jnp.array([-0.0, 0.0, -1.0]))",
        "jax.vmap(jax.grad(lambda x: jax.nn.elu(x, alpha=0.5)))(jnp.array([-0.0, 0.0, -1.0]))",
        "jax.vmap(jax.grad(lambda x: jax.nn.celu(x, alpha=2.0)))(jnp.array([-0.0, 0.0, -1.0]))",
        "jax.vmap(jax.grad(lambda x: jax.nn.gelu(x, approximate=False)))(ADP)",
        "jax.vmap(jax.grad(lambda x: jax.nn.relu6(x)))(jnp.array([6.0, 0.0, 5.999, 6.001]))",
        "jax.vmap(jax.grad(lambda x: jax.nn.hard_tanh(x)))(jnp.array([1.0, -1.0, 0.999]))",
        "jax.vmap(jax.grad(jax.nn.hard_sigmoid))(jnp.array([-3.0, 3.0, 0.0]))",
        "jax.vmap(jax.grad(jax.nn.hard_silu))(jnp.array([-3.0, 3.0, 0.0]))",
        "jax.vmap(jax.grad(jax.nn.sparse_plus))(jnp.array([-1.0, 1.0, 0.0]))",
        "jax.vmap(jax.grad(jax.nn.sparse_sigmoid))(jnp.array([-1.0, 1.0, 0.0]))",
        "jax.grad(jax.nn.relu)(jnp.float16(0.0))",
        "jax.grad(jax.nn.relu)(jnp.bfloat16(-0.0))",
        "jax.grad(jax.nn.softplus)(jnp.float16(30.0))",
        "jax.jvp(jax.nn.relu, (jnp.zeros(3),), (jnp.ones(3),))",
        "jax.jvp(jax.nn.sigmoid, (jnp.array([-jnp.inf, jnp.inf]),), (jnp.ones(2),))",
        "jax.vmap(jax.grad(lambda x: jax.nn.glu(jnp.array([x, 0.0]))[0]))(jnp.array([0.0, -jnp.inf]))",
        "jax.grad(lambda x: jax.nn.standardize(x).sum())(jnp.ones(3))",
        "jax.grad(lambda x: jax.nn.standardize(x)[0])(jnp.array([1.0, 2.0, 3.0]))",
        "jax.grad(lambda x: jax.nn.one_hot(x, 3).sum())(1.0)",
    ]
    # clip / clamp at the bounds: which argument gets the gradient
    for x in ("0.0", "1.0", "0.5", "-1.0", "2.0"):
        c.append(f"jax.grad(jnp.clip, argnums=(0, 1, 2))({x}, 0.0, 1.0)")
        c.append(f"jax.grad(lax.clamp, argnums=(0, 1, 2))(0.0, {x}, 1.0)")
    c += [
        "jax.grad(lambda x: jnp.clip(x, 1.0, 0.0))(0.5)",
        "jax.grad(lambda x: jnp.clip(x, min=0.0))(0.0)",
        "jax.grad(lambda x: jnp.clip(x, max=0.0))(0.0)",
        "jax.grad(lambda x: jnp.clip(x, 0, 1))(jnp.float16(1.0))",
        "jax.vmap(jax.grad(lambda x: jnp.clip(x, -jnp.inf, jnp.inf)))(ADP)",
        "jax.grad(lambda lo: jnp.clip(2.0, lo, lo))(2.0)",
    ]
    # the double-where trick and its failure
    c += [
        "jax.grad(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.0))(0.0)",
        "jax.grad(lambda x: jnp.where(x > 0, jnp.sqrt(jnp.where(x > 0, x, 1.0)), 0.0))(0.0)",
        "jax.grad(lambda x: jnp.where(x != 0, jnp.sin(x) / x, 1.0))(0.0)",
        "jax.grad(lambda x: jnp.where(x != 0, jnp.sin(jnp.where(x != 0, x, 1.0)) / jnp.where(x != 0, x, 1.0), 1.0))(0.0)",
        "jax.grad(lambda x: jnp.where(jnp.isfinite(x), x, 0.0))(jnp.inf)",
        "jax.grad(lambda x: jnp.sum(jnp.where(x > 0, x, jnp.nan)))(jnp.array([1.0, -1.0]))",
        "jax.grad(lambda x: jnp.nansum(jnp.log(x)))(jnp.array([1.0, -1.0, 0.0]))",
        "jax.grad(lambda x: jnp.nanmean(jnp.sqrt(x)))(jnp.array([4.0, -1.0]))",
        "jax.grad(lambda x: jnp.nanmax(x))(jnp.array([1.0, jnp.nan, 1.0]))",
        "jax.grad(lambda x: jnp.nan_to_num(x).sum())(jnp.array([jnp.nan, jnp.inf, -jnp.inf, 1.0]))",
        "jax.grad(lambda x: jnp.nan_to_num(jnp.log(x)).sum())(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda x: lax.select(x > 0, x, 0.0 * x))(-0.0)",
        "jax.grad(lambda x: jnp.select([x < 0, x > 0], [-x, x], 0.0))(0.0)",
        "jax.grad(lambda x: jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2]))(0.0)",
        "jax.grad(lambda x: jnp.heaviside(x, 0.5))(0.0)",
        "jax.grad(lambda x: jnp.copysign(x, -1.0))(0.0)",
        "jax.grad(lambda y: jnp.copysign(2.0, y))(0.0)",
        "jax.grad(lambda x: jnp.nextafter(x, 1.0))(0.0)",
        "jax.grad(lambda x: jnp.ldexp(x, 3))(1.5)",
        "jax.grad(lambda x: jnp.frexp(x)[0])(3.0)",
        "jax.grad(lambda x: jnp.modf(x)[0])(2.5)",
        "jax.grad(lambda x: jnp.fmod(x, 2.0))(4.0)",
        "jax.grad(jnp.fmod, argnums=1)(5.0, 2.0)",
        "jax.grad(jnp.remainder, argnums=(0, 1))(-5.0, 2.0)",
        "jax.grad(jnp.floor_divide, argnums=(0, 1))(5.0, 2.0)",
        "jax.grad(lambda x: jnp.divmod(x, 2.0)[1])(5.0)",
        "jax.grad(lambda x: x // 1.0)(2.5)",
        "jax.grad(lambda x: jnp.round(x, 1))(2.25)",
        "jax.grad(lambda x: jnp.real(x))(1.0)",
        "jax.grad(lambda x: jnp.imag(x))(1.0)",
        "jax.grad(lambda x: jnp.conj(x))(1.0)",
        "jax.grad(lambda x: jnp.angle(x))(-1.0)",
        "jax.grad(lambda x: jnp.angle(x))(0.0)",
        "jax.grad(lambda x: lax.reduce_precision(x, exponent_bits=5, mantissa_bits=10))(1.0001)",
        "jax.grad(lambda x: lax.reduce_precision(x * x, 8, 7))(3.0)",
        "jax.jvp(lambda x: lax.reduce_precision(x, 5, 2), (jnp.array([1.1, 1e9]),), (jnp.ones(2),))",
        "jax.grad(lambda x: lax.reduce_precision(x, 5, 10))(jnp.float16(2.0))",
        "jax.grad(lambda x: lax.reduce_precision(x, 8, 7).astype(jnp.float32))(jnp.bfloat16(2.0))",
    ]
    return c


def _binary() -> list[str]:
    c = []
    pts = (
        "(0.0, 0.0)",
        "(0.0, 2.0)",
        "(0.0, 0.5)",
        "(0.0, 1.0)",
        "(0.0, -1.0)",
        "(-0.0, 3.0)",
        "(-1.0, 2.0)",
        "(-2.0, 0.5)",
        "(2.0, 0.0)",
        "(jnp.inf, 2.0)",
        "(1.0, jnp.inf)",
    )
    for p in pts:
        c.append(f"jax.grad(jnp.power, argnums=(0, 1))(*{p})")
    for p in ("(0.0, 0.0)", "(0.0, 0.5)", "(-1.0, 2.0)", "(0.0, 1.0)"):
        c.append(f"jax.grad(lax.pow, argnums=(0, 1))(*{p})")
        c.append(f"jax.grad(jnp.float_power, argnums=(0, 1))(*{p})")
        c.append(f"jax.jvp(jnp.power, {p}, (1.0, 1.0))")
    for e in ("0", "1", "2", "3", "-1", "0.5", "1.5", "2.0", "0.0"):
        c.append(f"jax.vmap(jax.grad(lambda x: x ** {e}))(jnp.array([0.0, -0.0, 2.0, -2.0]))")
    c += [
        "jax.grad(lambda x: jnp.power(x, jnp.int32(2)))(0.0)",
        "jax.grad(lambda x: jnp.power(x, jnp.int32(0)))(0.0)",
        "jax.grad(lambda x: jnp.power(x, jnp.int32(-2)))(0.0)",
        "jax.grad(lambda y: jnp.power(2, y))(0.5)",
        "jax.grad(lambda y: jnp.power(0.0, y))(0.0)",
        "jax.grad(lambda y: jnp.power(-2.0, y))(2.0)",
        "jax.grad(lambda x: lax.integer_pow(x, 3))(0.0)",
        "jax.grad(jax.grad(lambda x: x ** 2.0))(0.0)",
        "jax.grad(jax.grad(lambda x: x ** 0.5))(1.0)",
        "jax.hessian(lambda x: jnp.sum(x ** 3.0))(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda x: x ** 2)(jnp.float16(3.0))",
        "jax.grad(lambda x: x ** 2.5)(jnp.bfloat16(4.0))",
        "jax.grad(lambda x: jnp.sqrt(x) ** 2)(0.0)",
        "jax.grad(lambda x: jnp.sqrt(x ** 2))(0.0)",
        "jax.grad(lambda x: jnp.abs(x) ** 3)(0.0)",
    ]
    for p in (
        "(0.0, 0.0)",
        "(-0.0, 0.0)",
        "(0.0, -0.0)",
        "(-0.0, -1.0)",
        "(1.0, 0.0)",
        "(jnp.inf, jnp.inf)",
        "(1.0, 1.0)",
    ):
        c.append(f"jax.grad(jnp.arctan2, argnums=(0, 1))(*{p})")
    for p in ("(0.0, 0.0)", "(3.0, 4.0)", "(0.0, 2.0)", "(jnp.inf, 1.0)", "(-0.0, -0.0)"):
        c.append(f"jax.grad(jnp.hypot, argnums=(0, 1))(*{p})")
    for f in ("jnp.maximum", "jnp.minimum", "jnp.fmax", "jnp.fmin", "lax.max", "lax.min"):
        c.append(f"jax.grad({f}, argnums=(0, 1))(1.0, 1.0)")
        c.append(f"jax.grad({f}, argnums=(0, 1))(jnp.nan, 1.0)")
        c.append(f"jax.jvp({f}, (2.0, 2.0), (1.0, 3.0))")
    c += [
        "jax.grad(lambda x: jnp.maximum(x, 0.0))(0.0)",
        "jax.grad(lambda x: jnp.maximum(x, x))(1.0)",
        "jax.grad(lambda x: jnp.max(jnp.stack([x, x, 0.0 * x])))(0.0)",
        "jax.grad(lambda x, y: jnp.maximum(x, y).sum(), argnums=(0, 1))(jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 1.0, 4.0]))",
    ]
    for f in ("jnp.logaddexp", "jnp.logaddexp2"):
        for p in ("(-jnp.inf, -jnp.inf)", "(-jnp.inf, 0.0)", "(jnp.inf, jnp.inf)"):
            c.append(f"jax.grad({f}, argnums=(0, 1))(*{p})")
    for f in ("jsp.special.xlogy", "jsp.special.xlog1py"):
        for p in ("(0.0, 0.0)", "(0.0, -1.0)", "(1.0, 0.0)", "(0.0, jnp.inf)"):
            c.append(f"jax.grad({f}, argnums=(0, 1))(*{p})")
    c += [
        "jax.grad(jsp.special.rel_entr, argnums=(0, 1))(0.0, 0.0)",
        "jax.grad(jsp.special.rel_entr, argnums=(0, 1))(1.0, 2.0)",
        "jax.grad(jsp.special.kl_div, argnums=(0, 1))(0.0, 1.0)",
        "jax.grad(jnp.divide, argnums=(0, 1))(0.0, 0.0)",
        "jax.grad(jnp.divide, argnums=(0, 1))(1.0, -0.0)",
        "jax.grad(jnp.divide, argnums=(0, 1))(1.0, jnp.inf)",
        "jax.grad(lax.div, argnums=(0, 1))(3.0, 2.0)",
        "jax.grad(jnp.multiply, argnums=(0, 1))(0.0, jnp.inf)",
        "jax.grad(jnp.multiply, argnums=(0, 1))(jnp.nan, 0.0)",
        "jax.grad(jnp.subtract, argnums=(0, 1))(jnp.inf, jnp.inf)",
        "jax.grad(lax.atan2, argnums=(0, 1))(0.0, 0.0)",
        "jax.grad(jsp.special.gammaln)(0.0)",
        "jax.grad(jsp.special.polygamma, argnums=1)(1, 0.5)",
        "jax.grad(jsp.special.zeta, argnums=0)(2.0, 1.0)",
        "jax.grad(jsp.special.betaln, argnums=(0, 1))(1.0, 1.0)",
        "jax.grad(lambda x: jnp.sinc(x) * x)(0.0)",
        "jax.grad(lambda x: jnp.linalg.norm(jnp.array([x, 0.0])))(0.0)",
        "jax.grad(lambda x: jnp.sqrt(jnp.sum(x ** 2)))(jnp.zeros(2))",
    ]
    return c


def _reductions() -> list[str]:
    t = "jnp.array([1.0, 3.0, 3.0, 2.0])"
    t3 = "jnp.array([2.0, 2.0, 2.0])"
    m = "jnp.array([[1.0, 4.0], [4.0, 4.0], [0.0, 4.0]])"
    c = []
    for f in (
        "jnp.max",
        "jnp.min",
        "jnp.amax",
        "jnp.amin",
        "jnp.nanmax",
        "jnp.nanmin",
        "jnp.ptp",
        "jnp.median",
        "jnp.nanmedian",
    ):
        c.append(f"jax.grad({f})({t})")
        c.append(f"jax.grad({f})({t3})")
        c.append(f"jax.grad(lambda x: {f}(x, axis=1).sum())({m})")
    c += [
        f"jax.grad(lambda x: jnp.max(x, axis=0).sum())({m})",
        f"jax.grad(lambda x: jnp.max(x, keepdims=True).sum())({m})",
        f"jax.grad(lambda x: lax.reduce_max(x, (0, 1)))({m})",
        f"jax.grad(lambda x: lax.reduce_min(x, (1,)).sum())({m})",
        f"jax.grad(lambda x: lax.reduce(x, -jnp.inf, lax.max, (0,)).sum())({m})",
        f"jax.grad(lambda x: x[jnp.argmax(x)])({t})",
        f"jax.grad(lambda x: x[jnp.argmin(x)])({t3})",
        f"jax.grad(lambda x: jnp.take_along_axis(x, jnp.argmax(x, axis=1, keepdims=True), axis=1).sum())({m})",
        "jax.grad(lambda x: jnp.max(x))(jnp.array([-jnp.inf, -jnp.inf]))",
        "jax.grad(lambda x: jnp.max(x))(jnp.array([1.0, jnp.nan, 3.0]))",
        "jax.grad(lambda x: jnp.min(x))(jnp.array([jnp.inf, jnp.inf, 1.0]))",
        "jax.grad(lambda x: jnp.max(x))(jnp.array([0.0, -0.0]))",
        "jax.grad(lambda x: jnp.max(x))(jnp.array([2.0, 2.0], jnp.float16))",
        "jax.grad(lambda x: jnp.max(x))(jnp.array([2.0, 2.0], jnp.bfloat16))",
        # where= and initial=
        "jax.grad(lambda x: jnp.max(x, initial=2.5))(jnp.array([1.0, 3.0, 2.0]))",
        "jax.grad(lambda x: jnp.max(x, initial=3.0))(jnp.array([1.0, 3.0, 2.0]))",
        "jax.grad(lambda x: jnp.max(x, initial=5.0))(jnp.array([1.0, 3.0, 2.0]))",
        "jax.grad(lambda x: jnp.min(x, initial=0.0))(jnp.array([1.0, 0.0]))",
        "jax.grad(lambda x: jnp.max(x, where=jnp.array([True, False, True]), initial=-jnp.inf))(jnp.array([1.0, 3.0, 2.0]))",
        "jax.grad(lambda x: jnp.max(x, where=jnp.array([True, False, True]), initial=2.0))(jnp.array([1.0, 3.0, 2.0]))",
        "jax.grad(lambda x: jnp.min(x, where=jnp.array([False, True, True]), initial=9.0))(jnp.array([0.0, 3.0, 3.0]))",
        "jax.grad(lambda x: jnp.sum(x, where=jnp.array([True, False, True])))(jnp.array([1.0, jnp.nan, 2.0]))",
        "jax.grad(lambda x: jnp.sum(x, where=jnp.array([True, False, True]), initial=5.0))(jnp.array([1.0, 2.0, 2.0]))",
        "jax.grad(lambda x: jnp.prod(x, where=jnp.array([True, False, True])))(jnp.array([2.0, 0.0, 3.0]))",
        "jax.grad(lambda x: jnp.prod(x, initial=2.0))(jnp.array([2.0, 3.0]))",
        "jax.grad(lambda x: jnp.mean(x, where=jnp.array([True, False, True])))(jnp.array([1.0, jnp.inf, 2.0]))",
        "jax.grad(lambda x: jnp.var(x, where=jnp.array([True, True, False])))(jnp.array([1.0, 2.0, 5.0]))",
        "jax.grad(lambda x: jnp.std(x, where=jnp.array([True, True, False])))(jnp.array([1.0, 2.0, 5.0]))",
        "jax.grad(lambda x: jnp.mean(x, where=jnp.zeros(3, bool)))(jnp.ones(3))",
        "jax.grad(lambda x: jnp.sum(x, where=jnp.array([[True], [False]])))(jnp.ones((2, 2)))",
        "jax.grad(lambda x: jax.nn.logsumexp(x, where=jnp.array([True, False, True])))(jnp.array([0.0, 5.0, 0.0]))",
        "jax.grad(lambda x: jax.nn.softmax(x, where=jnp.array([True, False, True]))[0])(jnp.array([0.0, 5.0, 0.0]))",
        # products with zeros
        "jax.grad(jnp.prod)(jnp.array([2.0, 0.0, 3.0, 0.0]))",
        "jax.grad(jnp.prod)(jnp.zeros(3))",
        "jax.grad(jnp.prod)(jnp.array([2.0, -0.0, 3.0]))",
        "jax.grad(jnp.prod)(jnp.array([2.0, jnp.inf, 0.0]))",
        "jax.grad(lambda x: jnp.prod(x, axis=1).sum())(jnp.array([[0.0, 2.0], [3.0, 4.0]]))",
        "jax.grad(lambda x: lax.reduce_prod(x, (0,)))(jnp.array([0.0, 2.0, 3.0]))",
        "jax.jvp(jnp.prod, (jnp.array([0.0, 0.0, 2.0]),), (jnp.ones(3),))",
        "jax.hessian(jnp.prod)(jnp.array([0.0, 2.0, 3.0]))",
        # variance at a constant, norms at zero
        "jax.grad(jnp.std)(jnp.ones(3))",
        "jax.grad(jnp.var)(jnp.ones(3))",
        "jax.grad(lambda x: jnp.std(x, ddof=1))(jnp.array([1.0, 2.0]))",
        "jax.grad(lambda x: jnp.var(x, ddof=3))(jnp.array([1.0, 2.0, 4.0]))",
    ]
    for o in ("None", "1", "jnp.inf", "-jnp.inf", "0", "3"):
        c.append(f"jax.grad(lambda x: jnp.linalg.norm(x, ord={o}))(jnp.zeros(3))")
        c.append(f"jax.grad(lambda x: jnp.linalg.norm(x, ord={o}))(jnp.array([3.0, -4.0, 0.0]))")
    for o in ("'fro'", "1", "jnp.inf", "'nuc'", "2", "-2"):
        c.append(
            f"jax.grad(lambda x: jnp.linalg.norm(x, ord={o}))(jnp.array([[1.0, 2.0], [3.0, 4.0]]))"
        )
    c += [
        "jax.grad(lambda x: jnp.linalg.norm(x, 'fro'))(jnp.zeros((2, 2)))",
        "jax.grad(lambda x: jnp.linalg.norm(x, axis=1).sum())(jnp.array([[0.0, 0.0], [3.0, 4.0]]))",
        "jax.grad(lambda x: jnp.linalg.vector_norm(x))(jnp.zeros(2))",
        "jax.grad(lambda x: jnp.linalg.norm(x))(jnp.array([1.0, jnp.inf]))",
        "jax.grad(lambda x: jnp.linalg.norm(x))(jnp.array([3.0, 4.0], jnp.float16))",
        "jax.grad(lambda x: jnp.linalg.norm(x))(jnp.array([1e30, 1e30]))",
        # logsumexp / softmax with infinities
        "jax.grad(jax.nn.logsumexp)(jnp.array([0.0, -jnp.inf]))",
        "jax.grad(jax.nn.logsumexp)(jnp.array([-jnp.inf, -jnp.inf]))",
        "jax.grad(jax.nn.logsumexp)(jnp.array([jnp.inf, 0.0]))",
        "jax.grad(jax.nn.logsumexp)(jnp.array([jnp.inf, jnp.inf]))",
        "jax.grad(jax.nn.logsumexp)(jnp.array([1.0, jnp.nan]))",
        "jax.grad(jax.nn.logsumexp)(jnp.array([1e4, 1e4]))",
        "jax.grad(lambda x: jsp.special.logsumexp(x, b=jnp.array([1.0, 0.0])))(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda x: jsp.special.logsumexp(x, b=jnp.array([1.0, -1.0]), return_sign=True)[0])(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda b: jsp.special.logsumexp(jnp.array([0.0, 1.0]), b=b))(jnp.array([1.0, 0.0]))",
        "jax.grad(lambda x: jsp.special.logsumexp(x, axis=1).sum())(jnp.array([[0.0, -jnp.inf], [-jnp.inf, -jnp.inf]]))",
        "jax.grad(lambda x: jax.nn.logsumexp(x, keepdims=True).sum())(jnp.zeros((2, 2)))",
        "jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.array([0.0, -jnp.inf, 1.0]))",
        "jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.array([-jnp.inf, -jnp.inf]))",
        "jax.grad(lambda x: jax.nn.log_softmax(x)[0])(jnp.array([0.0, -jnp.inf]))",
        "jax.grad(lambda x: jax.nn.log_softmax(x)[1])(jnp.array([0.0, -jnp.inf]))",
        "jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.array([1e4, 1e4]))",
        "jax.grad(lambda x: jnp.sum(jax.nn.softmax(x) * jnp.log(jax.nn.softmax(x))))(jnp.array([0.0, -jnp.inf]))",
        "jax.jvp(jax.nn.logsumexp, (jnp.array([0.0, -jnp.inf]),), (jnp.ones(2),))",
        "jax.jvp(jax.nn.softmax, (jnp.array([0.0, -jnp.inf]),), (jnp.ones(2),))",
    ]
    return c


def _order() -> list[str]:
    v = "jnp.array([3.0, 1.0, 3.0, 2.0])"
    w = "jnp.arange(4.0)"
    return [
        f"jax.grad(lambda x: jnp.sort(x) @ {w})({v})",
        f"jax.grad(lambda x: jnp.sort(x, stable=False) @ {w})({v})",
        f"jax.grad(lambda x: jnp.sort(x, descending=True) @ {w})({v})",
        f"jax.grad(lambda x: lax.sort(x, is_stable=True) @ {w})({v})",
        f"jax.grad(lambda x: jnp.sort(-x) @ {w})({v})",
        f"jax.grad(lambda x: x[jnp.argsort(x)] @ {w})({v})",
        f"jax.grad(lambda x: x[jnp.argsort(x, stable=True, descending=True)] @ {w})({v})",
        f"jax.grad(lambda x: lax.sort((x, {w}), num_keys=1)[1].sum())({v})",
        f"jax.grad(lambda x, y: lax.sort((x, y), num_keys=1)[1] @ {w}, argnums=1)({v}, {w})",
        f"jax.grad(lambda x: lax.sort_key_val(x, x * 2)[1] @ {w})({v})",
        "jax.grad(lambda x: jnp.sort(x) @ jnp.arange(3.0))(jnp.array([jnp.nan, 1.0, -0.0]))",
        "jax.grad(lambda x: jnp.sort(x, axis=0)[0].sum())(jnp.array([[1.0, 2.0], [1.0, 0.0]]))",
        f"jax.grad(lambda x: lax.top_k(x, 2)[0] @ jnp.array([1.0, 10.0]))({v})",
        "jax.grad(lambda x: lax.top_k(x, 3)[0] @ jnp.array([1.0, 10.0, 100.0]))(jnp.array([2.0, 2.0, 2.0, 2.0]))",
        "jax.grad(lambda x: lax.top_k(x, 1)[0].sum())(jnp.array([[1.0, 1.0], [0.0, 2.0]]))",
        "jax.jvp(lambda x: lax.top_k(x, 2)[0], (jnp.array([1.0, 5.0, 5.0]),), (jnp.array([1.0, 2.0, 3.0]),))",
        "jax.grad(lambda x: jnp.quantile(x, 0.5))(jnp.array([1.0, 2.0, 2.0, 3.0]))",
        "jax.grad(lambda x: jnp.quantile(x, 0.25, method='lower'))(jnp.array([4.0, 1.0, 1.0, 3.0]))",
        "jax.grad(lambda x: jnp.percentile(x, 50.0, method='nearest'))(jnp.array([1.0, 2.0, 2.0, 3.0]))",
        "jax.grad(lambda x: jnp.percentile(x, 100.0))(jnp.array([1.0, 3.0, 3.0]))",
        "jax.grad(lambda q: jnp.quantile(jnp.array([1.0, 2.0, 4.0]), q))(0.5)",
        "jax.grad(lambda x: jnp.median(x))(jnp.array([1.0, 2.0, 2.0, 2.0]))",
        "jax.grad(lambda x: jnp.partition(x, 1)[1])(jnp.array([3.0, 1.0, 1.0]))",
        "jax.grad(lambda x: jnp.unique(x, size=3)[0] @ jnp.arange(3.0))(jnp.array([2.0, 1.0, 2.0]))",
        "jax.grad(lambda x: jnp.searchsorted(x, 1.5).astype(float))(jnp.array([1.0, 2.0]))",
        "jax.grad(lambda x: jnp.lexsort((x, -x)).astype(float).sum())(jnp.array([1.0, 2.0]))",
        "jax.grad(lambda x: jnp.argmax(x))(jnp.array([1.0, 2.0]))",
        "jax.grad(lambda x: jnp.argmax(x).astype(jnp.float32))(jnp.array([1.0, 2.0]))",
        "jax.jacfwd(jnp.sort)(jnp.array([2.0, 2.0, 1.0]))",
        "jax.jacrev(jnp.sort)(jnp.array([2.0, 2.0, 1.0]))",
        "jax.jacrev(lambda x: lax.top_k(x, 2)[0])(jnp.array([2.0, 2.0, 1.0]))",
        "jax.vmap(jax.grad(lambda x: jnp.max(x)))(jnp.array([[1.0, 1.0], [2.0, 1.0]]))",
        "jax.jit(jax.grad(lambda x: jnp.max(x)))(jnp.array([5.0, 5.0, 1.0]))",
        "jax.jit(jax.grad(lambda x: jnp.sort(x) @ jnp.arange(3.0)))(jnp.array([2.0, 2.0, 1.0]))",
    ]


def _cumulative() -> list[str]:
    z1 = "jnp.array([2.0, 0.0, 3.0, 4.0])"
    z2 = "jnp.array([2.0, 0.0, 3.0, 0.0])"
    ties = "jnp.array([1.0, 3.0, 3.0, 2.0, 3.0])"
    c = []
    for f in ("jnp.cumprod", "lax.cumprod", "jnp.nancumprod"):
        c += [
            f"jax.grad(lambda x: {f}(x) @ jnp.arange(1.0, 5.0))({z1})",
            f"jax.grad(lambda x: {f}(x) @ jnp.arange(1.0, 5.0))({z2})",
            f"jax.grad(lambda x: {f}(x)[-1])(jnp.zeros(4))",
        ]
    c += [
        f"jax.grad(lambda x: lax.cumprod(x, reverse=True) @ jnp.arange(1.0, 5.0))({z1})",
        f"jax.jacfwd(jnp.cumprod)({z2})",
        f"jax.jacrev(jnp.cumprod)({z2})",
        "jax.grad(lambda x: jnp.cumprod(x, axis=1).sum())(jnp.array([[0.0, 2.0], [3.0, 0.0]]))",
        "jax.grad(lambda x: jnp.cumsum(x, dtype=jnp.float16).astype(jnp.float32).sum())(jnp.arange(3.0))",
        "jax.grad(lambda x: jnp.cumsum(x) @ jnp.arange(3.0))(jnp.array([jnp.inf, 1.0, 2.0]))",
        "jax.grad(lambda x: jnp.nancumsum(x) @ jnp.arange(3.0))(jnp.array([jnp.nan, 1.0, 2.0]))",
        "jax.grad(lambda x: jnp.cumsum(x, axis=0).sum())(jnp.ones((2, 3), jnp.float16))",
        "jax.grad(lambda x: jnp.cumulative_sum(x, include_initial=True) @ jnp.arange(4.0))(jnp.ones(3))",
        "jax.grad(lambda x: jnp.cumulative_prod(x, include_initial=True) @ jnp.arange(4.0))(jnp.array([2.0, 0.0, 3.0]))",
    ]
    for f in ("lax.cummax", "lax.cummin"):
        c += [
            f"jax.grad(lambda x: {f}(x) @ jnp.arange(1.0, 6.0))({ties})",
            f"jax.grad(lambda x: {f}(x, reverse=True) @ jnp.arange(1.0, 6.0))({ties})",
            f"jax.grad(lambda x: {f}(x).sum())(jnp.full(4, 2.0))",
            f"jax.jacrev({f})(jnp.array([1.0, 1.0, 0.0]))",
            f"jax.jacfwd({f})(jnp.array([1.0, 1.0, 0.0]))",
            f"jax.grad(lambda x: {f}(x, axis=1).sum())(jnp.array([[1.0, 1.0], [2.0, 3.0]]))",
            f"jax.grad(lambda x: {f}(x) @ jnp.arange(1.0, 4.0))(jnp.array([jnp.nan, 1.0, 2.0]))",
        ]
    c += [
        "jax.grad(lambda x: lax.cumlogsumexp(x) @ jnp.arange(1.0, 4.0))(jnp.array([-jnp.inf, 0.0, 1.0]))",
        "jax.grad(lambda x: lax.cumlogsumexp(x) @ jnp.arange(1.0, 4.0))(jnp.array([-jnp.inf, -jnp.inf, 0.0]))",
        "jax.grad(lambda x: lax.cumlogsumexp(x, reverse=True)[0])(jnp.array([0.0, 0.0, 0.0]))",
        "jax.grad(lambda x: lax.cumlogsumexp(x)[-1])(jnp.array([1e4, 1e4]))",
        "jax.grad(lambda x: lax.cumlogsumexp(x)[-1])(jnp.array([0.0, jnp.inf]))",
        "jax.jvp(lax.cumlogsumexp, (jnp.array([-jnp.inf, 0.0]),), (jnp.ones(2),))",
        "jax.grad(lambda x: jnp.logaddexp.accumulate(x)[-1])(jnp.array([0.0, 1.0]))",
        "jax.grad(lambda x: jnp.maximum.accumulate(x).sum())(jnp.array([1.0, 1.0, 0.5]))",
        "jax.grad(lambda x: jnp.multiply.accumulate(x)[-1])(jnp.array([0.0, 2.0]))",
        "jax.grad(lambda x: jnp.maximum.reduce(x))(jnp.array([1.0, 1.0]))",
        "jax.grad(lambda x: jnp.diff(x) @ jnp.arange(2.0))(jnp.array([1.0, 1.0, 3.0]))",
        "jax.grad(lambda x: jnp.trapezoid(x))(jnp.array([1.0, 2.0, 3.0]))",
        "jax.grad(lambda x: lax.associative_scan(jnp.add, x).sum())(jnp.full(4, 2.0))",
        "jax.grad(lambda x: x[1:].sum())(jnp.full(4, 2.0))",
        "jax.grad(lambda x: lax.pad(x, 0.0, [(1, 1, 1)]).sum())(jnp.full(3, 2.0))",
        "jax.grad(lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (1,), 'SAME').sum())(jnp.full(4, 2.0))",
    ]
    return c


def _indexing() -> list[str]:
    x = "jnp.arange(1.0, 5.0)"
    i = "jnp.array([1, 1, 3])"
    u = "jnp.array([10.0, 20.0, 30.0])"
    c = []
    for op in ("set", "add", "mul", "min", "max", "divide", "power", "subtract"):
        c += [
            f"jax.grad(lambda a, b: a.at[{i}].{op}(b) @ jnp.arange(1.0, 5.0), argnums=(0, 1))({x}, {u})",
            f"jax.grad(lambda a, b: a.at[1].{op}(b).sum(), argnums=(0, 1))({x}, 2.0)",
        ]
    c += [
        f"jax.grad(lambda a, b: a.at[{i}].set(b, unique_indices=False).sum(), argnums=1)({x}, {u})",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 2])].set(b, unique_indices=True).sum(), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 1])].set(b, indices_are_sorted=True).sum(), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[jnp.array([1, 1])].max(b).sum(), argnums=(0, 1))({x}, jnp.array([2.0, 2.0]))",
        f"jax.grad(lambda a, b: a.at[jnp.array([1, 1])].min(b).sum(), argnums=(0, 1))({x}, jnp.array([2.0, 2.0]))",
        f"jax.grad(lambda a, b: a.at[jnp.array([1, 1])].mul(b).sum(), argnums=(0, 1))({x}, jnp.array([0.0, 3.0]))",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 9])].set(b).sum(), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 9])].add(b, mode='drop').sum(), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 9])].add(b, mode='clip').sum(), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[jnp.array([0, 9])].set(b, mode='clip') @ jnp.arange(4.0), argnums=(0, 1))({x}, {u}[:2])",
        f"jax.grad(lambda a, b: a.at[-1].set(b).sum(), argnums=(0, 1))({x}, 5.0)",
        f"jax.grad(lambda a, b: a.at[1:3].set(b).sum(), argnums=(0, 1))({x}, 5.0)",
        f"jax.grad(lambda a, b: a.at[::2].mul(b).sum(), argnums=(0, 1))({x}, jnp.array([2.0, 0.0]))",
        f"jax.grad(lambda a, b: a.at[jnp.array([True, False, True, False])].set(b).sum(), argnums=(0, 1))({x}, 5.0)",
        "jax.grad(lambda a, b: a.at[0, jnp.array([1, 1])].add(b).sum(), argnums=(0, 1))(jnp.ones((2, 3)), jnp.array([1.0, 2.0]))",
        "jax.grad(lambda a, b: a.at[:, 1].set(b).sum(), argnums=(0, 1))(jnp.ones((2, 3)), jnp.array([1.0, 2.0]))",
        "jax.grad(lambda a: a.at[jnp.array([1, 1])].set(a[0]).sum())(jnp.arange(1.0, 4.0))",
        "jax.grad(lambda a: a.at[1].set(jnp.nan).sum())(jnp.arange(1.0, 4.0))",
        "jax.grad(lambda a, b: a.at[1].add(b).sum(), argnums=(0, 1))(jnp.ones(3, jnp.float16), 1.0)",
        "jax.grad(lambda b: jnp.zeros(3, jnp.int32).at[1].set(b).sum())(1.0)",
        "jax.grad(lambda b: jnp.zeros(3).at[1].set(b).sum())(jnp.float16(1.0))",
        # gathers: out-of-bound modes
        f"jax.grad(lambda a: a[jnp.array([0, 5, -7])] @ jnp.arange(1.0, 4.0))({x})",
        f"jax.grad(lambda a: a.at[jnp.array([0, 5, -7])].get(mode='clip') @ jnp.arange(1.0, 4.0))({x})",
        f"jax.grad(lambda a: a.at[jnp.array([0, 5, -7])].get(mode='fill', fill_value=9.0) @ jnp.arange(1.0, 4.0))({x})",
        f"jax.grad(lambda a: a.at[jnp.array([0, 5, -1])].get(mode='fill') @ jnp.arange(1.0, 4.0))({x})",
        f"jax.grad(lambda a: a.at[jnp.array([0, 0, 3])].get(mode='promise_in_bounds') @ jnp.arange(1.0, 4.0))({x})",
        f"jax.grad(lambda a: jnp.take(a, jnp.array([0, 5]), mode='wrap').sum())({x})",
        f"jax.grad(lambda a: jnp.take(a, jnp.array([0, 5]), mode='clip').sum())({x})",
        f"jax.grad(lambda a: jnp.take(a, jnp.array([0, 5]), mode='fill', fill_value=-1.0).sum())({x})",
        f"jax.grad(lambda a: jnp.take(a, jnp.array([0, 5])).sum())({x})",
        f"jax.grad(lambda a: jnp.take_along_axis(a, jnp.array([3, 3, 9]), axis=0).sum())({x})",
        f"jax.grad(lambda a: jnp.take_along_axis(a, jnp.array([3, 9]), axis=0, mode='clip').sum())({x})",
        f"jax.grad(lambda a: a[jnp.array([[0, 1], [1, 1]])].sum())({x})",
        f"jax.grad(lambda a: a[jnp.array([-1, -1])].sum())({x})",
        f"jax.grad(lambda a: a[5])({x})",
        f"jax.grad(lambda a: a[jnp.int32(5)])({x})",
        f"jax.grad(lambda a, i: a[i])({x}, jnp.int32(7))",
        f"jax.grad(lambda a: lax.dynamic_slice(a, (jnp.int32(3),), (2,)).sum())({x})",
        f"jax.grad(lambda a: lax.dynamic_index_in_dim(a, -9, keepdims=False))({x})",
        f"jax.grad(lambda a: lax.dynamic_update_slice(a, jnp.array([7.0, 8.0]), (jnp.int32(3),)) @ jnp.arange(4.0))({x})",
        "jax.grad(lambda u: lax.dynamic_update_slice(jnp.zeros(4), u, (jnp.int32(3),)) @ jnp.arange(4.0))(jnp.array([7.0, 8.0]))",
        f"jax.jacrev(lambda a: a[jnp.array([1, 1])])({x})",
        f"jax.jacfwd(lambda a: a.at[jnp.array([1, 1])].set(jnp.array([5.0, 6.0])))({x})",
        "jax.jacfwd(lambda b: jnp.zeros(3).at[jnp.array([1, 1])].set(b))(jnp.array([5.0, 6.0]))",
        "jax.jacrev(lambda b: jnp.zeros(3).at[jnp.array([1, 1])].set(b))(jnp.array([5.0, 6.0]))",
        f"jax.jvp(lambda a: a.at[jnp.array([1, 1])].max(jnp.array([2.0, 2.0])), ({x},), (jnp.ones(4),))",
        "jax.jvp(lambda b: jnp.ones(3).at[jnp.array([1, 1])].mul(b), (jnp.array([0.0, 0.0]),), (jnp.ones(2),))",
        "jax.vmap(jax.grad(lambda a, i: a[i]), in_axes=(None, 0))(jnp.arange(3.0), jnp.array([0, 2, 2, 5]))",
        "jax.grad(lambda a: jnp.where(jnp.arange(3) == 1, a, 0.0).sum())(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.extract(jnp.array([True, False, True]), a, size=2).sum())(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.compress(jnp.array([True, False, True]), a, size=2).sum())(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.roll(a, 1) @ jnp.arange(3.0))(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.repeat(a, 2).sum())(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.tile(a, 2) @ jnp.arange(6.0))(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.broadcast_to(a, (3, 2)).sum())(jnp.ones(2))",
        "jax.grad(lambda a: jnp.choose(jnp.array([0, 1, 0]), [a, 2 * a]).sum())(jnp.arange(3.0))",
        "jax.grad(lambda a: jnp.diagonal(a).sum())(jnp.ones((2, 3)))",
        "jax.grad(lambda a: jnp.triu(a).sum())(jnp.ones((2, 2)))",
        "jax.grad(lambda a: jnp.bincount(jnp.array([0, 1, 1]), weights=a, length=3) @ jnp.arange(3.0))(jnp.ones(3))",
        "jax.grad(lambda a: jax.ops.segment_sum(a, jnp.array([0, 1, 1, 5]), 2) @ jnp.arange(1.0, 3.0))(jnp.ones(4))",
        "jax.grad(lambda a: jax.ops.segment_max(a, jnp.array([0, 0, 1]), 2).sum())(jnp.array([1.0, 1.0, 2.0]))",
        "jax.grad(lambda a: jax.ops.segment_min(a, jnp.array([0, 0, 1]), 3).sum())(jnp.array([1.0, 1.0, 2.0]))",
        "jax.grad(lambda a: jax.ops.segment_prod(a, jnp.array([0, 0, 1]), 2).sum())(jnp.array([0.0, 3.0, 2.0]))",
    ]
    return c


def _ints_complex() -> list[str]:
    return [
        # integer and bool inputs: float0 tangents
        "jax.grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(2.0, 3)",
        "jax.grad(lambda n: n * 2.0, allow_int=True)(jnp.int8(3))",
        "jax.grad(lambda n: jnp.sin(n.astype(jnp.float32)), allow_int=True)(jnp.arange(2))",
        "jax.grad(lambda b: jnp.where(b, 1.0, 2.0), allow_int=True)(True)",
        "jax.grad(lambda b: jnp.where(b, 1.0, 2.0))(True)",
        "jax.grad(lambda x: x.sum(), allow_int=True)(jnp.array([True, False]))",
        "jax.grad(lambda x: x.sum())(jnp.arange(3, dtype=jnp.uint8))",
        "jax.grad(lambda x, n: x ** n, argnums=1)(2.0, 3)",
        "jax.grad(lambda d: d['x'] * d['n'], allow_int=True)({'x': 2.0, 'n': 3})",
        "jax.value_and_grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(2.0, 3)",
        "jax.jvp(lambda x, n: x * n, (2.0, 3), (1.0, np.zeros((), jax.dtypes.float0)))",
        "jax.jvp(lambda n: n * 2, (jnp.arange(3),), (np.zeros(3, jax.dtypes.float0),))",
        "jax.jvp(lambda b: jnp.where(b, 1.0, 0.0), (jnp.array([True, False]),), (np.zeros(2, jax.dtypes.float0),))",
        "jax.jvp(lambda n: n * 2, (jnp.arange(3),), (np.zeros(3, jax.dtypes.float0),))[1].dtype",
        "jax.vjp(lambda x, n: x * n, 2.0, 3)[1](1.0)",
        "jax.vjp(lambda n: n * 2.0, 3)[1](1.0)",
        "jax.vjp(lambda b: b, jnp.array([True]))[1](np.zeros(1, jax.dtypes.float0))",
        "jax.jacfwd(lambda x, n: x * n, argnums=1)(2.0, 3)",
        "jax.jacrev(lambda x, n: x * n, argnums=1)(2.0, 3)",
        "jax.jacfwd(lambda n: n * 2.0)(3)",
        "jax.linearize(lambda x, n: x * n, 2.0, 3)[1](1.0, np.zeros((), jax.dtypes.float0))",
        "jax.linearize(lambda n: n * 2, jnp.arange(2))[0]",
        "jax.hessian(lambda x, n: x ** 2 * n, argnums=0)(2.0, 3)",
        "jax.grad(lambda x: (x > 1.0).astype(jnp.float32))(2.0)",
        "jax.grad(lambda x: jnp.round(x).astype(jnp.int32).astype(jnp.float32) * x)(2.4)",
        "jax.grad(lambda x: x * jnp.arange(3).sum())(2.0)",
        "jax.grad(lambda x: (x * 2).astype(jnp.bool_).astype(jnp.float32))(1.0)",
        "jax.grad(lambda x: jnp.sum(x))(np.arange(3, dtype=np.int64))",
        "jax.grad(lambda x: jnp.sum(x))(np.float64(1.0))",
        "jax.grad(lambda x: jnp.sum(x))(np.array([1.0, 2.0]))",
        "jax.grad(lambda x: x * 2)(np.float32(1.0))",
        "jax.grad(lambda x: x * 2)(True)",
        "jax.grad(lambda x: x * 2)(1j)",
        # complex inputs
        "jax.grad(jnp.exp, holomorphic=True)(1.0 + 1.0j)",
        "jax.grad(jnp.log, holomorphic=True)(jnp.complex64(-1.0 + 0.0j))",
        "jax.grad(jnp.sqrt, holomorphic=True)(jnp.complex64(-4.0))",
        "jax.grad(jnp.sqrt, holomorphic=True)(jnp.complex64(0.0))",
        "jax.grad(lambda z: z * jnp.conj(z), holomorphic=True)(1.0 + 2.0j)",
        "jax.grad(jnp.conj, holomorphic=True)(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.abs(z) ** 2)(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.abs(z))(3.0 + 4.0j)",
        "jax.grad(lambda z: jnp.abs(z))(jnp.complex64(0.0))",
        "jax.grad(lambda z: jnp.real(z * jnp.conj(z)))(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.imag(z))(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.real(z))(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.angle(z))(1.0 + 1.0j)",
        "jax.grad(lambda z: jnp.real(jnp.exp(z)))(1.0 + 1.0j)",
        "jax.grad(lambda z: jnp.real(z ** 2))(jnp.array([1.0 + 1.0j, 2.0j])[0])",
        "jax.grad(lambda z: jnp.sum(jnp.abs(z)))(jnp.array([1.0 + 1.0j, -2.0j]))",
        "jax.grad(lambda z: jnp.linalg.norm(z))(jnp.array([3.0 + 4.0j, 0.0j]))",
        "jax.grad(lambda z: jnp.vdot(z, z).real)(jnp.array([1.0 + 1.0j, 2.0 - 1.0j]))",
        "jax.grad(lambda z: jnp.real(jnp.sum(z * z)))(jnp.array([1.0 + 1.0j, 2.0 - 1.0j]))",
        "jax.grad(lambda x: jnp.abs(x + 1j))(1.0)",
        "jax.grad(lambda x: jnp.real(jnp.exp(1j * x)))(0.5)",
        "jax.grad(lambda x: jnp.abs(jnp.fft.fft(x)).sum())(jnp.array([1.0, 2.0, 0.0, 1.0]))",
        "jax.grad(lambda x, y: jnp.abs(lax.complex(x, y)), argnums=(0, 1))(3.0, 4.0)",
        "jax.grad(lambda x, y: jnp.abs(lax.complex(x, y)), argnums=(0, 1))(0.0, 0.0)",
        "jax.jvp(jnp.conj, (1.0 + 2.0j,), (1.0 + 1.0j,))",
        "jax.jvp(lax.abs, (jnp.array([3 + 4j, -1j, 0j], jnp.complex64),), (jnp.array([1 + 1j, 2.0, 1j], jnp.complex64),))",
        "jax.grad(lax.abs)(jnp.complex64(3 + 4j))",
        "jax.grad(lambda z: lax.abs(z) ** 2)(jnp.complex64(1 - 2j))",
        "jax.vjp(lax.conj, 1.0 + 2.0j)[1](1.0 + 1.0j)",
        "jax.grad(lambda z: jnp.real(lax.conj(z) * z), holomorphic=False)(1.0 + 2.0j)",
        "jax.jvp(jnp.abs, (3.0 + 4.0j,), (1.0 + 0.0j,))",
        "jax.jvp(jnp.abs, (jnp.complex64(0.0),), (jnp.complex64(1.0),))",
        "jax.jvp(jnp.real, (1.0 + 2.0j,), (1.0 - 1.0j,))",
        "jax.jvp(lambda x: x * 1j, (2.0,), (1.0,))",
        "jax.vjp(jnp.conj, 1.0 + 2.0j)[1](1.0 + 1.0j)",
        "jax.vjp(jnp.abs, 3.0 + 4.0j)[1](1.0)",
        "jax.vjp(lambda z: z * (2.0 + 1.0j), 1.0 + 0.0j)[1](1.0 + 0.0j)",
        "jax.vjp(jnp.real, 1.0 + 2.0j)[1](1.0)",
        "jax.vjp(lambda x: lax.complex(x, 2.0 * x), 1.0)[1](1.0 + 1.0j)",
        "jax.jacfwd(lambda z: jnp.array([z * 2.0, jnp.conj(z)]), holomorphic=True)(1.0 + 1.0j)",
        "jax.jacrev(lambda z: z ** 3, holomorphic=True)(jnp.array([1.0j, 2.0 + 0.0j]))",
        "jax.jacrev(lambda z: jnp.abs(z))(jnp.array([3.0 + 4.0j]))",
        "jax.jacfwd(lambda z: jnp.abs(z))(jnp.array([3.0 + 4.0j]))",
        "jax.jacrev(lambda x: x * (1.0 + 2.0j))(jnp.array([1.0]))",
        "jax.jacfwd(lambda x: x * (1.0 + 2.0j))(jnp.array([1.0]))",
        "jax.hessian(lambda z: z ** 3, holomorphic=True)(1.0 + 1.0j)",
        "jax.hessian(lambda z: jnp.abs(z) ** 2)(1.0 + 1.0j)",
        "jax.grad(lambda z: jnp.abs(z) ** 2, holomorphic=True)(1.0 + 2.0j)",
        "jax.grad(lambda z: z ** 2)(1.0 + 2.0j)",
        "jax.grad(lambda z: (z ** 2).real, holomorphic=True)(1.0 + 2.0j)",
        "jax.grad(lambda z: jnp.abs(z) ** 2)(jnp.complex64(1.0 + 2.0j)).dtype",
        "jax.grad(lambda z: jnp.abs(jnp.sqrt(z)))(jnp.complex64(-4.0))",
        "jax.linearize(jnp.exp, 1.0 + 1.0j)[1](1.0j)",
    ]


def _linalg() -> list[str]:
    L = "jnp.linalg"
    return [
        f"jax.grad({L}.det)(SING)",
        f"jax.grad({L}.det)(jnp.zeros((2, 2)))",
        f"jax.grad({L}.det)(jnp.zeros((3, 3)))",
        f"jax.grad({L}.det)(DEG)",
        f"jax.grad({L}.det)(jnp.array([[0.0, 1.0], [1.0, 0.0]]))",
        f"jax.jvp({L}.det, (SING,), (jnp.eye(2),))",
        f"jax.grad(lambda a: {L}.slogdet(a)[1])(SING)",
        f"jax.grad(lambda a: {L}.slogdet(a)[1])(SPD)",
        f"jax.grad(lambda a: {L}.slogdet(a)[0])(SPD)",
        f"jax.grad(lambda a: {L}.slogdet(a).logabsdet)(-SPD)",
        f"jax.jvp(lambda a: {L}.slogdet(a)[1], (SPD,), (jnp.eye(2),))",
        f"jax.grad(lambda a: {L}.inv(a).sum())(SING)",
        f"jax.grad(lambda a: {L}.inv(a)[0, 1])(SPD)",
        f"jax.grad(lambda a: {L}.solve(a, jnp.ones(2)).sum())(SPD)",
        f"jax.grad(lambda b: {L}.solve(SPD, b) @ jnp.arange(2.0))(jnp.ones(2))",
        f"jax.grad(lambda a: {L}.solve(a, jnp.ones((2, 3))).sum())(SPD)",
        f"jax.grad(lambda a: {L}.pinv(a).sum())(SING)",
        f"jax.grad(lambda a: {L}.matrix_power(a, 3).sum())(SPD)",
        f"jax.grad(lambda a: {L}.matrix_power(a, -1).sum())(SPD)",
        f"jax.grad(lambda a: {L}.matrix_power(a, 0).sum())(SPD)",
        f"jax.grad(lambda a: {L}.eigh(a)[0] @ jnp.arange(1.0, 4.0))(DEG)",
        f"jax.grad(lambda a: {L}.eigvalsh(a) @ jnp.arange(1.0, 4.0))(DEG)",
        f"jax.grad(lambda a: {L}.eigvalsh(a).sum())(SPD)",
        f"jax.grad(lambda a: {L}.eigh(a)[1][0, 0])(DEG)",
        f"jax.grad(lambda a: jnp.abs({L}.eigh(a)[1][:, 2]).sum())(DEG)",
        f"jax.grad(lambda a: {L}.eigh(a)[0][0])(SPD)",
        f"jax.grad(lambda a: {L}.eigh(a, symmetrize_input=False)[0].sum())(jnp.array([[1.0, 2.0], [0.0, 1.0]]))",
        f"jax.grad(lambda a: {L}.eigh(a, UPLO='U')[0].sum())(jnp.array([[1.0, 2.0], [0.0, 1.0]]))",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False).sum())(DEG)",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False) @ jnp.arange(1.0, 4.0))(DEG)",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False).sum())(SING)",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False).sum())(jnp.zeros((2, 2)))",
        f"jax.grad(lambda a: {L}.svd(a, compute_uv=False)[0])(jnp.arange(6.0).reshape(2, 3))",
        f"jax.grad(lambda a: jnp.abs({L}.svd(a)[0][0, 0]))(jnp.array([[3.0, 1.0], [1.0, 2.0]]))",
        f"jax.grad(lambda a: {L}.svd(a)[1].sum())(SING)",
        f"jax.grad(lambda a: {L}.matrix_norm(a, ord=2))(DEG)",
        f"jax.grad(lambda a: {L}.matrix_rank(a).astype(jnp.float32))(SING)",
        f"jax.grad(lambda a: {L}.cond(a))(SPD)",
        f"jax.grad(lambda a: jnp.abs({L}.qr(a)[1]).sum())(SPD)",
        f"jax.grad(lambda a: jnp.abs({L}.qr(a)[1]).sum())(SING)",
        f"jax.grad(lambda a: {L}.qr(a, mode='r')[1, 1])(jnp.arange(1.0, 7.0).reshape(3, 2))",
        f"jax.grad(lambda a: {L}.qr(a)[0].sum())(jnp.arange(1.0, 7.0).reshape(3, 2))",
        f"jax.grad(lambda a: {L}.cholesky(a).sum())(SPD)",
        f"jax.grad(lambda a: {L}.cholesky(a).sum())(SING)",
        f"jax.grad(lambda a: {L}.cholesky(a)[1, 1])(jnp.eye(2))",
        f"jax.grad(lambda a: {L}.cholesky(a, upper=True).sum())(SPD)",
        f"jax.jvp({L}.cholesky, (SPD,), (jnp.eye(2),))",
        f"jax.grad(lambda a: jnp.trace({L}.inv(a)))(jnp.eye(2, dtype=jnp.float16).astype(jnp.float32))",
        f"jax.grad(lambda a: {L}.lstsq(a, jnp.ones(3))[0].sum())(jnp.arange(1.0, 7.0).reshape(3, 2))",
        f"jax.grad(lambda a: {L}.tensorinv(a, ind=1).sum())(SPD)",
        "jax.grad(lambda a: jsp.linalg.expm(a).sum())(jnp.zeros((2, 2)))",
        "jax.grad(lambda a: jsp.linalg.lu(a)[2].sum())(SPD)",
        "jax.grad(lambda a: jnp.abs(jsp.linalg.lu_factor(a)[0]).sum())(SING)",
        "jax.grad(lambda a: jsp.linalg.det(a))(SING)",
        "jax.grad(lambda a: jsp.linalg.solve(a, jnp.ones(2), assume_a='pos').sum())(SPD)",
        "jax.grad(lambda a: jsp.linalg.cho_solve((jsp.linalg.cholesky(a, lower=True), True), jnp.ones(2)).sum())(SPD)",
        f"jax.hessian({L}.det)(SPD)",
        f"jax.jacfwd({L}.inv)(SPD)",
        f"jax.jacrev({L}.inv)(SPD)",
        f"jax.jacrev(lambda a: {L}.eigvalsh(a))(DEG)",
        f"jax.grad({L}.det)(SPD.astype(jnp.float16))",
        f"jax.grad(lambda a: {L}.det(a))(jnp.array([[1.0 + 1j, 0.0], [0.0, 1.0]]))",
        f"jax.grad(lambda a: {L}.det(a), holomorphic=True)(jnp.array([[1.0 + 1j, 2.0], [0.0, 1.0]]))",
        f"jax.grad(lambda a: {L}.slogdet(a)[1])(jnp.array([[1.0 + 1j, 0.0], [0.0, 2.0]]))",
        f"jax.grad(lambda a: {L}.eigvalsh(a).sum())(jnp.array([[2.0, 1j], [-1j, 2.0]]))",
    ]


def _custom() -> list[str]:
    return [
        "jax.grad(ad_safe_log)(0.0)",
        "jax.grad(ad_safe_log)(2.0)",
        "jax.vmap(jax.grad(ad_safe_log))(jnp.array([0.0, -1.0, 4.0]))",
        "jax.jvp(ad_safe_log, (jnp.array([0.0, 2.0]),), (jnp.ones(2),))",
        "jax.jacrev(ad_safe_log)(jnp.array([0.0, 2.0]))",
        "jax.grad(jax.grad(ad_safe_log))(2.0)",
        "jax.grad(lambda x: ad_scaled(2.0, x))(0.0)",
        "jax.grad(lambda x: ad_scaled(3, x))(0.5)",
        "jax.jvp(lambda x: ad_scaled(2.0, x), (0.0,), (1.0,))",
        "jax.vmap(jax.grad(lambda x: ad_scaled(2.0, x)))(jnp.arange(3.0))",
        "jax.jit(jax.grad(lambda x: ad_scaled(2.0, x)))(1.0)",
        "jax.grad(lambda x: ad_clipgrad(x, 0.5) * 10.0)(3.0)",
        "jax.grad(lambda x: ad_clipgrad(x, 1.0).sum())(jnp.ones(3))",
        "jax.grad(lambda x: (ad_clipgrad(x, 0.5) * jnp.array([-10.0, 0.1])).sum())(jnp.ones(2))",
        "jax.jit(jax.grad(lambda x: ad_clipgrad(x, 0.5) * 10.0))(3.0)",
        "jax.vmap(jax.grad(lambda x: ad_clipgrad(x, 0.5) * 10.0))(jnp.arange(3.0))",
        "jax.jvp(lambda x: ad_clipgrad(x, 0.5), (1.0,), (1.0,))",
        "jax.grad(ad_twice, argnums=(0, 1))(2.0, 3.0)",
        "jax.grad(ad_twice)(2.0, 3)",
        "jax.grad(ad_twice, argnums=1)(2.0, 3.0)",
        "jax.value_and_grad(lambda x: ad_twice(x, x))(3.0)",
        "jax.grad(ad_badbwd)(1.0)",
        "jax.jvp(ad_inttan, (jnp.float32(1.0),), (jnp.float32(1.0),))",
        "jax.grad(lambda x: ad_twice(lax.stop_gradient(x), x))(2.0)",
        "jax.grad(lambda x: jax.grad(ad_twice)(x, 3.0))(2.0)",
        # stop_gradient inside
        "jax.grad(lambda x: lax.stop_gradient(x ** 2) + x)(3.0)",
        "jax.grad(lambda x: x * lax.stop_gradient(jnp.log(x)))(0.0)",
        "jax.grad(lambda x: jnp.sqrt(lax.stop_gradient(x)) * x)(0.0)",
        "jax.grad(lambda d: lax.stop_gradient(d)['a'] * d['b'], allow_int=True)({'a': 2.0, 'b': 3.0})",
        "jax.grad(lambda x: jax.nn.softmax(lax.stop_gradient(x))[0] * x[0])(jnp.zeros(2))",
        "jax.hessian(lambda x: lax.stop_gradient(x) * x ** 2)(2.0)",
        "jax.jvp(lax.stop_gradient, (2.0,), (1.0,))",
        "jax.jvp(lax.stop_gradient, (jnp.arange(2),), (np.zeros(2, jax.dtypes.float0),))",
        "jax.grad(lambda x: lax.stop_gradient(x).sum())(jnp.ones(2))",
        "jax.grad(lambda x: jnp.sum(x - lax.stop_gradient(x) + lax.stop_gradient(jnp.round(x))))(jnp.array([0.4, 1.6]))",
        # has_aux and argnums tuples
        "jax.grad(lambda x, y: (x * y, {'x': x, 'y': y}), argnums=(0, 1), has_aux=True)(2.0, 3.0)",
        "jax.grad(lambda x: (jnp.sqrt(x), jnp.sqrt(x)), has_aux=True)(0.0)",
        "jax.grad(lambda x: (x ** 2, lax.stop_gradient(x)), has_aux=True)(1.0)",
        "jax.value_and_grad(lambda x, y: (x * y, None), argnums=1, has_aux=True)(2.0, 3.0)",
        "jax.jacrev(lambda x: (x ** 2, x.sum()), has_aux=True)(jnp.array([0.0, 2.0]))",
        "jax.jvp(lambda x: (x ** 2, jnp.int32(1)), (2.0,), (1.0,), has_aux=True)",
        "jax.vjp(lambda x, y: (x * y, x), 2.0, 3.0, has_aux=True)[1](1.0)",
        "jax.linearize(lambda x: jnp.sqrt(x), 0.0)[1](1.0)",
        "jax.linearize(lambda x: jnp.abs(x), jnp.array([0.0, -0.0, 2.0]))[1](jnp.ones(3))",
        "jax.grad(lambda a, b, c: a * b + c, argnums=(2, 0))(1.0, 2.0, 3.0)",
        "jax.jacfwd(lambda a, b: a * b, argnums=(1,))(2.0, jnp.arange(2.0))",
        "jax.hessian(lambda a, b: a ** 2 * b, argnums=(0, 1))(1.0, 2.0)",
        "jax.grad(lambda a, b: a * b, argnums=(0, 1))(jnp.float16(2.0), 3.0)",
        "jax.grad(lambda a, b: a * b, argnums=(0, 1))(jnp.float16(2.0), jnp.bfloat16(3.0))",
        "jax.grad(lambda x: jnp.sum(x ** 2), reduce_axes=('batch',))(jnp.ones(2))",
    ]


def _dtypes() -> list[str]:
    c = []
    for x in (
        "1.0",
        "jnp.float16(1.0)",
        "jnp.bfloat16(1.0)",
        "jnp.float64(1.0)",
        "np.float64(1.0)",
        "jnp.array([1.0])",
    ):
        c += [
            f"jax.grad(lambda x: jnp.sum(x * jnp.float32(3.0)))({x})",
            f"jax.jvp(lambda x: x * 2, ({x},), ({x},))",
            f"jax.vjp(lambda x: x * 2, {x})[1]({x})",
        ]
    c += [
        "jax.grad(lambda x: x.astype(jnp.float16).astype(jnp.float32) ** 2)(jnp.float32(3.0))",
        "jax.grad(lambda x: (x.astype(jnp.bfloat16) * 3).astype(jnp.float32))(1.0)",
        "jax.grad(lambda x: (x * jnp.float16(3)).astype(jnp.float32))(jnp.float32(1.0))",
        "jax.grad(lambda x: jnp.float16(3) * x)(1.0)",
        "jax.grad(lambda x: jnp.sum(jnp.sqrt(x)))(jnp.array([0.0, 4.0], jnp.float16))",
        "jax.grad(lambda x: jnp.sum(jnp.exp(x)))(jnp.array([11.0, 12.0], jnp.float16))",
        "jax.grad(lambda x: jnp.sum(x ** 2))(jnp.array([300.0], jnp.float16))",
        "jax.grad(lambda x: jnp.mean(x))(jnp.ones(3, jnp.bfloat16))",
        "jax.grad(lambda x: jnp.linalg.norm(x))(jnp.ones(3, jnp.bfloat16))",
        "jax.grad(lambda x: jax.nn.logsumexp(x))(jnp.zeros(3, jnp.float16))",
        "jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.zeros(3, jnp.bfloat16))",
        "jax.grad(lambda x: jnp.sum(x * 1))(jnp.ones(2, jnp.float16))",
        "jax.grad(lambda x: jnp.sum(x) * 2.0)(jnp.ones(2, jnp.bfloat16))",
        "jax.jacfwd(lambda x: x * 2.0)(jnp.ones(2, jnp.float16))",
        "jax.jacrev(lambda x: x.astype(jnp.float32))(jnp.ones(2, jnp.float16))",
        "jax.jacfwd(lambda x: x.astype(jnp.float16))(jnp.ones(2))",
        "jax.hessian(lambda x: jnp.sum(x ** 3))(jnp.ones(2, jnp.float16))",
        "jax.hessian(lambda x: x ** 3)(2.0)",
        "jax.hessian(lambda x: x ** 3)(jnp.bfloat16(2.0))",
        "jax.jvp(jnp.sin, (1.0,), (jnp.float32(1.0),))",
        "jax.jvp(jnp.sin, (jnp.float32(1.0),), (1.0,))",
        "jax.jvp(lambda x: x + 1, (jnp.float16(1.0),), (jnp.float16(1.0),))",
        "jax.vjp(lambda x: x + 1.0, jnp.bfloat16(1.0))[1](jnp.bfloat16(1.0))",
        "jax.vjp(lambda x: x.astype(jnp.float16), 1.0)[1](jnp.float16(1.0))",
        "jax.vjp(lambda x: x * 2, 1.0)[1](jnp.float32(1.0))",
        "jax.linearize(lambda x: x * 2, 1.0)[1](1.0)",
        "jax.linearize(lambda x: x * 2, jnp.float16(1.0))[1](jnp.float16(1.0))",
        "jax.value_and_grad(lambda x: x * 2)(1.0)",
        "jax.value_and_grad(lambda x: jnp.sum(x))(jnp.ones(2, jnp.float16))",
        "jax.grad(lambda x: jnp.where(True, x, 1))(2.0)",
        "jax.grad(lambda x: jnp.maximum(x, 0))(2.0)",
        "jax.grad(lambda x: jnp.clip(x, 0, 1))(0.5)",
        "jax.grad(lambda x: jnp.float32(2.0) * x)(jnp.float16(1.0))",
        "jax.grad(lambda x: x ** jnp.float32(2.0))(jnp.float16(3.0))",
        "jax.grad(lambda x: jnp.dot(x, jnp.ones(2)))(jnp.ones(2, jnp.float16))",
        "jax.grad(lambda x: jnp.sum(x, dtype=jnp.float32))(jnp.ones(2, jnp.float16))",
        "jax.grad(lambda x: jnp.mean(x, dtype=jnp.float32))(jnp.ones(2, jnp.bfloat16))",
        "jax.grad(lambda x: jnp.cumsum(x, dtype=jnp.float32)[-1])(jnp.ones(2, jnp.float16))",
        "jax.grad(lambda x: lax.reduce_precision(x, 8, 7))(1.0)",
        "jax.grad(lambda x: lax.reduce_precision(x, 5, 10))(jnp.float32(65504.0 * 2))",
        "jax.grad(lambda x: jnp.array([x, 2.0]).sum())(1.0)",
        "jax.grad(lambda x: jnp.asarray(x).sum())(1.0)",
        "jax.grad(lambda x: jnp.stack([x, jnp.float16(1)]).sum())(1.0)",
        "jax.grad(lambda x: jnp.concatenate([x, jnp.ones(1, jnp.float16)]).sum())(jnp.ones(1))",
        "jax.grad(lambda x: jnp.full((2,), x).sum())(1.0)",
        "jax.grad(lambda x: jnp.zeros_like(x).sum() + x)(1.0)",
        "jax.grad(lambda x: jnp.ones_like(x) @ jnp.ones(2))(jnp.ones(2))",
        "jax.grad(lambda x: jnp.eye(2, dtype=jnp.float16).sum() * x)(1.0)",
    ]
    return c


def cases() -> list[str]:
    return (
        _elementwise()
        + _binary()
        + _reductions()
        + _order()
        + _cumulative()
        + _indexing()
        + _ints_complex()
        + _linalg()
        + _custom()
        + _dtypes()
    )
