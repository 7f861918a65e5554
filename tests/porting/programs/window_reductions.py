"""Pooling and patch extraction by hand, as JAX users write them below `flax.linen`'s pools: a
small feature pyramid on a synthetic image.

- `lax.reduce_window` with `lax.max`, `lax.add`, `lax.min` and `lax.mul` (and their
  identities), `"SAME"`/`"VALID"`/explicit padding, strides, `window_dilation` and
  `base_dilation`; a two-operand `reduce_window` (max with its argmax); a user function as the
  computation;
- the gradients of max, average and sum pooling (through `reduce_window`'s rules), and of a
  pooling under `vmap`;
- `nn.max_pool`/`nn.avg_pool(count_include_pad=False)`/`nn.pool` against `reduce_window`;
- `lax.conv_general_dilated_patches` (im2col) times a reshaped kernel against
  `conv_general_dilated`, and `conv_general_dilated_local` (a locally connected layer) against
  its definition by patches; `nn.ConvLocal`'s parameter shapes and output;
- `lax.reduce` over several axes with a two-operand (value, index) reducer.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random


def image():
    rows, cols = np.mgrid[0:8, 0:9]
    base = np.sin(rows * 0.7) + np.cos(cols * 0.5) + 0.1 * ((rows * 3 + cols * 5) % 7)
    img = np.stack([base, base[::-1], -base], -1)
    return jnp.asarray(img[None], jnp.float32)  # (1, 8, 9, 3) NHWC


def reductions(out):
    x = image()
    win, strides = (1, 3, 3, 1), (1, 2, 2, 1)
    out["max_same"] = lax.reduce_window(x, -jnp.inf, lax.max, win, strides, "SAME")
    out["sum_valid"] = lax.reduce_window(x, 0.0, lax.add, win, strides, "VALID")
    out["min_explicit"] = lax.reduce_window(
        x, jnp.inf, lax.min, win, (1, 1, 1, 1), ((0, 0), (1, 2), (0, 1), (0, 0))
    )
    out["prod"] = lax.reduce_window(
        1.0 + 0.1 * x, 1.0, lax.mul, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"
    )
    out["window_dilated"] = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 1, 1, 1), "VALID",
                                              window_dilation=(1, 2, 3, 1))  # fmt: skip
    out["base_dilated"] = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID",
                                            base_dilation=(1, 2, 2, 1))  # fmt: skip
    ints = jnp.arange(30, dtype=jnp.int32).reshape(5, 6) % 7
    out["int_max"] = lax.reduce_window(
        ints, jnp.iinfo(jnp.int32).min, lax.max, (2, 3), (1, 1), "VALID"
    )
    # A user's computation: a soft maximum pair-reduction stays a monoid only for max-like ops,
    # so use a logaddexp window (a smooth max pool).
    out["logaddexp"] = lax.reduce_window(x, -jnp.inf, jnp.logaddexp, win, strides, "VALID")

    # Max with its argmax (flat index) as a two-operand window reduction.
    flat = jnp.arange(x.size, dtype=jnp.int32).reshape(x.shape)

    def pick(a, b):
        (va, ia), (vb, ib) = a, b
        take_a = (va > vb) | ((va == vb) & (ia < ib))
        return jnp.where(take_a, va, vb), jnp.where(take_a, ia, ib)

    vals, idx = lax.reduce_window((x, flat), (-jnp.inf, jnp.int32(0)), pick, win, strides, "VALID")
    out["argmax_vals"], out["argmax_idx"] = vals, idx

    # lax.reduce with a (value, index) reducer over rows and columns.
    m = x[0, :, :, 0]
    ix = jnp.broadcast_to(jnp.arange(m.size, dtype=jnp.int32).reshape(m.shape), m.shape)
    rv, ri = lax.reduce((m, ix), (-jnp.inf, jnp.int32(0)), pick, (0, 1))
    out["reduce_pair"] = [rv, ri]
    out["reduce_plain"] = lax.reduce(m, 0.0, lax.add, (1,))


def gradients(out):
    x = image()

    def pools(x):
        mx = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        av = lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0
        return jnp.sum(jnp.sin(mx)) + jnp.sum(av**2)

    out["pool_grad"] = jax.grad(pools)(x)
    overlapping = lambda x: jnp.sum(
        lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")
    )
    out["overlapping_max_grad"] = jax.grad(overlapping)(x)
    batch = jnp.stack([x[0], 2.0 * x[0] - 1.0])
    per_image = jax.vmap(lambda im: jnp.sum(nn.max_pool(im[None], (2, 2), strides=(2, 2)) ** 2))
    out["vmap_grad"] = jax.grad(lambda b: jnp.sum(per_image(b)))(batch)
    out["jvp"] = jax.jvp(
        lambda t: nn.avg_pool(t, (2, 3), padding="SAME"), (x,), (jnp.ones_like(x),)
    )[1]


def linen_pools(out):
    x = image()
    out["nn_max"] = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")
    out["nn_avg_incl"] = nn.avg_pool(x, (3, 3), strides=(2, 2), padding="SAME")
    out["nn_avg_excl"] = nn.avg_pool(
        x, (3, 3), strides=(2, 2), padding="SAME", count_include_pad=False
    )
    out["nn_avg_explicit"] = nn.avg_pool(x, (2, 2), padding=((1, 0), (0, 1)))
    out["nn_pool_sum"] = nn.pool(x, 0.0, lax.add, (2, 2), (1, 1), "VALID")
    out["unbatched"] = nn.max_pool(x[0], (2, 2))
    out["one_dim"] = nn.avg_pool(x[:, 0], (3,), strides=(2,))


def patches_and_local(out):
    x = image()
    k = random.normal(random.key(0), (3, 3, 3, 4))
    dn = ("NHWC", "HWIO", "NHWC")
    conv = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=dn)
    patches = lax.conv_general_dilated_patches(x, (3, 3), (1, 1), "SAME", dimension_numbers=dn)
    out["patches_shape"] = str(patches.shape)
    # Patches are ordered (channel, row, column) in the feature dimension.
    by_patches = patches @ jnp.transpose(k, (2, 0, 1, 3)).reshape(27, 4)
    out["im2col_matches"] = bool(jnp.allclose(by_patches, conv, atol=1e-5))
    out["patches"] = patches[0, :2, :2]
    strided = lax.conv_general_dilated_patches(
        x, (2, 2), (2, 3), "VALID", rhs_dilation=(2, 1), dimension_numbers=dn
    )
    out["patches_strided"] = strided
    nchw = lax.conv_general_dilated_patches(jnp.transpose(x, (0, 3, 1, 2)), (2, 2), (1, 1), "VALID")
    out["patches_nchw_shape"] = str(nchw.shape)

    # A locally connected layer: a separate 3x3x3 -> 2 filter at every output position.
    out_h, out_w = 3, 4
    local_k = random.normal(random.key(1), (out_h * out_w, 27, 2)) * 0.2
    local = lax.conv_general_dilated_local(x, local_k.reshape(out_h, out_w, 27, 2), (2, 2), "VALID", (3, 3),
                                           dimension_numbers=dn)  # fmt: skip
    out["local"] = local
    p = lax.conv_general_dilated_patches(x, (3, 3), (2, 2), "VALID", dimension_numbers=dn)
    by_def = jnp.einsum("bhwf,hwfo->bhwo", p, local_k.reshape(out_h, out_w, 27, 2))
    out["local_matches"] = bool(jnp.allclose(local, by_def, atol=1e-5))

    layer = nn.ConvLocal(features=2, kernel_size=(3, 3), strides=(2, 2), padding="VALID")
    variables = layer.init(random.key(2), x)
    out["convlocal_shapes"] = {k: str(v.shape) for k, v in variables["params"].items()}
    y = layer.apply(variables, x)
    out["convlocal"] = y
    g = jax.grad(lambda v: jnp.sum(layer.apply(v, x) ** 2))(variables)
    out["convlocal_grad"] = g["params"]["kernel"][0]


def run():
    out = {}
    reductions(out)
    gradients(out)
    linen_pools(out)
    patches_and_local(out)
    return out
