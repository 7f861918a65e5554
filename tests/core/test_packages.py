"""core.packages: a module taking a numbax top-level name is reported with the fix."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import train
from core.errors import PackageShadowedError
from core.packages import check_numbax_packages, numbax_package, shadowed_packages

REPO = Path(__file__).resolve().parents[2]


def _python(code, cwd, extra_path=()):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *map(str, extra_path)])}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_nothing_is_shadowed_here():
    assert shadowed_packages() == {}
    check_numbax_packages(strict=True)


def test_a_users_train_py_is_named(tmp_path):
    (tmp_path / "train.py").write_text("print('my training script')\n")
    run = _python("import core", tmp_path)
    assert run.returncode == 0
    assert "PackageShadowingWarning: `import train` gives" in run.stderr
    assert str(tmp_path / "train.py") in run.stderr and "rename that file" in run.stderr
    strict = _python("import examples", tmp_path)
    assert strict.returncode == 1 and "PackageShadowedError" in strict.stderr


def test_another_datasets_package_is_named(tmp_path):
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "__init__.py").write_text("")
    run = _python("from core.packages import shadowed_packages as s; print(s())", tmp_path)
    assert "HuggingFace" in run.stdout and "separate virtual environments" in run.stdout


def test_huggingface_datasets_installed_alongside_warns(tmp_path):
    info = tmp_path / "site" / "datasets-2.19.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: datasets\nVersion: 2.19.0\n")
    run = _python("import datasets", REPO, [tmp_path / "site"])
    assert "PackageNameCollisionWarning: HuggingFace's `datasets` 2.19.0 is installed" in run.stderr


def test_strict_mode_raises(monkeypatch):
    monkeypatch.setattr(
        "core.packages.shadowed_packages", lambda: {"train": "`import train` gives x"}
    )
    with pytest.raises(PackageShadowedError, match="import train"):
        check_numbax_packages(strict=True)
    with pytest.warns(UserWarning, match="import train"):
        check_numbax_packages()


# A Flax example's layout: main.py imports its own train.py, which imports flax.training.
_FLAX_TRAIN_PY = """
import core as jax
import core.numpy as jnp
import optim as optax
from flaxport import linen as nn
from flaxport.training import train_state


def train_and_evaluate():
    model = nn.Dense(3)
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
    return type(state).__module__, int(state.step)
"""


def test_a_flax_examples_own_train_py_runs_ported(tmp_path):
    (tmp_path / "train.py").write_text(_FLAX_TRAIN_PY)
    (tmp_path / "main.py").write_text("import train\nprint(*train.train_and_evaluate())\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "main.py"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    # numbax's train package, loaded under another name; `import train` is the example's file
    assert run.stdout.split() == ["numbax.train.train_state", "0"]
    port = subprocess.run(
        [sys.executable, "-m", "flaxport.port", "main.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert port.returncode == 0 and "import train" in port.stdout, port.stderr


def test_numbax_package_is_the_imported_one_when_not_shadowed():
    assert numbax_package("train") is train
