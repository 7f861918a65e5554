import gzip
import io
import urllib.error

import numpy as np
import pytest

from datasets import download
from datasets.download import download_file, fetch, search_dirs
from datasets.errors import ChecksumMismatchError, DatasetNotFoundError, UnknownSplitError
from datasets.splits import Splits, load_splits


def parents(paths):
    return {p.parent for p in paths.values()}


def test_search_order_data_dir_env_shipped_cache(tiny, tmp_path, monkeypatch):
    explicit = tiny.install(tmp_path / "explicit")
    env = tiny.install(tmp_path / "env" / "tiny")
    shipped = tiny.install(tmp_path / "shipped" / "tiny")
    cache = tiny.install(tmp_path / "xdg-cache" / "numbax" / "datasets" / "tiny")
    monkeypatch.setenv(download.ENV_VAR, str(tmp_path / "env"))
    assert search_dirs(tiny.spec, explicit) == [
        explicit,
        explicit / "tiny",
        explicit / "tiny-alias",
        env,
        tmp_path / "env" / "tiny-alias",
        shipped,
        cache,
    ]
    for expected in (explicit, env, shipped, cache):
        assert parents(fetch(tiny.spec, explicit)) == {expected}
        for f in expected.iterdir():
            f.unlink()
    with pytest.raises(DatasetNotFoundError):
        fetch(tiny.spec, explicit)


@pytest.mark.parametrize("sub", ["tiny", "tiny-alias"])
def test_dataset_subfolders_of_data_dir_and_env(tiny, tmp_path, monkeypatch, sub):
    folder = tiny.install(tmp_path / "root" / sub)
    assert parents(fetch(tiny.spec, tmp_path / "root")) == {folder}
    monkeypatch.setenv(download.ENV_VAR, str(tmp_path / "root"))
    assert parents(fetch(tiny.spec)) == {folder}


def test_incomplete_directory_is_skipped(tiny, tmp_path):
    partial = tiny.install(tmp_path / "partial", roles={"train_images"})
    shipped = tiny.install(tmp_path / "shipped" / "tiny")
    assert parents(fetch(tiny.spec, partial)) == {shipped}


def test_uncompressed_copies_are_accepted(tiny, tmp_path):
    folder = tiny.install(tmp_path / "raw", raw=True)
    paths = fetch(tiny.spec, folder)
    assert {p.name for p in paths.values()} == {f.raw_filename for f in tiny.spec.files.values()}
    data = load_splits(tiny.spec, folder)
    np.testing.assert_array_equal(data.test_images, tiny.arrays["test_images"])


def test_load_splits_values_and_split_dicts(tiny, tmp_path):
    folder = tiny.install(tmp_path / "d")
    data = load_splits(tiny.spec, folder)
    assert isinstance(data, Splits)
    for role, array in tiny.arrays.items():
        np.testing.assert_array_equal(getattr(data, role), array)
    train = load_splits(tiny.spec, folder, split="train")
    assert set(train) == {"image", "label"}
    np.testing.assert_array_equal(train["image"], tiny.arrays["train_images"])
    np.testing.assert_array_equal(data.test["label"], tiny.arrays["test_labels"])
    with pytest.raises(UnknownSplitError, match="'validation'.*'train', 'test'"):
        load_splits(tiny.spec, folder, split="validation")


@pytest.mark.parametrize("raw", [False, True])
def test_wrong_checksum_names_file_expected_and_got(tiny, tmp_path, raw):
    folder = tiny.install(tmp_path / "d", raw=raw)
    f = tiny.spec.files["train_labels"]
    path = folder / (f.raw_filename if raw else f.filename)
    path.write_bytes(path.read_bytes()[:-1])  # truncated
    with pytest.raises(ChecksumMismatchError) as info:
        fetch(tiny.spec, folder)
    expected = f.raw_sha256 if raw else f.sha256
    message = str(info.value)
    assert str(path) in message and f"expected {expected}" in message
    assert info.value.got in message and info.value.got != expected


def test_offline_error_lists_directories_files_env_var_and_urls(tiny, tmp_path):
    with pytest.raises(DatasetNotFoundError) as info:
        fetch(tiny.spec, tmp_path / "mine")
    message = str(info.value)
    assert isinstance(info.value, FileNotFoundError)
    for d in search_dirs(tiny.spec, tmp_path / "mine"):
        assert f"  {d}\n" in message
    for f in tiny.spec.files.values():
        assert f"  {f.filename}" in message
    assert download.ENV_VAR in message and "data_dir=" in message
    assert f"into {tmp_path / 'mine' / 'tiny'} or any directory above" in message
    assert "https://mirror-a.invalid/tiny/train-images-idx.gz: URLError" in message
    assert "https://mirror-b.invalid/tiny/train-images-idx.gz: URLError" in message
    assert not (tmp_path / "mine").exists() or not any((tmp_path / "mine").rglob("*.gz"))


