"""The examples ship in the distribution: a wheel built from this checkout, installed (not
editable) into a fresh virtual environment, runs ``python -m examples.mnist.train`` from an
unrelated directory. The build (setuptools from the package index) and the run take about a
minute, hence ``slow``; the quick test checks the packaging settings that make it work."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

REPO = Path(__file__).resolve().parents[2]


def test_packaging_settings():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "examples*" in project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert "License :: OSI Approved :: Apache Software License" in project["project"]["classifiers"]
    assert project["project"]["license"] == {"text": "Apache-2.0"}
    assert (REPO / "LICENSE").read_text().split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert (REPO / "examples" / "lstm_lm" / "coriolanus.txt").is_file()  # package data


@pytest.mark.slow
def test_wheel_installs_and_runs_the_example(tmp_path):
    # pip builds in an isolated environment with setuptools from the package index, as users do
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", REPO],
        check=True,
    )
    (wheel,) = (tmp_path / "dist").glob("numbax-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "examples/mnist/train.py" in names and "examples/lstm_lm/coriolanus.txt" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith("/LICENSE") for n in names)
    assert not any(n.startswith("tests/") for n in names)

    venv = tmp_path / "venv"
    # the dependencies (numpy, numba, ...) come from this interpreter's site-packages
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True
    )
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    args = ["--epochs", "1", "--limit-train", "256", "--limit-test", "100", "--no-progress"]
    run = subprocess.run(
        [python, "-m", "examples.mnist.train", *args, "--logdir", "runs"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "final test accuracy" in run.stdout and "tensorboard --logdir runs" in run.stdout
    where = subprocess.run(
        [python, "-c", "import examples, datasets; print(examples.__file__, datasets.__file__)"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(venv) in where.split()[0] and str(venv) in where.split()[1]
    assert len(list((cwd / "runs").glob("*/checkpoints/checkpoint_8"))) == 1
