"""core.pmap over the 8 CPU devices of the tests (tests/conftest.py): JAX's tutorial examples with
JAX's printed values, every collective across devices against the vmap reference, gradients
(psum'ed inside, and of an enclosing function), one worker thread per device running at once,
sharded outputs, in_axes/out_axes/static args/kwargs, donated arguments deleted as JAX deletes
them, errors like JAX's, no hang when a device fails, and the eager (disable_jit) and numpy
back-end paths."""

import threading
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import DeletedArrayError, JaxRuntimeError
from core.pmap import (
    PmapArgumentError,
    PmapAxesTypeError,
    PmapAxisBoundsError,
    PmapDeviceCountError,
    PmapOutAxisError,
)
from core.sharding import NamedSharding, pmap_sharding
from core.tree_util import PyTreeStructureError

# jax.pmap(normalize, axis_name="i")(np.arange(8.)) with 8 CPU devices (JAX 0.10.2): the values
# as Python floats, and as printed.
JAX_NORMALIZE = np.float32(
    [0.0, 0.0357142873108387, 0.0714285746216774, 0.1071428582072258]
    + [0.1428571492433548, 0.1785714328289032, 0.2142857164144516, 0.25]
)
JAX_NORMALIZE_PRINTED = (
    "[0.         0.03571429 0.07142857 0.10714286 0.14285715 0.17857143\n 0.21428572 0.25      ]"
)


def test_tutorial_square():
    out = core.pmap(lambda x: x**2)(np.arange(4))
    assert out.dtype == np.int32 and str(out) == "[0 1 4 9]"  # as JAX prints it
    assert out.sharding == pmap_sharding(core.devices()[:4], 0)
    assert out.devices() == set(core.devices()[:4])
    assert isinstance(out.sharding, NamedSharding) and repr(out.sharding) == (  # as JAX 0.10
        "NamedSharding(mesh=Mesh('_internal_pmap_axis_name': 4, axis_types=(Auto,)), "
        "spec=P('_internal_pmap_axis_name',), memory_kind=device)"
    )
    shards = out.addressable_shards
    assert [s.device for s in shards] == core.devices()[:4]
    np.testing.assert_array_equal(np.asarray(shards[3].data), [9])


def test_tutorial_normalize_over_8_devices():
    normalize = lambda x: x / lax.psum(x, "i")
    out = core.pmap(normalize, axis_name="i")(np.arange(8.0))
    np.testing.assert_array_equal(np.asarray(out), JAX_NORMALIZE)
    assert str(out) == JAX_NORMALIZE_PRINTED


# (axis_name, out_axes, size) -> the output's sharding as JAX 0.10.2 prints it: the mesh axis
# takes the pmap's axis_name.
SHARDING_CASES = [
    ("a", 0, 8, "Mesh('a': 8, axis_types=(Auto,)), spec=P('a',)"),
    ("a", 1, 8, "Mesh('a': 8, axis_types=(Auto,)), spec=P(None, 'a')"),
    ("a", None, 8, "Mesh('a': 8, axis_types=(Auto,)), spec=P()"),
    ("a", 0, 2, "Mesh('a': 2, axis_types=(Auto,)), spec=P('a',)"),
    (None, 0, 8, "Mesh('_internal_pmap_axis_name': 8, axis_types=(Auto,)), "
                 "spec=P('_internal_pmap_axis_name',)"),
]  # fmt: skip


@pytest.mark.parametrize("axis_name, out_axes, size, want", SHARDING_CASES)
def test_output_sharding_names_the_mesh_axis_as_jax(axis_name, out_axes, size, want):
    f = core.pmap(lambda x: x + 1, axis_name=axis_name, out_axes=out_axes)
    out = f(jnp.ones((size, 3)))
    assert repr(out.sharding) == f"NamedSharding(mesh={want}, memory_kind=device)"


def test_an_output_of_a_named_pmap_is_donated_to_an_unnamed_one():
    x = core.pmap(lambda x: x + 1, axis_name="a")(jnp.ones((4, 3)))
    out = core.pmap(lambda x: x * 2, donate_argnums=0)(x)
    assert x.is_deleted() and np.asarray(out).tolist() == [[4.0] * 3] * 4


