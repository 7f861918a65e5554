"""The discrete Fourier transform along one axis, behind `fft_p`'s lowering
(`core/backends/numba/rules/fft.py`): written once, generic over the sizes, so a program with
FFTs of new lengths compiles no transform loops of its own.

Complex values travel as two real arrays (real and imaginary parts, float64 from the rule):
the library's code has no complex dtype (the LLVM translator, `core/backends/llvm`, takes
real arithmetic only). A transform of length `n`, `y_k = sum_j x_j w^(jk)`, `w = exp(sign 2 pi
i / n)`, runs as pocketfft's (FFTPACK's) self-sorting mixed-radix passes, `fft_passes`: `n`
factored into 4s, one 2 (first), 3s, 5s and other odd factors; the pass of factor `p` after
factors of product `l1` takes `cc[i, q, k]` (`i < ido = n / (l1 p)`, `q < p`, `k < l1`) to
`ch[i, k, j] = (sum_q cc[i, q, k] w_p^(jq)) w^(j l1 i)`, ping-ponging between two buffers; the
factors 2, 3, 4, 5 have their own butterflies, others a direct sum over the factor (O(p) per
element). A length whose large prime factors make that dearer than Bluestein's algorithm
(pocketfft's cost estimate: the transform as a convolution with the chirp `exp(sign pi i k^2 /
n)`, by two FFTs of a 2-3-5-smooth length `m >= 2n - 1`) goes through it.

`fft_plan` computes a length's tables once per call of the entry functions, whatever the rows:
the roots `w^k` (`fft_roots`: cos/sin of the first octant as products of a coarse and a fine
table, 2 sqrt(n) calls of each; the rest by symmetry, so quarter turns are exact and small
integer data transform exactly, as pocketfft's do), each pass's twiddles contiguous, and for
Bluestein the chirp and its transform. The entries run rows through `fft_row`: `fft_axis` (a
complex axis; columns of inner axes gathered 8 at a time into rows), `rfft_axis` (a real last
axis: an even length as a half-length complex FFT of the even and odd samples, then one pass
of post-processing) and `irfft_axis` (its inverse, from the first terms of a Hermitian
spectrum; odd lengths complete the spectrum and run a full-length transform).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import copy, jit, segment, zero
from core.backends.numba.library.entry import callee, register
from core.jit import runtime as rt

# Lengths below this never use Bluestein's algorithm (pocketfft's threshold).
DIRECT_MAX = 50
# Columns of an inner axis gathered into rows at a time.
BLOCK = 8
# The plan's int64 vector: n, sign, kind (0 direct, 1 Bluestein), m (the length the passes
# transform), the offset of m's tables in the float tables, the passes' sign, the factor count,
# then the factors.
FACTORS = 7
PLAN = FACTORS + 64
TWO_PI = 2.0 * np.pi


@register("a a p", optimized=True)
def fft_roots(wr, wi, p):
    """`wr[k] + i wi[k] = exp(sign 2 pi i k / n)` for `k < n`; p = (n, sign)."""
    n, sign = p[0], p[1]
    q = n // 2  # the last root computed; the others follow by symmetry
    if n % 4 == 0:
        q = n // 8
    elif n % 2 == 0:
        q = n // 4
    size = 1  # w^k = coarse[k // size] * fine[k % size]
    while size * size < q + 1:
        size += 1
    coarse = q // size + 1
    fr = rt.empty((size,), np.float64)
    fi = rt.empty((size,), np.float64)
    cr = rt.empty((coarse,), np.float64)
    ci = rt.empty((coarse,), np.float64)
    for k in range(size):
        angle = TWO_PI * k / n
        fr[k] = np.cos(angle)
        fi[k] = sign * np.sin(angle)
    for k in range(coarse):
        angle = TWO_PI * (k * size) / n
        cr[k] = np.cos(angle)
        ci[k] = sign * np.sin(angle)
    for k in range(q + 1):
        a = k // size
        b = k - a * size
        wr[k] = cr[a] * fr[b] - ci[a] * fi[b]
        wi[k] = cr[a] * fi[b] + ci[a] * fr[b]
    if n % 4 == 0:  # cos(pi / 2 - t) = sin(t), then a quarter turn
        for k in range(q + 1, n // 4 + 1):
            wr[k] = sign * wi[n // 4 - k]
            wi[k] = sign * wr[n // 4 - k]
        for k in range(n // 4 + 1, n // 2 + 1):
            wr[k] = -sign * wi[k - n // 4]
            wi[k] = sign * wr[k - n // 4]
    elif n % 2 == 0:  # cos(pi - t) = -cos(t)
        for k in range(q + 1, n // 2 + 1):
            wr[k] = -wr[n // 2 - k]
            wi[k] = wi[n // 2 - k]
    for k in range(n // 2 + 1, n):  # w^(n - k) = conj(w^k)
        wr[k] = wr[n - k]
        wi[k] = -wi[n - k]


_roots = callee("fft_roots")


@jit
def _cost(n):
    """pocketfft's estimate of the work of the passes of length `n`."""
    r = n
    total = 0.0
    while r % 2 == 0:
        total += 2.0
        r = r // 2
    d = 3
    while d * d <= r:
        while r % d == 0:
            if d <= 5:
                total += d
            else:
                total += 1.1 * d
            r = r // d
        d += 2
    if r > 1:
        if r <= 5:
            total += r
        else:
            total += 1.1 * r
    return total * n


