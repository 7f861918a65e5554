"""`nn.core_nn` (``flax.core.nn``): Flax's functional layers give Flax's variables and outputs.

Expected values: flax 0.12.8's ``flax.core.nn`` run on the same program (first six outputs of
each layer, rounded in print).
"""

import numpy as np

import core
import core.numpy as jnp
from core import random
from nn import core_nn
from nn.core import apply, init

_X = jnp.asarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10 - 1)


def _layers(scope, x):
    e = core_nn.embedding(scope.push("e"), 5, 3)
    return [
        core_nn.dense(scope.push("d"), x, 3),
        core_nn.dense_general(scope.push("dg"), x, (2, 2), axis=-1, batch_dims=0),
        core_nn.conv(scope.push("c"), x, 2, (2,), padding="VALID"),
        core_nn.conv_transpose(scope.push("ct"), x, 2, (3,), strides=(2,)),
        core_nn.batch_norm(scope.push("bn"), x),
        core_nn.layer_norm(scope.push("ln"), x),
        core_nn.group_norm(scope.push("gn"), x, num_groups=2),
        e.lookup(jnp.array([1, 4])),
        e.attend(jnp.ones(3)),
        core_nn.dropout(scope.push("do"), x, 0.5),
    ]


_FLAX = [
    [-1.1229378, -0.1630696, -0.6739909, -0.6078722, -0.0352135, -0.3226948],
    [-1.2402047, -0.0968716, -1.0804126, 1.6314639, -0.6369792, -0.0323815],
    [0.6763566, 0.2216984, 0.2170264, 0.0883913, -0.701634, -0.178223],
    [0.4239526, -0.0631826, -0.2354601, -0.3060899, -0.758989, 0.0438384],
    [-1.4638344, -1.4638344, -1.4638344, -1.4638345, -0.8783007, -0.8783007],
    [-1.3415875, -0.4471955, 0.447196, 1.341588, -1.3415865, -0.4471955],
    [-1.3619636, -1.059305, -1.3619635, -1.059305, -0.1513292, 0.1513295],
    [-0.5660968, -0.079601, -0.5083168, 0.407579, 0.3442843, 0.06543],
    [-0.7604509, -1.1540145, 0.3723291, 0.3851739, 0.8172933],
    [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
]


def test_functional_layers_give_flaxs_variables_and_outputs():
    out, v = init(_layers)({"params": random.key(0), "dropout": random.key(1)}, _X)
    shapes = core.tree_util.tree_map(lambda a: tuple(a.shape), v)
    assert shapes["params"]["dg"] == {"bias": (2, 2, 2), "kernel": (2, 4, 2, 2)}
    assert shapes["params"]["gn"] == {"bias": (1, 1, 4), "scale": (1, 1, 4)}
    assert shapes["params"]["e"] == {"table": (5, 3)}
    for got, want in zip(out, _FLAX):
        np.testing.assert_allclose(np.ravel(got)[:6], want, rtol=2e-6, atol=2e-7)
    # batch_norm moves its averages from the second call on
    out2, v2 = apply(_layers, mutable="batch_stats")(v, _X * 2, rngs={"dropout": random.key(2)})
    np.testing.assert_allclose(np.ravel(out2[4])[:2], [-1.4638462, -1.4638461], rtol=1e-6)
    stats = v2["batch_stats"]["bn"]
    np.testing.assert_allclose(stats["mean"], [0.0, 0.002, 0.004, 0.006], atol=1e-8)
    np.testing.assert_allclose(stats["var"], [1.0086666] * 4, rtol=1e-6)
