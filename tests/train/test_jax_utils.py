"""`train.jax_utils` (`flax.jax_utils`): `scan_in_dim`, `partial_eval_by_shape`,
`pad_shard_unpad`, `pmean`. Values of Flax 0.12.8 on the same inputs were recorded with the
reference venv."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from train import jax_utils
from train.errors import BatchSizeError

XS = jnp.arange(24.0).reshape(2, 3, 4)


def test_scan_in_dim_over_two_axes():
    c, ys = jax_utils.scan_in_dim(lambda c, x: (c + x.sum() * (c + 1), x * c), 0.0, XS, axis=(2, 0))
    # Flax 0.12.8: c = 7.066913e+11; the first row of ys.
    np.testing.assert_allclose(c, 7.066913e11, rtol=1e-6)
    assert ys.shape == (2, 3, 4)
    np.testing.assert_allclose(ys[0, 0], [0.0, 636.0, 1059966.0, 1661499904.0], rtol=1e-6)


def test_scan_in_dim_keepdims():
    c, ys = jax_utils.scan_in_dim(lambda c, x: (c + x.sum(), x + c), 1.0, XS, axis=1, keepdims=True)
    assert float(c) == 277.0  # Flax 0.12.8
    np.testing.assert_array_equal(ys[1, 2], [173.0, 174.0, 175.0, 176.0])
    np.testing.assert_array_equal(ys[:, 0, 0], [1.0, 13.0])


def test_partial_eval_by_shape():
    out = jax_utils.partial_eval_by_shape(
        lambda x, y, k: (x * 2, y + 1, jnp.ones(2) * k, k + 1), [((2, 3), jnp.int32), (4,)], 5
    )
    # Flax 0.12.8: abstract outputs for what depends on the inputs, values for the rest.
    assert out[0] == core.ShapeDtypeStruct((2, 3), jnp.int32)
    assert out[1] == core.ShapeDtypeStruct((4,), jnp.float32)
    np.testing.assert_array_equal(out[2], [5.0, 5.0])
    assert out[3] == 6


def test_pad_shard_unpad_takes_any_batch_size():
    d = core.local_device_count()
    calls = []

    def per_device(w, x, y):
        calls.append(x.shape)
        return x * w + y

    f = jax_utils.pad_shard_unpad(core.pmap(per_device, in_axes=(None, 0)))
    x = np.arange(7.0, dtype=np.float32)
    out = f(2.0, x, y=np.ones(7, np.float32))
    np.testing.assert_array_equal(out, 2 * x + 1)
    assert calls[-1] == (-(-7 // d),)  # per-device batch, padded
    f(2.0, x, y=np.ones(7, np.float32), min_device_batch=5)
    assert calls[-1] == (5,)
    with pytest.raises(BatchSizeError, match="Inconsistent batch-sizes"):
        f(2.0, x, y=np.ones(6, np.float32))


def test_pad_shard_unpad_without_batched_arguments_is_flaxs_assertion():
    # the first argument is static by default: no batched argument is left (Flax 0.12.8's
    # AssertionError and first line)
    with pytest.raises(AssertionError) as info:
        jax_utils.pad_shard_unpad(lambda x: x * 2)(np.arange(5.0))
    assert isinstance(info.value, BatchSizeError)
    assert str(info.value).splitlines()[0] == "Inconsistent batch-sizes: set()"


def test_pmean_warns_and_averages():
    with pytest.warns(DeprecationWarning, match="lax.pmean"):
        out = core.vmap(lambda x: jax_utils.pmean(x, "i"), axis_name="i")(jnp.arange(4.0))
    np.testing.assert_array_equal(out, [1.5] * 4)


def test_replicate_places_copies_over_flaxs_device_put_sharded_mesh():
    x = jax_utils.replicate({"a": jnp.float32(1.0)})["a"]
    devices = core.local_devices()
    assert str(x.sharding) == (
        f"NamedSharding(mesh=Mesh('_device_put_sharded': {len(devices)}, axis_types=(Auto,)), "
        "spec=P('_device_put_sharded',), memory_kind=device)"
    )
    y = jax_utils.replicate(jnp.zeros(2), axis_name="copies")
    assert y.sharding.mesh.axis_names == ("copies",) and y.shape == (len(devices), 2)
    out = core.pmap(lambda v: v * 2)(x)  # pmap takes it as its own layout
    np.testing.assert_array_equal(np.asarray(out), np.full(len(devices), 2.0))


@pytest.mark.skipif(core.local_device_count() < 2, reason="needs two devices")
def test_unreplicate_of_a_replicated_pmap_output_is_its_first_shard():
    # Flax 0.12.8 on two devices: Array([2., 4.]) (a psum with out_axes=None is replicated
    # whole on every device; unreplicate takes the first shard, not its row 0), and the
    # stacked output of a pmap gives its row 0, Array([0., 2.]).
    n = core.local_device_count()
    x = np.arange(2.0 * n).reshape(n, 2)
    summed = core.pmap(lambda v: core.lax.psum(v, "i"), axis_name="i", out_axes=None)(x)
    np.testing.assert_array_equal(jax_utils.unreplicate(summed), x.sum(0))
    got = jax_utils.unreplicate({"a": core.pmap(lambda v: v * 2)(x)})
    np.testing.assert_array_equal(got["a"], [0.0, 2.0])


def test_prefetch_to_device_splits_rows_over_the_devices():
    # Flax 0.12.8 on two devices: a (4, 2) batch is split two rows per device over the mesh
    # '_device_put_sharded'; `devices` and `axis_name` pick the mesh (one device: 'data': 1).
    n = core.local_device_count()
    batch = np.arange(4.0 * n).reshape(2 * n, 2)
    (got,) = list(jax_utils.prefetch_to_device(iter([{"x": batch}]), 1))
    np.testing.assert_array_equal(got["x"], batch)
    assert got["x"].sharding.mesh.axis_names == ("_device_put_sharded",)
    assert sorted((s.device.id, s.data.shape) for s in got["x"].addressable_shards) == [
        (i, (2, 2)) for i in range(n)
    ]
    one = core.devices()[:1]
    (got,) = list(jax_utils.prefetch_to_device(iter([batch[:3]]), 1, one, axis_name="data"))
    np.testing.assert_array_equal(got, batch[:3])
    assert got.sharding.mesh.shape == {"data": 1}
    with pytest.raises(TypeError):  # Flax: 'numpy.float32' object is not iterable
        list(jax_utils.prefetch_to_device(iter([{"x": np.float32(1)}]), 1))
