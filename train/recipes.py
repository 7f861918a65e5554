"""`TrainState` subclasses for models with BatchNorm statistics or dropout.

`TrainState` holds only ``params``. A model with other variable collections, or one that needs
random numbers while training, adds fields by subclassing (the Flax pattern, which works here
because `core.struct` subclasses are pytree dataclasses too). Both recipes are tested in
``tests/train/test_recipes.py``.

**BatchNorm** keeps running averages in the ``batch_stats`` collection. Training updates them,
so ``apply`` must be told the collection is mutable, and the new values must be stored::

    state = BatchStatsTrainState.create(apply_fn=model.apply, params=variables["params"],
                                        batch_stats=variables["batch_stats"], tx=tx)

    @core.jit
    def train_step(state, batch):
        def loss_fn(params):
            logits, updates = state.apply_fn(
                {"params": params, "batch_stats": state.batch_stats}, batch["image"],
                train=True, mutable=["batch_stats"])
            loss = optim.softmax_cross_entropy_with_integer_labels(
                logits, batch["label"]).mean()
            return loss, updates
        (loss, updates), grads = core.value_and_grad(loss_fn, has_aux=True)(state.params)
        return state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"]), loss

    # evaluation uses the averages and changes nothing:
    logits = state.apply_fn(state.variables(), batch["image"], train=False)

**Dropout** needs a fresh key at every step. Store one key in the state and derive the step's
key from it with ``fold_in(key, step)``: nothing to split or thread by hand, and a resumed run
draws the same masks as an uninterrupted one::

    state = DropoutTrainState.create(apply_fn=model.apply, params=variables["params"],
                                     dropout_key=random.key(1), tx=tx)

    @core.jit
    def train_step(state, batch):
        def loss_fn(params):
            logits = state.apply_fn({"params": params}, batch["image"], train=True,
                                    rngs=state.rngs())
            ...

For a model with both, inherit from both:
``class State(BatchStatsTrainState, DropoutTrainState): pass``.
"""

from __future__ import annotations

from typing import Any

from core import random

from .train_state import TrainState

__all__ = ["BatchStatsTrainState", "DropoutTrainState"]


class BatchStatsTrainState(TrainState):
    """A `TrainState` that also carries the ``batch_stats`` collection (BatchNorm averages).

    Attributes:
        batch_stats: ``variables["batch_stats"]`` from ``model.init``; replace it with
            ``updates["batch_stats"]`` after each training step (``apply_gradients`` takes it as
            a keyword).
    """

    batch_stats: Any

    def variables(self) -> dict[str, Any]:
        """The variables to pass to ``apply_fn``: ``{"params": ..., "batch_stats": ...}``."""
        return {"params": self.params, "batch_stats": self.batch_stats}


class DropoutTrainState(TrainState):
    """A `TrainState` that carries a PRNG key for dropout (or any other random stream).

    Attributes:
        dropout_key: a `core.random` key; the key for step ``s`` is ``fold_in(dropout_key, s)``.
    """

    dropout_key: Any

    def rngs(self, name: str = "dropout") -> dict[str, Any]:
        """The ``rngs`` argument for this step: ``{name: fold_in(dropout_key, step)}``.

        Args:
            name: the RNG stream the model asks for (``nn.Dropout`` uses ``"dropout"``).

        Returns:
            A dict to pass as ``apply_fn(..., rngs=state.rngs())``.
        """
        return {name: random.fold_in(self.dropout_key, self.step)}
