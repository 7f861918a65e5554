"""Flax's module API (`flax_module_api`): init/apply with method=/mutable=/
capture_intermediates, sow and perturb, bind/unbind, variables, naming, sharing,
Sequential, tabulate and the lifted transforms nn.scan/vmap/remat/jit/while_loop/cond/
switch/map_variables/custom_vjp.
"""

# ruff: noqa: E501

FLAX_MODS = """
class MLP(fnn.Module):
    feats: tuple = (3, 2)
    @fnn.compact
    def __call__(self, x):
        for i, f in enumerate(self.feats):
            x = fnn.Dense(f, name=f'd{i}')(x)
            if i < len(self.feats) - 1:
                x = fnn.relu(x)
        self.sow('intermediates', 'last', x)
        return x
class SetupMLP(fnn.Module):
    def setup(self):
        self.d0 = fnn.Dense(3)
        self.layers = [fnn.Dense(2), fnn.Dense(1)]
        self.w = self.param('w', fnn.initializers.ones, (1,))
    def __call__(self, x):
        x = self.d0(x)
        for l in self.layers:
            x = l(x)
        return x * self.w
    def encode(self, x):
        return self.d0(x)
class Counter(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        c = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        if not self.is_initializing():
            c.value += 1
        return x + c.value
class Cell(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        h = fnn.Dense(c.shape[-1], name='h')(c) + x
        return h, h * 2
class Noisy(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x + random.normal(self.make_rng('noise'), x.shape)
"""

X2 = "jnp.arange(8.0).reshape(2, 4) / 4"


def _shapes(expr: str) -> str:
    return f"jax.tree.map(lambda a: (a.shape, str(a.dtype)), {expr})"


