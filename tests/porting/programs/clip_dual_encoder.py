"""A CLIP-style dual encoder trained contrastively on synthetic image/caption pairs (ours,
written in Flax Linen as contrastive image-text training code writes one).

The image tower is a small strided `Conv` stack with global average pooling; the text tower
embeds tokens, runs a `nn.SelfAttention` block under a padding mask and takes the
end-of-text token's state by `jnp.take_along_axis` on the lengths. Both project into one space
and are normalised (`l2_normalize` by `jnp.linalg.norm` with a floor, and `optax`'s
`safe_norm`); the logit scale is a learned log-temperature initialised at `log(1/0.07)`,
exponentiated and clipped at 100. The loss is the symmetric
`optax.softmax_cross_entropy_with_integer_labels` over the similarity matrix (images against
texts and back), averaged. `adamw` with a cosine schedule; the log-temperature is kept out of
weight decay by a mask. Checks the losses and the scale over the steps, the similarity
matrix, retrieval recall@1/@2 from `lax.top_k`, zero-shot classification by prompt
embeddings, SigLIP's sigmoid loss on the same embeddings (`optax.log_sigmoid`) and the
parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state
from jax import lax

VOCAB, TEXT_LEN, CLASSES, EMBED = 24, 6, 4, 16
EOT = VOCAB - 1


def l2_normalize(x, axis=-1, eps=1e-6):
    return x / jnp.maximum(jnp.linalg.norm(x, axis=axis, keepdims=True), eps)


class ImageTower(nn.Module):
    @nn.compact
    def __call__(self, images):
        x = nn.Conv(8, (3, 3), strides=2)(images)
        x = nn.gelu(nn.LayerNorm()(x))
        x = nn.Conv(16, (3, 3), strides=2)(x)
        x = nn.gelu(nn.LayerNorm()(x))
        return nn.Dense(EMBED, use_bias=False)(x.mean(axis=(1, 2)))


class TextTower(nn.Module):
    width: int = 16

    @nn.compact
    def __call__(self, tokens, lengths):
        x = nn.Embed(VOCAB, self.width)(tokens)
        x = x + self.param("positions", nn.initializers.normal(0.01), (TEXT_LEN, self.width))
        valid = jnp.arange(TEXT_LEN) < lengths[:, None]
        mask = nn.make_attention_mask(valid, valid)
        h = nn.SelfAttention(num_heads=2, use_bias=False)(nn.LayerNorm()(x), mask=mask)
        x = x + h
        x = x + nn.Dense(self.width)(nn.gelu(nn.Dense(2 * self.width)(nn.LayerNorm()(x))))
        last = jnp.take_along_axis(x, (lengths - 1)[:, None, None], axis=1)[:, 0]
        return nn.Dense(EMBED, use_bias=False)(nn.LayerNorm()(last))


class CLIP(nn.Module):
    def setup(self):
        self.image_tower = ImageTower()
        self.text_tower = TextTower()
        self.log_scale = self.param("log_scale", nn.initializers.constant(jnp.log(1 / 0.07)), ())

    def encode_image(self, images):
        return l2_normalize(self.image_tower(images))

    def encode_text(self, tokens, lengths):
        z = self.text_tower(tokens, lengths)
        return z / optax.safe_norm(z, 1e-6, axis=-1, keepdims=True)

    def __call__(self, images, tokens, lengths):
        image_z = self.encode_image(images)
        text_z = self.encode_text(tokens, lengths)
        scale = jnp.minimum(jnp.exp(self.log_scale), 100.0)
        return scale * image_z @ text_z.T, scale


def clip_loss(logits):
    labels = jnp.arange(logits.shape[0])
    to_text = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    to_image = optax.softmax_cross_entropy_with_integer_labels(logits.T, labels)
    return (to_text.mean() + to_image.mean()) / 2


def siglip_loss(image_z, text_z, scale, bias):
    logits = scale * image_z @ text_z.T + bias
    signs = 2 * jnp.eye(logits.shape[0]) - 1
    return -jnp.sum(jax.nn.log_sigmoid(signs * logits)) / logits.shape[0]


def make_pairs(key, n=12):
    """Images of a class's pattern plus noise; captions '<class word> <noise words> EOT'."""
    k_cls, k_noise, k_len, k_words = jax.random.split(key, 4)
    labels = jax.random.randint(k_cls, (n,), 0, CLASSES)
    grid = jnp.linspace(-1, 1, 12)
    yy, xx = jnp.meshgrid(grid, grid, indexing="ij")
    patterns = jnp.stack([jnp.sin(3 * xx), jnp.cos(3 * yy), xx * yy, jnp.sin(2 * (xx + yy))])
    images = patterns[labels][..., None] + 0.3 * jax.random.normal(k_noise, (n, 12, 12, 1))
    lengths = jax.random.randint(k_len, (n,), 3, TEXT_LEN + 1)
    words = jax.random.randint(k_words, (n, TEXT_LEN), CLASSES + 1, EOT)
    positions = jnp.arange(TEXT_LEN)
    tokens = jnp.where(positions == 0, labels[:, None] + 1, words)
    tokens = jnp.where(positions == lengths[:, None] - 1, EOT, tokens)
    tokens = jnp.where(positions < lengths[:, None], tokens, 0)
    return images, tokens, lengths, labels


