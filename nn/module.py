"""``nn.Module``: dataclass modules bound lazily to a :class:`~nn.scope.Scope` (linen's model).

Every subclass is turned into a dataclass with two extra keyword-only fields, ``parent`` and
``name``, and its methods are wrapped so each call pushes the module on a context stack. A
module created while another module's method runs gets that module as parent: inside
``setup`` it is named after the attribute it is assigned to (``self.dense1``, lists become
``layers_0``...), inside an ``@compact`` method it is auto-named ``ClassName_i`` with a
per-call cursor, so a second call finds the same names and therefore the same variables.
``init``/``apply`` clone the module with a root scope as parent; binding flows down as
children push their names onto their parent's scope.

Differences from linen, each fixing a known sharp edge: ``init``/``apply`` take and return
plain dicts; user ``__post_init__`` needs no ``super().__post_init__()``; ``setup`` runs on an
unbound module when an attribute is read (``Model().backbone`` works), and errors that need
variables say how to bind; submodules passed as fields are adopted like ``setup`` ones.

Also here, with Flax's semantics: ``param``/``variable`` unbox metadata boxes (``nn.meta``),
``share_scope`` (two modules, one scope), ``compact_name_scope`` (a method as its own compact
scope, Haiku-style) and ``intercept_methods`` (a stack of wrappers around every method call).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NoReturn, TypeVar

import core.numpy as jnp
from core import dtypes as core_dtypes
from core import source_info, tree_util
from nn import errors, ids, partial_eval
from nn import scope as scope_lib
from nn.scope import CollectionFilter, DenyList, Scope
from nn.variables import Variable

M = TypeVar("M", bound="Module")


class _Unspecified:
    """The default of ``parent``: one object, kept by copies and pickles (as Flax's)."""

    def __repr__(self) -> str:
        return "<unspecified parent>"

    def __copy__(self) -> _Unspecified:
        return self

    def __deepcopy__(self, memo: dict) -> _Unspecified:
        return self

    def __reduce__(self) -> str:
        return "_unspecified_parent"  # pickled by reference to this module's global


_unspecified_parent = _Unspecified()


class _Context(threading.local):
    def __init__(self) -> None:
        self.module_stack: list[Any] = [None]
        self.capture_stack: list[Any] = []
        self.call_recorder: Any = None
        self.interceptors: list[Callable] = []


_context = _Context()
_use_named_call = True  # Flax's config.flax_profile default
_preserve_adopted_names = False  # Flax's config.flax_preserve_adopted_names default


def set_preserve_adopted_names(flag: bool) -> None:
    """Sets Flax's ``flax_preserve_adopted_names``: a named module passed in from outside keeps
    its name when adopted (``Bar(sub=Foo(name='foo'))`` has ``foo``, else ``sub``); a module
    class overrides it with a ``preserve_adopted_names`` class attribute.

    Args:
      flag: the new setting (default ``False``).
    """
    global _preserve_adopted_names
    _preserve_adopted_names = bool(flag)


def _attr_repr(value: Any) -> str:
    """A field's value as Flax shows it: a named function (or a module given a ``__name__``)
    by its name."""
    if isinstance(value, Module):
        name = value.__dict__.get("__name__")
    else:
        name = getattr(value, "__name__", None) if callable(value) else None
    return name if name else repr(value)


def _module_repr(module: Module, num_spaces: int = 4) -> str:
    """Flax's module repr: ``Name()``, or ``Name(`` then ``# attributes`` (``field = value``,
    every field but ``parent`` and ``name``) and ``# children`` (the bound submodules, each
    shown so), one per line, indented."""
    rep = ""
    fields = [f.name for f in dataclasses.fields(module) if f.name not in ("parent", "name")]
    fields = [f for f in fields if module.__dataclass_fields__[f].repr]
    if fields:
        rep += "# attributes\n"
        rep += "".join(f"{name} = {_attr_repr(module.__dict__.get(name))}\n" for name in fields)
    children = {k: v for k, v in module._state.children.items() if isinstance(v, Module)}
    if children:
        rep += "# children\n"
        rep += "".join(f"{k} = {_module_repr(v, num_spaces)}\n" for k, v in children.items())
    if not rep:
        return f"{type(module).__name__}()"
    pad = " " * num_spaces
    body = "".join(pad + line + "\n" for line in rep.split("\n")[:-1])
    return f"{type(module).__name__}(\n{body})"


class _ParentDescriptor:
    """``module.parent``, held by a weak reference when it is a module (as Flax's), so a child
    and the parent that lists it in its children form no reference cycle: a bound tree is freed
    as soon as the call returns, and ``checking_leaks()`` sees no tracer kept alive by one."""

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return _unspecified_parent
        parent = obj.__dict__.get("_parent_ref", _unspecified_parent)
        return parent() if isinstance(parent, weakref.ReferenceType) else parent

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["_parent_ref"] = weakref.ref(value) if isinstance(value, Module) else value


class _State:
    """Per-instance bookkeeping: lifecycle flags, auto-name cursor and children."""

    def __init__(self) -> None:
        self.in_compact_method = False
        self.in_setup = False
        self.setup_called = False
        # a transform's copy of a module whose setup had run (Flax's SetupState.TRANSFORMED):
        # its setup may define submodules at names an aliased argument's scope already holds
        self.setup_transformed = False
        self.is_initialized = False
        self.autoname_cursor: dict[str, int] = {}
        self.children: dict[str, Any] = {}

    def reset(self) -> None:
        """Clears what is local to one method call (run after each setup/compact call)."""
        self.in_compact_method = False
        self.in_setup = False
        self.autoname_cursor = {}


_uninitialized_state = _State()
_INIT_MUTABLE = DenyList("intermediates")  # init creates every collection but intermediates


def compact(fun: Callable) -> Callable:
    """Marks the method that may define submodules and variables inline (one per class)."""
    fun.compact = True
    return fun


def nowrap(fun: Callable) -> Callable:
    """Marks a method as a plain helper: no module bookkeeping runs around it."""
    fun.nowrap = True
    return fun


def compact_name_scope(fun: Callable) -> Callable:
    """Makes a method a compact scope of its own, named after the method (Haiku-style).

    Submodules created inline in the method are named under ``<method name>/``, e.g.
    ``{'up': {'Dense_0': ...}, 'down': {'Dense_0': ...}}`` for methods ``up`` and ``down``;
    the method can be called from ``__call__`` or through ``apply(..., method='up')``.

    Args:
      fun: the method.

    Returns:
      The method, routed through a submodule named after it.
    """

    @functools.wraps(fun)
    def compact_name_scope_wrapper(self: Module, *args, **kwargs):
        self._try_setup()
        scopes = self.__dict__.get("_compact_name_scopes")
        if scopes is None:
            raise errors.UnboundModuleError.of(type(self).__name__, f"call {fun.__name__}")
        return scopes[fun.__name__](*args, **kwargs)

    compact_name_scope_wrapper.compact_name_scope = True
    compact_name_scope_wrapper.inner_fun = fun
    compact_name_scope_wrapper.nowrap = True
    return compact_name_scope_wrapper


@dataclasses.dataclass(frozen=True)
class InterceptorContext:
    """What a method interceptor is told about the intercepted call.

    Attributes:
      module: the module whose method is called.
      method_name: the method's name.
      orig_method: the method bound to ``module``; calling it skips the other interceptors.
    """

    module: Module
    method_name: str
    orig_method: Callable[..., Any]


@contextlib.contextmanager
def intercept_methods(interceptor: Callable) -> Iterator[None]:
    """Calls ``interceptor(next_fun, args, kwargs, context)`` around every module method call.

    Inside the ``with`` block, each call of a wrapped module method (``__call__``, ``setup``,
    user methods; not ``@nowrap`` ones, dunders or fields) goes through the interceptor, which
    may change the arguments, the result, or skip the method. Interceptors nest: the first
    one registered runs outermost; ``context.orig_method`` bypasses the rest.

    Args:
      interceptor: ``f(next_fun, args, kwargs, context: InterceptorContext) -> result``.
    """
    with _pushed(_context.interceptors, interceptor):
        yield


@contextlib.contextmanager
def _pushed(stack: list[Any], item: Any) -> Iterator[None]:
    """`item` on top of the per-thread `stack` for the duration of the block."""
    stack.append(item)
    try:
        yield
    finally:
        stack.pop()


def _run_interceptors(fun: Callable, module: Module, *args, **kwargs) -> Any:
    context = InterceptorContext(module, fun.__name__, functools.partial(fun, module))
    call = context.orig_method
    for interceptor in reversed(_context.interceptors):
        call = functools.partial(
            lambda icpt, nxt, *a, **k: icpt(nxt, a, k, context), interceptor, call
        )
    return call(*args, **kwargs)


def share_scope(module: Module, other: Module, /) -> None:
    """Makes ``module`` and ``other`` use one scope, so their variables live side by side.

    Call it in ``setup``. If ``other`` is (below) a child of ``module``, ``other`` takes
    ``module``'s scope; otherwise ``module`` takes ``other``'s, e.g. a LoRA wrapper whose
    extra parameters join the wrapped ``Dense``'s: ``{'Dense_0': {'A', 'B', 'kernel',
    'bias'}}``.

    Args:
      module: usually ``self``.
      other: the module whose scope is shared.

    Raises:
      UnboundModuleError: one of the modules has no scope.
    """
    for m in (module, other):
        m._require_scope("share its scope")
    scope: Scope | None = other.scope
    while scope is not None and scope is not module.scope:
        scope = scope.parent
    if scope is not None:  # other is a descendant of module: it moves into module's scope
        target, new_scope = other, module.scope
    else:
        target, new_scope = module, other.scope
    old_scope = target.scope
    object.__setattr__(target, "scope", new_scope)
    for child in target._state.children.values():
        child_scope = child.scope if isinstance(child, Module) else None
        if child_scope is not None and child_scope.parent is old_scope:
            new_scope.reserve(child_scope.name)
            child_scope.parent = new_scope


def tuple_reduce(xs: tuple, x: Any) -> tuple:
    """``sow``'s default reduction: append ``x`` to the tuple ``xs``."""
    return xs + (x,)


def tuple_init() -> tuple:
    """``sow``'s default initial value: the empty tuple."""
    return ()


def capture_call_intermediates(_: Module, method_name: str) -> bool:
    """``capture_intermediates=True``'s filter: store the outputs of ``__call__``."""
    return method_name == "__call__"


def merge_param(name: str, a: Any, b: Any) -> Any:
    """Returns whichever of a constructor value ``a`` and a call value ``b`` is set (exactly one).

    Raises:
      ArgumentTwiceError: both are set.
      ArgumentMissingError: neither is set.
    """
    if a is None and b is None:
        raise errors.ArgumentMissingError(name)
    if a is not None and b is not None:
        raise errors.ArgumentTwiceError(name)
    return b if a is None else a


def _map_over_modules(fn: Callable[[str, Any], Any], tree: Any, suffix: str = "") -> Any:
    """Maps ``fn(suffix, module)`` over modules in nested lists/tuples/dicts; lists → tuples.

    ``suffix`` is ``'_' + '_'.join(path)``, Flax's naming of modules held in containers.
    """
    if isinstance(tree, Mapping):
        # visited in Flax's order (keys sorted as strings), so the first holder of a module
        # shared by several keys names it; the dict keeps its own order
        done = {k: _map_over_modules(fn, tree[k], f"{suffix}_{k}") for k in sorted(tree, key=str)}
        return {k: done[k] for k in tree}
    if isinstance(tree, (list, tuple)) and not hasattr(tree, "_fields"):
        return tuple(_map_over_modules(fn, v, f"{suffix}_{i}") for i, v in enumerate(tree))
    return fn(suffix, tree) if isinstance(tree, Module) else tree


def _wrap_method(fun: Callable) -> Callable:
    if getattr(fun, "method_handler_wrapped", False):
        return fun

    @functools.wraps(fun)
    def wrapped_module_method(*args, **kwargs):
        if args and isinstance(args[0], Module):
            return args[0]._call_wrapped_method(fun, args[1:], kwargs)
        return fun(*args, **kwargs)

    wrapped_module_method.method_handler_wrapped = True
    return wrapped_module_method


_NEVER_WRAPPED = {
    "__init__",
    "__post_init__",
    "__eq__",
    "__hash__",
    "__repr__",
    "__setattr__",
    "__getattr__",
    "__init_subclass__",
}


def _wrap_hash(hash_fn: Callable[[Any], int]) -> Callable[[Any], int]:
    """A module's ``__hash__`` refusing bound modules (their variables change) and naming the
    unhashable field, as Flax's."""
    if getattr(hash_fn, "module_hash_wrapped", False):
        return hash_fn

    @functools.wraps(hash_fn)
    def __hash__(self) -> int:
        if self.scope is not None:
            raise errors.BoundModuleHashError()
        try:
            return hash_fn(self)
        except TypeError as cause:
            raise errors.UnhashableModuleError(self) from cause

    __hash__.module_hash_wrapped = True
    return __hash__


def _takes_an_argument(fn: Callable) -> bool:
    """Whether ``fn``'s signature has a parameter (one without a signature is given the benefit
    of the doubt)."""
    try:
        return len(inspect.signature(fn).parameters) >= 1
    except (TypeError, ValueError):
        return True


class Module:
    """Base class of all layers and models (``flax.linen.Module``).

    Subclasses are dataclasses. Define submodules and variables either in ``setup()`` or
    inline in one method decorated with ``@nn.compact``; run the model with ``init`` and
    ``apply``.

    Example::

        class MLP(nn.Module):
            features: int = 4

            @nn.compact
            def __call__(self, x):
                return nn.Dense(self.features)(nn.relu(nn.Dense(8)(x)))

        variables = MLP().init(core.random.key(0), jnp.ones((1, 3)))
        y = MLP().apply(variables, jnp.ones((1, 3)))
    """

    _state = _uninitialized_state
    _compact_name_scope_methods = ()
    scope: Scope | None = None

    def __init_subclass__(cls, kw_only: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations = dict(cls.__dict__.get("__annotations__", {}))
        reserved = {f: annotations[f] for f in ("parent", "name") if f in annotations}
        if reserved:
            raise errors.ReservedFieldError(cls.__name__, reserved)
        annotations["parent"] = Any
        annotations["name"] = str | None  # not a string: dataclasses would look up cls's module
        cls.__annotations__ = annotations
        generated_init = "__init__" not in cls.__dict__
        cls.parent = dataclasses.field(
            default=_unspecified_parent, kw_only=True, repr=False, compare=False, hash=False
        )
        cls.name = dataclasses.field(default=None, kw_only=True)
        dataclasses.dataclass(
            cls, unsafe_hash="__hash__" not in cls.__dict__, repr=False, kw_only=kw_only
        )
        # A field redeclared by a subclass keeps its base-class position, so a module deriving
        # from a field-less base would list parent/name first; Flax lists them last.
        own = cls.__dataclass_fields__
        for last in ("parent", "name"):
            own[last] = own.pop(last)
        if cls.__hash__ is not None:
            cls.__hash__ = _wrap_hash(cls.__hash__)
        cls.parent = _ParentDescriptor()
        positional = sum(f.init and not f.kw_only for f in own.values())
        cls.__init__ = cls._wrap_init(
            cls.__dict__["__init__"], positional if generated_init else None
        )
        cls._wrap_methods()

    @classmethod
    def _wrap_init(cls, init: Callable, positional: int | None) -> Callable:
        """``init`` finishing the module's construction; ``positional``: how many positional
        arguments a generated ``__init__`` takes (Flax's count and message when given more)."""

        @functools.wraps(init)
        def __init__(self, *args, **kwargs):
            if positional is not None and len(args) > positional:
                raise TypeError(
                    f"__init__() takes {positional + 1} positional arguments but "
                    f"{len(args) + 1} were given"
                )
            init(self, *args, **kwargs)
            if type(self).__init__ is __init__:
                self._finish_init()

        return __init__

    @classmethod
    def _wrap_methods(cls) -> None:
        fields = {f.name for f in dataclasses.fields(cls)}
        for name, member in list(cls.__dict__.items()):
            if (
                name in fields
                or name in _NEVER_WRAPPED
                or not inspect.isfunction(member)
                or getattr(member, "nowrap", False)
            ):
                continue
            setattr(cls, name, _wrap_method(member))
        cls._compact_name_scope_methods = tuple(
            name
            for name in dir(cls)
            if getattr(inspect.getattr_static(cls, name, None), "compact_name_scope", False)
        )

    # -- construction and attachment ---------------------------------------------------------

    def __post_init__(self) -> None:
        """Kept so user ``__post_init__`` may call ``super().__post_init__()``; not required."""

    def _finish_init(self) -> None:
        object.__setattr__(self, "_state", _State())
        object.__setattr__(self, "_id", ids.uuid())
        if self.parent is _unspecified_parent:
            object.__setattr__(self, "parent", _context.module_stack[-1])
        self._attach()

    def _attach(self) -> None:
        """Names this module and pushes its scope onto its parent's (if the parent is bound)."""
        self._state.is_initialized = False  # open while (re)attaching: fields adopt submodules
        parent = self.parent
        if isinstance(parent, Scope):
            object.__setattr__(self, "scope", parent)
        elif isinstance(parent, Module):
            if parent._state.in_setup and self.name is None:
                return  # named when assigned to an attribute of the parent
            if not parent._initialization_allowed:
                raise errors.DefinedOutsideSetupError(
                    "Submodule", f"{type(self).__name__}(...)", type(parent).__name__
                )
            if self.name is None:
                prefix = type(self).__name__
                cursor = parent._state.autoname_cursor.get(prefix, 0)
                object.__setattr__(self, "name", f"{prefix}_{cursor}")
                parent._state.autoname_cursor[prefix] = cursor + 1
            reuse = parent._state.in_setup and parent._state.setup_transformed
            if not reuse and parent._name_taken(self.name):
                raise errors.NameInUseError(
                    "submodule", self.name, type(parent).__name__, parent._path_text
                )
            parent._state.children[self.name] = self
            if parent.scope is not None:
                object.__setattr__(self, "scope", parent.scope.push(self.name, reuse=reuse))
        elif parent is None:
            # A top-level module stays open until it is bound, as Flax's does: its attributes
            # (a field, or `model.apply = jax.jit(model.apply)`) may be set; a bound or
            # attached one is frozen.
            return
        else:
            raise TypeError(f"parent must be None, a Module or a Scope, got {parent!r}.")
        if self.scope is not None:
            self._register_field_submodules()
        self._state.is_initialized = True

    def _register_field_submodules(self) -> None:
        for field in dataclasses.fields(self):
            if field.init and field.name not in ("parent", "name"):
                self._register_submodules(field.name, getattr(self, field.name))

    def _register_submodules(self, name: str, value: Any) -> None:
        """Stores ``value`` as attribute ``name``, adopting and naming the modules it holds."""
        queue = []
        # One clone per original module per tree, so sharing by reference survives adoption.
        cache = self.scope.root.adopted if self.scope is not None else {}

        preserve = getattr(type(self), "preserve_adopted_names", _preserve_adopted_names)

        def adopt(suffix: str, sub: Module) -> Module:
            adopted_name = None
            if sub.parent is None or (sub.scope is None and sub.parent is not self):
                # A module made elsewhere (unbound): adopt a clone, named after the attribute
                # (or keeping its own name under Flax's preserve_adopted_names).
                if preserve:
                    adopted_name = sub.name
                clone = cache.get(sub._id)
                if clone is None:
                    clone = cache[sub._id] = sub.clone(name=None)
                sub = clone
            if sub.name is None:
                object.__setattr__(sub, "parent", self)
                object.__setattr__(sub, "name", adopted_name or f"{name}{suffix}")
                queue.append(sub)
            return sub

        value = _map_over_modules(adopt, value)
        object.__setattr__(self, name, value)
        for sub in queue:
            sub._attach()

    @property
    def _initialization_allowed(self) -> bool:
        state = self._state
        return not state.is_initialized or state.in_setup or state.in_compact_method

    def _name_taken(self, name: str, collection: str | None = None) -> bool:
        if self.scope is None:
            return name in self._state.children
        return self.scope.name_reserved(name, collection)

    @property
    def _path_text(self) -> str:
        return (
            self.scope.path_text if self.scope is not None else f"<unbound {type(self).__name__}>"
        )

    # -- setup and method calls --------------------------------------------------------------

    def setup(self) -> None:
        """Defines submodules and variables; runs lazily, once, before the first method call."""

    def _try_setup(self) -> None:
        state = self._state
        # As Flax: setup runs only once the module is bound (an unbound module has no setup
        # attributes; `bind` gives a bound one)
        if state.setup_called or state.in_setup or not state.is_initialized or self.scope is None:
            return
        state.in_setup = True
        try:
            self._register_field_submodules()
            self.setup()
            if self._compact_name_scope_methods:
                scopes = {
                    name: _CompactNameScope(
                        getattr(type(self), name).inner_fun, lambda: self, parent=self, name=name
                    )
                    for name in self._compact_name_scope_methods
                }
                object.__setattr__(self, "_compact_name_scopes", scopes)
        finally:
            state.in_setup = False
        state.setup_called = True

    def _call_wrapped_method(self, fun: Callable, args: tuple, kwargs: dict) -> Any:
        is_compact = getattr(fun, "compact", False)
        name = getattr(fun, "__name__", "unnamed_function")  # Flax's name of a partial
        is_setup = name == "setup"
        state = self._state
        if is_setup:
            is_recurrent = state.in_setup
            state.in_setup = True
        else:
            self._try_setup()
        if is_compact:
            if self.scope is None:
                error = (
                    errors.UnboundSubmoduleError
                    if isinstance(self.parent, Module)
                    else errors.UnboundModuleError
                )
                raise error(type(self).__name__, f"run {name}")
            is_recurrent = state.in_compact_method
            state.in_compact_method = True
        recorder = None if is_setup else _context.call_recorder
        call_index = recorder.enter() if recorder is not None else None
        _context.module_stack.append(self)
        names = source_info.state.stack if _use_named_call else None
        if names is not None:
            names.append(_profiling_name(self, name))
        try:
            if _context.interceptors:
                y = _run_interceptors(fun, self, *args, **kwargs)
            else:
                y = fun(self, *args, **kwargs)
            if _context.capture_stack and self.scope is not None:
                filter_fn = _context.capture_stack[-1]
                if filter_fn and filter_fn(self, name):
                    self.sow("intermediates", name, y)
            if recorder is not None and self.scope is not None:
                recorder.exit(call_index, self, name, args, kwargs, y)
            return y
        finally:
            if names is not None:
                names.pop()
            _context.module_stack.pop()
            if is_compact:
                object.__setattr__(self, "scope", self.scope.rewound())
            if (is_compact or is_setup) and not is_recurrent:
                state.reset()

    def __setattr__(self, name: str, value: Any) -> None:
        state = self._state
        if not state.in_setup:
            if not state.is_initialized or name.startswith("__"):
                object.__setattr__(self, name, value)
                return
            raise errors.FrozenModuleError(type(self).__name__, name, value)
        field = self.__dataclass_fields__.get(name)
        if field is not None and field.init:
            raise errors.SetupFieldAssignmentError(type(self).__name__, name)
        self._register_submodules(name, value)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_state", "_id"):
            raise AttributeError(name)
        self._try_setup()
        if name in self.__dict__:
            return self.__dict__[name]
        prop = inspect.getattr_static(type(self), name, None)
        if hasattr(type(prop), "__get__"):
            # A property (or any descriptor) exists: Python came here because it raised
            # AttributeError.
            try:
                prop.__get__(self, type(self))
            except AttributeError as cause:
                raise errors.PropertyAttributeError(type(self).__name__, name, cause) from cause
        return self._missing_attribute(name)

    def _missing_attribute(self, name: str) -> NoReturn:
        """Raises Flax's AttributeError for ``name`` (with the setup hint when unbound)."""
        if self.scope is None:
            raise errors.UnboundCallSetupAttributeError(type(self).__name__, name)
        raise AttributeError(f'"{type(self).__name__}" object has no attribute "{name}".')

    def __dir__(self) -> list[str]:
        self._try_setup()
        return list(object.__dir__(self))

    def __repr__(self) -> str:
        return _module_repr(self)

    # -- cloning and binding -----------------------------------------------------------------

    def clone(
        self: M,
        *,
        parent: Any = None,
        _deep_clone: bool | dict = False,
        _reset_names: bool = False,
        **updates: Any,
    ) -> M:
        """A copy of this module's fields with ``updates``, attached to ``parent``.

        Args:
          parent: the new parent (default: none, i.e. unbound).
          _deep_clone: also clone the submodules held in fields (a dict here is the cache
            that keeps shared submodules shared).
          _reset_names: with ``_deep_clone``, forget the submodules' names.
          **updates: field values to change.

        Returns:
          The new module.
        """
        attrs = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        attrs.update(parent=parent, **updates)
        if _deep_clone is not False:
            cache: dict[int, Module] = {} if _deep_clone is True else _deep_clone

            def clone_fn(_: str, m: Module) -> Module:
                if m._id not in cache:
                    extra = {"name": None} if _reset_names else {}
                    cache[m._id] = m.clone(_deep_clone=cache, _reset_names=_reset_names, **extra)
                return cache[m._id]

            for key, value in attrs.items():
                if key != "parent":
                    attrs[key] = _map_over_modules(clone_fn, value)
        return type(self)(**attrs)

    def copy(
        self: M, *, parent: Any = _unspecified_parent, name: str | None = None, **updates
    ) -> M:
        """A deep copy with updated fields, a new (auto) name and the current module as parent."""
        return self.clone(parent=parent, name=name, _deep_clone=True, **updates)

    def bind(
        self: M,
        variables: Mapping,
        *,
        rngs: Any = None,
        mutable: CollectionFilter = False,
    ) -> M:
        """A bound copy for interactive use: ``model.bind(variables).dense1(x)``.

        Args:
          variables: the variable dict (as returned by ``init``).
          rngs: a key or ``{stream: key}``.
          mutable: the collections that may be written.

        Returns:
          The bound module.
        """
        _require_instance(self, "bind")
        scope = scope_lib.bind(variables, rngs=rngs, mutable=mutable)
        return self.clone(parent=scope, _deep_clone=True)

    def unbind(self: M) -> tuple[M, dict]:
        """Returns ``(unbound copy, variables)`` of a bound module."""
        if self.scope is None:
            raise errors.UnboundModuleError.of(type(self).__name__, "be unbound")
        module = self.clone(_deep_clone=True, _reset_names=True, name=None)
        return module, self.variables

    # -- variables and rngs ------------------------------------------------------------------

    def _require_scope(self, what: str) -> Scope:
        if self.scope is None:
            raise errors.UnboundModuleError.of(type(self).__name__, what)
        return self.scope

    def _check_declaration(self, kind: str, name: str, col: str) -> Scope:
        if self.scope is None:
            raise errors.UnboundDeclarationError(type(self).__name__, f"create {kind} {name!r}")
        scope = self.scope
        if not self._initialization_allowed:
            raise errors.VariableOutsideSetupError(kind, name, type(self).__name__)
        if self._name_taken(name, col):
            raise errors.NameInUseError(kind, name, type(self).__name__, scope.path_text)
        return scope

    def param(self, name: str, init_fn: Callable, *init_args, unbox: bool = True, **init_kwargs):
        """Declares parameter ``name``, created by ``init_fn(key, *init_args)`` at init.

        On later calls the stored value is returned, after checking its shape against what
        ``init_fn`` would produce.

        Args:
          name: the parameter name.
          init_fn: the initializer; it gets a ``'params'`` key first.
          *init_args: more positional arguments for ``init_fn`` (typically shape, dtype).
          unbox: strip metadata boxes (``nn.Partitioned``...) from the returned value (the
            stored variable keeps them, so ``init`` returns boxed params as in Flax).
          **init_kwargs: keyword arguments for ``init_fn``.

        Returns:
          The parameter value.
        """
        scope = self._check_declaration("parameter", name, "params")
        value = scope.param(name, init_fn, *init_args, unbox=unbox, **init_kwargs)
        self._state.children[name] = "params"
        return value

    def variable(
        self,
        col: str,
        name: str,
        init_fn: Callable | None = None,
        *init_args,
        unbox: bool = True,
        **init_kwargs,
    ) -> Variable:
        """Declares variable ``name`` of collection ``col``, created by ``init_fn(*init_args)``.

        Args:
          col: the collection, e.g. ``'batch_stats'``.
          name: the variable name.
          init_fn: the initializer (no key is passed); ``None`` requires an existing value.
          *init_args: positional arguments for ``init_fn``.
          unbox: ``.value`` reads without metadata boxes and writes into the existing ones.
          **init_kwargs: keyword arguments for ``init_fn``.

        Returns:
          A :class:`~nn.variables.Variable` handle (read and write ``.value``).
        """
        scope = self._check_declaration("variable", name, col)
        var = scope.variable(col, name, init_fn, *init_args, unbox=unbox, **init_kwargs)
        self._state.children[name] = col
        return var

    def has_variable(self, col: str, name: str) -> bool:
        """Whether variable ``name`` exists in collection ``col`` of this module."""
        return self._require_scope("look up variables").has_variable(col, name)

    def get_variable(self, col: str, name: str, default: Any = None) -> Any:
        """The value of a variable, or ``default``."""
        return self._require_scope("read variables").get_variable(col, name, default)

    def put_variable(self, col: str, name: str, value: Any) -> None:
        """Writes a variable (the collection must be mutable)."""
        self._require_scope("write variables").put_variable(col, name, value)

    def is_mutable_collection(self, col: str) -> bool:
        """Whether collection ``col`` may be written in the current call."""
        return self._require_scope("check mutability").is_mutable_collection(col)

    def has_rng(self, name: str) -> bool:
        """Whether the call was given PRNG stream ``name``."""
        return self._require_scope("query RNG streams").has_rng(name)

    def make_rng(self, name: str = "params") -> Any:
        """A fresh key from stream ``name``, derived from this module's path (Flax's rule)."""
        return self._require_scope(f"make a {name!r} PRNG key").make_rng(name)

    def is_initializing(self) -> bool:
        """Whether this call runs under ``init``."""
        return bool(self._require_scope("check for init").flags.get("initializing", False))

    @property
    def variables(self) -> dict:
        """The variables of this module, ``{collection: {...}}``."""
        return self._require_scope("list its variables").variables()

    @property
    def path(self) -> tuple[str, ...]:
        """The names from the root module to this one (``()`` for the root)."""
        return self._require_scope("report its path").path

    def sow(
        self,
        col: str,
        name: str,
        value: Any,
        reduce_fn: Callable[[Any, Any], Any] = tuple_reduce,
        init_fn: Callable[[], Any] = tuple_init,
    ) -> bool:
        """Stores ``value`` in collection ``col`` (appended to a tuple by default).

        Returns ``False`` and does nothing when ``col`` is not mutable in this call, so
        ``apply(..., mutable=['intermediates'])`` decides whether values are collected.
        """
        scope = self._require_scope("sow values")
        if not scope.is_mutable_collection(col):
            return False
        if scope.has_variable(col, name):
            xs = scope.get_variable(col, name)
        else:
            scope.reserve(name, col, kind="variable")
            self._state.children[name] = col
            xs = init_fn()
        scope.put_variable(col, name, reduce_fn(xs, value))
        return True

    def perturb(self, name: str, value: Any, collection: str = "perturbations") -> Any:
        """Adds a zero variable to an intermediate value, so that its gradient is the value's.

        Under ``init`` (or whenever ``collection`` is mutable) the zeros are created; when the
        variables given to ``apply`` hold ``collection``, ``value`` plus the variable is
        returned, and ``core.grad`` with respect to it gives the intermediate gradient. Without
        the collection the call is a no-op.

        Args:
          name: the variable's name.
          value: the intermediate value (a pytree of arrays).
          collection: the collection holding the perturbations.

        Returns:
          ``value`` (plus the perturbation when ``collection`` is present).
        """
        scope = self._require_scope("store variables")
        if scope.is_mutable_collection(collection) and not scope.has_variable(collection, name):
            scope.reserve(name, collection, kind="variable")
            self._state.children[name] = collection
            scope.put_variable(collection, name, tree_util.tree_map(jnp.zeros_like, value))
        if collection in scope.root._variables:
            if not scope.has_variable(collection, name):
                raise errors.MissingPerturbationError(collection, name)
            value = tree_util.tree_map(jnp.add, value, scope.get_variable(collection, name))
        return value

    # -- init / apply --------------------------------------------------------------------------

    def _method_fn(self, method: Callable | str | None, submodule: bool = False) -> Callable:
        """The function ``init``/``apply`` run for ``method``; ``submodule``: a name of a
        submodule attribute runs that submodule (``apply(..., method='encoder')``, as Flax's
        ``apply``)."""
        if method is None:
            if not any("__call__" in vars(c) for c in type(self).__mro__):
                return self._missing_attribute("__call__")  # Flax's AttributeError
            method = type(self).__call__
        elif isinstance(method, str):
            # looked up on the (unbound) module, as Flax does: a name that only setup defines
            # raises its AttributeError, a field holding a callable is used as the method
            name, method = method, getattr(self, method)
            if not callable(method):
                raise errors.MethodNotCallableError(type(self).__name__, name, method)
            if submodule and isinstance(method, Module):
                return functools.partial(_call_attribute, name)
        if inspect.ismethod(method) and isinstance(method.__self__, Module):
            method = method.__func__
        # as Flax: a function without a parameter for the module is not a method either
        if not callable(method) or not _takes_an_argument(method):
            raise errors.InvalidMethodError(type(self).__name__, method)
        return method

    def apply(
        self,
        variables: Mapping,
        *args: Any,
        rngs: Any = None,
        method: Callable | str | None = None,
        mutable: CollectionFilter = False,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> Any:
        """Runs ``method`` (default ``__call__``) with ``variables`` bound.

        Args:
          variables: ``{'params': ..., 'batch_stats': ..., ...}`` as returned by ``init``.
          *args: arguments of the method.
          rngs: a key or ``{stream: key}``, e.g. ``{'dropout': key}``.
          method: a method of the module, or its name.
          mutable: collections that may change: ``False``, ``True``, a name, a list of names
            or a :class:`DenyList`.
          capture_intermediates: store every ``__call__`` output in ``'intermediates'``
            (or pass a filter ``f(module, method_name) -> bool``).
          **kwargs: keyword arguments of the method.

        Returns:
          The method's output, or ``(output, mutated_variables)`` when ``mutable`` is set.
        """
        _require_instance(self, "apply")
        if rngs is not None:
            _check_rngs_arg(self, rngs, "apply")
        return apply(
            self._method_fn(method, submodule=True),
            self,
            mutable=mutable,
            capture_intermediates=capture_intermediates,
        )(variables, *args, rngs=rngs, **kwargs)

    def init_with_output(
        self,
        rngs: Any,
        *args: Any,
        method: Callable | str | None = None,
        mutable: CollectionFilter = _INIT_MUTABLE,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> tuple[Any, dict]:
        """Like :meth:`init`, but returns ``(output, variables)``."""
        _require_instance(self, "init_with_output")
        _check_rngs_arg(self, rngs, "init")
        return init_with_output(
            self._method_fn(method),
            self,
            mutable=mutable,
            capture_intermediates=capture_intermediates,
        )(rngs, *args, **kwargs)

    def init(
        self,
        rngs: Any,
        *args: Any,
        method: Callable | str | None = None,
        mutable: CollectionFilter = _INIT_MUTABLE,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> dict:
        """Creates the variables by running ``method`` (default ``__call__``) once.

        Args:
          rngs: a key (used for ``'params'``) or ``{stream: key}``.
          *args: example inputs (their shapes decide parameter shapes).
          method: a method of the module, or its name.
          mutable: collections to create (default: all but ``'intermediates'``).
          capture_intermediates: as in :meth:`apply`.
          **kwargs: keyword arguments of the method.

        Returns:
          The variable dict, e.g. ``{'params': {'Dense_0': {'kernel': ..., 'bias': ...}}}``.
        """
        _require_instance(self, "init")
        _, variables = self.init_with_output(
            rngs,
            *args,
            method=method,
            mutable=mutable,
            capture_intermediates=capture_intermediates,
            **kwargs,
        )
        return variables

    def lazy_init(
        self,
        rngs: Any,
        *args: Any,
        method: Callable | str | None = None,
        mutable: CollectionFilter = _INIT_MUTABLE,
        **kwargs: Any,
    ) -> dict:
        """``init`` from input shapes: arguments may be ``core.ShapeDtypeStruct``.

        What needs a struct argument's values is staged, never run (``nn.partial_eval``), so
        only the variables' initializers run, whatever the input's size.

        Args:
          rngs: a key (used for ``'params'``) or ``{stream: key}``.
          *args: example inputs, arrays or ``core.ShapeDtypeStruct``.
          method: a method of the module, or its name.
          mutable: collections to create (default: all but ``'intermediates'``).
          **kwargs: keyword arguments of the method.

        Returns:
          The variable dict, each dict's keys sorted as in Flax (whose variables come out of a
          JAX trace, rebuilt by ``tree_unflatten``).

        Raises:
          LazyInitValueError: (a ``LazyInitError``) a variable depends on a struct's values.
        """

        _require_instance(self, "lazy_init")

        def lazy_wrapper(*args: Any, **kwargs: Any) -> dict:
            return self.init(rngs, *args, method=method, mutable=mutable, **kwargs)

        return partial_eval.lazy_init(lazy_wrapper)(*args, **kwargs)

    def tabulate(
        self,
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
        """Flax's summary table of every module call: path, class, inputs, outputs, parameters.

        Computed by abstract evaluation of ``init`` (nothing runs on real data).

        Args:
          rngs: as for :meth:`init`.
          *args: example inputs.
          depth: show only modules at most this deep (``None``: all).
          show_repeated: list every call of a module, not only the first.
          compute_flops: add a ``flops`` column (each call's forward FLOPs, as Flax).
          compute_vjp_flops: add a ``vjp_flops`` column (each call's VJP FLOPs, as Flax).
          console_kwargs: the options of Flax's ``rich`` console (``width``,
            ``force_terminal``, ...), as for :func:`nn.summary.table`.
          table_kwargs: ``rich`` table options, as for :func:`nn.summary.table`.
          column_kwargs: ``rich`` column options, as for :func:`nn.summary.table`.
          **kwargs: passed on to :meth:`init`.

        Returns:
          The table as a string, ending with the parameter total.
        """
        from nn.summary import table

        return table(
            self,
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
        )

    def module_paths(
        self,
        rngs: Any,
        *args: Any,
        show_repeated: bool = False,
        mutable: CollectionFilter = _INIT_MUTABLE,
        **kwargs: Any,
    ) -> dict[str, Module]:
        """The modules :meth:`init` would call, by path (``""`` for this one), as unbound
        copies; computed by abstract evaluation of ``init`` (nothing runs on real data).

        Args:
          rngs: as for :meth:`init`.
          *args: example inputs.
          show_repeated: a module called more than once maps to its last call's copy (else
            its first).
          mutable: as for :meth:`init`.
          **kwargs: passed on to :meth:`init`.

        Returns:
          ``{"": self copy, "Dense_0": Dense(...), ...}`` in call order.
        """
        from nn.summary import module_paths

        return module_paths(
            self, rngs, *args, show_repeated=show_repeated, mutable=mutable, **kwargs
        )


class _CompactNameScope(Module):
    """The submodule behind a ``compact_name_scope`` method: runs it in its own compact scope."""

    fn: Callable
    module_fn: Callable[[], Module]

    @compact
    def __call__(self, *args, **kwargs) -> Any:
        return self.fn(self.module_fn(), *args, **kwargs)


def _call_attribute(name: str, module: Module, *args, **kwargs) -> Any:
    """Calls the submodule held in ``module``'s attribute ``name``."""
    return getattr(module, name)(*args, **kwargs)


def _scope_fn(fn: Callable, module: Module, capture_intermediates: Any) -> Callable:
    """`fn(module, ...)` as a function of a scope: a deep copy of `module` bound to it."""

    def scope_fn(scope: Scope, *args, **kwargs):
        # The filter deciding which methods' outputs are sown into 'intermediates'.
        with _pushed(_context.capture_stack, capture_intermediates):
            bound = module.clone(parent=scope, _deep_clone=True)
            return fn(bound, *args, **kwargs)

    return scope_fn


def _is_flax_key(rng: Any) -> bool:
    """Flax's test of a key argument: a scalar typed key, or raw key data of shape (2,) and
    dtype uint32 (an array; Python numbers and lists are not keys)."""
    if isinstance(rng, scope_lib.LazyRng):
        return True
    if not scope_lib.is_valid_key(rng):
        return False
    if jnp.issubdtype(rng.dtype, core_dtypes.prng_key):
        return rng.shape == ()
    return tuple(rng.shape) == (2,) and rng.dtype == jnp.uint32


def _check_rngs_arg(module: Module, rngs: Any, where: str) -> None:
    """Raises Flax's InvalidRngError for an ``rngs`` argument that is neither a dict nor a key."""
    if not isinstance(rngs, dict) and not _is_flax_key(rngs):
        raise errors.InvalidRngsError(rngs, where, type(module).__name__)


def _require_instance(obj: Any, method: str) -> None:
    if not isinstance(obj, Module):
        raise errors.ModuleClassCallError(method, obj)


def _capture_filter(capture_intermediates: Any, mutable: CollectionFilter) -> tuple[Any, Any]:
    if capture_intermediates is True:
        capture_intermediates = capture_call_intermediates
    if capture_intermediates:
        mutable = scope_lib.union_filters(mutable, "intermediates")
    return capture_intermediates, mutable


def apply(
    fn: Callable,
    module: Module,
    mutable: CollectionFilter = False,
    capture_intermediates: bool | Callable = False,
) -> Callable:
    """``f(variables, *args, rngs=None)`` running ``fn(bound_module, *args)``."""
    capture, mutable = _capture_filter(capture_intermediates, mutable)
    return scope_lib.apply(_scope_fn(fn, module, capture), mutable=mutable)


def init_with_output(
    fn: Callable,
    module: Module,
    mutable: CollectionFilter = _INIT_MUTABLE,
    capture_intermediates: bool | Callable = False,
) -> Callable:
    """``f(rngs, *args) -> (output, variables)`` running ``fn(bound_module, *args)``."""
    capture, mutable = _capture_filter(capture_intermediates, mutable)
    return scope_lib.init(_scope_fn(fn, module, capture), mutable=mutable)


def init(
    fn: Callable,
    module: Module,
    mutable: CollectionFilter = _INIT_MUTABLE,
    capture_intermediates: bool | Callable = False,
) -> Callable:
    """``f(rngs, *args) -> variables`` running ``fn(bound_module, *args)``."""
    init_fn = init_with_output(fn, module, mutable, capture_intermediates)

    @functools.wraps(init_fn)
    def wrapper(rngs: Any, *args, **kwargs) -> dict:
        return init_fn(rngs, *args, **kwargs)[1]

    return wrapper


def _set_named_call(flag: Any) -> Any:
    """Sets whether module calls push their names; returns the setting it replaces."""
    global _use_named_call
    replaced, _use_named_call = _use_named_call, flag
    return replaced


def enable_named_call() -> None:
    """Module method calls push the module's name on the name stack (the default, as Flax's
    ``flax_profile``): profiles label operations ``MLP/Dense_0/dot_general``."""
    _set_named_call(True)


def disable_named_call() -> None:
    """Module method calls leave the name stack alone (see ``enable_named_call``)."""
    _set_named_call(False)


@contextlib.contextmanager
def override_named_call(enable: bool = True) -> Iterator[None]:
    """Enables (or disables) named scopes for module calls inside the block.

    Args:
      enable: whether module calls push their names.
    """
    outer = _set_named_call(enable)
    with contextlib.ExitStack() as on_exit:
        on_exit.callback(_set_named_call, outer)  # also when the block raises
        yield


def _profiling_name(module: Module, method: str) -> str:
    """The name stack entry of a module method call: ``Dense_0`` or ``Dense_0.encode``."""
    name = module.name or type(module).__name__
    return name if method == "__call__" else f"{name}.{method}"
