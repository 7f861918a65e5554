"""Complex transcendentals give JAX's bits, jitted and eagerly (`rules/complex_math.py`: XLA's
expansions into real operations).

Each case is (function, dtype, operand parts' bits, result parts' bits); the results are
JAX 0.10.2's, printed by `jax.jit(lax.<function>)` (its eager results were the same bits). The
operands include the branch cut's two sides (-1 +-0j), huge and infinite parts and NaN (NaN
results compare as NaN, whatever their payload).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import core
from core import jit, lax

# JAX 0.10.2 printed
CASES = [
    ("log", "complex64", (0xBF800000, 0x0), (0x0, 0x40490FDB)),
    ("log", "complex64", (0xBF800000, 0x80000000), (0x0, 0xC0490FDB)),
    ("log", "complex64", (0x3F666666, 0x3E99999A), (0xBD57C747, 0x3EA4BC7D)),
    ("log", "complex64", (0xC0200000, 0x3A83126F), (0x3F6A9209, 0x4049094D)),
    ("log", "complex64", (0x7149F2CA, 0xC0400000), (0x428A27B5, 0x8E736390)),
    ("log", "complex64", (0x80000000, 0x442F0000), (0x40D1A273, 0x3FC90FDB)),
    ("log", "complex64", (0x40400000, 0x7F800000), (0x7F800000, 0x3FC90FDB)),
    ("log", "complex64", (0x7FC00000, 0x3F800000), (0xFFFFFFFF, 0x7FC00000)),
    ("log", "complex64", (0x3A83126F, 0xB951B717), (0xC0DC6BAF, 0xBE4A220F)),
    ("log", "complex128", (0xBFF0000000000000, 0x0), (0x0, 0x400921FB54442D18)),
    ("log", "complex128", (0xBFF0000000000000, 0x8000000000000000), (0x0, 0xC00921FB54442D18)),
    (
        "log",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0xBFAAF8E8210A415B, 0x3FD4978FA3269EE1),
    ),
    (
        "log",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0x3FED52411BD3FE03, 0x400921299D2D8FDD),
    ),
    (
        "log",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0x405144F69FF9FFC4, 0xB9CE6C71FE61A3EF),
    ),
    (
        "log",
        "complex128",
        (0x8000000000000000, 0x4085E00000000000),
        (0x401A344E6741EBAB, 0x3FF921FB54442D18),
    ),
    (
        "log",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0x7FF0000000000000, 0x3FF921FB54442D18),
    ),
    (
        "log",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "log",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0xC01B8D75DCCF5C3A, 0xBFC94441F8F7260C),
    ),
    ("log1p", "complex64", (0xBF800000, 0x0), (0xFF800000, 0x0)),
    ("log1p", "complex64", (0xBF800000, 0x80000000), (0xFF800000, 0x80000000)),
    ("log1p", "complex64", (0x3F666666, 0x3E99999A), (0x3F277773, 0x3E205C3F)),
    ("log1p", "complex64", (0xC0200000, 0x3A83126F), (0x3ECF9926, 0x404904EE)),
    ("log1p", "complex64", (0x7149F2CA, 0xC0400000), (0x428A27B5, 0x8E736390)),
    ("log1p", "complex64", (0x80000000, 0x442F0000), (0x40D1A275, 0x3FC8E10B)),
    ("log1p", "complex64", (0x40400000, 0x7F800000), (0x7F800000, 0x3FC90FDB)),
    ("log1p", "complex64", (0x7FC00000, 0x3F800000), (0xFFFFFFFF, 0x7FC00000)),
    ("log1p", "complex64", (0x3A83126F, 0xB951B717), (0x3A830257, 0xB9518174)),
    ("log1p", "complex128", (0xBFF0000000000000, 0x0), (0xFFF0000000000000, 0x0)),
    (
        "log1p",
        "complex128",
        (0xBFF0000000000000, 0x8000000000000000),
        (0xFFF0000000000000, 0x8000000000000000),
    ),
    (
        "log1p",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FE4EEEE650AE550, 0x3FC40B87C210A2E5),
    ),
    (
        "log1p",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0x3FD9F324DB5B8F88, 0x4009209DCDCB530A),
    ),
    (
        "log1p",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0x405144F69FF9FFC4, 0xB9CE6C71FE61A3EF),
    ),
    (
        "log1p",
        "complex128",
        (0x8000000000000000, 0x4085E00000000000),
        (0x401A344EABBC61A7, 0x3FF91C215D4DE84D),
    ),
    (
        "log1p",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0x7FF0000000000000, 0x3FF921FB54442D18),
    ),
    (
        "log1p",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "log1p",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3F50604ABE20913E, 0xBF2A302E9FFA62D7),
    ),
    ("sqrt", "complex64", (0xBF800000, 0x0), (0x0, 0x3F800000)),
    ("sqrt", "complex64", (0xBF800000, 0x80000000), (0x0, 0x3F800000)),
    ("sqrt", "complex64", (0x3F666666, 0x3E99999A), (0x3F762012, 0x3E1FC336)),
    ("sqrt", "complex64", (0xC0200000, 0x3A83126F), (0x39A5CB60, 0x3FCA62C2)),
    ("sqrt", "complex64", (0x7149F2CA, 0xC0400000), (0x58635FA9, 0xA6D82C3C)),
    ("sqrt", "complex64", (0x80000000, 0x442F0000), (0x4195AA92, 0x4195AA93)),
    ("sqrt", "complex64", (0x40400000, 0x7F800000), (0x7F800000, 0x7F800000)),
    ("sqrt", "complex64", (0x7FC00000, 0x3F800000), (0x7FC00000, 0x7FC00000)),
    ("sqrt", "complex64", (0x3A83126F, 0xB951B717), (0x3D022AA6, 0xBB4E397B)),
    ("sqrt", "complex128", (0xBFF0000000000000, 0x0), (0x0, 0x3FF0000000000000)),
    ("sqrt", "complex128", (0xBFF0000000000000, 0x8000000000000000), (0x0, 0x3FF0000000000000)),
    (
        "sqrt",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FEEC4024ED8D691, 0x3FC3F866B8D95D1D),
    ),
    (
        "sqrt",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0x3F34B96BE2CEA5F7, 0x3FF94C5843577510),
    ),
    (
        "sqrt",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0x430C6BF526340000, 0xBCDB05876E5B0120),
    ),
    (
        "sqrt",
        "complex128",
        (0x8000000000000000, 0x4085E00000000000),
        (0x4032B5524AE1278E, 0x4032B5524AE1278D),
    ),
    (
        "sqrt",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0x7FF0000000000000, 0x7FF0000000000000),
    ),
    (
        "sqrt",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "sqrt",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3FA04554C4DC5848, 0xBF69C72F5BFBECA8),
    ),
    ("sin", "complex64", (0xBF800000, 0x0), (0xBF576AA4, 0x0)),
    ("sin", "complex64", (0xBF800000, 0x80000000), (0xBF576AA4, 0x80000000)),
    ("sin", "complex64", (0x3F666666, 0x3E99999A), (0x3F519F9E, 0x3E41D5FC)),
    ("sin", "complex64", (0xC0200000, 0x3A83126F), (0xBF19357D, 0xBA5203D7)),
    ("sin", "complex64", (0x7149F2CA, 0xC0400000), (0xC0FEE2A5, 0x40C41039)),
    ("sin", "complex64", (0x80000000, 0x442F0000), (0x0, 0x7F800000)),
    ("sin", "complex64", (0x40400000, 0x7F800000), (0x7F800000, 0xFF800000)),
    ("sin", "complex64", (0x7FC00000, 0x3F800000), (0x7FC00000, 0x7FC00000)),
    ("sin", "complex64", (0x3A83126F, 0xB951B717), (0x3A83126E, 0xB951B710)),
    ("sin", "complex128", (0xBFF0000000000000, 0x0), (0xBFEAED548F090CEE, 0x0)),
    (
        "sin",
        "complex128",
        (0xBFF0000000000000, 0x8000000000000000),
        (0xBFEAED548F090CEE, 0x8000000000000000),
    ),
    (
        "sin",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FEA33F3B1649B58, 0x3FC83ABF83F20A56),
    ),
    (
        "sin",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0xBFE326AFAE767CDE, 0xBF4A407B19CFCE67),
    ),
    (
        "sin",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0x3FB80CD9983DDA94, 0x402408EDBB9F8A92),
    ),
    ("sin", "complex128", (0x8000000000000000, 0x4085E00000000000), (0x0, 0x7EFD945DF4F8EC8E)),
    (
        "sin",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0x7FF0000000000000, 0xFFF0000000000000),
    ),
    (
        "sin",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "sin",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3F50624DAAA0EA4B, 0xBF2A36E21223DF0E),
    ),
    ("cos", "complex64", (0xBF800000, 0x0), (0x3F0A5140, 0x0)),
    ("cos", "complex64", (0xBF800000, 0x80000000), (0x3F0A5140, 0x80000000)),
    ("cos", "complex64", (0x3F666666, 0x3E99999A), (0x3F2658D3, 0xBE74438D)),
    ("cos", "complex64", (0xC0200000, 0x3A83126F), (0xBF4D17C5, 0x3A1CE2C9)),
    ("cos", "complex64", (0x7149F2CA, 0xC0400000), (0xC0C509AC, 0xC0FD9FF6)),
    ("cos", "complex64", (0x80000000, 0x442F0000), (0x7F800000, 0x0)),
    ("cos", "complex64", (0x40400000, 0x7F800000), (0xFF800000, 0xFF800000)),
    ("cos", "complex64", (0x7FC00000, 0x3F800000), (0x7FC00000, 0xFFC00000)),
    ("cos", "complex64", (0x3A83126F, 0xB951B717), (0x3F7FFFF8, 0x3456BF94)),
    ("cos", "complex128", (0xBFF0000000000000, 0x0), (0x3FE14A280FB5068C, 0x0)),
    (
        "cos",
        "complex128",
        (0xBFF0000000000000, 0x8000000000000000),
        (0x3FE14A280FB5068C, 0x8000000000000000),
    ),
    (
        "cos",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FE4CB1A5AF1A082, 0xBFCE8871A9E33AB8),
    ),
    (
        "cos",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0xBFE9A2F8C693B832, 0x3F439C595B81BB04),
    ),
    (
        "cos",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0xC024226B23B014F6, 0x3FB7EE67207F2C54),
    ),
    ("cos", "complex128", (0x8000000000000000, 0x4085E00000000000), (0x7EFD945DF4F8EC8E, 0x0)),
    (
        "cos",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0xFFF0000000000000, 0xFFF0000000000000),
    ),
    (
        "cos",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0xFFF8000000000000),
    ),
    (
        "cos",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3FEFFFFEFE4D4E84, 0x3E8AD7F252ADF103),
    ),
    ("sinh", "complex64", (0xBF800000, 0x0), (0xBF966CFE, 0x0)),
    ("sinh", "complex64", (0xBF800000, 0x80000000), (0xBF966CFE, 0x0)),
    ("sinh", "complex64", (0x3F666666, 0x3E99999A), (0x3F7B0D1E, 0x3ED8D5C7)),
    ("sinh", "complex64", (0xC0200000, 0x3A83126F), (0xC0C19B41, 0x3BC8F15F)),
    ("sinh", "complex64", (0x7149F2CA, 0xC0400000), (0xFF800000, 0xFF800000)),
    ("sinh", "complex64", (0x80000000, 0x442F0000), (0x0, 0x3F0B41A7)),
    ("sinh", "complex64", (0x40400000, 0x7F800000), (0xFFC00000, 0xFFC00000)),
    ("sinh", "complex64", (0x7FC00000, 0x3F800000), (0x7FC00000, 0x7FC00000)),
    ("sinh", "complex64", (0x3A83126F, 0xB951B717), (0x3A831300, 0xB951B71E)),
    ("sinh", "complex128", (0xBFF0000000000000, 0x0), (0xBFF2CD9FC44EB983, 0x0)),
    ("sinh", "complex128", (0xBFF0000000000000, 0x8000000000000000), (0xBFF2CD9FC44EB983, 0x0)),
    (
        "sinh",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FEF61A3B688E5A1, 0x3FDB1AB8D895B5DA),
    ),
    (
        "sinh",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0xC018336802ADDB93, 0x3F791E2BA6006583),
    ),
    (
        "sinh",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0xFFF0000000000000, 0xFFF0000000000000),
    ),
    ("sinh", "complex128", (0x8000000000000000, 0x4085E00000000000), (0x0, 0x3FE16834DEFAADB0)),
    (
        "sinh",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0xFFF8000000000000, 0xFFF8000000000000),
    ),
    (
        "sinh",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "sinh",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3F50624DFB426A00, 0xBF2A36E3C414A982),
    ),
    ("cosh", "complex64", (0xBF800000, 0x0), (0x3FC583AA, 0x0)),
    ("cosh", "complex64", (0xBF800000, 0x80000000), (0x3FC583AA, 0x0)),
    ("cosh", "complex64", (0x3F666666, 0x3E99999A), (0x3FAF3E01, 0x3E9B5189)),
    ("cosh", "complex64", (0xC0200000, 0x3A83126F), (0x40C43BB1, 0xBBC640CB)),
    ("cosh", "complex64", (0x7149F2CA, 0xC0400000), (0xFF800000, 0xFF800000)),
    ("cosh", "complex64", (0x80000000, 0x442F0000), (0xBF56CF8B, 0x0)),
    ("cosh", "complex64", (0x40400000, 0x7F800000), (0xFFC00000, 0xFFC00000)),
    ("cosh", "complex64", (0x7FC00000, 0x3F800000), (0x7FC00000, 0x7FC00000)),
    ("cosh", "complex64", (0x3A83126F, 0xB951B717), (0x3F800004, 0xB456C000)),
    ("cosh", "complex128", (0xBFF0000000000000, 0x0), (0x3FF8B07551D9F551, 0x0)),
    ("cosh", "complex128", (0xBFF0000000000000, 0x8000000000000000), (0x3FF8B07551D9F551, 0x0)),
    (
        "cosh",
        "complex128",
        (0x3FECCCCCCCCCCCCD, 0x3FD3333333333333),
        (0x3FF5E7C021E37644, 0x3FD36A311BC184BA),
    ),
    (
        "cosh",
        "complex128",
        (0xC004000000000000, 0x3F50624DD2F1A9FC),
        (0x4018877616EF1495, 0xBF78C81920C9D335),
    ),
    (
        "cosh",
        "complex128",
        (0x46293E5939A08CEA, 0xC008000000000000),
        (0xFFF0000000000000, 0xFFF0000000000000),
    ),
    ("cosh", "complex128", (0x8000000000000000, 0x4085E00000000000), (0xBFEAD9F150B2E096, 0x0)),
    (
        "cosh",
        "complex128",
        (0x4008000000000000, 0x7FF0000000000000),
        (0xFFF8000000000000, 0xFFF8000000000000),
    ),
    (
        "cosh",
        "complex128",
        (0x7FF8000000000000, 0x3FF0000000000000),
        (0x7FF8000000000000, 0x7FF8000000000000),
    ),
    (
        "cosh",
        "complex128",
        (0x3F50624DD2F1A9FC, 0xBF2A36E2EB1C432D),
        (0x3FF0000080D959DC, 0xBE8AD7F2E2CB6E00),
    ),
]
_BITS = {"complex64": np.uint32, "complex128": np.uint64}


def _groups():
    key = lambda case: case[:2]  # noqa: E731
    return [(k, list(g)) for k, g in itertools.groupby(sorted(CASES, key=key), key)]


def _complex(parts: list[tuple[int, int]], dtype: str) -> np.ndarray:
    bits = np.array(parts, _BITS[dtype])
    return bits.view(np.finfo(np.dtype(dtype)).dtype).view(dtype)[:, 0]


@pytest.mark.parametrize(
    ("key", "cases"), _groups(), ids=lambda v: "-".join(v) if isinstance(v, tuple) else ""
)
def test_jax_bits(key, cases):
    name, dtype = key
    z = _complex([c[2] for c in cases], dtype)
    expected = _complex([c[3] for c in cases], dtype)
    fn = getattr(lax, name)
    with core.enable_x64():
        results = [np.asarray(jit(fn)(z)), np.asarray(fn(z))]
    for got in results:
        np.testing.assert_array_equal(_bits(got), _bits(expected))


def _bits(z: np.ndarray) -> np.ndarray:
    """The parts' bits, every NaN as numpy's (NaN payloads and signs are not compared)."""
    parts = z.view(np.finfo(z.dtype).dtype).copy()
    parts[np.isnan(parts)] = np.nan
    return parts.view(_BITS[z.dtype.name])
