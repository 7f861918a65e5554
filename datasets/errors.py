"""Errors raised by `datasets`.

One class per failure, each subclassing the built-in exception a caller would catch for it
(a missing dataset is a `FileNotFoundError`, a bad file a `ValueError`). The message names the
file, what was expected and what was found, and says how to fix it; the same facts are kept as
attributes for programs. Every class derives from the package root `DatasetError`, a
`NumbaxError` like the other packages' roots; that root lives in `numbax.errors`, a module that
imports nothing, so `datasets` still imports only numpy and the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from numbax.errors import NumbaxError


class DatasetError(NumbaxError):
    """Root of `datasets`' errors: ``except datasets.errors.DatasetError`` catches every one
    (and ``except core.errors.NumbaxError`` every numbax error)."""


class DatasetNotFoundError(DatasetError, FileNotFoundError):
    """The dataset's files are in none of the searched directories and could not be downloaded.

    Failing code::

        mnist.load(download=False)  # no copy in any searched directory (or offline)

    Fix: put the files the message lists into one of the searched directories, point
    ``$NUMBAX_DATA_DIR`` or ``data_dir=`` at a directory holding them, or allow the download::

        data = mnist.load()  # downloads into the user cache once
    """

    def __init__(
        self,
        name: str,
        filenames: Sequence[str],
        searched: Sequence[Path],
        env_var: str,
        target: Path,
        attempts: Sequence[tuple[str, str]] = (),
    ):
        self.name = name
        self.target = target
        self.filenames = list(filenames)
        self.searched = list(searched)
        self.attempts = list(attempts)
        lines = [f"dataset {name!r} not found. Searched, in order:"]
        lines += [f"  {d}" for d in searched]
        if attempts:
            lines.append("and the download failed:")
            lines += [f"  {url}: {reason}" for url, reason in attempts]
        else:
            lines.append("(downloading was disabled: download=False)")
        lines.append(
            f"Fix: put these files (gzipped, or the same names without .gz) into {target} "
            "or any directory above:"
        )
        lines += [f"  {f}" for f in filenames]
        lines.append(
            f"or set {env_var}=/some/dir and put them in /some/dir/{name}/, "
            "or pass data_dir= to load()."
        )
        super().__init__("\n".join(lines))


class ChecksumMismatchError(DatasetError, ValueError):
    """A dataset file's sha256 differs from the published one (corrupt, truncated or replaced).

    Failing code: ``mnist.load()`` with a damaged ``train-images-idx3-ubyte.gz`` in the data
    directory (a partial copy, another dataset's file under that name).

    Fix: delete the file and load again (it is downloaded afresh), or put the original in place.
    """

    def __init__(self, path: Path | str, expected: str, got: str, source: str | None = None):
        self.path = Path(path)
        self.expected = expected
        self.got = got
        self.source = source
        origin = f" (downloaded from {source})" if source else ""
        super().__init__(
            f"{self.path}{origin} has the wrong sha256: expected {expected}, got {got}. "
            "The file is corrupt, truncated or not the published one; delete it and load "
            "again to download a fresh copy, or replace it with the original file."
        )


class DownloadTooLargeError(DatasetError, OSError):
    """A download is larger than the file's published size (or its announced length).

    Failing code: ``mnist.load()`` while a mirror serves another (larger) file under the
    published name; the transfer stops and nothing is written.

    Fix: retry later or from another mirror, or download the published file yourself into the
    data directory (its sha256 is checked).
    """

    def __init__(self, url: str, limit: int, got: int):
        self.url = url
        self.limit = limit
        self.got = got
        super().__init__(
            f"{url} sends more than the expected {limit} bytes (at least {got}); the download "
            "was stopped and nothing was written. The mirror serves another file: try another "
            "mirror, or put the published file into the data directory by hand."
        )


class DownloadDeadlineError(DatasetError, TimeoutError):
    """A download did not finish within `download.DEADLINE_SECONDS`.

    Failing code: ``mnist.load()`` on a connection too slow to fetch a file in 600 s.

    Fix: retry on a faster connection, raise the limit, or copy the files in by hand::

        datasets.download.DEADLINE_SECONDS = 3600.0
        data = mnist.load()
    """

    def __init__(self, url: str, seconds: float, got: int):
        self.url = url
        super().__init__(
            f"downloading {url} took longer than {seconds:g} s ({got} bytes received); stopped, "
            "nothing was written. Retry on a faster connection, raise "
            "datasets.download.DEADLINE_SECONDS, or put the file into the data directory."
        )


class RedirectRefusedError(DatasetError, OSError):
    """A mirror redirected to another host (or from https to http), which is not followed.

    Failing code: ``mnist.load()`` while a mirror answers with a redirect to another host.

    Fix: if you trust the address in the message, download the file from it yourself and put
    it into the data directory (its sha256 is still checked); otherwise retry later.
    """

    def __init__(self, url: str, target: str):
        self.url = url
        self.target = target
        super().__init__(
            f"{url} redirects to {target}, another host or plain http; such redirects are not "
            "followed. Download the file yourself if you trust that address and put it into "
            "the data directory (its sha256 is still checked)."
        )


class CorruptFileError(DatasetError, ValueError):
    """A file is not a well-formed IDX file (bad magic number, truncated, bad gzip stream...).

    Failing code::

        open("labels.idx", "wb").write(b"not an idx file")
        datasets.read_idx("labels.idx")

    Fix: delete the file and load the dataset again (a fresh copy is downloaded), or replace it
    with the original file.
    """

    def __init__(self, path: Path | str, what: str, expected: str, found: str):
        self.path = Path(path)
        self.what = what
        self.expected = expected
        self.found = found
        super().__init__(
            f"{self.path} is not a valid IDX file: {what}: expected {expected}, found {found}. "
            "Delete it and load again to download a fresh copy, or replace it with the "
            "original file."
        )


class IDXDtypeError(DatasetError, TypeError):
    """`write_idx()` was given an array whose dtype has no IDX type code.

    Failing code::

        datasets.write_idx("x.idx", np.zeros(3, np.int64))

    Fix: convert to a dtype IDX stores (uint8, int8, int16, int32, float32, float64)::

        datasets.write_idx("x.idx", np.zeros(3, np.int32))
    """

    def __init__(self, dtype: object, supported: Sequence[str]):
        super().__init__(
            f"IDX cannot store dtype {dtype}; convert the array to one of {list(supported)}."
        )


class UnknownSplitError(DatasetError, ValueError):
    """`load(split=...)` was given a split name the dataset does not have.

    Failing code::

        mnist.load(split="validation")

    Fix: use a split the dataset has (``"train"`` or ``"test"``), or ``split=None`` for all::

        train = mnist.load(split="train")
    """

    def __init__(self, name: str, split: object, splits: Sequence[str]):
        self.split = split
        super().__init__(
            f"dataset {name!r} has no split {split!r}; use one of {list(splits)} "
            "or split=None for all of them."
        )


class BatchSizeError(DatasetError, ValueError):
    """`batches()` was given a batch size that is not a positive integer.

    Failing code::

        datasets.batches(train, batch_size=0, key=key)

    Fix: pass a positive ``int``, e.g. ``batch_size=128``.
    """

    def __init__(self, batch_size: object):
        super().__init__(f"batch_size must be a positive int, got {batch_size!r}.")


class LengthMismatchError(DatasetError, ValueError):
    """The arrays given to `batches()` do not share their leading dimension.

    Failing code::

        datasets.batches({"image": images[:1000], "label": labels}, 32, key=key)

    Fix: give every array the same number of examples along axis 0 (slice them alike).
    """

    def __init__(self, lengths: dict[str, int]):
        self.lengths = dict(lengths)
        desc = ", ".join(f"{k}: {n}" for k, n in lengths.items())
        super().__init__(
            f"all arrays must have the same leading dimension (number of examples), got {desc}."
        )


class MissingShuffleKeyError(DatasetError, TypeError):
    """`batches(shuffle=True)` was called without a PRNG key.

    Failing code::

        datasets.batches(train, 128)

    Fix: pass a key (and the epoch, for a new order each epoch), or keep the stored order::

        datasets.batches(train, 128, key=core.random.key(0), epoch=epoch)
        datasets.batches(train, 128, shuffle=False)
    """

    def __init__(self) -> None:
        super().__init__(
            "batches(..., shuffle=True) needs key=, a PRNG key such as "
            "core.random.key(0) (fold in the epoch with epoch=i for a new order each epoch), "
            "or pass shuffle=False to keep the stored order."
        )


class ImageDtypeError(DatasetError, TypeError):
    """`to_float()` was given images that are not uint8.

    Failing code::

        datasets.to_float(datasets.to_float(images))  # already float32

    Fix: call `to_float` once, on the uint8 images as loaded.
    """

    def __init__(self, dtype: object):
        super().__init__(
            f"to_float expects uint8 images (0..255), got dtype {dtype}; images that are "
            "already floating point need no conversion."
        )


class PackageNameCollisionWarning(UserWarning):
    """HuggingFace's ``datasets`` is installed next to numbax, which also installs a top-level
    ``datasets`` package: one of the two replaces the other. Use separate environments."""
