"""The collectives written over all_gather/psum: ppermute, pshuffle, pbroadcast, all_to_all,
pswapaxes, psum_scatter, under `vmap(..., axis_name="i")` and (`_PMAPPED`) `pmap`.

Values and gradients (of `sum(w * vmap(f)(x))`) are JAX 0.10.2's (`jax.vmap`, `axis_name="i"`);
JAX's vmap rule rejects partial permutations, so `_PARTIAL` is from `jax.pmap` on 3 devices.
pbroadcast has no CPU lowering and a broken vmap rule in JAX 0.10.2: it is checked against its
documented definition, `psum(where(axis_index == source, x, 0))`.
"""

import re

import numpy as np
import pytest

import core
from core import lax
from core.errors import ShapeError, UnboundAxisNameError

# name -> (input shape, output, gradient)
_REF = {
    "ppermute_cycle": (
        (3, 2),
        [[1.0, 1.5], [-1.0, -0.5], [0.0, 0.5]],
        [
            [-0.41614681482315063, -0.9899924993515015],
            [-0.6536436080932617, 0.28366217017173767],
            [1.0, 0.5403022766113281],
        ],
    ),
    "pshuffle": (
        (3, 2),
        [[1.0, 1.5], [-1.0, -0.5], [0.0, 0.5]],
        [
            [-0.41614681482315063, -0.9899924993515015],
            [-0.6536436080932617, 0.28366217017173767],
            [1.0, 0.5403022766113281],
        ],
    ),
    "all_to_all_01": (
        (3, 3, 2),
        [
            [[-1.0, 2.0, 5.0], [-0.5, 2.5, 5.5]],
            [[0.0, 3.0, 6.0], [0.5, 3.5, 6.5]],
            [[1.0, 4.0, 7.0], [1.5, 4.5, 7.5]],
        ],
        [
            [
                [1.0, -0.9899924993515015],
                [0.9601702690124512, -0.9111302495002747],
                [0.8438539505004883, -0.7596879005432129],
            ],
            [
                [0.5403022766113281, -0.6536436080932617],
                [0.7539022564888, -0.83907151222229],
                [0.9074468016624451, -0.9576594829559326],
            ],
            [
                [-0.41614681482315063, 0.28366217017173767],
                [-0.1455000340938568, 0.004425697959959507],
                [0.13673722743988037, -0.27516335248947144],
            ],
        ],
    ),
    "all_to_all_10": (
        (3, 2, 3),
        [
            [[-1.0, 0.5], [2.0, 3.5], [5.0, 6.5]],
            [[-0.5, 1.0], [2.5, 4.0], [5.5, 7.0]],
            [[0.0, 1.5], [3.0, 4.5], [6.0, 7.5]],
        ],
        [
            [
                [1.0, 0.9601702690124512, 0.8438539505004883],
                [0.5403022766113281, 0.7539022564888, 0.9074468016624451],
            ],
            [
                [-0.41614681482315063, -0.1455000340938568, 0.13673722743988037],
                [-0.9899924993515015, -0.9111302495002747, -0.7596879005432129],
            ],
            [
                [-0.6536436080932617, -0.83907151222229, -0.9576594829559326],
                [0.28366217017173767, 0.004425697959959507, -0.27516335248947144],
            ],
        ],
    ),
    "all_to_all_00": (
        (3, 3, 2),
        [
            [[-1.0, -0.5], [2.0, 2.5], [5.0, 5.5]],
            [[0.0, 0.5], [3.0, 3.5], [6.0, 6.5]],
            [[1.0, 1.5], [4.0, 4.5], [7.0, 7.5]],
        ],
        [
            [
                [1.0, 0.5403022766113281],
                [0.9601702690124512, 0.7539022564888],
                [0.8438539505004883, 0.9074468016624451],
            ],
            [
                [-0.41614681482315063, -0.9899924993515015],
                [-0.1455000340938568, -0.9111302495002747],
                [0.13673722743988037, -0.7596879005432129],
            ],
            [
                [-0.6536436080932617, 0.28366217017173767],
                [-0.83907151222229, 0.004425697959959507],
                [-0.9576594829559326, -0.27516335248947144],
            ],
        ],
    ),
    "all_to_all_tiled_01": (
        (2, 4, 3),
        [
            [[-1.0, -0.5, 0.0, 5.0, 5.5, 6.0], [0.5, 1.0, 1.5, 6.5, 7.0, 7.5]],
            [[2.0, 2.5, 3.0, 8.0, 8.5, 9.0], [3.5, 4.0, 4.5, 9.5, 10.0, 10.5]],
        ],
        [
            [
                [1.0, 0.5403022766113281, -0.41614681482315063],
                [0.9601702690124512, 0.7539022564888, -0.1455000340938568],
                [0.8438539505004883, 0.9074468016624451, 0.13673722743988037],
                [0.6603167057037354, 0.9887046217918396, 0.4080820679664612],
            ],
            [
                [-0.9899924993515015, -0.6536436080932617, 0.28366217017173767],
                [-0.9111302495002747, -0.83907151222229, 0.004425697959959507],
                [-0.7596879005432129, -0.9576594829559326, -0.27516335248947144],
                [-0.5477292537689209, -0.9999608397483826, -0.5328330397605896],
            ],
        ],
    ),
    "all_to_all_tiled_10": (
        (2, 3, 4),
        [
            [[-1.0, -0.5], [1.0, 1.5], [3.0, 3.5], [5.0, 5.5], [7.0, 7.5], [9.0, 9.5]],
            [[0.0, 0.5], [2.0, 2.5], [4.0, 4.5], [6.0, 6.5], [8.0, 8.5], [10.0, 10.5]],
        ],
        [
            [
                [1.0, 0.5403022766113281, 0.8438539505004883, 0.9074468016624451],
                [
                    -0.41614681482315063,
                    -0.9899924993515015,
                    0.13673722743988037,
                    -0.7596879005432129,
                ],
                [
                    -0.6536436080932617,
                    0.28366217017173767,
                    -0.9576594829559326,
                    -0.27516335248947144,
                ],
            ],
            [
                [0.9601702690124512, 0.7539022564888, 0.6603167057037354, 0.9887046217918396],
                [-0.1455000340938568, -0.9111302495002747, 0.4080820679664612, -0.5477292537689209],
                [-0.83907151222229, 0.004425697959959507, -0.9999608397483826, -0.5328330397605896],
            ],
        ],
    ),
    "pswapaxes": (
        (3, 2, 3),
        [
            [[-1.0, 2.0, 5.0], [0.5, 3.5, 6.5]],
            [[-0.5, 2.5, 5.5], [1.0, 4.0, 7.0]],
            [[0.0, 3.0, 6.0], [1.5, 4.5, 7.5]],
        ],
        [
            [
                [1.0, 0.9601702690124512, 0.8438539505004883],
                [-0.9899924993515015, -0.9111302495002747, -0.7596879005432129],
            ],
            [
                [0.5403022766113281, 0.7539022564888, 0.9074468016624451],
                [-0.6536436080932617, -0.83907151222229, -0.9576594829559326],
            ],
            [
                [-0.41614681482315063, -0.1455000340938568, 0.13673722743988037],
                [0.28366217017173767, 0.004425697959959507, -0.27516335248947144],
            ],
        ],
    ),
    "psum_scatter": (
        (3, 3, 2),
        [[6.0, 7.5], [9.0, 10.5], [12.0, 13.5]],
        [
            [
                [1.0, 0.5403022766113281],
                [-0.41614681482315063, -0.9899924993515015],
                [-0.6536436080932617, 0.28366217017173767],
            ],
            [
                [1.0, 0.5403022766113281],
                [-0.41614681482315063, -0.9899924993515015],
                [-0.6536436080932617, 0.28366217017173767],
            ],
            [
                [1.0, 0.5403022766113281],
                [-0.41614681482315063, -0.9899924993515015],
                [-0.6536436080932617, 0.28366217017173767],
            ],
        ],
    ),
    "psum_scatter_d1": (
        (3, 2, 3),
        [[6.0, 10.5], [7.5, 12.0], [9.0, 13.5]],
        [
            [
                [1.0, -0.41614681482315063, -0.6536436080932617],
                [0.5403022766113281, -0.9899924993515015, 0.28366217017173767],
            ],
            [
                [1.0, -0.41614681482315063, -0.6536436080932617],
                [0.5403022766113281, -0.9899924993515015, 0.28366217017173767],
            ],
            [
                [1.0, -0.41614681482315063, -0.6536436080932617],
                [0.5403022766113281, -0.9899924993515015, 0.28366217017173767],
            ],
        ],
    ),
    "psum_scatter_tiled": (
        (2, 3, 4),
        [[[4.0, 5.0], [8.0, 9.0], [12.0, 13.0]], [[6.0, 7.0], [10.0, 11.0], [14.0, 15.0]]],
        [
            [
                [1.0, 0.5403022766113281, 0.9601702690124512, 0.7539022564888],
                [
                    -0.41614681482315063,
                    -0.9899924993515015,
                    -0.1455000340938568,
                    -0.9111302495002747,
                ],
                [-0.6536436080932617, 0.28366217017173767, -0.83907151222229, 0.004425697959959507],
            ],
            [
                [1.0, 0.5403022766113281, 0.9601702690124512, 0.7539022564888],
                [
                    -0.41614681482315063,
                    -0.9899924993515015,
                    -0.1455000340938568,
                    -0.9111302495002747,
                ],
                [-0.6536436080932617, 0.28366217017173767, -0.83907151222229, 0.004425697959959507],
            ],
        ],
    ),
}
_PARTIAL = (
    [[0.0, 0.0], [1.0, 1.5], [-1.0, -0.5]],
    [
        [-0.6536436080932617, 0.28366217017173767],
        [0.0, 0.0],
        [-0.41614681482315063, -0.9899924993515015],
    ],
)

