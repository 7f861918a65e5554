"""Linen and stax image models trained by Optax (our own program).

Checks: a residual Linen network (`Conv` and `BatchNorm(scale_init=zeros_init())` passed to a
block as `functools.partial`s, a dict-valued module attribute, a 1x1 projection shortcut,
`max_pool`) whose training and evaluation applies are the branches of a `lax.cond` on a static
Python bool, its loss jitted with `static_argnums=(3,)` and called by keyword under
`value_and_grad(has_aux=True)`, an L2 penalty over the leaves with `ndim > 1`,
`sgd(linear_onecycle_schedule, momentum=0.9)` and `batch_stats` carried through a jitted step
on unscaled uint8 images and int64 labels; a Linen MLP whose jitted step calls a jitted loss
calling a jitted `predict`, trained by `adam`, test statistics by `np.mean` over lists of
scalars; `nn.Dense` initialized on one unbatched example and fitted by a jitted `vmap`ped
`jnp.inner` error with `chain(scale_by_adam(b1, b2, eps), scale(-lr))`; a `stax.serial` CNN
(strided SAME/VALID `Conv`, `MaxPool`, `Flatten`) trained by `contrib.dpsgd` on per-example
gradients (`vmap` of `grad(has_aux=True)` over a batch with an inserted axis), the noise key's
data. Everything printed is compared line by line.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.example_libraries import stax
from optax import contrib

from tests.porting import printed


def run():
    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        _residual(out)
        cells.mark("residual")
        _mlp(out)
        cells.mark("mlp")
        _unbatched_dense(out)
        cells.mark("dense")
        _dpsgd(out)
        cells.mark("dpsgd")
    out["printed"] = cells.printed
    return out


def _images(seed, n, shape, classes):
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, classes, (n,)).astype(np.int64)
    images = rng.randint(0, 120, (n, *shape))
    for k, c in enumerate(labels):
        images[k, :, c] += 130  # a bright column per class
    return images.astype(np.uint8), labels


class Residual(nn.Module):
    features: int
    conv: type
    norm: type
    strides: tuple = (1, 1)

    @nn.compact
    def __call__(self, x):
        y = nn.relu(self.norm()(self.conv(self.features, (3, 3), self.strides)(x)))
        y = self.norm(scale_init=nn.initializers.zeros_init())(self.conv(self.features, (3, 3))(y))
        if x.shape != y.shape:
            x = self.norm(name="shortcut_norm")(
                self.conv(self.features, (1, 1), self.strides, name="shortcut")(x)
            )
        return nn.relu(x + y)


class SmallResNet(nn.Module):
    classes: int
    stem: dict

    @nn.compact
    def __call__(self, x, train: bool = True):
        conv = functools.partial(nn.Conv, use_bias=False)
        norm = functools.partial(nn.BatchNorm, use_running_average=not train, momentum=0.8)
        x = conv(4, name="stem", **self.stem)(x)
        x = nn.relu(norm(name="stem_norm")(x))
        x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = Residual(8, conv=conv, norm=norm, strides=(2, 2))(x)
        return nn.Dense(self.classes)(jnp.mean(x, axis=(1, 2)))


resnet = SmallResNet(classes=4, stem={"kernel_size": (3, 3), "strides": (1, 1)})


def forward(params, stats, x, training):
    variables = {"params": params, "batch_stats": stats}

    def in_training(x):
        return resnet.apply(variables, x, train=True, mutable=["batch_stats"])

    def in_evaluation(x):
        return resnet.apply(variables, x, train=False), {"batch_stats": stats}

    return jax.lax.cond(training, in_training, in_evaluation, x)


@functools.partial(jax.jit, static_argnums=(3,))
def resnet_loss(params, stats, batch, training=True):
    x, y = batch
    logits, updated = forward(params, stats, x.astype(jnp.float32), training)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    l2 = sum(jnp.sum(w**2) for w in jax.tree.leaves(params) if w.ndim > 1)
    hits = jnp.mean(jnp.argmax(logits, -1) == y)
    return loss + 1e-4 * l2, (updated["batch_stats"], hits)


def _residual(out):
    images, labels = _images(1, 32, (8, 8, 1), 4)
    batches = [(images[k : k + 8], labels[k : k + 8]) for k in range(0, 32, 8)]
    variables = resnet.init(jax.random.PRNGKey(0), jnp.ones((1, 8, 8, 1)), train=False)
    params, stats = variables["params"], variables["batch_stats"]
    schedule = optax.linear_onecycle_schedule(transition_steps=6, peak_value=0.05)
    tx = optax.sgd(schedule, momentum=0.9)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, stats, opt_state, batch):
        grad_fn = jax.value_and_grad(resnet_loss, has_aux=True)
        (loss, (stats, hits)), grads = grad_fn(params, stats, batch, training=True)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), stats, opt_state, loss, hits

    history = []
    for epoch in range(2):
        for batch in batches[:3]:
            params, stats, opt_state, loss, hits = step(params, stats, opt_state, batch)
            history.append([loss, hits])
        test_loss, (_, test_hits) = resnet_loss(params, stats, batches[3], training=False)
        print(f"epoch {epoch}: train loss {loss:.4f} test loss {test_loss:.4f} acc {test_hits:.3f}")
    out["residual"] = dict(
        history=history,
        params=params,
        stats=stats,
        lr=[schedule(i) for i in range(7)],
        dtypes=[str(images.dtype), str(labels.dtype)],
        momentum=jax.tree.leaves(opt_state),
    )


class MLP(nn.Module):
    sizes: tuple

    @nn.compact
    def __call__(self, x):
        x = x.reshape((x.shape[0], -1))
        for size in self.sizes[:-1]:
            x = nn.relu(nn.Dense(size)(x))
        return nn.Dense(self.sizes[-1])(x)


def _mlp(out):
    images, labels = _images(2, 48, (6, 6), 6)
    floats = images.astype(np.float32) / 255.0
    train = [(floats[k : k + 8], labels[k : k + 8]) for k in range(0, 32, 8)]
    test = [(floats[k : k + 8], labels[k : k + 8]) for k in range(32, 48, 8)]
    mlp = MLP((16, 6))
    params = mlp.init(jax.random.PRNGKey(1), jnp.ones((1, 6, 6)))["params"]
    tx = optax.adam(0.01)
    state = tx.init(params)

    @jax.jit
    def predict(params, x):
        return mlp.apply({"params": params}, x)

    @jax.jit
    def loss_acc(params, x, y):
        logits = predict(params, x)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        return loss, jnp.mean(jnp.argmax(logits, -1) == y)

    @jax.jit
    def step(params, state, x, y):
        (loss, acc), grads = jax.value_and_grad(loss_acc, has_aux=True)(params, x, y)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss, acc

    for epoch in range(3):
        for x, y in train:
            params, state, loss, acc = step(params, state, x, y)
        stats = [loss_acc(params, x, y) for x, y in test]
        test_loss = np.mean([s[0] for s in stats])
        test_acc = np.mean([s[1] for s in stats])
        print(f"epoch {epoch}: train {loss:.4f}/{acc:.3f} test {test_loss:.4f}/{test_acc:.3f}")
    out["mlp"] = dict(
        params=params,
        state=jax.tree.leaves(state),
        test=[type(test_loss).__name__, str(test_acc.dtype)],
    )


def _unbatched_dense(out):
    kx, kw, kinit = jax.random.split(jax.random.PRNGKey(6), 3)
    xs = jax.random.normal(kx, (16, 5))
    w_true = jax.random.normal(kw, (5,))
    ys = xs @ w_true + 0.3
    dense = nn.Dense(features=1)
    params = dense.init(kinit, xs[0])

    def make_mse(xs, ys):
        def error(params, x, y):
            return jnp.inner(y - dense.apply(params, x), y - dense.apply(params, x)) / 2.0

        return jax.jit(
            lambda params: jnp.mean(jax.vmap(error, in_axes=(None, 0, 0))(params, xs, ys))
        )

    mse = make_mse(xs, ys)
    tx = optax.chain(optax.scale_by_adam(b1=0.85, b2=0.98, eps=1e-7), optax.scale(-0.1))
    state = tx.init(params)
    losses = []
    for _ in range(25):
        loss, grads = jax.value_and_grad(mse)(params)
        updates, state = tx.update(grads, state)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    print(
        f"dense: loss {losses[0]:.4f} -> {losses[-1]:.4f},",
        f"kernel shape {params['params']['kernel'].shape}",
    )
    out["dense"] = dict(
        losses=jnp.stack(losses), params=params, state=[type(s).__name__ for s in state]
    )


def _dpsgd(out):
    init_fn, apply_fn = stax.serial(
        stax.Conv(4, (3, 3), padding="SAME", strides=(2, 2)),
        stax.Relu,
        stax.MaxPool((2, 2), (1, 1)),
        stax.Conv(6, (2, 2), padding="VALID", strides=(1, 1)),
        stax.Relu,
        stax.Flatten,
        stax.Dense(3),
    )
    images, labels = _images(3, 24, (8, 8, 1), 3)
    floats = images / 255.0
    _, params = init_fn(jax.random.PRNGKey(7), (-1, 8, 8, 1))
    tx = contrib.dpsgd(learning_rate=0.2, l2_norm_clip=1.0, noise_multiplier=0.5, seed=42)
    state = tx.init(params)

    def loss_fn(params, batch):
        x, y = batch
        logits = apply_fn(params, x)
        return optax.losses.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits

    @jax.jit
    def step(params, state, batch):
        per_example = jax.tree.map(lambda a: a[:, None], batch)
        grads, _ = jax.vmap(jax.grad(loss_fn, has_aux=True), in_axes=(None, 0))(params, per_example)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    for k in range(0, 16, 8):
        params, state = step(params, state, (floats[k : k + 8], labels[k : k + 8]))
    test_loss, logits = jax.jit(loss_fn)(params, (floats[16:], labels[16:]))
    print(
        f"dpsgd: test loss {test_loss:.4f} accuracy {(logits.argmax(1) == labels[16:]).mean():.3f}"
    )
    out["dpsgd"] = dict(
        params=jax.tree.leaves(params), noise_key=jax.random.key_data(state[0].rng_key)
    )
