"""tools.import_graph: the AST scan resolves imports and tells function-level ones apart, and
Tarjan's algorithm finds the cycles (checked on a small package written to a temporary dir)."""

from pathlib import Path

from tools.import_graph import cycles, scan, strongly_connected


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_scan_resolves_and_marks_function_level(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from . import a\n",
            "pkg/a.py": "import pkg.b\n\ndef f():\n    from pkg.sub import c\n",
            "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "from .. import a\nfrom ..b import name\n",
        },
    )
    modules, imports, lines = scan(tmp_path / "pkg")
    assert modules == {"pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"}
    got = {(i.source, i.target, i.function_level) for i in imports}
    assert got == {
        ("pkg", "pkg.a", False),
        ("pkg.a", "pkg.b", False),
        ("pkg.a", "pkg.sub.c", True),
        ("pkg.sub.c", "pkg.a", False),
        ("pkg.sub.c", "pkg.b", False),
    }
    assert lines == 10
    # a -> sub.c (in a function) -> a is a cycle; the TYPE_CHECKING import of b makes none.
    assert cycles(modules, imports) == [["pkg.a", "pkg.sub.c"]]


def test_strongly_connected_components():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": set()}
    assert strongly_connected(set("abcdef"), edges) == [["a", "b", "c"], ["d", "e"], ["f"]]
