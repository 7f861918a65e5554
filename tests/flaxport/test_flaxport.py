"""``flaxport``: Flax's module layout over numbax. A Flax program (``FLAX_PROGRAM``) ported by
rewriting only its imports (``flaxport.port``: flax -> flaxport, jax -> core, optax -> optim)
gives the numbers Flax 0.12.8 + JAX 0.10.2 + Optax 0.2.8 gave for it (recorded below),
including byte-identical ``flax.serialization.to_bytes`` output for a fixed tree (parameters
are compared as values: initializers and a training step may differ from JAX in the last bit)."""

import importlib
import sys
import types

import flaxport.typing
import numpy as np
import pytest
from flaxport.linen import linear as flax_linear

import flaxport
from flaxport.port import port_source

FLAX_PROGRAM = """
import hashlib

import flax
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.core import FrozenDict, freeze, unfreeze
from flax.training import train_state


@flax.struct.dataclass
class Stats:
    loss: jax.Array
    count: int = flax.struct.field(pytree_node=False, default=0)


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(4)(x))
        return nn.Dense(2)(x)


def run():
    model = MLP()
    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    variables = model.init(jax.random.PRNGKey(0), x)
    frozen = freeze(variables)
    assert isinstance(frozen, FrozenDict)
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=unfreeze(frozen)["params"], tx=optax.sgd(0.1)
    )

    def loss_fn(params):
        return jnp.sum(state.apply_fn({"params": params}, x) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    state = state.apply_gradients(grads=grads)
    stats = Stats(loss=loss, count=1).replace(count=2)
    fixed = {"w": jnp.arange(6.0).reshape(2, 3), "b": (jnp.int32(3), [jnp.ones(2, jnp.int8)])}
    fixed_bytes = flax.serialization.to_bytes(fixed)
    data = flax.serialization.to_bytes(state.params)
    restored = flax.serialization.from_bytes(state.params, data)
    flat = flax.traverse_util.flatten_dict(restored, sep="/")
    return {
        "loss": float(stats.loss),
        "count": stats.count,
        "step": int(state.step),
        "fixed_bytes_sha256": hashlib.sha256(fixed_bytes).hexdigest(),
        "flat": {k: jnp.asarray(v).tolist() for k, v in sorted(flat.items())},
        "state_dict_keys": sorted(flax.serialization.to_state_dict(state.params)),
    }
"""

# What FLAX_PROGRAM's run() returned under Flax (printed once with /opt/ref/bin/python).
EXPECTED = {
    "fixed_bytes_sha256": "cbe09ecc70cfc0a2e56b9e771aa3d41b7f00b79015433f86cc0dee3d191b30a9",
    "count": 2,
    "flat": {
        "Dense_0/bias": [0.008417809382081032, -0.03890210762619972, -0.018593428656458855,
                         -0.03471217676997185],
        "Dense_0/kernel": [[-0.9432414770126343, 0.4278600215911865, -0.7768509387969971,
                            -0.5158409476280212],
                           [0.5446028113365173, 0.7177581787109375, 0.6139414310455322,
                            -0.06465477496385574],
                           [0.2612609267234802, 0.4099026322364807, -1.0467287302017212,
                            0.4415251910686493]],
        "Dense_1/bias": [0.028453325852751732, 0.05227431282401085],
        "Dense_1/kernel": [[0.013111025094985962, 0.16979646682739258],
                           [0.1143471747636795, -0.3243808150291443],
                           [0.32449615001678467, 0.4075661897659302],
                           [-0.5471075773239136, -0.3419087529182434]],
    },
    "loss": 0.3063199520111084,
    "state_dict_keys": ["Dense_0", "Dense_1"],
    "step": 1,
}  # fmt: skip


def test_ported_flax_program_gives_flaxs_numbers():
    module = types.ModuleType("ported_flax_program")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    try:
        ported, missing = port_source(FLAX_PROGRAM)
        assert missing == []
        exec(compile(ported, module.__name__, "exec"), module.__dict__)
        got = module.run()
    finally:
        del sys.modules[module.__name__]
    assert got["fixed_bytes_sha256"] == EXPECTED["fixed_bytes_sha256"]
    assert (got["count"], got["step"], got["state_dict_keys"]) == (2, 1, ["Dense_0", "Dense_1"])
    np.testing.assert_allclose(got["loss"], EXPECTED["loss"], rtol=1e-6)
    assert sorted(got["flat"]) == sorted(EXPECTED["flat"])
    for key, want in EXPECTED["flat"].items():
        np.testing.assert_allclose(got["flat"][key], want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(flaxport.ALIASES))
def test_every_alias_is_the_numbax_module(name):
    target = importlib.import_module(flaxport.ALIASES[name])
    assert importlib.import_module(f"flaxport.{name}") is target
    assert sys.modules[f"flaxport.{name}"] is target
    obj = flaxport
    for part in name.split("."):
        obj = getattr(obj, part)
    assert obj is target


def test_import_spellings():
    from flaxport.core import FrozenDict, freeze
    from flaxport.training.train_state import TrainState

    import nn
    import train

    assert TrainState is train.TrainState
    assert isinstance(freeze({"a": 1}), FrozenDict) and FrozenDict is nn.FrozenDict
    assert flaxport.linen.Dense is nn.Dense
    assert flaxport.struct.dataclass is __import__("core").struct.dataclass


