"""Rigid motions, gridded interpolation and signal utilities from `jax.scipy`, as robotics and
sensor-processing code uses them: a trajectory of rotations, a gridded field sampled along it,
and the sensor's signal cleaned and analysed.

- `jax.scipy.spatial.transform.Rotation`: `from_euler`/`from_rotvec`/`from_quat`/
  `from_matrix`, `as_*`, composition, `inv`, `apply` (and `inverse=True`), `magnitude`,
  `mean`, `concatenate` (of stacks: of single rotations it is a single rotation on JAX too), `Slerp` between key rotations; the gradient of a rotated point wrt the
  rotation vector;
- `jax.scipy.interpolate.RegularGridInterpolator` (`linear`, `nearest`, `fill_value`,
  `bounds_error=False`);
- `jnp.fft.fftn`/`ifftn`/`rfftn`/`irfftn` with `axes=`, `s=` and `norm=` (`"ortho"`,
  `"forward"`), `hfft`/`ihfft`, `fftshift`/`ifftshift`;
- `jax.scipy.signal`: `fftconvolve`, `correlate2d`, `detrend` (`linear`, `constant`),
  `jax.scipy.linalg.block_diag`/`toeplitz`, `special.logsumexp(b=, return_sign=True)`,
  `stats.gaussian_kde`, `stats.mode`, `stats.rankdata`.
"""

import jax
import jax.numpy as jnp
import jax.scipy as jsp
from jax.scipy.interpolate import RegularGridInterpolator
from jax.scipy.spatial.transform import Rotation, Slerp


def rotations(out):
    r1 = Rotation.from_euler("xyz", jnp.array([0.3, -0.2, 0.9]))
    r2 = Rotation.from_rotvec(jnp.array([0.0, 0.5, -0.1]))
    r3 = Rotation.from_euler("ZYX", jnp.array([10.0, 20.0, 30.0]), degrees=True)
    out["quat"] = [r1.as_quat(), r2.as_quat(), r3.as_quat()]
    out["matrix"] = r1.as_matrix()
    out["euler_zyx"] = r1.as_euler("zyx")
    out["euler_degrees"] = r3.as_euler("ZYX", degrees=True)
    out["rotvec"] = (r1 * r2).as_rotvec()
    out["mrp"] = r2.as_mrp()
    out["inverse_identity"] = (r1 * r1.inv()).magnitude()
    pts = jnp.array([[1.0, 0.0, 0.0], [0.0, 2.0, -1.0]])
    out["apply"] = r1.apply(pts)
    out["apply_inverse"] = r1.apply(r1.apply(pts), inverse=True)
    from_m = Rotation.from_matrix(r1.as_matrix())
    out["from_matrix_quat"] = from_m.as_quat()
    out["from_quat_scalar_first"] = Rotation.from_quat(jnp.array([0.0, 0.0, 0.6, 0.8])).as_rotvec()
    stack = Rotation.from_quat(jnp.stack([r.as_quat() for r in (r1, r2, r3)]))
    out["concatenate_singles_len"] = len(
        Rotation.concatenate([stack, Rotation.from_rotvec(jnp.zeros((1, 3)))])
    )
    out["stack_len"] = len(stack)
    out["mean"] = stack.mean().as_quat()
    out["magnitudes"] = stack.magnitude()
    keys = Rotation.from_rotvec(jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.2], [0.4, 0.0, 1.2]]))
    slerp = Slerp.init(jnp.array([0.0, 1.0, 3.0]), keys)
    out["slerp"] = slerp(jnp.array([0.0, 0.5, 2.0, 3.0])).as_rotvec()

    def rotated_x(v):
        return Rotation.from_rotvec(v).apply(jnp.array([1.0, 2.0, 3.0]))[0]

    out["rotvec_grad"] = jax.grad(rotated_x)(jnp.array([0.1, 0.2, 0.3]))


