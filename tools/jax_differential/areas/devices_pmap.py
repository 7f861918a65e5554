"""Several devices (`devices_pmap`), both sides started with eight host CPU devices (`ENV`):
the device list and a device's attributes; `pmap` with its `in_axes`/`out_axes`, static and
donated arguments, axis names and sizes, `devices=`; the collectives over one and two named
axes, their dtypes and `axis_index_groups`; transformations of and inside a pmap; the Arrays a
pmap returns and `device_put` places (shardings, shards, devices, text); meshes,
`NamedSharding`, `shard_map` and the `make_array_from_*` constructors; the usual mistakes
(axis sizes that do not fit the devices, unbound axis names, bad `in_axes`, donating twice);
and data-parallel training as programs write it (`pu_*`, `PU_*`): flax.jax_utils and
common_utils on eight devices, device_put_replicated/sharded of pytrees, pytree `in_axes`,
gradients and their pmean over pytrees and nested axis names, per-device keys, collectives in
loops and conditionals, optax, a TrainState, DynamicScale and BatchNorm in pmapped steps.

Left knowingly (JAX 0.10.2's pmap is a shard_map over an internal mesh, and several of its
answers are that machinery's bugs or limits): negative `in_axes`/`out_axes`/
`static_broadcasted_argnums`, nested pmaps, an int `axis_name`, a tuple `axis_name`, complex
pmax/pmin, `pbroadcast`, partial `axis_index_groups`, a tiled all_gather of empty blocks and an
unbound name inside shard_map fail in JAX (numbax computes or raises its own error); sizes that
do not fit the devices, repeated `devices=`, inputs committed elsewhere and string arrays raise
JAX's internal sharding messages (numbax names the problem); shard_map's function name
`_rem_singleton`, `AssertionError`s of device_put, a Mesh of repeated axis names accepted, a
mesh's identity-based hash, `IndexError` of an out-of-range ppermute, and pmap of a str/object
(JAX: "requires at least one argument with a mapped axis"). numbax's own: a pmap result's type
is `StackedArray` until read (`Array` after; JAX `ArrayImpl`), computations on pmap results
are placed on the default device rather than following the pmap mesh (`.sharding`,
`.devices()`), `PartitionSpec` is a tuple subclass (JAX's `P` is not a tuple; repr, equality
and indexing agree), the module path of the `Device` and `Client` classes in texts, and the
first line of NamedSharding's argument errors (JAX's "'tuple' object has no attribute
'partitions'"; the classes agree). 49 of 816 differ (none of the data-parallel usage cases).
"""

# ruff: noqa: E501

ENV = {
    "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
    "NUMBAX_NUM_CPU_DEVICES": "8",
}

PRELUDE = """
PM8 = np.arange(8.0)
PM82 = np.arange(16.0).reshape(8, 2)
PM83 = np.arange(24.0).reshape(8, 3) / 4 - 2
PM248 = np.arange(16.0).reshape(2, 4, 2)
def pm_shards(a):
    # an Array's shards as plain data: device id, index, shape, values (device order)
    return sorted((s.device.id, str(s.index), s.data.shape, np.asarray(s.data).tolist())
                  for s in a.addressable_shards)
def pm_ids(a):
    return sorted(d.id for d in a.devices())
def pu_loss(p, x, y):
    return ((x @ p['w'] + p['b'] - y) ** 2).mean()
PU_P = {'w': jnp.arange(6.0).reshape(3, 2) / 6, 'b': jnp.zeros(2)}
PU_X = jnp.asarray(np.arange(48.0).reshape(8, 2, 3) / 48 - 0.5)
PU_Y = jnp.asarray(np.arange(32.0).reshape(8, 2, 2) / 32)
class PuMLP(fnn.Module):
    @fnn.compact
    def __call__(self, x, train: bool = False):
        x = fnn.Dense(4)(x)
        x = fnn.BatchNorm(use_running_average=not train, axis_name='batch')(x)
        x = fnn.Dropout(0.5, deterministic=not train)(x)
        return fnn.Dense(2)(jax.nn.relu(x))
"""


def _devices() -> list[str]:
    return [
        "jax.devices()",
        "jax.device_count()",
        "jax.local_device_count()",
        "jax.local_devices()",
        "jax.devices('cpu')",
        "jax.devices(backend='cpu')",
        "jax.local_devices(process_index=0)",
        "jax.process_index()",
        "jax.process_count()",
        "jax.default_backend()",
        "jax.devices()[3]",
        "repr(jax.devices()[7])",
        "str(jax.devices()[5])",
        "[d.id for d in jax.devices()]",
        "jax.devices()[2].id",
        "jax.devices()[2].platform",
        "jax.devices()[2].device_kind",
        "jax.devices()[2].process_index",
        "jax.devices()[6].host_id",
        "jax.devices()[1] == jax.devices()[1]",
        "jax.devices()[1] == jax.devices()[2]",
        "jax.devices()[1] is jax.devices()[1]",
        "hash(jax.devices()[4]) == hash(jax.devices()[4])",
        "len({jax.devices()[0], jax.devices()[0], jax.devices()[1]})",
        "sorted(jax.devices(), key=lambda d: -d.id)[0]",
        "type(jax.devices()[0]).__name__",
        "isinstance(jax.devices()[0], jax.Device)",
        "jax.devices('gpu')",
        "jax.devices('tpu')",
        "jax.local_devices(process_index=1)",
        "jax.devices()[8]",
        "jax.device_count('cpu')",
        "jax.local_device_count('cpu')",
        "jnp.ones(3).devices()",
        "jnp.ones(3).device",
        "jnp.ones(3).sharding",
        "jnp.ones(3).is_fully_replicated",
        "jnp.ones(3).is_fully_addressable",
        "jnp.ones(3).committed",
        "jax.device_put(jnp.ones(3), jax.devices()[5]).committed",
        "jnp.zeros(2, device=jax.devices()[3]).devices()",
        "jnp.arange(4, device=jax.devices()[2]).device",
        "jnp.ones(2, device=jax.devices()[3]).committed",
    ]


