"""Optax's experimental modules (`optax.experimental`): `aggregating`, transformations that
turn per-example gradients into one update (averaging, accumulation over microbatches, gradient
mean and variance statistics)."""

from optim.experimental import aggregating

__all__ = ["aggregating"]
