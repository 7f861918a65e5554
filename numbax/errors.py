"""The root of every numbax error: ``except NumbaxError`` catches all of them.

Each package has one root class under it (`core.errors` for core's own classes,
`nn.errors.FlaxError`, `optim.errors.OptimError`, `train.errors.TrainError`,
`datasets.errors.DatasetError`). It lives in this module of its own, which imports nothing,
so that a package needing only numpy (`datasets`) derives from it without loading `core`.
"""


class NumbaxError(Exception):
    """Base class of numbax's own errors (re-exported as `core.errors.NumbaxError`)."""
