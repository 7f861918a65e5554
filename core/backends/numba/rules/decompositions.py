"""Numba lowering of the matrix decompositions (`core/prims/decompositions.py`): inv, slogdet,
lu, cholesky, qr, eigh, svd.

Each is a `Kernel` looping over the batch (the operand viewed as `(batch, m, n)`) and calling
LAPACK (scipy's, through numba's wrappers, `core/jit/lapack.py`) on one matrix at a time, doing
what numba's `np.linalg` routine does around the call (its copies, finiteness check and layouts),
so the results are its bits: numba's implementations, with their exceptions, cost about 5 s of
compile per kernel (a Gaussian process's `grad` program spent 10 s of its 20 s of CPU on them),
and kernels written in `rt.ld`/`rt.st` element accesses and `rt.lapack` calls are shells of the
lean back end (`core/backends/llvm`), tiered like the others. numba supports fewer options than
numpy, which the rules work around:

  eigh(lower=False)   numba always reads the lower triangle: the upper one of `a` is the lower
                      one of `a^H`, so `a^H` is decomposed instead.
  svd(compute_uv=False)  the singular values of the full decomposition.
  qr(full_matrices=True), m > n   numba only has the reduced mode: for real dtypes the kernel
                      runs LAPACK's own Householder algorithm (geqr2 + org2r) inline, so Q's
                      extra columns are numpy's; complex operands raise `LoweringError`.

Where numba's LAPACK wrappers raise (singular matrix for `inv`, NaN or inf inputs, no
convergence) the result is NaN, as in JAX (and in the numpy backend for a singular `inv`);
`cholesky` of a batch holding a matrix that is not positive definite is all NaN, like the numpy
impl. Matrices with a zero dimension have data-independent results, emitted as constants.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import const, np_type, reshape, shape_text
from core.jit.errors import LoweringError
from core.prims.decompositions import (
    check_cpu_algorithm,
    cholesky_p,
    eigh_p,
    inv_p,
    lu_p,
    qr_p,
    svd_p,
)


def _batched_lowering(ctx, i: int = 0) -> tuple[str, int]:
    """Operand i as a C-contiguous `(batch, m, n)` array, and the batch size."""
    *lead, m, n = ctx.in_shape(i)
    batch = math.prod(lead)
    return ctx.assign("mat", reshape(ctx.array(i), (batch, m, n))), batch


def _empty_outputs_lowering(ctx, eqn) -> list[str] | None:
    """For matrices with a zero dimension: the constant results (None if there are none)."""
    aval = ctx.in_avals[0]
    if aval.shape[-1] and aval.shape[-2]:
        return None
    outs = eqn.prim.impl(np.zeros(aval.shape, aval.dtype), **eqn.params)
    outs = outs if eqn.prim.multiple_results else [outs]
    exprs = []
    for out, want in zip(outs, ctx.out_avals):
        out = np.asarray(out, want.dtype)
        flat = out.reshape(-1)
        if flat.size and not (flat == flat[0]).all():
            raise LoweringError(f"{eqn.prim.name} of an empty {aval.shape} matrix")
        fill = const(flat[0].item() if flat.size else 0, want.dtype)
        if want.shape == ():
            exprs.append(fill)
        else:
            exprs.append(ctx.assign("e", f"np.full({want.shape}, {fill}, {np_type(want.dtype)})"))
    return exprs


def _outputs_lowering(ctx, batch: int) -> list[str]:
    """One new `(batch, ...)` array per output (the output with its batch axes flattened)."""
    lead = ctx.in_avals[0].ndim - 2
    return [
        ctx.assign(
            "o", f"rt.empty({shape_text((batch, *ctx.out_shape(k)[lead:]))}, {np_type(o.dtype)})"
        )
        for k, o in enumerate(ctx.out_avals)
    ]


def _finish_lowering(ctx, names: list[str]) -> list[str]:
    """The `(batch, ...)` results reshaped to the output shapes (scalars for 0-d outputs)."""
    return [
        f"rt.ld({name}, 0)"
        if aval.shape == ()
        else ctx.assign("o", reshape(name, ctx.out_shape(k)))
        for k, (name, aval) in enumerate(zip(names, ctx.out_avals))
    ]


def _lapack_kind(dtype) -> int:
    """LAPACK's type letter for `dtype` (as numba's wrappers take it: a char code)."""
    return ord({"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[str(dtype)])


def _getrf(dtype, m, n, w: str, lda, piv: str) -> str:
    """The call of LAPACK's getrf on the F-order `(m, n)` matrix in `w` (leading dimension
    `lda`), 1-based pivots into `piv`; its value is getrf's `info`."""
    kind = _lapack_kind(dtype)
    pointers = f"rt.ptr({w}, 0), {lda}, rt.ptr({piv}, 0)"
    return f"rt.lapack.getrf_{dtype}(np.int8({kind}), {m}, {n}, {pointers})"


