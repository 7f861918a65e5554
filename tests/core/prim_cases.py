"""One table of primitive applications, shared by the gradient and the vmap tests.

Each `Case` applies one primitive (its `prim` name) to small float64 (or integer) numpy inputs.
`grad=False` marks the ones with no derivative to check (comparisons, bits, integer outputs).
`tests/core/test_registry.py` checks that the table names every primitive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import core.numpy as jnp
from core import named_sharding, placement
from core.checkpoint import checkpoint_name
from core.devices import devices
from core.lax import composites as co
from core.lax import linalg as lax_linalg
from core.lax import lu, special
from core.lax import triangular as tr
from core.mesh import Mesh, get_mesh
from core.prims import collectives as coll
from core.prims import conv as cv
from core.prims import decompositions as dc
from core.prims import eig as eg
from core.prims import elementwise as ew
from core.prims import fft as ff
from core.prims import gather as ga
from core.prims import indexing as ix
from core.prims import linalg as la
from core.prims import random_bits as rb
from core.prims import reductions as rd
from core.prims import rev as rv
from core.prims import shapes as sh
from core.prims import sorting as so
from core.prims import windows as wi
from core.sharding_base import PartitionSpec


@dataclass
class Case:
    name: str
    prim: str
    fn: Callable
    args: list = field(default_factory=list)
    grad: bool = True
    order: int = 2
    eps: float = 1e-4
    tol: float | None = None

    def __repr__(self) -> str:
        return self.name


_rng = np.random.RandomState(0)


_PUT = dict(
    devices=(None, None),
    srcs=(None, None),
    copy_semantics=(placement.ArrayCopySemantics.REUSE_INPUT,) * 2,
)


def _apart(shape):
    """A matrix of `shape` with 4, 2, 1 on its diagonal: singular values kept apart."""
    m = np.zeros(shape)
    k = min(shape)
    m[range(k), range(k)] = [4.0, 2.0, 1.0][:k]
    return m


def R(*s):
    return _rng.standard_normal(s)


def P(*s):  # positive
    return _rng.uniform(0.5, 1.5, s)


def L(*s):  # fixed: evenly spaced in [-1.1, 0.9]
    return np.linspace(-1.1, 0.9, int(np.prod(s))).reshape(s)


def U(*s):  # inside (-1, 1)
    return _rng.uniform(-0.8, 0.8, s)


def A(*s):  # away from zero and from integers' half points
    return _rng.choice([-1, 1], s) * _rng.uniform(0.2, 0.4, s) + _rng.randint(-2, 3, s)


def D(*s):  # distinct values, well separated (max, sort)
    return _rng.permutation(int(np.prod(s))).reshape(s) * 0.5 + _rng.uniform(0, 0.1, s)


def I(*s, lo=0, hi=8):  # noqa: E743
    return _rng.randint(lo, hi, s).astype(np.int32)


def _unary(name, gen, **kw):
    fn = getattr(ew, name)
    return Case(name, name, fn, [gen(2, 3)], **kw)


def _binary(name, gen1, gen2, **kw):
    return Case(name, name, getattr(ew, name), [gen1(3), gen2(3)], **kw)


def _named(f, name="i"):
    from core import vmap

    return lambda xs: vmap(f, axis_name=name)(xs)


CASES: list[Case] = [
    # Elementwise, one operand
    *[
        _unary(n, R)
        for n in (
            "neg",
            "exp",
            "exp2",
            "expm1",
            "tanh",
            "logistic",
            "sin",
            "cos",
            "atan",
            "sinh",
            "cosh",
            "asinh",
            "erf",
        )
    ],
    *[_unary(n, P) for n in ("log", "log1p", "sqrt", "rsqrt", "cbrt", "lgamma", "digamma")],
    _unary("square", R),
    *[_unary(n, U) for n in ("tan", "asin", "acos", "atanh", "erf_inv")],
    _unary("acosh", lambda *s: P(*s) + 1),
    *[_unary(n, A) for n in ("abs", "sign", "floor", "ceil", "round")],
    _unary("is_finite", R, grad=False),
    Case("stop_gradient", "stop_gradient", ew.stop_gradient_prim, [R(3)], grad=False),
    *[
        Case(f"integer_pow_{y}", "integer_pow", lambda x, y=y: ew.integer_pow(x, y), [P(2, 3)])
        for y in (0, 1, 2, 3, -2)
    ],
    # Elementwise, two operands
    *[_binary(n, R, R) for n in ("add", "sub", "mul", "atan2")],
    _binary("div", R, P),
    _binary("pow", P, R),
    _binary("max", D, D),
    _binary("min", D, D),
    # (fixed operands: a draw from `_rng` here would change every later case's)
    Case(
        "add_any", "add_any", ew.add_any, [np.array([0.3, -1.2, 0.7]), np.array([1.1, 0.4, -0.5])]
    ),
    Case(  # rank-0 bounds, operand values away from them
        "clamp",
        "clamp",
        lambda x: ew.clamp(ew.full_like(x, 0.3, shape=()), x, ew.full_like(x, 1.2, shape=())),
        [np.array([0.05, 0.55, 1.05])],
    ),
    Case("rem", "rem", ew.rem, [A(3) * 3, P(3) + 1.7], eps=1e-6),
    Case("polygamma", "polygamma", lambda x: ew.polygamma(ew.full_like(x, 1), x), [P(3)]),
    *[
        Case(n, n, getattr(ew, n), [D(3), D(3)], grad=False)
        for n in ("eq", "ne", "lt", "le", "gt", "ge")
    ],
    *[
        Case(n, p, getattr(ew, n), [I(3), I(3, hi=4)], grad=False)
        for n, p in (
            ("bitwise_and", "and"),
            ("bitwise_or", "or"),
            ("bitwise_xor", "xor"),
            ("shift_left", "shift_left"),
            ("shift_right_logical", "shift_right_logical"),
            ("shift_right_arithmetic", "shift_right_arithmetic"),
        )
    ],
    Case("not", "not", ew.bitwise_not, [I(3)], grad=False),
    Case("population_count", "population_count", ew.population_count, [I(3)], grad=False),
    *[
        Case(
            name,
            name,
            lambda a, b, part=part: part.bind(
                ew.mul(ew.complex_p.bind(a, b), ew.complex_p.bind(b, ew.neg(a)))
            ),
            [R(3), R(3)],
        )
        for name, part in (("complex", ew.real_p), ("real", ew.real_p), ("imag", ew.imag_p))
    ],
    Case(
        "select_n",
        "select_n",
        lambda a, b: ew.select_n(np.array([True, False, True]), a, b),
        [R(3), R(3)],
    ),
    Case(
        "select_n_int",
        "select_n",
        lambda a, b, c: ew.select_n(np.array([0, 2, 1], np.int32), a, b, c),
        [R(3)] * 3,
    ),
    Case(
        "select_n_pred",
        "select_n",
        lambda p, a, b: ew.select_n(ew.gt(p, ew.full_like(p, 0)), a, b),
        [R(3), R(3), R(3)],
        grad=False,
    ),
    # Shapes and dtypes
    Case(
        "convert_element_type",
        "convert_element_type",
        lambda x: sh.convert_element_type(x, np.float64, weak_type=True),
        [R(3)],
    ),
    Case(
        "convert_to_int",
        "convert_element_type",
        lambda x: sh.convert_element_type(x, np.int32),
        [A(3) * 3],
        grad=False,
    ),
    Case(
        "bitcast_convert_type",
        "bitcast_convert_type",
        lambda x: rb.bitcast_convert_type(x, np.uint32),
        [I(3)],
        grad=False,
    ),
    Case(
        "broadcast_in_dim",
        "broadcast_in_dim",
        lambda x: sh.broadcast_in_dim(x, (2, 3, 4), (1,)),
        [R(3)],
    ),
    Case(
        "broadcast_in_dim_unit",
        "broadcast_in_dim",
        lambda x: sh.broadcast_in_dim(x, (2, 3, 4), (0, 2)),
        [R(2, 1)],
    ),
    Case("reshape", "reshape", lambda x: sh.reshape(x, (3, 2)), [R(2, 3)]),
    Case("squeeze", "squeeze", lambda x: sh.squeeze(x, (0, 2)), [R(1, 3, 1, 2)]),
    Case("squeeze_last", "squeeze", lambda x: sh.squeeze(x, (-1,)), [R(2, 3, 1)]),
    Case("expand_dims", "broadcast_in_dim", lambda x: sh.expand_dims(x, (0, 2)), [R(2, 3)]),
    Case("transpose", "transpose", lambda x: sh.transpose(x, (2, 0, 1)), [R(2, 3, 4)]),
    Case("rev", "rev", lambda x: rv.rev(x, (1,)), [R(2, 3)]),
    # Reductions
    Case("reduce_sum", "reduce_sum", lambda x: rd.reduce_sum(x, (0, 2)), [R(2, 3, 4)]),
    Case(
        "reduce_sum_in_order",
        "reduce_sum_in_order",
        lambda x: rd.reduce_sum_in_order_p.bind(x, axes=(0, 2)),
        # not drawn from `_rng`: the later cases keep their inputs
        [np.linspace(-1.0, 1.3, 24).reshape(2, 3, 4)],
    ),
    Case(
        "reduce_sum_ynn",
        "reduce_sum_ynn",
        lambda x: rd.reduce_sum_ynn_p.bind(x, axes=(0, 2)),
        # not drawn from `_rng`: the later cases keep their inputs
        [np.linspace(-1.0, 1.3, 24).reshape(2, 3, 4)],
    ),
    Case("reduce_max", "reduce_max", lambda x: rd.reduce_max(x, (1,)), [D(2, 3, 2)]),
    Case("reduce_min", "reduce_min", lambda x: rd.reduce_min(x, (0, 1)), [D(2, 3, 2)]),
    Case("reduce_prod", "reduce_prod", lambda x: rd.reduce_prod(x, (1,)), [R(2, 3, 2)]),
    Case(
        "reduce_prod_zeros",
        "reduce_prod",
        lambda x: rd.reduce_prod(x, (1,)),
        [np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 1.5], [1.0, 2.0, 0.5]])],
    ),
    Case(
        "reduce_and",
        "reduce_and",
        lambda x: rd.reduce_and(ew.gt(x, ew.full_like(x, 0)), (1,)),
        [R(2, 3)],
        grad=False,
    ),
    Case(
        "reduce_or",
        "reduce_or",
        lambda x: rd.reduce_or(ew.gt(x, ew.full_like(x, 0)), (1,)),
        [R(2, 3)],
        grad=False,
    ),
    Case("argmax", "argmax", lambda x: rd.argmax(x, 1), [D(2, 3)], grad=False),
    Case("argmin", "argmin", lambda x: rd.argmin(x, 0), [D(2, 3)], grad=False),
    Case("cumsum", "cumsum", lambda x: so.cumsum_p.bind(x, axis=1, reverse=False), [R(2, 3)]),
    Case("cumsum_rev", "cumsum", lambda x: so.cumsum_p.bind(x, axis=0, reverse=True), [R(2, 3)]),
    Case("cumprod", "cumprod", lambda x: so.cumprod_p.bind(x, axis=1, reverse=False), [R(2, 3)]),
    Case("cummax", "cummax", lambda x: so.cummax_p.bind(x, axis=1, reverse=False), [D(2, 3)]),
    Case("cummin", "cummin", lambda x: so.cummin_p.bind(x, axis=0, reverse=True), [D(2, 3)]),
    # Contractions
    Case(
        "dot_general",
        "dot_general",
        lambda x, y: la.dot_general(x, y, (((1,), (0,)), ((), ()))),
        [R(2, 3), R(3, 4)],
    ),
    Case(
        "dot_general_batch",
        "dot_general",
        lambda x, y: la.dot_general(x, y, (((2,), (1,)), ((0,), (2,)))),
        [R(2, 3, 4), R(5, 4, 2)],
    ),
    # Slicing and indexing
    Case("slice", "slice", lambda x: ix.slice(x, (0, 1), (2, 5), (1, 2)), [R(3, 5)]),
    Case("pad", "pad", lambda x, v: ix.pad(x, v, ((1, 2, 1), (-1, 0, 0))), [R(2, 3), R()]),
    Case("concatenate", "concatenate", lambda x, y: ix.concatenate([x, y], 1), [R(2, 3), R(2, 1)]),
    Case("stack", "stack", lambda x, y: ix.stack([x, y], 1), [R(2, 3), R(2, 3)]),
    Case("stack_last", "stack", lambda x, y, z: ix.stack([x, y, z], -1), [R(2), R(2), R(2)]),
    Case("stack_scalars", "stack", lambda x, y: ix.stack([x, y], 0), [R(), R()]),
    Case(
        "gather",
        "gather",
        lambda x: ga.gather(x, np.array([[2], [0], [2]], np.int32), (0,)),
        [R(3, 2)],
    ),
    Case(
        "scatter_add",
        "scatter-add",
        lambda x, u: ga.scatter(x, np.array([[2], [0], [2]], np.int32), u, (0,), kind="add"),
        [R(3, 2), R(3, 2)],
    ),
    *(
        Case(
            f"scatter_{kind}",
            "scatter" if kind == "set" else f"scatter-{kind}",
            lambda x, u, kind=kind: ga.scatter(x, np.array([[2], [0]], np.int32), u, (0,), kind),
            [R(3, 2), R(2, 2)],
            order=2 if kind in ("set", "mul") else 1,
        )
        for kind in ("set", "mul", "min", "max")
    ),
    Case(
        "dynamic_slice",
        "dynamic_slice",
        lambda x: ga.dynamic_slice(x, (np.int32(1), np.int32(0)), (2, 2)),
        [R(3, 3)],
    ),
    Case(
        "dynamic_update_slice",
        "dynamic_update_slice",
        lambda x, u: ga.dynamic_update_slice(x, u, (np.int32(1), np.int32(1))),
        [R(3, 3), R(2, 1)],
    ),
    Case("sort", "sort", lambda x: so.sort(x, 1), [D(2, 4)]),
    Case("top_k", "top_k", lambda x: so.top_k(x, 2)[0], [D(2, 4)]),
    # Convolutions and windows
    Case(
        "conv_general_dilated",
        "conv_general_dilated",
        lambda x, k: cv.conv_general_dilated(
            x,
            k,
            (1, 2),
            ((1, 0), (0, 1)),
            rhs_dilation=(1, 1),
            dimension_numbers=("NCHW", "OIHW", "NCHW"),
        ),
        [R(1, 2, 4, 5), R(3, 2, 2, 2)],
    ),
    Case(
        "conv_dilated",
        "conv_general_dilated",
        lambda x, k: cv.conv_general_dilated(
            x, k, (1,), ((1, 1),), lhs_dilation=(2,), rhs_dilation=(2,)
        ),
        [R(1, 1, 4), R(2, 1, 2)],
    ),
    Case(
        "reduce_window_sum",
        "reduce_window_sum",
        lambda x: wi.reduce_window(x, 0.0, ew.add, (2, 2), (1, 2), "SAME"),
        [R(3, 4)],
    ),
    Case(
        "reduce_window_max",
        "reduce_window_max",
        lambda x: wi.reduce_window(x, -np.inf, ew.max, (2, 2), (2, 1), "VALID"),
        [D(4, 3)],
    ),
    Case(
        "reduce_window_min",
        "reduce_window_min",
        lambda x: wi.reduce_window(x, np.inf, ew.min, (1, 2), (1, 1), "VALID"),
        [D(3, 3)],
    ),
    # Linear algebra
    Case("inv", "inv", dc.inv, [R(3, 3) + 3 * np.eye(3)]),
    Case(
        "cholesky",
        "cholesky",
        lambda a: dc.cholesky(la.dot_general(a, a, (((1,), (1,)), ((), ()))) + 3 * np.eye(3)),
        [R(3, 3)],
    ),
    Case("qr", "qr", lambda a: dc.qr(a)[1], [R(3, 3)]),
    Case("eigh", "eigh", lambda a: dc.eigh(ew.add(a, sh.transpose(a, (1, 0))))[1], [R(3, 3)]),
    # eigenvalues only (eigenvector derivatives are refused, as in JAX): first order, since
    # the eigenvalue JVP itself needs eigenvectors
    *[
        Case(
            f"eig_{part.__name__}",
            "eig",
            lambda a, part=part: part(
                eg.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]
            ),
            [R(3, 3)],
            order=1,
        )
        for part in (jnp.real, jnp.imag)
    ],
    Case("svd", "svd", lambda a: dc.svd(a, compute_uv=False), [R(3, 2)]),
    *[
        # singular values kept apart (4, 2, 1 on the diagonal): the vectors' second derivatives
        # grow as 1 / (s_i - s_j), which a random draw can make too steep for the numerical check
        Case(
            f"svd_uv{i}",
            "svd",
            lambda a, i=i: dc.svd(a, full_matrices=False)[i],
            [R(*shape) / 4 + _apart(shape)],
        )
        for i, shape in ((0, (3, 2)), (1, (2, 3)), (2, (2, 3)), (2, (3, 3)))
    ],
    Case(
        "threefry2x32",
        "threefry2x32",
        lambda a, b, c, d: rb.threefry2x32(a, b, c, d)[0],
        [I(3).astype(np.uint32) for _ in range(4)],
        grad=False,
    ),
    # last: its random inputs do not shift those of the cases above
    Case("checkpoint_name", "name", lambda x: checkpoint_name(x, "a"), [R(3)]),
    # JAX's primitives numbax compiles as compositions (fixed operands: no draws to shift)
    Case("split", "split", lambda x: ix.split(x, (1, 2), 1)[1], [L(2, 3)]),
    Case("unstack", "unstack", lambda x: ix.unstack(x, 1)[2], [L(2, 3)]),
    Case("tile", "tile", lambda x: ix.tile(x, (2, 1, 3)), [L(2, 1, 3)]),
    Case(
        "triangular_solve",
        "triangular_solve",
        lambda a, b: tr.triangular_solve(a, b, left_side=True, lower=True),
        [np.tril(L(3, 3)) + 3 * np.eye(3), L(3, 2)],
    ),
    Case(
        "triangular_solve_right_transposed",
        "triangular_solve",
        lambda a, b: tr.triangular_solve(a, b, lower=False, transpose_a=True, unit_diagonal=True),
        [np.triu(L(3, 3)), L(2, 3)],
    ),
    Case("erfc", "erfc", special.erfc, [np.array([-1.3, 0.2, 0.9, 2.4])]),
    Case("approx_top_k", "approx_top_k", lambda x: co.approx_min_k(x, 2)[0], [D(2, 4)]),
    Case(
        "device_put",
        "device_put",
        lambda x, y: ew.mul(*placement.device_put_p.bind(x, y, **_PUT)),
        [R(3), R(3)],
    ),
    Case(
        "reduce",
        "reduce",
        lambda x: co.reduce((x, x), (1.0, 0.0), lambda a, b: (a[0] * b[0], a[1] + b[1]), (1,))[0],
        [P(2, 3)],
    ),
    Case(
        "reduce_window",
        "reduce_window",
        lambda x: wi.reduce_window(x, 1.0, ew.mul, (1, 2), (1, 1), "VALID"),
        [P(2, 3)],
    ),
    # JAX's Householder reductions (numbax's loops; JAX differentiates none of them)
    Case(
        "hessenberg",
        "hessenberg",
        lambda a: lax_linalg.hessenberg(a)[0],
        [R(3, 3)],
        order=1,
        eps=1e-6,
    ),
    Case(
        "tridiagonal",
        "tridiagonal",
        lambda a: lax_linalg.tridiagonal(a)[1],
        [R(3, 3)],
        order=1,
        eps=1e-6,
    ),
    Case(
        "householder_product",
        "householder_product",
        lax_linalg.householder_product,
        [R(3, 2), U(2)],
        order=1,
        eps=1e-6,
    ),
    Case("schur", "schur", lambda a: lax_linalg.schur(a)[0], [R(3, 3)], grad=False),
    Case(
        "tridiagonal_solve",
        "tridiagonal_solve",
        lambda dl, d, du, b: lax_linalg.tridiagonal_solve_p.bind(
            dl, d, du, b, perturb_singular=False
        ),
        [np.array([0.0, 0.3, -0.2]), P(3) + 2, np.array([0.4, 0.1, 0.0]), R(3, 2)],
    ),
    # JAX's special-function primitives (numbax computes them from others)
    # second derivatives in `a` need igamma_grad_a's, which JAX does not define either
    Case("igamma", "igamma", special.igamma_p.bind, [P(3) + 1, P(3) * 2], order=1),
    Case("igammac", "igammac", special.igammac_p.bind, [P(3) + 1, P(3) * 2], order=1),
    Case("igamma_grad_a", "igamma_grad_a", special.igamma_grad_a, [P(3) + 1, P(3)], grad=False),
    Case(
        "regularized_incomplete_beta",
        "regularized_incomplete_beta",
        lambda x: special.regularized_incomplete_beta_p.bind(
            ew.full_like(x, 2.0), ew.full_like(x, 3.0), x
        ),
        [np.array([0.2, 0.5, 0.7])],
    ),
    Case("zeta", "zeta", lambda q: special.zeta_p.bind(ew.full_like(q, 3.0), q), [P(3)]),
    Case("bessel_i0e", "bessel_i0e", special.bessel_i0e_p.bind, [A(4)]),
    Case("bessel_i1e", "bessel_i1e", special.bessel_i1e_p.bind, [A(4)]),
    Case(
        "cumlogsumexp",
        "cumlogsumexp",
        lambda x: so.cumlogsumexp_p.bind(x, axis=1, reverse=True),
        [R(2, 3)],
    ),
    Case("nextafter", "nextafter", co.nextafter, [R(3), R(3)], grad=False),
    Case("clz", "clz", co.clz, [I(3)], grad=False),
    Case("conj", "conj", lambda x: ew.imag_p.bind(co.conj(ew.complex_p.bind(x, x))), [R(3)]),
    Case("conj_real", "conj", lambda x: ew.real_p.bind(co.conj(x)), [R(3)]),
    # float64's own format (a step function otherwise, whose derivative JAX defines as 1)
    Case("reduce_precision", "reduce_precision", lambda x: co.reduce_precision(x, 11, 52), [R(3)]),
    *[
        Case(n, n, getattr(co, f"{n}_p").bind, [D(3), D(3)[::-1]], grad=False)
        for n in ("eq_to", "le_to", "lt_to")
    ],
    Case("reduce_xor", "reduce_xor", lambda i: co.reduce_xor(i, (1,)), [I(2, 3)], grad=False),
    Case("copy", "copy", sh.copy_p.bind, [L(3)]),
    # JAX's psum over a positional axis (what a psum over a vmap axis becomes)
    Case("psum_axes", "psum_axes", lambda x: coll.psum_axes_p.bind(x, axis_name=(1,)), [R(2, 3)]),
    Case(
        "select_n_scalar_which",
        "select_n",
        lambda s, x, y: ew.select_n(ew.gt(s, ew.full_like(s, 0.0)), x, y),
        [np.array(0.4), L(2, 3), L(2, 3)[::-1]],
    ),
    # JAX's FFT, one case per type (complex results seen through their parts)
    Case("fft_rfft", "fft", lambda x: ew.real_p.bind(ff.fft(x, ff.FftType.RFFT, (4,))), [L(2, 4)]),
    Case(
        "fft_fft2",
        "fft",
        lambda x: ew.imag_p.bind(
            ff.fft(sh.convert_element_type(x, np.complex128), ff.FftType.FFT, (2, 3))
        ),
        [L(2, 3)],
    ),
    Case(
        "fft_ifft",
        "fft",
        lambda x, y: ew.real_p.bind(ff.fft(ew.complex_p.bind(x, y), ff.FftType.IFFT, (3,))),
        [L(2, 3), L(2, 3)[::-1]],
    ),
    Case(
        "fft_irfft",
        "fft",
        lambda x, y: ff.fft(ew.complex_p.bind(x, y), ff.FftType.IRFFT, (5,)),
        [L(2, 3), L(2, 3)[::-1]],
    ),
    # LU with row swaps (the pivots fixed under small perturbations): square and wide
    Case("lu", "lu", lambda a: dc.lu_p.bind(a)[0], [(L(3, 3) + 3 * np.eye(3))[[2, 0, 1]]]),
    Case("lu_wide", "lu", lambda a: dc.lu_p.bind(a)[0], [(L(2, 3) + 2 * np.eye(2, 3))[::-1]]),
    Case(
        "lu_pivots_to_permutation",
        "lu_pivots_to_permutation",
        lambda p: lu.lu_pivots_to_permutation_p.bind(p, permutation_size=5),
        [np.array([2, 1, 2], np.int32)],  # in range with the batch tests' offsets (up to +2)
        grad=False,
    ),
    # JAX's linear-algebra primitives numbax composes (fixed inputs: the draws above and below
    # stay in sequence); JAX differentiates neither
    Case(
        "ormqr",
        "ormqr",
        lambda a, t, c: lax_linalg.ormqr_p.bind(a, t, c, left=True, transpose=False),
        [L(3, 2), np.array([1.2, 0.4]), L(3, 2)[::-1]],
        order=1,
        eps=1e-6,
    ),
    Case(
        "ormqr_right_transposed",
        "ormqr",
        lambda a, t, c: lax_linalg.ormqr_p.bind(a, t, c, left=False, transpose=True),
        [L(3, 2), np.array([1.2, 0.4]), L(2, 3)[::-1]],
        order=1,
        eps=1e-6,
    ),
    Case(
        "symmetric_product",
        "symmetric_product",
        lambda a, c: lax_linalg.symmetric_product_p.bind(a, c, alpha=2.0, beta=0.5),
        [L(2, 3), L(2, 2)],
    ),
    Case(
        "sharding_constraint",
        "sharding_constraint",
        lambda x: named_sharding.sharding_constraint_p.bind(
            x,
            sharding=named_sharding.NamedSharding(
                Mesh(np.array(devices()[:1]), ("x",)), PartitionSpec("x")
            ),
            layout=None,
            context_mesh=get_mesh(),
            unconstrained_dims=frozenset(),
        ),
        [L(2, 3)],
    ),
]

# Collectives only make sense inside a named vmap: check the derivatives of the mapped function.
NAMED_CASES: list[Case] = [
    Case("psum", "psum", _named(lambda x: ew.mul(coll.psum(ew.mul(x, x), "i"), x)), [R(3)]),
    Case("pmean", "psum", _named(lambda x: ew.sin(coll.pmean(x, "i"))), [R(3)]),
    Case("pmax", "pmax", _named(lambda x: ew.mul(coll.pmax(x, "i"), x)), [D(3)]),
    Case("pmin", "pmin", _named(lambda x: ew.mul(coll.pmin(x, "i"), x)), [D(3)]),
    Case(
        "all_gather",
        "all_gather",
        _named(lambda x: jnp.sum(coll.all_gather(x, "i") * jnp.sin(x), axis=0)),
        [R(3, 2)],
    ),
    Case(
        "ppermute",
        "ppermute",
        _named(lambda x: ew.mul(coll.ppermute(x, "i", [(0, 1), (1, 2), (2, 0)]), x)),
        [R(3, 2)],
    ),
    Case(
        "reduce_scatter",
        "reduce_scatter",
        _named(lambda x: ew.sin(coll.psum_scatter(ew.mul(x, x), "i", tiled=True))),
        [R(3, 3, 2)],
    ),
    Case(
        "all_to_all",
        "all_to_all",
        _named(lambda x: ew.mul(coll.all_to_all(x, "i", 0, 1), ew.sin(sh.transpose(x, (1, 0))))),
        [R(3, 3, 2)],
    ),
    # shard_map's vma primitives: psum_invariant sums, pvary is the identity
    Case(
        "psum_invariant",
        "psum_invariant",
        _named(lambda x: ew.mul(coll.psum_invariant_p.bind(ew.mul(x, x), axis_name=("i",)), x)),
        [R(3)],
    ),
    Case(
        "pvary",
        "pvary",
        _named(lambda x: ew.mul(coll.pvary_p.bind(ew.sin(x), axis_name=("i",)), x)),
        [R(3)],
    ),
    Case(
        "axis_index",
        "axis_index",
        _named(lambda x: ew.mul(x, sh.convert_element_type(coll.axis_index("i"), np.float64))),
        [R(3)],
        order=1,
    ),
]
