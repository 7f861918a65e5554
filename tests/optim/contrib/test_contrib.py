"""`optim.contrib` against Optax 0.2.8's `optax.contrib`: parameters, every state leaf and its
dtype after a few steps of each case in `contrib_cases.CASES` (recorded once with the reference
venv by `record_contrib.py` into `optax_contrib.json`), a few cases under `core.jit`, the
names of `optax.contrib.__init__`, and the errors."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from core import random, tree_util
from optim import contrib
from optim.errors import (
    MissingLossValueError,
    MissingParamsError,
    NotScheduleFreeStateError,
    OptimizerArgumentError,
)
from tests.optim.contrib.contrib_cases import CASES, run

ANSWERS = json.loads((pathlib.Path(__file__).parent / "optax_contrib.json").read_text())["cases"]

LIBS = {
    "ad": core,
    "jnp": jnp,
    "lib": optim,
    "random": random,
    "leaves": tree_util.tree_leaves,
    "is_key": lambda x: isinstance(x, random.PRNGKeyArray),
}


def _close(ours, expected, what, rtol=2e-5, atol=2e-6):
    np.testing.assert_allclose(
        np.asarray(ours, np.float64), np.asarray(expected, np.float64), rtol, atol, err_msg=what
    )


@pytest.mark.parametrize("label,expr,mode,steps", CASES, ids=[c[0] for c in CASES])
def test_matches_optax(label, expr, mode, steps):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dpsgd's seed= warns, as in Optax
        ours = run(expr, mode, steps, LIBS)
    expected = ANSWERS[label]
    # Muon's Newton-Schulz iterations amplify float32 rounding of the matrix products.
    rtol = 2e-4 if "muon" in label else 2e-5
    for k in expected["params"]:
        _close(ours["params"][k], expected["params"][k], f"{label} params[{k}]", rtol, 20 * rtol)
    assert len(ours["state"]) == len(expected["state"]), label
    for i, (a, b) in enumerate(zip(ours["state"], expected["state"])):
        _close(a, b, f"{label} state leaf {i}", rtol, 20 * rtol)
    assert ours["dtypes"] == expected["dtypes"], label
    if "eval" in expected:
        for k in expected["eval"]:
            _close(ours["eval"][k], expected["eval"][k], f"{label} eval[{k}]")


# lax.cond, jvp-of-grad inside cond, fori_loop + vmap, PRNG keys in the state, schedules.
JIT_CASES = ["reduce_on_plateau", "sophia", "muon", "dpsgd", "schedule_free_adamw"]


@pytest.mark.parametrize("label", JIT_CASES)
def test_under_jit(label):
    """The same steps as one `core.jit`-compiled step function give the same numbers."""
    _, expr, mode, steps = next(c for c in CASES if c[0] == label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = run(expr, mode, steps, dict(LIBS, jit=core.jit))
    expected = ANSWERS[label]
    rtol = 2e-4 if "muon" in label else 2e-5
    for k in expected["params"]:
        _close(ours["params"][k], expected["params"][k], f"jit {label}[{k}]", rtol, 20 * rtol)
    assert ours["dtypes"] == expected["dtypes"], label


PARAMS = {"w": jnp.ones((3, 2)), "b": jnp.ones(2)}

ERRORS = [
    (lambda: contrib.reduce_on_plateau(factor=1.5), OptimizerArgumentError, "Factor must be"),
    (lambda: contrib.reduce_on_plateau(rtol=-1.0), OptimizerArgumentError, "non-negative"),
    (lambda: contrib.reduce_on_plateau(rtol=0.0), OptimizerArgumentError, "At least one"),
    (lambda: contrib.reduce_on_plateau(rtol=2.0), OptimizerArgumentError, "less than or equal"),
    (lambda: contrib.sam(optim.sgd(1.0), optim.sgd(1.0), 0), OptimizerArgumentError, ">= 1"),
    (lambda: contrib.muon(0.1, ns_coeffs="bad"), OptimizerArgumentError, "preset"),
    (lambda: contrib.dog(init_step=("bad", 1.0)).init(PARAMS), OptimizerArgumentError, "init_step"),
    (
        lambda: contrib.prodigy().update(PARAMS, contrib.prodigy().init(PARAMS)),
        MissingParamsError,
        "params",
    ),
    (
        lambda: contrib.sophia(0.1).update(PARAMS, contrib.sophia(0.1).init(PARAMS), PARAMS),
        OptimizerArgumentError,
        "obj_fn",
    ),
    (
        lambda: contrib.sam(optim.sgd(1.0), optim.sgd(1.0), opaque_mode=True).update(
            PARAMS,
            contrib.sam(optim.sgd(1.0), optim.sgd(1.0), opaque_mode=True).init(PARAMS),
            PARAMS,
        ),
        OptimizerArgumentError,
        "grad_fn",
    ),
    (
        lambda: contrib.scale_by_muon().update(
            jnp.ones((2, 2, 2)), contrib.scale_by_muon().init(jnp.ones((2, 2, 2)))
        ),
        OptimizerArgumentError,
        "weight dimension numbers",
    ),
    (lambda: contrib.galore(0.1, rank=0), OptimizerArgumentError, "positive"),
    (
        lambda: contrib.galore(0.1, weight_dimension_numbers=contrib.GaLoreDimensionNumbers()).init(
            {"w": jnp.ones((2, 3, 4))}
        ),
        OptimizerArgumentError,
        "All axes",
    ),
    (
        lambda: contrib.differentially_private_aggregate(1.0, 1.0, key=1, seed=2),
        OptimizerArgumentError,
        "Only one of seed or key",
    ),
]


@pytest.mark.parametrize("make,cls,fragment", ERRORS)
def test_errors_are_optax_value_errors_naming_the_fix(make, cls, fragment):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(cls, match=fragment) as info:
            make()
    assert isinstance(info.value, ValueError)


# Optax 0.2.8's first lines (ValueError) for reduce_on_plateau's arguments
PLATEAU_ERRORS = [
    (dict(factor=1.5), "Factor must be in the range (0, 1), got factor = 1.5."),
    (dict(rtol=-1.0), "Both rtol and atol must be non-negative, got rtol = -1.0 and atol = 0.0."),
    (
        dict(rtol=0.0),
        "At least one of rtol or atol must be positive, got rtol = 0.0 and atol = 0.0.",
    ),
    (dict(rtol=2.0), "rtol must be less than or equal to 1.0, got rtol = 2.0."),
]


@pytest.mark.parametrize("kwargs,first_line", PLATEAU_ERRORS)
def test_reduce_on_plateau_errors_first_line_is_optaxs(kwargs, first_line):
    with pytest.raises(ValueError) as info:
        contrib.reduce_on_plateau(**kwargs)
    assert str(info.value).split("\n")[0] == first_line


def test_eval_params_of_another_state_is_optax_attribute_error():
    """Optax 0.2.8 looks up `state.b1`: `AttributeError: 'EmptyState' object has no attribute
    'b1'`."""
    with pytest.raises(NotScheduleFreeStateError, match="ScheduleFreeState") as info:
        contrib.schedule_free_eval_params(optim.EmptyState(), PARAMS)
    assert isinstance(info.value, AttributeError)
    assert str(info.value).startswith("'EmptyState' object has no attribute 'b1'")


@pytest.mark.parametrize("name", ["momo", "momo_adam"])
def test_momo_without_the_loss_is_a_type_error(name):
    """Optax's `value` is a required keyword argument: a `TypeError` naming it and the fix."""
    tx = getattr(contrib, name)()
    with pytest.raises(MissingLossValueError, match="keyword-only argument: 'value'") as info:
        tx.update(PARAMS, tx.init(PARAMS), PARAMS)
    assert isinstance(info.value, TypeError)
    assert "value=loss" in str(info.value)


# optax.contrib.__init__'s names in Optax 0.2.8 (tools/reference_names.json).
OPTAX_CONTRIB = json.loads(
    (pathlib.Path(__file__).parents[3] / "tools" / "reference_names.json").read_text()
)["optax.contrib"]


def test_names_of_optax_contrib():
    assert [n for n in OPTAX_CONTRIB if not hasattr(contrib, n)] == []
    assert set(contrib.__all__) <= set(OPTAX_CONTRIB)
    for name in (
        "dpsgd",
        "differentially_private_aggregate",
        "DifferentiallyPrivateAggregateState",
    ):
        assert getattr(optim, name) is getattr(contrib, name)


def test_dpsgd_noise_and_clipping():
    """Formula check without noise: each example clipped to norm 1, summed, divided by 4."""
    tx = contrib.differentially_private_aggregate(1.0, 0.0, key=0)
    g = {"w": jnp.asarray(np.arange(1.0, 5.0)[:, None] * np.ones((4, 3), np.float32))}
    out, _ = tx.update(g, tx.init(None))
    # example k has norm (k+1)*sqrt(3) > 1: every one is clipped to norm 1.
    np.testing.assert_allclose(out["w"], np.full(3, 4 / np.sqrt(3) / 4), rtol=1e-6)
