"""Detects other modules that take numbax's top-level names (``train``, ``datasets``, ...).

numbax installs the top-level packages ``core``, ``nn``, ``optim``, ``train``, ``datasets``
and ``numbax`` (checked here), ``flaxport`` and ``examples``. Two collisions are common:
HuggingFace's ``datasets`` package (same name, so in one environment one of the two replaces the
other), and a user's own ``train.py`` (or ``datasets.py``) next to their script, which Python
imports instead of numbax's package. Both give confusing errors far from the cause, so ``import
core`` checks where each name resolves (with `importlib.util.find_spec`, which imports nothing)
and warns with the fix; the examples call the check in strict mode and stop. See the README
section "Package names".

Every Flax example has a ``train.py`` beside its ``main.py`` (which does ``import train``), and
that file imports ``flax.training``, numbax's ``train``. So numbax's own imports of a package go
through `numbax_package`: when another module holds the name, it loads numbax's package from
numbax's installation as ``numbax.<name>`` (its modules import one another relatively), and the
user's ``import train`` keeps giving the user's file.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType

from core.errors import PackageShadowedError, PackageShadowingWarning

__all__ = ["PACKAGES", "check_numbax_packages", "numbax_package", "shadowed_packages"]

# A file only numbax's version of each package has (another numbax checkout is fine).
PACKAGES = {
    "core": "api.py",
    "nn": "module.py",
    "optim": "aliases.py",
    "train": "train_state.py",
    "datasets": "mnist.py",
    "numbax": "errors.py",
}

_FIXES = {
    "datasets": (
        "If it is HuggingFace's `datasets`, use separate virtual environments for numbax and "
        "HuggingFace (both install a top-level `datasets` package, so one replaces the "
        "other); if it is a file or folder of yours, rename it."
    ),
}
_DEFAULT_FIX = (
    "numbax's own modules (and `flaxport`, e.g. `flax.training` in a ported Flax example with "
    "its own train.py) still use numbax's package, so only your imports of that name get the "
    "other module: if you meant numbax's, rename that file or folder (e.g. train.py -> "
    "train_mnist.py; a script is importable under its file name) or run from another directory."
)
_ROOT = Path(__file__).resolve().parents[1]  # the directory holding numbax's packages


def _is_numbax(origin: str | None, name: str) -> bool:
    path = Path(origin or "")
    return path.name == "__init__.py" and (path.parent / PACKAGES[name]).is_file()


def numbax_package(name: str) -> ModuleType:
    """numbax's top-level package `name` (a key of `PACKAGES`), even when another module takes
    that name (a user's ``train.py`` next to their script): then it is loaded from numbax's
    installation under the name ``numbax.<name>``.

    Args:
      name: the package, e.g. ``"train"``.

    Returns:
      The package's module.
    """
    if _is_numbax(_origin(name), name):
        return importlib.import_module(name)
    alias = f"numbax.{name}"
    if alias not in sys.modules:
        init = _ROOT / name / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            alias, init, submodule_search_locations=[str(init.parent)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[alias] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[alias]
            raise
    return sys.modules[alias]


def _origin(name: str) -> str | None:
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__file__", None)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return None if spec is None else spec.origin


def shadowed_packages() -> dict[str, str]:
    """The numbax names that resolve to something else, with a message for each.

    Returns:
        ``{name: message}``; empty when every name is numbax's (or not importable at all).
    """
    problems = {}
    for name in PACKAGES:
        origin = _origin(name)
        if origin in (None, "built-in", "frozen"):
            continue
        if _is_numbax(origin, name):
            continue
        fix = _FIXES.get(name, _DEFAULT_FIX)
        problems[name] = f"`import {name}` gives {origin}, not numbax's `{name}` package. {fix}"
    return problems


def check_numbax_packages(strict: bool = False) -> None:
    """Warns (or raises) when a numbax top-level name is taken by another module.

    Args:
        strict: raise `PackageShadowedError` instead of warning `PackageShadowingWarning`.

    Raises:
        PackageShadowedError: with ``strict``, when a name is shadowed.
    """
    problems = shadowed_packages()
    if not problems:
        return
    message = " ".join(problems.values())
    if strict:
        raise PackageShadowedError(message)
    warnings.warn(PackageShadowingWarning(message), stacklevel=3)
