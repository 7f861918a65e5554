"""Calls over the public `jnp` namespace (and `jnp.linalg`, `jnp.fft`, `nn`, `scipy.special`)
with numpy arrays, shared by `record_arraylike.py` (run with JAX) and `test_arraylike.py`.

Each case is `(label, path, args, kwargs)`; `path` is resolved against the namespaces
`{"": jnp, "linalg": jnp.linalg, "fft": jnp.fft, "nn": nn, "special": scipy.special}` (a
ufunc's method is `add.reduce`). A
*slot* is one numpy array of a case: a positional argument (`a1`), an element of a sequence
argument (`a0.1`), or a keyword argument (`k:weights`). `variants` turns each slot into a
Python list, one at a time: JAX's `jnp` functions reject some of those with
`TypeError: <name> requires ndarray or scalar arguments, ...` and accept others (shapes,
`pad_width`, ...); the recorded outcomes are in `jax_arraylike.json`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

F3 = np.array([1.0, 2.0, 3.0], np.float32)
P3 = np.array([0.2, 0.5, 0.7], np.float32)
I3 = np.array([1, 2, 0], np.int32)
B3 = np.array([True, False, True])
M2 = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
M23 = np.arange(6, dtype=np.float32).reshape(2, 3)
C3 = np.array([1 + 1j, 2 - 1j, 0.5j], np.complex64)
S3 = np.array([1.0, 2.0, 3.0], np.float32)  # sorted
Q = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2) / 8  # (batch, length, heads, features)


def _names(text: str) -> list[str]:
    return text.split()


UNARY = _names(
    "abs absolute acos acosh angle arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan "
    "atanh cbrt ceil conj conjugate cos cosh deg2rad degrees exp exp2 expm1 fabs fix floor "
    "frexp i0 imag isfinite isinf isnan isneginf isposinf iscomplex isreal log log10 log1p log2 "
    "logical_not modf negative positive rad2deg radians real reciprocal rint round around sign "
    "signbit sin sinc sinh spacing sqrt square tan tanh trunc"
)
BINARY = _names(
    "add arctan2 atan2 copysign divide divmod equal float_power floor_divide fmax fmin fmod "
    "greater greater_equal heaviside hypot ldexp less less_equal logaddexp logaddexp2 "
    "logical_and logical_or logical_xor maximum minimum mod multiply nextafter not_equal pow "
    "power remainder subtract true_divide"
)
INT_UNARY = _names("bitwise_count bitwise_invert bitwise_not invert")
INT_BINARY = _names(
    "bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor gcd lcm "
    "left_shift right_shift"
)
REDUCTIONS = _names(
    "all any amax amin argmax argmin count_nonzero cumprod cumsum cumulative_prod "
    "cumulative_sum max mean median min nanargmax nanargmin nancumprod nancumsum nanmax "
    "nanmean nanmedian nanmin nanprod nanstd nansum nanvar prod ptp std sum var"
)
SPECIAL_UNARY = _names(
    "digamma entr erf erfc erfinv exp1 expit factorial gamma gammaln gammasgn i0 i0e i1 i1e "
    "log_ndtr log_softmax loggamma logit logsumexp ndtr ndtri softmax"
)
SPECIAL_BINARY = _names("beta betaln boxcox boxcox1p comb gammainc gammaincc kl_div poch rel_entr")
NN_UNARY = _names(
    "celu elu gelu glu hard_sigmoid hard_silu hard_swish hard_tanh identity leaky_relu log1mexp "
    "log_sigmoid log_softmax logmeanexp logsumexp mish normalize relu relu6 selu sigmoid silu "
    "soft_sign softmax softplus sparse_plus sparse_sigmoid squareplus standardize swish tanh"
)
FFT = _names("fft ifft rfft hfft ihfft fftshift ifftshift fftn ifftn rfftn fft2 ifft2 rfft2 irfft")
LINALG_SQUARE = _names(
    "cholesky cond det eig eigh eigvals eigvalsh inv matrix_rank pinv qr slogdet svd svdvals "
    "matrix_norm matrix_transpose diagonal trace norm tensorinv"
)

ON_VECTOR = _names(
    "nan_to_num zeros_like ones_like empty_like copy asarray array diag diagflat vander flip "
    "trim_zeros nonzero flatnonzero argwhere histogram histogram_bin_edges sort argsort "
    "unique unique_all unique_counts unique_inverse unique_values diff ediff1d gradient "
    "trapezoid unwrap polyder polyint poly roots linalg.vector_norm ndim shape size "
    "iscomplexobj isrealobj add.reduce add.accumulate"
)
ON_MATRIX = _names(
    "tril triu tril_indices_from triu_indices_from diag_indices_from fliplr flipud rot90 "
    "diagonal trace fft.irfftn fft.irfft2"
)
ON_TWO_VECTORS = _names(
    "nanpercentile isclose allclose array_equal array_equiv full_like linspace logspace "
    "geomspace meshgrid broadcast_arrays atleast_1d atleast_2d atleast_3d append histogram2d "
    "setdiff1d setxor1d union1d intersect1d isin dot vdot inner outer vecdot kron cross "
    "convolve correlate polyval polyadd polysub polymul polydiv linalg.cross linalg.outer "
    "linalg.vecdot special.xlogy special.xlog1py add.outer"
)


def _c(path: str, *args: Any, **kwargs: Any) -> tuple[str, str, tuple, dict]:
    return (path, path, args, kwargs)


def _l(label: str, path: str, *args: Any, **kwargs: Any) -> tuple[str, str, tuple, dict]:
    return (label, path, args, kwargs)


CASES: list[tuple[str, str, tuple, dict]] = [
    *(_c(n, F3) for n in ON_VECTOR),
    *(_c(n, M2) for n in ON_MATRIX),
    *(_c(n, F3, F3) for n in ON_TWO_VECTORS),
    *(_c(n, P3) for n in UNARY),
    *(_c(n, P3, F3) for n in BINARY if n != "ldexp"),
    _c("ldexp", F3, I3),
    *(_c(n, I3) for n in INT_UNARY),
    *(_c(n, I3, I3) for n in INT_BINARY),
    *(_c(n, F3) for n in REDUCTIONS),
    _l("sum_where", "sum", F3, where=B3),
    _l("sum_initial", "sum", F3, initial=np.float32(1)),
    _c("average", F3, weights=F3),
    _c("percentile", F3, np.float32(50)),
    _c("quantile", F3, P3),
    _c("nanquantile", F3, P3),
    _c("clip", F3, F3, F3),
    # creation
    _c("full", (3,), F3),
    _c("ravel_multi_index", (I3, I3), (3, 3)),
    _c("unravel_index", I3, (3,)),
    # shapes
    _c("reshape", M23, (3, 2)),
    _c("ravel", M23),
    _c("transpose", M23),
    _c("permute_dims", M23, (1, 0)),
    _c("matrix_transpose", M23),
    _c("squeeze", M23[None]),
    _c("expand_dims", F3, 0),
    _c("swapaxes", M23, 0, 1),
    _c("moveaxis", M23, 0, 1),
    _c("rollaxis", M23, 1),
    _c("broadcast_to", F3, (2, 3)),
    _c("resize", F3, 5),
    _c("tile", F3, 2),
    _c("repeat", F3, I3),
    _c("roll", F3, 1),
    _c("concatenate", (F3, F3)),
    _c("concat", (F3, F3)),
    _c("stack", (F3, F3)),
    _c("hstack", (F3, F3)),
    _c("vstack", (F3, F3)),
    _c("dstack", (F3, F3)),
    _c("column_stack", (F3, F3)),
    _c("block", [F3, F3]),
    _c("unstack", M23),
    _c("split", F3, 3),
    _c("array_split", F3, 2),
    _c("hsplit", M2, 2),
    _c("vsplit", M2, 2),
    _c("dsplit", M23[None], 3),
    _c("insert", F3, 1, F3[:1]),
    _c("delete", F3, I3[:1]),
    _c("pad", F3, 1),
    _c("astype", F3, np.int32),
    # indexing and selection
    _c("take", F3, I3),
    _c("take_along_axis", F3, I3, 0),
    _c("put_along_axis", F3, I3, F3, 0, inplace=False),
    _c("place", F3, B3, F3, inplace=False),
    _c("put", F3, I3, F3, inplace=False),
    _c("fill_diagonal", M2, F3[:1], inplace=False),
    _c("where", B3, F3, F3),
    _l("where1", "where", B3),
    _c("select", [B3], [F3], F3),
    _c("choose", I3[:2] % 2, (F3[:2], F3[:2])),
    _c("compress", B3, F3),
    _c("extract", B3, F3),
    _c("ix_", I3, I3),
    _c("piecewise", F3, [B3], [np.float32(1)]),
    _c("searchsorted", S3, F3),
    _c("digitize", F3, S3),
    _c("bincount", I3),
    _c("histogramdd", M23.T),
    _c("interp", F3, S3, F3),
    # sorting and sets
    _c("sort_complex", C3),
    _c("partition", F3, 1),
    _c("argpartition", F3, 1),
    _c("lexsort", (F3, F3)),
    # contractions and statistics
    _c("matmul", M2, M2),
    _c("matvec", M2, F3[:2]),
    _c("vecmat", F3[:2], M2),
    _c("tensordot", M2, M2),
    _c("einsum", "i,i", F3, F3),
    _c("cov", M23),
    _c("corrcoef", M23),
    _c("packbits", B3),
    _c("unpackbits", I3.astype(np.uint8)),
    _c("apply_along_axis", np.sum, 0, M2),
    _c("apply_over_axes", np.sum, M2, [0]),
    # polynomials
    _c("polyfit", F3, F3, 1),
    # submodules
    *(_c("linalg." + n, M2) for n in LINALG_SQUARE),
    _c("linalg.solve", M2, M2),
    _c("linalg.lstsq", M2, M2),
    _c("linalg.matrix_power", M2, 2),
    _c("linalg.multi_dot", [M2, M2]),
    _c("linalg.matmul", M2, M2),
    _c("linalg.matvec", M2, F3[:2]),
    _c("linalg.tensordot", M2, M2),
    _c("linalg.tensorsolve", M2, F3[:2]),
    *(_c("fft." + n, M2) for n in FFT),
    *(_c("special." + n, P3) for n in SPECIAL_UNARY),
    *(_c("special." + n, P3, F3) for n in SPECIAL_BINARY),
    _c("special.zeta", F3 + 1, F3),
    _c("special.polygamma", I3, F3),
    _c("special.multigammaln", F3 + 1, 1),
    _c("special.betainc", P3, P3, P3),
    *(_c("nn." + n, M2) for n in NN_UNARY),
    _c("nn.one_hot", I3, 3),
    _c("nn.dot_product_attention", Q, Q, Q),
    _c("add.reduceat", F3, I3[:2]),
    _c("add.at", F3, I3, F3, inplace=False),
    _c("multiply.reduce", F3, where=B3),
]


def slots(args: tuple, kwargs: dict) -> list[str]:
    """The names of the numpy arrays of a call: `a<i>`, `a<i>.<j>` and `k:<name>`."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            out.append(f"a{i}")
        elif isinstance(a, (list, tuple)):
            out += [f"a{i}.{j}" for j, e in enumerate(a) if isinstance(e, np.ndarray)]
    out += [f"k:{k}" for k, v in kwargs.items() if isinstance(v, np.ndarray)]
    return out


