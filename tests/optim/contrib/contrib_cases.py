"""The `optim.contrib` runs recorded from Optax 0.2.8 (NumPy only, shared by the recorder and
the test).

Each case is `(label, expression, mode, steps)`: the expression builds the transformation from
`contrib` (`optax.contrib` / `optim.contrib`) and `lib` (`optax` / `optim`); the problem is the
quadratic `f(p) = sum(0.5 * CURVATURE * (p - TARGET)**2)` over `{"w": 3x2, "b": 2}` from
`INIT`, and each step is `updates, state = tx.update(grads, state, params, **extra)` then
`apply_updates`. Modes say what `extra` holds and what the gradients are:

- "plain": nothing; "value": `value=f(p)`; "flat": `value=1.0` (a loss that never improves);
- "plain_w": like "plain" on `{"w": ...}` alone; "obj_fn": `obj_fn=f`; "grad_fn": `grad_fn=lambda p, i: grad(f)(p)`;
- "per_example": the gradients get a batch axis of 4 (example k: `(k + 1) * grad`);
- "complex": params `INIT + 1j * INIT[::-1]`, loss `sum(|p - TARGET|**2)`, gradient `conj`-free
  (`2 (p - TARGET)`), as Optax's complex convention gives.
"""

# ruff: noqa: E501  (one case per line)
from __future__ import annotations

from typing import Any

import numpy as np

INIT = {
    "w": np.array([[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8]], np.float32),
    "b": np.array([0.1, -0.4], np.float32),
}
TARGET = {
    "w": np.array([[3.0, -4.0], [-2.5, 3.0], [2.7, -3.2]], np.float32),
    "b": np.array([-3.0, 2.5], np.float32),
}
CURVATURE = {
    "w": np.array([[1.0, 2.0], [0.5, 3.0], [1.5, 0.8]], np.float32),
    "b": np.array([2.5, 0.7], np.float32),
}

# fmt: off
CASES = [
    ("reduce_on_plateau", "lib.chain(lib.sgd(0.1), contrib.reduce_on_plateau(patience=2, cooldown=1))", "flat", 7),
    ("reduce_on_plateau_acc", "lib.chain(lib.sgd(0.1), contrib.reduce_on_plateau(factor=0.5, patience=1, accumulation_size=2, min_scale=0.3))", "value", 8),
    ("schedule_free_sgd", "contrib.schedule_free_sgd(0.1)", "plain", 4),
    ("schedule_free_sgd_wd", "contrib.schedule_free_sgd(0.2, warmup_steps=2, weight_decay=0.01, b1=0.8)", "plain", 4),
    ("schedule_free_adamw", "contrib.schedule_free_adamw(0.1)", "plain", 4),
    ("schedule_free_adam", "contrib.schedule_free(lib.adam(lib.warmup_constant_schedule(0.0, 0.1, 2), b1=0.0), lib.warmup_constant_schedule(0.0, 0.1, 2))", "plain", 4),
    ("sam", "contrib.sam(lib.sgd(0.1), lib.chain(contrib.normalize(), lib.sgd(0.05)), sync_period=2)", "plain", 4),
    ("sam_keep_state", "contrib.sam(lib.adam(0.1), lib.adam(0.05), sync_period=3, reset_state=False)", "plain", 5),
    ("sam_opaque", "contrib.sam(lib.sgd(0.1), lib.chain(contrib.normalize(), lib.sgd(0.05)), sync_period=3, opaque_mode=True)", "grad_fn", 3),
    ("normalize", "contrib.normalize()", "plain", 2),
    ("prodigy", "contrib.prodigy()", "plain", 4),
    ("prodigy_options", "contrib.prodigy(0.5, betas=(0.8, 0.99), weight_decay=0.1, safeguard_warmup=True, estim_lr_coef=2.0)", "plain", 4),
    ("dadapt_adamw", "contrib.dadapt_adamw()", "plain", 4),
    ("dadapt_adamw_wd", "contrib.dadapt_adamw(lib.linear_schedule(1.0, 0.5, 4), weight_decay=0.1, estim_lr0=1e-3)", "plain", 4),
    ("mechanize_adam", "contrib.mechanize(lib.adam(0.1))", "plain", 4),
    ("mechanize_sgd", "contrib.mechanize(lib.sgd(0.2), weight_decay=0.0, num_betas=3)", "plain", 4),
    ("cocob", "contrib.cocob()", "plain", 4),
    ("cocob_wd", "contrib.cocob(0.5, alpha=10.0, weight_decay=0.1)", "plain", 4),
    ("dog", "contrib.dog()", "plain", 4),
    ("dog_distance", "contrib.dog(init_step=('distance', 0.5), weight_decay=0.01)", "plain", 4),
    ("dog_lr", "contrib.dog(0.5, init_step=('learning_rate', 0.1))", "plain", 4),
    ("dowg", "contrib.dowg()", "plain", 4),
    ("dowg_init", "contrib.dowg(init_estim_sq_dist=0.3, weight_decay=0.01)", "plain", 4),
    ("momo", "contrib.momo()", "value", 4),
    ("momo_adapt", "contrib.momo(0.5, weight_decay=0.1, adapt_lower_bound=True)", "value", 4),
    ("momo_adam", "contrib.momo_adam()", "value", 4),
    ("momo_adam_adapt", "contrib.momo_adam(0.1, weight_decay=0.1, adapt_lower_bound=True)", "value", 4),
    ("acprop", "contrib.acprop(0.1)", "plain", 4),
    ("acprop_wd", "contrib.acprop(0.1, weight_decay=0.1)", "plain", 4),
    ("ademamix", "contrib.ademamix(0.1)", "plain", 4),
    ("ademamix_sched", "contrib.ademamix(0.1, b3=lib.linear_schedule(0.9, 0.99, 4), alpha=lib.linear_schedule(0.0, 5.0, 4), weight_decay=0.01)", "plain", 4),
    ("simplified_ademamix", "contrib.simplified_ademamix(0.1, alpha=2.0)", "plain", 4),
    ("adopt", "contrib.adopt(0.1)", "plain", 4),
    ("adopt_nesterov", "contrib.adopt(0.1, nesterov=True, use_clipping=False)", "plain", 4),
    ("madgrad", "contrib.madgrad(0.1)", "plain", 4),
    ("madgrad_wd", "contrib.madgrad(lib.linear_schedule(0.1, 0.01, 4), momentum=0.5, weight_decay=0.1)", "plain", 4),
    ("sophia", "contrib.sophia(0.1, update_interval=2)", "obj_fn", 4),
    ("sophia_noclip", "contrib.sophia(0.1, clip_threshold=None, update_interval=1, weight_decay=0.0)", "obj_fn", 3),
    ("muon", "contrib.muon(0.1)", "plain", 3),
    ("muon_options", "contrib.muon(0.1, ns_coeffs='dion', nesterov=False, weight_decay=0.1, adam_learning_rate=0.05)", "plain", 3),
    ("muon_spectral", "contrib.muon(0.1, preconditioning='spectral', adaptive=True)", "plain", 2),
    ("muon_aol", "contrib.muon(0.1, preconditioning='aol', consistent_rms=0.2)", "plain", 2),
    ("muon_schatten", "contrib.muon(0.1, preconditioning='schatten')", "plain", 2),
    ("scale_by_muon_dimnums", "contrib.scale_by_muon(weight_dimension_numbers={'w': contrib.MuonDimensionNumbers(1, 0)})", "plain_w", 2),
    ("galore", "contrib.galore(0.1, rank=1, update_proj_gap=2)", "plain", 4),
    ("galore_sgd", "contrib.galore(0.1, rank=2, base_optimizer=lib.sgd(1.0, momentum=0.9), weight_decay=0.01)", "plain", 3),
    ("galore_dimnums", "contrib.scale_by_galore(rank=1, weight_dimension_numbers=contrib.GaLoreDimensionNumbers(1, 0))", "plain_w", 3),
    ("split_real_and_imaginary", "contrib.split_real_and_imaginary(lib.adam(0.1))", "complex", 3),
    ("dpsgd", "lib.dpsgd(0.1, l2_norm_clip=1.0, noise_multiplier=0.5, seed=3, momentum=0.9)", "per_example", 3),
    ("dp_aggregate", "contrib.differentially_private_aggregate(2.0, 0.1, key=7)", "per_example", 2),
]
# fmt: on


