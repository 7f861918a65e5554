"""Numba lowering of `conv_general_dilated`: im2col into a cache-sized buffer, then BLAS.

Every convolution is a matrix product once its input patches are laid out as rows. The rule
emits, with every size and parameter a constant, a loop nest that fills the patch matrix from
an (N, spatial..., C) array: padding, lhs dilation (zeros between input elements) and rhs
dilation live in the index arithmetic, so no padded or dilated copy is made, and the innermost
loop copies channels contiguously. The batch is processed in chunks so that what one product
touches (patches and output rows) stays in L2 between the fill and the `np.dot` that consumes
it: measured here, a 1-channel conv's GEMMs run 2-4x faster in 512 KB chunks than in 2 MB ones.

Three layouts are handled without moving the big operands:

  forward   lhs (N, S.., C), rhs (K.., I, O), out (N, Q.., O) (NHWC/HWIO/NHWC): rows are
            (n, q..), columns (k.., c); out = patches @ rhs. Other layouts are transposed into
            this one first (a copy); feature and batch groups run one product per group.
  kernel    the kernel gradient of the forward layout, where lhs is the activations with batch
  gradient  and features swapped, (C, S.., N), rhs the output cotangent (I, K.., O) and the
            result (Q.., N, O): the same patch matrix of the activations (rows (c, k..),
            columns (q.., n)), transposed into BLAS: out = sum over chunks of patches.T @ rhs.
  output    when y below is smaller than the patch matrix (O * S.. < C * Q..: more input
  side      features than output ones, e.g. the input gradient), the product comes first,
            y[(n, s..), (k.., o)] = lhs[(n, s..), c] @ rhs[c, (k.., o)], and each output
            position sums its k.. taps of y: half the intermediate of the patch matrix for
            the CNN's input gradient, and for lhs-dilated convs (gradients of strided ones) no
            product with the inserted zeros. Ungrouped convs only.
"""

from __future__ import annotations

import contextlib

import numpy as np

from core.jit.loops import combine, identity
from core.jit.lowering import Kernel, alloc, cast, const, np_type
from core.prims import windows
from core.prims.conv import conv_general_dilated_p

_CHUNK = 1 << 17  # elements one chunk's product touches (512 KB of float32: in L2)


def _roles(spec, names) -> list[str]:
    """The role name of each array axis, from a spec listing the axis of each role."""
    roles = [""] * len(spec)
    for axis, name in zip(spec, names):
        roles[axis] = name
    return roles


def _arrange(ctx, name: str, have: list[str], want: list[str]) -> str:
    """Array `name`, whose axes play the roles `have`, with its axes in role order `want`
    (a transposed copy unless they already are)."""
    if have == want:
        return name
    perm = tuple(have.index(r) for r in want)
    return ctx.assign("t", f"rt.contiguous({name}.transpose({perm}))")


def _layout(ctx, i: int, roles: list[str]) -> tuple[str, list[str]]:
    """Input `i` as a C-contiguous array (a transposed view costs nothing) and its axes' roles."""
    name, axes = ctx.array_layout(i)
    return name, [roles[a] for a in axes]


def _matmul(ctx, a: str, b: str, out: str, dtype, shape: tuple[int, int, int]) -> None:
    """`out = a @ b` (2-d): BLAS for floats, a loop for integers."""
    if np.dtype(dtype).kind in "fc":
        ctx.line(f"rt.dot({a}, {b}, {out})")
        return
    m, k, n = shape
    i, j, q = (ctx.em.new_name(p) for p in ("mi", "mj", "mk"))
    with ctx.block(f"for {i} in range({m}):"):
        with ctx.block(f"for {j} in range({n}):"):
            ctx.line(f"{out}[{i}, {j}] = {const(0, dtype)}")
        with ctx.block(f"for {q} in range({k}):"):
            av = ctx.assign("av", f"{a}[{i}, {q}]")
            with ctx.block(f"for {j} in range({n}):"):
                ctx.line(f"{out}[{i}, {j}] += {av} * {b}[{q}, {j}]")


