"""Flax linen layers' options beyond `flax_layers`: recurrent cells and RNN/Bidirectional,
attention (masks, dropout, decode caches, the functional forms), the normalizations,
Dropout, Embed, the convolutions' paddings, Einsum, DenseGeneral, dtypes, Sequential and
tabulate.
"""

# ruff: noqa: E501

PRELUDE = """
XS = jnp.sin(jnp.arange(40.0)).reshape(2, 5, 4)
XQ = jnp.cos(jnp.arange(24.0)).reshape(2, 3, 4)
XK = jnp.sin(jnp.arange(40.0) * 0.3).reshape(2, 5, 4)
X2 = jnp.cos(jnp.arange(2 * 4 * 5 * 3) * 0.7).reshape(2, 4, 5, 3)
LENS = jnp.array([3, 5])
def cell_run(cell, x=None):
    x = XS[:, 0] if x is None else x
    carry = cell.initialize_carry(K1, x.shape)
    v = cell.init(K0, carry, x)
    return carry, v, cell.apply(v, carry, x)
def rnn_run(rnn, x=None, **kw):
    x = XS if x is None else x
    v = rnn.init(K0, x, **kw)
    return v, rnn.apply(v, x, **kw)
def decode_run(mod, x, **kw):
    v = mod.init(K0, x, **kw)
    cache, ys = v['cache'], []
    for t in range(x.shape[-2]):
        y, upd = mod.apply({'params': v['params'], 'cache': cache}, x[..., t:t + 1, :], mutable=['cache'], **kw)
        cache = upd['cache']
        ys.append(y)
    return v, ys, cache
def train_eval(mod, x, steps=2, **kw):
    v = mod.init(K0, x, **kw)
    ys = []
    for i in range(steps):
        y, upd = mod.apply(v, x * (i + 1), mutable=['batch_stats'], **kw)
        v = {**v, **upd}
        ys.append(y)
    return v, ys
def shapes(t):
    return jax.tree.map(lambda a: (tuple(a.shape), str(a.dtype)), t)
def tab(text):
    # a summary table's total line, header and module column (Flax draws it with rich)
    text = re.sub(r'\\x1b\\[[0-9;]*m', '', text)
    rows = [[c.strip() for c in re.split('[│┃|]', l)[1:-1]] for l in text.splitlines() if re.match(r'\\s*[│┃|]', l)]
    total = [' '.join(l.split()) for l in text.splitlines() if 'Total Parameters' in l]
    # Flax orders the collection columns as a set does (by string hash); rich cuts long names
    return total, sorted(rows[0]), [r[1][:12] for r in rows[1:] if len(r) > 1 and r[1]]
"""

CELLS = ["LSTMCell", "OptimizedLSTMCell", "GRUCell", "MGUCell", "SimpleCell"]


