"""A variational autoencoder on binarized MNIST written against JAX's `stax` and `optimizers`.

The program of JAX's `examples/mnist_vae.py` (encoder 784-512-512 -> (mean, softplus variance)
of a 10-d Gaussian code, decoder 10-512-512-784 Bernoulli logits, a one-sample ELBO, SGD with
momentum 0.9 at 1e-3, batches of 32 binarized with `random.bernoulli`, one `lax.fori_loop` per
epoch under `jit`), written for this repository: it imports `jax` under numbax's names (the
marked block is the only part that differs from the same program on JAX), and
`tests/examples/test_stax_mnist.py` checks that both give the same numbers. Run it with
`python -m examples.stax_mnist.vae`; the sampled image grids are saved as PNGs when matplotlib
is installed (numbax does not need it).
"""

import os
import time

# --- imports: JAX's, renamed (jax -> core) ---
import core as jax
import core.numpy as jnp
from core import grad, jit, lax, random
from core.example_libraries import optimizers, stax

# --- end of the imports ---
from examples.stax_mnist import data

CODE_SIZE = 10
BATCH = 32

encoder_init, encode = stax.serial(
    stax.Dense(512),
    stax.Relu,
    stax.Dense(512),
    stax.Relu,
    stax.FanOut(2),
    stax.parallel(stax.Dense(CODE_SIZE), stax.serial(stax.Dense(CODE_SIZE), stax.Softplus)),
)
decoder_init, decode = stax.serial(
    stax.Dense(512), stax.Relu, stax.Dense(512), stax.Relu, stax.Dense(28 * 28)
)


def kl_to_standard_normal(mean, var):
    """KL(N(mean, diag var) || N(0, I))."""
    return -0.5 * jnp.sum(1.0 + jnp.log(var) - mean**2.0 - var)


def bernoulli_log_likelihood(logits, pixels):
    """log p(pixels | logits) of independent Bernoulli pixels."""
    return -jnp.sum(jnp.logaddexp(0.0, jnp.where(pixels, -1.0, 1.0) * logits))


def elbo(key, params, images):
    """A one-sample estimate of the evidence lower bound of a batch."""
    enc_params, dec_params = params
    mean, var = encode(enc_params, images)
    code = mean + jnp.sqrt(var) * random.normal(key, mean.shape)
    return bernoulli_log_likelihood(decode(dec_params, code), images) - kl_to_standard_normal(
        mean, var
    )


def sample_grid(key, params, rows, cols):
    """A `rows x cols` grid of 28x28 images sampled from the decoder."""
    code_key, pixel_key = random.split(key)
    logits = decode(params[1], random.normal(code_key, (rows * cols, CODE_SIZE)))
    images = random.bernoulli(pixel_key, jnp.logaddexp(0.0, logits)).reshape(-1, 28, 28)
    tiles = iter(images)
    row_strips = [jnp.hstack([next(tiles).T for _ in range(cols)][::-1]) for _ in range(rows)]
    return jnp.vstack(row_strips).T


def main(num_epochs=100, num_train=None, num_test=None, rows=10, cols=10, log=print):
    """Trains; returns `(test ELBO per epoch, the last epoch's sampled grid)`.
    `num_train`/`num_test` keep only the first examples (for a quick run)."""
    train_x, _, test_x, _ = data.mnist(num_train, num_test, permute_train=True)
    batches_per_epoch = -(-train_x.shape[0] // BATCH)
    enc_key, dec_key = random.split(random.key(2))
    _, enc_params = encoder_init(enc_key, (BATCH, 28 * 28))
    _, dec_params = decoder_init(dec_key, (BATCH, CODE_SIZE))
    opt_init, opt_update, get_params = optimizers.momentum(0.001, mass=0.9)
    train_x, test_x = jax.device_put(train_x), jax.device_put(test_x)
    eval_key = random.key(1)

    @jit
    def train_epoch(key, opt_state, images):
        def one_batch(i, opt_state):
            elbo_key, pixel_key = random.split(random.fold_in(key, i))
            start = (i % batches_per_epoch) * BATCH
            batch = random.bernoulli(pixel_key, lax.dynamic_slice_in_dim(images, start, BATCH))
            loss_grad = grad(lambda p: -elbo(elbo_key, p, batch) / BATCH)
            return opt_update(i, loss_grad(get_params(opt_state)), opt_state)

        return lax.fori_loop(0, batches_per_epoch, one_batch, opt_state)

    @jit
    def evaluate(opt_state, images):
        params = get_params(opt_state)
        elbo_key, pixel_key, sample_key = random.split(eval_key, 3)
        binary = random.bernoulli(pixel_key, images)
        return elbo(elbo_key, params, binary) / images.shape[0], sample_grid(
            sample_key, params, rows, cols
        )

    opt_state = opt_init((enc_params, dec_params))
    elbos = []
    for epoch in range(num_epochs):
        started = time.time()
        opt_state = train_epoch(random.key(epoch), opt_state, train_x)
        test_elbo, grid = evaluate(opt_state, test_x)
        log(f"{epoch: 3d} {test_elbo} ({time.time() - started:.3f} sec)")
        elbos.append(float(test_elbo))
        _save_png(os.path.join(os.getenv("TMPDIR", "/tmp/"), f"mnist_vae_{epoch:03d}.png"), grid)
    return elbos, grid


def _save_png(path, image):
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return
    plt.imsave(path, image, cmap=plt.cm.gray)


if __name__ == "__main__":
    main()
