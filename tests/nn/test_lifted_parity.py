"""Lifted transforms and module API details against Flax 0.12.8: the error lines of nn.scan and
nn.vmap sizes, scan's pytree in_axes, transform names in scope paths, lifted
value_and_grad/grad outputs and errors, nn.switch without branches, dict merging by
put_variable (and the key order of variables published by a transform), nn.cond's init
RNG order, and Flax's checks of init/apply's rngs and variables.

Every expected value and message below was printed by Flax 0.12.8 (JAX 0.10.2).
"""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core import random
from nn import errors

K0 = random.key(0)
XS = jnp.cos(jnp.arange(6.0)).reshape(3, 2)


class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = jnp.tanh(nn.Dense(2, name="hc")(c) + nn.Dense(2, name="hx")(x))
        return h, h * 2


class Pass(nn.Module):
    @nn.compact
    def __call__(self, c, x, y):
        return c + x, y


def _first_line(info: pytest.ExceptionInfo) -> str:
    return str(info.value).splitlines()[0]


_BROADCAST = {"variable_broadcast": "params", "split_rngs": {"params": False}}


@pytest.mark.parametrize(
    "make, exc, line",
    [
        (
            lambda: nn.scan(Cell, variable_axes={"params": 0}, split_rngs={"params": True})().init(
                K0, jnp.zeros(2), None
            ),
            ValueError,
            "length should be specified manually.",
        ),
        (
            lambda: nn.scan(Pass, in_axes=(0, 0), **_BROADCAST)().apply(
                {}, 0.0, jnp.arange(3.0), jnp.arange(4.0)
            ),
            ValueError,
            "Inconsistent scan lengths: {3, 4}",
        ),
        (
            lambda: nn.scan(Cell, length=4, **_BROADCAST)().init(K0, jnp.zeros(2), XS),
            ValueError,
            "scan got `length` argument of 4 which disagrees with leading axis sizes [3].",
        ),
        (
            lambda: nn.scan(Cell, in_axes={"a": 0}, **_BROADCAST)().init(K0, jnp.zeros(2), XS),
            ValueError,
            "pytree structure error: different types at key path",
        ),
        (
            lambda: nn.vmap(
                nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None
            )(2).init(K0, jnp.ones(3)),
            ValueError,
            "axis_size should be specified manually.",
        ),
        (
            lambda: nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True})(
                2
            ).init(K0, 3.0),
            AttributeError,
            "'float' object has no attribute 'shape'",
        ),
        (
            lambda: nn.scan(Cell, variable_broadcast="params")().init(K0, jnp.zeros(2), XS),
            errors.InvalidRngError,
            'hc needs PRNG for "params" (https://flax.readthedocs.io/en/latest/api_reference/'
            "flax.errors.html#flax.errors.InvalidRngError)",
        ),
    ],
)
def test_scan_and_vmap_size_and_rng_errors_have_flax_first_lines(make, exc, line):
    with pytest.raises(exc) as info:
        make()
    assert _first_line(info) == line


def test_scan_takes_in_axes_as_a_pytree_per_argument():
    class T(nn.Module):
        @nn.compact
        def __call__(self, c, x):
            return c + (x["a"] * x["b"]).sum(), x["b"]

    scan = nn.scan(T, in_axes=({"a": 0, "b": nn.broadcast},), **_BROADCAST)
    c, ys = scan().apply({}, 0.0, {"a": jnp.arange(3.0), "b": jnp.arange(2.0)})
    assert float(c) == 3.0
    np.testing.assert_array_equal(np.asarray(ys), [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]])


_LINK = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors."


