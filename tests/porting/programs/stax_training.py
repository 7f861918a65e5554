"""stax networks trained by the `optimizers` mini-library (`jax.example_libraries`).

Our own program over the APIs of JAX's stax examples (a classifier, differentially private
SGD, a variational autoencoder), on 8x8 one-channel images of a synthetic ten-class task:

- a `stax.serial` CNN (`Conv` with SAME and VALID padding and strides, `MaxPool` with strides,
  `Relu`, `Flatten`, `Dense`, `LogSoftmax`; `stax.logsoftmax` in the loss) trained by jitted
  `optimizers.momentum` steps on batches from a generator of numpy permutations; accuracies as
  printed f-strings, the loss and the parameters;
- differentially private SGD on the same network under `optimizers.sgd`: per-example gradients
  by `vmap(grad)` over a batch with an inserted axis, each clipped to an l2 norm through
  `tree_flatten`/`tree_unflatten` (stax's empty parameter tuples dropped), summed and noised
  with keys from `random.split` of a `fold_in` key;
- a VAE of `stax.serial`, `FanOut`, `stax.parallel` and `Softplus` networks: `momentum` steps
  in a jitted `lax.fori_loop` over `lax.dynamic_slice_in_dim` batches binarized by
  `random.bernoulli`, data placed by `device_put`, a jitted evaluation returning the ELBO and a
  boolean grid of sampled images built by `jnp.vstack`/`jnp.hstack`.
"""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random
from jax.example_libraries import optimizers, stax
from jax.tree_util import tree_flatten, tree_unflatten

from tests.porting.printed import numbered

SIDE, CLASSES, LATENT, VAE_BATCH = 8, 10, 3, 12

cnn_init, cnn_apply = stax.serial(
    stax.Conv(6, (3, 3), strides=(2, 2), padding="SAME"),
    stax.Relu,
    stax.MaxPool((2, 2), strides=(1, 1)),
    stax.Conv(8, (2, 2), padding="VALID"),
    stax.Relu,
    stax.Flatten,
    stax.Dense(12),
    stax.Relu,
    stax.Dense(CLASSES),
    stax.LogSoftmax,
)

encoder_init, encoder = stax.serial(
    stax.Dense(24),
    stax.Relu,
    stax.FanOut(2),
    stax.parallel(stax.Dense(LATENT), stax.serial(stax.Dense(LATENT), stax.Softplus)),
)
decoder_init, decoder = stax.serial(stax.Dense(24), stax.Relu, stax.Dense(SIDE * SIDE))


def synthetic_digits(seed, count):
    """`count` noisy 8x8x1 float32 images whose class lights a row and a column, and one-hot
    float32 labels."""
    rs = np.random.RandomState(seed)
    labels = rs.randint(0, CLASSES, count)
    images = 0.4 * rs.rand(count, SIDE, SIDE, 1).astype(np.float32)
    images[np.arange(count), labels % SIDE, :, 0] += 0.6
    images[np.arange(count), :, (3 * labels + 1) % SIDE, 0] += 0.3
    return images, np.eye(CLASSES, dtype=np.float32)[labels]


def shuffled_batches(images, targets, size, seed):
    """Endless batches of `size`: each pass over the data in a new numpy permutation."""
    order_rng = np.random.RandomState(seed)
    while True:
        order = order_rng.permutation(len(images))
        for start in range(0, len(images) - size + 1, size):
            pick = order[start : start + size]
            yield images[pick], targets[pick]


def cross_entropy(params, batch):
    images, targets = batch
    log_probs = stax.logsoftmax(cnn_apply(params, images))
    return -jnp.mean(jnp.sum(log_probs * targets, axis=-1))


def hit_rate(params, images, targets):
    return jnp.mean(jnp.argmax(cnn_apply(params, images), -1) == jnp.argmax(targets, -1))


def clipped_example_grads(params, example, max_norm):
    leaves, treedef = tree_flatten(jax.grad(cross_entropy)(params, example))
    norm = jnp.linalg.norm(jnp.array([jnp.linalg.norm(leaf.ravel()) for leaf in leaves]))
    shrink = jnp.minimum(1.0, max_norm / norm)
    return tree_unflatten(treedef, [leaf * shrink for leaf in leaves])


def private_grads(params, batch, key, max_norm, noise_scale):
    images, targets = batch
    per_example = (images[:, None], targets[:, None])
    clipped = jax.vmap(clipped_example_grads, in_axes=(None, 0, None))(
        params, per_example, max_norm
    )
    leaves, treedef = tree_flatten(clipped)
    keys = random.split(key, len(leaves))
    noisy = [
        (leaf.sum(0) + max_norm * noise_scale * random.normal(k, leaf.shape[1:])) / len(images)
        for leaf, k in zip(leaves, keys)
    ]
    return tree_unflatten(treedef, noisy)