def cases() -> list[str]:
    m = FLAX_MODS
    c = [
        # init / apply / init_with_output with method=, mutable=, capture_intermediates
        m + f"out = MLP().init(K0, {X2})",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2})",
        m + f"out = MLP().init_with_output(K0, {X2})",
        m + f"out = MLP().init(K0, {X2}, mutable=['params'])",
        m + f"out = MLP().init(K0, {X2}, mutable=False)",
        m + f"out = MLP().init(K0, {X2}, mutable=True)",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, mutable=['intermediates'])",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, mutable=True)",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, capture_intermediates=True)",
        m
        + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, capture_intermediates=True, mutable=['intermediates'])",
        m
        + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, capture_intermediates=lambda mdl, name: isinstance(mdl, fnn.Dense), mutable=['intermediates'])",
        m
        + f"v = MLP().init(K0, {X2}); out = MLP().apply({{'params': v['params']}}, {X2}, mutable=['intermediates'])",
        m + f"out = MLP(feats=(2,)).init({{'params': K1}}, {X2})",
        m + f"out = MLP(feats=(2,)).init(random.PRNGKey(3), {X2})",
        m + f"out = MLP(feats=(2,)).init(3, {X2})",
        m + f"out = MLP(feats=(2,)).init(K0, ({X2}).astype(jnp.float16))",
        m + "out = MLP(feats=(2,)).init(K0, jnp.arange(4))",
        m + f"out = SetupMLP().init(K0, {X2})",
        m + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().apply(v, {X2}, method='encode')",
        m
        + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().apply(v, {X2}, method=SetupMLP.encode)",
        m
        + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().apply(v, {X2}, method=lambda mdl, x: mdl.layers[0](mdl.d0(x)))",
        m + f"out = SetupMLP().init(K0, {X2}, method='encode')",
        m + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().apply(v, {X2}, method='nope')",
        m + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().apply(v, {X2}, method=3)",
        m + f"out = SetupMLP().apply({{}}, {X2})",
        m + f"out = MLP().apply({{'params': {{}}}}, {X2})",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, ({X2})[:, :3])",
        m + "out = Counter().init(K0, 1.0)",
        m + "v = Counter().init(K0, 1.0); out = Counter().apply(v, 1.0, mutable=['counter'])",
        m + "v = Counter().init(K0, 1.0); out = Counter().apply(v, 1.0)",
        m
        + "v = Counter().init(K0, 1.0); y, u = Counter().apply(v, 1.0, mutable=['counter']); out = Counter().apply(u, 1.0, mutable='counter')",
        m + "out = Noisy().init({'params': K0, 'noise': K1}, jnp.zeros(3))",
        m + "out = Noisy().apply({}, jnp.zeros(3), rngs={'noise': K1})",
        m + "out = Noisy().apply({}, jnp.zeros(3))",
        m + "out = Noisy().apply({}, jnp.zeros(3), rngs={'noise': 1})",
        m + "out = Noisy().init(K0, jnp.zeros(3))",
        m + "out = Noisy().apply({}, jnp.zeros(3), rngs={'noise': random.PRNGKey(1)})",
        m + f"out = MLP().init(K0, {X2}, rngs={{'params': K1}})",
        m + f"out = fnn.init(lambda mdl, x: mdl(x), MLP(feats=(2,)))(K0, {X2})",
        m
        + f"out = fnn.apply(lambda mdl, x: mdl(x) * 2, MLP(feats=(2,)))(MLP(feats=(2,)).init(K0, {X2}), {X2})",
        m + f"out = fnn.init_with_output(lambda mdl, x: mdl(x), MLP(feats=(2,)))(K0, {X2})",
        m + f"out = jax.tree.map(jnp.shape, jax.eval_shape(MLP().init, K0, {X2}))",
        m + f"out = {_shapes(f'MLP().lazy_init(K0, {X2})')}",
        # sow / perturb / intermediates
        """
class S(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'a', x)
        self.sow('intermediates', 'a', x * 2)
        self.sow('other', 'b', x.sum(), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        return x
out = S().apply({}, jnp.ones(2), mutable=True)
""",
        """
class S(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        r = self.sow('intermediates', 'a', x)
        return r
out = S().apply({}, jnp.ones(2)), S().apply({}, jnp.ones(2), mutable=['intermediates'])
""",
        """
class S(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(2)(x)
        x = self.perturb('h', x)
        return (x ** 2).sum()
m = S()
v = m.init(K0, jnp.ones(3))
out = v, jax.grad(lambda v: m.apply(v, jnp.ones(3)))(v)
""",
        """
class S(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.perturb('h', x * 3)
out = S().init(K0, jnp.ones(2)), S().apply({}, jnp.ones(2))
""",
        """
class S(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.sow('intermediates', 'a', x, init_fn=lambda: [], reduce_fn=lambda a, b: a + [b])
        return x
out = S().apply({}, 2.0, mutable='intermediates')
""",
        m
        + f"v = MLP().init(K0, {X2}); _, st = MLP().apply(v, {X2}, capture_intermediates=True); out = jax.tree.map(jnp.shape, st)",
        m
        + f"v = SetupMLP().init(K0, {X2}); _, st = SetupMLP().apply(v, {X2}, capture_intermediates=True); out = jax.tree.map(jnp.shape, st)",
        # bind / unbind / variables / put_variable / has_variable / is_mutable_collection
        m + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); out = b({X2}), b.variables",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); mdl, vs = b.unbind(); out = vs, type(mdl).__name__, mdl.scope is None",
        m
        + f"v = SetupMLP().init(K0, {X2}); b = SetupMLP().bind(v); out = b.d0.variables, b.layers[1].variables",
        m + f"v = SetupMLP().init(K0, {X2}); b = SetupMLP().bind(v); out = b.encode({X2})",
        m + "out = MLP().variables",
        m + "out = SetupMLP().d0",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); out = b.is_mutable_collection('params'), b.is_mutable_collection('intermediates')",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v, mutable=['intermediates']); out = b.is_mutable_collection('params'), b.is_mutable_collection('intermediates'), b({X2}), b.variables.get('intermediates')",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); out = b.has_variable('params', 'd0'), b.has_variable('params', 'x'), b.has_variable('batch', 'd0')",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); out = b.get_variable('params', 'd0'), b.get_variable('params', 'zz', 5)",
        m + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); b.put_variable('params', 'z', 1.0)",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v, mutable=True); b.put_variable('params', 'z', 1.0); out = b.variables",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v, mutable=['stats']); b.put_variable('stats', 'z', jnp.ones(2)); out = b.variables['stats']",
        m
        + f"v = MLP().init(K0, {X2}); b = MLP().bind(v); out = b.is_initializing(), b.is_mutable_collection('x')",
        m
        + f"out = MLP().init(K0, {X2}, method=lambda mdl, x: (mdl.is_initializing(), mdl(x))[0] and {{}})",
        m + f"v = MLP().init(K0, {X2}); out = MLP().bind(v).path",
        m
        + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().bind(v).layers[1].path, SetupMLP().bind(v).d0.name",
        m + f"v = SetupMLP().init(K0, {X2}); out = SetupMLP().bind(v).d0.scope.path",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        v = self.variable('state', 'v', jnp.zeros, (2,))
        out = (v.value, self.has_variable('state', 'v'), self.is_mutable_collection('state'))
        v.value = v.value + x
        return out
