"""Flax's lifted transforms and the finer points of its module API (`flax_lifted`): nn.scan,
nn.vmap, nn.remat/checkpoint, nn.jit, nn.while_loop, nn.cond, nn.switch, nn.map_variables,
nn.jvp/vjp/custom_vjp/grad/value_and_grad, nn.named_call and nn.add_metadata_axis, nested
(scan of remat, vmap of scan), with their parameter trees, values, RNG streams (dropout
masks) and errors; then bind/unbind, clone/copy, sow, perturb, capture_intermediates filters,
mutable filters, the variable accessors, make_rng's bits, reprs, share_scope, merge_param,
boxed metadata (Partitioned, LogicallyPartitioned, logical_axis_rules) and the setup/compact
errors. The cases `flax_module_api` and `flax_layers` have are not repeated here (0 of 501
differ).
"""

# ruff: noqa: E501

PRELUDE = """
class LFCell(fnn.Module):
    feats: int = 2
    @fnn.compact
    def __call__(self, c, x):
        h = jnp.tanh(fnn.Dense(self.feats, name='hc')(c) + fnn.Dense(self.feats, name='hx')(x))
        return h, h * 2
class LFDrop(fnn.Module):
    rate: float = 0.5
    @fnn.compact
    def __call__(self, c, x):
        y = fnn.Dropout(self.rate, deterministic=False)(x)
        return c + y.sum(), y
class LFNoise(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + random.uniform(self.make_rng('noise')), x + random.normal(self.make_rng('noise'), x.shape)
class LFStat(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        n = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        if not self.is_initializing():
            n.value += 1
        self.sow('intermediates', 'h', c)
        return c + x, c * x
class LFMlp(fnn.Module):
    feats: int = 3
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='out')(fnn.relu(fnn.Dense(self.feats, name='hid')(x)))
class LFLayer(fnn.Module):
    @fnn.compact
    def __call__(self, x, _):
        return jnp.tanh(fnn.Dense(x.shape[-1], name='lin')(x)), None
class LFBlock(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return jnp.tanh(fnn.Dense(x.shape[-1])(x))
class LFBN(fnn.Module):
    @fnn.compact
    def __call__(self, x, train=True):
        return fnn.BatchNorm(use_running_average=not train, momentum=0.5)(x)
class LFDropMod(fnn.Module):
    rate: float = 0.5
    @fnn.compact
    def __call__(self, x):
        return fnn.Dropout(self.rate, deterministic=False)(x)
class LFRng(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return random.key_data(self.make_rng('dropout')), random.key_data(self.make_rng('params'))
class LFSetup(fnn.Module):
    def setup(self):
        self.enc = fnn.Dense(3, name='enc')
        self.dec = fnn.Dense(2)
    def __call__(self, x):
        return self.dec(self.enc(x))
    def encode(self, x):
        return self.enc(x)
LFX = jnp.cos(jnp.arange(6.0)).reshape(3, 2)
LFX3 = jnp.sin(jnp.arange(12.0)).reshape(3, 4) / 2
LFC = jnp.array([0.5, -0.25])
def lf_shapes(t):
    return jax.tree.map(lambda a: (a.shape, str(a.dtype)), t)
def lf_spec(t):
    # partition specs as tuples (jax.sharding.PartitionSpec's class differs between the sides)
    return jax.tree.map(tuple, t, is_leaf=lambda s: type(s).__name__ in ('P', 'PartitionSpec'))
"""

_SCAN_VARS = [
    "variable_broadcast='params', split_rngs={'params': False}",
    "variable_axes={'params': 0}, split_rngs={'params': True}",
    "variable_axes={'params': 0}, split_rngs={'params': False}",
    "variable_axes={'params': 1}, split_rngs={'params': True}",
]
_SCAN_AXES = [
    ("", "LFX"),
    ("in_axes=1, out_axes=1", "LFX.T"),
    ("in_axes=0, out_axes=-1", "LFX"),
    ("reverse=True", "LFX"),
    ("unroll=2", "LFX"),
    ("length=3", "LFX"),
    ("reverse=True, unroll=3, out_axes=1", "LFX"),
]


def _scan() -> list[str]:
    c = []
    for var in _SCAN_VARS:
        for ax, xs in _SCAN_AXES:
            opts = ", ".join(o for o in (var, ax) if o)
            mk = f"S = fnn.scan(LFCell, {opts})\nv = S().init(K0, LFC, {xs})\n"
            c += [mk + "out = v", mk + f"out = S().apply(v, LFC, {xs})"]
    c += [
        # carries as pytrees, None xs, length alone
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        a, b = c
        return (a + x, {'m': b['m'] * 2}), a
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, (0.0, {'m': 1.0}), jnp.arange(4.0))
""",
        """
S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=4)
v = S().init(K0, LFC, None)
out = v, S().apply(v, LFC, None)
""",
        """
S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True})
out = S().init(K0, LFC, None)
""",
        """
