"""TensorBoard's profile format: an `XSpace` protocol buffer (`<host>.xplane.pb`).

The profile plugin (`tensorboard-plugin-profile`/xprof) reads
`<logdir>/plugins/profile/<run>/<host>.xplane.pb` and builds its tools (trace viewer, ...) from
it. We write one plane, "/host:CPU" (the host threads plane of TensorFlow's profiler), with one
line per Python thread and one event per recorded event; each event name is an
`XEventMetadata` and each `args` key an `XStatMetadata` shared by the plane. Integer args become
int64 stats, floats doubles, anything else strings. Encoded with `core.profiler.wire` after
xla/tsl/profiler/protobuf/xplane.proto (field numbers in the comments of each builder).
"""

from __future__ import annotations

from core.profiler import wire
from core.profiler.chrome import PROCESS_NAME


class _Ids:
    """Dense ids for names (metadata maps are keyed by id; 0 means "unset" in proto3)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, name: str) -> int:
        if name not in self.ids:
            self.ids[name] = len(self.ids) + 1
        return self.ids[name]


def _stat(metadata_id: int, value: object) -> bytes:
    # XStat: metadata_id=1, double_value=2, int64_value=4, str_value=5
    head = wire.int_field(1, metadata_id)
    if isinstance(value, bool) or (isinstance(value, int) and abs(value) < 1 << 63):
        return head + wire.int_field(4, value, always=True)
    if isinstance(value, float):
        return head + wire.double_field(2, value, always=True)
    return head + wire.str_field(5, str(value), always=True)


def xspace(
    events: list[tuple],
    thread_names: dict[int, str],
    start_ns: int,
    epoch_ns: int,
    hostname: str,
) -> bytes:
    """The serialized `XSpace` of a trace.

    Args:
      events: `(name, start_ns, dur_ns, args, thread id)` tuples (`core.profiler.hooks`).
      thread_names: thread id -> name.
      start_ns: the `perf_counter_ns` time of the trace's start.
      epoch_ns: the same instant in nanoseconds since the UNIX epoch.
      hostname: the host's name.

    Returns:
      The protobuf bytes.
    """
    event_ids, stat_ids = _Ids(), _Ids()
    end = max((t0 + dur for _, t0, dur, _, _ in events), default=start_ns)
    lines = []
    for index, (tid, tname) in enumerate(thread_names.items()):
        body = []
        for name, t0, dur, args, etid in sorted(events, key=lambda e: (e[1], -e[2])):
            if etid != tid:
                continue
            # XEvent: metadata_id=1, offset_ps=2, duration_ps=3, stats=4
            stats = [_stat(stat_ids(k), v) for k, v in (args or {}).items()]
            body.append(
                wire.int_field(1, event_ids(name))
                + wire.int_field(2, (t0 - start_ns) * 1000, always=True)
                + wire.int_field(3, dur * 1000)
                + wire.messages(4, stats)
            )
        # XLine: id=1, name=2, timestamp_ns=3, events=4, duration_ps=9, display_id=10,
        # display_name=11
        lines.append(
            wire.int_field(1, index + 1)
            + wire.str_field(2, tname)
            + wire.int_field(3, epoch_ns)
            + wire.messages(4, body)
            + wire.int_field(9, (end - start_ns) * 1000)
            + wire.int_field(10, index + 1)
            + wire.str_field(11, tname)
        )
    # XEventMetadata: id=1, name=2;  XStatMetadata: id=1, name=2;  map entries: key=1, value=2
    event_md = [
        wire.int_field(1, i) + wire.bytes_field(2, wire.int_field(1, i) + wire.str_field(2, n))
        for n, i in event_ids.ids.items()
    ]
    stat_md = [
        wire.int_field(1, i) + wire.bytes_field(2, wire.int_field(1, i) + wire.str_field(2, n))
        for n, i in stat_ids.ids.items()
    ]
    # XPlane: id=1, name=2, lines=3, event_metadata=4, stat_metadata=5
    plane = (
        wire.int_field(1, 1)
        + wire.str_field(2, PROCESS_NAME)
        + wire.messages(3, lines)
        + wire.messages(4, event_md)
        + wire.messages(5, stat_md)
    )
    # XSpace: planes=1, hostnames=4
    return wire.messages(1, [plane]) + wire.str_field(4, hostname, always=True)