def test_flax_config_flags():
    import pytest

    config = flaxport.config
    assert config.flax_use_orbax_checkpointing is True  # Flax's default
    config.update("flax_use_orbax_checkpointing", False)
    try:
        assert config.flax_use_orbax_checkpointing is False
        with config.temp_flip_flag("profile", False):
            assert config.flax_profile is False
        assert config.flax_profile is True
    finally:
        config.update("flax_use_orbax_checkpointing", True)
    with pytest.raises(LookupError, match="Unrecognized config option"):
        config.update("flax_no_such_flag", 1)
    with pytest.raises(NotImplementedError, match="flax_pytree_module"):
        config.update("flax_pytree_module", False)
    with config.temp_flip_flag("preserve_adopted_names", True):
        assert flaxport.linen.module._preserve_adopted_names is True
    assert flaxport.linen.module._preserve_adopted_names is False


def test_flax_use_orbax_checkpointing_off_writes_flaxs_legacy_msgpack(tmp_path):
    # Flax writes its legacy msgpack checkpoints with the flag off (Orbax directories with it
    # on, for which numbax's npz stands in); restored raw, msgpack's leaves are numpy arrays.
    checkpoints = flaxport.training.checkpoints
    flaxport.config.update("flax_use_orbax_checkpointing", False)
    try:
        path = checkpoints.save_checkpoint(tmp_path, {"w": np.ones(2, np.float32)}, step=0)
        assert checkpoints.detect_format(path) == "msgpack"
        assert type(checkpoints.restore_checkpoint(tmp_path, None)["w"]) is np.ndarray
    finally:
        flaxport.config.update("flax_use_orbax_checkpointing", True)
    path = checkpoints.save_checkpoint(tmp_path, {"w": np.ones(2, np.float32)}, step=1)
    assert checkpoints.detect_format(path) == "npz"


def test_flax_return_frozendict():
    # the regular-dict upgrade guide's check: FrozenDicts from init, apply(mutable=...) and
    # Module.variables with the flag on, regular dicts with it off (Flax's default)
    import core
    from flaxport import linen as nn

    class Counter(nn.Module):
        @nn.compact
        def __call__(self, x):
            count = self.variable("stats", "count", lambda: 0)
            count.value += 1
            return nn.Dense(2)(x), self.variables

    x = core.numpy.ones((1, 3))
    try:
        flaxport.config.update("flax_return_frozendict", True)
        variables = Counter().init(core.random.key(0), x)
        (_, seen), state = Counter().apply(variables, x, mutable=["stats"])
        assert all(isinstance(v, flaxport.core.FrozenDict) for v in (variables, seen, state))
    finally:
        flaxport.config.update("flax_return_frozendict", False)
    variables = Counter().init(core.random.key(0), x)
    (_, seen), state = Counter().apply(variables, x, mutable=["stats"])
    assert all(type(v) is dict for v in (variables, seen, state))
    assert int(state["stats"]["count"]) == 2


def test_flax_fix_rng_separator():
    # Flax's RNG guide sets flax_fix_rng_separator=True: a zero byte before each path element
    # of the hashed RNG path. Values from Flax 0.12.8 / JAX 0.10.2 with the flag on.
    import numpy as np

    import core
    import core.numpy as jnp
    from flaxport import linen as nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(x) + nn.Dropout(0.5, deterministic=False)(x)

    x = jnp.ones((1, 2))
    rngs = {"params": core.random.PRNGKey(0), "dropout": core.random.PRNGKey(1)}
    flaxport.config.update("flax_fix_rng_separator", True)
    try:
        v = M().init(rngs, x)
        y = M().apply(v, x, rngs={"dropout": core.random.PRNGKey(2)})
    finally:
        flaxport.config.update("flax_fix_rng_separator", False)
    want = [[0.4748716, -0.06675973], [-0.2708714, 0.5220101]]
    np.testing.assert_allclose(v["params"]["Dense_0"]["kernel"], want, rtol=1e-5)
    np.testing.assert_allclose(y, [[2.2040002, 0.45525035]], rtol=1e-5)
    v_default = M().init(rngs, x)  # the flag is off again: Flax's default keys
    assert not np.allclose(v_default["params"]["Dense_0"]["kernel"], want)


# flax.typing's and flax.linen.linear's annotation names (Flax 0.12.8) that Flax code imports.
_FLAX_TYPING = [
    "Array",
    "PRNGKey",
    "RNGSequences",
    "Dtype",
    "Shape",
    "Key",
    "is_key_like",
    "Path",
    "PathParts",
    "Leaf",
    "PrecisionLike",
    "DotGeneralT",
    "ConvGeneralDilatedT",
    "EinsumT",
    "PaddingLike",
    "LaxPadding",
    "Initializer",
    "Collection",
    "MutableCollection",
    "VariableDict",
    "FrozenVariableDict",
    "MutableVariableDict",
    "PRNGFoldable",
    "In",
    "Out",
    "Axis",
    "InOutAxis",
    "ScanAxis",
    "InOutScanAxis",
    "Axes",
    "LogicalNames",
    "AxisName",
    "LogicalRules",
    "ArrayPytree",
    "LogicalPartitionSpec",
    "LogicalPartitionSpecPytree",
    "PartitionSpecPytree",
    "Sharding",
    "Missing",
    "MISSING",
]
_FLAX_LINEAR = [
    "Array",
    "ConvGeneralDilatedT",
    "DotGeneralT",
    "Dtype",
    "Initializer",
    "LaxPadding",
    "PaddingLike",
    "PrecisionLike",
    "PRNGKey",
    "PromoteDtypeFn",
    "Shape",
    "default_kernel_init",
]


def test_flax_typing_names():
    assert [n for n in _FLAX_TYPING if not hasattr(flaxport.typing, n)] == []
    assert [n for n in _FLAX_LINEAR if not hasattr(flax_linear, n)] == []
    assert flaxport.typing.In(0).axis == 0 and flaxport.typing.MISSING is flaxport.typing.MISSING