def _pmap_axes() -> list[str]:
    p = "jax.pmap"
    return [
        # JAX's tutorial and the README's examples
        f"{p}(lambda x: x ** 2)(np.arange(8))",
        f"{p}(lambda x: x ** 2)(jnp.arange(8))",
        f"{p}(lambda x: x / lax.psum(x, 'i'), axis_name='i')(np.arange(8.0))",
        f"{p}(lambda x: jnp.sin(x) * 2)(np.arange(8.0))",
        f"{p}(jnp.dot)(np.arange(24.0).reshape(8, 3), np.ones((8, 3)))",
        f"{p}(lambda x, y: x @ y)(np.arange(32.0).reshape(8, 2, 2), np.ones((8, 2, 2)))",
        f"{p}(lambda x: x)(np.arange(4))",
        f"{p}(lambda x: x)(np.arange(1))",
        f"{p}(lambda x: x * 2)(np.arange(16).reshape(8, 2))",
        f"{p}(lambda x: x.sum())(PM83)",
        f"{p}(lambda x: x.mean(), axis_name='b')(PM83)",
        f"{p}(jnp.linalg.norm)(PM83)",
        f"{p}(lambda x: x.T)(PM248.reshape(8, 2, 2))",
        f"{p}(lambda x: x.astype(jnp.int8))(PM8)",
        f"{p}(lambda x: (x, x * 2))(PM8)",
        f"{p}(lambda x: [x, {{'a': x + 1}}])(PM8)",
        f"{p}(lambda x: {{'a': x, 'b': (x, None)}})(PM8)",
        f"{p}(lambda x: None)(PM8)",
        f"{p}(lambda x: ())(PM8)",
        f"{p}(lambda x: 3)(PM8)",
        f"{p}(lambda x: 3.0)(PM8)",
        f"{p}(lambda x: jnp.float32(3))(PM8)",
        f"{p}(lambda x: jnp.zeros((2, 1)))(PM8)",
        f"{p}(lambda d: d['a'] * d['b'])({{'a': PM8, 'b': np.ones(8, np.int32)}})",
        f"{p}(lambda t: t[0] + t[1][0])((PM8, [PM8 * 10]))",
        f"{p}(lambda p: p.x - p.y)(Pt(PM8, np.ones(8)))",
        f"{p}(lambda p: Pt(p.y, p.x))(Pt(PM8, np.ones(8)))",
        f"{p}(lambda x: x, axis_size=8)(PM8)",
        f"{p}(lambda x: x, axis_size=4)(np.arange(4.0))",
        f"{p}(lambda x: x, axis_size=3)(np.arange(4.0))",
        # in_axes
        f"{p}(lambda x, y: x + y, in_axes=(0, None))(PM8, 10.0)",
        f"{p}(lambda x, y: x + y, in_axes=(0, None))(PM8, np.ones(3))",
        f"{p}(lambda x, y: x * y, in_axes=(None, 0))(np.arange(3.0), PM83)",
        f"{p}(lambda x: x, in_axes=1)(np.arange(16).reshape(2, 8))",
        f"{p}(lambda x: x, in_axes=-1)(np.arange(16).reshape(2, 8))",
        f"{p}(lambda x: x, in_axes=-2)(np.arange(16).reshape(8, 2))",
        f"{p}(lambda x: x.sum(), in_axes=2)(np.arange(64).reshape(2, 4, 8))",
        f"{p}(lambda x, y: x - y, in_axes=(1, 0))(np.arange(16.0).reshape(2, 8), PM82)",
        f"{p}(lambda x, y: x - y, in_axes=[1, 0])(np.arange(16.0).reshape(2, 8), PM82)",
        f"{p}(lambda d: d['a'] + d['b'], in_axes=({{'a': 0, 'b': None}},))({{'a': PM8, 'b': 1.0}})",
        f"{p}(lambda d: d['a'] + d['b'].sum(), in_axes=({{'a': 0, 'b': 1}},))({{'a': PM8, 'b': np.ones((3, 8))}})",
        f"{p}(lambda t, s: t[0] * s + t[1], in_axes=((0, None), None))((PM8, 5.0), 2.0)",
        f"{p}(lambda t: t[0] + t[1], in_axes=((0, 0),))((PM8, PM8))",
        f"{p}(lambda x, y: x, in_axes=(0, None))(PM8, None)",
        f"{p}(lambda x: x, in_axes=None)(PM8)",
        f"{p}(lambda x: x, in_axes=None, axis_size=8)(np.arange(3.0))",
        f"{p}(lambda x: x + lax.axis_index('i'), in_axes=None, axis_size=8, axis_name='i')(np.arange(2))",
        f"{p}(lambda x, y: x + y, in_axes=(None, None), axis_size=2)(1.0, 2.0)",
        f"{p}(lambda x: x, in_axes=(0,))(PM8)",
        f"{p}(lambda x: x, in_axes=[0])(PM8)",
        f"{p}(lambda *xs: sum(xs))(PM8, PM8, PM8)",
        f"{p}(lambda *xs: xs[0] * xs[1], in_axes=(0, None))(PM8, 3.0)",
        # out_axes
        f"{p}(lambda x: x, out_axes=1)(PM82)",
        f"{p}(lambda x: x, out_axes=-1)(PM82)",
        f"{p}(lambda x: x, out_axes=-2)(PM82)",
        f"{p}(lambda x: x.reshape(2, 1), out_axes=2)(PM82)",
        f"{p}(lambda x: x, in_axes=1, out_axes=1)(np.arange(16).reshape(2, 8))",
        f"{p}(lambda x: (x, x.sum()), out_axes=(1, 0))(PM82)",
        f"{p}(lambda x: {{'a': x, 'b': x * 2}}, out_axes={{'a': 0, 'b': 1}})(PM82)",
        f"{p}(lambda x: (x, x), out_axes=[1, 0])(PM82)",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i', out_axes=None)(PM8)",
        f"{p}(lambda x: (x, lax.pmax(x, 'i')), axis_name='i', out_axes=(0, None))(PM8)",
        f"{p}(lambda x: x * 0 + 1.0, out_axes=None)(PM8)",
        f"{p}(lambda x, y: y, in_axes=(0, None), out_axes=None)(PM8, np.arange(3))",
        # static, keyword and donated arguments
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1)(PM8, 3)",
        f"{p}(lambda x, n: x.reshape(n), static_broadcasted_argnums=(1,))(PM82, (2, 1))",
        f"{p}(lambda n, x: x + n, static_broadcasted_argnums=0)(2, PM8)",
        f"{p}(lambda x, f: f(x), static_broadcasted_argnums=1)(PM8, jnp.cos)",
        f"{p}(lambda x, n, m: x * n + m, static_broadcasted_argnums=(1, 2))(PM8, 2, 5)",
        f"{p}(lambda x, s: x * (2 if s == 'double' else 1), static_broadcasted_argnums=1)(PM8, 'double')",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1)(PM8, np.ones(2))",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1)(PM8, [2])",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=3)(PM8, 2)",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=-1)(PM8, 2)",
        f"{p}(lambda x, y: x + y)(PM8, y=PM8)",
        f"{p}(lambda x, y=1.0: x + y)(PM8)",
        f"{p}(lambda x, *, k: x * k)(PM8, k=PM8)",
        f"{p}(lambda x, y: x - y, in_axes=(0, None))(PM8, y=1.0)",
        f"{p}(lambda x, y=2.0: x * y, static_broadcasted_argnums=1)(PM8, 3.0)",
        f"{p}(lambda x: x + 1, donate_argnums=0)(jnp.asarray(PM8))",
        f"{p}(lambda x, y: x + y, donate_argnums=(0, 1))(jnp.asarray(PM8), jnp.asarray(PM8) * 2)",
        f"x = {p}(lambda x: x)(PM8)\nout = {p}(lambda x: x + 1, donate_argnums=0)(x)",
        f"x = {p}(lambda x: x)(PM8)\ny = {p}(lambda x: x + 1, donate_argnums=0)(x)\nout = x.is_deleted()",
        f"x = {p}(lambda x: x)(PM8)\ny = {p}(lambda x: x + 1, donate_argnums=0)(x)\nout = np.asarray(x)",
        f"x = {p}(lambda x: x)(PM8)\ny = {p}(lambda x: x + 1)(x)\nout = (x.is_deleted(), y)",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1, donate_argnums=1)(PM8, 2)",
        # axis names and sizes, devices=
        f"{p}(lambda x: lax.axis_index('batch'), axis_name='batch')(PM8)",
        f"{p}(lambda x: lax.axis_index('i') * x, axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.axis_size('i'), axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.psum(1, 'i'), axis_name='i')(np.arange(5.0))",
        f"{p}(lambda x: lax.psum(x, ('i',)), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name=('i',))(PM8)",
        f"{p}(lambda x: x * 2, devices=jax.devices()[:4])(np.arange(4.0))",
        f"{p}(lambda x: x * 2, devices=jax.devices()[4:])(np.arange(4.0))",
        f"{p}(lambda x: lax.axis_index('i'), axis_name='i', devices=jax.devices()[::-1])(PM8)",
        f"pm_ids({p}(lambda x: x, devices=jax.devices()[2:4])(np.arange(2.0)))",
        f"pm_shards({p}(lambda x: x, devices=jax.devices()[2:4])(np.arange(2.0)))",
        f"pm_shards({p}(lambda x: x, devices=jax.devices()[::-1])(PM8))",
        f"{p}(lambda x: x, devices=jax.devices()[:4])(PM8)",
        f"{p}(lambda x: x, devices=jax.devices()[:4])(np.arange(2.0))",
        f"{p}(lambda x: x, devices=[])(PM8)",
        f"{p}(lambda x: x, backend='cpu')(PM8)",
        f"{p}(lambda x: x, devices=jax.devices()[:2], backend='cpu')(np.arange(2.0))",
        # the mapped function and its wrapper
        f"{p}(lambda x: x).__name__",
        f"def step(x):\n    '''One step.'''\n    return x\nf = {p}(step)\nout = (f.__name__, f.__doc__)",
        f"@functools.partial({p}, axis_name='i')\ndef f(x):\n    return x - lax.pmean(x, 'i')\nout = f(PM8)",
        f"@functools.partial({p}, static_broadcasted_argnums=(1,))\ndef f(x, k):\n    return x ** k\nout = (f(PM8, 2), f(PM8, 3))",
        f"f = {p}(lambda x: x * 2)\nout = (f(PM8), f(PM8 + 1), f(np.arange(4.0)))",
        f"{p}({p}(lambda x: x * 2))(PM248.reshape(2, 4, 2))",
        f"{p}(lambda x: jnp.where(x > 3, x, -x))(PM8)",
        f"{p}(lambda x: lax.cond(x > 3, lambda v: v * 10, lambda v: v, x))(PM8)",
        f"{p}(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2, x))(PM8)",
        f"{p}(lambda x: lax.scan(lambda c, y: (c + y, c), 0.0, x)[0])(PM83)",
        f"{p}(lambda k: random.uniform(k, (2,)))(random.split(random.PRNGKey(0), 8))",
        f"{p}(lambda k: random.normal(k, ()))(random.split(random.key(0), 8))",
        f"{p}(lambda k: random.bits(k))(random.split(random.key(1), 8))",
        f"{p}(lambda k: random.split(k))(random.split(random.key(1), 8))",
        f"{p}(lambda k, x: x + random.normal(k), in_axes=(None, 0))(random.key(0), PM8)",
        f"{p}(lambda x: jnp.fft.fft(x))(PM82.astype(np.complex64))",
        f"{p}(jnp.cumsum)(PM83)",
        f"{p}(lambda x: jnp.sort(x)[::-1])(PM83)",
        f"{p}(lambda x: x.argmax())(PM83)",
        f"{p}(lambda x: jax.nn.softmax(x))(PM83)",
        f"{p}(jax.nn.relu)(PM8 - 4)",
        f"{p}(lambda x: x ** 2)(np.arange(8, dtype=np.int8))",
        f"{p}(lambda x: x * 2)(np.arange(8, dtype=np.uint16))",
        f"{p}(lambda x: ~x)(np.arange(8) % 2 == 0)",
        f"{p}(lambda x: x * 2)(jnp.arange(8, dtype=jnp.bfloat16))",
        f"{p}(lambda x: x * 1j)(PM8)",
        f"{p}(lambda x: x + 1)(np.arange(8.0, dtype=np.float64))",
        f"{p}(lambda x: x + 1)(np.arange(8, dtype=np.int64))",
        f"{p}(lambda x: x + 1)(list(range(8)))",
        f"{p}(lambda x: x + 1)([1.0, 2.0])",
        f"{p}(lambda x: x + 1)((1, 2, 3))",
        f"{p}(lambda x: x * 2.0)(np.arange(8))",
        f"{p}(lambda x: x * 2)(np.float32(1) * np.ones(8))",
        f"{p}(lambda x, y: x + y, in_axes=(0, None))(np.arange(8, dtype=np.int8), 2)",
        f"{p}(lambda x, y: x + y, in_axes=(0, None))(np.arange(8, dtype=np.int8), 2.5)",
        f"{p}(lambda x, y: x * y, in_axes=(0, None))(jnp.arange(8, dtype=jnp.bfloat16), 3)",
        f"{p}(lambda x: x)(PM8).weak_type",
        f"{p}(lambda x: x, in_axes=None, axis_size=8)(1.0).weak_type",
        f"{p}(lambda x: x + 1.0)(np.arange(8))",
    ]


