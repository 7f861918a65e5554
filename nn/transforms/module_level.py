"""From scope functions to modules: how a transform of a module class or of a function of a
module runs on a clone of the module bound to the lifted scopes.

`_transform` applies a scope-level transform to a ``Module`` class (a subclass named
``VmapDense``... whose ``methods`` are transformed) or to a function whose first argument is a
module; `_lift_method` makes the method, which collects the scopes to lift (the module's own,
then those of modules held in its fields but bound elsewhere) and runs the method on a clone
bound to them (`_call_on_clone`, sharing the auto-name counters so that every trace names
submodules alike). Bound modules and ``Variable`` objects among the method's arguments are
lifted too: `_lift_args` swaps them for static placeholders and adds their scopes, and
`_bind_args` rebuilds them on the lifted scopes (Flax's ``get_module_scopes`` and
``set_module_scopes``). ``nn.jit`` keys its cache on a fingerprint of the module's fields
(`_JitModule`) inside Flax's ``fork_rngs``. `_run_lifted` does the same for the transforms
written directly on `_Lift` (``nn.cond``, ``nn.vjp``...).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core import tree_util
from nn import errors
from nn import module as module_lib
from nn.module import Module
from nn.scope import CollectionFilter, LazyRng, Scope
from nn.transforms.packing import (
    _hashable,
    _Lift,
)
from nn.variables import Variable


def _fields(module: Module) -> dict[str, Any]:
    return {
        f.name: getattr(module, f.name)
        for f in dataclasses.fields(module)
        if f.init and f.name not in ("parent", "name")
    }


def _map_refs(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``fn`` over the modules and `Variable` objects in nested dicts, lists and tuples (lists
    become tuples, as in module fields)."""
    if isinstance(tree, (Module, Variable)):
        return fn(tree)
    if isinstance(tree, Mapping):
        return {k: _map_refs(fn, v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)) and not hasattr(tree, "_fields"):
        return tuple(_map_refs(fn, v) for v in tree)
    return tree


def _ref_key(ref: Module | Variable) -> Any:
    return ref._id if isinstance(ref, Module) else ("variable", id(ref))


def _external_refs(module: Module) -> list[Module | Variable]:
    """The modules and `Variable` objects bound outside ``module``'s scope held in its fields,
    or in the fields of modules held there (they bring their own scopes), as Flax's
    ``get_module_scopes`` finds them."""
    own = module.scope
    found: dict[Any, Module | Variable] = {}

    def visit(ref: Module | Variable) -> Module | Variable:
        key = _ref_key(ref)
        if key in found or key in seen:
            return ref
        seen.add(key)
        if isinstance(ref, Module):
            _map_refs(visit, _fields(ref))
        s = ref.scope
        inside = own is not None and s is not None and s.root is own.root
        if s is not None and not (inside and s.path[: len(own.path)] == own.path):
            found[key] = ref
        return ref

    seen: set = set()
    _map_refs(visit, _fields(module))
    return list(found.values())


def _module_scopes(
    module: Module, what: str, multi_scope: bool = True, unbound: bool = False
) -> list[Scope]:
    """The scopes a transform of ``module`` lifts: its own, then its external field modules'.

    With ``unbound``, an unbound module lifts no scope of its own and runs unbound inside
    (Flax's transformed methods do: ``nn.jit`` of an ``init_with_output`` override).
    """
    own = [] if unbound and module.scope is None else [module._require_scope(f"run nn.{what}")]
    external = _external_refs(module)
    if external and not multi_scope:
        raise errors.MultiScopeTransformError(what, [type(m).__name__ for m in external])
    return own + [m.scope for m in external]


@tree_util.register_static
class _ArgRef:
    """A bound module or a `Variable` passed as an argument of a lifted method, as Flax's
    ``InstancePlaceholder``/``VariablePlaceholder``: a pytree without leaves (the transform
    passes it through as static data, equal by class, fields and scope index), rebuilt
    inside on lifted scope ``index`` by `_bind_args`.

    Args:
      index: the position of its scope among the lifted scopes.
      cls: the module's or variable's class.
      attrs: the module's fields (bound modules among them as `_ArgRef` too) or the
        variable's collection and name.
      ref: the module's ``_id`` (the same module held in a field is rebuilt as one object).
    """

    def __init__(self, index: int, cls: type, attrs: dict, ref: Any):
        self.index = index
        self.cls = cls
        self.attrs = attrs
        self.ref = ref

    def _key(self) -> tuple:
        return (self.index, self.cls, _field_fingerprint(self.attrs))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ArgRef) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _is_ref(x: Any) -> bool:
    return isinstance(x, (Module, Variable, _ArgRef))