def _all_collectives(x):
    perm = [(j, (j + 1) % 4) for j in range(4)]
    return (
        lax.psum(x, "i"),
        lax.pmean(x, "i"),
        lax.pmax(x, "i"),
        lax.pmin(x, "i"),
        lax.all_gather(x, "i"),
        lax.all_gather(x, "i", axis=-1, tiled=True),
        lax.axis_index("i"),
        lax.ppermute(x, "i", perm),
        lax.psum_scatter(jnp.arange(4.0) * x[0], "i"),
        lax.psum(x.astype(jnp.int32), "i"),
    )


@pytest.mark.parametrize("disable_jit", [False, True])
def test_collectives_across_devices_equal_named_vmap(disable_jit):
    x = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    expected = core.vmap(_all_collectives, axis_name="i")(x)
    with core.disable_jit(disable_jit):
        got = core.pmap(_all_collectives, axis_name="i")(x)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
    np.testing.assert_array_equal(np.asarray(got[0]), [[12.0, 16.0]] * 4)
    np.testing.assert_array_equal(np.asarray(got[7]), [[6, 7], [0, 1], [2, 3], [4, 5]])


def test_one_device_outputs_are_its_own_arrays_with_the_new_axis():
    """One device (a process of an MPI job) stacks nothing: its outputs, viewed with the mapped
    axis, must still read back as the stacked outputs of several devices do."""
    f = lambda x: (x * 2, x.sum(), lax.psum(x, "i"))
    x = np.arange(6.0, dtype=np.float32).reshape(1, 2, 3)
    got = core.pmap(f, axis_name="i", out_axes=(0, 0, 2))(x)
    expected = core.vmap(f, axis_name="i", out_axes=(0, 0, 2))(x)
    for g, e in zip(got, expected, strict=True):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
        flags = np.asarray(g).flags
        assert flags.c_contiguous and not flags.writeable


def test_numpy_backend_runs_the_same_program():
    x = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    with core.config.override("jit_backend", "python"):
        got = core.pmap(_all_collectives, axis_name="i")(x)
    for g, e in zip(got, core.vmap(_all_collectives, axis_name="i")(x), strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


def _loss(w, x, y):
    return jnp.mean((jnp.tanh(x @ w) - y) ** 2)


def test_psummed_gradients_equal_the_global_batch_gradient():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 2)).astype(np.float32)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    y = rng.normal(size=(8, 2)).astype(np.float32)

    def step(w, x, y):
        return lax.pmean(core.grad(_loss)(w, x, y), "batch")

    shard = lambda a: a.reshape(4, 2, *a.shape[1:])
    grads = core.pmap(step, axis_name="batch", in_axes=(None, 0, 0))(w, shard(x), shard(y))
    expected = core.grad(_loss)(w, x, y)
    for g in np.asarray(grads):
        np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-7)


def test_grad_and_jit_of_an_enclosing_function():
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    per_device = lambda w, x: jnp.sum(jnp.sin(w * x)) + lax.psum(w[0], "i")
    f = core.pmap(per_device, "i", in_axes=(None, 0))
    g = core.grad(lambda w: f(w, x).sum())(jnp.ones(2))
    expected = (x * np.cos(x)).sum(0) + np.array([9.0, 0.0])  # psum of w[0] counted by 3 devices
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-6)
    jitted = core.jit(f)(jnp.ones(2), x)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(f(jnp.ones(2), x)))
    assert core.vmap(core.pmap(jnp.sin))(jnp.zeros((3, 2, 2))).shape == (3, 2, 2)


def test_each_device_runs_on_its_own_thread_at_the_same_time():
    meeting = threading.Barrier(4, timeout=60)  # passes only if the 4 devices run concurrently
    threads = {}

    def record(i):
        meeting.wait()
        threads[int(i)] = (threading.current_thread().name, core.devices()[int(i)])
        return np.int32(i)

    def f(x):
        return core.pure_callback(record, jax_like_int32, lax.axis_index("i"))

    jax_like_int32 = core.ShapeDtypeStruct((), np.int32)
    out = core.pmap(f, axis_name="i")(np.zeros(4))
    np.testing.assert_array_equal(np.asarray(out), [0, 1, 2, 3])
    assert {i: name for i, (name, _) in threads.items()} == {i: f"numbax-cpu:{i}" for i in range(4)}


