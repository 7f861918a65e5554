"""Random streams in Linen: `make_rng` keys per stream and per call (printed), two streams
drawn alternately, the rule that derives them (the stream's key folded with a 32-bit SHA-1 of
the module path and call count, rebuilt here and compared), sibling and nested submodules,
`self.param`/`self.variable` drawing from 'params' and another stream, the path collision
of names that concatenate alike and `flax_fix_rng_separator`; dropout in training with a key
split per step; keyword-only `random.split(key=, num=)` and `uniform(key=, shape=)`; a model
initialized with one key and applied with a 'dropout' stream; a dropout template passed as a
`partial` to submodules (`deterministic=not train`), `deterministic` given at call time to
a `setup` dropout, `nn.merge_param` of a field and an argument; a dropout written by hand
(`make_rng`, `bernoulli`, `lax.select`), eager and jitted."""

import functools
import hashlib

import jax
import jax.numpy as jnp
import flax
from flax import linen as nn

from tests.porting import printed


def _fold(seed, *parts):
    """The key Linen gives for `parts` (path names, then the call count), rebuilt."""
    digest = hashlib.sha1()
    for part in parts:
        if isinstance(part, int):
            digest.update(part.to_bytes((part.bit_length() + 7) // 8, "big"))
        else:
            digest.update(part.encode())
    return jax.random.fold_in(seed, jnp.uint32(int.from_bytes(digest.digest()[:4], "big")))


def _same(a, b):
    return bool(jnp.array_equal(jax.random.key_data(a), jax.random.key_data(b)))


class Draws(nn.Module):
    @nn.compact
    def __call__(self):
        return [self.make_rng("s") for _ in range(3)]


class Alternate(nn.Module):
    @nn.compact
    def __call__(self):
        for _ in range(2):
            print("a", self.make_rng("a"))
            print("b", self.make_rng("b"))


class Leaf(nn.Module):
    def __call__(self):
        return [self.make_rng("s"), self.make_rng("s")]


class Mid(nn.Module):
    @nn.compact
    def __call__(self):
        return [self.make_rng("s"), Leaf()(), Leaf()()]


class Top(nn.Module):
    @nn.compact
    def __call__(self):
        return [self.make_rng("s"), Mid()(), Mid(name="named")()]


class Draw(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + jax.random.uniform(self.make_rng("noise"), ())


class Holder(nn.Module):
    child: str

    @nn.compact
    def __call__(self, x):
        return Draw(name=self.child)(x)


class Collide(nn.Module):
    @nn.compact
    def __call__(self, x):
        return Holder("cd", name="ab")(x), Holder("d", name="abc")(x)


class Sources(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(3, kernel_init=jax.random.normal, bias_init=jax.random.normal)(x)
        own = self.param("own", jax.random.normal, (2,))
        side = self.variable(
            "side", "from_params", lambda: jax.random.normal(self.make_rng("params"), (2,))
        )
        other = self.variable(
            "side", "from_other", lambda: jax.random.normal(self.make_rng("other"), (2,))
        )
        return x, own, side.value, other.value


class Noisy(nn.Module):
    rate: float = 0.3

    @nn.compact
    def __call__(self, x, train):
        noise = self.variable(
            "fixed", "noise", lambda: jax.random.normal(self.make_rng("other"), x.shape[-1:])
        )
        x = nn.Dense(4)(x + noise.value)
        x = nn.Dropout(self.rate)(x, deterministic=not train)
        return nn.Dense(1)(nn.gelu(x))


class Residual(nn.Module):
    drop: functools.partial

    @nn.compact
    def __call__(self, x):
        return x + self.drop()(nn.Dense(x.shape[-1])(x))


class Deep(nn.Module):
    @nn.compact
    def __call__(self, x, *, train):
        drop = functools.partial(nn.Dropout, rate=0.4, deterministic=not train)
        for _ in range(3):
            x = Residual(drop)(x)
        return x


class LateDrop(nn.Module):
    def setup(self):
        self.drop = nn.Dropout(rate=0.5)
        self.dense = nn.Dense(2)

    def __call__(self, x, *, train):
        return self.drop(self.dense(x), deterministic=not train)


class SelectDrop(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, x, deterministic=False):
        if deterministic:
            return x
        keep = jax.random.bernoulli(self.make_rng("dropout"), 1.0 - self.rate, x.shape)
        return jax.lax.select(keep, x / (1.0 - self.rate), jnp.zeros_like(x))


class Merged(nn.Module):
    deterministic: bool | None = None

    @nn.compact
    def __call__(self, x, deterministic=None):
        d = nn.merge_param("deterministic", self.deterministic, deterministic)
        return nn.Dropout(0.5)(x, deterministic=d)


def run():
    def cells(out, errors, mark):
        key0, key1 = jax.random.key(0), jax.random.key(1)
        drawn = Draws().apply({}, rngs={"s": key0})
        print(drawn[0])
        out["draws"] = [jax.random.key_data(k) for k in drawn]
        out["draws rule"] = [_same(k, _fold(key0, i + 1)) for i, k in enumerate(drawn)]
        Alternate().apply({}, rngs={"a": key0, "b": key1})
        mark("draws")

        keys = Top().apply({}, rngs={"s": key0})
        paths = [
            (),
            ("Mid_0",),
            ("Mid_0", "Leaf_0"),
            ("Mid_0", "Leaf_0"),
            ("Mid_0", "Leaf_1"),
            ("Mid_0", "Leaf_1"),
            ("named",),
        ]
        counts = [1, 1, 1, 2, 1, 2, 1]
        flat = [keys[0], keys[1][0], *keys[1][1], *keys[1][2], keys[2][0]]
        out["nested rule"] = [_same(k, _fold(key0, *p, c)) for k, p, c in zip(flat, paths, counts)]
        out["nested"] = [jax.random.key_data(k) for k in flat]

        y, v = Sources().init_with_output({"params": key0, "other": key1}, jnp.ones((1, 2)))
        out["sources"] = [v, y]
        p = v["params"]
        out["sources rule"] = [
            bool(
                jnp.array_equal(
                    p["Dense_0"]["kernel"], jax.random.normal(_fold(key0, "Dense_0", 1), (2, 3))
                )
            ),
            bool(
                jnp.array_equal(
                    p["Dense_0"]["bias"], jax.random.normal(_fold(key0, "Dense_0", 2), (3,))
                )
            ),
            bool(jnp.array_equal(p["own"], jax.random.normal(_fold(key0, 1), (2,)))),
            bool(
                jnp.array_equal(v["side"]["from_params"], jax.random.normal(_fold(key0, 2), (2,)))
            ),
            bool(jnp.array_equal(v["side"]["from_other"], jax.random.normal(_fold(key1, 1), (2,)))),
        ]

        key33 = jax.random.key(33)
        a, b = Collide().apply({}, 0.0, rngs={"noise": key33})
        flax.config.update("flax_fix_rng_separator", True)
        try:
            c, d = Collide().apply({}, 0.0, rngs={"noise": key33})
        finally:
            flax.config.update("flax_fix_rng_separator", False)
        out["separator"] = [bool(a == b), bool(c == d), a, c, d]

        root = jax.random.key(seed=4)
        main, pkey, dkey = jax.random.split(key=root, num=3)
        x = jax.random.uniform(key=main, shape=(4, 3))
        target = jnp.linspace(-1.0, 1.0, 4)[:, None]
        model = Noisy()
        v = model.init({"params": pkey, "other": dkey}, x, train=False)

        @jax.jit
        def update(v, key):
            key, step_key = jax.random.split(key)

            def loss(p):
                pred = model.apply(
                    {"params": p, "fixed": v["fixed"]}, x, train=True, rngs={"dropout": step_key}
                )
                return jnp.mean((pred - target) ** 2)

            g = jax.grad(loss)(v["params"])
            return {
                "params": jax.tree.map(lambda a, b: a - 0.1 * b, v["params"], g),
                "fixed": v["fixed"],
            }, key

        key = dkey
        for _ in range(6):
            v, key = update(v, key)
            print(jnp.mean((model.apply(v, x, train=False) - target) ** 2))
        out["dropout training"] = v
        mark("training")

        xx = jnp.ones((2, 3))
        dv = Deep().init(pkey, xx, train=False)
        out["template"] = dict(
            shapes=jax.tree.map(jnp.shape, dv),
            eval=Deep().apply(dv, xx, train=False),
            train=Deep().apply(dv, xx, train=True, rngs={"dropout": dkey}),
        )
        lv = LateDrop().init(pkey, xx, train=False)
        out["late"] = [
            LateDrop().apply(lv, xx, train=False),
            LateDrop().apply(lv, xx, train=True, rngs={"dropout": dkey}),
        ]
        out["select drop"] = [
            SelectDrop(0.5).apply({}, xx + 1.0, rngs={"dropout": dkey}),
            jax.jit(lambda k: SelectDrop(0.25).apply({}, xx, rngs={"dropout": k}))(dkey),
            SelectDrop(0.5).apply({}, xx, deterministic=True),
        ]
        out["merged"] = [
            Merged().apply({}, xx, deterministic=True),
            Merged(deterministic=False).apply({}, xx, rngs={"dropout": dkey}),
        ]

    return printed.notebook(cells)
