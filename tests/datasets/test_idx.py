import gzip
import struct

import numpy as np
import pytest

from datasets.errors import CorruptFileError, IDXDtypeError
from datasets.idx import read_idx, write_idx

IMAGES = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
LABELS = np.array([7, 0, 9], np.uint8)


def images_bytes():
    return struct.pack(">iiii", 2051, 2, 3, 4) + IMAGES.tobytes()


def labels_bytes():
    return struct.pack(">ii", 2049, 3) + LABELS.tobytes()


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize(
    "make, expected", [(images_bytes, IMAGES), (labels_bytes, LABELS)], ids=["2051", "2049"]
)
def test_reads_hand_written_mnist_files(tmp_path, compress, make, expected):
    data = make()
    path = tmp_path / "file"  # no suffix: gzip is detected from the content
    path.write_bytes(gzip.compress(data) if compress else data)
    out = read_idx(path)
    assert out.dtype == np.uint8 and out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)
    out[0] = 1  # loaded arrays are ordinary writable arrays


@pytest.mark.parametrize(
    "dtype, code, values",
    [
        ("uint8", 0x08, [[0, 1], [2, 255]]),
        ("int8", 0x09, [[-128, 1], [2, 127]]),
        ("int16", 0x0B, [[-32768, 1], [2, 32767]]),
        ("int32", 0x0C, [[-(2**31), 1], [2, 2**31 - 1]]),
        ("float32", 0x0D, [[-1.5, 0.1], [2.0, 3e38]]),
        ("float64", 0x0E, [[-1.5, 0.1], [2.0, 1e300]]),
    ],
)
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_all_idx_types_round_trip(tmp_path, dtype, code, values, suffix):
    array = np.array(values, dtype=dtype)
    path = tmp_path / f"a{suffix}"
    write_idx(path, array)
    raw = path.read_bytes()
    raw = gzip.decompress(raw) if suffix else raw
    assert raw[:12] == struct.pack(">BBBBII", 0, 0, code, 2, 2, 2)
    assert raw[12:] == array.astype(np.dtype(dtype).newbyteorder(">")).tobytes()
    out = read_idx(path)
    assert out.dtype == np.dtype(dtype) and out.dtype.isnative
    np.testing.assert_array_equal(out, array)


@pytest.mark.parametrize(
    "data, what, found",
    [
        (struct.pack(">ii", 0x12340801, 3) + bytes(3), "magic number", "305399809 (0x12340801)"),
        (struct.pack(">ii", 0x00000701, 3) + bytes(3), "magic number", "1793 (0x00000701)"),
        (b"\x00\x00", "truncated magic number", "2 bytes"),
        (struct.pack(">ii", 2051, 2), "truncated dimensions", "4 bytes"),
        (struct.pack(">ii", 2049, 5) + bytes(3), "header sizes (5,) of uint8", "11 bytes"),
        (struct.pack(">ii", 2049, 2) + bytes(3), "header sizes (2,) of uint8", "11 bytes"),
    ],
    ids=["magic", "type-code", "short-header", "short-dims", "truncated", "trailing"],
)
@pytest.mark.parametrize("compress", [False, True])
def test_corrupt_files_name_file_expected_and_found(tmp_path, data, what, found, compress):
    path = tmp_path / "bad-idx1-ubyte"
    path.write_bytes(gzip.compress(data) if compress else data)
    with pytest.raises(CorruptFileError) as info:
        read_idx(path)
    message = str(info.value)
    assert str(path) in message and what in message and f"found {found}" in message
    assert info.value.path == path and isinstance(info.value, ValueError)


@pytest.mark.parametrize("compress", [False, True])
def test_header_sizes_beyond_the_file_are_refused_before_allocating(tmp_path, compress):
    data = struct.pack(">iiii", 2051, 1 << 30, 1 << 30, 1 << 30) + bytes(64)  # 1 EiB claimed
    path = tmp_path / "huge-idx3-ubyte"
    path.write_bytes(gzip.compress(data) if compress else data)
    with pytest.raises(
        CorruptFileError, match=r"header sizes \(1073741824, 1073741824, 1073741824\)"
    ):
        read_idx(path)


@pytest.mark.parametrize("cut", [1, 8, 20])
def test_truncated_gzip_stream(tmp_path, cut):
    path = tmp_path / "images.gz"
    path.write_bytes(gzip.compress(images_bytes())[:-cut])
    with pytest.raises(CorruptFileError, match="gzip stream") as info:
        read_idx(path)
    assert str(path) in str(info.value)


def test_write_idx_rejects_dtypes_without_a_code(tmp_path):
    with pytest.raises(IDXDtypeError, match="bool") as info:
        write_idx(tmp_path / "x", np.zeros(3, bool))
    assert isinstance(info.value, TypeError)