def test_errors_inside_transforms_name_the_transform_in_the_path():
    scan = nn.scan(Cell, **_BROADCAST)
    v = scan().init(K0, jnp.array([0.5, -0.25]), XS)
    with pytest.raises(errors.ScopeParamShapeError) as info:
        scan().apply(v, jnp.ones(3), XS)
    assert _first_line(info) == (
        'For parameter "kernel" in "/scan()/hc", the given initializer is expected to generate '
        "shape (3, 2), but the existing parameter it received has shape (2, 2). "
        f"({_LINK}ScopeParamShapeError)"
    )

    class Heads(nn.Module):
        @nn.compact
        def __call__(self, x):
            vm = nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True})
            return vm(2, name="heads")(x)

    v = Heads().init(K0, jnp.ones((3, 4)))
    with pytest.raises(errors.ScopeParamShapeError) as info:
        Heads().apply(v, jnp.ones((3, 5)))
    assert '"/vmap(heads)"' in _first_line(info)

    class Mapped(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.map_variables(nn.Dense, "params", trans_in_fn=lambda v: v)(2)(x)

    with pytest.raises(errors.ScopeCollectionNotFound) as info:
        Mapped().init(K0, jnp.ones(3))
    assert '"/map_variables(Map_variablesDense_0)"' in _first_line(info)


class Grads(nn.Module):
    @nn.compact
    def __call__(self, x, aux, scalar=True):
        d = nn.Dense(2, name="d", kernel_init=nn.initializers.constant(0.5))
        if not scalar:
            f = lambda m, x: m(x)  # noqa: E731
        elif aux:
            f = lambda m, x: ((m(x) ** 2).sum(), x.sum())  # noqa: E731
        else:
            f = lambda m, x: (m(x) ** 2).sum()  # noqa: E731
        return nn.value_and_grad(f, d, x, has_aux=aux), nn.grad(f, d, x, has_aux=aux)


def test_lifted_value_and_grad_and_grad_outputs():
    x = jnp.arange(3.0)
    v = Grads().init(K0, x, False)
    (val, (gx,)), (gx2,) = Grads().apply(v, x, False)
    assert float(val) == 4.5
    np.testing.assert_array_equal(np.asarray(gx), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(np.asarray(gx2), [3.0, 3.0, 3.0])
    # with has_aux: ((value, aux), grads) and (grads, aux)
    ((val, aux), (gx,)), ((gx2,), aux2) = Grads().apply(v, x, True)
    assert (float(val), float(aux), float(aux2)) == (4.5, 3.0, 3.0)
    np.testing.assert_array_equal(np.asarray(gx), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(np.asarray(gx2), [3.0, 3.0, 3.0])


def test_lifted_grad_errors():
    x = jnp.arange(3.0)
    v = Grads().init(K0, x, False)
    with pytest.raises(ValueError) as info:
        Grads().apply(v, x, False, False)
    assert _first_line(info) == (
        "grad can only work on functions with scalar-valued outputs. out shape=(2,)"
    )

    class Reduce(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.grad(lambda m, x: m(x).sum(), nn.Dense(2), x, reduce_axes=("b",))

    with pytest.raises(NotImplementedError, match="^reduce_axes argument to grad is deprecated$"):
        Reduce().init(K0, x)


def test_switch_without_branches_raises_index_error():
    class S(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.switch(0, [], self, x)

    with pytest.raises(IndexError) as info:
        S().apply({}, 1.0)
    assert _first_line(info) == "list index out of range"


def test_put_variable_merges_a_dict_into_the_existing_one():
    class P(nn.Module):
        @nn.compact
        def __call__(self, x):
            self.put_variable("s", "tree", {"a": 1.0, "b": {"c": 2.0}})
            self.put_variable("s", "tree", {"b": {"d": 3.0}, "e": 4.0})
            return self.get_variable("s", "tree")

    out, state = P().apply({}, 0, mutable=["s"])
    assert out == {"a": 1.0, "b": {"c": 2.0, "d": 3.0}, "e": 4.0}
    assert state == {"s": {"tree": {"a": 1.0, "b": {"c": 2.0, "d": 3.0}, "e": 4.0}}}


def test_variables_published_by_switch_keep_their_key_order():
    class Heads(nn.Module):
        def setup(self):
            self.heads = [nn.Dense(2, name=f"h{k}") for k in range(2)]

        def __call__(self, x, i):
            if self.is_initializing():
                for h in self.heads:
                    h(x)
            return nn.switch(i, [lambda m, x, k=k: m.heads[k](x) for k in range(2)], self, x)

    params = Heads().init(K0, jnp.ones(2), 0)["params"]
    assert [list(d) for d in params.values()] == [["kernel", "bias"], ["kernel", "bias"]]


def test_cond_creates_variables_with_flax_keys():
    # lax.cond traces the true branch first, so its make_rng counter comes first
    class C(nn.Module):
        def setup(self):
            self.a = nn.Dense(2)

        def __call__(self, x, pred):
            return nn.cond(pred, lambda m, x: m.a(x), lambda m, x: m.a(x) + 1, self, x)

    kernels = [C().init(K0, jnp.ones(3), p)["params"]["a"]["kernel"] for p in (True, False)]
    np.testing.assert_allclose(
        np.asarray(kernels[0]),
        [[0.6401844620704651, -0.43578022718429565], [0.0036885179579257965, 0.722882866859436]]
        + [[-0.3670438230037689, 0.2713335156440735]],
        rtol=1e-6,
        atol=1e-6,
    )
    np.testing.assert_allclose(
        np.asarray(kernels[1]),
        [[-0.4386807978153229, 0.08774092048406601], [-0.2902887761592865, 0.6102831959724426]]
        + [[-0.8909176588058472, -0.7050119638442993]],
        rtol=1e-6,
        atol=1e-6,
    )


class Named(nn.Module):
    wrapped: bool = False

    @nn.compact
    def __call__(self, x):
        if self.wrapped:
            return nn.Dense(2, name="d0")(x)
        return self.param(3, nn.initializers.ones, (3,))


_PARAMS = {"params": {"kernel": jnp.ones((2, 2)), "bias": jnp.ones(2)}}


@pytest.mark.parametrize(
    "call, exc, line",
    [
        (
            lambda: nn.Dense(2).init(None, jnp.ones(2)),
            errors.InvalidRngError,
            "RNGs should be of shape (2,) or PRNGKey in Module Dense, but rngs are: None "
            f"({_LINK}InvalidRngError)",
        ),
        (
            lambda: nn.Dense(2).init(3, jnp.ones(2)),
            errors.InvalidRngError,
            "RNGs should be of shape (2,) or PRNGKey in Module Dense, but rngs are: 3 "
            f"({_LINK}InvalidRngError)",
        ),
        (
            lambda: nn.Dense(2).apply(_PARAMS, jnp.ones(2), rngs=3),
            errors.InvalidRngError,
            "RNGs should be of shape (2,) or PRNGKey in Module Dense, but rngs are: 3 "
            f"({_LINK}InvalidRngError)",
        ),
        (
            lambda: nn.Dense(2).apply(None, jnp.ones(2)),
            TypeError,
            "argument of type 'NoneType' is not iterable",
        ),
        (
            lambda: nn.Dense(2).apply([1], jnp.ones(2)),
            AttributeError,
            "'list' object has no attribute 'items'",
        ),
        (
            lambda: nn.Dense(2).apply({"params": 3}, jnp.ones(2)),
            errors.ApplyScopeInvalidVariablesTypeError,
            "The first argument passed to an apply function should be a dictionary of "
            "collections. Each collection should be a dictionary with string keys. "
            f"({_LINK}ApplyScopeInvalidVariablesTypeError)",
        ),
        (
            lambda: nn.Dense(2).apply(_PARAMS, jnp.ones(2), method=3),
            errors.ApplyModuleInvalidMethodError,
            "Cannot call apply(): 3 is not a valid function for apply(). "
            f"({_LINK}ApplyModuleInvalidMethodError)",
        ),
        (
            lambda: nn.Dense(2).apply(_PARAMS, jnp.ones(2), rngs={"dropout": 1}),
            ValueError,
            "The ``rngs`` argument passed to an apply function should be a ``jax.PRNGKey`` or a "
            "dictionary mapping strings to ``jax.PRNGKey``.",
        ),
        (
            lambda: nn.Dense(2).init({"params": 1}, jnp.ones(2)),
            ValueError,
            "First argument passed to an init function should be a ``jax.PRNGKey`` or a "
            "dictionary mapping strings to ``jax.PRNGKey``.",
        ),
        (
            lambda: Named(wrapped=True).apply({"d0": _PARAMS["params"]}, jnp.ones(2)),
            errors.ScopeCollectionNotFound,
            'Tried to access "kernel" from collection "params" in "/d0" but the collection is '
            f"empty. ({_LINK}ScopeCollectionNotFound)",
        ),
        (
            lambda: Named().init(K0, 1.0),
            TypeError,
            "The type of scope \"{name}\" should be string but it is <class 'int'>",
        ),
        (
            lambda: nn.logical_to_mesh_axes(("batch", "batch"), (("batch", "data"),)),
            ValueError,
            "Unsupported: Dimensions ('batch',) occur more than once in array names.",
        ),
    ],
)
def test_init_apply_argument_errors_have_flax_first_lines(call, exc, line):
    with pytest.raises(exc) as info:
        call()
    assert _first_line(info) == line


@pytest.mark.parametrize(
    "declare",
    [
        lambda m: m.param("w", nn.initializers.ones, (1,)),
        lambda m: m.variable("s", "w", jnp.zeros, (1,)),
    ],
)
def test_declaring_on_an_unbound_module_is_flax_assertion_error(declare):
    # Flax 0.12.8: AssertionError with an empty message (it asserts the module has a scope)
    with pytest.raises(AssertionError) as info:
        declare(nn.Dense(2))
    assert str(info.value).splitlines()[0] == ""
    assert isinstance(info.value, errors.UnboundModuleError)
