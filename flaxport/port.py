"""The mechanical port: rewrite a JAX/Flax/Optax program's imports to numbax's.

    python -m flaxport.port program.py            # prints the ported program
    python -m flaxport.port --write a.py b.py     # rewrites the files in place

Only import statements change, and every name the program's body uses stays bound:
``import jax`` becomes ``import core as jax``, ``import jax.numpy as jnp`` becomes
``import core.numpy as jnp``, ``from flax import linen as nn`` becomes
``from flaxport import linen as nn``, ``import optax`` becomes ``import optim as optax``, and
``import jax.random`` becomes ``import core.random; import core as jax``. Modules numbax does
not provide (``flax.nnx``, ...) are reported on stderr and left as they are.
Import statements are rewritten line by line: the names of a parenthesized ``from ... import (``
spanning several lines are not checked or renamed after its first line.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections.abc import Sequence

# Old module path -> numbax's, longest prefix first; a path maps by its longest listed prefix.
MODULES = {
    # Optax's private modules that programs import (`from optax._src import base`)
    "optax._src.alias": "optim.aliases",
    "optax._src": "optim",
    # JAX's private modules that programs import (`from jax._src import test_util as jtu`)
    "jax._src": "core",
    "jax": "core",
    "flax": "flaxport",
    "optax": "optim",
}

_IMPORT = re.compile(r"^(\s*)import\s+(.+?)\s*(#.*)?$")
_FROM = re.compile(r"^(\s*)from\s+([\w.]+)\s+import\s+(.*)$")


def port_module(path: str) -> str | None:
    """numbax's module path for ``path`` (``jax.numpy`` -> ``core.numpy``); None if it is not a
    JAX/Flax/Optax module."""
    for old in sorted(MODULES, key=len, reverse=True):
        if path == old or path.startswith(old + "."):
            return MODULES[old] + path[len(old) :]
    return None


def _port_import_item(item: str) -> list[str]:
    """The statements replacing one ``import a.b [as c]`` item."""
    name, _, alias = (part.strip() for part in item.partition(" as "))
    new = port_module(name)
    if new is None:
        return [f"import {item.strip()}"]
    if alias:
        return [f"import {new} as {alias}"]
    top, new_top = name.split(".")[0], new.split(".")[0]
    if "." not in name:
        return [f"import {new} as {name}"]
    # `import jax.random` binds `jax` and loads `jax.random`: do both under the old name.
    return [f"import {new}", f"import {new_top} as {top}"]


def port_source(source: str) -> tuple[str, list[str]]:
    """Rewrites the import statements of ``source``.

    Args:
      source: a Python program.

    Returns:
      ``(ported source, modules numbax does not provide)``.
    """
    lines, missing = [], []
    for line in source.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        end = line[len(body) :]
        m = _FROM.match(body)
        if m and port_module(m.group(2)):
            indent, module, rest = m.groups()
            new = port_module(module)
            rest, absent = _port_names(module, new, rest)
            missing += absent
            lines.append(f"{indent}from {new} import {rest}{end}")
            continue
        m = _IMPORT.match(body)
        if m and any(port_module(i.split(" as ")[0].strip()) for i in m.group(2).split(",")):
            indent, items, comment = m.groups()
            out = []
            for item in items.split(","):
                out += _port_import_item(item)
                new = port_module(item.split(" as ")[0].strip())
                missing += [item.strip()] if new and not _exists(new) else []
            tail = f"  {comment}" if comment else ""
            lines.append(indent + "; ".join(out) + tail + end)
            continue
        lines.append(line)
    return "".join(lines), missing


def _port_names(module: str, new: str, rest: str) -> tuple[str, list[str]]:
    """The imported names of ``from module import rest`` for numbax's ``new`` module (renamed
    where the submodule is, ``_src.alias`` -> ``aliases``), and the missing ones."""
    if not _exists(new):
        return rest, [module]
    target = importlib.import_module(new)
    code, comment = (rest.split("#", 1) + [""])[:2]
    items, absent = [], []
    for item in code.split(","):
        name, _, alias = (part.strip() for part in item.strip("() \t").partition(" as "))
        if not name:
            items.append(item)
            continue
        renamed = port_module(f"{module}.{name}").rpartition(".")[2]
        if renamed != name:
            item = item.replace(name, f"{renamed} as {alias or name}" if not alias else renamed, 1)
        if not hasattr(target, renamed) and not _exists(f"{new}.{renamed}"):
            absent.append(f"{module}.{name}")
        items.append(item)
    return ",".join(items) + (f"#{comment}" if comment else ""), absent


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
    except ValueError:  # a module made at import time (`flaxport.metrics`) has no spec
        return module in sys.modules


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: prints (or with ``--write`` saves) the ported files."""
    parser = argparse.ArgumentParser(
        prog="python -m flaxport.port",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", help="Python files to port")
    parser.add_argument("--write", action="store_true", help="rewrite the files in place")
    args = parser.parse_args(argv)
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            ported, missing = port_source(f.read())
        for module in missing:
            print(f"{path}: numbax has no module for {module!r}", file=sys.stderr)
        if args.write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(ported)
        else:
            sys.stdout.write(ported)
    return 0


if __name__ == "__main__":
    sys.exit(main())
