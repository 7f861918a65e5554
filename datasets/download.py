"""Finding dataset files on disk, and downloading them when they are nowhere to be found.

A dataset is described by a `DatasetSpec`: its name, its files with their published sha256,
and the mirrors that serve them. `fetch` looks for the files in this order and takes the first
directory that holds all of them:

1. the ``data_dir`` argument (the directory itself, then ``data_dir/<name>``),
2. ``$NUMBAX_DATA_DIR/<name>``,
3. the copy shipped inside this package (``datasets/data/<name>``),
4. the user cache, ``$XDG_CACHE_HOME/numbax/datasets/<name>`` (``~/.cache/...`` by default).

Every file found is checked against its sha256. When none of the directories has the files they
are downloaded, mirror after mirror, into ``data_dir/<name>`` if ``data_dir`` was given, else
``$NUMBAX_DATA_DIR/<name>`` if set, else the user cache. A download streams into a temporary file
next to its destination, is hashed on the way, and is renamed into place (``os.replace``) only
when its sha256 matches, so a failure never leaves a half-written file behind.

A download is bounded: it may not exceed the file's published size (else its announced
``Content-Length``, at most `MAX_DOWNLOAD_BYTES`), must finish within `DEADLINE_SECONDS` (each read
also times out after `TIMEOUT_SECONDS`), and follows redirects only to the same host, never
from https to http. Mirrors are https where they serve it.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from datasets.errors import (
    ChecksumMismatchError,
    DatasetNotFoundError,
    DownloadDeadlineError,
    DownloadTooLargeError,
    RedirectRefusedError,
)

ENV_VAR = "NUMBAX_DATA_DIR"
SHIPPED_DIR = Path(__file__).resolve().parent / "data"
TIMEOUT_SECONDS = 30.0  # one connection attempt or read
DEADLINE_SECONDS = 600.0  # one whole file
MAX_DOWNLOAD_BYTES = 1 << 30  # when neither the spec nor the server gives the size
_CHUNK = 1 << 20


@dataclass(frozen=True)
class FileSpec:
    """One file of a dataset.

    Attributes:
        filename: the published (gzipped) file name, e.g. ``train-images-idx3-ubyte.gz``.
        sha256: sha256 of the published file.
        raw_sha256: sha256 of its decompressed content, so that an uncompressed copy under the
            same name without ``.gz`` is accepted too.
        size: the published file's size in bytes (a download is cut off beyond it), if known.
    """

    filename: str
    sha256: str
    raw_sha256: str
    size: int | None = None

    @property
    def raw_filename(self) -> str:
        return self.filename.removesuffix(".gz")


@dataclass(frozen=True)
class DatasetSpec:
    """Where a dataset's files live and what they must hash to.

    Attributes:
        name: the dataset's name and the sub-directory it lives in, e.g. ``mnist``.
        files: role (e.g. ``train_images``) -> `FileSpec`.
        mirrors: base URLs tried in order; a file's URL is ``mirror + filename``.
        aliases: other sub-directory names accepted when searching (e.g. ``fashion-mnist``).
    """

    name: str
    files: Mapping[str, FileSpec]
    mirrors: tuple[str, ...]
    aliases: tuple[str, ...] = field(default=())


def user_cache_dir() -> Path:
    """The per-user download cache: ``$XDG_CACHE_HOME/numbax/datasets`` or ``~/.cache/...``."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "numbax" / "datasets"


def search_dirs(spec: DatasetSpec, data_dir: str | os.PathLike | None = None) -> list[Path]:
    """The directories `fetch` searches for ``spec``'s files, in order.

    Args:
        spec: the dataset.
        data_dir: an explicit directory, searched first (itself, then its ``<name>`` folders).

    Returns:
        The candidate directories, existing or not.
    """
    names = (spec.name, *spec.aliases)
    dirs: list[Path] = []
    if data_dir is not None:
        base = Path(data_dir).expanduser()
        dirs += [base, *(base / n for n in names)]
    env = os.environ.get(ENV_VAR)
    if env:
        dirs += [Path(env).expanduser() / n for n in names]
    dirs.append(SHIPPED_DIR / spec.name)
    dirs.append(user_cache_dir() / spec.name)
    return dirs


def download_dir(spec: DatasetSpec, data_dir: str | os.PathLike | None = None) -> Path:
    """Where `fetch` puts downloaded files: ``data_dir``, else the env var, else the cache."""
    if data_dir is not None:
        return Path(data_dir).expanduser() / spec.name
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser() / spec.name
    return user_cache_dir() / spec.name