def run(expr: str, mode: str, steps: int, libs: dict[str, Any]) -> dict[str, Any]:
    """Runs one case with `libs` (Optax under JAX, or numbax's optim under core); the recorder
    and the test share it, so both sides do the same steps. Returns
    `{"params", "state", "dtypes", "eval"?}` after `steps` steps, as nested lists."""
    ad, jnp, lib, random = libs["ad"], libs["jnp"], libs["lib"], libs["random"]
    names = ["w"] if mode == "plain_w" else ["w", "b"]
    complex_mode = mode == "complex"

    def loss(p):
        if complex_mode:
            return sum(jnp.sum(jnp.abs(p[k] - TARGET[k]) ** 2) for k in p)
        return sum(jnp.sum(0.5 * CURVATURE[k] * (p[k] - TARGET[k]) ** 2) for k in p)

    def grad(p):
        if complex_mode:
            return {k: 2 * (p[k] - TARGET[k]) for k in p}
        return ad.grad(loss)(p)

    if complex_mode:
        params = {k: jnp.asarray(INIT[k] + 1j * INIT[k][::-1]) for k in names}
    else:
        params = {k: jnp.asarray(INIT[k]) for k in names}
    tx = eval(expr, {"lib": lib, "contrib": lib.contrib, "jnp": jnp})
    state = tx.init(params)

    def step(params, state):
        g = grad(params)
        extra: dict[str, Any] = {}
        if mode == "value":
            extra["value"] = loss(params)
        elif mode == "flat":
            extra["value"] = jnp.asarray(1.0)
        elif mode == "obj_fn":
            extra["obj_fn"] = loss
        elif mode == "grad_fn":
            extra["grad_fn"] = lambda p, i: grad(p)
        elif mode == "per_example":
            g = {k: jnp.stack([(i + 1) * v for i in range(4)]) for k, v in g.items()}
        updates, state = tx.update(g, state, params, **extra)
        return lib.apply_updates(params, updates), state

    if libs.get("jit") is not None:
        step = libs["jit"](step)
    for _ in range(steps):
        params, state = step(params, state)
    leaves = []
    for leaf in libs["leaves"](state):
        if libs["is_key"](leaf):
            leaf = random.key_data(leaf)
        leaves.append(leaf)
    out = {
        "params": {k: _py(v) for k, v in params.items()},
        "state": [_py(v) for v in leaves],
        "dtypes": [str(np.asarray(v).dtype) for v in leaves],
    }
    if "schedule_free" in expr:
        out["eval"] = {
            k: _py(v) for k, v in lib.contrib.schedule_free_eval_params(state, params).items()
        }
    return out


def _py(x: Any) -> Any:
    x = np.asarray(x)
    if np.iscomplexobj(x):
        return [_py(x.real), _py(x.imag)]
    return x.astype(np.float64).tolist()
