"""Hand-written NumPy (float64) versions of each optimizer's published update rule.

They play the role `jax.example_libraries.optimizers` played for Optax's equivalence tests: a
few lines per optimizer, written from the paper's algorithm box, independent of `optim`'s
transformation machinery. Where Optax fixes a detail the paper leaves open (eps placement,
initial accumulators), the reference follows Optax and says so.

Each reference is a class holding the state of ONE parameter array; `step(g, p)` returns the new
parameter. `run(ref_cls, kwargs, params, grad_fn, steps)` applies it leaf by leaf.
"""

from __future__ import annotations

import numpy as np


def run(ref_cls, kwargs, params: dict, grad_fn, steps: int) -> list[dict]:
    """Returns the parameter dicts after each of `steps` updates (float64)."""
    params = {k: np.asarray(v, np.float64) for k, v in params.items()}
    refs = {k: ref_cls(np.shape(v), **kwargs) for k, v in params.items()}
    out = []
    for _ in range(steps):
        grads = grad_fn(params)
        params = {k: refs[k].step(grads[k], params[k]) for k in params}
        out.append(params)
    return out


def _norm(x):
    return np.sqrt(np.sum(x * x))


class SGD:
    """Heavy-ball / Nesterov momentum without dampening (Sutskever et al., 2013)."""

    def __init__(self, shape, learning_rate, momentum=None, nesterov=False):
        self.lr, self.mu, self.nesterov = learning_rate, momentum, nesterov
        self.buf = np.zeros(shape)

    def step(self, g, p):
        if self.mu is None:
            return p - self.lr * g
        self.buf = g + self.mu * self.buf
        d = g + self.mu * self.buf if self.nesterov else self.buf
        return p - self.lr * d


class Adam:
    """Adam (Kingma & Ba, 2014, Algorithm 1); `nesterov` is NAdam in Optax's form (Dozat, 2016):
    `m_hat = b1 m / (1 - b1**(t+1)) + (1 - b1) g / (1 - b1**t)`; `weight_decay` is AdamW's
    decoupled decay (Loshchilov & Hutter, 2019), multiplied by the learning rate."""

    def __init__(
        self,
        shape,
        learning_rate,
        b1=0.9,
        b2=0.999,
        eps=1e-8,
        eps_root=0.0,
        nesterov=False,
        weight_decay=0.0,
    ):
        self.lr, self.b1, self.b2, self.eps, self.eps_root = learning_rate, b1, b2, eps, eps_root
        self.nesterov, self.wd = nesterov, weight_decay
        self.m, self.v, self.t = np.zeros(shape), np.zeros(shape), 0

    def direction(self, g):
        b1, b2 = self.b1, self.b2
        self.t += 1
        t = self.t
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        if self.nesterov:
            m_hat = b1 * self.m / (1 - b1 ** (t + 1)) + (1 - b1) * g / (1 - b1**t)
        else:
            m_hat = self.m / (1 - b1**t)
        v_hat = self.v / (1 - b2**t)
        return m_hat / (np.sqrt(v_hat + self.eps_root) + self.eps)

    def step(self, g, p):
        return p - self.lr * (self.direction(g) + self.wd * p)


class Adamax:
    """Adamax (Kingma & Ba, 2014, Algorithm 2), with Optax's `u = max(b2 u, |g| + eps)`."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0):
        self.lr, self.b1, self.b2, self.eps, self.wd = learning_rate, b1, b2, eps, weight_decay
        self.m, self.u, self.t = np.zeros(shape), np.zeros(shape), 0

    def step(self, g, p):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.u = np.maximum(self.b2 * self.u, np.abs(g) + self.eps)
        return p - self.lr * (self.m / (1 - self.b1**self.t) / self.u + self.wd * p)


class AMSGrad:
    """AMSGrad (Reddi et al., 2018), on the bias-corrected second moment as in Optax."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = learning_rate, b1, b2, eps
        self.m, self.v, self.vmax, self.t = np.zeros(shape), np.zeros(shape), np.zeros(shape), 0

    def step(self, g, p):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        self.vmax = np.maximum(self.vmax, self.v / (1 - self.b2**self.t))
        m_hat = self.m / (1 - self.b1**self.t)
        return p - self.lr * m_hat / (np.sqrt(self.vmax) + self.eps)


