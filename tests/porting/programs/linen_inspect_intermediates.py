"""Looking inside Linen models: `sow` (a module called twice leaves a tuple of two; a custom
`reduce_fn`/`init_fn` accumulates; without a mutable 'intermediates' it is a no-op and `init`
keeps only 'params'), `capture_intermediates` (all, filtered by module class and by name),
`apply(method=...)` by name, by function and by lambda reaching a submodule, `nn.Sequential`
and a slice of its layers applied with the whole model's parameters, `perturb` and the
gradients it exposes, `traverse_util.flatten_dict(sep='/')`, `Module.tabulate`/`nn.tabulate`
(what the tables say: counts, FLOPs, paths, totals; not how they are drawn), `module_paths`,
`self.path` printed during `init`, `bind`/`unbind`, `nn.share_scope` both ways,
`nn.map_variables` masking a kernel to lower-triangular, `lazy_init` of a `ShapeDtypeStruct`.
"""

import contextlib
import io
import re

import jax
import jax.numpy as jnp
import flax
from flax import linen as nn


class Trunk(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Conv(6, (3, 3))(x)
        x = nn.max_pool(nn.gelu(x), (2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        self.sow("intermediates", "flat", x)
        self.sow(
            "intermediates",
            "energy",
            jnp.sum(x * x),
            reduce_fn=lambda a, b: a + b,
            init_fn=lambda: 0.0,
        )
        return x


class Head(nn.Module):
    classes: int = 4

    @nn.compact
    def __call__(self, x):
        return nn.log_softmax(nn.Dense(self.classes)(nn.elu(nn.Dense(12)(x))))


class Net(nn.Module):
    def setup(self):
        self.trunk = Trunk()
        self.head = Head()

    def __call__(self, x):
        return self.head(self.trunk(x))

    def embed(self, x):
        return self.trunk(x)


class Twice(nn.Module):
    @nn.compact
    def __call__(self, x):
        trunk = Trunk(name="shared")
        return trunk(x) - 0.5 * trunk(2 * x)


def _table(text):
    """What a summary table says, apart from its drawing (rich's boxes or plain text): the
    paths of its rows (first column), the FLOPs columns where present, the variable counts and
    the total line."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    rows = [
        re.split(r"\s*[│|┃]\s*", line.strip())[1:-1]
        for line in text.splitlines()
        if line.strip()[:1] in ("│", "|", "┃")
    ]
    return dict(
        paths=[r[0] for r in rows if re.fullmatch(r"\w+(/\w+)*", r[0]) and r[0] != "path"],
        flops=[[c for c in r[4:6] if c.isdigit()] for r in rows if len(r) > 4 and r[4].isdigit()],
        sizes=sorted(set(re.findall(r"\d[\d,]* \([\d.]+ [KMG]?B\)", text))),
        total=re.search(r"Total Parameters: [^\n│|]*", text).group(0).strip(),
    )


def run():
    out = {}
    images = jax.random.uniform(jax.random.key(0), (2, 6, 6, 2))

    # sow
    v = Twice().init(jax.random.key(1), images)
    out["init collections"] = sorted(v)
    y, state = Twice().apply(v, images, mutable="intermediates")
    sown = state["intermediates"]["shared"]
    out["sow"] = dict(
        y=y,
        flat=list(sown["flat"]),
        energy=sown["energy"],
        kind=type(sown["flat"]).__name__,
        n=len(sown["flat"]),
    )
    out["sow immutable"] = Twice().apply(v, images)

    # capture_intermediates and method=
    net = Net()
    nv = jax.jit(net.init)(jax.random.key(2), images)
    everything = net.apply(nv, images, capture_intermediates=True, mutable=["intermediates"])[1]
    flat = flax.traverse_util.flatten_dict(everything["intermediates"], sep="/")
    out["captured"] = {k: jnp.stack(v) if isinstance(v, tuple) else v for k, v in flat.items()}
    dense_only = net.apply(
        nv, images, capture_intermediates=lambda m, name: isinstance(m, nn.Dense)
    )
    out["dense only"] = sorted(flax.traverse_util.flatten_dict(dense_only[1], sep="/"))
    by_name = net.apply(
        nv, images, capture_intermediates=lambda m, name: m.name in ("head", "Dense_1")
    )
    out["by name"] = flax.traverse_util.flatten_dict(by_name[1]["intermediates"], sep="/")
    out["embed"] = [
        net.apply(nv, images, method="embed"),
        net.apply(nv, images, method=Net.embed),
        jax.jit(lambda p, x: net.apply(p, x, method=lambda m, x: m.trunk(x)))(nv, images),
    ]

    # nn.Sequential and a slice of it
    seq = nn.Sequential([nn.Dense(5), nn.relu, nn.Dense(3), lambda z: z * 2.0, nn.Dense(2)])
    xs = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    sv = seq.init(jax.random.key(3), xs)
    first = nn.Sequential(seq.layers[:3])
    out["sequential"] = dict(
        shapes=jax.tree.map(jnp.shape, sv), y=seq.apply(sv, xs), first=first.apply(sv, xs)
    )

    # perturb
    class Probe(nn.Module):
        @nn.compact
        def __call__(self, x):
            h = self.perturb("hidden", nn.tanh(nn.Dense(4)(x)))
            return self.perturb("logits", nn.Dense(2)(h))

    probe = Probe()
    pv = probe.init(jax.random.key(4), xs)
    target = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    sq = lambda variables: jnp.sum((probe.apply(variables, xs) - target) ** 2)
    grads = jax.grad(sq)(pv)
    out["perturb"] = dict(
        zeros=pv["perturbations"],
        grads=grads["perturbations"],
        same=bool(jnp.allclose(probe.apply(pv, xs), probe.apply({"params": pv["params"]}, xs))),
        keys=sorted(jax.grad(sq)({"params": pv["params"]})),
    )

    # tabulate and module_paths
    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = True):
            cell = Cell()
            x = cell(cell(x, train), train)
            return nn.Dense(1)(x)

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, x, train):
            return nn.relu(nn.BatchNorm(use_running_average=not train)(nn.Dense(3)(x)))

    wide = {"width": 160}
    row = jnp.ones((4, 6))
    out["tabulate"] = _table(
        Head().tabulate(
            jax.random.key(0), row, compute_flops=True, compute_vjp_flops=True, console_kwargs=wide
        )
    )
    out["nn.tabulate"] = _table(nn.tabulate(Head(), jax.random.key(0), console_kwargs=wide)(row))
    three = jnp.ones((2, 3))
    out["depth"] = _table(Stack().tabulate(jax.random.key(0), three, depth=1, console_kwargs=wide))
    out["repeated"] = _table(
        Stack().tabulate(jax.random.key(0), three, show_repeated=True, console_kwargs=wide)
    )
    out["module_paths"] = {
        k: type(m).__name__ for k, m in Stack().module_paths(jax.random.key(0), three).items()
    }

    class Shout(nn.Module):
        @nn.compact
        def __call__(self, x):
            print("at", repr(self.path), self.name)
            return x

    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x):
            print("at", repr(self.path), self.name)
            return Shout(name="inner")(Shout()(x))

    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        Outer().init(jax.random.key(0), three)
    out["paths printed"] = said.getvalue().splitlines()

    # bind / unbind
    bound = net.bind(nv)
    trunk, trunk_vars = bound.trunk.unbind()
    out["bind"] = dict(
        head=bound.head(bound.trunk(images)),
        apply=net.apply(nv, images),
        unbound=[type(trunk).__name__, trunk.scope is None, sorted(trunk_vars)],
        trunk=trunk.apply(trunk_vars, images),
    )

    # share_scope: a wrapper that adds a low-rank update to a Dense's parameters
    class LowRank(nn.Module):
        base: nn.Module
        rank: int = 1

        def setup(self):
            nn.share_scope(self, self.base)

        @nn.compact
        def __call__(self, x):
            u = self.param("u", nn.initializers.ones_init(), (x.shape[-1], self.rank))
            w = self.param("w", nn.initializers.constant(0.25), (self.rank, self.base.features))
            return self.base(x) + x @ u @ w

    class Given(nn.Module):
        @nn.compact
        def __call__(self, x):
            return LowRank(nn.Dense(3))(x)

    class Own(nn.Module):
        def setup(self):
            self.inner = nn.Dense(3)
            nn.share_scope(self, self.inner)

        @nn.compact
        def __call__(self, x):
            return self.inner(x) + self.param("shift", nn.initializers.constant(1.0), (3,))

    class OwnParent(nn.Module):
        @nn.compact
        def __call__(self, x):
            return Own()(x)

    for name, model in (("given", Given()), ("own", OwnParent())):
        params = model.init(jax.random.key(5), xs)["params"]
        out[f"share_scope {name}"] = dict(
            tree=jax.tree.map(jnp.shape, params), y=model.apply({"params": params}, xs)
        )

    # map_variables: a Dense whose kernel is seen lower-triangular
    class Lower(nn.Module):
        def setup(self):
            masked = nn.map_variables(
                nn.Dense,
                "params",
                lambda t: t if self.is_initializing() else jax.tree.map(jnp.tril, t),
                init=self.is_initializing(),
            )
            self.inner = masked(4, use_bias=False)

        def __call__(self, x):
            return self.inner(x)

    lv = Lower().init(jax.random.key(6), jnp.ones((1, 4)))
    out["map_variables"] = dict(
        params=lv,
        eye=Lower().apply(lv, jnp.eye(4)),
        jacobian=jax.jacobian(lambda z: Lower().apply(lv, z))(jnp.ones(4)),
    )

    lazy = nn.Dense(7).lazy_init(jax.random.key(8), jax.ShapeDtypeStruct((2, 5), jnp.float32))
    out["lazy_init"] = [
        lazy,
        bool(
            jnp.array_equal(
                lazy["params"]["kernel"],
                nn.Dense(7).init(jax.random.key(8), jnp.zeros((2, 5)))["params"]["kernel"],
            )
        ),
    ]
    return out
