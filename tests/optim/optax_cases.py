"""Cases recorded from Optax 0.2.8 for the tier-2 optimizers and transformations (data only).

Each case is `(case_id, expression, mode, steps)`. The expression is evaluated with the names
of `optim` (here) or `optax` (when the answers were recorded) in scope, plus `jnp` and `tree`,
so the same string builds both. `mode` says which extra arguments `update` needs:

- "plain": `update(grads, state, params)`.
- "value": also `value=loss(params)` (Polyak step sizes).
- "linesearch": also `value=`, `grad=` and `value_fn=loss`.
- "lookahead": the params are `LookaheadParams.init_synced(params)`, the gradient is taken at
  `params.fast`.

The problem is `loss(p) = sum(0.5 * CURVATURE * (p - TARGET)**2)` over `{"w": [3, 2], "b": [2]}`
in float32, starting from `INIT` (those of `cases.py`). `optax_answers.py` holds the parameters
and the full optimizer state (as `state_to_py` renders it) after `steps` updates, computed by
running exactly this loop with Optax.
"""

from __future__ import annotations

import numpy as np

from tests.optim.cases import CURVATURE, INIT, TARGET

CASES = [
    ("adan", "adan(0.1)", "plain", 3),
    ("adan_wd", "adan(0.05, b1=0.9, weight_decay=0.1, eps_root=0.0)", "plain", 3),
    ("scale_by_adan", "scale_by_adan()", "plain", 2),
    ("rprop", "rprop(0.1)", "plain", 4),
    ("rprop_flip", "rprop(2.0, eta_minus=0.3, eta_plus=1.5, max_step_size=3.0)", "plain", 4),
    ("polyak_sgd", "polyak_sgd()", "value", 3),
    ("polyak_sgd_plus", "polyak_sgd(0.5, scaling=0.5, f_min=1.0, variant='sps+')", "value", 3),
    ("ogd", "optimistic_gradient_descent(0.1)", "plain", 3),
    ("ogd_ab", "optimistic_gradient_descent(0.1, alpha=0.5, beta=0.3)", "plain", 3),
    ("optimistic_adam", "optimistic_adam(0.1)", "plain", 3),
    ("optimistic_adam_v2", "optimistic_adam_v2(0.1, alpha=0.5, beta=0.2)", "plain", 3),
    ("dog", "scale_by_distance_over_gradients(reps_rel=1e-2, global_scale=-1.0)", "plain", 3),
    ("normalize", "chain(normalize_by_update_norm(-0.5), trace(0.5))", "plain", 3),
    ("agc", "chain(adaptive_grad_clip(0.1), sgd(0.1))", "plain", 3),
    ("agc_eps", "chain(adaptive_grad_clip(0.5, eps=0.5, axis=0), sgd(0.1))", "plain", 2),
    ("lbfgs_no_ls", "lbfgs(0.1, memory_size=2, linesearch=None)", "plain", 4),
    (
        "scale_by_lbfgs",
        "chain(scale_by_lbfgs(3, scale_init_precond=False), scale(-0.05))",
        "plain",
        3,
    ),
    ("lbfgs", "lbfgs(memory_size=3)", "linesearch", 3),
    ("backtracking", "chain(sgd(1.0), scale_by_backtracking_linesearch(15))", "linesearch", 3),
    (
        "backtracking_grad",
        "chain(sgd(2.0), scale_by_backtracking_linesearch(15, decrease_factor=0.5, "
        "store_grad=True, max_learning_rate=2.0))",
        "linesearch",
        3,
    ),
    ("zoom", "chain(sgd(1.0), scale_by_zoom_linesearch(10))", "linesearch", 3),
    (
        "zoom_overshoot",
        "chain(sgd(4.0), scale_by_zoom_linesearch(15, initial_guess_strategy='one', "
        "approx_dec_rtol=None))",
        "linesearch",
        3,
    ),
    (
        "zoom_capped",
        "chain(sgd(0.01), scale_by_zoom_linesearch(6, max_learning_rate=5.0))",
        "linesearch",
        2,
    ),
    ("lookahead", "lookahead(sgd(0.1), sync_period=2, slow_step_size=0.5)", "lookahead", 5),
    (
        "lookahead_reset",
        "lookahead(adam(0.1), sync_period=3, slow_step_size=0.3, reset_state=True)",
        "lookahead",
        4,
    ),
    ("flatten", "flatten(adam(0.1))", "plain", 3),
    ("cond_mask", "conditionally_mask(adam(0.1), lambda step: step % 2 == 0)", "plain", 3),
    (
        "cond_transform",
        "chain(conditionally_transform(scale(0.5), lambda step: step >= 1), sgd(0.1))",
        "plain",
        3,
    ),
    ("snapshot", "chain(snapshot('norm', tree.norm), sgd(0.1))", "plain", 2),
    (
        "monitor",
        "chain(monitor({'norm': tree.norm, 'ema': measure_with_ema(tree.norm, 0.9)}), sgd(0.1))",
        "plain",
        2,
    ),
]


def to_np(tree: dict) -> dict:
    return {k: np.asarray(v, np.float32) for k, v in tree.items()}


def loss_np(params: dict) -> float:
    return float(
        sum(np.sum(0.5 * CURVATURE[k] * (np.asarray(params[k]) - TARGET[k]) ** 2) for k in params)
    )


def state_to_py(x):
    """Renders a state as plain Python: NamedTuples become `{"_type": name, field: ...}`,
    arrays become (nested) lists of floats, so Optax and `optim` states compare field by field."""
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        out = {"_type": type(x).__name__}
        out.update({f: state_to_py(getattr(x, f)) for f in x._fields})
        return out
    if isinstance(x, dict):
        return {k: state_to_py(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [state_to_py(v) for v in x]
    if x is None:
        return None
    return np.asarray(x).astype(np.float64).tolist()


__all__ = ["CASES", "INIT", "loss_np", "state_to_py", "to_np"]
