"""`TrainState`: the parameters, the optimizer and its state in one pytree.

The `flax.training.train_state.TrainState` analogue. It is a frozen `core.struct.PyTreeNode`:
``step``, ``params`` and ``opt_state`` are pytree children (traced by `core.jit`, saved by
`train.checkpoints`), while ``apply_fn`` and ``tx`` are static fields kept in the treedef, so a
jitted ``train_step(state, batch)`` takes and returns the whole state::

    state = TrainState.create(apply_fn=model.apply, params=variables["params"], tx=optim.adam(1e-3))

    @core.jit
    def train_step(state, batch):
        def loss_fn(params):
            logits = state.apply_fn({"params": params}, batch["image"])
            return optim.softmax_cross_entropy_with_integer_labels(logits, batch["label"]).mean()
        grads = core.grad(loss_fn)(state.params)
        return state.apply_gradients(grads=grads)

Models with other variable collections or random streams extend it by subclassing; see
`train.recipes` for ``batch_stats`` (BatchNorm) and a dropout key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import optim
from core import struct

__all__ = ["OVERWRITE_WITH_GRADIENT", "TrainState"]

OVERWRITE_WITH_GRADIENT = "_overwrite_with_gradient"
"""Flax's collection of variables replaced by their "gradient" instead of optimized (the fp8
scales): when ``params`` (and ``grads``) hold this key next to ``'params'``, only
``params['params']`` goes through ``tx`` and the collection is overwritten by
``grads[OVERWRITE_WITH_GRADIENT]``."""


def _has_owg(tree: Any) -> bool:
    return isinstance(tree, Mapping) and OVERWRITE_WITH_GRADIENT in tree


class TrainState(struct.PyTreeNode):
    """Train state for the common case of one optimizer and a single ``apply_fn``.

    Example::

        x = jnp.ones((1, 2)); y = jnp.ones((1, 2))
        model = nn.Dense(2)
        variables = model.init(random.key(0), x)
        state = TrainState.create(apply_fn=model.apply, params=variables["params"],
                                  tx=optim.adam(1e-3))
        loss_fn = lambda params, x, y: optim.l2_loss(
            state.apply_fn({"params": params}, x), y).mean()
        loss_fn(state.params, x, y)           # 1.8136346
        grads = core.grad(loss_fn)(state.params, x, y)
        state = state.apply_gradients(grads=grads)
        loss_fn(state.params, x, y)           # 1.8079796

    Attributes:
        step: the number of `apply_gradients` calls so far (0 after `create`).
        apply_fn: usually ``model.apply``; static (not a pytree child).
        params: the parameters to be updated by ``tx``.
        tx: an `optim.GradientTransformation`; static.
        opt_state: the state of ``tx``.
    """

    step: Any
    apply_fn: Callable = struct.field(pytree_node=False)
    params: Any = struct.field(pytree_node=True)
    tx: Any = struct.field(pytree_node=False)
    opt_state: Any = struct.field(pytree_node=True)

    def apply_gradients(self, *, grads: Any, **kwargs: Any) -> TrainState:
        """Updates ``step``, ``params`` and ``opt_state`` with ``grads``.

        Args:
            grads: gradients with the same tree structure as ``params`` (with an
                ``OVERWRITE_WITH_GRADIENT`` entry, only ``grads['params']`` is optimized and that
                entry replaces the one of ``params``).
            **kwargs: other fields to replace at the same time (e.g. ``batch_stats=...``).

        Returns:
            A new state with ``step + 1``, ``params`` moved by the updates of ``tx`` and the new
            ``opt_state``; other fields as given in ``kwargs`` or unchanged.
        """
        owg = _has_owg(grads)
        grads_opt = grads["params"] if owg else grads
        params_opt = self.params["params"] if owg else self.params
        updates, new_opt_state = self.tx.update(grads_opt, self.opt_state, params_opt)
        new_params = optim.apply_updates(params_opt, updates)
        if owg:
            new_params = {
                "params": new_params,
                OVERWRITE_WITH_GRADIENT: grads[OVERWRITE_WITH_GRADIENT],
            }
        return self.replace(
            step=self.step + 1, params=new_params, opt_state=new_opt_state, **kwargs
        )

    @classmethod
    def create(cls, *, apply_fn: Callable, params: Any, tx: Any, **kwargs: Any) -> TrainState:
        """Creates a state with ``step=0`` and ``opt_state=tx.init(params)``.

        Args:
            apply_fn: the function computing the model's output, usually ``model.apply``.
            params: the parameters (e.g. ``variables["params"]``).
            tx: the optimizer, an `optim.GradientTransformation`.
            **kwargs: values of the fields a subclass adds (e.g. ``batch_stats=...``).

        Returns:
            The new state.
        """
        opt_state = tx.init(params["params"] if _has_owg(params) else params)
        return cls(step=0, apply_fn=apply_fn, params=params, tx=tx, opt_state=opt_state, **kwargs)
