"""Records Flax 0.12.8 / JAX 0.10.2's answers for test_fp8.py: run with the reference
interpreter, `$NUMBAX_REF_PYTHON tests/nn/record_fp8.py` (it writes fp8_answers.json)."""

import functools
import json
import warnings
from pathlib import Path

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

warnings.simplefilter("ignore")
x = jnp.asarray(np.random.RandomState(0).randn(2, 3).astype(np.float32) * 3)
t = jnp.asarray(np.random.RandomState(1).randn(2, 4).astype(np.float32))
out = {}


def run(name, model):
    v = model.init(jax.random.PRNGKey(0), x)
    res = {"tree": jax.tree_util.tree_map(lambda a: [list(a.shape), str(a.dtype)], v)}
    steps = []
    for _ in range(2):

        def loss(v):
            y = model.apply(v, x)
            return jnp.sum((y - t) ** 2), y

        (l, y), g = jax.value_and_grad(loss, has_aux=True)(v)
        steps.append(
            {
                "y": np.asarray(y).tolist(),
                "loss": float(l),
                "grads": jax.tree_util.tree_map(lambda a: np.asarray(a).tolist(), g),
            }
        )
        # as Flax's TrainState: the overwrite-with-gradient collection takes the gradients
        v = {
            "params": jax.tree_util.tree_map(lambda p, gg: p - 0.1 * gg, v["params"], g["params"]),
            "_overwrite_with_gradient": g["_overwrite_with_gradient"],
        }
    res["steps"] = steps
    out[name] = res


H = 4
run(
    "dense_direct",
    nn.Dense(4, dot_general_cls=functools.partial(nn.Fp8DirectDotGeneralOp, amax_history_length=H)),
)
run(
    "dense_qdq",
    nn.Dense(4, dot_general_cls=functools.partial(nn.Fp8DotGeneralOp, amax_history_length=H)),
)
run(
    "dense_nanoo",
    nn.Dense(4, dot_general_cls=functools.partial(nn.NANOOFp8DotGeneralOp, amax_history_length=H)),
)
run(
    "densegeneral_direct",
    nn.DenseGeneral(4, dot_general_cls=functools.partial(nn.Fp8DotGeneral, amax_history_length=H)),
)


class E(nn.Module):
    @nn.compact
    def __call__(self, x):
        k = self.param("kernel", nn.initializers.lecun_normal(), (3, 4))
        return nn.Fp8Einsum(amax_history_length=H)("bi,io->bo", x, k)


run("einsum", E())
Path(__file__).with_name("fp8_answers.json").write_text(json.dumps(out))
