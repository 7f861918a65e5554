"""`optim.wrappers`: the step-skipping wrappers' results take the rejecting branch's weak types
(they choose with `lax.cond`, as Optax does), and `lookahead`'s error for plain params."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim

# a weak-typed scalar param (jnp.array of a Python float is weak) next to a strong vector
PARAMS = {"s": jnp.array(-1.0), "v": jnp.array([1.0, 2.0])}

# Optax 0.2.8 (JAX 0.10.2) printed these: the weak flags of the state's leaves after one update
# of `adam(0.1)` inside each wrapper, the first update's values, and the update's weak flag of "s"
WRAPPED = [
    (
        lambda: optim.apply_if_finite(optim.adam(0.1), 2),
        [False, False, False, False, True, False, True, False],
        {"s": 0.099999338388443, "v": [-0.099999338388443, -0.099999338388443]},
    ),
    (
        lambda: optim.conditionally_mask(optim.adam(0.1), lambda step: step >= 1),
        [False, False, True, False, True, False],
        {"s": 0.0, "v": [0.0, 0.0]},
    ),
    (
        lambda: optim.conditionally_transform(optim.adam(0.1), lambda step: step >= 1),
        [False, True, False, True, False, False],
        {"s": -1.0, "v": [1.0, 2.0]},
    ),
]


@pytest.mark.parametrize(
    "make, weak, first", WRAPPED, ids=["apply_if_finite", "cond_mask", "cond_transform"]
)
def test_skipping_wrappers_keep_the_rejecting_branchs_weak_types(make, weak, first):
    tx = make()
    updates, state = tx.update(PARAMS, tx.init(PARAMS), PARAMS)
    assert [bool(x.weak_type) for x in core.tree.leaves(state)] == weak
    assert updates["s"].weak_type  # as JAX's lax.cond: the false branch's weak type
    for k, v in first.items():
        np.testing.assert_allclose(np.asarray(updates[k]), v, rtol=1e-6)


def test_lookahead_with_plain_params_is_optaxs_attribute_error():
    tx = optim.lookahead(optim.sgd(0.1), 2, 0.5)
    params = {"a": jnp.ones(1)}
    with pytest.raises(optim.errors.LookaheadParamsError) as info:
        tx.update(params, tx.init(optim.LookaheadParams.init_synced(params)), params)
    assert isinstance(info.value, AttributeError)
    # Optax 0.2.8's first line
    assert str(info.value).split("\n")[0] == "'dict' object has no attribute 'fast'"
