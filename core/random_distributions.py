"""The rest of `jax.random`'s samplers (gamma family, Poisson, binomial, ...), re-exported by
`core.random` and written on the helpers of `core/random_base.py`.

Every sampler is JAX 0.10.2's algorithm step by step: the same key splits, the same uniform and
normal draws, the same float32 formulas. Closed-form transforms of uniform/normal bits give
JAX's numbers (up to the last-ulp differences between numpy's and XLA's `log`/`tan`/`pow`).
Rejection samplers keep JAX's loop structure and key usage, so they give JAX's numbers as long
as no accept/reject test lands within an ulp of its threshold:

* gamma (Marsaglia-Tsang): one key per element (`split(key, size)`), then per element a
  `while_loop` that splits its key on every proposal, run over all elements with `vmap`;
  differentiable in `a` by implicit reparameterization (`random_gamma_grad`, JAX's igamma
  series / continued fraction). Its `1 + x * c` is one FMA, as XLA contracts it; XLA computes
  `c = (1/3) / sqrt(d)` as `(1/3) * rsqrt(d)` with a hardware estimate refined by Newton steps,
  one ulp from numpy's division for some shapes `a` (about 1 draw in 10 then differs);
* poisson (Knuth below 10, Hormann's transformed rejection above) and binomial (inversion for
  `n p <= 10`, BTRS above) loop over the whole sample array, one key split per round.

beta, dirichlet, chisquare, f, t, generalized_normal and ball are built on (log)gamma as in JAX.

The samplers take JAX's keyword-only `out_sharding` (`core.named_sharding.takes_out_sharding`).

Partial: `key_impl` returns the implementation's name (JAX: a `PRNGSpec` that prints it); on
`rbg`/`unsafe_rbg` keys the gamma family's numbers are not JAX's (its vmapped loops draw the
batched bits of XLA's generator in another order); JAX's safe-to-cast checks on parameters are
not implemented; the gamma family works eagerly, under `vmap` and `grad`, and under `jit` once
the compiler inlines `custom_jvp_call` (the other samplers compile today).
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero
from core.api import vmap
from core.errors import RandomArgumentError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import tangent_aval
from core.named_sharding import takes_out_sharding
from core.numpy._util import broadcast_shapes, broadcast_to, ensure_array
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import prng, sorting
from core.prims import reductions as red
from core.prims import shapes as sh
from core.prims.control_flow import scan, while_loop
from core.random_base import (
    _as_keys,
    _check_impl,
    _check_key,
    _dtype_arg,
    _normal,
    _param,
    _sample_shape,
    _setup,
    _shape,
    _split_keys,
    _typed_like,
    _uniform,
    check_legacy_key,
    exponential,
    impl_scope,
    rademacher,
    scope_impl,
    typed,
)
from core.trace import get_aval

__all__ = [
    "random_gamma_p",
    "ball",
    "beta",
    "binomial",
    "cauchy",
    "chisquare",
    "clone",
    "dirichlet",
    "double_sided_maxwell",
    "f",
    "gamma",
    "generalized_normal",
    "geometric",
    "key_dtype",
    "key_impl",
    "loggamma",
    "lognormal",
    "maxwell",
    "multinomial",
    "pareto",
    "poisson",
    "rayleigh",
    "t",
    "triangular",
    "wald",
    "weibull_min",
]

# ---------------------------------------------------------------------------------------------
# Helpers


def _inexact(x: Any) -> Any:
    """`x` as an array of its dtype promoted to float (weak Python floats stay weak)."""
    x = ensure_array(x)
    aval = get_aval(x)
    if dtypes.kind(aval.dtype) == "f":
        return x
    return sh.convert_element_type(x, dtypes.default_float(), aval.weak_type)


def _quiet(fn: Any) -> Any:
    """Runs `fn` without numpy's floating-point warnings: eagerly, the rejected proposals of
    the samplers divide by zero and make NaNs that are then selected away (silently, in JAX)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return wrapper


# ---------------------------------------------------------------------------------------------
# Keys


def clone(key: Any) -> Any:
    """A copy of `key` for deliberate reuse (the identity, `random_clone`: there is no key-reuse
    checker)."""
    return _typed_like(key, prng.random_clone(_as_keys(_check_key("clone", key, batched=True))))


def key_impl(keys: Any) -> str:
    """The name of the PRNG implementation of `keys` (for raw data, the default's:
    `jax_default_prng_impl`)."""
    check_legacy_key("key_impl", keys)
    keys = _check_key("key_impl", keys, batched=True)
    return prng.impl_of(keys.dtype).name if typed(keys) else scope_impl()


def key_dtype(impl_spec: Any = None) -> dtypes.KeyDType:
    """The dtype of typed key arrays of an implementation: `key<fry>` (threefry2x32, the
    default; data `uint32[..., 2]`), `key<rbg>` or `key<urbg>` (rbg, unsafe_rbg; 4 words).

    Args:
      impl_spec: None or an implementation's name (see `random.key`).

    Returns:
      The key dtype.
    """
    return prng.key_dtype(prng.IMPLS[_check_impl(impl_spec)])


# ---------------------------------------------------------------------------------------------
# Closed-form transforms of uniform and normal samples


