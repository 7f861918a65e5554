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
Bluestein the chirp and its transform. The entries run transforms in groups of 8 through
`fft_row`: `fft_axis` (a complex axis: rows, or neighbouring columns of an inner axis),
`rfft_axis` (a real last axis: an even length as a half-length complex FFT of the even and
odd samples, then one pass of post-processing) and `irfft_axis` (its inverse, from the first
terms of a Hermitian spectrum; odd lengths complete the spectrum and run a full-length
transform). A group of lengths up to `VEC_MAX` is gathered interleaved (term `e` of transform
`t` at `8 e + t`) and the passes run on all 8 at once (the pass code compiled for 8 lanes,
loops over whole groups); longer ones run one at a time (the pass code compiled for one lane,
its loops over the terms; the last pass, `ido = 1`, compiled apart so that its loop over `k`
vectorizes). The passes ping-pong between two buffers they allocate, which LLVM knows overlap
no other array.

Partial: complex64 data is transformed in float64 (the rule converts), so its transforms cost
what complex128's do; each call of an entry computes its plan anew (O(n) work and 4 sqrt(n)
trig calls; no cache across calls); there are no radix-7/8/11 butterflies (7 and 11 run the
generic odd pass); the interleaved passes were not measured to vectorize across the lanes
(they run about as fast per transform as the single-lane ones, faster for short lengths).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import copy, jit, segment, zero
from core.backends.numba.library.entry import callee, register
from core.jit import runtime as rt

# Lengths below this never use Bluestein's algorithm (pocketfft's threshold).
DIRECT_MAX = 50
# Transforms run VEC at a time, interleaved (one vector of lanes per term), up to this length.
VEC = 8
VEC_MAX = 256
# The plan's int64 vector: n, sign, kind (0 direct, 1 Bluestein), m (the length the passes
# transform), the offset of m's tables in the float tables, the passes' sign, the factor count,
# the number of interleaved transforms of the next call (1 or VEC), then the factors.
LANES = 7
FACTORS = 8
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
        _passes(br, bi, wr, wi, fac)


@jit
def _plan(n, sign):
    """The plan of a transform of length `n`: float tables `(wr, wi)` and the int vector
    (see `PLAN`), by `fft_plan`."""
    fac = rt.empty((PLAN,), np.int64)
    m = _bluestein_size(n)
    fac[0] = n
    fac[1] = sign
    fac[LANES] = 1
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
def _put(hr, hi, at, yr, yi, wr, wi):
    """`h[at] = y w` (complex)."""
    hr[at] = yr * wr - yi * wi
    hi[at] = yr * wi + yi * wr


@jit
def _pass2(cr, ci, hr, hi, tr, ti, ido, l1, v):
    for k in range(l1):
        for i in range(ido):
            a = (i + ido * 2 * k) * v
            h = (i + ido * k) * v
            b, step = ido * v, ido * l1 * v
            w1r, w1i = tr[i], ti[i]
            for t in range(v):
                hr[h + t] = cr[a + t] + cr[a + b + t]
                hi[h + t] = ci[a + t] + ci[a + b + t]
                dr = cr[a + t] - cr[a + b + t]
                di = ci[a + t] - ci[a + b + t]
                _put(hr, hi, h + step + t, dr, di, w1r, w1i)


@jit
def _pass3(cr, ci, hr, hi, tr, ti, ido, l1, s, v):
    h3 = s * 0.8660254037844386  # sign * sin(2 pi / 3)
    for k in range(l1):
        for i in range(ido):
            a = (i + ido * 3 * k) * v
            h = (i + ido * k) * v
            b, step = ido * v, ido * l1 * v
            w1r, w1i, w2r, w2i = tr[i], ti[i], tr[ido + i], ti[ido + i]
            for t in range(v):
                e = a + t
                t1r = cr[e + b] + cr[e + 2 * b]
                t1i = ci[e + b] + ci[e + 2 * b]
                t2r = cr[e + b] - cr[e + 2 * b]
                t2i = ci[e + b] - ci[e + 2 * b]
                hr[h + t] = cr[e] + t1r
                hi[h + t] = ci[e] + t1i
                mr = cr[e] - 0.5 * t1r
                mi = ci[e] - 0.5 * t1i
                nr = -h3 * t2i
                ni = h3 * t2r
                _put(hr, hi, h + step + t, mr + nr, mi + ni, w1r, w1i)
                _put(hr, hi, h + 2 * step + t, mr - nr, mi - ni, w2r, w2i)


