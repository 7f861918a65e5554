"""Every package has one error root: `core.errors.NumbaxError` for core, and under it
`nn.errors.FlaxError` (also flaxport's: `flaxport.errors` is `nn.errors`, as `flax.errors`),
`optim.errors.OptimError`, `train.errors.TrainError` and `datasets.errors.DatasetError`. Every
exception class a package's modules define derives from its root (private mixins aside).
`datasets` still needs only numpy: the root lives in `numbax.errors`, which imports nothing."""

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import NumbaxError

ROOTS = {
    "core": "core.errors.NumbaxError",
    "nn": "nn.errors.FlaxError",
    "optim": "optim.errors.OptimError",
    "train": "train.errors.TrainError",
    "datasets": "datasets.errors.DatasetError",
    "flaxport": "nn.errors.FlaxError",
}
# Modules that need an optional dependency or start worker processes when imported.
_SKIP = ("core.distributed", "core.parallel.communicator", "train.orbax")


def _root(path: str) -> type:
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def _exception_classes(package: str):
    pkg = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".")]
    for name in names:
        if name.startswith(_SKIP) or ".__main__" in name:
            continue
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, Exception)
                and not issubclass(obj, Warning)
                and obj.__module__ == module.__name__
                and not attr.startswith("_")
            ):
                yield obj


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_error_derives_from_the_package_root(package):
    root = _root(ROOTS[package])
    stray = sorted(
        f"{c.__module__}.{c.__qualname__}"
        for c in _exception_classes(package)
        if not issubclass(c, root)
    )
    assert not stray, f"errors outside {ROOTS[package]}: {stray}"


@pytest.mark.parametrize("package", ["nn", "optim", "train", "datasets", "flaxport"])
def test_package_roots_are_numbax_errors(package):
    assert issubclass(_root(ROOTS[package]), NumbaxError)


def test_builtin_bases_kept():
    from nn.errors import ImmutableCollectionError, UnboundOperationError
    from optim.errors import TreeKeyError
    from train.errors import CheckpointExistsError, CheckpointNotFoundError

    assert issubclass(UnboundOperationError, ValueError)  # Flax: ValueError
    assert not issubclass(ImmutableCollectionError, ValueError)  # Flax's FlaxError alone
    assert issubclass(TreeKeyError, KeyError)
    assert issubclass(CheckpointExistsError, FileExistsError)
    assert issubclass(CheckpointNotFoundError, (FileNotFoundError, ValueError))


def test_import_datasets_loads_no_core():
    code = (
        "import sys, datasets, datasets.mnist, datasets.errors\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('core', 'numba', 'scipy')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert out.stdout.strip() == "[]"


# Classes exempt from the docstring rule below: package roots and bases (caught, never raised
# alone), `jax.errors` names numbax never raises, internal errors no user code triggers, and
# `flax.errors`' names (`nn.flax_errors`: numbax raises documented subclasses of them).
_DOC_EXEMPT = {
    "core.errors.JAXTypeError",
    "core.errors.JAXIndexError",
    "core.errors.JaxRuntimeError",
    "core.errors.KeyReuseError",
    "core.errors.InconclusiveDimensionOperation",
    "core.errors.JaxprTypeError",
    "core.jit.errors.CacheIntegrityError",
    "core.debug_nans.InvalidJitOutput",
    "optim.errors.OptimError",
    "train.errors.TrainError",
    "datasets.errors.DatasetError",
    "examples.mnist.errors.ExampleError",
}


def _documented(classes) -> list[str]:
    names = {f"{c.__module__}.{c.__qualname__}" for c in classes}
    lacking = {
        f"{c.__module__}.{c.__qualname__}"
        for c in classes
        if not ("Failing code" in (c.__doc__ or "") and "Fix" in (c.__doc__ or ""))
    }
    return sorted(n for n in lacking & names if n not in _DOC_EXEMPT)


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_error_docstrings_show_failing_code_and_fix(package):
    """Every error class says, as flax.errors does, what triggers it, with a short failing
    example and the fix."""
    classes = [c for c in _exception_classes(package) if c.__module__ != "nn.flax_errors"]
    lacking = _documented(classes)
    assert not lacking, f"docstrings without failing code and fix: {lacking}"


def test_the_mnist_example_errors_are_numbax_errors():
    from examples.mnist import errors

    stray = [
        name
        for name, obj in vars(errors).items()
        if inspect.isclass(obj)
        and issubclass(obj, Exception)
        and obj.__module__ == errors.__name__
        and not issubclass(obj, errors.ExampleError)
    ]
    assert issubclass(errors.ExampleError, NumbaxError) and not stray
    classes = [getattr(errors, n) for n in dir(errors) if isinstance(getattr(errors, n), type)]
    classes = [c for c in classes if issubclass(c, Exception) and c.__module__ == errors.__name__]
    assert not _documented(classes)
