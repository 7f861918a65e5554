"""Low-rank adaptation (LoRA) of a pretrained Flax model, three ways (ours, in the style of the
LoRA layers of public Flax fine-tuning code, e.g. the `LoRADense` of Flax LLM fine-tuning
repositories and davisyoshida/lorax's README, which adds W + B A to frozen weights).

A small MLP is pretrained (`optax.sgd`). (1) A `LoRADense` module keeps the pretrained `Dense`
as a named submodule and adds `x @ A @ B * alpha / rank` (A normal, B zeros); the pretrained
parameters are moved in by `traverse_util.flatten_dict`/`unflatten_dict` on tuple paths, and
only A and B train (`optax.multi_transform` with labels by `traverse_util.path_aware_map`, the
rest `optax.set_to_zero()`); merged back into the plain MLP's kernels the outputs agree.
(2) The same adaptation by `nn.intercept_methods`: an interceptor adds low-rank terms kept
outside the model to every `Dense.__call__`, keyed by `context.module.path`. (3) Frozen layers
by `nn.map_variables(..., trans_in_fn=stop_gradient)`, whose kernels get zero gradients.
Checks trainable counts, outputs, losses, the merged parameters and the gradients."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import traverse_util

RANK, ALPHA = 2, 4.0


class MLP(nn.Module):
    widths: tuple = (16, 16, 4)

    @nn.compact
    def __call__(self, x):
        for i, w in enumerate(self.widths):
            x = nn.Dense(w, name=f"layer{i}")(x)
            if i < len(self.widths) - 1:
                x = nn.gelu(x)
        return x


class LoRADense(nn.Module):
    features: int
    rank: int = RANK
    alpha: float = ALPHA

    @nn.compact
    def __call__(self, x):
        y = nn.Dense(self.features, name="base")(x)
        a = self.param("lora_a", nn.initializers.normal(1.0 / self.rank), (x.shape[-1], self.rank))
        b = self.param("lora_b", nn.initializers.zeros, (self.rank, self.features))
        return y + (x @ a @ b) * (self.alpha / self.rank)


class LoRAMLP(nn.Module):
    widths: tuple = (16, 16, 4)

    @nn.compact
    def __call__(self, x):
        for i, w in enumerate(self.widths):
            x = LoRADense(w, name=f"layer{i}")(x)
            if i < len(self.widths) - 1:
                x = nn.gelu(x)
        return x


class FrozenFirstMLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        frozen = nn.map_variables(
            nn.Dense, "params", trans_in_fn=lambda v: jax.tree.map(jax.lax.stop_gradient, v),
            init=True,
        )  # fmt: skip
        x = nn.gelu(frozen(16, name="layer0")(x))
        x = nn.gelu(nn.Dense(16, name="layer1")(x))
        return nn.Dense(4, name="layer2")(x)


def make_data(key, n=32):
    k1, k2 = jax.random.split(key)
    x = jax.random.normal(k1, (n, 8))
    w = jax.random.normal(k2, (8, 4))
    return x, jnp.sin(x @ w)


def mse(pred, y):
    return jnp.mean(optax.l2_loss(pred, y))


def merge(lora_params):
    merged = {}
    for name, layer in lora_params.items():
        delta = layer["lora_a"] @ layer["lora_b"] * (ALPHA / RANK)
        merged[name] = {"kernel": layer["base"]["kernel"] + delta, "bias": layer["base"]["bias"]}
    return merged


def train(loss_fn, params, tx, steps):
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(steps):
        params, opt_state, loss = step(params, opt_state)
        losses.append(loss)
    return params, jnp.stack(losses)


def run():
    out = {}
    x, y = make_data(jax.random.PRNGKey(0))
    x_new, y_new = make_data(jax.random.PRNGKey(1))
    base = MLP()
    params = base.init(jax.random.PRNGKey(2), x)["params"]
    params, out["pretrain_losses"] = train(
        lambda p: mse(base.apply({"params": p}, x), y), params, optax.sgd(0.1), 4
    )

    # (1) LoRA layers holding the pretrained Dense as "base"
    lora = LoRAMLP()
    lora_params = lora.init(jax.random.PRNGKey(3), x)["params"]
    flat = traverse_util.flatten_dict(lora_params)
    for (layer, name), value in traverse_util.flatten_dict(params).items():
        flat[(layer, "base", name)] = value
    lora_params = traverse_util.unflatten_dict(flat)
    out["lora_starts_at_base"] = bool(jnp.allclose(
        lora.apply({"params": lora_params}, x_new), base.apply({"params": params}, x_new)))  # fmt: skip
    labels = traverse_util.path_aware_map(
        lambda path, _: "lora" if path[-1].startswith("lora_") else "frozen", lora_params
    )
    out["labels"] = traverse_util.flatten_dict(labels, sep="/")
    trainable = sum(v.size for k, v in traverse_util.flatten_dict(lora_params).items()
                    if k[-1].startswith("lora_"))  # fmt: skip
    out["trainable"] = [trainable, sum(v.size for v in jax.tree.leaves(lora_params))]
    tx = optax.multi_transform({"lora": optax.adam(2e-2), "frozen": optax.set_to_zero()}, labels)
    lora_params, out["lora_losses"] = train(
        lambda p: mse(lora.apply({"params": p}, x_new), y_new), lora_params, tx, 5
    )
    out["base_unchanged"] = bool(jnp.array_equal(
        lora_params["layer1"]["base"]["kernel"], params["layer1"]["kernel"]))  # fmt: skip
    merged = merge(lora_params)
    out["merged_kernel"] = merged["layer0"]["kernel"]
    out["merged_agrees"] = bool(jnp.allclose(
        base.apply({"params": merged}, x_new), lora.apply({"params": lora_params}, x_new),
        atol=1e-5))  # fmt: skip

    # (2) the same adaptation by intercepting every Dense call
    deltas = {name: {"a": layer["lora_a"], "b": layer["lora_b"]}
              for name, layer in lora_params.items()}  # fmt: skip
    seen = []

    def lora_interceptor(deltas, next_fun, args, kwargs, context):
        y = next_fun(*args, **kwargs)
        if isinstance(context.module, nn.Dense) and context.method_name == "__call__":
            name = context.module.path[-1]
            seen.append("/".join(context.module.path))
            y = y + args[0] @ deltas[name]["a"] @ deltas[name]["b"] * (ALPHA / RANK)
        return y

    with nn.intercept_methods(functools.partial(lora_interceptor, deltas)):
        intercepted = base.apply({"params": params}, x_new)
    out["intercepted_paths"] = seen
    out["intercepted_agrees"] = bool(jnp.allclose(
        intercepted, lora.apply({"params": lora_params}, x_new), atol=1e-5))  # fmt: skip

    def intercepted_loss(deltas):
        with nn.intercept_methods(functools.partial(lora_interceptor, deltas)):
            return mse(base.apply({"params": params}, x_new), y_new)

    loss, delta_grads = jax.value_and_grad(intercepted_loss)(deltas)
    out["intercepted_loss"] = loss
    out["intercepted_grads"] = delta_grads

    # (3) a frozen first layer through map_variables
    frozen = FrozenFirstMLP()
    frozen_params = frozen.init(jax.random.PRNGKey(4), x)["params"]
    out["frozen_structure"] = sorted(traverse_util.flatten_dict(frozen_params, sep="/"))
    grads = jax.grad(lambda p: mse(frozen.apply({"params": p}, x), y))(frozen_params)
    out["frozen_grads"] = grads
    return out
