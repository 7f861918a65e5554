"""Layer misuse raises Flax 0.12.8's (and JAX 0.10.2's) exception class with its first line,
numbax's fix on the lines after it. The answers were recorded from the reference libraries
by the differential run (`python -m tools.jax_differential --area flax_layer_options`); each
case is Python source run with `nn`, `jax` (numbax's `core`) and `jnp`."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn

X = jnp.asarray(np.sin(np.arange(40.0)).reshape(2, 5, 4).astype(np.float32))
NAMESPACE = {"nn": nn, "jax": core, "jnp": jnp, "X": X, "Q": X.reshape(2, 5, 2, 2),
             "KEY": core.random.key(0)}  # fmt: skip

CONTRACT = "dot_general requires contracting dimensions to have the same shape, got"
CASES = {
    "einsum_no_arrow": (
        "nn.Einsum((4, 3), 'abc,cd').init(KEY, X)",
        ValueError,
        '`einsum_str` equation must be explicit and include "->".',
    ),
    "einsum_three_operands": (
        "nn.Einsum((4, 3), 'abc,cd,de->abe').init(KEY, X)",
        ValueError,
        "`einsum_str` equation must have exactly two operands and therefore, exactly one comma "
        "character, instead of 2",
    ),
    "einsum_label_size": (
        "nn.Einsum((5, 3), 'abc,cd->abd').init(KEY, X)",
        ValueError,
        "Size of label 'c' for operand 1 (4) does not match previous terms (5).",
    ),
    "einsum_label_repeated": (
        "jnp.einsum('aa->a', jnp.ones((2, 3)))",
        ValueError,
        "Size of label 'a' for operand 0 (2) does not match previous terms (3).",
    ),
    "conv_padding_pair": (
        "nn.Conv(2, (3,), padding=(1, 2)).init(KEY, X)",
        ValueError,
        "Invalid padding format: (1, 2), should be str, int, or a sequence of len 1 where each "
        "element is an int or pair of ints.",
    ),
    "conv_padding_rank": (
        "nn.Conv(2, (3,), padding=((1, 1), (1, 1))).init(KEY, X)",
        ValueError,
        "Invalid padding format: ((1, 1), (1, 1)), should be str, int, or a sequence of len 1 "
        "where each element is an int or pair of ints.",
    ),
    "conv_rank": (
        "nn.Conv(2, (3,)).init(KEY, X[0, 0])",
        ValueError,
        "conv_general_dilated lhs and rhs must have the same number of dimensions, but got "
        "(1, 4) and (3, 4, 2).",
    ),
    "conv_groups": ("nn.Conv(4, (3,), feature_group_count=3).init(KEY, X)", AssertionError, ""),
    "conv_local_groups": (
        "nn.ConvLocal(2, (3,), feature_group_count=2).init(KEY, X)",
        NotImplementedError,
        "`lax.conv_general_dilated_local` does not support `feature_group_count != 1`, got `2`.",
    ),
    "dense_general_batch_dims": (
        "nn.DenseGeneral(3, axis=-1, batch_dims=(1,)).init(KEY, X)",
        ValueError,
        "batch_dims (1,) must be consecutive leading dimensions starting from 0.",
    ),
    "dense_int_dtype": (
        "nn.Dense(2, dtype=jnp.int32).init(KEY, X)",
        ValueError,
        "Dtype must be inexact: <class 'jax.numpy.int32'>",
    ),
    "sequential_not_a_sequence": (
        "nn.Sequential(nn.Dense(3)).init(KEY, X)",
        ValueError,
        "'layers' must be a sequence, got 'Dense'.",
    ),
    "attention_inputs_v_only": (
        "nn.MultiHeadDotProductAttention(num_heads=2).init(KEY, X, inputs_v=X)",
        ValueError,
        "`inputs_k` cannot be None if `inputs_v` is not None. To have both `inputs_k` and "
        "`inputs_v` be the same value, pass in the value to `inputs_k` and leave `inputs_v` as "
        "None.",
    ),
    "attention_inputs_kv_and_k": (
        "nn.MultiHeadDotProductAttention(num_heads=2).init(KEY, X, X, inputs_kv=X)",
        ValueError,
        "If either `inputs_k` or `inputs_v` is not None, `inputs_kv` must be None. If "
        "`inputs_kv` is not None, both `inputs_k` and `inputs_v` must be None. We recommend "
        "using `inputs_k` and `inputs_v` args, since `inputs_kv` will be deprecated soon. See "
        "https://github.com/google/flax/discussions/3389 for more information.",
    ),
    "attention_mask_shape": (
        "nn.MultiHeadDotProductAttention(num_heads=2).init(KEY, X[:, :3], X, "
        "mask=jnp.ones((2, 1, 3, 4), bool))",
        ValueError,
        "Incompatible shapes for broadcasting: shapes=[(2, 1, 3, 4), (2, 2, 3, 5), ()]",
    ),
    "combine_masks_rank": (
        "nn.combine_masks(jnp.ones((1, 2), bool), jnp.ones((2,), bool))",
        AssertionError,
        "masks must have same rank: (2, 1)",
    ),
    "layer_norm_axis": (
        "nn.LayerNorm(reduction_axes=3).init(KEY, X)",
        IndexError,
        "tuple index out of range",
    ),
    "layer_norm_scalar": (
        "nn.LayerNorm().init(KEY, jnp.float32(1.0))",
        IndexError,
        "tuple index out of range",
    ),
    "rms_norm_axis": (
        "nn.RMSNorm(reduction_axes=3).init(KEY, X)",
        IndexError,
        "tuple index out of range",
    ),
    "instance_norm_batch_axis": (
        "nn.InstanceNorm().init(KEY, X[0, 0])",
        ValueError,
        "The channel axes cannot include the leading dimension as this is assumed to be the "
        "batch axis.",
    ),
    "spectral_norm_non_matrix": (
        "nn.SpectralNorm(nn.Conv(3, (3,)), error_on_non_matrix=True).init(KEY, X, "
        "update_stats=True)",
        ValueError,
        "Input is 3D but error_on_non_matrix is True",
    ),
    "attention_dropout_without_key": (
        "nn.dot_product_attention(Q, Q, Q, dropout_rate=0.5)",
        TypeError,
        "unexpected PRNG key type <class 'NoneType'>",
    ),
    "jax_attention_implementation": (
        "jax.nn.dot_product_attention(Q, Q, Q, implementation='bogus')",
        ValueError,
        "Unsupported implementation option: bogus",
    ),
    "embed_attend_features": (
        "nn.Embed(5, 3).apply({'params': {'embedding': jnp.ones((5, 3))}}, X[..., :2], "
        "method='attend')",
        TypeError,
        f"{CONTRACT} (2,) and (3,).",
    ),
    "rnn_time_major_reverse_lengths": (
        "nn.RNN(nn.LSTMCell(2), time_major=True, reverse=True).init(KEY, X, "
        "seq_lengths=jnp.array([3, 5]))",
        ValueError,
        "Incompatible shapes for broadcasting: shapes=[(2, 2, 1), (1, 5, 4)]",
    ),
    "lstm_float16_orthogonal": (
        "nn.LSTMCell(3, param_dtype=jnp.float16).init(KEY, (jnp.zeros((2, 3)), "
        "jnp.zeros((2, 3))), X[:, 0])",
        NotImplementedError,
        "(KeyError(<class 'numpy.float16'>), 'Unsupported dtype float16.')",
    ),
    "psum_index_groups_vmap": (
        "jax.vmap(lambda x: jax.lax.psum(x, 'i', axis_index_groups=[[0, 1], [2, 3]]), "
        "axis_name='i')(jnp.ones(4))",
        NotImplementedError,
        "axis_index_groups not supported in vmap collectives. Please open a feature request!",
    ),
    "random_key_none": (
        "jax.random.normal(None, (2,))",
        TypeError,
        "unexpected PRNG key type <class 'NoneType'>",
    ),
    "random_key_int": (
        "jax.random.normal(3, (2,))",
        TypeError,
        "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, and dtype "
        "attributes. Got 3",
    ),
    "random_key_list": (
        "jax.random.bernoulli([1, 2], 0.5, (2,))",
        TypeError,
        "unexpected PRNG key type <class 'list'>",
    ),
    "dot_contracting": (
        "jnp.dot(jnp.ones((2, 3)), jnp.ones((2, 4)))",
        TypeError,
        f"{CONTRACT} (3,) and (2,).",
    ),
    "tensordot_contracting": (
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((2, 4)))",
        TypeError,
        f"{CONTRACT} (2, 3) and (2, 4).",
    ),
    "where_three_shapes": (
        "jnp.where(jnp.ones((2, 3), bool), jnp.ones((4,)), 0.0)",
        ValueError,
        "Incompatible shapes for broadcasting: shapes=[(2, 3), (4,), ()]",
    ),
    "take_along_axis_shapes": (
        "jnp.take_along_axis(jnp.ones((2, 5, 4)), jnp.ones((2, 2, 1), jnp.int32), axis=0)",
        ValueError,
        "Incompatible shapes for broadcasting: shapes=[(2, 2, 1), (1, 5, 4)]",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_misuse_raises_flaxs_class_and_first_line(name):
    source, cls, first_line = CASES[name]
    with pytest.raises(cls) as info:
        eval(source, dict(NAMESPACE))
    got = str(info.value).strip().split("\n")[0].replace("'core.", "'jax.")
    assert got == first_line or not first_line  # Flax's bare `assert`: numbax's own text


def test_dense_general_contracts_axes_in_the_inputs_order():
    # Flax sorts `axis`: axis=(2, 1) gives the kernel shape (5, 4, 3), as axis=(1, 2)
    x = jnp.ones((2, 5, 4))
    for axis in [(2, 1), (1, 2), (-1, -2)]:
        variables = nn.DenseGeneral(3, axis=axis).init(core.random.key(0), x)
        assert variables["params"]["kernel"].shape == (5, 4, 3)
