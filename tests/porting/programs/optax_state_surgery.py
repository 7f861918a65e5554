"""Reading and editing an Optax optimizer's state, as training scripts do (our own program):
`optax.tree_utils`' `tree_get`/`tree_get_all_with_path`/`tree_set` (by name, with a filtering
type, a missing key), `tree_map_params` over an `adam` state (parameters' slots only, with
`transform_non_params`, on `MaskedNode`s of a masked state), `tree_l2_norm` (squared too),
`tree_zeros_like`/`tree_full_like`/`tree_cast`/`tree_dtype`/`tree_where`/`tree_clip`/
`tree_size`; `inject_hyperparams` over a warmup-cosine schedule with the learning rate read back
from `state.hyperparams` each step and overwritten by hand, `static_args`, a hyperparameter
given as a callable of the step; `apply_if_finite` skipping steps with `inf`/`nan` gradients
(its counters and the parameters kept); `MultiSteps` with a callable `every_k_schedule`
(`mini_step`, `gradient_step`, `has_updated`); `masked` with a callable mask and
`multi_transform` with a label function inside a `chain`, their states' shapes."""

import jax
import jax.numpy as jnp
import optax
import optax.tree_utils as otu

PARAMS = {
    "encoder": {"kernel": jnp.array([[0.5, -1.0], [2.0, 0.25]]), "bias": jnp.array([0.1, -0.2])},
    "scale": jnp.array(1.5),
}


def loss(params, shift=0.0):
    k = params["encoder"]["kernel"]
    return (jnp.sum((k - shift) ** 2) + jnp.sum(jnp.sin(params["encoder"]["bias"]))
            + (params["scale"] - 2.0) ** 2)  # fmt: skip


