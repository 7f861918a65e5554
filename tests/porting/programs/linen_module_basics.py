"""Linen modules from the ground up: a layer declaring its parameters inline (`self.param` with
`lax.dot_general`, optional bias, initializer attributes) and one declaring them in `setup`
from a known input width; a `setup` MLP holding a list of submodules and its `@nn.compact`
twin naming them alike (same parameters from the same key), automatic names (`Dense_0`,
`Affine_1`), a module with several methods (`apply(method=...)` by name, by function, by
lambda), `init_with_output`, `init` as `apply({}, mutable=True)`, `nn.init`/`nn.apply` of a
function of a module, a `partial` of `nn.Conv`/`nn.BatchNorm` as a layer factory, submodules
created before a branch (both initialized), an unbound module's fields and `hasattr`, what
`print` shows of variables and parameter shapes."""

import functools
from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
from jax import lax, random
from flax import linen as nn

from tests.porting import printed


class Affine(nn.Module):
    width: int
    use_offset: bool = True
    w_init: Callable = nn.initializers.lecun_normal()
    b_init: Callable = nn.initializers.zeros_init()

    @nn.compact
    def __call__(self, x):
        w = self.param("w", self.w_init, (x.shape[-1], self.width))
        y = lax.dot_general(x, w, (((x.ndim - 1,), (0,)), ((), ())))
        if self.use_offset:
            y = y + self.param("b", self.b_init, (self.width,))
        return y


class KnownAffine(nn.Module):
    n_in: int
    n_out: int

    def setup(self):
        self.w = self.param("w", nn.initializers.normal(0.5), (self.n_in, self.n_out))
        self.b = self.param("b", nn.initializers.constant(0.1), (self.n_out,))

    def __call__(self, x):
        return jnp.dot(x, self.w) + self.b


class Tower(nn.Module):
    widths: Sequence[int]

    def setup(self):
        self.layers = [nn.Dense(w) for w in self.widths]

    def __call__(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i + 1 < len(self.layers):
                x = nn.tanh(x)
        return x


class CompactTower(nn.Module):
    widths: Sequence[int]

    @nn.compact
    def __call__(self, x):
        for i, w in enumerate(self.widths):
            x = nn.Dense(w, name=f"layers_{i}")(x)
            if i + 1 < len(self.widths):
                x = nn.tanh(x)
        return x


class Mixed(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(3)(x)
        x = Affine(3, use_offset=False)(x) + Affine(3)(x)
        return nn.Dense(2)(x) * self.param("gain", nn.initializers.ones_init(), (2,))


class Codec(nn.Module):
    code: int
    size: int

    def setup(self):
        self.enc = Tower((6, self.code))
        self.dec = nn.Dense(self.size)

    def encode(self, x):
        return self.enc(x)

    def decode(self, z):
        return nn.sigmoid(self.dec(z))

    def __call__(self, x):
        return self.decode(self.encode(x))


class Branchy(nn.Module):
    @nn.compact
    def __call__(self, x, which):
        up, down = nn.Dense(5), nn.Dense(2)
        return up(x) if which == "up" else down(x)


class Peek(nn.Module):
    def setup(self):
        self.inner = nn.Dense(2)
        print("variables seen in setup:", self.inner.variables)

    def __call__(self, x):
        return self.inner(x)


class Stem(nn.Module):
    train: bool = True

    @nn.compact
    def __call__(self, x):
        conv = functools.partial(nn.Conv, use_bias=False, padding="SAME")
        norm = functools.partial(
            nn.BatchNorm, use_running_average=not self.train, momentum=0.8, epsilon=1e-3
        )
        x = nn.relu(norm(name="bn1")(conv(4, (3, 3), (2, 2), name="conv1")(x)))
        return norm(name="bn2")(conv(2, (1, 1), name="conv2")(x))


def run():
    def cells(out, errors, mark):
        k1, k2 = random.split(random.key(3))
        x = random.uniform(k1, (3, 4))

        variables = Affine(2).init(k2, x)
        print(variables)
        print(Affine(2).apply(variables, x))
        out["affine"] = [
            variables,
            Affine(2).apply(variables, x),
            sorted(Affine(2, use_offset=False).init(k2, x)["params"]),
        ]
        mark("affine")

        known = KnownAffine(4, 3).init(k2, x)
        print(jax.tree.map(jnp.shape, known))
        out["known"] = [known, KnownAffine(4, 3).apply(known, x)]
        mark("known")

        a = Tower((5, 3)).init(k2, x)
        b = CompactTower((5, 3)).init(k2, x)
        print("setup:", jax.tree.map(jnp.shape, a))
        print("compact:", jax.tree.map(jnp.shape, b))
        out["towers"] = [
            a,
            Tower((5, 3)).apply(a, x),
            CompactTower((5, 3)).apply(b, x),
            jax.tree.all(jax.tree.map(jnp.array_equal, a, b)),
        ]
        mark("towers")

        y, mixed = Mixed().init_with_output(k2, x)
        print(jax.tree.map(jnp.shape, mixed))
        out["mixed"] = [y, mixed]
        mark("mixed")

        codec = Codec(code=2, size=4)
        cv = codec.init(k2, x=x)
        z = codec.apply(cv, x=x, method="encode")
        out["codec"] = dict(
            y=codec.apply(cv, x),
            z=z,
            decoded=codec.apply(cv, z, method=Codec.decode),
            first=codec.apply(cv, x, method=lambda m, v: m.enc.layers[0](v)),
            shapes=jax.tree.map(jnp.shape, cv),
        )

        y0, as_init = codec.apply({}, x, rngs={"params": k2}, mutable=True)
        out["apply as init"] = [y0, jax.tree.all(jax.tree.map(jnp.array_equal, as_init, cv))]

        def both_ways(m, v):
            return m.decode(m.encode(v) * 2.0)

        fv = nn.init(both_ways, codec)(k2, x)
        out["nn.init"] = [fv, nn.apply(both_ways, codec)(fv, x)]

        bv = nn.init(lambda m, v: m(m(v, "up"), "down"), Branchy())(random.key(0), x)
        print(jax.tree.map(jnp.shape, bv))
        mark("methods")

        sv = Stem().init(random.key(1), jnp.ones((2, 6, 6, 3)))
        imgs = random.normal(random.key(2), (2, 6, 6, 3))
        y, upd = Stem().apply(sv, imgs, mutable=["batch_stats"])
        out["stem"] = dict(
            shapes=jax.tree.map(jnp.shape, sv),
            y=y,
            stats=upd,
            eval=Stem(train=False).apply({**sv, **upd}, imgs),
        )

        print(jax.tree.map(jnp.shape, Peek().init(k2, x)))
        bare = Tower((2,))
        print(bare.widths, hasattr(bare, "layers"), bare.parent is None, bare.name)
        mark("unbound")

    return printed.notebook(cells)
