"""Second-order quantities of a loss (`optax.second_order`, deprecated in Optax 0.2.7).

`loss(params, inputs, targets) -> scalar`. Vectors are over the raveled params
(`optim.tree.ravel`). `hessian_diag` takes one Hessian-vector product per parameter, so it is
meant for small models.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import core
import core.numpy as jnp
from optim import tree

LossFn = Callable[[Any, Any, Any], Any]


def hvp(loss: LossFn, v: Any, params: Any, inputs: Any, targets: Any) -> Any:
    """Returns the Hessian of `loss` (in the params) times `v`, as a params-shaped tree.

    Args:
      loss: `loss(params, inputs, targets) -> scalar`.
      v: a flat vector of the size of the raveled params.
      params: the parameters.
      inputs: the inputs passed to `loss`.
      targets: the targets passed to `loss`.
    """
    _, unravel = tree.ravel(params)
    return core.jvp(core.grad(lambda p: loss(p, inputs, targets)), [params], [unravel(v)])[1]


def hessian_diag(loss: LossFn, params: Any, inputs: Any, targets: Any) -> Any:
    """Returns the diagonal of the Hessian of `loss` at `params`, a flat vector."""
    n = tree.ravel(params)[0].size
    vs = jnp.eye(n)
    return core.vmap(lambda v: jnp.vdot(v, tree.ravel(hvp(loss, v, params, inputs, targets))[0]))(
        vs
    )


def fisher_diag(negative_log_likelihood: LossFn, params: Any, inputs: Any, targets: Any) -> Any:
    """Returns the diagonal of the observed Fisher information: the squared gradient of the
    negative log-likelihood, a flat vector."""
    return jnp.square(tree.ravel(core.grad(negative_log_likelihood)(params, inputs, targets))[0])


__all__ = ["fisher_diag", "hessian_diag", "hvp"]