S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=2)
out = S().init(K0, LFC, jnp.ones((3, 1)))
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False})
out = S().init(K0, LFC, LFX[:, 0])
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False}, in_axes=2)
out = S().init(K0, LFC, LFX)
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False})
v = S().init(K0, LFC, LFX)
out = S().apply(v, jnp.ones(3), LFX)
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c.astype(jnp.int32), x
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.5, jnp.arange(3.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c, x
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.5, jnp.arange(3.0), jnp.arange(3.0))
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False})
out = S(feats=3).init(K0, jnp.zeros(3), LFX)
""",
        # broadcast inputs
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, w, b):
        return c * w + x, c + b
S = fnn.scan(T, in_axes=(0, fnn.broadcast, fnn.broadcast), variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 1.0, jnp.arange(3.0), 0.5, jnp.ones(2))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, ctx):
        return c + fnn.Dense(2, name='q')(ctx) * x, c
S = fnn.scan(T, in_axes=(0, fnn.broadcast), variable_broadcast='params', split_rngs={'params': False})
v = S().init(K0, jnp.zeros(2), jnp.arange(3.0), jnp.ones(4))
out = v, S().apply(v, jnp.zeros(2), jnp.arange(3.0), jnp.ones(4))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, ctx):
        return c + x, c
S = fnn.scan(T, in_axes=(fnn.broadcast, 0), variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.0, 2.0, jnp.arange(3.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + x, (c, x * 2)
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, out_axes=(0, 1))
out = S().apply({}, jnp.zeros(2), jnp.ones((3, 2)))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + x['a'] * x['b'], x
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, in_axes={'a': 0, 'b': 1})
out = S().apply({}, 0.0, {'a': jnp.arange(3.0), 'b': jnp.ones((2, 3))})
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + (x['a'] * x['b']).sum(), x['a']
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, in_axes=({'a': 0, 'b': 1},))
out = S().apply({}, 0.0, {'a': jnp.arange(3.0), 'b': jnp.arange(6.0).reshape(2, 3)})
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + (x['a'] * x['b']).sum(), x['b']
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, in_axes=({'a': 0, 'b': fnn.broadcast},))
out = S().apply({}, 0.0, {'a': jnp.arange(3.0), 'b': jnp.arange(2.0)})
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, y):
        return c + x[0] * y, (x[1], y)
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, in_axes=((0, 1), 0))
out = S().apply({}, 0.0, (jnp.arange(3.0), jnp.ones((2, 3))), jnp.arange(3.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, y):
        return c + x, y
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.0, jnp.arange(3.0), jnp.arange(4.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, y):
        return c + x, y
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, in_axes=(0, 0))
out = S().apply({}, 0.0, jnp.arange(3.0), jnp.arange(4.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + x[0], x[1]
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.0, (jnp.arange(3.0), jnp.arange(4.0)))
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False}, length=4)
out = S().init(K0, LFC, LFX)
""",
        # RNG streams inside scan
        *(
            f"""
S = fnn.scan(LFDrop, variable_broadcast='params', split_rngs={{'params': False, 'dropout': {sp}}}{extra})
out = S({rate}).apply({{}}, 0.0, jnp.ones((4, 6)), rngs={{'dropout': K1}})
"""
            for sp in ("True", "False")
            for rate, extra in (("0.5", ""), ("0.25", ", reverse=True"), ("0.75", ", unroll=2"))
        ),
        *(
            f"""
S = fnn.scan(LFNoise, variable_broadcast='params', split_rngs={{'noise': {sp}}}{extra})
out = S().apply({{}}, 0.0, jnp.zeros((3, 2)), rngs={{'noise': {key}}})
"""
            for sp in ("True", "False")
            for extra, key in (
                ("", "K1"),
                (", length=3", "random.PRNGKey(7)"),
                (", reverse=True", "K0"),
            )
        ),
        """
S = fnn.scan(LFDrop, variable_broadcast='params', split_rngs={'params': False, 'dropout': True})
out = S().init({'params': K0, 'dropout': K1}, 0.0, jnp.ones((2, 4)))
""",
        """
S = fnn.scan(LFDrop, variable_broadcast='params', split_rngs={'params': False, 'dropout': True})
out = S().apply({}, 0.0, jnp.ones((2, 4)))
""",
        """
S = fnn.scan(LFCell, variable_axes={'params': 0}, split_rngs={'params': True})
out = S().init({'params': K0}, LFC, LFX, rngs={'params': K1})
""",
        # other collections
        """
S = fnn.scan(LFStat, variable_axes={'intermediates': 0, 'counter': 0}, split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(1.0, 4.0))
out = v, S().apply(v, 0.0, jnp.arange(1.0, 4.0), mutable=['counter', 'intermediates'])
""",
        """
S = fnn.scan(LFStat, variable_carry='counter', variable_axes={'intermediates': 0}, split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(1.0, 4.0))
out = v, S().apply(v, 0.0, jnp.arange(1.0, 4.0), mutable=True)
""",
        """
S = fnn.scan(LFStat, variable_broadcast='counter', variable_axes={'intermediates': 0}, split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(1.0, 4.0))
out = v
""",
        """
S = fnn.scan(LFStat, variable_carry='counter', split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(1.0, 4.0))
out = S().apply(v, 0.0, jnp.arange(1.0, 4.0), mutable=['counter'])
""",
        """
S = fnn.scan(LFStat, variable_carry='counter', variable_axes={'intermediates': 0}, split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(1.0, 4.0))
out = S().apply(v, 0.0, jnp.arange(1.0, 4.0))
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        y = fnn.BatchNorm(use_running_average=False, momentum=0.5)(x)
        return c + y.sum(), y
S = fnn.scan(T, variable_axes={'params': 0, 'batch_stats': 0}, split_rngs={'params': True})
xs = jnp.arange(24.0).reshape(3, 4, 2)
v = S().init(K0, 0.0, xs)
out = v, S().apply(v, 0.0, xs, mutable=['batch_stats'])
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        y = fnn.BatchNorm(use_running_average=False, momentum=0.5)(x)
        return c + y.sum(), y
S = fnn.scan(T, variable_broadcast='params', variable_carry='batch_stats', split_rngs={'params': False})
xs = jnp.arange(24.0).reshape(3, 4, 2)
v = S().init(K0, 0.0, xs)
out = v, S().apply(v, 0.0, xs, mutable=['batch_stats'])[1]
""",
        # stacking layers: scan over depth
        """
class Stack(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
        y, _ = S(name='stack')(x, None)
        return y
v = Stack().init(K0, LFC)
out = v, Stack().apply(v, LFC)
""",
        """
class Stack(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
        y, _ = S()(x, None)
        return y
out = Stack().init(K0, LFC)
""",
        """
class Stack(fnn.Module):
    def setup(self):
        self.layers = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=2)()
    def __call__(self, x):
        return self.layers(x, None)[0]
out = Stack().init_with_output(K0, LFC)
""",
        """
class Stack(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        S = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=3, reverse=True)
        return S(name='s')(x, None)[0]
v = Stack().init(K0, LFC)
out = Stack().apply(v, LFC)
""",
        # function form: module as first argument
        """
def step(cell, c, x):
    return cell(c, x)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, c, xs):
        f = fnn.scan(step, variable_broadcast='params', split_rngs={'params': False})
        return f(LFCell(name='cell'), c, xs)
v = M().init(K0, LFC, LFX)
out = v, M().apply(v, LFC, LFX)
""",
        """
def step(mdl, c, x):
    return c + mdl.d(x), c
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, c, xs):
        return fnn.scan(step, variable_broadcast='params', split_rngs={'params': False})(self, c, xs)
v = M().init(K0, LFC, LFX)
out = v, M().apply(v, LFC, LFX)
""",
        """
def step(mdl, c, x):
    return c + fnn.Dense(2)(x), c
class M(fnn.Module):
    @fnn.compact
    def __call__(self, c, xs):
        return fnn.scan(step, variable_broadcast='params', split_rngs={'params': False})(self, c, xs)
out = lf_shapes(M().init(K0, LFC, LFX))
""",
        # methods=
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + x, c
    def other(self, c, x):
        return c * x + 1, x
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False}, methods=['other'])
out = S().apply({}, 1.0, jnp.arange(1.0, 4.0), method='other')
""",
        """
class T(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + x, c
    def other(self, c, x):
        return c * x + 1, x
S = fnn.scan(T, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 1.0, jnp.arange(1.0, 4.0), method='other')
""",
        # scan of remat, remat of scan, vmap of scan, scan of vmap
        """
S = fnn.scan(fnn.remat(LFCell), variable_broadcast='params', split_rngs={'params': False})
v = S().init(K0, LFC, LFX)
out = v, S().apply(v, LFC, LFX), jax.grad(lambda v: S().apply(v, LFC, LFX)[0].sum())(v)
""",
        """
S = fnn.scan(fnn.remat(LFLayer, prevent_cse=False), variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
v = S().init(K0, LFC, None)
out = v, jax.grad(lambda v: S().apply(v, LFC, None)[0].sum())(v)
""",
        """
S = fnn.remat(fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False}))
v = S().init(K0, LFC, LFX)
out = v, S().apply(v, LFC, LFX)
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False})
V = fnn.vmap(S, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=(0, 0))
v = V().init(K0, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
out = v, V().apply(v, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
""",
        """
S = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False})
V = fnn.vmap(S, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=(0, 0))
v = V().init(K0, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
out = v, V().apply(v, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
""",
        """
V = fnn.vmap(LFCell, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=(0, 0))
S = fnn.scan(V, variable_broadcast='params', split_rngs={'params': False}, in_axes=1, out_axes=1)
v = S().init(K0, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
out = v, S().apply(v, jnp.zeros((2, 2)), jnp.ones((2, 3, 2)))
""",
        """
S1 = fnn.scan(LFLayer, variable_axes={'params': 0}, split_rngs={'params': True}, length=2)
class Outer(fnn.Module):
    @fnn.compact
    def __call__(self, x, _):
        return S1(name='inner')(x, None)[0], None
S2 = fnn.scan(Outer, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
v = S2().init(K0, LFC, None)
out = lf_shapes(v), S2().apply(v, LFC, None)
""",
        # LSTM scanned over time (the RNN pattern)
        """
S = fnn.scan(fnn.LSTMCell, variable_broadcast='params', split_rngs={'params': False}, in_axes=1, out_axes=1)
x = jnp.sin(jnp.arange(2 * 4 * 3.0)).reshape(2, 4, 3)
c0 = fnn.LSTMCell(3).initialize_carry(K1, (2, 3))
v = S(3).init(K0, c0, x)
out = v, S(3).apply(v, c0, x)
""",
        """
S = fnn.scan(fnn.GRUCell, variable_broadcast='params', split_rngs={'params': False})
x = jnp.sin(jnp.arange(4 * 2 * 3.0)).reshape(4, 2, 3)
c0 = jnp.zeros((2, 2))
v = S(2).init(K0, c0, x)
out = v, S(2).apply(v, c0, x)
""",
        # errors
        "out = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False}, length=2)().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, variable_broadcast='params')().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, variable_axes={'params': 0})().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, variable_axes={'params': 0}, variable_broadcast='params', split_rngs={'params': False})().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, split_rngs={'params': False})().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': False}, in_axes=(0, 0))().init(K0, LFC, LFX)",
        "out = fnn.scan(LFCell, variable_broadcast='params', split_rngs={'params': True})().init(K0, LFC, LFX)",
        "out = type(fnn.scan(LFCell, variable_broadcast='params')).__name__, fnn.scan(LFCell, variable_broadcast='params').__name__",
        "out = type(fnn.broadcast).__name__, fnn.broadcast is fnn.broadcast",
    ]
    return c


_VMAP_CFGS = [
    ("variable_axes={'params': 0}, split_rngs={'params': True}", "LFX3", ""),
    ("variable_axes={'params': 0}, split_rngs={'params': False}", "LFX3", ""),
    ("variable_axes={'params': None}, split_rngs={'params': False}", "LFX3", ""),
    ("variable_axes={'params': 1}, split_rngs={'params': True}", "LFX3", ""),
    ("variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=1", "LFX3.T", ""),
    ("variable_axes={'params': 0}, split_rngs={'params': True}, out_axes=1", "LFX3", ""),
    (
        "variable_axes={'params': -1}, split_rngs={'params': True}, in_axes=-1, out_axes=-1",
        "LFX3.T",
        "",
    ),
    (
        "variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=None, axis_size=3",
        "LFX3[0]",
        "",
    ),
    (
        "variable_axes={'params': None}, split_rngs={'params': False}, in_axes=1",
        "jnp.ones((2, 3, 4))",
        "",
    ),
]


def _vmap() -> list[str]:
    c = []
    for opts, x, _ in _VMAP_CFGS:
        for mod in ("fnn.Dense(2)", "LFMlp()"):
            mk = f"V = fnn.vmap({mod.split('(')[0]}, {opts})\nv = V({mod.split('(')[1][:-1]}).init(K0, {x})\n"
            call = f"V({mod.split('(')[1][:-1]})"
            c += [mk + "out = v", mk + f"out = {call}.apply(v, {x})"]
    c += [
        # dropout / rng splitting under vmap
        *(
            f"""
V = fnn.vmap(LFDropMod, variable_axes={{'params': None}}, split_rngs={{'params': False, 'dropout': {sp}}}{extra})
out = V({rate}).apply({{}}, jnp.ones((3, 8)), rngs={{'dropout': {key}}})
"""
            for sp in ("True", "False")
            for rate, extra, key in (
                ("0.5", "", "K1"),
                ("0.3", ", in_axes=1, out_axes=1", "random.PRNGKey(5)"),
            )
        ),
        """
V = fnn.vmap(LFRng, variable_axes={'params': 0}, split_rngs={'params': True, 'dropout': True})
out = V().init_with_output({'params': K0, 'dropout': K1}, jnp.zeros(3))[0]
""",
        """
V = fnn.vmap(LFRng, variable_axes={'params': 0}, split_rngs={'params': False, 'dropout': True})
out = V().init_with_output({'params': K0, 'dropout': K1}, jnp.zeros(2))[0]
""",
        # axis_name with collectives
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x / lax.psum(x, 'i'), lax.pmean(x, 'i'), lax.pmax(x, 'i'), lax.axis_index('i')
V = fnn.vmap(M, variable_axes={}, split_rngs={}, axis_name='i')
out = V().apply({}, jnp.arange(1.0, 5.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        y = fnn.Dense(2)(x)
        return y - lax.pmean(y, 'batch')
V = fnn.vmap(M, variable_axes={'params': None}, split_rngs={'params': False}, axis_name='batch')
v = V().init(K0, LFX3)
out = v, V().apply(v, LFX3)
""",
        """
V = fnn.vmap(fnn.BatchNorm, variable_axes={'params': None, 'batch_stats': None}, split_rngs={'params': False}, axis_name='b')
x = jnp.arange(12.0).reshape(4, 3)
v = V(use_running_average=False, axis_name='b', momentum=0.5).init(K0, x)
out = v, V(use_running_average=False, axis_name='b', momentum=0.5).apply(v, x, mutable=['batch_stats'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return lax.psum(x, 'nope')
V = fnn.vmap(M, variable_axes={}, split_rngs={}, axis_name='i')
out = V().apply({}, jnp.arange(3.0))
""",
        # metadata_params / partitioned params under vmap
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, kernel_init=fnn.with_partitioning(fnn.initializers.ones, ('embed', 'mlp')))(x)
V = fnn.vmap(M, variable_axes={'params': 0}, split_rngs={'params': True}, metadata_params={fnn.PARTITION_NAME: 'layers'})
v = V().init(K0, LFX3)
out = jax.tree.map(lambda a: a, v, is_leaf=lambda a: isinstance(a, fnn.Partitioned)), lf_spec(fnn.get_partition_spec(v))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, kernel_init=fnn.with_partitioning(fnn.initializers.ones, ('embed', 'mlp')))(x)
V = fnn.vmap(M, variable_axes={'params': 1}, split_rngs={'params': True}, metadata_params={fnn.PARTITION_NAME: None})
v = V().init(K0, LFX3)
out = lf_spec(fnn.get_partition_spec(v)), lf_shapes(fnn.unbox(v))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, _):
        return fnn.Dense(2, kernel_init=fnn.with_partitioning(fnn.initializers.ones, ('embed', 'mlp')))(x), None
S = fnn.scan(M, variable_axes={'params': 0}, split_rngs={'params': True}, length=3, metadata_params={fnn.PARTITION_NAME: 'layers'})
v = S().init(K0, jnp.ones(2), None)
out = lf_spec(fnn.get_partition_spec(v)), lf_shapes(fnn.unbox(v))
""",
        # methods, vmap in compact, function form
        """
V = fnn.vmap(LFSetup, variable_axes={'params': 0}, split_rngs={'params': True}, methods=['encode', '__call__'])
v = V().init(K0, LFX3)
out = lf_shapes(v), V().apply(v, LFX3, method='encode').shape
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2, name='heads')(x)
v = M().init(K0, LFX3)
out = v, M().apply(v, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2)(x)
out = lf_shapes(M().init(K0, LFX3))
""",
        """
