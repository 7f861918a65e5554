"""`core.scipy.special`: special functions, like `jax.scipy.special`.

Every function promotes its arguments to a common inexact dtype and broadcasts them (integers
become the default float), then composes `core.numpy` / `core.lax` operations, so each one
differentiates, batches and jits like the operations it is made of. Custom derivatives are
attached where the composition would give NaN or poor gradients (`xlogy`/`xlog1py` at `x = 0`,
`log_ndtr` in its asymptotic tail, the series of `expi`, `sici`, `hyp1f1`...), exactly where
JAX attaches them.

This module is the public namespace; each family of functions is a module of this package,
its docstring naming the sources of its formulas: `gamma` (with `zeta` and `bernoulli`),
`erf` (with `erfcx`, `dawsn`, `wofz`), `normal` (`ndtr`, `ndtri`, `log_ndtr`, `owens_t`),
`logistic` (with `softmax`), `entropy` (`xlogy`, `entr`, `kl_div`...), `bessel`,
`integrals` (`exp1`, `expi`, `expn`, `sici`, `fresnel`, `spence`), `boxcox`,
`hypergeometric` and `sph_harm`, all on the shared helpers of `_util`; `logsumexp` is
`core.numpy`'s.
"""

from core.numpy.logsumexp import logsumexp
from core.scipy.special.bessel import (
    bessel_jn,
    i0,
    i0e,
    i1,
    i1e,
)
from core.scipy.special.boxcox import (
    boxcox,
    boxcox1p,
)
from core.scipy.special.entropy import (
    entr,
    kl_div,
    rel_entr,
    xlog1py,
    xlogy,
)
from core.scipy.special.erf import (
    dawsn,
    erf,
    erfc,
    erfcx,
    erfinv,
    wofz,
)
from core.scipy.special.gamma import (
    bernoulli,
    beta,
    betainc,
    betaln,
    comb,
    digamma,
    factorial,
    gamma,
    gammainc,
    gammaincc,
    gammaln,
    gammasgn,
    loggamma,
    multigammaln,
    poch,
    polygamma,
    zeta,
)
from core.scipy.special.hypergeometric import (
    hyp1f1,
    hyp2f1,
)
from core.scipy.special.integrals import (
    exp1,
    expi,
    expn,
    fresnel,
    sici,
    spence,
)
from core.scipy.special.logistic import (
    expit,
    log_softmax,
    logit,
    softmax,
)
from core.scipy.special.normal import (
    log_ndtr,
    ndtr,
    ndtri,
    owens_t,
)
from core.scipy.special.sph_harm import (
    lpmn,
    lpmn_values,
    sph_harm_y,
)

__all__ = [
    "spence",
    "erfcx",
    "dawsn",
    "bernoulli",
    "beta",
    "betainc",
    "betaln",
    "comb",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfinv",
    "exp1",
    "expit",
    "factorial",
    "gamma",
    "gammainc",
    "gammaincc",
    "gammaln",
    "gammasgn",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "kl_div",
    "log_ndtr",
    "log_softmax",
    "loggamma",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "poch",
    "polygamma",
    "rel_entr",
    "softmax",
    "xlog1py",
    "xlogy",
    "zeta",
    "boxcox",
    "boxcox1p",
    "bessel_jn",
    "expi",
    "expn",
    "fresnel",
    "hyp1f1",
    "hyp2f1",
    "owens_t",
    "sici",
    "lpmn",
    "lpmn_values",
    "sph_harm_y",
    "wofz",
]
