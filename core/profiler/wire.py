"""The protocol buffer wire format, encoding side: enough for pprof profiles and XSpaces.

A message is a concatenation of fields, each a key `(field_number << 3) | wire_type` (a varint)
then the value: wire type 0 a varint (integers, bools; negative int64s as 10-byte two's
complement), 1 eight little-endian bytes (doubles), 2 a varint length then the bytes (strings,
bytes, sub-messages, packed repeated integers). Fields equal to their proto3 default are left
out, as protobuf itself does. https://protobuf.dev/programming-guides/encoding/
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

_VARINT, _I64, _LEN = 0, 1, 2


def varint(value: int) -> bytes:
    """The varint bytes of a (u)int64; negative values as their 64-bit two's complement."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return varint((field << 3) | wire_type)


def int_field(field: int, value: int, *, always: bool = False) -> bytes:
    """An int64/uint64/bool field (nothing when 0, unless `always`: a member of a oneof)."""
    if not value and not always:
        return b""
    return _key(field, _VARINT) + varint(int(value))


def double_field(field: int, value: float, *, always: bool = False) -> bytes:
    """A double field (nothing when 0.0, unless `always`)."""
    if not value and not always:
        return b""
    return _key(field, _I64) + struct.pack("<d", value)


def bytes_field(field: int, value: bytes, *, always: bool = False) -> bytes:
    """A bytes or sub-message field (nothing when empty unless `always`: a repeated element
    or a map value must be present even when empty)."""
    if not value and not always:
        return b""
    return _key(field, _LEN) + varint(len(value)) + value


def str_field(field: int, value: str, *, always: bool = False) -> bytes:
    """A string field, UTF-8 encoded."""
    return bytes_field(field, value.encode("utf-8"), always=always)


def packed_ints(field: int, values: Iterable[int]) -> bytes:
    """A packed repeated int64/uint64 field (nothing when empty)."""
    body = b"".join(varint(int(v)) for v in values)
    return bytes_field(field, body)


def messages(field: int, items: Iterable[bytes]) -> bytes:
    """A repeated sub-message (or repeated string, encoded) field."""
    return b"".join(bytes_field(field, m, always=True) for m in items)