def f(mdl, x):
    return mdl(x)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.vmap(f, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=0)(fnn.Dense(2, name='d'), x)
v = M().init(K0, LFX3)
out = v, M().apply(v, LFX3)
""",
        # kwargs and pytrees
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, scale):
        return x['a'] * scale + x['b']
V = fnn.vmap(M, variable_axes={}, split_rngs={}, in_axes=({'a': 0, 'b': None}, None))
out = V().apply({}, {'a': jnp.arange(3.0), 'b': 1.0}, 2.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x, x.sum()
V = fnn.vmap(M, variable_axes={}, split_rngs={}, in_axes=1, out_axes=(1, 0))
out = V().apply({}, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x * 2
V = fnn.vmap(M, variable_axes={}, split_rngs={}, in_axes=0)
out = V().apply({}, x=LFX3)
""",
        # nested vmap, vmap of remat
        """
V1 = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})
V2 = fnn.vmap(V1, variable_axes={'params': 0}, split_rngs={'params': True})
v = V2(2).init(K0, jnp.ones((2, 3, 4)))
out = lf_shapes(v), V2(2).apply(v, jnp.ones((2, 3, 4))).shape, v['params']['bias']
""",
        """
V = fnn.vmap(fnn.remat(fnn.Dense), variable_axes={'params': 0}, split_rngs={'params': True})
v = V(2).init(K0, LFX3)
out = v, jax.grad(lambda v: V(2).apply(v, LFX3).sum())(v)
""",
        # the state collection under vmap
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        s = self.variable('stats', 'sum', jnp.zeros, x.shape)
        s.value = s.value + x
        return s.value
V = fnn.vmap(M, variable_axes={'stats': 0}, split_rngs={})
v = V().init(K0, LFX3)
out = v, V().apply(v, LFX3, mutable=['stats'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'x', x * 2)
        return x
V = fnn.vmap(M, variable_axes={'intermediates': 0}, split_rngs={})
out = V().apply({}, LFX3, mutable=['intermediates'])
""",
        # errors
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).init(K0, 3.0)",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).init(K0, np.float32(3.0))",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, axis_size=4)(2).init(K0, LFX3)",
        "v = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).init(K0, LFX3); out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).apply(v, jnp.ones((2, 4)))",
        "v = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).init(K0, LFX3); out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})(2).apply(v, jnp.ones((3, 5)))",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, y):
        return x + y
out = fnn.vmap(M, variable_axes={}, split_rngs={})().apply({}, jnp.ones(3), jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, y):
        return x + y[0]
out = fnn.vmap(M, variable_axes={}, split_rngs={}, in_axes=(0, (0, 0)))().apply({}, jnp.ones(3), (jnp.ones(3), jnp.ones(2)))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dropout(0.5, deterministic=False)(x)
out = fnn.vmap(M, variable_axes={}, split_rngs={'params': False})().apply({}, jnp.ones((2, 3)), rngs={'dropout': K1})
""",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=2)(2).init(K0, LFX3)",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=(0, 0))(2).init(K0, LFX3)",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=None)(2).init(K0, LFX3)",
        "out = fnn.vmap(fnn.Dense, split_rngs={'params': True})(2).init(K0, LFX3)",
        "out = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=None, axis_size=2, out_axes=1)(2).init_with_output(K0, jnp.ones(4))[0].shape",
    ]
    return c


def _remat_jit() -> list[str]:
    c = []
    for name in ("remat", "checkpoint"):
        for opt in (
            "",
            "prevent_cse=False",
            "policy=jax.checkpoint_policies.dots_saveable",
            "policy=jax.checkpoint_policies.everything_saveable",
            "policy=jax.checkpoint_policies.checkpoint_dots",
            "policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable",
        ):
            c.append(f"""
R = fnn.{name}(LFMlp{", " + opt if opt else ""})
v = R().init(K0, LFX3)
out = v, R().apply(v, LFX3), jax.grad(lambda v: (R().apply(v, LFX3) ** 2).sum())(v)
""")
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, train, scale):
        y = fnn.Dense(2)(x) * scale
        return y if train else -y
R = fnn.remat(M, static_argnums=(2,))
v = R().init(K0, LFX3, True, 2.0)
out = R().apply(v, LFX3, True, 2.0), R().apply(v, LFX3, False, 2.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, train):
        y = fnn.Dense(2)(x)
        return y if train else -y
R = fnn.remat(M)
v = R().init(K0, LFX3, True)
out = R().apply(v, LFX3, True)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, train):
        y = fnn.Dense(2)(x)
        return y if train else -y
