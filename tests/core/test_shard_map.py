"""`core.shard_map` (and `core.experimental.shard_map.shard_map`) against JAX 0.10.2's results
(recorded with `--xla_force_host_platform_device_count=4`, meshes with `AxisType.Auto`); the
test session has 8 CPU devices (`tests/conftest.py`)."""

import doctest
import functools
import json
import pathlib
import re
import sys

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import ShardMapOutSpecError, ShardMapSpecError
from core.sharding import NamedSharding, PartitionSpec

P = PartitionSpec
# JAX's shard_map over Explicit axes (make_mesh's default) takes only inputs already placed
# as in_specs says; these tests give it host arrays, so their meshes are Auto
AUTO = (core.sharding.AxisType.Auto,)


@pytest.fixture
def mesh():
    return core.make_mesh((2, 2), ("x", "y"), devices=core.devices()[:4], axis_types=AUTO * 2)


def test_blocks_axis_index_and_psum_match_jax(mesh):
    f = core.shard_map(
        lambda a: a * lax.axis_index("x") + lax.psum(a.sum(), "y"),
        mesh=mesh,
        in_specs=P("x", "y"),
        out_specs=P("x", "y"),
    )
    want = np.array([[120.0] * 4] * 4 + [[392, 393, 394, 395], [396, 397, 398, 399],
                     [400, 401, 402, 403], [404, 405, 406, 407]])  # fmt: skip
    np.testing.assert_array_equal(f(jnp.arange(32.0).reshape(8, 4)), want)
    np.testing.assert_array_equal(core.jit(f)(jnp.arange(32.0).reshape(8, 4)), want)


def test_psum_over_two_axes_and_its_gradient(mesh):
    g = core.shard_map(lambda a: lax.psum(a, ("x", "y")), mesh=mesh, in_specs=P(("x", "y")),
                       out_specs=P())  # fmt: skip
    np.testing.assert_array_equal(g(jnp.arange(8.0)), [12.0, 16.0])
    np.testing.assert_array_equal(core.jit(core.grad(lambda a: g(a).sum()))(jnp.arange(8.0)),
                                  np.ones(8))  # fmt: skip


def test_several_inputs_and_outputs(mesh):
    h = core.shard_map(
        lambda a, b: (a @ b, jnp.array(lax.all_gather(a, "x", tiled=True).shape)),
        mesh=mesh,
        in_specs=(P("x", None), P(None, "y")),
        out_specs=(P("x", "y"), P()),
    )
    prod, gathered_shape = h(jnp.ones((4, 3)), jnp.ones((3, 6)))
    np.testing.assert_array_equal(prod, np.full((4, 6), 3.0))
    np.testing.assert_array_equal(gathered_shape, [4, 3])
    k = core.shard_map(lambda a: a.sum(keepdims=True), mesh=mesh, in_specs=P("x"),
                       out_specs=P("x"))  # fmt: skip
    np.testing.assert_array_equal(k(jnp.arange(8.0)), [6.0, 22.0])