_FUNS = {
    "ppermute_cycle": lambda x: lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 0)]),
    "pshuffle": lambda x: lax.pshuffle(x, "i", [2, 0, 1]),
    "all_to_all_01": lambda x: lax.all_to_all(x, "i", 0, 1),
    "all_to_all_10": lambda x: lax.all_to_all(x, "i", 1, 0),
    "all_to_all_00": lambda x: lax.all_to_all(x, "i", 0, 0),
    "all_to_all_tiled_01": lambda x: lax.all_to_all(x, "i", 0, 1, tiled=True),
    "all_to_all_tiled_10": lambda x: lax.all_to_all(x, "i", 1, 0, tiled=True),
    "pswapaxes": lambda x: lax.pswapaxes(x, "i", 1),
    "psum_scatter": lambda x: lax.psum_scatter(x, "i"),
    "psum_scatter_d1": lambda x: lax.psum_scatter(x, "i", scatter_dimension=1),
    "psum_scatter_tiled": lambda x: lax.psum_scatter(x, "i", scatter_dimension=1, tiled=True),
}


def _x(shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * 0.5 - 1.0


def _w(shape):
    return np.cos(np.arange(np.prod(shape), dtype=np.float32)).reshape(shape)


def _check(f, x, out, grad):
    mapped = core.vmap(f, axis_name="i")
    w = _w(np.shape(out))
    np.testing.assert_allclose(np.asarray(mapped(x)), out, rtol=1e-6)
    g = core.grad(lambda x: core.numpy.sum(w * mapped(x)))(x)
    np.testing.assert_allclose(np.asarray(g), grad, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(_FUNS))
def test_value_and_grad_match_jax(name):
    shape, out, grad = _REF[name]
    _check(_FUNS[name], _x(shape), out, grad)


def test_partial_permutation_fills_zeros():
    out, grad = _PARTIAL
    _check(lambda x: lax.ppermute(x, "i", [(0, 2), (2, 1)]), _x((3, 2)), out, grad)


def test_pbroadcast():
    x = _x((3, 2))
    w = _w((3, 2))
    expected_grad = np.zeros_like(x)
    expected_grad[1] = w.sum(0)
    _check(lambda x: lax.pbroadcast(x, "i", 1), x, np.broadcast_to(x[1], (3, 2)), expected_grad)


def test_pytree_and_integer_dtype():
    x = {"a": np.arange(3, dtype=np.int32), "b": np.arange(6, dtype=np.float32).reshape(3, 2)}
    out = core.vmap(lambda t: lax.pshuffle(t, "i", [1, 2, 0]), axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(out["a"]), [1, 2, 0])
    np.testing.assert_array_equal(np.asarray(out["b"]), x["b"][[1, 2, 0]])


def test_two_names_flatten_row_major():
    # Over ("i", "j") the elements are numbered i * size_j + j, as for axis_index.
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    f = lambda v: lax.ppermute(v, ("i", "j"), [(k, (k + 1) % 6) for k in range(6)])  # noqa: E731
    out = core.vmap(core.vmap(f, axis_name="j"), axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(out), np.roll(x.ravel(), 1).reshape(2, 3))


def test_under_jit_matches_eager():
    x = _x((2, 4, 3))
    shape, out, grad = _REF["all_to_all_tiled_01"]
    w = _w(np.shape(out))
    mapped = core.vmap(_FUNS["all_to_all_tiled_01"], axis_name="i")
    g = core.jit(core.grad(lambda x: core.numpy.sum(w * mapped(x))))(x)
    np.testing.assert_allclose(np.asarray(g), grad, rtol=1e-6)


@pytest.mark.parametrize(
    "f, error",
    [
        (lambda x: lax.ppermute(x, "i", [(0, 1), (1, 1)]), ValueError),
        (lambda x: lax.ppermute(x, "i", [(0, 3)]), ValueError),
        (lambda x: lax.pshuffle(x, "i", [0, 0, 1]), ValueError),
        (lambda x: lax.pbroadcast(x, "i", 3), ValueError),
        (lambda x: lax.all_to_all(x, "i", 0, 0), ShapeError),
        (lambda x: lax.all_to_all(x, "i", 0, 0, tiled=True), ShapeError),
        (lambda x: lax.psum_scatter(x, "i"), ShapeError),
        (lambda x: lax.ppermute(x, "j", [(0, 1)]), UnboundAxisNameError),
    ],
)
def test_errors(f, error):
    with pytest.raises(error):
        core.vmap(f, axis_name="i")(np.zeros((3, 2), np.float32))


# JAX 0.10.2's first sentences: eager "unbound axis name: zz", traced "Found an unbound axis
# name: zz. To fix this, please call psum under `jax.shard_map`." (NameError both ways).
@pytest.mark.parametrize(
    "run, head",
    [
        (lambda f: f(np.arange(3.0, dtype=np.float32)), "unbound axis name: zz"),
        (
            lambda f: core.jit(f)(np.arange(3.0, dtype=np.float32)),
            "Found an unbound axis name: zz. To fix this, please call psum under "
            "`jax.shard_map`.\n",
        ),
        (
            lambda f: core.vmap(f, axis_name="k")(np.arange(3.0, dtype=np.float32)),
            "Found an unbound axis name: zz",
        ),
        (lambda f: core.pmap(f, axis_name="k")(np.arange(2.0)), "Found an unbound axis name: zz"),
        (lambda f: core.make_jaxpr(f)(1.0), "Found an unbound axis name: zz"),
    ],
    ids=["eager", "jit", "vmap", "pmap", "make_jaxpr"],
)
def test_unbound_names_raise_when_traced(run, head):
    with pytest.raises(UnboundAxisNameError, match="^" + re.escape(head)):
        run(lambda v: lax.psum(v, "zz"))


def test_make_jaxpr_axis_env_binds_names_for_staging():
    jaxpr = core.make_jaxpr(lambda x: lax.psum(x, "zz") * lax.axis_size("zz"), axis_env=[("zz", 4)])
    text = str(jaxpr(1.0))
    assert "psum" in text and "4.0" in text
    with pytest.raises(UnboundAxisNameError):
        core.make_jaxpr(lambda x: lax.psum(x, "zz"))(1.0)  # the binding ended with the call


# Under `pmap` on 2 devices the jaxpr holds JAX's ppermute, reduce_scatter and all_to_all
# equations and `jit` compiles their compositions. name -> (f, input shape, JAX 0.10.2's
# `jax.pmap(f, axis_name="i")(arange(prod(shape)).reshape(shape))`).
_W3 = np.arange(3.0, dtype=np.float32)
_PMAPPED = {
    "ppermute_partial": (
        lambda v: lax.ppermute(v, "i", [(0, 1)]),
        (2, 3),
        [[0.0, 0.0, 0.0], [0.0, 1.0, 2.0]],
    ),
    "ppermute_negative_index": (
        lambda v: lax.ppermute(v, "i", [(0, -1)]),
        (2, 3),
        [[0.0, 0.0, 0.0], [0.0, 1.0, 2.0]],
    ),
    "ppermute_grad": (
        core.grad(lambda v: (lax.ppermute(v, "i", [(0, 1)]) * _W3).sum()),
        (2, 3),
        [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]],
    ),
    "psum_scatter_tiled_grad": (
        core.grad(
            lambda v: (
                lax.psum_scatter(v, "i", scatter_dimension=1, tiled=True) * _W3[:, None]
            ).sum()
        ),
        (2, 3, 4),
        [[[0.0] * 4, [1.0] * 4, [2.0] * 4]] * 2,
    ),
    "all_to_all_01": (
        lambda v: lax.all_to_all(v, "i", 0, 1),
        (2, 2, 3),
        [[[0.0, 6.0], [1.0, 7.0], [2.0, 8.0]], [[3.0, 9.0], [4.0, 10.0], [5.0, 11.0]]],
    ),
    "all_to_all_tiled_grad": (
        core.grad(
            lambda v: (
                lax.all_to_all(v, "i", 1, 0, tiled=True)
                * np.arange(8.0, dtype=np.float32).reshape(4, 2)
            ).sum()
        ),
        (2, 2, 4),
        [
            [[0.0, 1.0, 0.0, 1.0], [2.0, 3.0, 2.0, 3.0]],
            [[4.0, 5.0, 4.0, 5.0], [6.0, 7.0, 6.0, 7.0]],
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(_PMAPPED))
def test_pmap_values_match_jax(name):
    f, shape, expected = _PMAPPED[name]
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    np.testing.assert_array_equal(np.asarray(core.pmap(f, axis_name="i")(x)), expected)


@pytest.mark.parametrize("perm", [[(0, 1), (1, 1)], [(0, 1), (0, 0)], [(0, 1), (1, -1)]])
def test_ppermute_repeated_index_raises_jaxs_error(perm):
    # JAX 0.10.2 raises it when lowering (under pmap), with negative indices wrapped first.
    expected = f"ppermute sources and destinations must be unique, got {tuple(perm)}."
    with pytest.raises(ValueError, match="^" + re.escape(expected) + "$"):
        core.make_jaxpr(lambda v: lax.ppermute(v, "i", perm), axis_env=[("i", 2)])(1.0)
