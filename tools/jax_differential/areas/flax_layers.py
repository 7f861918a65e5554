"""Flax linen layers (`flax_layers`): `init_apply` gives a layer's variables for key 0 and its
output; attention masks, normalizations' batch statistics, Dropout, recurrent cells, RNN
and Embed.attend.

Left knowingly (1 of 155): `fnn.min_pool` is an AttributeError on both sides, its text names
the module, `nn` here and `flax.linen` in Flax.
"""

# ruff: noqa: E501

PRELUDE = """
XB = jnp.arange(24.0).reshape(2, 3, 4) / 10 - 1
XI = jnp.arange(32.0).reshape(2, 4, 4, 1) / 10 - 1
def init_apply(mod, *xs, rngs=None, **kw):
    v = mod.init(K0 if rngs is None else rngs, *xs, **kw)
    y = mod.apply(v, *xs, rngs=None if rngs is None else rngs, **kw)
    return v, y
"""

LAYERS = [
    ("fnn.Dense(3)", "XB"),
    ("fnn.Dense(3, use_bias=False)", "XB"),
    ("fnn.Dense(3, dtype=jnp.float16)", "XB"),
    ("fnn.Dense(3, param_dtype=jnp.bfloat16)", "XB"),
    (
        "fnn.Dense(3, kernel_init=fnn.initializers.normal(0.1), bias_init=fnn.initializers.ones)",
        "XB",
    ),
    ("fnn.Dense(3)", "XB.astype(jnp.int32)"),
    ("fnn.Dense(3)", "XB.astype(jnp.float16)"),
    ("fnn.Dense(0)", "XB"),
    ("fnn.Dense(3, precision='highest')", "XB"),
    ("fnn.DenseGeneral(features=(2, 3))", "XB"),
    ("fnn.DenseGeneral(features=5, axis=(-2, -1))", "XB"),
    ("fnn.DenseGeneral(features=(2, 2), axis=1)", "XB"),
    ("fnn.DenseGeneral(features=5, axis=(1, 2), batch_dims=(0,))", "XB"),
    ("fnn.DenseGeneral(features=5, axis=-1, batch_dims=(0,))", "XB"),
    ("fnn.DenseGeneral(features=5, axis=3)", "XB"),
    ("fnn.Einsum((4, 5), 'abc,cd->abd')", "XB"),
    ("fnn.Conv(2, (3, 3))", "XI"),
    ("fnn.Conv(2, (3, 3), strides=2, padding='VALID')", "XI"),
    ("fnn.Conv(2, (3, 3), padding='CIRCULAR')", "XI"),
    ("fnn.Conv(2, (3, 3), padding='REFLECT')", "XI"),
    ("fnn.Conv(2, (3, 3), padding='CAUSAL')", "XI"),
    ("fnn.Conv(2, (2,), padding='CAUSAL')", "XB"),
    ("fnn.Conv(2, (3, 3), padding=((1, 0), (2, 1)))", "XI"),
    ("fnn.Conv(2, (3, 3), padding=1)", "XI"),
    ("fnn.Conv(2, (3, 3), kernel_dilation=2, input_dilation=(1, 2))", "XI"),
    ("fnn.Conv(4, (3, 3), feature_group_count=2)", "jnp.tile(XI, (1, 1, 1, 2))"),
    ("fnn.Conv(3, (3, 3), feature_group_count=2)", "jnp.tile(XI, (1, 1, 1, 2))"),
    ("fnn.Conv(2, (3, 3), use_bias=False, dtype=jnp.float16)", "XI"),
    ("fnn.Conv(2, (3,), mask=jnp.array([1.0, 0.0, 1.0])[:, None, None])", "XB"),
    ("fnn.Conv(2, 3)", "XB"),
    ("fnn.Conv(2, (3, 3))", "XI[0]"),
    ("fnn.ConvLocal(2, (3, 3))", "XI"),
    ("fnn.ConvTranspose(2, (3, 3))", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), strides=(2, 2))", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), strides=(2, 1), padding='VALID')", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), padding='CIRCULAR')", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), strides=2, padding='CIRCULAR')", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), transpose_kernel=True)", "XI"),
    ("fnn.ConvTranspose(2, (3, 3), kernel_dilation=(2, 1), padding=((1, 2), (0, 0)))", "XI"),
    ("fnn.ConvTranspose(2, (3,), use_bias=False)", "XB"),
    ("fnn.Embed(5, 3)", "jnp.array([[0, 4], [2, 2]])"),
    ("fnn.Embed(5, 3, dtype=jnp.float16)", "jnp.array([0, 4])"),
    ("fnn.Embed(5, 3)", "jnp.array([0.0, 4.0])"),
    ("fnn.Embed(5, 3)", "jnp.array([-1, 7])"),
    ("fnn.LayerNorm()", "XB"),
    ("fnn.LayerNorm(epsilon=1e-2, use_bias=False, use_scale=False)", "XB"),
    ("fnn.LayerNorm(reduction_axes=(1, 2), feature_axes=-1)", "XB"),
    ("fnn.LayerNorm(reduction_axes=1, feature_axes=(1,))", "XB"),
    ("fnn.LayerNorm(dtype=jnp.float16)", "XB"),
    ("fnn.LayerNorm(use_fast_variance=False)", "XB + 1000.0"),
    ("fnn.LayerNorm()", "XB.astype(jnp.bfloat16)"),
    ("fnn.RMSNorm()", "XB"),
    ("fnn.RMSNorm(epsilon=0.5, use_scale=False)", "XB"),
    ("fnn.RMSNorm(reduction_axes=(1, 2))", "XB"),
    ("fnn.GroupNorm(num_groups=2)", "XB"),
    ("fnn.GroupNorm(num_groups=None, group_size=1)", "XB"),
    ("fnn.GroupNorm(num_groups=3)", "XB"),
    ("fnn.GroupNorm(num_groups=2, reduction_axes=(-2, -1))", "XB"),
    ("fnn.GroupNorm(num_groups=4)", "XI.reshape(2, 4, 1, 4)"),
    ("fnn.GroupNorm(num_groups=2, group_size=2)", "XB"),
    ("fnn.InstanceNorm()", "XB"),
    ("fnn.InstanceNorm(feature_axes=(1,))", "XB"),
    ("fnn.WeightNorm(fnn.Dense(3))", "XB"),
    ("fnn.LayerNorm(param_dtype=jnp.float16)", "XB"),
    ("fnn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4)", "XB"),
    ("fnn.MultiHeadDotProductAttention(num_heads=2)", "XB"),
    ("fnn.MultiHeadDotProductAttention(num_heads=3)", "XB"),
    ("fnn.MultiHeadDotProductAttention(num_heads=2, out_features=3, use_bias=False)", "XB"),
    ("fnn.MultiHeadDotProductAttention(num_heads=2, normalize_qk=True)", "XB"),
    (
        "fnn.MultiHeadDotProductAttention(num_heads=2, qkv_features=6, dropout_rate=0.5, deterministic=True)",
        "XB",
    ),
    (
        "fnn.MultiHeadDotProductAttention(num_heads=1, broadcast_dropout=False, dtype=jnp.float16)",
        "XB",
    ),
    ("fnn.SelfAttention(num_heads=2)", "XB"),
    ("fnn.Dropout(0.5, deterministic=True)", "XB"),
    ("fnn.Dropout(0.0, deterministic=False)", "XB"),
    ("fnn.Dropout(1.0, deterministic=False)", "XB"),
    ("fnn.BatchNorm(use_running_average=True)", "XB"),
    ("fnn.BatchNorm(use_running_average=True, axis=1, momentum=0.5)", "XB"),
    ("fnn.BatchNorm(use_running_average=True, use_bias=False, use_scale=False)", "XB"),
    ("fnn.BatchNorm(use_running_average=True, axis_name='batch')", "XB"),
]


