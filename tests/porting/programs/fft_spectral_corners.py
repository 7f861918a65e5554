"""`jax.numpy.fft` and `lax.fft` at their corners, as signal-processing code meets them (our
own program): lengths, axes, normalisations and dtypes, and derivatives through transforms.

- `fft`/`ifft` with `n=` padding and truncating, `axis=`, odd lengths and every `norm=`
  (`backward`, `ortho`, `forward`); `fft` of integer and boolean inputs (complex64);
- `rfft`/`irfft` (default and explicit `n`, odd output lengths), `hfft`/`ihfft`, `fft2`/`ifft2`
  and `fftn`/`irfftn` with `s=` and `axes=`, `rfft2`;
- `fftfreq`/`rfftfreq` with `d=` and their dtypes, `fftshift`/`ifftshift` with `axes=`;
- `lax.fft` with `FftType.FFT`, `IFFT`, `RFFT`, `IRFFT` over the last two axes;
- Parseval's identity, a circular convolution by `rfft` against `jnp.convolve` of a wrapped
  signal, a band-pass filter, `grad` of a spectral energy through `rfft` and of a filtered
  signal's loss through `irfft`, `jvp` of `fft` (linear), `vmap` over signals, and a complex
  gradient (`grad` of `|fft(x)|^2` summed, `holomorphic=False`).
"""

import jax
import jax.numpy as jnp
from jax import lax


def signals():
    k1, k2 = jax.random.split(jax.random.key(5))
    x = jax.random.normal(k1, (2, 7))
    z = x + 1j * jax.random.normal(k2, (2, 7))
    return x, z.astype(jnp.complex64)


def transforms(out, x, z):
    f = jnp.fft
    out["fft_pad"] = f.fft(x, n=10)
    out["fft_trunc_axis0"] = f.fft(z, n=1, axis=0)
    for norm in ("backward", "ortho", "forward"):
        out[f"fft_{norm}"] = f.fft(z, norm=norm)
        out[f"ifft_roundtrip_{norm}"] = f.ifft(f.fft(z, norm=norm), norm=norm)
    out["fft_int"] = f.fft(jnp.arange(5))
    out["fft_bool"] = f.fft(jnp.array([True, False, True]))
    out["fft_dtypes"] = [str(f.fft(jnp.arange(5)).dtype), str(f.rfft(x).dtype),
                         str(f.irfft(f.rfft(x)).dtype), str(f.hfft(z).dtype)]  # fmt: skip
    out["rfft"] = f.rfft(x)
    out["irfft_default"] = f.irfft(f.rfft(x))  # even length 6 by default
    out["irfft_n7"] = f.irfft(f.rfft(x), n=7)
    out["irfft_n9"] = f.irfft(f.rfft(x), n=9, norm="ortho")
    out["hfft"] = f.hfft(z[0, :4], n=6)
    out["ihfft"] = f.ihfft(x[0])
    grid = jnp.arange(24.0).reshape(2, 3, 4) ** 0.5
    out["fft2"] = f.fft2(grid)
    out["ifft2_s"] = f.ifft2(grid, s=(4, 2))
    out["fftn_axes"] = f.fftn(grid, axes=(0, 2))
    out["rfft2"] = f.rfft2(grid)
    out["irfftn"] = f.irfftn(f.rfftn(grid), s=(2, 3, 4))


def frequencies(out):
    f = jnp.fft
    out["fftfreq"] = f.fftfreq(7, d=0.5)
    out["rfftfreq"] = f.rfftfreq(8, d=0.1)
    out["freq_dtypes"] = [str(f.fftfreq(4).dtype), str(f.rfftfreq(4).dtype)]
    a = jnp.arange(12).reshape(3, 4)
    out["fftshift"] = f.fftshift(a)
    out["fftshift_axis"] = f.fftshift(a, axes=1)
    out["ifftshift"] = f.ifftshift(f.fftshift(a, axes=0), axes=0)


def lax_ffts(out, x, z):
    grid = jnp.stack([x, 2 * x])
    out["lax_fft"] = lax.fft(z, lax.FftType.FFT, (7,))
    out["lax_ifft"] = lax.fft(z, lax.FftType.IFFT, (7,))
    out["lax_rfft2"] = lax.fft(grid, lax.FftType.RFFT, (2, 7))
    out["lax_irfft2"] = lax.fft(lax.fft(grid, lax.FftType.RFFT, (2, 7)), lax.FftType.IRFFT, (2, 7))


def analysis(out, x, z):
    f = jnp.fft
    s = x[0]
    out["parseval"] = jnp.array([jnp.sum(s**2), jnp.sum(jnp.abs(f.fft(s)) ** 2) / s.size])
    kernel = jnp.array([0.5, 0.25, 0.0, 0.0, 0.0, 0.0, 0.25])
    circular = f.irfft(f.rfft(s) * f.rfft(kernel), n=7)
    wrapped = jnp.concatenate([s[-1:], s, s[:1]])  # the kernel's taps at -1, 0 and 1
    direct = jnp.convolve(wrapped, jnp.array([0.25, 0.5, 0.25]), mode="valid")
    out["circular_conv"] = circular
    out["direct_conv"] = direct

    def bandpass(sig, lo, hi):
        freqs = f.rfftfreq(sig.shape[-1])
        mask = (freqs >= lo) & (freqs <= hi)
        return f.irfft(f.rfft(sig) * mask, n=sig.shape[-1])

    out["bandpass"] = jax.vmap(lambda v: bandpass(v, 0.1, 0.3))(x)
    out["grad_energy"] = jax.grad(lambda v: jnp.sum(jnp.abs(f.rfft(v)[1:3]) ** 2))(s)
    target = jnp.sin(jnp.arange(7.0))
    out["grad_filter"] = jax.grad(lambda g: jnp.sum((f.irfft(f.rfft(s) * g, n=7) - target) ** 2))(
        jnp.ones(4)
    )
    _, tangent = jax.jvp(f.fft, (z[0],), (z[1],))
    out["jvp_fft"] = tangent
    out["grad_complex"] = jax.grad(lambda v: jnp.sum(jnp.abs(f.fft(v)) ** 2))(z[0])
    out["grad_ifft_real_part"] = jax.grad(lambda v: jnp.sum(f.ifft(v).real * target))(z[1])


def run():
    out = {}
    x, z = signals()
    transforms(out, x, z)
    frequencies(out)
    lax_ffts(out, x, z)
    analysis(out, x, z)
    # complex results as their dtype and both parts (the answers keep real values)
    return {
        k: {"dtype": str(v.dtype), "re": v.real, "im": v.imag}
        if hasattr(v, "dtype") and jnp.iscomplexobj(v)
        else v
        for k, v in out.items()
    }
