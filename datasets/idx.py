"""Reader and writer for the IDX format of MNIST-style datasets.

An IDX file is a big-endian header followed by the raw values in row-major order:

    bytes 0-1   zero
    byte  2     type code (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32,
                0x0E float64)
    byte  3     number of dimensions d
    then d big-endian uint32 sizes, then prod(sizes) values, big-endian.

So MNIST's images start with the magic number 2051 (0x00000803: uint8, 3 dims) and its labels
with 2049 (0x00000801: uint8, 1 dim). Files may be gzipped; that is detected from the content,
not the file name. The sizes in the header are checked against the file's length before
anything is allocated (a plain file must hold exactly the header and the values; a gzipped one
must agree with the uncompressed length in its trailer and deflate's largest ratio), so a
damaged header cannot ask for terabytes. The values are read straight into a preallocated
array, and any shortfall or excess is reported as a `CorruptFileError` naming the file.
"""

from __future__ import annotations

import gzip
import math
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from datasets.errors import CorruptFileError, IDXDtypeError

# IDX type code -> big-endian numpy dtype of the values in the file.
IDX_DTYPES: dict[int, np.dtype] = {
    0x08: np.dtype("u1"),
    0x09: np.dtype("i1"),
    0x0B: np.dtype(">i2"),
    0x0C: np.dtype(">i4"),
    0x0D: np.dtype(">f4"),
    0x0E: np.dtype(">f8"),
}

_GZIP_MAGIC = b"\x1f\x8b"
_DEFLATE_MAX_RATIO = 1032  # deflate never compresses better than this (RFC 1951 limits)
_ERRORS = (EOFError, OSError, zlib.error)


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Reads an IDX file, plain or gzipped, into a writable native-endian numpy array.

    Args:
        path: the file, e.g. ``train-images-idx3-ubyte.gz`` or ``train-images-idx3-ubyte``.

    Returns:
        An array whose shape is the file's dimensions and whose dtype is the native-endian
        version of the file's type (``uint8`` for MNIST).

    Raises:
        CorruptFileError: bad magic number or type code, truncated data, trailing bytes, or a
            damaged gzip stream; the message names the file, what was expected and found.
    """
    path = Path(path)
    with open(path, "rb") as raw:
        length = os.fstat(raw.fileno()).st_size
        gzipped = raw.read(2) == _GZIP_MAGIC
        if not gzipped:
            raw.seek(0)
            return _read_stream(raw, path, lambda total: total == length, f"{length} bytes")
        raw.seek(max(length - 4, 0))
        (isize,) = struct.unpack("<I", raw.read(4).rjust(4, b"\0"))  # length mod 2**32
        raw.seek(0)

        def fits(total: int) -> bool:
            return total % (1 << 32) == isize and total <= length * _DEFLATE_MAX_RATIO

        found = (
            f"{isize} bytes (mod 2**32) uncompressed per its trailer, {length} compressed "
            "(a damaged header or a truncated gzip stream)"
        )
        try:
            with gzip.GzipFile(fileobj=raw) as stream:
                return _read_stream(stream, path, fits, found)
        except CorruptFileError:
            raise
        except _ERRORS as e:
            raise CorruptFileError(path, "gzip stream", "a complete gzip file", repr(e)) from e


def _read_exact(stream: BinaryIO, n: int, path: Path, what: str) -> bytes:
    data = stream.read(n)
    if len(data) != n:
        raise CorruptFileError(path, f"truncated {what}", f"{n} bytes", f"{len(data)} bytes")
    return data


def _read_stream(
    stream: BinaryIO, path: Path, fits: Callable[[int], bool], length: str
) -> np.ndarray:
    """Reads the header, checks with `fits` that the file can hold the (header + values) bytes
    it announces (`length` describes the file), then reads the values."""
    zero, code, ndim = struct.unpack(">HBB", _read_exact(stream, 4, path, "magic number"))
    if zero != 0 or code not in IDX_DTYPES:
        magic = (zero << 16) | (code << 8) | ndim
        raise CorruptFileError(
            path,
            "magic number",
            "0x0000TTDD with type code TT in "
            + ", ".join(f"0x{c:02X}" for c in IDX_DTYPES)
            + " (2051 for images, 2049 for labels)",
            f"{magic} (0x{magic:08X})",
        )
    shape = struct.unpack(f">{ndim}I", _read_exact(stream, 4 * ndim, path, "dimensions"))
    file_dtype = IDX_DTYPES[code]
    total = 4 + 4 * ndim + math.prod(shape) * file_dtype.itemsize
    if not fits(total):
        raise CorruptFileError(
            path,
            f"header sizes {shape} of {file_dtype.name}",
            f"a file of {total} bytes",
            length,
        )
    out = np.empty(shape, dtype=file_dtype)
    view = memoryview(out.reshape(-1).view(np.uint8))
    filled = 0
    while filled < out.nbytes:
        n = stream.readinto(view[filled:])
        if not n:
            break
        filled += n
    if filled != out.nbytes:
        raise CorruptFileError(
            path,
            f"truncated data for shape {shape}",
            f"{out.nbytes} bytes of values",
            f"{filled} bytes",
        )
    extra = len(stream.read(1 << 16))
    if extra:
        raise CorruptFileError(
            path,
            f"trailing data after shape {shape}",
            f"{out.nbytes} bytes of values",
            f"at least {extra} more",
        )
    return out if file_dtype.isnative else out.astype(file_dtype.newbyteorder("="))


def write_idx(path: str | os.PathLike, array: np.ndarray, *, compress: bool | None = None) -> None:
    """Writes an array as an IDX file (the inverse of `read_idx`).

    Args:
        path: destination; it is gzipped when ``compress`` is true.
        array: an array whose dtype is one of the IDX types (uint8, int8, int16, int32,
            float32, float64), at most 255 dimensions.
        compress: gzip the file; ``None`` means "if ``path`` ends with ``.gz``".

    Raises:
        IDXDtypeError: the dtype has no IDX type code (a `TypeError`).
    """
    path = Path(path)
    array = np.asarray(array)
    codes = {dt.newbyteorder("="): c for c, dt in IDX_DTYPES.items()}
    code = codes.get(array.dtype.newbyteorder("="))
    if code is None:
        raise IDXDtypeError(array.dtype, [str(dt.newbyteorder("=")) for dt in IDX_DTYPES.values()])
    header = struct.pack(f">HBB{array.ndim}I", 0, code, array.ndim, *array.shape)
    data = header + np.ascontiguousarray(array, dtype=IDX_DTYPES[code]).tobytes()
    if compress if compress is not None else path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    path.write_bytes(data)