def _collectives() -> list[str]:
    p = "jax.pmap"
    c = []
    inputs = {
        "int32": "np.arange(8, dtype=np.int32) - 3",
        "float32": "np.arange(8.0, dtype=np.float32) / 2 - 1",
        "bool": "np.arange(8) % 3 == 0",
        "bfloat16": "jnp.arange(8, dtype=jnp.bfloat16) / 4",
        "float16": "jnp.arange(8, dtype=jnp.float16) - 2.5",
        "int8": "np.arange(8, dtype=np.int8) * 30",
        "uint8": "np.arange(8, dtype=np.uint8) * 40",
        "complex64": "(np.arange(8) + 1j * (7 - np.arange(8))).astype(np.complex64)",
    }
    for op in ("psum", "pmean", "pmax", "pmin"):
        for arg in inputs.values():
            c.append(f"{p}(lambda x: lax.{op}(x, 'i'), axis_name='i')({arg})")
    for arg in inputs.values():
        c.append(f"{p}(lambda x: lax.all_gather(x, 'i'), axis_name='i')({arg})")
        c.append(
            f"{p}(lambda x: lax.ppermute(x, 'i', [(j, (j + 1) % 8) for j in range(8)]), axis_name='i')({arg})"
        )
    c += [
        # psum of structures, shapes and python values
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.psum({{'a': x, 'b': [x * 2, x.sum()]}}, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.psum((x, 1), 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(2.5, 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(jnp.ones(2), 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 2, 4, 6], [1, 3, 5, 7]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 7], [1, 6], [2, 5], [3, 4]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.pmax(x, 'i', axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]), axis_name='i')(PM8 * (-1) ** PM8)",
        f"{p}(lambda x: lax.pmin(x, 'i', axis_index_groups=[[0, 1], [2, 3], [4, 5], [6, 7]]), axis_name='i')(PM8[::-1].copy())",
        f"{p}(lambda x: lax.pmean(x, 'i', axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1, 2], [3, 4, 5, 6, 7]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1, 2, 3]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1, 2, 3], [3, 4, 5, 6]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]), axis_name='i')(PM8)",
        f"{p}(lambda x: x - lax.pmean(x, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: x / lax.psum(jnp.abs(x), 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: (lax.pmax(x, 'i'), lax.pmin(x, 'i')), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.pmax(x, 'i'), axis_name='i')(np.array([1.0, np.nan, 3, 0, -1, 2, 5, 4]))",
        f"{p}(lambda x: lax.pmin(x, 'i'), axis_name='i')(np.array([1.0, -np.inf, 3, 0, -1, 2, 5, 4]))",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i')(np.full(8, 2 ** 30, np.int32))",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i')(np.full(8, 0.1, np.float32))",
        f"{p}(lambda x: lax.pmean(x, 'i'), axis_name='i')(np.arange(8))",
        f"{p}(lambda x: lax.pmean(x, 'i'), axis_name='i')(np.arange(8) % 2 == 0)",
        f"{p}(lambda x: lax.pmean(x, 'i'), axis_name='i')(jnp.arange(8, dtype=jnp.bfloat16) * 3)",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.pmean(x, axis_name='i'), axis_name='i')(np.arange(4.0))",
        # all_gather's axis and tiled
        f"{p}(lambda x: lax.all_gather(x, 'i'), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis=1), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis=-1), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', tiled=True), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis=1, tiled=True), axis_name='i')(PM248.reshape(8, 2, 2))",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis=2), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', tiled=True), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.all_gather({{'a': x, 'b': x * 2}}, 'i'), axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.all_gather(x, 'i').sum(0), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.all_gather(x, 'i'), axis_name='i', out_axes=None)(PM8)",
        # ppermute, pshuffle, psum_scatter, all_to_all, axis_index
        f"{p}(lambda x: lax.ppermute(x, 'i', [(0, 1), (1, 0)]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.ppermute(x, 'i', perm=[(j, 7 - j) for j in range(8)]), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.ppermute(x, 'i', []), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.ppermute(x, 'i', [(0, 1), (0, 2)]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.ppermute(x, 'i', [(0, 8)]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.ppermute((x, x * 2), 'i', [(1, 0), (0, 1)]), axis_name='i')(np.arange(2.0))",
        f"{p}(lambda x: lax.pshuffle(x, 'i', [7, 6, 5, 4, 3, 2, 1, 0]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.pshuffle(x, 'i', [1, 2, 3, 0]), axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.pshuffle(x, 'i', [0, 0, 1, 2]), axis_name='i')(np.arange(4.0))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(np.arange(64.0).reshape(8, 8))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i', tiled=True), axis_name='i')(np.arange(128.0).reshape(8, 16))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i', scatter_dimension=1), axis_name='i')(np.arange(128.0).reshape(8, 2, 8))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i', scatter_dimension=1, tiled=True), axis_name='i')(np.arange(128.0).reshape(8, 2, 8))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(np.arange(16).reshape(4, 4))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(np.arange(24.0).reshape(8, 3))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 0), axis_name='i')(np.arange(64.0).reshape(8, 8))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 1), axis_name='i')(np.arange(128.0).reshape(8, 8, 2))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 1, 0), axis_name='i')(np.arange(128.0).reshape(8, 2, 8))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 0, tiled=True), axis_name='i')(np.arange(128.0).reshape(8, 16))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 0), axis_name='i')(np.arange(16.0).reshape(4, 4))",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 0), axis_name='i')(np.arange(24.0).reshape(8, 3))",
        f"{p}(lambda x: lax.axis_index('i'), axis_name='i')(PM8)",
        f"{p}(lambda x: x * lax.axis_index('i'), axis_name='i')(jnp.ones(8, jnp.bfloat16))",
        f"{p}(lambda x: jnp.where(lax.axis_index('i') == 0, x, 0.0), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(lax.axis_index('i'), 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.pbroadcast(x, 'i', 3), axis_name='i')(PM8)",
        # two named axes: nested pmap, vmap inside pmap
        f"{p}({p}(lambda x: lax.psum(x, 'j'), axis_name='j'), axis_name='i')(PM248.reshape(2, 4, 2)[..., 0])",
        f"{p}({p}(lambda x: lax.psum(x, ('i', 'j')), axis_name='j'), axis_name='i')(np.arange(8.0).reshape(2, 4))",
        f"{p}({p}(lambda x: lax.axis_index('i') * 10 + lax.axis_index('j'), axis_name='j'), axis_name='i')(np.zeros((2, 4)))",
        f"{p}(jax.vmap(lambda x: lax.psum(x, 'v'), axis_name='v'), axis_name='i')(PM82)",
        f"{p}(jax.vmap(lambda x: lax.psum(x, 'i'), axis_name='v'), axis_name='i')(PM82)",
        f"{p}(jax.vmap(lambda x: lax.psum(x, ('i', 'v')), axis_name='v'), axis_name='i')(PM82)",
        f"{p}(jax.vmap(lambda x: lax.pmean(x, ('v', 'i')), axis_name='v'), axis_name='i')(PM83)",
        f"{p}(jax.vmap(lambda x: lax.axis_index('i') * 10 + lax.axis_index('v'), axis_name='v'), axis_name='i')(PM83)",
        f"{p}(jax.vmap(lambda x: lax.all_gather(x, 'i'), axis_name='v'), axis_name='i')(PM82)",
        f"{p}(jax.vmap(lambda x: lax.all_gather(x, 'v'), axis_name='v'), axis_name='i')(PM82)",
        f"{p}(jax.vmap(lambda x: lax.pmax(x, 'i'), axis_name='v'), axis_name='i')(PM83)",
        f"jax.vmap({p}(lambda x: lax.psum(x, 'i'), axis_name='i'), axis_name='v')(PM82.T.copy())",
        f"jax.vmap({p}(lambda x: lax.psum(x, 'v'), axis_name='i'), axis_name='v')(PM82.T.copy())",
        f"jax.vmap({p}(lambda x: x - lax.pmean(x, 'i'), axis_name='i'), in_axes=1)(PM82)",
        f"jax.vmap({p}(lambda x: x * 2), in_axes=1, out_axes=1)(PM82)",
    ]
    return c


def _transforms() -> list[str]:
    p = "jax.pmap"
    return [
        f"jax.grad(lambda x: {p}(lambda v: v ** 2)(x).sum())(PM8)",
        f"jax.grad(lambda x: {p}(jnp.sin)(x).sum())(PM8)",
        f"jax.grad(lambda w: {p}(lambda w, x: (w * x).sum(), in_axes=(None, 0))(w, PM83).sum())(jnp.ones(3))",
        f"jax.grad(lambda x: {p}(lambda v: lax.psum(v, 'i'), axis_name='i')(x).sum())(PM8)",
        f"jax.grad(lambda x: {p}(lambda v: lax.pmean(v ** 2, 'i'), axis_name='i')(x)[0])(PM8)",
        f"jax.grad(lambda x: {p}(lambda v: lax.all_gather(v, 'i')[2], axis_name='i')(x).sum())(PM8)",
        f"jax.grad(lambda x: {p}(lambda v: lax.ppermute(v, 'i', [(j, (j + 1) % 8) for j in range(8)]) * lax.axis_index('i'), axis_name='i')(x).sum())(PM8)",
        f"jax.grad(lambda x: {p}(lambda v: v * 3, in_axes=1, out_axes=1)(x).sum())(PM82.T.copy())",
        f"jax.value_and_grad(lambda x: {p}(lambda v: jnp.exp(v))(x).sum())(PM8 / 8)",
        f"jax.jvp({p}(lambda x: x ** 3), (PM8,), (np.ones(8),))",
        f"jax.jvp({p}(lambda x: lax.psum(x, 'i'), axis_name='i'), (PM8,), (PM8,))",
        f"jax.jvp({p}(lambda x, y: x * y, in_axes=(0, None)), (PM8, 2.0), (np.ones(8), 1.0))",
        f"jax.linearize({p}(jnp.sin), PM8)[1](np.ones(8))",
        f"jax.vjp({p}(lambda x: x * 2), PM8)[1](np.ones(8))",
        f"jax.jacfwd({p}(lambda x: x ** 2))(np.arange(4.0))",
        f"jax.jacrev({p}(lambda x: x ** 2))(np.arange(4.0))",
        f"jax.hessian(lambda x: {p}(lambda v: v ** 3)(x).sum())(np.arange(2.0))",
        f"jax.vmap({p}(lambda x: x + 1))(np.arange(16.0).reshape(2, 8))",
        f"jax.vmap({p}(lambda x, y: x * y), in_axes=(0, None))(np.ones((3, 8)), PM8)",
        f"jax.jit({p}(lambda x: x * 2))(PM8)",
        f"jax.jit(lambda x: {p}(lambda v: lax.psum(v, 'i'), axis_name='i')(x) + 1)(PM8)",
        f"jax.jit(jax.grad(lambda x: {p}(lambda v: v ** 2)(x).sum()))(PM8)",
        f"{p}(jax.grad(lambda x: x ** 2))(PM8)",
        f"{p}(jax.grad(lambda w, x: ((w * x) ** 2).sum()), in_axes=(None, 0))(np.ones(3), PM83)",
        f"{p}(lambda w, x: lax.pmean(jax.grad(lambda w: ((w * x) ** 2).sum())(w), 'i'), axis_name='i', in_axes=(None, 0))(np.ones(3), PM83)",
        f"{p}(jax.value_and_grad(lambda x: jnp.sin(x) * x))(PM8)",
        f"{p}(jax.jit(lambda x: x * 2))(PM8)",
        f"{p}(jax.vmap(lambda x: x * 2))(PM82)",
        f"{p}(jax.vmap(jnp.dot))(np.ones((8, 3, 2)), np.ones((8, 3, 2)))",
        f"{p}(lambda x: jax.jvp(jnp.sin, (x,), (jnp.ones_like(x),)))(PM8)",
        f"{p}(jax.hessian(lambda x: (x ** 3).sum()))(PM82)",
        f"{p}(jax.checkpoint(lambda x: jnp.sin(x) ** 2))(PM8)",
        f"{p}(lambda x: jax.grad(lambda v: lax.psum(v ** 2, 'i'))(x), axis_name='i')(PM8)",
        f"jax.make_jaxpr({p}(lambda x: x * 2))(PM8).out_avals",
        f"jax.eval_shape({p}(lambda x: x * 2), PM82)",
        f"jax.eval_shape({p}(lambda x: lax.psum(x, 'i'), axis_name='i', out_axes=None), PM82)",
        f"jax.eval_shape({p}(lambda x: x.sum()), jax.ShapeDtypeStruct((8, 3), jnp.float32))",
        # a data-parallel training step
        "def loss(w, x, y):\n    return ((x @ w - y) ** 2).mean()\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(w, x, y):\n    g = lax.pmean(jax.grad(loss)(w, x, y), 'b')\n    return w - 0.1 * g, lax.pmean(loss(w, x, y), 'b')\n"
        "w = jnp.stack([jnp.ones(3)] * 8)\nx = jnp.asarray(np.arange(48.0).reshape(8, 2, 3) / 48)\ny = jnp.ones((8, 2))\n"
        "for _ in range(3):\n    w, l = step(w, x, y)\nout = (w, l)",
        "tx = optax.sgd(0.1)\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(p, s, x):\n    g = lax.pmean(jax.grad(lambda p: (p * x).sum() ** 2)(p), 'b')\n    u, s = tx.update(g, s)\n    return optax.apply_updates(p, u), s\n"
        "p = jnp.ones((8, 2))\ns = jax.pmap(tx.init)(p)\nout = step(p, s, jnp.asarray(PM82) / 10)",
    ]