@jit
def _bluestein_size(n):
    """The length of Bluestein's FFTs for a transform of length `n`, 0 to transform directly:
    the smallest 2-3-5-smooth length `>= 2n - 1` if its two transforms (with the chirps' work,
    half as much again) cost less than the passes of `n`'s factors."""
    r = n
    big = 1
    d = 2
    while d * d <= r:
        while r % d == 0:
            big = d
            r = r // d
        d += 1
    if r > 1:
        big = r
    m = 0
    if n >= DIRECT_MAX and big * big > n:
        g = 2 * n - 1
        smooth = 0
        while smooth == 0:
            r = g
            while r % 2 == 0:
                r = r // 2
            while r % 3 == 0:
                r = r // 3
            while r % 5 == 0:
                r = r // 5
            if r == 1:
                smooth = 1
            else:
                g += 1
        if 3.0 * _cost(g) < _cost(n):
            m = g
    return m


@jit
def _tables(wr, wi, fac, m, at, sign):
    """The factors of `m` into `fac`, its roots (sign `sign`) at `wr[at:]` and after them each
    pass's twiddles `w^(j l1 i)` at `(j - 1) ido + i`, `0 < j < p`."""
    _roots(segment(wr, at, m), segment(wi, at, m), (m, sign))
    nf = 0
    r = m
    while r % 4 == 0:
        fac[FACTORS + nf] = 4
        nf += 1
        r = r // 4
    if r % 2 == 0:  # one 2, first (FFTPACK's order)
        r = r // 2
        fac[FACTORS + nf] = fac[FACTORS]
        fac[FACTORS] = 2
        nf += 1
    d = 3
    while d * d <= r:
        while r % d == 0:
            fac[FACTORS + nf] = d
            nf += 1
            r = r // d
        d += 2
    if r > 1:
        fac[FACTORS + nf] = r
        nf += 1
    fac[4] = at
    fac[5] = sign
    fac[6] = nf
    toff = at + m
    l1 = 1
    for q in range(nf):
        ip = fac[FACTORS + q]
        ido = m // (l1 * ip)
        for j in range(1, ip):
            for i in range(ido):
                wr[toff + (j - 1) * ido + i] = wr[at + j * l1 * i]
                wi[toff + (j - 1) * ido + i] = wi[at + j * l1 * i]
        toff += (ip - 1) * ido
        l1 *= ip