def cases() -> list[str]:
    c = []
    # recurrent cells: options, dtypes, carries
    for cell in CELLS:
        c += [
            f"cell_run(fnn.{cell}(1))",
            f"cell_run(fnn.{cell}(2), XS[0, 0])",
            f"cell_run(fnn.{cell}(2), XS.reshape(2, 5, 4)[:, :2])",
            f"cell_run(fnn.{cell}(3, param_dtype=jnp.float16))",
            f"cell_run(fnn.{cell}(3, dtype=jnp.float16))",
            f"cell_run(fnn.{cell}(3, param_dtype=jnp.bfloat16, dtype=jnp.float32))",
            f"cell_run(fnn.{cell}(3), XS[:, 0].astype(jnp.bfloat16))",
            f"cell_run(fnn.{cell}(3), XS[:, 0].astype(jnp.int32))",
            f"cell_run(fnn.{cell}(3, kernel_init=fnn.initializers.ones, recurrent_kernel_init=fnn.initializers.normal(0.5)))",
            f"cell_run(fnn.{cell}(3, carry_init=fnn.initializers.normal(1.0)))",
            f"cell_run(fnn.{cell}(3, activation_fn=fnn.relu))",
            f"fnn.{cell}(3).num_feature_axes",
            f"shapes(fnn.{cell}(3).initialize_carry(K1, (7,)))",
            f"shapes(fnn.{cell}(3, param_dtype=jnp.float16).initialize_carry(K1, (2, 4)))",
            f"shapes(jax.eval_shape(lambda: fnn.{cell}(3).init(K0, fnn.{cell}(3).initialize_carry(K1, (2, 4)), XS[:, 0])))",
            f"""
cell = fnn.{cell}(3)
carry = cell.initialize_carry(K1, (2, 4))
v = cell.init(K0, carry, XS[:, 0])
out = cell.apply(v, carry, XS[:, 0, :3])
""",
            f"""
cell = fnn.{cell}(3)
v = cell.init(K0, cell.initialize_carry(K1, (2, 4)), XS[:, 0])
out = cell.apply(v, cell.initialize_carry(K1, (2, 4)), XS[:, 0][None])
""",
            f"rnn_run(fnn.RNN(fnn.{cell}(2), return_carry=True))",
            f"rnn_run(fnn.RNN(fnn.{cell}(2), return_carry=True), seq_lengths=LENS)",
            f"rnn_run(fnn.RNN(fnn.{cell}(2), reverse=True), seq_lengths=LENS)",
            f"rnn_run(fnn.RNN(fnn.{cell}(2), reverse=True, keep_order=True, return_carry=True), seq_lengths=LENS)",
            f"rnn_run(fnn.RNN(fnn.{cell}(2), time_major=True, return_carry=True))",
        ]
        if cell in ("LSTMCell", "GRUCell", "MGUCell", "OptimizedLSTMCell"):
            c.append(f"cell_run(fnn.{cell}(3, gate_fn=fnn.tanh))")
    c += [
        "cell_run(fnn.LSTMCell(3, bias_init=fnn.initializers.ones))",
        "cell_run(fnn.OptimizedLSTMCell(3, bias_init=fnn.initializers.ones))",
        "cell_run(fnn.GRUCell(3, bias_init=fnn.initializers.constant(0.5)))",
        "cell_run(fnn.SimpleCell(3, bias_init=fnn.initializers.ones))",
        "cell_run(fnn.SimpleCell(4, residual=True))",
        "cell_run(fnn.SimpleCell(3, residual=True))",
        "cell_run(fnn.MGUCell(3, reset_gate=False))",
        "cell_run(fnn.MGUCell(3, forget_bias_init=fnn.initializers.zeros, activation_bias_init=fnn.initializers.ones))",
        "cell_run(fnn.GRUCell(3, activation_fn=fnn.sigmoid, gate_fn=fnn.relu))",
        "jax.tree.map(jnp.shape, fnn.LSTMCell(3).init(K0, ((jnp.zeros((2, 3)), jnp.zeros((2, 3)))), XS[:, 0]))",
        """
cell = fnn.LSTMCell(3)
v = cell.init(K0, cell.initialize_carry(K1, (2, 4)), XS[:, 0])
out = cell.apply(v, (jnp.ones((2, 3)), -jnp.ones((2, 3))), XS[:, 1])
""",
        """
cell = fnn.OptimizedLSTMCell(3)
v = fnn.LSTMCell(3).init(K0, cell.initialize_carry(K1, (2, 4)), XS[:, 0])
out = cell.apply(v, cell.initialize_carry(K1, (2, 4)), XS[:, 1])
""",
        """
cell = fnn.LSTMCell(3)
carry = cell.initialize_carry(K1, (2, 4))
v = cell.init(K0, carry, XS[:, 0])
out = jax.jit(lambda v, c, x: cell.apply(v, c, x))(v, carry, XS[:, 1])
""",
        """
cell = fnn.GRUCell(3)
carry = cell.initialize_carry(K1, (2, 4))
v = cell.init(K0, carry, XS[:, 0])
out = jax.grad(lambda v: cell.apply(v, carry, XS[:, 1])[1].sum())(v)
""",
        """
cell = fnn.LSTMCell(3)
carry = cell.initialize_carry(K1, (2, 4))
v = cell.init(K0, carry, XS[:, 0])
out = jax.grad(lambda x: cell.apply(v, carry, x)[0][0].sum())(XS[:, 1])
""",
        "fnn.LSTMCell(3).initialize_carry(K1, ())",
        "fnn.GRUCell(3).initialize_carry(K1, (2, 4), 3)",
        "fnn.LSTMCell(features=3, name='cell')",
        "fnn.GRUCell(3).features",
        "fnn.SimpleCell(3).residual",
    ]
    # ConvLSTMCell
    for extra, x in (
        ("(3,)", "XS"),
        ("(2,)", "XS"),
        ("(3,), use_bias=False", "XS"),
        ("(3,), padding='VALID'", "XS"),
        ("(3,), padding=((1, 1),)", "XS"),
        ("(3,), strides=(1,)", "XS"),
        ("(2, 2)", "X2"),
        ("(3, 3), param_dtype=jnp.float16", "X2"),
        ("(3, 3), dtype=jnp.float16", "X2"),
        ("(1, 1)", "X2"),
    ):
        c.append(
            f"""
cell = fnn.ConvLSTMCell(2, {extra})
carry = cell.initialize_carry(K1, {x}.shape)
v = cell.init(K0, carry, {x})
out = shapes(carry), v, cell.apply(v, carry, {x})
"""
        )
    c += [
        "fnn.ConvLSTMCell(3, (3,)).num_feature_axes",
        "fnn.ConvLSTMCell(3, (3, 3)).num_feature_axes",
        "shapes(fnn.ConvLSTMCell(3, (3, 3)).initialize_carry(K1, (2, 5, 6, 4)))",
        "shapes(fnn.ConvLSTMCell(3, (3,), strides=(2,)).initialize_carry(K1, (2, 5, 4)))",
        "rnn_run(fnn.RNN(fnn.ConvLSTMCell(2, (2,))), XS[:, :, :, None])",
        "rnn_run(fnn.RNN(fnn.ConvLSTMCell(2, (2,)), return_carry=True), XS[:, :, :, None], seq_lengths=LENS)",
        "rnn_run(fnn.RNN(fnn.ConvLSTMCell(2, (2,)), time_major=True), XS[:, :, :, None])",
    ]
    # RNN options
    r = "fnn.RNN(fnn.LSTMCell(2)"
    for opts in (
        "",
        ", return_carry=True",
        ", reverse=True",
        ", reverse=True, keep_order=True",
        ", reverse=True, return_carry=True",
        ", time_major=True",
        ", time_major=True, reverse=True",
        ", time_major=True, reverse=True, keep_order=True",
        ", unroll=2",
        ", unroll=5",
        ", unroll=7",
        ", unroll=2, reverse=True, return_carry=True",
        ", name='rnn'",
    ):
        c.append(f"rnn_run({r}{opts}))")
        c.append(f"rnn_run({r}{opts}), seq_lengths=LENS)")
    c += [
        f"rnn_run({r}), XS[0])",
        f"rnn_run({r}, return_carry=True), XS[0])",
        f"rnn_run({r}, reverse=True), XS[0], seq_lengths=jnp.array(3))",
        f"rnn_run({r}), XS.reshape(1, 2, 5, 4))",
        f"rnn_run({r}, return_carry=True), XS.reshape(1, 2, 5, 4), seq_lengths=jnp.array([[2, 4]]))",
        f"rnn_run({r}, time_major=True), XS.reshape(5, 1, 2, 4))",
        f"rnn_run({r}), XS[:, :1])",
        f"rnn_run({r}), XS[:, :0])",
        f"rnn_run({r}), XS, seq_lengths=jnp.array([0, 5]))",
        f"rnn_run({r}), XS, seq_lengths=jnp.array([5, 5]))",
        f"rnn_run({r}, return_carry=True), XS, seq_lengths=jnp.array([1, 1]))",
        f"rnn_run({r}), XS, return_carry=True)",
        f"rnn_run({r}, return_carry=True), XS, return_carry=False)",
        f"rnn_run({r}), XS, reverse=True, keep_order=True)",
        f"rnn_run({r}), XS, time_major=True)",
        f"rnn_run({r}), XS, init_key=K1)",
        "rnn_run(fnn.RNN(fnn.LSTMCell(2, carry_init=fnn.initializers.normal(1.0))), XS, init_key=K1)",
        "rnn_run(fnn.RNN(fnn.LSTMCell(2, carry_init=fnn.initializers.normal(1.0))), XS)",
        f"rnn_run({r}), XS, initial_carry=(jnp.ones((2, 2)), jnp.zeros((2, 2))))",
        f"rnn_run({r}, return_carry=True), XS, initial_carry=(jnp.ones((2, 2)), jnp.zeros((2, 2))), seq_lengths=LENS)",
        f"rnn_run({r}), XS.astype(jnp.float16))",
        "rnn_run(fnn.RNN(fnn.GRUCell(2, param_dtype=jnp.float16, dtype=jnp.float16)), XS)",
        f"rnn_run({r}), XS.astype(jnp.int32))",
        f"rnn_run({r}), XS, seq_lengths=jnp.array([3.0, 5.0]))",
        f"rnn_run({r}), XS, seq_lengths=jnp.array([3]))",
        f"rnn_run({r}), XS, initial_carry=(jnp.ones((2, 3)), jnp.zeros((2, 3))))",
        f"rnn_run({r}), XS, initial_carry=jnp.ones((2, 2)))",
        f"rnn_run({r}), XS[0, 0])",
        f"{r}).cell.features",
        f"{r}).variable_broadcast",
        f"{r}).split_rngs",
        f"{r}).unroll",
        "jax.tree.map(jnp.shape, fnn.RNN(fnn.LSTMCell(2)).init(K0, XS))",
        "jax.tree.map(jnp.shape, fnn.RNN(fnn.LSTMCell(2), name='enc').init(K0, XS))",
        "jax.tree.map(jnp.shape, fnn.RNN(fnn.LSTMCell(2, name='lstm')).init(K0, XS))",
        """
rnn = fnn.RNN(fnn.LSTMCell(2))
v = rnn.init(K0, XS)
out = jax.jit(lambda v, x, l: rnn.apply(v, x, seq_lengths=l, return_carry=True))(v, XS, LENS)
""",
        """
rnn = fnn.RNN(fnn.GRUCell(2))
v = rnn.init(K0, XS)
out = jax.grad(lambda v: rnn.apply(v, XS, seq_lengths=LENS).sum())(v)
""",
        """
rnn = fnn.RNN(fnn.SimpleCell(2), reverse=True, keep_order=True)
v = rnn.init(K0, XS)
out = jax.grad(lambda x: rnn.apply(v, x).sum())(XS)
""",
        """
class Enc(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.RNN(fnn.LSTMCell(3))(x)
        x = fnn.RNN(fnn.GRUCell(2), reverse=True, keep_order=True)(x)
        return fnn.Dense(1)(x[:, -1])
out = init_apply(Enc(), XS)
""",
        """
class Drop(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        x = fnn.Dropout(0.5, deterministic=False)(x)
        return c + x.sum(-1, keepdims=True), x
rnn = fnn.RNN(Drop(), split_rngs={'params': False, 'dropout': True})
out = rnn.apply({}, XS, initial_carry=jnp.zeros((2, 1)), rngs={'dropout': K1})
""",
        """
class Drop(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        x = fnn.Dropout(0.5, deterministic=False)(x)
        return c + x.sum(-1, keepdims=True), x
rnn = fnn.RNN(Drop())
out = rnn.apply({}, XS, initial_carry=jnp.zeros((2, 1)), rngs={'dropout': K1})
""",
    ]
    # Bidirectional
    b = "fnn.Bidirectional(fnn.RNN(fnn.LSTMCell(2)), fnn.RNN(fnn.GRUCell(3))"
    for opts, kw in (
        ("", ""),
        ("", ", seq_lengths=LENS"),
        (", return_carry=True", ""),
        (", return_carry=True", ", seq_lengths=LENS"),
        (", time_major=True", ""),
        (", time_major=True, return_carry=True", ""),
        (", merge_fn=lambda a, b: a[..., :2] + b[..., :2]", ""),
        (", merge_fn=lambda a, b: (a, b)", ""),
        ("", ", return_carry=True"),
        ("", ", init_key=K1"),
        ("", ", time_major=True"),
    ):
        c.append(f"rnn_run({b}{opts}), XS{kw})")
    c += [
        "rnn_run(fnn.Bidirectional(fnn.RNN(fnn.SimpleCell(2)), fnn.RNN(fnn.SimpleCell(2))), XS[0])",
        "rnn_run(fnn.Bidirectional(fnn.RNN(fnn.LSTMCell(2, carry_init=fnn.initializers.normal())), fnn.RNN(fnn.LSTMCell(2, carry_init=fnn.initializers.normal()))), XS, init_key=K1)",
        """
bi = fnn.Bidirectional(fnn.RNN(fnn.LSTMCell(2)), fnn.RNN(fnn.LSTMCell(2)))
v = bi.init(K0, XS)
c0 = ((jnp.ones((2, 2)), jnp.ones((2, 2))), (jnp.zeros((2, 2)), -jnp.ones((2, 2))))
out = bi.apply(v, XS, initial_carry=c0, return_carry=True)
""",
        "jax.tree.map(jnp.shape, fnn.Bidirectional(fnn.RNN(fnn.LSTMCell(2)), fnn.RNN(fnn.LSTMCell(2))).init(K0, XS))",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        f = fnn.RNN(fnn.GRUCell(2))
        return fnn.Bidirectional(f, fnn.RNN(fnn.GRUCell(2)))(x)
out = jax.tree.map(jnp.shape, M().init(K0, XS))
""",
    ]
    # flip_sequences / carry selection through public helpers
    c += [
        "fnn.recurrent.flip_sequences(XS, LENS, num_batch_dims=1, time_major=False)",
        "fnn.recurrent.flip_sequences(XS, None, num_batch_dims=1, time_major=False)",
        "fnn.recurrent.flip_sequences(XS.transpose(1, 0, 2), LENS, num_batch_dims=1, time_major=True)",
    ]

    # attention modules
    m = "fnn.MultiHeadDotProductAttention"
    for opts in (
        "num_heads=1",
        "num_heads=4",
        "num_heads=2, qkv_features=6",
        "num_heads=2, qkv_features=2, out_features=5",
        "num_heads=2, use_bias=False",
        "num_heads=2, dtype=jnp.float16",
        "num_heads=2, param_dtype=jnp.float16",
        "num_heads=2, param_dtype=jnp.bfloat16, dtype=jnp.float32",
        "num_heads=2, kernel_init=fnn.initializers.normal(0.3), bias_init=fnn.initializers.ones",
        "num_heads=2, out_kernel_init=fnn.initializers.ones, out_bias_init=fnn.initializers.constant(0.5)",
        "num_heads=2, normalize_qk=True, use_bias=False",
        "num_heads=2, normalize_qk=True, dtype=jnp.float16",
        "num_heads=2, precision='highest'",
        "num_heads=2, force_fp32_for_softmax=True, dtype=jnp.bfloat16",
        "num_heads=2, dropout_rate=0.5, deterministic=True",
        "num_heads=2, attention_fn=lambda q, k, v, **kw: v",
    ):
        c.append(f"init_apply({m}({opts}), XQ)")
        c.append(f"init_apply({m}({opts}), XQ, XK)")
    c += [
        f"init_apply({m}(num_heads=2), XQ, XK, XK * 2)",
        f"init_apply({m}(num_heads=2), XQ, inputs_v=XK)",
        f"init_apply({m}(num_heads=2), XQ, inputs_k=XK)",
        f"init_apply({m}(num_heads=2), XQ, inputs_kv=XK)",
        f"init_apply({m}(num_heads=2), XQ, XK, inputs_kv=XK)",
        f"init_apply({m}(num_heads=2), XQ, XK[:, :, :3])",
        f"init_apply({m}(num_heads=2), XQ, XK[:1])",
        f"init_apply({m}(num_heads=2), XQ[0], XK[0])",
        f"init_apply({m}(num_heads=2), XQ.reshape(1, 2, 3, 4))",
        f"init_apply({m}(num_heads=2), XQ.astype(jnp.float16))",
        f"init_apply({m}(num_heads=2), XQ.astype(jnp.bfloat16), XK)",
        f"init_apply({m}(num_heads=3), XQ)",
        f"init_apply({m}(num_heads=2, qkv_features=5), XQ)",
        f"init_apply({m}(num_heads=0), XQ)",
        f"init_apply({m}(num_heads=2), jnp.float32(1.0))",
        f"init_apply({m}(num_heads=2), XQ, mask=jnp.ones((2, 1, 3, 3), bool))",
        f"init_apply({m}(num_heads=2), XQ, mask=jnp.tril(jnp.ones((3, 3), bool)))",
        f"init_apply({m}(num_heads=2), XQ, mask=jnp.zeros((2, 2, 3, 3), bool))",
        f"init_apply({m}(num_heads=2), XQ, mask=fnn.make_causal_mask(XQ[..., 0]))",
        f"init_apply({m}(num_heads=2), XQ, XK, mask=fnn.make_attention_mask(jnp.ones((2, 3)), (jnp.arange(5) < 3)[None].repeat(2, 0)))",
        f"init_apply({m}(num_heads=2), XQ, XK, mask=jnp.ones((3, 5), bool))",
        f"init_apply({m}(num_heads=2), XQ, XK, mask=jnp.ones((2, 1, 3, 4), bool))",
        f"init_apply({m}(num_heads=2), XQ, mask=jnp.ones((2, 1, 3, 3)))",
        f"init_apply({m}(num_heads=2), XQ, sow_weights=True)",
        f"""
mha = {m}(num_heads=2)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ, sow_weights=True, mutable=['intermediates'])
""",
        f"""
