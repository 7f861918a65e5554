"""Staging with `jit`: tracing, caching, methods, ahead-of-time compilation and donation.

Checks what JAX's guides on just-in-time and ahead-of-time compilation and buffer donation describe,
on functions of our own: `make_jaxpr` texts of a function whose Python side effects (a list append,
a `print` of the tracer) happen once while tracing, and of a rank-dependent Python branch traced
away; `jit(f).trace(...).jaxpr`; jitted and eager results equal; `jit` called in a loop on a fresh
`partial`, a fresh lambda and one function; `jit` on a method (the error naming `self`), through a
static helper, with `self` static (the stale cache after a mutation, then `__hash__`/`__eq__`), and
with the class registered as a pytree (mutation seen); global values captured at trace time; a
product of random matrices shown summarized. AOT: `jit(f).trace` with Python scalars and with
`ShapeDtypeStruct`s, `.lower()` (its text a string), `.compile()`, `cost_analysis()['flops']`, calls
of the compiled function and the argument-mismatch errors naming each argument, static arguments at
trace time (a `ShapeDtypeStruct` given as one), `vmap` of a jitted function and the errors of
`vmap`, `grad` and `jit` of a compiled one. Donation: `donate_argnums` of one argument and of a
list, `is_deleted()`, the error of using a donated array, the warnings of donations that cannot be
used (two donated inputs for one output, a shape unlike the output's) and `donate_argnames`.
"""

import warnings
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _try(errors, f, *args):
    try:
        printed.show(f(*args))
    except Exception as e:  # noqa: BLE001
        printed.error(errors, e)
        # numbax's first line goes on to name the fix: the first sentence compared
        errors[-1][1] = errors[-1][1].split(". ")[0]
        for line in str(e).splitlines():  # an AOT mismatch's lines naming the arguments
            if line.startswith("Argument "):
                print(line)


def _tracing(out, mark):
    seen = []

    def make_scaled_log():
        def scaled_log(x):
            seen.append(x)
            print("tracing, x is", x)
            return jnp.log1p(x) * 0.5

        return scaled_log

    print(jax.make_jaxpr(make_scaled_log())(2.0))
    print(len(seen), seen[0])
    # another function object: JAX's `jit` would reuse the trace `make_jaxpr` made of the same
    # one (numbax's `make_jaxpr` traces apart from `jit`'s cache)
    f = jax.jit(make_scaled_log())
    print(f(1.0), f(3.0), len(seen))  # traced once more, for the first call

    def maybe_normalize(m):
        if m.ndim == 2:
            return m / m.sum(axis=1, keepdims=True)
        return m

    print(jax.make_jaxpr(maybe_normalize)(jnp.arange(4)))
    print(jax.jit(maybe_normalize).trace(jnp.ones((2, 3))).jaxpr)
    mark("trace")

    def softplus_gap(x, beta=2.0):
        return jnp.where(x > 0, x, jnp.log1p(jnp.exp(beta * x)) / beta)

    x = 0.75 * jnp.arange(-3.0, 4.0)
    out["eager_vs_jit"] = [softplus_gap(x), jax.jit(softplus_gap)(x).block_until_ready()]

    def bump(i):
        return i + 2

    def loop(make, n):
        i = 0
        while i < n:
            i = make()(i)
        return i

    out["loops"] = [
        loop(lambda: jax.jit(partial(bump)), 9),
        loop(lambda: jax.jit(lambda v: bump(v)), 9),
        loop(lambda: jax.jit(bump), 9),
    ]

    offset = 1.0

    def shifted(x):
        return x + offset

    shifted_jit = jax.jit(shifted)
    first = shifted_jit(1.0)
    offset = 100.0
    out["captured"] = [first, shifted_jit(1.0), shifted_jit(jnp.ones(2))]
    mark("cache")

    w = jax.random.uniform(jax.random.key(4), (40, 40))
    product = jnp.dot(w, w.T) - 2.0  # dispatched asynchronously; its repr waits for it
    printed.show(product)
    out["product"] = product.block_until_ready()
    mark("dispatch")