def cases() -> list[str]:
    c = [f"init_apply({m}, {x})" for m, x in LAYERS]
    c += [
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2), XB, XB[:, :2])",
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2), XB, XB[:, :2], XB[:, :2] * 2)",
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2), XB, mask=fnn.make_causal_mask(XB[..., 0]))",
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2), XB, XB[:, :2], mask=jnp.ones((2, 1, 3, 3), bool))",
        "fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 0]]))",
        "fnn.make_causal_mask(jnp.ones((1, 3)))",
        "fnn.combine_masks(None, jnp.ones((1, 2), bool), jnp.array([[True, False]]))",
        "fnn.dot_product_attention(XB[:, :, None, :], XB[:, :, None, :], XB[:, :, None, :])",
        "fnn.dot_product_attention_weights(XB[:, :, None, :], XB[:, :, None, :], bias=jnp.ones((2, 1, 3, 3)))",
        """
m = fnn.BatchNorm(use_running_average=False, momentum=0.5)
v = m.init(K0, XB)
y, upd = m.apply(v, XB, mutable=['batch_stats'])
out = v, y, upd
""",
        """
m = fnn.BatchNorm(use_running_average=False, axis=1)
v = m.init(K0, XB)
y, upd = m.apply(v, XB * 2, mutable=['batch_stats'])
out = y, upd
""",
        """
m = fnn.BatchNorm(use_running_average=False)
v = m.init(K0, XB)
out = m.apply(v, XB)
""",
        """
m = fnn.BatchNorm(use_running_average=False, use_fast_variance=False)
v = m.init(K0, XB + 100)
out = m.apply(v, XB + 100, mutable=['batch_stats'])
""",
        """
m = fnn.BatchNorm()
out = m.init(K0, XB)
""",
        """
m = fnn.BatchNorm(use_running_average=False)
v = m.init(K0, XB)
out = m.apply(v, XB, mask=jnp.array([[True], [False], [True]]) & jnp.ones((2, 3, 4), bool), mutable=['batch_stats'])
""",
        """
m = fnn.Dropout(0.5)
out = m.apply({}, XB, deterministic=False, rngs={'dropout': K1})
""",
        """
m = fnn.Dropout(0.5, broadcast_dims=(1,))
out = m.apply({}, XB, deterministic=False, rngs={'dropout': K1})
""",
        """
m = fnn.Dropout(0.3, rng_collection='drop')
out = m.apply({}, XB, deterministic=False, rngs={'drop': random.key(2)})
""",
        """
m = fnn.Dropout(0.5)
out = m.apply({}, XB, deterministic=False)
""",
        """
m = fnn.Dropout(0.5)
out = m.apply({}, XB)
""",
        """
m = fnn.Dropout(0.5)
out = m.apply({}, jnp.arange(6), deterministic=False, rngs={'dropout': K1})
""",
        """
m = fnn.MultiHeadDotProductAttention(num_heads=2, dropout_rate=0.5)
v = m.init(K0, XB, deterministic=True)
out = m.apply(v, XB, deterministic=False, rngs={'dropout': K1})
""",
    ]
    for cell, extra in (
        ("LSTMCell", ""),
        ("GRUCell", ""),
        ("OptimizedLSTMCell", ""),
        ("SimpleCell", ""),
        ("MGUCell", ""),
        ("LSTMCell", ", gate_fn=fnn.tanh"),
        ("GRUCell", ", activation_fn=fnn.relu"),
        ("ConvLSTMCell", ", kernel_size=(3,)"),
    ):
        x = "XB" if cell == "ConvLSTMCell" else "XB[:, 0]"
        c += [
            f"""
cell = fnn.{cell}(features=3{extra})
carry = cell.initialize_carry(K1, {x}.shape)
v = cell.init(K0, carry, {x})
out = carry, v, cell.apply(v, carry, {x})
""",
        ]
        if cell != "ConvLSTMCell":
            c.append(
                f"""
rnn = fnn.RNN(fnn.{cell}(features=3{extra}))
v = rnn.init(K0, XB)
out = v, rnn.apply(v, XB), rnn.apply(v, XB, seq_lengths=jnp.array([1, 3]))
"""
            )
    c += [
        """
rnn = fnn.RNN(fnn.LSTMCell(3), return_carry=True, reverse=True, keep_order=True)
v = rnn.init(K0, XB)
out = rnn.apply(v, XB)
""",
        """
bi = fnn.Bidirectional(fnn.RNN(fnn.GRUCell(3)), fnn.RNN(fnn.GRUCell(3)))
v = bi.init(K0, XB)
out = bi.apply(v, XB)
""",
        "fnn.LSTMCell(3).initialize_carry(K1, (2, 4))",
        "fnn.LSTMCell(3, carry_init=fnn.initializers.ones).initialize_carry(K1, (2, 4))",
        "fnn.GRUCell(3).num_feature_axes",
        "fnn.ConvLSTMCell(3, (3,)).initialize_carry(K1, (2, 5, 4))",
        "init_apply(fnn.Sequential([fnn.Dense(3), fnn.relu, fnn.Dense(2)]), XB)",
        "init_apply(fnn.Sequential([]), XB)",
        "fnn.avg_pool(XI, (2, 2))",
        "fnn.avg_pool(XI, (2, 2), strides=(2, 2), padding='SAME')",
        "fnn.avg_pool(XI, (3, 3), padding='SAME', count_include_pad=False)",
        "fnn.max_pool(XI, (2, 2), strides=(1, 2))",
        "fnn.max_pool(XI, (3, 3), padding=((1, 1), (0, 2)))",
        "fnn.min_pool(XI, (2, 2))",
        "fnn.pool(XI, 0.0, lax.add, (2, 2), (1, 1), 'VALID')",
        "fnn.avg_pool(XI[0], (2, 2))",
        "fnn.avg_pool(XB, (2,))",
        "fnn.max_pool(XI, (2, 2), padding='CAUSAL')",
        "fnn.swish(XB)",
        "init_apply(fnn.PReLU(), XB)",
        "init_apply(fnn.PReLU(negative_slope_init=0.5, param_dtype=jnp.float16), XB)",
        "init_apply(fnn.Dense(3), XB)[0]['params']['kernel'].dtype",
        "init_apply(fnn.Embed(5, 3), jnp.array([1]))[0]['params']['embedding']",
        """
e = fnn.Embed(5, 3)
v = e.init(K0, jnp.array([1]))
out = e.apply(v, XB, method=e.attend)
""",
        "init_apply(fnn.Dense(3), XB, rngs={'params': K1})",
        "init_apply(fnn.Dense(3), jnp.float32(1.0))",
        "init_apply(fnn.Conv(2, (3, 3), padding='BOGUS'), XI)",
        "init_apply(fnn.Conv(2, (3, 3), strides=(1, 1, 1)), XI)",
        "init_apply(fnn.LayerNorm(), jnp.float32(1.0))",
        "init_apply(fnn.GroupNorm(num_groups=3, group_size=2), XB)",
        "init_apply(fnn.GroupNorm(num_groups=None, group_size=None), XB)",
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2), XB, XB[:, :, :3])",
        "init_apply(fnn.Dropout(1.5, deterministic=False), XB, rngs={'dropout': K1, 'params': K0})",
        "fnn.Dense(3).apply({}, XB)",
        "fnn.Dense(3).apply({'params': {'kernel': jnp.ones((5, 3)), 'bias': jnp.zeros(3)}}, XB)",
        "fnn.Dense(3).apply({'params': {'kernel': jnp.ones((4, 3))}}, XB)",
        "fnn.Dense(3).init(K0)",
        "jax.tree.map(jnp.shape, fnn.Dense(3).init(K0, XB))",
        "jax.tree.map(jnp.shape, fnn.Dense(3).lazy_init(K0, jax.ShapeDtypeStruct((2, 4), jnp.float32)))",
    ]
    return c
