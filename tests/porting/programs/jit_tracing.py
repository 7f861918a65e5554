"""`jit` and tracing on programs of our own: what a traced function sees and prints, when it
retraces, which Python control flow it rejects and how `static_argnums` or `jnp.where` help,
what `jit` changes in numerics, and the everyday arrays, pytrees, keys and convolutions that a
first JAX program meets.

Checked (values; text as printed, numbers apart; errors by class name and first line):
- tracers printed inside `jit` (float64 numpy inputs become float32 `JitTracer`s; a tracer's
  base class is named `Tracer`: JAX's class is a `DynamicJaxprTracer`), no print on
  a second call with the same shapes, `make_jaxpr`'s input and output avals, a traced shape's
  product and `np.prod` of a static one, `jax.debug.print` against `print`;
- the errors of `if` on a tracer (an argument and a loop bound), of a traced shape in
  `reshape`, of boolean-mask indexing under `jit`, of item assignment; `static_argnums` (the
  `jit(static_argnums=...)` decorator factory) and `grad` of the same Python branches;
- a function reading a global at trace time; `jit` of `log(sqrt(x))` and `log(exp(x))`;
- array basics: numpy's mutability against `.at[].set`, `jax.Array`, `devices()`,
  `sharding`, a 40x40 array's summarized repr, `jnp.dot` and mixed fancy indexing with
  `None` and `::-1`, `jnp.add`'s promotion and `lax.add`'s error;
- pytrees: `jax.tree.structure`/`leaves` of a nested list, a dict and a `NamedTuple`;
- typed keys printed, `random.normal` twice on one key, a split loop;
- a two-layer MLP fitted by hand-written gradient descent, `jacobian`, a jitted Hessian, `jit`'s agreement with eager on a normalization;
- `jnp.convolve` against `lax.conv_general_dilated` with full padding, `lax.conv` 'SAME'
  printed with `edgeitems=1` (numpy's print options restored after).
"""

import numpy as np

from tests.porting import printed


def run():
    options = np.get_printoptions()
    try:
        return printed.notebook(_cells)
    finally:
        np.set_printoptions(**options)


def _error(errors, e):
    """An error by its class's name (JAX's own classes) and its first line."""
    errors.append([type(e).__name__, printed.plain(str(e).splitlines()[0])])


