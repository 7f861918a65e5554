"""The bounded, thread-safe record behind the process's memos (`core/bounded_record.py`)."""

from __future__ import annotations

import pytest

from core.bounded_record import BoundedRecord


@pytest.mark.parametrize(
    "recency, kept",
    [(False, ["b", "c"]), (True, ["a", "c"])],  # a `get` of "a" keeps it only with recency
)
def test_the_oldest_entry_goes_past_the_bound(recency, kept):
    record = BoundedRecord(2, recency=recency)
    record.put("a", 1)
    record.put("b", 2)
    assert record.get("a") == 1
    record.put("c", 3)
    assert len(record) == 2
    assert [k for k in "abc" if k in record] == kept


def test_values_none_and_defaults_are_told_apart():
    record = BoundedRecord(4)
    record.put("none", None)
    missing = object()
    assert record.get("none", missing) is None
    assert record.get("absent", missing) is missing
    assert record.get("absent") is None


def test_put_of_a_kept_key_replaces_it_as_the_newest():
    record = BoundedRecord(2)
    record.put("a", 1)
    record.put("b", 2)
    record.put("a", 10)
    record.put("c", 3)
    assert record.get("a") == 10 and "b" not in record and len(record) == 2


def test_a_callable_bound_is_read_at_every_put():
    bound = [3]
    record = BoundedRecord(lambda: bound[0])
    for k in range(3):
        record.put(k, k)
    bound[0] = 1
    record.put(3, 3)
    assert len(record) == 1 and record.get(3) == 3
    record.clear()
    assert len(record) == 0


@pytest.mark.parametrize("recency", [False, True])
def test_threads_evicting_one_another_raise_nothing(recency, run_threads):
    # With room for one entry every put evicts another thread's key while the others read
    # theirs: a dict without the lock raised KeyError (a key found, then evicted, then read).
    record = BoundedRecord(1, recency=recency)

    def work(i: int) -> None:
        for n in range(20000):
            record.put(i, n)
            value = record.get(i)
            assert value is None or value <= n

    run_threads(work, 8)
    assert len(record) == 1
