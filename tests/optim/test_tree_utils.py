"""`optim.tree_utils`, Optax's older name of `optax.tree`: exactly Optax 0.2.8's names (the
`tree_`-prefixed functions of `optim.tree`), importable as a module, and its deprecated names
warn as Optax's do."""

from __future__ import annotations

import importlib

import pytest

import optim
from optim import tree

# dir(optax.tree_utils) in Optax 0.2.8, without its imported modules (functools, typing)
OPTAX_NAMES = {"NamedTupleKey"} | {
    f"tree_{n}"
    for n in [
        "add",
        "add_scale",
        "allclose",
        "batch_shape",
        "bias_correction",
        "cast",
        "cast_like",
        "clip",
        "conj",
        "div",
        "dtype",
        "full_like",
        "get",
        "get_all_with_path",
        "map_params",
        "max",
        "min",
        "mul",
        "norm",
        "ones_like",
        "random_like",
        "real",
        "scale",
        "set",
        "size",
        "split_key_like",
        "sub",
        "sum",
        "unwrap_random_key_data",
        "update_infinity_moment",
        "update_moment",
        "update_moment_per_elem_norm",
        "vdot",
        "where",
        "zeros_like",
    ]
}


def test_names_are_optax():
    module = importlib.import_module("optim.tree_utils")
    assert module is optim.tree_utils
    assert set(module.__all__) == OPTAX_NAMES
    public = {n for n in dir(module) if not n.startswith("_")}
    assert public == OPTAX_NAMES
    for name in OPTAX_NAMES - {"NamedTupleKey"}:
        assert getattr(module, name) is getattr(tree, name[len("tree_") :])


def test_from_import():
    with pytest.warns(DeprecationWarning, match="tree_l2_norm"):
        from optim.tree_utils import tree_l2_norm, tree_norm  # noqa: F401, PLC0415


def test_deprecated_name_warns_with_its_replacement():
    with pytest.warns(DeprecationWarning, match=r"use optim.tree_utils.tree_scale\."):
        optim.tree_utils.tree_scalar_mul  # noqa: B018
    with pytest.raises(AttributeError, match="tree_nonexistent"):
        optim.tree_utils.tree_nonexistent  # noqa: B018
