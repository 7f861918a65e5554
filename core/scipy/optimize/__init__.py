"""`core.scipy.optimize`: `jax.scipy.optimize`'s `minimize` (BFGS and the experimental L-BFGS).

The solvers take JAX's steps: the same algorithms and constants, written here as
`lax.while_loop`s over JAX's result NamedTuples (`bfgs.py`, `_lbfgs.py`) stepping with the
strong-Wolfe `line_search` of `line_search.py`, so they trace under `jit` and batch under
`vmap`, and their counters and statuses equal JAX's.
"""

from core.scipy.optimize.minimize import OptimizeResults, minimize

__all__ = ["OptimizeResults", "minimize"]