def _cells(out, errors, mark):
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    rng = np.random.RandomState(11)

    @jax.jit
    def affine(m, v):
        print("tracing affine")
        print(f"  m = {m}")
        print(f"  v = {v}")
        y = jnp.dot(m * 2.0, v - 1.0)
        print(f"  y = {y}")
        return y

    m, v = rng.normal(size=(2, 3)), rng.normal(size=3)
    out["affine"] = affine(m, v)
    mark("first_call")
    out["affine_again"] = affine(rng.normal(size=(2, 3)), rng.normal(size=3))
    mark("second_call")
    closed = jax.make_jaxpr(lambda m, v: jnp.dot(m, v))(m, v)
    print([str(a.aval) for a in [*closed.jaxpr.invars, *closed.jaxpr.outvars]])
    mark("avals")

    @jax.jit
    def flip(x, negate):
        return -x if negate else x

    try:
        flip(2.0, True)
    except Exception as e:
        _error(errors, e)

    @jax.jit(static_argnums=(1,))
    def flip_static(x, negate):
        return -x if negate else x

    out["static"] = [flip_static(2.0, True), flip_static(2.0, False)]

    def power(x, n):
        k = 0
        while k < n:
            x = x * 1.5
            k += 1
        return x

    try:
        jax.jit(power)(jnp.array([1.0, 2.0]), 3)
    except Exception as e:
        _error(errors, e)
    out["power"] = jax.jit(power, static_argnums=1)(jnp.array([1.0, 2.0]), 3)

    def ratio(x, y):
        return x / y if y > 0.5 else 2.0 * x

    out["ratio"] = [jax.grad(ratio)(3.0, 2.0), jax.jit(ratio, static_argnums=1)(3.0, 0.25)]

    @jax.jit
    def flatten_traced(x):
        return x.reshape(jnp.array(x.shape).prod())

    try:
        flatten_traced(jnp.ones((3, 2)))
    except Exception as e:
        _error(errors, e)

    @jax.jit
    def shapes(x):
        print(f"x.shape = {x.shape}")
        print(f"traced size = {jnp.array(x.shape).prod()}")
        return x.reshape((np.prod(x.shape),))

    out["flatten"] = shapes(jnp.arange(6.0).reshape(3, 2)).block_until_ready()
    mark("shapes")

    @jax.jit
    def noisy_double(x):
        print("print:", x)
        jax.debug.print("debug.print: {}", x)
        return 2.0 * x

    noisy_double(0.5)
    mark("debug_print")

    # a global read at trace time
    offset = 10

    def add_offset(x):
        print("offset seen:", offset)
        return x + offset

    jitted = jax.jit(add_offset)
    for offset in (10, 20):
        print("eager", add_offset(1), "jit", jitted(1))
    mark("global")

    def log_root(x):
        return jnp.log(jnp.sqrt(x))

    def log_exp(x):
        return jnp.log(jnp.exp(x))

    print(log_root(2.5), jax.jit(log_root)(2.5))
    print(log_exp(95.0), jax.jit(log_exp)(95.0))
    mark("numerics")

    # arrays
    host = np.arange(5)
    host[1] = 7
    dev = jnp.arange(5)
    try:
        dev[1] = 7
    except TypeError as e:
        print(str(e).splitlines()[0])
    print(host, dev.at[1].set(7), dev)
    print(isinstance(dev, jax.Array), dev.devices(), dev.sharding)
    mark("immutable")

    key = jax.random.key(5)
    print(key)
    print(jax.random.normal(key), jax.random.normal(key))
    for step in range(3):
        key, sub = jax.random.split(key)
        print(f"draw {step}: {jax.random.uniform(sub)}")
    mark("keys")

    big = jax.random.normal(jax.random.key(1), (40, 40))
    print(big.shape, big.dtype)
    print(repr(big))
    mark("big")
    out["gram"] = jnp.dot(big, big.T)
    small = jnp.arange(12.0).reshape(3, 4)
    print(jnp.dot(small, small.T)[[2, 0, 0], ..., None, ::-1])
    mark("fancy")

    def negatives(x):
        return x[x < 0]

    vals = jnp.array([0.5, -1.0, 2.0, -3.0])
    out["negatives"] = negatives(vals)
    try:
        jax.jit(negatives)(vals)
    except Exception as e:
        _error(errors, e)

    print(repr(jnp.add(2, 0.5)))
    try:
        lax.add(2, 0.5)
    except TypeError as e:
        print(str(e).splitlines()[0])
    print(repr(lax.add(jnp.float32(2), 0.5)))
    mark("promotion")

    class Budget(NamedTuple):
        amount: float
        tags: tuple

    for tree in (
        [3, (jnp.zeros(2), [4.0]), None],
        {"z": jnp.ones(1), "a": 2, "m": (1, 2)},
        Budget(2.5, ("x", "y")),
    ):
        print(jax.tree.structure(tree))
        print(jax.tree.leaves(tree))
    mark("pytrees")

    @jax.jit
    def scale(x):
        print(x, type(x).__mro__[1].__name__)
        return x * 3

    out["scale"] = scale(jnp.arange(4))
    mark("int_tracer")

    # derivatives with jit in between
    def softsum(x):
        return jnp.sum(jnp.tanh(x) * x)

    xs = jnp.array([-1.0, 0.0, 2.0])
    print(jax.grad(softsum)(xs))
    mark("nested")
    out["derivatives"] = [
        jax.jacobian(jnp.tanh)(xs),
        jax.jit(jax.jacfwd(jax.jacrev(softsum)))(xs),
    ]

    def standardize(x):
        x = x - x.mean(0)
        return x / x.std(0)

    data = jnp.asarray(rng.uniform(size=(20, 3)), jnp.float32)
    print(np.allclose(standardize(data), jax.jit(standardize)(data), atol=1e-6))
    mark("standardize")

    def branchy(x):
        if x > 1.0:
            return x**3
        return -2.0 * x

    print(jax.grad(branchy)(2.0), jax.grad(branchy)(-2.0), jax.grad(jax.grad(branchy))(2.0))
    mark("branchy")

    def init(key, sizes):
        keys = jax.random.split(key, len(sizes) - 1)
        return [
            (jax.random.normal(k, (n, m)) * 0.5, jnp.zeros(m))
            for k, n, m in zip(keys, sizes[:-1], sizes[1:])
        ]

    def forward(params, x):
        for wm, bv in params[:-1]:
            x = jnp.tanh(x @ wm + bv)
        wm, bv = params[-1]
        return x @ wm + bv

    def sq_loss(params, x, y):
        return jnp.mean((forward(params, x) - y) ** 2)

    params = init(jax.random.key(2), [3, 4, 2])
    inputs = jax.random.normal(jax.random.key(3), (6, 3))
    targets = jax.random.normal(jax.random.key(4), (6, 2))
    print(sq_loss(params, inputs, targets))
    for _ in range(15):
        grads = jax.grad(sq_loss)(params, inputs, targets)
        params = [(wm - 0.1 * gw, bv - 0.1 * gb) for (wm, bv), (gw, gb) in zip(params, grads)]
    print(sq_loss(params, inputs, targets))
    mark("mlp")
    out["mlp"] = params

    signal = jnp.array([1.0, -2.0, 3.0])
    kernel = jnp.array([0.5, 1.0, 0.25, 2.0])
    out["convolve"] = [
        jnp.convolve(signal, kernel),
        lax.conv_general_dilated(
            signal.reshape(1, 1, 3),
            kernel[::-1].reshape(1, 1, 4),
            window_strides=(1,),
            padding=[(3, 3)],
        )[0, 0],
    ]
    image = jnp.ones((1, 2, 6, 5))
    filters = jnp.asarray(np.random.RandomState(0).uniform(size=(3, 2, 3, 3)), jnp.float32)
    np.set_printoptions(edgeitems=1)
    print(repr(lax.conv(image, filters, (1, 1), "SAME")))
    mark("conv")
