"""Values of `core.numpy` functions where numbax and JAX 0.10.2 differed, with JAX's results
(complex conjugation in vdot/vecdot/correlate and complex linear algebra, gradients of the
symmetrized Cholesky factor, the sign bit, include_initial, ...)."""

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

nan = np.nan
inf = np.inf
# Matrices the linear-algebra cases name: Hermitian (H, H2), complex (C), not symmetric (A).
MATRICES = {
    "H": np.array([[5, 2 + 3j, 5j], [2 - 3j, 7, 1 + 7j], [-5j, 1 - 7j, 12]], np.complex64),
    "H2": np.array([[2, 1 - 1j], [1 + 1j, 3]], np.complex64),
    "C": np.array([[1 + 1j, 2], [3j, 4 - 1j], [0, 1j]], np.complex64),
    "A": np.array([[4, 1, 0.5], [2, 5, 1], [0, 1, 6]], np.float32),
}

# (expression, JAX's value, JAX's dtype), recorded from JAX 0.10.2.
CASES = [
    ("jnp.signbit(jnp.array([-1.5, -0.0, 0.0, 1.5]))", [True, True, False, False], "bool"),
    (
        "jnp.signbit(jnp.array([jnp.nan, -jnp.nan, jnp.inf, -jnp.inf]))",
        [False, True, False, True],
        "bool",
    ),
    ("jnp.signbit(jnp.array([-2, 0, 2]))", [True, False, False], "bool"),
    ("jnp.heaviside(jnp.array([jnp.nan, 0.0, -1.0, 2.0]), 0.5)", [nan, 0.5, 0.0, 1.0], "float32"),
    (
        "jnp.sort(jnp.array([jnp.nan, 1, -jnp.inf, 0], jnp.bfloat16))",
        [-np.inf, 0, 1, nan],
        "bfloat16",
    ),
    ("jnp.argsort(jnp.array([jnp.nan, 1, -jnp.inf, 0], jnp.bfloat16))", [2, 3, 1, 0], "int32"),
    ("jnp.max(jnp.array([[1, 5], [3, 2]]), 0, None, True)", [[3, 5]], "int32"),
    ("jnp.linalg.norm(C)", 5.74456262588501, "float32"),
    ("jnp.linalg.norm(C, axis=0)", [3.316624879837036, 4.690415859222412], "float32"),
    ("jnp.linalg.vector_norm(C[0])", 2.4494898319244385, "float32"),
    ("jnp.linalg.vector_norm(C, ord=0)", 5.0, "float32"),
    ("jnp.vecmat(jnp.array([1j, 2]), C[:2])", [(1 + 5j), (8 - 4j)], "complex64"),
    (
        "jnp.cumulative_sum(jnp.array([[1, 2]], jnp.int8), axis=1)",
        [[1, 3]],
        "int32",
    ),  # promoted like sum (jnp.cumsum keeps int8)
    ("jnp.cumulative_prod(jnp.array([2, 3], jnp.uint8))", [2, 6], "uint8"),
    (
        "jnp.max(jnp.array([True, False]), where=jnp.array([False, True]), initial=False)",
        False,
        "bool",
    ),
    (
        "jnp.nan_to_num(jnp.array([complex(jnp.nan, jnp.inf)]))",
        [3.4028234663852886e38j],
        "complex64",
    ),
    # integer dtypes: computed in float, floored (linspace), converted saturating
    ("jnp.linspace(-1, 4, 6, endpoint=False, dtype=jnp.int8)", [-1, -1, 0, 1, 2, 3], "int8"),
    ("jnp.logspace(0, 2, 4, dtype=jnp.int8)", [1, 4, 21, 100], "int8"),
    ("jnp.geomspace(1, 1000, 4, dtype=jnp.int8)", [1, 10, 100, 127], "int8"),
    # geomspace is sign * logspace in the inexact dtype: float32's 10 ** log10(32) truncates to
    # 31, a zero start gives NaNs (no error), a float16 start computes in float16
    ("jnp.geomspace(2, 32, num=3, dtype=jnp.int32)", [2, 8, 31], "int32"),
    # arange of a 16-bit float with a step is computed in float32, bfloat16 too
    (
        "jnp.arange(0.0, 1.0, 0.3, dtype=jnp.bfloat16)",
        [0, 0.30078125, 0.6015625, 0.8984375],
        "bfloat16",
    ),  # fmt: skip
    ("jnp.geomspace(0, 10, 3)", [nan, nan, nan], "float32"),
    ("jnp.geomspace(jnp.float16(1), 4, 3)", [1.0, 2.0, 4.0], "float16"),
    (
        "jnp.geomspace(jnp.array([1.0, 10.0]), jnp.array([4.0, 1000.0]), 3, axis=1)[1]",
        [10.0, 100.0, 1000.0],
        "float32",
    ),  # fmt: skip
    # iscomplexobj: strings are not complex, scalar types by their dtype
    ("jnp.iscomplexobj(jnp.complex64)", True, "bool"),
    ("jnp.iscomplexobj('abc')", False, "bool"),
    ("jnp.isrealobj(jnp.float32)", True, "bool"),
    ("jnp.isrealobj(None)", True, "bool"),
    # complex to bool is `x != 0` in jnp (a purely imaginary value is True)
    ("jnp.logical_not(jnp.array([1j, 0j, 1]))", [False, True, False], "bool"),
    ("jnp.logical_and(jnp.array([1j, 0j]), True)", [True, False], "bool"),
    ("jnp.logical_xor(jnp.array([1j, 0j]), jnp.array([1.0, 0.0]))", [False, False], "bool"),
    ("jnp.array([1j, 0j]).astype(bool)", [True, False], "bool"),
    ("jnp.astype(jnp.array([-1j, 0j]), bool)", [True, False], "bool"),
    ("jnp.where(jnp.array([1j, 0j, 2]), 1, 0)", [1, 0, 1], "int32"),
    ("jnp.all(jnp.array([1j, 2]))", True, "bool"),
    ("jnp.logical_and.reduce(jnp.array([1j, 2]))", True, "bool"),
    (
        "jnp.cumulative_prod(jnp.array([[1, 2, 3], [4, 5, 6]]), axis=1, include_initial=True)",
        [[1, 1, 2, 6], [1, 4, 20, 120]],
        "int32",
    ),
    (
        "jnp.cumulative_sum(jnp.array([[1, 2, 3], [4, 5, 6]]), axis=0, include_initial=True)",
        [[0, 0, 0], [1, 2, 3], [5, 7, 9]],
        "int32",
    ),
    ("jnp.vdot(jnp.array([1j, 2j, 3j]), jnp.array([1.0, 2.0, 3.0]))", -14j, "complex64"),
    ("jnp.vdot(jnp.array([[1 + 1j, 2]]), jnp.array([[3j, 1 - 1j]]))", (5 + 1j), "complex64"),
    ("jnp.linalg.vecdot(jnp.array([1j, 2j, 3j]), jnp.array([4.0, 5.0, 6.0]))", -32j, "complex64"),
    (
        "jnp.vecdot(jnp.array([[1 + 2j, 3], [4, 5j]]), jnp.array([[1j, 1], [2, 2]]))",
        [(5 + 1j), (8 - 10j)],
        "complex64",
    ),
    (
        "jnp.correlate(jnp.array([3 + 1j, 2, 2 - 3j]), jnp.array([4, 2 - 5j, 1]), mode='full')",
        [(3 + 1j), (3 + 17j), (18 + 11j), (27 + 4j), (8 - 12j)],
        "complex64",
    ),
    (
        "jnp.correlate(jnp.array([3 + 1j, 2]), jnp.array([4, 2 - 5j, 1]), mode='same')",
        [(3 + 17j), (16 + 14j), (8 + 0j)],
        "complex64",
    ),
    ("jnp.correlate(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5]))", [3.5], "float32"),
    ("jnp.linalg.diagonal(jnp.arange(24).reshape(2, 3, 4))", [[0, 5, 10], [12, 17, 22]], "int32"),
    ("jnp.linalg.diagonal(jnp.arange(12).reshape(3, 4), offset=1)", [1, 6, 11], "int32"),
    ("jnp.linalg.trace(jnp.arange(24).reshape(2, 3, 4))", [15, 51], "int32"),
    ("jnp.linalg.trace(jnp.arange(12).reshape(3, 4), offset=-1)", 13, "int32"),
    ("jnp.bincount(jnp.array([-1, -1, 1, 3, 10]), length=5)", [2, 1, 0, 1, 0], "int32"),
    ("jnp.bincount(jnp.array([-2, 0, 1]))", [2, 1], "int32"),
    (
        "jnp.sort_complex(jnp.array([1 + 2j, 2 + 4j, 3 - 1j, 2 + 3j]))",
        [(1 + 2j), (2 + 3j), (2 + 4j), (3 - 1j)],
        "complex64",
    ),
    (
        "jnp.sort_complex(jnp.array([[5, 3, 4], [6, 9, 2]]))",
        [[(3 + 0j), (4 + 0j), (5 + 0j)], [(2 + 0j), (6 + 0j), (9 + 0j)]],
        "complex64",
    ),
    (
        "jnp.quantile(jnp.array([0, 1, 2, jnp.nan, 3]), jnp.array([0.25, 0.5]))",
        [nan, nan],
        "float32",
    ),
    ("jnp.percentile(jnp.array([0, 1, 2, jnp.nan, 3]), 50)", nan, "float32"),
    ("jnp.median(jnp.array([[1.0, jnp.nan], [2.0, 3.0]]), axis=1)", [nan, 2.5], "float32"),
    (
        "jnp.full_like(jnp.arange(6).reshape(2, 3), fill_value=jnp.array([[1], [2]]))",
        [[1, 1, 1], [2, 2, 2]],
        "int32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]))",
        [[24.0, -8.0, 0.0, -2.0, 0.0, -8.0], [30.0, -8.0, 0.0, -2.0, 0.0, -8.0]],
        "float32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1 + 2j, 3 - 4j, 5 + 6j], [2 - 3j, 4 + 5j, 6 - 7j]]))",
        [[12.0, -12.0, 0.0, 4.0], [16.0, 6.0, 0.0, -14.0]],
        "float32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]), n=3, axis=0)",
        [[5.0, 11.0, 17.0, 23.0], [-1.0, -1.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]],
        "float32",
    ),
    (
        "jnp.fft.ihfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]))",
        [[(4 + 0j), (-1 - 1j), (-1 - 0j)], [(5 + 0j), (-1 - 1j), (-1 - 0j)]],
        "complex64",
    ),
    ("jnp.heaviside(jnp.array([-2, 0, 3]), jnp.array([2, 0.5, 1]))", [0.0, 0.5, 1.0], "float32"),
    ("jax.grad(jax.grad(jnp.sinc))(0.0)", -3.2898683547973633, "float32"),
    ("jax.grad(jax.grad(jax.grad(jax.grad(jnp.sinc))))(0.0)", 19.481821060180664, "float32"),
    ("jax.grad(jnp.sinc)(0.5)", -1.2732396125793457, "float32"),
    ("jnp.linalg.eigh(jnp.array([[1, -2j], [2j, 1]]))[0]", [-1.0, 3.0], "float32"),
    (
        "jnp.abs(jnp.linalg.eigh(jnp.array([[1, -2j], [2j, 1]]))[1])",
        [[0.7071067690849304, 0.7071067690849304], [0.7071067690849304, 0.7071067690849304]],
        "float32",
    ),
    ("jnp.linalg.eigvalsh(H2)", [1.0, 4.0], "float32"),
    (
        "jnp.linalg.eigvalsh(H)",
        [0.10161333531141281, 4.586340427398682, 19.312049865722656],
        "float32",
    ),
    (
        "jax.grad(lambda X: jnp.sum((L(X) - jnp.sin(L(X))) ** 2), holomorphic=True)(H)",
        [
            [
                (-0.7534184455871582 + 0j),
                (-3.0509033203125 - 10.940544128417969j),
                (5.989684104919434 + 3.5423026084899902j),
            ],
            [
                (-3.0509033203125 + 10.940544128417969j),
                (-8.904491424560547 + 0j),
                (-5.1351518630981445 - 6.559373378753662j),
            ],
            [
                (5.989684104919434 - 3.5423026084899902j),
                (-5.1351518630981445 + 6.559373378753662j),
                (0.01320427656173706 + 0j),
            ],
        ],
        "complex64",
    ),
    (
        "jnp.linalg.cholesky(H, upper=True)",
        [
            [(2.2360680103302 - 0j), (0.8944271802902222 + 1.3416407108306885j), 2.2360680103302j],
            [-0j, (2.0976176261901855 - 0j), (-0.9534624814987183 + 2.3836565017700195j)],
            [-0j, -0j, (0.6396022439002991 - 0j)],
        ],
        "complex64",
    ),
    (
        "jnp.linalg.pinv(C)",
        [
            [
                (0.5333333611488342 + 0.13333341479301453j),
                (-0.22222216427326202 - 0.2000001072883606j),
                (0.31111109256744385 - 0.02222222089767456j),
            ],
            [
                (0.20000004768371582 - 0.3333333432674408j),
                (0.04444439709186554 + 0.1777777224779129j),
                (-1.8742866814136505e-08 - 0.24444442987442017j),
            ],
        ],
        "complex64",
    ),
    (
        "jax.grad(lambda X: jnp.sum(jnp.linalg.cholesky(X) * jnp.arange(9.).reshape(3, 3)))(A)",
        [
            [-0.21099184453487396, 0.41258907318115234, 0.9003341794013977],
            [0.41258907318115234, 0.6793834567070007, 1.322274088859558],
            [0.9003341794013977, 1.322274088859558, 1.6610103845596313],
        ],
        "float32",
    ),
    (
        "jax.grad(lambda X: jnp.sum(jnp.linalg.eigvalsh(X) * jnp.arange(3.)))(A)",
        [
            [0.5242132544517517, 0.7019902467727661, 0.1506335586309433],
            [0.7019902467727661, 1.0073832273483276, 0.5114731192588806],
            [0.1506335586309433, 0.5114731192588806, 1.468403697013855],
        ],
        "float32",
    ),
    (
        "jax.grad(lambda x: jnp.real(jnp.linalg.eigvalsh(H2 * x)[1]))(2.0)",
        4.0,
        "float32",
    ),
    (
        "jnp.linalg.lstsq(C, jnp.array([1.0, 2j, 3.0]))[0]",
        [(1.8666670322418213 - 0.3777775764465332j), (-0.15555545687675476 - 0.977777898311615j)],
        "complex64",
    ),
    # float floor division is CPython's float_divmod (not floor(x / y)): inf // y is NaN
    (
        "jnp.floor_divide(jnp.array([nan, inf, -inf, -0.0, 1e30, 1.0]),"
        " jnp.array([1.0, -2.0, 0.0, 1.0, 0.0, -inf]))",
        [nan, nan, -np.inf, 0.0, np.inf, -1.0],
        "float32",
    ),
    (
        "jnp.divmod(jnp.array([inf, -1.0, 5.0, -0.0]), jnp.array([2.0, inf, 0.0, 3.0]))[0]",
        [nan, -1.0, np.inf, 0.0],
        "float32",
    ),
    (
        "jnp.divmod(jnp.array([inf, -1.0, 5.0, -0.0]), jnp.array([2.0, inf, 0.0, 3.0]))[1]",
        [nan, np.inf, nan, -0.0],
        "float32",
    ),
    # var/std/mean compute in the given dtype and return it
    ("jnp.var(jnp.array([1, 2, 4], jnp.int8), dtype=jnp.complex64)", 1.5555555 + 0j, "complex64"),
    ("jnp.std(jnp.array([1.0, 2.0, 4.0]), dtype=jnp.complex64)", 1.2472191 + 0j, "complex64"),
    ("jnp.var(jnp.array([1, 2, 4], jnp.int8), ddof=5)", nan, "float32"),
    ("jnp.nanvar(jnp.array([1.0, nan, 4.0, 8.0]), dtype=jnp.int32)", 9, "int32"),
    ("jnp.nanvar(jnp.array([1, 2, 4], jnp.uint8), dtype=jnp.int8)", 1, "int8"),
    ("jnp.mean(jnp.array([100, 100, 101], jnp.int8), dtype=jnp.int8)", 15, "int8"),
    ("jnp.nanmean(jnp.array([1.0, 2.0, 4.0]), dtype=jnp.int8)", 2, "int8"),
    ("jnp.cumulative_prod(jnp.array([2, 3, 4], jnp.int8))", [2, 6, 24], "int8"),
    # complex power is XLA's polar formula: 1j**2 has a rounding imaginary part, 0**(c+di) is
    # NaN unless the exponent is real, x**0 is 1 even for NaN
    (
        "jnp.power(jnp.array([1j, 0j, 0j, 0j, 1e30 + 1e30j, complex(nan, 0)], jnp.complex64),"
        " jnp.array([2, 2, 0, 1.5 - 0.5j, -2, 0], jnp.complex64))",
        [-1 - 8.742278e-08j, 0j, 1 + 0j, complex(nan, nan), 0j, 1 + 0j],
        "complex64",
    ),
    ("jnp.power(jnp.array([True, False]), 1.5 - 0.5j)", [1 + 0j, complex(nan, nan)], "complex64"),
    # XLA adds booleans with or, multiplies them with and
    ("jnp.sum(jnp.array([1, 0, 2], jnp.int8), dtype=bool)", True, "bool"),
    ("jnp.prod(jnp.array([1, 0, 2], jnp.int8), dtype=bool)", False, "bool"),
    ("jnp.nansum(jnp.array([0.0, nan, 0.0]), dtype=bool)", False, "bool"),  # NaN as 0
    # odd reflection: each block is 2 * edge - x, the next reflects off the new edge
    (
        'jnp.pad(jnp.array([-3, -1, 0, 1, 2], jnp.int8), (7, 2), mode="reflect",'
        ' reflect_type="odd")',
        [-11, -10, -9, -8, -7, -6, -5, -3, -1, 0, 1, 2, 3, 4],
        "int8",
    ),
    (
        'jnp.pad(jnp.array([1.5, 2.0]), (0, 5), mode="symmetric", reflect_type="odd")',
        [1.5, 2.0, 2.0, 2.5, 2.5, 3.0, 3.0],
        "float32",
    ),
    (
        'jax.jit(lambda a: jnp.pad(a, ((3, 1), (0, 2)), mode="reflect", reflect_type="odd"))'
        "(jnp.array([[1.5, 2], [3, 4.5]]))",
        [
            [-3.0, -5.5, -8.0, -10.5],
            [-1.5, -3.0, -4.5, -6.0],
            [0.0, -0.5, -1.0, -1.5],
            [1.5, 2.0, 2.5, 3.0],
            [3.0, 4.5, 6.0, 7.5],
            [4.5, 7.0, 9.5, 12.0],
        ],
        "float32",
    ),
    # a Python int beyond int32 wraps in jnp.full (lax.full converts it), as in JAX
    ("jnp.full((2,), 2**33)", [0, 0], "int32"),
    ("jnp.full((2,), 2**31 + 5)", [-2147483643, -2147483643], "int32"),
    # complex log2/log10 scale the parts of log(x) separately: log(0) stays -inf+0j
    ("jnp.log10(jnp.array([0j, 1 + 2j]))", [complex(-inf, 0), 0.349485 + 0.4808286j], "complex64"),
    ("jnp.log2(jnp.array([0j, -2 + 0j]))", [complex(-inf, 0), 1 + 4.5323601j], "complex64"),
    # complex division as XLA's: C99's infinities where Smith's algorithm gives NaN+NaNj, and
    # fused multiply-adds (x / x of -1.5+0.5j has imaginary part 8.9e-9)
    (
        "jnp.divide(jnp.array([complex(nan, inf), complex(inf, 0), 1 + 1j]),"
        " jnp.array([7, 1j, complex(0, inf)]))",
        [complex(nan, inf), complex(nan, -inf), 0j],
        "complex64",
    ),
    ("jnp.imag(jnp.divide(-1.5 + 0.5j, -1.5 + 0.5j)) * 1e8", 0.8940697, "float32"),
    (
        "jnp.nanmean(jnp.array([complex(nan, 0), complex(inf, 0), complex(0, inf),"
        " complex(-inf, 1)]))",
        complex(nan, inf),
        "complex64",
    ),
    # complex64 products rounded as XLA's (fused imaginary part fma(ai, br, ar bi)): exactly 0
    (
        "jnp.imag(jnp.multiply(jnp.array([-1.5 + 0.5j]), jnp.array([0.25 + 0.083333336j]))) * 1e8",
        [0.0],
        "float32",
    ),
    ("jnp.imag(jax.nn.hard_silu(jnp.array([-1.5 + 0.5j]))) * 1e8", [0.0], "float32"),
    # booleans are not integers to fmod: no 0 -> 1 divisor swap, lax.rem's 1 % 0 == 1
    ("jnp.fmod(True, jnp.array([True, False]))", [0, 1], "int32"),
    # atan2 (the array-API alias) promotes first: -2 beside uint8 wraps to 254
    ("jnp.atan2(jnp.array([1, 2], jnp.uint8), -2)", [0.003936987, 0.007873853], "float32"),
    ("jnp.arctan2(jnp.array([1, 2], jnp.uint8), -2)", [2.6779451, 2.3561945], "float32"),
    # complex corrcoef clips the real and imaginary parts separately (clip refuses complex)
    (
        "jnp.corrcoef(jnp.array([[1, 2, 4], [3, 1, 0]], jnp.complex64))",
        [[1 + 0j, -0.9285712838172913 + 0j], [-0.9285712838172913 + 0j, 1 + 0j]],
        "complex64",
    ),
    # 2x2 and 3x3 determinants are the explicit products (no LU: half floats work)
    ("jnp.linalg.det(jnp.array([[1, 2], [3, 4]], jnp.float16))", -2.0, "float16"),
    (
        "jax.jit(jnp.linalg.det)"
        "(jnp.array([[1.5, 2, 0.25], [3, 4, 1], [0.5, -1, 2]], jnp.bfloat16))",
        1.25,
        "bfloat16",
    ),
]


