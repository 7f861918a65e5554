"""numbax: the distribution's own namespace.

The distribution installs the top-level packages `core` (the JAX analogue), `nn`, `optim`,
`train`, `datasets`, `flaxport` and `examples`; this package holds only what all of them share
without importing one another: the root of every numbax error, `numbax.errors.NumbaxError`
(also `core.errors.NumbaxError`). Importing it loads nothing else, so `datasets`, which needs
only numpy, roots its errors there too. `__version__` is the distribution's version (pyproject.toml
reads it from here), re-exported as `core.__version__`, `optim.__version__` and
`flaxport.__version__` as `jax`, `optax` and `flax` have theirs.
"""

__version__ = "0.1.0"
