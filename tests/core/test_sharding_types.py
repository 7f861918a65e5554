"""`jax.typeof` shows the sharding of arrays over `Explicit` mesh axes, as JAX 0.10.2 does
(`core/sharding_types.py`): concrete arrays by their `NamedSharding`, values traced for `jit`
by their arguments' shardings propagated over the equations traced so far, nested `jit`s
included; `Auto` axes are hidden from the type. Expected types recorded on JAX with eight CPU
devices."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.sharding import AxisType, reshard
from core.sharding import PartitionSpec as P


@pytest.fixture
def mesh():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with core.set_mesh(mesh):
        yield mesh


def test_unplaced_values_have_unsharded_types():
    assert str(core.typeof(np.arange(8))) == "int32[8]"
    assert str(core.typeof(1.0)) == "~float32[]"
    assert core.typeof(np.arange(8)).sharding.spec == P(None)


def test_concrete_types_show_explicit_axes(mesh):
    a = reshard(np.arange(16.0), P(("X", "Y")))
    assert str(core.typeof(a)) == "float32[16@(X,Y)]"
    assert repr(core.typeof(a)) == "ShapedArray(float32[16@(X,Y)])"
    assert core.typeof(a).str_short(short_dtypes=True) == "f32[16@(X,Y)]"
    m = reshard(np.ones((8, 4), np.float32), P("X", "Y"))
    assert str(core.typeof(m.T)) == "float32[4@Y,8@X]"
    assert str(core.typeof(m.sum(0))) == "float32[4@Y]"
    assert str(core.typeof(m.sum())) == "float32[]"
    assert str(core.typeof(m.reshape(2, 4, 4))) == "float32[2@X,4,4@Y]"
    assert str(core.typeof(jnp.zeros(8))) == "float32[8]"


def test_auto_axes_are_hidden_from_the_type():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Auto, AxisType.Explicit))
    with core.set_mesh(mesh):
        m = core.device_put(np.ones((8, 4), np.float32), P("X", "Y"))
        assert str(core.typeof(m)) == "float32[8,4@Y]"
        assert m.sharding.spec == P("X", "Y")


def test_traced_types_follow_the_arguments(mesh):
    x = reshard(np.arange(8.0, dtype=np.float32), P("X"))
    seen = []

    @core.jit
    def outer(v):
        @core.jit
        def inner(w):
            seen.append(("inner", str(core.typeof(w)), str(core.typeof(w * 2))))
            return w

        seen.append(("outer", str(core.typeof(v * 3))))
        return inner(v)

    outer(x)
    assert seen == [("outer", "float32[8@X]"), ("inner", "float32[8@X]", "float32[8@X]")]


def test_traced_types_take_constraints(mesh):
    x = reshard(np.ones((8, 4), np.float32), P("X", None))
    seen = []

    @core.jit
    def f(v):
        w = reshard(jnp.sin(v) + 1, P(None, "Y"))
        seen.append(str(core.typeof(w)))
        return w

    f(x)
    assert seen == ["float32[8,4@Y]"]


def test_other_traces_are_unsharded(mesh):
    x = reshard(np.ones((8, 4), np.float32), P("X", None))
    seen = []
    out = core.vmap(lambda r: seen.append(str(core.typeof(r))) or r)(x)
    assert seen == ["float32[4]"]
    assert str(core.typeof(out)) == "float32[8@X,4]"


def test_key_arrays_and_type_shardings_print_as_jax(mesh):
    # JAX 0.10.2: a key array's type has its key dtype; a type's sharding is a NamedSharding
    # over the mesh's AbstractMesh
    key = core.random.key(0)
    assert repr(core.typeof(key)) == "ShapedArray(key<fry>[])"
    assert str(core.typeof(core.random.split(key, 3))) == "key<fry>[3]"
    seen = []
    core.jit(lambda k: seen.append(str(core.typeof(k))))(key)
    assert seen == ["key<fry>[]"]
    a = reshard(np.arange(8.0), P("X"))
    assert repr(core.typeof(a).sharding) == (
        "NamedSharding(mesh=AbstractMesh('X': 2, 'Y': 4, axis_types=(Explicit, Explicit), "
        "device_kind=cpu, num_cores=None, platform=cpu), spec=P('X',))"
    )
    assert repr(core.typeof(np.arange(8)).sharding) == (
        "NamedSharding(mesh=AbstractMesh((), axis_types=()), spec=P(None,))"
    )
