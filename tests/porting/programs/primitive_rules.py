"""A new primitive of our own, `lerp` (x + t * (y - x)), made a full JAX citizen one rule at a
time through `jax.extend.core.Primitive`: each transformation fails with a
`NotImplementedError` until its rule is registered, then runs eagerly and under `jit`.

Checked (values; what the rules logged, numbers apart and tracers written `T`):
- the `lax` version's value and gradient; a `jnp` version's, logged (tracers under `grad`);
- `Primitive.bind` without an implementation (`NotImplementedError`), `def_impl` (a numpy
  implementation returning float32: JAX hands an `impl`'s float64 result on unconverted), `def_abstract_eval` returning `jax.core.ShapedArray`, a lowering by
  `mlir.lower_fun` (JAX needs one under `jit`; numbax accepts it and runs the `impl` by a host
  call, so what the `jit` cells log is not recorded), `jit` with and without `static_argnums`;
- `ad.primitive_jvps` with `ad.Zero` tangents made dense, `jvp` and `jit(jvp)`;
- `ad.primitive_transposes` with `ad.is_undefined_primal` (the tangent rule uses `lerp`
  linearly in x and y), `grad` for each argument and `jit(grad)`;
- `batching.primitive_batchers` (unbatched arguments broadcast, batch axes moved to 0):
  `vmap` with `in_axes` 0, `(1, None, 0)`, `jit(vmap)` and `vmap(grad)`.
"""

from tests.porting import printed


def run():
    shown = {}
    with printed.Cells(printed.numbered) as cells:
        _cells(shown, cells.mark, cells.take)
    return {"printed": cells.printed, "shown": shown}


def _cells(shown, mark, drop):
    """The cells; `mark` records what they logged, `drop` forgets what the `jit` cells did."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jax.extend import core
    from jax.interpreters import ad, batching, mlir

    def lerp_lax(x, y, t):
        return lax.add(x, lax.mul(t, lax.sub(y, x)))

    shown["lax"] = [lerp_lax(1.0, 5.0, 0.25), jax.grad(lerp_lax, (0, 1, 2))(1.0, 5.0, 0.25)]

    def describe(v):
        if isinstance(v, tuple):
            return "(" + ", ".join(describe(a) for a in v) + ")"
        if isinstance(v, jax.core.Tracer):
            return "T"
        return str(v)

    def logged(name):
        def wrap(fn):
            def call(*args):
                print(f"{name} <- {describe(args)}")
                result = fn(*args)
                print(f"{name} -> {describe(result)}")
                return result

            return call

        return wrap

    lerp_jnp = logged("lerp_jnp")(lambda x, y, t: jnp.add(x, jnp.multiply(t, y - x)))
    shown["jnp"] = [lerp_jnp(1.0, 5.0, 0.25), jax.grad(lerp_jnp, (0, 2))(1.0, 5.0, 0.25)]
    mark("jnp")

    lerp_p = core.Primitive("lerp")

    def lerp(x, y, t):
        return lerp_p.bind(x, y, t)

    def failure(fn, *args):
        try:
            fn(*args)
        except NotImplementedError:
            return "NotImplementedError"
        return "no error"

    shown["no_impl"] = failure(lerp, 1.0, 5.0, 0.25)

    @logged("impl")
    def lerp_impl(x, y, t):
        return np.asarray(np.add(x, np.multiply(t, np.subtract(y, x))), np.float32)

    lerp_p.def_impl(lerp_impl)
    shown["impl"] = lerp(1.0, 5.0, 0.25)
    mark("impl")

    def lerp_abstract(x, y, t):
        assert x.shape == y.shape == t.shape
        return jax.core.ShapedArray(x.shape, x.dtype)

    lerp_p.def_abstract_eval(lerp_abstract)
    mlir.register_lowering(lerp_p, mlir.lower_fun(lerp_lax, multiple_results=False))
    shown["jit"] = [
        jax.jit(lerp)(1.0, 5.0, 0.25),
        jax.jit(lerp, static_argnums=2)(1.0, 5.0, 0.75),
    ]
    drop()

    shown["no_jvp"] = failure(jax.jvp, lerp, (1.0, 5.0, 0.25), (1.0, 0.0, 0.0))
    mark("no_jvp")

    @logged("jvp")
    def lerp_jvp(primals, tangents):
        x, y, t = primals
        dx, dy, dt = (jnp.zeros_like(x) if type(d) is ad.Zero else d for d in tangents)
        return lerp(x, y, t), lerp(dx, dy, t) + dt * (y - x)

    ad.primitive_jvps[lerp_p] = lerp_jvp
    shown["jvp"] = jax.jvp(lerp, (1.0, 5.0, 0.25), (1.0, -1.0, 2.0))
    mark("jvp")
    shown["jit_jvp"] = jax.jit(lambda p, d: jax.jvp(lerp, p, d))((1.0, 5.0, 0.25), (0.5, 0.5, 1.0))
    drop()

    shown["no_transpose"] = failure(jax.grad(lerp), 1.0, 5.0, 0.25)
    mark("no_transpose")

    @logged("transpose")
    def lerp_transpose(ct, x, y, t):
        assert not ad.is_undefined_primal(t)
        zero = jnp.zeros_like(t)
        ct_x = lerp(ct, zero, t) if ad.is_undefined_primal(x) else None
        ct_y = lerp(zero, ct, t) if ad.is_undefined_primal(y) else None
        return ct_x, ct_y, None

    ad.primitive_transposes[lerp_p] = lerp_transpose
    shown["grad"] = jax.grad(lerp, argnums=(0, 1, 2))(1.0, 5.0, 0.25)
    mark("grad")
    shown["jit_grad"] = jax.jit(jax.grad(lerp, argnums=1))(1.0, 5.0, 0.25)
    drop()

    xs, ys, ts = np.array([0.0, 1.0, 2.0]), np.array([4.0, 4.0, 4.0]), np.array([0.5, 0.25, 1.0])
    shown["no_batch"] = failure(jax.vmap(lerp), xs, ys, ts)
    mark("no_batch")

    @logged("batch")
    def lerp_batch(args, dims):
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        moved = [
            jnp.broadcast_to(a, (size, *np.shape(a))) if d is None else jnp.moveaxis(a, d, 0)
            for a, d in zip(args, dims)
        ]
        return lerp(*moved), 0

    batching.primitive_batchers[lerp_p] = lerp_batch
    shown["vmap"] = jax.vmap(lerp)(xs, ys, ts)
    mark("vmap")
    table = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    weights = np.array([[0.5, 0.1], [0.2, 0.3], [1.0, 0.0]])
    shown["vmap_axes"] = jax.vmap(lerp, in_axes=(1, None, 0))(
        table, np.array([10.0, 20.0]), weights
    )
    mark("vmap_axes")
    shown["jit_vmap"] = jax.jit(jax.vmap(lerp))(xs, ys, ts)
    drop()
    shown["vmap_grad"] = jax.vmap(jax.grad(lerp, argnums=(0, 2)))(xs, ys, ts)
    mark("vmap_grad")