mha = {m}(num_heads=2)
v = mha.init(K0, XQ, XK)
out = mha.apply(v, XQ, XK, mask=fnn.make_attention_mask(jnp.ones((2, 3)), jnp.ones((2, 5))), sow_weights=True, mutable=True)
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5)
v = mha.init(K0, XQ, deterministic=True)
out = mha.apply(v, XQ, deterministic=False, rngs={{'dropout': K1}})
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5, broadcast_dropout=False)
v = mha.init(K0, XQ, deterministic=True)
out = mha.apply(v, XQ, deterministic=False, rngs={{'dropout': K1}})
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5, deterministic=False)
v = mha.init({{'params': K0, 'dropout': K1}}, XQ)
out = mha.apply(v, XQ, rngs={{'dropout': K1}})
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5)
v = mha.init(K0, XQ, deterministic=True)
out = mha.apply(v, XQ, deterministic=False, dropout_rng=random.key(5))
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5)
v = mha.init(K0, XQ, deterministic=True)
out = mha.apply(v, XQ, deterministic=False)
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5)
v = mha.init(K0, XQ, deterministic=True)
out = mha.apply(v, XQ)
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.5, deterministic=True)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ, deterministic=False, rngs={{'dropout': K1}})
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.0)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ, deterministic=False)
""",
        f"""
mha = {m}(num_heads=2, dropout_rate=0.3)
v = mha.init(K0, XQ, deterministic=True)
out = jax.jit(lambda v, x, k: mha.apply(v, x, deterministic=False, rngs={{'dropout': k}}))(v, XQ, K1)
""",
        f"""
