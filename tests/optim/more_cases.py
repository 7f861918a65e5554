"""Inputs and computations for the Optax 0.2.8 functions ported after the contrib optimizers
(`nnls`, the Fenchel-Young/sparsemax/ranking losses, `base_hungarian_algorithm`); shared by
`record_more.py` (reference venv) and the tests. NumPy only: the libraries are passed in."""

from __future__ import annotations

from typing import Any

import numpy as np

_rng = np.random.default_rng(0)
A = _rng.normal(size=(5, 3)).astype(np.float32)
B_VEC = _rng.normal(size=(5,)).astype(np.float32)
B_MAT = _rng.normal(size=(5, 2)).astype(np.float32)
SCORES = _rng.normal(size=(4, 5)).astype(np.float32)
LABELS = np.array([0, 3, 4, 1])
RELEVANCE = _rng.integers(0, 3, size=(4, 5)).astype(np.float32)
WHERE = _rng.random((4, 5)) > 0.3
WHERE[2] = False  # a list without items
WEIGHTS = _rng.random((4, 5)).astype(np.float32)
COSTS = [_rng.normal(size=s).astype(np.float32) for s in [(4, 4), (3, 5), (6, 2), (5, 5)]]
COSTS.append(np.array([[1, 1, 2], [1, 1, 2], [2, 2, 1]], np.float32))  # ties


def compute(lib: Any, jnp: Any, logsumexp: Any, grad: Any) -> dict[str, Any]:
    """Every recorded value, as nested lists (dtypes as strings)."""
    out: dict[str, Any] = {}
    out["nnls"] = lib.nnls(jnp.asarray(A), jnp.asarray(B_VEC), 50)
    out["nnls_mat"] = lib.nnls(jnp.asarray(A), jnp.asarray(B_MAT), 30, unroll=2, L=20.0)
    fy = lib.losses.make_fenchel_young_loss(logsumexp)
    onehot = jnp.asarray(np.eye(5, dtype=np.float32)[LABELS])
    scores = jnp.asarray(SCORES)
    out["fy"] = fy(scores, onehot)
    out["fy_grad"] = grad(lambda s: fy(s, onehot).sum())(scores)
    sparsemax = lib.losses.multiclass_sparsemax_loss
    out["sparsemax"] = sparsemax(scores, jnp.asarray(LABELS))
    out["sparsemax_grad"] = grad(lambda s: sparsemax(s, jnp.asarray(LABELS)).sum())(scores)
    rank = lib.losses.ranking_softmax_loss
    rel, where = jnp.asarray(RELEVANCE), jnp.asarray(WHERE)
    out["rank"] = rank(scores, rel)
    out["rank_where"] = rank(scores, rel, where=where)
    out["rank_where_none"] = rank(scores, rel, where=where, reduce_fn=None)
    out["rank_weights_sum"] = rank(scores, rel, weights=jnp.asarray(WEIGHTS), reduce_fn=jnp.sum)
    out["rank_grad"] = grad(lambda s: rank(s, rel, where=where))(scores)
    for k, c in enumerate(COSTS):
        i, j = lib.assignment.base_hungarian_algorithm(jnp.asarray(c))
        out[f"hungarian_{k}"] = [np.asarray(i).tolist(), np.asarray(j).tolist()]
        out[f"hungarian_{k}_dtype"] = str(np.asarray(i).dtype)
    return {k: v if isinstance(v, (str, list)) else np.asarray(v).tolist() for k, v in out.items()}
