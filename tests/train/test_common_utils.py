"""train.common_utils and train.jax_utils against Flax 0.12.8 (values recorded from it, on one
JAX CPU device; numbax has ``core.local_device_count()`` devices, so the device axis is that)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from train import common_utils, jax_utils

N = core.local_device_count()


def test_onehot():
    got = common_utils.onehot(np.array([[0, 2], [1, 3]]), 4, on_value=0.9, off_value=0.1 / 3)
    assert got.dtype == np.float32 and got.shape == (2, 2, 4)
    third = np.float32(0.1 / 3)
    expected = np.full((2, 2, 4), third, np.float32)
    for (i, j), label in np.ndenumerate(np.array([[0, 2], [1, 3]])):
        expected[i, j, label] = np.float32(0.9)
    np.testing.assert_array_equal(got, expected)  # Flax: 0.8999999761581421 / 0.0333333350718
    assert common_utils.onehot(jnp.array([1, 0]), 3).dtype == np.float32


def test_stack_forest_and_get_metrics():
    forest = [
        {"a": np.float32(1), "b": (np.arange(2, dtype=np.int32), 3)},
        {"a": np.float32(2), "b": (np.arange(2, dtype=np.int32) + 5, 4)},
    ]
    got = common_utils.stack_forest(forest)
    assert got["a"].dtype == np.float32 and got["a"].tolist() == [1.0, 2.0]
    assert got["b"][0].tolist() == [[0, 1], [5, 6]] and got["b"][1].dtype == np.int32
    assert got["b"][1].tolist() == [3, 4]
    replicate = core.pmap(lambda x: x)  # pmapped steps' outputs: one shard per device
    per_step = [
        {"loss": replicate(jnp.array([1.0] * N)), "n": replicate(jnp.array([2] * N))},
        {"loss": replicate(jnp.array([3.0] * N)), "n": replicate(jnp.array([4] * N))},
    ]
    metrics = common_utils.get_metrics(per_step)
    assert metrics["loss"].tolist() == [1.0, 3.0] and metrics["n"].dtype == np.int32
    # flax 0.12.8 takes the first shard without its unit axis: a value on one device is its
    # own shard (ValueError: cannot select an axis to squeeze out ...; axis 0 is out of
    # bounds for array of dimension 0)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        common_utils.get_metrics([{"a": jnp.ones((3, 2))}])
    with pytest.raises(ValueError, match="axis 0 is out of bounds for array of dimension 0"):
        common_utils.get_metrics([{"a": jnp.array(1.0)}])
    one = common_utils.get_metrics([{"a": jnp.ones((1, 2))}, {"a": jnp.zeros((1, 2))}])
    assert one["a"].tolist() == [[1.0, 1.0], [0.0, 0.0]]  # flax 0.12.8


def test_shard_and_keys():
    x = np.arange(12 * N).reshape(6 * N, 2)
    sharded = common_utils.shard({"x": x})["x"]
    assert sharded.shape == (N, 6, 2)
    np.testing.assert_array_equal(np.asarray(sharded).reshape(-1, 2), x)
    keys = common_utils.shard_prng_key(core.random.key(0))
    np.testing.assert_array_equal(
        core.random.key_data(keys), core.random.key_data(core.random.split(core.random.key(0), N))
    )


def test_replicate_unreplicate():
    tree = {"a": 0, "b": np.float32(1.5), "c": jnp.ones((2,), jnp.bfloat16), "d": True, "e": 2.5}
    replicated = jax_utils.replicate(tree)
    # Flax: int32 / float32 / bfloat16 / bool / float32, a leading device axis
    dtypes = {k: (str(v.dtype), v.shape) for k, v in replicated.items()}
    assert dtypes == {
        "a": ("int32", (N,)),
        "b": ("float32", (N,)),
        "c": ("bfloat16", (N, 2)),
        "d": ("bool", (N,)),
        "e": ("float32", (N,)),
    }
    assert sorted(d.id for d in replicated["c"].devices()) == list(range(N))
    back = jax_utils.unreplicate(replicated)
    assert back["c"].shape == (2,) and back["e"] == 2.5 and back["a"].dtype == np.int32
    assert float(jax_utils.unreplicate({"s": jnp.array(3.0)})["s"]) == 3.0  # 0-d kept


def test_prefetch_to_device():
    items = [{"x": np.ones((N, 3))}, {"x": np.zeros((N, 3))}, {"x": np.full((N, 3), 2.0)}]
    got = list(jax_utils.prefetch_to_device(iter(items), 2))
    assert [float(g["x"][0, 0]) for g in got] == [1.0, 0.0, 2.0]
    assert got[0]["x"].shape == (N, 3)
    if N > 1:  # Flax 0.12.8: IndivisibleError (a ValueError), the rows do not split evenly
        with pytest.raises(ValueError):
            list(jax_utils.prefetch_to_device(iter([{"x": np.ones((N + 1, 3))}]), 1))


@pytest.mark.parametrize("labels", [[0, 1], (0, 1)])
def test_onehot_refuses_python_sequences(labels):
    # flax 0.12.8: TypeError "list indices must be integers or slices, not tuple" (tuple alike)
    with pytest.raises(TypeError) as info:
        common_utils.onehot(labels, 2)
    first = str(info.value).split("\n")[0]
    assert first == f"{type(labels).__name__} indices must be integers or slices, not tuple"
