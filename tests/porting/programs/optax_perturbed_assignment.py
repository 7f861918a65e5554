"""Optax's perturbations, the Hungarian algorithm and adversarial training (our own program).

Checks: `perturbations.make_perturbed_fun` around a one-hot argmax and a ranking (`argsort` of
`argsort`) with Gumbel noise and around a function of a pytree with `Normal` noise, their
values and gradients (under `grad` and `jit`), a few gradient steps towards a target
(`optax.tree.sum`, `optax.tree.add_scale`); `assignment.hungarian_algorithm` on wide, tall and
square cost matrices (the chosen costs formatted with `:g`, `in` on arrays), and a matching of
two point clouds by their distances (fancy-indexed total cost); adversarial training of a small
Linen CNN (`Conv`, `avg_pool`, `Dense`) on uint8 images: a jitted projected-gradient attack
unrolling five `grad`s (`jnp.sign`, `jnp.clip`), `adam` on the attacked batch with a
`tree_utils.tree_norm` penalty, clean and attacked accuracies, and the search for a flipped
prediction (`jnp.where(...)[0]`). Everything printed is compared line by line.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
import optax.tree
from flax import linen as nn
from optax import perturbations
from optax.tree_utils import tree_norm

from tests.porting import printed


def run():
    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        _perturbed(out)
        cells.mark("perturbed")
        _assignment(out)
        cells.mark("assignment")
        _adversarial(out)
        cells.mark("adversarial")
    out["printed"] = cells.printed
    return out


def hard_argmax(x):
    return jax.nn.one_hot(jnp.argmax(x, axis=-1), x.shape[-1])


def ranks(x):
    return jnp.argsort(jnp.argsort(x)).astype(x.dtype)


def _perturbed(out):
    keys = jax.random.split(jax.random.PRNGKey(8), 6)
    scores = jnp.array([0.3, 1.2, 1.1, -0.4, 0.9])
    soft_argmax = perturbations.make_perturbed_fun(hard_argmax, num_samples=400, sigma=0.5)
    soft_ranks = perturbations.make_perturbed_fun(
        ranks, num_samples=300, sigma=0.3, noise=perturbations.Gumbel()
    )
    print(f"argmax {hard_argmax(scores)} perturbed {soft_argmax(keys[0], scores)}")
    print(f"ranks {ranks(scores)} perturbed {soft_ranks(keys[1], scores)}")

    target = jnp.array([0.0, 0.0, 0.0, 1.0, 0.0])

    def miss(x, key):
        return jnp.sum((soft_argmax(key, x) - target) ** 2)

    grad_miss = jax.jit(jax.grad(miss))
    x = scores
    for i in range(4):
        x = x - 0.5 * grad_miss(x, keys[2])
        print(f"step {i}: loss {miss(x, keys[2]):.4f}")
    grad_ranks = jax.grad(lambda x: jnp.sum(soft_ranks(keys[3], x) * jnp.arange(5.0)))(scores)

    def tree_choice(tree):
        return jax.tree.map(hard_argmax, tree)

    tree = {"a": jnp.array([0.5, -0.5, 0.1]), "b": jnp.array([[1.0, 2.0], [0.0, -1.0]])}
    goal = {"a": jnp.array([0.0, 1.0, 0.0]), "b": jnp.array([[1.0, 0.0], [0.0, 1.0]])}
    soft_tree = perturbations.make_perturbed_fun(
        tree_choice, num_samples=200, sigma=0.4, noise=perturbations.Normal()
    )

    def tree_loss(t, key):
        diffs = jax.tree.map(lambda p, g: jnp.sum((p - g) ** 2), soft_tree(key, t), goal)
        return optax.tree.sum(diffs)

    g = jax.grad(tree_loss)(tree, keys[4])
    before = tree_loss(tree, keys[5])
    after = tree_loss(optax.tree.add_scale(tree, -2.0, g), keys[5])
    print(f"tree loss {before:.3f} -> {after:.3f}")
    out["perturbed"] = dict(
        descended=x,
        grad_ranks=grad_ranks,
        tree_grad=g,
        treedef=str(jax.tree.structure(g)),
        hard_tree=tree_choice(tree),
    )


def _assignment(out):
    k1, k2, k3 = jax.random.split(jax.random.key(21), 3)
    wide = jnp.round(jax.random.uniform(k1, (3, 5), maxval=9.0))
    results = {}
    for name, costs in (("wide", wide), ("tall", wide.T), ("square", wide[:, :3])):
        i, j = optax.assignment.hungarian_algorithm(costs)
        chosen = costs[i, j]
        labels = [f"{c:g}" for c in chosen]
        print(f"{name}: rows {i} cols {j} costs {labels} total {chosen.sum():g}")
        results[name] = dict(i=i, j=j, labels=labels, uses_col_0=bool(0 in j))

    sources = jax.random.normal(k2, (8, 2))
    sinks = jax.random.normal(k3, (8, 2)) + jnp.array([2.0, 0.0])
    dist = jnp.linalg.norm(sources[:, None, :] - sinks[None, :, :], axis=-1)
    i, j = optax.assignment.hungarian_algorithm(dist)
    identity = dist[jnp.arange(8), jnp.arange(8)].sum()
    print(f"matched cost {dist[i, j].sum():.4f} <= unmatched {identity:.4f}")
    pairs = list(zip(i.tolist(), j.tolist()))
    results["transport"] = dict(i=i, j=j, pairs_with_0=[p for p in pairs if 0 in p])
    out["assignment"] = results


class TinyCNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(4, (3, 3))(x))
        x = nn.avg_pool(x, (2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        return nn.Dense(3)(x)


def _adversarial(out):
    rng = np.random.RandomState(4)
    # Images whose class is the brightest third of the rows, with noise.
    labels = rng.randint(0, 3, (24,))
    images = rng.randint(0, 90, (24, 6, 6, 1))
    for n, c in enumerate(labels):
        images[n, 2 * c : 2 * c + 2] += 160
    images = images.astype(np.uint8)
    batches = [(images[k : k + 8], labels[k : k + 8]) for k in range(0, 24, 8)]

    net = TinyCNN()
    params = net.init(jax.random.PRNGKey(0), jnp.zeros((1, 6, 6, 1)))["params"]

    def loss_fn(p, x, y):
        logits = net.apply({"params": p}, x)
        return optax.losses.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @functools.partial(jax.jit, static_argnames="steps")
    def attack(p, x, y, eps=0.1, steps=5):
        x_adv = x
        for _ in range(steps):
            g = jax.grad(loss_fn, argnums=1)(p, x_adv, y)
            x_adv = jnp.clip(x_adv + 0.4 * eps * jnp.sign(g), x - eps, x + eps)
            x_adv = jnp.clip(x_adv, 0.0, 1.0)
        return x_adv

    tx = optax.adam(0.05)
    state = tx.init(params)

    @jax.jit
    def train_step(p, s, x, y):
        x_adv = attack(p, x, y)
        objective = lambda q: loss_fn(q, x_adv, y) + 1e-3 * tree_norm(q, squared=True)
        grads = jax.grad(objective)(p)
        updates, s = tx.update(grads, s, p)
        return optax.apply_updates(p, updates), s

    def accuracy(p, x, y):
        return float(jnp.mean(jnp.argmax(net.apply({"params": p}, x), -1) == y))

    curves = []
    for epoch in range(2):
        for x, y in batches[:2]:
            params, state = train_step(params, state, x.astype(jnp.float32) / 255, y)
        x, y = batches[2]
        x = x.astype(jnp.float32) / 255
        clean, attacked = accuracy(params, x, y), accuracy(params, attack(params, x, y), y)
        print(f"epoch {epoch}: clean {clean:.3f} attacked {attacked:.3f}")
        curves.append([clean, attacked])

    def find_flip(p, x, y, eps):
        clean = jnp.argmax(net.apply({"params": p}, x), -1)
        adv = jnp.argmax(net.apply({"params": p}, attack(p, x, y, eps=eps)), -1)
        for k in jnp.where(clean != adv)[0]:
            if clean[k] == y[k]:
                return [int(k), int(clean[k]), int(adv[k])]
        raise ValueError("every correct prediction survived the attack")

    found = []
    for eps in (0.0, 0.3):
        try:
            found.append(find_flip(params, x, y, eps))
        except ValueError as e:
            found.append(str(e))
    out["adversarial"] = dict(curves=curves, params=params, found=found)
