"""`jax.scipy.signal`, `jax.scipy.ndimage` and `jax.scipy.interpolate` at their options, as a
small audio-and-image preprocessing pipeline uses them (our own program).

- `signal.convolve`/`correlate` in `full`, `same` and `valid` modes (1-D, and 2-D with
  `convolve2d`/`correlate2d` including `boundary='wrap'`/`'symm'` and `fillvalue=`),
  `method='fft'` against `'direct'`, `fftconvolve` with `axes=`;
- `signal.stft`/`istft` (a Hann window, `nperseg`, `noverlap`, `boundary`, `padded`) and the
  round trip, `welch` and `csd` spectra (`detrend`, `scaling='spectrum'`,
  `return_onesided`), `detrend` (`linear`, `constant`, `bp=`);
- `ndimage.map_coordinates` with `order=0`/`1` and every `mode` (`constant` with `cval`,
  `nearest`, `wrap`, `mirror`, `reflect`), a rotation of an image by sampled coordinates and
  its gradient with respect to the angle;
- `interpolate.RegularGridInterpolator` (`linear`, `nearest`, `fill_value=None`
  extrapolation and `bounds_error=False` with a fill);
- `jnp.interp` with `left`/`right`/`period`.
"""

import jax
import jax.numpy as jnp
from jax.scipy import interpolate, ndimage, signal


def data():
    k1, k2, k3 = jax.random.split(jax.random.key(9), 3)
    t = jnp.arange(64) / 16.0
    audio = jnp.sin(2 * jnp.pi * 2.0 * t) + 0.3 * jax.random.normal(k1, (64,))
    other = jnp.cos(2 * jnp.pi * 3.0 * t) + 0.3 * jax.random.normal(k2, (64,))
    image = jax.random.uniform(k3, (6, 7))
    return audio, other, image


def convolutions(out, audio, image):
    kernel = jnp.array([0.25, 0.5, 0.25, -0.1])
    for mode in ("full", "same", "valid"):
        out[f"convolve_{mode}"] = signal.convolve(audio[:10], kernel, mode=mode)
        out[f"correlate_{mode}"] = signal.correlate(audio[:10], kernel, mode=mode)
    out["convolve_fft"] = signal.convolve(audio, kernel, method="fft")
    out["convolve_direct"] = signal.convolve(audio, kernel, method="direct")
    k2 = jnp.array([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0]])
    out["convolve2d_same"] = signal.convolve2d(image, k2, mode="same")
    out["convolve2d_valid"] = signal.convolve2d(image, k2, mode="valid")
    out["correlate2d_full"] = signal.correlate2d(image, k2)
    rows = jnp.tile(k2[:1], (6, 1))
    out["fftconvolve_axes"] = signal.fftconvolve(image, rows, mode="same", axes=1)
    try:  # the other axes must match: one kernel row does not broadcast
        signal.fftconvolve(image, k2[:1], mode="same", axes=1)
        out["fftconvolve_error"] = "no error"
    except ValueError as e:
        out["fftconvolve_error"] = str(e).splitlines()[0]


def spectra(out, audio, other):
    f, t, z = signal.stft(audio, fs=16.0, nperseg=16, noverlap=8)
    out["stft_shape"] = [list(f.shape), list(t.shape), list(z.shape), str(z.dtype)]
    out["stft_abs"] = jnp.abs(z)
    out["stft_freqs"] = f
    out["stft_times"] = t
    _, back = signal.istft(z, fs=16.0, nperseg=16, noverlap=8)
    out["istft_roundtrip"] = back[:64]
    _, _, z2 = signal.stft(audio, nperseg=12, noverlap=4, boundary=None, padded=False)
    out["stft_no_boundary"] = jnp.abs(z2)
    fw, pw = signal.welch(audio, fs=16.0, nperseg=16)
    out["welch"] = [fw, pw]
    out["welch_spectrum"] = signal.welch(audio, nperseg=16, scaling="spectrum", detrend="linear")[1]
    fc, pc = signal.csd(audio, other, fs=16.0, nperseg=16)
    out["csd"] = [fc, jnp.abs(pc)]
    out["csd_twosided"] = jnp.abs(signal.csd(audio, other, nperseg=8, return_onesided=False)[1])
    ramp = jnp.arange(12.0) * 0.5 + jnp.where(jnp.arange(12) > 5, 3.0, 0.0)
    out["detrend_linear"] = signal.detrend(ramp)
    out["detrend_constant"] = signal.detrend(ramp, type="constant")
    out["detrend_bp"] = signal.detrend(ramp, bp=[6])


def sampling(out, image):
    rows = jnp.array([-1.0, 0.0, 2.5, 5.0, 6.3])
    cols = jnp.array([0.5, -0.7, 3.2, 6.0, 7.9])
    for order in (0, 1):
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            out[f"map_{order}_{mode}"] = ndimage.map_coordinates(
                image, [rows, cols], order=order, mode=mode, cval=-1.0
            )

    def rotate(img, angle):
        h, w = img.shape
        y, x = jnp.meshgrid(jnp.arange(h) - (h - 1) / 2, jnp.arange(w) - (w - 1) / 2,
                            indexing="ij")  # fmt: skip
        c, s = jnp.cos(angle), jnp.sin(angle)
        src = [c * y - s * x + (h - 1) / 2, s * y + c * x + (w - 1) / 2]
        return ndimage.map_coordinates(img, src, order=1, mode="nearest")

    out["rotated"] = rotate(image, 0.3)
    out["rotation_grad"] = jax.grad(lambda a: jnp.sum(rotate(image, a) * image))(0.3)


def interpolation(out, image):
    grid = (jnp.arange(6.0), jnp.linspace(0.0, 1.0, 7))
    pts = jnp.array([[0.5, 0.1], [2.2, 0.95], [5.0, 1.0], [6.5, 0.5], [-1.0, 0.2]])
    out["rgi_linear_extrapolate"] = interpolate.RegularGridInterpolator(
        grid, image, fill_value=None
    )(pts)
    out["rgi_nearest"] = interpolate.RegularGridInterpolator(
        grid, image, method="nearest", bounds_error=False, fill_value=-2.0
    )(pts)
    out["rgi_fill"] = interpolate.RegularGridInterpolator(
        grid, image, bounds_error=False, fill_value=7.0
    )(pts)
    xp = jnp.array([0.0, 1.0, 3.0])
    fp = jnp.array([1.0, -1.0, 2.0])
    x = jnp.array([-2.0, 0.5, 2.0, 3.0, 4.0])
    out["interp"] = [jnp.interp(x, xp, fp), jnp.interp(x, xp, fp, left=-9.0, right=9.0),
                     jnp.interp(x, xp, fp, period=4.0)]  # fmt: skip


def run():
    out = {}
    audio, other, image = data()
    convolutions(out, audio, image)
    spectra(out, audio, other)
    sampling(out, image)
    interpolation(out, image)
    return out