def interpolation(out):
    xs = jnp.linspace(0.0, 1.0, 5)
    ys = jnp.linspace(-1.0, 1.0, 4)
    field = jnp.sin(3 * xs)[:, None] * jnp.cos(2 * ys)[None, :]
    lin = RegularGridInterpolator((xs, ys), field)
    pts = jnp.array([[0.1, 0.2], [0.5, -0.9], [0.99, 0.99], [0.3, 0.0]])
    out["grid_linear"] = lin(pts)
    out["grid_nearest"] = RegularGridInterpolator((xs, ys), field, method="nearest")(pts)
    outside = jnp.array([[1.5, 0.0], [0.2, 0.1]])
    out["grid_fill"] = RegularGridInterpolator(
        (xs, ys), field, bounds_error=False, fill_value=-9.0
    )(outside)
    out["grid_extrapolate"] = RegularGridInterpolator(
        (xs, ys), field, bounds_error=False, fill_value=None
    )(outside)


def spectra(out):
    x = jnp.arange(24.0).reshape(2, 3, 4) % 5 - 2.0
    out["fftn_ortho"] = jnp.abs(jnp.fft.fftn(x, norm="ortho"))
    out["fftn_axes_s"] = jnp.abs(jnp.fft.fftn(x, s=(4, 6), axes=(1, 2)))
    out["fftn_forward_roundtrip"] = jnp.real(
        jnp.fft.ifftn(jnp.fft.fftn(x, norm="forward"), norm="forward")
    )
    r = jnp.fft.rfftn(x, axes=(0, 2))
    out["rfftn_shape"] = list(r.shape)
    out["irfftn"] = jnp.fft.irfftn(r, s=(2, 4), axes=(0, 2))
    h = jnp.array([1.0, 2.0, 0.5, -1.0])
    out["hfft"] = jnp.fft.hfft(h)
    ih = jnp.fft.ihfft(h)
    out["ihfft"] = [jnp.real(ih), jnp.imag(ih)]
    out["shifts"] = [
        jnp.fft.fftshift(jnp.arange(7)),
        jnp.fft.ifftshift(jnp.arange(6).reshape(2, 3)),
    ]


def signals(out):
    t = jnp.linspace(0.0, 1.0, 40)
    sig = jnp.sin(12 * t) + 0.8 * t + 0.2
    out["detrend_linear"] = jsp.signal.detrend(sig)
    out["detrend_constant"] = jsp.signal.detrend(sig, type="constant")
    k = jnp.array([0.25, 0.5, 0.25])
    out["fftconvolve"] = jsp.signal.fftconvolve(sig, k, mode="same")
    out["fftconvolve_full_matches"] = bool(
        jnp.allclose(jsp.signal.fftconvolve(sig, k), jnp.convolve(sig, k), atol=1e-5)
    )
    img = jnp.arange(20.0).reshape(4, 5) % 3
    out["correlate2d"] = jsp.signal.correlate2d(
        img, jnp.array([[1.0, -1.0], [0.5, 0.0]]), mode="valid"
    )
    out["block_diag"] = jsp.linalg.block_diag(
        jnp.ones((2, 2)), 2 * jnp.eye(1), jnp.arange(6.0).reshape(2, 3)
    )
    out["toeplitz"] = jsp.linalg.toeplitz(
        jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, -1.0, -2.0, -3.0])
    )
    out["toeplitz_sym"] = jsp.linalg.toeplitz(jnp.array([4.0, 1.0, 0.5]))
    val, sign = jsp.special.logsumexp(
        jnp.array([1.0, 2.0, 3.0]), b=jnp.array([1.0, -2.0, 0.5]), return_sign=True
    )
    out["logsumexp_sign"] = [val, sign]
    samples = jnp.concatenate([jnp.sin(jnp.arange(15.0)), 2.0 + 0.5 * jnp.cos(jnp.arange(10.0))])
    kde = jsp.stats.gaussian_kde(samples)
    out["kde"] = kde(jnp.linspace(-1.0, 3.0, 5))
    out["kde_bw"] = [kde.covariance, kde.neff]
    m = jsp.stats.mode(jnp.array([[1, 2, 2, 3], [4, 4, 1, 1]]), axis=1)
    out["mode"] = [m.mode, m.count]
    out["rankdata"] = [
        jsp.stats.rankdata(jnp.array([3.0, 1.0, 3.0, 2.0]), method=mm)
        for mm in ("average", "min", "max", "dense", "ordinal")
    ]


def run():
    out = {}
    rotations(out)
    interpolation(out)
    spectra(out)
    signals(out)
    return out
