"""jnp.array of lists holding tracers: the elements are promoted with JAX's rules and stacked
(`core.numpy._util.stack_leading`); dtypes and values as JAX 0.10 gives them (recorded). The
`*_like` functions place their result by the array they copy (`named_sharding.like_sharding`),
as JAX 0.10.2 does (recorded with 8 CPU devices). linspace's float32 values are JAX's to the
bit, XLA's fused multiply-adds included (recorded; an integer ramp floors a value one unit
under 20 to 19)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.sharding import AxisType, NamedSharding, PartitionSpec, SingleDeviceSharding


@pytest.mark.parametrize(
    "fn, arg, want",
    [
        (lambda t: jnp.array([t, 1.5]), np.int32(2), np.array([2.0, 1.5], np.float32)),
        (lambda t: jnp.array([[t, 1], [2, t]]), np.int32(3), np.array([[3, 1], [2, 3]], np.int32)),
        (lambda t: jnp.asarray([t, 2 * t, 1.0]), np.float32(2), np.array([2, 4, 1], np.float32)),
    ],
)
def test_list_of_tracers(fn, arg, want):
    got = core.jit(fn, backend="python")(arg)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "make, first_line",
    [
        # JAX 0.10: a traced size (jit without static_argnames) and a float size both raise
        # TypeError with this first line.
        (
            lambda: core.jit(lambda n: jnp.ones((n,)), backend="python")(10),
            "Shapes must be 1D sequences of concrete values of integer type, got "
            "(JitTracer(~int32[]),).",
        ),
        (
            lambda: jnp.zeros((2.5,)),
            "Shapes must be 1D sequences of concrete values of integer type, got (2.5,).",
        ),
    ],
)
def test_shape_that_is_not_concrete_integers_raises_jaxs_first_line(make, first_line):
    with pytest.raises(TypeError) as e:
        make()
    assert str(e.value).splitlines()[0] == first_line


@pytest.mark.parametrize("shape", [3, (2, np.int64(3)), (jnp.array(2), 3)])
def test_concrete_integer_shapes(shape):
    assert jnp.ones(shape).shape == np.ones(np.asarray(shape, dtype=int)).shape


@pytest.mark.parametrize(
    "dtype, convert",
    [(None, "c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a"),
     (jnp.float32, "c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a")],
)  # fmt: skip
def test_array_of_tracers_converts_each_and_stacks_as_jax_does(dtype, convert):
    lines = str(core.make_jaxpr(lambda a, b: jnp.array([a, b], dtype=dtype))(1, 2)).splitlines()
    assert lines[1].strip() == convert
    assert [ln.split(" = ")[1].split("[")[0].split(" ")[0] for ln in lines[1:6]] == [
        "convert_element_type", "broadcast_in_dim", "convert_element_type", "broadcast_in_dim",
        "concatenate",
    ]  # fmt: skip


def _on(mesh, spec, value):
    return core.device_put(np.asarray(value, np.float32), NamedSharding(mesh, spec))


# (what, the call on a mesh, the spec the result keeps or None: uncommitted on device 0)
LIKE_CASES = [
    ("zeros_like", lambda m: jnp.zeros_like(_on(m, PartitionSpec("x", None), np.ones((4, 2)))),
     PartitionSpec("x", None)),
    ("ones_like with a dtype",
     lambda m: jnp.ones_like(_on(m, PartitionSpec("x", None), np.ones((4, 2))), dtype=jnp.int32),
     PartitionSpec("x", None)),
    ("full_like", lambda m: jnp.full_like(_on(m, PartitionSpec("y"), np.ones(4)), 7.0),
     PartitionSpec("y")),
    ("empty_like", lambda m: jnp.empty_like(_on(m, PartitionSpec("y"), np.ones(4))),
     PartitionSpec("y")),
    ("lax.full_like", lambda m: core.lax.full_like(_on(m, PartitionSpec("y"), np.ones(4)), 2),
     PartitionSpec("y")),
    ("the same shape given",
     lambda m: jnp.zeros_like(_on(m, PartitionSpec("x", None), np.ones((4, 2))), shape=(4, 2)),
     PartitionSpec("x", None)),
    ("another shape",
     lambda m: jnp.zeros_like(_on(m, PartitionSpec("x", None), np.ones((4, 2))), shape=(2, 4)),
     None),
    ("another shape, replicated",
     lambda m: jnp.zeros_like(_on(m, PartitionSpec(), np.ones(3)), shape=(5,)), PartitionSpec()),
    ("weakly typed",
     lambda m: jnp.zeros_like(core.device_put(2.0, NamedSharding(m, PartitionSpec()))), None),
    ("uncommitted", lambda m: jnp.zeros_like(jnp.ones(3)), None),
]  # fmt: skip


@pytest.mark.parametrize("kind", [AxisType.Explicit, AxisType.Auto], ids=["explicit", "auto"])
@pytest.mark.parametrize(("what", "make", "spec"), LIKE_CASES, ids=[c[0] for c in LIKE_CASES])
def test_like_functions_keep_a_committed_arrays_sharding_as_jax_does(kind, what, make, spec):
    mesh = core.make_mesh((2, 4), ("x", "y"), axis_types=(kind,) * 2)
    out = make(mesh)
    if spec is None:
        assert out.sharding == SingleDeviceSharding(core.devices()[0]) and not out.committed
    else:
        assert out.sharding == NamedSharding(mesh, spec) and out.committed


def test_like_of_an_array_committed_to_a_device_stays_there():
    out = jnp.zeros_like(core.device_put(np.ones(3, np.float32), core.devices()[3]))
    assert out.sharding == SingleDeviceSharding(core.devices()[3]) and out.committed


# (call, JAX 0.10.2's values, dtype): which product XLA fuses with the add depends on the
# bounds' shapes and the samples' axis; one-element bounds fold i = 1 in short loops.
LINSPACE_BITS = [
    (lambda: jnp.linspace(20.0, jnp.array([20.0, -3.3]), 3, endpoint=False, axis=1),
     [[20.0, 19.999998092651367, 20.0], [20.0, 12.233331680297852, 4.466666221618652]],
     "float32"),
    (lambda: jnp.linspace(jnp.array([1.1, -4.7]), jnp.array([9.9, 0.3]), 7)[:3, 1],
     [-4.699999809265137, -3.866666316986084, -3.0333330631256104], "float32"),
    (lambda: jnp.linspace(-48.347237, -30.48926, 7, endpoint=False)[:3],
     [-48.34723663330078, -45.79609680175781, -43.244956970214844], "float32"),
    (lambda: jnp.linspace(22.949656, -42.77347, 36, endpoint=False)[:4],
     [22.949655532836914, 21.124011993408203, 19.298370361328125, 17.472728729248047],
     "float32"),
    (lambda: jnp.pad(jnp.arange(12).reshape(3, 4), 3, mode="linear_ramp", end_values=20)[0],
     [20, 19, 20, 20, 20, 20, 20, 20, 19, 20], "int32"),
]  # fmt: skip


@pytest.mark.parametrize("call, want, dtype", LINSPACE_BITS)
def test_linspace_rounds_as_jax(call, want, dtype):
    out = call()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(want, dtype))


def test_linspace_gradient_is_the_formulas():
    grads = core.grad(lambda s, e: jnp.linspace(s, e, 7).sum(), argnums=(0, 1))(2.0, 3.0)
    assert [float(g) for g in grads] == [3.5, 3.5]


def test_arange_of_a_traced_bound_is_jax_concretization_error():
    # JAX 0.10.2: ConcretizationTypeError "Abstract tracer value encountered where concrete
    # value is expected: traced array with shape int32[]"
    with pytest.raises(
        core.errors.ConcretizationTypeError, match=r"concrete value is expected: traced array"
    ):
        core.jit(lambda x: jnp.arange(x.sum()))(jnp.array([1, 2]))


@pytest.mark.parametrize(  # JAX 0.10.2: numpy scalars and arrays in a list keep their dtypes
    "make, dtype",
    [
        (lambda: jnp.array([np.float16(1.5), 2]), "float16"),
        (lambda: jnp.array([[np.float16(1), 2.5], [3, 4]]), "float16"),
        (lambda: jnp.array([np.int8(1), 2]), "int8"),
        (lambda: jnp.array([np.int8(1), 2.5]), "float32"),
        (lambda: jnp.array([np.array([1, 2], np.int8), [3, 4]]), "int8"),
        (lambda: jnp.array([np.float64(1.0), 2]), "float32"),
        (lambda: jnp.asarray((np.int16(3), True)), "int16"),
    ],
)
def test_array_of_a_list_promotes_numpy_values_with_weak_python_scalars(make, dtype):
    out = make()
    assert str(out.dtype) == dtype and not out.weak_type


def test_eye_of_a_traced_diagonal_as_jax():  # JAX 0.10.2's values
    got = core.jit(lambda k: jnp.eye(2, 3, k=k, dtype=jnp.int32))(-1)
    np.testing.assert_array_equal(got, [[0, 0, 0], [1, 0, 0]])
    got = core.vmap(lambda k: jnp.eye(2, k=k))(jnp.array([0, 1]))
    np.testing.assert_array_equal(got, [[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [0.0, 0.0]]])


# A duck-typed array (a shape and a dtype, no values) gives the `*_like` functions its shape
# and dtype; JAX 0.10.2 makes the result strongly typed even from a weak struct (recorded).
@pytest.mark.parametrize(
    ("make", "want"),
    [
        (lambda s: jnp.ones_like(s), np.ones(2, np.float16)),
        (lambda s: jnp.zeros_like(s, shape=(1, 3)), np.zeros((1, 3), np.float16)),
        (lambda s: jnp.full_like(s, 2, dtype=jnp.int8), np.full(2, 2, np.int8)),
        (lambda s: jnp.empty_like(s), np.zeros(2, np.float16)),
    ],
)
def test_like_functions_take_a_shape_dtype_struct(make, want):
    got = make(core.ShapeDtypeStruct((2,), jnp.float16, weak_type=True))
    assert got.dtype == want.dtype and not got.weak_type
    np.testing.assert_array_equal(got, want)


# JAX 0.10.2: a list of arrays of different shapes is one concatenation of them, eagerly and
# under jit, whose TypeError names the shapes with their new axis
RAGGED = [
    (lambda: jnp.array([1.0, jnp.ones(2)]), "different numbers of dimensions: got (1,), (1, 2)."),
    (
        lambda: core.jit(lambda x: jnp.array([jnp.ones(2), x]))(jnp.zeros(3)),
        "concatenating along dimension 0 for shapes (1, 2), (1, 3).",
    ),
    (
        lambda: core.jit(lambda x: jnp.array([[x, x], [x]]))(1.0),
        "concatenating along dimension 0 for shapes (1, 2), (1, 1).",
    ),
]


@pytest.mark.parametrize("call, end", RAGGED)
def test_ragged_lists_raise_jaxs_concatenate_error(call, end):
    with pytest.raises(TypeError, match="^Cannot concatenate arrays with ") as e:
        call()
    assert str(e.value).splitlines()[0].endswith(end)


@pytest.mark.parametrize(
    ("make", "value", "dtype"),
    [(lambda: jnp.array(["a", "b"]), "a", "<U1"), (lambda: jnp.array(b"ab"), "b'ab'", "|S2")],
)
def test_strings_are_jaxs_type_error(make, value, dtype):
    # JAX 0.10.2: TypeError "Value 'a' with dtype <U1 is not a valid JAX array type. ..."
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == (
        f"Value '{value}' with dtype {dtype} is not a valid JAX array type. Only arrays of "
        "numeric types are supported by JAX."
    )


@pytest.mark.parametrize("n, m, k", [(3, 4, 1), (3, None, -1), (0, 2, 2), (4, 3, 0), (2, 2, -5)])
def test_tri_takes_a_traced_diagonal(n, m, k):
    # JAX's `row + k >= column` of iotas under jit (numpy's answers), the dtype kept
    got = core.jit(lambda k: jnp.tri(n, m, k, dtype=jnp.int8))(k)
    assert got.dtype == jnp.int8
    np.testing.assert_array_equal(got, np.tri(n, m, k, dtype=np.int8))
    np.testing.assert_array_equal(jnp.tri(n, m, k), np.tri(n, m, k, dtype=np.float32))


@pytest.mark.parametrize(  # JAX 0.10.2's errors
    "call, error, message",
    [
        (lambda: jnp.tri(2, 3, 2**33), OverflowError, "Python int 8589934592 too large to conv"),
        (lambda: jnp.tri(2, 3, -(2**33)), OverflowError, "Python int -8589934592 too large"),
        (lambda: jnp.tri(2, 3, 1.5), TypeError, "'float' object cannot be interpreted as an int"),
        (lambda: core.jit(jnp.tri)(3, M=3, k=0), TypeError, "Shapes must be 1D sequences of co"),
    ],
)
def test_tri_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("k", [2**100, -(2**100), 2**40])
def test_eye_of_a_diagonal_outside_the_matrix_is_zeros(k):
    np.testing.assert_array_equal(jnp.eye(2, 3, k), np.zeros((2, 3)))


@pytest.mark.parametrize("fn", [jnp.zeros, jnp.ones, jnp.empty])
def test_shape_given_as_two_arguments_has_jaxs_hint(fn):
    name = fn.__name__
    hint = rf"Did you accidentally write `jax\.numpy\.{name}\(2, 3\)` when you meant `jax\.nu"
    with pytest.raises(TypeError, match=rf"Cannot interpret '3' as a data type\.\n\n{hint}"):
        fn(2, 3)


@pytest.mark.parametrize("args", [(1 + 2j, 5 + 3j), (0, 5, 1 + 1j), (np.complex64(1), 3)])
def test_arange_refuses_complex_bounds(args):
    with pytest.raises(ValueError, match="Passing complex start/stop/step to jnp.arange is no"):
        jnp.arange(*args)
    assert jnp.arange(4, dtype=jnp.complex64).dtype == jnp.complex64  # a complex dtype is fine


def test_traced_shape_error_has_jaxs_hint():
    with pytest.raises(TypeError) as info:
        core.jit(jnp.zeros)(2)
    first, second = str(info.value).splitlines()[:2]
    assert first.startswith("Shapes must be 1D sequences of concrete values of integer type, got")
    assert second == (
        "If using `jit`, try using `static_argnums` or applying `jit` to smaller subfunctions."
    )


@pytest.mark.parametrize(
    "fn, name",
    [
        (lambda s: jnp.arange(s), "stop"),
        (lambda s: jnp.arange(s, 3), "start"),
        (lambda s: jnp.arange(0, s), "stop"),
        (lambda s: jnp.arange(0, 3, s), "step"),
    ],
)
def test_arange_of_a_traced_bound_names_it(fn, name):
    with pytest.raises(core.errors.ConcretizationTypeError) as info:
        core.jit(fn)(1)
    assert str(info.value).splitlines()[1] == f"It arose in the jnp.arange argument '{name}'"


MASKED_MESSAGE = "numpy masked arrays are not supported as direct inputs to JAX functions"


@pytest.mark.parametrize(
    "fn", [jnp.asarray, jnp.sin, lambda m: jnp.array(m, copy=False), lambda m: jnp.zeros(2) + m]
)
def test_masked_arrays_are_refused(fn):
    with pytest.raises(ValueError, match=MASKED_MESSAGE):
        fn(np.ma.array([1.0, 2.0], mask=[True, False]))


def test_array_copy_drops_the_mask():
    np.testing.assert_array_equal(jnp.array(np.ma.array([1.0, 2.0], mask=[True, False])), [1, 2])


def test_array_positional_copy_is_deprecated():
    x = jnp.array([1, 2, 3])
    with pytest.warns(DeprecationWarning, match="Passing the copy, order, and ndmin arguments"):
        assert jnp.array(x, None, False) is x
    with pytest.warns(DeprecationWarning, match="Passing the copy, order, and ndmin arguments"):
        assert jnp.array(x, None, True) is not x
    with pytest.raises(TypeError, match="array\\(\\) takes at most 5 positional arguments but 6"):
        jnp.array(x, None, True, "K", 0, 1)
    with pytest.raises(TypeError, match="array\\(\\) got multiple values for argument 'copy'"):
        jnp.array(x, None, True, copy=False)


def test_row_stack_is_gone_as_in_jax():
    assert not hasattr(jnp, "row_stack")  # JAX 0.10 removed it (numpy deprecated it)


@pytest.mark.parametrize(  # JAX 0.10.2's equations: no constant, whatever the bounds
    "fn, prims",
    [
        (lambda: jnp.arange(5), ["iota"]),
        (lambda: jnp.arange(1, 5), ["iota", "add"]),
        (lambda: jnp.arange(0, 10, 2), ["iota", "mul", "add"]),
        (
            lambda: jnp.arange(2, 9, 3, dtype=jnp.float16),
            ["iota", "mul", "add", "convert_element_type"],
        ),
    ],
)
def test_arange_stages_jaxs_equations(fn, prims):
    jaxpr = core.make_jaxpr(fn)()
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == prims
    np.testing.assert_array_equal(core.jit(fn)(), fn())
