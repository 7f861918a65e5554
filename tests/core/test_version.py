"""`core.version` (`jax.version`): numbax's version string and its integer tuple."""

import core


def test_version():
    assert core.version.__version__ == core.__version__
    assert core.version.__version_info__ == tuple(int(p) for p in core.__version__.split("."))
