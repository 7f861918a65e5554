"""train.msgpack against the reference encoder: the first bytes and lengths below are what
``msgpack.packb(value, use_bin_type=True)`` (msgpack 1.2.4) gives for each encoding boundary."""

import pytest

from train import msgpack
from train.errors import (
    ExtraData,
    MsgpackDecodeError,
    MsgpackEncodeError,
    MsgpackIncompleteError,
    MsgpackIntegerRangeError,
)

# (value, hex of the first <= 5 bytes, total length), recorded from the msgpack package
REFERENCE = [
    (0, "00", 1),
    (127, "7f", 1),
    (128, "cc80", 2),
    (255, "ccff", 2),
    (256, "cd0100", 3),
    (65535, "cdffff", 3),
    (65536, "ce00010000", 5),
    (2**32 - 1, "ceffffffff", 5),
    (2**32, "cf00000001", 9),
    (2**64 - 1, "cfffffffff", 9),
    (-1, "ff", 1),
    (-32, "e0", 1),
    (-33, "d0df", 2),
    (-128, "d080", 2),
    (-129, "d1ff7f", 3),
    (-32768, "d18000", 3),
    (-32769, "d2ffff7fff", 5),
    (-(2**31), "d280000000", 5),
    (-(2**31) - 1, "d3ffffffff", 9),
    (-(2**63), "d380000000", 9),
    (1.5, "cb3ff80000", 9),
    ("a" * 31, "bf61616161", 32),
    ("a" * 32, "d920616161", 34),
    ("a" * 256, "da01006161", 259),
    (b"", "c400", 2),
    (b"x" * 256, "c501007878", 259),
    ([1] * 15, "9f01010101", 16),
    ([1] * 16, "dc00100101", 19),
    (None, "c0", 1),
    (True, "c3", 1),
    (False, "c2", 1),
    (msgpack.ExtType(5, b"abc"), "c703056162", 6),
    (msgpack.ExtType(1, b"abcd"), "d601616263", 6),
    (msgpack.ExtType(1, b"a" * 17), "c711016161", 20),
]


@pytest.mark.parametrize("value, head, length", REFERENCE)
def test_encodings_match_the_reference_package(value, head, length):
    data = msgpack.packb(value)
    assert data[:5].hex() == head and len(data) == length
    assert msgpack.unpackb(data) == value


def test_maps_tuples_and_strict_mode():
    data = msgpack.packb({"a": (1, 2), 3: [None]})
    assert data.hex() == "82a1619201020391c0"
    assert msgpack.unpackb(data) == {"a": [1, 2], 3: [None]}
    with pytest.raises(MsgpackEncodeError, match="^can not serialize 'tuple' object\n"):
        msgpack.packb((1, 2), strict=True)
    assert msgpack.packb((1,), strict=True, default=list) == b"\x91\x01"


def test_raw_strings_and_ext_hook():
    assert msgpack.unpackb(msgpack.packb("π"), raw=True) == "π".encode()
    data = msgpack.packb([msgpack.ExtType(7, b"xy")])
    assert msgpack.unpackb(data, ext_hook=lambda code, d: (code, d)) == [(7, b"xy")]


@pytest.mark.parametrize(
    "data, error, message",
    [  # the first lines (and class names) are the msgpack library's, as Flax raises them
        (b"\x92\x01", MsgpackIncompleteError, "^Unpack failed: incomplete input\ntruncated"),
        (b"", MsgpackIncompleteError, "^Unpack failed: incomplete input\n"),
        (b"\x01\x02", ExtraData, "^unpack\\(b\\) received extra data.\n1 extra bytes"),
        (b"\xc1", MsgpackDecodeError, "not MessagePack"),
        (b"\xa2\xff\xfe", MsgpackDecodeError, "invalid UTF-8"),
    ],
)
def test_bad_input_is_a_clear_error(data, error, message):
    with pytest.raises(error, match=message):
        msgpack.unpackb(data)


def test_out_of_range_integers():
    for n in (2**64, -(2**63) - 1):
        with pytest.raises(OverflowError, match="^Integer value out of range\n.*2\\*\\*6"):
            msgpack.packb(n)
        with pytest.raises(MsgpackIntegerRangeError):
            msgpack.packb(n)
