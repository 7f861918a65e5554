"""A sharded Flax training program (a 2x4 mesh, `nn.with_partitioning` and logical axis names,
`with_sharding_constraint`, `jax.eval_shape` + `nn.get_sharding` / `nn.logical_to_mesh_sharding`,
`jax.jit` with `static_argnums`, `in_shardings` and `out_shardings`, `with mesh:`), written
against JAX/Flax/Optax and ported by `flaxport.port`, gives what JAX 0.10.2 + Flax 0.12.8 gave
on 8 host devices (`--xla_force_host_platform_device_count=8`): the same predictions, parameter
names and shardings (recorded below). The test session has 8 CPU devices."""

import sys
import types

import numpy as np

from flaxport.port import port_source

PROGRAM = '''
import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state
from jax.experimental import mesh_utils
from jax.lax import with_sharding_constraint
from jax.sharding import Mesh, NamedSharding, PartitionSpec

mesh = Mesh(mesh_utils.create_device_mesh((2, 4)), ("data", "model"))
RULES = (("batch", "data"), ("hidden", "model"))


def on_mesh(spec):
    return NamedSharding(mesh, spec)


class Block(nn.Module):
    """relu(x @ W1) @ W2 with W1 split over 'model' columns and W2 over 'model' rows."""

    width: int
    logical: bool

    def boxed(self, init, mesh_names, logical_names):
        if self.logical:
            return nn.with_logical_partitioning(init, logical_names)
        return nn.with_partitioning(init, mesh_names)

    @nn.compact
    def __call__(self, x):
        init = nn.initializers.xavier_normal()
        kernel_init = self.boxed(init, (None, "model"), ("embed", "hidden"))
        hidden = nn.Dense(self.width, use_bias=False, kernel_init=kernel_init)(x)
        hidden = jax.nn.relu(hidden)
        hidden = with_sharding_constraint(hidden, on_mesh(PartitionSpec("data", "model")))
        w2_init = self.boxed(init, ("model", None), ("hidden", "embed"))
        w2 = self.param("W2", w2_init, (self.width, x.shape[-1]))
        out = hidden @ w2
        if self.logical:
            return nn.with_logical_constraint(out, ("batch", "embed"))
        return with_sharding_constraint(out, on_mesh(PartitionSpec("data", None)))


class Stack(nn.Module):
    depth: int
    width: int
    logical: bool

    @nn.compact
    def __call__(self, x):
        for _ in range(self.depth):
            x = Block(self.width, self.logical)(x)
        return x


def make_state(key, x, model, tx):
    params = model.init(key, x)["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


def run(width=16, batch=8, depth=2, steps=3):
    key = jax.random.PRNGKey(0)
    tx = optax.adam(1e-2)
    x_sharding = on_mesh(PartitionSpec("data", None))
    x = jax.device_put(jnp.linspace(-1.0, 1.0, batch * width).reshape(batch, width), x_sharding)
    results, shardings = {}, {}
    for logical in (False, True):
        model = Stack(depth, width, logical)
        abstract = jax.eval_shape(functools.partial(make_state, model=model, tx=tx), key, x)
        if logical:
            specs = nn.get_partition_spec(abstract)
            state_sharding = nn.logical_to_mesh_sharding(specs, mesh, RULES)
        else:
            state_sharding = nn.get_sharding(abstract, mesh)
        shardings[logical] = state_sharding
        with mesh, nn.logical_axis_rules(RULES):
            init = jax.jit(
                make_state,
                static_argnums=(2, 3),
                in_shardings=(on_mesh(PartitionSpec()), x_sharding),
                out_shardings=state_sharding,
            )
            state = init(key, x, model, tx)

            @functools.partial(
                jax.jit, in_shardings=(state_sharding, x_sharding), out_shardings=state_sharding
            )
            def train_step(state, x):
                loss = lambda p: jnp.sum(state.apply_fn({"params": p}, x) ** 2)
                return state.apply_gradients(grads=jax.grad(loss)(state.params))

            for _ in range(steps):
                state = train_step(state, x)
            predict = jax.jit(
                lambda s, x: s.apply_fn({"params": s.params}, x),
                in_shardings=(state_sharding, x_sharding),
                out_shardings=x_sharding,
            )
            y = predict(state, x)
        kernel = state.params["Block_0"]["Dense_0"]["kernel"]
        results[str(logical)] = {
            "y_row0": [float(v) for v in y[0]],
            "y_sum": float(jnp.sum(y)),
            "y_spec": list(y.sharding.spec),
            "kernel_names": list(kernel.names),
            "kernel_spec": list(kernel.value.sharding.spec),
            "w2_spec": list(state.params["Block_1"]["W2"].value.sharding.spec),
            "kernel_shard_shape": list(kernel.value.addressable_shards[0].data.shape),
            "step": int(state.step),
        }
    results["same_shardings"] = bool(
        jax.tree_util.tree_all(
            jax.tree_util.tree_map(
                lambda a, b: a == b, shardings[False].params, shardings[True].params
            )
        )
    )
    return results
'''

# run()'s result under JAX (y_row0: the first row of the predictions after 3 Adam steps).
Y_ROW0 = [
    0.2321489155292511,
    0.07370597124099731,
    0.26558107137680054,
    0.17355993390083313,
    0.017986305058002472,
    -0.02363608591258526,
    0.30217882990837097,
    -0.08361712843179703,
    0.001911765430122614,
    0.08791862428188324,
    0.4300186038017273,
    -0.17082740366458893,
    0.26967015862464905,
    0.009196624159812927,
    0.09771155565977097,
    -0.16312634944915771,
]
EXPECTED = {
    "False": {"kernel_names": [None, "model"], "kernel_shard_shape": [16, 4],
              "kernel_spec": [None, "model"], "step": 3, "w2_spec": ["model", None],
              "y_spec": ["data", None], "y_sum": 2.9719295501708984},
    "True": {"kernel_names": ["embed", "hidden"], "kernel_shard_shape": [16, 4],
             "kernel_spec": [None, "model"], "step": 3, "w2_spec": ["model", None],
             "y_spec": ["data", None], "y_sum": 2.9719295501708984},
}  # fmt: skip


def test_ported_sharded_training_matches_jax():
    ported, missing = port_source(PROGRAM)
    assert missing == []
    module = types.ModuleType("ported_sharded_program")
    sys.modules[module.__name__] = module
    try:
        exec(compile(ported, module.__name__, "exec"), module.__dict__)
        got = module.run()
    finally:
        del sys.modules[module.__name__]
    assert got["same_shardings"] is True
    for logical, want in EXPECTED.items():
        result = got[logical]
        np.testing.assert_allclose(result.pop("y_row0"), Y_ROW0, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(result.pop("y_sum"), want["y_sum"], rtol=2e-5)
        assert result == {k: v for k, v in want.items() if k != "y_sum"}, logical
