"""Cases run both by numbax's tests and, once, by JAX (`make_answers.py`) to record the answers.

Every function takes the library modules as arguments (`jax` or `core`, their numpy, lax,
stax and optimizers), so this file imports neither.
"""

from __future__ import annotations

import numpy as np

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")

# (function name, args) for the lax shape helpers.
SHAPE_CASES = [
    ("conv_general_shape_tuple", ((8, 28, 28, 1), (3, 3, 1, 16), (1, 1), "SAME", NHWC)),
    ("conv_general_shape_tuple", ((8, 28, 28, 1), (5, 5, 1, 16), (2, 2), "VALID", NHWC)),
    ("conv_general_shape_tuple", ((2, 3, 9, 7), (4, 3, 3, 2), (2, 3), "SAME", NCHW)),
    ("conv_general_shape_tuple", ((2, 9, 7, 3), (3, 2, 3, 4), (1, 2), ((1, 2), (0, 3)), NHWC)),
    ("conv_general_shape_tuple", ((2, 10, 5), (3, 5, 6), (3,), "SAME", ("NHC", "HIO", "NHC"))),
    ("conv_transpose_shape_tuple", ((1, 5, 5, 2), (3, 3, 2, 4), (2, 2), "SAME", NHWC)),
    ("conv_transpose_shape_tuple", ((1, 5, 6, 2), (3, 4, 2, 4), (2, 3), "VALID", NHWC)),
    ("conv_transpose_shape_tuple", ((2, 2, 5, 6), (4, 2, 3, 3), (1, 2), ((1, 1), (2, 0)), NCHW)),
    ("conv_transpose_shape_tuple", ((2, 7, 3), (5, 3, 2), (3,), "SAME", ("NHC", "HIO", "NHC"))),
    ("reduce_window_shape_tuple", ((8, 28, 28, 3), (1, 2, 2, 1), (1, 2, 2, 1), ((0, 0),) * 4)),
    ("reduce_window_shape_tuple", ((4, 9), (3, 2), (2, 1), ((1, 1), (0, 2)), (2, 1), (1, 3))),
    ("padtype_to_pads", ((9, 7), (3, 4), (2, 3), "SAME")),
    ("padtype_to_pads", ((9, 7), (3, 4), (2, 3), "VALID")),
    ("padtype_to_pads", ((8, 5), (2, 4), (3, 1), "SAME_LOWER")),
    ("conv_shape_tuple", ((2, 3, 9, 7), (4, 3, 3, 2), (2, 3), "SAME")),
    ("conv_shape_tuple", ((2, 3, 9, 7), (4, 3, 3, 2), (2, 3), ((1, 0), (2, 2)))),
]


def run_shape_case(lax, name, args):
    """The helper's result as nested plain ints."""
    out = getattr(lax, name)(*args)
    return [list(map(int, p)) if isinstance(p, tuple | list) else int(p) for p in out]


