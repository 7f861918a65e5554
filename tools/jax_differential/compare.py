"""The comparison of numbax's plain result with JAX's: the list of their differences."""

from __future__ import annotations

import math
import re
from typing import Any


def _tol(dtype: str) -> tuple[float, float]:
    if dtype in ("float16", "bfloat16", "complex32"):
        return 2e-2, 2e-3
    if dtype in ("float64", "complex128"):
        return 1e-9, 1e-12
    return 2e-5, 1e-6


_NAMES = [("'core.", "'jax."), ("'optim.", "'optax."), ("'train.", "'flax.training.")]


def _first_line(msg: str) -> str:
    """The message's first line, numbax's module names spelled as JAX's, numpy scalars'
    reprs (`np.int64(2)`, which JAX's messages show where they format numpy integers) as
    their values, and objects' addresses (`<function f at 0x7f..>`) left out."""
    line = re.sub(r" at 0x[0-9a-f]+", "", msg.strip().split("\n")[0].strip())
    for ours, theirs in _NAMES:
        line = line.replace(ours, theirs)
    return re.sub(r"np\.(?:u?int|float)\d+\(([^()]*)\)", r"\1", line)


def _cmp(a: Any, b: Any, exact: bool, path: str = "") -> list[str]:
    """Differences of numbax's `a` from JAX's `b`."""
    import numpy as np

    if a[0] != b[0]:
        if {a[0], b[0]} <= {"arr", "np"} and a[1] == b[1]:
            return [f"{path}: kind {a[0]} vs jax {b[0]}"]
        return [f"{path}: kind {a[0]}{a[1:2]} vs jax {b[0]}{b[1:2]}"]
    kind = a[0]
    if kind == "py":
        if a[1] != b[1]:
            return [f"{path}: python type {a[1]} vs jax {b[1]}"]
        va, vb = a[2], b[2]
        if isinstance(va, float) and isinstance(vb, float):
            if not (
                va == vb or (math.isnan(va) and math.isnan(vb)) or abs(va - vb) <= 1e-6 * abs(vb)
            ):
                return [f"{path}: value {va!r} vs jax {vb!r}"]
            return []
        return [] if va == vb else [f"{path}: value {va!r} vs jax {vb!r}"]
    if kind in ("tuple", "list"):
        if len(a[1]) != len(b[1]):
            return [f"{path}: length {len(a[1])} vs jax {len(b[1])}"]
        out = []
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            out += _cmp(x, y, exact, f"{path}[{i}]")
        return out
    if kind == "namedtuple":
        out = [] if a[1] == b[1] else [f"{path}: namedtuple {a[1]} vs jax {b[1]}"]
        return out + _cmp(("tuple", a[2]), ("tuple", b[2]), exact, path)
    if kind == "dict":
        out = [] if a[1] == b[1] else [f"{path}: dict type {a[1]} vs jax {b[1]}"]
        ka = [k for k, _ in a[2]]
        kb = [k for k, _ in b[2]]
        if ka != kb:
            return out + [f"{path}: keys {ka} vs jax {kb}"]
        for (k, x), (_, y) in zip(a[2], b[2]):
            out += _cmp(x, y, exact, f"{path}[{k[-1]!r}]")
        return out
    if kind in ("arr", "np", "key"):
        out = []
        if a[1] != b[1]:
            out.append(f"{path}: dtype {a[1]} vs jax {b[1]}")
        if tuple(a[2]) != tuple(b[2]):
            return out + [f"{path}: shape {tuple(a[2])} vs jax {tuple(b[2])}"]
        if kind == "arr" and a[3] != b[3]:
            out.append(f"{path}: weak_type {a[3]} vs jax {b[3]}")
        va, vb = np.asarray(a[-1]), np.asarray(b[-1])
        small_float = str(va.dtype).startswith(("bfloat16", "float8", "float6", "float4"))
        if va.dtype.kind in "fc" or vb.dtype.kind in "fc" or small_float:
            fa = va.astype(np.complex128 if va.dtype.kind == "c" else np.float64)
            fb = vb.astype(np.complex128 if vb.dtype.kind == "c" else np.float64)
            if exact:
                same = np.array_equal(fa, fb, equal_nan=True) or _one_ulp_16(va, vb)
                if not same:
                    rtol, atol = _tol(b[1])
                    near = np.allclose(fa, fb, rtol=rtol, atol=atol, equal_nan=True)
                    out.append(
                        f"{path}: {'bits (values close)' if near else 'values'} "
                        f"{_short(fa)} vs jax {_short(fb)}{_ulps(va, vb)}"
                    )
            else:
                rtol, atol = _tol(b[1])
                if not np.allclose(fa, fb, rtol=rtol, atol=atol, equal_nan=True):
                    out.append(f"{path}: values {_short(fa)} vs jax {_short(fb)}")
                elif not np.array_equal(np.isinf(fa), np.isinf(fb)):
                    out.append(f"{path}: infs {_short(fa)} vs jax {_short(fb)}")
        elif not np.array_equal(va.astype(object), vb.astype(object)):
            out.append(f"{path}: values {_short(va)} vs jax {_short(vb)}")
        return out
    if kind == "keyentry":
        return [] if a[1:] == b[1:] else [f"{path}: key entry {a[2]} vs jax {b[2]}"]
    if kind == "obj":
        out = []
        if a[2] != b[2]:
            out.append(f"{path}: repr {a[2][:300]!r} vs jax {b[2][:300]!r}")
        return out
    return [] if a == b else [f"{path}: {a!r:.200} vs jax {b!r:.200}"]