def test_replication_check_and_its_opt_out(mesh):
    with pytest.raises(ShardMapOutSpecError, match="out_specs which require replication"):
        core.shard_map(lambda a: a.sum(), mesh=mesh, in_specs=P("x"), out_specs=P())(jnp.ones(4))
    unchecked = core.shard_map(lambda a: a.sum(), mesh=mesh, in_specs=P("x"), out_specs=P(),
                               check_vma=False)  # fmt: skip
    assert float(unchecked(jnp.arange(4.0))) == 1.0  # JAX: block 0's value
    with pytest.raises(ShardMapSpecError, match="not evenly divisible"):
        core.shard_map(lambda a: a, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(jnp.ones(3))
    with pytest.raises(ValueError):  # JAX's class
        core.shard_map(lambda a: a, mesh=mesh, in_specs=P("z"), out_specs=P())(jnp.ones(4))


def test_data_parallel_step_equals_the_unsharded_one(mesh):
    w = jnp.linspace(-1.0, 1.0, 6).reshape(3, 2)
    x = jnp.linspace(-2.0, 2.0, 24).reshape(8, 3)

    def loss(w, x):
        return jnp.mean(jnp.tanh(x @ w) ** 2)

    @functools.partial(core.jit, static_argnums=2)
    def sharded_grad(w, x, check_vma):
        # check_vma=False: each block's gradient, averaged; JAX 0.10.2's default check_vma=True
        # sums the replicated w's gradient over the 4 blocks first (its pvary transposes into a
        # psum), so the pmean of the sums is 4 times the unsharded gradient
        per_block = core.shard_map(
            lambda w, xb: lax.pmean(core.grad(loss)(w, xb), ("x", "y")),
            mesh=mesh,
            in_specs=(P(), P(("x", "y"))),
            out_specs=P(),
            check_vma=check_vma,
        )
        return per_block(w, x)

    want = core.grad(loss)(w, x)
    np.testing.assert_allclose(sharded_grad(w, x, False), want, rtol=1e-6)
    np.testing.assert_allclose(sharded_grad(w, x, True), 4 * want, rtol=1e-6)


def test_a_jit_traced_outside_the_body_is_traced_again_inside_it():
    # jit's cache keys on the vma of its tracers: the function traced outside any shard_map
    # is traced again on the body's typed values, so its gradient inside sums the blocks' (JAX's
    # values of the table's grad_through_jit_inside_body, tests/core/shard_map_cases.py)
    recorded = json.loads((pathlib.Path(__file__).parent / "jax_shard_map.json").read_text())
    ((dtype, want),) = recorded["values"]["grad_through_jit_inside_body"]
    w = np.arange(6, dtype=np.float32).reshape(3, 2) / 4 - 1
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 4 - 1
    mesh = core.make_mesh((2,), ("i",), devices=core.devices()[:2], axis_types=AUTO)
    sq_loss = core.jit(lambda w, xb: jnp.sum(jnp.sin(xb @ w) ** 2))
    sq_loss(w, x)
    g = core.shard_map(
        lambda w, xb: lax.pmean(core.grad(sq_loss)(w, xb), "i"),
        mesh=mesh,
        in_specs=(P(), P("i")),
        out_specs=P(),
    )
    np.testing.assert_allclose(g(w, x), np.asarray(want, dtype), rtol=2e-6, atol=1e-6)


def test_current_mesh_inferred_specs_and_decorator():
    mesh = core.make_mesh((2, 2), ("x", "y"), devices=core.devices()[:4])  # Explicit: inferred
    x = core.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    with core.set_mesh(mesh):

        @core.shard_map(out_specs=P("x"))
        def double(a):
            return a * 2

        np.testing.assert_array_equal(double(x), np.arange(8.0) * 2)
    with pytest.raises(ShardMapSpecError, match="needs a mesh"):
        double(x)
    from core.experimental.shard_map import shard_map as old_shard_map

    auto = core.make_mesh((2, 2), ("x", "y"), devices=core.devices()[:4], axis_types=AUTO * 2)
    old = old_shard_map(lambda a: lax.psum(a, "y"), auto, P("x"), P("x"))
    np.testing.assert_array_equal(old(jnp.arange(4.0)), np.arange(4.0) * 2)


def test_docstring_example():
    globs = {"core": core, "jnp": jnp, "lax": lax, "P": P, "shard_map": core.shard_map}
    result = doctest.testmod(sys.modules["core.shard_map"], extraglobs=globs)
    assert result.attempted > 0 and result.failed == 0


def test_eager_outputs_are_laid_out_by_out_specs(mesh):
    # JAX: an eager shard_map's output carries NamedSharding(mesh, out_spec), one block a device
    f = core.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))
    out = f(jnp.arange(8.0).reshape(4, 2))
    assert out.sharding == NamedSharding(mesh, P("x", "y"))
    assert [s.data.shape for s in out.addressable_shards] == [(2, 1)] * 4
    np.testing.assert_array_equal(out, np.arange(8.0).reshape(4, 2) * 2)
    out = core.shard_map(lambda a: lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P())(
        jnp.ones(4)
    )
    assert out.sharding == NamedSharding(mesh, P()) and len(out.addressable_shards) == 4


