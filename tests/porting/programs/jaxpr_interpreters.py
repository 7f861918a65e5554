"""Jaxprs: what `make_jaxpr` and `jit(...).trace(...)` print for functions of our own, what a
`ClosedJaxpr` holds, and interpreters that walk one (an evaluator by `Primitive.bind`, and an
inverting interpreter composed with `jit`, `vmap` and `grad`).

Checked (the whole printed text unless noted, variable ids numbered in order of appearance):
- `make_jaxpr` of elementwise math with a reduction, of Python control flow and dict/tuple
  arguments (traced away), `lax.cond` with an operand, `lax.switch` on an int index,
  `fori_loop` (a `while` with a constant), `scan` with a tuple carry and a closed-over scalar,
  a nested `jit` closing over an argument; `jit(f).trace(x).jaxpr`;
- a `ClosedJaxpr`'s `jaxpr.invars`/`outvars` (an input returned as is)/`constvars` (reprs), `eqns` with
  `primitive`/`params`/`invars` (a `jax.extend.core.Literal`), `consts`;
- an evaluator over `eqns` by `bind` (`multiple_results`, `jax._src.util.safe_map`), its results for a cond-free and a
  `scan` jaxpr against the functions';
- an inverse interpreter keyed by `lax.exp_p`/`lax.log_p`/`lax.tanh_p`: its values, its
  `make_jaxpr` text, `jit(vmap(grad(inverse)))` and its error for a primitive without an
  inverse.
"""

import re

from tests.porting import printed


def run():
    cells = printed.Cells()
    with cells:
        shown = _cells(cells)
    return {"printed": cells.printed, "shown": shown}


def _cells(cells):
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jax._src.util import safe_map
    from jax.extend import core

    shown = {}

    def mark(cell):
        ids = {}
        text = re.sub(
            r"Var\(id=(\d+)\)",
            lambda m: f"Var(id={ids.setdefault(m.group(1), len(ids))})",
            cells.take(),
        )
        text = re.sub(r"Literal\(Typed\w+\(([^,]+), dtype=\w+\)\)", r"Literal(\1)", text)
        cells.printed[cell] = text.splitlines()

    def energy(u, v):
        return jnp.sum(jnp.cos(u) * 2.0 - v)

    print(jax.make_jaxpr(energy)(jnp.ones(4), jnp.zeros(4)))
    mark("energy")

    use = {"a": True, "b": False, "c": True}

    def unrolled(params, x):
        for name in sorted(params):  # Python control flow: traced away
            if use[name]:
                scale, shift = params[name]
                x = x * scale + shift
        return x

    params = {k: (jnp.ones(3), jnp.float32(0.5)) for k in use}
    print(jax.make_jaxpr(unrolled)(params, jnp.ones(3)))
    mark("unrolled")

    def pick(x):
        return lax.cond(x < 1.0, lambda y: y * 4.0, lambda y: y - 1.0, x)

    print(jax.make_jaxpr(pick)(2.0))
    mark("cond")

    def branch(i, x):
        return lax.switch(i, [lambda y: y * 2.0, lambda y: y - 5.0], x)

    print(jax.make_jaxpr(branch)(0, 1.0))
    mark("switch")

    def accumulate(x, n):
        twos = jnp.full(x.shape, 2.0)
        return lax.fori_loop(0, n, lambda i, acc: acc * twos - x, x)

    print(jax.make_jaxpr(accumulate)(np.ones(4, np.float32), 3))
    mark("fori_loop")

    def running(xs, shift):
        def body(carry, x):
            total, count = carry
            return (total + x * shift, count + 1), total

        return lax.scan(body, (0.0, 0), xs)

    print(jax.make_jaxpr(running)(np.ones(5, np.float32), 0.5))
    mark("scan")

    def outer(x):
        @jax.jit
        def scaled(y):
            return y * x

        return scaled(x + 1.0) - x

    print(jax.make_jaxpr(outer)(3.0))
    mark("nested_jit")

    print(jax.jit(lambda x: jnp.exp(x) * 2.0).trace(1.0).jaxpr)
    mark("trace")

    # what a ClosedJaxpr holds
    closed = jax.make_jaxpr(lambda k: (k + 3 - 1, k))(2)
    jaxpr = closed.jaxpr
    print("invars", jaxpr.invars)
    print("outvars", jaxpr.outvars)
    print("constvars", jaxpr.constvars, closed.consts)
    for eqn in jaxpr.eqns:
        print(eqn.primitive, eqn.primitive.name, eqn.params, eqn.invars, eqn.outvars)
        print([type(v) is core.Literal for v in eqn.invars])
    mark("closed")

    def evaluate(jaxpr, consts, *args):
        env = {}

        def read(v):
            return v.val if isinstance(v, core.Literal) else env[v]

        env.update(zip([*jaxpr.constvars, *jaxpr.invars], [*consts, *args]))
        for eqn in jaxpr.eqns:
            result = eqn.primitive.bind(*safe_map(read, eqn.invars), **eqn.params)
            outs = result if eqn.primitive.multiple_results else [result]
            env.update(zip(eqn.outvars, outs))
        return safe_map(read, jaxpr.outvars)

    u, v = jnp.array([0.5, 1.0, -2.0, 3.0]), jnp.array([1.0, 2.0, 3.0, 4.0])
    closed = jax.make_jaxpr(energy)(u, v)
    shown["evaluate"] = [evaluate(closed.jaxpr, closed.consts, u, v), energy(u, v)]
    xs = jnp.arange(5.0)
    closed = jax.make_jaxpr(running)(xs, 0.5)
    shown["evaluate_scan"] = [evaluate(closed.jaxpr, closed.consts, xs, 0.5), running(xs, 0.5)]

    inverses = {lax.exp_p: jnp.log, lax.log_p: jnp.exp, lax.tanh_p: jnp.arctanh}

    def inverse(fun):
        def inverted(y):
            closed = jax.make_jaxpr(fun)(y)
            env = dict(zip(closed.jaxpr.outvars, [y]))
            for eqn in reversed(closed.jaxpr.eqns):
                if eqn.primitive not in inverses:
                    raise NotImplementedError(f"no inverse for {eqn.primitive}")
                (out,) = eqn.outvars
                env[eqn.invars[0]] = inverses[eqn.primitive](env[out])
            return env[closed.jaxpr.invars[0]]

        return inverted

    def squash(x):
        return jnp.log(jnp.tanh(jnp.exp(x)))

    def chain(x):
        return jnp.tanh(jnp.log(x))

    shown["inverse"] = [inverse(squash)(squash(0.3)), inverse(chain)(chain(jnp.array([0.2, 1.5])))]
    print(jax.make_jaxpr(inverse(chain))(0.5))
    mark("inverse_jaxpr")
    shown["inverse_grads"] = jax.jit(jax.vmap(jax.grad(inverse(chain))))(
        jnp.array([-0.5, 0.1, 0.6])
    )
    try:
        inverse(lambda x: jnp.exp(x) * 2.0)(1.0)
    except NotImplementedError as e:
        shown["no_inverse"] = str(e)
    return shown