def test_a_failing_device_raises_its_error_and_nobody_hangs():
    def fail_on_2(i):
        if int(i) == 2:
            raise RuntimeError("device 2 failed")
        return np.asarray(i, np.int32)

    def f(x):
        i = core.pure_callback(fail_on_2, core.ShapeDtypeStruct((), np.int32), lax.axis_index("i"))
        return lax.psum(x + i, "i")  # the other devices wait here for device 2

    with pytest.raises(RuntimeError, match="device 2 failed"):  # read: calls are asynchronous
        np.asarray(core.pmap(f, axis_name="i")(np.zeros(4, np.float32)))
    np.testing.assert_array_equal(
        np.asarray(core.pmap(lambda x: lax.psum(x, "i"), "i")(np.ones(4))), [4.0] * 4
    )


@pytest.mark.parametrize(
    "kwargs,args,expected",
    [
        ({"in_axes": (0, None)}, (np.ones((2, 3), np.float32), 2.0), [[2.0] * 3] * 2),
        (
            {"in_axes": (1, None), "out_axes": 1},
            (np.full((3, 2), 3.0, np.float32), 1.0),
            [[3.0, 3.0]] * 3,
        ),
        ({"static_broadcasted_argnums": 1}, (np.ones((2, 3), np.float32), 4), [[4.0] * 3] * 2),
        ({"axis_size": 2}, (np.ones((2, 2)), np.ones((2, 2))), [[1, 1]] * 2),
        ({"devices": core.devices()[5:7]}, (np.ones((2, 1)), np.ones((2, 1))), [[1.0], [1.0]]),
    ],
)
def test_axes_statics_and_devices(kwargs, args, expected):
    out = core.pmap(lambda x, y: x * y, **kwargs)(*args)
    np.testing.assert_array_equal(np.asarray(out), expected)
    assert out.devices() == set(kwargs.get("devices", core.devices()[:2]))


def test_pytrees_kwargs_unmapped_outputs_and_chaining():
    f = core.pmap(
        lambda x, n, y: {"out": x * n + y["a"], "total": lax.psum(x, "i")},
        axis_name="i",
        in_axes=(0, None, {"a": None}),
        out_axes={"out": 0, "total": None},
        static_broadcasted_argnums=1,
    )
    out = f(jnp.ones((3, 2)), 3, {"a": 1.0})
    np.testing.assert_array_equal(np.asarray(out["out"]), [[4.0, 4.0]] * 3)
    np.testing.assert_array_equal(np.asarray(out["total"]), [3.0, 3.0])
    assert out["total"].sharding.is_fully_replicated
    g = core.pmap(lambda x, y: x - y)
    chained = g(out["out"], y=jnp.ones((3, 2)))  # a pmap output goes back in
    np.testing.assert_array_equal(np.asarray(chained), [[3.0, 3.0]] * 3)
    before = core.compile_count()
    g(out["out"], y=jnp.ones((3, 2)))
    assert core.compile_count() == before


def test_more_elements_than_devices_raise():
    with pytest.raises(PmapDeviceCountError, match="requires 9 logical devices.*only 8 CPU"):
        core.pmap(lambda x: x * 2)(jnp.ones((9, 3)))
    # JAX 0.10.2 maps 2 elements onto the first 2 of 3 devices given (device ids [4, 5])
    out = core.pmap(lambda x: x, devices=core.devices()[4:7])(jnp.ones((2, 3)))
    assert [s.device.id for s in out.addressable_shards] == [4, 5]
    with pytest.raises(PmapArgumentError, match="repeat a device"):
        core.pmap(lambda x: x, devices=[core.devices()[0]] * 2)
    with pytest.raises(PmapArgumentError, match="size 0"):
        core.pmap(lambda x: x)(np.ones((0, 2)))
    with pytest.raises(TypeError, match="^'str' object cannot be interpreted as an integer"):
        core.pmap(lambda x: x, static_broadcasted_argnums="0")
    assert issubclass(PmapDeviceCountError, ValueError)


