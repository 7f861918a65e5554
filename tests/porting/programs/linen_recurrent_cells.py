"""Recurrent cells and scanning them: `LSTMCell(features=)` and `OptimizedLSTMCell` with
`initialize_carry` taking an input shape (the carry's zeros, its shapes), one step of a cell,
`num_feature_axes`; a cell method lifted by `nn.transforms.scan` as a decorator over time
(`variable_broadcast='params'`, `split_rngs={'params': False}`, `in_axes=1`) with its carry
from a detached `parent=None` cell in a `staticmethod`; a cell class lifted by `nn.scan` in
`setup` whose `initialize_carry` is called on the lifted instance; `nn.scan` of `LSTMCell`
inside `@nn.compact`; a hand-written cell with an extra `zero_state` method called on the
lifted instance (`out_axes=1`)."""

import functools

import jax
import jax.numpy as jnp
from flax import linen as nn


class StepTanh(nn.Module):
    size: int

    @nn.compact
    def __call__(self, h, x):
        h = nn.tanh(nn.Dense(self.size)(jnp.concatenate([h, x], axis=-1)))
        return h, 2.0 * h

    def zero_state(self, batch):
        return jnp.full((batch, self.size), 0.1)


class Decorated(nn.Module):
    @functools.partial(
        nn.transforms.scan,
        variable_broadcast="params",
        in_axes=1,
        out_axes=1,
        split_rngs={"params": False},
    )
    @nn.compact
    def __call__(self, carry, x):
        return nn.OptimizedLSTMCell(carry[0].shape[-1])(carry, x)

    @staticmethod
    def start(batch, size):
        cell = nn.OptimizedLSTMCell(size, parent=None)
        return cell.initialize_carry(jax.random.key(0), (batch, size))


class InSetup(nn.Module):
    size: int

    def setup(self):
        self.run_cells = nn.scan(
            nn.LSTMCell,
            variable_broadcast="params",
            in_axes=1,
            out_axes=1,
            split_rngs={"params": False},
        )(self.size)

    def __call__(self, xs):
        carry = self.run_cells.initialize_carry(jax.random.key(0), xs[:, 0].shape)
        return self.run_cells(carry, xs)


class InCompact(nn.Module):
    size: int

    @nn.compact
    def __call__(self, xs):
        cells = nn.scan(
            nn.LSTMCell,
            variable_broadcast="params",
            in_axes=1,
            out_axes=1,
            split_rngs={"params": False},
        )(self.size, name="lstm")
        return cells(cells.initialize_carry(jax.random.key(1), xs[:, 0].shape), xs)


class Plain(nn.Module):
    size: int

    @nn.compact
    def __call__(self, xs):
        rnn = nn.scan(
            StepTanh,
            variable_broadcast="params",
            split_rngs={"params": False},
            in_axes=1,
            out_axes=1,
        )(self.size)
        return rnn(rnn.zero_state(xs.shape[0]), xs)


def run():
    out = {}
    xs = jax.random.normal(jax.random.key(2), (2, 5, 3))
    cell = nn.LSTMCell(features=4)
    carry = cell.initialize_carry(jax.random.key(0), xs[:, 0].shape)
    out["carry"] = [carry, [c.shape for c in carry], cell.num_feature_axes]
    cv = cell.init(jax.random.key(3), carry, xs[:, 0])
    out["lstm step"] = [jax.tree.map(jnp.shape, cv), cell.apply(cv, carry, xs[:, 0])]
    fast = nn.OptimizedLSTMCell(4)
    fv = fast.init(jax.random.key(3), carry, xs[:, 0])
    out["optimized step"] = [jax.tree.map(jnp.shape, fv), fast.apply(fv, carry, xs[:, 0])]

    start = Decorated.start(2, 4)
    dv = Decorated().init(jax.random.key(4), start, xs)
    out["decorated"] = [dv, Decorated().apply(dv, start, xs)]

    sv = InSetup(3).init(jax.random.key(5), xs)
    out["setup"] = [jax.tree.map(jnp.shape, sv), InSetup(3).apply(sv, xs)]

    cv = InCompact(2).init(jax.random.key(6), xs)
    out["compact"] = [cv, InCompact(2).apply(cv, xs)]

    pv = Plain(4).init(jax.random.key(7), xs)
    out["plain"] = [pv, Plain(4).apply(pv, xs)]
    return out