def _arrays() -> list[str]:
    y = "jax.pmap(lambda x: x * 2)(PM82)"
    r = "jax.pmap(lambda x: lax.psum(x, 'i'), axis_name='i', out_axes=None)(PM82)"
    return [
        y,
        f"{y}.shape",
        f"{y}.dtype",
        f"{y}.size",
        f"len({y})",
        f"repr({y})",
        f"str({y})",
        "repr(jax.pmap(lambda x: x)(np.arange(8)))",
        "repr(jax.pmap(lambda x: x > 2)(np.arange(8)))",
        "repr(jax.pmap(lambda x: x)(jnp.arange(8, dtype=jnp.bfloat16)))",
        f"{y}.sharding",
        f"repr({y}.sharding)",
        f"repr({y}.sharding.spec)",
        f"{y}.sharding.mesh.shape",
        f"{y}.sharding.mesh.axis_names",
        f"{y}.sharding.mesh.devices.shape",
        f"{y}.sharding.is_fully_replicated",
        f"{y}.sharding.is_fully_addressable",
        f"{y}.sharding.num_devices",
        f"sorted(d.id for d in {y}.sharding.device_set)",
        f"{y}.sharding.shard_shape((8, 2))",
        f"{y}.sharding.devices_indices_map((8, 2))[jax.devices()[5]]",
        f"{y}.sharding == jax.pmap(lambda x: x)(PM8).sharding",
        f"{y}.sharding == jax.pmap(lambda x: x)(PM83).sharding",
        f"{y}.is_fully_replicated",
        f"{y}.is_fully_addressable",
        f"{y}.committed",
        f"pm_ids({y})",
        f"pm_shards({y})",
        f"len({y}.addressable_shards)",
        f"{y}.addressable_shards[0]",
        f"{y}.addressable_shards[6].index",
        f"{y}.addressable_shards[6].device",
        f"{y}.addressable_shards[6].replica_id",
        f"{y}.addressable_shards[6].data",
        f"{y}.addressable_shards[6].data.shape",
        f"{y}.addressable_shards[6].data.devices()",
        f"{y}.addressable_shards[6].data.sharding",
        f"{y}.addressable_data(3)",
        f"{y}.global_shards[1].index",
        f"{y}[3]",
        f"{y}[3].devices()",
        f"{y}[1:3]",
        f"{y}.sum()",
        f"{y} + 1",
        f"{y}.T",
        f"np.asarray({y})",
        f"np.asarray({y}).dtype",
        f"np.array({y}, copy=True).flags.writeable",
        f"{y}.tolist()",
        f"float({y}[2, 1])",
        f"{y}.item(3)",
        f"jax.device_get({y})",
        f"type(jax.device_get({y})).__name__",
        f"{y}.block_until_ready()",
        f"jax.block_until_ready({{'a': {y}, 'b': [{y}]}})",
        f"x = {y}\nout = x.block_until_ready() is x",
        f"x = {y}\nout = x.is_deleted()",
        f"x = {y}\nx.delete()\nout = x.is_deleted()",
        f"x = {y}\nx.delete()\nout = np.asarray(x)",
        f"{y}.on_device_size_in_bytes()",
        f"{y}.nbytes",
        f"{y}.weak_type",
        f"{y}.aval",
        f"type({y}).__name__",
        f"isinstance({y}, jax.Array)",
        "pm_shards(jax.pmap(lambda x: x)(PM8))",
        "pm_shards(jax.pmap(lambda x: x, out_axes=1)(PM82))",
        "repr(jax.pmap(lambda x: x, out_axes=1)(PM82).sharding.spec)",
        "jax.pmap(lambda x: x, out_axes=1)(PM82).addressable_shards[2].index",
        "jax.pmap(lambda x: x.sum())(PM83).addressable_shards[2].data",
        "jax.pmap(lambda x: x.sum())(PM83).addressable_shards[2].data.shape",
        "[d.id for d in jax.pmap(lambda x: x, devices=jax.devices()[3:7])(np.arange(4.0)).sharding.mesh.devices.flat]",
        r,
        f"{r}.sharding",
        f"{r}.is_fully_replicated",
        f"pm_ids({r})",
        f"pm_shards({r})",
        f"{r}.addressable_shards[4].replica_id",
        f"{r}.addressable_shards[4].index",
        f"repr({r})",
        f"jax.pmap(lambda x: x + 1)({y}[:4])",
        f"jax.pmap(lambda x: x, in_axes=1)({y}.T)",
        f"jax.jit(lambda x: x * 2)({y})",
        f"jax.jit(lambda x: x * 2)({y}).sharding",
        f"jax.jit(lambda x: x.sum())({y})",
        f"jnp.stack([{y}, {y}])",
        f"jnp.concatenate([{y}, jnp.ones((8, 2))])",
        "jax.tree.map(lambda a: a.shape, jax.pmap(lambda x: {'a': x, 'b': x.sum()})(PM82))",
    ]


def _device_put() -> list[str]:
    d5 = "jax.devices()[5]"
    return [
        f"jax.device_put(PM8, {d5})",
        f"jax.device_put(PM8, {d5}).devices()",
        f"jax.device_put(PM8, {d5}).sharding",
        f"jax.device_put(PM8, {d5}).device",
        f"jax.device_put(PM8, {d5}).addressable_shards[0].device",
        f"jax.device_put(PM8, {d5}).is_fully_replicated",
        f"jax.device_put({{'a': PM8, 'b': [1.0]}}, {d5})['b'][0].devices()",
        "jax.device_put([PM8, PM82], [jax.devices()[1], jax.devices()[2]])[1].devices()",
        "jax.device_put([PM8, PM82], [jax.devices()[1]])",
        f"jax.device_put((PM8, 1.0), ({d5}, jax.devices()[6]))[1].devices()",
        f"jax.device_put(jnp.ones(2), jax.sharding.SingleDeviceSharding({d5})).devices()",
        f"jax.sharding.SingleDeviceSharding({d5})",
        f"jax.sharding.SingleDeviceSharding({d5}).device_set",
        f"jax.sharding.SingleDeviceSharding({d5}).is_fully_replicated",
        "(jax.device_put(PM8, jax.devices()[1]) + jax.device_put(PM8, jax.devices()[1])).devices()",
        "jax.device_put(PM8, jax.devices()[1]) + jax.device_put(PM8, jax.devices()[2])",
        "jax.jit(lambda a, b: a + b)(jax.device_put(PM8, jax.devices()[1]), jax.device_put(PM8, jax.devices()[2]))",
        f"jax.jit(lambda a: a * 2)(jax.device_put(PM8, {d5})).devices()",
        f"(jax.device_put(PM8, {d5}) + 1).devices()",
        f"(jax.device_put(PM8, {d5}) + jnp.ones(8)).devices()",
        f"jax.device_put(jax.device_put(PM8, jax.devices()[1]), {d5}).devices()",
        f"x = jax.device_put(PM8, {d5})\nout = jax.device_put(x, {d5}) is x",
        f"jax.device_put(PM8, {d5}).block_until_ready().devices()",
        "jax.device_put(PM8, 5)",
        "jax.device_put(PM8, 'cpu:5')",
        "jax.device_put(PM8, jax.devices())",
        "jax.device_put(jnp.arange(8), jax.devices()[7]).dtype",
        f"jax.device_put(3.0, {d5})",
        f"jax.device_put(3.0, {d5}).weak_type",
        f"jax.device_put(np.int64(3), {d5}).dtype",
        f"jax.device_put(jax.pmap(lambda x: x)(PM8), {d5}).devices()",
        "jax.device_put(jax.pmap(lambda x: x)(PM8), jax.devices()[0]).sharding",
        "jax.device_put(PM8, jax.pmap(lambda x: x)(PM8).sharding)",
        "pm_shards(jax.device_put(PM8, jax.pmap(lambda x: x)(PM8).sharding))",
        "jax.device_put_replicated(PM8, jax.devices())",
        "jax.device_put_sharded([PM8] * 8, jax.devices())",
        f"jax.pmap(lambda x: x)(jax.device_put(PM8, {d5}))",
        f"pm_ids(jax.pmap(lambda x: x)(jax.device_put(PM8, {d5})))",
        f"jax.pmap(lambda x, y: x + y, in_axes=(0, None))(PM8, jax.device_put(1.0, {d5}))",
        f"with jax.default_device({d5}):\n    out = jnp.ones(2).devices()",
        f"with jax.default_device({d5}):\n    out = (jnp.ones(2) * 3).devices()",
        f"with jax.default_device({d5}):\n    out = jnp.ones(2).committed",
        f"with jax.default_device({d5}):\n    out = jax.jit(lambda x: x + 1)(np.ones(2)).devices()",
        f"with jax.default_device({d5}):\n    out = pm_ids(jax.pmap(lambda x: x)(PM8))",
        f"jax.device_put(PM8, {d5}).copy_to_host_async()",
    ]