@jit
def _pass4(cr, ci, hr, hi, tr, ti, ido, l1, s, v):
    for k in range(l1):
        for i in range(ido):
            a = (i + ido * 4 * k) * v
            h = (i + ido * k) * v
            b, step = ido * v, ido * l1 * v
            w1r, w1i, w2r, w2i = tr[i], ti[i], tr[ido + i], ti[ido + i]
            w3r, w3i = tr[2 * ido + i], ti[2 * ido + i]
            for t in range(v):
                e = a + t
                a0r = cr[e] + cr[e + 2 * b]
                a0i = ci[e] + ci[e + 2 * b]
                a1r = cr[e] - cr[e + 2 * b]
                a1i = ci[e] - ci[e + 2 * b]
                a2r = cr[e + b] + cr[e + 3 * b]
                a2i = ci[e + b] + ci[e + 3 * b]
                a3r = -s * (ci[e + b] - ci[e + 3 * b])  # (c1 - c3) times sign i
                a3i = s * (cr[e + b] - cr[e + 3 * b])
                hr[h + t] = a0r + a2r
                hi[h + t] = a0i + a2i
                _put(hr, hi, h + step + t, a1r + a3r, a1i + a3i, w1r, w1i)
                _put(hr, hi, h + 2 * step + t, a0r - a2r, a0i - a2i, w2r, w2i)
                _put(hr, hi, h + 3 * step + t, a1r - a3r, a1i - a3i, w3r, w3i)


@jit
def _pass5(cr, ci, hr, hi, tr, ti, ido, l1, s, v):
    c1, c2 = 0.30901699437494745, -0.8090169943749473  # cos(2 pi / 5), cos(4 pi / 5)
    s1, s2 = s * 0.9510565162951535, s * 0.5877852522924732  # sign * sin(...)
    for k in range(l1):
        for i in range(ido):
            a = (i + ido * 5 * k) * v
            h = (i + ido * k) * v
            b, step = ido * v, ido * l1 * v
            w1r, w1i, w2r, w2i = tr[i], ti[i], tr[ido + i], ti[ido + i]
            w3r, w3i, w4r, w4i = tr[2 * ido + i], ti[2 * ido + i], tr[3 * ido + i], ti[3 * ido + i]
            for t in range(v):
                e = a + t
                tar = cr[e + b] + cr[e + 4 * b]
                tai = ci[e + b] + ci[e + 4 * b]
                tbr = cr[e + 2 * b] + cr[e + 3 * b]
                tbi = ci[e + 2 * b] + ci[e + 3 * b]
                tcr = cr[e + b] - cr[e + 4 * b]
                tci = ci[e + b] - ci[e + 4 * b]
                tdr = cr[e + 2 * b] - cr[e + 3 * b]
                tdi = ci[e + 2 * b] - ci[e + 3 * b]
                hr[h + t] = cr[e] + tar + tbr
                hi[h + t] = ci[e] + tai + tbi
                p1r = cr[e] + c1 * tar + c2 * tbr
                p1i = ci[e] + c1 * tai + c2 * tbi
                p2r = cr[e] + c2 * tar + c1 * tbr
                p2i = ci[e] + c2 * tai + c1 * tbi
                q1r = -(s1 * tci + s2 * tdi)  # i (s1 tc + s2 td)
                q1i = s1 * tcr + s2 * tdr
                q2r = -(s2 * tci - s1 * tdi)  # i (s2 tc - s1 td)
                q2i = s2 * tcr - s1 * tdr
                _put(hr, hi, h + step + t, p1r + q1r, p1i + q1i, w1r, w1i)
                _put(hr, hi, h + 2 * step + t, p2r + q2r, p2i + q2i, w2r, w2i)
                _put(hr, hi, h + 3 * step + t, p2r - q2r, p2i - q2i, w3r, w3i)
                _put(hr, hi, h + 4 * step + t, p1r - q1r, p1i - q1i, w4r, w4i)