def _lift_args(tree: Any, scopes: list[Scope]) -> Any:
    """Flax's ``get_module_scopes`` for a method's arguments: bound modules and `Variable`
    objects in ``tree`` (and bound modules in their fields) become `_ArgRef` placeholders, and
    their scopes are appended to ``scopes``."""
    memo: dict[int, _ArgRef] = {}

    def lift(x: Any) -> Any:
        if not isinstance(x, (Module, Variable)) or not isinstance(x.scope, Scope):
            return x
        if id(x) not in memo:
            scopes.append(x.scope)
            index = len(scopes) - 1
            if isinstance(x, Module):
                fields = (f.name for f in dataclasses.fields(x) if f.init and f.name != "parent")
                attrs = {name: getattr(x, name) for name in fields}
                memo[id(x)] = _ArgRef(index, type(x), {}, x._id)
                memo[id(x)].attrs = tree_util.tree_map(lift, attrs, is_leaf=_is_ref)
            else:
                memo[id(x)] = _ArgRef(
                    index, type(x), {"collection": x.collection, "name": x.name}, None
                )
        return memo[id(x)]

    return tree_util.tree_map(lift, tree, is_leaf=_is_ref)


def _bind_args(tree: Any, scopes: Sequence[Scope], cache: dict[int, Module]) -> Any:
    """Flax's ``set_module_scopes`` for arguments: each `_ArgRef` in ``tree`` rebuilt on its
    lifted scope; the modules rebuilt go into ``cache`` by ``_id``."""
    built: dict[int, Any] = {}

    def bind(x: Any) -> Any:
        if not isinstance(x, _ArgRef):
            return x
        if x.index not in built:
            scope = scopes[x.index]
            if issubclass(x.cls, Module):
                attrs = tree_util.tree_map(bind, x.attrs, is_leaf=_is_ref)
                built[x.index] = cache[x.ref] = x.cls(parent=scope, **attrs)
            else:
                built[x.index] = x.cls(scope, **x.attrs)
        return built[x.index]

    refs = tree_util.tree_leaves(tree, is_leaf=_is_ref)
    return tree_util.tree_map(bind, tree, is_leaf=_is_ref) if any(map(_is_ref, refs)) else tree


def _bind_clone(
    module: Module,
    scopes: Sequence[Scope],
    cls: type | None = None,
    cache: dict[Any, Any] | None = None,
) -> Module:
    """A copy of ``module`` (as class ``cls``) bound to ``scopes[0]``.

    Modules and variables bound outside the module, in its fields or theirs (see
    :func:`_external_refs`), are copied onto the matching ``scopes[1:]`` (or are the module
    already rebuilt in ``cache``, passed as an argument too); the other modules are copied
    unbound and adopted again, so they land at the same names under the new scope.
    """
    own = int(module.scope is not None)  # an unbound module's clone stays unbound
    lifted = {_ref_key(r): s for r, s in zip(_external_refs(module), scopes[own:])}
    cache = {} if cache is None else cache

    def copy_ref(ref: Module | Variable) -> Module | Variable:
        key = _ref_key(ref)
        if key in cache:
            return cache[key]
        if isinstance(ref, Variable):
            if key not in lifted:
                return ref
            cache[key] = copy.copy(ref)
            cache[key].scope = lifted[key]
        else:
            fields = _map_refs(copy_ref, _fields(ref))
            cache[key] = ref.clone(parent=lifted.get(key), **fields)
        return cache[key]

    attrs = _map_refs(copy_ref, _fields(module))
    return (cls or type(module))(parent=scopes[0] if own else None, name=module.name, **attrs)


