"""L-BFGS and line searches on smooth convex objectives (our own program).

Checks: `scale_by_lbfgs` as a plain direction with a fixed step (eager); `chain(sgd(1),
scale_by_backtracking_linesearch)` with and without `store_grad=True` (the latter read back by
`value_and_grad_from_state`); `lbfgs()` on a dict of parameters inside a jitted
`lax.while_loop` whose condition reads `optax.tree.get(state, "count" / "grad")`; an info
transform (`GradientTransformationExtraArgs` taking `value=`/`grad=` and printing with
`jax.debug.print`) chained in front; a zoom line search with `verbose=True` that fails and
prints its diagnostics; and `jax.debug.callback` counting the objective's evaluations for a
few memory sizes. The objectives are convex and well conditioned so that float32 round-off
does not change the iterates' path: iteration counts, call counts and every printed number are
compared.
"""

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import optax.tree

from tests.porting import printed

DIM = 6


def _hessian():
    i = jnp.arange(1.0, DIM + 1.0)
    return jnp.diag(i) + 0.2 * jnp.outer(jnp.sin(i), jnp.sin(i))


def quadratic(x):
    """0.5 x'Hx - b'x with eigenvalues in about [1, 6]."""
    b = jnp.linspace(-1.0, 2.0, DIM)
    return 0.5 * x @ (_hessian() @ x) - b @ x


def pseudo_huber(x):
    """Smooth, with linear growth far from its minimizer (where a unit step overshoots)."""
    centre = jnp.cos(jnp.arange(DIM, dtype=x.dtype))
    return jnp.sum(jnp.sqrt(1.0 + 4.0 * (x - centre) ** 2)) - DIM


def softplus_fit(p):
    """A logistic-regression-like loss of a dict of parameters, plus an L2 term."""
    feats = jnp.stack([jnp.linspace(-2.0, 2.0, 10), jnp.cos(jnp.arange(10.0))], axis=1)
    labels = jnp.where(jnp.arange(10) % 3 == 0, 1.0, -1.0)
    margins = labels * (feats @ p["w"] + p["b"])
    l2 = 0.05 * (jnp.sum(p["w"] ** 2) + p["b"] ** 2)
    return jnp.mean(jax.nn.softplus(-margins)) + l2


def solve(fun, params, opt, max_iter, tol):
    """Runs `opt` from `params` in a jitted while loop until the gradient's norm is below tol."""
    value_and_grad = optax.value_and_grad_from_state(fun)

    def body(carry):
        p, state = carry
        value, grad = value_and_grad(p, state=state)
        updates, state = opt.update(grad, state, p, value=value, grad=grad, value_fn=fun)
        return optax.apply_updates(p, updates), state

    def keep_going(carry):
        _, state = carry
        count = optax.tree.get(state, "count")
        small = optax.tree.norm(optax.tree.get(state, "grad")) < tol
        return (count == 0) | ((count < max_iter) & ~small)

    return jax.jit(lambda p: jax.lax.while_loop(keep_going, body, (p, opt.init(p))))(params)


class StepLog(NamedTuple):
    step: jax.Array


def log_steps():
    """A transformation that prints the step, the value and the gradient norm it is given."""

    def init_fn(params):
        del params
        return StepLog(step=jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params=None, *, value, grad, **extra):
        del params, extra
        jax.debug.print(
            "step {s}: f={v:.5f} |g|={g:.5f}", s=state.step, v=value, g=optax.tree.norm(grad)
        )
        return updates, StepLog(step=state.step + 1)

    return optax.GradientTransformationExtraArgs(init_fn, update_fn)


def run():
    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        _fixed_step_lbfgs(out)
        cells.mark("fixed_step")
        _backtracking(out)
        cells.mark("backtracking")
        _while_loop_solver(out)
        cells.mark("solver")
        _failing_zoom(out)
        cells.mark("zoom_verbose")
        _counted_calls(out)
        cells.mark("calls")
    out["printed"] = cells.printed
    return out