def stax_networks(stax):
    """name -> (layer, input_shape)."""
    return {
        "mlp": (
            stax.serial(stax.Dense(5), stax.Relu, stax.Dense(3), stax.LogSoftmax),
            (2, 4),
        ),
        "cnn": (
            stax.serial(
                stax.Conv(3, (3, 3), padding="SAME"),
                stax.BatchNorm(),
                stax.Elu,
                stax.MaxPool((2, 2), strides=(2, 2)),
                stax.Conv(2, (2, 2), strides=(2, 1)),
                stax.Tanh,
                stax.AvgPool((2, 2), padding="SAME"),
                stax.SumPool((1, 2)),
                stax.Flatten,
                stax.Dense(2),
                stax.Softmax,
            ),
            (2, 8, 6, 2),
        ),
        "nchw": (
            stax.serial(
                stax.GeneralConv(NCHW, 2, (2, 3), strides=(1, 2), padding="SAME"),
                stax.Gelu,
                stax.AvgPool((2, 2), spec="NCHW", padding="SAME"),
                stax.MaxPool((1, 2), spec="NCHW"),
                stax.BatchNorm(axis=(0, 2, 3), center=False),
            ),
            (2, 3, 5, 6),
        ),
        "transpose": (
            stax.serial(
                stax.ConvTranspose(2, (3, 3), strides=(2, 2), padding="SAME"),
                stax.Selu,
                stax.Identity,
                stax.ConvTranspose(1, (2, 3), padding="VALID"),
                stax.Sigmoid,
            ),
            (1, 3, 4, 2),
        ),
        "conv1d_transpose": (
            stax.serial(stax.Conv1DTranspose(3, (3,), strides=(2,)), stax.Softplus),
            (2, 5, 2),
        ),
        "residual": (
            stax.serial(
                stax.Dense(4),
                stax.FanOut(3),
                stax.parallel(stax.Dense(4), stax.Identity, stax.serial(stax.Exp, stax.Dense(4))),
                stax.FanInSum,
            ),
            (3, 2),
        ),
        "concat": (
            stax.serial(
                stax.FanOut(2),
                stax.parallel(stax.Dense(3), stax.LeakyRelu),
                stax.FanInConcat(),
                stax.shape_dependent(lambda shape: stax.Dense(shape[-1] // 2)),
                stax.Sigmoid,
            ),
            (2, 4),
        ),
        "dropout": (
            stax.serial(stax.Dense(6), stax.Dropout(0.7), stax.Dense(2)),
            (3, 5),
        ),
    }


def _values(x) -> list:
    return np.asarray(x, np.float64).tolist()


def run_stax_case(core, jnp, stax, name):
    """Initializes network `name` with key 0, applies it to a fixed input (with `rng=key(1)`),
    returns the output shape, every param leaf and the output, as plain lists."""
    layer, in_shape = stax_networks(stax)[name]
    init_fun, apply_fun = layer
    out_shape, params = init_fun(core.random.PRNGKey(0), in_shape)
    n = int(np.prod(in_shape))
    x = jnp.asarray((np.arange(n, dtype=np.float32).reshape(in_shape) % 7 - 3) / 4)
    out = apply_fun(params, x, rng=core.random.PRNGKey(1))
    leaves = core.tree_util.tree_leaves(params)
    return {
        "out_shape": [int(d) for d in out_shape],
        "params": [_values(p) for p in leaves],
        "output": _values(out),
    }


# (optimizer name, args, kwargs)
OPTIMIZER_CASES = [
    ("sgd", (0.1,), {}),
    ("momentum", (0.1,), {"mass": 0.9}),
    ("nesterov", (0.05,), {"mass": 0.8}),
    ("adagrad", (0.2,), {}),
    ("adagrad", (0.2,), {"momentum": 0.5}),
    ("rmsprop", (0.01,), {}),
    ("rmsprop", (0.02,), {"gamma": 0.5, "eps": 1e-3}),
    ("rmsprop_momentum", (0.01,), {}),
    ("adam", (0.1,), {}),
    ("adam", (0.05,), {"b1": 0.5, "b2": 0.9, "eps": 1e-4}),
    ("adamax", (0.1,), {}),
    ("sm3", (0.1,), {}),
    ("sm3", (0.3,), {"momentum": 0.2}),
    ("adam_schedule", (), {}),
    ("sgd_piecewise", (), {}),
]

STEPS = 4


def _initial_params(jnp):
    return {
        "w": jnp.asarray(np.array([[0.5, -1.0, 0.25], [1.5, 0.0, -0.75]], np.float32)),
        "b": (jnp.asarray(np.array([0.1, -0.2, 0.3], np.float32)), jnp.asarray(np.float32(2.0))),
    }


def _loss(core, jnp, params):
    w, (b, c) = params["w"], params["b"]
    x = jnp.asarray(np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]], np.float32))
    y = jnp.tanh(x @ w) + b[None, :] * c
    return jnp.sum(y**2) + jnp.sum(jnp.cos(w)) + c**4


def make_optimizer(optimizers, name, args, kwargs):
    if name == "adam_schedule":
        return optimizers.adam(optimizers.exponential_decay(0.1, 2, 0.5))
    if name == "sgd_piecewise":
        return optimizers.sgd(optimizers.piecewise_constant([1, 2], [0.1, 0.05, 0.01]))
    return getattr(optimizers, name)(*args, **kwargs)


def run_optimizer_case(core, jnp, optimizers, case):
    """`STEPS` updates on `_loss`, jitted except for sm3 (its state holds the params' shape as
    ints, which `jit` traces, in JAX too); returns the flat params after each step."""
    name, args, kwargs = case
    opt_init, opt_update, get_params = make_optimizer(optimizers, name, args, kwargs)

    def step(i, state):
        grads = core.grad(lambda p: _loss(core, jnp, p))(get_params(state))
        return opt_update(i, grads, state)

    if name != "sm3":
        step = core.jit(step)

    state = opt_init(_initial_params(jnp))
    out = []
    for i in range(STEPS):
        state = step(i, state)
        out.append([_values(p) for p in core.tree_util.tree_leaves(get_params(state))])
    return out


SCHEDULE_STEPS = [0, 1, 2, 3, 5, 8]


def schedules(optimizers):
    return {
        "constant": optimizers.constant(0.3),
        "exponential_decay": optimizers.exponential_decay(0.5, 3, 0.1),
        "inverse_time_decay": optimizers.inverse_time_decay(0.5, 2, 0.3),
        "inverse_time_decay_staircase": optimizers.inverse_time_decay(0.5, 2, 0.3, True),
        "polynomial_decay": optimizers.polynomial_decay(1.0, 5, 0.1, power=2.0),
        "piecewise_constant": optimizers.piecewise_constant([1, 4], [1.0, 0.5, 0.1]),
    }


def run_schedule_case(jnp, optimizers, name):
    fn = schedules(optimizers)[name]
    return [float(np.asarray(fn(jnp.asarray(i, jnp.int32)), np.float64)) for i in SCHEDULE_STEPS]


def run_utils(core, jnp, optimizers):
    """`l2_norm` of the initial params and `clip_grads` of them to norms 1 and 10."""
    params = _initial_params(jnp)
    leaves = core.tree_util.tree_leaves
    return {
        "l2_norm": float(optimizers.l2_norm(params)),
        "clip_1": [_values(p) for p in leaves(optimizers.clip_grads(params, 1.0))],
        "clip_10": [_values(p) for p in leaves(optimizers.clip_grads(params, 10.0))],
    }
