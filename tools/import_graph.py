"""Measure the import structure of a package: function-level imports and import cycles.

An AST scan (no module is imported) finds every ``import`` statement of every module under
the package and resolves it to the package's modules (``from core.lax import checked`` is an
edge to ``core.lax.checked``; ``from core.lax import add`` is an edge to ``core.lax``).
Imports inside a function body are *function-level*; imports under ``if TYPE_CHECKING:`` are
ignored (they never run). The cycles are the strongly connected components of the graph of
all edges, module- and function-level alike (Tarjan's algorithm, iterative).

Usage::

    python -m tools.import_graph [PACKAGE_DIR] [--cycles] [--list]

prints the module count, lines, function-level imports (total and per 1,000 lines) and the
size of the biggest cycle; ``--cycles`` prints the members of each cycle, ``--list`` every
function-level import as ``module:line -> target``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import sys
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Import:
    """One resolved import statement: who imports what, where, and whether in a function."""

    source: str
    target: str
    line: int
    function_level: bool


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path``; ``root`` is the directory holding the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk_imports(tree: ast.AST):
    """Yield ``(import_node, in_function)`` for every import that can run."""
    stack = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            children = node.orelse
        else:
            children = list(ast.iter_child_nodes(node))
        nested = in_function or isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        )
        stack.extend((child, nested) for child in children)


def _resolve(name: str, modules: set[str]) -> str | None:
    """The longest prefix of the dotted ``name`` that is one of ``modules``."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def scan(package_dir: Path) -> tuple[set[str], list[Import], int]:
    """Scan a package directory.

    Args:
      package_dir: the directory of the top-level package (for example ``core``).

    Returns:
      ``(modules, imports, lines)``: the dotted module names, the imports between them and the
      total number of source lines.
    """
    root = package_dir.resolve().parent
    files = {module_name(p, root): p for p in sorted(package_dir.resolve().rglob("*.py"))}
    modules = set(files)
    imports: list[Import] = []
    lines = 0
    for source, path in files.items():
        text = path.read_text()
        lines += text.count("\n")
        is_package = path.name == "__init__.py"
        for node, in_function in _walk_imports(ast.parse(text)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = source.split(".")
                    drop = node.level - 1 if is_package else node.level
                    anchor = anchor[: len(anchor) - drop]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in dict.fromkeys(targets):
                resolved = _resolve(target, modules)
                if resolved is not None and resolved != source:
                    imports.append(Import(source, resolved, node.lineno, in_function))
    return modules, imports, lines


def strongly_connected(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), biggest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return sorted(components, key=len, reverse=True)


def cycles(modules: set[str], imports: list[Import]) -> list[list[str]]:
    """The import cycles (components of more than one module), biggest first."""
    edges: dict[str, set[str]] = {}
    for imp in imports:
        edges.setdefault(imp.source, set()).add(imp.target)
    return [c for c in strongly_connected(modules, edges) if len(c) > 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?", default="core")
    parser.add_argument("--cycles", action="store_true", help="print the members of each cycle")
    parser.add_argument("--list", action="store_true", help="print each function-level import")
    args = parser.parse_args(argv)
    modules, imports, lines = scan(Path(args.package))
    local = [imp for imp in imports if imp.function_level]
    statements = len({(imp.source, imp.line) for imp in local})
    found = cycles(modules, imports)
    print(f"modules: {len(modules)}  lines: {lines}")
    print(
        f"function-level imports: {statements} statements, {len(local)} edges "
        f"({1000 * statements / max(lines, 1):.1f} statements per 1,000 lines)"
    )
    print(f"cycles: {len(found)}  biggest: {len(found[0]) if found else 0} modules")
    if args.cycles:
        for component in found:
            print(f"- {len(component)}: {' '.join(component)}")
    if args.list:
        for imp in sorted(local, key=lambda i: (i.source, i.line)):
            print(f"{imp.source}:{imp.line} -> {imp.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
