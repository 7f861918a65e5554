"""The keyword arguments of numbax's public functions against JAX 0.10.2's (recorded from
`inspect.signature` of `jax.numpy`, `jax.lax`, `jax.random`, ...): every keyword argument JAX
takes is taken, with JAX's default.

The table lists the functions a signature comparison found different (missing keywords such
as `device=`/`out_sharding=`, `lax` operands named `x` instead of `operand`, ...). A required
parameter of JAX's may have a default here; positional-only parameters are left out (their
names do not matter to callers).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

REQUIRED = object()  # JAX's parameter has no default
ANY = object()  # JAX's default is an object of its own (a sentinel, a dtype...)

SIGNATURES = [
    ("", "process_indices", [("backend", None)]),
    ("", "vmap", [("in_axes", 0), ("out_axes", 0), ("axis_size", None), ("sum_match", False)]),
    ("scipy.linalg", "expm", [("A", REQUIRED), ("upper_triangular", False), ("max_squarings", 16)]),
    (
        "",
        "checkpoint",
        [("prevent_cse", True), ("policy", None), ("static_argnums", ()), ("static_argnames", ())],
    ),
    (
        "numpy",
        "array",
        [
            ("object", REQUIRED),
            ("dtype", None),
            ("copy", True),
            ("order", "K"),
            ("ndmin", 0),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "asarray",
        [
            ("a", REQUIRED),
            ("dtype", None),
            ("order", None),
            ("copy", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "zeros",
        [("shape", REQUIRED), ("dtype", None), ("device", None), ("out_sharding", None)],
    ),
    (
        "numpy",
        "ones",
        [("shape", REQUIRED), ("dtype", None), ("device", None), ("out_sharding", None)],
    ),
    (
        "numpy",
        "empty",
        [("shape", REQUIRED), ("dtype", None), ("device", None), ("out_sharding", None)],
    ),
    (
        "numpy",
        "full",
        [
            ("shape", REQUIRED),
            ("fill_value", REQUIRED),
            ("dtype", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "arange",
        [
            ("start", REQUIRED),
            ("stop", None),
            ("step", None),
            ("dtype", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "linspace",
        [
            ("start", REQUIRED),
            ("stop", REQUIRED),
            ("num", 50),
            ("endpoint", True),
            ("retstep", False),
            ("dtype", None),
            ("axis", 0),
            ("device", None),
        ],
    ),
    ("numpy", "eye", [("N", REQUIRED), ("M", None), ("k", 0), ("dtype", None), ("device", None)]),
    (
        "numpy",
        "zeros_like",
        [
            ("a", REQUIRED),
            ("dtype", None),
            ("shape", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "ones_like",
        [
            ("a", REQUIRED),
            ("dtype", None),
            ("shape", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "empty_like",
        [("prototype", REQUIRED), ("dtype", None), ("shape", None), ("device", None)],
    ),
    (
        "numpy",
        "full_like",
        [
            ("a", REQUIRED),
            ("fill_value", REQUIRED),
            ("dtype", None),
            ("shape", None),
            ("device", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "argsort",
        [
            ("a", REQUIRED),
            ("axis", -1),
            ("kind", None),
            ("order", None),
            ("stable", True),
            ("descending", False),
            ("dtype", None),
        ],
    ),
    (
        "numpy",
        "bincount",
        [
            ("x", REQUIRED),
            ("weights", None),
            ("minlength", 0),
            ("length", None),
            ("out_sharding", None),
        ],
    ),
    ("numpy", "broadcast_to", [("array", REQUIRED), ("shape", REQUIRED), ("out_sharding", None)]),
    (
        "numpy",
        "einsum",
        [
            ("out", None),
            ("optimize", "auto"),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "isin",
        [
            ("element", REQUIRED),
            ("test_elements", REQUIRED),
            ("assume_unique", False),
            ("invert", False),
            ("method", "auto"),
        ],
    ),
    ("numpy", "isneginf", [("out", None)]),
    ("numpy", "isposinf", [("out", None)]),
    (
        "numpy",
        "nanstd",
        [
            ("a", REQUIRED),
            ("axis", None),
            ("dtype", None),
            ("out", None),
            ("ddof", 0),
            ("keepdims", False),
            ("where", None),
            ("mean", None),
        ],
    ),
    (
        "numpy",
        "nanvar",
        [
            ("a", REQUIRED),
            ("axis", None),
            ("dtype", None),
            ("out", None),
            ("ddof", 0),
            ("keepdims", False),
            ("where", None),
            ("mean", None),
        ],
    ),
    (
        "numpy",
        "std",
        [
            ("a", REQUIRED),
            ("axis", None),
            ("dtype", None),
            ("out", None),
            ("ddof", 0),
            ("keepdims", False),
            ("where", None),
            ("mean", None),
            ("correction", None),
        ],
    ),
    (
        "numpy",
        "var",
        [
            ("a", REQUIRED),
            ("axis", None),
            ("dtype", None),
            ("out", None),
            ("ddof", 0),
            ("keepdims", False),
            ("where", None),
            ("mean", None),
            ("correction", None),
        ],
    ),
    ("numpy", "ravel", [("a", REQUIRED), ("order", "C"), ("out_sharding", None)]),
    (
        "numpy",
        "ravel_multi_index",
        [
            ("multi_index", REQUIRED),
            ("dims", REQUIRED),
            ("mode", "raise"),
            ("order", "C"),
            ("dtype", None),
        ],
    ),
    (
        "numpy",
        "repeat",
        [
            ("a", REQUIRED),
            ("repeats", REQUIRED),
            ("axis", None),
            ("total_repeat_length", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "reshape",
        [
            ("a", REQUIRED),
            ("shape", REQUIRED),
            ("order", "C"),
            ("copy", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "take_along_axis",
        [
            ("arr", REQUIRED),
            ("indices", REQUIRED),
            ("axis", -1),
            ("mode", None),
            ("fill_value", None),
            ("wrap_negative_indices", None),
        ],
    ),
    (
        "numpy",
        "tensordot",
        [
            ("a", REQUIRED),
            ("b", REQUIRED),
            ("axes", 2),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    (
        "numpy",
        "unique",
        [
            ("ar", REQUIRED),
            ("return_index", False),
            ("return_inverse", False),
            ("return_counts", False),
            ("axis", None),
            ("equal_nan", True),
            ("size", None),
            ("fill_value", None),
            ("sorted", True),
        ],
    ),
    (
        "numpy",
        "percentile",
        [
            ("a", REQUIRED),
            ("q", REQUIRED),
            ("axis", None),
            ("out", None),
            ("overwrite_input", False),
            ("method", "linear"),
            ("keepdims", False),
            ("weights", None),
            ("out_sharding", None),
        ],
    ),
    ("numpy", "fmax", [("x1", REQUIRED), ("x2", REQUIRED)]),
    ("numpy", "fmin", [("x1", REQUIRED), ("x2", REQUIRED)]),
    ("numpy", "gcd", [("x1", REQUIRED), ("x2", REQUIRED)]),
    ("numpy", "lcm", [("x1", REQUIRED), ("x2", REQUIRED)]),
    ("numpy", "trunc", [("x", REQUIRED)]),
    ("numpy.linalg", "eigvalsh", [("a", REQUIRED), ("UPLO", "L"), ("symmetrize_input", True)]),
    ("numpy.linalg", "slogdet", [("a", REQUIRED), ("method", None)]),
    (
        "numpy.linalg",
        "svd",
        [
            ("a", REQUIRED),
            ("full_matrices", True),
            ("compute_uv", True),
            ("hermitian", False),
            ("subset_by_index", None),
        ],
    ),
    (
        "numpy.linalg",
        "vecdot",
        [("axis", -1), ("precision", None), ("preferred_element_type", None)],
    ),
    (
        "numpy.linalg",
        "tensordot",
        [
            ("axes", 2),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    (
        "lax",
        "all_gather",
        [
            ("x", REQUIRED),
            ("axis_name", REQUIRED),
            ("axis_index_groups", None),
            ("axis", 0),
            ("tiled", False),
            ("to", "varying"),
        ],
    ),
    ("lax", "argmax", [("operand", REQUIRED), ("axis", REQUIRED), ("index_dtype", REQUIRED)]),
    ("lax", "argmin", [("operand", REQUIRED), ("axis", REQUIRED), ("index_dtype", REQUIRED)]),
    ("lax", "bitcast_convert_type", [("operand", REQUIRED), ("new_dtype", REQUIRED)]),
    ("lax", "broadcast", [("operand", REQUIRED), ("sizes", REQUIRED), ("out_sharding", None)]),
    (
        "lax",
        "broadcast_in_dim",
        [
            ("operand", REQUIRED),
            ("shape", REQUIRED),
            ("broadcast_dimensions", REQUIRED),
            ("out_sharding", None),
        ],
    ),
    (
        "lax",
        "broadcasted_iota",
        [("dtype", REQUIRED), ("shape", REQUIRED), ("dimension", REQUIRED), ("out_sharding", None)],
    ),
    (
        "lax",
        "cond",
        [("pred", REQUIRED), ("true_fun", REQUIRED), ("false_fun", REQUIRED), ("operand", ANY)],
    ),
    (
        "lax",
        "conv_general_dilated",
        [
            ("lhs", REQUIRED),
            ("rhs", REQUIRED),
            ("window_strides", REQUIRED),
            ("padding", REQUIRED),
            ("lhs_dilation", None),
            ("rhs_dilation", None),
            ("dimension_numbers", None),
            ("feature_group_count", 1),
            ("batch_group_count", 1),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    ("lax", "convert_element_type", [("operand", REQUIRED), ("new_dtype", REQUIRED)]),
    (
        "lax",
        "dot",
        [
            ("lhs", REQUIRED),
            ("rhs", REQUIRED),
            ("dimension_numbers", None),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    (
        "lax",
        "dot_general",
        [
            ("lhs", REQUIRED),
            ("rhs", REQUIRED),
            ("dimension_numbers", REQUIRED),
            ("precision", None),
            ("preferred_element_type", None),
            ("out_sharding", None),
        ],
    ),
    (
        "lax",
        "dynamic_slice",
        [
            ("operand", REQUIRED),
            ("start_indices", REQUIRED),
            ("slice_sizes", REQUIRED),
            ("allow_negative_indices", True),
        ],
    ),
    (
        "lax",
        "dynamic_slice_in_dim",
        [
            ("operand", REQUIRED),
            ("start_index", REQUIRED),
            ("slice_size", REQUIRED),
            ("axis", 0),
            ("allow_negative_indices", True),
        ],
    ),
    (
        "lax",
        "dynamic_update_slice",
        [
            ("operand", REQUIRED),
            ("update", REQUIRED),
            ("start_indices", REQUIRED),
            ("allow_negative_indices", True),
        ],
    ),
    (
        "lax",
        "dynamic_update_slice_in_dim",
        [
            ("operand", REQUIRED),
            ("update", REQUIRED),
            ("start_index", REQUIRED),
            ("axis", REQUIRED),
            ("allow_negative_indices", True),
        ],
    ),
    (
        "lax",
        "full",
        [("shape", REQUIRED), ("fill_value", REQUIRED), ("dtype", None), ("sharding", None)],
    ),
    (
        "lax",
        "full_like",
        [
            ("x", REQUIRED),
            ("fill_value", REQUIRED),
            ("dtype", None),
            ("shape", None),
            ("sharding", None),
        ],
    ),
    ("lax", "mul", [("x", REQUIRED), ("y", REQUIRED), ("out_dtype", None)]),
    (
        "lax",
        "pad",
        [("operand", REQUIRED), ("padding_value", REQUIRED), ("padding_config", REQUIRED)],
    ),
    (
        "lax",
        "ragged_dot",
        [
            ("lhs", REQUIRED),
            ("rhs", REQUIRED),
            ("group_sizes", REQUIRED),
            ("precision", None),
            ("preferred_element_type", None),
            ("group_offset", None),
            ("out_sharding", None),
        ],
    ),
    ("lax", "reduce_max", [("operand", REQUIRED), ("axes", REQUIRED)]),
    ("lax", "reduce_min", [("operand", REQUIRED), ("axes", REQUIRED)]),
    ("lax", "reduce_prod", [("operand", REQUIRED), ("axes", REQUIRED)]),
    ("lax", "reduce_sum", [("operand", REQUIRED), ("axes", REQUIRED), ("out_sharding", None)]),
    (
        "lax",
        "reshape",
        [
            ("operand", REQUIRED),
            ("new_sizes", REQUIRED),
            ("dimensions", None),
            ("out_sharding", None),
        ],
    ),
    ("lax", "rev", [("operand", REQUIRED), ("dimensions", REQUIRED)]),
    (
        "lax",
        "slice",
        [
            ("operand", REQUIRED),
            ("start_indices", REQUIRED),
            ("limit_indices", REQUIRED),
            ("strides", None),
        ],
    ),
    (
        "lax",
        "slice_in_dim",
        [
            ("operand", REQUIRED),
            ("start_index", REQUIRED),
            ("limit_index", REQUIRED),
            ("stride", 1),
            ("axis", 0),
        ],
    ),
    ("lax", "switch", [("index", REQUIRED), ("branches", REQUIRED), ("operand", ANY)]),
    ("lax", "transpose", [("operand", REQUIRED), ("permutation", REQUIRED)]),
    (
        "random",
        "ball",
        [
            ("key", REQUIRED),
            ("d", REQUIRED),
            ("p", 2),
            ("shape", ()),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "bernoulli",
        [("key", REQUIRED), ("p", 0.5), ("shape", None), ("mode", "low"), ("out_sharding", None)],
    ),
    (
        "random",
        "beta",
        [
            ("key", REQUIRED),
            ("a", REQUIRED),
            ("b", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    ("random", "bits", [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)]),
    (
        "random",
        "categorical",
        [
            ("key", REQUIRED),
            ("logits", REQUIRED),
            ("axis", -1),
            ("shape", None),
            ("replace", True),
            ("mode", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "cauchy",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "chisquare",
        [
            ("key", REQUIRED),
            ("df", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "choice",
        [
            ("key", REQUIRED),
            ("a", REQUIRED),
            ("shape", ()),
            ("replace", True),
            ("p", None),
            ("axis", 0),
            ("mode", None),
        ],
    ),
    (
        "random",
        "dirichlet",
        [
            ("key", REQUIRED),
            ("alpha", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "exponential",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "f",
        [
            ("key", REQUIRED),
            ("dfnum", REQUIRED),
            ("dfden", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "gamma",
        [
            ("key", REQUIRED),
            ("a", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "generalized_normal",
        [
            ("key", REQUIRED),
            ("p", REQUIRED),
            ("shape", ()),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "geometric",
        [
            ("key", REQUIRED),
            ("p", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "gumbel",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("mode", None), ("out_sharding", None)],
    ),
    ("random", "key", [("seed", REQUIRED), ("impl", None), ("dtype", None)]),
    (
        "random",
        "laplace",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "loggamma",
        [
            ("key", REQUIRED),
            ("a", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "logistic",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "lognormal",
        [
            ("key", REQUIRED),
            ("sigma", ANY),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "maxwell",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "multivariate_normal",
        [
            ("key", REQUIRED),
            ("mean", REQUIRED),
            ("cov", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("method", "cholesky"),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "normal",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "orthogonal",
        [
            ("key", REQUIRED),
            ("n", REQUIRED),
            ("shape", ()),
            ("dtype", None),
            ("m", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "pareto",
        [
            ("key", REQUIRED),
            ("b", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "permutation",
        [
            ("key", REQUIRED),
            ("x", REQUIRED),
            ("axis", 0),
            ("independent", False),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "poisson",
        [
            ("key", REQUIRED),
            ("lam", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "rademacher",
        [("key", REQUIRED), ("shape", ()), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "random",
        "randint",
        [
            ("key", REQUIRED),
            ("shape", REQUIRED),
            ("minval", REQUIRED),
            ("maxval", REQUIRED),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "rayleigh",
        [
            ("key", REQUIRED),
            ("scale", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "t",
        [
            ("key", REQUIRED),
            ("df", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "triangular",
        [
            ("key", REQUIRED),
            ("left", REQUIRED),
            ("mode", REQUIRED),
            ("right", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "truncated_normal",
        [
            ("key", REQUIRED),
            ("lower", REQUIRED),
            ("upper", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "uniform",
        [
            ("key", REQUIRED),
            ("shape", ()),
            ("dtype", None),
            ("minval", 0.0),
            ("maxval", 1.0),
            ("out_sharding", None),
        ],
    ),
    (
        "random",
        "wald",
        [
            ("key", REQUIRED),
            ("mean", REQUIRED),
            ("shape", None),
            ("dtype", None),
            ("out_sharding", None),
        ],
    ),
    (
        "nn.initializers",
        "zeros",
        [("key", REQUIRED), ("shape", REQUIRED), ("dtype", None), ("out_sharding", None)],
    ),
    (
        "nn.initializers",
        "ones",
        [("key", REQUIRED), ("shape", REQUIRED), ("dtype", None), ("out_sharding", None)],
    ),
]


@pytest.mark.parametrize(
    "module, name, params", SIGNATURES, ids=[f"{m}.{n}" for m, n, _ in SIGNATURES]
)
def test_takes_jaxs_keyword_arguments(module, name, params):
    fn = getattr(importlib.import_module(f"core.{module}" if module else "core"), name)
    ours = inspect.signature(fn).parameters
    for param, default in params:
        assert param in ours, f"{module}.{name} lacks the keyword argument {param!r}"
        assert ours[param].kind not in (inspect.Parameter.POSITIONAL_ONLY,), param
        if default is REQUIRED or default is ANY:
            continue
        got = ours[param].default
        assert got is not inspect.Parameter.empty, f"{name}({param}) needs JAX's default"
        assert type(got) is type(default) and got == default, (param, got, default)
