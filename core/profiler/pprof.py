"""pprof profiles (github.com/google/pprof/blob/main/proto/profile.proto), gzipped.

`ProfileBuilder` collects samples, each a stack of `(function, file, line)` frames (leaf
first), values (one per sample type) and string labels; `build()` interns the strings,
functions and locations and returns the gzipped `Profile` message that `pprof` reads
(`pprof -top memory.prof`, `pprof -http=: memory.prof`).
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Sequence

from core.profiler import wire

Frame = tuple[str, str, int]  # (function name, file name, line)


class ProfileBuilder:
    """Accumulates samples of a pprof profile.

    Args:
      sample_types: `(type, unit)` of each value, e.g. `[("allocations", "count"),
        ("space", "bytes")]`.
      default_sample_type: the type `pprof` shows first.
    """

    def __init__(self, sample_types: Sequence[tuple[str, str]], default_sample_type: str):
        self._strings: dict[str, int] = {"": 0}
        self._functions: dict[tuple[str, str], int] = {}
        self._locations: dict[Frame, int] = {}
        self._samples: list[bytes] = []
        self._types = list(sample_types)
        self._default = default_sample_type

    def _s(self, text: str) -> int:
        index = self._strings.get(text)
        if index is None:
            index = self._strings[text] = len(self._strings)
        return index

    def _location(self, frame: Frame) -> int:
        loc = self._locations.get(frame)
        if loc is None:
            name, filename, _ = frame
            fn = self._functions.get((name, filename))
            if fn is None:
                fn = self._functions[(name, filename)] = len(self._functions) + 1
            loc = self._locations[frame] = len(self._locations) + 1
        return loc

    def add(self, stack: Sequence[Frame], values: Sequence[int], labels: dict[str, str]) -> None:
        """Adds one sample.

        Args:
          stack: frames, the leaf (innermost call) first.
          values: one per sample type.
          labels: string labels (`kind`, `shape`, ...).
        """
        if len(values) != len(self._types):
            raise ValueError(f"expected {len(self._types)} values, got {len(values)}")
        # Sample: location_id=1 (packed), value=2 (packed), label=3; Label: key=1, str=2
        self._samples.append(
            wire.packed_ints(1, [self._location(f) for f in stack])
            + wire.packed_ints(2, values)
            + wire.messages(
                3, [wire.int_field(1, self._s(k)) + wire.int_field(2, self._s(v))
                    for k, v in labels.items()]
            )
        )  # fmt: skip

    def build(self) -> bytes:
        """The gzipped serialized `Profile`."""
        # ValueType: type=1, unit=2
        types = [
            wire.int_field(1, self._s(t)) + wire.int_field(2, self._s(u)) for t, u in self._types
        ]
        # Function: id=1, name=2, system_name=3, filename=4
        functions = [
            wire.int_field(1, i)
            + wire.int_field(2, self._s(name))
            + wire.int_field(3, self._s(name))
            + wire.int_field(4, self._s(filename))
            for (name, filename), i in self._functions.items()
        ]
        # Mapping: id=1, filename=5, has_functions=7, has_filenames=8, has_line_numbers=9
        mapping = (
            wire.int_field(1, 1)
            + wire.int_field(5, self._s("python"))
            + wire.int_field(7, 1)
            + wire.int_field(8, 1)
            + wire.int_field(9, 1)
        )
        # Location: id=1, mapping_id=2, line=4; Line: function_id=1, line=2
        locations = [
            wire.int_field(1, i)
            + wire.int_field(2, 1)
            + wire.bytes_field(
                4,
                wire.int_field(1, self._functions[(name, filename)]) + wire.int_field(2, line),
                always=True,
            )
            for (name, filename, line), i in self._locations.items()
        ]
        default = self._s(self._default)
        strings = list(self._strings)  # insertion order is the index order
        # Profile: sample_type=1, sample=2, mapping=3, location=4, function=5, string_table=6,
        # time_nanos=9, default_sample_type=14
        message = (
            wire.messages(1, types)
            + wire.messages(2, self._samples)
            + wire.messages(3, [mapping])
            + wire.messages(4, locations)
            + wire.messages(5, functions)
            + wire.messages(6, [s.encode("utf-8") for s in strings])
            + wire.int_field(9, time.time_ns())
            + wire.int_field(14, default)
        )
        return gzip.compress(message)
