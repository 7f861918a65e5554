"""vmap: every primitive batched (`vmap(f)(xs) == stack([f(x) for x in xs])`) with the batch axis
in front, in the middle, last and absent; the in_axes/out_axes/axis_size/axis_name API; and the
collectives."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax, vmap
from core.errors import InvalidJaxTypeError, UnboundAxisNameError, VmapAxesError, VmapSizeError
from tests.core.prim_cases import CASES, NAMED_CASES

B = 3


@pytest.fixture(autouse=True)
def x64():
    with core.enable_x64():
        yield


def _batch(x, ax, k):
    """B perturbed copies of `x` stacked along `ax` (None: `x` itself)."""
    x = np.asarray(x)
    if ax is None:
        return x
    if x.dtype.kind == "f":
        copies = [x + 0.01 * i * np.cos(np.arange(x.size) + k).reshape(x.shape) for i in range(B)]
    else:
        copies = [x + x.dtype.type(i) for i in range(B)]
    return np.stack(copies, ax)


def _configs(args):
    nds = [np.ndim(a) for a in args]
    configs = {
        "front": [0] * len(args),
        "middle": [1 if n >= 1 else 0 for n in nds],
        "last": [-1] * len(args),
    }
    for k in range(len(args)):
        if len(args) > 1:
            configs[f"absent{k}"] = [None if i == k else 0 for i in range(len(args))]
    return configs


_PARAMS = [(c, name, axes) for c in CASES + NAMED_CASES for name, axes in _configs(c.args).items()]


@pytest.mark.parametrize("case,config,axes", _PARAMS, ids=[f"{c.name}-{n}" for c, n, _ in _PARAMS])
def test_primitive_batching(case, config, axes):
    xs = [_batch(a, ax, k) for k, (a, ax) in enumerate(zip(case.args, axes))]
    out = vmap(case.fn, in_axes=tuple(axes))(*xs)
    expected = np.stack(
        [
            np.asarray(
                case.fn(*[x if ax is None else np.take(x, i, axis=ax) for x, ax in zip(xs, axes)])
            )
            for i in range(B)
        ]
    )
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12, atol=1e-12)
    assert np.asarray(out).dtype == expected.dtype


def test_all_unmapped_with_axis_size():
    out = vmap(lambda x: jnp.sin(x), in_axes=None, axis_size=2)(jnp.arange(3.0))
    np.testing.assert_allclose(out, np.stack([np.sin(np.arange(3.0))] * 2))


def test_in_axes_pytree_prefixes_and_kwargs():
    params = {"w": jnp.ones((2, 3)), "b": jnp.arange(3.0)}
    xs = jnp.arange(8.0).reshape(4, 2)

    def f(p, x, scale=1.0):
        return (jnp.dot(x, p["w"]) + p["b"]) * scale

    out = vmap(f, in_axes=(None, 0))(params, xs)
    np.testing.assert_allclose(out, np.arange(8.0).reshape(4, 2) @ np.ones((2, 3)) + np.arange(3))
    # a dict prefix: w shared, b mapped along its last axis
    bs = jnp.arange(12.0).reshape(3, 4)
    out = vmap(f, in_axes=({"w": None, "b": -1}, 0))({"w": params["w"], "b": bs}, xs)
    np.testing.assert_allclose(out, np.arange(8.0).reshape(4, 2) @ np.ones((2, 3)) + bs.T)
    # keyword arguments are mapped over axis 0
    out = vmap(f, in_axes=(None, 0))(params, xs, scale=jnp.arange(4.0))
    np.testing.assert_allclose(
        out[:, 0], (np.arange(0, 8, 2.0) + np.arange(1, 8, 2)) * np.arange(4)
    )


def test_out_axes():
    xs = jnp.arange(6.0).reshape(2, 3)
    f = lambda x: {"a": x * 2, "s": jnp.sum(x)}
    out = vmap(f, out_axes={"a": 1, "s": 0})(xs)
    np.testing.assert_allclose(out["a"], (np.arange(6.0).reshape(2, 3) * 2).T)
    np.testing.assert_allclose(out["s"], [3.0, 12.0])
    out = vmap(lambda x: x * 2, out_axes=-1)(jnp.ones((2, 3, 4)))
    assert out.shape == (3, 4, 2)
    # an unmapped output is broadcast along out_axes; out_axes=None keeps it unmapped
    assert vmap(lambda x: jnp.ones(3), out_axes=1)(xs).shape == (3, 2)
    np.testing.assert_allclose(vmap(lambda x: 1.0, out_axes=None)(xs), 1.0)


def test_nested_vmap_matches_loop():
    x = np.random.RandomState(0).standard_normal((2, 3, 4))
    f = lambda v: jnp.dot(v, v) * jnp.max(v)
    out = vmap(vmap(f))(x)
    np.testing.assert_allclose(out, [[f(x[i, j]) for j in range(3)] for i in range(2)])
    y = x.transpose(1, 2, 0)  # (3, 4, 2): map axis 2 outside, then axis 1 of the (3, 4) rest
    out = vmap(vmap(f, in_axes=1), in_axes=2)(y)
    np.testing.assert_allclose(out, [[f(y[:, j, i]) for j in range(4)] for i in range(2)])


def test_errors():
    with pytest.raises(VmapSizeError, match=r"axis 0 of argument b\['x'\] of type float\d+\[2\]"):
        vmap(lambda a, b: a)(jnp.ones(3), {"x": jnp.ones(2)})
    with pytest.raises(VmapAxesError, match="len\\(in_axes\\)=1, len\\(args\\)=2"):
        vmap(lambda a, b: a, in_axes=(0,))(jnp.ones(3), jnp.ones(3))
    with pytest.raises(VmapAxesError, match="rank should be at least 2"):
        vmap(lambda a: a, in_axes=1)(jnp.ones(3))
    with pytest.raises(VmapSizeError, match="axis_size"):
        vmap(lambda a: a, in_axes=None)(jnp.ones(3))
    with pytest.raises(VmapAxesError, match="tree prefix"):
        vmap(lambda d: d, in_axes=({"a": 0, "c": 0},))({"a": jnp.ones(2), "b": jnp.ones(2)})
    with pytest.raises(VmapAxesError, match="out_axes is None"):
        vmap(lambda a: a, out_axes=None)(jnp.ones(3))
    with pytest.raises(TypeError, match=r"or \(nested\) container with those types as leaves"):
        vmap(lambda a: a, in_axes=("x",))
    assert issubclass(VmapAxesError, ValueError)


# ---------------------------------------------------------------------------------------------
# Collectives


def test_collectives_values():
    xs = jnp.arange(3.0)
    np.testing.assert_allclose(vmap(lambda x: lax.psum(x, "i"), axis_name="i")(xs), [3.0] * 3)
    np.testing.assert_allclose(
        vmap(lambda x: x / lax.pmean(x, "i"), axis_name="i")(xs), [0.0, 1.0, 2.0]
    )
    np.testing.assert_allclose(vmap(lambda x: lax.pmax(x, "i"), axis_name="i")(xs), [2.0] * 3)
    np.testing.assert_allclose(vmap(lambda x: lax.pmin(x, "i"), axis_name="i")(xs), [0.0] * 3)
    np.testing.assert_array_equal(vmap(lambda x: lax.axis_index("i"), axis_name="i")(xs), [0, 1, 2])
    np.testing.assert_allclose(
        vmap(lambda x: lax.all_gather(x, "i"), axis_name="i")(xs), np.tile(np.arange(3.0), (3, 1))
    )
    tiled = vmap(lambda x: lax.all_gather(x, "i", axis=1, tiled=True), axis_name="i")(
        jnp.ones((3, 2, 2))
    )
    assert tiled.shape == (3, 2, 6)
    # pytrees, and a value that does not depend on the mapped input
    out = vmap(lambda x: lax.psum({"a": x, "b": 1.0}, "i"), axis_name="i")(xs)
    np.testing.assert_allclose(out["a"], [3.0] * 3)
    np.testing.assert_allclose(out["b"], 3.0)


def test_collectives_nested_names():
    x = jnp.ones((2, 3))
    inner = lambda v: lax.psum(v, ("i", "j"))
    np.testing.assert_allclose(vmap(vmap(inner, axis_name="j"), axis_name="i")(x), 6.0 * x)
    idx = vmap(vmap(lambda v: lax.axis_index(("i", "j")), axis_name="j"), axis_name="i")(x)
    np.testing.assert_array_equal(idx, [[0, 1, 2], [3, 4, 5]])
    # the outer name reaches through an inner vmap with another name
    out = vmap(vmap(lambda v: lax.psum(v, "i"), axis_name="j"), axis_name="i")(
        jnp.arange(6.0).reshape(2, 3)
    )
    np.testing.assert_allclose(out, np.tile(np.arange(6.0).reshape(2, 3).sum(0), (2, 1)))


def test_collectives_gradients_match_jax():
    # Known answers from jax.vmap(jax.grad(...), axis_name="i")(jnp.arange(3.)).
    xs = jnp.arange(3.0)
    g = lambda f: vmap(core.grad(f), axis_name="i")(xs)
    np.testing.assert_allclose(g(lambda x: lax.psum(x, "i")), [3.0, 3.0, 3.0])
    np.testing.assert_allclose(g(lambda x: lax.psum(x**2, "i")), [0.0, 6.0, 12.0])
    np.testing.assert_allclose(g(lambda x: lax.pmean(x**2, "i")), [0.0, 2.0, 4.0])
    np.testing.assert_allclose(
        g(lambda x: (lax.all_gather(x, "i") * jnp.arange(3.0)).sum()), [0.0, 3.0, 6.0]
    )
    outer = core.grad(lambda v: vmap(lambda x: lax.psum(x**2, "i"), axis_name="i")(v).sum())(xs)
    np.testing.assert_allclose(outer, [0.0, 6.0, 12.0])


def test_unbound_axis_name():
    with pytest.raises(UnboundAxisNameError, match="^unbound axis name: i\n.*axis_name='i'"):
        lax.psum(jnp.ones(2), "i")
    with pytest.raises(UnboundAxisNameError):
        vmap(lambda x: lax.psum(x, "j"), axis_name="i")(jnp.ones(2))
    assert issubclass(UnboundAxisNameError, NameError)


def test_a_mapped_argument_that_is_no_array_raises_jaxs_type_error():
    class Thing:
        def __repr__(self):
            return "Thing()"

    with pytest.raises(TypeError) as info:
        core.vmap(lambda t, x: x)(Thing(), jnp.ones(3))
    assert isinstance(info.value, InvalidJaxTypeError)
    assert str(info.value) == (  # JAX 0.10.2's message
        f"Argument 'Thing()' of type '{Thing}' is not a valid JAX type"
    )
    assert core.vmap(lambda t, x: x, in_axes=(None, 0))(Thing(), jnp.ones(3)).shape == (3,)


@pytest.mark.parametrize(
    ("call", "cls", "first"),
    [  # JAX 0.10.2's classes and first lines
        (
            lambda: core.vmap(lambda x: x)({}),
            ValueError,
            "vmap wrapped function must be passed at least one argument containing an array or "
            "axis_size must be specified, got empty *args=({},) and **kwargs={}",
        ),
        (
            lambda: core.vmap(lambda: 1.0)(),
            ValueError,
            "vmap wrapped function must be passed at least one argument containing an array or "
            "axis_size must be specified, got empty *args=() and **kwargs={}",
        ),
        (
            lambda: core.vmap(lambda x: "a")(jnp.ones(2)),
            TypeError,
            "Output from batched function 'a' with type <class 'str'> is not a valid JAX type",
        ),
        (
            lambda: core.vmap(lambda x: x)("a"),
            TypeError,
            "Argument 'a' of type <class 'str'> is not a valid JAX type",
        ),
        (
            lambda: core.vmap(lambda x: {"a": [x, x]}, out_axes={"a": [0, None]})(jnp.ones(2)),
            ValueError,
            "at vmap out_axes['a'][1], got axis spec None but output was batched on axis 0",
        ),
        (
            lambda: core.vmap(lambda x: x, out_axes="a"),
            TypeError,
            "vmap out_axes must be an int, None, or (nested) container with those types as "
            "leaves, but got a.",
        ),
        (
            lambda: core.vmap(lambda x: x, in_axes=np.int64(0)),
            TypeError,
            "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
            "positional arguments passed to the function, but got 0.",
        ),
    ],
)
def test_vmap_errors_are_jaxs(call, cls, first):
    with pytest.raises(cls) as e:
        call()
    assert str(e.value).splitlines()[0] == first


def test_vmap_axis_size_must_be_an_integer():
    # JAX 0.10.2: numpy integers map, a float is a TypeError when broadcasting
    assert vmap(lambda x: x, axis_size=np.int64(2), in_axes=None)(1.0).tolist() == [1.0, 1.0]
    f = vmap(lambda x: x, axis_size=2.5, in_axes=None)  # raised when called, as JAX
    with pytest.raises(TypeError, match="axis_size must be an integer, got 2.5"):
        f(1.0)
