"""Calling back into Python from staged code: `pure_callback`, `io_callback` and
`jax.debug.callback`, on host functions of our own.

Checks what JAX's external-callbacks guides describe: Python's `print` in a jitted function
showing a tracer while `jax.debug.print` shows the value; `jax.pure_callback` of a numpy
function with `ShapeDtypeStruct.like` and `vmap_method='sequential'` eagerly, under `jit`,
`scan` and `vmap`, its JVP error, a callback whose result is unused dropped under `jit` (and
one whose result is returned run); a callback without `vmap_method` inside `lax.cond` fine per
example and `vmap`'s `NotImplementedError`; `vmap_method='expand_dims'` (one call with a
batch axis); `io_callback` drawing from a seeded numpy generator under `jit`, `vmap` (one call
per element) and `scan`, `ordered=True` under `scan` and its `vmap` error, its JVP error, an
unused `io_callback` kept under `grad`; `jax.debug.callback` under `jit`, `vmap` and `grad`;
a callback under a `jit` of an array sharded over eight devices (one call with the whole array)
and under `shard_map` (one call per shard); `scipy.special.iv` wrapped with
`vmap_method='broadcast_all'`, under `jit` and `vmap`, its JVP error, then given derivatives by
`custom_jvp` for `grad` and `hessian`.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.experimental import io_callback

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _pure(errors, mark):
    @jax.jit
    def shown_both_ways(x):
        y = x * 3
        print("print:", y)
        jax.debug.print("debug.print: {}", y)
        return y - 1

    printed.show(shown_both_ways(5))
    mark("print")

    def host_tanh(x):
        return np.tanh(x).astype(x.dtype)

    def tanh_cb(x):
        return jax.pure_callback(
            host_tanh, jax.ShapeDtypeStruct.like(x), x, vmap_method="sequential"
        )

    x = jnp.linspace(-1.0, 1.0, 4)
    printed.show(tanh_cb(x))
    printed.show(jax.jit(tanh_cb)(x))
    printed.show(jax.lax.scan(lambda c, v: (c + tanh_cb(v), c), 0.0, x))
    printed.show(jax.vmap(tanh_cb)(x.reshape(2, 2)))
    printed.attempt(errors, jax.grad(lambda v: tanh_cb(v).sum()), x)
    mark("pure_callback")

    def announce():
        print("callback ran")
        return np.float32(2.0)

    printed.show(
        jax.jit(lambda: jax.pure_callback(announce, jax.ShapeDtypeStruct((), jnp.float32)))()
    )
    mark("pure_used")

    @jax.jit
    def ignores_it():
        jax.pure_callback(announce, jax.ShapeDtypeStruct((), jnp.float32))
        return 0

    printed.show(ignores_it())
    mark("pure_unused")

    def refuse(x):
        def host(x):
            raise ValueError(f"refused {x}")

        return jax.pure_callback(host, x, x)

    def refuse_small(x):
        return jax.lax.cond(x < -5, refuse, lambda v: v * 2, x)

    printed.show([refuse_small(v) for v in jnp.arange(3)])
    printed.attempt(errors, jax.vmap(refuse_small), jnp.arange(3))

    def batched_norms(m):
        print("host got", m.shape)
        return np.linalg.norm(m, axis=-1).astype(m.dtype)

    def norm_cb(v):
        return jax.pure_callback(
            batched_norms, jax.ShapeDtypeStruct(v.shape[:-1], v.dtype), v, vmap_method="expand_dims"
        )

    printed.show(jax.vmap(norm_cb)(jnp.arange(6.0).reshape(3, 2)))
    mark("vmap_methods")


def _io(errors, mark):
    generator = np.random.default_rng(21)

    def host_noise(x):
        print(f"drawing {x.dtype}{list(x.shape)}")
        return generator.normal(size=x.shape).astype(x.dtype)

    @jax.jit
    def noise_like(x):
        return io_callback(host_noise, x, x)

    @jax.jit
    def noise_like_ordered(x):
        return io_callback(host_noise, x, x, ordered=True)

    x = jnp.zeros(3)
    printed.show(noise_like(x))
    mark("io_jit")
    printed.show(jax.vmap(noise_like)(x))
    mark("io_vmap")
    printed.attempt(errors, jax.vmap(noise_like_ordered), x)
    printed.show(jax.lax.scan(lambda c, v: (c, noise_like_ordered(v)), None, x)[1])
    mark("io_ordered")
    printed.attempt(errors, jax.grad(lambda v: noise_like(v).sum()), x)

    @jax.jit
    def greets(x):
        io_callback(lambda: print("side effect kept"), None)
        return 2 * x

    printed.show(jax.grad(greets)(1.0))
    mark("io_grad")

    def record(v):
        print("recorded", v)

    @jax.jit
    def traced(v):
        jax.debug.callback(record, v)
        return v * v

    traced(3.0)
    mark("debug_callback")
    jax.vmap(traced)(jnp.array([1.0, 2.0]))
    mark("debug_callback_vmap")
    jax.grad(traced)(3.0)
    mark("debug_callback_grad")


def _sharded(mark):
    def host_square(x):
        print("host saw", x.shape)
        return np.asarray(x) ** 2

    def square_cb(x):
        return jax.pure_callback(host_square, jax.ShapeDtypeStruct.like(x), x)

    mesh = jax.make_mesh((8,), ("d",))
    with jax.set_mesh(mesh):
        v = jax.device_put(jnp.arange(8.0), jax.P("d"))
        printed.show(jax.jit(square_cb)(v))
        mark("sharded_jit")
        printed.show(jax.shard_map(square_cb, in_specs=jax.P("d"), out_specs=jax.P("d"))(v))
    mark("shard_map")


def _special(errors, mark):
    def iv(order, z):
        order, z = jnp.asarray(order), jnp.asarray(z)
        assert jnp.issubdtype(order.dtype, jnp.integer)
        z = z.astype(jnp.result_type(float, z.dtype))
        shape = jax.ShapeDtypeStruct(jnp.broadcast_shapes(order.shape, z.shape), z.dtype)
        return jax.pure_callback(
            lambda o, s: scipy.special.iv(o, s).astype(s.dtype),
            shape,
            order,
            z,
            vmap_method="broadcast_all",
        )

    i2 = partial(iv, 2)
    z = jnp.array([0.0, 0.5, 1.5, 3.0])
    print(i2(z))
    print(jax.jit(i2)(z))
    print(jax.vmap(iv)(jnp.array([0, 1, 2, 3]), z))
    printed.attempt(errors, jax.grad(i2), 1.0)
    mark("special")

    iv = jax.custom_jvp(iv)

    @iv.defjvp
    def iv_jvp(primals, tangents):
        order, z = primals
        _, z_dot = tangents
        return iv(order, z), z_dot * 0.5 * (iv(order - 1, z) + iv(order + 1, z))

    i2 = partial(iv, 2)
    print(jax.grad(i2)(1.5))
    printed.show(jax.hessian(i2)(1.5))
    printed.show(jax.vmap(jax.grad(i2))(z))
    mark("special_jvp")


def _cells(out, errors, mark):
    _pure(errors, mark)
    _io(errors, mark)
    _sharded(mark)
    _special(errors, mark)