@jit
def _passg(cr, ci, hr, hi, tr, ti, ido, l1, ip, rr, ri, stride, v):
    """The pass of an odd factor `ip`: the sums of `ip` terms, each output pair `j`, `ip - j`
    from the sums and differences of the input pairs (`rr`, `ri`: the roots, every
    `stride`-th an `ip`-th root)."""
    half = (ip + 1) // 2
    for k in range(l1):
        for i in range(ido):
            a = (i + ido * ip * k) * v
            h = (i + ido * k) * v
            b, step = ido * v, ido * l1 * v
            for t in range(v):
                sr = cr[a + t]
                si = ci[a + t]
                for q in range(1, half):
                    sr += cr[a + q * b + t] + cr[a + (ip - q) * b + t]
                    si += ci[a + q * b + t] + ci[a + (ip - q) * b + t]
                hr[h + t] = sr
                hi[h + t] = si
            for j in range(1, half):
                u = (j - 1) * ido + i
                w = (ip - j - 1) * ido + i
                for t in range(v):
                    er = cr[a + t]  # the cosine parts
                    ei = ci[a + t]
                    orr = 0.0  # the sine parts
                    oi = 0.0
                    z = 0
                    for q in range(1, half):
                        z += j
                        if z >= ip:
                            z -= ip
                        wc = rr[z * stride]
                        ws = ri[z * stride]
                        er += wc * (cr[a + q * b + t] + cr[a + (ip - q) * b + t])
                        ei += wc * (ci[a + q * b + t] + ci[a + (ip - q) * b + t])
                        orr += ws * (ci[a + q * b + t] - ci[a + (ip - q) * b + t])
                        oi += ws * (cr[a + q * b + t] - cr[a + (ip - q) * b + t])
                    _put(hr, hi, h + j * step + t, er - orr, ei + oi, tr[u], ti[u])
                    _put(hr, hi, h + (ip - j) * step + t, er + orr, ei - oi, tr[w], ti[w])