@register("a a p", calls=("fft_roots", "fft_passes"), optimized=True)
def fft_plan(wr, wi, fac):
    """The tables of a transform (see `_plan`, which sizes them and fills `fac[:4]`)."""
    n, sign, m = fac[0], fac[1], fac[3]
    if fac[2] == 0:
        _tables(wr, wi, fac, n, 0, sign)
    else:
        _tables(wr, wi, fac, m, n + m, -1)
        rr = rt.empty((2 * n,), np.float64)
        ri = rt.empty((2 * n,), np.float64)
        _roots(rr, ri, (2 * n, sign))
        sq = 0  # k^2 mod 2n: the chirp exp(sign pi i k^2 / n)
        for k in range(n):
            wr[k] = rr[sq]
            wi[k] = ri[sq]
            sq = (sq + 2 * k + 1) % (2 * n)
        br = segment(wr, n, m)  # the transform of the conjugate chirp, wrapped, over m
        bi = segment(wi, n, m)
        zero(br, 0, m)
        zero(bi, 0, m)
        for k in range(n):
            br[k] = wr[k] / m
            bi[k] = -wi[k] / m
        for k in range(1, n):
            br[m - k] = br[k]
            bi[m - k] = bi[k]
        sr = rt.empty((m,), np.float64)
        si = rt.empty((m,), np.float64)
        _passes(br, bi, sr, si, wr, wi, fac)


@jit
def _plan(n, sign):
    """The plan of a transform of length `n`: float tables `(wr, wi)` and the int vector
    (see `PLAN`), by `fft_plan`."""
    fac = rt.empty((PLAN,), np.int64)
    m = _bluestein_size(n)
    fac[0] = n
    fac[1] = sign
    fac[2] = 0
    fac[3] = n
    size = 3 * n
    if m > 0:
        fac[2] = 1
        fac[3] = m
        size = n + 4 * m
    wr = rt.empty((size,), np.float64)
    wi = rt.empty((size,), np.float64)
    _plan_call(wr, wi, fac)
    return wr, wi, fac


_plan_call = callee("fft_plan")


@jit
def _pass2(cr, ci, hr, hi, tr, ti, ido, l1):
    for k in range(l1):
        for i in range(ido):
            a = i + ido * 2 * k
            b = a + ido
            h = i + ido * k
            hr[h] = cr[a] + cr[b]
            hi[h] = ci[a] + ci[b]
            dr = cr[a] - cr[b]
            di = ci[a] - ci[b]
            hr[h + ido * l1] = dr * tr[i] - di * ti[i]
            hi[h + ido * l1] = dr * ti[i] + di * tr[i]


@jit
def _pass3(cr, ci, hr, hi, tr, ti, ido, l1, s):
    h3 = s * 0.8660254037844386  # sign * sin(2 pi / 3)
    for k in range(l1):
        for i in range(ido):
            a = i + ido * 3 * k
            h = i + ido * k
            step = ido * l1
            t1r = cr[a + ido] + cr[a + 2 * ido]
            t1i = ci[a + ido] + ci[a + 2 * ido]
            t2r = cr[a + ido] - cr[a + 2 * ido]
            t2i = ci[a + ido] - ci[a + 2 * ido]
            hr[h] = cr[a] + t1r
            hi[h] = ci[a] + t1i
            mr = cr[a] - 0.5 * t1r
            mi = ci[a] - 0.5 * t1i
            nr = -h3 * t2i
            ni = h3 * t2r
            y1r, y1i = mr + nr, mi + ni
            y2r, y2i = mr - nr, mi - ni
            hr[h + step] = y1r * tr[i] - y1i * ti[i]
            hi[h + step] = y1r * ti[i] + y1i * tr[i]
            hr[h + 2 * step] = y2r * tr[ido + i] - y2i * ti[ido + i]
            hi[h + 2 * step] = y2r * ti[ido + i] + y2i * tr[ido + i]