def test_download_false_never_touches_the_network(tiny, monkeypatch):
    def fail(url):
        raise AssertionError("network used")

    monkeypatch.setattr(download, "_open_url", fail)
    with pytest.raises(DatasetNotFoundError, match="download=False"):
        fetch(tiny.spec, download=False)


def serve(tiny, broken_mirror=None):
    """A fake `_open_url` serving the tiny files; ``broken_mirror`` URLs fail."""
    calls = []

    def open_url(url):
        calls.append(url)
        if broken_mirror and url.startswith(broken_mirror):
            raise urllib.error.URLError("connection refused")
        return io.BytesIO(tiny.content(url.rsplit("/", 1)[1]))

    return open_url, calls


@pytest.mark.parametrize("where", ["cache", "env", "data_dir"])
def test_download_goes_to_data_dir_else_env_else_cache(tiny, tmp_path, monkeypatch, where):
    open_url, calls = serve(tiny, broken_mirror="https://mirror-a.invalid/")
    monkeypatch.setattr(download, "_open_url", open_url)
    data_dir = None
    expected = tmp_path / "xdg-cache" / "numbax" / "datasets" / "tiny"
    if where == "env":
        monkeypatch.setenv(download.ENV_VAR, str(tmp_path / "env"))
        expected = tmp_path / "env" / "tiny"
    if where == "data_dir":
        data_dir = tmp_path / "mine"
        expected = data_dir / "tiny"
    paths = fetch(tiny.spec, data_dir)
    assert parents(paths) == {expected}
    assert sorted(p.name for p in expected.iterdir()) == sorted(
        f.filename for f in tiny.spec.files.values()
    )
    for role, f in tiny.spec.files.items():
        assert paths[role].read_bytes() == tiny.content(f.filename)
    assert len(calls) == 8  # each file: mirror a fails, mirror b serves
    # Found locally from now on.
    monkeypatch.setattr(download, "_open_url", serve(tiny, broken_mirror="https://")[0])
    assert fetch(tiny.spec, data_dir) == paths


class BrokenResponse:
    """Sends some bytes, then the connection drops."""

    def __init__(self):
        self.sent = False

    def read(self, n):
        if self.sent:
            raise ConnectionResetError("connection reset by peer")
        self.sent = True
        return b"\x1f\x8b" + bytes(100)

    def close(self):
        pass


@pytest.mark.parametrize("failure", ["dropped", "checksum"])
def test_failed_download_leaves_nothing_behind(tiny, tmp_path, monkeypatch, failure):
    if failure == "dropped":
        monkeypatch.setattr(download, "_open_url", lambda url: BrokenResponse())
    else:
        monkeypatch.setattr(download, "_open_url", lambda url: io.BytesIO(gzip.compress(b"x")))
    with pytest.raises(DatasetNotFoundError) as info:
        fetch(tiny.spec, tmp_path / "mine")
    reason = "ConnectionResetError" if failure == "dropped" else "ChecksumMismatchError"
    assert f"train-images-idx.gz: {reason}" in str(info.value)
    assert list((tmp_path / "mine" / "tiny").iterdir()) == []


def test_download_file_checksum_error_names_url_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(download, "_open_url", lambda url: io.BytesIO(b"not the file"))
    dest = tmp_path / "d" / "f.gz"
    with pytest.raises(ChecksumMismatchError, match=r"downloaded from https://x/f.gz") as info:
        download_file("https://x/f.gz", dest, "0" * 64)
    assert info.value.expected == "0" * 64 and info.value.path == dest
    assert list(dest.parent.iterdir()) == []


def test_interrupted_download_file_removes_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(download, "_open_url", lambda url: BrokenResponse())
    dest = tmp_path / "f.gz"
    with pytest.raises(ConnectionResetError):
        download_file("https://x/f.gz", dest, "0" * 64)
    assert list(tmp_path.iterdir()) == []


def test_user_cache_honours_xdg_and_defaults_to_home(tmp_path, monkeypatch):
    assert download.user_cache_dir() == tmp_path / "xdg-cache" / "numbax" / "datasets"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert download.user_cache_dir() == tmp_path / "home" / ".cache" / "numbax" / "datasets"