@jit
def _pass(cr, ci, hr, hi, wr, wi, at, m, toff, ip, ido, l1, s, v):
    """One pass of factor `ip` over `v` interleaved transforms (`v` a constant of the call, so
    that one copy runs scalar loops vectorized along the rows and the other whole vectors of
    transforms)."""
    tr = segment(wr, toff, (ip - 1) * ido)
    ti = segment(wi, toff, (ip - 1) * ido)
    if ip == 4:
        _pass4(cr, ci, hr, hi, tr, ti, ido, l1, s, v)
    elif ip == 2:
        _pass2(cr, ci, hr, hi, tr, ti, ido, l1, v)
    elif ip == 3:
        _pass3(cr, ci, hr, hi, tr, ti, ido, l1, s, v)
    elif ip == 5:
        _pass5(cr, ci, hr, hi, tr, ti, ido, l1, s, v)
    else:
        rr = segment(wr, at, m)
        ri = segment(wi, at, m)
        _passg(cr, ci, hr, hi, tr, ti, ido, l1, ip, rr, ri, m // ip, v)


@register("a a a a p", optimized=True)
def fft_passes(ar, ai, wr, wi, fac):
    """The passes of the plan `fac` over `fac[LANES]` interleaved transforms of `fac[3]` terms
    (term `e` of transform `t` at `e * lanes + t`) in `(ar, ai)`, in place. The passes run
    between two buffers of their own: LLVM knows that freshly allocated memory is no other
    array, so it vectorizes their loops without checking for overlaps."""
    m, at, s, nf, v = fac[3], fac[4], fac[5], fac[6], fac[LANES]
    pr = rt.empty((m * v,), np.float64)
    pi = rt.empty((m * v,), np.float64)
    qr = rt.empty((m * v,), np.float64)
    qi = rt.empty((m * v,), np.float64)
    copy(pr, 0, ar, 0, m * v)
    copy(pi, 0, ai, 0, m * v)
    toff = at + m
    l1 = 1
    for q in range(nf):
        ip = fac[FACTORS + q]
        ido = m // (l1 * ip)
        odd = q % 2 == 1
        cr = qr if odd else pr
        ci = qi if odd else pi
        hr = pr if odd else qr
        hi = pi if odd else qi
        if v > 1:
            _pass(cr, ci, hr, hi, wr, wi, at, m, toff, ip, ido, l1, s, VEC)
        elif ido == 1:  # the last pass: its loop over k vectorized
            _pass(cr, ci, hr, hi, wr, wi, at, m, toff, ip, 1, l1, s, 1)
        else:
            _pass(cr, ci, hr, hi, wr, wi, at, m, toff, ip, ido, l1, s, 1)
        toff += (ip - 1) * ido
        l1 *= ip
    rr = qr if nf % 2 == 1 else pr
    ri = qi if nf % 2 == 1 else pi
    copy(ar, 0, rr, 0, m * v)
    copy(ai, 0, ri, 0, m * v)


_passes = callee("fft_passes")


@register("a a a a a a p", calls=("fft_passes",), optimized=True)
def fft_row(ar, ai, br, bi, wr, wi, fac):
    """The `fac[LANES]` interleaved transforms of `fac[0]` terms in `(ar, ai)` by the plan
    `(wr, wi, fac)`, in place; `(br, bi)` scratch of `fac[3] fac[LANES]` terms."""
    v = fac[LANES]
    if fac[2] == 0:
        _passes(ar, ai, wr, wi, fac)
    else:  # Bluestein: the convolution of x c with conj(c), times c
        n, m = fac[0], fac[3]
        dr = segment(br, 0, m * v)
        di = segment(bi, 0, m * v)
        for k in range(n):
            for t in range(v):
                e = k * v + t
                _put(dr, di, e, ar[e], ai[e], wr[k], wi[k])
        zero(dr, n * v, m * v)
        zero(di, n * v, m * v)
        _passes(dr, di, wr, wi, fac)
        for k in range(m):  # the product, conjugated: the inverse as a forward FFT
            for t in range(v):
                e = k * v + t
                _put(dr, di, e, dr[e], di[e], wr[n + k], wi[n + k])
                di[e] = -di[e]
        _passes(dr, di, wr, wi, fac)
        for k in range(n):
            for t in range(v):
                e = k * v + t
                _put(ar, ai, e, dr[e], -di[e], wr[k], wi[k])


_row = callee("fft_row")


@jit
def _lanes(count, n):
    """How many transforms of `n` terms to run interleaved when `count` remain."""
    v = 1
    if count >= VEC and n <= VEC_MAX:
        v = VEC
    return v


@jit
def _gather(xr, xi, yr, yi, starts, g, n, inner, js, ts, into):
    """Copies term `j` of transform `t < g` between `x[starts[t] + j inner]` and `y[j js + t
    ts]` (`into` the buffer `y`, else out of buffer `x`): a row at a time for rows, all the
    group's columns at once for columns (their neighbouring terms share cache lines)."""
    if inner == 1:
        for t in range(g):
            for j in range(n):
                if into == 1:
                    yr[j * js + t * ts] = xr[starts[t] + j]
                    yi[j * js + t * ts] = xi[starts[t] + j]
                else:
                    yr[starts[t] + j] = xr[j * js + t * ts]
                    yi[starts[t] + j] = xi[j * js + t * ts]
    else:
        for j in range(n):
            for t in range(g):
                if into == 1:
                    yr[j * js + t * ts] = xr[starts[t] + j * inner]
                    yi[j * js + t * ts] = xi[starts[t] + j * inner]
                else:
                    yr[starts[t] + j * inner] = xr[j * js + t * ts]
                    yi[starts[t] + j * inner] = xi[j * js + t * ts]


@register("a a a a p", calls=("fft_plan", "fft_row"), optimized=True)
def fft_axis(xr, xi, yr, yi, p):
    """`(yr, yi)` = the DFT of `(xr, xi)` along the middle axis; `p` = (outer, n, inner, sign).
    Transforms run in groups of up to `VEC` (neighbouring columns, or rows), gathered into a
    buffer: interleaved for lengths up to `VEC_MAX` (one call for the group), else as rows
    (their stride padded off multiples of the page, where columns' stores would collide in
    the cache)."""
    outer, n, inner, sign = p[0], p[1], p[2], p[3]
    wr, wi, fac = _plan(n, sign)
    lanes = _lanes(outer * inner, n)
    ld = n + VEC
    sr = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    si = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    br = rt.empty((ld * VEC,), np.float64)
    bi = rt.empty((ld * VEC,), np.float64)
    starts = rt.empty((VEC,), np.int64)
    q = 0
    while q < outer * inner:
        g = min(VEC, outer * inner - q)
        v = _lanes(g, n)
        js, ts = 1, ld  # where term j of transform t goes
        if v > 1:
            js, ts = v, 1
        for t in range(g):
            starts[t] = ((q + t) // inner) * n * inner + (q + t) % inner
        _gather(xr, xi, br, bi, starts, g, n, inner, js, ts, 1)
        fac[LANES] = v
        if v > 1:
            _row(br, bi, sr, si, wr, wi, fac)
        else:
            for t in range(g):
                _row(segment(br, t * ld, n), segment(bi, t * ld, n), sr, si, wr, wi, fac)
        _gather(br, bi, yr, yi, starts, g, n, inner, js, ts, 0)
        q += g


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
    lanes = _lanes(outer, length)
    sr = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    si = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    zr = rt.empty((length * lanes,), np.float64)
    zi = rt.empty((length * lanes,), np.float64)
    tr = rt.empty((n,), np.float64)
    ti = rt.empty((n,), np.float64)
    _roots(tr, ti, (n, -1))
    q = 0
    while q < outer:
        v = _lanes(outer - q, length)
        for t in range(v):
            src = (q + t) * n
            if even:
                for j in range(h):
                    zr[j * v + t] = x[src + 2 * j]
                    zi[j * v + t] = x[src + 2 * j + 1]
            else:
                for j in range(n):
                    zr[j * v + t] = x[src + j]
                    zi[j * v + t] = 0.0
        fac[LANES] = v
        _row(zr, zi, sr, si, wr, wi, fac)
        for t in range(v):
            out = (q + t) * (h + 1)
            if even:
                for k in range(h + 1):
                    a = k * v + t  # Z_(k mod h) and Z_((h - k) mod h), without divisions
                    if k == h:
                        a = t
                    b = (h - k) * v + t
                    if k == 0:
                        b = t
                    er = 0.5 * (zr[a] + zr[b])
                    ei = 0.5 * (zi[a] - zi[b])
                    odr = 0.5 * (zi[a] + zi[b])  # (Z_a - conj Z_b) / 2i
                    odi = -0.5 * (zr[a] - zr[b])
                    yr[out + k] = er + odr * tr[k] - odi * ti[k]
                    yi[out + k] = ei + odr * ti[k] + odi * tr[k]
            else:
                for k in range(h + 1):
                    yr[out + k] = zr[k * v + t]
                    yi[out + k] = zi[k * v + t]
        q += v


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
    lanes = _lanes(outer, length)
    sr = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    si = rt.empty((fac[3] * lanes * fac[2],), np.float64)
    zr = rt.empty((h + 1,), np.float64)  # a row's terms, zero-padded
    zi = rt.empty((h + 1,), np.float64)
    vr = rt.empty((length * lanes,), np.float64)
    vi = rt.empty((length * lanes,), np.float64)
    tr = rt.empty((n,), np.float64)
    ti = rt.empty((n,), np.float64)
    _roots(tr, ti, (n, 1))
    q = 0
    while q < outer:
        v = _lanes(outer - q, length)
        for t in range(v):
            zero(zr, 0, h + 1)
            zero(zi, 0, h + 1)
            copy(zr, 0, xr, (q + t) * mi, terms)
            copy(zi, 0, xi, (q + t) * mi, terms)
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
                    vr[k * v + t] = er - odi
                    vi[k * v + t] = ei + odr
            else:
                vr[t] = zr[0]
                vi[t] = 0.0
                for k in range(1, h + 1):
                    vr[k * v + t] = zr[k]
                    vi[k * v + t] = zi[k]
                    vr[(n - k) * v + t] = zr[k]
                    vi[(n - k) * v + t] = -zi[k]
        fac[LANES] = v
        _row(vr, vi, sr, si, wr, wi, fac)
        for t in range(v):
            dst = (q + t) * n
            if even:
                for j in range(h):
                    y[dst + 2 * j] = vr[j * v + t]
                    y[dst + 2 * j + 1] = vi[j * v + t]
            else:
                for j in range(n):
                    y[dst + j] = vr[j * v + t]
        q += v
