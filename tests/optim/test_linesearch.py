"""`verbose=True` line searches print Optax's diagnostics when a search fails (and nothing when
it succeeds): the same sentences, the values within float32 round-off of Optax 0.2.8's (its
output recorded below, numbers as `#`)."""

import contextlib
import io
import re

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+)")


def _zakharov(w):
    ii = jnp.arange(1, len(w) + 1, dtype=w.dtype)
    s2 = (0.5 * ii * w).sum()
    return (w**2).sum() + s2**2 + s2**4


def _quadratic(w):
    return jnp.sum(w**2)


def _steep(w):
    return jnp.sum(jnp.exp(w**2))


ZOOM = "INFO: optax.scale_by_zoom_linesearch:\n"
VALUES = "Value at current params: #\nSlope along update direction: #\nStepsize reached: #\n"
ERRORS = "Decrease Error: #\nCurvature Error: #"
NOT_FOUND = "Linesearch failed, no stepsize satisfying sufficient decrease found.\n"
UNSAFE = (
    "Making an unsafe step, not decreasing enough the objective. Convergence of the solver is "
    "compromised as it does not reduce values.\n"
)
BACKTRACKING = (
    "INFO: optax.scale_by_backtracking_linesearch:\nBacktracking linesearch failed to find a "
    "stepsize ensuring sufficent decrease.\nValue at current params: #,\nSlope along update "
    "direction: #\nStepsize: #\nDecrease Error: #\n"
)

# name: (line search, objective, params, direction = scale * grad, Optax's text (numbers as #,
# inf and nan kept), its numbers)
CASES = {
    "zoom_stuck_badly_conditioned": (
        optim.scale_by_zoom_linesearch(20, verbose=True, initial_guess_strategy="one"),
        _zakharov,
        [600.0, 700.0, 200.0, 100.0, 90.0, 1e4],
        -1.0,
        ZOOM + VALUES + "Decrease Error: inf\nCurvature Error: inf\nLength of searched interval "
        "has been reduced below threshold. Interval length: #.\n"
        + NOT_FOUND
        + "Consider augmenting the maximal number "
        "of linesearch iterations.\nVery large absolute slope at stepsize=# (|slope|=#). The "
        "objective is badly conditioned. Consider reparameterizing objective (e.g., normalizing "
        "parameters) or finding a better guess for the initial parameters for the solver.\n"
        "Cannot even make a step without getting Inf or Nan. The linesearch won't make a step "
        "and the optimizer is stuck.\n",
        [
            1.0129932568095621e18,
            -3.711172570311185e29,
            1.9073486328125e-06,
            1.9073486328125e-06,
            0.0,
            3.711172570311185e29,
        ],
    ),
    "zoom_ascent_direction": (
        optim.scale_by_zoom_linesearch(3, verbose=True),
        _quadratic,
        [1.0, 2.0],
        1.0,
        ZOOM + VALUES + ERRORS + "\n" + NOT_FOUND + "The linesearch failed because the provided "
        "direction is not a descent direction. The slope (=#) at stepsize=0 should be negative\n"
        + UNSAFE,
        [5.0, 20.0, 0.25, 6.249499797821045, 12.0, 20.0],
    ),
    "zoom_success": (
        optim.scale_by_zoom_linesearch(3, verbose=True),
        _quadratic,
        [1.0, 2.0],
        -0.5,
        "",
        [],
    ),
    "zoom_max_learning_rate": (
        optim.scale_by_zoom_linesearch(5, max_learning_rate=0.1, verbose=True),
        _quadratic,
        [1.0, 2.0],
        -0.01,
        ZOOM + VALUES + ERRORS + "No interval satisfying curvature condition. Consider increasing "
        "maximal possible stepsize of the linesearch.\nReturning stepsize with sufficient "
        "decrease but curvature condition not satisfied.\n",
        [5.0, -0.19999998807907104, 0.10000000149011612, 0.0, 0.01960001140832901],
    ),
    "backtracking_no_decrease": (
        optim.scale_by_backtracking_linesearch(2, verbose=True),
        _quadratic,
        [1.0, 2.0],
        -100.0,
        BACKTRACKING,
        [5.0, -2000.0, 0.64000004529953, 80640.1328125],
    ),
    "backtracking_infinite": (
        optim.scale_by_backtracking_linesearch(2, verbose=True),
        _steep,
        [1.0, 2.0],
        -1e3,
        BACKTRACKING.replace("Decrease Error: #", "Decrease Error: inf")
        + "Using a stepsize of 0 to avoid infinite or nan values.\n",
        [57.31643295288086, -47724888.0, 0.64000004529953],
    ),
    "backtracking_quiet": (
        optim.scale_by_backtracking_linesearch(2),
        _quadratic,
        [1.0, 2.0],
        -100.0,
        "",
        [],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_verbose_search_prints_optax_diagnostics(name):
    linesearch, fn, params, scale, text, numbers = CASES[name]
    params = jnp.asarray(params)
    value, grad = core.value_and_grad(fn)(params)

    @core.jit
    def update(direction, state, value, grad):
        return linesearch.update(direction, state, params, value=value, grad=grad, value_fn=fn)

    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        core.block_until_ready(update(scale * grad, linesearch.init(params), value, grad))
    printed = stdout.getvalue()
    assert _NUMBER.sub("#", printed) == text
    got = [float(n) for n in _NUMBER.findall(printed)]
    np.testing.assert_allclose(got, numbers, rtol=1e-5)


# the initial `info` of each search on bfloat16 parameters, as Optax 0.2.8 prints it
INITIAL_INFO = {
    "backtracking": (
        optim.scale_by_backtracking_linesearch(3),
        "BacktrackingLinesearchInfo(num_linesearch_steps=Array(0, dtype=int32, weak_type=True), "
        "decrease_error=Array(inf, dtype=bfloat16))",
    ),
    "zoom": (
        optim.scale_by_zoom_linesearch(3),
        "ZoomLinesearchInfo(num_linesearch_steps=Array(0, dtype=int32, weak_type=True), "
        "decrease_error=Array(inf, dtype=float32, weak_type=True), "
        "curvature_error=Array(inf, dtype=float32, weak_type=True))",
    ),
}


@pytest.mark.parametrize("name", sorted(INITIAL_INFO))
def test_initial_info_has_optax_dtypes(name):
    search, text = INITIAL_INFO[name]
    assert repr(search.init(jnp.ones(2, jnp.bfloat16)).info) == text
