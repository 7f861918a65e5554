"""Every public layer of `nn` documents the arguments and result of its ``__call__`` (as
Flax's layers do), so ``help(nn.Dense)`` shows how to call it."""

import inspect
import re

import pytest

import nn

LAYERS = sorted(
    name
    for name in nn.__all__
    if inspect.isclass(getattr(nn, name))
    and issubclass(getattr(nn, name), nn.Module)
    and name not in ("Module", "RNNCellBase")  # bases without a __call__ of their own
)


@pytest.mark.parametrize("name", LAYERS)
def test_call_documents_args_and_returns(name):
    call = getattr(nn, name).__call__
    doc = inspect.getdoc(call) or ""
    assert "Args:" in doc and "Returns:" in doc, f"{name}.__call__: {doc[:80]!r}"
    args = doc.split("Args:", 1)[1].split("Returns:", 1)[0]
    for p in list(inspect.signature(call).parameters)[1:]:
        assert re.search(rf"^\s+\**{p}:", args, re.M), f"{name}.__call__: argument {p} undocumented"
    assert "Attributes:" in (inspect.getdoc(getattr(nn, name)) or "") or name in (
        "ConvLocal",  # "same attributes as Conv"
        "OptimizedLSTMCell",  # those of LSTMCell
        "SelfAttention",  # those of MultiHeadDotProductAttention
        "MultiHeadAttention",  # those of MultiHeadDotProductAttention
    )