def _methods(errors, mark):
    class Gain:
        def __init__(self, k, on):
            self.k = k
            self.on = on

        @jax.jit
        def apply(self, v):
            return self.k * v if self.on else v

    _try(errors, Gain(3, True).apply, 2)

    @partial(jax.jit, static_argnums=0)
    def _apply(on, k, v):
        return k * v if on else v

    class Helper(Gain):
        def apply(self, v):
            return _apply(self.on, self.k, v)

    print(Helper(3, True).apply(2), Helper(3, False).apply(2))

    class StaticSelf(Gain):
        @partial(jax.jit, static_argnums=0)
        def apply(self, v):
            return self.k * v if self.on else v

    g = StaticSelf(3, True)
    print(g.apply(2))
    g.on = False
    print(g.apply(2))  # stale: the cache keys on the object, not on its fields

    class Hashed(StaticSelf):
        def __hash__(self):
            return hash((self.k, self.on))

        def __eq__(self, other):
            return isinstance(other, Hashed) and (self.k, self.on) == (other.k, other.on)

    print(Hashed(3, True).apply(2), Hashed(3, True).apply(5), Hashed(3, False).apply(2))

    class Node(Gain):
        pass

    jax.tree_util.register_pytree_node(
        Node, lambda n: ((n.k,), {"on": n.on}), lambda aux, kids: Node(*kids, **aux)
    )
    n = Node(3, True)
    print(n.apply(2))
    n.on = False
    print(n.apply(2))
    print(Node(jnp.array(4), True).apply(2))
    mark("methods")


def _aot(errors, mark):
    def affine(a, b):
        return 3 * a - b

    traced = jax.jit(affine).trace(5, 2)
    print(traced.jaxpr)
    lowered = traced.lower()
    print(isinstance(lowered.as_text(), str))
    compiled = lowered.compile()
    printed.show(compiled.cost_analysis()["flops"])
    printed.show(compiled(5, 2))
    printed.show(compiled(7, 1))

    spec = jax.ShapeDtypeStruct((), jnp.dtype("int32"))
    from_specs = jax.jit(affine).trace(spec, spec).lower().compile()
    printed.show(from_specs(4, 4))
    _try(errors, from_specs, jnp.arange(2), jnp.arange(2))
    _try(errors, from_specs, jnp.float32(1.0), 2)

    static_a = jax.jit(affine, static_argnums=0)
    print(isinstance(static_a.trace(10, 1).lower().as_text(), str))
    printed.show(static_a.trace(10, 1).lower().compile()(4))
    _try(errors, static_a.trace, spec, spec)
    printed.show(static_a.trace(2, spec).lower().compile()(9))
    mark("aot")

    def row_sums(m):
        assert m.shape == (2, 3)
        return m @ jnp.ones(3)

    m = jnp.arange(6.0).reshape(2, 3)
    ms = jnp.arange(24.0).reshape(4, 2, 3)
    aot = jax.jit(row_sums).trace(m).lower().compile()
    printed.show(jax.vmap(jax.jit(row_sums))(ms))
    _try(errors, jax.vmap(aot), ms)
    _try(errors, jax.grad(lambda m: aot(m).sum()), m)
    _try(errors, jax.jit(aot), m)
    mark("aot_transforms")


def _donation(out, mark):
    def combine(p, q):
        return p * 2 + q

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p, q = jax.device_put(np.ones((2, 2))), jax.device_put(np.full((2, 2), 3.0))
        r = jax.jit(combine, donate_argnums=1)(p, q)
        out["donate_one"] = [r, p.is_deleted(), q.is_deleted()]
        try:
            q + 1
        except RuntimeError as e:
            print(str(e).split(". ")[0].rstrip("."))  # its first sentence

        parts = [jax.device_put(np.zeros(3)), jax.device_put(np.ones((2, 1)))]
        new = jax.jit(lambda xs: [x - 1 for x in xs], donate_argnums=0)(parts)
        out["donate_list"] = [new, [x.is_deleted() for x in parts]]

        p, q = jax.device_put(np.ones((2, 2))), jax.device_put(np.ones((2, 2)))
        out["donate_both"] = jax.jit(combine, donate_argnums=(0, 1))(p, q)
        p, q = jax.device_put(np.ones((2, 2))), jax.device_put(np.ones((1, 2)))
        out["donate_broadcast"] = [jax.jit(combine, donate_argnums=1)(p, q), q.is_deleted()]
        p, q = jax.device_put(np.ones(2)), jax.device_put(np.ones(2))
        out["donate_name"] = [
            jax.jit(combine, donate_argnames="p")(p, q=q),
            p.is_deleted(),
            q.is_deleted(),
        ]
    for w in caught:
        print(issubclass(w.category, UserWarning), str(w.message))
    mark("donation")


def _cells(out, errors, mark):
    _tracing(out, mark)
    _methods(errors, mark)
    _aot(errors, mark)
    _donation(out, mark)
