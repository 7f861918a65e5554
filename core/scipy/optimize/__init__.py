"""`core.scipy.optimize`: `jax.scipy.optimize`'s `minimize` (BFGS and the experimental L-BFGS).

The solvers are JAX's, line for line in algorithm and constants: `bfgs.py` and `_lbfgs.py` are
`lax.while_loop`s over a NamedTuple state, stepping with the strong-Wolfe `line_search` of
`line_search.py`, so they trace under `jit` and batch under `vmap` and reproduce JAX's iterates.
"""

from core.scipy.optimize.minimize import OptimizeResults, minimize

__all__ = ["OptimizeResults", "minimize"]