# (case, in_specs, the input, what the body shows, JAX 0.10.2's string of it) on a 2x2 mesh
SHOWN = [
    (
        "blocks",
        P("i", "j"),
        np.arange(4.0, dtype=np.float32).reshape(2, 2),
        lambda x: x,
        "On cpu:0 at mesh coordinates (i, j,) = (0, 0):\n[[0.]]\n\n"
        "On cpu:1 at mesh coordinates (i, j,) = (0, 1):\n[[1.]]\n\n"
        "On cpu:2 at mesh coordinates (i, j,) = (1, 0):\n[[2.]]\n\n"
        "On cpu:3 at mesh coordinates (i, j,) = (1, 1):\n[[3.]]\n",
    ),
    (
        "replicated",
        P(),
        np.arange(2, dtype=np.int32),
        lambda x: x,
        "On cpu:0 at mesh coordinates (i, j,) = (0, 0):\n[0 1]\n\n"
        "On cpu:1 at mesh coordinates (i, j,) = (0, 1):\n[0 1]\n\n"
        "On cpu:2 at mesh coordinates (i, j,) = (1, 0):\n[0 1]\n\n"
        "On cpu:3 at mesh coordinates (i, j,) = (1, 1):\n[0 1]\n",
    ),
    (
        "psum over one axis",
        P("i", "j"),
        np.arange(4, dtype=np.int32).reshape(2, 2),
        lambda x: lax.psum(x, "j"),
        "On cpu:0 at mesh coordinates (i, j,) = (0, 0):\n[[1]]\n\n"
        "On cpu:1 at mesh coordinates (i, j,) = (0, 1):\n[[1]]\n\n"
        "On cpu:2 at mesh coordinates (i, j,) = (1, 0):\n[[5]]\n\n"
        "On cpu:3 at mesh coordinates (i, j,) = (1, 1):\n[[5]]\n",
    ),
    (
        "mapped over i only",
        P("i"),
        np.arange(2.0, dtype=np.float32),
        lambda x: x,
        "On cpu:0 at mesh coordinates (i, j,) = (0, 0):\n[0.]\n\n"
        "On cpu:1 at mesh coordinates (i, j,) = (0, 1):\n[0.]\n\n"
        "On cpu:2 at mesh coordinates (i, j,) = (1, 0):\n[1.]\n\n"
        "On cpu:3 at mesh coordinates (i, j,) = (1, 1):\n[1.]\n",
    ),
]


@pytest.mark.parametrize(
    ("spec", "x", "shown", "text"), [pytest.param(*case[1:], id=case[0]) for case in SHOWN]
)
def test_an_eager_body_shows_each_devices_block_as_jax_does(spec, x, shown, text):
    mesh = core.make_mesh((2, 2), ("i", "j"), devices=core.devices()[:4], axis_types=AUTO * 2)
    seen = []

    def body(block):
        value = shown(block)
        seen.append((str(value), repr(value)))
        return block

    core.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)(jnp.asarray(x))
    assert seen == [(text, text)]


@pytest.mark.parametrize("jitted", [False, True])
def test_pure_callback_runs_once_per_block(mesh, jitted):
    # JAX's SPMD program calls a pure_callback without a vmap_method once per device, on its
    # block (docs/new_docs/201/callbacks.md)
    shapes = []

    def host(x):
        shapes.append(x.shape)
        return np.asarray(x) * 2

    def f(x):
        return core.pure_callback(host, core.ShapeDtypeStruct(x.shape, x.dtype), x)

    g = core.shard_map(f, mesh=mesh, in_specs=P(("x", "y")), out_specs=P(("x", "y")))
    out = (core.jit(g) if jitted else g)(jnp.arange(8.0))
    np.testing.assert_array_equal(out, np.arange(8.0) * 2)
    assert shapes == [(2,)] * 4


@pytest.mark.parametrize("jitted", [False, True])
def test_inferred_in_specs_are_each_leafs_type_spec(jitted):
    # JAX infers in_specs leaf by leaf from the arguments' types, also for values traced by
    # jit and under grad: a list of (sharded, replicated) pairs splits its sharded leaves.
    mesh = core.make_mesh((4,), ("b",), devices=core.devices()[:4])
    with core.set_mesh(mesh):
        params = [(core.device_put(jnp.arange(8.0), P("b")), core.device_put(jnp.ones(3), P()))]

        @core.shard_map(out_specs=P())
        def total(params):
            ((w, c),) = params
            assert w.shape == (2,) and c.shape == (3,)
            return lax.psum(jnp.sum(w**2) + jnp.sum(c), "b")

        run = core.jit(total) if jitted else total
        np.testing.assert_allclose(run(params), np.sum(np.arange(8.0) ** 2) + 12.0)
        ((dw, dc),) = core.jit(core.grad(total))(params)
        np.testing.assert_allclose(dw, 2 * np.arange(8.0))
        np.testing.assert_allclose(dc, np.full(3, 4.0))


def _first_line(make):
    with pytest.raises(ShardMapSpecError) as info:
        make()
    return str(info.value).split("\n")[0]


def test_spec_and_mesh_errors_give_jaxs_first_lines():
    # JAX 0.10.2 printed these first lines (8 host devices, an Auto mesh)
    m = core.sharding.Mesh(core.devices(), ("i",))
    x = np.arange(8.0, dtype=np.float32)

    def ident(v):
        return v

    assert _first_line(
        lambda: core.shard_map(ident, mesh=m, in_specs=P("i"), out_specs=P("i"))(np.ones(12))
    ) == (
        "shard_map applied to the function 'ident' was given argument arrays with axis sizes "
        "that are not evenly divisible by the corresponding mesh axis sizes:"
    )
    assert _first_line(
        lambda: core.shard_map(ident, mesh=m, in_specs=P("j"), out_specs=P("j"))(x)
    ) == ("shard_map in_specs argument must refer to an axis marked as manual "
          "(frozenset({'i'})), but:")  # fmt: skip
    assert (
        _first_line(
            lambda: core.shard_map(ident, mesh=m, in_specs=(P("i"), P()), out_specs=P("i"))(x)
        )
        == "pytree structure error: different lengths of tuple at key path"
    )
    assert _first_line(lambda: core.shard_map(ident, in_specs=P("i"), out_specs=P("i"))(x)) == (
        "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context"
    )