@jit
def _pass4(cr, ci, hr, hi, tr, ti, ido, l1, s):
    for k in range(l1):
        for i in range(ido):
            a = i + ido * 4 * k
            h = i + ido * k
            step = ido * l1
            a0r = cr[a] + cr[a + 2 * ido]
            a0i = ci[a] + ci[a + 2 * ido]
            a1r = cr[a] - cr[a + 2 * ido]
            a1i = ci[a] - ci[a + 2 * ido]
            a2r = cr[a + ido] + cr[a + 3 * ido]
            a2i = ci[a + ido] + ci[a + 3 * ido]
            a3r = -s * (ci[a + ido] - ci[a + 3 * ido])  # (c1 - c3) times sign i
            a3i = s * (cr[a + ido] - cr[a + 3 * ido])
            hr[h] = a0r + a2r
            hi[h] = a0i + a2i
            y1r, y1i = a1r + a3r, a1i + a3i
            y2r, y2i = a0r - a2r, a0i - a2i
            y3r, y3i = a1r - a3r, a1i - a3i
            hr[h + step] = y1r * tr[i] - y1i * ti[i]
            hi[h + step] = y1r * ti[i] + y1i * tr[i]
            hr[h + 2 * step] = y2r * tr[ido + i] - y2i * ti[ido + i]
            hi[h + 2 * step] = y2r * ti[ido + i] + y2i * tr[ido + i]
            hr[h + 3 * step] = y3r * tr[2 * ido + i] - y3i * ti[2 * ido + i]
            hi[h + 3 * step] = y3r * ti[2 * ido + i] + y3i * tr[2 * ido + i]


@jit
def _pass5(cr, ci, hr, hi, tr, ti, ido, l1, s):
    c1, c2 = 0.30901699437494745, -0.8090169943749473  # cos(2 pi / 5), cos(4 pi / 5)
    s1, s2 = s * 0.9510565162951535, s * 0.5877852522924732  # sign * sin(...)
    for k in range(l1):
        for i in range(ido):
            a = i + ido * 5 * k
            h = i + ido * k
            step = ido * l1
            x0r, x0i = cr[a], ci[a]
            tar = cr[a + ido] + cr[a + 4 * ido]
            tai = ci[a + ido] + ci[a + 4 * ido]
            tbr = cr[a + 2 * ido] + cr[a + 3 * ido]
            tbi = ci[a + 2 * ido] + ci[a + 3 * ido]
            tcr = cr[a + ido] - cr[a + 4 * ido]
            tci = ci[a + ido] - ci[a + 4 * ido]
            tdr = cr[a + 2 * ido] - cr[a + 3 * ido]
            tdi = ci[a + 2 * ido] - ci[a + 3 * ido]
            hr[h] = x0r + tar + tbr
            hi[h] = x0i + tai + tbi
            p1r = x0r + c1 * tar + c2 * tbr
            p1i = x0i + c1 * tai + c2 * tbi
            p2r = x0r + c2 * tar + c1 * tbr
            p2i = x0i + c2 * tai + c1 * tbi
            q1r = -(s1 * tci + s2 * tdi)  # i (s1 tc + s2 td)
            q1i = s1 * tcr + s2 * tdr
            q2r = -(s2 * tci - s1 * tdi)  # i (s2 tc - s1 td)
            q2i = s2 * tcr - s1 * tdr
            y1r, y1i = p1r + q1r, p1i + q1i
            y4r, y4i = p1r - q1r, p1i - q1i
            y2r, y2i = p2r + q2r, p2i + q2i
            y3r, y3i = p2r - q2r, p2i - q2i
            hr[h + step] = y1r * tr[i] - y1i * ti[i]
            hi[h + step] = y1r * ti[i] + y1i * tr[i]
            hr[h + 2 * step] = y2r * tr[ido + i] - y2i * ti[ido + i]
            hi[h + 2 * step] = y2r * ti[ido + i] + y2i * tr[ido + i]
            hr[h + 3 * step] = y3r * tr[2 * ido + i] - y3i * ti[2 * ido + i]
            hi[h + 3 * step] = y3r * ti[2 * ido + i] + y3i * tr[2 * ido + i]
            hr[h + 4 * step] = y4r * tr[3 * ido + i] - y4i * ti[3 * ido + i]
            hi[h + 4 * step] = y4r * ti[3 * ido + i] + y4i * tr[3 * ido + i]