@pytest.mark.parametrize(
    "kwargs,args,error,match",
    [
        ({"in_axes": None}, (np.ones(3),), PmapArgumentError, "at least one argument with a"),
        ({}, (2,), PmapArgumentError, "at least one argument with a mapped axis"),
        ({"axis_size": 2}, (np.ones((1, 3)),), PmapArgumentError, "axis_size 2 doesn't match"),
        ({"static_broadcasted_argnums": 1}, (np.ones((1, 3)),), PmapArgumentError, "static_"),
        # JAX 0.10.2's first lines: in_axes is a tree prefix of the positional arguments' tuple
        ({"in_axes": (0, 0)}, (np.ones((1, 3)),), PyTreeStructureError, "different lengths of"),
        ({"in_axes": [0]}, (np.ones((1, 3)),), PyTreeStructureError, "different types at key"),
        ({"in_axes": 2}, (np.ones((1, 3)),), PmapAxisBoundsError, "^tuple index out of range"),
        ({}, (np.ones((2, 3)), np.ones((3, 3))), PmapArgumentError, "inconsistent sizes"),
    ],
)
def test_argument_errors(kwargs, args, error, match):
    with pytest.raises(error, match=match):
        core.pmap(lambda *a: a[0], **kwargs)(*args)


def test_in_axes_prefix_errors_name_jaxs_key_path_and_the_keyword_rule():
    # JAX 0.10.2's key paths: in_axes is the first of (in_axes, 0) against (args, kwargs)
    x = np.ones(1, np.float32)
    with pytest.raises(PyTreeStructureError, match=r"key path\n    pmap in_axes\[0\]\[0\]\n"):
        core.pmap(lambda a, b: b, in_axes=((0, 0, 0), 0))((x, x), x)
    with pytest.raises(PyTreeStructureError) as err:
        core.pmap(lambda a, b: b, in_axes=((0, 0), 0))(a=(x, x), b=x)
    assert "key path\n    pmap in_axes[0]\n" in str(err.value)
    assert "each argument passed by keyword is mapped over its leading axis" in str(err.value)


@pytest.mark.parametrize(
    "make,error,first_line",
    [  # JAX 0.10.2's classes and first lines (8 host devices)
        (lambda: core.pmap(1), TypeError, "Expected a callable value, got 1"),
        (
            lambda: core.pmap(lambda x: x, in_axes="0"),
            PmapAxesTypeError,
            "pmap in_axes must be an int, None, or (nested) container with those types as "
            "leaves, but got 0.",
        ),
        (
            lambda: core.pmap(lambda x: x.sum(), out_axes=1)(np.ones((8, 2))),
            PmapOutAxisError,
            "axis 1 is out of bounds for array of dimension 1",
        ),
        (
            lambda: core.pmap(lambda x: x, out_axes=-3)(np.ones((8, 2))),
            PmapOutAxisError,
            "axis -3 is out of bounds for array of dimension 2",
        ),
        (
            lambda: core.pmap(lambda x, n: x * n, static_broadcasted_argnums=1)(np.ones(8), [2]),
            ValueError,
            "Non-hashable static arguments are not supported, as this can lead to unexpected "
            "cache-misses. Static argument (index 1) of type <class 'list'> for function "
            "<lambda> is non-hashable.",
        ),
        (lambda: core.pmap(lambda x: x, backend="gpu"), RuntimeError, "Unknown backend: 'gpu'"),
        (
            lambda: core.pmap(lambda x: (x, x), out_axes=(0,))(np.ones(8)),
            ValueError,
            "pytree structure error: different lengths of tuple at key path",
        ),
        (
            lambda: core.pmap(lambda x: (x, x), out_axes=[1, 0])(np.ones((8, 2))),
            ValueError,
            "pytree structure error: different types at key path",
        ),
        (
            lambda: core.pmap(lambda x: lax.ppermute(x, "i", [(0, 1)]))(np.ones(8)),
            NameError,
            "Found an unbound axis name: i. To fix this, please call ppermute under "
            "`jax.shard_map`.",
        ),
    ],
)
def test_option_errors_give_jaxs_first_lines(make, error, first_line):
    with pytest.raises(error) as info:
        make()
    assert str(info.value).split("\n")[0].startswith(first_line)


def test_empty_devices_rejected():
    with pytest.raises(ValueError, match="non-empty"):
        core.pmap(lambda x: x, devices=[])


def test_single_process_queries():
    assert core.process_count() == 1 and core.process_index() == 0
    assert core.host_count() == 1 and core.host_id() == 0
    assert core.effects_barrier() is None
    assert core.live_arrays() == []


def _exchanges(fn, *args) -> list[tuple[str, int]]:
    """(collective, elements per device) of every collective of pmapped `fn`'s program."""
    outer = core.make_jaxpr(fn)(*args).jaxpr
    (eqn,) = [e for e in outer.eqns if e.prim.name == "pmap"]
    inner = eqn.params["jaxpr"]
    return [(e.prim.name, e.inputs[0].aval.size) for e in inner.eqns if e.prim.collective]


