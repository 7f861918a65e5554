"""`jax.custom_jvp` and `jax.custom_vjp` on functions of our own: rules that fix a NaN or an
infinite derivative, rules per argument, functions as non-differentiable arguments, pytrees,
Python control flow inside rules, when JAX calls the function and its rules (their prints, in
order), and an implicit-function VJP for a `while_loop` fixed point.

Checked (values, printed text with numbers apart, errors by built-in class and first line):
- `custom_jvp` by `defjvp` (as a decorator) and by `defjvps` (one rule per argument, `None`
  for an argument without one): eager, `jit`, `jvp`, `grad` (`argnums` 0 and 1), `grad` of
  `grad`, `vmap(jit(grad))`; the naive functions' NaN/inf gradients beside them and
  `make_jaxpr(grad(...))` of the naive softplus;
- `custom_vjp` with residuals, `None` cotangents for bounds (gradient clipping), a `NamedTuple`
  argument and dict output, `nondiff_argnums` holding functions (`custom_jvp` with two of
  them, `custom_vjp` with one);
- the prints of a function and its rules under eager calls, `vmap`, `jit`, `jvp`, `grad`,
  `vjp` and the VJP's call; `jvp` of a `custom_vjp` function's error;
- a Newton fixed point in a `while_loop` with `custom_vjp(nondiff_argnums=(0,))` and an
  implicit backward fixed point: values, `jit(vmap)`, `grad` and `grad(grad)`.
"""