@jit
def _passg(cr, ci, hr, hi, tr, ti, ido, l1, ip, rr, ri, stride):
    """The pass of an odd factor `ip`: the sums of `ip` terms, each output pair `j`, `ip - j`
    from the sums and differences of the input pairs (`rr`, `ri`: the roots, every
    `stride`-th an `ip`-th root)."""
    half = (ip + 1) // 2
    for k in range(l1):
        for i in range(ido):
            a = i + ido * ip * k
            h = i + ido * k
            step = ido * l1
            sr = cr[a]
            si = ci[a]
            for q in range(1, half):
                sr += cr[a + q * ido] + cr[a + (ip - q) * ido]
                si += ci[a + q * ido] + ci[a + (ip - q) * ido]
            hr[h] = sr
            hi[h] = si
            for j in range(1, half):
                er = cr[a]  # the cosine parts
                ei = ci[a]
                orr = 0.0  # the sine parts
                oi = 0.0
                t = 0
                for q in range(1, half):
                    t += j
                    if t >= ip:
                        t -= ip
                    wc = rr[t * stride]
                    ws = ri[t * stride]
                    er += wc * (cr[a + q * ido] + cr[a + (ip - q) * ido])
                    ei += wc * (ci[a + q * ido] + ci[a + (ip - q) * ido])
                    orr += ws * (ci[a + q * ido] - ci[a + (ip - q) * ido])
                    oi += ws * (cr[a + q * ido] - cr[a + (ip - q) * ido])
                y1r, y1i = er - orr, ei + oi  # the term j
                y2r, y2i = er + orr, ei - oi  # the term ip - j
                u = (j - 1) * ido + i
                v = (ip - j - 1) * ido + i
                hr[h + j * step] = y1r * tr[u] - y1i * ti[u]
                hi[h + j * step] = y1r * ti[u] + y1i * tr[u]
                hr[h + (ip - j) * step] = y2r * tr[v] - y2i * ti[v]
                hi[h + (ip - j) * step] = y2r * ti[v] + y2i * tr[v]


@register("a a a a a a p", optimized=True)
def fft_passes(ar, ai, br, bi, wr, wi, fac):
    """The passes of the plan `fac` over the `fac[3]` terms of `(ar, ai)`, in place (`(br,
    bi)` the other buffer)."""
    m, at, s, nf = fac[3], fac[4], fac[5], fac[6]
    toff = at + m
    l1 = 1
    for q in range(nf):
        ip = fac[FACTORS + q]
        ido = m // (l1 * ip)
        odd = q % 2 == 1
        cr = br if odd else ar
        ci = bi if odd else ai
        hr = ar if odd else br
        hi = ai if odd else bi
        count = (ip - 1) * ido
        tr = segment(wr, toff, count)
        ti = segment(wi, toff, count)
        if ip == 4:
            _pass4(cr, ci, hr, hi, tr, ti, ido, l1, s)
        elif ip == 2:
            _pass2(cr, ci, hr, hi, tr, ti, ido, l1)
        elif ip == 3:
            _pass3(cr, ci, hr, hi, tr, ti, ido, l1, s)
        elif ip == 5:
            _pass5(cr, ci, hr, hi, tr, ti, ido, l1, s)
        else:
            _passg(
                cr, ci, hr, hi, tr, ti, ido, l1, ip, segment(wr, at, m), segment(wi, at, m), m // ip
            )
        toff += count
        l1 *= ip
    if nf % 2 == 1:
        copy(ar, 0, br, 0, m)
        copy(ai, 0, bi, 0, m)


