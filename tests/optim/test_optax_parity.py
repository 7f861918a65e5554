"""Known answers recorded from Optax 0.2.8 for the cases a differential run against Optax found
different (signatures, state structures, `scale_by_lion` modes, `inject_hyperparams`'s state,
`tree.sum`'s associative order, the classification losses added since)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from optim import losses, projections, tree
from optim.errors import OptimizerArgumentError

GRADS = [[0.5, -2.0, 0.05], [-0.3, 1.0, 0.2]]
LION_MU = [0.00195, -0.0098, 0.002495]


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("hard", [[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]),
        ("smooth", [[0.46211717, -0.96402758, 0.04995837], [-0.28673029, 0.75306594, 0.19785579]]),
        ("refined", [[0.25, -1.0, 0.025], [-0.14750001, 0.49000001, 0.10024999]]),
    ],
)
def test_scale_by_lion_modes(mode, expected):
    tx = optim.scale_by_lion(b1=0.5, mode=mode, smooth_beta=2.0)
    state = tx.init(jnp.zeros(3))
    for g, want in zip(GRADS, expected):
        updates, state = tx.update(jnp.asarray(g, jnp.float32), state)
        np.testing.assert_allclose(np.asarray(updates), want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(np.asarray(state.mu), LION_MU, rtol=1e-6)


def test_scale_by_lion_rejects_unknown_mode():
    with pytest.raises(OptimizerArgumentError, match="soft"):
        optim.scale_by_lion(mode="soft")


def test_inject_hyperparams_state_is_optax_0_2_8s():
    tx = optim.inject_hyperparams(optim.sgd)(
        learning_rate=optim.linear_schedule(0.1, 0.0, 4), momentum=0.5
    )
    params = {"w": jnp.asarray([1.0, 2.0])}
    state = tx.init(params)
    for _ in range(2):
        updates, state = tx.update({"w": jnp.asarray([1.0, -1.0])}, state, params)
    assert type(state).__name__ == "InjectStatefulHyperparamsState"
    assert state._fields == ("count", "hyperparams", "hyperparams_states", "inner_state")
    np.testing.assert_allclose(float(state.hyperparams["learning_rate"]), 0.075, rtol=1e-6)
    np.testing.assert_allclose(float(state.hyperparams["momentum"]), 0.5)
    ((name, schedule_state),) = state.hyperparams_states.items()
    assert (name, type(schedule_state).__name__, int(schedule_state.count)) == (
        "learning_rate",
        "WrappedScheduleState",
        2,
    )
    np.testing.assert_allclose(np.asarray(updates["w"]), [-0.1125, 0.1125], rtol=1e-6)


def test_inject_stateful_hyperparams_is_the_deprecated_name():
    with pytest.warns(DeprecationWarning):
        tx = optim.inject_stateful_hyperparams(optim.sgd)(learning_rate=0.1)
    assert isinstance(tx.init({"w": jnp.zeros(2)}), optim.InjectStatefulHyperparamsState)


def test_adabelief_chain_has_no_weight_decay():
    state = optim.adabelief(0.1).init({"w": jnp.zeros(2)})
    assert [type(s).__name__ for s in state] == ["ScaleByBeliefState", "EmptyState"]


@pytest.mark.parametrize("associative, expected", [(False, 4.0), (True, 0.0)])
def test_tree_sum_order(associative, expected):
    # 1e8 + 1 rounds to 1e8 in float32, so the order of the additions shows in the result.
    t = {
        "a": jnp.asarray([1e8, 1.0], jnp.float32),
        "b": jnp.asarray(-1e8, jnp.float32),
        "c": jnp.asarray([1.0, 3.0], jnp.float32),
    }
    assert float(tree.sum(t, associative_reduction=associative)) == expected


SCORES = [[1.0, -0.5, 2.0], [0.3, 0.3, -1.0]]
LABELS = [2, 1]
ONE_HOT = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]


@pytest.mark.parametrize(
    "fn, args, kwargs, expected",
    [
        (losses.multiclass_hinge_loss, (SCORES, LABELS), {}, [0.0, 1.0]),
        (losses.multiclass_perceptron_loss, (SCORES, LABELS), {}, [0.0, 0.0]),
        (losses.perceptron_loss, ([0.5, -1.5, 2.0], [1.0, 1.0, -1.0]), {}, [0.0, 1.5, 2.0]),
        (
            losses.sparsemax_loss,
            ([-2.0, -0.5, 0.0, 0.5, 2.0], [1, 0, 1, 1, 0]),
            {},
            [2.0, 0.0625, 0.25, 0.0625, 2.0],
        ),
        (losses.poly_loss_cross_entropy, (SCORES, ONE_HOT), {}, [0.99219501, 1.94081879]),
        (
            losses.poly_loss_cross_entropy,
            (SCORES, ONE_HOT),
            {"epsilon": -1.0},
            [0.06121114, 0.26093233],
        ),
        (
            losses.poly_loss_cross_entropy,
            (SCORES, ONE_HOT),
            {"where": [[True, False, True], [True, True, True]]},
            [0.85114443, 1.94081879],
        ),
    ],
)
def test_added_classification_losses(fn, args, kwargs, expected):
    args = [jnp.asarray(a, jnp.int32 if isinstance(a[0], int) else jnp.float32) for a in args]
    kwargs = {k: jnp.asarray(v) for k, v in kwargs.items()}
    np.testing.assert_allclose(np.asarray(fn(*args, **kwargs)), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "fn, names",
    [
        (optim.adabelief, ["learning_rate", "b1", "b2", "eps", "eps_root", "nesterov"]),
        (optim.scale_by_lion, ["b1", "b2", "mu_dtype", "mode", "smooth_beta"]),
        (tree.random_like, ["rng_key", "target_tree", "sampler", "dtype"]),
        (tree.split_key_like, ["rng_key", "target_tree"]),
        (tree.sum, ["tree", "associative_reduction"]),
        (projections.projection_box, ["tree", "lower", "upper"]),
        (projections.projection_l2_ball, ["tree", "scale"]),
        (projections.projection_non_negative, ["tree"]),
    ],
)
def test_signatures_match_optax(fn, names):
    assert list(inspect.signature(fn).parameters) == names


# Every alias for 10 steps from 0.1 on `_loss` with learning_rate 0.05 (where it takes one):
# the parameters (b then w, flattened) after the 10th step, recorded from Optax 0.2.8 run
# eagerly (where JAX rounds `b2**count` by repeated squaring but the jitted bias correction
# with XLA's pow; radam's rectification near rho = 5 is sensitive to both).
_TARGET = {
    "w": np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], np.float32),
    "b": np.array([0.3, -0.2, 1.1], np.float32),
}
_CURV = {
    "w": np.array([[1.0, 4.0, 0.5], [2.0, 0.1, 3.0]], np.float32),
    "b": np.array([1.5, 0.7, 2.5], np.float32),
}


def _loss(p):
    return sum(
        jnp.sum(0.5 * _CURV[k] * (p[k] - _TARGET[k]) ** 2 + 0.1 * jnp.sin(3 * p[k])) for k in p
    )


OPTAX_10_STEPS = {
    "adabelief": [
        0.127440557,
        -0.472166359,
        0.756401241,
        0.484203577,
        -0.565144837,
        0.791068494,
        0.753635287,
        -0.515002549,
        -0.536105573,
    ],
    "adadelta": [
        0.10156358,
        0.0983132347,
        0.101686686,
        0.101681255,
        0.0983129218,
        0.101687238,
        0.101686575,
        0.0983120352,
        0.0983132571,
    ],
    "adafactor": [
        0.110983327,
        0.0477594435,
        0.152244076,
        0.148536101,
        0.0485894755,
        0.15155451,
        0.151145384,
        0.0481285453,
        0.0487929061,
    ],
    "adagrad": [
        0.109669238,
        -0.116987742,
        0.338372618,
        0.204282016,
        -0.143347934,
        0.340783656,
        0.336053401,
        -0.105956048,
        -0.1366162,
    ],
    "adam": [
        0.123513147,
        -0.370093346,
        0.590228498,
        0.455959499,
        -0.393449664,
        0.601468503,
        0.589211643,
        -0.386221826,
        -0.385485798,
    ],
    "adamax": [
        0.121411167,
        -0.313729495,
        0.546952367,
        0.367342979,
        -0.364242285,
        0.586907148,
        0.542041421,
        -0.360243648,
        -0.336632729,
    ],
    "adamaxw": [
        0.121411286,
        -0.313724369,
        0.546937704,
        0.367333233,
        -0.364236474,
        0.58689177,
        0.542026937,
        -0.360237986,
        -0.336627305,
    ],
    "adamw": [
        0.123511687,
        -0.370087713,
        0.590212762,
        0.455948859,
        -0.393443495,
        0.601452112,
        0.589195848,
        -0.386215985,
        -0.385479808,
    ],
    "adan": [
        0.132279977,
        -0.385374457,
        0.597209632,
        0.489152104,
        -0.398421913,
        0.600054562,
        0.596780717,
        -0.394527256,
        -0.394989401,
    ],
    "amsgrad": [
        0.126539335,
        -0.31228587,
        0.545123577,
        0.366654426,
        -0.362302423,
        0.599507034,
        0.540243626,
        -0.361564904,
        -0.334924132,
    ],
    "fromage": [
        0.0993740186,
        0.0768507868,
        0.193239138,
        0.100533888,
        -0.00322097167,
        0.109142713,
        0.122208796,
        0.094495967,
        0.0551853366,
    ],
    "lamb": [
        0.108281672,
        0.0384167656,
        0.161583409,
        0.151237026,
        0.0481233448,
        0.151902318,
        0.151824936,
        0.0480352752,
        0.0481621809,
    ],
    "lars": [
        0.100002125,
        0.0999215394,
        0.100349754,
        0.100007705,
        0.0995455086,
        0.100045092,
        0.100102872,
        0.099981539,
        0.0998071879,
    ],
    "lion": [
        0.0999374911,
        -0.39993751,
        0.599837542,
        0.499837518,
        -0.39993751,
        0.599837542,
        0.599837542,
        -0.39993751,
        -0.39993751,
    ],
    "nadam": [
        0.114023268,
        -0.379944593,
        0.621150017,
        0.42937547,
        -0.427377403,
        0.647349298,
        0.619250715,
        -0.40779677,
        -0.410756379,
    ],
    "nadamw": [
        0.114022933,
        -0.379938364,
        0.62113297,
        0.429365844,
        -0.427369863,
        0.647331119,
        0.619233787,
        -0.407789975,
        -0.410749197,
    ],
    "novograd": [
        0.112799257,
        -0.458825201,
        1.61168444,
        0.141952693,
        -1.57735932,
        0.361300915,
        0.619130075,
        -0.00896257348,
        -0.702814639,
    ],
    "optimistic_gradient_descent": [
        0.104906291,
        -0.110313192,
        0.810818613,
        0.147357568,
        -1.18535662,
        0.433408916,
        0.638846993,
        -0.0373872817,
        -0.558273435,
    ],
    "optimistic_adam": [
        0.118095644,
        -0.352837563,
        0.595766842,
        0.407215148,
        -0.402480096,
        0.624781668,
        0.593730032,
        -0.381471455,
        -0.384546816,
    ],
    "radam": [
        0.111615434,
        -0.0300389361,
        0.605460644,
        0.136529505,
        -1.2071476,
        0.274089217,
        0.456848264,
        0.0221754219,
        -0.502473712,
    ],
    "rmsprop": [
        0.110877283,
        -0.375790566,
        0.839122176,
        0.352489412,
        -0.663367093,
        1.00580156,
        0.831435323,
        -0.439691305,
        -0.554346919,
    ],
    "sgd": [
        0.10511975,
        -0.116029367,
        0.850273311,
        0.148634985,
        -1.2798351,
        0.43203184,
        0.663369775,
        -0.0373781435,
        -0.602324605,
    ],
    "sign_sgd": [
        0.100000009,
        -0.400000036,
        0.600000083,
        0.400000036,
        -0.400000036,
        0.600000083,
        0.600000083,
        -0.400000036,
        -0.400000036,
    ],
    "signum": [
        7.4505806e-09,
        -0.400000036,
        0.600000083,
        0.600000083,
        -0.400000036,
        0.600000083,
        0.600000083,
        -0.400000036,
        -0.400000036,
    ],
    "sm3": [
        0.104122683,
        -0.0170341916,
        0.217141196,
        0.139689907,
        -0.0177438632,
        0.156594113,
        0.216959566,
        0.0573546551,
        -0.0171100851,
    ],
    "yogi": [
        0.111901686,
        -0.36828202,
        0.589362621,
        0.44888413,
        -0.39277494,
        0.599988997,
        0.588209748,
        -0.383060575,
        -0.38467893,
    ],
    "rprop": [
        0.131520003,
        -0.321846426,
        1.13994527,
        0.31656,
        -0.93994534,
        1.13994527,
        1.13994527,
        -0.545795321,
        -0.724954426,
    ],
    "noisy_sgd": [
        0.105021946,
        -0.104891054,
        0.857287705,
        0.150923654,
        -1.27728343,
        0.413039535,
        0.669025242,
        -0.0243897848,
        -0.604870081,
    ],
    "polyak_sgd": [
        0.110547021,
        -0.368690073,
        1.18997216,
        0.234016597,
        -1.48254502,
        1.38210106,
        1.14370108,
        -0.325725794,
        -0.703884184,
    ],
    "lbfgs": [
        0.108729072,
        -0.310964435,
        1.11858618,
        0.209886387,
        -1.25851107,
        1.25780749,
        1.02305901,
        -0.280594528,
        -0.625099778,
    ],
}


@pytest.mark.parametrize("name", sorted(OPTAX_10_STEPS))
def test_alias_trajectory_matches_optax(name):
    fn = getattr(optim, name)
    kw = {"learning_rate": 0.05} if "learning_rate" in inspect.signature(fn).parameters else {}
    tx = fn(**kw, **({"key": 0} if name == "noisy_sgd" else {}))
    p = {k: jnp.full(v.shape, 0.1, jnp.float32) for k, v in _TARGET.items()}
    state = tx.init(p)
    for _ in range(10):
        g = core.grad(_loss)(p)
        extra = {}
        if name == "polyak_sgd":
            extra = {"value": _loss(p)}
        elif name == "lbfgs":
            extra = {"value": _loss(p), "grad": g, "value_fn": _loss}
        updates, state = tx.update(g, state, p, **extra)
        p = optim.apply_updates(p, updates)
    got = np.concatenate([np.ravel(p["b"]), np.ravel(p["w"])])
    np.testing.assert_allclose(got, OPTAX_10_STEPS[name], rtol=2e-5, atol=1e-6)


# `optax.transforms.__all__` of Optax 0.2.8: ported programs call the combinators through it too.
_OPTAX_TRANSFORMS = [
    "adaptive_grad_clip",
    "add_decayed_weights",
    "add_noise",
    "AddNoiseState",
    "apply_if_finite",
    "ApplyIfFiniteState",
    "chain",
    "clip_by_block_rms",
    "clip_by_global_norm",
    "clip",
    "conditionally_mask",
    "ConditionallyMaskState",
    "conditionally_transform",
    "ConditionallyTransformState",
    "ema",
    "EmaState",
    "flatten",
    "freeze",
    "keep_params_nonnegative",
    "masked",
    "MaskedState",
    "measure_with_ema",
    "monitor",
    "MonitorState",
    "MultiSteps",
    "MultiStepsState",
    "named_chain",
    "NonNegativeParamsState",
    "partition",
    "PartitionState",
    "selective_transform",
    "ShouldSkipUpdateFunction",
    "skip_large_updates",
    "skip_not_finite",
    "snapshot",
    "SnapshotState",
    "trace",
    "TraceState",
    "zero_nans",
    "ZeroNansState",
]


@pytest.mark.parametrize("name", _OPTAX_TRANSFORMS)
def test_optax_transforms_names(name):
    assert name in optim.transforms.__all__
    assert getattr(optim.transforms, name) is getattr(optim, name)


@pytest.mark.parametrize(
    "threshold, expected",
    [(2.0, [np.nan, np.nan]), (5.0, [-0.09999997168779373, 0.19999994337558746])],
)
def test_radam_below_threshold_4_gives_optaxs_nan(threshold, expected):
    # At step 3 rho_t is about 3: the rectification's square root is of a negative number,
    # selected when the threshold lets it (Optax 0.2.8's updates, recorded)
    tx = optim.radam(0.1, threshold=threshold)
    params = {"b": jnp.ones(2)}
    state = tx.init(params)
    for _ in range(3):
        updates, state = tx.update({"b": jnp.asarray([1.0, -2.0])}, state, params)
    np.testing.assert_array_equal(np.asarray(updates["b"]), np.float32(expected))