def _meshes() -> list[str]:
    m = "jax.make_mesh((8,), ('i',))"
    m2 = "jax.make_mesh((2, 4), ('a', 'b'))"
    P = "jax.sharding.PartitionSpec"
    N = "jax.sharding.NamedSharding"
    sm = "jax.shard_map"
    ma = "jax.sharding.Mesh(jax.devices(), ('i',))"
    ma2 = "jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('a', 'b'))"
    c = [
        m,
        m2,
        f"{m2}.shape",
        f"{m2}.axis_names",
        f"{m2}.devices.shape",
        f"{m2}.devices[1, 2]",
        f"{m2}.axis_sizes",
        f"{m2}.devices.flat[5].id",
        "[d.id for d in jax.make_mesh((4, 2), ('x', 'y')).devices.flat]",
        "jax.make_mesh((2, 2, 2), ('x', 'y', 'z')).shape",
        "jax.make_mesh((4,), ('i',))",
        "jax.make_mesh((3,), ('i',))",
        "jax.make_mesh((16,), ('i',))",
        "jax.make_mesh((2, 4), ('a',))",
        "[d.id for d in jax.make_mesh((8,), ('i',), devices=jax.devices()[::-1]).devices.flat]",
        "jax.make_mesh((2, 4), ('a', 'b'), axis_types=(jax.sharding.AxisType.Explicit,) * 2).axis_types",
        "jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('a', 'b'))",
        "jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('a', 'b')).shape",
        "jax.sharding.Mesh(jax.devices(), ('i',))",
        "jax.sharding.Mesh(np.array(jax.devices()[:4]), ('i',)).devices.shape",
        "jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('a',))",
        "jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 4), ('a', 'a'))",
        f"{m} == {m}",
        f"{m} == jax.make_mesh((8,), ('j',))",
        f"hash({m}) == hash({m})",
        # PartitionSpec
        f"repr({P}('a', None))",
        f"repr({P}(('a', 'b'),))",
        f"repr({P}())",
        f"{P}('a', 'b') == {P}('a', 'b')",
        f"{P}('a') == {P}('a', None)",
        f"{P}('a') == ('a',)",
        f"len({P}('a', None))",
        f"tuple({P}('a', ('b', 'c')))",
        f"{P}(None, 'a')[1]",
        f"repr({P}(None))",
        # NamedSharding
        f"{N}({m2}, {P}('a', 'b'))",
        f"repr({N}({m2}, {P}('a', 'b')).spec)",
        f"{N}({m2}, {P}('a', 'b')).shard_shape((4, 8))",
        f"{N}({m2}, {P}('a')).shard_shape((4, 8))",
        f"{N}({m2}, {P}(None, ('a', 'b'))).shard_shape((4, 8))",
        f"{N}({m2}, {P}('a', 'b')).shard_shape((3, 8))",
        f"{N}({m2}, {P}('a', 'b')).is_fully_replicated",
        f"{N}({m2}, {P}()).is_fully_replicated",
        f"{N}({m2}, {P}('a')).num_devices",
        f"{N}({m2}, {P}('a', 'b')).devices_indices_map((4, 8))[jax.devices()[6]]",
        f"{N}({m2}, {P}('a')).devices_indices_map((4, 8))[jax.devices()[6]]",
        f"{N}({m2}, {P}('b', 'a')).devices_indices_map((4, 8))[jax.devices()[6]]",
        f"{N}({m2}, {P}('c'))",
        f"{N}({m2}, {P}('a', 'a'))",
        f"{N}({m2}, {P}('a')) == {N}({m2}, {P}('a', None))",
        f"{N}({m2}, {P}('a')) == {N}({m2}, {P}('b'))",
        f"{N}({m2}, {P}('a')).memory_kind",
        f"{N}({m2}, {P}('a')).with_spec({P}('b'))",
        # device_put with shardings
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a', 'b')))\nout = pm_shards(x)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a')))\nout = pm_shards(x)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}(None, 'b')))\nout = pm_shards(x)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}()))\nout = pm_shards(x)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}()))\nout = [s.replica_id for s in x.addressable_shards]",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a')))\nout = [s.replica_id for s in x.addressable_shards]",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}()))\nout = x.is_fully_replicated",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a', 'b')))\nout = (x, x.sharding, x.is_fully_replicated)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}(('a', 'b'))))\nout = pm_shards(x)",
        f"x = jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}(None, ('b', 'a'))))\nout = pm_shards(x)",
        f"jax.device_put(np.arange(12.0).reshape(3, 4), {N}({m2}, {P}('a')))",
        f"jax.device_put(np.arange(8.0), {N}({m2}, {P}('a', 'b')))",
        f"jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a', 'b'))) * 2",
        f"(jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a', 'b'))) * 2).sharding",
        f"jax.jit(lambda x: x.sum(0))(jax.device_put(np.arange(32.0).reshape(4, 8), {N}({m2}, {P}('a', 'b'))))",
        f"jax.jit(lambda x: x + 1, out_shardings={N}({m2}, {P}('b')))(np.arange(8.0)).sharding",
        f"pm_shards(jax.jit(lambda x: x + 1, out_shardings={N}({m2}, {P}('b')))(np.arange(8.0)))",
        f"jax.jit(lambda x: x * 2, in_shardings={N}({m2}, {P}('a')))(np.arange(8.0).reshape(2, 4)).sharding",
        f"pm_shards(jax.device_put(jnp.ones((8, 2)), {N}({m}, {P}('i'))))",
        f"jax.device_put(jnp.ones((8, 2)), {N}({m}, {P}('i'))).sharding.shard_shape((8, 2))",
        f"jax.device_put({{'a': np.ones(8), 'b': np.ones((8, 3))}}, {N}({m}, {P}('i')))['b'].addressable_shards[1].data.shape",
        f"jax.device_put(jnp.ones(8), {N}({m}, {P}('i'))).devices() == set(jax.devices())",
        f"jax.lax.with_sharding_constraint(jnp.ones(8), {N}({m}, {P}('i'))).sharding",
        f"jax.jit(lambda x: jax.lax.with_sharding_constraint(x * 2, {N}({m}, {P}('i'))))(jnp.ones(8)).sharding",
        # make_array_from_callback / single device arrays
        f"jax.make_array_from_callback((8, 2), {N}({m}, {P}('i')), lambda idx: PM82[idx])",
        f"pm_shards(jax.make_array_from_callback((4, 8), {N}({m2}, {P}('a', 'b')), lambda idx: np.arange(32.0).reshape(4, 8)[idx]))",
        f"jax.make_array_from_callback((4, 8), {N}({m2}, {P}('a', 'b')), lambda idx: np.arange(32.0).reshape(4, 8)[idx]).sharding",
        f"idx = []\nx = jax.make_array_from_callback((4, 8), {N}({m2}, {P}('a')), lambda i: (idx.append(i), np.ones((2, 8)))[1])\nout = (x.shape, len(idx), sorted(map(str, idx))[:3])",
        f"jax.make_array_from_callback((8,), {N}({m}, {P}('i')), lambda idx: np.ones(2))",
        "jax.make_array_from_callback((8,), jax.sharding.SingleDeviceSharding(jax.devices()[2]), lambda idx: PM8[idx]).devices()",
        f"jax.make_array_from_callback((8,), {N}({m}, {P}('i')), lambda idx: PM8[idx].astype(np.int32)).dtype",
        f"arrs = [jax.device_put(PM82[i:i + 1], d) for i, d in enumerate(jax.devices())]\nout = jax.make_array_from_single_device_arrays((8, 2), {N}({m}, {P}('i')), arrs)",
        f"arrs = [jax.device_put(PM82[i:i + 1], d) for i, d in enumerate(jax.devices())]\nout = pm_shards(jax.make_array_from_single_device_arrays((8, 2), {N}({m}, {P}('i')), arrs))",
        f"arrs = [jax.device_put(PM82[i:i + 1], d) for i, d in enumerate(jax.devices())]\nout = jax.make_array_from_single_device_arrays((8, 2), {N}({m}, {P}('i')), arrs[:4])",
        f"arrs = [jax.device_put(PM82, d) for d in jax.devices()]\nout = jax.make_array_from_single_device_arrays((8, 2), {N}({m}, {P}()), arrs).is_fully_replicated",
        # shard_map
        f"{sm}(lambda x: x * 2, mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(PM8)",
        f"{sm}(lambda x: lax.psum(x, 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}())(PM8)",
        f"{sm}(lambda x: lax.psum(x.sum(), 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}())(np.arange(32.0))",
        f"{sm}(lambda x: lax.pmean(x, 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(np.arange(16.0))",
        f"{sm}(lambda x: x.sum(keepdims=True), mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(np.arange(16.0))",
        f"{sm}(lambda x: lax.axis_index('i') + 0 * x, mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(np.arange(16))",
        f"{sm}(lambda x: lax.all_gather(x, 'i', tiled=True), mesh={ma}, in_specs={P}('i'), out_specs={P}())(np.arange(16.0))",
        f"{sm}(lambda x: lax.ppermute(x, 'i', [(j, (j + 1) % 8) for j in range(8)]), mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(PM8)",
        f"{sm}(lambda x: lax.psum_scatter(x, 'i', tiled=True), mesh={ma}, in_specs={P}(), out_specs={P}('i'))(np.arange(16.0))",
        f"{sm}(lambda x: lax.psum(x, 'a'), mesh={ma2}, in_specs={P}('a', 'b'), out_specs={P}(None, 'b'))(np.arange(32.0).reshape(4, 8))",
        f"{sm}(lambda x: lax.psum(x, ('a', 'b')), mesh={ma2}, in_specs={P}('a', 'b'), out_specs={P}())(np.arange(32.0).reshape(4, 8))",
        f"{sm}(lambda x: lax.psum(x, 'b'), mesh={ma2}, in_specs={P}('a', 'b'), out_specs={P}('a'))(np.arange(32.0).reshape(4, 8))",
        f"{sm}(lambda x: x.T, mesh={ma2}, in_specs={P}('a', 'b'), out_specs={P}('b', 'a'))(np.arange(32.0).reshape(4, 8))",
        f"{sm}(lambda x, w: x @ w, mesh={ma}, in_specs=({P}('i'), {P}()), out_specs={P}('i'))(np.ones((16, 3)), np.arange(6.0).reshape(3, 2))",
        f"{sm}(lambda x: x, mesh={ma}, in_specs={P}('i'), out_specs={P}())(PM8)",
        f"{sm}(lambda x: x, mesh={ma}, in_specs={P}('i'), out_specs={P}(), check_vma=False)(PM8)",
        f"{sm}(lambda x: x, mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(np.arange(12.0))",
        f"{sm}(lambda x: x, mesh={ma}, in_specs={P}('j'), out_specs={P}('j'))(PM8)",
        f"{sm}(lambda x: x * 2, mesh={ma}, in_specs={P}('i'), out_specs={P}('i'))(PM8).sharding",
        f"pm_shards({sm}(lambda x: x * 2, mesh={ma2}, in_specs={P}('a', 'b'), out_specs={P}('a', 'b'))(np.arange(32.0).reshape(4, 8)))",
        f"jax.jit({sm}(lambda x: lax.psum(x, 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}()))(PM8)",
        f"jax.grad(lambda x: {sm}(lambda v: lax.psum((v ** 2).sum(), 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}())(x))(PM8)",
        f"jax.vmap({sm}(lambda x: x * 2, mesh={ma}, in_specs={P}('i'), out_specs={P}('i')))(np.ones((2, 8)))",
        f"{sm}(lambda d: {{'s': lax.psum(d['a'], 'i')}}, mesh={ma}, in_specs=({{'a': {P}('i')}},), out_specs={{'s': {P}()}})({{'a': PM8}})",
        f"@functools.partial({sm}, mesh={ma}, in_specs={P}('i'), out_specs={P}())\ndef f(x):\n    return lax.pmax(x, 'i')\nout = f(np.arange(8.0)[::-1].copy())",
        f"with jax.set_mesh({ma}):\n    out = {sm}(lambda x: lax.psum(x, 'i'), in_specs={P}('i'), out_specs={P}())(PM8)",
        f"{sm}(lambda x: lax.psum(x, 'i'), mesh={m}, in_specs={P}('i'), out_specs={P}())(PM8)",
        f"{sm}(lambda x: lax.psum(x, 'i'), mesh={m}, in_specs={P}('i'), out_specs={P}())(jax.device_put(PM8, {N}({m}, {P}('i'))))",
        f"{sm}(lambda x: lax.psum(x, 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}())(PM8).sharding",
        f"{sm}(lambda x: lax.pmax(x, 'i'), mesh={ma}, in_specs={P}('i'), out_specs={P}())(np.array([1.0, np.nan, 3, 0, -1, 2, 5, 4]))",
    ]
    return c