def _im2col(ctx, x, patches, nb, first, rows, cols, lo, ld, size, chan, dtype) -> None:
    """Fills `patches[(b, a..), (t.., c)] = x[first + b, pos.., chan[0] + c]` for b < nb, where
    pos_d = a_d * rows[d][1] + t_d * cols[d][1] - lo[d] on the lhs-dilated axis (0 off the
    input). `rows`/`cols` are (size, multiplier) per spatial axis; `chan` is (offset, count)."""
    b = ctx.em.new_name("pb")
    a = [ctx.em.new_name("pa") for _ in rows]
    t = [ctx.em.new_name("pt") for _ in cols]
    coff, cn = chan
    zero = const(0, dtype)
    with ctx.block(f"for {b} in range({nb}):"):
        depth = 1
        for d, (n, _) in enumerate(rows):
            ctx.em.line(f"for {a[d]} in range({n}):")
            ctx.em.depth += 1
            depth += 1
        row = b
        for d, (n, _) in enumerate(rows):
            row = f"({row}) * {n} + {a[d]}"
        row = ctx.assign("row", row)
        ok, src = "True", []
        for d, (n, m) in enumerate(cols):
            ctx.em.line(f"for {t[d]} in range({n}):")
            ctx.em.depth += 1
            depth += 1
            pos = ctx.assign("pp", f"{a[d]} * {rows[d][1]} + {t[d]} * {m} - {lo[d]}")
            if ld[d] > 1:
                ok = ctx.assign(
                    "ok",
                    f"{ok} and {pos} >= 0 and {pos} % {ld[d]} == 0 and {pos} < {size[d] * ld[d]}",
                )
                src.append(f"{pos} // {ld[d]}")
            else:
                ok = ctx.assign("ok", f"{ok} and {pos} >= 0 and {pos} < {size[d]}")
                src.append(pos)
        col = "0"
        for d, (n, _) in enumerate(cols):
            col = f"({col}) * {n} + {t[d]}"
        col = ctx.assign("col", f"({col}) * {cn}")
        c = ctx.em.new_name("pc")
        value = f"{x}[{first} + {b}, {', '.join(src)}, {coff} + {c}]"
        if np.dtype(dtype) != ctx.in_avals[0].dtype:
            value = cast(value, dtype)
        with ctx.block(f"if {ok}:"), ctx.block(f"for {c} in range({cn}):"):
            ctx.line(f"{patches}[{row}, {col} + {c}] = {value}")
        with ctx.block("else:"), ctx.block(f"for {c} in range({cn}):"):
            ctx.line(f"{patches}[{row}, {col} + {c}] = {zero}")
        ctx.em.depth -= depth - 1