def _at(b, i, j, m, n) -> str:
    """The flat offset of element `[b, i, j]` of a C `(batch, m, n)` array (the kernel
    language's `rt.ld`/`rt.st` offsets, which the lean back end lowers: no numba subscripts)."""
    return f"({b} * {m} + {i}) * {n} + {j}"


def _lapack_on_copy_lowering(
    ctx, a: str, b: str, m, n, w: str, ok: str, call: str, flip: str = ""
) -> None:
    """`ok` = whether matrix `b` of the C `(batch, m, n)` array `a` is finite (numba's
    `_check_finite_matrix`) and LAPACK call `call` returned 0 on its copy in `w`, F order
    (leading dimension `m`; `flip` ".T" or ".T.conj()": its transpose, an `(n, m)` matrix, as
    numba's `np.linalg.eigh` of `a.T` copies it), called only if it is finite."""
    ctx.line(f"{ok} = True")
    i, j, x = (ctx.new_name(p) for p in ("i", "j", "x"))
    with ctx.block(f"for {i} in range({m}):"), ctx.block(f"for {j} in range({n}):"):
        ctx.line(f"{x} = rt.ld({a}, {_at(b, i, j, m, n)})")
        value = f"np.{ctx.in_avals[0].dtype}(complex({x}.real, -{x}.imag))" if "conj" in flip else x
        ctx.line(f"rt.st({w}, {f'{i} * {n} + {j}' if flip else f'{j} * {m} + {i}'}, {value})")
        with ctx.block(f"if not np.isfinite({x}):"):
            ctx.line(f"{ok} = False")
    with ctx.block(f"if {ok}:"):
        ctx.line(f"{ok} = {call} == 0")


def _from_fortran_lowering(ctx, o: str, b: str, m, n, w: str, ld, ok: str) -> None:
    """`o[b] = w` (`o` a C `(batch, m, n)` array, `w` an F-order matrix of leading dimension
    `ld`), NaN where not `ok`."""
    i, j = ctx.new_name("i"), ctx.new_name("j")
    with ctx.block(f"for {i} in range({m}):"), ctx.block(f"for {j} in range({n}):"):
        value = f"rt.ld({w}, {j} * {ld} + {i}) if {ok} else np.nan"
        ctx.line(f"rt.st({o}, {_at(b, i, j, m, n)}, {value})")


def _inv_lowering(ctx, eqn):
    """numba's `np.linalg.inv` per matrix (the finiteness check, an F-order copy, LAPACK's
    getrf and getri), calling LAPACK directly (`core/jit/lapack.py`); NaN where it raises."""
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    a, batch = _batched_lowering(ctx)
    (o,) = _outputs_lowering(ctx, batch)
    n = ctx.in_shape(0)[-1]
    dtype = ctx.in_avals[0].dtype
    k = _lapack_kind(dtype)
    w = ctx.assign("w", f"rt.empty(({n}, {n}), {np_type(dtype)})")  # a's F-order copy
    piv = ctx.assign("piv", f"rt.empty(({n},), np.int32)")
    b, ok = ctx.new_name("bt"), ctx.new_name("ok")
    with ctx.block(f"for {b} in range({batch}):"):
        _lapack_on_copy_lowering(ctx, a, b, n, n, w, ok, _getrf(dtype, n, n, w, n, piv))
        with ctx.block(f"if {ok}:"):
            call = (
                f"rt.lapack.getri_{dtype}(np.int8({k}), {n}, rt.ptr({w}, 0), {n}, rt.ptr({piv}, 0))"
            )
            ctx.line(f"{ok} = {call} == 0")
        _from_fortran_lowering(ctx, o, b, n, n, w, n, ok)
    return _finish_lowering(ctx, [o])


register_lowering(inv_p, Kernel(_inv_lowering))


