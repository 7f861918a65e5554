"""The subset of MessagePack that Flax checkpoints use, written by hand (no dependency).

`packb` and `unpackb` follow the MessagePack spec (https://github.com/msgpack/msgpack/blob/
master/spec.md) and the choices of the reference Python implementation ``msgpack`` 1.x with
``use_bin_type=True``, so the bytes are identical to what Flax writes: integers take the
smallest encoding, floats are always float64, ``str`` is UTF-8 text and ``bytes`` binary, and
the ext types carry a signed code byte. Decoding returns lists for arrays (never tuples) and
accepts any map key type, as Flax's ``msgpack_restore`` does.

``strict=True`` packs only exact ``dict``/``list``/``int``/``float``/``str``/``bytes`` types, as
Flax's ``strict_types=True``: subclasses (``numpy.float64``, named tuples) go through
``default``. We write the codec ourselves because the format subset is small (a few hundred
lines less than a dependency) and this keeps ``numbax`` installable without a C extension.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import (
    ExtraData,
    MsgpackDecodeError,
    MsgpackEncodeError,
    MsgpackIncompleteError,
    MsgpackIntegerRangeError,
)

__all__ = ["ExtType", "packb", "unpackb"]


class ExtType(NamedTuple):
    """An application-defined value: a type code (-128..127) and its payload bytes."""

    code: int
    data: bytes


_FIXEXT = {1: 0xD4, 2: 0xD5, 4: 0xD6, 8: 0xD7, 16: 0xD8}


def _pack_int(n: int, out: bytearray) -> None:
    if 0 <= n < 0x80:
        out.append(n)
    elif n >= 0:
        for limit, code, fmt in (
            (1 << 8, 0xCC, ">B"),
            (1 << 16, 0xCD, ">H"),
            (1 << 32, 0xCE, ">I"),
        ):
            if n < limit:
                out += bytes([code]) + struct.pack(fmt, n)
                return
        if n >= 1 << 64:
            raise MsgpackIntegerRangeError(n, "integers above 2**64 - 1 do not fit MessagePack")
        out += b"\xcf" + struct.pack(">Q", n)
    elif n >= -32:
        out.append(n & 0xFF)
    else:
        for limit, code, fmt in (
            (1 << 7, 0xD0, ">b"),
            (1 << 15, 0xD1, ">h"),
            (1 << 31, 0xD2, ">i"),
        ):
            if n >= -limit:
                out += bytes([code]) + struct.pack(fmt, n)
                return
        if n < -(1 << 63):
            raise MsgpackIntegerRangeError(n, "integers below -2**63 do not fit MessagePack")
        out += b"\xd3" + struct.pack(">q", n)


def _pack_header(n: int, fix: int | None, fix_max: int, codes: tuple, out: bytearray) -> None:
    """A length header: the fix form when it fits, else the 8-, 16- or 32-bit form."""
    if fix is not None and n < fix_max:
        out.append(fix | n)
        return
    for code, fmt in zip(codes, (">B", ">H", ">I")):
        if code is not None and n < 1 << (8 * struct.calcsize(fmt)):
            out += bytes([code]) + struct.pack(fmt, n)
            return
    raise MsgpackEncodeError(n, "a value longer than 2**32 - 1 does not fit MessagePack")


def _pack(obj: Any, out: bytearray, default: Callable | None, strict: bool, depth: int) -> None:
    if depth > 512:
        raise MsgpackEncodeError(obj, "the tree is nested deeper than 512 levels")
    t = type(obj)
    if obj is None:
        out.append(0xC0)
    elif obj is True or obj is False:
        out.append(0xC3 if obj else 0xC2)
    elif t is int or (not strict and isinstance(obj, int)):
        _pack_int(int(obj), out)
    elif t is float or (not strict and isinstance(obj, float)):
        out += b"\xcb" + struct.pack(">d", obj)
    elif t is str or (not strict and isinstance(obj, str)):
        data = obj.encode("utf-8")
        _pack_header(len(data), 0xA0, 32, (0xD9, 0xDA, 0xDB), out)
        out += data
    elif t in (bytes, bytearray, memoryview):
        data = bytes(obj)
        _pack_header(len(data), None, 0, (0xC4, 0xC5, 0xC6), out)
        out += data
    elif t is ExtType:
        code, data = obj
        if len(data) in _FIXEXT:
            out.append(_FIXEXT[len(data)])
        else:
            _pack_header(len(data), None, 0, (0xC7, 0xC8, 0xC9), out)
        out += struct.pack(">b", code) + data
    elif t is list or (not strict and isinstance(obj, (list, tuple))):
        _pack_header(len(obj), 0x90, 16, (None, 0xDC, 0xDD), out)
        for item in obj:
            _pack(item, out, default, strict, depth + 1)
    elif t is dict or (not strict and isinstance(obj, dict)):
        _pack_header(len(obj), 0x80, 16, (None, 0xDE, 0xDF), out)
        for key, value in obj.items():
            _pack(key, out, default, strict, depth + 1)
            _pack(value, out, default, strict, depth + 1)
    else:
        converted = default(obj) if default is not None else obj
        if converted is obj:
            raise MsgpackEncodeError(obj, f"cannot serialize a {t.__name__}")
        _pack(converted, out, None, strict, depth)


def packb(obj: Any, *, default: Callable[[Any], Any] | None = None, strict: bool = False) -> bytes:
    """Encodes ``obj`` as MessagePack bytes (as ``msgpack.packb(obj, use_bin_type=True)``).

    Args:
        obj: None, bool, int, float, str, bytes, `ExtType`, and lists/tuples/dicts of them.
        default: called with any other object; returns an encodable replacement (typically an
            `ExtType`), or the object itself to reject it.
        strict: encode only the exact built-in types (``msgpack``'s ``strict_types=True``);
            tuples and subclasses then go through ``default``.

    Returns:
        The encoded bytes.

    Raises:
        MsgpackEncodeError: a value cannot be encoded.
    """
    out = bytearray()
    _pack(obj, out, default, strict, 0)
    return bytes(out)


class _Reader:
    def __init__(self, data: bytes, ext_hook: Callable[[int, bytes], Any] | None, raw: bool):
        self.data = memoryview(data)
        self.pos = 0
        self.ext_hook = ext_hook
        self.raw = raw

    def take(self, n: int) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise MsgpackIncompleteError(f"truncated data: needed {n} bytes at offset {self.pos}")
        chunk = self.data[self.pos : end].tobytes()
        self.pos = end
        return chunk

    def unpack_fmt(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def text(self, n: int) -> Any:
        data = self.take(n)
        if self.raw:
            return data
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise MsgpackDecodeError(f"invalid UTF-8 string at offset {self.pos - n}") from e

    def ext(self, n: int) -> Any:
        code = self.unpack_fmt(">b")
        data = self.take(n)
        return self.ext_hook(code, data) if self.ext_hook else ExtType(code, data)

    def value(self, depth: int = 0) -> Any:
        if depth > 512:
            raise MsgpackDecodeError("the data is nested deeper than 512 levels")
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 0x100
        if 0x80 <= b <= 0x8F:
            return self.map(b & 0x0F, depth)
        if 0x90 <= b <= 0x9F:
            return [self.value(depth + 1) for _ in range(b & 0x0F)]
        if 0xA0 <= b <= 0xBF:
            return self.text(b & 0x1F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b]
        numbers = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q"}
        numbers.update({0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"})
        if b in numbers:
            return self.unpack_fmt(numbers[b])
        sized = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I", 0xC7: ">B", 0xC8: ">H", 0xC9: ">I"}
        sized.update({0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xDC: ">H", 0xDD: ">I"})
        sized.update({0xDE: ">H", 0xDF: ">I"})
        if b in sized:
            n = self.unpack_fmt(sized[b])
            if b <= 0xC6:
                return self.take(n)
            if b <= 0xC9:
                return self.ext(n)
            if b <= 0xDB:
                return self.text(n)
            if b <= 0xDD:
                return [self.value(depth + 1) for _ in range(n)]
            return self.map(n, depth)
        fixext = {v: k for k, v in _FIXEXT.items()}
        if b in fixext:
            return self.ext(fixext[b])
        raise MsgpackDecodeError(f"byte 0x{b:02x} at offset {self.pos - 1} is not MessagePack")

    def map(self, n: int, depth: int) -> dict:
        out = {}
        for _ in range(n):
            key = self.value(depth + 1)
            if isinstance(key, (list, dict)):
                raise MsgpackDecodeError(f"unhashable map key {type(key).__name__}")
            out[key] = self.value(depth + 1)
        return out


def unpackb(
    data: bytes, *, ext_hook: Callable[[int, bytes], Any] | None = None, raw: bool = False
) -> Any:
    """Decodes one MessagePack value that spans all of ``data``.

    Args:
        data: the encoded bytes.
        ext_hook: called as ``ext_hook(code, payload)`` for ext values; without it they decode
            to `ExtType`.
        raw: return strings as undecoded ``bytes`` (``msgpack``'s ``raw=True``).

    Returns:
        The value: arrays become lists, maps dicts (keys of any hashable type).

    Raises:
        MsgpackDecodeError: the data is truncated, has extra bytes or is not MessagePack.
    """
    reader = _Reader(bytes(data), ext_hook, raw)
    value = reader.value()
    if reader.pos != len(reader.data):
        raise ExtraData(
            f"{len(reader.data) - reader.pos} extra bytes after the value (offset {reader.pos})"
        )
    return value