def run():
    out = {}
    grads = jax.grad(loss)(PARAMS)

    # reading the state
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1))
    state = tx.init(PARAMS)
    updates, state = tx.update(grads, state, PARAMS)
    out["count"] = otu.tree_get(state, "count")
    out["mu_bias"] = otu.tree_get(state, "mu")["encoder"]["bias"]
    paths = otu.tree_get_all_with_path(state, "count")
    out["count_paths"] = [str(p) for p, _ in paths]
    out["filtered"] = otu.tree_get(state, "count", filtering=lambda path, v: len(path) > 1)
    out["missing_get"] = otu.tree_get(state, "velocity", default="absent")
    try:
        otu.tree_set(state, velocity=1.0)
    except KeyError as e:  # numbax's is a subclass, as users catch it
        out["missing_set"] = str(e).split(" in ")[0]
    edited = otu.tree_set(state, count=jnp.asarray(10, jnp.int32))
    out["edited_count"] = otu.tree_get(edited, "count")
    _, after = tx.update(grads, edited, PARAMS)
    out["after_edit_count"] = otu.tree_get(after, "count")
    halved = otu.tree_map_params(tx, lambda p: p / 2, state)
    out["halved_mu"] = otu.tree_get(halved, "mu")
    out["halved_count"] = otu.tree_get(halved, "count")
    marked = otu.tree_map_params(tx, lambda p: p * 0, state,
                                 transform_non_params=lambda x: -1)  # fmt: skip
    out["non_params"] = [otu.tree_get(marked, "count"), otu.tree_get(marked, "nu")["scale"]]

    masked_tx = optax.masked(optax.adam(0.1), lambda p: jax.tree.map(lambda x: x.ndim > 0, p))
    mstate = masked_tx.init(PARAMS)
    out["masked_state"] = jax.tree.map(jnp.shape, otu.tree_map_params(masked_tx, jnp.shape,
                                                                      mstate))  # fmt: skip
    out["masked_node_type"] = type(mstate.inner_state[0].mu["scale"]).__name__

    # tree arithmetic
    out["l2"] = [otu.tree_l2_norm(grads), otu.tree_l2_norm(grads, squared=True),
                 otu.tree_norm(grads, ord=1), otu.tree_norm(grads, ord=jnp.inf)]  # fmt: skip
    out["like"] = [otu.tree_zeros_like(PARAMS), otu.tree_full_like(PARAMS, 3, dtype=jnp.int32)]
    half = otu.tree_cast(PARAMS, jnp.bfloat16)
    out["cast"] = [str(otu.tree_dtype(half)), str(otu.tree_dtype(PARAMS, "promote")), half]
    out["where"] = [
        otu.tree_where(otu.tree_sum(grads) > 0, grads, PARAMS),
        otu.tree_where(jnp.array(False), grads, PARAMS),
    ]
    out["clip"] = otu.tree_clip(grads, -0.5, 0.5)
    out["size"] = [otu.tree_size(PARAMS), otu.tree_sum(grads), otu.tree_max(grads)]

    # injected hyperparameters
    schedule = optax.warmup_cosine_decay_schedule(0.0, 0.2, 3, 10, end_value=0.01)
    itx = optax.inject_hyperparams(optax.adamw, static_args=("mu_dtype",))(
        learning_rate=schedule, weight_decay=lambda count: 1e-2 * (count + 1), mu_dtype=None
    )
    istate = itx.init(PARAMS)
    params = PARAMS
    lrs, wds = [], []
    for i in range(6):
        if i == 4:
            istate.hyperparams["learning_rate"] = jnp.asarray(0.5)
        g = jax.grad(loss)(params)
        u, istate = itx.update(g, istate, params)
        params = optax.apply_updates(params, u)
        lrs.append(istate.hyperparams["learning_rate"])
        wds.append(istate.hyperparams["weight_decay"])
    out["inject"] = dict(lrs=jnp.stack(lrs), wds=jnp.stack(wds), params=params,
                         keys=sorted(istate.hyperparams), count=istate.count,
                         type=type(istate).__name__)  # fmt: skip

    # skipping non-finite steps
    ftx = optax.apply_if_finite(optax.sgd(0.1), max_consecutive_errors=2)
    fstate = ftx.init(PARAMS)
    params = PARAMS
    record = []
    for bad in [None, jnp.inf, jnp.nan, None, jnp.nan, jnp.nan, jnp.nan]:
        g = jax.grad(loss)(params)
        if bad is not None:
            g = {**g, "scale": g["scale"] + bad}
        u, fstate = ftx.update(g, fstate, params)
        params = optax.apply_updates(params, u)
        record.append([bool(fstate.last_finite), int(fstate.notfinite_count),
                       int(fstate.total_notfinite)])  # fmt: skip
    out["if_finite"] = dict(record=record, params=params, type=type(fstate).__name__)

    # gradient accumulation on a schedule of k
    mtx = optax.MultiSteps(optax.sgd(0.5), every_k_schedule=lambda step: jnp.where(step < 2, 1, 3))
    mstate = mtx.init(PARAMS)
    params = PARAMS
    trace = []
    for i in range(8):
        g = jax.grad(loss)(params, shift=0.1 * i)
        u, mstate = mtx.update(g, mstate, params)
        params = optax.apply_updates(params, u)
        trace.append([int(mstate.mini_step), int(mstate.gradient_step),
                      bool(mtx.has_updated(mstate))])  # fmt: skip
    out["multi_steps"] = dict(trace=trace, params=params)

    # masks and labels by functions in a chain
    ctx = optax.chain(
        optax.multi_transform(
            {"fast": optax.sgd(0.3, momentum=0.9), "slow": optax.adam(0.01)},
            lambda p: jax.tree.map(lambda x: "fast" if x.ndim == 2 else "slow", p),
        ),
        optax.masked(
            optax.add_decayed_weights(0.1),
            lambda p: {"encoder": {"kernel": True, "bias": False}, "scale": False},
        ),  # fmt: skip
    )
    cstate = ctx.init(PARAMS)
    params = PARAMS
    for _ in range(3):
        u, cstate = ctx.update(jax.grad(loss)(params), cstate, params)
        params = optax.apply_updates(params, u)
    out["chain"] = dict(params=params, inner=sorted(cstate[0].inner_states),
                        shapes=jax.tree.map(jnp.shape, cstate[0].inner_states["fast"]))  # fmt: skip
    return out