class RAdam:
    """Rectified Adam (Liu et al., 2020, Algorithm 2)."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-8, threshold=5.0):
        self.lr, self.b1, self.b2, self.eps, self.threshold = learning_rate, b1, b2, eps, threshold
        self.m, self.v, self.t = np.zeros(shape), np.zeros(shape), 0

    def step(self, g, p):
        b1, b2 = self.b1, self.b2
        self.t += 1
        t = self.t
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        m_hat = self.m / (1 - b1**t)
        rho_inf = 2 / (1 - b2) - 1
        rho = rho_inf - 2 * t * b2**t / (1 - b2**t)
        if rho < self.threshold:
            return p - self.lr * m_hat
        r = np.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
        v_hat = self.v / (1 - b2**t)
        return p - self.lr * r * m_hat / (np.sqrt(v_hat) + self.eps)


class RMSProp:
    """RMSProp (Hinton, 2012, lecture 6e) with Optax's `g / sqrt(v + eps)`; `centered` is
    Graves (2013); `momentum` accumulates the lr-scaled steps."""

    def __init__(self, shape, learning_rate, decay=0.9, eps=1e-8, centered=False, momentum=None):
        self.lr, self.decay, self.eps, self.centered, self.mom = (
            learning_rate,
            decay,
            eps,
            centered,
            momentum,
        )
        self.v, self.mg, self.buf = np.zeros(shape), np.zeros(shape), np.zeros(shape)

    def step(self, g, p):
        d = self.decay
        self.v = d * self.v + (1 - d) * g * g
        self.mg = d * self.mg + (1 - d) * g
        denom = self.v - self.mg**2 if self.centered else self.v
        u = self.lr * g / np.sqrt(denom + self.eps)
        if self.mom is None:
            return p - u
        self.buf = u + self.mom * self.buf
        return p - self.buf


class Adagrad:
    """Adagrad (Duchi et al., 2011), accumulator starting at `initial_accumulator_value`."""

    def __init__(self, shape, learning_rate, initial_accumulator_value=0.1, eps=1e-7):
        self.lr, self.eps = learning_rate, eps
        self.s = np.full(shape, float(initial_accumulator_value))

    def step(self, g, p):
        self.s = self.s + g * g
        return p - self.lr * np.where(self.s > 0, g / np.sqrt(self.s + self.eps), 0.0)


class Adadelta:
    """Adadelta (Zeiler, 2012, Algorithm 1), step multiplied by `learning_rate`; without one
    the step is added unscaled and unnegated (Optax's `scale_by_learning_rate(None)`)."""

    def __init__(self, shape, learning_rate=None, rho=0.9, eps=1e-6, weight_decay=0.0):
        self.lr = -1.0 if learning_rate is None else learning_rate
        self.rho, self.eps, self.wd = rho, eps, weight_decay
        self.eg, self.ex = np.zeros(shape), np.zeros(shape)

    def step(self, g, p):
        g = g + self.wd * p
        self.eg = self.rho * self.eg + (1 - self.rho) * g * g
        dx = np.sqrt(self.ex + self.eps) / np.sqrt(self.eg + self.eps) * g
        self.ex = self.rho * self.ex + (1 - self.rho) * dx * dx
        return p - self.lr * dx


class AdaBelief:
    """AdaBelief (Zhuang et al., 2020, Algorithm 2): `s` tracks `(g - m)**2 + eps_root`."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-16, eps_root=1e-16):
        self.lr, self.b1, self.b2, self.eps, self.eps_root = learning_rate, b1, b2, eps, eps_root
        self.m, self.s, self.t = np.zeros(shape), np.zeros(shape), 0

    def step(self, g, p):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.s = self.b2 * self.s + (1 - self.b2) * (g - self.m) ** 2 + self.eps_root
        m_hat = self.m / (1 - self.b1**self.t)
        s_hat = self.s / (1 - self.b2**self.t)
        return p - self.lr * m_hat / (np.sqrt(s_hat) + self.eps)


class Lamb:
    """LAMB (You et al., 2020, Algorithm 2) with identity scaling function."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-6, weight_decay=0.0):
        self.adam = Adam(shape, 1.0, b1, b2, eps)
        self.lr, self.wd = learning_rate, weight_decay

    def step(self, g, p):
        r = self.adam.direction(g) + self.wd * p
        pn, rn = _norm(p), _norm(r)
        ratio = 1.0 if pn == 0 or rn == 0 else pn / rn
        return p - self.lr * ratio * r


class Lars:
    """LARS (You et al., 2017, Algorithm 1), momentum applied to the lr-scaled step."""

    def __init__(
        self,
        shape,
        learning_rate,
        weight_decay=0.0,
        trust_coefficient=0.001,
        eps=0.0,
        momentum=0.9,
        nesterov=False,
    ):
        self.lr, self.wd, self.tc, self.eps = learning_rate, weight_decay, trust_coefficient, eps
        self.mom, self.nesterov = momentum, nesterov
        self.buf = np.zeros(shape)

    def step(self, g, p):
        g = g + self.wd * p
        pn, gn = _norm(p), _norm(g)
        ratio = 1.0 if pn == 0 or gn == 0 else self.tc * pn / (gn + self.eps)
        u = self.lr * ratio * g
        self.buf = u + self.mom * self.buf
        return p - (u + self.mom * self.buf if self.nesterov else self.buf)


class Lion:
    """Lion (Chen et al., 2023, Algorithm 2), decoupled decay multiplied by the lr."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.99, weight_decay=1e-3):
        self.lr, self.b1, self.b2, self.wd = learning_rate, b1, b2, weight_decay
        self.m = np.zeros(shape)

    def step(self, g, p):
        c = self.b1 * self.m + (1 - self.b1) * g
        self.m = self.b2 * self.m + (1 - self.b2) * g
        return p - self.lr * (np.sign(c) + self.wd * p)


class Adafactor:
    """Adafactor (Shazeer & Stern, 2018, Algorithms 4/5) as Optax configures it: decay
    `1 - t**-0.8`, update clipping at RMS 1, step multiplied by `lr * max(rms(p), 1e-3)`.
    Matrices are factored (rows = the larger first axis); vectors keep a full `v`."""

    def __init__(self, shape, learning_rate=None, min_dim_size_to_factor=128, eps=1e-30):
        self.lr = 1.0 if learning_rate is None else learning_rate
        self.eps, self.t = eps, 0
        self.factored = len(shape) == 2 and min(shape) >= min_dim_size_to_factor
        if self.factored:
            assert shape[0] >= shape[1], "the reference factors matrices with rows >= columns"
            self.r, self.c = np.zeros(shape[1]), np.zeros(shape[0])
        else:
            self.v = np.zeros(shape)

    def step(self, g, p):
        self.t += 1
        beta2 = 1 - self.t**-0.8
        g2 = g * g + self.eps
        if self.factored:
            self.r = beta2 * self.r + (1 - beta2) * g2.mean(axis=0)
            self.c = beta2 * self.c + (1 - beta2) * g2.mean(axis=1)
            v_hat = np.outer(self.c, self.r) / self.r.mean()
        else:
            self.v = v_hat = beta2 * self.v + (1 - beta2) * g2
        u = g / np.sqrt(v_hat)
        u = u / max(1.0, np.sqrt(np.mean(u * u)))
        return p - self.lr * max(np.sqrt(np.mean(p * p)), 1e-3) * u


class NovoGrad:
    """NovoGrad (Ginsburg et al., 2019, Algorithm 1): one second moment per layer."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.25, eps=1e-6, weight_decay=0.0):
        self.lr, self.b1, self.b2, self.eps, self.wd = learning_rate, b1, b2, eps, weight_decay
        self.m, self.v, self.t = np.zeros(shape), 0.0, 0

    def step(self, g, p):
        self.t += 1
        gn2 = np.sum(g * g)
        self.v = gn2 if self.t == 1 else self.b2 * self.v + (1 - self.b2) * gn2
        d = g / (np.sqrt(self.v) + self.eps) + self.wd * p
        self.m = d if self.t == 1 else self.b1 * self.m + d
        return p - self.lr * self.m


class Yogi:
    """Yogi (Zaheer et al., 2018, Algorithm 2); moments start at 1e-6 as in Optax."""

    def __init__(self, shape, learning_rate, b1=0.9, b2=0.999, eps=1e-3):
        self.lr, self.b1, self.b2, self.eps = learning_rate, b1, b2, eps
        self.m, self.v, self.t = np.full(shape, 1e-6), np.full(shape, 1e-6), 0

    def step(self, g, p):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.v - (1 - self.b2) * np.sign(self.v - g * g) * g * g
        m_hat = self.m / (1 - self.b1**self.t)
        v_hat = self.v / (1 - self.b2**self.t)
        return p - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class Fromage:
    """Fromage (Bernstein et al., 2020, Algorithm 1)."""

    def __init__(self, shape, learning_rate):
        self.lr = learning_rate

    def step(self, g, p):
        ratio = _norm(p) / _norm(g)
        return (p - self.lr * ratio * g) / np.sqrt(1 + self.lr**2)


class SM3:
    """SM3-II (Anil et al., 2019, Algorithm 2; cover = rows and columns), with momentum on the
    preconditioned gradient as in Optax."""

    def __init__(self, shape, learning_rate, momentum=0.9):
        self.lr, self.b1 = learning_rate, momentum
        self.acc = [np.zeros(n) for n in shape]
        self.m = np.zeros(shape)

    def step(self, g, p):
        if g.ndim == 1:
            nu = self.acc[0] + g * g
            self.acc[0] = nu
        else:
            nu = np.minimum(self.acc[0][:, None], self.acc[1][None, :]) + g * g
            self.acc = [nu.max(axis=1), nu.max(axis=0)]
        u = np.where(nu > 0, g / np.sqrt(nu + 1e-8), 0.0)
        self.m = self.b1 * self.m + (1 - self.b1) * u
        return p - self.lr * self.m


class SignSGD:
    """signSGD (Bernstein et al., 2018, Algorithm 1)."""

    def __init__(self, shape, learning_rate):
        self.lr = learning_rate

    def step(self, g, p):
        return p - self.lr * np.sign(g)


class Signum:
    """Signum (Bernstein et al., 2018, Algorithm 3): sign of the momentum."""

    def __init__(self, shape, learning_rate, beta=0.9):
        self.lr, self.beta = learning_rate, beta
        self.m = np.zeros(shape)

    def step(self, g, p):
        self.m = self.beta * self.m + (1 - self.beta) * g
        return p - self.lr * np.sign(self.m)