@pytest.mark.parametrize("expr, value, dtype", CASES, ids=[c[0] for c in CASES])
def test_value_as_in_jax(expr, value, dtype):
    names = {k: jnp.asarray(v) for k, v in MATRICES.items()}
    env = {"jnp": jnp, "jax": jax, "L": jnp.linalg.cholesky, "nan": nan, "inf": np.inf}
    out = eval(expr, {**env, **names})
    assert np.asarray(out).dtype.name == dtype
    np.testing.assert_allclose(
        np.asarray(out), np.asarray(value), rtol=1e-6, atol=1e-6, equal_nan=True
    )
    assert np.shape(out) == np.shape(value)


# jnp.promote_types treats the Python types int/float/complex as weakly typed (JAX 0.10.2).
@pytest.mark.parametrize(
    "a, b, want",
    [
        ("uint8", int, "uint8"),
        ("float16", float, "float16"),
        (int, "int8", "int8"),
        (bool, "int8", "int8"),
        ("bfloat16", complex, "complex64"),
        ("int8", "int16", "int16"),
        (jnp.dtype("float32"), jnp.dtype("float16"), "float32"),
        (jnp.dtype("int32"), jnp.dtype("uint8"), "int32"),
        # not canonicalized: 64-bit results stay 64-bit without x64
        (int, int, "int64"),
        (float, "int8", "float64"),
        ("int8", "uint64", "float64"),
        ("float32", "float64", "float64"),
        ("uint32", "int64", "int64"),
        ("uint32", "int16", "int32"),
    ],
)
def test_promote_types_with_python_types(a, b, want):
    assert jnp.promote_types(a, b) == jnp.dtype(want)


