"""Computations on `NamedSharding`-placed arrays give results placed as JAX 0.10.2's compiler
places them (`core/sharding_propagation.py`, `core/committed.py`): eagerly and under `jit`,
`with_sharding_constraint` inside `jit`, and JAX's error for arrays on different devices or
in different orders. The expected specs were recorded on JAX with eight CPU devices and Auto
mesh axes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import ir, sharding_propagation
from core.avals import ShapedArray
from core.bounded_record import BoundedRecord
from core.errors import (
    AmbiguousContractionError,
    IllegalShardingError,
    IncompatibleShardingsError,
    InconsistentDotShardingError,
    ShardingTypeError,
)
from core.sharding import AxisType, NamedSharding
from core.sharding import PartitionSpec as P

X = np.arange(64 * 32, dtype=np.float32).reshape(64, 32)
X3 = X.reshape(4, 16, 32)
_Z = np.zeros((16, 32), np.float32)
_scan = core.lax.scan


@pytest.fixture
def mesh():
    return core.make_mesh((4, 2), ("a", "b"), axis_types=(AxisType.Auto,) * 2)


def _put(mesh, value, *spec):
    return core.device_put(value, NamedSharding(mesh, P(*spec)))


# (case, the computation on the placed inputs, the inputs' values and specs, JAX's spec)
CASES = [
    ("sin", jnp.sin, [(X, ("a",))], P("a")),
    ("sin of both axes", jnp.sin, [(X, ("a", "b"))], P("a", "b")),
    ("add an uncommitted array", lambda x: x + jnp.ones_like(x), [(X, ("a",))], P("a")),
    ("add a bias", lambda x: x + jnp.ones(32), [(X, ("a",))], P("a")),
    ("add: entries merged", jnp.add, [(X, ("a",)), (X, (None, "b"))], P("a", "b")),
    ("add: entries merged, other order", jnp.add, [(X, (None, "b")), (X, ("a",))], P("a", "b")),
    ("add a replicated array", jnp.add, [(X, ("a",)), (X, ())], P("a")),
    ("sum of all", jnp.sum, [(X, ("a",))], P()),
    ("sum over rows", lambda x: jnp.sum(x, axis=0), [(X, ("a", "b"))], P("b")),
    ("sum over columns", lambda x: jnp.sum(x, axis=1), [(X, ("a", "b"))], P("a")),
    ("transpose", lambda x: x.T, [(X, ("a", "b"))], P("b", "a")),
    ("flatten", lambda x: x.reshape(64 * 32), [(X, ("a", "b"))], P("a")),
    ("split an axis", lambda x: x.reshape(64, 2, 16), [(X, ("a", "b"))], P("a", "b")),
    ("dot of rows by columns", jnp.dot, [(X, ("a", None)), (X.T, (None, "b"))], P("a", "b")),
    ("dot over a sharded axis", jnp.dot, [(X, (None, "b")), (X.T, ("b", None))], P()),
    ("dot of both axes", jnp.dot, [(X, ("a", "b")), (X.T, ("a", "b"))], P("a", "b")),
    ("a row", lambda x: x[0], [(X, ("a", "b"))], P("b")),
    ("a slice", lambda x: x[:8], [(X, ("a", "b"))], P(None, "b")),
    ("copy", jnp.copy, [(X, ("a",))], P("a")),
    ("mean", jnp.mean, [(X, ("a",))], P()),
    ("relu", lambda x: jnp.maximum(x, 0), [(X, ("a",))], P("a")),
    ("astype", lambda x: x.astype(jnp.int32), [(X, ("a",))], P("a")),
    ("times a scalar", lambda x: 1e-5 * x, [(X, ("a",))], P("a")),
    ("sin of a replicated array", jnp.sin, [(X, ())], P()),
    ("1-d", jnp.sin, [(np.ones(32, np.float32), ("b",))], P("b")),
    ("concatenate", lambda x, y: jnp.concatenate([x, y]), [(X, ("a",)), (X, ("a",))], P("a")),
    ("broadcast_to", lambda v: jnp.broadcast_to(v, (64, 32)), [(X[0], ("b",))], P(None, "b")),
    ("new axis", lambda v: v[None], [(X[0], ("b",))], P(None, "b")),
    ("argmax", lambda x: jnp.argmax(x, axis=1), [(X, ("a", "b"))], P("a")),
    ("jit", core.jit(lambda x: x * 2), [(X, ("a",))], P("a")),
    ("jit of a replicated array", core.jit(lambda x: x * 2), [(X, ())], P()),
    ("jit: a sum over rows", core.jit(lambda x: x.sum(0)), [(X, ("a", "b"))], P("b")),
    ("jit: a transpose", core.jit(lambda x: (x, x.sum(0), x.T)[2]), [(X, ("a", "b"))], P("b", "a")),
    # a scan's body sees one slice of each scanned operand (linen_sharded_training's scanned layers)
    ("scan: stacked results", core.jit(lambda xs: _scan(lambda c, x: (c + x, x * 2), _Z, xs)[1]),
     [(X3, (None, "a", "b"))], P(None, "a", "b")),
    ("scan: the carry", core.jit(lambda c, xs: _scan(lambda c, x: (c + x, x * 2), c, xs)[0]),
     [(X[:16], ("a",)), (X3, (None, None, "b"))], P("a", "b")),
    ("scan: a product with a constant",
     core.jit(lambda w, xs: _scan(lambda c, x: (c, x @ w.T), 0.0, xs)[1]),
     [(X[:16], ("a", "b")), (X3, (None, "a", "b"))], P(None, "a")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fun", "inputs", "spec"), [pytest.param(*case[1:], id=case[0]) for case in CASES]
)
def test_results_are_placed_as_jax_places_them(mesh, fun, inputs, spec):
    out = fun(*[_put(mesh, value, *s) for value, s in inputs])
    assert out.sharding == NamedSharding(mesh, spec)
    np.testing.assert_allclose(out, fun(*[value for value, _ in inputs]), rtol=1e-6)


def test_a_single_device_array_stays_on_its_device():
    x = core.device_put(X, core.devices()[1])
    for out in (jnp.sin(x), core.jit(lambda v: v * 2)(x)):
        assert out.sharding == core.sharding.SingleDeviceSharding(core.devices()[1])


def test_with_sharding_constraint_places_a_jitted_result(mesh):
    x = _put(mesh, X, "a", "b")

    @core.jit
    def transposed_layout(v):
        return core.lax.with_sharding_constraint(v + 1, NamedSharding(mesh, P("b", "a")))

    @core.jit
    def replicated(v):
        return core.lax.with_sharding_constraint(v + 1, NamedSharding(mesh, P()))

    assert transposed_layout(x).sharding == NamedSharding(mesh, P("b", "a"))
    assert replicated(x).sharding == NamedSharding(mesh, P())
    np.testing.assert_array_equal(replicated(x), X + 1)


def test_data_and_model_parallel_gradients_keep_the_parameters_layout(mesh):
    def loss(params, batch):
        (w1, b1), (w2, b2) = params
        h = jnp.maximum(batch @ w1 + b1, 0)
        return jnp.mean((h @ w2 + b2) ** 2)

    rng = np.random.default_rng(0)
    w1 = _put(mesh, rng.standard_normal((16, 8), np.float32), None, "b")
    b1 = _put(mesh, rng.standard_normal(8, np.float32), "b")
    w2 = _put(mesh, rng.standard_normal((8, 4), np.float32), "b", None)
    b2 = _put(mesh, rng.standard_normal(4, np.float32))
    batch = _put(mesh, rng.standard_normal((32, 16), np.float32), "a", None)
    for grad in (core.jit(core.grad(loss)), core.grad(loss)):
        grads = grad([(w1, b1), (w2, b2)], batch)
        specs = [g.sharding.spec for pair in grads for g in pair]
        assert specs == [P(None, "b"), P("b"), P("b"), P()]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (
            "halves",
            "Received incompatible devices for jitted computation. Got argument x of add with "
            "shape float32[64,32] and with device ids [0, 1, 2, 3] on platform CPU and argument "
            "y of add with shape float32[64,32] and with device ids [4, 5, 6, 7] on platform CPU",
        ),
        (
            "permuted",
            "Received incompatible devices for jitted computation. Got argument x of add with "
            "shape float32[64,32] and with device ids [0, 1, 2, 3, 4, 5, 6, 7] on platform CPU "
            "and argument y of add with shape float32[64,32] and with device ids [0, 1, 2, 3, "
            "6, 7, 4, 5] on platform CPU",
        ),
    ],
)
def test_arrays_on_other_devices_raise_jaxs_error(order, message):
    devices = core.devices()
    if order == "halves":
        first, second = devices[:4], devices[4:]
    else:
        first, second = devices, [devices[i] for i in [0, 1, 2, 3, 6, 7, 4, 5]]
    y = core.device_put(X, NamedSharding(core.sharding.Mesh(first, "x"), P("x")))
    z = core.device_put(X, NamedSharding(core.sharding.Mesh(second, "x"), P("x")))
    with pytest.raises(ValueError) as info:
        y + z
    assert str(info.value) == message
    assert "same devices in the same order" in info.value.__notes__[0]


# Over a mesh of Explicit axes JAX's specs have one entry per axis (recorded on JAX 0.10.2).
EXPLICIT = [
    ("sin", jnp.sin, [(X, ("a",))], P("a", None)),
    ("add a bias", lambda x: x + jnp.ones(32), [(X, ("a",))], P("a", None)),
    ("add: entries merged", jnp.add, [(X, ("a",)), (X, (None, "b"))], P("a", "b")),
    ("sum over rows", lambda x: jnp.sum(x, axis=0), [(X, ("a", "b"))], P("b")),
    ("transpose", lambda x: x.T, [(X, ("a", "b"))], P("b", "a")),
    ("dot of rows by columns", jnp.dot, [(X, ("a", None)), (X.T, (None, "b"))], P("a", "b")),
]


@pytest.mark.parametrize(
    ("fun", "inputs", "spec"), [pytest.param(*case[1:], id=case[0]) for case in EXPLICIT]
)
def test_over_explicit_axes_specs_have_one_entry_per_axis(fun, inputs, spec):
    mesh = core.make_mesh((4, 2), ("a", "b"), axis_types=(AxisType.Explicit,) * 2)
    out = fun(*[_put(mesh, value, *s) for value, s in inputs])
    assert out.sharding == NamedSharding(mesh, spec)


# (what, the shard_map, the type over Explicit axes, the spec over Auto ones), recorded on JAX
SHARD_MAPS = [
    ("out_specs split over two axes", lambda b: b * 2, P(("x", "y"), None),
     "float32[32@(x,y),4]", P(("x", "y"))),
    ("a psum, out_specs over another axis", lambda b: core.lax.psum(b, "x"), P(None, "y"),
     "float32[4,16@y]", P(None, "y")),
]  # fmt: skip


@pytest.mark.parametrize("kind", [AxisType.Explicit, AxisType.Auto], ids=["explicit", "auto"])
@pytest.mark.parametrize(
    ("body", "out_spec", "typed", "auto"), [pytest.param(*c[1:], id=c[0]) for c in SHARD_MAPS]
)
def test_a_jitted_shard_maps_results_are_placed_by_its_out_specs(kind, body, out_spec, typed, auto):
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(kind,) * 2)
    with core.set_mesh(mesh):
        a = core.device_put(np.arange(32.0, dtype=np.float32).reshape(8, 4), P("x", None))
        f = core.shard_map(body, in_specs=P("x", None), out_specs=out_spec)
        out = core.jit(f)(a)
        grad = core.jit(core.grad(lambda a: f(a).sum()))(a)
    explicit = kind is AxisType.Explicit
    assert out.sharding.spec == (out_spec if explicit else auto)
    assert str(core.typeof(out)) == (
        typed if explicit else typed.replace("@(x,y)", "").replace("@y", "")
    )
    assert grad.sharding.spec == (P("x", None) if explicit else P("x"))


def test_explicit_axes_elementwise_errors():
    """Over Explicit axes, JAX's broadcasting sharding rule: disagreeing shardings, or a mesh
    axis used twice, raise its `ShardingTypeError`s (messages recorded on JAX 0.10.2)."""
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    x, y = _put(mesh, np.arange(8.0), "X"), _put(mesh, np.arange(8.0), "Y")
    with pytest.raises(IncompatibleShardingsError) as info:
        x * y
    assert str(info.value) == ("mul got incompatible shardings for broadcasting: ('X',), ('Y',).")
    a = _put(mesh, np.arange(16).reshape(4, 4), "X", None)
    b = _put(mesh, np.arange(16).reshape(4, 4), None, "X")
    with pytest.raises(IllegalShardingError) as info:
        a + b
    assert str(info.value) == (
        "add operation with inputs: i32[4@X,4], i32[4,4@X] produces an illegally sharded "
        "result: i32[4@X,4@X]"
    )
    assert isinstance(info.value, ShardingTypeError)
    auto = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Auto,) * 2)
    _put(auto, np.arange(8.0), "X") * _put(auto, np.arange(8.0), "Y")  # Auto axes: no error


def test_explicit_axes_dot_general_errors():
    """Over Explicit axes, `dot_general`'s rule as JAX 0.10.2's: contracting two sharded axes
    needs an `out_sharding`, batch/contracted axes must agree, a mesh axis shards one result
    axis; checked under `jit` when the call places its results (messages recorded on JAX)."""
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    a = np.arange(64.0, dtype=np.float32).reshape(8, 8)
    rows, cols = _put(mesh, a, "X", None), _put(mesh, a, None, "X")
    with pytest.raises(AmbiguousContractionError, match=r"Got lhs_contracting_spec=\('X',\)"):
        cols @ rows
    with pytest.raises(AmbiguousContractionError):
        core.jit(lambda x, y: x @ y)(cols, rows)
    with core.set_mesh(mesh):
        out = jnp.dot(cols, rows, out_sharding=P("X", None))
        assert out.sharding.spec == P("X", None)
        np.testing.assert_allclose(out, a @ a)
        out = core.jit(lambda x, y: jnp.dot(x, y, out_sharding=P(None, "Y")))(cols, rows)
        assert out.sharding.spec == P(None, "Y")
    with pytest.raises(InconsistentDotShardingError) as info:
        _put(mesh, a, None, "Y") @ rows
    assert str(info.value) == (
        "dot_general requires contracting dimensions to have consistent sharding, got "
        "('Y',) and ('X',)."
    )
    with pytest.raises(IllegalShardingError, match="dot_general operation with inputs: "):
        rows @ cols
    b = np.ones((8, 4, 4), np.float32)
    with pytest.raises(InconsistentDotShardingError, match="batch dimensions"):
        jnp.einsum("bij,bjk->bik", _put(mesh, b, "X"), _put(mesh, b, "Y"))
    assert (rows @ _put(mesh, a, None, "Y")).sharding.spec == P("X", "Y")


def test_explicit_axes_errors_under_jit_and_auto_axes():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    a = np.arange(64.0, dtype=np.float32).reshape(8, 8)
    rows, cols = _put(mesh, a, "X", None), _put(mesh, a, None, "X")
    with pytest.raises(IllegalShardingError, match="add operation with inputs: f32"):
        core.jit(lambda x, y: x + y)(rows, cols)
    add = core.sharding.auto_axes(lambda x, y: x + y, out_sharding=P("X", None))
    with core.set_mesh(mesh):
        out = core.jit(add)(rows, cols)
    assert out.sharding.spec == P("X", None)
    np.testing.assert_allclose(out, 2 * a)


def test_constraints_are_recorded_safely_across_threads(monkeypatch, run_threads):
    # Threads that trace at once share the record of constraints: with room for one entry,
    # every call evicts another thread's, which raised a KeyError before the record took a lock.
    monkeypatch.setattr(sharding_propagation, "_constraints", BoundedRecord(1))

    def work(_: int) -> None:
        for _ in range(20000):
            sharding_propagation.constrain(ir.Var(ShapedArray((), np.float32)), None)

    run_threads(work, 8)