@takes_out_sharding
def cauchy(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard Cauchy floats: `tan(pi * (u - 1/2))` with `u` uniform in `[eps, 1)`.

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype = _setup("cauchy", key, shape, dtype)
    u = _uniform(key, shape, dtype, float(dtypes.finfo(dtype).eps), 1.0)
    return ew.tan(ew.mul(ew.sub(u, 0.5), float(np.pi)))


@takes_out_sharding
def lognormal(
    key: Any, sigma: Any = 1.0, shape: Sequence[int] | None = None, dtype: Any = None
) -> Any:
    """Log-normal floats: `exp(sigma * normal)`.

    Args:
      key: a PRNG key.
      sigma: the standard deviation(s) of the underlying normal, broadcast-compatible with `shape`.
      shape: the result shape (default: `sigma`'s shape).
      dtype: a float or complex dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, sigma = _setup("lognormal", key, shape, dtype, sigma, kind="fc")
    return ew.exp(ew.mul(_normal(key, shape, dtype), sigma))


@takes_out_sharding
def pareto(key: Any, b: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Pareto floats with shape parameter `b` (support `[1, inf)`): `exp(exponential / b)`.

    Args:
      key: a PRNG key.
      b: the shape parameter(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `b`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, b = _setup("pareto", key, shape, dtype, b)
    return ew.exp(ew.div(exponential(key, shape, dtype), b))


@takes_out_sharding
def rayleigh(key: Any, scale: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Rayleigh floats: `scale * sqrt(-2 log(u))`.

    Args:
      key: a PRNG key.
      scale: the scale(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `scale`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, scale = _setup("rayleigh", key, shape, dtype, scale)
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    return ew.mul(scale, ew.sqrt(ew.mul(ew.log(u), -2.0)))


@takes_out_sharding
def wald(key: Any, mean: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Wald (inverse Gaussian) floats with unit shape, by Michael-Schucany-Haas.

    Args:
      key: a PRNG key.
      mean: the mean(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `mean`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, mean = _setup("wald", key, shape, dtype, mean)
    k1, k2 = _split_keys(key)
    v = _normal(k1, shape, dtype)
    z = _uniform(k2, shape, dtype, 0.0, 1.0)
    y = ew.integer_pow(v, 2)
    y_sq = ew.integer_pow(y, 2)
    mean_sq = ew.integer_pow(mean, 2)
    # JAX's `4 * mean * y + mean_sq * y_sq` and `... - mean / 2 * sqrt_term`, contracted as
    # XLA's CPU back end contracts them (its `/ 2` is an exact `* 0.5`, left as it is)
    sqrt_term = ew.sqrt(_fma(ew.mul(4.0, mean), y, ew.mul(mean_sq, y_sq)))
    x = ew.add(mean, ew.div(ew.mul(mean_sq, y), 2.0))
    x = _fma(ew.neg(ew.div(mean, 2.0)), sqrt_term, x)
    return ew.select(ew.le(z, ew.div(mean, ew.add(mean, x))), x, ew.div(mean_sq, x))


def _fma(a: Any, b: Any, c: Any) -> Any:
    """`a * b + c` of a sampler's formula where XLA's CPU back end contracts it: one rounding
    for float32/float64 (`prng.fma`), two for 16-bit floats (as `_uniform`)."""
    if dtypes.finfo(get_aval(a).dtype).nmant < 16:
        return ew.add(ew.mul(a, b), c)
    return prng.fma(a, b, c)


def weibull_min(
    key: Any, scale: Any, concentration: Any, shape: Sequence[int] = (), dtype: Any = None
) -> Any:
    """Weibull floats by the inverse CDF: `(-log1p(-u)) ** (1 / concentration) * scale`.

    As in JAX, the result shape is the broadcast of `shape` with the parameters' shapes.

    Args:
      key: a PRNG key.
      scale: the scale(s) (> 0).
      concentration: the concentration(s) (> 0).
      shape: the sample shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `dtype`.
    """
    key, shape, dtype = _setup("weibull_min", key, shape, dtype)
    scale, concentration = ensure_array(scale), ensure_array(concentration)
    out_shape = broadcast_shapes(shape, get_aval(scale).shape, get_aval(concentration).shape)
    u = broadcast_to(_uniform(key, shape, dtype, 0.0, 1.0), out_shape)
    scale, concentration = (
        _param(x, dtype, out_shape, "weibull_min") for x in (scale, concentration)
    )
    base = ew.neg(ew.log1p(ew.neg(u)))
    return ew.mul(ew.pow(base, ew.div(1.0, concentration)), scale)


@takes_out_sharding
def maxwell(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """One-sided Maxwell floats: the norm of 3 standard normals.

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    return _maxwell(*_setup("maxwell", key, shape, dtype))


def _maxwell(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """JAX's `norm(normal(key, shape + (3,)), axis=-1)`, its three squares summed in the order
    XLA's CPU reduction adds them, `(z0**2 + z2**2) + z1**2` (the last bit of JAX's float32
    and float64 samples depends on it; 16-bit floats differ in their last bit, see the module
    docstring)."""
    z = _normal(key, (*shape, 3), dtype)
    axis = len(shape)
    z0, z1, z2 = (sh.squeeze(ix.slice_in_dim(z, i, i + 1, axis=axis), (axis,)) for i in range(3))
    return ew.sqrt(ew.add(ew.add(ew.mul(z0, z0), ew.mul(z2, z2)), ew.mul(z1, z1)))


def double_sided_maxwell(
    key: Any, loc: Any, scale: Any, shape: Sequence[int] = (), dtype: Any = None
) -> Any:
    """Double-sided Maxwell floats: `sign * maxwell * scale + loc`.

    As in JAX, the result shape is `shape + broadcast(loc, scale).shape` (with an empty
    `shape`, the parameters' shape is used for both parts).

    Args:
      key: a PRNG key.
      loc: the location(s).
      scale: the scale(s).
      shape: the leading sample shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `dtype`.
    """
    key, shape, dtype = _setup("double_sided_maxwell", key, shape, dtype)
    params_shape = _sample_shape(None, loc, scale)
    shape = (*(shape or params_shape), *params_shape)
    maxwell_key, rademacher_key = _split_keys(key)
    maxwell_rvs = _maxwell(maxwell_key, shape, dtype)
    random_sign = rademacher(rademacher_key, shape, dtype)
    loc, scale = (_param(x, dtype, shape, "double_sided_maxwell") for x in (loc, scale))
    return _fma(ew.mul(random_sign, maxwell_rvs), scale, loc)


@takes_out_sharding
def geometric(key: Any, p: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Geometric integers (trials until the first success, >= 1): `floor(log u / log1p(-p)) + 1`.

    Args:
      key: a PRNG key.
      p: success probabilities, broadcast-compatible with `shape`.
      shape: the result shape (default: `p`'s shape).
      dtype: an integer dtype (int32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _check_key("geometric", key)
    dtype = _dtype_arg("geometric", dtype, "iu")
    shape = _sample_shape(shape, p)
    p = _inexact(p)
    pdt = get_aval(p).dtype
    u = _uniform(key, shape, pdt, 0.0, 1.0)
    u = ew.select(ew.eq(u, 0.0), ew.full_like(u, 1.0), u)
    log_one_minus_p = _param(ew.log1p(ew.neg(p)), pdt, shape, "geometric")
    g = ew.add(ew.floor(ew.div(ew.log(u), log_one_minus_p)), 1.0)
    return sh.convert_element_type(g, dtype)


@takes_out_sharding
def triangular(
    key: Any,
    left: Any,
    mode: Any,
    right: Any,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
) -> Any:
    """Triangular floats on `[left, right]` with peak at `mode`, by the inverse CDF.

    Args:
      key: a PRNG key.
      left: lower limit(s).
      mode: peak(s), `left <= mode <= right`.
      right: upper limit(s).
      shape: the result shape (default: the broadcast of the parameters' shapes).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, left, mode, right = _setup(
        "triangular", key, shape, dtype, left, mode, right
    )
    width = ew.sub(right, left)
    fc = ew.div(ew.sub(mode, left), width)
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    out1 = ew.add(left, ew.sqrt(ew.mul(ew.mul(u, width), ew.sub(mode, left))))
    out2 = ew.sub(right, ew.sqrt(ew.mul(ew.mul(ew.sub(1.0, u), width), ew.sub(right, mode))))
    return ew.select(ew.lt(u, fc), out1, out2)


# ---------------------------------------------------------------------------------------------
# Gamma and the distributions built on it


@takes_out_sharding
def gamma(key: Any, a: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Standard gamma floats (unit scale) by Marsaglia-Tsang, as JAX samples them.

    Differentiable with respect to `a` (implicit reparameterization, `random_gamma_grad`);
    forward and reverse mode.

    Args:
      key: a PRNG key.
      a: shape parameter(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `a`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    return _gamma_sampler("gamma", key, a, shape, dtype, False)


@takes_out_sharding
def loggamma(key: Any, a: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """The log of standard gamma floats, computed in log space (accurate for tiny `a`).

    `exp(loggamma(key, a)) ~= gamma(key, a)` (the same draws). Differentiable in `a`.

    Args:
      key: a PRNG key.
      a: shape parameter(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `a`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    return _gamma_sampler("loggamma", key, a, shape, dtype, True)


def _gamma_sampler(name: str, key: Any, a: Any, shape: Any, dtype: Any, log_space: bool) -> Any:
    """`gamma` (`loggamma` if `log_space`) after the checks of its arguments (the dtype's
    message names `gamma` for both, as JAX's)."""
    key, dtype = _check_key(name, key), _dtype_arg("gamma", dtype)
    return _gamma(key, a, _sample_shape(shape, a), dtype, log_space)


def _gamma(key: Any, a: Any, shape: tuple[int, ...], dtype: np.dtype, log_space: bool) -> Any:
    a = _param(a, dtype, shape, "gamma")
    return random_gamma_p.bind(_as_keys(key), a, log_space=log_space)


# JAX's `random_gamma_p`: Gamma (or log-gamma) samples of `a`'s shape from keys of `a`'s
# leading shape, each key split into one per sample; differentiable in `a` (implicit
# reparameterization: `t * d sample / d a`), batched along the keys, computed on their data.
random_gamma_p = Primitive("random_gamma")


def _random_gamma_abstract_eval(key: Any, a: Any, *, log_space: bool) -> Any:
    if not prng.is_key(key) or key.shape != a.shape[: key.ndim]:
        raise RandomArgumentError(
            "random_gamma takes keys of the samples' leading shape, got "
            f"{key.str_short(short_dtypes=True)} "
            f"for {a.str_short(short_dtypes=True)}"
        )
    return a


def _random_gamma_jvp(primals: Any, tangents: Any, *, log_space: bool) -> Any:
    key, a = primals
    out = random_gamma_p.bind(key, a, log_space=log_space)
    if isinstance(tangents[1], Zero):
        return out, Zero(tangent_aval(get_aval(out)))
    return out, ew.mul(tangents[1], _gamma_grad(out, a, log_space))


def _random_gamma_batch(args: Any, dims: Any, *, log_space: bool) -> Any:
    size = next(get_aval(x).shape[d] for x, d in zip(args, dims) if d is not None)
    key, a = (batching.bdim_at_front(x, d, size) for x, d in zip(args, dims))
    return random_gamma_p.bind(key, a, log_space=log_space), 0


@_quiet
def _random_gamma_physical(avals: Any, data: Any, a: Any, *, log_space: bool) -> Any:
    shape = get_aval(a).shape
    size = math.prod(shape)
    if size == 0:
        return a
    impl = prng.impl_of(avals[0].dtype)
    with impl_scope(impl.name):  # the keys the samplers split are of the key's impl
        count = math.prod(shape[avals[0].ndim :])
        keys = impl.split(data, (count,))
        keys = sh.reshape(keys, (size, math.prod(impl.key_shape)))
        alphas = sh.reshape(a, (size,))
        one = lambda k, al: _gamma_one(k, al, log_space)  # noqa: E731
        if impl is prng.threefry_prng_impl:
            samples = vmap(one)(keys, alphas)
        else:  # XLA's bit generator batches from the first key: a loop, as JAX lowers it
            samples = scan(lambda c, ka: (c, one(*ka)), (), (keys, alphas))[1]
    return sh.reshape(samples, shape)


random_gamma_p.def_abstract_eval(_random_gamma_abstract_eval)
random_gamma_p.def_jvp(_random_gamma_jvp)
random_gamma_p.def_batch(_random_gamma_batch)
prng.def_physical(random_gamma_p, _random_gamma_physical)


def _gamma_one(key: Any, alpha: Any, log_space: bool) -> Any:
    # Marsaglia and Tsang, "A simple method for generating gamma variables" (2000). For
    # alpha < 1, sample Gamma(alpha + 1) and multiply by u ** (1 / alpha).
    dtype = get_aval(alpha).dtype
    zero, one = ew.full_like(alpha, 0.0), ew.full_like(alpha, 1.0)
    boost_mask = ew.ge(alpha, 1.0)
    alpha_orig = alpha
    alpha = ew.select(boost_mask, alpha, ew.add(alpha, 1.0))
    d = ew.sub(alpha, 1.0 / 3.0)
    c = ew.div(1.0 / 3.0, ew.sqrt(d))

    def cond_fn(kxvu: Any) -> Any:
        _, x, v, u = kxvu
        squeeze = ew.ge(u, ew.sub(1.0, ew.mul(0.0331, ew.mul(x, x))))
        log_test = ew.ge(
            ew.log(u), ew.add(ew.mul(x, 0.5), ew.mul(d, ew.add(ew.sub(1.0, v), ew.log(v))))
        )
        return ew.bitwise_and(squeeze, log_test)

    def next_kxv(kxv: Any) -> Any:
        k, subkey = _split_keys(kxv[0])
        x = _normal(subkey, (), dtype)
        return k, x, _fma(x, c, one)  # XLA contracts JAX's `1 + x * c`

    def body_fn(kxvu: Any) -> Any:
        k, x_key, u_key = _split_keys(kxvu[0], 3)
        _, x, v = while_loop(lambda kxv: ew.le(kxv[2], 0.0), next_kxv, (x_key, zero, -one))
        u = _uniform(u_key, (), dtype, 0.0, 1.0)
        return k, ew.mul(x, x), ew.mul(ew.mul(v, v), v), u

    key, subkey = _split_keys(key)
    # The initial state makes cond_fn true.
    _, _, v, _ = while_loop(cond_fn, body_fn, (key, zero, one, ew.full_like(alpha, 2.0)))
    if log_space:
        log_samples = ew.neg(exponential(subkey, (), dtype))
        skip = ew.bitwise_or(boost_mask, ew.eq(log_samples, 0.0))
        log_boost = ew.select(skip, zero, ew.mul(log_samples, ew.div(1.0, alpha_orig)))
        return ew.add(ew.add(ew.log(d), ew.log(v)), log_boost)
    samples = ew.sub(1.0, _uniform(subkey, (), dtype, 0.0, 1.0))
    boost = ew.select(boost_mask, one, ew.pow(samples, ew.div(1.0, alpha_orig)))
    return ew.mul(ew.mul(d, v), boost)


def _gamma_grad(sample: Any, a: Any, log_space: bool) -> Any:
    if not log_space:
        return random_gamma_grad(a, sample)
    # d log(x) = dx / x, with x = exp(log sample) rounded up from 0 to the smallest normal.
    x = ew.exp(sample)
    tiny = float(dtypes.finfo(get_aval(x).dtype).tiny)
    x = ew.select(ew.eq(x, 0.0), ew.full_like(x, tiny), x)
    return ew.div(random_gamma_grad(a, x), x)


@_quiet
def random_gamma_grad(a: Any, x: Any) -> Any:
    """The derivative of a standard gamma sample `x` with respect to its shape parameter `a`.

    `-(d CDF / d a) / pdf` at `x` (implicit reparameterization), with JAX's algorithm: the
    series for the regularized incomplete gamma where `x <= max(1, a)`, the continued fraction
    otherwise, each differentiated in `a` along its iterations (`lax.random_gamma_grad`).

    Args:
      a: shape parameters (> 0), a float array.
      x: samples, of `a`'s shape and dtype.

    Returns:
      `d x / d a`, of `a`'s shape and dtype.
    """
    a, x = ensure_array(a), ensure_array(x)
    dtype = get_aval(a).dtype
    is_nan = ew.bitwise_or(ew.ne(a, a), ew.ne(x, x))
    x_is_zero = ew.eq(x, 0.0)
    domain_error = ew.bitwise_or(ew.lt(x, 0.0), ew.le(a, 0.0))
    use_igammac = ew.bitwise_and(ew.gt(x, 1.0), ew.gt(x, a))
    ax = ew.sub(ew.sub(ew.mul(a, ew.log(x)), x), ew.lgamma(a))
    underflow = ew.lt(ax, -float(np.log(dtypes.finfo(dtype).max)))
    ax = ew.exp(ax)
    disabled = ew.bitwise_or(
        ew.bitwise_or(ew.bitwise_or(x_is_zero, domain_error), underflow), is_nan
    )
    enabled = ew.bitwise_not(disabled)
    out = ew.select(
        use_igammac,
        ew.neg(_igammac_cf_grad(x, a, ew.bitwise_and(enabled, use_igammac))),
        _igamma_series_grad(x, a, ew.bitwise_and(enabled, ew.bitwise_not(use_igammac))),
    )
    out = ew.select(x_is_zero, ew.full_like(out, 0.0), out)
    return ew.select(ew.bitwise_or(domain_error, is_nan), ew.full_like(a, np.nan), out)


def _any(pred: Any) -> Any:
    return red.reduce_or(pred, tuple(range(get_aval(pred).ndim)))


def _igamma_series_grad(x: Any, a: Any, enabled: Any) -> Any:
    """The series branch of `random_gamma_grad` (JAX's `_igamma_series`, SAMPLE_DERIVATIVE)."""
    eps = float(dtypes.finfo(get_aval(a).dtype).eps)

    def body(vals: Any) -> Any:
        enabled, r, c, ans, x, dc_da, dans_da = vals
        r = ew.add(r, 1.0)
        dc_da = ew.sub(ew.mul(dc_da, ew.div(x, r)), ew.div(ew.mul(c, x), ew.mul(r, r)))
        dans_da = ew.add(dans_da, dc_da)
        c = ew.mul(c, ew.div(x, r))
        ans = ew.add(ans, c)
        going = ew.bitwise_and(enabled, ew.gt(ew.abs(ew.div(dc_da, dans_da)), eps))
        new = (r, c, ans, x, dc_da, dans_da)
        return (going, *(ew.select(enabled, n, o) for n, o in zip(new, vals[1:])))

    init = (enabled, a, ew.full_like(a, 1.0), ew.full_like(a, 1.0), x)
    init = (*init, ew.full_like(a, 0.0), ew.full_like(a, 0.0))
    vals = while_loop(lambda v: _any(v[0]), body, init)
    ans, dans_da = vals[3], vals[6]
    dlogax_da = ew.sub(ew.log(x), ew.digamma(ew.add(a, 1.0)))
    return ew.div(ew.mul(ew.neg(ew.add(dans_da, ew.mul(ans, dlogax_da))), x), a)


def _igammac_cf_grad(x: Any, a: Any, enabled: Any) -> Any:
    """The continued-fraction branch of `random_gamma_grad` (JAX's
    `_igammac_continued_fraction`, SAMPLE_DERIVATIVE)."""
    eps = float(dtypes.finfo(get_aval(a).dtype).eps)

    def body(vals: Any) -> Any:
        (enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2) = vals[:10]
        (dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da) = vals[10:]
        c = ew.add(c, 1.0)  # a scalar iteration count
        cb = sh.broadcast_in_dim(c, get_aval(y).shape, ())
        y = ew.add(y, 1.0)
        z = ew.add(z, 2.0)
        yc = ew.mul(y, cb)
        pk = ew.sub(ew.mul(pkm1, z), ew.mul(pkm2, yc))
        qk = ew.sub(ew.mul(qkm1, z), ew.mul(qkm2, yc))
        qk_nonzero = ew.ne(qk, 0.0)
        r = ew.div(pk, qk)
        t = ew.select(qk_nonzero, ew.abs(ew.div(ew.sub(ans, r), r)), ew.full_like(r, 1.0))
        ans = ew.select(qk_nonzero, r, ans)
        dpk_da = ew.add(
            ew.sub(ew.sub(ew.mul(dpkm1_da, z), pkm1), ew.mul(dpkm2_da, yc)), ew.mul(pkm2, cb)
        )
        dqk_da = ew.add(
            ew.sub(ew.sub(ew.mul(dqkm1_da, z), qkm1), ew.mul(dqkm2_da, yc)), ew.mul(qkm2, cb)
        )
        dans_da_new = ew.select(
            qk_nonzero, ew.div(ew.sub(dpk_da, ew.mul(ans, dqk_da)), qk), dans_da
        )
        grad_cond = ew.select(
            qk_nonzero, ew.abs(ew.sub(dans_da_new, dans_da)), ew.full_like(dans_da, 1.0)
        )
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da = dpkm1_da, dqkm1_da, dpk_da, dqk_da
        rescale = ew.gt(ew.abs(pk), 1.0 / eps)
        scaled = [
            ew.select(rescale, ew.mul(v, eps), v)
            for v in (pkm2, pkm1, qkm2, qkm1, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da)
        ]
        pkm2, pkm1, qkm2, qkm1, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da = scaled
        going = ew.bitwise_and(enabled, ew.gt(grad_cond, eps))
        new = (ans, t, y, z)
        out = [ew.select(enabled, n, o) for n, o in zip(new, vals[1:5])]
        rest = (pkm1, qkm1, pkm2, qkm2, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da_new)
        out += [ew.select(enabled, n, o) for n, o in zip(rest, vals[6:])]
        return (going, *out[:4], c, *out[4:])

    y = ew.sub(1.0, a)
    z = ew.add(ew.add(x, y), 1.0)
    c = sh.full((), 0.0, get_aval(x).dtype)
    pkm1 = ew.add(x, 1.0)
    qkm1 = ew.mul(z, x)
    ans = ew.div(pkm1, qkm1)
    zeros = ew.full_like(x, 0.0)
    dqkm1_da = ew.neg(x)
    dans_da = ew.div(ew.sub(zeros, ew.mul(ans, dqkm1_da)), qkm1)
    init = (enabled, ans, ew.full_like(x, 1.0), y, z, c, pkm1, qkm1, ew.full_like(x, 1.0), x)
    init = (*init, zeros, zeros, zeros, dqkm1_da, dans_da)

    def cond(vals: Any) -> Any:
        return ew.bitwise_and(ew.lt(vals[5], 2000.0), _any(vals[0]))

    vals = while_loop(cond, body, init)
    ans, dans_da = vals[1], vals[14]
    dlogax_da = ew.sub(ew.log(x), ew.digamma(a))
    return ew.neg(ew.mul(ew.add(dans_da, ew.mul(ans, dlogax_da)), x))


@takes_out_sharding
def beta(key: Any, a: Any, b: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Beta floats: `G_a / (G_a + G_b)` from two log-gamma samples (stable for small a, b).

    Args:
      key: a PRNG key.
      a: first shape parameter(s) (> 0), broadcast-compatible with `shape`.
      b: second shape parameter(s) (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: the broadcast of `a`'s and `b`'s shapes).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, a, b = _setup("beta", key, shape, dtype, a, b)
    key_a, key_b = _split_keys(key)
    log_gamma_a = _gamma(key_a, a, shape, dtype, True)
    log_gamma_b = _gamma(key_b, b, shape, dtype, True)
    log_max = ew.max(log_gamma_a, log_gamma_b)
    gamma_a = ew.exp(ew.sub(log_gamma_a, log_max))
    gamma_b = ew.exp(ew.sub(log_gamma_b, log_max))
    return ew.div(gamma_a, ew.add(gamma_a, gamma_b))


@takes_out_sharding
def dirichlet(key: Any, alpha: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Dirichlet vectors: the softmax of log-gamma samples along the last axis.

    Args:
      key: a PRNG key.
      alpha: concentrations, shape `(..., n)`.
      shape: the batch shape, broadcast-compatible with `alpha.shape[:-1]` (default that).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of shape `shape + (n,)` and `dtype`.
    """
    key = _check_key("dirichlet", key)
    dtype = _dtype_arg("dirichlet", dtype)
    alpha = ensure_array(alpha)
    ashape = get_aval(alpha).shape
    if not ashape:
        raise RandomArgumentError(
            "dirichlet requires alpha.ndim >= 1, got alpha.ndim == 0\nPass a vector of "
            "concentrations."
        )
    shape = ashape[:-1] if shape is None else _shape(shape)
    full_shape = (*shape, ashape[-1])
    log_g = _gamma(key, alpha, full_shape, dtype, True)
    axis = len(shape)
    top = ew.stop_gradient_prim(red.reduce_max(log_g, (axis,)))
    e = ew.exp(ew.sub(log_g, sh.broadcast_in_dim(top, full_shape, tuple(range(axis)))))
    total = sh.broadcast_in_dim(red.reduce_sum(e, (axis,)), full_shape, tuple(range(axis)))
    return ew.div(e, total)


@takes_out_sharding
def chisquare(key: Any, df: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Chi-square floats: `2 * exp(loggamma(df / 2))`.

    Args:
      key: a PRNG key.
      df: degrees of freedom (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `df`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, df = _setup("chisquare", key, shape, dtype, df)
    return _chisquare(key, df, shape, dtype)


def _chisquare(key: Any, df: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    half_df = ew.div(sh.convert_element_type(ensure_array(df), dtype), 2.0)
    return ew.mul(ew.exp(_gamma(key, half_df, shape, dtype, True)), 2.0)


@takes_out_sharding
def f(
    key: Any, dfnum: Any, dfden: Any, shape: Sequence[int] | None = None, dtype: Any = None
) -> Any:
    """F-distribution floats: `(chi2(dfnum) / dfnum) / (chi2(dfden) / dfden)`.

    Args:
      key: a PRNG key.
      dfnum: numerator degrees of freedom (> 0).
      dfden: denominator degrees of freedom (> 0).
      shape: the result shape (default: the broadcast of the parameters' shapes).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    ranks = [get_aval(ensure_array(p)).ndim for p in (dfnum, dfden)]
    key, shape, dtype, dfnum, dfden = _setup("f", key, shape, dtype, dfnum, dfden)
    for rank in ranks:  # JAX divides the draws by the unbroadcast parameters with `lax.div`
        if rank and rank != len(shape):
            got = ", ".join(str(r) for r in sorted({rank, len(shape)}))
            raise ShapeError(
                f"div: arrays must have the same number of dimensions, got {{{got}}}\n"
                "Give dfnum and dfden as scalars or with the sample shape's rank "
                "(jnp.broadcast_to(dfden, shape)), as JAX's f requires."
            )
    key_dfd, key_dfn = _split_keys(key)
    num = ew.div(_chisquare(key_dfn, dfnum, shape, dtype), dfnum)
    den = ew.div(_chisquare(key_dfd, dfden, shape, dtype), dfden)
    return ew.div(num, den)


@takes_out_sharding
def t(key: Any, df: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Student's t floats: `normal * sqrt((df / 2) / gamma(df / 2))`.

    Args:
      key: a PRNG key.
      df: degrees of freedom (> 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `df`'s shape).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, df = _setup("t", key, shape, dtype, df)
    key_n, key_g = _split_keys(key)
    n = _normal(key_n, shape, dtype)
    half_df = ew.div(df, 2.0)
    g = _gamma(key_g, half_df, shape, dtype, False)
    return ew.mul(n, ew.sqrt(ew.div(half_df, g)))


@takes_out_sharding
def generalized_normal(key: Any, p: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Generalized normal floats (density `exp(-|x| ** p)`): `sign * gamma(1/p) ** (1/p)`.

    Args:
      key: a PRNG key.
      p: the shape parameter (> 0), a scalar.
      shape: the result shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _check_key("generalized_normal", key)
    dtype = _dtype_arg("gamma", dtype)  # JAX checks the dtype in the gamma sampler it calls
    return _generalized_normal(key, p, _shape(shape), dtype)


def _generalized_normal(key: Any, p: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    k1, k2 = _split_keys(key)
    inv_p = ew.div(1.0, _inexact(p))  # in p's own precision, as JAX computes 1 / p
    g = _gamma(k1, inv_p, shape, dtype, False)
    r = rademacher(k2, shape, dtype)
    return ew.mul(r, ew.pow(g, _param(inv_p, dtype, shape, "generalized_normal")))


@takes_out_sharding
def ball(key: Any, d: int, p: Any = 2, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Points uniform in the unit Lp ball of dimension `d` (Barthe et al., math/0503650).

    Args:
      key: a PRNG key.
      d: the dimension (a static int).
      p: the p of the Lp norm.
      shape: the batch shape.
      dtype: a float dtype (float32 by default).

    Returns:
      An array of shape `shape + (d,)` and `dtype`.
    """
    key, shape, dtype = _setup("ball", key, shape, dtype)
    d = operator.index(d)  # JAX's `index`: a float dimension is Python's TypeError
    k1, k2 = _split_keys(key)
    g = _generalized_normal(k1, p, (*shape, d), dtype)
    e = exponential(k2, shape, dtype)
    p_arr = _inexact(p)
    norm_p = red.reduce_sum(
        ew.pow(ew.abs(g), _param(p_arr, dtype, (*shape, d), "ball")), (len(shape),)
    )
    inv_p = _param(ew.div(1.0, p_arr), dtype, shape, "ball")
    radius = ew.pow(ew.add(norm_p, e), inv_p)
    return ew.div(g, sh.broadcast_in_dim(radius, (*shape, d), tuple(range(len(shape)))))


# ---------------------------------------------------------------------------------------------
# Poisson, binomial, multinomial


@takes_out_sharding
def poisson(key: Any, lam: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Poisson integers: Knuth's product of uniforms for `lam < 10`, Hormann's transformed
    rejection (PTRS) otherwise; both loop over the whole array, as in JAX.

    Args:
      key: a PRNG key.
      lam: rates (>= 0), broadcast-compatible with `shape`.
      shape: the result shape (default: `lam`'s shape).
      dtype: an integer dtype (int32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _check_key("poisson", key)
    dtype = dtypes.default_int() if dtype is None else dtypes.check_user_dtype(dtype)
    if dtypes.kind(dtype) not in "iu":  # JAX's `iinfo(dtype)` fails (numpy's message)
        raise RandomArgumentError(
            f"Invalid integer data type {dtype.kind!r}.\npoisson samples integers: give an "
            "integer dtype (jnp.int32), then .astype(...) for floats."
        )
    shape = _sample_shape(shape, lam)
    lam = sh.convert_element_type(broadcast_to(ensure_array(lam), shape), dtypes.float32)
    use_knuth = ew.bitwise_or(ew.ne(lam, lam), ew.lt(lam, 10.0))
    lam_knuth = ew.select(use_knuth, lam, ew.full_like(lam, 0.0))
    lam_rejection = ew.select(use_knuth, ew.full_like(lam, 1e5), lam)
    result = ew.select(
        use_knuth,
        _poisson_knuth(key, lam_knuth, shape, dtype),
        _poisson_rejection(key, lam_rejection, shape, dtype),
    )
    return ew.select(ew.eq(lam, 0.0), ew.full_like(result, 0), result)


@_quiet
def _poisson_knuth(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    neg_lam = ew.neg(lam)

    def body(carry: Any) -> Any:
        k, rng, log_prod = carry
        rng, subkey = _split_keys(rng)
        k = ew.select(ew.gt(log_prod, neg_lam), ew.add(k, 1), k)
        u = _uniform(subkey, shape, dtypes.float32, 0.0, 1.0)
        return k, rng, ew.add(log_prod, ew.log(u))

    init = (sh.full(shape, 0, dtype), key, sh.full(shape, 0.0, dtypes.float32))
    k = while_loop(lambda c: _any(ew.gt(c[2], neg_lam)), body, init)[0]
    return ew.sub(k, 1)


@_quiet
def _poisson_rejection(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    log_lam = ew.log(lam)
    b = ew.add(0.931, ew.mul(2.53, ew.sqrt(lam)))
    a = ew.add(-0.059, ew.mul(0.02483, b))
    inv_alpha = ew.add(1.1239, ew.div(1.1328, ew.sub(b, 3.4)))
    v_r = ew.sub(0.9277, ew.div(3.6224, ew.sub(b, 2.0)))
    fdt = get_aval(lam).dtype

    def body(carry: Any) -> Any:
        k_out, accepted, key = carry
        key, subkey_0, subkey_1 = _split_keys(key, 3)
        u = ew.sub(_uniform(subkey_0, shape, fdt, 0.0, 1.0), 0.5)
        v = _uniform(subkey_1, shape, fdt, 0.0, 1.0)
        u_shifted = ew.sub(0.5, ew.abs(u))
        k = ew.floor(
            ew.add(ew.add(ew.mul(ew.add(ew.div(ew.mul(2.0, a), u_shifted), b), u), lam), 0.43)
        )
        s = ew.log(ew.div(ew.mul(v, inv_alpha), ew.add(ew.div(a, ew.mul(u_shifted, u_shifted)), b)))
        t = ew.sub(ew.add(ew.neg(lam), ew.mul(k, log_lam)), ew.lgamma(ew.add(k, 1.0)))
        accept1 = ew.bitwise_and(ew.ge(u_shifted, 0.07), ew.le(v, v_r))
        reject = ew.bitwise_or(
            ew.lt(k, 0.0), ew.bitwise_and(ew.lt(u_shifted, 0.013), ew.gt(v, u_shifted))
        )
        accept2 = ew.le(s, t)
        accept = ew.bitwise_or(accept1, ew.bitwise_and(ew.bitwise_not(reject), accept2))
        return ew.select(accept, k, k_out), ew.bitwise_or(accepted, accept), key

    init = (sh.full(shape, -1.0, fdt), sh.full(shape, False, dtypes.bool_), key)
    k = while_loop(lambda c: _any(ew.bitwise_not(c[1])), body, init)[0]
    return sh.convert_element_type(k, dtype)


def binomial(
    key: Any, n: Any, p: Any, shape: Sequence[int] | None = None, dtype: Any = None
) -> Any:
    """Binomial counts (as floats): geometric-sum inversion for `n q <= 10` (q = min(p, 1-p)),
    BTRS transformed rejection otherwise, as in JAX (and TensorFlow).

    Negative or NaN `n` and NaN or negative `p` give NaN; infinite `n` gives inf.

    Args:
      key: a PRNG key.
      n: numbers of trials (floored), broadcast-compatible with `shape`.
      p: success probabilities, broadcast-compatible with `shape`.
      shape: the result shape (default: the broadcast of `n`'s and `p`'s shapes).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _check_key("binomial", key)
    dtype = _dtype_arg("binomial", dtype)
    return _binomial(key, n, p, _sample_shape(shape, n, p), dtype)


@_quiet
def _binomial(key: Any, count: Any, prob: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    prob = _inexact(prob)
    pdt = get_aval(prob).dtype
    count = _param(count, pdt, shape, "binomial")
    prob = _param(prob, pdt, shape, "binomial")
    p_lt_half = ew.lt(prob, 0.5)
    q = ew.select(p_lt_half, prob, ew.sub(1.0, prob))
    count_nan_or_neg = ew.bitwise_or(ew.ne(count, count), ew.lt(count, 0.0))
    count_inf = ew.eq(ew.abs(count), np.inf)
    q_is_nan = ew.ne(q, q)
    q_l_0 = ew.lt(q, 0.0)
    q = ew.select(ew.bitwise_or(q_is_nan, q_l_0), ew.full_like(q, 0.01), q)
    use_inversion = ew.bitwise_or(count_nan_or_neg, ew.le(ew.mul(count, q), 10.0))
    count = ew.floor(count)
    count_inv = ew.select(use_inversion, count, ew.full_like(count, 0.0))
    count_btrs = ew.select(use_inversion, ew.full_like(count, 1e4), count)
    q_btrs = ew.select(use_inversion, ew.full_like(q, 0.5), q)
    samples = ew.select(
        use_inversion,
        _binomial_inversion(key, count_inv, q, shape, dtype),
        _btrs(key, count_btrs, q_btrs, shape, dtype),
    )
    invalid = ew.bitwise_or(ew.bitwise_or(q_l_0, q_is_nan), count_nan_or_neg)
    samples = ew.select(invalid, ew.full_like(samples, np.nan), samples)
    samples = ew.select(
        ew.bitwise_and(count_inf, ew.bitwise_not(invalid)), ew.full_like(samples, np.inf), samples
    )
    keep = ew.bitwise_or(
        ew.bitwise_or(p_lt_half, count_nan_or_neg), ew.bitwise_or(q_is_nan, count_inf)
    )
    flipped = ew.sub(sh.convert_element_type(count, dtype), samples)
    return ew.select(keep, samples, flipped)


def _binomial_inversion(
    key: Any, count: Any, prob: Any, shape: tuple[int, ...], dtype: np.dtype
) -> Any:
    log1minusprob = ew.log1p(ew.neg(prob))
    pdt = get_aval(prob).dtype

    def body(carry: Any) -> Any:
        num_geom, geom_sum, key = carry
        subkey, key = _split_keys(key)
        num_geom = ew.select(ew.le(geom_sum, count), ew.add(num_geom, 1.0), num_geom)
        u = _uniform(subkey, shape, pdt, 0.0, 1.0)
        geom = ew.ceil(ew.div(ew.log(u), log1minusprob))
        return num_geom, ew.add(geom_sum, geom), key

    init = (sh.full(shape, 0.0, pdt), sh.full(shape, 0.0, pdt), key)
    k = while_loop(lambda c: _any(ew.le(c[1], count)), body, init)[0]
    return sh.convert_element_type(ew.sub(k, 1.0), dtype)


_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_approx_tail(k: Any) -> Any:
    """`log k! - (Stirling's approximation)`: a table for k <= 9, a series above."""
    use_table = ew.le(k, 9.0)
    k = ew.min(ew.max(k, 0.0), 9.0)
    kp1sq = ew.mul(ew.add(k, 1.0), ew.add(k, 1.0))
    series = ew.div(
        ew.sub(1.0 / 12, ew.div(ew.sub(1.0 / 360, ew.div(1.0 / 1260, kp1sq)), kp1sq)),
        ew.add(k, 1.0),
    )
    k = ew.floor(k)
    table = ew.full_like(k, _STIRLING_TAIL[0])
    for i, value in enumerate(_STIRLING_TAIL[1:], start=1):
        table = ew.select(ew.eq(k, float(i)), ew.full_like(k, value), table)
    return ew.select(use_table, table, series)


def _btrs(key: Any, count: Any, prob: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    # Hormann, "The generation of binomial random variates" (1993): BTRS.
    pdt = get_aval(prob).dtype
    stddev = ew.sqrt(ew.mul(ew.mul(count, prob), ew.sub(1.0, prob)))
    b = ew.add(1.15, ew.mul(2.53, stddev))
    a = ew.add(ew.add(-0.0873, ew.mul(0.0248, b)), ew.mul(0.01, prob))
    c = ew.add(ew.mul(count, prob), 0.5)
    v_r = ew.sub(0.92, ew.div(4.2, b))
    r = ew.div(prob, ew.sub(1.0, prob))
    alpha = ew.mul(ew.add(2.83, ew.div(5.1, b)), stddev)
    m = ew.floor(ew.mul(ew.add(count, 1.0), prob))
    # The k-independent part of the acceptance bound.
    tail_m = ew.add(_stirling_approx_tail(m), _stirling_approx_tail(ew.sub(count, m)))
    cm1 = ew.add(ew.sub(count, m), 1.0)
    lead = ew.mul(ew.add(m, 0.5), ew.log(ew.div(ew.add(m, 1.0), ew.mul(r, cm1))))

    def body(carry: Any) -> Any:
        k_out, accepted, key = carry
        key, subkey_0, subkey_1 = _split_keys(key, 3)
        u = _uniform(subkey_0, shape, pdt, 0.0, 1.0)
        v = _uniform(subkey_1, shape, pdt, 0.0, 1.0)
        u = ew.sub(u, 0.5)
        us = ew.sub(0.5, ew.abs(u))
        accept1 = ew.bitwise_and(ew.ge(us, 0.07), ew.le(v, v_r))
        k = ew.floor(ew.add(ew.mul(ew.add(ew.div(ew.mul(2.0, a), us), b), u), c))
        reject = ew.bitwise_or(ew.lt(k, 0.0), ew.gt(k, count))
        v = ew.log(ew.div(ew.mul(v, alpha), ew.add(ew.div(a, ew.mul(us, us)), b)))
        ck1 = ew.add(ew.sub(count, k), 1.0)
        ub = ew.add(lead, ew.mul(ew.add(count, 1.0), ew.log(ew.div(cm1, ck1))))
        ub = ew.add(ub, ew.mul(ew.add(k, 0.5), ew.log(ew.div(ew.mul(r, ck1), ew.add(k, 1.0)))))
        ub = ew.add(ub, tail_m)
        ub = ew.sub(ub, _stirling_approx_tail(k))
        ub = ew.sub(ub, _stirling_approx_tail(ew.sub(count, k)))
        accept = ew.bitwise_or(accept1, ew.bitwise_and(ew.bitwise_not(reject), ew.le(v, ub)))
        return ew.select(accept, k, k_out), ew.bitwise_or(accepted, accept), key

    init = (sh.full(shape, -1.0, pdt), sh.full(shape, False, dtypes.bool_), key)
    k = while_loop(lambda c: _any(ew.bitwise_not(c[1])), body, init)[0]
    return sh.convert_element_type(k, dtype)


def multinomial(
    key: Any,
    n: Any,
    p: Any,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    unroll: int | bool = 1,
) -> Any:
    """Multinomial counts (as floats): one binomial per category on the remaining trials.

    Args:
      key: a PRNG key.
      n: numbers of trials, broadcast-compatible with `p.shape[:-1]`.
      p: probabilities of the outcomes, along the last axis.
      shape: the result shape including the outcome axis, as JAX's code reads it (default
        `p.shape`).
      dtype: the counts' dtype, any (float32 by default; counts are computed in the float dtype
        of `n` and `p`, then converted).
      unroll: accepted for JAX compatibility; the loop over outcomes is always unrolled (one
        binomial per outcome, in Python).

    Returns:
      An array of counts of `shape` (or `p.shape`) and `dtype`.
    """
    key = _check_key("multinomial", key)
    # As JAX's `counts.astype(dtype)`: any dtype (int32 counts are common), None the default float
    dtype = dtypes.default_float() if dtype is None else dtypes.check_user_dtype(dtype)
    n, p = ensure_array(n), ensure_array(p)
    fdt, weak = dtypes.result_type_and_weak(n, p)
    if dtypes.kind(fdt) != "f":
        fdt = dtypes.default_float()
    n, p = (sh.convert_element_type(x, fdt, weak) for x in (n, p))
    shape = _sample_shape(shape, p)
    n = broadcast_to(n, shape[:-1])
    p = broadcast_to(p, shape)
    num = shape[-1]
    remaining = sorting.cumsum(p, len(shape) - 1, reverse=True)
    ratios = ew.div(p, ew.select(ew.eq(remaining, 0.0), ew.full_like(remaining, 1.0), remaining))
    ratios = ew.min(ew.max(ratios, 0.0), 1.0)
    counts = []
    for i, k in enumerate(_split_keys(key, num)):
        ratio = sh.reshape(ix.slice_in_dim(ratios, i, i + 1, axis=len(shape) - 1), shape[:-1])
        count = _binomial(k, n, ratio, shape[:-1], fdt)
        n = ew.sub(n, count)
        counts.append(sh.reshape(count, (*shape[:-1], 1)))
    return sh.convert_element_type(ix.concatenate(counts, len(shape) - 1), dtype)