def _mistakes() -> list[str]:
    p = "jax.pmap"
    return [
        f"{p}(lambda x: x)(np.arange(9))",
        f"{p}(lambda x: x)(np.arange(16))",
        f"{p}(lambda x: x)(np.arange(10.0))",
        f"{p}(lambda x: x)(np.ones((9, 2)))",
        f"{p}(lambda x, y: x + y)(np.arange(8), np.arange(4))",
        f"{p}(lambda x, y: x + y)(np.arange(4), np.arange(3))",
        f"{p}(lambda d: d['a'])({{'a': np.arange(4), 'b': np.arange(2)}})",
        f"{p}(lambda x: x)(np.float32(1.0))",
        f"{p}(lambda x: x)(2)",
        f"{p}(lambda x: x)(np.ones((0, 2)))",
        f"{p}(lambda x: x, in_axes=1)(PM8)",
        f"{p}(lambda x: x, in_axes=2)(PM82)",
        f"{p}(lambda x: x, in_axes=-3)(PM82)",
        f"{p}(lambda x: x, in_axes=(0, 0))(PM8)",
        f"{p}(lambda x, y: x, in_axes=(0,))(PM8, PM8)",
        f"{p}(lambda d: d['a'], in_axes=({{'a': 0}},))({{'a': PM8, 'b': PM8}})",
        f"{p}(lambda d: d, in_axes=([0, 0],))([PM8])",
        f"{p}(lambda x: x, in_axes='0')(PM8)",
        f"{p}(lambda x: x, in_axes=0.0)(PM8)",
        f"{p}(lambda x: x, in_axes=None)(PM8, PM8)",
        f"{p}(lambda x: x, in_axes=(None,))(PM8)",
        f"{p}(lambda x, y: x, in_axes=(None, None))(PM8, PM8)",
        f"{p}(lambda x: x.sum(), out_axes=0)(PM82)",
        f"{p}(lambda x: x.sum(), out_axes=1)(PM82)",
        f"{p}(lambda x: x, out_axes=2)(PM82)",
        f"{p}(lambda x: x, out_axes=-3)(PM82)",
        f"{p}(lambda x: (x, x), out_axes=(0,))(PM8)",
        f"{p}(lambda x: (x, x), out_axes=(0, 0, 0))(PM8)",
        f"{p}(lambda x: x, out_axes=None)(PM8)",
        f"{p}(lambda x: x, out_axes='0')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'j'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum(x, 'i'))(PM8)",
        f"{p}(lambda x: lax.axis_index('i'))(PM8)",
        f"{p}(lambda x: lax.all_gather(x, 'k'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.ppermute(x, 'i', [(0, 1)]))(PM8)",
        "lax.psum(jnp.ones(2), 'i')",
        "lax.axis_index('i')",
        "lax.pmean(1.0, 'i')",
        f"{p}({p}(lambda x: x, axis_name='i'), axis_name='i')(np.ones((2, 4)))",
        f"{p}({p}(lambda x: x))(np.ones((4, 4)))",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1]]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.all_gather(x, 'i', axis=3), axis_name='i')(PM82)",
        f"{p}(lambda x: lax.all_gather(x, 'i', tiled=True), axis_name='i')(np.ones((8, 0)))",
        f"{p}(lambda x: lax.pshuffle(x, 'i', [0, 1]), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 0, 0), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.all_to_all(x, 'i', 2, 0), axis_name='i')(np.ones((8, 8)))",
        f"{p}(lambda x: lax.psum_scatter(x, 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.psum_scatter(x, 'i', scatter_dimension=3), axis_name='i')(np.ones((8, 8)))",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1)(PM8, np.arange(2))",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=(1,))(PM8, {{'a': 1}})",
        f"{p}(lambda x: x, static_broadcasted_argnums='0')(PM8)",
        f"{p}(lambda x: x, donate_argnums=1)(PM8)",
        f"{p}(lambda x: x, donate_argnums=(0, 0))(jnp.asarray(PM8))",
        f"{p}(lambda x, y: x, donate_argnums=0, static_broadcasted_argnums=0)(2, PM8)",
        f"{p}(lambda x: x, axis_size=4)(PM8)",
        f"{p}(lambda x: x, in_axes=None, axis_size=16)(1.0)",
        f"{p}(lambda x: x, in_axes=None)(1.0)",
        f"{p}(lambda x: x, in_axes=None, axis_size=0)(1.0)",
        f"{p}(lambda x: x, devices=jax.devices()[:2])(np.arange(4))",
        f"{p}(lambda x: x, devices=[jax.devices()[0], jax.devices()[0]])(np.arange(2))",
        f"{p}(lambda x: x, devices=jax.devices()[:2], axis_size=4)(np.arange(4))",
        f"{p}(lambda x: x, backend='gpu')(PM8)",
        f"{p}(lambda x: x, axis_name=1)(PM8)",
        f"{p}(1)",
        f"{p}(lambda x: x)()",
        f"{p}(lambda x: x)(PM8, PM8)",
        f"{p}(lambda x: x)('abc')",
        f"{p}(lambda x: x)(object())",
        f"{p}(lambda x: x)(None)",
        f"{p}(lambda x: float(x))(PM8)",
        f"{p}(lambda x: int(x.sum()))(PM8)",
        f"{p}(lambda x: np.asarray(x))(PM8)",
        f"{p}(lambda x: x if x > 0 else -x)(PM8)",
        f"{p}(lambda x: jnp.zeros(x.sum()))(np.ones(8, np.int32))",
        f"{p}(lambda x: lax.psum(x, 'i'), axis_name='i')(np.array(['a'] * 8))",
        f"{p}(lambda x: 1 / 0)(PM8)",
        f"{p}(lambda x: x.reshape(3))(PM82)",
        f"{p}(lambda x: jax.device_put(x, jax.devices()[1]))(PM8)",
        f"jax.grad({p}(lambda x: x ** 2))(PM8)",
        f"jax.grad(lambda x: {p}(lambda v: v)(x).sum())(np.arange(8))",
        f"x = jax.pmap(lambda v: v)(PM8)\nx.delete()\nout = {p}(lambda v: v + 1)(x)",
        "x = jax.pmap(lambda v: v)(PM8)\nx.delete()\nout = x.addressable_shards",
        "x = jax.pmap(lambda v: v)(PM8)\nx.delete()\nout = x + 1",
        "jax.make_array_from_single_device_arrays((8,), jax.sharding.NamedSharding(jax.make_mesh((8,), ('i',)), jax.sharding.PartitionSpec('i')), [jnp.ones(1)] * 8)",
        "jax.make_array_from_callback((8,), jax.devices()[0], lambda idx: PM8)",
        "jax.sharding.NamedSharding(jax.devices(), jax.sharding.PartitionSpec('i'))",
        "jax.sharding.NamedSharding(jax.make_mesh((8,), ('i',)), ('i',))",
        "repr(jax.sharding.PartitionSpec('i', 0))",
        "jax.shard_map(lambda x: x, mesh=jax.sharding.Mesh(jax.devices(), ('i',)), in_specs=(jax.sharding.PartitionSpec('i'), jax.sharding.PartitionSpec()), out_specs=jax.sharding.PartitionSpec('i'))(PM8)",
        "jax.shard_map(lambda x: lax.psum(x, 'j'), mesh=jax.sharding.Mesh(jax.devices(), ('i',)), in_specs=jax.sharding.PartitionSpec('i'), out_specs=jax.sharding.PartitionSpec())(PM8)",
        "jax.shard_map(lambda x: x, in_specs=jax.sharding.PartitionSpec('i'), out_specs=jax.sharding.PartitionSpec('i'))(PM8)",
        "jax.device_put(PM8, jax.devices()[0], jax.devices()[1])",
        "jax.device_put(PM8, device=jax.devices()[0], src=jax.devices()[1]).devices()",
        "jax.device_put(PM8, jax.sharding.NamedSharding(jax.make_mesh((8,), ('i',)), jax.sharding.PartitionSpec('j')))",
        "jax.sharding.PositionalSharding(jax.devices())",
        "jax.devices()[0].memory('device')",
        "jax.devices()[0].default_memory()",
        "jax.devices()[0].client",
    ]