def test_size_of_several_axes():
    x = jnp.ones((2, 3, 4))
    assert (jnp.size(x), jnp.size(x, 1), jnp.size(x, (0, 2)), jnp.size(x, axis=(-1,))) == (
        24,
        3,
        8,
        4,
    )


# (expression, exception type, first line of JAX 0.10.2's message)
ERRORS = [
    ("jnp.array_split(jnp.arange(4), 0)", ZeroDivisionError, "integer division or modulo by zero"),
    ("jnp.split(jnp.arange(4), 0)", ZeroDivisionError, "integer division or modulo by zero"),
    ("jnp.round(jnp.array([True]))", ValueError, "data type <class 'numpy.bool'> not inexact"),
    (
        "jnp.signbit(jnp.array([1j]))",
        ValueError,
        "jax.numpy.signbit is not well defined for complex64",
    ),
    ("jnp.isposinf(1j)", ValueError, "isposinf/isneginf are not well defined for complex types"),
    ("jnp.isneginf(1j)", ValueError, "isposinf/isneginf are not well defined for complex types"),
    ("jnp.copysign(1j, 2)", TypeError, "copysign does not support complex-valued inputs"),
    (
        "jnp.hypot(1j, 1)",
        ValueError,
        "jnp.hypot is not well defined for complex-valued inputs. Please convert to real values "
        "first, such as by using abs(x)",
    ),
    (
        "jnp.any(jnp.ones(2), out=jnp.ones(2))",
        NotImplementedError,
        "The 'out' argument to jnp.any is not supported.",
    ),
    (
        "jnp.argmax(jnp.ones(2), out=1)",
        NotImplementedError,
        "The 'out' argument to jnp.argmax is not supported.",
    ),
    (
        "jnp.cumprod(jnp.ones(2), out=1)",
        NotImplementedError,
        "The 'out' argument to jnp.cumprod is not supported",
    ),
    (
        "jnp.max(jnp.ones(2), dtype=int)",
        TypeError,
        "max() got an unexpected keyword argument 'dtype'",
    ),
    (
        "jnp.all(jnp.ones(2), dtype=int)",
        TypeError,
        "all() got an unexpected keyword argument 'dtype'",
    ),
    (
        "jnp.var(jnp.ones(2), initial=1)",
        TypeError,
        "var() got an unexpected keyword argument 'initial'",
    ),
    ("jnp.gcd(1.0, 2.0)", ValueError, "Arguments to jax.numpy.gcd must be integers."),
    ("jnp.i0(1j)", ValueError, "Unsupported input type to jax.numpy.i0: complex64"),
    (
        "jnp.clip(jnp.array([1j]), 0, 1)",
        ValueError,
        "Clip received a complex value either through the input or the min/max keywords. "
        "Complex values have no ordering and cannot be clipped. Please convert to a real value "
        "or array by taking the real or imaginary components via jax.numpy.real/imag "
        "respectively.",
    ),
    (
        "jnp.median(jnp.ones(2), out=jnp.ones(1))",
        ValueError,
        "jax.numpy.quantile does not support overwrite_input=True or out != None",
    ),
    (
        "jnp.nanmedian(jnp.ones(2), out=jnp.ones(1))",
        ValueError,
        "jax.numpy.nanquantile does not support overwrite_input=True or out != None",
    ),
    (
        "jnp.nanmedian(jnp.array([1j]))",
        ValueError,
        "quantile does not support complex input, as the operation is poorly defined.",
    ),
    (
        "jnp.mean(jnp.ones((2, 3)), axis=2)",
        IndexError,  # and ValueError: numbax's AxisError is both, as numpy's
        "axis 2 is out of bounds for array of dimension 2",
    ),
    (
        "jnp.power(jnp.array([True]), -2)",
        TypeError,
        "Integers cannot be raised to negative powers, got integer_pow(int32[1], -2)",
    ),
    (
        "jnp.power(3, -2)",
        TypeError,
        "Integers cannot be raised to negative powers, got integer_pow(~int32[], -2)",
    ),
]


