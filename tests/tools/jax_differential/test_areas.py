"""tools.jax_differential's registry of areas, checked without JAX: it names every area module,
each imports, has a docstring and gives a non-empty list of distinct cases whose sources compile
(without a SyntaxWarning: `'a / 7' + '.T'` once made cases that failed alike on both sides), and
`--list` prints the areas with their counts."""

import ast
import sys
import warnings
from pathlib import Path

import pytest

import tools.jax_differential.areas as registry
from tools.jax_differential.__main__ import main


def test_registry_names_every_area_module():
    files = {p.stem for p in Path(registry.__file__).parent.glob("*.py")} - {"__init__"}
    assert sorted(registry.NAMES) == sorted(files)
    assert len(set(registry.NAMES)) == len(registry.NAMES)


@pytest.mark.parametrize("name", registry.NAMES)
def test_area_gives_cases(name):
    assert registry.module(name).__doc__
    cases = registry.cases(name)
    assert cases
    sources = [src for src, _ in cases]
    assert len(set(sources)) == len(sources), "a case given twice"
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        for src, exact in cases:
            assert isinstance(src, str) and src.strip() and isinstance(exact, bool)
            compile(src, name, "exec")


def test_prelude_compiles_and_defines_each_name_once():
    tree = ast.parse(registry.prelude())
    names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    names += [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets]
    assert len(names) == len(set(names))


def test_unknown_area_names_the_areas():
    with pytest.raises(KeyError, match="control_flow"):
        registry.cases("nope")


def test_list_prints_areas_and_counts(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["jax_differential", "--list"])
    main()
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert [r[0] for r in rows] == list(registry.NAMES)
    assert [int(r[1]) for r in rows] == [len(registry.cases(n)) for n in registry.NAMES]
