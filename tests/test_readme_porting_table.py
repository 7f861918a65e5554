"""The README's porting table names only things that exist: every numbax name in its right-hand
column (`core.sharding`, `from train import TrainState`, `nn.partitioning`...) is imported and
looked up, so the table cannot drift from the code."""

import importlib
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
PACKAGES = ("core", "nn", "optim", "train", "datasets", "flaxport", "examples")


def _table_rows() -> list[str]:
    text = README.read_text()
    start = text.index("| JAX / Flax / Optax | numbax |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line.rsplit("|", 2)[1])
    return rows


def _names(cell: str) -> list[str]:
    """Dotted names (`core.x.y`) and `from a import b, c` / `import a` statements of a cell."""
    found = []
    for code in re.findall(r"`([^`]+)`", cell):
        code = code.split("(")[0].strip()
        m = re.match(r"from ([\w.]+) import (.+)$", code)
        if m:
            found += [f"{m.group(1)}.{n.strip().split(' as ')[0]}" for n in m.group(2).split(",")]
            continue
        m = re.match(r"import ([\w.]+)", code)
        found.append(m.group(1) if m else code)
    return [n for n in found if re.fullmatch(r"[\w.]+", n) and n.split(".")[0] in PACKAGES]


def _resolve(name: str) -> object:
    """Attribute lookup from the top package, importing a submodule where an attribute is
    missing (so `core.config` is the config object `core` exports, as users see it)."""
    parts = name.split(".")
    obj = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], start=2):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join(parts[:i]))
    return obj


NAMES = sorted({n for row in _table_rows() for n in _names(row)})


def test_the_table_is_long():
    assert len(_table_rows()) > 40 and len(NAMES) > 60


@pytest.mark.parametrize("name", NAMES)
def test_name_exists(name):
    assert _resolve(name) is not None
