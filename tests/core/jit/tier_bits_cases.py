"""The programs `test_tier_bits.py` compiles in both tiers: reductions of several sizes and axes,
odd matrix products, softmax, logsumexp, a layer norm, divisions, transcendental chains, a
convolution, pooling, a scan and an MLP's gradient, in float32 and float64, complex programs
(products, quotients, exp, moduli, sums, a matrix product, an LRU's associative scan) in
complex64 and complex128, and a bfloat16 dense layer's sums (`cases()`, with x64 enabled)."""

import numpy as np

import core
from core import lax, nn
from core import numpy as jnp


def _rnn(w, u, xs):
    def body(h, x):
        h = jnp.tanh(h @ w + x @ u)
        return h, h.sum()

    return lax.scan(body, jnp.zeros((xs.shape[1], w.shape[0]), xs.dtype), xs)


def _conv(x, k):
    return lax.conv_general_dilated(
        x, k, (2, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")
    )


def _mlp_grad(w1, b1, w2, x, y):
    def loss(w1, b1, w2):
        h = nn.gelu(x @ w1 + b1)
        return -(nn.log_softmax(h @ w2) * y).sum(-1).mean()

    return core.grad(loss, (0, 1, 2))(w1, b1, w2)


def _layer_norm(x):
    return (x - x.mean(-1, keepdims=True)) / jnp.sqrt(jnp.var(x, -1, keepdims=True) + 1e-5)


def _transcendental(x):
    return jnp.tanh(jnp.exp(jnp.sin(x)) * 0.3 + jnp.log1p(x * x)) + nn.sigmoid(x) * lax.erf(x)


def _lru(lam, bu, c):
    """A diagonal complex recurrence by `associative_scan`, read out as a real (an LRU layer)."""

    def combine(left, right):
        return right[0] * left[0], right[0] * left[1] + right[1]

    _, h = lax.associative_scan(combine, (jnp.broadcast_to(lam, bu.shape), bu))
    return (h @ c.T).real


def _avg_pool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3), (1, 2, 2), "VALID") / 9


def cases() -> dict:
    """name -> (function, arguments)."""
    rng = np.random.default_rng(0)
    out = {}
    for dt, tag in ((np.float32, "f32"), (np.float64, "f64")):

        def r(*shape, dt=dt):
            return rng.standard_normal(shape).astype(dt)

        for n in (1, 7, 31, 32, 33, 100, 1000, 4097):
            out[f"sum_rows_{n}_{tag}"] = (lambda x: x.sum(-1), [r(5, n)])
        labels = np.eye(10, dtype=dt)[rng.integers(0, 10, 16)]
        out.update({
            f"sum_cols_{tag}": (lambda x: x.sum(0), [r(301, 37)]),
            f"sum_all_{tag}": (lambda x: x.sum(), [r(129, 77)]),
            f"sum_middle_{tag}": (lambda x: x.sum(1), [r(6, 45, 7)]),
            f"mean_{tag}": (lambda x: x.mean(-1), [r(33, 517)]),
            f"prod_{tag}": (lambda x: (1 + 0.01 * x).prod(-1), [r(9, 300)]),
            f"sum_squares_{tag}": (lambda x: (x * x).sum(-1), [r(17, 250)]),
            f"dot_rows_{tag}": (lambda x, y: (x * y).sum(-1), [r(17, 250), r(17, 250)]),
            f"matmul_odd_{tag}": (lambda a, b: a @ b, [r(33, 71), r(71, 29)]),
            f"matvec_{tag}": (lambda a, b: a @ b, [r(1, 513), r(513, 1)]),
            f"batched_{tag}": (
                lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
                [r(3, 5, 19), r(3, 19, 6)],
            ),
            f"softmax_{tag}": (lambda x: nn.softmax(x, -1), [r(17, 131)]),
            f"logsumexp_{tag}": (lambda x: nn.logsumexp(x, -1), [r(17, 131)]),
            f"layer_norm_{tag}": (_layer_norm, [r(13, 200)]),
            f"axpy_{tag}": (lambda a, b, c: a * b + c, [r(1001), r(1001), r(1001)]),
            f"div_cols_{tag}": (lambda x, s: x / s, [r(13, 200), r(13, 1)]),
            f"div_const_{tag}": (lambda x: x / 7.0 - x * (1 / 3), [r(999)]),
            f"transcendental_{tag}": (_transcendental, [r(1003)]),
            f"cumsum_{tag}": (lambda x: jnp.cumsum(x, -1), [r(4, 300)]),
            f"conv_{tag}": (_conv, [r(2, 3, 9, 9), r(4, 3, 3, 3)]),
            f"avg_pool_{tag}": (_avg_pool, [r(2, 15, 15)]),
            f"rnn_scan_{tag}": (_rnn, [0.3 * r(16, 16), 0.3 * r(8, 16), r(6, 4, 8)]),
            f"mlp_grad_{tag}": (
                _mlp_grad,
                [0.2 * r(24, 40), r(40), 0.2 * r(40, 10), r(16, 24), labels],
            ),
        })  # fmt: skip
    for dt, tag in ((np.complex64, "c64"), (np.complex128, "c128")):

        def c(*shape, dt=dt):
            return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)

        lam = (0.9 * np.exp(1j * np.linspace(0.1, 1.0, 16))).astype(dt)
        out.update({
            f"complex_arith_{tag}": (lambda a, b: a * b + a / b - jnp.conj(a), [c(9, 7), c(9, 7)]),
            f"complex_exp_abs_{tag}": (lambda a: (jnp.exp(a) * 2, jnp.abs(a).sum(-1)), [c(9, 100)]),
            f"complex_sum_{tag}": (lambda a, b: (a * b).sum(-1), [c(7, 300), c(7, 300)]),
            f"complex_matmul_{tag}": (lambda a, b: (a @ b).real, [c(9, 31), c(31, 5)]),
            f"complex_lru_{tag}": (_lru, [lam, c(40, 16), c(3, 16)]),
        })  # fmt: skip
    bf = lambda *shape: rng.standard_normal(shape).astype(jnp.bfloat16)  # noqa: E731
    out["bfloat16_dense_sum"] = (
        lambda x, w, b: (nn.relu(x @ w + b).sum(0), jnp.exp(x).sum(-1)),
        [bf(16, 40), bf(40, 24), bf(24)],
    )
    return out