from tests.porting import printed
from tests.porting.printed import error as _error


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    from functools import partial
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    from jax import lax

    def naive_softplus(x):
        return jnp.log(1.0 + jnp.exp(x))

    @jax.custom_jvp
    def softplus(x):
        return jnp.log(1.0 + jnp.exp(x))

    @softplus.defjvp
    def _softplus_jvp(primals, tangents):
        (x,), (dx,) = primals, tangents
        return softplus(x), dx * jax.nn.sigmoid(x)

    grid = jnp.array([-2.0, 0.0, 1.5])
    print(jax.grad(naive_softplus)(90.0), jax.grad(softplus)(90.0))
    print(jax.jit(softplus)(1.5), jax.jit(jax.grad(softplus))(1.5))
    print(jax.vmap(jax.jit(jax.grad(softplus)))(grid))
    print(jax.grad(jax.grad(softplus))(0.5))
    mark("softplus")
    print(jax.make_jaxpr(jax.grad(naive_softplus))(2.0))
    mark("naive_jaxpr")

    def naive_pow(x):
        return x * jnp.sqrt(x)

    pow_rule = jax.custom_jvp(naive_pow)
    pow_rule.defjvps(lambda dx, ans, x: 1.5 * jnp.sqrt(x) * dx)
    print(jax.grad(naive_pow)(0.0), jax.grad(pow_rule)(0.0), jax.grad(pow_rule)(4.0))
    mark("pow")

    @jax.custom_jvp
    def weighted(x, y):
        return jnp.cos(x) * y**2

    weighted.defjvps(
        lambda dx, ans, x, y: -jnp.sin(x) * y**2 * dx,
        lambda dy, ans, x, y: 2.0 * jnp.cos(x) * y * dy,
    )
    primal, tangent = jax.jvp(weighted, (0.8, 1.5), (1.0, -0.5))
    print(primal, tangent)
    print(jax.grad(weighted)(0.8, 1.5), jax.grad(weighted, 1)(0.8, 1.5))
    first_only = jax.custom_jvp(lambda x, y: jnp.cos(x) * y**2)
    first_only.defjvps(lambda dx, ans, x, y: -jnp.sin(x) * y**2 * dx, None)
    print(jax.grad(first_only, 0)(0.8, 1.5), jax.grad(first_only, 1)(0.8, 1.5))
    mark("defjvps")

    @jax.custom_jvp
    def kinked(x):
        return jnp.where(x > 0, x**2, -x)

    @kinked.defjvp
    def _kinked_jvp(primals, tangents):
        (x,), (dx,) = primals, tangents
        slope = 10.0 if x > 0 else -20.0  # Python control flow on the primal value
        return kinked(x), slope * dx

    print(jax.grad(kinked)(0.5), jax.grad(kinked)(-0.5))
    mark("control_flow")

    # custom_vjp
    @jax.custom_vjp
    def bounded_grad(x, lo, hi):
        return x

    def _bounded_fwd(x, lo, hi):
        return x, (lo, hi)

    def _bounded_bwd(bounds, g):
        lo, hi = bounds
        return jnp.clip(g, lo, hi), None, None

    bounded_grad.defvjp(_bounded_fwd, _bounded_bwd)

    def steep(x):
        return 3.0 * bounded_grad(x**2, -1.0, 2.0)

    line = jnp.linspace(-2.0, 2.0, 9)
    out["clip"] = [jax.vmap(steep)(line), jax.vmap(jax.grad(steep))(line)]

    @jax.custom_vjp
    def sin_times(x, y):
        return jnp.sin(x) * y

    def _sin_times_fwd(x, y):
        return sin_times(x, y), (jnp.cos(x), jnp.sin(x), y)

    def _sin_times_bwd(res, g):
        cos_x, sin_x, y = res
        return g * cos_x * y, g * sin_x

    sin_times.defvjp(_sin_times_fwd, _sin_times_bwd)
    out["residuals"] = [jax.grad(sin_times, (0, 1))(1.2, -2.0), jax.jit(sin_times)(1.2, -2.0)]

    class Polar(NamedTuple):
        r: float
        phi: float

    @jax.custom_vjp
    def to_xy(p):
        return {"x": p.r * jnp.cos(p.phi), "y": p.r * jnp.sin(p.phi)}

    def _to_xy_fwd(p):
        return to_xy(p), p

    def _to_xy_bwd(p, g):
        dr = g["x"] * jnp.cos(p.phi) + g["y"] * jnp.sin(p.phi)
        dphi = p.r * (g["y"] * jnp.cos(p.phi) - g["x"] * jnp.sin(p.phi))
        return (Polar(dr, dphi),)

    to_xy.defvjp(_to_xy_fwd, _to_xy_bwd)

    @jax.custom_jvp
    def to_xy_jvp(p):
        return {"x": p.r * jnp.cos(p.phi), "y": p.r * jnp.sin(p.phi)}

    @to_xy_jvp.defjvp
    def _to_xy_jvp_rule(primals, tangents):
        (p,), (dp,) = primals, tangents
        dx = dp.r * jnp.cos(p.phi) - p.r * jnp.sin(p.phi) * dp.phi
        dy = dp.r * jnp.sin(p.phi) + p.r * jnp.cos(p.phi) * dp.phi
        return to_xy_jvp(p), {"x": dx, "y": dy}

    def area(fn, p):
        xy = fn(p)
        return xy["x"] * xy["y"] + xy["y"]

    p = Polar(2.0, 0.6)
    print(to_xy(p))
    print(jax.grad(partial(area, to_xy))(p))
    print(jax.grad(partial(area, to_xy_jvp))(p))
    mark("pytrees")

    @partial(jax.custom_jvp, nondiff_argnums=(0, 2))
    def compose(f, x, g):
        return f(g(x))

    @compose.defjvp
    def _compose_jvp(f, g, primals, tangents):
        (x,), (dx,) = primals, tangents
        return compose(f, x, g), 7.0 * dx

    @partial(jax.custom_vjp, nondiff_argnums=(0,))
    def apply_fn(f, x):
        return f(x)

    def _apply_fwd(f, x):
        return f(x), x

    def _apply_bwd(f, x, g):
        return (-2.0 * x * g,)

    apply_fn.defvjp(_apply_fwd, _apply_bwd)
    print(compose(jnp.exp, 0.5, lambda v: v / 2), jax.grad(compose, 1)(jnp.exp, 0.5, jnp.sin))
    print(apply_fn(jnp.tanh, 1.5), jax.grad(apply_fn, 1)(jnp.tanh, 1.5))
    mark("nondiff")

    # when the function and its rules run
    @jax.custom_jvp
    def loud(x):
        print("loud primal")
        return jnp.tanh(x)

    @loud.defjvp
    def _loud_jvp(primals, tangents):
        print("loud jvp rule")
        (x,), (dx,) = primals, tangents
        y = loud(x)
        return y, (1.0 - y**2) * dx

    print(loud(0.5))
    mark("loud_eager")
    print(jax.vmap(loud)(grid))
    mark("loud_vmap")
    print(jax.jit(loud)(0.5))
    mark("loud_jit")
    print(jax.jvp(loud, (0.5,), (2.0,)))
    mark("loud_jvp")
    print(jax.grad(loud)(0.5))
    mark("loud_grad")
    print(jax.grad(jax.grad(loud))(0.5))
    mark("loud_grad2")

    @jax.custom_vjp
    def noisy(x):
        print("noisy primal")
        return jnp.exp(-x)

    def _noisy_fwd(x):
        print("noisy fwd")
        y = noisy(x)
        return y, y

    def _noisy_bwd(y, g):
        print("noisy bwd")
        return (-y * g,)

    noisy.defvjp(_noisy_fwd, _noisy_bwd)
    print(noisy(1.0))
    mark("noisy_eager")
    print(jax.grad(noisy)(1.0))
    mark("noisy_grad")
    y, noisy_pull = jax.vjp(noisy, 1.0)
    mark("noisy_vjp")
    print(noisy_pull(3.0))
    mark("noisy_pull")
    try:
        jax.jvp(noisy, (1.0,), (1.0,))
    except Exception as e:
        _error(errors, e)
    mark("noisy_jvp")

    # a fixed point with an implicit-function VJP
    def iterate(step, a, x0):
        def keep_going(state):
            prev, cur = state
            return jnp.abs(cur - prev) > 1e-6

        def advance(state):
            _, cur = state
            return cur, step(a, cur)

        return lax.while_loop(keep_going, advance, (x0, step(a, x0)))[1]

    def newton_cbrt_step(a, x):
        return (2.0 * x + a / x**2) / 3.0

    solve = partial(jax.custom_vjp, nondiff_argnums=(0,))(iterate)

    def _solve_fwd(step, a, x0):
        x_star = solve(step, a, x0)
        return x_star, (a, x_star)

    def _solve_bwd(step, res, x_bar):
        a, x_star = res
        _, pull_a = jax.vjp(lambda a: step(a, x_star), a)
        u = solve(partial(_adjoint_step, step), (a, x_star, x_bar), x_bar)
        return pull_a(u)[0], jnp.zeros_like(x_star)

    def _adjoint_step(step, packed, u):
        a, x_star, x_bar = packed
        _, pull_x = jax.vjp(lambda x: step(a, x), x_star)
        return x_bar + pull_x(u)[0]

    solve.defvjp(_solve_fwd, _solve_bwd)

    def cbrt(a):
        return solve(newton_cbrt_step, a, a)

    out["fixed_point"] = [
        iterate(newton_cbrt_step, 27.0, 27.0),
        jax.jit(jax.vmap(cbrt))(jnp.array([1.0, 8.0, 10.0])),
        jax.grad(cbrt)(8.0),
        jax.grad(jax.grad(cbrt))(8.0),
    ]
