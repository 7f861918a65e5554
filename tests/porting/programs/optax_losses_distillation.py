"""Knowledge distillation from a deep ensemble, with Optax's classification losses (ours, in the
style of the distillation recipes of google-research/big_transfer `bit_jax` / the Flax
distillation examples: temperature-scaled KL between teacher and student, and of the loss
zoo in google-deepmind/optax `optax/losses` docstrings).

The teacher is an ensemble of three MLPs initialised and applied by `jax.vmap` over keys and
parameters (`model.init` and `model.apply` under `vmap`), its prediction the mean of the
members' probabilities. The student is trained (a jitted step) by `T**2 *
optax.kl_divergence(log_softmax(s/T), softmax(t/T))` plus hard-label cross-entropy on mixup
batches mixed outside the step (`jax.random.beta` weights, `jax.random.permutation`,
`optax.smooth_labels`). The same logits go through the rest of
`optax.losses`: `kl_divergence_with_log_targets`, `generalized_kl_divergence`,
`poly_loss_cross_entropy`, `sigmoid_focal_loss`, `multiclass_hinge_loss`,
`multiclass_perceptron_loss`, `sparsemax_loss` / `multiclass_sparsemax_loss`,
`make_fenchel_young_loss`, `safe_softmax_cross_entropy` with an -inf logit,
`softmax_cross_entropy_with_integer_labels(axis=)`, `cosine_similarity`/`cosine_distance`,
`log_cosh`, `hinge_loss`, `triplet_margin_loss`, `dice_loss`. Checks every loss's values and
gradients, the student's losses and parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

CLASSES = 4


class MLP(nn.Module):
    hidden: int = 16

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(CLASSES)(x)


def make_data(key, n=24):
    k1, k2 = jax.random.split(key)
    x = jax.random.normal(k1, (n, 6))
    w = jax.random.normal(k2, (6, CLASSES))
    return x, jnp.argmax(x @ w, axis=-1)


def distill_loss(student_logits, teacher_probs, temperature):
    teacher_t = jax.nn.softmax(jnp.log(teacher_probs) / temperature)
    kl = optax.kl_divergence(jax.nn.log_softmax(student_logits / temperature), teacher_t)
    return temperature**2 * kl.mean()


def loss_zoo(logits, labels, targets):
    onehot = jax.nn.one_hot(labels, CLASSES)
    log_p = jax.nn.log_softmax(logits)
    fy = optax.losses.make_fenchel_young_loss(jax.scipy.special.logsumexp)
    masked = logits.at[:, 0].set(-jnp.inf)
    return {
        "kl_log_targets": optax.losses.kl_divergence_with_log_targets(log_p, jnp.log(targets)),
        "generalized_kl": optax.losses.generalized_kl_divergence(log_p, targets),
        "poly": optax.losses.poly_loss_cross_entropy(logits, onehot, epsilon=2.0),
        "focal": optax.losses.sigmoid_focal_loss(logits, onehot, alpha=0.25, gamma=2.0),
        "multiclass_hinge": optax.losses.multiclass_hinge_loss(logits, labels),
        "perceptron": optax.losses.multiclass_perceptron_loss(logits, labels),
        "sparsemax": optax.losses.multiclass_sparsemax_loss(logits, labels),
        "binary_sparsemax": optax.losses.sparsemax_loss(logits[:, 0], (labels == 0) * 1.0),
        "fenchel_young": fy(logits, onehot),
        "safe_ce": optax.losses.safe_softmax_cross_entropy(masked, targets.at[:, 0].set(0.0)),
        "ce_axis0": optax.losses.softmax_cross_entropy_with_integer_labels(
            logits.T, labels, axis=0
        ),  # fmt: skip
        "cosine_similarity": optax.losses.cosine_similarity(logits, onehot),
        "cosine_distance": optax.losses.cosine_distance(logits, onehot, epsilon=1e-6),
        "log_cosh": optax.losses.log_cosh(logits, onehot),
        "hinge": optax.losses.hinge_loss(logits[:, 1], 2.0 * (labels == 1) - 1.0),
        "triplet": optax.losses.triplet_margin_loss(
            logits[:-2], logits[1:-1], logits[2:], margin=1.0
        ),  # fmt: skip
        "dice": optax.losses.dice_loss(logits, onehot),
    }


def run():
    out = {}
    x, labels = make_data(jax.random.PRNGKey(0))
    model = MLP()
    member_keys = jax.random.split(jax.random.PRNGKey(1), 3)
    ensemble = jax.vmap(model.init, in_axes=(0, None))(member_keys, x[:1])
    out["ensemble_kernel_shape"] = list(ensemble["params"]["Dense_0"]["kernel"].shape)
    member_logits = jax.vmap(model.apply, in_axes=(0, None))(ensemble, x)
    teacher_probs = jax.nn.softmax(member_logits).mean(0)
    out["teacher_probs"] = teacher_probs[:4]

    first = jax.tree.map(lambda p: p[0], ensemble)
    logits = model.apply(first, x[:6])
    zoo = loss_zoo(logits, labels[:6], teacher_probs[:6])
    out["losses"] = zoo
    out["loss_grads"] = {
        name: jax.grad(lambda lg, n=name: jnp.sum(loss_zoo(lg, labels[:6], teacher_probs[:6])[n]))(
            logits
        )
        for name in ("poly", "focal", "sparsemax", "fenchel_young", "safe_ce", "triplet")
    }

    student = MLP(hidden=8)
    params = student.init(jax.random.PRNGKey(2), x[:1])
    tx = optax.adamw(1e-2, weight_decay=1e-3)
    opt_state = tx.init(params)

    def mixup(key):
        k1, k2 = jax.random.split(key)
        lam = jax.random.beta(k1, 0.4, 0.4)
        perm = jax.random.permutation(k2, x.shape[0])
        soft = optax.smooth_labels(jax.nn.one_hot(labels, CLASSES), 0.1)
        mix = lambda t: lam * t + (1 - lam) * t[perm]  # noqa: E731
        return mix(x), mix(soft), mix(teacher_probs), lam

    @jax.jit
    def step(params, opt_state, xm, ym, tm):
        def loss_fn(p):
            s = student.apply(p, xm)
            hard = optax.softmax_cross_entropy(s, ym).mean()
            return 0.5 * hard + 0.5 * distill_loss(s, tm, 2.0), hard

        (loss, hard), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, hard

    history = []
    for i in range(5):
        xm, ym, tm, lam = mixup(jax.random.PRNGKey(10 + i))
        params, opt_state, loss, hard = step(params, opt_state, xm, ym, tm)
        history.append(jnp.stack([loss, hard, lam]))
    out["history"] = jnp.stack(history)
    out["student_params"] = params
    agreement = jnp.argmax(student.apply(params, x), -1) == jnp.argmax(teacher_probs, -1)
    out["agreement"] = agreement.mean()
    return out