def _call_on_clone(
    fn: Callable,
    module: Module,
    scopes: Sequence[Scope],
    cls: type | None,
    args: tuple,
    kwargs: dict,
    cursor: dict,
) -> Any:
    """Runs ``fn`` (a wrapped method) on a clone of ``module`` bound to ``scopes``.

    Called from inside a compact method (the functional form), the clone may define
    submodules too: it starts from the auto-name counters ``cursor`` the module had when the
    transform was called (a transform may trace its body more than once, e.g. ``scan``, and
    every trace must name submodules alike), and the counters flow back so later names stay
    unique.
    """
    cache: dict[int, Module] = {}
    args, kwargs = _bind_args((args, kwargs), scopes, cache)
    clone = _bind_clone(module, scopes, cls, cache)
    clone._state.setup_transformed = module._state.setup_called
    in_compact = module._state.in_compact_method
    if in_compact:
        clone._state.in_compact_method = True
        clone._state.autoname_cursor = dict(cursor)
    y = fn(clone, *args, **kwargs)
    if in_compact:
        module._state.autoname_cursor.update(clone._state.autoname_cursor)
    _check_outputs(y, getattr(fn, "__name__", "method"))
    return y


def _check_outputs(tree: Any, method: str) -> None:
    """Flax's check that a transformed method returns no module or `Variable`."""
    leaves = tree_util.tree_leaves(tree, is_leaf=_is_ref)
    if any(isinstance(x, (Module, Variable)) for x in leaves):
        raise errors.TransformedMethodReturnValueError(method)


def _module_fingerprint(module: Module) -> Any:
    """The module's class and fields but its name (as Flax's: modules alike but for the name,
    e.g. three ``Foo(0)`` in a loop, share one trace of a jitted method)."""
    return (
        type(module),
        tuple(
            (f.name, _field_fingerprint(getattr(module, f.name)))
            for f in dataclasses.fields(module)
            if f.init and f.name not in ("parent", "name")
        ),
    )