mha = {m}(num_heads=2)
v = mha.init(K0, XQ)
out = jax.grad(lambda v, x: mha.apply(v, x).sum(), argnums=(0, 1))(v, XQ)
""",
        # decode caches
        f"decode_run({m}(num_heads=2, decode=True), XQ)",
        f"decode_run({m}(num_heads=1, qkv_features=2, decode=True), XQ)",
        f"decode_run({m}(num_heads=2, decode=True, dtype=jnp.float16), XQ)",
        f"decode_run({m}(num_heads=2, decode=True, param_dtype=jnp.float16), XQ)",
        f"decode_run({m}(num_heads=2, decode=True), XQ[0])",
        f"decode_run({m}(num_heads=2, decode=True), XQ.reshape(1, 2, 3, 4))",
        f"decode_run({m}(num_heads=2, decode=True, normalize_qk=True), XQ)",
        "decode_run(fnn.SelfAttention(num_heads=2, decode=True), XQ)",
        "decode_run(fnn.SelfAttention(num_heads=2, decode=True), XQ, mask=fnn.make_causal_mask(XQ[..., 0]))",
        f"jax.tree.map(jnp.shape, {m}(num_heads=2, decode=True).init(K0, XQ))",
        f"jax.tree.map(lambda a: a.dtype, {m}(num_heads=2, decode=True, dtype=jnp.bfloat16).init(K0, XQ))",
        f"{m}(num_heads=2, decode=True).init(K0, XQ)['cache']",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ[:, :2], mutable=['cache'])
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ[:, :1])
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
out = mha.apply({{'params': v['params']}}, XQ[:, :1], mutable=['cache'])
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
out = mha.apply(v, XQ[:, :1], XK[:, :1], mutable=['cache'])
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
cache = v['cache']
for t in range(4):
    y, upd = mha.apply({{'params': v['params'], 'cache': cache}}, XQ[:, t % 3:t % 3 + 1], mutable=['cache'])
    cache = upd['cache']
out = y, cache
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
y, upd = mha.apply(v, XQ[:, :1], mutable=['cache'], mask=jnp.ones((2, 1, 1, 3), bool))
out = y, upd
""",
        f"""
mha = {m}(num_heads=2, decode=True)
v = mha.init(K0, XQ)
full = {m}(num_heads=2).apply({{'params': v['params']}}, XQ, mask=fnn.make_causal_mask(XQ[..., 0]))
out = full, decode_run(mha, XQ)[1]
""",
        # MultiHeadAttention and SelfAttention
        "init_apply(fnn.MultiHeadAttention(num_heads=2), XQ)",
        "init_apply(fnn.MultiHeadAttention(num_heads=2), XQ, XK)",
        "init_apply(fnn.MultiHeadAttention(num_heads=2, qkv_features=4, out_features=2), XQ, XK, XK)",
        "init_apply(fnn.MultiHeadAttention(num_heads=2), XQ, mask=fnn.make_causal_mask(XQ[..., 0]))",
        "fnn.MultiHeadAttention(num_heads=2).qkv_features",
        "issubclass(fnn.MultiHeadAttention, fnn.MultiHeadDotProductAttention)",
        "issubclass(fnn.SelfAttention, fnn.MultiHeadDotProductAttention)",
        "init_apply(fnn.SelfAttention(num_heads=1), XQ)",
        "init_apply(fnn.SelfAttention(num_heads=2, qkv_features=6, out_features=3), XQ)",
        "init_apply(fnn.SelfAttention(num_heads=2), XQ, mask=jnp.ones((2, 1, 3, 3), bool))",
        "init_apply(fnn.SelfAttention(num_heads=2, use_bias=False, normalize_qk=True), XQ)",
        "init_apply(fnn.SelfAttention(num_heads=2, dtype=jnp.float16), XQ)",
        "init_apply(fnn.SelfAttention(num_heads=2), XQ, XK)",
        """
sa = fnn.SelfAttention(num_heads=2, dropout_rate=0.5)
v = sa.init(K0, XQ, deterministic=True)
out = sa.apply(v, XQ, deterministic=False, rngs={'dropout': K1})
""",
        """
sa = fnn.SelfAttention(num_heads=2)
v = sa.init(K0, XQ)
out = sa.apply(v, XQ, sow_weights=True, mutable=['intermediates'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.SelfAttention(num_heads=2)(x) + x
        return fnn.LayerNorm()(x)
out = init_apply(M(), XQ)
""",
        """
class M(fnn.Module):
    def setup(self):
        self.attn = fnn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4)
    def __call__(self, x, y):
        return self.attn(x, y)
out = init_apply(M(), XQ, XK)
""",
    ]
    # masks
    c += [
        "fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 0]]), dtype=jnp.bool_)",
        "fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 0]]), dtype=jnp.int32)",
        "fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 0]]), pairwise_fn=jnp.greater_equal)",
        "fnn.make_attention_mask(jnp.array([[1, 2, 3]]), jnp.array([[1, 2]]), pairwise_fn=jnp.equal)",
        "fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 0]]), extra_batch_dims=2)",
        "fnn.make_attention_mask(jnp.array([1, 1, 0]), jnp.array([1, 0]))",
        "fnn.make_attention_mask(jnp.ones((2, 2, 3)), jnp.ones((2, 2, 4)))",
        "fnn.make_attention_mask(jnp.array([[True, False]]), jnp.array([[True, True]]))",
        "fnn.make_attention_mask(jnp.ones((2, 3)), jnp.ones((2, 4)), dtype=jnp.float16)",
        "fnn.make_causal_mask(jnp.ones((2, 4)))",
        "fnn.make_causal_mask(jnp.ones((4,)))",
        "fnn.make_causal_mask(jnp.ones((1, 3)), extra_batch_dims=1)",
        "fnn.make_causal_mask(jnp.ones((1, 3)), dtype=jnp.bool_)",
        "fnn.make_causal_mask(jnp.ones((2, 2, 3)))",
        "fnn.make_causal_mask(jnp.ones((1, 3), jnp.int32))",
        "fnn.combine_masks()",
        "fnn.combine_masks(None, None)",
        "fnn.combine_masks(jnp.ones((1, 2), bool))",
        "fnn.combine_masks(jnp.ones((1, 2), bool), jnp.array([[True, False]]), dtype=jnp.int32)",
        "fnn.combine_masks(jnp.ones((1, 2)), jnp.array([[1.0, 0.0]]))",
        "fnn.combine_masks(jnp.ones((1, 2), bool), jnp.ones((2,), bool))",
        "fnn.combine_masks(fnn.make_causal_mask(jnp.ones((1, 3))), fnn.make_attention_mask(jnp.array([[1, 1, 0]]), jnp.array([[1, 1, 0]])))",
    ]
    # functional attention
    Q = "XS[:, :, None, :]"
    Q2 = "XS.reshape(2, 5, 2, 2)"
    K = "XK.reshape(2, 5, 2, 2)[:, :4]"
    V = "(XK * 2).reshape(2, 5, 2, 2)[:, :4]"
    d = "fnn.dot_product_attention"
    w = "fnn.dot_product_attention_weights"
    c += [
        f"{d}({Q2}, {K}, {V})",
        f"{d}({Q2}, {K}, {V}, bias=jnp.linspace(-1, 1, 20).reshape(1, 1, 5, 4))",
        f"{d}({Q2}, {K}, {V}, mask=jnp.tril(jnp.ones((5, 4), bool)))",
        f"{d}({Q2}, {K}, {V}, mask=jnp.zeros((1, 1, 5, 4), bool))",
        f"{d}({Q2}, {K}, {V}, mask=jnp.tril(jnp.ones((5, 4), bool)), bias=jnp.ones((5, 4)))",
        f"{d}({Q2}, {K}, {V}, dropout_rng=K1, dropout_rate=0.5)",
        f"{d}({Q2}, {K}, {V}, dropout_rng=K1, dropout_rate=0.5, broadcast_dropout=False)",
        f"{d}({Q2}, {K}, {V}, dropout_rng=K1, dropout_rate=0.5, deterministic=True)",
        f"{d}({Q2}, {K}, {V}, dropout_rate=0.5)",
        f"{d}({Q2}, {K}, {V}, dropout_rng=K1, dropout_rate=1.0)",
        f"{d}({Q2}, {K}, {V}, dtype=jnp.float16)",
        f"{d}({Q2}.astype(jnp.float16), {K}, {V})",
        f"{d}({Q2}.astype(jnp.bfloat16), {K}.astype(jnp.bfloat16), {V}.astype(jnp.bfloat16))",
        f"{d}({Q2}.astype(jnp.bfloat16), {K}.astype(jnp.bfloat16), {V}.astype(jnp.bfloat16), force_fp32_for_softmax=True)",
        f"{d}({Q2}, {K}, {V}, precision='highest')",
        f"{d}({Q2}[0], {K}[0], {V}[0])",
        f"{d}({Q2}[None], {K}[None], {V}[None])",
        f"{d}({Q2}, {K}, {V}[:, :3])",
        f"{d}({Q2}, {K}[..., :1], {V})",
        f"{d}({Q2}, {K}[:1], {V}[:1])",
        f"{d}({Q2}[..., :1, :], {K}, {V})",
        f"{d}({Q}, {Q}, {Q}, mask=jnp.ones((2, 1, 5, 5)))",
        f"{d}(XS, XS, XS)",
        f"{w}({Q2}, {K})",
        f"{w}({Q2}, {K}, mask=jnp.tril(jnp.ones((5, 4), bool)))",
        f"{w}({Q2}, {K}, bias=jnp.ones((2, 1, 5, 4)), dtype=jnp.float16)",
        f"{w}({Q2}, {K}, dropout_rng=K1, dropout_rate=0.25)",
        f"{w}({Q2}, {K}, dropout_rng=K1, dropout_rate=0.25, broadcast_dropout=False)",
        f"{w}({Q2}, {K}[:, :, :1])",
        f"{w}({Q2}, {K}, force_fp32_for_softmax=True)",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, q, k):
        return {w}(q, k, module=self)
