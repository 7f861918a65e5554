"""Records JAX's `jax.scipy.signal.fftconvolve` and `detrend` on fixed inputs into
`jax_signal_more.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/scipy/record_signal_more.py`."""

import json
import pathlib

import jax
import numpy as np
from jax.scipy import signal


def main() -> None:
    rng = np.random.default_rng(11)
    a = rng.normal(size=(5, 7)).astype(np.float32)
    b = rng.normal(size=(3, 2)).astype(np.float32)
    c = (rng.normal(size=6) + 1j * rng.normal(size=6)).astype(np.complex64)
    d = (np.arange(12, dtype=np.float32) * 0.5 + rng.normal(size=12).astype(np.float32)).reshape(
        2, 6
    )
    t = {"a": a.tolist(), "b": b.tolist(), "c_re": c.real.tolist(), "c_im": c.imag.tolist()}
    t["d"] = d.tolist()
    for mode in ("full", "same", "valid"):
        t[f"fft_{mode}"] = np.asarray(signal.fftconvolve(a, b, mode)).tolist()
    t["fft_axes"] = np.asarray(signal.fftconvolve(a, b[:1].repeat(5, 0), axes=1)).tolist()
    out = np.asarray(signal.fftconvolve(c, c[:3]))
    t["fft_complex"] = [out.real.tolist(), out.imag.tolist()]
    t["detrend_linear"] = np.asarray(signal.detrend(d)).tolist()
    t["detrend_constant"] = np.asarray(signal.detrend(d, axis=0, type="constant")).tolist()
    t["detrend_bp"] = np.asarray(signal.detrend(d, bp=[3])).tolist()
    path = pathlib.Path(__file__).parent / "jax_signal_more.json"
    path.write_text(json.dumps({"jax": jax.__version__, **t}) + "\n")


if __name__ == "__main__":
    main()
