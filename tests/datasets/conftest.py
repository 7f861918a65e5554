"""Fixtures for the datasets tests: no network, no user environment, tiny IDX datasets."""

import gzip
import hashlib
import urllib.error
from pathlib import Path

import numpy as np
import pytest

from datasets import download
from datasets.download import DatasetSpec, FileSpec
from datasets.idx import write_idx


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """No NUMBAX_DATA_DIR, a private user cache, and every URL unreachable unless a test says so."""
    monkeypatch.delenv(download.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))

    def offline(url):
        raise urllib.error.URLError(f"network disabled in tests ({url})")

    monkeypatch.setattr(download, "_open_url", offline)


class Tiny:
    """A 5-train / 3-test dataset of 2x3 uint8 images written as real IDX files."""

    def __init__(self, root: Path):
        rng = np.random.default_rng(0)
        self.arrays = {
            "train_images": rng.integers(0, 256, (5, 2, 3), dtype=np.uint8),
            "train_labels": np.array([0, 1, 2, 1, 0], np.uint8),
            "test_images": rng.integers(0, 256, (3, 2, 3), dtype=np.uint8),
            "test_labels": np.array([2, 2, 1], np.uint8),
        }
        self.source = root / "source"
        self.source.mkdir()
        files = {}
        for role, array in self.arrays.items():
            name = f"{role.replace('_', '-')}-idx.gz"
            write_idx(self.source / name, array)
            data = (self.source / name).read_bytes()
            files[role] = FileSpec(
                name,
                hashlib.sha256(data).hexdigest(),
                hashlib.sha256(gzip.decompress(data)).hexdigest(),
            )
        self.spec = DatasetSpec(
            name="tiny",
            files=files,
            mirrors=("https://mirror-a.invalid/tiny/", "https://mirror-b.invalid/tiny/"),
            aliases=("tiny-alias",),
        )

    def content(self, filename: str) -> bytes:
        return (self.source / filename).read_bytes()

    def install(self, directory: Path, *, raw: bool = False, roles=None) -> Path:
        """Copies the files (all, or ``roles``) into ``directory``, gunzipped if ``raw``."""
        directory.mkdir(parents=True, exist_ok=True)
        for role, f in self.spec.files.items():
            if roles is not None and role not in roles:
                continue
            data = self.content(f.filename)
            if raw:
                (directory / f.raw_filename).write_bytes(gzip.decompress(data))
            else:
                (directory / f.filename).write_bytes(data)
        return directory


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A `Tiny` dataset whose "shipped" directory is a temporary one."""
    monkeypatch.setattr(download, "SHIPPED_DIR", tmp_path / "shipped")
    return Tiny(tmp_path)
