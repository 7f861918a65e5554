"""expi and exp1 (`core/scipy/special/integrals.py`: Cephes' ei.c and expn.c as JAX computes
them) give JAX's bits when jitted.

Each case is (function, dtype, x, the result's bits), printed by JAX 0.10.2's
`jax.jit(jax.scipy.special.<function>)`. `KNOWN_APART` lists the cases whose last bits still
differ (the continued fraction's fused multiply-adds, which LLVM pairs otherwise in XLA's loop);
they are checked to within 4 ulp.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import core
from core import jit
from core.scipy import special

# JAX 0.10.2 printed
CASES = [
    ("expi", "float32", -30.0, 0xA759B9CC),
    ("expi", "float32", -3.0, 0xBC55C8E2),
    ("expi", "float32", -0.5, 0xBF0F4D53),
    ("expi", "float32", -0.0010000000474974513, 0xC0CA9BF9),
    ("expi", "float32", 0.0010000000474974513, 0xC0CA8B96),
    ("expi", "float32", 0.10000000149011612, 0xBFCFB855),
    ("expi", "float32", 0.5, 0x3EE88F80),
    ("expi", "float32", 1.0, 0x3FF29339),
    ("expi", "float32", 1.5, 0x40534844),
    ("expi", "float32", 2.0, 0x409E8917),
    ("expi", "float32", 3.5, 0x415ECE42),
    ("expi", "float32", 5.0, 0x4220BDB9),
    ("expi", "float32", 8.0, 0x43DC30A0),
    ("expi", "float32", 12.5, 0x46B81A3C),
    ("expi", "float32", 20.0, 0x4BC36E91),
    ("expi", "float32", 30.0, 0x52ABD109),
    ("expi", "float32", 50.0, 0x60B7A1AA),
    ("expi", "float32", 70.0, 0x6EEBA3D9),
    ("expi", "float32", 100.0, 0x7F800000),
    ("exp1", "float32", -30.0, 0x7FC00000),
    ("exp1", "float32", -3.0, 0x7FC00000),
    ("exp1", "float32", -0.5, 0x7FC00000),
    ("exp1", "float32", -0.0010000000474974513, 0x7FC00000),
    ("exp1", "float32", 0.0010000000474974513, 0x40CA9BF9),
    ("exp1", "float32", 0.10000000149011612, 0x3FE95593),
    ("exp1", "float32", 0.5, 0x3F0F4D53),
    ("exp1", "float32", 1.0, 0x3E60A630),
    ("exp1", "float32", 1.5, 0x3DCCD712),
    ("exp1", "float32", 2.0, 0x3D484BE6),
    ("exp1", "float32", 3.5, 0x3BE465C8),
    ("exp1", "float32", 5.0, 0x3A968268),
    ("exp1", "float32", 8.0, 0x381DFB27),
    ("exp1", "float32", 12.5, 0x3494ECCE),
    ("exp1", "float32", 20.0, 0x2ED84916),
    ("exp1", "float32", 30.0, 0x2759B9CC),
    ("exp1", "float32", 50.0, 0x18925BA2),
    ("exp1", "float32", 70.0, 0x9E8A0AD),
    ("exp1", "float32", 100.0, 0x0),
    ("expi", "float64", -30.0, 0xBCEB37397E20F76E),
    ("expi", "float64", -3.0, 0xBF8AB91C1085C705),
    ("expi", "float64", -0.5, 0xBFE1E9AA50574B82),
    ("expi", "float64", -0.001, 0xC019537F0E1934A1),
    ("expi", "float64", 0.001, 0xC0195172C45CEDC0),
    ("expi", "float64", 0.1, 0xBFF9F70A91B871C4),
    ("expi", "float64", 0.5, 0x3FDD11F05D25178A),
    ("expi", "float64", 1.0, 0x3FFE52670F350D0A),
    ("expi", "float64", 1.5, 0x400A690858762F6C),
    ("expi", "float64", 2.0, 0x4013D122CF9EFDB0),
    ("expi", "float64", 3.5, 0x402BD9C7FFB4CDF0),
    ("expi", "float64", 5.0, 0x404417B71A54F6F8),
    ("expi", "float64", 8.0, 0x407B86141188DE55),
    ("expi", "float64", 12.5, 0x40D70347869222AB),
    ("expi", "float64", 20.0, 0x41786DD24A9FF9CD),
    ("expi", "float64", 30.0, 0x42557A2117CFD18C),
    ("expi", "float64", 50.0, 0x4416F4357AE9D01B),
    ("expi", "float64", 70.0, 0x45DD747B13F2B734),
    ("expi", "float64", 100.0, 0x4888F03BDBC00AB0),
    ("exp1", "float64", -30.0, 0x7FF8000000000000),
    ("exp1", "float64", -3.0, 0x7FF8000000000000),
    ("exp1", "float64", -0.5, 0x7FF8000000000000),
    ("exp1", "float64", -0.001, 0x7FF8000000000000),
    ("exp1", "float64", 0.001, 0x4019537F0E1934A1),
    ("exp1", "float64", 0.1, 0x3FFD2AB25008192D),
    ("exp1", "float64", 0.5, 0x3FE1E9AA50574B82),
    ("exp1", "float64", 1.0, 0x3FCC14C5D3BF8F9C),
    ("exp1", "float64", 1.5, 0x3FB99AE22365647A),
    ("exp1", "float64", 2.0, 0x3FA9097CDC7F655F),
    ("exp1", "float64", 3.5, 0x3F7C8CB8ABC99730),
    ("exp1", "float64", 5.0, 0x3F52D04D00AECAF7),
    ("exp1", "float64", 8.0, 0x3F03BF64F24649F6),
    ("exp1", "float64", 12.5, 0x3E929D99B65E430C),
    ("exp1", "float64", 20.0, 0x3DDB0922B8AAF44E),
    ("exp1", "float64", 30.0, 0x3CEB37397E20F76E),
    ("exp1", "float64", 50.0, 0x3B124B743ABE9216),
    ("exp1", "float64", 70.0, 0x393D14157A79A7A8),
    ("exp1", "float64", 100.0, 0x3680D2DE0934C09E),
]
KNOWN_APART = [("exp1", "float64", 2.0), ("exp1", "float64", 8.0), ("exp1", "float64", 12.5)]
_BITS = {"float32": np.uint32, "float64": np.uint64}


def _groups():
    key = lambda case: case[:2]  # noqa: E731
    return [(k, list(g)) for k, g in itertools.groupby(sorted(CASES, key=key), key)]


@pytest.mark.parametrize(
    ("key", "cases"), _groups(), ids=lambda v: "-".join(v) if isinstance(v, tuple) else ""
)
def test_jax_bits(key, cases):
    name, dtype = key
    x = np.array([c[2] for c in cases], dtype)
    expected = np.array([c[3] for c in cases], _BITS[dtype]).view(dtype)
    with core.enable_x64():
        got = np.asarray(jit(getattr(special, name))(x))
    ulps = np.abs(
        got.view(_BITS[dtype]).astype(np.int64) - expected.view(_BITS[dtype]).astype(np.int64)
    )
    apart = {c[2] for c in KNOWN_APART if c[:2] == key}
    for xi, u in zip(x, ulps, strict=True):
        assert u <= (4 if float(xi) in apart else 0), (name, dtype, xi, u)
