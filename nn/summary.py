"""Model summaries: ``Module.tabulate``/``nn.tabulate`` and ``parameter_overview`` (like ``clu``'s).

``tabulate`` runs ``init`` under ``core.eval_shape`` (shapes only, nothing computed or
compiled) while a recorder notes every module method call: path, class, input and output
shapes. Each row counts only the variables the module owns directly (its whole subtree when
``depth`` folds it), so totals are exact sums over the variable tree (no double counting).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

import core
from core.profiler.cost import jaxpr_flops
from nn import module as module_lib
from nn.traverse_util import flatten_dict


def _describe(x: Any) -> str:
    """A short description of a pytree of arrays: ``float32[2,3]``, tuples and dicts of those."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return f"{np.dtype(x.dtype).name}[{','.join(str(d) for d in x.shape)}]"
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(_describe(v) for v in x) + ")"
    if isinstance(x, Mapping):
        return "{" + ", ".join(f"{k}: {_describe(v)}" for k, v in x.items()) + "}"
    return repr(x)[:30]


def _count(leaves: list[Any]) -> tuple[int, int]:
    leaves = core.tree_util.tree_leaves(leaves)  # metadata boxes (nn.Partitioned) hold arrays
    size = sum(int(np.prod(leaf.shape)) for leaf in leaves)
    nbytes = sum(int(np.prod(leaf.shape)) * np.dtype(leaf.dtype).itemsize for leaf in leaves)
    return size, nbytes


