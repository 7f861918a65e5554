"""`train.prefetch_iterator` (``flax.training.prefetch_iterator``): reading ahead keeps the
items and their order, raises the source's error after the items read before it (again on
the next call, as Flax's does), stops on `close`, and warns as deprecated (Flax 0.12.8)."""

import pytest

from train.prefetch_iterator import PrefetchIterator


def test_items_in_order_and_the_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="PrefetchIterator is deprecated"):
        batches = PrefetchIterator(iter(range(5)), buffer_size=2)
    assert list(batches) == [0, 1, 2, 3, 4]


def _failing():
    yield 1
    raise ValueError("boom")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_sources_error_comes_after_its_items_and_stays():
    batches = PrefetchIterator(_failing())
    assert next(batches) == 1
    for _ in range(2):
        with pytest.raises(ValueError, match="boom"):
            next(batches)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_close_ends_iteration():
    batches = PrefetchIterator(iter(range(100)), buffer_size=1)
    first = next(batches)
    batches.close()
    assert first == 0 and len(list(batches)) <= 1
