"""`jax.monitoring`: named events for metrics collectors.

A program (or a library) records events, durations, time spans and scalars; every registered
listener is called with them, e.g. to forward them to a metrics service::

    core.monitoring.register_event_duration_secs_listener(
        lambda event, duration, **kw: print(event, duration))
    core.monitoring.record_event_duration_secs("/my/step", 0.25)

numbax's own tracing and compilation record no events (JAX's `/jax/core/compile/...` ones do
not exist here); listeners see what the program records.
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = [
    "clear_event_listeners",
    "record_event",
    "record_event_duration_secs",
    "record_event_time_span",
    "record_scalar",
    "register_event_duration_secs_listener",
    "register_event_listener",
    "register_event_time_span_listener",
    "register_scalar_listener",
    "unregister_event_duration_listener",
    "unregister_event_listener",
    "unregister_event_time_span_listener",
    "unregister_scalar_listener",
]


class EventListenerWithMetadata(Protocol):
    """``listener(event, **kwargs)``."""

    def __call__(self, event: str, **kwargs: str | int) -> None: ...


class EventDurationListenerWithMetadata(Protocol):
    """``listener(event, duration_secs, **kwargs)``."""

    def __call__(self, event: str, duration_secs: float, **kwargs: str | int) -> None: ...


class EventTimeSpanListenerWithMetadata(Protocol):
    """``listener(event, start_time, end_time, **kwargs)``."""

    def __call__(
        self, event: str, start_time: float, end_time: float, **kwargs: str | int
    ) -> None: ...


class ScalarListenerWithMetadata(Protocol):
    """``listener(event, value, **kwargs)``."""

    def __call__(self, event: str, value: float | int, **kwargs: str | int) -> None: ...


_event_listeners: list[Any] = []
_event_duration_secs_listeners: list[Any] = []
_event_time_span_listeners: list[Any] = []
_scalar_listeners: list[Any] = []


def record_event(event: str, **kwargs: str | int) -> None:
    """Calls every event listener with ``(event, **kwargs)``.

    Args:
      event: the event's name (by convention a path, ``"/my/event"``).
      **kwargs: metadata, passed in the same order for every call of the same event.
    """
    for callback in _event_listeners:
        callback(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Calls every duration listener with ``(event, duration, **kwargs)``.

    Args:
      event: the event's name.
      duration: the duration in seconds.
      **kwargs: metadata.
    """
    for callback in _event_duration_secs_listeners:
        callback(event, duration, **kwargs)


def record_event_time_span(
    event: str, start_time: float, end_time: float, **kwargs: str | int
) -> None:
    """Calls every time span listener with ``(event, start_time, end_time, **kwargs)``.

    Args:
      event: the event's name.
      start_time, end_time: the span's ends, in seconds.
      **kwargs: metadata.
    """
    for callback in _event_time_span_listeners:
        callback(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: str | int) -> None:
    """Calls every scalar listener with ``(event, value, **kwargs)``.

    Args:
      event: the event's name.
      value: the scalar.
      **kwargs: metadata.
    """
    for callback in _scalar_listeners:
        callback(event, value, **kwargs)


def register_event_listener(callback: EventListenerWithMetadata) -> None:
    """Registers a listener of `record_event`.

    Args:
      callback: ``callback(event, **kwargs)``.
    """
    _event_listeners.append(callback)


def register_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    """Registers a listener of `record_event_time_span`.

    Args:
      callback: ``callback(event, start_time, end_time, **kwargs)``.
    """
    _event_time_span_listeners.append(callback)


def register_event_duration_secs_listener(callback: EventDurationListenerWithMetadata) -> None:
    """Registers a listener of `record_event_duration_secs`.

    Args:
      callback: ``callback(event, duration_secs, **kwargs)``.
    """
    _event_duration_secs_listeners.append(callback)


def register_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    """Registers a listener of `record_scalar`.

    Args:
      callback: ``callback(event, value, **kwargs)``.
    """
    _scalar_listeners.append(callback)


def clear_event_listeners() -> None:
    """Unregisters every listener of every kind."""
    for listeners in (
        _event_listeners,
        _event_duration_secs_listeners,
        _event_time_span_listeners,
        _scalar_listeners,
    ):
        listeners.clear()


def _unregister(listeners: list, callback: Any) -> None:
    # JAX asserts the callback is registered (AssertionError otherwise)
    assert callback in listeners
    listeners.remove(callback)


def unregister_event_listener(callback: EventListenerWithMetadata) -> None:
    """Unregisters an event listener.

    Args:
      callback: a registered listener (AssertionError otherwise, as JAX).
    """
    _unregister(_event_listeners, callback)


def unregister_event_duration_listener(callback: EventDurationListenerWithMetadata) -> None:
    """Unregisters a duration listener.

    Args:
      callback: a registered listener (AssertionError otherwise, as JAX).
    """
    _unregister(_event_duration_secs_listeners, callback)


def unregister_event_time_span_listener(callback: EventTimeSpanListenerWithMetadata) -> None:
    """Unregisters a time span listener.

    Args:
      callback: a registered listener (AssertionError otherwise, as JAX).
    """
    _unregister(_event_time_span_listeners, callback)


def unregister_scalar_listener(callback: ScalarListenerWithMetadata) -> None:
    """Unregisters a scalar listener.

    Args:
      callback: a registered listener (AssertionError otherwise, as JAX).
    """
    _unregister(_scalar_listeners, callback)
