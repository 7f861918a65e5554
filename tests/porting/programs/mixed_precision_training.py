"""Mixed-precision training as Flax's ImageNet example sets it up (ours). A small classifier
whose layers compute in a half type (`dtype=`) and keep float32 parameters (`param_dtype`
default), `nn.BatchNorm(dtype=...)` with float32 batch statistics, a float32 head, the loss in
float32; the same model with `param_dtype=jnp.bfloat16` (half parameters and gradients).
Float16 training scales the loss with `flax.training.dynamic_scale.DynamicScale` (a start
scale that overflows, backing off, then growing every two finite steps), skips the update of a
non-finite step by `jnp.where` over the state as the example does, and keeps the scale in the
`TrainState` (a subclass with `batch_stats` and `dynamic_scale` fields). Checks the dtypes of
every parameter, statistic, gradient and captured intermediate, the scales and finite flags,
the losses to two decimals (half-precision rounding differs between backends below that) and
the argmax predictions of float32 parameters cast to bfloat16."""

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import dynamic_scale as dynamic_scale_lib
from flax.training import train_state


class Classifier(nn.Module):
    dtype: Any = jnp.float32
    param_dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x, train: bool):
        conv = functools.partial(nn.Conv, use_bias=False, dtype=self.dtype,
                                 param_dtype=self.param_dtype)  # fmt: skip
        norm = functools.partial(nn.BatchNorm, use_running_average=not train, momentum=0.9,
                                 dtype=self.dtype, param_dtype=self.param_dtype)  # fmt: skip
        x = nn.relu(norm(name="bn1")(conv(8, (3, 3), name="conv1")(x)))
        x = nn.relu(norm(name="bn2")(conv(8, (3, 3), strides=(2, 2), name="conv2")(x)))
        x = jnp.mean(x, axis=(1, 2))
        x = nn.Dense(16, dtype=self.dtype, param_dtype=self.param_dtype, name="hidden")(x)
        x = nn.LayerNorm(dtype=self.dtype, param_dtype=self.param_dtype)(nn.relu(x))
        return nn.Dense(4, dtype=jnp.float32, param_dtype=self.param_dtype, name="head")(x)


class ScaledState(train_state.TrainState):
    batch_stats: Any
    dynamic_scale: dynamic_scale_lib.DynamicScale


def dtypes(tree):
    return jax.tree.map(lambda x: str(x.dtype), tree)


def cross_entropy(logits, labels):
    logits = logits.astype(jnp.float32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@jax.jit
def scaled_step(state, images, labels):
    def loss_fn(params):
        logits, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats}, images, train=True,
            mutable=["batch_stats"],
        )  # fmt: skip
        return cross_entropy(logits, labels), updates

    scaler = state.dynamic_scale
    scaler, is_fin, (loss, updates), grads = scaler.value_and_grad(loss_fn, has_aux=True)(
        state.params
    )
    new_state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])
    new_state = new_state.replace(
        opt_state=jax.tree.map(functools.partial(jnp.where, is_fin), new_state.opt_state,
                               state.opt_state),
        params=jax.tree.map(functools.partial(jnp.where, is_fin), new_state.params,
                            state.params),
        dynamic_scale=scaler,
    )  # fmt: skip
    return new_state, is_fin, loss, grads


def run():
    rs = np.random.RandomState(5)
    images = rs.randn(8, 6, 6, 3).astype(np.float32)
    labels = rs.randint(0, 4, size=8).astype(np.int32)

    half = Classifier(dtype=jnp.float16)
    variables = half.init(jax.random.key(0), images, train=False)
    logits, inters = half.apply(variables, images, train=True, mutable=["batch_stats",
                                     "intermediates"], capture_intermediates=True)  # fmt: skip
    captured = jax.tree.map(lambda x: str(x.dtype), inters["intermediates"])

    state = ScaledState.create(
        apply_fn=half.apply,
        params=variables["params"],
        tx=optax.sgd(0.1, momentum=0.9),
        batch_stats=variables["batch_stats"],
        dynamic_scale=dynamic_scale_lib.DynamicScale(growth_interval=2, scale=2.0**21),
    )
    record = []
    for _ in range(7):
        state, is_fin, loss, grads = scaled_step(state, images, labels)
        record.append([bool(is_fin), float(state.dynamic_scale.scale),
                       int(state.dynamic_scale.fin_steps), round(float(loss), 2)])  # fmt: skip

    eval_logits = half.apply({"params": state.params, "batch_stats": state.batch_stats},
                             images, train=False)  # fmt: skip

    bf16_params = Classifier(dtype=jnp.bfloat16, param_dtype=jnp.bfloat16)
    bf_vars = bf16_params.init(jax.random.key(1), images, train=False)
    bf_grads = jax.grad(
        lambda p: cross_entropy(
            bf16_params.apply(
                {"params": p, "batch_stats": bf_vars["batch_stats"]}, images, train=False
            ),
            labels,
        )  # fmt: skip
    )(bf_vars["params"])

    full = Classifier()
    full_vars = full.init(jax.random.key(2), images, train=False)
    cast = jax.tree.map(lambda x: x.astype(jnp.bfloat16), full_vars["params"])
    cast_logits = Classifier(dtype=jnp.bfloat16).apply(
        {"params": cast, "batch_stats": full_vars["batch_stats"]}, images, train=False
    )
    full_logits = full.apply(full_vars, images, train=False)
    return dict(
        param_dtypes=dtypes(variables["params"]),
        stat_dtypes=dtypes(variables["batch_stats"]),
        captured=captured,
        logits_dtype=str(logits.dtype),
        record=record,
        grad_dtypes=dtypes(grads),
        eval_dtype=str(eval_logits.dtype),
        eval_argmax=jnp.argmax(eval_logits, -1),
        state_dtypes=dtypes(state.params),
        bf16_param_dtypes=dtypes(bf_vars["params"]),
        bf16_stat_dtypes=dtypes(bf_vars["batch_stats"]),
        bf16_grad_dtypes=dtypes(bf_grads),
        cast_dtype=str(cast_logits.dtype),
        cast_argmax=jnp.argmax(cast_logits, -1),
        full_argmax=jnp.argmax(full_logits, -1),
        full_logits=full_logits,
    )
