"""The base contract: apply_updates, identity/stateless/set_to_zero, numerics, error classes."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
import optim
from optim import errors


def test_apply_updates_adds_and_keeps_param_dtype():
    params = {"a": jnp.asarray([1.0, 2.0], jnp.float16), "b": jnp.asarray([0.5])}
    updates = {"a": jnp.asarray([0.25, -1.0], jnp.float32), "b": jnp.asarray([1.5])}
    new = optim.apply_updates(params, updates)
    assert new["a"].dtype == jnp.float16
    np.testing.assert_allclose(np.asarray(new["a"]), [1.25, 1.0])
    np.testing.assert_allclose(np.asarray(new["b"]), [2.0])


def test_apply_updates_skips_none_leaves():
    params = {"a": jnp.asarray([1.0]), "frozen": None}
    new = optim.apply_updates(params, {"a": jnp.asarray([1.0]), "frozen": None})
    assert new["frozen"] is None
    np.testing.assert_allclose(np.asarray(new["a"]), [2.0])


def test_identity_stateless_and_set_to_zero():
    g = {"a": jnp.asarray([1.0, -2.0])}
    p = {"a": jnp.asarray([3.0, 4.0])}
    out, state = optim.identity().update(g, optim.identity().init(p))
    assert out is g and state == optim.EmptyState()
    out, _ = optim.set_to_zero().update(g, optim.EmptyState())
    np.testing.assert_array_equal(np.asarray(out["a"]), [0.0, 0.0])
    tx = optim.stateless(lambda u, params: optim.tree.add(u, params))
    out, state = tx.update(g, tx.init(p), p)
    np.testing.assert_allclose(np.asarray(out["a"]), [4.0, 2.0])
    assert state == optim.EmptyState()
    tx = optim.stateless_with_tree_map(lambda u, param: u * 2 if param is None else u * param)
    np.testing.assert_allclose(np.asarray(tx.update(g, tx.init(p))[0]["a"]), [2.0, -4.0])
    np.testing.assert_allclose(np.asarray(tx.update(g, tx.init(p), p)[0]["a"]), [3.0, -8.0])


def test_with_extra_args_support_ignores_extra_args():
    tx = optim.with_extra_args_support(optim.scale(2.0))
    assert isinstance(tx, optim.GradientTransformationExtraArgs)
    out, _ = tx.update({"a": jnp.asarray([1.0])}, optim.EmptyState(), None, value=3.0)
    np.testing.assert_allclose(np.asarray(out["a"]), [2.0])
    out, _ = optim.adam(0.1).update(
        {"a": jnp.asarray([1.0])}, optim.adam(0.1).init({"a": jnp.zeros(1)}), value=1.0
    )
    np.testing.assert_allclose(np.asarray(out["a"]), [-0.1], rtol=1e-5)


def test_global_norm_and_incremental_updates():
    tree = {"a": jnp.asarray([3.0]), "b": jnp.asarray([[4.0, 0.0]])}
    np.testing.assert_allclose(float(optim.global_norm(tree)), 5.0)
    new, old = {"a": jnp.asarray([1.0])}, {"a": jnp.asarray([3.0])}
    np.testing.assert_allclose(np.asarray(optim.incremental_update(new, old, 0.25)["a"]), [2.5])
    np.testing.assert_allclose(np.asarray(optim.periodic_update(new, old, 4, 2)["a"]), [1.0])
    np.testing.assert_allclose(np.asarray(optim.periodic_update(new, old, 3, 2)["a"]), [3.0])


def test_safe_increment_saturates():
    top = jnp.asarray(np.iinfo(np.int32).max, jnp.int32)
    assert int(optim.safe_increment(top)) == np.iinfo(np.int32).max
    assert int(optim.safe_increment(jnp.asarray(41, jnp.int32))) == 42
    assert optim.safe_increment(jnp.asarray(0, jnp.int32)).dtype == jnp.int32


def test_safe_norm_clamps_from_below():
    np.testing.assert_allclose(float(optim.safe_norm(jnp.asarray([3.0, 4.0]), 1.0)), 5.0)
    np.testing.assert_allclose(float(optim.safe_norm(jnp.zeros(2), 0.5)), 0.5)


@pytest.mark.parametrize(
    "make, error",
    [
        (lambda: optim.adamw(0.1).update({"a": jnp.ones(1)}, optim.adamw(0.1).init({"a": 1.0})),
         errors.MissingParamsError),
        (lambda: optim.chain(optim.scale(1.0)).update({"a": jnp.ones(1)}, ()),
         errors.StateMismatchError),
        (lambda: optim.adam(1e-3).update(
            {"a": jnp.ones(1)}, optim.sgd(0.1, momentum=0.9).init({"a": jnp.ones(1)})),
         errors.StateMismatchError),
        (lambda: optim.named_chain(("a", optim.scale(1.0)), ("a", optim.scale(2.0))),
         errors.DuplicateNameError),
        (lambda: optim.partition({"x": optim.sgd(1.0)}, {"a": "y"}).init({"a": jnp.ones(1)}),
         errors.UnknownLabelError),
        (lambda: optim.inject_hyperparams(optim.sgd, static_args="nope"), errors.StaticArgsError),
        (lambda: optim.cosine_decay_schedule(1.0, 0), errors.ScheduleArgumentError),
        (lambda: optim.tree.norm({"a": jnp.ones(1)}, ord=3), errors.NormOrderError),
        (lambda: optim.softmax_cross_entropy_with_integer_labels(jnp.ones((2, 3)), jnp.ones(2)),
         errors.LossInputError),
    ],
)  # fmt: skip
def test_errors_are_specific_and_builtin_compatible(make, error):
    with pytest.raises(error) as info:
        make()
    assert isinstance(info.value, (ValueError, TypeError, KeyError))
    assert error.__name__ in str(info.value)


def test_missing_params_message_starts_with_optaxs():
    tx = optim.adamw(0.1)
    params = {"w": jnp.ones(2)}
    with pytest.raises(errors.MissingParamsError) as e:
        tx.update(params, tx.init(params))
    assert str(e.value).split("\n")[0] == (  # Optax 0.2.8's NO_PARAMS_MSG
        "You are using a transformation that requires the current value of parameters, but "
        "you are not passing `params` when calling `update`."
    )


def test_named_chain_duplicate_message_starts_with_optaxs():
    with pytest.raises(ValueError) as e:
        optim.named_chain(("a", optim.scale(1.0)), ("a", optim.scale(2.0)))
    # Optax 0.2.8's first line
    assert str(e.value).split("\n")[0] == (
        "Named transformations must have unique names, but got ['a', 'a']"
    )


def test_optax_base_names():
    # optax._src.base's annotation names and NO_PARAMS_MSG (Optax 0.2.8's text)
    assert {"ArrayTree", "PRNGKey", "Shape", "PyTree", "Params"} <= set(dir(optim.base))
    assert optim.base.NO_PARAMS_MSG == (
        "You are using a transformation that requires the current value of parameters, but you "
        "are not passing `params` when calling `update`."
    )
    with pytest.raises(ValueError) as info:
        tx = optim.add_decayed_weights(1e-4)
        tx.update({"w": jnp.ones(2)}, tx.init({"w": jnp.ones(2)}), None)
    assert str(info.value).splitlines()[0] == optim.base.NO_PARAMS_MSG


# Optax 0.2.8's ValueError for counts it cannot saturate (bool, complex).
@pytest.mark.parametrize("dtype", ["bool", "complex64"])
def test_safe_increment_rejects_bool_and_complex_counts(dtype):
    with pytest.raises(ValueError, match=f"Cannot safely increment count with dtype {dtype},"):
        optim.safe_increment(jnp.asarray(1, dtype=dtype))