def _lu_lowering(ctx, eqn):
    """LAPACK's getrf per matrix (`core/jit/lapack.py`) on an F-order copy, as JAX's CPU
    lowering calls it: the factors copied back, the 1-based pivots made 0-based, and the
    permutation made from them by swaps (JAX's `lu_pivots_to_permutation`)."""
    *_, m, n = ctx.in_shape(0)
    dtype = ctx.in_avals[0].dtype
    a, batch = _batched_lowering(ctx)
    lu, piv, perm = _outputs_lowering(ctx, batch)
    k = ctx.assign("k", f"min({m}, {n})")
    lda = ctx.assign("lda", f"max({m}, 1)")
    w = ctx.assign("w", f"rt.empty(({n}, {lda}), {np_type(dtype)})")  # a's F-order copy
    ipiv = ctx.assign("ipiv", f"rt.empty((max({k}, 1),), np.int32)")
    b, i, j, p, t, info = (ctx.new_name(x) for x in ("bt", "i", "j", "p", "t", "info"))
    with ctx.block(f"for {b} in range({batch}):"):
        with ctx.block(f"for {i} in range({m}):"), ctx.block(f"for {j} in range({n}):"):
            ctx.line(f"rt.st({w}, {j} * {lda} + {i}, rt.ld({a}, {_at(b, i, j, m, n)}))")
        ctx.line(f"{info} = np.int32(0)")  # getrf's int
        with ctx.block(f"if {k} > 0:"):
            ctx.line(f"{info} = {_getrf(dtype, m, n, w, lda, ipiv)}")
        with ctx.block(f"for {i} in range({m}):"), ctx.block(f"for {j} in range({n}):"):
            value = f"rt.ld({w}, {j} * {lda} + {i}) if {info} >= 0 else np.nan"
            ctx.line(f"rt.st({lu}, {_at(b, i, j, m, n)}, {value})")
        with ctx.block(f"for {i} in range({m}):"):
            ctx.line(f"rt.st({perm}, {b} * {m} + {i}, {i})")
        with ctx.block(f"for {i} in range({k}):"):
            ctx.line(f"{p} = rt.ld({ipiv}, {i}) - 1")
            ctx.line(f"rt.st({piv}, {b} * {k} + {i}, {p})")
            ctx.line(f"{t} = rt.ld({perm}, {b} * {m} + {i})")
            ctx.line(f"rt.st({perm}, {b} * {m} + {i}, rt.ld({perm}, {b} * {m} + {p}))")
            ctx.line(f"rt.st({perm}, {b} * {m} + {p}, {t})")
    return _finish_lowering(ctx, [lu, piv, perm])


register_lowering(lu_p, Kernel(_lu_lowering))


def _cholesky_lowering(ctx, eqn):
    """numba's `np.linalg.cholesky` per matrix (a C-order copy, LAPACK's potrf of its upper
    triangle in F order, the upper triangle zeroed), calling LAPACK directly
    (`core/jit/lapack.py`); one failure makes the whole batch NaN, like numpy."""
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    a, batch = _batched_lowering(ctx)
    n = ctx.in_shape(0)[-1]
    dtype = ctx.in_avals[0].dtype
    o = ctx.assign("o", f"rt.copy({a})")
    b, i, j, bad = (ctx.new_name(p) for p in ("bt", "i", "j", "bad"))
    ctx.line(f"{bad} = False")
    with ctx.block(f"for {b} in range({batch}):"):
        call = f"rt.lapack.potrf_{dtype}(np.int8({_lapack_kind(dtype)}), np.int8({ord('U')}), "
        with ctx.block(f"if {call}{n}, rt.ptr({o}, {b} * {n} * {n}), {n}) != 0:"):
            ctx.line(f"{bad} = True")
    loops = (f"for {b} in range({batch}):", f"for {i} in range({n}):", f"for {j} in range({n}):")
    with ctx.block(loops[0]), ctx.block(loops[1]), ctx.block(loops[2]):
        with ctx.block(f"if {bad}:"):
            ctx.line(f"rt.st({o}, {_at(b, i, j, n, n)}, np.nan)")
        with ctx.block(f"elif {j} > {i}:"):
            ctx.line(f"rt.st({o}, {_at(b, i, j, n, n)}, 0)")
    return _finish_lowering(ctx, [o])


register_lowering(cholesky_p, Kernel(_cholesky_lowering))


def _qr_lowering(ctx, eqn):
    *_, m, n = ctx.in_shape(0)
    if not eqn.params["full_matrices"] or m <= n:  # the shapes of numba's reduced mode
        return _reduced_qr_lowering(ctx, eqn)
    if ctx.in_avals[0].dtype.kind == "c":
        raise LoweringError(
            "qr(full_matrices=True) of complex matrices with more rows than columns"
        )
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    a, batch = _batched_lowering(ctx)
    q, r = _outputs_lowering(ctx, batch)
    b = ctx.new_name("bt")
    with ctx.block(f"for {b} in range({batch}):"):
        _householder_qr_lowering(
            ctx, f"{a}[{b}]", f"{q}[{b}]", f"{r}[{b}]", m, n, ctx.in_avals[0].dtype
        )
    return _finish_lowering(ctx, [q, r])


