"""Composing transformations: `chain`, `named_chain`, `partition` (alias `multi_transform`),
`freeze` and `selective_transform`.

`chain(a, b)` feeds the updates through `a` then `b`; its state is the tuple of their states, so
`opt_state[0]` is the first transformation's state. `partition` gives each group of parameters
(PyTorch's "parameter groups") its own transformation, chosen by a label per leaf.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Hashable, Mapping
from typing import Any, NamedTuple

from core import tree_util
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    set_to_zero,
    with_extra_args_support,
)
from optim.errors import DuplicateNameError, StateMismatchError, UnknownLabelError
from optim.wrappers import masked


class PartitionState(NamedTuple):
    """State of `partition`: one (masked) inner state per label."""

    inner_states: Mapping[Hashable, Any]


MultiTransformState = PartitionState


def chain(*args: GradientTransformation) -> GradientTransformationExtraArgs:
    """Applies the transformations one after the other.

    Args:
      *args: the transformations, first applied first.

    Returns:
      A `GradientTransformationExtraArgs` whose state is the tuple of the inner states.
    """
    transforms = [with_extra_args_support(t) for t in args]

    def init_fn(params):
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates, state, params=None, **extra_args):
        if len(state) != len(transforms):
            raise StateMismatchError(
                "The number of updates and states has to be the same in chain! Make sure you "
                f"have called init first!\nThis chain of {len(transforms)} transformations got "
                f"a state with {len(state)} entries: pass the state of this optimizer's `init`."
            )
        new_state = []
        for i, (s, t) in enumerate(zip(state, transforms)):
            try:
                updates, new_s = t.update(updates, s, params, **extra_args)
            except AttributeError as err:
                if getattr(err, "obj", None) is not s:
                    raise
                raise StateMismatchError(
                    f"transformation {i} of the chain got a state of type {type(s).__name__} "
                    f"without the field {err.name!r} it reads: the state was made by another "
                    "optimizer's `init`. Call `init` of this optimizer (or restore a "
                    "checkpoint saved with it) to get its state."
                ) from err
            new_state.append(new_s)
        return updates, tuple(new_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


def named_chain(*args: tuple[str, GradientTransformation]) -> GradientTransformationExtraArgs:
    """Like `chain`, but the state is a dict keyed by the given names.

    Args:
      *args: `(name, transformation)` pairs with unique names.

    Returns:
      A `GradientTransformationExtraArgs` whose state is an ``OrderedDict`` ``{name: state}``
      in the given order, as Optax's (a pytree keeping that order: a plain dict's leaves
      would be sorted by name).
    """
    names = [name for name, _ in args]
    if len(names) != len(set(names)):
        raise DuplicateNameError(
            f"Named transformations must have unique names, but got {names}\n"
            "Give each (name, transformation) pair of named_chain its own name."
        )
    transforms = [(name, with_extra_args_support(t)) for name, t in args]

    def init_fn(params):
        return collections.OrderedDict((name, t.init(params)) for name, t in transforms)

    def update_fn(updates, state, params=None, **extra_args):
        new_state = collections.OrderedDict()
        for name, t in transforms:
            updates, new_state[name] = t.update(updates, state[name], params, **extra_args)
        return updates, new_state

    return GradientTransformationExtraArgs(init_fn, update_fn)


def partition(
    transforms: Mapping[Hashable, GradientTransformation],
    param_labels: Any | Callable[[Any], Any],
    *,
    mask_compatible_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Applies a different transformation to each group of parameters.

    Args:
      transforms: `{label: transformation}`.
      param_labels: a pytree of labels shaped like (a prefix of) the params, or a function
        `params -> labels`.
      mask_compatible_extra_args: forwarded to `masked`.

    Returns:
      A `GradientTransformationExtraArgs` with state `PartitionState(inner_states)`.
    """
    transforms = {k: with_extra_args_support(v) for k, v in transforms.items()}

    def masked_for(labels, group):
        mask = tree_util.tree_map(lambda label: label == group, labels)
        return masked(
            transforms[group], mask, mask_compatible_extra_args=mask_compatible_extra_args
        )

    def init_fn(params):
        labels = param_labels(params) if callable(param_labels) else param_labels
        label_set = set(tree_util.tree_leaves(labels))
        if not label_set.issubset(transforms.keys()):
            raise UnknownLabelError(
                "Some parameters have no corresponding transformation.\n"  # Optax's first line
                f"Parameter labels: {sorted(map(str, label_set))}; transforms keys: "
                f"{sorted(map(str, transforms))}. Give every label a transformation."
            )
        return PartitionState({g: masked_for(labels, g).init(params) for g in transforms})

    def update_fn(updates, state, params=None, **extra_args):
        labels = param_labels(updates) if callable(param_labels) else param_labels
        new_inner = {}
        for group in transforms:
            updates, new_inner[group] = masked_for(labels, group).update(
                updates, state.inner_states[group], params, **extra_args
            )
        return updates, PartitionState(new_inner)

    return GradientTransformationExtraArgs(init_fn, update_fn)


multi_transform = partition


def freeze(mask: Any) -> GradientTransformationExtraArgs:
    """Sets the updates of the leaves where `mask` is True to zero (frozen parameters).

    Args:
      mask: a pytree of bools with the params' structure (or a function of the params returning
        one): True where the params stay fixed.

    Returns:
      A `GradientTransformationExtraArgs`.
    """
    return masked(set_to_zero(), mask)


def selective_transform(
    optimizer: GradientTransformation, *, freeze_mask: Any
) -> GradientTransformationExtraArgs:
    """Applies `optimizer` to the leaves where `freeze_mask` is False and freezes the others.

    Args:
      optimizer: the transformation for the trainable leaves.
      freeze_mask: a pytree of bools (or a function of the params returning one): True where the
        params stay fixed.

    Returns:
      A `GradientTransformationExtraArgs`.
    """

    def label_fn(params):
        del params
        return tree_util.tree_map(lambda m: "freeze" if m else "train", freeze_mask)

    return partition({"train": optimizer, "freeze": set_to_zero()}, param_labels=label_fn)