m = M()
out = m.apply({{}}, {Q2}, {K}, mutable=['intermediates'])
""",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V})",
        f"jnp.abs(jax.nn.dot_product_attention({Q2}, {K}, {V}) - {d}({Q2}, {K}, {V})).max() < 1e-6",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, mask=jnp.tril(jnp.ones((5, 4), bool)))",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, bias=jnp.linspace(-1, 1, 20).reshape(1, 1, 5, 4))",
        f"jax.nn.dot_product_attention({Q2}, {Q2}, {Q2}, is_causal=True)",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, scale=0.1)",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, key_value_seq_lengths=jnp.array([2, 4]))",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, query_seq_lengths=jnp.array([2, 5]))",
        f"jax.nn.dot_product_attention({Q2}, {Q2}, {Q2}, local_window_size=(1, 1))",
        f"jax.nn.dot_product_attention({Q2}, {K}[:, :, :1], {V}[:, :, :1])",
        f"jax.nn.dot_product_attention({Q2}.astype(jnp.float16), {K}.astype(jnp.float16), {V}.astype(jnp.float16))",
        f"jax.nn.dot_product_attention({Q2}[0], {K}[0], {V}[0])",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, implementation='xla')",
        f"jax.nn.dot_product_attention({Q2}, {K}, {V}, implementation='bogus')",
        "init_apply(fnn.MultiHeadDotProductAttention(num_heads=2, attention_fn=jax.nn.dot_product_attention), XQ)",
    ]

    # normalization: BatchNorm
    bn = "fnn.BatchNorm"
    for opts in (
        "use_running_average=False",
        "use_running_average=False, momentum=0.0",
        "use_running_average=False, momentum=0.9, epsilon=1e-2",
        "use_running_average=False, axis=0",
        "use_running_average=False, axis=(1, 2)",
        "use_running_average=False, axis=-2",
        "use_running_average=False, use_fast_variance=False",
        "use_running_average=False, dtype=jnp.float16",
        "use_running_average=False, param_dtype=jnp.float16",
        "use_running_average=False, use_bias=False",
        "use_running_average=False, use_scale=False",
        "use_running_average=False, scale_init=fnn.initializers.constant(2.0), bias_init=fnn.initializers.ones",
    ):
        c.append(f"train_eval({bn}({opts}), XS)")
    c += [
        f"train_eval({bn}(use_running_average=False), XS.astype(jnp.float16))",
        f"train_eval({bn}(use_running_average=False), XS.astype(jnp.bfloat16))",
        f"train_eval({bn}(use_running_average=False), XS[0, 0])",
        f"train_eval({bn}(use_running_average=False), X2)",
        f"train_eval({bn}(), XS, use_running_average=False)",
        f"init_apply({bn}(), XS, use_running_average=True)",
        f"init_apply({bn}(use_running_average=False), XS, use_running_average=True)",
        f"init_apply({bn}(use_running_average=True, momentum=0.5), XS + 3)",
        f"init_apply({bn}(use_running_average=True, axis=(0, 2)), XS)",
        f"init_apply({bn}(use_running_average=True), XS.astype(jnp.int32))",
        f"{bn}(use_running_average=False).init(K0, XS)",
        f"jax.tree.map(jnp.shape, {bn}(use_running_average=True, axis=1).init(K0, XS))",
        f"""
m = {bn}(use_running_average=False)
v = m.init(K0, XS)
out = m.apply(v, XS, mutable=['batch_stats'], mask=XS > 0)
""",
        f"""
m = {bn}(use_running_average=False, use_fast_variance=False)
v = m.init(K0, XS)
out = m.apply(v, XS * 3 + 100, mutable=['batch_stats'], mask=XS > -0.5)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='b')
v = m.init(K0, XS)
out = jax.vmap(lambda x: m.apply(v, x, mutable=['batch_stats']), axis_name='b')(XS)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='b')
v = m.init(K0, XS[0])
out = jax.vmap(lambda x: m.apply(v, x, mutable=['batch_stats']), axis_name='b')(XS)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='b', use_fast_variance=False)
v = m.init(K0, XS[0])
out = jax.vmap(lambda x: m.apply(v, x, mutable=['batch_stats']), axis_name='b')(XS)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='b', axis_index_groups=[[0, 1], [2, 3]])
x = jnp.concatenate([XS, XS * 2])
v = m.init(K0, x[0])
out = jax.vmap(lambda x: m.apply(v, x, mutable=['batch_stats']), axis_name='b')(x)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='b')
v = jax.vmap(lambda x: m.init(K0, x), axis_name='b')(XS)
out = jax.tree.map(jnp.shape, v)
""",
        f"""
m = {bn}(use_running_average=False, axis_name='missing')
v = m.init(K0, XS[0])
out = m.apply(v, XS[0], mutable=['batch_stats'])
""",
        f"""
m = {bn}(use_running_average=False)
v = m.init(K0, XS)
out = jax.jit(lambda v, x: m.apply(v, x, mutable=['batch_stats']))(v, XS)
""",
        f"""
m = {bn}(use_running_average=False)
v = m.init(K0, XS)
out = jax.grad(lambda p: m.apply({{**v, 'params': p}}, XS, mutable=['batch_stats'])[0].sum())(v['params'])
""",
        f"""
m = {bn}(use_running_average=False)
v = m.init(K0, XS)
out = jax.grad(lambda x: (m.apply(v, x, mutable=['batch_stats'])[0] ** 2).sum())(XS)
""",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, train):
        x = fnn.Dense(3)(x)
        x = {bn}(use_running_average=not train)(x)
        return fnn.relu(x)
m = M()
v = m.init(K0, XS, train=False)
y, upd = m.apply(v, XS, train=True, mutable=['batch_stats'])
out = v, y, upd, m.apply({{**v, **upd}}, XS, train=False)
""",
    ]
    # LayerNorm / RMSNorm / GroupNorm / InstanceNorm
    for mod in ("LayerNorm", "RMSNorm"):
        for opts in (
            "",
            "epsilon=0.1",
            "dtype=jnp.float16",
            "param_dtype=jnp.bfloat16",
            "use_scale=False",
            "scale_init=fnn.initializers.constant(3.0)",
            "reduction_axes=(-2, -1)",
            "reduction_axes=1, feature_axes=1",
            "reduction_axes=(1, 2), feature_axes=(1, 2)",
            "reduction_axes=0, feature_axes=0",
            "use_fast_variance=False",
        ):
            c.append(f"init_apply(fnn.{mod}({opts}), XS)")
        c += [
            f"init_apply(fnn.{mod}(), XS[0, 0])",
            f"init_apply(fnn.{mod}(), XS.astype(jnp.float16))",
            f"init_apply(fnn.{mod}(), XS.astype(jnp.int32))",
            f"init_apply(fnn.{mod}(), XS[..., :1])",
            f"init_apply(fnn.{mod}(), XS, mask=XS > 0)",
            f"init_apply(fnn.{mod}(reduction_axes=3), XS)",
            f"""
m = fnn.{mod}(axis_name='b')
v = m.init(K0, XS[0])
out = jax.vmap(lambda x: m.apply(v, x), axis_name='b')(XS)
""",
            f"""
m = fnn.{mod}()
v = m.init(K0, XS)
out = jax.grad(lambda x: (m.apply(v, x) * XQ[..., :1].sum()).sum() + m.apply(v, x)[..., 0].sum())(XS)
""",
        ]
    c += [
        "init_apply(fnn.LayerNorm(use_bias=False), XS)",
        "init_apply(fnn.LayerNorm(bias_init=fnn.initializers.ones), XS)",
        "init_apply(fnn.LayerNorm(), XS * 1e4 + 1e6)",
        "init_apply(fnn.LayerNorm(use_fast_variance=False), XS * 1e4 + 1e6)",
        "init_apply(fnn.LayerNorm(), jnp.ones((2, 3)))",
        "init_apply(fnn.RMSNorm(), jnp.zeros((2, 3)))",
    ]
    g = "fnn.GroupNorm"
    for opts, x in (
        ("num_groups=1", "XS"),
        ("num_groups=4", "XS"),
        ("num_groups=None, group_size=2", "XS"),
        ("num_groups=None, group_size=4", "XS"),
        ("num_groups=2, use_bias=False, use_scale=False", "XS"),
        ("num_groups=2, epsilon=0.5", "XS"),
        ("num_groups=2, dtype=jnp.float16", "XS"),
        ("num_groups=2, param_dtype=jnp.float16", "XS"),
        ("num_groups=2, use_fast_variance=False", "XS * 100 + 1000"),
        ("num_groups=2, reduction_axes=(-2, -1)", "XS"),
        ("num_groups=2, reduction_axes=(1, 2)", "XS"),
        ("num_groups=2, reduction_axes=-1", "XS"),
        ("num_groups=3", "X2"),
        ("num_groups=1", "X2"),
        ("num_groups=2", "XS[0, 0]"),
        ("num_groups=2", "XS[0]"),
        ("num_groups=2", "XS.astype(jnp.bfloat16)"),
        ("num_groups=5", "XS"),
        ("num_groups=0", "XS"),
        ("num_groups=None, group_size=3", "XS"),
        ("num_groups=2, group_size=3", "XS"),
        ("num_groups=-2", "XS"),
        (
            "num_groups=2, scale_init=fnn.initializers.constant(2.0), bias_init=fnn.initializers.ones",
            "XS",
        ),
    ):
        c.append(f"init_apply({g}({opts}), {x})")
    c += [
        f"init_apply({g}(num_groups=2), XS, mask=XS > 0)",
        f"""
m = {g}(num_groups=2, axis_name='b')
v = m.init(K0, XS[0])
out = jax.vmap(lambda x: m.apply(v, x), axis_name='b')(XS)
""",
    ]
    for opts, x in (
        ("", "X2"),
        ("use_bias=False", "XS"),
        ("use_scale=False, epsilon=0.1", "XS"),
        ("feature_axes=(-2, -1)", "X2"),
        ("feature_axes=1", "X2"),
        ("feature_axes=()", "XS"),
        ("dtype=jnp.float16", "XS"),
        ("param_dtype=jnp.float16", "XS"),
        ("use_fast_variance=False", "XS * 100 + 1000"),
        ("", "XS[0]"),
        ("", "XS[0, 0]"),
    ):
        c.append(f"init_apply(fnn.InstanceNorm({opts}), {x})")
    c += [
        "init_apply(fnn.InstanceNorm(), XS, mask=XS > 0)",
        """
m = fnn.InstanceNorm(axis_name='b')
v = m.init(K0, XS[0])
out = jax.vmap(lambda x: m.apply(v, x), axis_name='b')(XS)
""",
    ]
    # SpectralNorm / WeightNorm
    sn = "fnn.SpectralNorm"
    for layer, opts, x in (
        ("fnn.Dense(3)", "", "XS"),
        ("fnn.Dense(3)", "n_steps=3", "XS"),
        ("fnn.Dense(3)", "n_steps=0", "XS"),
        ("fnn.Dense(3, use_bias=False)", "epsilon=1e-3", "XS"),
        ("fnn.Dense(3)", "dtype=jnp.float16", "XS"),
        ("fnn.Dense(3)", "param_dtype=jnp.float16", "XS"),
        ("fnn.Dense(3)", "collection_name='spec'", "XS"),
        ("fnn.Conv(3, (3,))", "", "XS"),
        ("fnn.Conv(3, (3,))", "error_on_non_matrix=True", "XS"),
        ("fnn.Conv(2, (2, 2))", "", "X2"),
        ("fnn.DenseGeneral((2, 3))", "", "XS"),
        ("fnn.Einsum((4, 3), 'abc,cd->abd')", "", "XS"),
        ("fnn.Embed(5, 3)", "", "jnp.array([[1, 4]])"),
    ):
        c.append(
            f"""
m = {sn}({layer}{", " if opts else ""}{opts})
coll = {opts!r}.split("'")[1] if 'collection' in {opts!r} else 'batch_stats'
v = m.init(K0, {x}, update_stats=True)
y, upd = m.apply(v, {x}, update_stats=True, mutable=[coll])
out = v, y, upd, m.apply({{**v, **upd}}, {x}, update_stats=False)
"""
        )
    c += [
        f"init_apply({sn}(fnn.Dense(3)), XS, update_stats=False)",
        f"{sn}(fnn.Dense(3)).init(K0, XS)",
        f"""
m = {sn}(fnn.Dense(3))
v = m.init(K0, XS, update_stats=True)
out = m.apply(v, XS, update_stats=True)
""",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, train):
        x = {sn}(fnn.Dense(4))(x, update_stats=train)
        return {sn}(fnn.Dense(2), layer_name='out')(x, update_stats=train)