@jax.jit
def train_step(state, images, tokens, lengths):
    def loss_fn(params):
        logits, scale = state.apply_fn({"params": params}, images, tokens, lengths)
        return clip_loss(logits), scale

    (loss, scale), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), {"loss": loss, "scale": scale}


def recall_at(similarity, k):
    _, top = lax.top_k(similarity, k)
    return jnp.mean(jnp.any(top == jnp.arange(similarity.shape[0])[:, None], axis=1))


def run():
    out = {}
    images, tokens, lengths, labels = make_pairs(jax.random.PRNGKey(0))
    out["tokens"] = tokens
    model = CLIP()
    params = model.init(jax.random.PRNGKey(1), images, tokens, lengths)["params"]
    mask = jax.tree_util.tree_map_with_path(
        lambda path, _: path[-1].key != "log_scale" and path[-1].key != "bias", params
    )
    tx = optax.adamw(optax.cosine_decay_schedule(5e-3, 10), weight_decay=0.1, mask=mask)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    history = []
    for _ in range(8):
        state, metrics = train_step(state, images, tokens, lengths)
        history.append(metrics)
    out["history"] = jax.tree.map(lambda *xs: jnp.stack(xs), *history)

    variables = {"params": state.params}
    image_z = model.apply(variables, images, method=CLIP.encode_image)
    text_z = model.apply(variables, tokens, lengths, method=CLIP.encode_text)
    out["norms"] = jnp.stack([jnp.linalg.norm(image_z, axis=-1), jnp.linalg.norm(text_z, axis=-1)])
    similarity = image_z @ text_z.T
    out["similarity"] = similarity
    out["recall"] = jnp.stack([recall_at(similarity, 1), recall_at(similarity, 2),
                               recall_at(similarity.T, 1), recall_at(similarity.T, 2)])  # fmt: skip

    # zero-shot: one prompt per class, '<class word> EOT'
    prompts = jnp.zeros((CLASSES, TEXT_LEN), jnp.int32)
    prompts = prompts.at[:, 0].set(jnp.arange(CLASSES) + 1).at[:, 1].set(EOT)
    prompt_z = model.apply(variables, prompts, jnp.full((CLASSES,), 2), method=CLIP.encode_text)
    zero_shot = jax.nn.softmax(100.0 * image_z @ prompt_z.T, axis=-1)
    out["zero_shot_probs"] = zero_shot
    out["zero_shot_accuracy"] = jnp.mean(jnp.argmax(zero_shot, -1) == labels)

    scale = jnp.exp(state.params["log_scale"])
    out["siglip"] = jax.value_and_grad(siglip_loss, argnums=(2, 3))(image_z, text_z, scale, -10.0)
    out["params"] = state.params
    return out
