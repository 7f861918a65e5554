"""conv_general_dilated checks its group counts, strides and string padding in JAX 0.10.2's
order and with its messages (recorded from JAX)."""

import pytest

import core
import core.numpy as jnp
from core import lax

X = jnp.arange(32.0).reshape(1, 2, 4, 4)
X2 = jnp.arange(64.0).reshape(2, 2, 4, 4)
CG = "conv_general_dilated"


@pytest.mark.parametrize(
    "args, kw, message",
    [
        (
            (X, jnp.ones((2, 2, 3, 3)), (1, 1), "SAME"),
            {"lhs_dilation": (2, 1)},
            "String padding is not implemented for transposed convolution using this op. Please "
            "either exactly specify the required padding or use conv_transpose.",
        ),
        (
            (X, jnp.ones((4, 2, 3, 3)), (1, 1), "SAME"),
            {"feature_group_count": 2},
            f"{CG} lhs feature dimension size divided by feature_group_count must equal the rhs "
            "input feature dimension size, but 2 // 2 != 2.",
        ),
        (
            (X, jnp.ones((3, 1, 3, 3)), (1, 1), "SAME"),
            {"feature_group_count": 2},
            f"{CG} rhs output feature dimension size must be a multiple of feature_group_count, "
            "but 3 is not a multiple of 2.",
        ),
        (
            (X2, jnp.ones((3, 2, 3, 3)), (1, 1), "VALID"),
            {"batch_group_count": 2},
            f"{CG} rhs output feature dimension size must be a multiple of batch_group_count, but "
            "3 is not a multiple of 2.",
        ),
        (
            (X, jnp.ones((4, 1, 3, 3)), (1, 1), "VALID"),
            {"feature_group_count": 2, "batch_group_count": 2},
            f"{CG} batch_group_count must divide lhs batch dimension size, but 2 does not "
            "divide 1.",
        ),
        (
            (X, jnp.ones((2, 2, 3, 3)), (1,), "SAME"),
            {},
            f"{CG} window and window_strides must have the same number of dimensions, but got 2 "
            "and 1",
        ),
    ],
)
def test_conv_general_dilated_errors(args, kw, message):
    with pytest.raises(ValueError) as e:
        lax.conv_general_dilated(*args, **kw)
    assert str(e.value).split("\n")[0] == message


def test_grouped_convolutions_keep_their_shapes():
    w = jnp.ones((4, 1, 3, 3))
    assert lax.conv_general_dilated(X, w, (1, 1), "SAME", feature_group_count=2).shape == (
        1,
        4,
        4,
        4,
    )
    w = jnp.ones((4, 2, 3, 3))
    assert lax.conv_general_dilated(X2, w, (1, 1), "VALID", batch_group_count=2).shape == (
        1,
        4,
        2,
        2,
    )


def test_conv_general_dilated_dimension_numbers_is_a_typing_union():
    # JAX 0.10.2: TypeError "Cannot instantiate typing.Union"
    with pytest.raises(TypeError, match="^Cannot instantiate typing.Union"):
        lax.ConvGeneralDilatedDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3))


# JAX 0.10.2's shapes for vmap over an empty batch (found by JAX's lax_vmap_test: the group
# counts were multiplied by the batch size 0, or split an axis by 0)
@pytest.mark.parametrize(
    "lhs, rhs, groups, axes, dims, want",
    [
        ((0, 2, 2, 6, 7), (2, 1, 1, 2), (1, 2), (0, None), ("NCHW", "OIHW", "NCHW"), (2, 2, 7, 7)),
        ((2, 2, 6, 7), (2, 0, 1, 1, 2), (1, 2), (None, 1), ("NCHW", "OIHW", "NCHW"), (2, 2, 7, 7)),
        ((0, 2, 2, 6, 7), (0, 2, 2, 1, 2), (2, 1), (0, 0), ("NCHW", "OIHW", "NCHW"), (1, 2, 7, 7)),
        ((1, 0, 1, 6, 7), (1, 2, 7, 3), (1, 1), (1, None), ("NHWC", "HWIO", "NHWC"), (1, 2, 6, 3)),
    ],
)
def test_vmap_over_an_empty_batch(lhs, rhs, groups, axes, dims, want):
    def conv(x, w):
        return lax.conv_general_dilated(
            x,
            w,
            (1, 1),
            ((1, 0), (0, 1)),
            dimension_numbers=dims,
            batch_group_count=groups[0],
            feature_group_count=groups[1],
        )

    out = core.vmap(conv, axes)(jnp.ones(lhs), jnp.ones(rhs))
    assert (out.shape, out.dtype) == ((0, *want), jnp.float32)
