"""The optimizer table and the test problems shared by the optim tests (NumPy only).

`TRAJECTORY_CASES`: (alias name, alias kwargs, reference class, reference kwargs). The problem is
a separable quadratic over a two-leaf tree, `f(p) = sum(0.5 * a * (p - target)**2)`, far enough
from its minimum that no gradient changes sign within 20 steps (so sign-based rules are not
sensitive to float32 rounding).

`CONVERGENCE_CASES`: Optax's `alias_test.py` kwargs, with the step counts we need.
"""

from __future__ import annotations

import numpy as np

from tests.optim import reference as ref

INIT = {
    "w": np.array([[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8]]),
    "b": np.array([0.1, -0.4]),
}
TARGET = {
    "w": np.array([[3.0, -4.0], [-2.5, 3.0], [2.7, -3.2]]),
    "b": np.array([-3.0, 2.5]),
}
CURVATURE = {
    "w": np.array([[1.0, 2.0], [0.5, 3.0], [1.5, 0.8]]),
    "b": np.array([2.5, 0.7]),
}


def quadratic_grad(params: dict) -> dict:
    """Gradient of the quadratic problem, in NumPy."""
    return {k: CURVATURE[k] * (np.asarray(params[k], np.float64) - TARGET[k]) for k in params}


TRAJECTORY_CASES = [
    ("sgd", {"learning_rate": 0.05}, ref.SGD, {"learning_rate": 0.05}),
    (
        "sgd",
        {"learning_rate": 0.05, "momentum": 0.9},
        ref.SGD,
        {"learning_rate": 0.05, "momentum": 0.9},
    ),
    (
        "sgd",
        {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True},
        ref.SGD,
        {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True},
    ),
    ("adam", {"learning_rate": 0.1}, ref.Adam, {"learning_rate": 0.1}),
    (
        "adam",
        {"learning_rate": 0.1, "eps_root": 1e-8},
        ref.Adam,
        {"learning_rate": 0.1, "eps_root": 1e-8},
    ),
    ("nadam", {"learning_rate": 0.1}, ref.Adam, {"learning_rate": 0.1, "nesterov": True}),
    ("adamw", {"learning_rate": 0.1}, ref.Adam, {"learning_rate": 0.1, "weight_decay": 1e-4}),
    (
        "adamw",
        {"learning_rate": 0.1, "weight_decay": 0.1},
        ref.Adam,
        {"learning_rate": 0.1, "weight_decay": 0.1},
    ),
    (
        "nadamw",
        {"learning_rate": 0.1, "weight_decay": 0.1},
        ref.Adam,
        {"learning_rate": 0.1, "weight_decay": 0.1, "nesterov": True},
    ),
    ("adamax", {"learning_rate": 0.1}, ref.Adamax, {"learning_rate": 0.1}),
    ("adamaxw", {"learning_rate": 0.1}, ref.Adamax, {"learning_rate": 0.1, "weight_decay": 1e-4}),
    ("amsgrad", {"learning_rate": 0.1}, ref.AMSGrad, {"learning_rate": 0.1}),
    ("radam", {"learning_rate": 0.1}, ref.RAdam, {"learning_rate": 0.1}),
    ("rmsprop", {"learning_rate": 0.01}, ref.RMSProp, {"learning_rate": 0.01}),
    (
        "rmsprop",
        {"learning_rate": 0.01, "centered": True},
        ref.RMSProp,
        {"learning_rate": 0.01, "centered": True},
    ),
    (
        "rmsprop",
        {"learning_rate": 0.01, "momentum": 0.9},
        ref.RMSProp,
        {"learning_rate": 0.01, "momentum": 0.9},
    ),
    ("adagrad", {"learning_rate": 0.1}, ref.Adagrad, {"learning_rate": 0.1}),
    ("adadelta", {}, ref.Adadelta, {}),
    (
        "adadelta",
        {"learning_rate": 10.0, "weight_decay": 0.01},
        ref.Adadelta,
        {"learning_rate": 10.0, "weight_decay": 0.01},
    ),
    ("adabelief", {"learning_rate": 0.1}, ref.AdaBelief, {"learning_rate": 0.1}),
    ("lamb", {"learning_rate": 0.05}, ref.Lamb, {"learning_rate": 0.05}),
    (
        "lamb",
        {"learning_rate": 0.05, "weight_decay": 0.01},
        ref.Lamb,
        {"learning_rate": 0.05, "weight_decay": 0.01},
    ),
    ("lars", {"learning_rate": 1.0}, ref.Lars, {"learning_rate": 1.0}),
    (
        "lars",
        {"learning_rate": 1.0, "weight_decay": 0.01, "nesterov": True},
        ref.Lars,
        {"learning_rate": 1.0, "weight_decay": 0.01, "nesterov": True},
    ),
    ("lion", {"learning_rate": 0.01}, ref.Lion, {"learning_rate": 0.01}),
    (
        "adafactor",
        {"learning_rate": 0.1, "min_dim_size_to_factor": 2},
        ref.Adafactor,
        {"learning_rate": 0.1, "min_dim_size_to_factor": 2},
    ),
    ("adafactor", {}, ref.Adafactor, {}),
    ("noisy_sgd", {"learning_rate": 0.05, "eta": 0.0}, ref.SGD, {"learning_rate": 0.05}),
    ("novograd", {"learning_rate": 0.05}, ref.NovoGrad, {"learning_rate": 0.05}),
    (
        "novograd",
        {"learning_rate": 0.05, "weight_decay": 0.1},
        ref.NovoGrad,
        {"learning_rate": 0.05, "weight_decay": 0.1},
    ),
    ("yogi", {"learning_rate": 0.1}, ref.Yogi, {"learning_rate": 0.1}),
    ("fromage", {"learning_rate": 0.05}, ref.Fromage, {"learning_rate": 0.05}),
    ("sm3", {"learning_rate": 0.1}, ref.SM3, {"learning_rate": 0.1}),
    ("sign_sgd", {"learning_rate": 0.01}, ref.SignSGD, {"learning_rate": 0.01}),
    ("signum", {"learning_rate": 0.01}, ref.Signum, {"learning_rate": 0.01}),
]

