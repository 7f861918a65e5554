"""Recurrent cells and RNN/Bidirectional against numpy references and Flax known answers."""

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core import random, tree_util
from core.test_util import check_grads


def rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_params(variables):
    return tree_util.tree_map(np.asarray, variables["params"])


def np_lstm(p, carry, x):
    c, h = carry
    gate = lambda g: x @ p["i" + g]["kernel"] + h @ p["h" + g]["kernel"] + p["h" + g]["bias"]  # noqa: E731
    i, f, g, o = sigmoid(gate("i")), sigmoid(gate("f")), np.tanh(gate("g")), sigmoid(gate("o"))
    new_c = f * c + i * g
    new_h = o * np.tanh(new_c)
    return (new_c, new_h), new_h


def np_gru(p, h, x):
    dense = lambda name, v: v @ p[name]["kernel"] + p[name].get("bias", 0)  # noqa: E731
    r = sigmoid(dense("ir", x) + dense("hr", h))
    z = sigmoid(dense("iz", x) + dense("hz", h))
    n = np.tanh(dense("in", x) + r * dense("hn", h))
    new_h = (1 - z) * n + z * h
    return new_h, new_h


def np_simple(p, h, x):
    new_h = np.tanh(x @ p["i"]["kernel"] + p["i"]["bias"] + h @ p["h"]["kernel"])
    return new_h, new_h


def random_params(variables, seed=3):
    leaves, treedef = tree_util.tree_flatten(variables["params"])
    leaves = [jnp.asarray(0.5 * rand(np.shape(v), seed + i)) for i, v in enumerate(leaves)]
    return tree_util.tree_unflatten(treedef, leaves)


CELLS = [
    (nn.LSTMCell, np_lstm),
    (nn.OptimizedLSTMCell, np_lstm),
    (nn.GRUCell, np_gru),
    (nn.SimpleCell, np_simple),
]


