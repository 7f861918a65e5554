"""The public module transforms over the scope-level ones: ``nn.vmap``, ``nn.scan``, ``nn.jit``,
``nn.fold_rngs``, ``nn.checkpoint``/``nn.remat``, ``nn.remat_scan``, ``nn.map_variables``,
``nn.add_metadata_axis`` and ``nn.named_call``. Each takes a ``Module`` class (returning a
transformed subclass) or a function whose first argument is a module, and lifts its methods
through a ``lift_*`` function of `nn/transforms/scope_level.py`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import core
from nn import meta
from nn import module as module_lib
from nn.module import Module
from nn.scope import CollectionFilter, Scope
from nn.transforms.module_level import (
    _call_on_clone,
    _module_scopes,
    _transform,
)
from nn.transforms.scope_level import (
    lift_checkpoint,
    lift_fold_rngs,
    lift_jit,
    lift_map_variables,
    lift_scan,
    lift_vmap,
)


def vmap(
    target: Any,
    variable_axes: Mapping[CollectionFilter, int | None] | None = None,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    spmd_axis_name: str | None = None,
    metadata_params: Mapping | None = None,
    methods: Any = None,
) -> Any:
    """Vectorizes a module (or a function of one) over an axis, lifting its variables.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variable_axes: ``{collection_filter: axis}``: collections mapped along ``axis`` (one set
        of variables per index) or shared (``None``). Collections not listed are not visible.
      split_rngs: ``{stream_filter: bool}``: streams given a different key per index (True)
        or the same key (False). Streams not listed are not visible.
      in_axes: the mapped axes of the positional arguments (as ``core.vmap``).
      out_axes: the mapped axes of the outputs.
      axis_size: the size, when no input is mapped.
      axis_name: a name for collectives (``lax.psum(x, axis_name)``).
      spmd_axis_name: accepted for Flax compatibility.
      metadata_params: passed to the ``nn.meta`` boxes of mapped variables
        (``{nn.PARTITION_NAME: "layers"}`` names the new axis of partitioned params).
      methods: for a class, the methods to transform (default ``__call__``).

    Returns:
      The transformed class (named ``Vmap<Class>``) or function.

    Example::

        >>> Dense3 = nn.vmap(nn.Dense, variable_axes={"params": 0},
        ...                  split_rngs={"params": True}, in_axes=None, axis_size=3)
        >>> v = Dense3(2).init(core.random.key(0), jnp.ones((1, 4)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]
        {'bias': (3, 2), 'kernel': (3, 4, 2)}
    """
    del spmd_axis_name
    return _transform(
        lift_vmap,
        target,
        "vmap",
        methods,
        variable_axes=dict(variable_axes or {}),
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        axis_size=axis_size,
        axis_name=axis_name,
        metadata_params=metadata_params,
    )


def scan(
    target: Any,
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    data_transform: Callable | None = None,
    metadata_params: Mapping | None = None,
    methods: Any = None,
    _split_transpose: bool = False,
    check_constancy_invariants: bool = True,
) -> Any:
    """Loops a module over the leading axis of its inputs with ``lax.scan``, lifting variables.

    The transformed method has the signature ``(carry, *xs) -> (carry, ys)``.

    Args:
      target: a ``Module`` class or a function ``f(module, carry, *xs)``.
      variable_axes: collections with one set of variables per step, stacked along the axis.
      variable_broadcast: collections shared by all steps (created on the first step, e.g.
        ``'params'`` for an RNN cell); read-only inside the loop.
      variable_carry: collections carried (and updated) from step to step.
      split_rngs: ``{stream_filter: bool}``: a different key per step (True) or the same.
      in_axes: the scanned axis of each argument after the carry; ``nn.broadcast`` passes an
        argument whole to every step.
      out_axes: the axis of the stacked outputs (ints).
      length: the number of steps, when no argument is scanned.
      reverse: run from the last step to the first.
      unroll: steps per loop iteration in compiled code.
      data_transform: not supported (must be ``None``).
      metadata_params: passed to the ``nn.meta`` boxes of scanned variables (see ``vmap``).
      methods: for a class, the methods to transform.
      _split_transpose: accepted for Flax compatibility.
      check_constancy_invariants: trace the body a first time to create the broadcast
        variables and check they do not depend on the carry (default); False traces it
        once, by the loop (Flax's faster simple scan, which creates no broadcast variable).

    Returns:
      The transformed class (named ``Scan<Class>``) or function.

    Example::

        >>> LSTM = nn.scan(nn.LSTMCell, variable_broadcast="params",
        ...                split_rngs={"params": False}, in_axes=1, out_axes=1)
        >>> cell = LSTM(4)
        >>> carry = cell.initialize_carry(core.random.key(1), (2, 3))
        >>> v = cell.init(core.random.key(0), carry, jnp.ones((2, 5, 3)))
        >>> cell.apply(v, carry, jnp.ones((2, 5, 3)))[1].shape
        (2, 5, 4)
    """
    del _split_transpose
    if data_transform is not None:
        raise NotImplementedError("nn.scan's data_transform is not supported.")
    return _transform(
        lift_scan,
        target,
        "scan",
        methods,
        variable_axes=dict(variable_axes or {}),
        variable_broadcast=variable_broadcast,
        variable_carry=variable_carry,
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        length=length,
        reverse=reverse,
        unroll=unroll,
        metadata_params=metadata_params,
        check_constancy_invariants=check_constancy_invariants,
    )


def jit(
    target: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    device: Any = None,
    backend: str | None = None,
    methods: Any = None,
) -> Any:
    """Compiles a module's method (or a function of a module) with ``core.jit``.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted into the compiled function (default all).
      rngs: the RNG streams lifted (default all).
      static_argnums: positions of compile-time constant arguments, counting the module as 0.
      static_argnames: names of compile-time constant keyword arguments.
      donate_argnums: accepted for Flax compatibility.
      device: accepted for Flax compatibility.
      backend: accepted for Flax compatibility.
      methods: for a class, the methods to jit.

    Returns:
      The transformed class (named ``Jit<Class>``) or function.
    """
    del donate_argnums, device, backend
    return _transform(
        lift_jit,
        target,
        "jit",
        methods,
        fingerprint=True,
        variables=variables,
        rngs=rngs,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
    )


def fold_rngs(target: Any, variables: CollectionFilter = True, rngs: CollectionFilter = True):
    """Runs a module's method (or a function of a module) with its RNG streams handed in as
    keys, as `jit` does, without compiling: keys drawn inside are those `nn.jit` would give
    (Flax's ``fold_rngs``), and the outer module's RNG counters do not move.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).

    Returns:
      The transformed class (named ``Fold_rngs<Class>``) or function.
    """
    return _transform(
        lift_fold_rngs, target, "fold_rngs", None, fingerprint=True, variables=variables, rngs=rngs
    )


def checkpoint(
    target: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: int | Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    methods: Any = None,
) -> Any:
    """Gradient checkpointing of a module (``core.checkpoint`` on its variables and inputs).

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted (default all).
      rngs: the RNG streams lifted (default all).
      concrete: accepted for Flax compatibility.
      prevent_cse: passed to ``core.checkpoint``.
      static_argnums: positions of non-array arguments, counting the module as 0.
      policy: which intermediates may be saved (``core.checkpoint_policies``).
      methods: for a class, the methods to transform.

    Returns:
      The transformed class (named ``Checkpoint<Class>``) or function.
    """
    del concrete
    return _transform(
        lift_checkpoint,
        target,
        "checkpoint",
        methods,
        variables=variables,
        rngs=rngs,
        prevent_cse=prevent_cse,
        static_argnums=static_argnums,
        policy=policy,
    )


remat = checkpoint


def map_variables(
    target: Any,
    mapped_collections: CollectionFilter = True,
    trans_in_fn: Callable[[dict], dict] = lambda x: x,
    trans_out_fn: Callable[[dict], dict] = lambda x: x,
    init: bool = False,
    mutable: bool = False,
    rngs: CollectionFilter = True,
    variables: CollectionFilter = True,
    methods: Any = None,
) -> Any:
    """Runs a module on a transformed view of some of its collections.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      mapped_collections: the collections transformed.
      trans_in_fn: maps ``{collection: tree}`` to the view the module reads.
      trans_out_fn: maps the (updated) view back, when ``init`` or ``mutable``.
      init: create the mapped variables first (running the module), then map them.
      mutable: the mapped collections may be written through the view.
      rngs: the RNG streams visible (default all).
      variables: other collections visible (default all).
      methods: for a class, the methods to transform.

    Returns:
      The transformed class (named ``Map_variables<Class>``) or function.
    """
    return _transform(
        lift_map_variables,
        target,
        "map_variables",
        methods,
        mapped_collections=mapped_collections,
        map_in_fn=trans_in_fn,
        map_out_fn=trans_out_fn,
        init=init,
        mutable=mutable,
        rngs=rngs,
        variables=variables,
    )


def add_metadata_axis(
    target: Any,
    variable_axes: Mapping[CollectionFilter, Any] | None = None,
    metadata_params: dict[Any, Any] | None = None,
) -> Any:
    """Adds an axis to the boxed axis metadata of some collections, as a lifted `vmap` or
    `scan` does across its boundary, without transforming the computation
    (`flax.linen.add_metadata_axis`): e.g. `nn.Partitioned` names gain
    `metadata_params[nn.PARTITION_NAME]` at `axis`.

    Args:
      target: a ``Module`` class or a function taking a module first.
      variable_axes: ``{collection: axis}`` of the collections whose metadata changes.
      metadata_params: passed to each box's ``add_axis``/``remove_axis``.

    Returns:
      The transformed class or function (one `map_variables` per collection).
    """
    params = {} if metadata_params is None else metadata_params
    for col_name, axis in (variable_axes or {}).items():
        target = map_variables(
            target,
            col_name,
            trans_in_fn=lambda x, a=axis: meta.remove_axis(x, a, params),
            trans_out_fn=lambda x, a=axis: meta.add_axis(x, a, params),
            mutable=True,
        )
    return target


def named_call(class_fn: Callable[..., Any], force: bool = True) -> Callable[..., Any]:
    """Labels a module method's equations with the module's name (`flax.linen.named_call`):
    `core.named_call` under ``"<module name>.<method>"`` (just the name for `__call__`).

    Args:
      class_fn: the method.
      force: accepted for compatibility (numbax always labels).

    Returns:
      The wrapped method.
    """

    @functools.wraps(class_fn)
    def wrapped(self: Module, *args: Any, **kwargs: Any) -> Any:
        if self._state.in_setup:
            return class_fn(self, *args, **kwargs)
        suffix = "" if class_fn.__name__ == "__call__" else f".{class_fn.__name__}"
        name = f"{self.name or type(self).__name__}{suffix}"
        return core.named_call(class_fn, name=name)(self, *args, **kwargs)

    return wrapped


def remat_scan(
    target: type,
    lengths: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    variable_axes: Mapping[CollectionFilter, int] | None = None,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
) -> type:
    """Nested ``scan(remat(target))``: ``prod(lengths)`` steps ``x = target()(x)``.

    The variables get one leading axis per entry of ``lengths``.

    Args:
      target: a ``Module`` class whose ``__call__(x)`` returns the next ``x``.
      lengths: the number of steps per nesting level.
      policy: the checkpoint policy.
      variable_broadcast: collections shared by all steps.
      variable_carry: collections carried from step to step.
      variable_axes: collections stacked per step (default all, axis 0).
      split_rngs: streams split per step (default all).

    Returns:
      A module class named ``Remat_scan<Class>`` (an ``x -> x`` module).
    """
    variable_axes = {True: 0} if variable_axes is None else dict(variable_axes)
    split_rngs = {True: True} if split_rngs is None else dict(split_rngs)
    fn = module_lib._wrap_method(target.__call__)

    def call(self: Module, x: Any) -> Any:
        cursor = dict(self._state.autoname_cursor)

        def step(scopes: list[Scope], x: Any) -> tuple[Any, None]:
            return _call_on_clone(fn, self, scopes, target, (x,), {}, cursor), None

        scanned: Callable = lift_checkpoint(step, policy=policy)
        for length in reversed(lengths):
            scanned = _drop_ys(
                lift_scan(
                    scanned,
                    variable_axes=variable_axes,
                    variable_broadcast=variable_broadcast,
                    variable_carry=variable_carry,
                    split_rngs=split_rngs,
                    length=length,
                )
            )
        return scanned(_module_scopes(self, "remat_scan"), x)[0]

    functools.update_wrapper(call, target.__call__)
    call.__dict__.pop("compact", None)
    return type("Remat_scan" + target.__name__, (target,), {"__call__": call})


def _drop_ys(fn: Callable) -> Callable:
    def dropped(scopes: list[Scope], x: Any) -> tuple[Any, None]:
        return fn(scopes, x)[0], None

    return dropped