# Optax's alias_test kwargs (alias_test.py, _OPTIMIZERS_UNDER_TEST) for the aliases we ship, and
# the number of steps after which each reaches the optimum within 3e-2 on (parabola, Rosenbrock);
# None = skipped there too (sign methods need a schedule on Rosenbrock).
CONVERGENCE_CASES = [
    ("adabelief", {"learning_rate": 1e-2}),
    ("adadelta", {"learning_rate": 0.1}),
    ("adadelta", {}),
    ("adafactor", {"learning_rate": 5e-3}),
    ("adafactor", {}),
    ("adagrad", {"learning_rate": 1.0}),
    ("adam", {"learning_rate": 1e-1}),
    ("adamax", {"learning_rate": 1e-1}),
    ("adamaxw", {"learning_rate": 1e-1}),
    ("adamw", {"learning_rate": 1e-1}),
    ("amsgrad", {"learning_rate": 1e-1}),
    ("fromage", {"learning_rate": 5e-3}),
    ("lamb", {"learning_rate": 1e-3}),
    ("lars", {"learning_rate": 1.0}),
    ("lion", {"learning_rate": 1e-2, "weight_decay": 1e-4}),
    ("nadam", {"learning_rate": 1e-2}),
    ("nadamw", {"learning_rate": 1e-2}),
    ("noisy_sgd", {"learning_rate": 1e-3, "eta": 1e-4, "key": 0}),
    ("novograd", {"learning_rate": 1e-3}),
    ("radam", {"learning_rate": 5e-3}),
    ("rmsprop", {"learning_rate": 5e-3}),
    ("rmsprop", {"learning_rate": 5e-3, "momentum": 0.9}),
    ("sgd", {"learning_rate": 1e-3, "momentum": 0.9}),
    ("sign_sgd", {"learning_rate": 1e-1}),
    ("signum", {"learning_rate": 1e-2}),
    ("sm3", {"learning_rate": 1.0}),
    ("yogi", {"learning_rate": 1e-1}),
]

PARABOLA_INIT = np.array([-1.0, 10.0, 1.0])
PARABOLA_OPT = np.array([1.0, -1.0, 1.0])
ROSENBROCK_INIT = np.array([0.0, 0.0])
ROSENBROCK_OPT = np.array([1.0, 1.0])