@pytest.mark.parametrize("cell_cls, reference", CELLS, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("batch", [(), (2,), (3, 2)])
def test_cell_step_matches_numpy(cell_cls, reference, batch):
    cell = cell_cls(features=4)
    x = rand(batch + (3,))
    carry = cell.initialize_carry(random.key(1), x.shape)
    variables = cell.init(random.key(0), carry, x)
    params = random_params(variables)
    carry = tree_util.tree_map(lambda c: jnp.asarray(rand(c.shape, 9)), carry)
    new_carry, y = cell.apply({"params": params}, carry, x)
    np_carry = tree_util.tree_map(np.asarray, carry)
    want_carry, want_y = reference(np_params({"params": params}), np_carry, x)
    np.testing.assert_allclose(np.asarray(y), want_y, rtol=1e-4, atol=1e-5)
    for a, b in zip(tree_util.tree_leaves(new_carry), tree_util.tree_leaves(want_carry)):
        np.testing.assert_allclose(np.asarray(a), b, rtol=1e-4, atol=1e-5)


def test_lstm_cell_init_equals_flax():
    cell = nn.LSTMCell(3)
    carry = cell.initialize_carry(random.key(1), (2, 2))
    variables = cell.init(random.key(0), carry, jnp.ones((2, 2)))
    p = np_params(variables)
    flax_ii = [[-0.45257321, 1.21507418, -0.7210955], [-0.16690509, -0.50839704, 0.17620918]]
    flax_hi = [
        [0.70694554, 0.67401141, 0.21432798],
        [-0.54334128, 0.32355908, 0.77465457],
        [0.45277828, -0.66409189, 0.59495693],
    ]
    np.testing.assert_allclose(p["ii"]["kernel"], flax_ii, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p["hi"]["kernel"], flax_hi, rtol=1e-5, atol=1e-6)
    assert set(p) == {"ii", "if", "ig", "io", "hi", "hf", "hg", "ho"}
    assert "bias" not in p["ii"] and p["hi"]["bias"].shape == (3,)


def test_optimized_lstm_cell_has_lstm_params_and_outputs():
    x = rand((2, 3))
    carry = nn.LSTMCell(4).initialize_carry(random.key(0), x.shape)
    a = nn.LSTMCell(4).init(random.key(0), carry, x)
    b = nn.OptimizedLSTMCell(4).init(random.key(0), carry, x)
    for la, lb in zip(tree_util.tree_leaves(a), tree_util.tree_leaves(b)):
        np.testing.assert_array_equal(np.asarray(la), np.asarray(lb))
    ya = nn.LSTMCell(4).apply(a, carry, x)[1]
    yb = nn.OptimizedLSTMCell(4).apply(a, carry, x)[1]
    np.testing.assert_allclose(np.asarray(ya), np.asarray(yb), rtol=1e-5, atol=1e-6)


def np_rnn(step, params, carry, xs):
    ys = []
    for t in range(xs.shape[1]):
        carry, y = step(params, carry, xs[:, t])
        ys.append(y)
    return carry, np.stack(ys, axis=1)


@pytest.mark.parametrize("time_major", [False, True])
def test_rnn_matches_python_loop(time_major):
    x = rand((2, 5, 3))
    rnn = nn.RNN(nn.GRUCell(4), return_carry=True, time_major=time_major)
    xin = np.swapaxes(x, 0, 1) if time_major else x
    variables = rnn.init(random.key(0), xin)
    assert set(variables["params"]) == {"cell"}
    params = random_params(variables)
    carry, ys = rnn.apply({"params": params}, xin)
    want_carry, want_ys = np_rnn(np_gru, np_params({"params": params})["cell"], np.zeros((2, 4)), x)
    if time_major:
        want_ys = np.swapaxes(want_ys, 0, 1)
    np.testing.assert_allclose(np.asarray(ys), want_ys, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(carry), want_carry, rtol=1e-4, atol=1e-5)


def test_rnn_params_equal_a_single_cell_step_like_flax():
    x = jnp.ones((2, 5, 3))
    rnn_params = nn.RNN(nn.LSTMCell(4)).init(random.key(0), x)["params"]["cell"]
    flax_ii_row0 = [1.1064746, 0.38590464, 0.23522934, -0.7184678]
    np.testing.assert_allclose(np.asarray(rnn_params["ii"]["kernel"][0]), flax_ii_row0, rtol=1e-5)


@pytest.mark.parametrize(
    "kwargs, flax_carry, flax_sum, flax_weighted",
    [
        (
            dict(),
            [[0.18588434, 0.12074927, -0.51213086], [-0.20216487, -0.64444911, 0.41445702]],
            -1.8305468559265137,
            -25.24051856994629,
        ),
        (
            dict(reverse=True),
            [[0.23845233, 0.11716854, -0.54862332], [-0.08668941, -0.32888633, 0.33186895]],
            -2.0138626098632812,
            -25.78628921508789,
        ),
        (
            dict(reverse=True, keep_order=True),
            [[0.23845233, 0.11716854, -0.54862332], [-0.08668941, -0.32888633, 0.33186895]],
            -2.0138628482818604,
            -30.017900466918945,
        ),
    ],
)
def test_rnn_seq_lengths_and_reverse_equal_flax(kwargs, flax_carry, flax_sum, flax_weighted):
    x = jnp.asarray(np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10 - 1)
    rnn = nn.RNN(nn.GRUCell(3), return_carry=True, **kwargs)
    variables = rnn.init(random.key(0), x)
    carry, ys = rnn.apply(variables, x, seq_lengths=jnp.asarray([2, 4]))
    np.testing.assert_allclose(np.asarray(carry), flax_carry, rtol=1e-5, atol=1e-6)
    ys = np.asarray(ys)
    np.testing.assert_allclose(ys.sum(), flax_sum, rtol=1e-5)
    np.testing.assert_allclose(
        (ys * np.arange(ys.size).reshape(ys.shape)).sum(), flax_weighted, rtol=1e-5
    )


def test_rnn_initial_carry_and_flip_sequences():
    x = rand((2, 3, 2))
    rnn = nn.RNN(nn.SimpleCell(2))
    variables = rnn.init(random.key(0), x)
    h0 = rand((2, 2), 4)
    ys = rnn.apply(variables, x, initial_carry=jnp.asarray(h0))
    _, want = np_rnn(np_simple, np_params(variables)["cell"], h0, x)
    np.testing.assert_allclose(np.asarray(ys), want, rtol=1e-4, atol=1e-5)
    seqs = jnp.asarray([[1, 0, 0], [2, 3, 0], [4, 5, 6]])[..., None]
    flipped = nn.recurrent.flip_sequences(seqs, jnp.asarray([1, 2, 3]), 1, False)
    np.testing.assert_array_equal(np.asarray(flipped)[..., 0], [[1, 0, 0], [3, 2, 0], [6, 5, 4]])


def test_bidirectional_tree_and_outputs():
    x = rand((2, 4, 3))
    bi = nn.Bidirectional(nn.RNN(nn.GRUCell(2)), nn.RNN(nn.GRUCell(2)))
    variables = bi.init(random.key(0), x)
    assert set(variables["params"]) == {"forward_rnn", "backward_rnn"}
    assert set(variables["params"]["forward_rnn"]["cell"]) == {"hn", "hr", "hz", "in", "ir", "iz"}
    ys = np.asarray(bi.apply(variables, x))
    p = np_params(variables)
    _, fwd = np_rnn(np_gru, p["forward_rnn"]["cell"], np.zeros((2, 2)), x)
    _, bwd = np_rnn(np_gru, p["backward_rnn"]["cell"], np.zeros((2, 2)), x[:, ::-1])
    np.testing.assert_allclose(ys, np.concatenate([fwd, bwd[:, ::-1]], -1), rtol=1e-4, atol=1e-5)


def test_check_grads_through_rnn():
    x = jnp.asarray(rand((2, 3, 2)))
    rnn = nn.RNN(nn.LSTMCell(2))
    params = rnn.init(random.key(0), x)["params"]
    check_grads(lambda p, xx: rnn.apply({"params": p}, xx), (params, x), order=1, modes=["rev"])


# Flax 0.12.8 values for the same keys and inputs.
def test_mgu_cell_matches_flax():
    cell = nn.MGUCell(3)
    h = jnp.zeros((2, 3))
    x = jnp.arange(8.0).reshape(2, 4) / 8
    v = cell.init(random.key(0), h, x)
    p = v["params"]
    assert sorted(p) == ["hf", "hn", "if", "in"] and "bias" not in p["hf"]
    np.testing.assert_allclose(
        np.asarray(p["if"]["kernel"][0]), [-0.00324104, 1.0378308, -0.47575265], rtol=1e-5
    )
    np.testing.assert_array_equal(np.asarray(p["if"]["bias"]), [1.0, 1.0, 1.0])
    y = cell.apply(v, h + 0.5, x)[1]
    np.testing.assert_allclose(np.asarray(y[0]), [0.46222556, 0.4708948, 0.3028708], rtol=1e-5)


def test_conv_lstm_cell_matches_flax():
    cell = nn.ConvLSTMCell(2, (3,))
    x = jnp.arange(15.0).reshape(1, 5, 3) / 15
    carry = cell.initialize_carry(random.key(1), x.shape)
    v = cell.init(random.key(0), carry, x)
    assert tree_util.tree_map(np.shape, v["params"]) == {
        "ih": {"bias": (8,), "kernel": (3, 3, 8)},
        "hh": {"bias": (8,), "kernel": (3, 2, 8)},
    }
    np.testing.assert_allclose(
        np.asarray(v["params"]["ih"]["kernel"][0, 0, :3]),
        [0.54111814, -0.07850533, -0.47432876],
        rtol=1e-5,
    )
    y = cell.apply(v, carry, x)[1]
    np.testing.assert_allclose(
        np.asarray(y[0, :, 0]),
        [-0.00166637, -0.05284779, -0.12024651, -0.18752365, -0.3356611],
        rtol=1e-4,
        atol=1e-6,
    )


# Known answers from Flax 0.12.8 (flax.linen.RNN) for the same cells, keys and inputs.


class _TupleCell(nn.RNNCellBase):
    features: int = 3

    @nn.compact
    def __call__(self, carry, x):
        h = nn.tanh(nn.Dense(self.features)(x) + nn.Dense(self.features, name="hh")(carry))
        return h, (h, 2 * h)

    def initialize_carry(self, rng, input_shape):
        return jnp.zeros(input_shape[:-1] + (self.features,))


class _DropoutCell(nn.RNNCellBase):
    features: int = 3

    @nn.compact
    def __call__(self, carry, x):
        h = nn.tanh(nn.Dense(self.features)(x) + carry)
        h = nn.Dropout(0.5, deterministic=False)(h)
        self.sow("intermediates", "h", h)
        return h, h

    def initialize_carry(self, rng, input_shape):
        return jnp.zeros(input_shape[:-1] + (self.features,))


SEQ = np.linspace(-1, 1, 16).reshape(2, 4, 2).astype(np.float32)


def test_rnn_over_a_cell_with_tuple_outputs_returns_the_tuple_like_flax():
    rnn = nn.RNN(_TupleCell())
    v = rnn.init(random.PRNGKey(0), SEQ)
    y = rnn.apply(v, SEQ)
    assert isinstance(y, tuple) and len(y) == 2
    want = [
        [-0.17132994532585144, -0.06582480669021606, -0.046448033303022385],
        [-0.12678690254688263, -0.3560674786567688, 0.13057218492031097],
        [-0.5914356708526611, -0.7060809135437012, -0.051102690398693085],
        [-0.5031582117080688, -0.8850738406181335, 0.23911789059638977],
    ]
    np.testing.assert_allclose(y[0][1], want, atol=1e-6)
    np.testing.assert_allclose(y[1], 2 * np.asarray(y[0]), atol=1e-6)
    rev = nn.RNN(_TupleCell(), return_carry=True, reverse=True, keep_order=True)
    carry, (h, _) = rev.apply(v, SEQ, seq_lengths=jnp.array([2, 4]))
    want_carry = [
        [0.6788384318351746, 0.8844856023788452, -0.0021448100451380014],
        [-0.48731741309165955, -0.6437989473342896, -0.10205568373203278],
    ]
    np.testing.assert_allclose(carry, want_carry, atol=1e-6)
    np.testing.assert_allclose(
        h[0, 1], [0.09492746740579605, 0.5605940222740173, -0.2345747500658], 1e-5
    )


def test_rnn_split_rngs_and_variable_axes_like_flax():
    rnn = nn.RNN(
        _DropoutCell(),
        split_rngs={"params": False, "dropout": True},
        variable_axes={"intermediates": 1},
    )
    v = rnn.init({"params": random.PRNGKey(1), "dropout": random.PRNGKey(2)}, SEQ)
    y, state = rnn.apply(v, SEQ, rngs={"dropout": random.PRNGKey(3)}, mutable=["intermediates"])
    want = [
        [0.0, 0.0, 0.0],
        [0.0, 0.3075915277004242, -0.2653668522834778],
        [0.0, 0.7223430275917053, -0.6218093633651733],
        [0.29371514916419983, 1.2195953130722046, 0.0],
    ]
    np.testing.assert_allclose(y[0], want, atol=1e-6)  # a new dropout mask at every step
    assert state["intermediates"]["cell"]["h"][0].shape == (2, 4, 3)  # stacked along axis 1
    same_mask = nn.RNN(_DropoutCell(), split_rngs={"params": False, "dropout": False})
    y = same_mask.apply(v, SEQ, rngs={"dropout": random.PRNGKey(3)})
    np.testing.assert_allclose(
        y[0, :, 0],
        [1.0054943561553955, 1.7806344032287598, 1.936509370803833, 1.9390640258789062],
        1e-6,
    )


def test_rnn_per_step_parameters_with_variable_axes_like_flax():
    rnn = nn.RNN(
        _TupleCell(),
        variable_axes={"params": 0},
        variable_broadcast=False,
        split_rngs={"params": True},
    )
    v = rnn.init(random.PRNGKey(4), SEQ)
    shapes = tree_util.tree_map(jnp.shape, v["params"]["cell"])
    assert shapes == {
        "Dense_0": {"bias": (4, 3), "kernel": (4, 2, 3)},
        "hh": {"bias": (4, 3), "kernel": (4, 3, 3)},
    }
    np.testing.assert_allclose(
        v["params"]["cell"]["Dense_0"]["kernel"][:, 0, 0],
        [0.4903261065483093, -0.17307335138320923, 0.3232240080833435, -0.3097929358482361],
        atol=1e-6,
    )
    y = rnn.apply(v, SEQ)[0]
    np.testing.assert_allclose(
        y[1, 3], [-0.92684006690979, 0.1443644016981125, 0.5886472463607788], 1e-5
    )


@pytest.mark.parametrize("cell, kwargs", [(nn.GRUCell, {}), (nn.LSTMCell, {"reverse": True})])
def test_rnn_over_an_empty_sequence_gives_empty_outputs_like_flax(cell, kwargs):
    # Flax 0.12.8: the parameters of a length-5 init, outputs (2, 0, 3), the initial carry
    layer = nn.RNN(cell(3), return_carry=True, **kwargs)
    empty = jnp.ones((2, 0, 4))
    variables = layer.init(random.key(0), empty)
    want = layer.init(random.key(0), jnp.ones((2, 5, 4)))
    tree_util.tree_map(np.testing.assert_array_equal, variables, want)
    carry, out = layer.apply(variables, empty)
    assert out.shape == (2, 0, 3)
    tree_util.tree_map(lambda c: np.testing.assert_array_equal(c, np.zeros((2, 3))), carry)
