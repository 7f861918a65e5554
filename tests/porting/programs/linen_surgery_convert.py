"""Editing parameters and optimizer state, and loading weights from another framework's
layouts: `traverse_util.flatten_dict`/`unflatten_dict` with `sep='/'`, a kernel rescaled and
the tree refrozen, Adam's state printed as a `PyTreeDef` and its `mu`/`nu` rebuilt by
`_replace`; `serialization.to_bytes`/`from_bytes`/`to_state_dict`/`from_state_dict`;
`FrozenDict` methods and `flax.core`'s `copy`/`pop`/`pretty_repr`/`unfreeze` on frozen and
plain dicts, `flax_return_frozendict`; optimizers written as aliases and as chains
(`sgd` with momentum against `chain(trace, scale)`, `scale_by_adam` + `add_decayed_weights`,
`clip_by_global_norm`, `scale_by_schedule`, `masked` by `ModelParamTraversal` masks);
PyTorch-layout arrays (seeded numpy) transposed into `nn.Dense`, `nn.Conv` ('VALID'), a conv
and a dense flattening in channels-first order, `nn.BatchNorm` from running statistics, average
pooling that ignores padding (`nn.pool` and `avg_pool(count_include_pad=False)`) and
`nn.ConvTranspose(transpose_kernel=True)`."""

import numpy as np

import jax
import jax.numpy as jnp
import flax
import optax
from flax import linen as nn
from flax import serialization, traverse_util
from flax.core import freeze, unfreeze


