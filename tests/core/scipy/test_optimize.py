"""core.scipy.optimize.minimize against `jax.scipy.optimize.minimize`'s recorded results
(optimize_answers.py): the same algorithm and constants give the same iterates, so the counters
and statuses match exactly and the values to float32 rounding. Rosenbrock's gradient is a
difference of large terms, hence the looser `jac` tolerance. An exact quadratic makes the
zoom's cubic degenerate (0/0 in one rounding, finite in another), which is why the L-BFGS
least-squares case carries a quartic term; and where a run ends on a failed line search or on
the `ftol` test, that end is decided at rounding level, so those cases stop early on `maxiter`.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy.errors import ArgsNotTupleError, ModeError
from core.scipy.optimize import OptimizeResults, minimize
from tests.core.scipy.optimize_answers import ANSWERS

LBFGS = "l-bfgs-experimental-do-not-rely-on-this"
A = np.array(
    [
        [1.0, 2.0, 0.5],
        [0.3, -1.0, 2.0],
        [2.0, 0.1, -0.4],
        [-1.5, 0.7, 1.1],
        [0.2, 0.9, -2.0],
        [1.2, -0.6, 0.3],
    ],
    np.float32,
)
B = np.array([1.0, -2.0, 0.5, 3.0, -1.0, 0.25], np.float32)
X0_VMAP = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 2.0]], np.float32)


def rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def lsq(x, a, b):
    r = a @ x - b
    return jnp.sum(r * r)


def lsq4(x, a, b):
    return lsq(x, a, b) + 0.5 * jnp.sum(x**4)


R2 = np.array([-1.2, 1.0], np.float32)
R5 = np.array([1.3, 0.7, 0.8, 1.9, 1.2], np.float32)
Z3 = np.zeros(3, np.float32)
CASES = [
    ("rosen2", rosen, R2, (), "BFGS", None),
    ("rosen5", rosen, R5, (), "BFGS", None),
    ("lsq", lsq, Z3, (A, B), "BFGS", None),
    ("rosen2_maxiter3", rosen, R2, (), "bfgs", {"maxiter": 3}),
    ("rosen5_lbfgs", rosen, R5, (), LBFGS, None),
    ("lsq4_lbfgs", lsq4, Z3, (A, B), LBFGS, {"maxcor": 3, "maxiter": 3}),
    ("rosen3_lbfgs_maxiter4", rosen, np.float32([-1.0, 0.5, 2.0]), (), LBFGS, {"maxiter": 4}),
]


def _check(got: OptimizeResults, want: dict, float_dtype=np.float32, int_dtype=np.int32) -> None:
    assert isinstance(got, OptimizeResults)
    for field in ("success", "status", "nfev", "njev", "nit"):
        value = np.asarray(getattr(got, field))
        assert value.dtype == (np.bool_ if field == "success" else int_dtype), field
        np.testing.assert_array_equal(value, want[field], err_msg=field)
    for field, atol in (("x", 1e-5), ("fun", 1e-5), ("jac", 2e-3), ("hess_inv", 1e-3)):
        value = getattr(got, field)
        if want[field] is None:
            assert value is None
            continue
        assert np.asarray(value).dtype == float_dtype, field
        np.testing.assert_allclose(value, want[field], rtol=1e-4, atol=atol, err_msg=field)


@pytest.mark.parametrize("name,fun,x0,args,method,options", CASES, ids=[c[0] for c in CASES])
def test_matches_jax(name, fun, x0, args, method, options):
    _check(minimize(fun, x0, args, method=method, options=options), ANSWERS[name])


def test_under_jit():
    run = core.jit(lambda x0, a, b: minimize(lsq, x0, (a, b), method="BFGS"))
    _check(run(Z3, A, B), ANSWERS["lsq"])


def test_under_vmap():
    got = core.vmap(lambda x0: minimize(lsq, x0, (A, B), method="BFGS"))(X0_VMAP)
    want = ANSWERS["lsq_vmap"]
    np.testing.assert_allclose(got.x, want["x"], rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(got.nit, want["nit"])
    np.testing.assert_array_equal(got.status, want["status"])


def test_x64():
    with core.enable_x64():
        got = minimize(rosen, R2.astype(np.float64), method="BFGS")
        _check(got, ANSWERS["rosen2_x64"], np.float64, np.int64)


def test_errors():
    with pytest.raises(ArgsNotTupleError, match="must be a tuple"):
        minimize(lsq, Z3, [A, B], method="BFGS")
    with pytest.raises(ModeError, match="Method nelder-mead not recognized"):
        minimize(rosen, R2, method="nelder-mead")