def test_explicit_axes_take_only_inputs_placed_as_in_specs_says():
    # JAX 0.10.2: ValueError "in_specs passed to shard_map: P('i',) does not match the specs of
    # the input: P(None,) for arg: float32[8]. ..." for a host array over an Explicit mesh, and
    # Array([28.]) once the input is placed with P('i')
    m = core.make_mesh((8,), ("i",))
    f = core.shard_map(lambda x: lax.psum(x, "i"), mesh=m, in_specs=P("i"), out_specs=P())
    x = np.arange(8.0, dtype=np.float32)
    with pytest.raises(ShardMapSpecError) as info:
        f(x)
    assert (
        str(info.value)
        .split("\n")[0]
        .startswith(
            "in_specs passed to shard_map: P('i',) does not match the specs of the input: P(None,) "
            "for arg: float32[8]."
        )
    )
    np.testing.assert_array_equal(f(core.device_put(x, NamedSharding(m, P("i")))), [28.0])


def _pcast_map(body, **kw):
    mesh = core.make_mesh((2,), ("i",), devices=core.devices()[:2], axis_types=AUTO)
    return core.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P("i"), **kw)


def test_pcast_to_varying_is_pvary():
    # JAX 0.10.2: the body's jaxpr is `d:f32[2]{V:i} = pvary[axes=('i',)] c`
    f = _pcast_map(lambda x: lax.pcast(x, "i", to="varying"))
    assert "pvary[axes=('i',)]" in str(core.make_jaxpr(f)(jnp.arange(2.0)))
    np.testing.assert_array_equal(f(jnp.arange(2.0)), [0.0, 1.0, 0.0, 1.0])
    g = _pcast_map(lambda x: lax.pcast(x, "i", to="varying"), check_vma=False)
    np.testing.assert_array_equal(g(jnp.arange(2.0)), [0.0, 1.0, 0.0, 1.0])


@pytest.mark.parametrize(
    ("body", "error", "first"),
    [  # JAX 0.10.2's errors
        (lambda x: lax.pcast(x, {"i"}, to="varying"), TypeError, "axis_name={'i'} must be"),
        (lambda x: lax.pcast(x, "i", to="bad"), ValueError, "Got unexpected `to` value."),
        (
            lambda x: lax.pcast(lax.pcast(x, "i", to="varying"), "i", to="varying"),
            ValueError,
            "Unsupported pcast from=varying, to='varying'",
        ),
    ],
)
def test_pcast_errors(body, error, first):
    with pytest.raises(error, match="^" + re.escape(first)):
        _pcast_map(body)(jnp.arange(2.0))
    with pytest.raises(ValueError, match="^pvary should be called under jax.shard_map."):
        lax.pcast(jnp.ones(2), "i", to="varying")


def test_smap_maps_one_axis_with_vmap_style_axes():
    # JAX 0.10.2 (a one-axis Auto mesh set with jax.set_mesh): the values below
    mesh = core.make_mesh((2,), ("i",), devices=core.devices()[:2], axis_types=AUTO)
    with core.set_mesh(mesh):
        double = core.smap(lambda x: x * 2, in_axes=0, out_axes=0, axis_name="i")
        np.testing.assert_array_equal(double(jnp.arange(4.0)), [0.0, 2.0, 4.0, 6.0])
        add = core.smap(lambda x, y: x + y, in_axes=(0, None), out_axes=0, axis_name="i")
        np.testing.assert_array_equal(add(jnp.arange(4.0), 1.0), [1.0, 2.0, 3.0, 4.0])
        total = core.smap(lambda x: lax.psum(x.sum(), "i"), in_axes=1, out_axes=None, axis_name="i")
        assert total(jnp.ones((2, 4))) == 8.0
        with pytest.raises(TypeError, match="^in_axes was not specified when axis_name="):
            core.smap(lambda x: x, out_axes=0, axis_name="i")(jnp.ones(2))
    with pytest.raises(TypeError, match="^smap axis_name should be a `str` or a `Hashable`"):
        core.smap(lambda x: x, in_axes=0, out_axes=0, axis_name=("i",))
    with pytest.raises(TypeError, match="^smap in_axes must be an int, None"):
        core.smap(lambda x: x, in_axes=[0], out_axes=0, axis_name="i")