def negative_elbo(key, params, pixels):
    enc_params, dec_params = params
    mean, var = encoder(enc_params, pixels)
    code = mean + jnp.sqrt(var) * random.normal(key, mean.shape)
    logits = decoder(dec_params, code)
    neg_log_lik = jnp.sum(jnp.logaddexp(0.0, jnp.where(pixels, -logits, logits)))
    kl = 0.5 * jnp.sum(mean**2 + var - jnp.log(var) - 1.0)
    return neg_log_lik + kl


def sample_grid(key, dec_params, rows, cols):
    code_key, pixel_key = random.split(key)
    logits = decoder(dec_params, random.normal(code_key, (rows * cols, LATENT)))
    tiles = random.bernoulli(pixel_key, jax.nn.sigmoid(logits)).reshape(rows, cols, SIDE, SIDE)
    return jnp.vstack([jnp.hstack([tiles[r, c] for c in range(cols)]) for r in range(rows)])


def train_classifiers(out):
    train_x, train_y = synthetic_digits(0, 48)
    test_x, test_y = synthetic_digits(1, 24)
    _, init_params = cnn_init(random.key(3), (-1, SIDE, SIDE, 1))
    out["param_shapes"] = [[list(p.shape) for p in layer] for layer in init_params]
    printed = []

    opt_init, opt_update, opt_params = optimizers.momentum(0.05, mass=0.9)

    @jax.jit
    def momentum_step(step, state, batch):
        return opt_update(step, jax.grad(cross_entropy)(opt_params(state), batch), state)

    state = opt_init(init_params)
    steps = itertools.count()
    batches = shuffled_batches(train_x, train_y, 16, seed=5)
    for epoch in range(2):
        for _ in range(3):
            state = momentum_step(next(steps), state, next(batches))
        params = opt_params(state)
        printed.append(f"epoch {epoch}: train {hit_rate(params, train_x, train_y)}")
        printed.append(f"epoch {epoch}: test {hit_rate(params, test_x, test_y)}")
    out["momentum_params"] = params
    out["momentum_loss"] = cross_entropy(params, (test_x, test_y))

    sgd_init, sgd_update, sgd_params = optimizers.sgd(0.1)

    @jax.jit
    def private_step(step, state, batch, key):
        grads = private_grads(sgd_params(state), batch, random.fold_in(key, step), 1.0, 0.8)
        return sgd_update(step, grads, state)

    state = sgd_init(init_params)
    noise_key = random.key(11)
    for step in range(3):
        state = private_step(step, state, next(batches), noise_key)
    params = sgd_params(state)
    printed.append(f"private: test {hit_rate(params, test_x, test_y)}")
    out["private_params"] = params
    out["private_loss"] = cross_entropy(params, (test_x, test_y))
    out["printed"] = numbered("\n".join(printed))


def train_vae(out):
    images, _ = synthetic_digits(2, 3 * VAE_BATCH)
    train = jax.device_put(np.clip(images.reshape(len(images), -1), 0.0, 1.0))
    held_out = jax.device_put(np.clip(synthetic_digits(4, 8)[0].reshape(8, -1), 0.0, 1.0))
    n_batches = len(images) // VAE_BATCH
    enc_key, dec_key = random.split(random.key(21))
    _, enc_params = encoder_init(enc_key, (VAE_BATCH, SIDE * SIDE))
    _, dec_params = decoder_init(dec_key, (VAE_BATCH, LATENT))
    vae_init, vae_update, vae_params = optimizers.momentum(0.01, mass=0.8)

    @jax.jit
    def epoch(key, state, data):
        def body(i, state):
            data_key, elbo_key = random.split(random.fold_in(key, i))
            window = lax.dynamic_slice_in_dim(data, i * VAE_BATCH, VAE_BATCH)
            pixels = random.bernoulli(data_key, window)
            loss = lambda p: negative_elbo(elbo_key, p, pixels) / VAE_BATCH
            return vae_update(i, jax.grad(loss)(vae_params(state)), state)

        return lax.fori_loop(0, n_batches, body, state)

    @jax.jit
    def evaluate(state, data):
        data_key, elbo_key, grid_key = random.split(random.key(8), 3)
        pixels = random.bernoulli(data_key, data)
        params = vae_params(state)
        return -negative_elbo(elbo_key, params, pixels) / len(data), sample_grid(
            grid_key, params[1], 3, 4
        )

    state = vae_init((enc_params, dec_params))
    elbos = []
    for e in range(3):
        state = epoch(random.key(e), state, train)
        elbo, grid = evaluate(state, held_out)
        elbos.append(elbo)
    out["vae_elbos"] = elbos
    out["vae_grid"] = [str(grid.dtype), list(grid.shape), grid]
    out["vae_params"] = jax.tree.leaves(vae_params(state))


def run():
    out = {}
    train_classifiers(out)
    train_vae(out)
    return out
