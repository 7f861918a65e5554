"""`core.scipy.stats` binom, betabinom, multinomial, pareto, gumbel_l, gumbel_r, mode, rankdata
and sem against JAX 0.10.2's values (`jax_stats_more.json`, recorded by `record_stats_more.py`
from the cases of `stats_more_cases.py`; JAX is not imported here): shapes, dtypes and values."""

import json
import math
import pathlib
import sys

import numpy as np
import pytest

import core.numpy as jnp
from core import enable_x64
from core.scipy import stats
from core.test_util import check_grads

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from stats_more_cases import CASES, SAMPLE  # noqa: E402

ANSWERS = json.loads((pathlib.Path(__file__).parent / "jax_stats_more.json").read_text())["cases"]


def _check(got, want):
    assert list(np.shape(got)) == want["shape"] and str(got.dtype) == want["dtype"]
    values = [math.nan if v is None else v for v in want["values"]]
    np.testing.assert_allclose(np.ravel(np.asarray(got, np.float64)), values, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("label, module, fn, args", CASES, ids=[c[0] for c in CASES])
def test_distributions(label, module, fn, args):
    args = [jnp.asarray(a, jnp.float32) for a in args]
    _check(getattr(getattr(stats, module), fn)(*args), ANSWERS[label])


def test_multinomial():
    counts, probs = jnp.asarray([[1, 2, 1], [0, 4, 0]]), jnp.asarray([0.2, 0.5, 0.3])
    _check(stats.multinomial.pmf(counts, 4, probs), ANSWERS["multinomial.pmf"])
    _check(stats.multinomial.logpmf(counts[0], 5, probs), ANSWERS["multinomial.logpmf"])
    with pytest.raises(ValueError, match="integer type"):
        stats.multinomial.pmf(jnp.asarray([1.0, 2.0]), 3, jnp.asarray([0.5, 0.5]))


@pytest.mark.parametrize("axis", [0, 1, None])
def test_mode_and_sem(axis):
    sample = jnp.asarray(SAMPLE)
    m = stats.mode(sample, axis=axis)
    _check(m.mode, ANSWERS[f"mode_{axis}"]["mode"])
    _check(m.count, ANSWERS[f"mode_{axis}"]["count"])
    _check(stats.sem(sample, axis=axis), ANSWERS[f"sem_{axis}"])


def test_mode_keepdims_ints_and_sem_ddof():
    m = stats.mode(jnp.asarray(SAMPLE), axis=1, keepdims=True)
    _check(m.mode, ANSWERS["mode_keepdims"]["mode"])
    _check(m.count, ANSWERS["mode_keepdims"]["count"])
    _check(stats.mode(jnp.asarray([3, 1, 3, 1, 2])).mode, ANSWERS["mode_int"]["mode"])
    _check(stats.sem(jnp.asarray(SAMPLE), axis=1, ddof=0, keepdims=True), ANSWERS["sem_ddof0"])


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(method):
    sample = jnp.asarray(SAMPLE)
    _check(stats.rankdata(sample, method), ANSWERS[f"rankdata_{method}"])
    _check(stats.rankdata(sample, method, axis=1), ANSWERS[f"rankdata_{method}_axis1"])


def test_rankdata_nan_and_bad_arguments():
    _check(stats.rankdata(jnp.asarray([1.0, jnp.nan, 0.0])), ANSWERS["rankdata_nan"])
    with pytest.raises(ValueError, match="unknown method 'mean'"):
        stats.rankdata(jnp.asarray([1.0]), "mean")
    with pytest.raises(NotImplementedError):
        stats.mode(jnp.asarray([1.0]), nan_policy="omit")


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: stats.gumbel_l.logpdf(x, 0.5, 2.0),
        lambda x: stats.gumbel_r.logsf(x, 0.5, 2.0),
        lambda x: stats.pareto.logpdf(x + 3.0, 2.5),
        lambda x: stats.binom.logpmf(3.0, 5.0, 0.2 + 0.1 * x),
        lambda x: stats.betabinom.logpmf(2.0, 5.0, 1.5 + x, 2.0),
    ],
)
def test_gradients(fn):
    with enable_x64():
        check_grads(fn, (jnp.asarray([0.3, 1.2], jnp.float64),), order=1, modes=["fwd", "rev"])
