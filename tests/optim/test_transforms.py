"""Building blocks one at a time: values against NumPy, state fields and step counting."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
import optim

G = {"w": np.array([[3.0, -4.0], [1.0, 2.0]]), "b": np.array([np.nan, 0.5])}
P = {"w": np.array([[1.0, 2.0], [-0.5, 0.25]]), "b": np.array([-1.0, 2.0])}


def _j(t):
    return {k: jnp.asarray(np.asarray(v, np.float32)) for k, v in t.items()}


def _apply(tx, g=None, p=None, steps=1):
    g = _j({"w": G["w"], "b": np.array([1.0, 0.5])} if g is None else g)
    p = _j(P if p is None else p)
    state = tx.init(p)
    for _ in range(steps):
        out, state = tx.update(g, state, p)
    return {k: np.asarray(v) for k, v in out.items()}, state


GW, GB = G["w"], np.array([1.0, 0.5])
GNORM = np.sqrt((GW**2).sum() + (GB**2).sum())

STATELESS = [
    ("scale", optim.scale(-2.0), {"w": -2 * GW, "b": -2 * GB}),
    ("lr", optim.scale_by_learning_rate(0.5), {"w": -0.5 * GW, "b": -0.5 * GB}),
    (
        "lr_noflip",
        optim.scale_by_learning_rate(0.5, flip_sign=False),
        {"w": 0.5 * GW, "b": 0.5 * GB},
    ),
    ("sign", optim.scale_by_sign(), {"w": np.sign(GW), "b": np.sign(GB)}),
    ("clip", optim.clip(1.5), {"w": np.clip(GW, -1.5, 1.5), "b": np.clip(GB, -1.5, 1.5)}),
    ("gnorm_big", optim.clip_by_global_norm(100.0), {"w": GW, "b": GB}),
    ("gnorm", optim.clip_by_global_norm(1.0), {"w": GW / GNORM, "b": GB / GNORM}),
    (
        "block_rms",
        optim.clip_by_block_rms(1.0),
        {"w": GW / np.sqrt((GW**2).mean()), "b": GB / max(1.0, np.sqrt((GB**2).mean()))},
    ),
    ("centralize", optim.centralize(), {"w": GW - GW.mean(axis=1, keepdims=True), "b": GB}),
    (
        "decay",
        optim.add_decayed_weights(0.1),
        {"w": GW + 0.1 * P["w"], "b": GB + 0.1 * P["b"]},
    ),
    (
        "decay_mask_tree",
        optim.add_decayed_weights(0.1, mask={"w": True, "b": False}),
        {"w": GW + 0.1 * P["w"], "b": GB},
    ),
    (
        "decay_mask_fn",
        optim.add_decayed_weights(0.1, mask=lambda p: {k: v.ndim > 1 for k, v in p.items()}),
        {"w": GW + 0.1 * P["w"], "b": GB},
    ),
    (
        "nonnegative",
        optim.keep_params_nonnegative(),
        {"w": np.where(P["w"] + GW < 0, -P["w"], GW), "b": np.where(P["b"] + GB < 0, -P["b"], GB)},
    ),
    (
        "trust_ratio",
        optim.scale_by_trust_ratio(),
        {
            "w": GW * np.linalg.norm(P["w"]) / np.linalg.norm(GW),
            "b": GB * np.linalg.norm(P["b"]) / np.linalg.norm(GB),
        },
    ),
    (
        "param_block_rms",
        optim.scale_by_param_block_rms(),
        {"w": GW * np.sqrt((P["w"] ** 2).mean()), "b": GB * np.sqrt((P["b"] ** 2).mean())},
    ),
]


@pytest.mark.parametrize("name, tx, expected", STATELESS, ids=[s[0] for s in STATELESS])
def test_stateless_transform_values(name, tx, expected):
    out, _ = _apply(tx)
    for k in expected:
        np.testing.assert_allclose(out[k], expected[k], rtol=1e-5, atol=1e-6)


def test_trust_ratio_is_one_for_zero_norms():
    out, _ = _apply(optim.scale_by_trust_ratio(), p={"w": np.zeros((2, 2)), "b": P["b"]})
    np.testing.assert_allclose(out["w"], GW)


def test_zero_nans_records_where_nans_were():
    out, state = _apply(optim.zero_nans(), g=G)
    np.testing.assert_array_equal(out["b"], [0.0, 0.5])
    assert bool(state.found_nan["b"]) and not bool(state.found_nan["w"])


def test_trace_is_momentum_without_dampening():
    g = {"w": GW, "b": GB}
    out, state = _apply(optim.trace(0.9), g=g, steps=3)
    np.testing.assert_allclose(out["w"], GW * (1 + 0.9 + 0.81), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(state.trace["w"]), out["w"], rtol=1e-6)
    out, _ = _apply(optim.trace(0.9, nesterov=True), g=g, steps=2)
    np.testing.assert_allclose(out["w"], GW + 0.9 * GW * 1.9, rtol=1e-6)


def test_ema_debiases():
    out, state = _apply(optim.ema(0.9), steps=3)
    np.testing.assert_allclose(out["w"], GW, rtol=1e-6)  # a constant input is recovered exactly
    np.testing.assert_allclose(np.asarray(state.ema["w"]), GW * (1 - 0.9**3), rtol=1e-6)
    assert int(state.count) == 3
    out, _ = _apply(optim.ema(0.9, debias=False), steps=1)
    np.testing.assert_allclose(out["w"], 0.1 * GW, rtol=1e-6)


def test_schedule_sees_count_zero_first():
    seen = []
    tx = optim.scale_by_schedule(lambda count: seen.append(int(count)) or 2.0)
    _, state = _apply(tx, steps=3)
    assert seen == [0, 1, 2] and int(state.count) == 3
    tx = optim.scale_by_learning_rate(lambda count: 0.1 * (count + 1))
    out, _ = _apply(tx, steps=2)  # the second update uses schedule(1) = 0.2
    np.testing.assert_allclose(out["w"], -0.2 * GW, rtol=1e-6)


def test_decay_schedule_counts():
    tx = optim.add_decayed_weights(lambda count: 0.1 * count)
    out, state = _apply(tx, steps=3)  # the third update uses 0.1 * 2
    np.testing.assert_allclose(out["w"], GW + 0.2 * P["w"], rtol=1e-6)
    assert int(state.count) == 3


def test_add_noise_is_deterministic_and_annealed():
    zero = {"w": np.zeros((200, 50))}
    out1, state1 = _apply(optim.add_noise(1.0, 0.55, 0), g=zero, p=zero)
    out2, _ = _apply(optim.add_noise(1.0, 0.55, 0), g=zero, p=zero)
    np.testing.assert_array_equal(out1["w"], out2["w"])
    assert abs(out1["w"].std() - 1.0) < 0.05 and abs(out1["w"].mean()) < 0.05
    out3, state3 = _apply(optim.add_noise(1.0, 0.55, 0), g=zero, p=zero, steps=4)
    assert abs(out3["w"].std() - np.sqrt(1.0 / 4**0.55)) < 0.05
    assert int(state3.count) == 4
    out4, _ = _apply(optim.add_noise(0.0, 0.55, 1), g={"w": GW}, p={"w": GW})
    np.testing.assert_array_equal(out4["w"], GW)


def test_adam_state_fields_and_dtypes():
    tx = optim.scale_by_adam(mu_dtype=jnp.float16)
    _, state = _apply(tx, steps=2)
    assert state._fields == ("count", "mu", "nu")
    assert state.count.dtype == jnp.int32 and int(state.count) == 2
    assert state.mu["w"].dtype == jnp.float16 and state.nu["w"].dtype == jnp.float32


@pytest.mark.parametrize(
    "tx, state_type",
    [
        (optim.scale_by_rss(), optim.ScaleByRssState),
        (optim.scale_by_rms(), optim.ScaleByRmsState),
        (optim.scale_by_stddev(), optim.ScaleByRStdDevState),
        (optim.scale_by_adadelta(), optim.ScaleByAdaDeltaState),
        (optim.scale_by_belief(), optim.ScaleByBeliefState),
        (optim.scale_by_lion(), optim.ScaleByLionState),
        (optim.scale_by_amsgrad(), optim.ScaleByAmsgradState),
        (optim.scale_by_radam(), optim.ScaleByAdamState),
        (optim.scale_by_adamax(), optim.ScaleByAdamState),
        (optim.scale_by_yogi(), optim.ScaleByAdamState),
        (optim.scale_by_novograd(), optim.ScaleByNovogradState),
        (optim.scale_by_sm3(), optim.ScaleBySM3State),
        (optim.scale_by_factored_rms(min_dim_size_to_factor=2), optim.FactoredState),
        (optim.trace(0.5), optim.TraceState),
        (optim.ema(0.5), optim.EmaState),
        (optim.add_noise(0.1, 0.5, 0), optim.AddNoiseState),
        (optim.zero_nans(), optim.ZeroNansState),
    ],
    ids=lambda x: x.__name__ if isinstance(x, type) else "tx",
)
def test_state_types_and_finite_updates(tx, state_type):
    out, state = _apply(tx, steps=2)
    assert type(state) is state_type
    for k in out:
        assert out[k].shape == np.shape(P[k]) and np.all(np.isfinite(out[k]))


def test_scale_by_factored_rms_factors_large_matrices():
    tx = optim.scale_by_factored_rms(min_dim_size_to_factor=2)
    state = tx.init(_j(P))
    assert state.v_row["w"].shape == (2,) and state.v_col["w"].shape == (2,)
    assert state.v["w"].shape == (1,) and state.v["b"].shape == (2,)


def test_transforms_module_has_optaxs_masking_and_condition_names():
    # optax 0.2.8: masked momentum's trace holds MaskedNode() where masked out; ConditionFn is
    # a Protocol that annotates conditions
    from optim import transforms

    assert transforms.MaskedNode is optim.MaskedNode
    masked = optim.masked(optim.sgd(1.0, momentum=0.9), {"a": True, "b": False})
    state = masked.init({"a": np.ones(2), "b": np.ones(2)})
    assert state.inner_state[0].trace["b"] == transforms.MaskedNode()
    fn: transforms.ConditionFn = lambda step: step > 1
    state = optim.conditionally_transform(optim.sgd(1.0), fn).init(np.ones(2))
    assert int(state.step) == 0


@pytest.mark.parametrize(
    "make, want, acc",
    [
        # Optax 0.2.8's answers: the masks multiply, so a NaN gradient stays NaN in the
        # zero updates between emits and in the accumulator reset after an emit
        (
            lambda: optim.MultiSteps(optim.sgd(1.0), 2),
            [[np.nan, 0.0], [np.nan, 0.5], [np.nan, 0.0], [np.nan, -0.75]],
            [np.nan, 0.0],
        ),
        (
            lambda: optim.apply_every(2),
            [[np.nan, 0.0], [np.nan, -1.0], [np.nan, 0.0], [np.nan, 1.5]],
            [np.nan, 1.5],
        ),
    ],
)
def test_accumulation_keeps_nan_gradients_as_optax(make, want, acc):
    tx = make()
    state = tx.init(jnp.zeros(2))
    got = []
    for g in ([np.nan, 1.0], [1.0, -2.0], [0.5, 0.5], [1.0, 1.0]):
        u, state = tx.update(jnp.array(g), state)
        got.append(np.asarray(u))
    np.testing.assert_array_equal(np.array(got), want)
    np.testing.assert_array_equal(
        getattr(state, "acc_grads", getattr(state, "grad_acc", None)), acc
    )


def test_sm3_rejects_complex_params_with_optax_value_error():
    """Optax 0.2.8: `ValueError: This transformation does not support complex parameters.`"""
    with pytest.raises(optim.errors.ComplexParamsError) as info:
        optim.sm3(0.1).init({"c": jnp.array([1.0j])})
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("This transformation does not support complex parameters.")


# Optax 0.2.8: these transformations' update_fn takes `params` as a required argument, so a
# direct call without it is Python's TypeError naming Optax's function
REQUIRED_PARAMS = [
    ("add_decayed_weights", lambda: optim.add_decayed_weights(0.1)),
    ("adaptive_grad_clip", lambda: optim.adaptive_grad_clip(0.1)),
    ("keep_params_nonnegative", optim.keep_params_nonnegative),
    ("scale_by_param_block_norm", optim.scale_by_param_block_norm),
    ("scale_by_param_block_rms", optim.scale_by_param_block_rms),
    ("scale_by_trust_ratio", optim.scale_by_trust_ratio),
    ("scale_by_novograd", optim.scale_by_novograd),
    ("scale_by_lbfgs", optim.scale_by_lbfgs),
    ("scale_by_factored_rms", optim.scale_by_factored_rms),
    ("scale_by_distance_over_gradients", optim.scale_by_distance_over_gradients),
    ("scale_by_cocob", optim.contrib.scale_by_cocob),
    ("momo", optim.contrib.momo),
    ("momo_adam", optim.contrib.momo_adam),
    ("scale_by_backtracking_linesearch", lambda: optim.scale_by_backtracking_linesearch(5)),
    ("scale_by_zoom_linesearch", lambda: optim.scale_by_zoom_linesearch(5)),
]


@pytest.mark.parametrize("name, make", REQUIRED_PARAMS, ids=[n for n, _ in REQUIRED_PARAMS])
def test_direct_update_without_params_is_pythons_type_error(name, make):
    tx = make()
    params = {"w": jnp.ones((2, 2)), "b": jnp.ones(2)}
    with pytest.raises(TypeError) as info:
        tx.update(params, tx.init(params))
    assert str(info.value) == (
        f"{name}.<locals>.update_fn() missing 1 required positional argument: 'params'"
    )


@pytest.mark.parametrize(
    "call, first_line",
    [
        (
            lambda p: optim.contrib.momo().update(p, optim.contrib.momo().init(p), p),
            "momo.<locals>.update_fn() missing 1 required keyword-only argument: 'value'",
        ),
        (
            lambda p: optim.contrib.sophia(0.1).update(p, optim.contrib.sophia(0.1).init(p)),
            "params must be provided to sophia's update function.",
        ),
        (
            lambda p: optim.contrib.sophia(0.1).update(p, optim.contrib.sophia(0.1).init(p), p),
            "obj_fn must be provided to hutchinson update function.",
        ),
        (
            lambda p: optim.contrib.sam(optim.sgd(0.1), optim.sgd(0.1), opaque_mode=True).update(
                p, optim.contrib.sam(optim.sgd(0.1), optim.sgd(0.1), opaque_mode=True).init(p), p
            ),
            "grad_fn must be provided when opaque_mode=True.",
        ),
        (lambda p: optim.lookahead(optim.sgd(0.1), 0, 0.5), "Synchronization period must be >= 1."),
        (
            lambda p: optim.contrib.sam(optim.sgd(0.1), optim.sgd(0.1), 0),
            "Synchronization period must be >= 1.",
        ),
        (
            lambda p: optim.multi_transform({"a": optim.sgd(0.1)}, {"a": "b"}).init(p),
            "Some parameters have no corresponding transformation.",
        ),
    ],
    ids=["momo_value", "sophia_params", "sophia_obj_fn", "sam_grad_fn", "lookahead_period",
         "sam_period", "multi_transform_label"],
)  # fmt: skip
def test_error_first_lines_are_optaxs(call, first_line):
    # Optax 0.2.8's first lines; numbax adds the fix on the next lines
    with pytest.raises((TypeError, ValueError)) as info:
        call({"a": jnp.ones(1)})
    assert str(info.value).split("\n")[0] == first_line
