"""Decoders for the profile formats, built with the `protobuf` package from the published
.proto definitions (github.com/google/pprof proto/profile.proto; xla/tsl/profiler/protobuf/
xplane.proto), independently of numbax's hand-written encoder."""

from __future__ import annotations

import gzip

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_T = descriptor_pb2.FieldDescriptorProto
_TYPES = {
    "int64": _T.TYPE_INT64,
    "uint64": _T.TYPE_UINT64,
    "bool": _T.TYPE_BOOL,
    "string": _T.TYPE_STRING,
    "bytes": _T.TYPE_BYTES,
    "double": _T.TYPE_DOUBLE,
}

# message -> [(field name, number, type, repeated)]; a type not in _TYPES is a message
PROFILE = {
    "Profile": [
        ("sample_type", 1, "ValueType", True),
        ("sample", 2, "Sample", True),
        ("mapping", 3, "Mapping", True),
        ("location", 4, "Location", True),
        ("function", 5, "Function", True),
        ("string_table", 6, "string", True),
        ("drop_frames", 7, "int64", False),
        ("keep_frames", 8, "int64", False),
        ("time_nanos", 9, "int64", False),
        ("duration_nanos", 10, "int64", False),
        ("period_type", 11, "ValueType", False),
        ("period", 12, "int64", False),
        ("comment", 13, "int64", True),
        ("default_sample_type", 14, "int64", False),
    ],
    "ValueType": [("type", 1, "int64", False), ("unit", 2, "int64", False)],
    "Sample": [
        ("location_id", 1, "uint64", True),
        ("value", 2, "int64", True),
        ("label", 3, "Label", True),
    ],
    "Label": [
        ("key", 1, "int64", False),
        ("str", 2, "int64", False),
        ("num", 3, "int64", False),
        ("num_unit", 4, "int64", False),
    ],
    "Mapping": [
        ("id", 1, "uint64", False),
        ("memory_start", 2, "uint64", False),
        ("memory_limit", 3, "uint64", False),
        ("file_offset", 4, "uint64", False),
        ("filename", 5, "int64", False),
        ("build_id", 6, "int64", False),
        ("has_functions", 7, "bool", False),
        ("has_filenames", 8, "bool", False),
        ("has_line_numbers", 9, "bool", False),
        ("has_inlined_frames", 10, "bool", False),
    ],
    "Location": [
        ("id", 1, "uint64", False),
        ("mapping_id", 2, "uint64", False),
        ("address", 3, "uint64", False),
        ("line", 4, "Line", True),
        ("is_folded", 5, "bool", False),
    ],
    "Line": [("function_id", 1, "uint64", False), ("line", 2, "int64", False)],
    "Function": [
        ("id", 1, "uint64", False),
        ("name", 2, "int64", False),
        ("system_name", 3, "int64", False),
        ("filename", 4, "int64", False),
        ("start_line", 5, "int64", False),
    ],
}

XPLANE = {
    "XSpace": [
        ("planes", 1, "XPlane", True),
        ("errors", 2, "string", True),
        ("warnings", 3, "string", True),
        ("hostnames", 4, "string", True),
    ],
    "XPlane": [
        ("id", 1, "int64", False),
        ("name", 2, "string", False),
        ("lines", 3, "XLine", True),
        ("event_metadata", 4, "EventMetadataEntry", True),
        ("stat_metadata", 5, "StatMetadataEntry", True),
        ("stats", 6, "XStat", True),
    ],
    "EventMetadataEntry": [("key", 1, "int64", False), ("value", 2, "XEventMetadata", False)],
    "StatMetadataEntry": [("key", 1, "int64", False), ("value", 2, "XStatMetadata", False)],
    "XLine": [
        ("id", 1, "int64", False),
        ("display_id", 10, "int64", False),
        ("name", 2, "string", False),
        ("display_name", 11, "string", False),
        ("timestamp_ns", 3, "int64", False),
        ("duration_ps", 9, "int64", False),
        ("events", 4, "XEvent", True),
    ],
    "XEvent": [
        ("metadata_id", 1, "int64", False),
        ("offset_ps", 2, "int64", False),
        ("duration_ps", 3, "int64", False),
        ("stats", 4, "XStat", True),
        ("num_occurrences", 5, "int64", False),
    ],
    "XStat": [
        ("metadata_id", 1, "int64", False),
        ("double_value", 2, "double", False),
        ("uint64_value", 3, "uint64", False),
        ("int64_value", 4, "int64", False),
        ("str_value", 5, "string", False),
        ("bytes_value", 6, "bytes", False),
        ("ref_value", 7, "uint64", False),
    ],
    "XEventMetadata": [
        ("id", 1, "int64", False),
        ("name", 2, "string", False),
        ("display_name", 4, "string", False),
        ("metadata", 3, "bytes", False),
        ("stats", 5, "XStat", True),
        ("child_id", 6, "int64", True),
    ],
    "XStatMetadata": [
        ("id", 1, "int64", False),
        ("name", 2, "string", False),
        ("description", 3, "string", False),
    ],
}


def _classes(package: str, spec: dict) -> dict:
    file = descriptor_pb2.FileDescriptorProto(
        name=f"{package}.proto", package=package, syntax="proto3"
    )
    for message, fields in spec.items():
        m = file.message_type.add(name=message)
        for name, number, typ, repeated in fields:
            f = m.field.add(name=name, number=number)
            f.label = _T.LABEL_REPEATED if repeated else _T.LABEL_OPTIONAL
            if typ in _TYPES:
                f.type = _TYPES[typ]
            else:
                f.type = _T.TYPE_MESSAGE
                f.type_name = f".{package}.{typ}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        m: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{m}"))
        for m in spec
    }


def parse_pprof(data: bytes):
    """A gzipped pprof file -> a `perftools.profiles.Profile` message."""
    profile = _classes("perftools.profiles", PROFILE)["Profile"]()
    profile.ParseFromString(gzip.decompress(data))
    return profile


def parse_xspace(data: bytes):
    """An `.xplane.pb` file -> a `tensorflow.profiler.XSpace` message."""
    space = _classes("tensorflow.profiler", XPLANE)["XSpace"]()
    space.ParseFromString(data)
    return space