def _human_bytes(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


def _format_count(size: int, nbytes: int) -> str:
    return f"{size:,} ({_human_bytes(nbytes)})" if size else ""


class _CallRecorder:
    """Collects ``(path, class, method, inputs, outputs)`` in call order (entry order), and with
    ``keep_calls`` an unbound copy of each call (module, method, arguments) to count FLOPs."""

    def __init__(self, keep_calls: bool = False) -> None:
        self.rows: dict[int, tuple] = {}
        self.calls: dict[int, tuple] = {}
        self.non_methods: set[int] = set()
        self._keep_calls = keep_calls
        self._next = 0

    def enter(self) -> int:
        self._next += 1
        return self._next

    def exit(self, index: int, module: Any, method: str, args: tuple, kwargs: dict, y: Any) -> None:
        if not hasattr(type(module), method):
            # a function a lifted transform runs on the module (RNN's scan body), not one of
            # its methods: as Flax, a row only with show_repeated, and it owns no variables
            self.non_methods.add(index)
        inputs = (
            args[0] if len(args) == 1 and not kwargs else (args + ((kwargs,) if kwargs else ()))
        )
        self.rows[index] = (
            module.scope.path,
            type(module).__name__,
            method,
            _describe(inputs),
            _describe(y),
        )
        if self._keep_calls:
            abstract = core.tree_util.tree_map(_abstract, (args, kwargs))
            self.calls[index] = (module.clone(parent=None, _deep_clone=True), method, abstract)


def _abstract(x: Any) -> Any:
    """A ``ShapeDtypeStruct`` for an array (or tracer), anything else as is."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return core.ShapeDtypeStruct(tuple(x.shape), x.dtype)
    return x


def _call_flops(call: tuple, rngs: Any, vjp: bool) -> int:
    """FLOPs of running one recorded call (``vjp``: of its VJP, forward pass included), as
    Flax counts them: ``apply`` with every collection mutable, array arguments dynamic."""
    module, method, (args, kwargs) = call
    leaves, treedef = core.tree_util.tree_flatten((args, kwargs))
    dynamic = [i for i, x in enumerate(leaves) if isinstance(x, core.ShapeDtypeStruct)]

    def inputs(values: list) -> tuple:
        full = list(leaves)
        for i, v in zip(dynamic, values):
            full[i] = v
        return core.tree_util.tree_unflatten(treedef, full)

    def init(values: list) -> Any:
        a, k = inputs(values)
        return module.init(rngs, *a, method=method, **k)

    def apply(variables: Any, values: list) -> Any:
        a, k = inputs(values)
        return module.apply(variables, *a, rngs=rngs, method=method, mutable=True, **k)

    def apply_vjp(variables: Any, values: list) -> Any:
        out, pullback = core.vjp(apply, variables, values)
        return pullback(out)

    values = [leaves[i] for i in dynamic]
    variables = core.eval_shape(init, values)
    jaxpr = core.make_jaxpr(apply_vjp if vjp else apply)(variables, values)
    return jaxpr_flops(jaxpr.jaxpr)


def _module_leaves(tree: Mapping, path: tuple[str, ...], subtree: bool) -> list[Any]:
    """The variables a module owns directly (or, with ``subtree``, with its submodules')."""
    for name in path:
        tree = tree.get(name, {}) if isinstance(tree, Mapping) else {}
    if not isinstance(tree, Mapping):
        return []
    if subtree:
        return list(flatten_dict(tree).values())
    return [v for v in tree.values() if not isinstance(v, Mapping)]


def _table(header: list[str], rows: list[list[str]], footer: list[str] | None = None) -> str:
    """An ASCII table with a header row, body rows and an optional footer row."""
    every = [header, *rows] + ([footer] if footer else [])
    widths = [max(len(r[i]) for r in every) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [rule, line(header), rule, *map(line, rows), rule]
    if footer:
        lines += [line(footer), rule]
    return "\n".join(lines)


def tabulate(
    module: Any,
    rngs: Any,
    depth: int | None = None,
    show_repeated: bool = False,
    compute_flops: bool = False,
    compute_vjp_flops: bool = False,
    console_kwargs: Mapping[str, Any] | None = None,
    table_kwargs: Mapping[str, Any] | None = None,
    column_kwargs: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Callable[..., str]:
    """Flax's ``nn.tabulate``: a function of the example inputs returning the summary table.

    ``nn.tabulate(model, key, compute_flops=True)(x)`` is ``model.tabulate(key, x,
    compute_flops=True)``.

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      depth: as for `table`.
      show_repeated: as for `table`.
      compute_flops: as for `table`.
      compute_vjp_flops: as for `table`.
      console_kwargs: as for `table` (unused).
      table_kwargs: as for `table` (unused).
      column_kwargs: as for `table` (unused).
      **kwargs: keyword arguments for ``init``, given with every call.

    Returns:
      ``f(*args, **more_kwargs) -> str``.
    """

    def tabulate_fn(*args: Any, **more: Any) -> str:
        return table(
            module,
            rngs,
            *args,
            depth=depth,
            show_repeated=show_repeated,
            compute_flops=compute_flops,
            compute_vjp_flops=compute_vjp_flops,
            console_kwargs=console_kwargs,
            table_kwargs=table_kwargs,
            column_kwargs=column_kwargs,
            **kwargs,
            **more,
        )

    return tabulate_fn


def _record_calls(
    module: Any, rngs: Any, args: tuple, kwargs: dict, keep_calls: bool
) -> tuple[_CallRecorder, Any]:
    """The calls ``module.init(rngs, *args, **kwargs)`` makes, run abstractly (``eval_shape``),
    and the variables' shapes."""
    recorder = _CallRecorder(keep_calls=keep_calls)
    previous = module_lib._context.call_recorder
    module_lib._context.call_recorder = recorder
    try:
        # Keyword arguments (typically flags like ``train=True``) stay concrete.
        variables = core.eval_shape(lambda r, *a: module.init(r, *a, **kwargs), rngs, *args)
    finally:
        module_lib._context.call_recorder = previous
    return recorder, variables


def module_paths(
    module: Any, rngs: Any, *args: Any, show_repeated: bool = False, **kwargs: Any
) -> dict[str, Any]:
    """The modules ``module.init(rngs, *args, **kwargs)`` calls, by path, as Flax's
    ``Module.module_paths``: the rows `table` would show.

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      *args: example inputs.
      show_repeated: as for `table` (a module called again maps to its last call's copy).
      **kwargs: keyword arguments for ``init``.

    Returns:
      ``{"Dense_0": Dense(...), ...}`` in call order (``""`` is ``module``): unbound copies of
      the modules as they were called.
    """
    recorder, _ = _record_calls(module, rngs, args, kwargs, keep_calls=True)
    paths: dict[str, Any] = {}
    for index in sorted(recorder.rows):
        path, _, method, _, _ = recorder.rows[index]
        if method.startswith("_") and method != "__call__":  # a module's private helper
            continue
        key = "/".join(path)
        if show_repeated or key not in paths:
            paths[key] = recorder.calls[index][0]
    return paths


def table(
    module: Any,
    rngs: Any,
    *args: Any,
    depth: int | None = None,
    show_repeated: bool = False,
    compute_flops: bool = False,
    compute_vjp_flops: bool = False,
    console_kwargs: Mapping[str, Any] | None = None,
    table_kwargs: Mapping[str, Any] | None = None,
    column_kwargs: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> str:
    """A plain-text table of the module calls made by ``module.init(rngs, *args, **kwargs)``.

    Args:
      module: the (unbound) model.
      rngs: a key or ``{stream: key}``.
      *args: example inputs.
      depth: show only calls at most this many levels below the root; rows at that depth
        count the variables of their whole subtree.
      show_repeated: show every call of a module method, not only the first.
      compute_flops: add a ``flops`` column: the FLOPs of each call's forward pass, counted as
        XLA's cost analysis counts them (``core.profiler.cost``; Flax's column).
      compute_vjp_flops: add a ``vjp_flops`` column: the FLOPs of each call's VJP (forward
        pass included), about 3x the forward pass.
      console_kwargs: Flax's options of its ``rich`` console, accepted and unused: the table
        is plain text (its rows and totals are Flax's, not its drawing).
      table_kwargs: Flax's ``rich`` table options, accepted and unused.
      column_kwargs: Flax's ``rich`` column options, accepted and unused.
      **kwargs: keyword arguments for ``init`` (``mutable`` among them).

    Returns:
      The table: one row per module call with its own variables per collection, then totals.
    """
    del console_kwargs, table_kwargs, column_kwargs  # rich's drawing options
    recorder, variables = _record_calls(
        module, rngs, args, kwargs, keep_calls=compute_flops or compute_vjp_flops
    )
    collections = sorted(variables)
    flop_columns = [
        c for c, on in (("flops", compute_flops), ("vjp_flops", compute_vjp_flops)) if on
    ]
    header = ["path", "module", "inputs", "outputs", *flop_columns, *collections]
    call_rngs = rngs if isinstance(rngs, Mapping) else {"params": rngs}
    rows, seen, seen_calls = [], set(), set()
    for index in sorted(recorder.rows):
        path, cls, method, inputs, outputs = recorder.rows[index]
        if depth is not None and len(path) > depth:
            continue
        if method.startswith("_") and method != "__call__":  # a module's private helper
            continue
        repeated = (path, method) in seen_calls or index in recorder.non_methods
        if not show_repeated and repeated:
            continue
        seen_calls.add((path, method))
        shown = "" if method in ("__call__", "<lambda>") else f" ({method})"  # Flax's column
        cells = ["/".join(path), cls + shown, inputs, outputs]
        for column in flop_columns:
            call = recorder.calls[index]
            cells.append(str(_call_flops(call, call_rngs, vjp=column == "vjp_flops")))
        for col in collections:
            folded = depth is not None and len(path) == depth
            size, nbytes = _count(_module_leaves(variables[col], path, subtree=folded))
            owned = path not in seen and index not in recorder.non_methods
            cells.append(_format_count(size, nbytes) if owned else "")
        if index not in recorder.non_methods:
            seen.add(path)
        rows.append(cells)
    # Totals come from the whole tree, so modules hidden by ``depth`` still count.
    totals = [_format_count(*_count(core.tree_util.tree_leaves(variables[c]))) for c in collections]
    footer = ["", "", "", *[""] * len(flop_columns), "Total", *totals][-len(header) :]
    summary = _table(header, rows, footer)
    size, nbytes = _count(core.tree_util.tree_leaves(variables))
    return f"{summary}\nTotal Parameters: {_format_count(size, nbytes)}"  # empty at 0, as Flax


def parameter_overview(params: Mapping, include_stats: bool = True) -> str:
    """A table of every parameter: name, shape, size, mean and std, then the total (clu's).

    Args:
      params: a nested dict of arrays (e.g. ``variables['params']``).
      include_stats: include the mean and std columns.

    Returns:
      The table as a string.
    """
    flat = flatten_dict(params, sep="/")
    header = ["Name", "Shape", "Size"] + (["Mean", "Std"] if include_stats else [])
    rows = []
    for name, value in flat.items():
        arr = np.asarray(value)
        row = [name, str(arr.shape), f"{arr.size:,}"]
        if include_stats:
            row += [f"{arr.mean():.3g}", f"{arr.std():.3g}"] if arr.size else ["", ""]
        rows.append(row)
    total = sum(np.asarray(v).size for v in flat.values())
    return _table(header, rows) + f"\nTotal: {total:,}"