def sha256_file(path: str | os.PathLike) -> str:
    """The hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _locate(directory: Path, spec: FileSpec) -> tuple[Path, str] | None:
    """The file for ``spec`` in ``directory`` (gzipped preferred) and its expected sha256."""
    for name, digest in ((spec.filename, spec.sha256), (spec.raw_filename, spec.raw_sha256)):
        path = directory / name
        if path.is_file():
            return path, digest
    return None


def _verified(path: Path, expected: str) -> Path:
    got = sha256_file(path)
    if got != expected:
        raise ChecksumMismatchError(path, expected, got)
    return path


def find(spec: DatasetSpec, data_dir: str | os.PathLike | None = None) -> dict[str, Path] | None:
    """The first searched directory's files for ``spec``, checksum-verified, or None.

    Args:
        spec: the dataset.
        data_dir: an explicit directory searched first.

    Returns:
        role -> path of every file, all from one directory; None if no directory has them all.

    Raises:
        ChecksumMismatchError: a found file's sha256 is not the published one.
    """
    for directory in search_dirs(spec, data_dir):
        found = {role: _locate(directory, f) for role, f in spec.files.items()}
        if all(found.values()):
            return {role: _verified(*hit) for role, hit in found.items()}
    return None


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the same host, and never from https to http."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # urllib's signature
        old, new = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(newurl)
        if new.hostname != old.hostname or (old.scheme == "https" and new.scheme != "https"):
            raise RedirectRefusedError(req.full_url, newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _open_url(url: str) -> BinaryIO:
    """Opens ``url`` for reading (the one place that touches the network)."""
    request = urllib.request.Request(url, headers={"User-Agent": "numbax-datasets"})
    opener = urllib.request.build_opener(_SameHostRedirects)
    return opener.open(request, timeout=TIMEOUT_SECONDS)


def _limit(url: str, response: BinaryIO, size: int | None) -> int:
    """The most bytes to accept from ``response``; refuses an announced size over it."""
    announced = getattr(response, "headers", {}).get("Content-Length")
    announced = int(announced) if announced and announced.isdigit() else None
    limit = size if size is not None else min(announced or MAX_DOWNLOAD_BYTES, MAX_DOWNLOAD_BYTES)
    if announced is not None and announced > limit:
        raise DownloadTooLargeError(url, limit, announced)
    return limit


def download_file(url: str, dest: str | os.PathLike, sha256: str, size: int | None = None) -> Path:
    """Downloads ``url`` to ``dest`` atomically, with a progress bar and a sha256 check.

    Args:
        url: the address to fetch.
        dest: the final path; its directory is created if needed.
        sha256: the expected hex sha256 of the content.
        size: the expected size in bytes, if known: a larger download is cut off.

    Returns:
        ``dest`` as a Path, holding exactly the verified content.

    Raises:
        ChecksumMismatchError: the content does not hash to ``sha256`` (nothing is written).
        DownloadTooLargeError: more bytes than ``size`` (or the announced length) arrive.
        DownloadDeadlineError: the download takes longer than `DEADLINE_SECONDS`.
        RedirectRefusedError: the server redirects to another host (or to plain http).
        OSError: the download failed (e.g. ``urllib.error.URLError``); nothing is written.
    """
    from tqdm import tqdm  # only needed when downloading

    dest = Path(dest)
    deadline = time.monotonic() + DEADLINE_SECONDS
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    try:
        h = hashlib.sha256()
        with os.fdopen(fd, "wb") as out, contextlib.closing(_open_url(url)) as response:
            limit = _limit(url, response, size)
            read = getattr(response, "read1", response.read)  # what has arrived, not 1 MiB
            received = 0
            with tqdm(
                total=limit if limit != MAX_DOWNLOAD_BYTES else None,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc=dest.name,
            ) as bar:
                while chunk := read(_CHUNK):
                    received += len(chunk)
                    if received > limit:
                        raise DownloadTooLargeError(url, limit, received)
                    if time.monotonic() > deadline:
                        raise DownloadDeadlineError(url, DEADLINE_SECONDS, received)
                    out.write(chunk)
                    h.update(chunk)
                    bar.update(len(chunk))
        got = h.hexdigest()
        if got != sha256:
            raise ChecksumMismatchError(dest, sha256, got, source=url)
        os.replace(tmp_name, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    return dest


def fetch(
    spec: DatasetSpec, data_dir: str | os.PathLike | None = None, *, download: bool = True
) -> dict[str, Path]:
    """Finds ``spec``'s files (see the module docstring for the order), downloading if needed.

    Args:
        spec: the dataset.
        data_dir: an explicit directory searched first, and where downloads go if given.
        download: allow downloading when the files are not found.

    Returns:
        role -> path of every file, each verified against its sha256.

    Raises:
        DatasetNotFoundError: not found and not downloadable (offline, or ``download=False``);
            the message lists the directories searched and the file names to put there.
        ChecksumMismatchError: a file found on disk does not match its published sha256.
    """
    found = find(spec, data_dir)
    if found is not None:
        return found
    filenames = [f.filename for f in spec.files.values()]
    searched = search_dirs(spec, data_dir)
    target = download_dir(spec, data_dir)
    if not download:
        raise DatasetNotFoundError(spec.name, filenames, searched, ENV_VAR, target)
    paths: dict[str, Path] = {}
    for role, f in spec.files.items():
        dest = target / f.filename
        if dest.is_file() and sha256_file(dest) == f.sha256:
            paths[role] = dest
            continue
        attempts: list[tuple[str, str]] = []
        for mirror in spec.mirrors:
            url = mirror + f.filename
            try:
                paths[role] = download_file(url, dest, f.sha256, f.size)
                break
            except (OSError, http.client.HTTPException, ChecksumMismatchError) as e:
                attempts.append((url, f"{type(e).__name__}: {e}"))
        else:
            raise DatasetNotFoundError(spec.name, filenames, searched, ENV_VAR, target, attempts)
    return paths
