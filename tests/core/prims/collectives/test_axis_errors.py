"""The collectives' axis arguments (core/prims/collectives: wrappers.all_gather,
alltoall.all_to_all, scatter.psum_scatter, permutes.pshuffle) checked as JAX 0.10.2 checks
them, with its exception classes and first lines (8 host devices), under pmap and vmap."""

import numpy as np
import pytest

import core
from core import lax
from core.errors import AxisError

X8 = np.arange(8.0, dtype=np.float32)
X82 = np.arange(16.0, dtype=np.float32).reshape(8, 2)
X88 = np.ones((8, 8), np.float32)

CASES = [  # (body, input, JAX 0.10.2's class, its first line)
    (lambda x: lax.all_gather(x, "i", axis=2), X82, ValueError,
     "axis 2 is out of bounds for array of dimension 2"),
    (lambda x: lax.all_gather(x, "i", axis=-3), X82, ValueError,
     "axis -3 is out of bounds for array of dimension 2"),
    (lambda x: lax.all_gather(x, "i", tiled=True), X8, ValueError,
     "axis 0 is out of bounds for array of dimension 0"),
    (lambda x: lax.all_to_all(x, "i", 0, 0), X8, IndexError, "tuple index out of range"),
    (lambda x: lax.all_to_all(x, "i", 2, 0), X88, IndexError, "tuple index out of range"),
    (lambda x: lax.psum_scatter(x, "i"), X8, IndexError, "tuple index out of range"),
    (lambda x: lax.psum_scatter(x, "i", scatter_dimension=3), X88, IndexError,
     "tuple index out of range"),
    (lambda x: lax.pshuffle(x, "i", [0, 0, 1, 2, 3, 4, 5, 6]), X8, ValueError,
     "`perm` does not represent a permutation: [0, 0, 1, 2, 3, 4, 5, 6]"),
]  # fmt: skip


@pytest.mark.parametrize("transform", [core.pmap, core.vmap])
@pytest.mark.parametrize(("body", "x", "error", "first_line"), CASES)
def test_axis_errors_give_jaxs_class_and_first_line(transform, body, x, error, first_line):
    with pytest.raises(error) as info:
        transform(body, axis_name="i")(x)
    assert str(info.value).split("\n")[0] == first_line


def test_in_range_negative_axes_still_work():
    # JAX 0.10.2: shape (8, 8, 2) for axis=-2 of per-device (2,) values
    out = core.pmap(lambda x: lax.all_gather(x, "i", axis=-2), axis_name="i")(X82)
    assert out.shape == (8, 8, 2)
    assert issubclass(AxisError, ValueError) and issubclass(AxisError, IndexError)