def _reduced_qr_lowering(ctx, eqn):
    """numba's `np.linalg.qr` per matrix: LAPACK's geqrf on an F-order copy, R taken from its
    upper triangle (zeros below), then orgqr/ungqr making Q of the first `min(m, n)` columns;
    NaN where numba raises (an element not finite, no convergence)."""
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    *_, m, n = ctx.in_shape(0)
    k = min(m, n)
    dtype = ctx.in_avals[0].dtype
    kind = _lapack_kind(dtype)
    a, batch = _batched_lowering(ctx)
    q, r = _outputs_lowering(ctx, batch)
    w = ctx.assign("w", f"rt.empty(({n}, {m}), {np_type(dtype)})")  # a's F-order copy
    tau = ctx.assign("tau", f"rt.empty(({k},), {np_type(dtype)})")
    b, i, j, ok = (ctx.new_name(p) for p in ("bt", "i", "j", "ok"))
    pointers = f"rt.ptr({w}, 0), {m}, rt.ptr({tau}, 0)"
    with ctx.block(f"for {b} in range({batch}):"):
        call = f"rt.lapack.geqrf_{dtype}(np.int8({kind}), {m}, {n}, {pointers})"
        _lapack_on_copy_lowering(ctx, a, b, m, n, w, ok, call)
        with ctx.block(f"for {i} in range({k}):"), ctx.block(f"for {j} in range({n}):"):
            with ctx.block(f"if {i} <= {j}:"):
                ctx.line(f"rt.st({r}, {_at(b, i, j, k, n)}, rt.ld({w}, {j} * {m} + {i}))")
            with ctx.block("else:"):
                ctx.line(f"rt.st({r}, {_at(b, i, j, k, n)}, 0)")
        with ctx.block(f"if {ok}:"):
            call = f"rt.lapack.gqr_{dtype}(np.int8({kind}), {m}, {k}, {k}, {pointers})"
            ctx.line(f"{ok} = {call} == 0")
        _from_fortran_lowering(ctx, q, b, m, k, w, m, ok)
        with ctx.block(f"if not {ok}:"), ctx.block(f"for {i} in range({k} * {n}):"):
            ctx.line(f"rt.st({r}, {b} * {k * n} + {i}, np.nan)")
    return _finish_lowering(ctx, [q, r])


_HOUSEHOLDER = """\
{r}[:, :] = {a}
{q}[:, :] = 0
for {j} in range({m}):
    {q}[{j}, {j}] = 1
{taus} = np.zeros({n}, {dt})
for {j} in range({n}):
    {alpha} = {r}[{j}, {j}]
    {acc} = {dt}(0)
    for {i} in range({j} + 1, {m}):
        {acc} += {r}[{i}, {j}] * {r}[{i}, {j}]
    if {acc} == 0:
        continue
    {beta} = -np.copysign(np.hypot({alpha}, np.sqrt({acc})), {alpha})
    {taus}[{j}] = ({beta} - {alpha}) / {beta}
    {acc} = 1 / ({alpha} - {beta})
    for {i} in range({j} + 1, {m}):
        {r}[{i}, {j}] *= {acc}
    {r}[{j}, {j}] = 1
    for {c} in range({j} + 1, {n}):
        {acc} = {dt}(0)
        for {i} in range({j}, {m}):
            {acc} += {r}[{i}, {j}] * {r}[{i}, {c}]
        {acc} *= {taus}[{j}]
        for {i} in range({j}, {m}):
            {r}[{i}, {c}] -= {r}[{i}, {j}] * {acc}
    {r}[{j}, {j}] = {beta}
for {j} in range({n} - 1, -1, -1):
    if {taus}[{j}] == 0:
        continue
    {beta} = {r}[{j}, {j}]
    {r}[{j}, {j}] = 1
    for {c} in range({j}, {m}):
        {acc} = {dt}(0)
        for {i} in range({j}, {m}):
            {acc} += {r}[{i}, {j}] * {q}[{i}, {c}]
        {acc} *= {taus}[{j}]
        for {i} in range({j}, {m}):
            {q}[{i}, {c}] -= {r}[{i}, {j}] * {acc}
    {r}[{j}, {j}] = {beta}
for {j} in range({n}):
    for {i} in range({j} + 1, {m}):
        {r}[{i}, {j}] = 0
"""


def _householder_qr_lowering(ctx, a, q, r, m, n, dtype) -> None:
    names = {k: ctx.new_name(f"h{k}") for k in ("i", "j", "c", "taus", "alpha", "acc", "beta")}
    code = _HOUSEHOLDER.format(a=a, q=q, r=r, m=m, n=n, dt=np_type(dtype), **names)
    for line in code.splitlines():
        ctx.line(line)