def with_list(args: tuple, kwargs: dict, slot: str) -> tuple[tuple, dict]:
    """The call with the array in `slot` replaced by the nested Python list of its values."""
    args, kwargs = list(args), dict(kwargs)
    if slot.startswith("k:"):
        kwargs[slot[2:]] = kwargs[slot[2:]].tolist()
        return tuple(args), kwargs
    i, _, j = slot[1:].partition(".")
    if j:
        seq = list(args[int(i)])
        seq[int(j)] = seq[int(j)].tolist()
        args[int(i)] = type(args[int(i)])(seq)
    else:
        args[int(i)] = args[int(i)].tolist()
    return tuple(args), kwargs


def resolve(namespaces: dict[str, Any], path: str) -> Any:
    """The function at `path` ("linalg.norm", "sum", "add.reduce") in `namespaces`."""
    head, _, rest = path.partition(".")
    obj, names = (namespaces[head], rest) if rest and head in namespaces else (namespaces[""], path)
    for name in names.split("."):
        obj = getattr(obj, name)
    return obj


def outcome(fn: Any, args: tuple, kwargs: dict) -> str:
    """ "ok", the message of JAX's arraylike `TypeError`, or "error: <type>" for another."""
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (any failure is recorded, the test compares them)
        if isinstance(e, TypeError) and "requires ndarray or scalar arguments" in str(e):
            return str(e)
        return f"error: {type(e).__name__}"
    return "ok"