_passes = callee("fft_passes")


@register("a a a a a a p", calls=("fft_passes",), optimized=True)
def fft_row(ar, ai, br, bi, wr, wi, fac):
    """The transform of the `fac[0]` terms of `(ar, ai)` by the plan `(wr, wi, fac)`, in place;
    `(br, bi)` scratch of `2 fac[3]` terms."""
    if fac[2] == 0:
        _passes(ar, ai, br, bi, wr, wi, fac)
    else:  # Bluestein: the convolution of x c with conj(c), times c
        n, m = fac[0], fac[3]
        dr = segment(br, 0, m)
        di = segment(bi, 0, m)
        sr = segment(br, m, m)
        si = segment(bi, m, m)
        for k in range(n):
            dr[k] = ar[k] * wr[k] - ai[k] * wi[k]
            di[k] = ar[k] * wi[k] + ai[k] * wr[k]
        zero(dr, n, m)
        zero(di, n, m)
        _passes(dr, di, sr, si, wr, wi, fac)
        for k in range(m):  # the product, conjugated: the inverse as a forward FFT
            ur = dr[k] * wr[n + k] - di[k] * wi[n + k]
            ui = dr[k] * wi[n + k] + di[k] * wr[n + k]
            dr[k] = ur
            di[k] = -ui
        _passes(dr, di, sr, si, wr, wi, fac)
        for k in range(n):
            ar[k] = dr[k] * wr[k] + di[k] * wi[k]
            ai[k] = dr[k] * wi[k] - di[k] * wr[k]


_row = callee("fft_row")


@register("a a a a p", calls=("fft_plan", "fft_row"), optimized=True)
def fft_axis(xr, xi, yr, yi, p):
    """`(yr, yi)` = the DFT of `(xr, xi)` along the middle axis; `p` = (outer, n, inner, sign)."""
    outer, n, inner, sign = p[0], p[1], p[2], p[3]
    wr, wi, fac = _plan(n, sign)
    sr = rt.empty((2 * fac[3],), np.float64)
    si = rt.empty((2 * fac[3],), np.float64)
    if inner == 1:
        copy(yr, 0, xr, 0, outer * n)
        copy(yi, 0, xi, 0, outer * n)
        for o in range(outer):
            _row(segment(yr, o * n, n), segment(yi, o * n, n), sr, si, wr, wi, fac)
    else:  # BLOCK columns at a time, gathered into rows
        width = min(inner, BLOCK)
        br = rt.empty((width * n,), np.float64)
        bi = rt.empty((width * n,), np.float64)
        for o in range(outer):
            c = 0
            while c < inner:
                w = min(width, inner - c)
                base = o * n * inner + c
                for j in range(n):
                    for t in range(w):
                        br[t * n + j] = xr[base + j * inner + t]
                        bi[t * n + j] = xi[base + j * inner + t]
                for t in range(w):
                    _row(segment(br, t * n, n), segment(bi, t * n, n), sr, si, wr, wi, fac)
                for j in range(n):
                    for t in range(w):
                        yr[base + j * inner + t] = br[t * n + j]
                        yi[base + j * inner + t] = bi[t * n + j]
                c += w


