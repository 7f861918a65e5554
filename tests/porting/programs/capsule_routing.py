"""A small capsule network (ours): a `nn.Conv` stem, primary capsules (a strided convolution
reshaped into 8-dimensional capsule vectors, `squash`ed), class capsules by dynamic routing by
agreement (prediction vectors from a per-pair weight tensor by `einsum`, routing logits
updated for three iterations in a `lax.fori_loop`, coupling coefficients by `softmax` over
the class axis; the routing iterations see the predictions through `stop_gradient`, the last
weighted sum sees them directly), the margin loss on capsule lengths and a reconstruction
decoder fed the true class's capsule (the others masked by `jax.nn.one_hot`). Trained with
`optax.adam` on an `exponential_decay` schedule, jitted. Also the routing's coupling
coefficients, the squash's norms and the capsules' lengths. Checks shapes, the routing,
losses, accuracy and reconstructions."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

CLASSES, ROUTING = 3, 3


def squash(s, axis=-1, eps=1e-7):
    norm2 = jnp.sum(s**2, axis=axis, keepdims=True)
    return norm2 / (1.0 + norm2) * s / jnp.sqrt(norm2 + eps)


def route(predictions, iterations):
    """predictions (batch, inputs, classes, dim) -> class capsules and coupling coefficients."""
    logits = jnp.zeros(predictions.shape[:3])
    frozen = jax.lax.stop_gradient(predictions)

    def update(_, logits):
        coupling = jax.nn.softmax(logits, axis=2)
        outputs = squash(jnp.einsum("bic,bicd->bcd", coupling, frozen))
        return logits + jnp.einsum("bicd,bcd->bic", frozen, outputs)

    logits = jax.lax.fori_loop(0, iterations - 1, update, logits)
    coupling = jax.nn.softmax(logits, axis=2)
    return squash(jnp.einsum("bic,bicd->bcd", coupling, predictions)), coupling


class CapsNet(nn.Module):
    @nn.compact
    def __call__(self, images, labels=None):
        x = nn.relu(nn.Conv(16, (3, 3), padding="VALID", name="stem")(images))
        primary = nn.Conv(4 * 8, (3, 3), strides=2, padding="VALID", name="primary")(x)
        b = primary.shape[0]
        primary = squash(primary.reshape(b, -1, 8))
        weights = self.param("routing_weights", nn.initializers.normal(0.1),
                             (primary.shape[1], CLASSES, 8, 12))  # fmt: skip
        predictions = jnp.einsum("bip,icpd->bicd", primary, weights)
        capsules, coupling = route(predictions, ROUTING)
        lengths = jnp.linalg.norm(capsules, axis=-1)
        chosen = jnp.argmax(lengths, axis=-1) if labels is None else labels
        masked = capsules * jax.nn.one_hot(chosen, CLASSES)[..., None]
        h = nn.relu(nn.Dense(32, name="decoder_hidden")(masked.reshape(b, -1)))
        recon = nn.sigmoid(nn.Dense(images[0].size, name="decoder_out")(h))
        return lengths, recon.reshape(images.shape), coupling


def margin_loss(lengths, labels, m_plus=0.9, m_minus=0.1, down=0.5):
    onehot = jax.nn.one_hot(labels, CLASSES)
    present = onehot * jnp.maximum(0.0, m_plus - lengths) ** 2
    absent = down * (1.0 - onehot) * jnp.maximum(0.0, lengths - m_minus) ** 2
    return jnp.mean(jnp.sum(present + absent, axis=-1))


def glyphs(rs, count):
    """10x10 images of a horizontal bar (0), a vertical bar (1) or a diagonal (2)."""
    labels = rs.randint(0, CLASSES, count)
    images = rs.uniform(0.0, 0.1, (count, 10, 10, 1)).astype(np.float32)
    for i, c in enumerate(labels):
        k = rs.randint(2, 8)
        if c == 0:
            images[i, k, 1:9, 0] = 1.0
        elif c == 1:
            images[i, 1:9, k, 0] = 1.0
        else:
            images[i, np.arange(10), np.arange(10), 0] = 1.0
    return images, labels.astype(np.int32)


@jax.jit
def train_step(state, images, labels):
    def loss_fn(params):
        lengths, recon, _ = state.apply_fn({"params": params}, images, labels)
        margin = margin_loss(lengths, labels)
        reconstruction = jnp.mean(jnp.sum((recon - images) ** 2, axis=(1, 2, 3)))
        return margin + 0.005 * reconstruction, (margin, lengths)

    (loss, (margin, lengths)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    accuracy = jnp.mean(jnp.argmax(lengths, -1) == labels)
    return state.apply_gradients(grads=grads), [loss, margin, accuracy]


def run():
    rs = np.random.RandomState(31)
    s = jnp.array([[0.1, 0.0], [1.0, 1.0], [10.0, -5.0]])
    out = {"squash_norms": jnp.linalg.norm(squash(s), axis=-1)}
    model = CapsNet()
    images, labels = glyphs(rs, 6)
    params = model.init(jax.random.key(0), images)["params"]
    out["shapes"] = jax.tree.map(lambda a: list(a.shape), params)
    lengths, recon, coupling = model.apply({"params": params}, images)
    out["initial"] = {"lengths": lengths, "coupling": coupling[0, :4],
                      "coupling_sums": coupling.sum(axis=2)[0, :4]}  # fmt: skip
    schedule = optax.exponential_decay(5e-3, 10, 0.8)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params,
                                          tx=optax.adam(schedule))  # fmt: skip
    out["history"] = []
    for _ in range(15):
        state, metrics = train_step(state, *glyphs(rs, 16))
        out["history"].append(metrics)
    images, labels = glyphs(rs, 6)
    lengths, recon, coupling = model.apply({"params": state.params}, images)
    out["trained"] = {"lengths": lengths, "labels": labels, "recon": recon[0, ..., 0],
                      "coupling": coupling[0, :4]}  # fmt: skip
    return out
