"""A Linen model over eight devices: `jit` with `in_shardings`/`out_shardings` of a
`NamedSharding` on a one-axis mesh (`mesh_utils.create_device_mesh`; its shards' indices and
data) with a 'params' key drawing noise inside `apply`, `jax.shard_map` with one key per
device, and evaluation over a dataset whose size is not a multiple of the device count: by
hand (pad, reshape to devices, `pmap`, unpad) and with `flax.jax_utils.pad_shard_unpad`
(`min_device_batch`, and around a `pmap`ped metrics step with `psum`, `static_argnums`,
`static_return=True`), the state `replicate`d and `unreplicate`d."""

import numpy as np

import jax
import jax.numpy as jnp
import flax
from flax import linen as nn
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


class Jitter(nn.Module):
    @nn.compact
    def __call__(self, x, noisy):
        y = nn.Dense(2)(x)
        return jnp.where(noisy, y + 0.1 * jax.random.normal(self.make_rng("params"), y.shape), y)


class Clf(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(5)(nn.tanh(nn.Dense(6)(x.reshape((x.shape[0], -1)))))


def run():
    out = {}
    n = jax.device_count()
    devices = mesh_utils.create_device_mesh((n,))
    mesh = Mesh(devices, ("data",))
    rows = NamedSharding(mesh, P("data"))
    out["mesh"] = [
        dict(mesh.shape),
        str(rows.spec),
        list(mesh.axis_names),
        str(mesh),
        str(rows),
        str(devices),
    ]

    model = Jitter()
    init_key, apply_key = jax.random.split(jax.random.key(3))
    x = jnp.arange(2.0 * n).reshape(n, 2) / n
    v = model.init(init_key, x, False)

    def forward(v, x, noisy, key):
        return model.apply(v, x, noisy, rngs={"params": key})

    sharded = jax.jit(forward, in_shardings=(None, rows, None, None), out_shardings=rows)
    y = sharded(v, x, True, apply_key)
    out["jit"] = dict(
        noisy=y,
        clean=sharded(v, x, False, apply_key),
        eager=forward(v, x, True, apply_key),
        shards=[[str(s.index), s.data] for s in y.addressable_shards[:3]],
        spec=str(y.sharding.spec),
    )

    per_device = jax.shard_map(
        lambda v, x, keys: forward(v, x, True, keys[0]),
        mesh=mesh,
        in_specs=(P(), P("data"), P("data")),
        out_specs=P("data"),
    )
    out["shard_map"] = per_device(v, x, jax.random.split(apply_key, n))

    rs = np.random.RandomState(1)
    images = rs.rand(37, 3, 2).astype(np.float32)
    labels = rs.randint(0, 5, (37,)).astype(np.int32)
    host_batch = 2 * n
    batches = [
        (images[i : i + host_batch], labels[i : i + host_batch])
        for i in range(0, len(images), host_batch)
    ]
    clf = Clf()
    cv = clf.init(jax.random.key(0), images[:1])
    reps = flax.jax_utils.replicate(cv)
    predict = jax.pmap(clf.apply)

    hits = seen = 0
    for xb, yb in batches:
        pad = np.zeros((host_batch - len(xb),) + xb.shape[1:], xb.dtype)
        full = np.concatenate([xb, pad]).reshape((n, -1) + xb.shape[1:])
        logits = predict(reps, full).reshape((host_batch, -1))[: len(xb)]
        hits += int((logits.argmax(-1) == yb).sum())
        seen += len(xb)
    out["by hand"] = [hits, seen, logits]

    hits = seen = 0
    for xb, yb in batches:
        logits = flax.jax_utils.pad_shard_unpad(predict)(reps, xb, min_device_batch=2)
        hits += int((logits.argmax(-1) == yb).sum())
        seen += len(xb)
    out["pad_shard_unpad"] = [hits, seen, logits, type(logits).__name__]

    traced = []

    def count(totals, variables, batch):
        traced.append(sorted((k, v.shape) for k, v in batch.items()))
        ok = batch["mask"] & (clf.apply(variables, batch["x"]).argmax(-1) == batch["y"])
        return {
            "hits": totals["hits"] + jax.lax.psum(ok.sum(), "dev"),
            "seen": totals["seen"] + jax.lax.psum(batch["mask"].sum(), "dev"),
        }

    step = flax.jax_utils.pad_shard_unpad(
        jax.pmap(count, axis_name="dev"), static_argnums=(0, 1), static_return=True
    )
    totals = flax.jax_utils.replicate({"hits": jnp.int32(0), "seen": jnp.int32(0)})
    for xb, yb in batches:
        totals = step(totals, reps, {"x": xb, "y": yb, "mask": np.ones(len(xb), bool)})
    out["metrics"] = [
        flax.jax_utils.unreplicate(totals),
        [[list(map(str, t)) for t in tr] for tr in traced],
    ]
    return out