class Small(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Conv(3, (2, 2), padding="VALID", name="conv")(x)
        x = jnp.transpose(nn.swish(x), (0, 3, 1, 2)).reshape((x.shape[0], -1))
        return nn.Dense(2, name="fc")(nn.Dense(5)(x))


def surgery(out):
    images = jax.random.normal(jax.random.key(0), (2, 4, 4, 2))
    params = Small().init(jax.random.key(1), images)["params"]
    flat = traverse_util.flatten_dict(params, sep="/")
    out["flat keys"] = [type(flat).__name__, sorted(flat)]
    flat["fc/kernel"] = flat["fc/kernel"] / jnp.max(jnp.abs(flat["fc/kernel"]))
    edited = freeze(traverse_util.unflatten_dict(flat, sep="/"))
    out["edited"] = [
        type(edited).__name__,
        edited["fc"]["kernel"],
        Small().apply({"params": edited}, images),
    ]
    tuples = traverse_util.flatten_dict(unfreeze(edited))
    out["tuple keys"] = [list(k) for k in sorted(tuples)]

    tx = optax.adam(0.5)
    state = tx.init(params)
    out["adam structure"] = str(jax.tree.structure(state))
    mu = traverse_util.flatten_dict(state[0].mu, sep="/")
    nu = traverse_util.flatten_dict(state[0].nu, sep="/")
    mu = {k: v + 1.0 for k, v in mu.items()}
    state = (
        state[0]._replace(
            mu=traverse_util.unflatten_dict(mu, sep="/"),
            nu=traverse_util.unflatten_dict(nu, sep="/"),
        ),
    ) + state[1:]
    grads = jax.tree.map(jnp.ones_like, params)
    updates, state = tx.update(grads, state)
    out["adam replaced"] = [str(jax.tree.structure(state)), updates, state[0].count]

    blob = serialization.to_bytes(params)
    back = serialization.from_bytes(jax.tree.map(jnp.zeros_like, params), blob)
    as_dict = serialization.to_state_dict({"params": params, "step": 3})
    out["serialization"] = dict(
        same=jax.tree.all(jax.tree.map(jnp.array_equal, back, params)),
        keys=sorted(as_dict),
        inner=sorted(as_dict["params"]),
        restored=serialization.from_state_dict({"params": params, "step": 0}, as_dict)["step"],
        types=[type(back).__name__, type(as_dict).__name__],
    )


def dicts(out):
    x = jnp.ones((1, 2))
    frozen = freeze(nn.Dense(2).init(jax.random.key(2), x))
    extra = jnp.arange(3.0)
    texts = []
    added = frozen.copy({"extra": extra})
    rest, params = added.pop("params")
    texts += [
        type(added).__name__,
        type(rest).__name__,
        type(params).__name__,
        str(rest),
        added.pretty_repr(),
        type(added.unfreeze()).__name__,
    ]
    for tree in (frozen, unfreeze(frozen)):
        grown = flax.core.copy(tree, add_or_replace={"extra": extra})
        rest, params = flax.core.pop(grown, "params")
        texts += [
            type(grown).__name__,
            type(rest).__name__,
            sorted(rest),
            sorted(params),
            flax.core.pretty_repr(grown),
            type(flax.core.unfreeze(grown)).__name__,
        ]
    out["dicts"] = texts
    kinds = []
    for flag in (True, False):
        flax.config.update("flax_return_frozendict", flag)
        kinds.append(type(nn.Dense(2).init(jax.random.key(2), x)).__name__)
    out["return_frozendict"] = [kinds, flax.config.flax_return_frozendict]


def optimizers(out):
    model = nn.Dense(2)
    xs = jax.random.uniform(jax.random.key(3), (6, 3))
    ys = jnp.stack([xs.sum(-1), xs[:, 0] - xs[:, 2]], axis=-1)
    start = model.init(jax.random.key(4), xs)["params"]
    mse = lambda p: jnp.mean((model.apply({"params": p}, xs) - ys) ** 2)

    def fit(tx):
        @jax.jit
        def step(p, s):
            g = jax.grad(mse)(p)
            u, s = tx.update(g, s, p)
            return optax.apply_updates(p, u), s

        p, s = start, tx.init(start)
        for _ in range(4):
            p, s = step(p, s)
        return dict(params=p, loss=mse(p), state=jax.tree.leaves(s))

    lr, beta = 0.2, 0.8
    kernels = traverse_util.ModelParamTraversal(lambda path, _: path.endswith("kernel"))
    off = jax.tree.map(lambda _: False, start)
    kernel_mask = kernels.update(lambda _: True, off)
    bias_mask = jax.tree.map(lambda m: not m, kernel_mask)
    decay = optax.exponential_decay(lr, 2, 0.5)
    txs = {
        "sgd": optax.sgd(lr, beta),
        "trace": optax.chain(optax.trace(decay=beta), optax.scale(-lr)),
        "adam decayed": optax.chain(
            optax.scale_by_adam(), optax.add_decayed_weights(0.01), optax.scale(-lr)
        ),
        "clipped": optax.chain(
            optax.clip_by_global_norm(0.1), optax.trace(decay=beta), optax.scale(-lr)
        ),
        "schedule": optax.chain(
            optax.trace(decay=beta), optax.scale_by_schedule(lambda n: -decay(n))
        ),
        "masked": optax.chain(
            optax.trace(decay=beta),
            optax.masked(optax.scale(-lr), kernel_mask),
            optax.masked(optax.scale(-lr / 4), bias_mask),
        ),
    }
    out["optimizers"] = {name: fit(tx) for name, tx in txs.items()}
    out["masks"] = [kernel_mask, bias_mask, type(kernel_mask).__name__]


def converted(out):
    rs = np.random.RandomState(42)
    u = lambda lo, hi, *shape: rs.uniform(lo, hi, shape).astype(np.float32)
    x = jax.random.normal(jax.random.key(5), (1, 5, 5, 2))
    row = x[:, 0, 0, :]

    w, b = u(-1, 1, 3, 2), u(-1, 1, 3)  # [out, in]
    out["dense"] = nn.Dense(3).apply({"params": {"kernel": w.T, "bias": b}}, row)

    w, b = u(-0.5, 0.5, 3, 2, 2, 2), u(-0.5, 0.5, 3)  # [out, in, kh, kw]
    conv = {"kernel": jnp.transpose(w, (2, 3, 1, 0)), "bias": b}
    out["conv"] = nn.Conv(3, (2, 2), padding="VALID").apply({"params": conv}, x)

    fc_w, fc_b = u(-0.2, 0.2, 5, 27), u(-0.2, 0.2, 5)
    head_w, head_b = u(-0.2, 0.2, 2, 5), u(-0.2, 0.2, 2)
    loaded = {
        "conv": conv,
        "fc": {"kernel": head_w.T, "bias": head_b},
        "Dense_0": {"kernel": fc_w.T, "bias": fc_b},
    }
    out["conv fc"] = Small().apply({"params": loaded}, x[:, :4, :4, :])

    stats = {"mean": u(-0.5, 0.5, 2), "var": u(0.5, 2, 2)}
    affine = {"scale": u(0.5, 1.5, 2), "bias": u(-0.5, 0.5, 2)}
    out["batch norm"] = nn.BatchNorm(use_running_average=True, epsilon=1e-5).apply(
        {"params": affine, "batch_stats": stats}, x
    )

    pads = ((1, 1), (1, 1))
    total = nn.pool(x, 0.0, jax.lax.add, (3, 3), (2, 2), pads)
    count = nn.pool(jnp.ones_like(x), 0.0, jax.lax.add, (3, 3), (2, 2), pads)
    out["pool"] = [
        total / count,
        nn.avg_pool(x, (3, 3), strides=(2, 2), padding=pads, count_include_pad=False),
        nn.avg_pool(x, (3, 3), strides=(2, 2), padding=pads),
    ]

    w, b = u(-0.5, 0.5, 2, 3, 2, 2), u(-0.5, 0.5, 3)  # [in, out, kh, kw]
    up = nn.ConvTranspose(3, (2, 2), strides=(2, 2), padding=1, transpose_kernel=True)
    out["conv transpose"] = up.apply(
        {"params": {"kernel": jnp.transpose(w, (2, 3, 1, 0)), "bias": b}}, x
    )


def run():
    out = {}
    surgery(out)
    dicts(out)
    optimizers(out)
    converted(out)
    return out