m = M()
v = m.init(K0, XS, train=True)
out = v, m.apply(v, XS, train=True, mutable=['batch_stats'])
""",
    ]
    wn = "fnn.WeightNorm"
    for layer, opts, x in (
        ("fnn.Dense(3)", "use_scale=False", "XS"),
        ("fnn.Dense(3)", "scale_init=fnn.initializers.constant(2.0)", "XS"),
        ("fnn.Dense(3)", "feature_axes=None", "XS"),
        ("fnn.Dense(3)", "feature_axes=0", "XS"),
        ("fnn.Dense(3)", "dtype=jnp.float16", "XS"),
        ("fnn.Dense(3)", "param_dtype=jnp.float16", "XS"),
        ("fnn.Dense(3)", "epsilon=0.5", "XS"),
        ("fnn.Dense(3)", "variable_filter={'kernel', 'bias'}", "XS"),
        ("fnn.Dense(3)", "variable_filter={'bias'}", "XS"),
        ("fnn.Dense(3)", "variable_filter=None", "XS"),
        ("fnn.Conv(3, (3,))", "", "XS"),
        ("fnn.Conv(2, (2, 2))", "", "X2"),
        ("fnn.DenseGeneral((2, 3))", "", "XS"),
        ("fnn.DenseGeneral(3, axis=(-2, -1))", "feature_axes=-1", "XS"),
        ("fnn.Embed(5, 3)", "", "jnp.array([[1, 4]])"),
        ("fnn.LayerNorm()", "", "XS"),
        ("fnn.Sequential([fnn.Dense(3), fnn.Dense(2)])", "", "XS"),
    ):
        c.append(f"init_apply({wn}({layer}{', ' if opts else ''}{opts}), {x})")
    # Dropout
    dr = "fnn.Dropout"
    for opts, x in (
        ("0.5, broadcast_dims=(0,)", "XS"),
        ("0.5, broadcast_dims=(0, 1)", "XS"),
        ("0.5, broadcast_dims=(-1,)", "XS"),
        ("0.5, broadcast_dims=(0, 1, 2)", "XS"),
        ("0.25", "XS"),
        ("0.9", "XS"),
        ("0.5", "XS.astype(jnp.float16)"),
        ("0.5", "XS.astype(jnp.bfloat16)"),
        ("0.5", "jnp.float32(2.0)"),
        ("0.5", "jnp.ones((0, 3))"),
        ("jnp.float32(0.5)", "XS"),
        ("0", "XS"),
        ("1", "XS"),
        ("-0.5", "XS"),
    ):
        c.append(f"{dr}({opts}).apply({{}}, {x}, deterministic=False, rngs={{'dropout': K1}})")
    c += [
        f"{dr}(0.5, rng_collection='noise').apply({{}}, XS, deterministic=False, rngs={{'noise': K1}})",
        f"{dr}(0.5, rng_collection='noise').apply({{}}, XS, deterministic=False, rngs={{'dropout': K1}})",
        f"{dr}(0.5).apply({{}}, XS, deterministic=False, rngs={{'dropout': K1, 'other': K0}})",
        f"{dr}(0.5).apply({{}}, XS, deterministic=False, rngs=K1)",
        f"{dr}(0.5).apply({{}}, XS, deterministic=False, rngs={{'params': K1}})",
        f"{dr}(0.5, deterministic=False).apply({{}}, XS, deterministic=True)",
        f"{dr}(0.5, deterministic=True).apply({{}}, XS, deterministic=False, rngs={{'dropout': K1}})",
        f"{dr}(0.5).apply({{}}, XS, rngs={{'dropout': K1}})",
        f"{dr}(0.5).apply({{}}, XS, False, rngs={{'dropout': K1}})",
        f"{dr}(0.5).apply({{}}, XS, deterministic=False, rng=K0)",
        f"{dr}(0.5).apply({{}}, XS, deterministic=False, rng=K0, rngs={{'dropout': K1}})",
        f"{dr}(0.5).init(K0, XS, deterministic=False)",
        f"{dr}(0.5).init({{'params': K0, 'dropout': K1}}, XS, deterministic=False)",
        f"jax.jit(lambda x, k: {dr}(0.5).apply({{}}, x, deterministic=False, rngs={{'dropout': k}}))(XS, K1)",
        f"jax.grad(lambda x: {dr}(0.5).apply({{}}, x, deterministic=False, rngs={{'dropout': K1}}).sum())(XS)",
        f"{dr}(0.5, broadcast_dims=(3,)).apply({{}}, XS, deterministic=False, rngs={{'dropout': K1}})",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return {dr}(0.5, deterministic=False)(x) + {dr}(0.5, deterministic=False)(x)
out = M().apply({{}}, XS, rngs={{'dropout': K1}})
""",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = {dr}(0.5, deterministic=False)
        return d(x) - d(x)
out = M().apply({{}}, XS, rngs={{'dropout': K1}})
""",
    ]
    # Embed
    em = "fnn.Embed"
    for opts, x in (
        ("5, 3", "jnp.arange(5)"),
        ("5, 3", "jnp.array([[[0, 1], [2, 3]]])"),
        ("5, 3", "jnp.array(2)"),
        ("5, 3", "jnp.array([0, 4], jnp.uint8)"),
        ("5, 3", "jnp.array([0, 4], jnp.int8)"),
        ("5, 3", "jnp.array([True, False])"),
        ("5, 3", "jnp.array([5, -6])"),
        ("5, 3, param_dtype=jnp.float16", "jnp.array([0, 4])"),
        ("5, 3, param_dtype=jnp.bfloat16, dtype=jnp.float32", "jnp.array([0, 4])"),
        ("5, 3, embedding_init=fnn.initializers.normal(1.0)", "jnp.array([0, 4])"),
        ("5, 3, embedding_init=fnn.initializers.uniform()", "jnp.array([0, 4])"),
        ("1, 1", "jnp.array([0, 0])"),
        ("num_embeddings=4, features=2", "jnp.array([3])"),
    ):
        c.append(f"init_apply({em}({opts}), {x})")
    for opts, q in (
        ("5, 3", "XQ[..., :3]"),
        ("5, 3, dtype=jnp.float16", "XQ[..., :3]"),
        ("5, 3, param_dtype=jnp.float16", "XQ[..., :3]"),
        ("5, 3", "XQ[..., :3].astype(jnp.bfloat16)"),
        ("5, 3", "XQ[..., :2]"),
        ("5, 3", "jnp.ones(3, jnp.int32)"),
    ):
        c.append(
            f"""