def test_pytree_reductions_travel_in_one_exchange_per_dtype():
    tree = {
        "a": np.arange(24.0, dtype=np.float32).reshape(4, 2, 3),
        "b": np.arange(4, dtype=np.int32),
        "c": np.ones((4, 5), np.float32),
    }

    def f(t):
        return lax.psum(t, "i"), lax.pmean(t, "i"), lax.pmax(t, "i"), lax.pmin(t, "i")

    pf = core.pmap(f, axis_name="i")
    names = [name for name, _ in _exchanges(pf, tree)]
    assert sorted(set(names)) == ["pmax", "pmin", "psum"] and len(names) == 8  # 2 dtypes, 4 ops
    got = pf(tree)
    expected = core.vmap(f, axis_name="i")(tree)
    for g, e in zip(core.tree.leaves(got), core.tree.leaves(expected), strict=True):
        assert g.dtype == e.dtype and g.weak_type == e.weak_type
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


def test_large_leaves_travel_alone(monkeypatch):
    from core.prims.collectives import wrappers

    monkeypatch.setattr(wrappers, "PACK_MAX", 6)  # "a" (6 per device) alone, "c" with "d"
    tree = {
        "a": np.arange(24.0, dtype=np.float32).reshape(4, 2, 3),
        "c": np.ones((4, 5), np.float32),
        "d": np.arange(4.0, dtype=np.float32),
    }
    pf = core.pmap(lambda t: lax.pmean(t, "i"), axis_name="i")
    assert sorted(size for _, size in _exchanges(pf, tree)) == [6, 5 + 1]
    got = pf(tree)
    expected = core.vmap(lambda t: lax.pmean(t, "i"), axis_name="i")(tree)
    for g, e in zip(core.tree.leaves(got), core.tree.leaves(expected), strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


def test_concurrent_callers_and_nested_pmaps_do_not_deadlock():
    f = core.pmap(lambda x: lax.psum(x, "i"), axis_name="i")
    g = core.pmap(lambda x: lax.pmax(x, "i"), axis_name="i", devices=core.devices()[:4][::-1])
    results = {}

    def call(name, fn, n):
        for _ in range(n):
            results[name] = np.asarray(fn(np.arange(4.0)))

    threads = [threading.Thread(target=call, args=(k, fn, 20)) for k, fn in (("f", f), ("g", g))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    np.testing.assert_array_equal(results["f"], [6.0] * 4)
    np.testing.assert_array_equal(results["g"], [3.0] * 4)
    inner = core.pmap(lambda y: lax.psum(y, "j"), axis_name="j")
    with core.disable_jit():  # the inner pmap runs eagerly inside a device thread: as vmap
        out = core.pmap(lambda x: inner(x) + lax.axis_index("i"), axis_name="i")(np.ones((2, 3)))
    np.testing.assert_array_equal(np.asarray(out), [[3.0] * 3, [4.0] * 3])


def test_unhashable_static_arguments_and_bounded_cache():
    from core.jit.api import StaticArgumentError

    f = core.pmap(lambda x, n: x * len(n), static_broadcasted_argnums=1)
    with pytest.raises(StaticArgumentError, match="Non-hashable static arguments"):
        f(np.ones((2, 1)), [1, 2])
    with core.config.override("jit_cache_max_entries", 2):
        for n in range(4):
            np.testing.assert_array_equal(np.asarray(f(np.ones((2, 1)), (0,) * n)), [[n]] * 2)
        assert len(f._entries) == 2


# JAX 0.10.2's results on 4 CPU devices (tests/core/test_pmap.py's values were printed by JAX).
_G01, _G02 = [[0, 1], [2, 3]], [[0, 2], [3, 1]]
GROUPED = [
    ("psum", lambda v: lax.psum(v, "i", axis_index_groups=_G01), np.arange(4.0), [1, 1, 5, 5]),
    ("psum_int", lambda v: lax.psum(v, "i", axis_index_groups=_G01), np.arange(4), [1, 1, 5, 5]),
    (
        "psum_bool",
        lambda v: lax.psum(v > 1, "i", axis_index_groups=_G01),
        np.arange(4.0),
        [0, 0, 2, 2],
    ),
    (
        "psum_uneven",
        lambda v: lax.psum(v, "i", axis_index_groups=[[0, 1, 2], [3]]),
        np.arange(4.0),
        [3, 3, 3, 3],
    ),
    (
        "pmean_uneven",
        lambda v: lax.pmean(v, "i", axis_index_groups=[[0, 1, 2], [3]]),
        np.arange(4.0),
        [1, 1, 1, 1],
    ),
    ("pmean", lambda v: lax.pmean(v, "i", axis_index_groups=_G02), np.arange(4.0), [1, 2, 1, 2]),
    (
        "pmax",
        lambda v: lax.pmax(v, "i", axis_index_groups=[[0, 2], [1, 3]]),
        np.arange(4.0),
        [2, 3, 2, 3],
    ),
    ("pmax_int", lambda v: lax.pmax(v, "i", axis_index_groups=_G01), np.arange(4), [1, 1, 3, 3]),
    ("pmin", lambda v: lax.pmin(v, "i", axis_index_groups=_G02), np.arange(4.0), [0, 1, 0, 1]),
    (
        "all_gather",
        lambda v: lax.all_gather(v, "i", axis_index_groups=[[0, 2], [1, 3]]),
        np.arange(4.0),
        [[0, 2], [1, 3], [0, 2], [1, 3]],
    ),
    (
        "all_gather_tiled",
        lambda v: lax.all_gather(v, "i", axis_index_groups=_G02, tiled=True),
        np.arange(8.0).reshape(4, 2),
        [[0, 1, 4, 5], [6, 7, 2, 3], [0, 1, 4, 5], [6, 7, 2, 3]],
    ),
    (
        "psum_scatter",
        lambda v: lax.psum_scatter(v, "i", axis_index_groups=_G01),
        np.arange(8.0).reshape(4, 2),
        [2, 4, 10, 12],
    ),
    (
        "psum_scatter_tiled",
        lambda v: lax.psum_scatter(v, "i", axis_index_groups=_G02, tiled=True),
        np.arange(16.0).reshape(4, 4),
        [[8, 10], [20, 22], [12, 14], [16, 18]],
    ),
    (
        "all_to_all",
        lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=[[0, 2], [1, 3]]),
        np.arange(8.0).reshape(4, 2),
        [[0, 4], [2, 6], [1, 5], [3, 7]],
    ),
    ("psum_constant", lambda v: lax.psum(3.0, "i", axis_index_groups=_G01), np.arange(4), [6] * 4),
]


@pytest.mark.parametrize("name,f,x,want", GROUPED, ids=[c[0] for c in GROUPED])
def test_axis_index_groups_reduce_within_groups_like_jax(name, f, x, want):
    out = core.pmap(f, axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(out), want)
    assert out.dtype == (np.int32 if name in ("psum_int", "psum_bool", "pmax_int") else np.float32)


def test_axis_index_groups_gradient_and_jit():
    def loss(x):
        return core.pmap(lambda v: lax.psum(v * v, "i", axis_index_groups=_G01), "i")(x).sum()

    np.testing.assert_array_equal(np.asarray(core.grad(loss)(np.arange(4.0))), [0, 4, 8, 12])
    inner = core.jit(lambda v: lax.psum(v, "i", axis_index_groups=_G01))
    np.testing.assert_array_equal(np.asarray(core.pmap(inner, "i")(np.arange(4.0))), [1, 1, 5, 5])


@pytest.mark.parametrize(
    "f,error,match",
    [
        (
            lambda v: lax.psum(v, "i", axis_index_groups=[[0, 1], [1, 2]]),
            "AxisIndexGroupsCoverError",
            "must cover all indices exactly once",
        ),
        (
            lambda v: lax.psum(v, "i", axis_index_groups=[[0, 1], [2]]),
            "AxisIndexGroupsCoverError",
            "each index 0..3 of the axis of size 4",
        ),
        (
            lambda v: lax.all_gather(v, "i", axis_index_groups=[[0, 1, 2], [3]]),
            "AxisIndexGroupSizeError",
            "lax.all_gather: axis_index_groups must all be the same size",
        ),
        (
            lambda v: lax.psum_scatter(v, "i", axis_index_groups=[[0], [1, 2, 3]]),
            "AxisIndexGroupSizeError",
            "lax.psum_scatter",
        ),
    ],
)
def test_bad_axis_index_groups_name_the_fix(f, error, match):
    from core import errors

    with pytest.raises(getattr(errors, error), match=match):
        core.pmap(f, axis_name="i")(np.arange(4.0))
    assert issubclass(getattr(errors, error), ValueError)  # JAX raises ValueError


def test_axis_index_groups_over_a_vmap_axis_raise_as_in_jax():
    from core.errors import AxisIndexGroupsError

    f = core.vmap(lambda v: lax.psum(v, "i", axis_index_groups=_G01), axis_name="i")
    with pytest.raises(AxisIndexGroupsError, match="not supported in vmap collectives"):
        f(np.arange(4.0))
    assert issubclass(AxisIndexGroupsError, NotImplementedError)


def test_outputs_read_back_shard_by_shard_like_jax():
    out = core.pmap(lambda x: x * 2)(np.arange(8.0, dtype=np.float32).reshape(4, 2))
    part = out.addressable_data(2)  # JAX 0.10.2: [[8. 10.]] on CpuDevice(id=2)
    np.testing.assert_array_equal(np.asarray(part), [[8.0, 10.0]])
    assert part.devices() == {core.devices()[2]}
    assert out.is_fully_addressable and not out.is_fully_replicated
    assert len(out.global_shards) == 4 and out.on_device_size_in_bytes() == 32
    assert repr(out.addressable_shards[0]) == (
        "Shard(device=CpuDevice(id=0), index=(slice(0, 1, None), slice(None, None, None)), "
        "replica_id=0, data=[[0. 2.]])"
    )
    np.testing.assert_array_equal(np.asarray(out[1]), [4.0, 6.0])
    same = core.pmap(lambda x: x, out_axes=None)(np.arange(4.0, dtype=np.float32))
    # JAX: replica ids 0..3 over devices 0..3, index (), 16 bytes (every copy counted).
    assert [(s.device.id, s.replica_id, s.index) for s in same.addressable_shards] == [
        (i, i, ()) for i in range(4)
    ]
    assert same.on_device_size_in_bytes() == 16


def test_outputs_fed_back_stay_on_their_devices_and_stack_when_read():
    """A pmap output passed to a pmap on the same devices along the same axis gives each device
    its own result back (no stacking); reading it stacks it once into a plain Array."""
    from core.array import Array
    from core.parallel.dispatch import StackedArray

    step = core.pmap(lambda w, x: (w * 0.5 + x, jnp.sum(x)))
    x = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    w = np.ones((4, 3), np.float32)
    w, total = step(w, x)
    want = np.ones((4, 3), np.float32) * 0.5 + x
    for _ in range(2):
        prev = w
        w, total = step(w, x)
        want = want * 0.5 + x
        assert type(prev) is StackedArray  # it went in as the devices' own results
    assert type(w) is StackedArray and w.shape == (4, 3) and w.dtype == np.float32
    assert w.sharding == pmap_sharding(core.local_devices()[:4], 0)
    np.testing.assert_array_equal(np.asarray(w), want)
    assert type(w) is Array and not w._value.flags.writeable
    np.testing.assert_array_equal(np.asarray(total), x.sum(axis=1))
    # mapped along another axis than it was stacked by: stacked, then sliced
    w2, _ = core.pmap(lambda w, x: (w * 0.5 + x, jnp.sum(x)), in_axes=(1, 0))(
        step(np.ones((3, 3), np.float32), x[:3])[0], x[:3]
    )
    np.testing.assert_array_equal(np.asarray(w2), (np.ones((3, 3)) * 0.5 + x[:3]).T * 0.5 + x[:3])


def _two_rows():
    return core.pmap(lambda a: a + 1)(jnp.zeros((2, 3)))  # laid out over devices 0 and 1


# (what, pmap keywords, function, arguments (None: `_two_rows()`, ones), its result, JAX 0.10.2's
# is_deleted() per argument, whether it warns "Some donated buffers were not usable")
TWO_BY_THREE = np.full((2, 3), 2.0)
DONATION = [
    ("pmap output", {}, lambda a: a * 2, (None,), TWO_BY_THREE, [True], False),
    ("no output fits", {}, lambda a: a.sum(), (None,), [3.0, 3.0], [False], True),
    ("one output for two", {"in_axes": (0, None)}, lambda a, b: a + b, (None, jnp.ones(3)),
     TWO_BY_THREE, [True, False], True),
    ("one value for all", {"out_axes": None}, lambda a: a.sum(0), (None,), 3.0, [False], True),
    ("numpy", {}, lambda a: a * 2, (np.ones((2, 3), np.float32),), TWO_BY_THREE, [False], False),
    ("one-device array", {}, lambda a: a * 2, (jnp.ones((2, 3)),), TWO_BY_THREE, [False], False),
    ("unused: pruned", {}, lambda a, b: b * 2, (None, None), TWO_BY_THREE, [False, True], False),
]  # fmt: skip


@pytest.mark.parametrize(
    "what,kwargs,f,args,want,deleted,warns", DONATION, ids=[c[0] for c in DONATION]
)
def test_donated_arguments_are_deleted_like_jax(what, kwargs, f, args, want, deleted, warns):
    args = [_two_rows() if a is None else a for a in args]
    donate = tuple(range(len(args)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = core.pmap(f, donate_argnums=donate, **kwargs)(*args)
    assert any("Some donated buffers were not usable" in str(w.message) for w in caught) == warns
    assert [a.is_deleted() if isinstance(a, core.Array) else False for a in args] == deleted
    np.testing.assert_array_equal(np.asarray(out), want)


def test_a_training_loop_on_donated_replicated_state():
    from train import jax_utils

    step = core.pmap(
        lambda s, x: core.tree.map(lambda p: p - 0.5 * lax.pmean(x, "i"), s),
        axis_name="i",
        donate_argnums=0,
    )
    state = jax_utils.replicate({"w": jnp.ones(3)}, core.devices()[:2])
    old = []
    for _ in range(3):
        old.append(state)
        state = step(state, np.ones((2, 3), np.float32))
    assert all(s["w"].is_deleted() for s in old) and not state["w"].is_deleted()
    np.testing.assert_allclose(np.asarray(jax_utils.unreplicate(state)["w"]), -0.5)
    with pytest.raises(
        DeletedArrayError, match=r"^Array has been deleted with shape=float32\[2,3\]"
    ):
        np.asarray(old[-1]["w"])


def test_donation_errors_like_jax():
    x = _two_rows()
    with pytest.raises(JaxRuntimeError, match=r"`f\(donate\(a\), a\)`"):
        core.pmap(lambda a, b: a + b, donate_argnums=0)(x, x)
    assert not x.is_deleted()
    with pytest.raises(
        ValueError,
        match=r"^`static_argnums` \[0, 1\] and `donate_argnums` \[0, 1\] cannot intersect\.$",
    ):
        core.pmap(lambda a, n: a, static_broadcasted_argnums=(0, 1), donate_argnums=(1, 0))


def test_inputs_over_another_mesh_trace_again_as_in_jax():
    # full_eval.rst's eval_step prints once for `replicate`d metrics (mesh
    # '_device_put_sharded') and once more when its own outputs (mesh 'batch') come back
    n = len(core.local_devices())
    traces = []

    def step(m, x):
        traces.append(m.shape)
        return m + lax.psum(x.sum(), "batch")

    f = core.pmap(step, axis_name="batch")
    m = core.device_put(np.zeros(n, np.float32), pmap_sharding(core.local_devices()[:n]))
    m = f(m, np.ones((n, 2), np.float32))
    assert m.sharding.mesh.axis_names == ("batch",)
    m = f(m, np.ones((n, 2), np.float32))
    m = f(m, np.ones((n, 2), np.float32))
    assert len(traces) == 2
    np.testing.assert_array_equal(np.asarray(m), np.full(n, 6.0 * n))


def test_typed_keys_cross_pmap():
    # jax.pmap(lambda k: (normal(k, (2,)), split(k)[0]))(split(key(0), 2)), JAX 0.10.2's values
    keys = core.random.split(core.random.key(0), 2)
    draws, firsts = core.pmap(lambda k: (core.random.normal(k, (2,)), core.random.split(k)[0]))(
        keys
    )
    np.testing.assert_array_equal(
        draws,
        np.float32(
            [[1.004014253616333, -0.9063372015953064], [-2.442455768585205, -2.0356805324554443]]
        ),
    )
    assert (str(firsts.dtype), firsts.shape) == ("key<fry>", (2,))
    np.testing.assert_array_equal(
        core.random.key_data(firsts), [[4165894930, 804218099], [346279018, 360566543]]
    )
