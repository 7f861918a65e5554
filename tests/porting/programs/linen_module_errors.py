"""How Linen refuses misuse, one case per row: the class of each error (a `flax.errors` class
by name, below `FlaxError`; another by its built-in class and first line). Fields of `setup`
read on an unbound module, calling it unbound, a submodule created in only one branch (its
shape error), variables declared outside `setup`/`@nn.compact`, a missing 'dropout' stream,
a module given a field it does not declare, `LSTMCell` without `features` and its old
class-level `initialize_carry`, `nn.merge_param` given neither value and both, `jnp.prod` of
a tuple, a lifted `nn.vmap` over a method given a function, `jax.vmap` over a module, keyword
arguments that `nn.vmap` does not pass on, a lifted transform naming a collection that
does not exist, a variable written in an immutable collection, `param` names used twice."""

import jax
import jax.numpy as jnp
import flax
from flax import linen as nn

from tests.porting import printed


# The `flax.errors` classes these cases can meet (Flax's names; numbax raises subclasses).
FLAX_ERRORS = (
    "InvalidRngError",
    "ScopeParamShapeError",
    "ScopeCollectionNotFound",
    "ModifyScopeVariableError",
    "NameInUseError",
    "JaxTransformError",
    "CallSetupUnboundModuleError",
    "AssignSubModuleError",
)


def _kind(e):
    mro = type(e).__mro__
    named = [
        c for c in mro if c.__name__ in FLAX_ERRORS and getattr(flax.errors, c.__name__, None) is c
    ]
    if named:
        return [named[-1].__name__]
    builtin = next(c for c in mro if c.__module__ == "builtins")
    return [builtin.__name__, printed.plain(str(e).splitlines()[0]).replace(f"{__name__}.", "")]


class Pair(nn.Module):
    def setup(self):
        self.parts = [nn.Dense(2), nn.Dense(3)]

    def __call__(self, x):
        return self.parts[1](self.parts[0](x))


class OneBranch(nn.Module):
    @nn.compact
    def __call__(self, x, wide):
        if wide:
            return nn.Dense(6)(x)
        return nn.Dense(2)(x)


class NoCompact(nn.Module):
    def __call__(self, x):
        total = self.variable("stats", "total", jnp.zeros, x.shape[-1:])
        return x + total.value


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x):
        keep = jax.random.bernoulli(self.make_rng("dropout"), 0.5, x.shape)
        return jnp.where(keep, x, 0.0)


class Plain(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


class Gate(nn.Module):
    closed: bool | None = None

    @nn.compact
    def __call__(self, x, closed=None):
        return x * (0.0 if nn.merge_param("closed", self.closed, closed) else 1.0)


class Repeat(nn.Module):
    @nn.compact
    def __call__(self, x, f):
        for _ in range(2):
            x = f(x)
        return x


class Closure(nn.Module):
    @nn.compact
    def __call__(self, x):
        layer = nn.Dense(x.shape[-1])
        lifted = nn.vmap(
            Repeat.__call__, in_axes=0, variable_axes={"params": 0}, split_rngs={"params": True}
        )
        return lifted(Repeat(), x, lambda v: layer(v) * 2)


class JaxVmap(nn.Module):
    @nn.compact
    def __call__(self, xs):
        return jax.vmap(lambda m, v: m(v))(Plain(), xs)


class KwNorm(nn.Module):
    @nn.compact
    def __call__(self, x, *, train):
        return nn.BatchNorm(use_running_average=not train, axis_name="b")(nn.Dense(2)(x))


class VmapKw(nn.Module):
    @nn.compact
    def __call__(self, xs, train):
        lifted = nn.vmap(
            KwNorm,
            variable_axes={"params": 0, "batch_stats": 0},
            split_rngs={"params": True},
            in_axes=0,
            axis_name="b",
        )
        return lifted()(xs, train=train)


class Typo(nn.Module):
    @nn.compact
    def __call__(self, x):
        lifted = nn.vmap(Plain, in_axes=0, variable_axes={"param": 0}, split_rngs={"params": True})
        return lifted()(x)


class Writes(nn.Module):
    @nn.compact
    def __call__(self, x):
        count = self.variable("counter", "n", lambda: jnp.zeros((), jnp.int32))
        count.value += 1
        return x


class Twice(nn.Module):
    @nn.compact
    def __call__(self, x):
        a = self.param("w", nn.initializers.ones_init(), (2,))
        b = self.param("w", nn.initializers.ones_init(), (2,))
        return x * a * b


def run():
    key = jax.random.key(0)
    x = jnp.ones((3, 2))
    xs = jnp.ones((4, 3, 2))
    wv = Writes().init(key, x)
    cases = {
        "unbound field": lambda: Pair().parts,
        "unbound call": lambda: Pair()(x),
        "one branch": lambda: nn.init(lambda m, v: m(m(v, True), False), OneBranch())(key, x),
        "no compact": lambda: NoCompact().init(key, x),
        "no dropout rng": lambda: Noisy().apply({}, x),
        "unknown field": lambda: Plain(3),
        "cell without features": lambda: nn.LSTMCell(),
        "class-level carry": lambda: nn.LSTMCell.initialize_carry(key, (3,), 4),
        "merge neither": lambda: Gate().apply({}, x),
        "merge both": lambda: Gate(closed=True).apply({}, x, closed=False),
        "prod of tuple": lambda: jnp.prod((2, 3)),
        "closure under nn.vmap": lambda: Closure().init(key, xs),
        "module under jax.vmap": lambda: JaxVmap().init(key, xs),
        "keyword dropped by nn.vmap": lambda: VmapKw().init(key, xs, True),
        "collection typo": lambda: Typo().init(key, xs),
        "immutable write": lambda: Writes().apply(wv, x),
        "name reused": lambda: Twice().init(key, x),
    }
    out = {}
    for name, thunk in cases.items():
        try:
            thunk()
            out[name] = None
        except Exception as e:  # noqa: BLE001
            # the class-level call fails inside Flax's own code: its class only
            out[name] = _kind(e)[:1] if name == "class-level carry" else _kind(e)
    out["hasattr before setup"] = hasattr(Pair(), "parts")
    out["mutable write"] = Writes().apply(wv, x, mutable=["counter"])[1]
    out["merge once"] = [Gate(closed=True).apply({}, x), Gate().apply({}, x, closed=False)]
    return out