e = {em}({opts})
v = e.init(K0, jnp.array([1]))
out = e.apply(v, {q}, method=e.attend)
"""
        )
    c += [
        f"""
e = {em}(5, 3)
v = e.init(K0, jnp.array([1]), method=e.attend)
out = v
""",
        f"""
e = {em}(5, 3)
v = e.init(K0, jnp.ones((2, 3)), method='attend')
out = e.apply(v, jnp.ones((2, 3)), method='attend')
""",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, ids):
        e = {em}(6, 4)
        return e.attend(e(ids))
out = init_apply(M(), jnp.array([[0, 5, 2]]))
""",
        f"""
e = {em}(5, 3)
v = e.init(K0, jnp.array([1]))
out = jax.grad(lambda v: e.apply(v, jnp.array([1, 1, 3])).sum())(v)
""",
    ]
    # Conv paddings, ConvTranspose, ConvLocal
    for pad in (
        "'SAME'",
        "'VALID'",
        "'CIRCULAR'",
        "'REFLECT'",
        "'CAUSAL'",
        "0",
        "2",
        "(1, 2)",
        "[(2, 0)]",
        "'same'",
        "'valid'",
    ):
        for opts in ("", ", strides=2", ", kernel_dilation=2"):
            c.append(f"init_apply(fnn.Conv(2, (3,){opts}, padding={pad}), XS)")
    for pad in ("'SAME'", "'VALID'", "'CIRCULAR'", "'REFLECT'", "1", "((1, 0), (0, 2))", "(1, 2)"):
        c.append(f"init_apply(fnn.Conv(2, (2, 3), padding={pad}), X2)")
        c.append(f"init_apply(fnn.Conv(2, (3, 2), strides=(2, 1), padding={pad}), X2)")
    c += [
        "init_apply(fnn.Conv(2, (3, 3), padding='CAUSAL'), X2)",
        "init_apply(fnn.Conv(2, (5,), padding='REFLECT'), XS)",
        "init_apply(fnn.Conv(2, (6,), padding='CIRCULAR'), XS)",
        "init_apply(fnn.Conv(2, (3,), padding='CIRCULAR', input_dilation=2), XS)",
        "init_apply(fnn.Conv(2, (3,), padding='BOGUS'), XS)",
        "init_apply(fnn.Conv(2, (3,), padding=((1, 1), (1, 1))), XS)",
        "init_apply(fnn.Conv(2, (3,), padding=(1, 2, 3)), XS)",
        "init_apply(fnn.Conv(2, (3,)), XS.reshape(1, 2, 5, 4))",
        "init_apply(fnn.Conv(2, (3,)), XS[0, 0])",
        "init_apply(fnn.Conv(2, (3,), param_dtype=jnp.float16), XS)",
        "init_apply(fnn.Conv(2, (3,), dtype=jnp.bfloat16), XS)",
        "init_apply(fnn.Conv(2, (3,)), XS.astype(jnp.float16))",
        "init_apply(fnn.Conv(2, (3,)), XS.astype(jnp.int32))",
        "init_apply(fnn.Conv(4, (3,), feature_group_count=4), XS)",
        "init_apply(fnn.Conv(4, (3,), feature_group_count=3), XS)",
        "init_apply(fnn.Conv(2, (3,), kernel_init=fnn.initializers.ones, bias_init=fnn.initializers.ones), XS)",
        "init_apply(fnn.Conv(2, (3,), strides=(2, 2)), XS)",
        "init_apply(fnn.Conv(2, [3]), XS)",
        "init_apply(fnn.Conv(2, kernel_size=(3,), input_dilation=2, padding='VALID'), XS)",
    ]
    ct = "fnn.ConvTranspose"
    for opts in (
        "padding='VALID'",
        "padding='CIRCULAR'",
        "padding=1",
        "padding=((2, 1),)",
        "strides=(2,), padding='VALID'",
        "strides=(3,), padding='CIRCULAR'",
        "strides=(2,), transpose_kernel=True",
        "strides=(2,), transpose_kernel=True, padding='VALID'",
        "transpose_kernel=True, padding='CIRCULAR'",
        "kernel_dilation=(2,), transpose_kernel=True",
        "use_bias=False, param_dtype=jnp.float16",
        "dtype=jnp.float16",
        "kernel_init=fnn.initializers.ones",
    ):
        c.append(f"init_apply({ct}(2, (3,), {opts}), XS)")
    c += [
        f"init_apply({ct}(2, (2, 3), strides=(2, 1)), X2)",
        f"init_apply({ct}(2, (2, 3), strides=(2, 2), transpose_kernel=True, padding='CIRCULAR'), X2)",
        f"init_apply({ct}(2, (3,)), XS[0])",
        f"init_apply({ct}(2, (3,)), XS.reshape(1, 2, 5, 4))",
        f"init_apply({ct}(2, 3), XS)",
        f"init_apply({ct}(2, (3,), padding='REFLECT'), XS)",
        f"init_apply({ct}(2, (3,), padding='CAUSAL'), XS)",
        f"init_apply({ct}(2, (3,), mask=jnp.array([1.0, 0.0, 1.0])[:, None, None]), XS)",
    ]
    for opts in (
        "",
        "padding='VALID'",
        "strides=2",
        "use_bias=False",
        "kernel_dilation=2",
        "padding='CIRCULAR'",
        "padding=1",
    ):
        c.append(f"init_apply(fnn.ConvLocal(2, (3,){', ' if opts else ''}{opts}), XS)")
    c += [
        "init_apply(fnn.ConvLocal(2, (2, 2)), X2)",
        "init_apply(fnn.ConvLocal(2, (3,)), XS[0])",
        "init_apply(fnn.ConvLocal(2, (3,), feature_group_count=2), XS)",
    ]
    # Einsum / DenseGeneral
    for opts, x in (
        ("(4, 3), 'abc,cd->abd'", "XS"),
        ("(4, 3), 'abc,cd->abd', use_bias=False", "XS"),
        ("(4, 2, 3), 'abc,cde->abde'", "XS"),
        ("(5, 4, 3), 'abc,bcd->ad'", "XS"),
        ("(2, 5), '...c,ce->...e'", "XS"),
        ("(4, 3), 'abc,cd->abd', dtype=jnp.float16", "XS"),
        ("(4, 3), 'abc,cd->abd', param_dtype=jnp.float16", "XS"),
        ("(4, 3), 'abc,cd->abd', bias_init=fnn.initializers.ones", "XS"),
        ("(4, 3), 'abc,cd->abd', preferred_element_type=jnp.float32", "XS.astype(jnp.bfloat16)"),
        ("(4, 3), 'abc,cd->abd'", "XS.astype(jnp.int32)"),
        ("(4, 3)", "XS"),
        ("(4, 3), 'abc,cd'", "XS"),
        ("(4, 3), 'abc,cd,de->abe'", "XS"),
        ("(4, 3), 'abc->abd'", "XS"),
        ("(5, 3), 'abc,cd->abd'", "XS"),
        ("(4, 3), 'abc , cd -> abd'", "XS"),
        ("(4, 3), 'abc,cd->dab'", "XS"),
    ):
        c.append(f"init_apply(fnn.Einsum({opts}), {x})")
    c.append("init_apply(fnn.Einsum((4, 3)), XS, einsum_str='abc,cd->abd')")
    c.append("init_apply(fnn.Einsum((4, 3), 'abc,cd->abd'), XS, einsum_str='abc,cd->abd')")
    dg = "fnn.DenseGeneral"
    for opts, x in (
        ("3", "XS"),
        ("(3,)", "XS"),
        ("(2, 2), axis=(1, 2)", "XS"),
        ("3, axis=0", "XS"),
        ("3, axis=(0, 2)", "XS"),
        ("3, axis=-2", "XS"),
        ("3, axis=(2, 1)", "XS"),
        ("3, batch_dims=(0,)", "XS"),
        ("(2, 3), axis=-1, batch_dims=(0, 1)", "XS"),
        ("3, axis=1, batch_dims=(0,)", "XS"),
        ("3, axis=(1, 2), batch_dims=0", "XS"),
        ("3, axis=2, batch_dims=(1,)", "XS"),
        ("3, axis=(1,), batch_dims=(0,), kernel_init=fnn.initializers.normal(1.0)", "XS"),
        ("3, batch_dims=(0,), use_bias=False", "XS"),
        ("3, dtype=jnp.float16", "XS"),
        ("3, param_dtype=jnp.bfloat16", "XS"),
        ("3, precision='highest'", "XS"),
        ("3", "XS.astype(jnp.float16)"),
        ("3", "XS.astype(jnp.int32)"),
        ("()", "XS"),
        ("3, axis=(0, 0)", "XS"),
        ("3, axis=0, batch_dims=(0,)", "XS"),
        ("3, axis=-1, batch_dims=(1,)", "XS"),
        ("3, axis=(0, 1, 2)", "XS"),
        ("3", "XS[0, 0]"),
        ("3", "jnp.float32(2.0)"),
    ):
        c.append(f"init_apply({dg}({opts}), {x})")
    c += [
        f"jax.tree.map(jnp.shape, {dg}((2, 3), axis=(0, 2), batch_dims=(1,)).init(K0, XS))",
        f"""
m = {dg}(3, batch_dims=(0,))
v = m.init(K0, XS)
out = jax.grad(lambda v: m.apply(v, XS).sum())(v)
""",
    ]
    # dtype promotion of Dense-like layers
    for pd in ("jnp.float16", "jnp.bfloat16", "jnp.float32"):
        for dt in ("None", "jnp.float16", "jnp.bfloat16", "jnp.float32"):
            for x in ("XS", "XS.astype(jnp.float16)", "XS.astype(jnp.bfloat16)"):
                c.append(
                    f"jax.tree.map(lambda a: a.dtype, init_apply(fnn.Dense(2, param_dtype={pd}, dtype={dt}), {x}))"
                )
    c += [
        "init_apply(fnn.Dense(2, dtype=jnp.int32), XS)",
        "init_apply(fnn.Dense(2, param_dtype=jnp.int32), XS)",
        "init_apply(fnn.Dense(2), XS.astype(jnp.complex64))",
        "init_apply(fnn.Dense(2, param_dtype=jnp.complex64), XS)",
        "init_apply(fnn.Dense(2), XS > 0)",
        "init_apply(fnn.Dense(2), XS.astype(jnp.uint8))",
        "init_apply(fnn.Conv(2, (3,), param_dtype=jnp.bfloat16), XS.astype(jnp.float16))",
        "init_apply(fnn.LayerNorm(param_dtype=jnp.float16), XS.astype(jnp.bfloat16))",
        "init_apply(fnn.Embed(5, 2, param_dtype=jnp.float16, dtype=jnp.bfloat16), jnp.array([1, 2]))",
        "init_apply(fnn.PReLU(param_dtype=jnp.bfloat16), XS.astype(jnp.float16))",
        "init_apply(fnn.BatchNorm(use_running_average=True, param_dtype=jnp.bfloat16), XS.astype(jnp.float16))",
        "init_apply(fnn.GroupNorm(num_groups=2, param_dtype=jnp.bfloat16), XS.astype(jnp.float16))",
    ]
    # Sequential
    sq = "fnn.Sequential"
    c += [
        f"init_apply({sq}([fnn.Dense(3)]), XS)",
        f"init_apply({sq}([fnn.Dense(3), {sq}([fnn.Dense(2), fnn.relu]), fnn.Dense(1)]), XS)",
        f"init_apply({sq}([fnn.relu, fnn.tanh]), XS)",
        f"init_apply({sq}([lambda x: (x, x * 2), lambda a, b: a + b]), XS)",
        f"init_apply({sq}([lambda x: {{'a': x}}, lambda a: a * 3]), XS)",
        f"init_apply({sq}([fnn.Dense(3), fnn.Dropout(0.5, deterministic=True), fnn.LayerNorm()]), XS)",
        f"init_apply({sq}([fnn.Dense(3), fnn.BatchNorm(use_running_average=True)]), XS)",
        f"init_apply({sq}([fnn.Dense(3, name='a'), fnn.Dense(2, name='b')]), XS)",
        f"init_apply({sq}((fnn.Dense(3), fnn.Dense(2))), XS)",
        f"init_apply({sq}([fnn.RNN(fnn.LSTMCell(2)), fnn.Dense(1)]), XS)",
        f"init_apply({sq}([fnn.Conv(2, (3,)), fnn.GroupNorm(num_groups=1), fnn.gelu]), XS)",
        f"init_apply({sq}([fnn.SelfAttention(num_heads=2), fnn.Dense(1)]), XQ)",
        f"init_apply({sq}([fnn.Dense(3), fnn.Dense(2)], name='seq'), XS)",
        f"init_apply({sq}(fnn.Dense(3)), XS)",
        f"init_apply({sq}([fnn.Dense(3)]), XS, XS)",
        f"{sq}([fnn.Dense(3)]).layers",
        f"""
m = {sq}([fnn.Dense(3), fnn.BatchNorm(use_running_average=False)])
v = m.init(K0, XS)
out = m.apply(v, XS, mutable=['batch_stats'])
""",
        f"""
m = {sq}([fnn.Dense(4), fnn.Dropout(0.5, deterministic=False)])
v = m.init({{'params': K0, 'dropout': K1}}, XS)
out = m.apply(v, XS, rngs={{'dropout': K1}})
""",
        f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return {sq}([fnn.Dense(3), fnn.relu, fnn.Dense(2)])(x)
out = init_apply(M(), XS)
""",
        f"""
class M(fnn.Module):
    def setup(self):
        self.body = {sq}([fnn.Dense(3), fnn.relu])
        self.head = fnn.Dense(1)
    def __call__(self, x):
        return self.head(self.body(x))
out = init_apply(M(), XS)
""",
    ]
    # tabulate
    tb = "fnn.tabulate"
    c += [
        f"tab({tb}(fnn.Dense(3), K0)(XS))",
        f"tab({tb}(fnn.Dense(3), K0, compute_flops=True)(XS))",
        f"tab({tb}(fnn.Dense(3), K0, compute_vjp_flops=True)(XS))",
        f"tab({tb}(fnn.Dense(3), K0, depth=0)(XS))",
        f"tab({tb}({sq}([fnn.Dense(3), fnn.relu, fnn.Dense(2)]), K0)(XS))",
        f"tab({tb}({sq}([fnn.Dense(3), fnn.relu, fnn.Dense(2)]), K0, depth=1)(XS))",
        f"tab({tb}(fnn.Conv(2, (3,)), K0)(XS))",
        f"tab({tb}(fnn.BatchNorm(use_running_average=False), K0)(XS))",
        f"tab({tb}(fnn.BatchNorm(use_running_average=True), K0)(XS))",
        f"tab({tb}(fnn.LayerNorm(), K0)(XS))",
        f"tab({tb}(fnn.Embed(5, 3), K0)(jnp.array([[1, 2]])))",
        f"tab({tb}(fnn.SelfAttention(num_heads=2), K0)(XQ))",
        f"tab({tb}(fnn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4), K0)(XQ, XK))",
        f"tab({tb}(fnn.RNN(fnn.LSTMCell(2)), K0)(XS))",
        f"tab({tb}(fnn.LSTMCell(2), K0)(fnn.LSTMCell(2).initialize_carry(K1, (2, 4)), XS[:, 0]))",
        f"tab({tb}(fnn.Dense(3, param_dtype=jnp.float16), K0)(XS))",
        f"tab({tb}(fnn.Dropout(0.5), K0)(XS, deterministic=True))",
        f"tab({tb}(fnn.Dense(3), K0, console_kwargs={{'width': 200}})(XS))",
        f"tab({tb}(fnn.Dense(3), K0, show_repeated=True)(XS))",
        f"tab({tb}(fnn.Dense(3), K0, table_kwargs={{'title': 'T'}})(XS))",
        f"tab({tb}(fnn.Dense(3), K0, column_kwargs={{'justify': 'left'}})(XS))",
        f"""
class MLP(fnn.Module):
    @fnn.compact
    def __call__(self, x, train=False):
        x = fnn.Dense(4)(x)
        x = fnn.BatchNorm(use_running_average=not train)(x)
        x = fnn.Dropout(0.5, deterministic=not train)(x)
        return fnn.Dense(2)(x)
out = tab({tb}(MLP(), {{'params': K0, 'dropout': K1}})(XS, train=True))
""",
        """
class MLP(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(4)(x)
        x = fnn.Dense(4)(x)
        return x
out = tab(MLP().tabulate(K0, XS, depth=1))
""",
        """
class Block(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.LayerNorm()(fnn.Dense(4)(x))
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return Block()(Block()(x))
out = tab(M().tabulate(K0, XS))
""",
    ]
    # the RNN options repeat three of the cells' LSTMCell calls: each is run once
    return list(dict.fromkeys(c))
