"""`jax.pmap` and batch data parallelism: a filter mapped over devices, collectives by axis name,
a regression trained with averaged gradients, a halo exchange, and a classifier trained with its
batch split over an Explicit mesh (eight CPU devices).

Checks: `jax.devices()`, `local_device_count`; `pmap` of a Python-loop filter against `vmap`,
a pmap of a pmap's result, `in_axes=(0, None)`, `pmap` over fewer devices than there are;
`psum`/`pmean`/`pmax`/`axis_index` by `axis_name` under `pmap` and `vmap` (the same values);
pmapped random draws and per-device products; the reprs of pmap's results and numpy/jnp ops on
them; a linear regression stepped by a pmapped update with `pmean` of gradients, the params
replicated by stacking, taken back with `jax.tree.map(lambda a: a[0], ...)` and `device_get`,
the outputs' shardings, the removed `jax.device_put_replicated`'s error and its replacement by a
mesh; a 1-D cellular automaton split over the devices with `ppermute` halos; an MLP classifier
(`logsumexp` log-softmax) trained by a `jit` with `donate_argnums` on batches `device_put` over
an 8-way 'batch' axis under `set_mesh`, evaluated on `reshard`ed arrays. run() returns what was
printed (numbers apart), the errors and the trained values.
"""

import functools
from typing import NamedTuple

import numpy as np

from tests.porting import printed