out = P().init(K0, jnp.ones(2)), P().apply({'state': {'v': jnp.ones(2)}}, jnp.ones(2), mutable=['state'])
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        v = self.variable('state', 'v', jnp.zeros, (2,))
        v.value = v.value + x
        return v.value
out = P().apply({'state': {'v': jnp.ones(2)}}, jnp.ones(2))
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.param('w', fnn.initializers.zeros, (2,))
        return self.param('w', fnn.initializers.zeros, (2,))
out = P().init(K0, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.param('w', fnn.initializers.zeros, (2,))
        return self.variable('params', 'w', jnp.zeros, (2,)).value
out = P().init(K0, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', lambda k, s, d: jnp.ones(s, d), (2,), jnp.float16)
out = P().init(K0, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', lambda k: random.uniform(k, (2,)), unbox=True)
out = P().init(K0, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (3,))
out = P().apply({'params': {'w': jnp.ones(2)}}, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param(3, fnn.initializers.ones, (3,))
out = P().init(K0, 1.0)
""",
        """
class P(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.param('w', fnn.initializers.ones, (2,)) + x
out = P().init(K0, 1.0), P().init(K0, 1.0, method=lambda m, x: x)
""",
        # setup vs compact, naming
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2)(x) + fnn.Dense(2)(x) + fnn.Dense(2, name='named')(x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='a')(x) + fnn.Dense(2, name='a')(x)
out = A().init(K0, jnp.ones(3))
""",
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    @fnn.compact
    def __call__(self, x):
        return self.d(x) + fnn.Dense(2)(x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    def setup(self):
        self.ds = {'u': fnn.Dense(2), 'v': fnn.Dense(1)}
        self.t = (fnn.Dense(3),)
    def __call__(self, x):
        return self.ds['u'](x), self.ds['v'](x), self.t[0](x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, x):
        return fnn.Dense(2)(x)
out = A().init(K0, jnp.ones(3))
""",
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2, name='x')
    def __call__(self, x):
        return self.d(x)
out = A().init(K0, jnp.ones(3))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x
    @fnn.compact
    def other(self, x):
        return x
out = A().init(K0, 1.0)
""",
        """
class A(fnn.Module):
    def setup(self):
        self.w = self.param('w', fnn.initializers.ones, (2,))
        self.v = self.variable('consts', 'v', lambda: jnp.full((2,), 3.0))
    def __call__(self, x):
        return self.w * x + self.v.value
out = A().init_with_output(K0, 2.0)
""",
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
out = A().init(K0, jnp.ones(3), method=lambda m, x: m.d(x))
""",
        """
class A(fnn.Module):
    n: int = 2
    def __call__(self, x):
        return x * self.n
out = A(3).apply({}, 2.0), A(n=4).n, repr(A(5))
""",
        """
class A(fnn.Module):
    n: int
    def __call__(self, x):
        return x * self.n
out = A()
""",
        """
class B(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2)(x)
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return B()(x) + B(name='bee')(x) + B()(x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        return d(x) + d(x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        return d(x), d.name, d.parent is self
out = A().init_with_output(K0, jnp.ones(3))[0][1:]
""",
        """
class A(fnn.Module):
    def __call__(self, x):
        return fnn.Dense(2)(x)
out = A().init(K0, jnp.ones(3))
""",
        """
class A(fnn.Module):
    def setup(self):
        self.x = 1
        self.x = 2
    def __call__(self, x):
        return x
out = A().init(K0, 1.0)
""",
        "out = fnn.Dense(2).name, fnn.Dense(2, name='q').name",
        "out = fnn.Dense(2, parent=None).init(K0, jnp.ones(3))",
        "fnn.Dense(2).init(K0, jnp.ones(3), 5)",
        "fnn.Dense(2)(jnp.ones(3))",
        "fnn.Dense(2).param('w', fnn.initializers.ones, (1,))",
        "fnn.Dense(2).make_rng('params')",
        # param sharing and share_scope
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2)
    def __call__(self, x):
        return self.d(self.d(x))
out = A().init_with_output(K0, jnp.ones(2))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(3, name='shared')
        return d(x), d(x * 2)
out = A().init_with_output(K0, jnp.ones(3))
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='k')(x)
class A(fnn.Module):
    def setup(self):
        self.i = Inner()
        fnn.share_scope(self, self.i)
    def __call__(self, x):
        return self.i(x)
out = A().init(K0, jnp.ones(3))
""",
        """
class Inner(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, name='k')(x)
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        i = Inner()
        fnn.share_scope(self, i)
        return i(x) + fnn.Dense(2, name='j')(x)
out = jax.tree.map(jnp.shape, A().init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    sub: fnn.Module
    @fnn.compact
    def __call__(self, x):
        return self.sub(x) + self.sub(x)
out = jax.tree.map(jnp.shape, A(fnn.Dense(2)).init(K0, jnp.ones(3)))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        e = fnn.Embed(4, 3, name='e')
        return e.attend(e(jnp.array([1, 2])))
out = A().init_with_output(K0, 0.0)
""",
        # Sequential
        "v = fnn.Sequential([fnn.Dense(3), fnn.relu, fnn.Dense(2)]).init(K0, jnp.ones(4)); out = v",
        "out = fnn.Sequential([fnn.Dense(3), lambda x: (x, x * 2)]).init_with_output(K0, jnp.ones(4))[0]",
        "out = fnn.Sequential([lambda x: (x, x * 2), lambda a, b: a + b]).apply({}, jnp.ones(2))",
        "out = fnn.Sequential([lambda x: {'a': x}, lambda a: a * 3]).apply({}, jnp.ones(2))",
        "out = fnn.Sequential([]).apply({}, jnp.ones(2))",
        "out = fnn.Sequential(fnn.Dense(2)).init(K0, jnp.ones(2))",
        "out = fnn.Sequential([fnn.Dense(2), fnn.Sequential([fnn.Dense(1)])]).init(K0, jnp.ones(2))",
        "out = fnn.Sequential([fnn.Dense(2)]).init(K0, jnp.ones(2), method='__call__')",
        # lifted transforms: scan
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=0, out_axes=0)
v = S().init(K0, jnp.ones(2), jnp.ones((3, 2)))
out = v, S().apply(v, jnp.ones(2), jnp.ones((3, 2)))
""",
        m
        + """
S = fnn.scan(Cell, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
v = S().init(K0, jnp.ones(2), jnp.ones((3, 2)))
out = v, S().apply(v, jnp.ones(2), jnp.ones((3, 2)))
""",
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, reverse=True)
v = S().init(K0, jnp.ones(2), jnp.arange(6.0).reshape(3, 2))
out = S().apply(v, jnp.ones(2), jnp.arange(6.0).reshape(3, 2))
""",
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=1, out_axes=1)
v = S().init(K0, jnp.ones(2), jnp.arange(6.0).reshape(2, 3))
out = S().apply(v, jnp.ones(2), jnp.arange(6.0).reshape(2, 3))
""",
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, unroll=2)
v = S().init(K0, jnp.ones(2), jnp.ones((3, 2)))
out = jax.tree.map(jnp.shape, v), S().apply(v, jnp.ones(2), jnp.ones((3, 2)))[1].shape
""",
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=0)
v = S().init(K0, jnp.ones(2), jnp.ones((3, 2)))
out = S().apply(v, jnp.ones(2), jnp.ones((4, 2)))[1].shape
""",
        m
        + """
S = fnn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, length=4)
out = S().init(K0, jnp.ones(2), jnp.ones((3, 2)))
""",
        m
        + """
S = fnn.scan(Cell, variable_axes={'params': 0}, split_rngs={'params': False}, length=2)
v = S().init(K0, jnp.ones(2), jnp.ones((2, 2)))
out = v
""",
        """
class C2(fnn.Module):
    @fnn.compact
    def __call__(self, c, x, w):
        return c + x * w, c
S = fnn.scan(C2, in_axes=(0, fnn.broadcast), variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, 0.0, jnp.arange(3.0), 2.0)
""",
        """
class C3(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        n = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        n.value += 1
        return c + x, n.value
S = fnn.scan(C3, variable_carry='counter', split_rngs={'params': False})
v = S().init(K0, 0.0, jnp.arange(3.0))
out = v, S().apply(v, 0.0, jnp.arange(3.0), mutable=['counter'])
""",
        """
class C4(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        self.sow('intermediates', 'c', c)
        return c + x, None
S = fnn.scan(C4, variable_axes={'intermediates': 0}, split_rngs={'params': False})
out = S().apply({}, 0.0, jnp.arange(3.0), mutable=['intermediates'])
""",
        """
class C5(fnn.Module):
    @fnn.compact
    def __call__(self, c, x):
        return c + random.uniform(self.make_rng('noise')), x
S = fnn.scan(C5, split_rngs={'noise': True}, variable_broadcast='params')
a = S().apply({}, 0.0, jnp.arange(3.0), rngs={'noise': K1})
S2 = fnn.scan(C5, split_rngs={'noise': False}, variable_broadcast='params')
b = S2().apply({}, 0.0, jnp.arange(3.0), rngs={'noise': K1})
out = a[0].shape, b[0].shape, bool(a[0] != b[0])
""",
        """
class Stack(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        S = fnn.scan(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, length=3, in_axes=fnn.broadcast)
        return S(2, name='layers')(x)
out = jax.tree.map(jnp.shape, Stack().init(K0, jnp.ones(2)))
""",
        """
class Body(fnn.Module):
    @fnn.compact
    def __call__(self, c, _):
        return fnn.Dense(2)(c), None
class Stack(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.scan(Body, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)(name='s')(x, None)
v = Stack().init(K0, jnp.ones(2))
out = v, Stack().apply(v, jnp.ones(2))
""",
        """
def body(mdl, c, x):
    return mdl(c) + x, c
scan_fn = fnn.scan(body, variable_broadcast='params', split_rngs={'params': False})
class A(fnn.Module):
    @fnn.compact
    def __call__(self, c, xs):
        return scan_fn(fnn.Dense(2), c, xs)
v = A().init(K0, jnp.ones(2), jnp.ones((3, 2)))
out = v, A().apply(v, jnp.ones(2), jnp.ones((3, 2)))
""",
        # vmap
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=0)
v = V(2).init(K0, jnp.ones((3, 4)))
out = v, V(2).apply(v, jnp.ones((3, 4)))
""",
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=0)
v = V(2).init(K0, jnp.ones((3, 4)))
out = v, V(2).apply(v, jnp.ones((3, 4)))
""",
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': 1}, split_rngs={'params': True}, in_axes=1, out_axes=1)
v = V(2).init(K0, jnp.ones((4, 3)))
out = jax.tree.map(jnp.shape, v), V(2).apply(v, jnp.ones((4, 3))).shape
""",
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, axis_size=2, in_axes=None)
v = V(2).init(K0, jnp.ones(4))
out = jax.tree.map(jnp.shape, v), V(2).apply(v, jnp.ones(4)).shape
""",
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})
out = V(2).init(K0, jnp.ones((3, 4)), jnp.ones((2, 4)))
""",
        """
V = fnn.vmap(fnn.Dense, variable_axes={'params': 0}, split_rngs={'params': True})
out = V(2).init(K0, 1.0)
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.vmap(lambda mdl, x: mdl(x), variable_axes={'params': None}, split_rngs={'params': False})(fnn.Dense(2), x)
        return x
v = A().init(K0, jnp.ones((3, 4)))
out = v, A().apply(v, jnp.ones((3, 4)))
""",
        """
class N(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x + random.normal(self.make_rng('noise'), ())
V = fnn.vmap(N, variable_axes={}, split_rngs={'noise': True})
a = V().apply({}, jnp.zeros(3), rngs={'noise': K1})
V2 = fnn.vmap(N, variable_axes={}, split_rngs={'noise': False})
b = V2().apply({}, jnp.zeros(3), rngs={'noise': K1})
out = a.shape, bool(a[0] != a[1]), bool(b[0] == b[1])
""",
        """
class Norm(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return x - lax.pmean(x, 'b')
V = fnn.vmap(Norm, variable_axes={}, split_rngs={}, axis_name='b')
out = V().apply({}, jnp.arange(3.0))
""",
        # remat / checkpoint
        """
R = fnn.remat(fnn.Dense)
v = R(2).init(K0, jnp.ones(3))
out = v, R(2).apply(v, jnp.ones(3)), jax.grad(lambda v: R(2).apply(v, jnp.ones(3)).sum())(v)
""",
        """
R = fnn.checkpoint(fnn.Dense, prevent_cse=False)
v = R(2).init(K0, jnp.ones(3))
out = R(2).apply(v, jnp.ones(3))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x, n):
        return fnn.Dense(2)(x) * n
R = fnn.remat(A, static_argnums=(2,))
v = R().init(K0, jnp.ones(3), 2)
out = R().apply(v, jnp.ones(3), 3)
""",
        """
R = fnn.remat(fnn.Dense, policy=jax.checkpoint_policies.nothing_saveable)
v = R(2).init(K0, jnp.ones(3))
out = jax.grad(lambda v: R(2).apply(v, jnp.ones(3)).sum())(v)
""",
        """
class A(fnn.Module):
    @fnn.remat
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2)(x)
v = A().init(K0, jnp.ones(3))
out = v, A().apply(v, jnp.ones(3))
""",
        # jit
        """
J = fnn.jit(fnn.Dense)
v = J(2).init(K0, jnp.ones(3))
out = jax.tree.map(jnp.shape, v), J(2).apply(v, jnp.ones(3)).shape
""",
        """
class A(fnn.Module):
    @fnn.jit
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2, kernel_init=fnn.initializers.ones)(x)
v = A().init(K0, jnp.ones(3))
out = v, A().apply(v, jnp.ones(3))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x, k):
        return x * k
J = fnn.jit(A, static_argnums=(2,))
out = J().apply({}, jnp.ones(2), 3)
""",
        # while_loop / cond / switch
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        def cond_fn(mdl, c):
            return c[0] < 3
        def body_fn(mdl, c):
            return (c[0] + 1, mdl.d(c[1]))
        self.d = fnn.Dense(2, kernel_init=fnn.initializers.ones, bias_init=fnn.initializers.ones) if False else None
        return x
out = A().apply({}, 1.0)
""",
        """
class A(fnn.Module):
    def setup(self):
        self.d = fnn.Dense(2, kernel_init=fnn.initializers.constant(0.5))
    def __call__(self, x):
        self.d(x)
        def cond_fn(mdl, c):
            return c[0] < 3
        def body_fn(mdl, c):
            return (c[0] + 1, mdl.d(c[1]))
        return fnn.while_loop(cond_fn, body_fn, self, (0, x))
v = A().init(K0, jnp.ones(2))
out = v, A().apply(v, jnp.ones(2))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        n = self.variable('state', 'n', lambda: jnp.zeros((), jnp.int32))
        def cond_fn(mdl, c):
            return c < 5.0
        def body_fn(mdl, c):
            mdl.variables  # touch
            n.value += 1
            return c * 2
        return fnn.while_loop(cond_fn, body_fn, self, x, carry_variables='state')
v = A().init(K0, 1.0)
out = A().apply(v, 1.0, mutable=['state'])
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        d1 = fnn.Dense(2, name='d1')
        d2 = fnn.Dense(2, name='d2')
        return fnn.cond(pred, lambda m, x: d1(x), lambda m, x: d2(x), self, x)
v = A().init(K0, jnp.ones(3), True)
out = jax.tree.map(jnp.shape, v), A().apply(v, jnp.ones(3), True), A().apply(v, jnp.ones(3), False)
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x, i):
        ds = [fnn.Dense(2, name=f'd{k}') for k in range(3)]
        branches = [lambda m, x, d=d: d(x) for d in ds]
        return fnn.switch(i, branches, self, x)
v = A().init(K0, jnp.ones(3), 0)
out = jax.tree.map(jnp.shape, v), [A().apply(v, jnp.ones(3), i) for i in (0, 2, 5, -1)]
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x, pred):
        return fnn.cond(pred, lambda m, x: x * 2, lambda m, x: x.astype(jnp.int32), self, x)
out = A().apply({}, jnp.ones(3), True)
""",
        # map_variables
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        M = fnn.map_variables(fnn.Dense, 'params', trans_in_fn=lambda v: jax.tree.map(lambda a: a * 2, v), init=True)
        return M(2, kernel_init=fnn.initializers.ones)(x)
v = A().init(K0, jnp.ones(3))
out = v, A().apply(v, jnp.ones(3))
""",
        """
def sym(vs):
    return jax.tree.map(lambda a: jnp.triu(a) + jnp.triu(a, 1).T if a.ndim == 2 else a, vs)
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.map_variables(fnn.Dense, 'params', sym, init=True)(3, use_bias=False)(x)
v = A().init(K0, jnp.ones(3))
out = v, A().apply(v, jnp.eye(3))
""",
        """
M = fnn.map_variables(fnn.Dense, 'params', trans_out_fn=lambda v: v, mutable=True, init=True)
v = M(2).init(K0, jnp.ones(3))
out = jax.tree.map(jnp.shape, v)
""",
        # custom_vjp
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        def f(mdl, x):
            return mdl(x)
        def fwd(mdl, x):
            return fnn.vjp(f, mdl, x)
        def bwd(vjp_fn, y_t):
            params_t, x_t = vjp_fn(y_t)
            params_t = jax.tree.map(jnp.sign, params_t)
            return params_t, x_t
        sign_grad = fnn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)
        return sign_grad(fnn.Dense(2), x)
x = jnp.arange(3.0)
v = A().init(K0, x)
out = jax.grad(lambda v: A().apply(v, x).sum())(v)
""",
        # grad / value_and_grad / jvp / vjp lifted
        *(
            f"""
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        def f(mdl, x):
            return mdl(x).sum()
        return fnn.{lifted}(f, d, x)
v = A().init(K0, jnp.ones(3))
out = A().apply(v, jnp.ones(3))
"""
            for lifted in ("grad", "value_and_grad")
        ),
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        y, bwd = fnn.vjp(lambda mdl, x: mdl(x), d, x)
        return y, bwd(jnp.ones_like(y))
v = A().init(K0, jnp.ones(3))
out = A().apply(v, jnp.ones(3))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        d = fnn.Dense(2)
        d(x)
        return fnn.jvp(lambda mdl, x: mdl(x), d, (x,), (jnp.ones_like(x),), {'params': jax.tree.map(jnp.zeros_like, d.variables['params'])})
v = A().init(K0, jnp.ones(3))
out = A().apply(v, jnp.ones(3))
""",
        # tabulate
        "out = fnn.tabulate(fnn.Dense(2), K0)(jnp.ones(3)).count('params')",
        "out = fnn.tabulate(fnn.Sequential([fnn.Dense(3), fnn.Dense(2)]), K0, compute_flops=False)(jnp.ones((1, 4))).count('Dense')",
        "out = 'Total Parameters' in fnn.Dense(2).tabulate(K0, jnp.ones(3))",
        m + f"out = [l.strip() for l in MLP().tabulate(K0, {X2}).splitlines() if 'Total' in l]",
        # module misc
        "out = fnn.Dense(2).clone(features=5).features",
        "out = fnn.Dense(2).replace(use_bias=False).use_bias",
        "out = fnn.Dense(2) == fnn.Dense(2), hash(fnn.Dense(2)) == hash(fnn.Dense(2))",
        "out = fnn.Dense(2).copy(name='z').name",
        "out = repr(fnn.Dense(2))",
        "out = repr(fnn.Sequential([fnn.Dense(2)]))",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, rngs=None)",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v['params'], {X2})",
        m
        + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, mutable=['params'])[1]['params'].keys()",
        m + f"v = MLP().init(K0, {X2}); out = MLP().apply(v, {X2}, unknown=1)",
        m + f"v = MLP().init(K0, {X2}); out = type(v).__name__, type(v['params']).__name__",
        m + f"out = type(MLP().init(K0, {X2}, mutable=['params'])).__name__",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.variables
out = A().apply({'params': {'a': 1.0}, 'other': {'b': 2.0}}, 0)
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.put_variable('params', 'a', 2.0)
        return x
out = A().init(K0, 0)
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        self.put_variable('params', 'a', 2.0)
        return x
out = A().apply({'params': {'a': 1.0}}, 0)
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.make_rng('params').shape, self.make_rng().shape
out = A().init_with_output(K0, 0)[0]
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return random.key_data(self.make_rng('dropout'))
out = A().apply({}, 0, rngs={'dropout': K0}), A().apply({}, 0, rngs={'dropout': K1})
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        a = random.key_data(self.make_rng('dropout'))
        b = random.key_data(self.make_rng('dropout'))
        return a, b
out = A().apply({}, 0, rngs={'dropout': K0})
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return self.has_rng('dropout'), self.has_rng('params')
out = A().apply({}, 0, rngs={'dropout': K0}), A().init(K0, 0, method=lambda m, x: {})
""",
        """
class A(fnn.Module):
    @fnn.nowrap
    def helper(self, x):
        return x * 2
    @fnn.compact
    def __call__(self, x):
        return self.helper(fnn.Dense(2)(x))
v = A().init(K0, jnp.ones(3))
out = A().apply(v, jnp.ones(3))
""",
        """
class A(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        return fnn.Dense(2)(x)
with fnn.intercept_methods(lambda f, args, kwargs, ctx: f(*args, **kwargs) * 0 if ctx.method_name == '__call__' and isinstance(ctx.module, fnn.Dense) else f(*args, **kwargs)):
    v = A().init(K0, jnp.ones(3))
    out = A().apply(v, jnp.ones(3))
""",
        """
calls = []
def rec(f, args, kwargs, ctx):
    calls.append((type(ctx.module).__name__, ctx.method_name))
    return f(*args, **kwargs)
with fnn.intercept_methods(rec):
    fnn.Sequential([fnn.Dense(2), fnn.Dense(1)]).init(K0, jnp.ones(3))
out = calls
""",
        "out = fnn.merge_param('x', None, 2), fnn.merge_param('x', 1, None)",
        "fnn.merge_param('x', 1, 2)",
        "fnn.merge_param('x', None, None)",
        "out = fnn.Variable, fnn.Module.__name__",
        "out = fnn.share_scope.__name__",
    ]
    return c