def _fixed_step_lbfgs(out):
    direction = optax.scale_by_lbfgs(memory_size=3)
    x = jnp.zeros(DIM)
    state = direction.init(x)
    for k in range(8):
        value, grad = jax.value_and_grad(quadratic)(x)
        d, state = direction.update(grad, state, x)
        x = x - 0.5 * d
        print(f"lbfgs direction {k}: f={value:.6f}")
    out["fixed_step"] = dict(
        x=x, state=[type(s).__name__ for s in [state]], memory=state.diff_params_memory
    )


def _backtracking(out):
    x0 = 2.5 * jnp.sin(jnp.arange(1.0, DIM + 1.0))
    finals = {}
    for store_grad in (False, True):
        search = optax.scale_by_backtracking_linesearch(
            max_backtracking_steps=12, store_grad=store_grad
        )
        opt = optax.chain(optax.sgd(learning_rate=1.0), search)
        x, state = x0, opt.init(x0)
        vg = optax.value_and_grad_from_state(pseudo_huber)
        for k in range(6):
            if store_grad:
                value, grad = vg(x, state=state)
            else:
                value, grad = jax.value_and_grad(pseudo_huber)(x)
            updates, state = opt.update(
                grad, state, x, value=value, grad=grad, value_fn=pseudo_huber
            )
            x = optax.apply_updates(x, updates)
            lr = optax.tree.get(state, "learning_rate")
            print(f"store_grad={store_grad} step {k}: f={value:.5f} step size={lr:.5f}")
        finals[str(store_grad)] = x
    out["backtracking"] = finals


def _while_loop_solver(out):
    p0 = {"w": jnp.array([0.5, -1.0]), "b": jnp.array(0.0)}
    plain, state = solve(softplus_fit, p0, optax.lbfgs(), max_iter=40, tol=1e-5)
    print(f"lbfgs: {int(optax.tree.get(state, 'count'))} iterations, f={softplus_fit(plain):.6f}")
    logged, state2 = solve(
        softplus_fit, p0, optax.chain(log_steps(), optax.lbfgs(memory_size=4)), 40, 1e-5
    )
    print(f"logged: {int(optax.tree.get(state2, 'count'))} iterations")
    out["solver"] = dict(
        plain=plain,
        logged=logged,
        state_types=[type(s).__name__ for s in state2],
        grad=optax.tree.get(state, "grad"),
    )


def _failing_zoom(out):
    # A steep quartic from far away: two trial steps cannot find sufficient decrease.
    def steep(x):
        return jnp.sum(x**4) + jnp.sum(x) ** 2

    search = optax.scale_by_zoom_linesearch(
        max_linesearch_steps=2, verbose=True, initial_guess_strategy="one"
    )
    opt = optax.chain(optax.sgd(learning_rate=1.0), search)
    x = jnp.array([30.0, -20.0, 10.0])
    state = opt.init(x)
    value, grad = jax.value_and_grad(steep)(x)
    updates, state = opt.update(grad, state, x, value=value, grad=grad, value_fn=steep)
    out["zoom_verbose"] = dict(
        updates=updates, step=optax.tree.get(state, "learning_rate"), value=steep(x + updates)
    )


def _counted_calls(out):
    calls = []

    def counted(x):
        jax.debug.callback(lambda: calls.append(1))
        return quadratic(x) + 0.1 * jnp.sum(x**4)

    rows = {}
    for memory in (1, 3, 6):
        calls.clear()
        opt = optax.lbfgs(
            memory_size=memory,
            linesearch=optax.scale_by_zoom_linesearch(max_linesearch_steps=10),
        )
        x, state = solve(counted, jnp.zeros(DIM), opt, max_iter=50, tol=1e-4)
        x = jax.block_until_ready(x)
        iters = int(optax.tree.get(state, "count"))
        print(f"memory {memory}: {iters} iterations, {len(calls)} calls")
        rows[str(memory)] = np.round(np.asarray(x), 4)
    out["calls"] = rows
