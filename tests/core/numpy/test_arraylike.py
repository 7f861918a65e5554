"""Which arguments `jnp` functions refuse as Python sequences, against JAX 0.10.2.

`arraylike_cases.py` holds calls over the public namespace with numpy arrays; every array of a
call (a *slot*) made a Python list gives JAX's `TypeError: <name> requires ndarray or scalar
arguments, got <class 'list'> at position <i>.`, or another error, or nothing (a shape, a
`pad_width`, a `condlist`, ...): `jax_arraylike.json`, written by `record_arraylike.py`. numbax
must give the same message for the same slot, and run the call with numpy arrays, numpy and
Python scalars, numbax arrays and tracers.
"""

import json
import pathlib

import numpy as np
import pytest

import core
import core.nn as nn
import core.numpy as jnp
import core.scipy.special as special
from tests.core.numpy import arraylike_cases as cases

TABLE = json.loads((pathlib.Path(__file__).parent / "jax_arraylike.json").read_text())["cases"]
NAMESPACES = {"": jnp, "linalg": jnp.linalg, "fft": jnp.fft, "nn": nn, "special": special}
RECORDED = [c for c in cases.CASES if TABLE[c[0]]["base"] == "ok"]
SLOTS = [(c, slot) for c in RECORDED for slot in TABLE[c[0]] if slot != "base"]


@pytest.mark.parametrize("case,slot", SLOTS, ids=[f"{c[0]}-{s}" for c, s in SLOTS])
def test_list_argument_as_in_jax(case, slot):
    label, path, args, kwargs = case
    want = TABLE[label][slot]
    got = cases.outcome(cases.resolve(NAMESPACES, path), *cases.with_list(args, kwargs, slot))
    if want.startswith("error: "):  # JAX fails elsewhere (converting, tracing): so must numbax
        assert got != "ok", want
    else:
        assert got == want


@pytest.mark.parametrize("case", RECORDED, ids=[c[0] for c in RECORDED])
def test_numpy_and_numbax_arrays_pass(case):
    label, path, args, kwargs = case
    fn = cases.resolve(NAMESPACES, path)
    assert cases.outcome(fn, args, kwargs) == "ok"
    args, kwargs = core.tree_util.tree_map(
        lambda x: jnp.asarray(x) if isinstance(x, np.ndarray) else x, (args, kwargs)
    )
    assert cases.outcome(fn, args, kwargs) == "ok"


X = jnp.arange(3.0)
SCALARS_AND_TRACERS = {
    "sin_np_scalar": lambda: jnp.sin(np.float32(1)),
    "add_py_np": lambda: jnp.add(1, np.int8(2)),
    "where_scalars": lambda: jnp.where(True, 1.0, np.float32(2)),
    "concatenate_mixed": lambda: jnp.concatenate([np.ones(1), X, jnp.ones(2)]),
    "stack_scalars": lambda: jnp.stack([1.0, np.float32(2)]),
    "dot_scalars": lambda: jnp.dot(np.float32(2), 3.0),
    "clip_scalar": lambda: jnp.clip(np.float32(3), 0, 1),
    "norm_scalar": lambda: jnp.linalg.norm(np.float64(3.0)),
    "reshape_scalar": lambda: jnp.reshape(np.float32(1), (1,)),
    "take_scalar_index": lambda: jnp.take(X, np.int32(1)),
    "pad_list_width": lambda: jnp.pad(X, [(1, 2)]),
    "full_tuple_shape": lambda: jnp.full((2, 2), np.float32(1)),
    "broadcast_to_list_shape": lambda: jnp.broadcast_to(X, [2, 3]),
    "one_hot_scalar": lambda: nn.one_hot(np.int32(1), 3),
    "erf_python_float": lambda: special.erf(0.5),
    "jit_pad": lambda: core.jit(lambda x: jnp.pad(x, 1))(X),
    "jit_stack": lambda: core.jit(lambda x: jnp.stack([x, x]))(X),
    "jit_where": lambda: core.jit(lambda x: jnp.where(x > 1, x, 0.0))(X),
    "grad_norm": lambda: core.grad(lambda x: jnp.linalg.norm(jnp.concatenate([x, x])))(X),
    "vmap_take": lambda: core.vmap(lambda i: jnp.take(X, i))(jnp.arange(2)),
}


@pytest.mark.parametrize("name", sorted(SCALARS_AND_TRACERS))
def test_scalars_and_tracers_pass(name):
    assert cases.outcome(SCALARS_AND_TRACERS[name], (), {}) == "ok"


class _Converts:
    """A value with `__jax_array__` (not an array, no `__array__`): jnp functions take it."""

    def __init__(self, x):
        self.x = x

    def __jax_array__(self):
        return jnp.asarray(self.x)


# JAX 0.10.2: jnp functions convert a `__jax_array__` argument
@pytest.mark.parametrize(
    "fn",
    [
        jnp.sin,
        lambda a: jnp.add(a, 1.0),
        lambda a: jnp.where(jnp.greater(a, 0), a, 0.0),
        jnp.sum,
        jnp.sort,
        lambda a: jnp.concatenate([a, a]),
        lambda a: jnp.isin(a, _Converts([2.0])),
        lambda a: jnp.result_type(a),
        lambda a: jnp.divide(a, _Converts([3.0, 7.0, -0.3])),  # (rounded as array / array)
        lambda a: jnp.fft.fft2(_Converts(jnp.reshape(a, (1, 3)))),
        lambda a: jnp.full_like(a, _Converts(np.float32(1.5))),
        lambda a: jnp.delete(a, _Converts(np.array([0, 2]))),
        lambda a: jnp.roll(a, _Converts(np.int32(1))),
    ],
)
def test_jax_array_protocol(fn):
    x = np.array([2.0, -1.0, 3.0], np.float32)
    want = fn(jnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(fn(_Converts(x))), np.asarray(want))
