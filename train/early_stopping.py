"""``flax.training.early_stopping``: stop when a metric has not improved for a while."""

from __future__ import annotations

import math

from core import struct

__all__ = ["EarlyStopping"]


class EarlyStopping(struct.PyTreeNode):
    """Early stopping on a metric to minimize (as ``flax.training.early_stopping``).

    Example::

        early_stop = EarlyStopping(min_delta=1e-3, patience=2)
        for epoch in range(num_epochs):
            ...
            early_stop = early_stop.update(test_metrics["loss"])
            if early_stop.should_stop:
                break

    Attributes:
        min_delta: the least decrease of the metric that counts as an improvement.
        patience: updates without improvement tolerated before ``should_stop``.
        best_metric: the best (lowest) value so far (inf before the first update).
        patience_count: updates since the last improvement.
        should_stop: whether to stop training (stays True once set, until `reset`).
        has_improved: whether the last `update` improved by more than ``min_delta``.
    """

    min_delta: float = 0
    patience: int = 0
    best_metric: float = float("inf")
    patience_count: int = 0
    should_stop: bool = False
    has_improved: bool = False

    def reset(self) -> EarlyStopping:
        """A copy with the best metric, the count and the flags cleared (settings kept)."""
        return self.replace(
            best_metric=float("inf"), patience_count=0, should_stop=False, has_improved=False
        )

    def update(self, metric: float) -> EarlyStopping:
        """The state after one more value of the metric.

        Args:
            metric: the new value (lower is better).

        Returns:
            A copy whose ``has_improved`` says whether ``metric`` beat ``best_metric`` by more
            than ``min_delta``; ``should_stop`` is set when ``patience_count`` had already
            reached ``patience`` without improvement.
        """
        if math.isinf(self.best_metric) or self.best_metric - metric > self.min_delta:
            return self.replace(best_metric=metric, patience_count=0, has_improved=True)
        should_stop = self.patience_count >= self.patience or self.should_stop
        return self.replace(
            patience_count=self.patience_count + 1, should_stop=should_stop, has_improved=False
        )