def _step(total: int, per: int) -> int:
    """Items per chunk so the elements a chunk's product touches (`per` an item) fit the
    budget."""
    return max(1, min(total, _CHUNK // max(per, 1)))


@contextlib.contextmanager
def _chunks(ctx, total: int, step: int):
    """A loop over `total` items in chunks of `step` (none when one chunk holds all);
    yields the (start, count) expressions."""
    if step >= total:
        yield "0", str(total)
        return
    s = ctx.em.new_name("ch")
    with ctx.block(f"for {s} in range(0, {total}, {step}):"):
        yield s, ctx.assign("nb", f"min({step}, {total} - {s})")


def _conv(ctx, eqn):
    p = eqn.params
    lhs_spec, rhs_spec, out_spec = p["dimension_numbers"]
    fgc, bgc = p["feature_group_count"], p["batch_group_count"]
    xa, wa = ctx.in_avals
    oa = ctx.out_avals[0]
    dt = oa.dtype
    if oa.size == 0 or xa.size == 0 or wa.size == 0:
        return [ctx.assign("o", alloc(oa.shape, dt, const(0, dt)))]
    nsp = xa.ndim - 2
    sp = [f"s{d}" for d in range(nsp)]
    lroles = _roles(lhs_spec, ["N", "C", *sp])
    rroles = _roles(rhs_spec, ["O", "I", *sp])
    oroles = _roles(out_spec, ["N", "O", *sp])
    size = [xa.shape[lhs_spec[2 + d]] for d in range(nsp)]
    ks = [wa.shape[rhs_spec[2 + d]] for d in range(nsp)]
    qs = [oa.shape[out_spec[2 + d]] for d in range(nsp)]
    n, c = xa.shape[lhs_spec[0]], xa.shape[lhs_spec[1]]
    o, i = wa.shape[rhs_spec[0]], wa.shape[rhs_spec[1]]
    lo = [pad[0] for pad in p["padding"]]
    ws, ld, rd = p["window_strides"], p["lhs_dilation"], p["rhs_dilation"]
    kprod, qprod = int(np.prod(ks)), int(np.prod(qs))

    x, xorder = _layout(ctx, 0, lroles)
    w, worder = _layout(ctx, 1, rroles)
    if (
        fgc == bgc == 1
        and xorder == ["C", *sp, "N"]
        and worder == ["I", *sp, "O"]
        and oroles == [*sp, "N", "O"]
    ):
        return [_kernel_gradient(ctx, x, w, oa, n, c, o, size, ks, qs, lo, ld, rd, ws)]

    x = _arrange(ctx, x, xorder, ["N", *sp, "C"])
    if fgc == bgc == 1 and int(np.prod(size)) * o < qprod * c:
        w = _arrange(ctx, w, worder, ["I", *sp, "O"])
        out = _output_side(ctx, x, w, oa, n, c, o, size, ks, qs, lo, ld, rd, ws)
        return [
            ctx.assign("o", f"{_arrange(ctx, out, ['N', *sp, 'O'], oroles)}.reshape({oa.shape})")
        ]
    w = _arrange(ctx, w, worder, [*sp, "I", "O"])
    wm = ctx.assign("wm", f"{w}.reshape(({kprod * i}, {o}))")
    if wa.dtype != dt:
        wm = ctx.assign("wm", f"{wm}.astype({np_type(dt)})")
    groups = max(fgc, bgc)
    nout, og = n // bgc, o // groups
    out = ctx.assign("o", alloc((nout * qprod, o), dt))
    rows = list(zip(qs, ws))
    cols = list(zip(ks, rd))
    width = kprod * i
    for g in range(groups):
        first = g * nout if bgc > 1 else 0
        chan = (g * i if fgc > 1 else 0, i)
        wg = wm
        if groups > 1:
            wg = ctx.assign("wg", f"rt.contiguous({wm}[:, {g * og}:{(g + 1) * og}])")
        step = _step(nout, qprod * (width + og))
        buf = ctx.assign("pm", alloc((step * qprod, width), dt))
        tmp = ctx.assign("pr", alloc((step * qprod, og), dt)) if groups > 1 else ""
        with _chunks(ctx, nout, step) as (start, nb):
            _im2col(ctx, x, buf, nb, f"{first} + {start}", rows, cols, lo, ld, size, chan, dt)
            m = ctx.assign("m", f"{nb} * {qprod}")
            r0 = ctx.assign("r0", f"{start} * {qprod}")
            if groups == 1:
                _matmul(ctx, f"{buf}[:{m}]", wg, f"{out}[{r0}:{r0} + {m}]", dt, (m, width, og))
                continue
            _matmul(ctx, f"{buf}[:{m}]", wg, f"{tmp}[:{m}]", dt, (m, width, og))
            r, j = ctx.em.new_name("gr"), ctx.em.new_name("gj")
            with ctx.block(f"for {r} in range({m}):"), ctx.block(f"for {j} in range({og}):"):
                ctx.line(f"{out}[{r0} + {r}, {g * og} + {j}] = {tmp}[{r}, {j}]")
    out = ctx.assign("o", f"{out}.reshape({(nout, *qs, o)})")
    return [ctx.assign("o", f"{_arrange(ctx, out, ['N', *sp, 'O'], oroles)}.reshape({oa.shape})")]


def _output_side(ctx, x, w, oa, n, c, o, size, ks, qs, lo, ld, rd, ws) -> str:
    """out[(n, q..), o] = sum over k.. of y[(n, s..), (k.., o)] at s = q * ws + k * rd - lo
    (divided by ld; no term off the input or between dilated elements), where
    y = x[(n, s..), c] @ w[c, (k.., o)] is computed a cache-sized chunk of the batch at a time."""
    dt = oa.dtype
    sprod, kprod, qprod = int(np.prod(size)), int(np.prod(ks)), int(np.prod(qs))
    width = kprod * o
    xm = ctx.assign("xm", f"{x}.reshape(({n * sprod}, {c}))")
    if ctx.in_avals[0].dtype != dt:
        xm = ctx.assign("xm", f"{xm}.astype({np_type(dt)})")
    wm = ctx.assign("wm", f"{w}.reshape(({c}, {width}))")
    if ctx.in_avals[1].dtype != dt:
        wm = ctx.assign("wm", f"{wm}.astype({np_type(dt)})")
    out = ctx.assign("o", alloc((n * qprod, o), dt))
    step = _step(n, sprod * (width + c) + qprod * o)
    buf = ctx.assign("py", alloc((step * sprod, width), dt))
    zero = const(0, dt)
    with _chunks(ctx, n, step) as (start, nb):
        m = ctx.assign("m", f"{nb} * {sprod}")
        r0 = ctx.assign("r0", f"{start} * {sprod}")
        _matmul(ctx, f"{xm}[{r0}:{r0} + {m}]", wm, f"{buf}[:{m}]", dt, (m, c, width))
        b = ctx.em.new_name("gb")
        q = [ctx.em.new_name("gq") for _ in qs]
        k = [ctx.em.new_name("gk") for _ in ks]
        j = ctx.em.new_name("gj")
        with ctx.block(f"for {b} in range({nb}):"):
            depth = ctx.em.depth
            for name, extent in zip(q, qs):
                ctx.em.line(f"for {name} in range({extent}):")
                ctx.em.depth += 1
            row = ctx.assign("row", _flat([f"{start} + {b}", *q], [n, *qs]))
            with ctx.block(f"for {j} in range({o}):"):
                ctx.line(f"{out}[{row}, {j}] = {zero}")
            ok, src = "True", []
            for d in range(len(qs)):
                ctx.em.line(f"for {k[d]} in range({ks[d]}):")
                ctx.em.depth += 1
                pos = ctx.assign("gp", f"{q[d]} * {ws[d]} + {k[d]} * {rd[d]} - {lo[d]}")
                if ld[d] > 1:
                    ok = ctx.assign(
                        "ok",
                        f"{ok} and {pos} >= 0 and {pos} % {ld[d]} == 0 "
                        f"and {pos} < {size[d] * ld[d]}",
                    )
                    src.append(f"{pos} // {ld[d]}")
                else:
                    ok = ctx.assign("ok", f"{ok} and {pos} >= 0 and {pos} < {size[d]}")
                    src.append(pos)
            srow = ctx.assign("srow", _flat([b, *src], [n, *size]))
            col = ctx.assign("col", f"({_flat(k, ks)}) * {o}")
            with ctx.block(f"if {ok}:"), ctx.block(f"for {j} in range({o}):"):
                ctx.line(f"{out}[{row}, {j}] += {buf}[{srow}, {col} + {j}]")
            ctx.em.depth = depth
    return ctx.assign("o", f"{out}.reshape({(n, *qs, o)})")


def _kernel_gradient(ctx, x, w, oa, n, c, o, size, ks, qs, lo, ld, rd, ws) -> str:
    """out[(q.., n), o] = sum over (c, k..) of x[c, k * rd + q * ws - lo, n] * w[(c, k..), o]."""
    dt = oa.dtype
    kprod, qprod = int(np.prod(ks)), int(np.prod(qs))
    width = qprod * n
    wm = ctx.assign("wm", f"{w}.reshape(({c * kprod}, {o}))")
    if ctx.in_avals[1].dtype != dt:
        wm = ctx.assign("wm", f"{wm}.astype({np_type(dt)})")
    step = _step(c, kprod * (width + o))
    single = step >= c
    acc = ctx.assign("o", alloc((width, o), dt, None if single else const(0, dt)))
    rows = list(zip(ks, rd))
    cols = list(zip(qs, ws))
    buf = ctx.assign("pm", alloc((step * kprod, width), dt))
    tmp = acc if single else ctx.assign("pr", alloc((width, o), dt))
    with _chunks(ctx, c, step) as (start, nb):
        _im2col(ctx, x, buf, nb, start, rows, cols, lo, ld, size, (0, n), dt)
        m = ctx.assign("m", f"{nb} * {kprod}")
        r0 = ctx.assign("r0", f"{start} * {kprod}")
        _matmul(ctx, f"{buf}[:{m}].T", f"{wm}[{r0}:{r0} + {m}]", tmp, dt, (width, m, o))
        if single:
            return ctx.assign("o", f"{acc}.reshape({oa.shape})")
        r, j = ctx.em.new_name("gr"), ctx.em.new_name("gj")
        with ctx.block(f"for {r} in range({width}):"), ctx.block(f"for {j} in range({o}):"):
            ctx.line(f"{acc}[{r}, {j}] += {tmp}[{r}, {j}]")
    return ctx.assign("o", f"{acc}.reshape({oa.shape})")


conv_general_dilated_p.def_lowering(Kernel(_conv))


# ---------------------------------------------------------------------------------------------
# Windowed reductions and the selections of max/min pooling (any rank)


def _window_walk(ctx, x_shape, out_shape, p, before, tap, after) -> None:
    """Emits a loop over every output element (flat index `before(o)`/`after(o)`) and, inside,
    over its window's taps that fall on the operand (`tap(flat operand index)`). Padding and
    base dilation are skipped in the index arithmetic; checks are emitted only where a tap can
    fall outside."""
    dims, strides, pads = p["window_dimensions"], p["window_strides"], p["padding"]
    bdil, wdil = p["base_dilation"], p["window_dilation"]
    o_idx = [ctx.em.new_name("wo") for _ in out_shape]
    opened = 0
    for name, n in zip(o_idx, out_shape):
        ctx.em.line(f"for {name} in range({n}):")
        ctx.em.depth += 1
        opened += 1
    oflat = ctx.assign("of", _flat(o_idx, out_shape))
    before(oflat)
    inner = ctx.em.depth
    src, checks = [], []
    for d, size in enumerate(x_shape):
        pos = f"{o_idx[d]} * {strides[d]} - {pads[d][0]}"
        if dims[d] > 1:
            k = ctx.em.new_name("wk")
            ctx.em.line(f"for {k} in range({dims[d]}):")
            ctx.em.depth += 1
            pos += f" + {k} * {wdil[d]}"
        pos = ctx.assign("wp", pos)
        lowest = -pads[d][0]
        highest = (out_shape[d] - 1) * strides[d] + (dims[d] - 1) * wdil[d] - pads[d][0]
        if bdil[d] > 1:
            checks.append(f"{pos} % {bdil[d]} == 0")
            pos = f"{pos} // {bdil[d]}"
        if lowest < 0:
            checks.append(f"{pos} >= 0")
        if highest > (size - 1) * bdil[d]:
            checks.append(f"{pos} < {size}")
        src.append(pos)
    if checks:
        ctx.em.line(f"if {' and '.join(f'({c})' for c in checks)}:")
        ctx.em.depth += 1
    tap(ctx.assign("wx", _flat(src, x_shape)))
    ctx.em.depth = inner
    after(oflat)
    ctx.em.depth -= opened


def _flat(index: list[str], shape) -> str:
    expr = "0"
    for i, n in zip(index, shape):
        expr = f"({expr}) * {n} + {i}"
    return expr


def _flat_input(ctx, i: int) -> str:
    return ctx.assign("wf", f"{ctx.array(i)}.reshape({max(ctx.in_avals[i].size, 1)})")


def _reduce_window(kind: str):
    def rule(ctx, eqn):
        xa, oa = ctx.in_avals[0], ctx.out_avals[0]
        ident = identity(kind, xa.dtype)
        out = ctx.assign("o", alloc((max(oa.size, 1),), oa.dtype))
        if xa.size and oa.size:
            x = _flat_input(ctx, 0)
            acc = ctx.em.new_name("wa")
            _window_walk(
                ctx,
                xa.shape,
                oa.shape,
                eqn.params,
                lambda o: ctx.line(f"{acc} = {ident}"),
                lambda i: ctx.line(f"{acc} = {_combine(kind, xa.dtype, acc, f'{x}[{i}]')}"),
                lambda o: ctx.line(f"{out}[{o}] = {acc}"),
            )
        elif oa.size:
            ctx.line(f"{out}[:] = {ident}")
        return [f"{out}[0]" if oa.shape == () else ctx.assign("o", f"{out}.reshape({oa.shape})")]

    return rule


def _combine(kind: str, dtype, acc: str, x: str) -> str:
    if kind == "sum":
        return f"{acc} + {x}" if np.dtype(dtype).kind in "fc" else cast(f"{acc} + {x}", dtype)
    return combine(kind, dtype, acc, x)


def _selection(scatter: bool):
    """select_and_scatter_add (`scatter`) or select_and_gather_add: find each window's first
    maximal/minimal tap of the operand `x` (input 1), then move the values of input 0."""

    def rule(ctx, eqn):
        va, xa = ctx.in_avals
        oa = ctx.out_avals[0]
        kind = eqn.params["select_prim"]
        params = {k: v for k, v in eqn.params.items() if k != "select_prim"}
        out_shape = va.shape if scatter else oa.shape
        out = ctx.assign("o", alloc((max(oa.size, 1),), oa.dtype, const(0, oa.dtype)))
        if xa.size and va.size and oa.size:
            v, x = _flat_input(ctx, 0), _flat_input(ctx, 1)
            best, sel = ctx.em.new_name("wb"), ctx.em.new_name("ws")
            better = ">" if kind == "max" else "<"

            def before(o):
                ctx.line(f"{best} = {identity(kind, xa.dtype)}")
                ctx.line(f"{sel} = -1")

            def tap(i):
                with ctx.block(f"if {sel} < 0 or {x}[{i}] {better} {best}:"):
                    ctx.line(f"{best} = {x}[{i}]")
                    ctx.line(f"{sel} = {i}")

            def after(o):
                with ctx.block(f"if {sel} >= 0:"):
                    if scatter:
                        total = _combine("sum", oa.dtype, f"{out}[{sel}]", f"{v}[{o}]")
                        ctx.line(f"{out}[{sel}] = {total}")
                    else:
                        ctx.line(f"{out}[{o}] = {v}[{sel}]")

            _window_walk(ctx, xa.shape, out_shape, params, before, tap, after)
        return [f"{out}[0]" if oa.shape == () else ctx.assign("o", f"{out}.reshape({oa.shape})")]

    return rule


for _prim, _kind in [
    (windows.reduce_window_sum_p, "sum"),
    (windows.reduce_window_max_p, "max"),
    (windows.reduce_window_min_p, "min"),
]:
    _prim.def_lowering(Kernel(_reduce_window(_kind)))
windows.select_and_gather_add_p.def_lowering(Kernel(_selection(scatter=False)))
windows.select_and_scatter_add_p.def_lowering(Kernel(_selection(scatter=True)))