def _field_fingerprint(value: Any) -> Any:
    """A field's value as a hashable key: modules (bound ones refuse ``hash``) by their own
    fingerprints, inside lists, tuples and dicts too; other unhashable values force a retrace."""
    if isinstance(value, Module):
        return _module_fingerprint(value)
    if isinstance(value, Mapping):
        return (dict, tuple((k, _field_fingerprint(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return (type(value), tuple(_field_fingerprint(v) for v in value))
    return _hashable(value)


def _lift_method(
    lift_fn: Callable[..., Callable], fn: Callable, cls: type | None, fingerprint: bool = False
) -> Callable:
    """``fn(module, *args)`` → a method running ``fn`` on a clone bound to the lifted scope.

    ``lift_fn(body)`` is a scope-level transform (``body(scopes, *args)``). With ``cls``, the
    clone is made of that class (the untransformed one, for class transforms).
    """
    prewrapped = module_lib._wrap_method(fn)
    name = getattr(fn, "__name__", "method")

    def body(module: Module, cursor: dict, scopes: list[Scope], *args: Any, **kwargs: Any) -> Any:
        return _call_on_clone(prewrapped, module, scopes, cls, args, kwargs, cursor)

    if fingerprint:
        # jit: one compiled body per method; the module travels through the context.
        lifted = lift_fn(
            lambda scopes, static, *a, **k: body(static.module, static.cursor, scopes, *a, **k)
        )

        def run(module: Module, *args: Any, **kwargs: Any) -> Any:
            with _fork_rngs(module):
                scopes = _module_scopes(module, name, unbound=cls is None)
                args, kwargs = _lift_args((args, kwargs), scopes)
                return lifted(scopes, _JitModule(module), *args, **kwargs)

    else:

        def run(module: Module, *args: Any, **kwargs: Any) -> Any:
            scopes = _module_scopes(module, name, unbound=cls is None)
            args, kwargs = _lift_args((args, kwargs), scopes)
            cursor = dict(module._state.autoname_cursor)
            return lift_fn(functools.partial(body, module, cursor))(scopes, *args, **kwargs)

    functools.update_wrapper(run, fn)
    run.__dict__.pop("compact", None)
    # The module bookkeeping runs on the clone (`prewrapped`), not around `run`: a class does
    # not wrap `run` again, so `@nn.compact` put outside a transform marks nothing (Flax's
    # wrapper carries the wrapped method's marker alike, and raises AssignSubModuleError).
    run.method_handler_wrapped = True
    return run


@contextlib.contextmanager
def _fork_rngs(module: Module):
    """Flax's ``fork_rngs`` around ``nn.jit``: while the jitted method runs, each RNG stream of the
    module's scope is a key drawn from it (``make_rng``, so the stream's counter moves on by
    one), so keys made inside are those of Flax, not of the untransformed module."""
    scope = module.scope
    if scope is None:
        yield
        return
    saved = scope.rngs
    scope.rngs = {n: LazyRng(scope.make_rng(n)) for n in saved}
    try:
        yield
    finally:
        scope.rngs = saved


class _JitModule:
    """The module of a jitted call: static data compared by the module's fields."""

    def __init__(self, module: Module):
        self.module = module
        self.cursor = dict(module._state.autoname_cursor)
        scope = module.scope
        # Flax's fingerprint holds the scope's make_rng counts (after fork_rngs moved them on):
        # a call with other counts traces again, its keys folded from them
        counts = () if scope is None else tuple(sorted(scope.rng_counters.streams.items()))
        self.key = (_module_fingerprint(module), tuple(sorted(self.cursor.items())), counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _JitModule) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _transform(
    lift_factory: Callable[..., Callable],
    target: Any,
    name: str,
    methods: Any = None,
    fingerprint: bool = False,
    **trafo_kwargs: Any,
) -> Any:
    """Applies a lifted transform to a module class (→ subclass) or a function of a module."""
    if isinstance(target, functools.partial) and _is_module_class(target.func):
        cls = _transform(lift_factory, target.func, name, methods, fingerprint, **trafo_kwargs)
        return functools.partial(cls, *target.args, **target.keywords)
    if _is_module_class(target):
        if methods is None:
            per_method = {"__call__": trafo_kwargs}
        elif isinstance(methods, Mapping):
            per_method = dict(methods)
        elif isinstance(methods, (list, tuple)):
            per_method = {m: trafo_kwargs for m in methods}
        else:
            raise errors.TransformMethodsError(methods)
        namespace = {
            m: _lift_method(
                functools.partial(lift_factory, **kw),
                getattr(target, m),
                target,
                fingerprint,
            )
            for m, kw in per_method.items()
        }
        return type(name.capitalize() + target.__name__, (target,), namespace)
    if not callable(target) or isinstance(target, Module):
        raise errors.TransformTargetError(name, target)
    return _lift_method(functools.partial(lift_factory, **trafo_kwargs), target, None, fingerprint)


def _is_module_class(target: Any) -> bool:
    return inspect.isclass(target) and issubclass(target, Module)


def _run_lifted(
    mdl: Module,
    what: str,
    in_filters: Sequence[CollectionFilter],
    out_filters: Sequence[CollectionFilter],
    rng_filters: Sequence[CollectionFilter],
    inner: Callable[[_Lift, Callable[[Callable, Any], Callable]], tuple[Any, Any]],
    multi_scope: bool = True,
) -> Any:
    """Lifts ``mdl``'s scopes and runs ``inner(lift, as_scope_fn)`` (→ ``(y, out_groups)``).

    ``as_scope_fn(fn)`` turns ``fn(module, *args)`` into ``g(scopes, *args)`` running ``fn``
    on a clone of ``mdl`` bound to ``scopes``. Without ``multi_scope`` only ``mdl``'s own
    scope is lifted (each group then holds one dict).
    """
    lift = _Lift(_module_scopes(mdl, what, multi_scope), in_filters, out_filters, rng_filters, what)
    cursor = dict(mdl._state.autoname_cursor)

    def as_scope_fn(fn: Callable) -> Callable:
        # A bound method (``self.encode``) runs as its function on the clone, as in Flax.
        if inspect.ismethod(fn) and isinstance(fn.__self__, Module):
            fn = fn.__func__
        prewrapped = module_lib._wrap_method(fn)

        def scope_fn(s: list[Scope], *args: Any) -> Any:
            return _call_on_clone(prewrapped, mdl, s, None, args, {}, cursor)

        return scope_fn

    y, out_groups = inner(lift, as_scope_fn)
    lift.publish(out_groups)
    return y
