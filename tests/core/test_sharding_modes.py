"""`auto_axes` and `explicit_axes` switch mesh axes between `Auto` and `Explicit` for a
function, as JAX 0.10.2's do (`core/sharding_modes.py`): the current abstract mesh inside,
the arguments' types, the result resharded by `out_sharding`, and their errors."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import AutoAxisShardingError, IllegalShardingError, NoMeshError
from core.sharding import AxisType, auto_axes, explicit_axes, get_abstract_mesh, reshard
from core.sharding import PartitionSpec as P

Explicit, Auto = AxisType.Explicit, AxisType.Auto


def _mesh(*types):
    return core.make_mesh((2, 4), ("X", "Y"), axis_types=types)


def test_auto_axes_allows_what_explicit_types_forbid():
    with core.set_mesh(_mesh(Explicit, Explicit)):
        x = reshard(np.arange(16).reshape(4, 4), P("X", None))
        y = reshard(np.arange(16).reshape(4, 4), P(None, "X"))
        with pytest.raises(IllegalShardingError):
            x + y
        seen = []

        @auto_axes
        def add(a, b):
            seen.append(get_abstract_mesh().axis_types)
            return a + b

        out = add(x, y, out_sharding=P("X", None))
        assert seen == [(Auto, Auto)]
        assert str(core.typeof(out)) == "int32[4@X,4]"
        np.testing.assert_array_equal(out, np.arange(16).reshape(4, 4) * 2)
        assert get_abstract_mesh().axis_types == (Explicit, Explicit)


def test_auto_axes_keeps_the_concrete_sharding():
    with core.set_mesh(_mesh(Explicit, Explicit)):
        x = jnp.sin(reshard(np.arange(8), P("X")))
        seen = []

        @auto_axes
        def check(v):
            seen.append((v.sharding.spec, core.typeof(v).sharding.spec))
            return v

        check(x, out_sharding=P("X"))
        assert seen == [(P("X"), P(None))]


def test_auto_axes_over_some_axes_under_jit():
    seen = []

    @auto_axes(axes="X", out_sharding=P("X", "Y"))
    def g(y):
        seen.append((get_abstract_mesh().axis_types, str(core.typeof(y))))
        return y * 2

    @core.jit
    def f(a):
        z = g(jnp.sin(a))
        seen.append(str(core.typeof(z)))
        return z + 1

    with core.set_mesh(_mesh(Explicit, Explicit)):
        f(reshard(np.arange(16).reshape(4, 4), P("X", "Y")))
    assert seen == [((Auto, Explicit), "float32[4,4@Y]"), "float32[4@X,4@Y]"]


def test_explicit_axes_under_an_auto_mesh():
    seen = []

    @explicit_axes(axes=("X", "Y"))
    def g(y):
        seen.append((get_abstract_mesh().axis_types, str(core.typeof(y * 2))))
        return y * 2

    @core.jit
    def f(a):
        return g(jnp.sin(a), in_sharding=P("X", "Y")) + 1

    with core.set_mesh(_mesh(Auto, Auto)):
        f(core.device_put(np.arange(16).reshape(4, 4), P("X", "Y")))
        out = g(np.ones((4, 4), np.float32), in_sharding=P("X", None))
        assert str(core.typeof(out)) == "float32[4,4]"
    assert seen[0] == ((Explicit, Explicit), "float32[4@X,4@Y]")
    assert seen[1] == ((Explicit, Explicit), "float32[4@X,4]")


def test_the_sharding_keywords_are_required():
    with core.set_mesh(_mesh(Explicit, Explicit)):
        with pytest.raises(TypeError, match="Missing required keyword argument: 'out_sharding'"):
            auto_axes(lambda v: v)(1.0)
        with pytest.raises(TypeError, match="Missing required keyword argument: 'in_sharding'"):
            explicit_axes(lambda v: v)(1.0)


def test_explicit_axes_needs_a_mesh():
    with pytest.raises(NoMeshError, match="set_mesh"):
        explicit_axes(lambda v: v, in_sharding=P())(1.0)


def test_out_shardings_take_explicit_axes_only():
    """As JAX 0.10.2: `reshard` and the `out_sharding`s of products, reshapes and creation
    functions refuse Auto axes (of the mesh, or made Auto by `auto_axes`)."""
    a = np.ones((8, 8), np.float32)
    with core.set_mesh(_mesh(Auto, Explicit)):
        assert str(core.typeof(reshard(a, P(None, "Y")))) == "float32[8,8@Y]"
        for where, make in [
            ("reshard", lambda: reshard(a, P("X", "Y"))),
            ("dot_general", lambda: jnp.dot(a, a, out_sharding=P("X", None))),
            ("jnp.zeros", lambda: jnp.zeros((8,), out_sharding=P("X"))),
            ("reshape", lambda: jnp.reshape(a, (64,), out_sharding=P("X"))),
            ("reshard", lambda: core.jit(lambda v: reshard(v, P("X", None)))(a)),
        ]:
            with pytest.raises(AutoAxisShardingError, match=f"passed to {where} cannot contain"):
                make()
    with core.set_mesh(_mesh(Explicit, Explicit)):
        inside = auto_axes(lambda v: reshard(v, P("X")), axes="X", out_sharding=P("X"))
        with pytest.raises(AutoAxisShardingError, match="axis name: X of type: AxisType.Auto"):
            inside(np.ones(8, np.float32))
