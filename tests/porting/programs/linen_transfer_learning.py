"""Transfer learning the way Flax's guide does it, on small models of ours.

A "pretrained" classifier (a backbone of two `Dense` layers with `LayerNorm`, and a head) is
trained for two steps; its backbone is taken out with `model.bind(variables).backbone.unbind()`
(module and variables), a new model with a different head is initialized, and the pretrained
backbone's parameters are put into it with `flax.cursor` (`cursor(params)['backbone'].set`),
also one kernel rescaled by `apply_update` and a bias found by `find`. The backbone is frozen by
`optax.multi_transform` with labels from `traverse_util.path_aware_map` (`set_to_zero` for it,
Adam for the head), or partially (its first layer only) with labels from a cursor's
`apply_update` over a copy of the parameter tree; jitted steps then leave frozen parameters
exactly as loaded. Paths are printed with `jax.tree_util.keystr(simple=True, separator='/')`.
Checks losses, which parameters moved, the surgery, and the parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.cursor import cursor


class Backbone(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(8, name="fc1")(x))
        return nn.LayerNorm(name="norm")(nn.Dense(8, name="fc2")(x))


class Classifier(nn.Module):
    classes: int

    def setup(self):
        self.backbone = Backbone()
        self.head = nn.Dense(self.classes)

    def __call__(self, x):
        return self.head(self.backbone(x))


def train(model, params, tx, x, y, steps):
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state):
        def loss_fn(p):
            logits = model.apply({"params": p}, x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for _ in range(steps):
        params, opt_state, loss = step(params, opt_state)
        losses.append(loss)
    return params, losses


def moved(before, after):
    """'/'-joined paths of the leaves that changed."""
    flat = jax.tree_util.tree_flatten_with_path(jax.tree.map(lambda a, b: bool(jnp.any(a != b)),
                                                             before, after))[0]  # fmt: skip
    return [jax.tree_util.keystr(p, simple=True, separator="/") for p, changed in flat if changed]


def run():
    rs = np.random.RandomState(6)
    x = jnp.asarray(rs.randn(12, 5), jnp.float32)
    y_old = jnp.asarray(rs.randint(0, 4, size=12), jnp.int32)
    y_new = jnp.asarray(rs.randint(0, 2, size=12), jnp.int32)

    pretrained = Classifier(4)
    old_vars = pretrained.init(jax.random.key(0), x)
    old_params, pre_losses = train(pretrained, old_vars["params"], optax.adam(1e-2), x, y_old, 2)

    backbone, backbone_vars = pretrained.bind({"params": old_params}).backbone.unbind()
    features = backbone.apply(backbone_vars, x)

    model = Classifier(2)
    fresh = model.init(jax.random.key(1), x)["params"]
    params = cursor(fresh)["backbone"].set(backbone_vars["params"])
    params = (
        cursor(params)
        .apply_update(lambda path, v: v * 0.5 if path == "backbone/fc2/kernel" else v)
        .build()
    )
    bias_cursor = cursor(params).find(lambda path, v: path == "backbone/norm/bias")
    params = bias_cursor.set(bias_cursor + 0.1)

    labels = traverse_util.path_aware_map(
        lambda path, _: "frozen" if path[0] == "backbone" else "trained", params
    )
    frozen_tx = optax.multi_transform({"frozen": optax.set_to_zero(), "trained": optax.adam(1e-2)},
                                      labels)  # fmt: skip
    frozen_params, frozen_losses = train(model, params, frozen_tx, x, y_new, 3)

    partial_labels = (
        cursor(jax.tree.map(lambda _: "trained", params))
        .apply_update(lambda path, v: "frozen" if path.startswith("backbone/fc1/") else v)
        .build()
    )
    partial_tx = optax.multi_transform({"frozen": optax.set_to_zero(), "trained": optax.sgd(0.1)},
                                       partial_labels)  # fmt: skip
    partial_params, partial_losses = train(model, params, partial_tx, x, y_new, 3)

    flat = jax.tree_util.tree_flatten_with_path(frozen_params)[0]
    return dict(
        pre_losses=pre_losses,
        backbone_type=type(backbone).__name__,
        backbone_keys=sorted(backbone_vars["params"]),
        features=features,
        scaled=params["backbone"]["fc2"]["kernel"] / old_params["backbone"]["fc2"]["kernel"],
        shifted=params["backbone"]["norm"]["bias"],
        labels=labels,
        partial_labels=partial_labels,
        frozen_losses=frozen_losses,
        frozen_moved=moved(params, frozen_params),
        partial_losses=partial_losses,
        partial_moved=moved(params, partial_params),
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(p, simple=True, separator="/") for p, _ in flat],
    )
