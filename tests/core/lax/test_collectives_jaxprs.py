"""The jaxprs of psum, pmax, pmin, pmean, all_gather, ppermute, psum_scatter (`reduce_scatter`)
and all_to_all as JAX 0.10.2 prints them
(`make_jaxpr(f, axis_env=[("i", 2)])`, recorded): JAX's parameters (`axes`, `axis_index_groups`,
`all_gather_dimension`), pmean as a psum then a division by a rank-0 constant (integers summed
as integers, then converted), and psum of constants computed while tracing as the constant
times the axis size."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

X = np.ones((2, 3), np.float32)
CASES = {
    "psum": (
        lambda x: lax.psum(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = psum[axes=('i',) axis_index_groups=None] a
  in (b,) }""",
    ),
    "psum_tuple_axes": (
        lambda x: lax.psum(x, ("i",)),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = psum[axes=('i',) axis_index_groups=None] a
  in (b,) }""",
    ),
    "pmax": (
        lambda x: lax.pmax(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = pmax[axes=('i',) axis_index_groups=None] a
  in (b,) }""",
    ),
    "pmin": (
        lambda x: lax.pmin(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = pmin[axes=('i',) axis_index_groups=None] a
  in (b,) }""",
    ),
    "pmean": (
        lambda x: lax.pmean(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = psum[axes=('i',) axis_index_groups=None] a
    c:f32[2,3] = div b 2.0:f32[]
  in (c,) }""",
    ),
    "pmean_int": (
        lambda x: lax.pmean(x, "i"),
        np.ones(3, np.int32),
        """{ lambda ; a:i32[3]. let
    b:i32[3] = psum[axes=('i',) axis_index_groups=None] a
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[3] = div c 2.0:f32[]
  in (d,) }""",
    ),
    "pmean_f16": (
        lambda x: lax.pmean(x, "i"),
        np.ones(3, np.float16),
        """{ lambda ; a:f16[3]. let
    b:f16[3] = psum[axes=('i',) axis_index_groups=None] a
    c:f16[3] = div b 2.0:f16[]
  in (c,) }""",
    ),
    "pmean_c64": (
        lambda x: lax.pmean(x, "i"),
        np.ones(3, np.complex64),
        """{ lambda ; a:c64[3]. let
    b:c64[3] = psum[axes=('i',) axis_index_groups=None] a
    c:c64[3] = div b (2+0j):c64[]
  in (c,) }""",
    ),
    "all_gather": (
        lambda x: lax.all_gather(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,2,3] = all_gather[
      all_gather_dimension=0
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      tiled=False
    ] a
  in (b,) }""",
    ),
    "all_gather_tiled": (
        lambda x: lax.all_gather(x, "i", axis=1, tiled=True),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,6] = all_gather[
      all_gather_dimension=1
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      tiled=True
    ] a
  in (b,) }""",
    ),
    "psum_of_a_python_int": (
        lambda x: lax.psum(1, "i") * x,
        X,
        "{ lambda ; a:f32[2,3]. let b:f32[2,3] = mul 2.0:f32[] a in (b,) }",
    ),
    "pmean_of_a_python_float": (
        lambda x: lax.pmean(2.0, "i") * x,
        np.ones(3, np.float32),
        "{ lambda ; a:f32[3]. let b:f32[3] = mul 2.0:f32[] a in (b,) }",
    ),
    "pmax_of_a_python_int": (
        lambda x: lax.pmax(3, "i") * x,
        np.ones(3, np.float32),
        """{ lambda ; a:f32[3]. let
    b:i32[] = pmax[axes=('i',) axis_index_groups=None] 3:i32[]
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[3] = mul c a
  in (d,) }""",
    ),
    "pmax_int": (
        lambda x: lax.pmax(x.astype(jnp.int32), "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[2,3] = pmax[axes=('i',) axis_index_groups=None] b
  in (c,) }""",
    ),
    "ppermute": (
        lambda x: lax.ppermute(x, "i", [(0, 1), (1, 0)]),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = ppermute[axis_name=('i',) perm=((0, 1), (1, 0))] a
  in (b,) }""",
    ),
    "ppermute_grad": (
        core.grad(lambda x: lax.ppermute(x, "i", [(0, 1)]).sum()),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = ppermute[axis_name=('i',) perm=((0, 1),)] a
    _:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] b
    c:f32[2,3] = broadcast_in_dim 1.0:f32[]
    d:f32[2,3] = ppermute[axis_name=('i',) perm=((1, 0),)] c
  in (d,) }""",
    ),
    "ppermute_under_another_vmap": (
        core.vmap(lambda x: lax.ppermute(x, "i", [(0, 1), (1, 0)])),
        np.ones((3, 2), np.float32),
        """{ lambda ; a:f32[3,2]. let
    b:f32[3,2] = ppermute[axis_name=('i',) perm=((0, 1), (1, 0))] a
  in (b,) }""",
    ),
    "psum_scatter": (
        lambda x: lax.psum_scatter(x, "i"),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[3] = reduce_scatter[
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      scatter_dimension=0
      tiled=False
    ] a
  in (b,) }""",
    ),
    "psum_scatter_tiled": (
        lambda x: lax.psum_scatter(x, "i", scatter_dimension=1, tiled=True),
        np.ones((3, 4), np.float32),
        """{ lambda ; a:f32[3,4]. let
    b:f32[3,2] = reduce_scatter[
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      scatter_dimension=1
      tiled=True
    ] a
  in (b,) }""",
    ),
    "psum_scatter_grad": (
        core.grad(lambda x: lax.psum_scatter(x, "i").sum()),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[3] = reduce_scatter[
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      scatter_dimension=0
      tiled=False
    ] a
    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] b
    c:f32[3] = broadcast_in_dim 1.0:f32[]
    d:f32[2,3] = all_gather[
      all_gather_dimension=0
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      tiled=False
    ] c
  in (d,) }""",
    ),
    "psum_scatter_under_another_vmap": (
        core.vmap(lambda x: lax.psum_scatter(x, "i")),
        np.ones((3, 2), np.float32),
        """{ lambda ; a:f32[3,2]. let
    b:f32[3] = reduce_scatter[
      axis_index_groups=None
      axis_name=('i',)
      axis_size=2
      scatter_dimension=1
      tiled=False
    ] a
  in (b,) }""",
    ),
    "all_to_all": (
        lambda x: lax.all_to_all(x, "i", 0, 1),
        X,
        """{ lambda ; a:f32[2,3]. let
    b:f32[2,3,1] = broadcast_in_dim[broadcast_dimensions=(0, 1)] a
    c:f32[1,3,2] = all_to_all[
      axis_index_groups=None
      axis_name=i
      concat_axis=2
      split_axis=0
      tiled=False
    ] b
    d:f32[3,2] = squeeze[dimensions=(0,)] c
  in (d,) }""",
    ),
    "all_to_all_tiled": (
        lambda x: lax.all_to_all(x, "i", 1, 0, tiled=True),
        np.ones((3, 4), np.float32),
        """{ lambda ; a:f32[3,4]. let
    b:f32[6,2] = all_to_all[
      axis_index_groups=None
      axis_name=i
      concat_axis=0
      split_axis=1
      tiled=True
    ] a
  in (b,) }""",
    ),
    "all_to_all_under_another_vmap": (
        core.vmap(lambda x: lax.all_to_all(x, "i", 0, 0)),
        np.ones((3, 2), np.float32),
        """{ lambda ; a:f32[3,2]. let
    b:f32[3,2] = all_to_all[
      axis_index_groups=None
      axis_name=i
      concat_axis=1
      split_axis=1
      tiled=False
    ] a
  in (b,) }""",
    ),
}

# Over the named vmap axis itself, JAX's batchers turn them into ordinary operations.
NAMED = {
    "psum_scatter": (
        lambda x: lax.psum_scatter(x, "i"),
        np.ones((2, 2), np.float32),
        """{ lambda ; a:f32[2,2]. let
    b:f32[2] = reduce_sum[axes=(0,) out_sharding=None] a
  in (b,) }""",
    ),
    "all_to_all": (
        lambda x: lax.all_to_all(x, "i", 0, 0),
        np.ones((2, 2), np.float32),
        """{ lambda ; a:f32[2,2]. let
    b:f32[2,2,1] = reshape[dimensions=None new_sizes=(2, 2, 1) sharding=None] a
    c:f32[2,2,1] = transpose[permutation=(1, 0, 2)] b
    d:f32[2,2] = reshape[dimensions=None new_sizes=(2, 2) sharding=None] c
  in (d,) }""",
    ),
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_vmap_collective_jaxprs_print_as_jax(name):
    f, x, expected = NAMED[name]
    assert str(core.make_jaxpr(core.vmap(f, axis_name="i"))(x)) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_collective_jaxprs_print_as_jax(name):
    f, x, expected = CASES[name]
    assert str(core.make_jaxpr(f, axis_env=[("i", 2)])(x)) == expected


def test_psum_of_constants_is_the_constant_times_the_axis_size():
    assert core.vmap(lambda x: lax.psum(1, "i"), axis_name="i")(np.ones(3)).tolist() == [3] * 3
    out = core.pmap(lambda x: x * lax.psum(1, "i"), axis_name="i")(np.ones(2, np.float32))
    assert np.asarray(out).tolist() == [2.0, 2.0]


def test_pmean_of_integers_sums_integers_then_divides():
    out = core.pmap(lambda x: lax.pmean(x, "i"), axis_name="i")(np.array([1, 2], np.int32))
    assert out.dtype == np.float32 and np.asarray(out).tolist() == [1.5, 1.5]
