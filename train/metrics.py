"""Metrics as pytrees: running averages that can be built, merged and computed inside `jit`.

Modelled on ``clu.metrics`` (which Flax's examples use). A `Metric` is a frozen pytree
dataclass holding sufficient statistics (e.g. a total and a count), with

* ``empty()``: the identity for ``merge``;
* ``from_model_output(...)``: the statistics of one batch;
* ``merge(other)``: the statistics of both (associative, so batches can be merged in any order);
* ``compute()``: the value (e.g. ``total / count``).

A `Collection` groups named metrics; the field annotations say which metric each one is::

    class Metrics(Collection):
        loss: Average.from_output("loss")
        accuracy: Accuracy

    @core.jit
    def train_step(state, metrics, batch):
        ...
        batch_metrics = Metrics.single_from_model_output(loss=loss, logits=logits,
                                                         labels=batch["label"])
        return state, metrics.merge(batch_metrics)

    metrics = Metrics.empty()
    for batch in ...:
        state, metrics = train_step(state, metrics, batch)
    print(metrics.compute())       # {"loss": ..., "accuracy": ...}

Everything here is made of `core.numpy` operations on float32 scalars, so the same code runs
eagerly or traced.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

import core.numpy as jnp
from core import struct

from .errors import MetricMergeError, MetricNameError

__all__ = ["Accuracy", "Average", "Collection", "LastValue", "Metric"]


class Metric(struct.PyTreeNode):
    """Base class of metrics; subclasses are pytree dataclasses of statistics."""

    @classmethod
    def empty(cls) -> Metric:
        """The metric of no data, the identity of `merge`."""
        raise NotImplementedError

    @classmethod
    def from_model_output(cls, *args: Any, **kwargs: Any) -> Metric:
        """The metric of one batch of model outputs."""
        raise NotImplementedError

    def merge(self, other: Metric) -> Metric:
        """The metric of the data of ``self`` and of ``other``."""
        raise NotImplementedError

    def compute(self) -> Any:
        """The value of the metric."""
        raise NotImplementedError

    def _check_same(self, other: Any) -> None:
        if type(other) is not type(self):
            raise MetricMergeError(self, other)

    @classmethod
    @functools.cache
    def from_output(cls, name: str) -> type[Metric]:
        """A subclass whose ``from_model_output(**outputs)`` reads ``outputs[name]``.

        For use in `Collection` annotations: ``loss: Average.from_output("loss")``.

        Args:
            name: the keyword under which the model output is passed.

        Returns:
            A `Metric` subclass (the same class for the same ``cls`` and ``name``); ``mask``
            is passed through when given.
        """
        parent = cls

        class FromOutput(parent):
            @classmethod
            def from_model_output(cls, **outputs: Any) -> Metric:
                if name not in outputs:
                    raise MetricNameError(f"{parent.__name__}.from_output({name!r})", name, outputs)
                mask = outputs.get("mask")
                return super().from_model_output(outputs[name], mask=mask)

        FromOutput.__name__ = FromOutput.__qualname__ = f"{parent.__name__}_{name}"
        return FromOutput


def _masked_sum_count(values: Any, mask: Any) -> tuple[Any, Any]:
    values = jnp.asarray(values, dtype=jnp.float32)
    if mask is None:
        return jnp.sum(values), jnp.asarray(values.size, dtype=jnp.float32)
    mask = jnp.broadcast_to(jnp.asarray(mask, dtype=jnp.float32), values.shape)
    return jnp.sum(values * mask), jnp.sum(mask)


class Average(Metric):
    """The mean of all values seen (optionally masked).

    Attributes:
        total: the float32 sum of the values.
        count: the float32 number of values (a float so the statistics share one dtype).
    """

    total: Any
    count: Any

    @classmethod
    def empty(cls) -> Average:
        """Zero total and count."""
        return cls(total=jnp.zeros((), jnp.float32), count=jnp.zeros((), jnp.float32))

    @classmethod
    def from_model_output(cls, values: Any, mask: Any = None, **_: Any) -> Average:
        """The sum and count of ``values`` (a scalar counts as one value).

        Args:
            values: an array of values, e.g. per-example losses, or a scalar batch mean.
            mask: optional array broadcastable to ``values``; 0 excludes a value.

        Returns:
            The metric of this batch.
        """
        total, count = _masked_sum_count(values, mask)
        return cls(total=total, count=count)

    def merge(self, other: Average) -> Average:
        """Adds the totals and the counts."""
        self._check_same(other)
        return type(self)(total=self.total + other.total, count=self.count + other.count)

    def compute(self) -> Any:
        """``total / count`` (NaN when nothing was seen)."""
        return self.total / self.count


class Accuracy(Average):
    """The fraction of examples whose ``argmax(logits)`` equals the integer label."""

    @classmethod
    def from_model_output(cls, *, logits: Any, labels: Any, mask: Any = None, **_: Any) -> Accuracy:
        """The number of correct predictions and of examples in this batch.

        Args:
            logits: ``[batch, num_classes]`` scores.
            labels: ``[batch]`` integer labels.
            mask: optional ``[batch]`` weights (0 excludes an example).

        Returns:
            The metric of this batch.
        """
        correct = jnp.argmax(logits, axis=-1) == jnp.asarray(labels)
        return super().from_model_output(correct, mask=mask)


class LastValue(Metric):
    """The value of the most recently merged batch (e.g. a learning rate).

    Attributes:
        value: the float32 value.
    """

    value: Any

    @classmethod
    def empty(cls) -> LastValue:
        """NaN, replaced by the first merge."""
        return cls(value=jnp.asarray(float("nan"), dtype=jnp.float32))

    @classmethod
    def from_model_output(cls, value: Any, mask: Any = None, **_: Any) -> LastValue:
        """Keeps ``value`` (its mean when it is an array)."""
        return cls(value=jnp.mean(jnp.asarray(value, dtype=jnp.float32)))

    def merge(self, other: LastValue) -> LastValue:
        """Keeps the value of ``other``."""
        self._check_same(other)
        return other

    def compute(self) -> Any:
        """The value."""
        return self.value


class Collection(struct.PyTreeNode):
    """Named metrics; declare each as a field annotated with its `Metric` class.

    Subclasses are pytree dataclasses automatically (no decorator needed). Every metric gets
    all keyword arguments of `single_from_model_output` and uses the ones it needs.
    """

    @classmethod
    @functools.cache
    def _metric_types(cls) -> dict[str, type[Metric]]:
        hints = typing.get_type_hints(cls)
        return {f.name: hints[f.name] for f in dataclasses.fields(cls)}

    @classmethod
    def empty(cls) -> Collection:
        """Every metric empty."""
        return cls(**{name: m.empty() for name, m in cls._metric_types().items()})

    @classmethod
    def single_from_model_output(cls, **outputs: Any) -> Collection:
        """Every metric of one batch, each from the keyword arguments it reads.

        Args:
            **outputs: model outputs, e.g. ``loss=..., logits=..., labels=..., mask=...``.

        Returns:
            The collection of this batch.
        """
        return cls(**{n: m.from_model_output(**outputs) for n, m in cls._metric_types().items()})

    gather_from_model_output = single_from_model_output

    def merge(self, other: Collection) -> Collection:
        """Merges metric by metric."""
        if type(other) is not type(self):
            raise MetricMergeError(self, other)
        names = [f.name for f in dataclasses.fields(self)]
        return type(self)(**{n: getattr(self, n).merge(getattr(other, n)) for n in names})

    def compute(self) -> dict[str, Any]:
        """Every metric's value, as a dict keyed by field name."""
        return {f.name: getattr(self, f.name).compute() for f in dataclasses.fields(self)}
