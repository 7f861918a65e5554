"""Pytree arithmetic and state queries (`optax.tree`): `optim.tree.add(x, y)`, `norm`, `get`...

Every function maps leafwise over pytrees with `core.tree_util`, so optimizer code reads like
math on vectors. Moment updates skip `None` leaves (Optax's convention for "no gradient here").
`get`/`set` find state fields by name anywhere in a nested optimizer state, e.g.
`optim.tree.get(opt_state, "learning_rate")` or `optim.tree.set(opt_state, count=0)`.
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import operator
import warnings
from collections.abc import Callable
from typing import Any

import core.numpy as jnp
from core import lax, random, tree_util
from core.prng_key import PRNGKeyArray
from core.tree_util import DictKey, SequenceKey
from optim.errors import NormOrderError, TreeDtypeError, TreeKeyError, UnravelInputError
from optim.numerics import abs_sq, is_complex


def _is_none(x: Any) -> bool:
    return x is None


# ------------------------------------------------------------------ arithmetic


def tree_add(tree_x: Any, tree_y: Any, *other_trees: Any) -> Any:
    """Leafwise `x + y (+ ...)`."""
    return tree_util.tree_map(
        lambda *xs: functools.reduce(operator.add, xs), tree_x, tree_y, *other_trees
    )


def tree_sub(tree_x: Any, tree_y: Any) -> Any:
    """Leafwise `x - y`."""
    return tree_util.tree_map(operator.sub, tree_x, tree_y)


def tree_mul(tree_x: Any, tree_y: Any) -> Any:
    """Leafwise `x * y`."""
    return tree_util.tree_map(operator.mul, tree_x, tree_y)


def tree_div(tree_x: Any, tree_y: Any) -> Any:
    """Leafwise `x / y`."""
    return tree_util.tree_map(operator.truediv, tree_x, tree_y)


def tree_scale(scalar: Any, tree: Any) -> Any:
    """Leafwise `scalar * x`."""
    return tree_util.tree_map(lambda x: scalar * x, tree)


def tree_add_scale(tree_x: Any, scalar: Any, tree_y: Any) -> Any:
    """Leafwise `x + scalar * y` (`None` leaves of `x` stay `None`)."""
    scalar = jnp.asarray(scalar)
    return tree_util.tree_map(
        lambda x, y: None if x is None else x + scalar * y, tree_x, tree_y, is_leaf=_is_none
    )


def tree_vdot(tree_x: Any, tree_y: Any) -> Any:
    """Returns the inner product `sum_i <x_i, y_i>` over all leaves (conjugating `x`): one
    `jnp.vdot` per leaf at the highest precision, as Optax (Python scalars give a weakly typed
    result)."""
    vdots = tree_util.tree_map(
        lambda a, b: jnp.vdot(a, b, precision=lax.Precision.HIGHEST), tree_x, tree_y
    )
    return functools.reduce(operator.add, tree_util.tree_leaves(vdots), 0)


def tree_sum(tree: Any, associative_reduction: bool = False) -> Any:
    """Returns the sum of all entries of all leaves.

    Args:
      tree: a pytree of arrays.
      associative_reduction: add the per-leaf sums as a balanced binary tree (halves split
        at `n // 2`, as `jax.tree.reduce_associative`) instead of left to right; the rounding
        may differ.

    Returns:
      A scalar.
    """
    sums = [jnp.sum(x) for x in tree_util.tree_leaves(tree)]
    if not associative_reduction:
        return functools.reduce(operator.add, sums, 0)
    return _halving_sum(sums) if sums else 0


def _halving_sum(values: list[Any]) -> Any:
    if len(values) == 1:
        return values[0]
    half = len(values) // 2
    return _halving_sum(values[:half]) + _halving_sum(values[half:])


def tree_max(tree: Any) -> Any:
    """Returns the largest entry over all (non-empty) leaves; `-inf` for an empty tree."""
    maxes = [jnp.max(x) for x in tree_util.tree_leaves(tree) if jnp.size(x)]
    return functools.reduce(jnp.maximum, maxes, -float("inf"))


def tree_min(tree: Any) -> Any:
    """Returns the smallest entry over all (non-empty) leaves; `inf` for an empty tree."""
    mins = [jnp.min(x) for x in tree_util.tree_leaves(tree) if jnp.size(x)]
    return functools.reduce(jnp.minimum, mins, float("inf"))


def tree_size(tree: Any) -> int:
    """Returns the total number of entries in the leaves."""
    return builtins.sum(jnp.size(x) for x in tree_util.tree_leaves(tree))


def tree_conj(tree: Any) -> Any:
    """Leafwise complex conjugate."""
    return tree_util.tree_map(jnp.conj, tree)


def tree_real(tree: Any) -> Any:
    """Leafwise real part."""
    return tree_util.tree_map(jnp.real, tree)


def tree_norm(tree: Any, ord: Any = None, squared: bool = False) -> Any:
    """Returns the norm of the tree seen as one flat vector.

    Args:
      tree: a pytree of arrays.
      ord: `None` or 2 (Euclidean), 1, or `inf`/"inf"/"infinity".
      squared: return the squared norm.

    Returns:
      A scalar array.
    """
    if ord is None or ord == 2:
        sqnorm = tree_sum(tree_util.tree_map(_square, tree))
        return jnp.array(sqnorm if squared else jnp.sqrt(sqnorm))
    if ord == 1:
        ret = tree_sum(tree_util.tree_map(jnp.abs, tree))
    elif ord in ("inf", "infinity") or ord == float("inf"):
        ret = tree_max(tree_util.tree_map(jnp.abs, tree))
    else:
        raise NormOrderError(f"Unsupported ord: {ord}\noptim.tree.norm takes None, 2, 1 or 'inf'.")
    return jnp.array(_square(ret) if squared else ret)


def _square(leaf: Any) -> Any:
    """`|leaf|**2` as Optax's `tree.norm` writes it: `square(real) + square(imag)` (for a real
    leaf, the square of its zero imaginary part is added too)."""
    return jnp.square(jnp.real(leaf)) + jnp.square(jnp.imag(leaf))


def tree_zeros_like(tree: Any, dtype: Any = None) -> Any:
    """Leafwise `jnp.zeros_like(x, dtype)`."""
    return tree_util.tree_map(lambda x: jnp.zeros_like(x, dtype=dtype), tree)


def tree_ones_like(tree: Any, dtype: Any = None) -> Any:
    """Leafwise `jnp.ones_like(x, dtype)`."""
    return tree_util.tree_map(lambda x: jnp.ones_like(x, dtype=dtype), tree)


def tree_full_like(tree: Any, fill_value: Any, dtype: Any = None) -> Any:
    """Leafwise `jnp.full_like(x, fill_value, dtype)`."""
    return tree_util.tree_map(lambda x: jnp.full_like(x, fill_value, dtype=dtype), tree)


def tree_where(condition: Any, tree_x: Any, tree_y: Any) -> Any:
    """Leafwise `jnp.where(condition, x, y)`."""
    return tree_util.tree_map(lambda x, y: jnp.where(condition, x, y), tree_x, tree_y)


def tree_clip(tree: Any, min_value: Any = None, max_value: Any = None) -> Any:
    """Leafwise `jnp.clip(x, min_value, max_value)`."""
    return tree_util.tree_map(lambda x: jnp.clip(x, min_value, max_value), tree)


def tree_allclose(a: Any, b: Any, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False):
    """Returns whether all leaves of `a` and `b` are close (`jnp.allclose` leafwise)."""
    close = tree_util.tree_map(
        lambda x, y: jnp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan), a, b
    )
    return functools.reduce(operator.and_, tree_util.tree_leaves(close), True)


def tree_batch_shape(tree: Any, shape: tuple[int, ...] = ()) -> Any:
    """Leafwise broadcast to `shape + x.shape`."""
    return tree_util.tree_map(lambda x: jnp.broadcast_to(x, (*shape, *jnp.shape(x))), tree)


def ravel(tree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """Returns `(flat, unravel)`: all leaves raveled and concatenated, and the inverse map.

    Unlike `core.flatten_util.ravel_pytree` this is written with `core.numpy`, so it traces
    under `jit` and `grad` (leaves are assumed to share one dtype).
    """
    leaves, treedef = tree_util.tree_flatten(tree)
    shapes = [jnp.shape(x) for x in leaves]
    flat = jnp.concatenate([jnp.reshape(x, (-1,)) for x in leaves])

    def unravel(v: Any) -> Any:
        if not (hasattr(v, "shape") or isinstance(v, (int, float, complex))):
            raise UnravelInputError(  # JAX's ravel_pytree's first line
                f"asarray: expected ArrayLike, got {v} of type {type(v)}.\n"
                "unravel takes the flat vector that ravel returned."
            )
        out, offset = [], 0
        for shape in shapes:
            size = functools.reduce(operator.mul, shape, 1)
            out.append(jnp.reshape(v[offset : offset + size], shape))
            offset += size
        return tree_util.tree_unflatten(treedef, out)

    return flat, unravel


# ------------------------------------------------------------------ dtypes


def tree_cast(tree: Any, dtype: Any) -> Any:
    """Leafwise `x.astype(dtype)`; the identity when `dtype` is `None`."""
    if dtype is None:
        return tree
    return tree_util.tree_map(lambda x: x.astype(dtype), tree)


def tree_cast_like(tree: Any, other_tree: Any) -> Any:
    """Casts every leaf of `tree` to the dtype of the matching leaf of `other_tree`."""
    return tree_util.tree_map(
        lambda t, o: t.astype(o.dtype) if hasattr(o, "dtype") else t, tree, other_tree
    )


def _lower_dtype(d1: Any, d2: Any) -> Any:
    promoted = jnp.promote_types(d1, d2)
    if promoted == d1:
        return d2
    if promoted == d2:
        return d1
    raise TreeDtypeError(f"Cannot order dtypes {d1} and {d2}: neither promotes to the other.")


def tree_dtype(tree: Any, mixed_dtype_handler: str | None = None) -> Any:
    """Returns the dtype of the leaves.

    Args:
      tree: a pytree of arrays.
      mixed_dtype_handler: `None` (all leaves must agree), "promote", "highest" or "lowest".

    Returns:
      A dtype (`jnp.asarray([]).dtype` for a tree without leaves).
    """
    dtypes = [jnp.asarray(x).dtype for x in tree_util.tree_leaves(tree)]
    if not dtypes:
        return jnp.asarray([]).dtype
    if mixed_dtype_handler is None:
        paths_and_leaves = tree_util.tree_flatten_with_path(tree)[0]
        # Optax's lines, one per leaf whose dtype is not the first leaf's
        lines = [
            f"Expected dtype={dtypes[0]!r} for {path} but got {jnp.asarray(x).dtype}."
            for path, x in paths_and_leaves
            if jnp.asarray(x).dtype != dtypes[0]
        ]
        if lines:
            hint = "Pass mixed_dtype_handler='promote', 'highest' or 'lowest' to combine them."
            raise TreeDtypeError("\n".join([*lines, hint]))
        return dtypes[0]
    if mixed_dtype_handler == "promote":
        return functools.reduce(jnp.promote_types, dtypes)
    if mixed_dtype_handler == "highest":
        return functools.reduce(lambda a, b: b if _lower_dtype(a, b) == a else a, dtypes)
    if mixed_dtype_handler == "lowest":
        return functools.reduce(_lower_dtype, dtypes)
    raise TreeDtypeError(
        f"Invalid value for {mixed_dtype_handler=}, possible values are: None, "
        '"promote", "highest", "lowest".'
    )


# ------------------------------------------------------------------ moments


def tree_update_moment(updates: Any, moments: Any, decay: Any, order: int) -> Any:
    """Returns the EMA `(1 - decay) * g**order + decay * m` (skipping `None` leaves).

    Args:
      updates: the gradients (a pytree).
      moments: the previous moment.
      decay: its decay rate.
      order: the power of the gradients (1: mean, 2: uncentered variance).

    Returns:
      The new moment.
    """
    return tree_util.tree_map(
        lambda g, t: None if g is None else (1 - decay) * (g**order) + decay * t,
        updates,
        moments,
        is_leaf=_is_none,
    )


def tree_update_moment_per_elem_norm(updates: Any, moments: Any, decay: Any, order: int) -> Any:
    """Like `update_moment` with `|g|**order`, so the moment stays real for complex `g`.

    Args:
      updates: the gradients (a pytree).
      moments: the previous moment.
      decay: its decay rate.
      order: the power of ``|g|``.

    Returns:
      The new moment.
    """

    def orderth_norm(g):
        if not is_complex(g):
            return g**order
        half = order / 2
        return abs_sq(g) ** (int(half) if float(half).is_integer() else half)

    return tree_util.tree_map(
        lambda g, t: None if g is None else (1 - decay) * orderth_norm(g) + decay * t,
        updates,
        moments,
        is_leaf=_is_none,
    )


def tree_update_infinity_moment(updates: Any, moments: Any, decay: Any, eps: Any) -> Any:
    """Returns the infinity-norm moment `max(|g| + eps, decay * m)` (Adamax).

    Args:
      updates: the gradients (a pytree).
      moments: the previous moment.
      decay: its decay rate.
      eps: added to ``|g|``.

    Returns:
      The new moment.
    """
    return tree_util.tree_map(
        lambda g, t: None if g is None else jnp.maximum(jnp.abs(g) + eps, decay * t),
        updates,
        moments,
        is_leaf=_is_none,
    )


def tree_bias_correction(moment: Any, decay: Any, count: Any) -> Any:
    """Returns `m / (1 - decay**count)` leafwise (the Adam bias correction at step `count`).

    Args:
      moment: the moment (a pytree).
      decay: its decay rate.
      count: the step count (from 1).

    Returns:
      The corrected pytree.
    """
    # `lax.pow`, not `**`: Optax jits this function, so JAX raises to a traced count with
    # XLA's pow, whose rounding differs from the repeated squaring of a concrete `x ** n`.
    # An integer decay (`scale_by_adam(b1=0)`) has Optax's integer power; lax.pow takes
    # floating bases only.
    decay, count = jnp.asarray(decay), jnp.asarray(count)
    inexact = jnp.issubdtype(decay.dtype, jnp.inexact)
    correction = 1 - (lax.pow(decay, count) if inexact else decay**count)
    return tree_util.tree_map(lambda t: t / correction.astype(t.dtype), moment)


# ------------------------------------------------------------------ randomness


def tree_split_key_like(rng_key: Any, target_tree: Any) -> Any:
    """Splits `rng_key` into one key per leaf of `target_tree`, arranged like the tree."""
    treedef = tree_util.tree_structure(target_tree)
    keys = random.split(rng_key, treedef.num_leaves)
    return tree_util.tree_unflatten(treedef, [keys[i] for i in range(treedef.num_leaves)])


def tree_random_like(
    rng_key: Any, target_tree: Any, sampler: Callable[..., Any] = random.normal, dtype: Any = None
) -> Any:
    """Returns a tree like `target_tree` with leaves drawn by `sampler(key, shape, dtype)`."""
    keys = tree_split_key_like(rng_key, target_tree)
    return tree_util.tree_map(
        lambda leaf, k: sampler(k, leaf.shape, leaf.dtype if dtype is None else dtype),
        target_tree,
        keys,
    )


def tree_unwrap_random_key_data(input_tree: Any) -> Any:
    """`input_tree` with every typed key array (`random.key`) replaced by its uint32 data
    (`random.key_data`), so trees holding keys compare numerically."""
    return tree_util.tree_map(
        lambda x: random.key_data(x) if isinstance(x, PRNGKeyArray) else x,
        input_tree,
        is_leaf=lambda x: isinstance(x, PRNGKeyArray),
    )


# ------------------------------------------------------------------ finding state fields


@dataclasses.dataclass(frozen=True)
class NamedTupleKey:
    """A path entry for the field `name` of a NamedTuple of class `tuple_name`."""

    tuple_name: str
    name: str

    def __str__(self) -> str:
        return f"{self.tuple_name}.{self.name}"


def _is_named_tuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _children(node: Any) -> list[tuple[Any, Any]]:
    """Returns `(path_entry, child)` pairs of a container node, `[]` for anything else."""
    if _is_named_tuple(node):
        name = type(node).__name__
        return [(NamedTupleKey(name, f), getattr(node, f)) for f in node._fields]
    if isinstance(node, dict):
        return [(DictKey(k), v) for k, v in node.items()]
    if isinstance(node, (list, tuple)):
        return [(SequenceKey(i), v) for i, v in enumerate(node)]
    return []


def _entry_name(entry: Any) -> Any:
    if isinstance(entry, NamedTupleKey):
        return entry.name
    if isinstance(entry, DictKey):
        return entry.key
    return entry.idx


def _has_key(node: Any, key: Any) -> bool:
    """Whether `node` is a NamedTuple with field or class name `key`, or a dict with key `key`."""
    if _is_named_tuple(node):
        return key in node._fields or type(node).__name__ == key
    return isinstance(node, dict) and key in node


def _leaves_with_named_paths(tree: Any, is_leaf: Callable[[Any], bool]) -> list[tuple[tuple, Any]]:
    """`tree_leaves_with_path(tree, is_leaf)`, NamedTuple fields named by `NamedTupleKey`."""
    out = []
    flat = tree_util.tree_leaves_with_path(tree, is_leaf=lambda x: is_leaf(x) or _is_named_tuple(x))
    for path, node in flat:
        if is_leaf(node) or not _is_named_tuple(node):
            out.append((path, node))
            continue
        for field in node._fields:
            entry = NamedTupleKey(type(node).__name__, field)
            below = _leaves_with_named_paths(getattr(node, field), is_leaf)
            out += [((*path, entry, *p), v) for p, v in below]
    return out


def _all_with_path(tree: Any, key: Any) -> list[tuple[tuple, Any]]:
    """Optax's search order: the matches of the outermost nodes holding `key` (in leaf order),
    then those found below each of them."""
    holders = [
        (path, node)
        for path, node in _leaves_with_named_paths(tree, lambda x: _has_key(x, key))
        if _has_key(node, key)
    ]
    found = []
    for path, node in holders:
        if _is_named_tuple(node) and type(node).__name__ == key:
            found.append((path, node))
        else:
            entry = (
                NamedTupleKey(type(node).__name__, key) if _is_named_tuple(node) else DictKey(key)
            )
            found.append(
                ((*path, entry), node[key] if isinstance(node, dict) else getattr(node, key))
            )
    for path, node in holders:
        for entry, child in _children(node):
            found += [((*path, entry, *p), v) for p, v in _all_with_path(child, key)]
    return found


def tree_get_all_with_path(
    tree: Any, key: Any, filtering: Callable[[tuple, Any], bool] | None = None
) -> list[tuple[tuple, Any]]:
    """Returns every `(path, value)` whose NamedTuple field, dict key or NamedTuple class is `key`.

    Args:
      tree: a pytree, typically an optimizer state.
      key: a field name (e.g. "count", "learning_rate") or a NamedTuple class name
        (e.g. "ScaleByAdamState", which returns the whole sub-state).
      filtering: optional `(path, value) -> bool` to keep only some matches.

    Returns:
      A list of `(path, value)` pairs in Optax's order: the matches in the outermost nodes
      holding `key` (in the tree's leaf order), then those below each of them.
    """
    found = _all_with_path(tree, key)
    if filtering is not None:
        found = [(p, v) for p, v in found if filtering(p, v)]
    return found


def tree_get(
    tree: Any, key: Any, default: Any = None, filtering: Callable[[tuple, Any], bool] | None = None
) -> Any:
    """Returns the unique value named `key` in `tree` (see `get_all_with_path`), else `default`.

    Raises:
      TreeKeyError: if several values match; narrow the search with `filtering`.
    """
    found = tree_get_all_with_path(tree, key, filtering)
    if len(found) > 1:
        # Optax's message (a KeyError shows it quoted); `filtering` selects one of them
        raise TreeKeyError(f"Found multiple values for '{key}' in {tree}.")
    return found[0][1] if found else default


def tree_set(tree: Any, filtering: Callable[[tuple, Any], bool] | None = None, /, **kwargs: Any):
    """Returns `tree` with every field/key/NamedTuple class named in `kwargs` replaced.

    Example: `optim.tree.set(opt_state, learning_rate=jnp.asarray(0.1))` changes the learning
    rate held by `inject_hyperparams` without rebuilding the optimizer. As Optax's, the search
    stops at the first dicts/NamedTuples holding a key; below them only children that hold a
    key themselves are searched (a list, or a dict without the key, is kept whole).

    Args:
      tree: a pytree, typically an optimizer state.
      filtering: optional `(path, value) -> bool`; only matches it accepts are replaced.
      **kwargs: the new values, by field, key or NamedTuple class name.

    Returns:
      A new tree of the same structure.

    Raises:
      TreeKeyError: if some key is not found.
    """
    for key in kwargs:
        if not tree_get_all_with_path(tree, key, filtering):
            where = " given the filtering operation" if filtering else ""
            raise TreeKeyError(f"Found no values matching '{key}'{where} in {tree}")

    def holds_key(node: Any) -> bool:
        if _is_named_tuple(node):
            return type(node).__name__ in kwargs or any(k in node._fields for k in kwargs)
        return isinstance(node, dict) and any(k in node for k in kwargs)

    def accepted(path: tuple, node: Any) -> bool:
        return filtering is None or filtering(path, node)

    def with_children(node: Any, new: list) -> Any:
        if _is_named_tuple(node):
            return type(node)(*new)
        if isinstance(node, dict):
            return type(node)(zip(node.keys(), new))
        return type(node)(new)

    def replace(path: tuple, node: Any) -> Any:
        # As Optax: only a node that holds a key is rebuilt; below a matched node, a child
        # that holds no key itself is kept whole (a list or an unkeyed dict is not searched).
        if not holds_key(node):
            return node
        name = type(node).__name__
        if _is_named_tuple(node) and name in kwargs and accepted(path, node):
            return kwargs[name]
        new = []
        for entry, child in _children(node):
            child_path = (*path, entry)
            name = _entry_name(entry)
            if name in kwargs and accepted(child_path, child):
                new.append(kwargs[name])
            else:
                new.append(replace(child_path, child))
        return with_children(node, new)

    def descend(path: tuple, node: Any) -> Any:
        # down through the containers that hold no key, to the first ones that do
        if holds_key(node):
            return replace(path, node)
        children = _children(node)
        if not children:
            return node
        return with_children(node, [descend((*path, e), c) for e, c in children])

    return descend((), tree)


class _ParamsPlaceholder:
    """Stands for the params when `map_params` calls `init`: an empty pytree node."""


tree_util.register_pytree_node(
    _ParamsPlaceholder, lambda _: ((), None), lambda aux, children: _ParamsPlaceholder()
)


def tree_map_params(
    initable: Any,
    f: Callable[..., Any],
    state: Any,
    /,
    *rest: Any,
    transform_non_params: Callable[..., Any] | None = None,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Applies `f` to the parts of an optimizer state that are shaped like the params.

    Args:
      initable: the optimizer (anything with `.init`) or its `init` function.
      f: applied to every leaf of every params-shaped subtree (e.g. `mu`, `nu`).
      state: the optimizer state.
      *rest: further trees shaped like the params, passed to `f` alongside.
      transform_non_params: applied to the other leaves (e.g. `count`); identity by default.
      is_leaf: forwarded to the tree map over the params-shaped subtrees.

    Returns:
      The state with the same structure.
    """
    init = initable.init if hasattr(initable, "init") else initable
    with_placeholders = init(_ParamsPlaceholder())

    def map_params(maybe_placeholder: Any, value: Any) -> Any:
        if isinstance(maybe_placeholder, _ParamsPlaceholder):
            return tree_util.tree_map(f, value, *rest, is_leaf=is_leaf)
        return value if transform_non_params is None else transform_non_params(value)

    return tree_util.tree_map(
        map_params,
        with_placeholders,
        state,
        is_leaf=lambda v: isinstance(v, _ParamsPlaceholder),
    )


# Optax's short names: `optim.tree.add`, `optim.tree.norm`, ...
add = tree_add
sub = tree_sub
mul = tree_mul
div = tree_div
scale = tree_scale
add_scale = tree_add_scale
vdot = tree_vdot
sum = tree_sum  # noqa: A001
max = tree_max  # noqa: A001
min = tree_min  # noqa: A001
size = tree_size
conj = tree_conj
real = tree_real
norm = tree_norm
zeros_like = tree_zeros_like
ones_like = tree_ones_like
full_like = tree_full_like
where = tree_where
clip = tree_clip
allclose = tree_allclose
batch_shape = tree_batch_shape
cast = tree_cast
cast_like = tree_cast_like
dtype = tree_dtype
update_moment = tree_update_moment
update_moment_per_elem_norm = tree_update_moment_per_elem_norm
update_infinity_moment = tree_update_infinity_moment
bias_correction = tree_bias_correction
split_key_like = tree_split_key_like
random_like = tree_random_like
unwrap_random_key_data = tree_unwrap_random_key_data
get_all_with_path = tree_get_all_with_path
get = tree_get
set = tree_set  # noqa: A001
map_params = tree_map_params

# Optax 0.2.8's deprecated names (older programs use them): each warns and gives the new function.
_DEPRECATED = {
    "tree_scalar_mul": ("tree_scale", tree_scale),
    "tree_add_scalar_mul": ("tree_add_scale", tree_add_scale),
    "tree_l1_norm": ("tree_norm(..., ord=1)", functools.partial(tree_norm, ord=1)),
    "tree_l2_norm": ("tree_norm", functools.partial(tree_norm, ord=2)),
    "tree_linf_norm": ("tree_norm(..., ord=jnp.inf)", functools.partial(tree_norm, ord="inf")),
}


def deprecated_getattr(module: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` giving Optax 0.2.8's deprecated tree names with its warning.

    Args:
      module: the module's name (``optim.tree`` or ``optim.tree_utils``), used in the messages.

    Returns:
      ``__getattr__(name)``: the new function for a deprecated name, after a
      ``DeprecationWarning`` naming the replacement; ``AttributeError`` for other names.
    """

    def getattr_(name: str) -> Any:
        if name in _DEPRECATED:
            new, fn = _DEPRECATED[name]
            warnings.warn(
                f"{module}.{name} is deprecated (as optax.tree_utils.{name}): use {module}.{new}.",
                DeprecationWarning,
                stacklevel=2,
            )
            return fn
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return getattr_


__getattr__ = deprecated_getattr(__name__)
