"""A data-augmentation pipeline written with JAX ops, feeding a small CNN (ours, in the style
of JAX image-training input pipelines that augment on the accelerator).

Per-example keys (`jax.random.split` of a step key, `vmap`ped augmentations): random resized
crops by `jax.image.scale_and_translate` (random scale and offset, bilinear, `antialias`),
horizontal flips by `jnp.where` on a Bernoulli draw, rotations by
`jax.scipy.ndimage.map_coordinates` (order 1, `mode="constant"` and `"nearest"`), brightness,
contrast and saturation jitter (grey by a luminance dot product), a Gaussian blur as a
depthwise `lax.conv_general_dilated` (`feature_group_count=3`), random erasing by a mask of
`jnp.arange` comparisons, and CutMix (a box whose area follows a uniform draw, labels mixed
by the pasted area) and MixUp (a Beta draw, outside the jitted step) between the batch and its
`jnp.roll`. `jax.image.resize` with "lanczos3" and "cubic" downsamples. The CNN trains on
mixed soft labels with `optax.softmax_cross_entropy` under `jax.jit`. Checks each augmentation,
the mixing weights, the losses and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state
from jax import lax
from jax.scipy.ndimage import map_coordinates

SIZE, CLASSES = 12, 3


def random_resized_crop(key, image, min_scale=0.6):
    k_scale, k_offset = jax.random.split(key)
    scale = jax.random.uniform(k_scale, (), minval=1.0, maxval=1.0 / min_scale)
    room = SIZE * scale - SIZE
    offset = -jax.random.uniform(k_offset, (2,)) * room
    return jax.image.scale_and_translate(image, (SIZE, SIZE, 3), (0, 1), jnp.array([scale, scale]),
                                         offset, "linear", antialias=True)  # fmt: skip


def random_flip(key, image):
    return jnp.where(jax.random.bernoulli(key), image[:, ::-1], image)


def rotate(image, angle, mode="constant"):
    center = (SIZE - 1) / 2
    rows, cols = jnp.meshgrid(jnp.arange(SIZE), jnp.arange(SIZE), indexing="ij")
    cos, sin = jnp.cos(angle), jnp.sin(angle)
    src_r = cos * (rows - center) - sin * (cols - center) + center
    src_c = sin * (rows - center) + cos * (cols - center) + center
    channel = lambda c: map_coordinates(image[..., c], [src_r, src_c], order=1, mode=mode,
                                        cval=0.5)  # fmt: skip
    return jnp.stack([channel(c) for c in range(3)], axis=-1)


def color_jitter(key, image, strength=0.3):
    kb, kc, ks = jax.random.split(key, 3)
    brightness, contrast, saturation = (1 + strength * jax.random.uniform(k, (), minval=-1.0)
                                        for k in (kb, kc, ks))  # fmt: skip
    image = image * brightness
    mean = image.mean()
    image = (image - mean) * contrast + mean
    grey = image @ jnp.array([0.299, 0.587, 0.114])
    image = grey[..., None] + (image - grey[..., None]) * saturation
    return jnp.clip(image, 0.0, 1.0)


def gaussian_blur(image, sigma=0.8):
    x = jnp.arange(-2, 3, dtype=jnp.float32)
    g = jnp.exp(-(x**2) / (2 * sigma**2))
    kernel = jnp.outer(g, g) / jnp.sum(g) ** 2
    kernel = jnp.tile(kernel[:, :, None, None], (1, 1, 1, 3))
    out = lax.conv_general_dilated(image[None], kernel, (1, 1), "SAME",
                                   dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                   feature_group_count=3)  # fmt: skip
    return out[0]


def random_erase(key, image, size=4):
    k_r, k_c = jax.random.split(key)
    r = jax.random.randint(k_r, (), 0, SIZE - size + 1)
    c = jax.random.randint(k_c, (), 0, SIZE - size + 1)
    rows, cols = jnp.arange(SIZE)[:, None], jnp.arange(SIZE)[None, :]
    box = (rows >= r) & (rows < r + size) & (cols >= c) & (cols < c + size)
    return jnp.where(box[..., None], 0.0, image)


def augment(key, image):
    keys = jax.random.split(key, 5)
    image = random_resized_crop(keys[0], image)
    image = random_flip(keys[1], image)
    image = rotate(image, jax.random.uniform(keys[2], (), minval=-0.3, maxval=0.3))
    image = color_jitter(keys[3], image)
    return random_erase(keys[4], image)


def cutmix(key, images, labels):
    k_area, k_r, k_c = jax.random.split(key, 3)
    area = jax.random.uniform(k_area, (), minval=0.2, maxval=0.6)
    side = jnp.round(jnp.sqrt(area) * SIZE).astype(jnp.int32)
    r = jax.random.randint(k_r, (), 0, SIZE - side + 1)
    c = jax.random.randint(k_c, (), 0, SIZE - side + 1)
    rows, cols = jnp.arange(SIZE)[:, None], jnp.arange(SIZE)[None, :]
    box = (rows >= r) & (rows < r + side) & (cols >= c) & (cols < c + side)
    mixed = jnp.where(box[None, ..., None], jnp.roll(images, 1, axis=0), images)
    lam = 1.0 - box.mean()
    return mixed, lam * labels + (1 - lam) * jnp.roll(labels, 1, axis=0), lam


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(8, (3, 3))(x))
        x = nn.max_pool(x, (2, 2), (2, 2))
        x = nn.relu(nn.Conv(16, (3, 3))(x))
        return nn.Dense(CLASSES)(x.mean(axis=(1, 2)))


def make_images(key, n=8):
    k_cls, k_noise = jax.random.split(key)
    labels = jax.random.randint(k_cls, (n,), 0, CLASSES)
    rows, cols = jnp.meshgrid(jnp.linspace(0, 1, SIZE), jnp.linspace(0, 1, SIZE), indexing="ij")
    shapes = jnp.stack([jnp.stack([rows, cols, 1 - rows], -1),
                        jnp.stack([cols, 0.5 * jnp.ones_like(rows), rows * cols], -1),
                        jnp.stack([(rows > 0.5) * 1.0, (cols > 0.5) * 1.0, rows], -1)])  # fmt: skip
    noise = 0.1 * jax.random.uniform(k_noise, (n, SIZE, SIZE, 3))
    return jnp.clip(shapes[labels] + noise, 0, 1), labels


@jax.jit
def train_step(state, images, soft_labels, key):
    keys = jax.random.split(key, images.shape[0])
    augmented = jax.vmap(augment)(keys, images)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, augmented)
        return optax.softmax_cross_entropy(logits, soft_labels).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def run():
    out = {}
    images, labels = make_images(jax.random.PRNGKey(0))
    image = images[0]
    out["crop"] = random_resized_crop(jax.random.PRNGKey(1), image)[::3, ::3]
    out["flip"] = random_flip(jax.random.PRNGKey(2), image)[0]
    out["rotate_constant"] = rotate(image, 0.4)[::3, ::3]
    out["rotate_nearest"] = rotate(image, -0.7, mode="nearest")[::3, ::3]
    out["jitter"] = color_jitter(jax.random.PRNGKey(3), image)[::3, ::3]
    out["blur"] = gaussian_blur(image)[::3, ::3]
    out["erase"] = random_erase(jax.random.PRNGKey(4), image).sum(axis=(0, 1))
    out["augmented"] = jax.vmap(augment)(jax.random.split(jax.random.PRNGKey(5), 4), images[:4])
    out["resize"] = {m: jax.image.resize(image, (5, 5, 3), m) for m in ("lanczos3", "cubic")}

    one_hot = jax.nn.one_hot(labels, CLASSES)
    mixed, mixed_labels, lam = cutmix(jax.random.PRNGKey(6), images, one_hot)
    out["cutmix"] = {"lam": lam, "labels": mixed_labels, "pixels": mixed.sum(axis=(1, 2, 3))}
    beta = jax.random.beta(jax.random.PRNGKey(7), 0.4, 0.4)
    out["mixup_lam"] = beta

    model = CNN()
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=model.init(jax.random.PRNGKey(8), images)["params"],
        tx=optax.sgd(0.1, momentum=0.9),
    )  # fmt: skip
    losses = []
    for i in range(5):
        key = jax.random.fold_in(jax.random.PRNGKey(9), i)
        lam = jax.random.beta(jax.random.fold_in(key, 1), 0.4, 0.4)
        batch = lam * images + (1 - lam) * jnp.roll(images, 1, axis=0)
        soft = lam * one_hot + (1 - lam) * jnp.roll(one_hot, 1, axis=0)
        if i % 2:
            batch, soft, _ = cutmix(key, images, one_hot)
        state, loss = train_step(state, batch, soft, key)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["params"] = state.params
    return out
