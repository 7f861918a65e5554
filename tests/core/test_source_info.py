"""Source lines and name stacks on staged equations (what JAX's `eqn.source_info` carries)."""

import inspect
from pathlib import Path

import core
import core.numpy as jnp
import nn
from core import source_info


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(4)(x))  # the relu line
        return nn.Dense(2)(x)


RELU_LINE = next(
    i + 1 for i, text in enumerate(Path(__file__).read_text().splitlines()) if "# the relu" in text
)


def _eqns(fun, *args):
    return core.make_jaxpr(fun)(*args).jaxpr.eqns


def test_user_line_and_function():
    def f(x):
        y = jnp.sin(x)
        return y * 2.0

    first_line = inspect.getsourcelines(f)[1]
    eqns = _eqns(f, 1.0)
    info = eqns[0].source_info
    assert info.file == __file__
    assert info.line == first_line + 1
    assert info.function.endswith("f")
    assert info.name_stack == ""
    assert eqns[-1].source_info.line == first_line + 2


def test_named_scopes_nest_and_pass_through_jit():
    @core.jit
    def g(x):
        with core.named_scope("outer"), core.named_scope("inner"):
            return jnp.cos(x)

    def f(x):
        with core.named_scope("top"):
            return g(x) + 1.0

    eqns = _eqns(f, 1.0)
    inner = eqns[0].params["jaxpr"].eqns[0]
    assert inner.prim.name == "cos"
    assert inner.source_info.name_stack == "top/outer/inner"
    assert eqns[1].source_info.name_stack == "top"
    assert source_info.name_stack() == ""


def test_named_call_scopes_with_function_name():
    def block(x):
        return jnp.exp(x)

    eqns = _eqns(core.named_call(block), 1.0)
    assert eqns[0].source_info.name_stack == "block"
    eqns = _eqns(core.named_call(block, name="custom"), 1.0)
    assert eqns[0].source_info.name_stack == "custom"


def test_flax_module_paths_like_jax():
    model = MLP()
    params = model.init(core.random.key(0), jnp.ones((1, 3)))
    eqns = _eqns(lambda p, x: model.apply(p, x), params, jnp.ones((1, 3)))
    dots = [e for e in eqns if e.prim.name == "dot_general"]
    assert [e.source_info.name_stack for e in dots] == ["MLP/Dense_0", "MLP/Dense_1"]
    assert dots[0].source_info.function == "Dense.__call__"
    assert dots[0].source_info.file.endswith("nn/linear.py")
    relu = [e for e in eqns if e.source_info.name_stack == "MLP"]
    assert relu and all(e.source_info.line == RELU_LINE for e in relu)


def test_backward_pass_is_labelled_transpose():
    model = MLP()
    params = model.init(core.random.key(0), jnp.ones((1, 3)))

    def loss(p, x):
        return model.apply(p, x).sum()

    eqns = _eqns(core.grad(loss), params, jnp.ones((1, 3)))
    stacks = {e.source_info.name_stack for e in eqns if e.prim.name == "dot_general"}
    # JAX: transpose(jvp(MLP))/Dense_0 (numbax has no jvp marker in the stack)
    assert "transpose(MLP)/Dense_0" in stacks and "transpose(MLP)/Dense_1" in stacks


def test_module_names_can_be_turned_off():
    model = MLP()
    params = model.init(core.random.key(0), jnp.ones((1, 3)))
    with nn.override_named_call(False):
        eqns = _eqns(lambda p, x: model.apply(p, x), params, jnp.ones((1, 3)))
    assert all(e.source_info.name_stack == "" for e in eqns)
    nn.disable_named_call()
    try:
        eqns = _eqns(lambda p, x: model.apply(p, x), params, jnp.ones((1, 3)))
        assert all(e.source_info.name_stack == "" for e in eqns)
    finally:
        nn.enable_named_call()


def test_method_names_suffix_the_module_name():
    class Encoder(nn.Module):
        @nn.compact
        def encode(self, x):
            return nn.Dense(2, name="proj")(x)

    model = Encoder()
    params = model.init(core.random.key(0), jnp.ones((1, 3)), method="encode")
    eqns = _eqns(lambda p, x: model.apply(p, x, method="encode"), params, jnp.ones((1, 3)))
    assert eqns[0].source_info.name_stack == "Encoder.encode/proj"


def test_name_stacks_are_per_thread():
    import threading

    seen = []

    # a function of each: make_jaxpr shares jit's trace cache (a trace keeps its scopes)
    def other():
        seen.append(_eqns(lambda x: jnp.sin(x), 1.0)[0].source_info.name_stack)

    with core.named_scope("main_thread"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert _eqns(lambda x: jnp.sin(x), 1.0)[0].source_info.name_stack == "main_thread"
    assert seen == [""]


def test_summary_has_the_column_as_jaxs_summarize():
    def f(x):
        y = x * 2.0
        return jnp.sin(y)  # column 15: `jnp.sin(y)` starts there

    info = _eqns(f, 1.0)[1].source_info
    assert info.column == 15
    assert info.summary() == f"{__file__}:{info.line}:15 ({info.function})"
    assert info.location() == f"{__file__}:{info.line} ({info.function})"
    assert info._replace(column=0).summary() == info.location()  # JAX drops a 0 column
