"""`core.monitoring` (`jax.monitoring`): listeners of each kind get what the program records,
unregistering needs a registered listener (JAX's AssertionError), clearing removes all."""

from __future__ import annotations

import pytest

from core import monitoring


def test_listeners_receive_records():
    seen = []
    listeners = [
        (monitoring.register_event_listener, lambda e, **kw: seen.append(("event", e, kw))),
        (
            monitoring.register_event_duration_secs_listener,
            lambda e, d, **kw: seen.append(("duration", e, d, kw)),
        ),
        (
            monitoring.register_event_time_span_listener,
            lambda e, s, t, **kw: seen.append(("span", e, s, t, kw)),
        ),
        (monitoring.register_scalar_listener, lambda e, v, **kw: seen.append(("scalar", e, v, kw))),
    ]
    for register, listener in listeners:
        register(listener)
    try:
        monitoring.record_event("/a", step=1)
        monitoring.record_event_duration_secs("/b", 0.5, kind="x")
        monitoring.record_event_time_span("/c", 1.0, 2.0)
        monitoring.record_scalar("/d", 3)
        assert seen == [
            ("event", "/a", {"step": 1}),
            ("duration", "/b", 0.5, {"kind": "x"}),
            ("span", "/c", 1.0, 2.0, {}),
            ("scalar", "/d", 3, {}),
        ]
        monitoring.unregister_event_listener(listeners[0][1])
        monitoring.record_event("/a")
        assert len(seen) == 4
        with pytest.raises(AssertionError):
            monitoring.unregister_event_listener(listeners[0][1])
    finally:
        monitoring.clear_event_listeners()
    monitoring.record_scalar("/d", 3)
    assert len(seen) == 4
