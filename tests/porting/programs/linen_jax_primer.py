"""JAX as a Flax user first meets it, and a Dense regression by hand: what the cells print
(array and key reprs, `device_put`, `np.asarray` of a JAX array, `.at[].set`/`.add`, keys
from `split` with `key, *rest` unpacking, `grad`/`jvp`/`vjp` of small functions, a jitted
activation, `vmap` of a matrix-vector product, `tree_util.tree_map` over nested containers,
a least-squares fit by `grad` under `jit` on separate arrays and on a dict of parameters,
`value_and_grad`), then `nn.Dense` fitted by a hand-written SGD step (jitted `init`,
`apply` and loss) and by `optax.adam` on the same data. Printed lines are compared with
their numbers apart (`printed.notebook`)."""

from tests.porting import printed
from tests.porting.printed import show


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    import numpy as np

    import jax
    import jax.numpy as jnp
    import optax
    from jax import random
    from flax import linen as nn

    grid = jnp.arange(6.0).reshape(2, 3)
    show(grid)
    show(jnp.eye(3, dtype=jnp.int32))
    show(jnp.dot(grid, jnp.ones((3, 2))))
    mark("arrays")

    host = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2)
    placed = jax.device_put(host)
    show(placed)
    show(jnp.dot(host, grid))
    back = np.asarray(placed * 2)
    print(type(back).__name__, back.dtype, back.tolist())
    mark("device_put")

    bumped = grid.at[1, 2].set(-7.0)
    added = grid.at[:, 0].add(10.0)
    print("grid\n", grid)
    print("bumped\n", bumped)
    print("added\n", added)
    mark("at")

    seed = random.key(7)
    show(seed)
    print("draw:", random.normal(seed, (2,)), "again:", random.normal(seed, (2,)))
    seed, sub = random.split(seed)
    print("after split:", random.uniform(seed, (2,)), random.uniform(sub, (2,)))
    seed, *others = random.split(seed, 3)
    show((seed, others))
    print(len(others), jax.random.key_data(others[1]))
    mark("keys")

    def half_norm(v):
        return jnp.dot(v, v) / 2.0

    def cube(v):
        return v**3 - v

    point = random.normal(random.key(1), (4,))
    print("point", point)
    print("grad", jax.grad(half_norm)(point))
    primal, tangent = jax.jvp(cube, (point,), (jnp.ones(4),))
    print("jvp", primal, tangent)
    value, pullback = jax.vjp(cube, point)
    print("vjp", pullback(jnp.arange(4.0))[0])
    mark("derivatives")

    def softish(v, a=1.5, s=0.9):
        return s * jnp.where(v > 0, v, a * (jnp.exp(v) - 1))

    wave = jnp.linspace(-3.0, 3.0, 50)
    out["softish"] = softish(wave)
    out["softish jit"] = jax.jit(softish)(wave)

    table = random.normal(random.key(2), (6, 4))
    rows = random.normal(random.key(3), (3, 4))
    project = lambda v: table @ v
    print("one:", project(rows[0]).shape, "batched:", jax.vmap(project)(rows).shape)
    out["vmap"] = jax.vmap(project)(rows)
    mark("jit vmap")

    nest = {"a": [1, 2.5], "b": (3, {"c": 4})}
    show(jax.tree_util.tree_map(lambda v: v * 2, nest))
    show(jax.tree_util.tree_map(lambda u, v: u - v, nest, jax.tree_util.tree_map(abs, nest)))
    print(jax.tree_util.tree_leaves(nest), jax.tree_util.tree_structure(nest).num_leaves)
    mark("trees")

    k_w, k_b, k_x, k_n = random.split(random.key(11), 4)
    true_w = random.normal(k_w, (5, 3))
    true_b = random.normal(k_b, (3,))
    xs = random.normal(k_x, (16, 5))
    ys = xs @ true_w + true_b + 0.05 * random.normal(k_n, (16, 3))
    print("data", xs.shape, ys.shape)

    def sq_loss(w, b, x, y):
        err = x @ w + b - y
        return jnp.mean(jnp.sum(err * err, axis=-1)) / 2

    @jax.jit
    def step(w, b, lr):
        gw, gb = jax.grad(sq_loss, argnums=(0, 1))(w, b, xs, ys)
        return w - lr * gw, b - lr * gb

    w, b = jnp.zeros_like(true_w), jnp.zeros_like(true_b)
    print("loss at truth", sq_loss(true_w, true_b, xs, ys))
    for i in range(21):
        w, b = step(w, b, 0.2)
        if i % 10 == 0:
            print(f"step {i}:", sq_loss(w, b, xs, ys))
    out["fit arrays"] = [w, b]
    mark("fit arrays")

    def dict_loss(p, x, y):
        return jax.vmap(lambda u, v: jnp.sum((u @ p["w"] + p["b"] - v) ** 2) / 2)(x, y).mean()

    p = {"w": jnp.zeros_like(true_w), "b": jnp.zeros_like(true_b)}
    show(jax.grad(dict_loss)(p, xs, ys))
    walk = jax.jit(
        lambda p: jax.tree_util.tree_map(
            lambda a, g: a - 0.2 * g, p, jax.grad(dict_loss)(p, xs, ys)
        )
    )
    for i in range(11):
        p = walk(p)
    both = jax.value_and_grad(dict_loss)
    for i in range(11):
        loss, g = both(p, xs, ys)
        p = jax.tree_util.tree_map(lambda a, d: a - 0.2 * d, p, g)
        if i % 5 == 0:
            print(f"value_and_grad {i}:", loss)
    out["fit dict"] = p
    mark("fit dict")

    layer = nn.Dense(3)
    init = jax.jit(lambda k: layer.init(k, xs[:1])["params"])
    predict = jax.jit(lambda q, x: layer.apply({"params": q}, x))
    l1 = jax.jit(lambda q: jnp.mean(jnp.abs(predict(q, xs) - ys)))
    q = init(random.key(5))
    print(jax.tree_util.tree_map(jnp.shape, q))
    for i in range(4):
        loss, g = jax.value_and_grad(l1)(q)
        print(i, "l1 =", loss)
        q = jax.tree_util.tree_map(lambda a, d: a - 0.05 * d, q, g)
    out["dense sgd"] = q

    tx = optax.adam(0.1)
    state = tx.init(q)
    for i in range(11):
        loss, g = jax.value_and_grad(l1)(q)
        upd, state = tx.update(g, state)
        q = optax.apply_updates(q, upd)
        if i % 5 == 0:
            print(f"adam {i}:", loss)
    out["dense adam"] = q
    mark("dense")