register_lowering(qr_p, Kernel(_qr_lowering))


def _eigh_lowering(ctx, eqn):
    """numba's `np.linalg.eigh` per matrix: LAPACK's syevd/heevd (vectors, lower triangle) on an
    F-order copy; numba reads the lower triangle, and the upper one of `a` is the lower one of
    `a^H`, so `a^H` is decomposed instead; NaN where numba raises."""
    check_cpu_algorithm("eigh", eqn.params)
    flip = "" if eqn.params["lower"] else ".T.conj()" if ctx.in_avals[0].dtype.kind == "c" else ".T"
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    n = ctx.in_shape(0)[-1]
    dtype = ctx.in_avals[0].dtype
    a, batch = _batched_lowering(ctx)
    v, w = _outputs_lowering(ctx, batch)
    vw = ctx.assign("vw", f"rt.empty(({n}, {n}), {np_type(dtype)})")  # a's F-order copy
    ww = ctx.assign("ww", f"rt.empty(({n},), {np_type(ctx.out_avals[1].dtype)})")
    b, i, ok = (ctx.new_name(p) for p in ("bt", "i", "ok"))
    letters = f"np.int8({_lapack_kind(dtype)}), np.int8({ord('V')}), np.int8({ord('L')})"
    call = f"rt.lapack.evd_{dtype}({letters}, {n}, rt.ptr({vw}, 0), {n}, rt.ptr({ww}, 0))"
    with ctx.block(f"for {b} in range({batch}):"):
        _lapack_on_copy_lowering(ctx, a, b, n, n, vw, ok, call, flip)
        with ctx.block(f"for {i} in range({n}):"):
            ctx.line(f"rt.st({w}, {b} * {n} + {i}, rt.ld({ww}, {i}) if {ok} else np.nan)")
        _from_fortran_lowering(ctx, v, b, n, n, vw, n, ok)
    return _finish_lowering(ctx, [v, w])


register_lowering(eigh_p, Kernel(_eigh_lowering))


def _svd_lowering(ctx, eqn):
    """numba's `np.linalg.svd` per matrix: LAPACK's gesdd on an F-order copy (all of U and V^H
    with `full_matrices`, else their first `min(m, n)` columns and rows; singular values alone
    as numba's `svd(a, False)` computes them); the primitive's results are JAX's `(s, u, vh)`;
    NaN where numba raises."""
    check_cpu_algorithm("svd", eqn.params)
    empty = _empty_outputs_lowering(ctx, eqn)
    if empty is not None:
        return empty
    *_, m, n = ctx.in_shape(0)
    k = min(m, n)
    dtype = ctx.in_avals[0].dtype
    full = eqn.params["full_matrices"] and eqn.params["compute_uv"]
    cols, rows = (m, n) if full else (k, k)  # of U, of V^H
    a, batch = _batched_lowering(ctx)
    outs = _outputs_lowering(ctx, batch)
    t = np_type(dtype)
    w = ctx.assign("w", f"rt.empty(({n}, {m}), {t})")  # a's F-order copy
    sw = ctx.assign("sw", f"rt.empty(({k},), {np_type(ctx.out_avals[0].dtype)})")
    uw = ctx.assign("uw", f"rt.empty(({cols}, {m}), {t})")
    vw = ctx.assign("vw", f"rt.empty(({n}, {rows}), {t})")
    b, i, ok = (ctx.new_name(p) for p in ("bt", "i", "ok"))
    letters = f"np.int8({_lapack_kind(dtype)}), np.int8({ord('A' if full else 'S')})"
    arrays = f"rt.ptr({w}, 0), {m}, rt.ptr({sw}, 0), rt.ptr({uw}, 0), {m}, rt.ptr({vw}, 0)"
    call = f"rt.lapack.gesdd_{dtype}({letters}, {m}, {n}, {arrays}, {rows})"
    with ctx.block(f"for {b} in range({batch}):"):
        _lapack_on_copy_lowering(ctx, a, b, m, n, w, ok, call)
        with ctx.block(f"for {i} in range({k}):"):
            ctx.line(f"rt.st({outs[0]}, {b} * {k} + {i}, rt.ld({sw}, {i}) if {ok} else np.nan)")
        if eqn.params["compute_uv"]:
            _from_fortran_lowering(ctx, outs[1], b, m, cols, uw, m, ok)
            _from_fortran_lowering(ctx, outs[2], b, rows, n, vw, rows, ok)
    return _finish_lowering(ctx, outs)


register_lowering(svd_p, Kernel(_svd_lowering))
