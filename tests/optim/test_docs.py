"""Every public optimizer, transformation, schedule and loss of `optim` documents its arguments
and its result, so ``help(optim.adam)`` is useful (Optax's docstrings say the args too)."""

import inspect
import re

import pytest

import optim


def _functions():
    for name in sorted(optim.__all__):
        obj = getattr(optim, name)
        if inspect.isfunction(obj):
            yield name, obj


@pytest.mark.parametrize(
    "name, fn", list(_functions()), ids=lambda x: x if isinstance(x, str) else ""
)
def test_args_and_returns_are_documented(name, fn):
    doc = inspect.getdoc(fn) or ""
    params = [p for p in inspect.signature(fn).parameters if p not in ("self", "cls")]
    if params:
        assert "Args:" in doc, f"{name}: no Args section"
        args = doc.split("Args:", 1)[1]
        for p in params:
            assert re.search(rf"^\s+\**{p}:", args, re.M), f"{name}: argument {p} undocumented"
    assert "Returns:" in doc or "Yields:" in doc, f"{name}: no Returns section"