@register("a a a p", calls=("fft_plan", "fft_row", "fft_roots"), optimized=True)
def rfft_axis(x, yr, yi, p):
    """`(yr, yi)` = the first `n // 2 + 1` terms of the DFT of real `x` along its last axis;
    `p` = (rows, n). An even `n` transforms `x[2j] + i x[2j + 1]` over `n / 2` terms and
    separates the even and odd samples' transforms, `E_k + w^k O_k`."""
    outer, n = p[0], p[1]
    h = n // 2
    even = n % 2 == 0
    length = h if even else n
    wr, wi, fac = _plan(length, -1)
    sr = rt.empty((2 * fac[3],), np.float64)
    si = rt.empty((2 * fac[3],), np.float64)
    zr = rt.empty((length,), np.float64)
    zi = rt.empty((length,), np.float64)
    tr = rt.empty((n,), np.float64)
    ti = rt.empty((n,), np.float64)
    _roots(tr, ti, (n, -1))
    for o in range(outer):
        src = o * n
        out = o * (h + 1)
        if even:
            for j in range(h):
                zr[j] = x[src + 2 * j]
                zi[j] = x[src + 2 * j + 1]
        else:
            copy(zr, 0, x, src, n)
            zero(zi, 0, n)
        _row(zr, zi, sr, si, wr, wi, fac)
        if even:
            for k in range(h + 1):
                a = k % h
                b = (h - k) % h
                er = 0.5 * (zr[a] + zr[b])
                ei = 0.5 * (zi[a] - zi[b])
                odr = 0.5 * (zi[a] + zi[b])  # (Z_a - conj Z_b) / 2i
                odi = -0.5 * (zr[a] - zr[b])
                yr[out + k] = er + odr * tr[k] - odi * ti[k]
                yi[out + k] = ei + odr * ti[k] + odi * tr[k]
        else:
            copy(yr, out, zr, 0, h + 1)
            copy(yi, out, zi, 0, h + 1)


@register("a a a p", calls=("fft_plan", "fft_row", "fft_roots"), optimized=True)
def irfft_axis(xr, xi, y, p):
    """`y` = the real inverse DFT (unscaled) of `n` points along the last axis whose first
    terms `(xr, xi)` hold (`mi` of them a row: those past `n // 2` ignored, missing ones 0, the
    imaginary parts of the zero and Nyquist terms ignored); `p` = (rows, mi, n). An even `n`
    assembles `Z_k = E_k + i O_k` (the even and odd samples' transforms) and transforms it
    over `n / 2` terms into `y[2j] + i y[2j + 1]`."""
    outer, mi, n = p[0], p[1], p[2]
    h = n // 2
    terms = min(mi, h + 1)
    even = n % 2 == 0
    length = h if even else n
    wr, wi, fac = _plan(length, 1)
    sr = rt.empty((2 * fac[3],), np.float64)
    si = rt.empty((2 * fac[3],), np.float64)
    zr = rt.empty((h + 1,), np.float64)  # the row's terms, zero-padded
    zi = rt.empty((h + 1,), np.float64)
    vr = rt.empty((length,), np.float64)
    vi = rt.empty((length,), np.float64)
    tr = rt.empty((n,), np.float64)
    ti = rt.empty((n,), np.float64)
    _roots(tr, ti, (n, 1))
    for o in range(outer):
        zero(zr, 0, h + 1)
        zero(zi, 0, h + 1)
        copy(zr, 0, xr, o * mi, terms)
        copy(zi, 0, xi, o * mi, terms)
        zi[0] = 0.0
        if even:
            zi[h] = 0.0
            for k in range(h):
                er = zr[k] + zr[h - k]  # X_k + conj X_(h - k)
                ei = zi[k] - zi[h - k]
                dr = zr[k] - zr[h - k]
                di = zi[k] + zi[h - k]
                odr = dr * tr[k] - di * ti[k]
                odi = dr * ti[k] + di * tr[k]
                vr[k] = er - odi
                vi[k] = ei + odr
        else:
            vr[0] = zr[0]
            vi[0] = 0.0
            for k in range(1, h + 1):
                vr[k] = zr[k]
                vi[k] = zi[k]
                vr[n - k] = zr[k]
                vi[n - k] = -zi[k]
        _row(vr, vi, sr, si, wr, wi, fac)
        if even:
            for j in range(h):
                y[o * n + 2 * j] = vr[j]
                y[o * n + 2 * j + 1] = vi[j]
        else:
            copy(y, o * n, vr, 0, n)
