"""The cases of `test_shared_traces.py`, shared with `record_shared_traces.py`: how many times
`make_jaxpr`, `eval_shape`, `jit` and `jit(f).trace` trace one Python function between them
(JAX's `make_jaxpr` and `eval_shape` are `jit(f).trace`, so they share `jit`'s trace cache:
same function object, static arguments and abstract values, one trace). Each case is a function
of a namespace `m` (`m.jax`, `m.jnp`) and a fresh function `f(x, n=2)` that counts its traces;
it runs the calls, and the table records the count. Neither this table nor the test imports
JAX."""

import functools

import numpy as np

X = np.ones(3, np.float32)


def cases():
    """{name: scenario(m, f)}."""

    def both(stage, call):
        return lambda m, f: (stage(m, f), call(m, f))

    def make(m, f):
        return m.jax.make_jaxpr(f)(m.jnp.ones(3))

    def jit(m, f):
        return m.jax.jit(f)(m.jnp.ones(3))

    c = {}
    c["make_jaxpr_then_jit"] = both(make, jit)
    c["jit_then_make_jaxpr"] = both(jit, make)
    c["make_jaxpr_twice"] = both(make, make)
    c["make_jaxpr_then_eval_shape"] = both(make, lambda m, f: m.jax.eval_shape(f, m.jnp.ones(3)))
    c["eval_shape_then_jit"] = both(lambda m, f: m.jax.eval_shape(f, m.jnp.ones(3)), jit)
    c["trace_then_make_jaxpr"] = both(lambda m, f: m.jax.jit(f).trace(m.jnp.ones(3)), make)
    c["make_jaxpr_then_lower"] = both(make, lambda m, f: m.jax.jit(f).lower(m.jnp.ones(3)))
    c["numpy_then_array"] = both(lambda m, f: m.jax.make_jaxpr(f)(X), jit)
    c["shape_dtype_struct"] = both(
        lambda m, f: m.jax.make_jaxpr(f)(m.jax.ShapeDtypeStruct((3,), np.float32)), jit
    )
    c["python_scalar"] = both(lambda m, f: m.jax.make_jaxpr(f)(1.0), lambda m, f: m.jax.jit(f)(1.0))
    c["other_dtype"] = both(make, lambda m, f: m.jax.jit(f)(m.jnp.ones(3, np.int32)))
    c["other_shape"] = both(make, lambda m, f: m.jax.jit(f)(m.jnp.ones(4)))
    c["weak_vs_strong"] = both(
        lambda m, f: m.jax.make_jaxpr(f)(1.0), lambda m, f: m.jax.jit(f)(m.jnp.float32(1))
    )
    c["keyword_argument"] = both(
        lambda m, f: m.jax.make_jaxpr(f)(X, n=X), lambda m, f: m.jax.jit(f)(X, n=X)
    )
    c["static_argnums"] = both(
        lambda m, f: m.jax.make_jaxpr(f, static_argnums=1)(X, 3),
        lambda m, f: m.jax.jit(f, static_argnums=1)(X, 3),
    )
    c["static_other_value"] = both(
        lambda m, f: m.jax.make_jaxpr(f, static_argnums=1)(X, 3),
        lambda m, f: m.jax.jit(f, static_argnums=1)(X, 4),
    )
    c["static_vs_dynamic"] = both(
        lambda m, f: m.jax.make_jaxpr(f, static_argnums=1)(X, 3),
        lambda m, f: m.jax.jit(f)(X, 3),
    )
    c["static_argnames_keyword"] = both(
        lambda m, f: m.jax.make_jaxpr(f, static_argnums=1)(X, n=3),
        lambda m, f: m.jax.jit(f, static_argnames="n")(X, n=3),
    )
    c["return_shape"] = both(lambda m, f: m.jax.make_jaxpr(f, return_shape=True)(X), jit)
    c["axis_env"] = both(lambda m, f: m.jax.make_jaxpr(f, axis_env=[("i", 2)])(X), jit)
    c["donate_argnums"] = both(make, lambda m, f: m.jax.jit(f, donate_argnums=0)(m.jnp.ones(3)))
    c["pytree_argument"] = both(
        lambda m, f: m.jax.make_jaxpr(lambda d: f(d["a"]))({"a": X}), jit
    )  # another function: two traces
    c["partial_objects"] = both(
        lambda m, f: m.jax.make_jaxpr(functools.partial(f))(X),
        lambda m, f: m.jax.jit(functools.partial(f))(X),
    )
    c["grad_after"] = both(lambda m, f: m.jax.make_jaxpr(f)(1.0), lambda m, f: m.jax.grad(f)(1.0))
    c["make_jaxpr_of_jit_then_jit"] = both(
        lambda m, f: m.jax.make_jaxpr(m.jax.jit(f))(X), lambda m, f: m.jax.jit(f)(X)
    )
    c["x64_then_x32"] = both(
        lambda m, f: _with_x64(m, lambda: m.jax.make_jaxpr(f)(X)), lambda m, f: m.jax.jit(f)(X)
    )
    return c


def _with_x64(m, thunk):
    with m.jax.enable_x64(True):
        return thunk()


def counting(m):
    """A fresh function `f(x, n=2)` and the list its traces append to."""
    traces = []

    def f(x, n=2):
        traces.append(1)
        return m.jnp.sin(x) * n

    return f, traces
