"""Lifted transformations: `nn.jit` of a layer class, `nn.remat` on a compact method, `nn.vmap`
of a `Dense` with parameters broadcast or stacked and their keys split or not, of a model with
a second collection and stream, multi-head attention by two nested `nn.vmap`s (heads with
`axis_size` and stacked parameters, then the batch with shared parameters; dropout keys split
per head and per example), `nn.scan` over a stack of residual blocks with keys split or not
(`length=`, `variable_broadcast=False`), a scanned dropout stack whose 'dropout' stream is not
split (applied deterministically; in training Flax refuses it), a module vmapped by hand
(`parent=None`, `jax.vmap` of its `init` inside `self.param`) against `nn.vmap` of the same
module, and `nn.vmap` of a block with cross-example `BatchNorm` (`axis_name`)."""

import functools

import jax
import jax.numpy as jnp
import flax
from flax import linen as nn


class JitStack(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i, w in enumerate((4, 3)):
            x = nn.relu(nn.jit(nn.Dense)(w, name=f"d{i}")(x))
        return x


class RematStack(nn.Module):
    @nn.remat
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(jnp.sin(nn.Dense(4)(x)))


class WithSide(nn.Module):
    @nn.compact
    def __call__(self, x):
        side = self.variable(
            "side", "offset", lambda: jax.random.uniform(self.make_rng("other"), (2,))
        )
        return nn.Dense(2)(x) + side.value


class Head(nn.Module):
    size: int
    rate: float = 0.2
    train: bool = False

    @nn.compact
    def __call__(self, q_in, kv_in):
        proj = functools.partial(nn.Dense, self.size, use_bias=False)
        q, k, v = proj(name="q")(q_in), proj(name="k")(kv_in), proj(name="v")(kv_in)
        w = jax.nn.softmax(q @ k.T / jnp.sqrt(self.size), axis=-1)
        w = nn.Dropout(self.rate)(w, deterministic=not self.train)
        return nn.Dense(kv_in.shape[-1], name="o")(w @ v)


class MultiHead(nn.Module):
    heads: int = 2
    train: bool = False

    @nn.compact
    def __call__(self, q_in, kv_in):
        per_head = nn.vmap(
            Head,
            in_axes=(None, None),
            out_axes=0,
            axis_size=self.heads,
            variable_axes={"params": 0},
            split_rngs={"params": True, "dropout": True},
        )
        batched = nn.vmap(
            per_head,
            in_axes=(0, 0),
            out_axes=0,
            variable_axes={"params": None},
            split_rngs={"params": False, "dropout": True},
        )
        y = batched(size=q_in.shape[-1] // self.heads, train=self.train, name="attn")(q_in, kv_in)
        return y.sum(axis=1)


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, _):
        return x + nn.relu(nn.Dense(x.shape[-1])(x)), None


class DropBlock(nn.Module):
    train: bool

    @nn.compact
    def __call__(self, x, _):
        x = nn.Dropout(0.5, deterministic=not self.train)(nn.Dense(x.shape[-1])(x))
        return nn.relu(x), None


class DropStack(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        stack = nn.scan(
            DropBlock, variable_axes={"params": 0}, split_rngs={"params": True}, length=3
        )
        return stack(train)(x, None)[0]


class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1, name="out")(nn.relu(nn.Dense(3, name="hidden")(x)))


class ByHand(nn.Module):
    @nn.compact
    def __call__(self, xs):
        mlp = Mlp(parent=None)
        init = lambda key, xs: jax.vmap(mlp.init)(jax.random.split(key, xs.shape[0]), xs)
        stacked = self.param("mlp", lambda key, xs: init(key, xs)["params"], xs)
        return jax.vmap(mlp.apply)({"params": stacked}, xs)


class Lifted(nn.Module):
    @nn.compact
    def __call__(self, xs):
        return nn.vmap(Mlp, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=0)(
            name="mlp"
        )(xs)


class NormBlock(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.BatchNorm(axis_name="rows", use_running_average=not train)(nn.Dense(3)(x))
        return nn.Dense(1)(nn.relu(x))


class VmapNorm(nn.Module):
    @nn.compact
    def __call__(self, xs, train):
        lifted = nn.vmap(
            NormBlock,
            variable_axes={"params": 0, "batch_stats": 0},
            split_rngs={"params": True},
            in_axes=(0, None),
            axis_name="rows",
        )
        return lifted()(xs, train)


def _error_class(e):
    named = [
        c.__name__
        for c in type(e).__mro__
        if getattr(flax.errors, c.__name__, None) is c
        and c is not flax.errors.FlaxError
        and c.__module__ in ("flax.errors", "nn.flax_errors")
    ]
    return named[-1:] or [type(e).__name__]


def run():
    out = {}
    key = jax.random.key(0)
    x = jax.random.uniform(jax.random.key(1), (3, 2))

    jv = JitStack().init(key, x)
    out["jit"] = [jv, JitStack().apply(jv, x)]
    rv = RematStack().init(key, x)
    g = jax.grad(lambda p: RematStack().apply(p, x).sum())(rv)
    out["remat"] = [rv, RematStack().apply(rv, x), g]

    vmapped = {}
    for axes in (None, 0):
        for split in (False, True):
            if axes is None and split:
                continue
            dense = nn.vmap(
                nn.Dense,
                in_axes=0,
                out_axes=0,
                variable_axes={"params": axes},
                split_rngs={"params": split},
            )
            vmapped[f"dense {axes} {split}"] = dense(2).init(key, x)
    for side_axes, other_split in ((0, True), (0, False), (None, False)):
        model = nn.vmap(
            WithSide,
            in_axes=0,
            out_axes=0,
            variable_axes={"params": 0, "side": side_axes},
            split_rngs={"params": True, "other": other_split},
        )
        vmapped[f"side {side_axes} {other_split}"] = model().init(
            {"params": key, "other": jax.random.key(2)}, x
        )
    out["vmap"] = vmapped

    seq = jax.random.normal(jax.random.key(3), (2, 5, 4))
    mv = MultiHead().init(key, seq, seq)
    out["attention"] = dict(
        shapes=jax.tree.map(jnp.shape, mv),
        eval=MultiHead().apply(mv, seq, seq),
        train=MultiHead(train=True).apply(mv, seq, seq, rngs={"dropout": jax.random.key(4)}),
    )

    scans = {}
    for split in (True, False):
        stack = nn.scan(
            Block,
            variable_axes={"params": 0},
            variable_broadcast=False,
            split_rngs={"params": split},
            length=3,
        )
        sv = stack().init(key, x, None)
        scans[str(split)] = [sv, stack().apply(sv, x, None)[0]]
    out["scan"] = scans

    dv = DropStack().init(key, x, train=False)
    out["drop stack"] = [jax.tree.map(jnp.shape, dv), DropStack().apply(dv, x, train=False)]
    try:
        out["drop stack train"] = DropStack().apply(
            dv, x, train=True, rngs={"dropout": jax.random.key(5)}
        )
    except Exception as e:  # noqa: BLE001
        out["drop stack train"] = _error_class(e)

    rows = jnp.linspace(0.0, 1.0, 8).reshape(4, 2)
    hv = ByHand().init(key, rows)
    lv = Lifted().init(key, rows)
    out["by hand"] = [hv, ByHand().apply(hv, rows)]
    out["lifted"] = [jax.tree.map(jnp.shape, lv), Lifted().apply(lv, rows)]

    stats = {}
    for train in (False, True):
        nv = VmapNorm().init(key, rows[:, None, :].repeat(3, axis=1), train)
        stats[str(train)] = jax.tree.map(jnp.shape, nv)
    y, upd = VmapNorm().apply(
        nv, rows[:, None, :].repeat(3, axis=1) * 2.0, True, mutable=["batch_stats"]
    )
    out["vmap norm"] = [stats, y, upd]
    return out
