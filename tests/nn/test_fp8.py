"""Flax's fp8 modules (`nn.Fp8DirectDotGeneralOp`, `Fp8DotGeneralOp`, `NANOOFp8DotGeneralOp`,
`Fp8Einsum`) against Flax 0.12.8's values (fp8_answers.json, recorded by record_fp8.py): two
training steps each, the outputs, the loss, the parameter gradients and the new scales and
amax histories that the "_overwrite_with_gradient" collection's gradients carry."""

import functools
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
import optim
from train import TrainState

ANSWERS = json.loads(Path(__file__).with_name("fp8_answers.json").read_text())
X = jnp.asarray(np.random.RandomState(0).randn(2, 3).astype(np.float32) * 3)
T = jnp.asarray(np.random.RandomState(1).randn(2, 4).astype(np.float32))
H = 4


class _Einsum(nn.Module):
    @nn.compact
    def __call__(self, x):
        k = self.param("kernel", nn.initializers.lecun_normal(), (3, 4))
        return nn.Fp8Einsum(amax_history_length=H)("bi,io->bo", x, k)


MODELS = {
    "dense_direct": lambda: nn.Dense(
        4, dot_general_cls=functools.partial(nn.Fp8DirectDotGeneralOp, amax_history_length=H)
    ),
    "dense_qdq": lambda: nn.Dense(
        4, dot_general_cls=functools.partial(nn.Fp8DotGeneralOp, amax_history_length=H)
    ),
    "dense_nanoo": lambda: nn.Dense(
        4, dot_general_cls=functools.partial(nn.NANOOFp8DotGeneralOp, amax_history_length=H)
    ),
    "densegeneral_direct": lambda: nn.DenseGeneral(
        4, dot_general_cls=functools.partial(nn.Fp8DotGeneral, amax_history_length=H)
    ),
    "einsum": _Einsum,
}


def _arrays(tree):
    if isinstance(tree, dict):
        return {k: _arrays(v) for k, v in tree.items()}
    return np.array(tree, np.float32)


def _shapes(tree):
    return core.tree_util.tree_map(lambda a: [list(a.shape), str(a.dtype)], tree)


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_two_training_steps_give_flax_values(name, jit):
    want = ANSWERS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Fp8DotGeneralOp's deprecation, numpy fallback
        model = MODELS[name]()
        v = model.init(core.random.PRNGKey(0), X)
        assert _shapes(v) == want["tree"]

        def loss(v):
            y = model.apply(v, X)
            return jnp.sum((y - T) ** 2), y

        grad_fn = core.value_and_grad(loss, has_aux=True)
        if jit:
            grad_fn = core.jit(grad_fn)
        for step in want["steps"]:
            (value, y), g = grad_fn(v)
            np.testing.assert_allclose(y, step["y"], rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(value, step["loss"], rtol=1e-6)
            for got, exp in zip(
                core.tree_util.tree_leaves(g), core.tree_util.tree_leaves(_arrays(step["grads"]))
            ):
                np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-6)
            v = {
                "params": core.tree_util.tree_map(
                    lambda p, d: p - 0.1 * d, v["params"], g["params"]
                ),
                "_overwrite_with_gradient": g["_overwrite_with_gradient"],
            }


def test_train_state_overwrites_the_fp8_variables():
    model = MODELS["dense_direct"]()
    v = model.init(core.random.PRNGKey(0), X)
    state = TrainState.create(apply_fn=model.apply, params=v, tx=optim.sgd(0.1))

    def loss(params):
        return jnp.sum((state.apply_fn(params, X) - T) ** 2)

    state = state.apply_gradients(grads=core.grad(loss)(state.params))
    want = ANSWERS["dense_direct"]["steps"][0]["grads"]["_overwrite_with_gradient"]
    got = state.params["_overwrite_with_gradient"]["Fp8DirectDotGeneralOp_0"]
    for k, exp in want["Fp8DirectDotGeneralOp_0"].items():
        np.testing.assert_allclose(got[k], exp, rtol=1e-6)


def test_fp8_dot_general_takes_its_three_operands():
    op = nn.Fp8DirectDotGeneralOp(amax_history_length=H)
    with pytest.raises(nn.errors.Fp8ArgumentsError, match=r"\(x, kernel, dimension_numbers\)"):
        op.init(core.random.PRNGKey(0), X, X)