def _one_ulp_16(va: Any, vb: Any) -> bool:
    """Whether 16-bit floats differ by at most one unit in the last place: XLA's CPU back end
    computes a chain of 16-bit elementwise operations in float32 and rounds once (its float
    normalization, then the removal of the conversions between the steps), so the last bit of
    JAX's half-precision samples is its back end's, not a JAX semantic (its GPU back end
    differs). numbax rounds each step; exact cases of other dtypes stay bit for bit."""
    import numpy as np

    if va.dtype != vb.dtype or va.dtype.itemsize != 2 or va.dtype.kind not in "fV":
        return False
    ia, ib = (np.asarray(v).view(np.uint16).astype(np.int32) for v in (va, vb))
    same_sign = (ia >> 15) == (ib >> 15)
    nan = np.isnan(va.astype(np.float32)) & np.isnan(vb.astype(np.float32))
    return bool(np.all(nan | (same_sign & (np.abs(ia - ib) <= 1))))


def _ulps(va: Any, vb: Any) -> str:
    """How far float32/float64 `va` is from JAX's `vb` where they differ: the largest distance
    in units in the last place (adjacent floats are one apart, -0.0 and 0.0 none) and in
    relative error over the elements both give finite, and the count of elements only one
    gives NaN or where they give different infinities (empty for other dtypes)."""
    import numpy as np

    if va.dtype != vb.dtype or va.dtype not in (np.float32, np.float64) or va.shape != vb.shape:
        return ""
    ints = np.int32 if va.dtype == np.float32 else np.int64

    def ordered(v: Any) -> Any:  # the floats' bits as (Python) integers in the floats' order
        i = np.ascontiguousarray(v).view(ints)
        return np.where(i < 0, np.iinfo(ints).min - i, i).astype(object)

    finite = np.isfinite(va) & np.isfinite(vb)
    odd = int(np.sum(~finite & ~((va == vb) | (np.isnan(va) & np.isnan(vb)))))
    text = f" [{odd} non-finite apart]" if odd else ""
    if not finite.any():
        return text
    a, b = va.ravel().astype(np.float64), vb.ravel().astype(np.float64)
    ok = finite.ravel()
    ulps = np.where(ok, np.abs(ordered(va.ravel()) - ordered(vb.ravel())), -1)
    with np.errstate(all="ignore"):
        rel = np.abs(a - b) / np.maximum(np.abs(b), np.finfo(va.dtype).tiny)
    rel = np.where(ok & (a != b), rel, 0.0)
    i = int(np.argmax(ulps))
    where = f"at [{i}] ({float(a[i])!r} vs jax {float(b[i])!r})"
    return f" [max {ulps[i]} ulp {where}, rel {rel.max():.2g}]{text}"


def _short(v: Any) -> str:
    import numpy as np

    s = np.array2string(np.asarray(v).ravel()[:8], precision=8, separator=",")
    return s.replace("\n", "")


def compare(na: Any, ja: Any, exact: bool) -> list[str]:
    if na[0] == "exc" and ja[0] == "exc":
        out = []
        if ja[1] not in na[2]:
            out.append(f"exception class {na[1]} (bases {na[2][1:4]}) vs jax {ja[1]}")
        m_n, m_j = _first_line(na[3]), _first_line(ja[3])
        if m_n != m_j and not na[3].strip().startswith(ja[3].strip()):
            out.append(f"message {m_n[:300]!r} vs jax {m_j[:300]!r}")
        return out
    if na[0] == "exc":
        return [f"raises {na[1]}: {_first_line(na[3])[:300]!r}; jax gives a value"]
    if ja[0] == "exc":
        return [f"gives a value; jax raises {ja[1]}: {_first_line(ja[3])[:300]!r}"]
    return _cmp(na[1], ja[1], exact)
