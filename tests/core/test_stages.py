"""core.stages (core/stages.py): `jax.stages`' names for jit's ahead-of-time stages."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import stages


def f(x, y):
    return {"out": x * y}, x.sum()


def test_jit_is_a_wrapped_and_a_plain_function_is_not():
    assert isinstance(core.jit(f), stages.Wrapped)
    assert not isinstance(f, stages.Wrapped)


def test_each_stage_is_jaxs_type():
    traced = core.jit(f).trace(jnp.ones(3), 2.0)
    lowered = traced.lower()
    compiled = lowered.compile()
    assert isinstance(traced, stages.Traced)
    assert isinstance(lowered, stages.Lowered)
    assert isinstance(compiled, stages.Compiled)
    np.testing.assert_array_equal(compiled(jnp.ones(3), 2.0)[0]["out"], [2.0, 2.0, 2.0])


@pytest.mark.parametrize("stage", ["trace", "lower", "compile"])
def test_args_info_out_info_and_trees(stage):
    jitted = core.jit(f, donate_argnums=0)
    obj = jitted.trace(jnp.ones(3), 2.0)
    if stage != "trace":
        obj = obj.lower()
    if stage == "compile":
        obj = obj.compile()
    (x_info, y_info), kwargs = obj.args_info
    assert kwargs == {}
    assert isinstance(x_info, stages.ArgInfo)
    assert (x_info.shape, x_info.dtype, x_info.donated) == ((3,), np.float32, True)
    assert (y_info.shape, y_info.donated) == ((), False)
    assert obj.in_tree.num_leaves == 2
    assert obj.out_tree == core.tree_util.tree_structure(({"out": 0}, 0))
    out, total = obj.out_info
    assert (out["out"].shape, total.shape) == ((3,), ())


def test_static_arguments_are_not_in_args_info():
    g = core.jit(lambda n, x: x * n, static_argnums=0)
    (x_info,), _ = g.lower(3, jnp.ones(2)).args_info
    assert x_info.shape == (2,)


def test_compiler_options_is_jaxs_alias():
    assert stages.CompilerOptions == dict[str, str | bool]
