"""The root of every numbax error: ``except NumbaxError`` catches all of them.

Each package has one root class under it (`core.errors` for core's own classes,
`nn.errors.FlaxError`, `optim.errors.OptimError`, `train.errors.TrainError`,
`datasets.errors.DatasetError`). It lives in this module of its own, which imports nothing,
so that a package needing only numpy (`datasets`) derives from it without loading `core`.
"""


def _restore(cls: type, args: tuple, state: dict) -> "NumbaxError":
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class NumbaxError(Exception):
    """Base class of numbax's own errors (re-exported as `core.errors.NumbaxError`)."""

    def __reduce__(self) -> tuple:
        """Pickled as it is (class, message and attributes), not by calling ``__init__`` again:
        most subclasses build their message from other arguments (Flax's errors pickle so
        since Flax's issue 4000; a worker process's error reaches its parent)."""
        return (_restore, (type(self), self.args, self.__dict__))
