"""Convolutions from `jnp.convolve` to `lax.conv_general_dilated`: our own program over the
APIs of JAX's "Generalized convolutions" page, on small synthetic signals and images.

- `jnp.convolve(mode="same")` smoothing a noisy 1-D signal; `jax.scipy.signal.convolve`
  (`mode="same"`) of a 2-D image with a window from `jax.scipy.stats.norm.pdf`;
- `lax.conv` (NCHW/OIHW, SAME) and `lax.conv_with_general_padding` (explicit padding, lhs and
  rhs dilation), `lax.conv_dimension_numbers` for NHWC/HWIO/NHWC, NWC/WIO/NWC and
  NHWDC/HWDIO/NHWDC (the printed `ConvDimensionNumbers`);
- `lax.conv_general_dilated` in NHWC with SAME, VALID and explicit padding, strides, rhs
  (kernel) dilation, lhs (input) dilation, and a transposed convolution by hand (the kernel
  turned by `jnp.rot90` twice, lhs dilation and asymmetric padding) against
  `lax.conv_transpose` with and without `transpose_kernel`;
- the 1-D (NWC) and 3-D (NHWDC) forms; the output shapes and values.
"""

import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np
from jax import lax, random


def smoothing(out):
    t = jnp.linspace(0.0, 6.0, 60)
    noisy = jnp.cos(t) + 0.3 * random.normal(random.key(4), (60,))
    out["convolve_same"] = jnp.convolve(noisy, jnp.full(5, 0.2), mode="same")
    rows, cols = np.mgrid[0:14, 0:17]
    image = jnp.array(((rows * 7 + cols * 3) % 23).astype(np.float32))
    image = image + 4.0 * random.normal(random.key(5), image.shape)
    taps = jnp.linspace(-2.0, 2.0, 5)
    window = jsp.stats.norm.pdf(taps)[:, None] * jsp.stats.norm.pdf(taps)
    out["signal_same"] = jsp.signal.convolve(image, window, mode="same")


def images_2d(out):
    # A 3x3 kernel mixing three channels into two (HWIO), and a (1, 12, 10, 3) NHWC image of
    # three bright squares, one per channel.
    kernel = jnp.array([[0.0, 1.0, 2.0], [-1.0, 0.5, 1.0], [-2.0, -1.0, 0.0]])
    kernel = kernel[:, :, None, None] * jnp.array([[1.0, -0.5], [0.5, 1.0], [2.0, 0.0]])
    img = jnp.zeros((1, 12, 10, 3), jnp.float32)
    for c in range(3):
        img = img.at[0, 2 + 3 * c : 5 + 3 * c, 1 + 2 * c : 5 + 2 * c, c].set(1.0 + c)
    nchw, oihw = jnp.transpose(img, (0, 3, 1, 2)), jnp.transpose(kernel, (3, 2, 0, 1))
    results = {
        "conv_same": lax.conv(nchw, oihw, (1, 1), "SAME"),
        "general_padding": lax.conv_with_general_padding(
            nchw, oihw, (1, 1), ((1, 2), (2, 0)), (1, 1), (2, 1)
        ),
    }
    dn = lax.conv_dimension_numbers(img.shape, kernel.shape, ("NHWC", "HWIO", "NHWC"))
    printed = [str(dn)]

    def nhwc(strides, padding, lhs_dilation, rhs_dilation, k=kernel):
        return lax.conv_general_dilated(img, k, strides, padding, lhs_dilation, rhs_dilation, dn)

    results["same"] = nhwc((1, 1), "SAME", (1, 1), (1, 1))
    results["valid"] = nhwc((1, 1), "VALID", (1, 1), (1, 1))
    results["strided"] = nhwc((2, 3), "SAME", (1, 1), (1, 1))
    results["rhs_dilated"] = nhwc((1, 1), "VALID", (1, 1), (3, 2))
    results["lhs_dilated"] = nhwc((1, 1), ((0, 0), (1, 0)), (2, 2), (1, 1))
    turned = jnp.rot90(jnp.rot90(kernel, axes=(0, 1)), axes=(0, 1))
    by_hand = nhwc((1, 1), ((2, 1), (2, 1)), (2, 2), (1, 1), turned)
    results["transposed_by_hand"] = by_hand
    # transpose_kernel=True takes the kernel of the forward convolution (two channels to
    # three) and turns and transposes it: the computation by hand.
    for flip, k in ((False, kernel), (True, jnp.swapaxes(kernel, 2, 3))):
        t = lax.conv_transpose(img, k, (2, 2), "SAME", dimension_numbers=dn, transpose_kernel=flip)
        results[f"conv_transpose_{flip}"] = [t, bool(jnp.allclose(t, by_hand, atol=1e-5))]
    out["conv_2d"] = results
    out["shapes_2d"] = {
        k: list(np.shape(v if not isinstance(v, list) else v[0])) for k, v in results.items()
    }
    return printed


def signals_1d_3d(out):
    kernel = jnp.array([[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]], [[0.0, 2.0, 0.0], [-1.0, 1.0, -1.0]]])
    kernel = kernel.transpose(2, 1, 0)  # (W, I, O) = (3, 2, 2)
    data = np.zeros((2, 30, 2), np.float32)
    data[0, 5:12, 0] = 1.0
    data[1, 14:25, 1] = -1.0
    dn1 = lax.conv_dimension_numbers(data.shape, kernel.shape, ("NWC", "WIO", "NWC"))
    out["conv_1d"] = lax.conv_general_dilated(data, kernel, (1,), "SAME", (1,), (1,), dn1)
    laplace = np.zeros((3, 3, 3), np.float32)
    laplace[1, 1, 1] = -6.0
    for axis in range(3):
        for side in (0, 2):
            index = [1, 1, 1]
            index[axis] = side
            laplace[tuple(index)] = 1.0
    grid = np.mgrid[0:1:6j, 0:1:7j, 0:1:5j]
    volume = jnp.sin(3 * grid[0]) * jnp.cos(2 * grid[1]) + grid[2]
    volume = volume[None, ..., None].astype(jnp.float32)
    kernel3 = jnp.asarray(laplace)[..., None, None]
    dn3 = lax.conv_dimension_numbers(volume.shape, kernel3.shape, ("NHWDC", "HWDIO", "NHWDC"))
    out["conv_3d"] = lax.conv_general_dilated(
        volume, kernel3, (1, 1, 1), "SAME", (1, 1, 1), (1, 1, 1), dn3
    )
    return [str(dn1), str(dn3)]


def run():
    out = {}
    smoothing(out)
    out["printed"] = images_2d(out) + signals_1d_3d(out)
    return out
