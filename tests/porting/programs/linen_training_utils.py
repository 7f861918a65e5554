"""The small utilities around a Flax training loop (our own program): `flax.core`'s
`FrozenDict` (`freeze`, `copy`, `pop`, `unfreeze`, equality with a dict, key paths,
`pretty_repr`), `common_utils.onehot` with `on_value`/`off_value`, `stack_forest` and
`get_metrics` over per-step metric dicts, `shard`/`shard_prng_key` and `jax_utils.replicate`/
`unreplicate` for a `pmap`ped evaluation, `pad_shard_unpad` of a batch that does not divide
into the devices, `prefetch_to_device`, `scan_in_dim` and `partial_eval_by_shape` of a model's
`init`."""

import jax
import jax.numpy as jnp
import numpy as np
from flax import jax_utils
from flax import linen as nn
from flax.core import copy, freeze, pop, pretty_repr, unfreeze
from flax.training import common_utils


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.gelu(nn.Dense(5)(x)))


def run():
    out = {}
    model = Classifier()
    x = jax.random.normal(jax.random.key(1), (16, 4))
    labels = jnp.arange(16) % 3
    variables = freeze(model.init(jax.random.key(0), x))

    # FrozenDict plumbing
    rest, frozen_params = pop(variables, "params")
    params = unfreeze(frozen_params)
    out["frozen"] = dict(
        type=type(variables).__name__, rest=sorted(rest), same_as_dict=variables == unfreeze(variables),
        copied=sorted(copy(variables, {"stats": {"n": 1}})),
        paths=[jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(frozen_params)],
        unfrozen=type(unfreeze(variables)["params"]).__name__,
        pretty=pretty_repr(jax.tree.map(jnp.shape, unfreeze(variables))).splitlines(),
    )  # fmt: skip
    try:
        variables["extra"] = 1
    except ValueError as e:
        out["frozen_setitem"] = str(e).splitlines()[0]

    # per-step metrics
    def metrics_of(params, xs, ys):
        logits = model.apply({"params": params}, xs)
        targets = common_utils.onehot(ys, 3, on_value=0.9, off_value=0.05)
        loss = -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), -1))
        return {"loss": loss, "accuracy": jnp.mean(jnp.argmax(logits, -1) == ys)}

    steps = [metrics_of(params, x[i : i + 4], labels[i : i + 4]) for i in (0, 4, 8)]
    out["stack_forest"] = common_utils.stack_forest(steps)
    out["get_metrics"] = common_utils.get_metrics([jax_utils.replicate(m) for m in steps])
    out["onehot"] = common_utils.onehot(labels[:4], 3)

    # data-parallel evaluation
    n = jax.local_device_count()
    batch = common_utils.shard({"x": x[: 2 * n], "y": labels[: 2 * n]})
    replicated = jax_utils.replicate(params)
    per_device = jax.pmap(metrics_of)(replicated, batch["x"], batch["y"])
    out["pmap"] = dict(devices=n, shapes=jax.tree.map(jnp.shape, batch),
                       loss=per_device["loss"], back=jax_utils.unreplicate(replicated))  # fmt: skip
    out["prng_shards"] = list(common_utils.shard_prng_key(jax.random.PRNGKey(3)).shape)

    def logits_of(params, xs):
        return model.apply({"params": params}, xs)

    padded = jax_utils.pad_shard_unpad(jax.pmap(logits_of), static_argnums=(0,),
                                       static_return=False)  # fmt: skip
    odd = x[:11]
    out["pad_shard_unpad"] = [padded(replicated, odd, min_device_batch=2),
                              logits_of(params, odd)]  # fmt: skip

    host_batches = [{"x": np.asarray(x[: 2 * n]) + i} for i in range(3)]
    fetched = list(jax_utils.prefetch_to_device(iter(common_utils.shard(b) for b in host_batches),
                                                2))  # fmt: skip
    out["prefetch"] = [len(fetched), [b["x"].shape for b in fetched], fetched[-1]["x"][0, 0]]

    carry, ys = jax_utils.scan_in_dim(lambda c, xs: (c + xs, c * xs), jnp.zeros(4), x[:5], axis=0)
    out["scan_in_dim"] = [carry, ys]
    shapes = jax_utils.partial_eval_by_shape(lambda v: model.init(jax.random.key(0), v),
                                             [((2, 4), jnp.float32)])  # fmt: skip
    out["partial_eval_by_shape"] = jax.tree.map(jnp.shape, shapes)
    return out