R = fnn.remat(M, static_argnums=(1,))
v = R().init(K0, LFX3, True)
out = R().apply(v, LFX3, True)
""",
        """
R = fnn.remat(LFDropMod)
out = R(0.5).apply({}, jnp.ones(6), rngs={'dropout': K1}), LFDropMod(0.5).apply({}, jnp.ones(6), rngs={'dropout': K1})
""",
        """
R = fnn.remat(LFBN)
v = R().init(K0, LFX3)
out = R().apply(v, LFX3, mutable=['batch_stats'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        for i in range(3):
            x = fnn.remat(LFBlock)(name=f'b{i}')(x)
        return x
v = M().init(K0, LFX3)
out = v, M().apply(v, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        for i in range(2):
            x = fnn.remat(LFBlock)()(x)
        return x
out = lf_shapes(M().init(K0, LFX3))
""",
        """
R = fnn.remat(LFSetup, methods=['encode'])
v = R().init(K0, LFX3)
out = R().apply(v, LFX3, method='encode')
""",
        """
def f(mdl, x):
    return mdl(x) * 2
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.remat(f)(fnn.Dense(2, name='d'), x)
v = M().init(K0, LFX3)
out = v, M().apply(v, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    @fnn.remat
    def __call__(self, x):
        return fnn.Dense(2)(x)
out = lf_shapes(M().init(K0, LFX3))
""",
        # remat_scan
        """
S = fnn.remat_scan(LFBlock, lengths=(2, 2))
v = S().init(K0, LFX3)
out = v, S().apply(v, LFX3)
""",
        """
S = fnn.remat_scan(LFBlock, lengths=(3,), policy=jax.checkpoint_policies.nothing_saveable)
v = S().init(K0, LFX3)
out = jax.grad(lambda v: S().apply(v, LFX3).sum())(v)
""",
        # jit
        """
J = fnn.jit(LFMlp)
v = J().init(K0, LFX3)
out = v, J().apply(v, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, n):
        return fnn.Dense(n)(x)
J = fnn.jit(M, static_argnums=(2,))
v = J().init(K0, LFX3, 3)
out = lf_shapes(v), J().apply(v, LFX3, 3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, n):
        return fnn.Dense(n)(x)
J = fnn.jit(M)
out = J().init(K0, LFX3, 3)
""",
        """
J = fnn.jit(LFBN)
v = J().init(K0, LFX3)
out = J().apply(v, LFX3, mutable=['batch_stats'])
""",
        """
J = fnn.jit(LFDropMod)
out = J(0.5).apply({}, jnp.ones(6), rngs={'dropout': K1})
""",
        """
J = fnn.jit(LFSetup, methods=['encode'])
v = J().init(K0, LFX3)
out = J().apply(v, LFX3, method='encode'), J().apply(v, LFX3)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.jit(fnn.Dense)(2, name='j')(x) + fnn.jit(fnn.Dense)(2)(x)
out = lf_shapes(M().init(K0, LFX3))
""",
        """
J = fnn.jit(LFCell)
v = J().init(K0, LFC, LFX[0])
out = jax.jit(lambda v, c: J().apply(v, c, LFX[0]))(v, LFC)
""",
        # named_call
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2)(x)
N = fnn.named_call(M) if hasattr(fnn, 'named_call') else None
out = type(fnn.named_call).__name__
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return LFMlp()(x)
v = M().init(K0, LFX3)
with fnn.override_named_call(True):
    a = M().apply(v, LFX3)
out = a
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return LFMlp()(x)
with fnn.override_named_call(True):
    v = M().init(K0, LFX3)
out = [e.primitive.name for e in jax.make_jaxpr(lambda x: M().apply(v, x))(LFX3).eqns][:3]
""",
        # add_metadata_axis
        """
M = fnn.add_metadata_axis(fnn.Dense, variable_axes={'params': 0}, metadata_params={fnn.PARTITION_NAME: 'layer'})
out = type(M).__name__
""",
        """
class D(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, kernel_init=fnn.with_partitioning(fnn.initializers.ones, ('a', 'b')))(x)
M = fnn.add_metadata_axis(D, variable_axes={'params': 0}, metadata_params={fnn.PARTITION_NAME: 'layer'})
v = M().init(K0, jnp.ones(2))
out = v
""",
    ]
    return c


def _control() -> list[str]:
    c = []
    # while_loop
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, kernel_init=fnn.initializers.constant(0.5), name='d')
        d(x)
        return fnn.while_loop(lambda m, c: c[0] < 4, lambda m, c: (c[0] + 1, d(c[1])), self, (0, x))
v = M().init(K0, jnp.ones(2))
out = v, M().apply(v, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        s = self.variable('state', 'acc', lambda: jnp.zeros(()))
        def body(m, c):
            s.value = s.value + c
            return c + 1.0
        return fnn.while_loop(lambda m, c: c < 5.0, body, self, x, carry_variables='state')
v = M().init(K0, 1.0)
out = v, M().apply(v, 1.0, mutable=['state'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        s = self.variable('state', 'acc', lambda: jnp.zeros(()))
        def body(m, c):
            s.value = s.value + c
            return c + 1.0
        return fnn.while_loop(lambda m, c: c < 5.0, body, self, x)
v = M().init(K0, 1.0)
out = M().apply(v, 1.0, mutable=['state'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        def body(m, c):
            return c + random.uniform(m.make_rng('noise'))
        return fnn.while_loop(lambda m, c: c < 3.0, body, self, x, split_rngs={'noise': True})
out = M().apply({}, 0.0, rngs={'noise': K1})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.while_loop(lambda m, c: c < 3.0, lambda m, c: c + 1.0, self, x)
out = M().apply({}, 10.0), M().apply({}, 0.5), M().init(K0, 0.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.while_loop(lambda m, c: c < 3.0, lambda m, c: (c + 1.0).astype(jnp.int32), self, x)
out = M().apply({}, 0.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.while_loop(lambda m, c: c, lambda m, c: c + 1.0, self, x)
out = M().apply({}, 0.0)
""",
        "out = hasattr(fnn, 'fori_loop')",
    ]
    # cond / switch
    for pred in ("True", "False", "jnp.array(True)", "jnp.array(0)", "1"):
        c.append(f"""
class M(fnn.Module):
    def setup(self):
        self.a = fnn.Dense(2)
        self.b = fnn.Dense(2)
    def __call__(self, x, pred):
        if self.is_initializing():
            self.a(x), self.b(x)
        return fnn.cond(pred, lambda m, x: m.a(x), lambda m, x: m.b(x) * 3, self, x)
v = M().init(K0, jnp.ones(3), True)
out = v, M().apply(v, jnp.ones(3), {pred})
""")
    c.append("""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        a = fnn.Dense(2, name='a')
        b = fnn.Dense(2, name='b')
        return fnn.cond(pred, lambda m, x: a(x), lambda m, x: b(x) * 3, self, x)
v = M().init(K0, jnp.ones(3), True)
out = lf_shapes(v)
""")
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        a = fnn.Dense(2, name='a')
        return fnn.cond(pred, lambda m, x: a(x), lambda m, x: x[:2], self, x)
out = lf_shapes(M().init(K0, jnp.ones(3), False))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        s = self.variable('state', 'n', lambda: jnp.zeros((), jnp.int32))
        def t(m, x):
            s.value += 1
            return x
        def f(m, x):
            s.value -= 1
            return -x
        return fnn.cond(pred, t, f, self, x)
v = M().init(K0, 1.0, True)
out = v, M().apply(v, 1.0, False, mutable=['state']), M().apply(v, 1.0, True, mutable=['state'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        return fnn.cond(pred, lambda m, x: (x, x), lambda m, x: x, self, x)
out = M().apply({}, 1.0, True)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        return fnn.cond(pred, lambda m, x: random.uniform(m.make_rng('dropout')) + x, lambda m, x: x, self, x)
out = M().apply({}, 1.0, True, rngs={'dropout': K1}), M().apply({}, 1.0, False, rngs={'dropout': K1})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        return fnn.cond(pred, lambda m, x: x, lambda m, x: x, self, x)
out = M().apply({}, 1.0, jnp.array([True, False]))
""",
    ]
    for i in ("0", "1", "2", "3", "-1", "jnp.array(1)", "jnp.int32(2)"):
        c.append(f"""
class M(fnn.Module):
    def setup(self):
        self.heads = [fnn.Dense(2, kernel_init=fnn.initializers.constant(k + 1.0), name=f'h{{k}}') for k in range(3)]
    def __call__(self, x, i):
        if self.is_initializing():
            for h in self.heads:
                h(x)
        return fnn.switch(i, [lambda m, x, k=k: m.heads[k](x) for k in range(3)], self, x)
v = M().init(K0, jnp.ones(2), 0)
out = v, M().apply(v, jnp.ones(2), {i})
""")
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, i):
        return fnn.switch(i, [lambda m, x: x, lambda m, x: x.astype(jnp.int32)], self, x)
out = M().apply({}, 1.0, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, i):
        return fnn.switch(i, [], self, x)
out = M().apply({}, 1.0, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, i):
        return fnn.switch(i, [lambda m, x: x * 2], self, x)
out = M().apply({}, 1.0, 5)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x, i):
        return fnn.switch(i, [lambda m, x: x * 2, lambda m, x: x * 3], self, x)
out = jax.jit(lambda i: M().apply({}, 1.0, i))(1), jax.vmap(lambda i: M().apply({}, 1.0, i))(jnp.array([0, 1, 7]))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.a = fnn.Dense(2)
    def __call__(self, x, pred):
        return fnn.cond(pred, lambda m, x: m.a(x), lambda m, x: m.a(x) + 1, self, x)
v = M().init(K0, jnp.ones(3), True)
out = jax.vmap(lambda p: M().apply(v, jnp.ones(3), p))(jnp.array([True, False]))
""",
    ]
    # map_variables
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: jax.tree.map(lambda a: a * 0.5, v), init=True)
        return D(2, name='half')(x)
v = M().init(K0, jnp.ones(3))
out = v, M().apply(v, jnp.ones(3))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: v, trans_out_fn=lambda v: jax.tree.map(lambda a: a + 1, v), init=True)
        return D(2)(x)
out = M().init(K0, jnp.ones(3))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: v)
        return D(2)(x)
out = M().init(K0, jnp.ones(3))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: v, init=True)
        return D(2)(x)
v = M().init(K0, jnp.ones(3))
out = lf_shapes(v), M().apply(v, jnp.ones(3))
""",
        """
class C(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        s = self.variable('stats', 'n', lambda: jnp.zeros(()))
        s.value = s.value + x.sum()
        return x
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(C, 'stats', trans_in_fn=lambda v: v, trans_out_fn=lambda v: jax.tree.map(lambda a: a * 10, v), mutable=True, init=True)
        return D()(x)
v = M().init(K0, jnp.ones(3))
out = v, M().apply(v, jnp.ones(3), mutable=['stats'])
""",
        """
class C(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        s = self.variable('stats', 'n', lambda: jnp.zeros(()))
        s.value = s.value + x.sum()
        return x
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(C, 'stats', trans_in_fn=lambda v: v, init=True)
        return D()(x)
out = M().init(K0, jnp.ones(3))
""",
        """
def unflat(vs):
    return jax.tree.map(lambda a: a.reshape(3, 2) if a.shape == (6,) else a, vs)
def flat(vs):
    return jax.tree.map(lambda a: a.reshape(-1) if a.ndim == 2 else a, vs)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.map_variables(fnn.Dense, 'params', unflat, flat, init=True)(2)(x)
v = M().init(K0, jnp.ones(3))
out = lf_shapes(v), M().apply(v, jnp.ones(3))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        D = fnn.map_variables(fnn.Dense, ['params'], trans_in_fn=lambda v: jax.tree.map(jnp.abs, v), init=True)
        return D(2)(x)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, -jnp.ones(3))
""",
        """
def f(mdl, x):
    return mdl(x)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        g = fnn.map_variables(f, 'params', trans_in_fn=lambda v: jax.tree.map(lambda a: -a, v), init=True)
        return g(fnn.Dense(2, name='n'), x)
v = M().init(K0, jnp.ones(3))
out = v, M().apply(v, jnp.ones(3))
""",
        """
M = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: jax.tree.map(lambda a: a * 2, v), init=True)
v = M(2).init(K0, jnp.ones(3))
out = v, M(2).apply(v, jnp.ones(3))
""",
    ]
    # custom_vjp, jvp, vjp, grad, value_and_grad
    c += [
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        def f(mdl, x):
            return mdl(x)
        def fwd(mdl, x):
            return fnn.vjp(f, mdl, x)
        def bwd(vjp_fn, g):
            p, xg = vjp_fn(g)
            return jax.tree.map(lambda a: a * 0.0, p), xg * 10
        return fnn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)(fnn.Dense(2, name='d'), x)
x = jnp.arange(3.0)
v = M().init(K0, x)
out = M().apply(v, x), jax.grad(lambda v, x: M().apply(v, x).sum(), argnums=(0, 1))(v, x)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        def f(mdl, x):
            return x * 2.0
        def fwd(mdl, x):
            return f(mdl, x), None
        def bwd(res, g):
            return {}, g * 100
        return fnn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)(self, x)
out = jax.grad(lambda x: M().apply({}, x).sum())(jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        d(x)
        y, (pg, xg) = fnn.vjp(lambda m, x: m(x), d, x, vjp_variables='params')[0], fnn.vjp(lambda m, x: m(x), d, x)[1](jnp.ones(2))
        return y, pg, xg
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        d(x)
        y, bwd = fnn.vjp(lambda m, x: m(x), d, x, variables=False if False else True)
        return bwd(jnp.ones(2))
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        d(x)
        y, bwd, aux = fnn.vjp(lambda m, x: (m(x), {'n': x.sum()}), d, x, has_aux=True)
        return y, aux, bwd(jnp.ones(2))
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        d(x)
        return fnn.jvp(lambda m, x: m(x), d, (x,), (jnp.ones_like(x),), {})
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d', use_bias=False)
        d(x)
        t = {'params': {'kernel': jnp.ones((3, 2))}}
        return fnn.jvp(lambda m, x: jnp.tanh(m(x)), d, (x,), (jnp.zeros_like(x),), t)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        d(x)
        return fnn.jvp(lambda m, x: (m(x), x.sum()), d, (x,), (jnp.ones_like(x),), {}, has_aux=True)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.grad(lambda m, x: (m(x) ** 2).sum(), d, x)
v = M().init(K0, jnp.ones(3))
out = v, M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.value_and_grad(lambda m, x: (m(x) ** 2).sum(), d, x)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.value_and_grad(lambda m, x: ((m(x) ** 2).sum(), x * 2), d, x, has_aux=True)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.grad(lambda m, x: m(x), d, x)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.grad(lambda m, x: ((m(x) ** 2).sum(), {'n': x.sum()}), d, x, has_aux=True)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.value_and_grad(lambda m, x, y: (m(x) * y).sum(), d, x, jnp.ones(2))
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.value_and_grad(lambda m, x: m(x), d, x, has_aux=False)
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.grad(lambda m, x: (m(x) ** 2).sum(), d, x, reduce_axes=('batch',))
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        return fnn.grad(lambda m, x: (m(x) ** 2).sum(), d, x, reduce_axes=())
v = M().init(K0, jnp.ones(3))
out = M().apply(v, jnp.arange(3.0))
""",
    ]
    return c


def _module_api() -> list[str]:
    c = [
        # bind / unbind
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b(LFX3)",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b.variables['params']['hid']['kernel'].shape",
        "b = LFMlp().bind({}); out = b(LFX3)",
        "b = LFMlp().bind({}, rngs={'params': K0}); out = b(LFX3)",
        "b = LFMlp().bind({}, rngs={'params': K0}, mutable=True); y = b(LFX3); out = y, b.variables",
        "b = LFSetup().bind(LFSetup().init(K0, LFX3)); out = b.enc(LFX3), b.dec.features, b.enc.name",
        "b = LFSetup().bind(LFSetup().init(K0, LFX3)); m, v = b.unbind(); out = type(m).__name__, v, m.scope",
        "b = LFSetup().bind(LFSetup().init(K0, LFX3)); m, v = b.enc.unbind(); out = m.name, m.parent, v",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b.unbind()[0](LFX3)",
        "out = LFMlp().unbind()",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b.bind({})",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = repr(b)",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b.path, b.name, b.parent is None",
        "b = LFSetup().bind(LFSetup().init(K0, LFX3)); out = b.enc.path, b.dec.path, b.dec.name",
        "b = LFSetup().bind(LFSetup().init(K0, LFX3)); out = b.enc.scope.path, b.scope.path",
        "b = LFMlp().bind(LFMlp().init(K0, LFX3)); out = b.scope.rngs, sorted(b.scope.variables().keys())",
        "b = LFDropMod().bind({}, rngs={'dropout': K1}); out = b(jnp.ones(5)), b(jnp.ones(5))",
        "b = LFRng().bind({}, rngs={'dropout': K1, 'params': K0}); out = b(0), b(0)",
        # clone / copy
        "out = fnn.Dense(2).clone(features=3, use_bias=False)",
        "out = repr(fnn.Dense(2).clone(name='x'))",
        "out = fnn.Dense(2).clone(nope=1)",
        "out = LFMlp(4).clone().feats, LFMlp(4).clone(feats=5).feats",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='proto')
        e = d.clone(name='copy1')
        f = d.clone(parent=None)
        return d(x) + e(x), f.parent
v, = [M().init(K0, jnp.ones(3))]
out = lf_shapes(v)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        return d.clone()(x) + d.clone()(x)
out = lf_shapes(M().init(K0, jnp.ones(3)))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, x):
        return self.d.clone(parent=None).name, self.d.name
out = M().apply({}, 1.0, method=lambda m, x: (m.d.name, m.d.clone().name, m.d.clone(parent=None).name))
""",
        """
class Outer(fnn.Module):
    inner: fnn.Module
    @fnn.compact
    def __call__(self, x):
        return self.inner(x)
o = Outer(LFMlp(2))
c1 = o.clone()
c2 = o.clone(_deep_clone=True)
out = c1.inner is o.inner, c2.inner is o.inner, c2.inner.feats, lf_shapes(c2.init(K0, LFX3))
""",
        """
b = LFSetup().bind(LFSetup().init(K0, LFX3))
c = b.clone()
out = c.scope is None, c.name
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='a')
        y = d(x)
        return y + d.copy(name='b')(x), d.copy().name
out = M().init_with_output(K0, jnp.ones(3))[0][1], lf_shapes(M().init(K0, jnp.ones(3)))
""",
        "out = fnn.Dense(2).copy(features=4).features, fnn.Dense(2).copy(parent=None).parent",
        # sow
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('stats', 'mx', x.max(), reduce_fn=jnp.maximum, init_fn=lambda: -jnp.inf)
        self.sow('stats', 'mx', x.max() * 3, reduce_fn=jnp.maximum, init_fn=lambda: -jnp.inf)
        self.sow('stats', 'mx', x.max() * 2, reduce_fn=jnp.maximum, init_fn=lambda: -jnp.inf)
        return x
out = M().apply({}, jnp.arange(3.0), mutable=['stats'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x)
        self.sow('intermediates', 'h', x + 1)
        return x
v = M().apply({}, jnp.ones(2), mutable=['intermediates'])[1]
out = v, M().apply(v, jnp.ones(2), mutable=['intermediates'])[1]
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x, init_fn=lambda: {}, reduce_fn=lambda acc, v: {**acc, str(len(acc)): v})
        self.sow('intermediates', 'h', x * 2, init_fn=lambda: {}, reduce_fn=lambda acc, v: {**acc, str(len(acc)): v})
        return x
out = M().apply({}, jnp.ones(2), mutable=True)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        ok = self.sow('intermediates', 'h', x)
        return ok
out = M().apply({}, 1.0, mutable=['intermediates']), M().apply({}, 1.0, mutable=['other']), M().apply({}, 1.0)
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'in', x)
        return fnn.Dense(2)(x)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'top', x)
        return Inner()(x) + Inner(name='second')(x)
v = M().init(K0, jnp.ones(2))
out = lf_shapes(v), M().apply(v, jnp.ones(2), mutable=['intermediates'])[1]
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x)
        return x
out = M().init(K0, 1.0), M().init(K0, 1.0, mutable=['params', 'intermediates'])
""",
        """
class M(fnn.Module):
    def setup(self):
        self.sow('intermediates', 'in_setup', 1.0)
    def __call__(self, x):
        return x
out = M().apply({}, 1.0, mutable=['intermediates'])
""",
        # perturb
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        h = fnn.Dense(3, name='d')(x)
        h = self.perturb('h', h)
        return jnp.sum(h ** 2)
x = jnp.arange(2.0)
v = M().init(K0, x)
g = jax.grad(lambda v: M().apply(v, x))(v)
out = lf_shapes(v), g['perturbations']
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.perturb('h', x, collection='noise_pert')
v = M().init(K0, jnp.ones(2))
out = v, M().apply({'noise_pert': {'h': jnp.full(2, 0.5)}}, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.perturb('h', x)
out = M().apply({'perturbations': {'h': jnp.ones(3)}}, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.perturb('h', x)
v = M().init(K0, jnp.ones(2))
out = M().apply(v, jnp.ones(2) * 3, mutable=['perturbations'])
""",
        # capture_intermediates filters
        *(
            f"""
v = LFSetup().init(K0, LFX3)
out = jax.tree.map(jnp.shape, LFSetup().apply(v, LFX3, capture_intermediates={flt}, mutable=['intermediates'])[1])
"""
            for flt in (
                "True",
                "lambda m, n: n == 'encode' or isinstance(m, fnn.Dense)",
                "lambda m, n: m.name == 'enc'",
                "lambda m, n: False",
                "lambda m, n: m.path == ()",
            )
        ),
        """
v = LFMlp().init(K0, LFX3)
out = LFMlp().apply(v, LFX3, capture_intermediates=lambda m, n: m.name == 'hid')[1]
""",
        """
v = LFSetup().init(K0, LFX3)
out = jax.tree.map(jnp.shape, LFSetup().apply(v, LFX3, capture_intermediates=True, method='encode', mutable=['intermediates'])[1])
""",
        """
out = jax.tree.map(jnp.shape, LFMlp().init(K0, LFX3, capture_intermediates=True))
""",
        # mutable filters
        *(
            f"""
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        a = self.variable('a', 'v', lambda: 0.0)
        b = self.variable('b', 'v', lambda: 0.0)
        if not self.is_initializing():
            if self.is_mutable_collection('a'):
                a.value += 1.0
            if self.is_mutable_collection('b'):
                b.value += 2.0
        return self.is_mutable_collection('a'), self.is_mutable_collection('b'), self.is_mutable_collection('params')
v = M().init(K0, 0.0)
out = M().apply(v, 0.0, mutable={mut})
"""
            for mut in (
                "True",
                "False",
                "['a']",
                "'b'",
                "('a', 'b')",
                "fnn.DenyList('a')",
                "fnn.DenyList(['a', 'b'])",
                "lambda c: c == 'b'" if False else "['a', 'params']",
            )
        ),
        "out = LFMlp().init(K0, LFX3, mutable=fnn.DenyList('params'))",
        "out = lf_shapes(LFMlp().init(K0, LFX3, mutable=('params',)))",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        a = self.variable('a', 'v', lambda: 0.0)
        a.value = a.value + 1
        return x
out = M().apply({'a': {'v': 1.0}}, 0.0, mutable=['b'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.variable('a', 'v', lambda: 5.0).value
out = M().apply({}, 0.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.variable('a', 'v', lambda: 5.0).value
out = M().apply({}, 0.0, mutable=['a'])
""",
        # get/put/has variable, is_initializing, has_rng
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.put_variable('s', 'tree', {'a': 1.0, 'b': {'c': 2.0}})
        self.put_variable('s', 'tree', {'b': {'d': 3.0}, 'e': 4.0})
        return self.get_variable('s', 'tree')
out = M().apply({}, 0, mutable=['s'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.put_variable('s', 'tree', {'a': 1.0})
        self.put_variable('s', 'tree', 5.0)
        self.put_variable('s', 'leaf', 5.0)
        self.put_variable('s', 'leaf', {'z': 1.0})
        return self.get_variable('s', 'tree'), self.get_variable('s', 'leaf')
out = M().apply({}, 0, mutable=['s'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        fnn.Dense(2, name='d')(x)
        self.put_variable('params', 'd', {'bias': jnp.full(2, 7.0)})
        return x
out = jax.tree.map(jnp.shape, M().init(K0, jnp.ones(3))), M().init(K0, jnp.ones(3))['params']['d']['bias']
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        r = [self.has_variable('s', 'k'), self.get_variable('s', 'k'), self.get_variable('s', 'k', 7.0)]
        self.put_variable('s', 'k', 3.0)
        r += [self.has_variable('s', 'k'), self.get_variable('s', 'k')]
        self.put_variable('s', 'k', self.get_variable('s', 'k') + 1)
        r += [self.get_variable('s', 'k')]
        return r
out = M().apply({}, 0, mutable=['s'])
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.put_variable('s', 'k', 3.0)
out = M().apply({}, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        fnn.Dense(2, name='d')(x)
        return self.has_variable('params', 'd'), self.has_variable('params', 'e'), self.has_variable('nope', 'd')
out = M().init_with_output(K0, jnp.ones(2))[0]
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return (self.is_initializing(), self.has_rng('params'), self.has_rng('dropout'), self.is_mutable_collection('params'))
out = M().init_with_output({'params': K0, 'dropout': K1}, 0)[0], M().apply({}, 0), M().apply({}, 0, rngs={'dropout': K1})
""",
        """
class M(fnn.Module):
    def setup(self):
        self.flag = self.is_initializing()
    def __call__(self, x):
        return self.flag
out = M().init_with_output(K0, 0)[0], M().apply({}, 0)
""",
        "out = LFMlp().is_initializing()",
        "out = LFMlp().has_rng('params')",
        "out = LFMlp().is_mutable_collection('params')",
        "out = LFMlp().get_variable('params', 'x')",
        "out = LFMlp().has_variable('params', 'x')",
        "out = LFMlp().variables",
        # make_rng bits
        *(
            f"""
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return random.key_data(self.make_rng('dropout'))
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return [random.key_data(self.make_rng('dropout')), Inner(name='a')(x), Inner(name='b')(x), Inner()(x), random.key_data(self.make_rng('dropout'))]
out = M().apply({{}}, 0, rngs={{'dropout': {key}}})
"""
            for key in ("K0", "K1", "random.PRNGKey(42)", "random.key(2024)")
        ),
        """
class M(fnn.Module):
    def setup(self):
        self.k = random.key_data(self.make_rng('dropout'))
    def __call__(self, x):
        return self.k, random.key_data(self.make_rng('dropout'))
out = M().apply({}, 0, rngs={'dropout': K1})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return random.key_data(self.make_rng('params')), random.key_data(self.make_rng('other'))
out = M().init_with_output({'params': K0, 'other': K1}, 0)[0]
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.make_rng('other')
out = M().init(K0, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return random.key_data(self.make_rng())
out = M().apply({}, 0, rngs={'params': K1})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        k = self.make_rng('dropout')
        return str(k.dtype), k.shape
out = M().apply({}, 0, rngs={'dropout': K1}), M().apply({}, 0, rngs={'dropout': K0})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dropout(0.5)(x, deterministic=False), fnn.Dropout(0.5, rng_collection='mask')(x, deterministic=False)
out = M().apply({}, jnp.ones(8), rngs={'dropout': K1, 'mask': K0})
""",
        """
out = [fnn.Dropout(r).apply({}, jnp.ones((2, 5)), deterministic=False, rngs={'dropout': K1}) for r in (0.1, 0.5, 0.9, 1.0, 0.0)]
""",
        """
out = fnn.Dropout(0.5, broadcast_dims=(0,)).apply({}, jnp.ones((3, 4)), deterministic=False, rngs={'dropout': random.PRNGKey(3)})
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(3)(fnn.Dropout(0.5, deterministic=False)(x))
v = M().init({'params': K0, 'dropout': K1}, jnp.ones(4))
out = v, M().apply(v, jnp.ones(4), rngs={'dropout': K1})
""",
        # variables / path / scope reprs
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2, name='d')
        y = d(x)
        return d.path, self.path, d.scope.path, sorted(d.variables['params'].keys()), type(self.variables).__name__
out = M().init_with_output(K0, jnp.ones(2))[0]
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.path, self.name
class M(fnn.Module):
    def setup(self):
        self.blocks = [Inner() for _ in range(2)]
        self.named = {'x': Inner()}
    def __call__(self, x):
        return [b(x) for b in self.blocks], self.named['x'](x)
out = M().apply({}, 0)
""",
        "out = repr(LFMlp())",
        "out = repr(LFSetup())",
        "out = repr(LFSetup(name='top'))",
        """
class Outer(fnn.Module):
    inner: fnn.Module
    scale: float = 2.0
    tags: tuple = ('a', 'b')
    @fnn.compact
    def __call__(self, x):
        return self.inner(x) * self.scale
out = repr(Outer(LFMlp(4)))
""",
        """
class Outer(fnn.Module):
    subs: tuple
    @fnn.compact
    def __call__(self, x):
        for s in self.subs:
            x = s(x)
        return x
out = repr(Outer((fnn.Dense(2), fnn.Dense(3, use_bias=False))))
""",
        """
class Outer(fnn.Module):
    subs: tuple
    @fnn.compact
    def __call__(self, x):
        for s in self.subs:
            x = s(x)
        return x
out = lf_shapes(Outer((fnn.Dense(2), fnn.Dense(3, use_bias=False))).init(K0, jnp.ones(2)))
""",
        """
class Outer(fnn.Module):
    subs: dict
    @fnn.compact
    def __call__(self, x):
        return {k: s(x) for k, s in self.subs.items()}
out = lf_shapes(Outer({'a': fnn.Dense(2), 'b': fnn.Dense(3)}).init(K0, jnp.ones(2)))
""",
        "out = repr(fnn.Dense(2, dtype=jnp.float16, kernel_init=fnn.initializers.zeros))[:60]",
        "out = repr(fnn.Sequential([fnn.Dense(2), fnn.relu]))[:40]",
        "out = str(fnn.LayerNorm())",
        # share_scope
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='shared_name')(x)
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        i = Inner()
        fnn.share_scope(self, i)
        return i(x) + fnn.Dense(2, name='shared_name')(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.a = fnn.Dense(2)
        fnn.share_scope(self, self.a)
    def __call__(self, x):
        return self.a(x)
v = M().init(K0, jnp.ones(3))
out = v, M().apply(v, jnp.ones(3))
""",
        "out = fnn.share_scope(LFMlp(), fnn.Dense(2))",
        # merge_param
        "out = fnn.merge_param('deterministic', True, None), fnn.merge_param('d', None, False)",
        "out = fnn.merge_param('deterministic', True, False)",
        "out = fnn.merge_param('deterministic', None, None)",
        "out = fnn.merge_param('deterministic', 0, 0)",
        "out = fnn.Dropout(0.5).apply({}, jnp.ones(3))",
        "out = fnn.Dropout(0.5, deterministic=True).apply({}, jnp.ones(3), deterministic=False)",
        "out = fnn.BatchNorm().init(K0, jnp.ones((2, 3)))",
        "out = fnn.BatchNorm(use_running_average=True).init(K0, jnp.ones((2, 3)), use_running_average=False)",
        # init / apply forms
        "out = LFMlp().init_with_output(K0, LFX3)",
        "out = LFMlp().init_with_output(K0, LFX3, method='__call__')[0]",
        "out = LFSetup().init_with_output(K0, LFX3, method='encode')",
        "out = LFSetup().init_with_output(K0, LFX3, method=LFSetup.encode)",
        "out = lf_shapes(LFSetup().lazy_init(K0, jax.ShapeDtypeStruct((3, 4), jnp.float32)))",
        "out = lf_shapes(LFSetup().lazy_init(K0, jax.ShapeDtypeStruct((3, 4), jnp.float32), method='encode'))",
        "out = lf_shapes(LFSetup().lazy_init(K0, LFX3))",
        "v = LFSetup().init(K0, LFX3); out = LFSetup().apply(v, LFX3, method='dec')",
        "v = LFSetup().init(K0, LFX3); out = LFSetup().apply(v, LFX3, method='enc')",
        "v = LFSetup().init(K0, LFX3); out = LFSetup().apply(v, LFX3, method=lambda m, x: m.dec(m.encode(x)) * 2)",
        "v = LFSetup().init(K0, LFX3); out = LFSetup().apply(v, LFX3, method=LFMlp.__call__)",
        "v = LFSetup().init(K0, LFX3); out = LFSetup().apply(v, LFX3, method='__call__', mutable=False)",
        "out = fnn.init(lambda m, x: m.encode(x), LFSetup())(K0, LFX3)",
        "out = fnn.init(lambda m, x: m.encode(x), LFSetup(), mutable=['params'])(K0, LFX3)",
        "out = fnn.init_with_output(lambda m, x: m.encode(x).sum(), LFSetup())(K0, LFX3)",
        "v = LFSetup().init(K0, LFX3); out = fnn.apply(lambda m, x: (m.enc(x), m(x)), LFSetup())(v, LFX3)",
        "v = LFSetup().init(K0, LFX3); out = fnn.apply(lambda m, x: m(x), LFSetup(), mutable=['intermediates'])(v, LFX3)",
        "out = fnn.apply(lambda m, x: m(x), LFDropMod())({}, jnp.ones(4), rngs={'dropout': K1})",
        "out = fnn.init(lambda m, x: m(x), LFMlp())({'params': K0}, LFX3)",
        "out = LFMlp().init(K0)",
        "out = LFMlp().init(None, LFX3)",
        "out = LFMlp().init({'dropout': K0}, LFX3)",
        "out = LFMlp().init(K0, LFX3, rngs={'params': K1})",
        "out = LFMlp().apply({'params': {}}, LFX3)",
        "out = LFMlp().apply({'params': {'hid': {}}}, LFX3)",
        "out = LFMlp().apply(None, LFX3)",
        "v = LFMlp().init(K0, LFX3); out = LFMlp().apply(v, LFX3, rngs={'params': K0})",
        "v = LFMlp().init(K0, LFX3); out = LFMlp().apply(fnn.FrozenDict(v), LFX3)",
        "v = LFMlp().init(K0, LFX3); out = LFMlp().apply(flax.core.freeze(v), LFX3)",
        "v = LFMlp().init(K0, LFX3); out = LFMlp().apply(v, LFX3, mutable=['params'])[1] == v",
        "v = LFMlp().init(K0, LFX3); out = jax.tree.map(lambda a: a.dtype, LFMlp().apply(v, LFX3.astype(jnp.bfloat16)))",
        # setup / compact mixing errors
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    @fnn.compact
    def __call__(self, x):
        return self.d(x) + fnn.Dense(2, name='d')(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.w = self.param('w', fnn.initializers.ones, (2,))
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,))
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,))
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    def __call__(self, x):
        return self.variable('s', 'w', jnp.zeros, (2,)).value
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, x):
        self.e = fnn.Dense(2)
        return self.e(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.e = fnn.Dense(2)
        return self.e(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    features: int = 2
    @fnn.compact
    def __call__(self, x):
        self.features = 3
        return x
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='a/b')(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='')(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        fnn.Dense(2, name='dup')(x)
        return self.param('dup', fnn.initializers.ones, (1,))
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.param('dup', fnn.initializers.ones, (1,))
        return fnn.Dense(2, name='dup')(x)
out = M().init(K0, jnp.ones(2))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
        self.e = self.d
    def __call__(self, x):
        return self.e(x)
out = lf_shapes(M().init(K0, jnp.ones(2)))
""",
        """
class M(fnn.Module):
    def setup(self):
        self.ds = [fnn.Dense(2), fnn.Dense(2)]
    def __call__(self, x):
        return self.ds[1](x)
out = lf_shapes(M().init(K0, jnp.ones(2)))
""",
        """
class M(fnn.Module):
    def setup(self):
        pass
    def __call__(self, x):
        return self.nothere
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    def setup(self):
        raise ValueError('from setup')
    def __call__(self, x):
        return x
out = M().init(K0, 1.0)
""",
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, x):
        return x
out = M().init(K0, 1.0), M().d
""",
        """
class M(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
out = M().d
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,))
out = M().apply({'params': {'w': jnp.ones(3)}}, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,))
out = M().apply({'params': {'v': jnp.ones(2)}}, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,), jnp.float32)
out = M().apply({'params': {'w': jnp.ones(2, jnp.int32)}}, 0)
""",
        # param with boxed metadata
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        w = self.param('w', fnn.with_partitioning(fnn.initializers.ones, ('a', None)), (2, 3))
        return w
v = M().init(K0, 0)
out = v, M().apply(v, 0), fnn.get_partition_spec(v)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        w = self.param('w', fnn.with_partitioning(fnn.initializers.ones, ('a', None)), (2, 3), unbox=False)
        return type(w).__name__, w.names
out = M().init_with_output(K0, 0)[0]
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        w = self.param('w', fnn.with_logical_partitioning(fnn.initializers.zeros, ('embed', 'mlp')), (2, 3))
        return w
v = M().init(K0, 0)
out = v, lf_spec(fnn.get_partition_spec(v))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        w = self.param('w', fnn.with_logical_partitioning(fnn.initializers.zeros, ('embed', 'mlp'), rules=(('embed', 'data'),)), (2, 3))
        return w
v = M().init(K0, 0)
out = lf_spec(fnn.get_partition_spec(v))
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        v = self.variable('stats', 'w', fnn.with_partitioning(fnn.initializers.ones, ('a',)), None, (3,))
        return v.value
out = M().init_with_output(K0, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.with_partitioning(fnn.initializers.ones, ('a', 'b', 'c')), (2, 3))
out = M().init(K0, 0)
""",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b'))",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).unbox(), tuple(fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).get_partition_spec())",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).replace_boxed(jnp.zeros(6))",
        "out = fnn.LogicallyPartitioned(jnp.ones((2, 3)), ('embed', 'mlp'))",
        "out = tuple(fnn.LogicallyPartitioned(jnp.ones((2, 3)), ('embed', 'mlp'), rules=(('embed', 'x'),)).get_partition_spec())",
        "out = tuple(fnn.LogicallyPartitioned(jnp.ones((2, 3)), ('embed', 'mlp')).get_partition_spec())",
        "out = jax.tree.leaves(fnn.Partitioned(jnp.ones(2), ('a',)))",
        "out = jax.tree.map(lambda a: a * 2, {'w': fnn.Partitioned(jnp.ones(2), ('a',))})",
        "out = jax.tree.structure({'w': fnn.Partitioned(jnp.ones(2), ('a',))})",
        "out = fnn.unbox({'w': fnn.Partitioned(jnp.ones(2), ('a',)), 'b': jnp.zeros(1)})",
        "out = fnn.meta.unbox({'w': fnn.LogicallyPartitioned(jnp.ones(2), ('embed',))})",
        "out = fnn.meta.replace_boxed({'w': fnn.Partitioned(jnp.ones(2), ('a',)), 'b': jnp.zeros(1)}, {'w': jnp.full(2, 5.0), 'b': jnp.ones(1)})",
        "out = lf_spec(fnn.get_partition_spec({'w': fnn.Partitioned(jnp.ones((2, 2)), (None, 'model')), 'b': jnp.zeros(1)}))",
        "out = lf_spec(fnn.get_partition_spec({'w': fnn.LogicallyPartitioned(jnp.ones((2, 2)), ('embed', 'mlp'))}))",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).add_axis(0, {fnn.PARTITION_NAME: 'layer'})",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).remove_axis(0, {fnn.PARTITION_NAME: 'a'})",
        "out = fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).value.shape, fnn.Partitioned(jnp.ones((2, 3)), ('a', 'b')).mesh",
        "out = fnn.with_partitioning(fnn.initializers.ones, ('a', 'b'))(K0, (2, 2))",
        "out = fnn.with_logical_partitioning(fnn.initializers.zeros, ('x',))(K0, (3,))",
        "out = fnn.PARTITION_NAME",
        # logical axis rules
        "out = tuple(fnn.logical_to_mesh_axes(('batch', 'embed'), (('batch', 'data'), ('embed', 'model'))))",
        "out = tuple(fnn.logical_to_mesh_axes(('batch', 'embed')))",
        "out = tuple(fnn.logical_to_mesh_axes(('batch', 'batch'), (('batch', 'data'),)))",
        "out = tuple(fnn.logical_to_mesh_axes(('a', 'b'), (('a', 'data'), ('b', 'data'))))",
        "out = tuple(fnn.logical_to_mesh_axes(('a', None, 'c'), (('a', 'x'), ('c', None))))",
        "out = tuple(fnn.logical_to_mesh_axes(('a', 'b'), (('a', ('x', 'y')), ('b', 'z'))))",
        "out = tuple(fnn.logical_to_mesh_axes(None, (('a', 'x'),)))",
        """
with fnn.logical_axis_rules((('embed', 'model'), ('mlp', 'data'))):
    a = fnn.get_logical_axis_rules()
    b = fnn.logical_to_mesh_axes(('embed', 'mlp'))
out = a, tuple(b), fnn.get_logical_axis_rules()
""",
        """
with fnn.logical_axis_rules((('embed', 'model'),)):
    with fnn.logical_axis_rules((('mlp', 'data'),)):
        inner = fnn.get_logical_axis_rules()
    outer = fnn.get_logical_axis_rules()
out = inner, outer
""",
        """
fnn.set_logical_axis_rules((('embed', 'x'),))
a = fnn.get_logical_axis_rules()
fnn.set_logical_axis_rules(())
out = a, fnn.get_logical_axis_rules()
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.with_logical_partitioning(fnn.initializers.ones, ('embed', 'mlp')), (2, 3))
with fnn.logical_axis_rules((('embed', 'data'), ('mlp', 'model'))):
    v = M().init(K0, 0)
    spec = fnn.get_partition_spec(v)
out = lf_spec(spec), lf_spec(fnn.logical_to_mesh(fnn.get_partition_spec(v), (('embed', 'data'),)))
""",
        "out = fnn.logical_to_mesh_sharding",
        "out = fnn.with_logical_constraint(jnp.ones(2), ('embed',))",
        "out = fnn.with_logical_constraint(jnp.ones(2), ('embed',), rules=(('embed', None),))",
        # misc API the brief lists
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.scope is not None, type(self.scope).__name__
out = M().apply({}, 0)
""",
        """
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        p = self.param('p', lambda k, s: random.normal(k, s), (2,))
        q = self.param('q', lambda k, s: random.normal(k, s), (2,))
        return p, q
out = M().init(K0, 0), M().init(random.PRNGKey(0), 0)
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self):
        return self.param('p', fnn.initializers.normal(1.0), (2,))
class M(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return Inner(name='a')(), Inner(name='b')(), Inner()()
out = M().init(K0, 0)
""",
        """
class M(fnn.Module):
    def setup(self):
        self.a = self.param('a', fnn.initializers.normal(1.0), (2,))
        self.sub = fnn.Dense(2)
        self.b = self.param('b', fnn.initializers.normal(1.0), (2,))
    def __call__(self, x):
        return self.sub(x)
out = M().init(K0, jnp.ones(3))
""",
    ]
    return c


def _statements(src: str) -> str:
    """A one-line case as the tester runs it: ``out = expr`` as the expression, and
    ``a = ...; out = ...`` as statements on their own lines."""
    if "\n" in src:
        return src
    if "; " in src:
        return src.replace("; ", "\n")
    return src.removeprefix("out = ")


def cases() -> list[str]:
    return [_statements(c) for c in _scan() + _vmap() + _remat_jit() + _control() + _module_api()]