class Line(NamedTuple):
    slope: object
    offset: object


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    import jax
    import jax.numpy as jnp
    from jax import lax

    print(jax.devices(), jax.local_device_count(), jax.device_count())
    n = jax.local_device_count()

    def smooth(sig, taps):
        return jnp.stack([jnp.vdot(sig[i : i + 3], taps) for i in range(len(sig) - 2)])

    sigs = np.arange(6.0 * n).reshape(n, 6) ** 1.5
    taps = np.array([0.25, 0.5, 0.25])
    many_taps = np.stack([taps * (k + 1) for k in range(n)])
    by_vmap = jax.vmap(smooth)(sigs, many_taps)
    by_pmap = jax.pmap(smooth)(sigs, many_taps)
    print(repr(by_pmap))
    print(np.allclose(by_vmap, by_pmap), type(by_pmap).__name__ == type(by_vmap).__name__)
    print(repr(jax.pmap(smooth)(by_pmap[:, :3], many_taps)))
    print(repr(jax.pmap(smooth, in_axes=(0, None))(sigs, taps)))
    print(repr(jax.pmap(lambda v: v * v - 1)(jnp.arange(5))))
    mark("maps")

    def share(sig, taps):
        y = smooth(sig, taps)
        return (
            y / lax.psum(y, "dev"),
            lax.pmax(y, "dev"),
            lax.pmean(y, "dev") + lax.axis_index("dev"),
        )

    p = jax.pmap(share, axis_name="dev")(sigs, many_taps)
    v = jax.vmap(share, axis_name="dev")(sigs, many_taps)
    print([bool(np.allclose(a, b)) for a, b in zip(p, v)])
    out["share"] = p

    @functools.partial(jax.pmap, axis_name="i")
    def frac(x):
        return x / lax.psum(x, "i")

    print(frac(jnp.arange(1.0, 5.0)))
    keys = jax.random.split(jax.random.key(2), n)
    mats = jax.pmap(lambda k: jax.random.uniform(k, (5, 3)))(keys)
    grams = jax.pmap(lambda m: m.T @ m)(mats)
    print(mats.shape, grams.shape, jax.pmap(jnp.trace)(grams).shape)
    print(repr(np.cos(jax.pmap(jnp.max)(mats))))
    print(repr(jax.pmap(jnp.min)(mats) * 2))
    out["grams"] = grams
    mark("collectives")

    def init(key):
        k1, k2 = jax.random.split(key)
        return Line(jax.random.normal(k1, ()), jax.random.normal(k2, ()))

    def cost(line, xs, ys):
        return jnp.mean((line.slope * xs + line.offset - ys) ** 2)

    @functools.partial(jax.pmap, axis_name="dev")
    def update(line, xs, ys):
        value, grads = jax.value_and_grad(cost)(line, xs, ys)
        grads = lax.pmean(grads, "dev")
        new = jax.tree.map(lambda a, g: a - 0.1 * g, line, grads)
        return new, lax.pmean(value, "dev")

    rng = np.random.RandomState(3)
    xs = rng.uniform(-1, 1, size=(64, 1)).astype(np.float32)
    ys = -1.5 * xs + 0.75 + 0.1 * rng.normal(size=(64, 1)).astype(np.float32)
    xs_split, ys_split = xs.reshape(n, -1, 1), ys.reshape(n, -1, 1)
    line = jax.tree.map(lambda a: jnp.stack([a] * n), init(jax.random.key(8)))
    print(isinstance(line.slope, jax.Array), line.slope.shape, type(xs_split).__name__)
    for step in range(20):
        line, value = update(line, xs_split, ys_split)
        if step == 0:
            print(isinstance(value, jax.Array), value.shape, value.sharding)
        if step % 5 == 0:
            print(f"step {step:2d} cost {value[0]:.4f}")
    host = jax.device_get(jax.tree.map(lambda a: a[0], line))
    print(type(host.slope).__name__, host)
    out["line"] = host
    try:
        jax.device_put_replicated(host, jax.local_devices())
    except AttributeError as e:
        printed.error(errors, e)
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    copies = NamedSharding(Mesh(np.array(jax.local_devices()), ("dev",)), P("dev"))
    line = jax.tree.map(lambda a: jax.device_put(jnp.stack([a] * n), copies), host)
    print(line.offset.sharding)
    line, value = update(line, xs_split, ys_split)
    print(value.shape, f"{value[0]:.5f}")
    out["last_cost"] = value
    mark("regression")

    # Rule 90 on a ring of 48 cells, six per device; halos come from the neighbours.
    ring = [(i, (i + 1) % n) for i in range(n)]
    back = [((i + 1) % n, i) for i in range(n)]

    @functools.partial(jax.pmap, axis_name="d")
    def rule90(cells):
        from_left = lax.ppermute(cells[-1:], "d", ring)
        from_right = lax.ppermute(cells[:1], "d", back)
        padded = jnp.concatenate([from_left, cells, from_right])
        return lax.bitwise_xor(padded[:-2], padded[2:])

    cells = np.zeros(6 * n, dtype=bool)
    cells[20] = True
    cells = cells.reshape(n, 6)
    for _ in range(12):
        print("".join("#" if c else "." for c in np.asarray(cells).ravel()))
        cells = rule90(cells)
    out["cells"] = cells
    mark("halo")

    # An MLP classifier trained data-parallel over an Explicit 'batch' axis.
    from jax.scipy.special import logsumexp
    from jax.sharding import AxisType, reshard

    def predict(params, x):
        for w, b in params[:-1]:
            x = jnp.tanh(x @ w + b)
        w, b = params[-1]
        logits = x @ w + b
        return logits - logsumexp(logits, axis=1, keepdims=True)

    def nll(params, batch):
        x, onehot = batch
        return -jnp.mean(jnp.sum(predict(params, x) * onehot, axis=1))

    @jax.jit(donate_argnums=0)
    def sgd(params, batch):
        grads = jax.grad(nll)(params, batch)
        return [(w - 0.5 * gw, b - 0.5 * gb) for (w, b), (gw, gb) in zip(params, grads)]

    @jax.jit
    def accuracy(params, batch):
        x, onehot = batch
        return jnp.mean(jnp.argmax(predict(params, x), 1) == jnp.argmax(onehot, 1))

    data = np.random.RandomState(6)
    images = data.rand(48, 20).astype(np.float32)
    labels = np.eye(4, dtype=np.float32)[(images[:, :5].sum(1) > 2.5) + 2 * (images[:, 5] > 0.5)]
    sizes = [20, 12, 4]
    params = [(0.3 * data.randn(a, b).astype(np.float32), np.zeros(b, np.float32))
              for a, b in zip(sizes[:-1], sizes[1:])]  # fmt: skip
    mesh = jax.make_mesh((8,), ("batch",), axis_types=(AxisType.Explicit,))
    rows = NamedSharding(mesh, P("batch"))
    params = jax.device_put(params, NamedSharding(mesh, P()))
    accs = []
    for epoch in range(3):
        order = np.random.RandomState(epoch).permutation(48)
        for i in range(3):
            idx = order[16 * i : 16 * (i + 1)]
            batch = (jax.device_put(images[idx], rows), jax.device_put(labels[idx], rows))
            with jax.set_mesh(mesh):
                params = sgd(params, batch)
        whole = (reshard(images, rows), reshard(labels, rows))
        accs.append(accuracy(params, whole))
    print(whole[0].sharding.spec, jax.typeof(whole[0]), params[0][0].sharding.spec)
    print(type(params[0][0].sharding).__name__, params[0][0].dtype)
    print([float(a) for a in accs])
    out["accs"] = accs
    out["mlp"] = params
    mark("classifier")