def _usage() -> list[str]:
    # data-parallel training as programs write it: flax.jax_utils and common_utils on eight
    # devices, device_put_replicated/sharded of pytrees, pytree in_axes, static and keyword
    # arguments, gradients and their pmean/psum over pytrees (also under vmap's axis name),
    # optax and a flax TrainState in a pmapped step, pmap's stages
    p = "jax.pmap"
    return [
        # flax.jax_utils and common_utils with eight devices
        "r = JU.replicate(PU_P)\nout = jax.tree.map(lambda a: (a.shape, a.dtype, pm_ids(a)), r)",
        "pm_shards(JU.replicate(PU_P)['w'])",
        "repr(JU.replicate(PU_P)['b'].sharding.spec)",
        "JU.replicate({'n': 3, 'f': 2.5, 't': True})",
        "JU.unreplicate(JU.replicate(PU_P))",
        "JU.unreplicate(jax.pmap(lambda x: x * 2)(PM82))",
        "JU.unreplicate(jax.pmap(lambda x: lax.psum(x, 'i'), axis_name='i', out_axes=None)(PM82))",
        "it = JU.prefetch_to_device(iter([{'x': PM82 + k} for k in range(3)]), 2)\nout = [b['x'] for b in it]",
        "it = JU.prefetch_to_device(iter([PM83]), 1)\nout = pm_ids(next(it))",
        "it = JU.prefetch_to_device(iter([PM83]), 1, devices=jax.devices()[:4])\nout = list(it)",
        "CU.shard(jnp.arange(32).reshape(16, 2))",
        "CU.shard({'image': np.ones((8, 2, 2)), 'label': np.arange(8)})['label']",
        "CU.shard(np.arange(12))",
        "CU.shard_prng_key(K1).shape",
        "CU.shard_prng_key(random.PRNGKey(3))",
        "CU.get_metrics([jax.pmap(lambda x: {'loss': x.sum()})(PM82), jax.pmap(lambda x: {'loss': x.mean()})(PM82)])",
        "JU.pad_shard_unpad(jax.pmap(lambda x: x * 2))(np.arange(13.0))",
        "JU.pad_shard_unpad(jax.pmap(lambda p, x: x @ p['w'] + p['b']), static_argnums=(0,), static_return=False)(JU.replicate(PU_P), np.ones((5, 3)))",
        "JU.pad_shard_unpad(jax.pmap(lambda x: x.sum(-1)), min_device_batch=4)(np.ones((9, 3)))",
        # device_put_replicated / device_put_sharded with pytrees
        "x = jax.device_put_replicated({'a': PM8[:3], 'b': 1.0}, jax.devices())\nout = jax.tree.map(lambda a: (a.shape, a.dtype, pm_shards(a)[5]), x)",
        "x = jax.device_put_replicated(PM83[0], jax.devices()[:4])\nout = (x, pm_ids(x), repr(x.sharding.spec))",
        "x = jax.device_put_sharded([{'a': PM82[i], 'b': np.float32(i)} for i in range(8)], jax.devices())\nout = jax.tree.map(lambda a: (a, pm_ids(a)), x)",
        "x = jax.device_put_sharded([PM83[i] for i in range(4)], jax.devices()[4:])\nout = pm_shards(x)",
        "jax.pmap(lambda x: x * 2)(jax.device_put_sharded(list(PM82), jax.devices()))",
        "jax.pmap(lambda x, w: x @ w)(PM83, jax.device_put_replicated(jnp.ones((3, 2)), jax.devices()))",
        "jax.device_put_sharded([PM8[:2], PM8[:3]], jax.devices()[:2])",
        "jax.device_put_sharded([PM8[:2]] * 3, jax.devices()[:2])",
        "jax.device_put_replicated(PM8, [])",
        # pmap with pytree in_axes, static arguments and keyword arguments as training loops use them
        f"{p}(pu_loss, in_axes=(None, 0, 0))(PU_P, PU_X, PU_Y)",
        f"{p}(pu_loss, in_axes=({{'w': None, 'b': None}}, 0, 0))(PU_P, PU_X, PU_Y)",
        f"{p}(pu_loss, in_axes=({{'w': None, 'b': 0}}, 0, 0))({{'w': PU_P['w'], 'b': jnp.ones((8, 2))}}, PU_X, PU_Y)",
        f"{p}(lambda p, x: jax.tree.map(lambda a: a * x.sum(), p), in_axes=(None, 0))(PU_P, PU_X)['b']",
        f"{p}(lambda p, x: x @ p['w'], in_axes=(None, 0), out_axes=1)(PU_P, PU_X)",
        f"{p}(lambda x, train: x * (2.0 if train else 1.0), static_broadcasted_argnums=(1,))(PM8, True)",
        f"f = {p}(lambda x, train: x * (2.0 if train else 1.0), static_broadcasted_argnums=(1,))\nout = (f(PM8, True), f(PM8, False), f(PM8, True))",
        f"{p}(lambda x, cfg: x * cfg['s'], static_broadcasted_argnums=1)(PM8, {{'s': 2}})",
        f"{p}(lambda x, shape: jnp.zeros(shape) + x, static_broadcasted_argnums=1)(PM8, (2, 2))",
        f"{p}(lambda x, *, scale: x * scale)(PM8, scale=PM8)",
        f"{p}(lambda x, scale=2.0: x * scale)(PM8, scale=jnp.full(8, 3.0))",
        # gradients inside pmap, their pmean/psum over pytrees
        f"{p}(jax.grad(pu_loss), in_axes=(None, 0, 0))(PU_P, PU_X, PU_Y)",
        f"{p}(lambda p, x, y: lax.pmean(jax.grad(pu_loss)(p, x, y), 'b'), in_axes=(None, 0, 0), axis_name='b')(PU_P, PU_X, PU_Y)",
        f"{p}(lambda p, x, y: lax.psum(jax.grad(pu_loss)(p, x, y), 'b'), in_axes=(None, 0, 0), axis_name='b')(PU_P, PU_X, PU_Y)['w'][3]",
        f"{p}(lambda p, x, y: jax.value_and_grad(pu_loss)(p, x, y), in_axes=(None, 0, 0))(PU_P, PU_X, PU_Y)[0]",
        f"{p}(lambda p, x, y: jax.value_and_grad(lambda p: (pu_loss(p, x, y), x.sum()), has_aux=True)(p), in_axes=(None, 0, 0))(PU_P, PU_X, PU_Y)[0]",
        f"{p}(lambda p, x, y: lax.pmean(jax.value_and_grad(pu_loss)(p, x, y), 'b'), in_axes=(None, 0, 0), axis_name='b', out_axes=None)(PU_P, PU_X, PU_Y)",
        f"{p}(lambda x: lax.psum({{'i': jnp.int32(1), 'f': x, 'h': x.astype(jnp.float16), 'b': x > 3}}, 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.pmean((x, [x * 2]), 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.pmax({{'a': x, 'b': -x}}, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.psum(x, axis_name='i') / lax.psum(1, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.pmean(jax.vmap(lambda r: lax.pmean(r, 'v'), axis_name='v')(x), 'i'), axis_name='i')(PM83)",
        f"{p}(jax.vmap(lambda r: lax.psum(r, ('i', 'v')) / lax.psum(1, ('i', 'v')), axis_name='v'), axis_name='i')(PM83)",
        f"{p}(jax.vmap(jax.grad(lambda w, x: lax.pmean((w * x).sum(), 'v')), in_axes=(None, 0), axis_name='v'), in_axes=(None, 0), axis_name='i')(jnp.ones(3), PM83.reshape(8, 1, 3))",
        f"jax.grad(lambda w: {p}(lambda w, x: lax.pmean(pu_loss(w, x, x[:, :2]), 'b'), in_axes=(None, 0), axis_name='b')(w, PU_X)[0])(PU_P)",
        f"{p}(lambda x: jax.grad(lambda x: lax.pmean(x, 'i') ** 2)(x), axis_name='i')(PM8)",
        f"{p}(lambda x: jax.grad(lambda x: lax.psum(x ** 2, 'i'))(x), axis_name='i')(PM8)",
        f"{p}(lambda x: jax.grad(lambda x: lax.all_gather(x, 'i').sum())(x), axis_name='i')(PM8)",
        f"{p}(lambda x: jax.jacrev(lambda x: lax.pmean(x, 'i'))(x), axis_name='i')(PM82)",
        # donation of a train state, optax inside pmap
        "tx = optax.adam(1e-2)\n"
        "s = JU.replicate(tx.init(PU_P))\nprm = JU.replicate(PU_P)\n"
        "@functools.partial(jax.pmap, axis_name='b', donate_argnums=(0, 1))\n"
        "def step(p, s, x, y):\n    g = lax.pmean(jax.grad(pu_loss)(p, x, y), 'b')\n    u, s = tx.update(g, s, p)\n    return optax.apply_updates(p, u), s\n"
        "for _ in range(3):\n    prm, s = step(prm, s, PU_X, PU_Y)\nout = (JU.unreplicate(prm), JU.unreplicate(s)[0].count)",
        "tx = optax.chain(optax.clip_by_global_norm(0.1), optax.inject_hyperparams(optax.sgd)(learning_rate=optax.linear_schedule(0.1, 0.0, 4), momentum=0.9))\n"
        "s = jax.pmap(tx.init)(JU.replicate(PU_P))\nprm = JU.replicate(PU_P)\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(p, s, x, y):\n    g = lax.pmean(jax.grad(pu_loss)(p, x, y), 'b')\n    u, s = tx.update(g, s, p)\n    return optax.apply_updates(p, u), s\n"
        "for _ in range(3):\n    prm, s = step(prm, s, PU_X, PU_Y)\nout = (prm['w'][5], s[1].hyperparams['learning_rate'])",
        "tx = optax.multi_transform({'w': optax.adam(0.1), 'b': optax.set_to_zero()}, {'w': 'w', 'b': 'b'})\n"
        "prm = JU.replicate(PU_P)\ns = JU.replicate(tx.init(PU_P))\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(p, s, x, y):\n    g = lax.pmean(jax.grad(pu_loss)(p, x, y), 'b')\n    u, s = tx.update(g, s, p)\n    return optax.apply_updates(p, u), s\n"
        "prm, s = step(prm, s, PU_X, PU_Y)\nprm, s = step(prm, s, PU_X, PU_Y)\nout = JU.unreplicate(prm)",
        "tx = optax.masked(optax.adamw(0.1, weight_decay=0.5), {'w': True, 'b': False})\n"
        "prm = JU.replicate(PU_P)\ns = JU.replicate(tx.init(PU_P))\n"
        "step = jax.pmap(lambda p, s, g: (lambda u: (optax.apply_updates(p, u[0]), u[1]))(tx.update(g, s, p)))\n"
        "prm, s = step(prm, s, jax.tree.map(jnp.ones_like, prm))\nout = (JU.unreplicate(prm), jax.tree.map(lambda a: a.shape, s))",
        "x = jax.pmap(lambda x: x)(PM8)\nf = jax.pmap(lambda d: {'a': d['a'] + 1, 'b': d['b']}, donate_argnums=0)\nout = f({'a': x, 'b': PM8})",
        # a flax TrainState and a BatchNorm/Dropout model replicated
        "m = PuMLP()\nv = m.init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "st = flax.training.train_state.TrainState.create(apply_fn=m.apply, params=v['params'], tx=optax.sgd(0.1))\n"
        "rst = JU.replicate(st)\nbs = JU.replicate(v['batch_stats'])\n"
        "@functools.partial(jax.pmap, axis_name='batch')\n"
        "def step(st, bs, x, y, k):\n"
        "    def loss(p):\n        out, upd = st.apply_fn({'params': p, 'batch_stats': bs}, x, train=True, rngs={'dropout': k}, mutable=['batch_stats'])\n        return ((out - y) ** 2).mean(), upd\n"
        "    (l, upd), g = jax.value_and_grad(loss, has_aux=True)(st.params)\n"
        "    g = lax.pmean(g, 'batch')\n    return st.apply_gradients(grads=g), upd['batch_stats'], lax.pmean(l, 'batch')\n"
        "rst, bs, l = step(rst, bs, PU_X, PU_Y, CU.shard_prng_key(random.PRNGKey(1)))\n"
        "out = (l, JU.unreplicate(rst).step, JU.unreplicate(bs), JU.unreplicate(rst.params)['Dense_1'])",
        "m = PuMLP()\nv = m.init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "out = jax.pmap(lambda v, x: m.apply(v, x), in_axes=(None, 0))(v, PU_X)",
        "m = PuMLP()\nv = m.init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "out = jax.pmap(lambda v, x: m.apply(v, x, train=True, mutable=['batch_stats'], rngs={'dropout': random.PRNGKey(2)})[1], in_axes=(None, 0), axis_name='batch')(v, PU_X)",
        "m = PuMLP()\nv = m.init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "out = jax.pmap(lambda v, x: m.apply(v, x, train=True, mutable=['batch_stats'], rngs={'dropout': random.PRNGKey(2)})[1], in_axes=(None, 0))(v, PU_X)",
        "m = fnn.Dense(3)\nv = jax.pmap(m.init)(CU.shard_prng_key(random.PRNGKey(0)), jnp.ones((8, 1, 2)))\nout = jax.tree.map(lambda a: a.shape, v)",
        "m = fnn.Dense(3)\nv = jax.pmap(m.init, in_axes=(None, 0))(random.PRNGKey(0), jnp.ones((8, 1, 2)))\nout = (v['params']['kernel'][0] == v['params']['kernel'][7]).all()",
        # pmap of jit / jit of pmap / pmap stages users call
        f"{p}(jax.jit(lambda x, n: x * n, static_argnums=1), static_broadcasted_argnums=1)(PM8, 3)",
        f"jax.jit({p}(lambda x: lax.pmean(x, 'i'), axis_name='i'))(PM83)",
        f"{p}(lambda x: x * 2).lower(PM8).compile()(PM8)",
        f"{p}(lambda x, n: x * n, static_broadcasted_argnums=1).lower(PM8, 3).compile()(PM8)",
        f"jax.eval_shape({p}(pu_loss, in_axes=(None, 0, 0)), PU_P, PU_X, PU_Y)",
        f"jax.make_jaxpr({p}(lambda x: lax.psum(x, 'i'), axis_name='i'))(PM8).out_avals",
        # per-device randomness, collectives inside loops, conditionals and checkpoints
        f"{p}(lambda k, x: x + random.normal(random.fold_in(k, lax.axis_index('i')), (3,)), in_axes=(None, 0), axis_name='i')(random.PRNGKey(0), PM83)",
        f"{p}(lambda k: random.uniform(random.fold_in(k, lax.axis_index('i'))), in_axes=None, axis_size=8, axis_name='i')(random.key(3))",
        f"{p}(lambda k: random.key_data(random.fold_in(k, lax.axis_index('i'))), in_axes=None, axis_size=4, axis_name='i')(random.key(3))",
        f"{p}(lambda k: random.bernoulli(k, 0.5, (4,)))(CU.shard_prng_key(random.PRNGKey(7)))",
        f"{p}(lambda x: lax.scan(lambda c, r: (c + lax.psum(r, 'i'), c), 0.0, x), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.fori_loop(0, 3, lambda j, c: lax.pmean(c * 2, 'i'), x), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.cond(lax.axis_index('i') % 2 == 0, lambda v: lax.psum(v, 'i'), lambda v: lax.psum(-v, 'i'), x), axis_name='i')(PM8)",
        f"{p}(lambda x: lax.while_loop(lambda c: lax.psum(c, 'i') < 100, lambda c: c + 1, x), axis_name='i')(PM8)",
        f"{p}(jax.checkpoint(lambda x: lax.pmean(jnp.sin(x) ** 2, 'i')), axis_name='i')(PM83)",
        f"{p}(lambda x: jax.grad(jax.checkpoint(lambda v: lax.psum(jnp.sin(v).sum(), 'i')))(x), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.all_gather({{'a': x, 'b': x.sum()}}, 'i'), axis_name='i')(PM83)['b']",
        f"{p}(lambda x: lax.all_gather(x, 'i', tiled=True).reshape(-1)[lax.axis_index('i')], axis_name='i')(PM82)",
        f"{p}(lambda x, t: jnp.take(t, lax.axis_index('i')) * x, in_axes=(0, None), axis_name='i')(PM8, np.arange(10.0, 18.0))",
        f"{p}(lambda x: jnp.where(lax.axis_index('i') < 4, lax.pmax(x, 'i'), lax.pmin(x, 'i')), axis_name='i')(PM83)",
        f"{p}(lambda x: lax.psum(x, 'i', axis_index_groups=[[0, 1, 2, 3], [4, 5, 6, 7]]) / lax.psum(1, 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: (lax.pmean(x, 'i') * 0 + lax.axis_size('i')).astype(jnp.int32), axis_name='i')(PM8)",
        f"{p}(lambda x: jax.lax.psum(jax.lax.stop_gradient(x), 'i'), axis_name='i')(PM8)",
        f"{p}(lambda x: jax.nn.log_softmax(x) - lax.pmean(jax.nn.log_softmax(x), 'i'), axis_name='i')(PM83)",
        f"{p}(lambda x: jnp.mean(lax.all_gather(x, 'i'), axis=0), axis_name='i')(PM83)",
        # outputs of pmap fed to the next step as they are: pytrees, keys and python numbers
        f"f = {p}(lambda s, x: (s + x, s * x))\ns, y = f(PM8, PM8)\ns, y = f(s, y)\nout = (s, y)",
        f"f = {p}(lambda k: random.split(k)[0])\nks = random.split(random.key(0), 8)\nout = random.key_data(f(f(ks)))[:2]",
        f"f = {p}(lambda c, x: {{'n': c['n'] + 1, 'm': c['m'] + x.mean()}})\nc = {{'n': jnp.zeros(8, jnp.int32), 'm': jnp.zeros(8)}}\nfor _ in range(3):\n    c = f(c, PM83)\nout = c",
        f"{p}(lambda x, n: x * n, in_axes=(0, None))(PM8, 3)",
        f"{p}(lambda x, n: x * n, in_axes=(0, None))(PM8, 3).dtype",
        f"{p}(lambda x, n: x + n, in_axes=(0, None))(np.arange(8, dtype=np.int8), 300)",
        f"{p}(lambda x, y: x * y)(np.arange(8, dtype=np.int16), np.arange(8.0, dtype=np.float16))",
        # mixed precision, gradient accumulation and parameter averages in a pmapped step
        "ds = JU.replicate(flax.training.dynamic_scale.DynamicScale(growth_interval=2))\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(ds, p, x, y):\n    ds, finite, l, g = ds.value_and_grad(pu_loss, axis_name='b')(p, x, y)\n    return ds, finite, l, g\n"
        "ds, finite, l, g = step(ds, JU.replicate(PU_P), PU_X, PU_Y)\nout = (JU.unreplicate(ds).scale, finite, l, JU.unreplicate(g))",
        "ds = JU.replicate(flax.training.dynamic_scale.DynamicScale(growth_interval=1))\n"
        "step = jax.pmap(lambda ds, p, x: ds.value_and_grad(lambda p: (p['w'] * x.sum()).sum() / x.sum(), axis_name='b')(p)[:2], axis_name='b')\n"
        "x = PU_X.at[3].set(jnp.inf)\nds, finite = step(ds, JU.replicate(PU_P), x)\nout = (ds.scale, ds.fin_steps, finite)",
        "tx = optax.MultiSteps(optax.adam(0.1), every_k_schedule=2)\n"
        "prm = JU.replicate(PU_P)\ns = JU.replicate(tx.init(PU_P))\n"
        "@functools.partial(jax.pmap, axis_name='b')\n"
        "def step(p, s, x, y):\n    g = lax.pmean(jax.grad(pu_loss)(p, x, y), 'b')\n    u, s = tx.update(g, s, p)\n    return optax.apply_updates(p, u), s\n"
        "hist = []\nfor _ in range(3):\n    prm, s = step(prm, s, PU_X, PU_Y)\n    hist.append((JU.unreplicate(prm)['b'], JU.unreplicate(s).mini_step))\nout = hist",
        "tx = optax.chain(optax.sgd(0.1), optax.ema(0.9))\n"
        "prm = JU.replicate(PU_P)\ns = jax.pmap(tx.init)(prm)\n"
        "step = jax.pmap(lambda p, s, x, y: (lambda u: (optax.apply_updates(p, u[0]), u[1]))(tx.update(lax.pmean(jax.grad(pu_loss)(p, x, y), 'b'), s, p)), axis_name='b')\n"
        "prm, s = step(prm, s, PU_X, PU_Y)\nprm, s = step(prm, s, PU_X, PU_Y)\nout = (JU.unreplicate(prm), JU.unreplicate(s[1]).count)",
        "st = flax.training.train_state.TrainState.create(apply_fn=None, params=PU_P, tx=optax.adam(1e-2))\n"
        "rst = JU.replicate(st)\n"
        "step = jax.pmap(lambda st, x, y: st.apply_gradients(grads=lax.pmean(jax.grad(pu_loss)(st.params, x, y), 'b')), axis_name='b', donate_argnums=0)\n"
        "for _ in range(2):\n    rst = step(rst, PU_X, PU_Y)\nu = JU.unreplicate(rst)\nout = (u.step, u.params, jax.tree.map(lambda a: a.shape, rst.opt_state))",
        "st = flax.training.train_state.TrainState.create(apply_fn=None, params=PU_P, tx=optax.sgd(0.1))\n"
        "rst = JU.replicate(st)\nrst = rst.replace(step=rst.step + 5)\nout = (rst.step, JU.unreplicate(rst).step)",
        "rng = random.PRNGKey(0)\nrngs = random.split(rng, jax.local_device_count())\n"
        "f = jax.pmap(lambda k, x: fnn.Dropout(0.5).apply({}, x, deterministic=False, rngs={'dropout': k}))\nout = f(rngs, jnp.ones((8, 6)))",
        "m = fnn.Dense(2)\nv = m.init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "out = JU.pad_shard_unpad(jax.pmap(lambda v, x: m.apply(v, x), in_axes=(None, 0)), static_argnums=(0,))(v, np.arange(33.0).reshape(11, 3) / 10)",
        # host callbacks inside a pmap
        "jax.pmap(lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct((), jnp.float32), x))(PM8)",
        "jax.pmap(lambda x: jax.pure_callback(lambda v: v * 2, jax.ShapeDtypeStruct((3,), jnp.float32), x) + lax.axis_index('i'), axis_name='i')(PM83)",
        "out = sorted(TA_out(lambda: jax.pmap(lambda x: jax.debug.print('d {}', x))(np.arange(4.0))).splitlines())",
        "calls = []\njax.pmap(lambda x: jax.debug.callback(lambda v: calls.append(float(v)), x * 2))(PM8)\njax.effects_barrier()\nout = sorted(calls)",
        # Flax's lifted transforms inside a pmapped step
        "class S(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        return fnn.scan(lambda mdl, c, _: (jnp.tanh(fnn.Dense(3)(c)), None), variable_broadcast='params', split_rngs={'params': False}, length=3)(self, x, None)[0]\n"
        "v = S().init(random.PRNGKey(0), jnp.ones((1, 3)))\n"
        "out = jax.pmap(lambda v, x: S().apply(v, x), in_axes=(None, 0))(v, PU_X)",
        "class R(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        return fnn.remat(fnn.Dense)(2)(jnp.sin(x))\n"
        "v = R().init(random.PRNGKey(1), jnp.ones((1, 3)))\n"
        "out = jax.pmap(lambda v, x, y: lax.pmean(jax.grad(lambda v: ((R().apply(v, x) - y) ** 2).mean())(v), 'b'), in_axes=(None, 0, 0), axis_name='b')(v, PU_X, PU_Y)",
        "class V(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        return fnn.vmap(fnn.Dense, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=0)(2)(x)\n"
        "v = V().init(random.PRNGKey(2), jnp.ones((2, 1, 3)))\n"
        "out = jax.pmap(lambda v, x: V().apply(v, x[:, None]), in_axes=(None, 0))(v, PU_X)",
        "class B(fnn.Module):\n    @fnn.compact\n    def __call__(self, x):\n        return fnn.vmap(lambda mdl, y: fnn.BatchNorm(use_running_average=False, axis_name='v')(y), variable_axes={'params': None, 'batch_stats': None}, split_rngs={'params': False}, axis_name='v')(self, x)\n"
        "v = B().init(random.PRNGKey(2), jnp.ones((2, 1, 3)))\n"
        "out = jax.pmap(lambda v, x: B().apply(v, x[:, None], mutable=['batch_stats']), in_axes=(None, 0))(v, PU_X)",
    ]


def cases() -> list[str]:
    return (
        _devices()
        + _pmap_axes()
        + _collectives()
        + _transforms()
        + _arrays()
        + _device_put()
        + _meshes()
        + _mistakes()
        + _usage()
    )