@pytest.mark.parametrize("expr, kind, first_line", ERRORS, ids=[e[0] for e in ERRORS])
def test_error_as_in_jax(expr, kind, first_line):
    with pytest.raises(kind) as info:
        eval(expr, {"jnp": jnp, "C": jnp.asarray(MATRICES["C"])})
    assert str(info.value).split("\n")[0] == first_line


@pytest.mark.parametrize(
    "fn, exc",
    [
        (lambda: jnp.cumulative_sum(jnp.float32(1)), ValueError),
        (lambda: jnp.cumulative_prod(3), ValueError),
        (lambda: jnp.divmod(jnp.array([1j]), 2), TypeError),  # lax.rem refuses complex
        (lambda: jnp.var(jnp.ones(3), out=jnp.ones(())), NotImplementedError),
        (lambda: jnp.mean(jnp.ones(3), out=jnp.ones(())), NotImplementedError),
    ],
)
def test_raises_as_jax(fn, exc):
    with pytest.raises(exc):
        fn()


@pytest.mark.parametrize("val, want", [([1 + 1j], True), ([[1.0]], False), ((), False)])
def test_iscomplexobj_of_a_list_of_tracers(val, want):
    # JAX reads the dtype of `asarray(x)`, which stacks a list holding tracers
    assert jax.jit(lambda v: jnp.iscomplexobj(v))(val) == want
    assert jnp.iscomplexobj(val) == want
