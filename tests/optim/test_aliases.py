"""Every alias: Optax's defaults, 20-step trajectories equal to the NumPy reference of the
published rule, known answers recorded from Optax, and convergence under `core.jit` on a
parabola and Rosenbrock without recompiling on the second call; `learning_rate` annotated with
the `ScalarOrSchedule` object where Optax's is."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
import optim.contrib
from tests.optim import cases
from tests.optim.reference import run


def _to_jnp(tree: dict, dtype=np.float32) -> dict:
    return {k: jnp.asarray(np.asarray(v, dtype)) for k, v in tree.items()}


def _our_trajectory(tx, steps: int, dtype=np.float32) -> list[dict]:
    params = _to_jnp(cases.INIT, dtype)
    state = tx.init(params)
    out = []
    for _ in range(steps):
        grads = cases.quadratic_grad({k: np.asarray(v) for k, v in params.items()})
        grads = _to_jnp(grads, dtype)
        updates, state = tx.update(grads, state, params)
        params = optim.apply_updates(params, updates)
        out.append({k: np.asarray(v) for k, v in params.items()})
    return out


@pytest.mark.parametrize(
    "name, kwargs, ref_cls, ref_kwargs",
    cases.TRAJECTORY_CASES,
    ids=[f"{c[0]}-{'-'.join(f'{k}={v}' for k, v in c[1].items())}" for c in cases.TRAJECTORY_CASES],
)
def test_trajectory_matches_published_rule(name, kwargs, ref_cls, ref_kwargs):
    # In float64, so that the comparison is tight: float32 rounding alone moves some of these
    # trajectories (RAdam) by 2e-4 within 20 steps, in Optax as well.
    with core.enable_x64():
        ours = _our_trajectory(getattr(optim, name)(**kwargs), 20, np.float64)
    expected = run(ref_cls, ref_kwargs, cases.INIT, cases.quadratic_grad, 20)
    # Adafactor computes its decay rate in float32 (as Optax does), even in x64 mode.
    rtol = 1e-4 if name == "adafactor" else 1e-6
    for step, (a, b) in enumerate(zip(ours, expected)):
        for k in b:
            assert a[k].dtype == np.float64
            np.testing.assert_allclose(
                a[k], b[k], rtol=rtol, atol=rtol * 1e-3, err_msg=f"{step} {k}"
            )


# Known answers: parameters after 3 steps on the quadratic problem, computed with Optax 0.2.8
# (float32) and recorded here. `noisy_sgd` also checks that `core.random` draws JAX's bits.
OPTAX_AFTER_3_STEPS = {
    "adam": (
        {"learning_rate": 0.1},
        {
            "w": [
                [7.9952401e-01, -1.2996165e00],
                [1.2002759e00, 4.9958408e-01],
                [-3.8357079e-04, 5.0027585e-01],
            ],
            "b": [-0.19963083, -0.10039908],
        },
    ),
    "sgd": (
        {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True},
        {
            "w": [[1.4213433, -3.018037], [0.72944117, 2.7691934], [1.2850083, -0.4005846]],
            "b": [-2.3868477, 0.36841816],
        },
    ),
    "rmsprop": (
        {"learning_rate": 0.01, "centered": True},
        {
            "w": [[0.58092153, -1.0809891], [1.418927, 0.280965], [-0.21901092, 0.71892685]],
            "b": [0.01900003, -0.31902254],
        },
    ),
    "adagrad": (
        {"learning_rate": 0.1},
        {
            "w": [[0.72384775, -1.225428], [1.2755362, 0.42532572], [-0.07473692, 0.57438946]],
            "b": [-0.12560602, -0.17629232],
        },
    ),
    "lion": (
        {"learning_rate": 0.01},
        {
            "w": [[0.5299847, -1.0299697], [1.4699553, 0.2299937], [-0.2699913, 0.7699763]],
            "b": [0.0699973, -0.3699883],
        },
    ),
    "adafactor": (
        {"learning_rate": 0.1, "min_dim_size_to_factor": 2},
        {
            "w": [[0.7027243, -1.2470512], [1.3755867, 0.45977673], [0.12237717, 0.64177924]],
            "b": [0.01989574, -0.31991604],
        },
    ),
    "noisy_sgd": (
        {"learning_rate": 0.05, "key": 0},
        {
            "w": [[0.85863346, -1.8032447], [1.1943483, 1.2911038], [0.33137864, 0.32925698]],
            "b": [-0.9164167, -0.10116158],
        },
    ),
    "lamb": (
        {"learning_rate": 0.05, "weight_decay": 0.01},
        {
            "w": [[0.6247885, -1.1241745], [1.3726737, 0.3251732], [-0.17419505, 0.6735519]],
            "b": [0.05815536, -0.3580304],
        },
    ),
    "sm3": (
        {"learning_rate": 0.1},
        {
            "w": [[0.53993034, -1.0462589], [1.4622126, 0.24625537], [-0.25374112, 0.7574313]],
            "b": [0.05373948, -0.35374284],
        },
    ),
    "radam": (
        {"learning_rate": 0.1},
        {
            "w": [[1.2105746, -2.6130896], [0.91586727, 2.3323827], [0.9442073, -0.11952904]],
            "b": [-1.9250991, 0.18650779],
        },
    ),
}


@pytest.mark.parametrize("name", sorted(OPTAX_AFTER_3_STEPS))
def test_known_answers_from_optax(name):
    kwargs, expected = OPTAX_AFTER_3_STEPS[name]
    ours = _our_trajectory(getattr(optim, name)(**kwargs), 3)[-1]
    for k in expected:
        np.testing.assert_allclose(ours[k], np.asarray(expected[k]), rtol=1e-5, atol=1e-6)


# Optax's signatures and defaults (optax 0.2.9.dev HEAD, `_src/alias.py`).
DEFAULTS = {
    "sgd": {"momentum": None, "nesterov": False, "accumulator_dtype": None},
    "adam": {
        "b1": 0.9,
        "b2": 0.999,
        "eps": 1e-8,
        "eps_root": 0.0,
        "mu_dtype": None,
        "nesterov": False,
    },
    "adamw": {"b1": 0.9, "b2": 0.999, "eps": 1e-8, "weight_decay": 1e-4, "mask": None},
    "nadam": {"b1": 0.9, "b2": 0.999, "eps": 1e-8, "nesterov": True},
    "nadamw": {"weight_decay": 1e-4, "nesterov": True},
    "adamax": {"b1": 0.9, "b2": 0.999, "eps": 1e-8},
    "adamaxw": {"b1": 0.9, "b2": 0.999, "eps": 1e-8, "weight_decay": 1e-4, "mask": None},
    "radam": {"b1": 0.9, "b2": 0.999, "eps": 1e-8, "eps_root": 0.0, "threshold": 5.0},
    "rmsprop": {
        "decay": 0.9,
        "eps": 1e-8,
        "initial_scale": 0.0,
        "eps_in_sqrt": True,
        "centered": False,
        "momentum": None,
        "nesterov": False,
        "bias_correction": False,
    },
    "adagrad": {"initial_accumulator_value": 0.1, "eps": 1e-7},
    "adadelta": {"learning_rate": None, "rho": 0.9, "eps": 1e-6, "weight_decay": 0.0},
    "adabelief": {"b1": 0.9, "b2": 0.999, "eps": 1e-16, "eps_root": 1e-16},
    "lamb": {"b1": 0.9, "b2": 0.999, "eps": 1e-6, "eps_root": 0.0, "weight_decay": 0.0},
    "lars": {
        "weight_decay": 0.0,
        "weight_decay_mask": True,
        "trust_coefficient": 0.001,
        "eps": 0.0,
        "trust_ratio_mask": True,
        "momentum": 0.9,
        "nesterov": False,
    },
    "lion": {"b1": 0.9, "b2": 0.99, "mu_dtype": None, "weight_decay": 1e-3, "mask": None},
    "adafactor": {
        "learning_rate": None,
        "min_dim_size_to_factor": 128,
        "decay_rate": 0.8,
        "decay_offset": 0,
        "multiply_by_parameter_scale": True,
        "clipping_threshold": 1.0,
        "momentum": None,
        "weight_decay_rate": None,
        "eps": 1e-30,
        "factored": True,
    },
    "noisy_sgd": {"eta": 0.01, "gamma": 0.55, "key": None},
    "novograd": {"b1": 0.9, "b2": 0.25, "eps": 1e-6, "eps_root": 0.0, "weight_decay": 0.0},
    "yogi": {"b1": 0.9, "b2": 0.999, "eps": 1e-3},
    "fromage": {"min_norm": 1e-6},
    "sm3": {"momentum": 0.9},
    "sign_sgd": {},
    "signum": {"beta": 0.9},
}


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_optax_defaults(name):
    params = inspect.signature(getattr(optim, name)).parameters
    for arg, default in DEFAULTS[name].items():
        assert params[arg].default == default, f"{name}({arg}=...)"


# Optax 0.2.8: the aliases whose `learning_rate` is annotated `base.ScalarOrSchedule` (the
# annotation object itself, which Optax's tests read to know an alias accepts a schedule), and
# those annotated otherwise (`ScalarOrSchedule | None`, `float`).
SCHEDULE_ANNOTATED = {
    optim: "adabelief adagrad adam adamax adamaxw adamw adan amsgrad fromage lamb lars lion nadam "
    "nadamw noisy_sgd novograd optimistic_adam_v2 optimistic_gradient_descent radam rmsprop sgd "
    "sign_sgd signum yogi",
    optim.contrib: "acprop ademamix adopt cocob dadapt_adamw dog dowg dpsgd galore madgrad momo "
    "momo_adam muon prodigy scale_by_madgrad schedule_free simplified_ademamix sophia",
}
OTHERWISE_ANNOTATED = (
    "adadelta adafactor lbfgs optimistic_adam rprop scale_by_learning_rate scale_by_rprop sm3"
)


@pytest.mark.parametrize(
    "module, name, annotated",
    [(m, n, True) for m, names in SCHEDULE_ANNOTATED.items() for n in names.split()]
    + [(optim, n, False) for n in OTHERWISE_ANNOTATED.split()],
)
def test_learning_rate_annotation_is_optax_schedule_type(module, name, annotated):
    annotation = inspect.signature(getattr(module, name)).parameters["learning_rate"].annotation
    assert (annotation is optim.base.ScalarOrSchedule) == annotated


def test_alias_is_a_chain_with_named_states():
    params = {"w": jnp.zeros((2, 2))}
    state = optim.adam(1e-3).init(params)
    assert isinstance(state, tuple) and len(state) == 2
    assert isinstance(state[0], optim.ScaleByAdamState)
    assert state[0]._fields == ("count", "mu", "nu")
    assert state[0].count.dtype == jnp.int32 and state[0].count.shape == ()
    assert isinstance(state[1], optim.EmptyState)
    assert optim.sgd(0.1, momentum=0.9).init(params)[0]._fields == ("trace",)


def test_adadelta_without_learning_rate_is_optax_identity_scaling():
    # Optax 0.2.8: `scale_by_learning_rate(None)` is `identity()`, so `optax.adadelta()` adds
    # the raw Adadelta step (+sqrt(eps)/sqrt(0.1 g^2 + eps) * g = 0.0031622 for g = 1).
    tx = optim.adadelta()
    params = {"x": jnp.asarray([2.0])}
    state = tx.init(params)
    updates, _ = tx.update({"x": jnp.asarray([1.0])}, state, params)
    np.testing.assert_allclose(updates["x"], [0.0031622], rtol=1e-4)


# ------------------------------------------------------------------ convergence under jit


def _parabola_grad(p):
    return 2.0 * (p - jnp.asarray(cases.PARABOLA_OPT, jnp.float32))


def _rosenbrock_grad(p):
    x, y = p[0], p[1]
    dx = -2.0 * (1.0 - x) - 400.0 * x * (y - x * x)
    dy = 200.0 * (y - x * x)
    return jnp.stack([dx, dy])


PROBLEMS = {
    "parabola": (_parabola_grad, cases.PARABOLA_INIT, cases.PARABOLA_OPT),
    "rosenbrock": (_rosenbrock_grad, cases.ROSENBROCK_INIT, cases.ROSENBROCK_OPT),
}

# (alias, kwargs, steps on the parabola, steps on Rosenbrock): the steps Optax needs to get
# within 3e-2 of the optimum, measured with its float32 jitted loop, rounded up.
# None: not run (sign methods cannot follow Rosenbrock's curved valley with a constant step;
# Optax skips them there too). Runs longer than 3000 steps are marked slow.
CONVERGENCE = [
    ("adabelief", {"learning_rate": 0.1}, 200, 250),
    ("adadelta", {"learning_rate": 0.1}, 10000, 4000),
    ("adafactor", {}, 100, None),
    ("adafactor", {"learning_rate": 0.01, "min_dim_size_to_factor": 2}, 1500, 4000),
    ("adagrad", {"learning_rate": 0.5}, 1000, 3000),
    ("adam", {"learning_rate": 0.1}, 400, 300),
    ("adamax", {"learning_rate": 0.3}, 200, 500),
    ("adamaxw", {"learning_rate": 0.3}, 200, 500),
    ("adamw", {"learning_rate": 0.1}, 400, 300),
    ("amsgrad", {"learning_rate": 0.3}, 200, 600),
    ("fromage", {"learning_rate": 0.01}, 500, 3000),
    ("lamb", {"learning_rate": 0.005}, 1000, 2000),
    ("lars", {"learning_rate": 3.0}, 200, 300),
    ("lion", {"learning_rate": 0.01, "weight_decay": 1e-4}, 2000, 2000),
    ("nadam", {"learning_rate": 0.03}, 1500, 500),
    ("nadamw", {"learning_rate": 0.03}, 1500, 500),
    ("noisy_sgd", {"learning_rate": 0.002, "eta": 1e-4, "key": 0}, 2000, 4000),
    ("novograd", {"learning_rate": 0.01}, 300, 100),
    ("radam", {"learning_rate": 0.05}, 1200, 1500),
    ("rmsprop", {"learning_rate": 0.005}, 3000, 3000),
    ("rmsprop", {"learning_rate": 0.005, "centered": True}, 600, 3000),
    ("rmsprop", {"learning_rate": 0.005, "momentum": 0.9}, 400, 200),
    ("sgd", {"learning_rate": 0.003, "momentum": 0.9}, 200, 300),
    ("sgd", {"learning_rate": 0.001, "momentum": 0.9, "nesterov": True}, 300, 800),
    ("sign_sgd", {"learning_rate": 0.02}, 800, None),
    ("signum", {"learning_rate": 0.02}, 800, None),
    (
        "signum",
        {"learning_rate": optim.exponential_decay(0.01, 300, 0.5)},
        None,
        1000,
    ),
    ("sm3", {"learning_rate": 3.0}, 200, 300),
    ("yogi", {"learning_rate": 0.1}, 400, 300),
]


def _convergence_params():
    for name, kwargs, *steps in CONVERGENCE:
        for problem, n in zip(PROBLEMS, steps):
            if n is None:
                continue
            marks = [pytest.mark.slow] if n > 3000 else []
            label = "-".join(f"{k}={v}" for k, v in kwargs.items() if not callable(v))
            yield pytest.param(
                name, kwargs, problem, n, marks=marks, id=f"{name}-{label}-{problem}"
            )


@pytest.mark.parametrize("name, kwargs, problem, steps", list(_convergence_params()))
def test_converges_under_jit_without_recompiling(name, kwargs, problem, steps):
    grad_fn, init, opt = PROBLEMS[problem]
    tx = getattr(optim, name)(**kwargs)

    @core.jit
    def step(params, state):
        updates, state = tx.update(grad_fn(params), state, params)
        return optim.apply_updates(params, updates), state

    params = jnp.asarray(init, jnp.float32)
    state = tx.init(params)
    params, state = step(params, state)
    compiles = core.compile_count()
    params, state = step(params, state)
    assert core.compile_count() == compiles, "the second update recompiled"
    for i in range(2, steps + 1, 50):
        for _ in range(min(50, steps - i)):
            params, state = step(params, state)
        if np.allclose(np.asarray(params), opt, rtol=3e-2, atol=3e-2):
            break
    np.testing.assert_allclose(np.asarray(params), opt, rtol=3e-2, atol=3e-2)
