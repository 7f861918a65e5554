"""Metrics: values, masks, merging, collections, and use inside jit."""

import numpy as np
import pytest

import core
from core import tree_util
from train.errors import MetricMergeError, MetricNameError
from train.metrics import Accuracy, Average, Collection, LastValue


class Metrics(Collection):
    loss: Average.from_output("loss")
    accuracy: Accuracy


LOGITS = np.array([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 5.0], [4.0, 0.0, 0.0]], np.float32)
LABELS = np.array([0, 1, 0, 1], np.int32)  # rows 0 and 1 correct


@pytest.mark.parametrize(
    "values, mask, expected",
    [
        (np.array([1.0, 2.0, 3.0, 6.0]), None, 3.0),
        (np.float32(2.5), None, 2.5),
        (np.array([1.0, 2.0, 3.0, 6.0]), np.array([1, 1, 0, 0]), 1.5),
        (np.array([[1.0, 3.0], [5.0, 7.0]]), np.array([[1], [0]]), 2.0),
    ],
    ids=["vector", "scalar", "mask", "broadcast-mask"],
)
def test_average(values, mask, expected):
    metric = Average.from_model_output(values, mask=mask)
    np.testing.assert_allclose(float(metric.compute()), expected)
    merged = Average.empty().merge(metric).merge(Average.empty())
    np.testing.assert_allclose(float(merged.compute()), expected)


def test_average_merge_weights_by_count():
    a = Average.from_model_output(np.array([1.0, 1.0, 1.0]))
    b = Average.from_model_output(np.array([5.0]))
    np.testing.assert_allclose(float(a.merge(b).compute()), 2.0)
    np.testing.assert_allclose(float(b.merge(a).compute()), 2.0)
    assert np.isnan(float(Average.empty().compute()))


@pytest.mark.parametrize(
    "mask, expected", [(None, 0.5), (np.array([1, 1, 0, 1]), 2 / 3), (np.array([0, 0, 1, 1]), 0.0)]
)
def test_accuracy(mask, expected):
    metric = Accuracy.from_model_output(logits=LOGITS, labels=LABELS, mask=mask)
    np.testing.assert_allclose(float(metric.compute()), expected, rtol=1e-6)


def test_last_value():
    metric = LastValue.empty().merge(LastValue.from_model_output(0.1))
    metric = metric.merge(LastValue.from_model_output(np.float32(0.01)))
    np.testing.assert_allclose(float(metric.compute()), 0.01, rtol=1e-6)


def test_collection():
    metrics = Metrics.empty()
    for loss, rows in ((4.0, slice(0, 2)), (1.0, slice(2, 4))):
        batch = Metrics.single_from_model_output(
            loss=np.float32(loss), logits=LOGITS[rows], labels=LABELS[rows]
        )
        metrics = metrics.merge(batch)
    values = metrics.compute()
    assert set(values) == {"loss", "accuracy"}
    np.testing.assert_allclose(float(values["loss"]), 2.5)
    np.testing.assert_allclose(float(values["accuracy"]), 0.5)
    assert Metrics.gather_from_model_output.__func__ is Metrics.single_from_model_output.__func__
    assert Average.from_output("loss") is Average.from_output("loss")
    assert len(tree_util.tree_leaves(metrics)) == 4


def test_collection_inside_jit():
    @core.jit
    def step(metrics, logits, labels):
        loss = -logits.mean()
        return metrics.merge(
            Metrics.single_from_model_output(loss=loss, logits=logits, labels=labels)
        )

    metrics = Metrics.empty()
    for rows in (slice(0, 2), slice(2, 4)):
        metrics = step(metrics, LOGITS[rows], LABELS[rows])
    values = metrics.compute()
    expected_loss = np.mean([-LOGITS[:2].mean(), -LOGITS[2:].mean()])
    np.testing.assert_allclose(float(values["loss"]), expected_loss, rtol=1e-6)
    np.testing.assert_allclose(float(values["accuracy"]), 0.5)


def test_errors():
    with pytest.raises(MetricNameError, match="'loss'.*labels, logits"):
        Metrics.single_from_model_output(logits=LOGITS, labels=LABELS)
    with pytest.raises(MetricMergeError, match="Average with Accuracy"):
        Average.empty().merge(Accuracy.empty())
    with pytest.raises(MetricMergeError):
        Metrics.empty().merge(Average.empty())
