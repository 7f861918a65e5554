"""Errors raised by the module system, one class per failure.

Every message names the module path (``/Encoder/Dense_0``) and says how to fix the mistake,
because the lifecycle rules of linen-style modules (bind before use, declare in ``setup`` or
``@compact``, pass mutable collections explicitly) are where users trip. Each class has the
bases of what Flax raises for the same failure, so a ported ``except`` clause catches what it
caught on Flax and no more: the ``flax.errors`` class alone where Flax raises one
(``nn/flax_errors.py`` holds every ``flax.errors`` name, re-exported here), so
``except KeyError`` misses a missing variable as on Flax; the built-in class too where Flax
raises a built-in (``ValueError``, ``AttributeError``...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nn.flax_errors import (  # noqa: F401  (every flax.errors name is part of nn.errors)
    FLAX_ERROR_NAMES,
    AlreadyExistsError,
    ApplyModuleInvalidMethodError,
    ApplyScopeInvalidVariablesStructureError,
    ApplyScopeInvalidVariablesTypeError,
    AssignSubModuleError,
    CallCompactUnboundModuleError,
    CallSetupUnboundModuleError,
    CallShareScopeOnUnboundModuleError,
    CallUnbindOnUnboundModuleError,
    CursorFindError,
    DescriptorAttributeError,
    FlaxError,
    ImmutableVariableError,
    IncorrectPostInitOverrideError,
    InvalidCheckpointError,
    InvalidFilterError,
    InvalidInstanceModuleError,
    InvalidRngError,
    InvalidScopeError,
    JaxTransformError,
    LazyInitError,
    ModifyScopeVariableError,
    MPACheckpointingRequiredError,
    MPARestoreDataCorruptedError,
    MPARestoreTargetRequiredError,
    MultipleMethodsCompactError,
    ReservedModuleAttributeError,
    ScopeCollectionNotFound,
    ScopeParamNotFoundError,
    ScopeParamShapeError,
    ScopeVariableNotFoundError,
    SetAttributeFrozenModuleError,
    SetAttributeInModuleSetupError,
    TraceContextError,
    TraverseTreeError,
)

_FLAX_DOCS = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors."


def _flax_first(line: str, flax_class: str | None, fix: str) -> str:
    """Flax's first line (with its link to ``flax.errors.<flax_class>``), then numbax's fix."""
    link = f" ({_FLAX_DOCS}{flax_class})" if flax_class else ""
    return f"{line}{link}\n{fix}"


def _collection_empty(name: str, col: str, path: str) -> str:
    """Flax's first line of ``ScopeCollectionNotFound`` (module `path` read variable `name` of
    the collection `col`, which is missing)."""
    return _flax_first(
        f'Tried to access "{name}" from collection "{col}" in "{path}" but the collection is '
        "empty.",
        "ScopeCollectionNotFound",
        "",
    )


def _names(xs: Any) -> str:
    return "[" + ", ".join(repr(x) for x in sorted(xs)) + "]"


class MissingRngError(InvalidRngError):
    """A module asked for a PRNG stream that ``init``/``apply`` was not given.

    Failing code::

        model.apply(variables, x)            # the model contains nn.Dropout

    Fix::

        model.apply(variables, x, rngs={"dropout": key})
    """

    def __init__(self, stream: str, path: str, available: Any, scope_name: str | None = None):
        super().__init__(
            _flax_first(f'{scope_name} needs PRNG for "{stream}"', "InvalidRngError", "")
            + f"Module at {path} needs a PRNG key for the stream {stream!r}, but the call got "
            f"rngs for {_names(available)}. Pass one: "
            f"model.apply(variables, ..., rngs={{{stream!r}: key}}) "
            f"(for Dropout at evaluation time, use deterministic=True instead)."
        )


class UnliftedRngError(MissingRngError):
    """A module inside a lifted transform asked for a PRNG stream the call was given but the
    transform does not pass in (Flax lifts only the streams its ``split_rngs`` names).

    Failing code::

        nn.scan(Block, variable_axes={"params": 0}, split_rngs={"params": True}, length=5)
        model.apply(variables, x, rngs={"dropout": key})   # Block uses nn.Dropout

    Fix::

        nn.scan(Block, ..., split_rngs={"params": True, "dropout": True})
    """

    def __init__(self, stream: str, path: str, scope_name: str | None = None):
        super(MissingRngError, self).__init__(  # Flax's first line, then its own message
            _flax_first(f'{scope_name} needs PRNG for "{stream}"', "InvalidRngError", "")
            + f"Module at {path} needs a PRNG key for the stream {stream!r}: the call got one, "
            f"but a lifted transform around the module (nn.scan, nn.vmap, ...) passes in only "
            f"the streams its split_rngs names. Name it there: split_rngs={{..., {stream!r}: "
            f"True}} (a key per step or index) or False (one key for all)."
        )


class InvalidRngsError(InvalidRngError):
    """``rngs`` is neither a PRNG key nor a dict of stream names to keys (Flax raises
    InvalidRngError for a non-key; ``InvalidRngsDictError`` is a dict holding one).

    Failing code: ``model.init(0, x)``. Fix: ``model.init(core.random.key(0), x)``.
    """

    def __init__(self, rngs: Any, where: str, module: str | None = None):
        first = ""
        if isinstance(rngs, Mapping):  # a dict holding a non-key: Flax's init/apply line
            first = (
                "First argument passed to an init function"
                if where == "init"
                else "The ``rngs`` argument passed to an apply function"
            ) + " should be a ``jax.PRNGKey`` or a dictionary mapping strings to ``jax.PRNGKey``.\n"
        if module is not None:  # Module.init/apply's check, with Flax's first line
            first = _flax_first(
                f"RNGs should be of shape (2,) or PRNGKey in Module {module}, but rngs are: {rngs}",
                "InvalidRngError",
                "",
            )
        super().__init__(
            first + f"{where} expects a PRNG key or a dict like {{'params': key, 'dropout': key}}, "
            f"got {type(rngs).__name__}: {rngs!r:.80}. Make keys with core.random.key(seed)."
        )


class InvalidRngsDictError(InvalidRngsError, ValueError):
    """A dict of ``rngs`` holds something that is not a PRNG key (a ``ValueError``, as Flax
    raises).

    Failing code: ``model.init({"params": 0}, x)``. Fix:
    ``model.init({"params": core.random.key(0)}, x)``.
    """


class InvalidVariablesError(ApplyScopeInvalidVariablesTypeError):
    """The variables passed to ``apply``/``bind`` are not a dict of collections.

    Failing code: ``model.apply([params], x)``. Fix: ``model.apply({"params": params}, x)``.
    The first line is what Flax's ``apply`` raises: Python's own ``TypeError`` for a value
    that is not iterable (``VariablesNotIterableError``), its ``AttributeError`` for another
    non-mapping (``VariablesNotADictError``), its ``ApplyScopeInvalidVariablesTypeError`` for a
    mapping whose collections are not dicts (this class).
    """

    def __init__(self, variables: Any):
        kind = type(variables).__name__
        if isinstance(variables, Mapping):
            first = _flax_first(
                "The first argument passed to an apply function should be a dictionary of "
                "collections. Each collection should be a dictionary with string keys.",
                "ApplyScopeInvalidVariablesTypeError",
                "",
            )
        elif hasattr(variables, "__iter__") or hasattr(variables, "__contains__"):
            first = f"'{kind}' object has no attribute 'items'\n"
        else:
            first = f"argument of type '{kind}' is not iterable\n"
        super().__init__(
            first + "apply/bind expects variables as a dict of collections, like "
            "{'params': {...}, 'batch_stats': {...}} (what init returns), got "
            f"{kind}."
        )


class VariablesNotADictError(InvalidVariablesError, AttributeError):
    """The variables passed to ``apply``/``bind`` are an iterable but not a mapping (Flax
    fails with Python's ``AttributeError``: the value has no ``items``).

    Failing code: ``model.apply([params], x)``. Fix: ``model.apply({"params": params}, x)``.
    """


class VariablesNotIterableError(InvalidVariablesError, TypeError):
    """The variables passed to ``apply``/``bind`` are not even iterable (Flax fails with
    Python's ``TypeError``: "argument of type 'int' is not iterable").

    Failing code: ``model.apply(params_count, x)``. Fix: ``model.apply(variables, x)`` with
    ``variables = model.init(key, x)``.
    """


class ParamsWithoutWrapperError(ScopeCollectionNotFound):
    """``apply`` got the parameter tree itself instead of ``{'params': params}``.

    Failing code::

        params = model.init(key, x)["params"]
        model.apply(params, x)

    Fix::

        model.apply({"params": params}, x)
    """

    def __init__(self, keys: Any, path: str, name: str = "", col: str = "params"):
        super().__init__(
            _collection_empty(name, col, path)
            + f"Module at {path} looked for collection 'params', but the variables passed to "
            f"apply have top-level keys {_names(keys)}, which look like the parameter tree "
            "itself. Wrap it: model.apply({'params': params}, ...)."
        )


class ParamsDoubleWrappedError(ApplyScopeInvalidVariablesStructureError):
    """``apply`` got ``{'params': {'params': ...}}``.

    Failing code::

        variables = model.init(key, x)
        model.apply({"params": variables}, x)

    Fix::

        model.apply(variables, x)
    """

    def __init__(self) -> None:
        first = _flax_first(
            "Expect the `variables` (first argument) passed to apply() to be a dict with the "
            'structure {"params": ...}, but got a dict with an extra params layer, i.e.  '
            '{"params": {"params": ... } }. You should instead pass in your dict\'s ["params"].',
            "ApplyScopeInvalidVariablesStructureError",
            "",
        )
        super().__init__(
            first + "apply got variables shaped {'params': {'params': ...}}: the init output was "
            "wrapped twice. Pass model.apply(variables, ...) with variables = model.init(...), "
            "or model.apply({'params': variables['params']}, ...)."
        )


class CollectionNotFoundError(ScopeCollectionNotFound):
    """A module reads a collection that was not passed to ``apply``.

    Failing code::

        variables = model.init(key, x)        # has 'params' and 'batch_stats'
        model.apply({"params": variables["params"]}, x)

    Fix::

        model.apply({"params": params, "batch_stats": batch_stats}, x)
    """

    def __init__(self, col: str, name: str, path: str, available: Any):
        super().__init__(
            _collection_empty(name, col, path)
            + f"Module at {path} needs variable {name!r} of collection {col!r}, but apply got "
            f"only the collections {_names(available)}. Pass every collection that init "
            f"returned, e.g. model.apply({{'params': params, {col!r}: ...}}, ...); to create "
            f"{col!r} in this call instead, pass mutable=[{col!r}]."
        )


class VariableNotFoundError(ScopeParamNotFoundError, ScopeVariableNotFoundError):
    """A collection exists but lacks a variable the module needs (model changed since init).

    Failing code: ``Model(layers=3).apply(Model(layers=2).init(key, x), x)``.
    Fix: apply with the variables of the same model: ``Model(layers=3).init(key, x)``.
    """

    def __init__(self, col: str, name: str, path: str, available: Any):
        if col == "params":
            first = _flax_first(
                f'Could not find parameter named "{name}" in scope "{path}".',
                "ScopeParamNotFoundError",
                "",
            )
        else:
            first = _flax_first(
                f'No Variable named "{name}" for collection "{col}" exists in "{path}".',
                "ScopeVariableNotFoundError",
                "",
            )
        super().__init__(
            first + f"Module at {path} needs variable {name!r} in collection {col!r}, which has "
            f"only {_names(available)} at that path. The model differs from the one that "
            "produced these variables: re-run init, or check the submodule names."
        )


class ImmutableCollectionError(ModifyScopeVariableError):
    """A module writes a collection that is not mutable in this call.

    Failing code::

        model.apply(variables, x, train=True)  # BatchNorm updates batch_stats

    Fix::

        y, updates = model.apply(variables, x, train=True, mutable=["batch_stats"])
    """

    def __init__(self, col: str, name: str, path: str):
        super().__init__(
            _flax_first(
                f'Cannot update variable "{name}" in "{path}" because collection "{col}" is '
                "immutable.",
                "ModifyScopeVariableError",
                "",
            )
            + f"Module at {path} writes variable {name!r} of collection {col!r}, which is "
            f"immutable in this call. Make it mutable and take the updates: "
            f"y, updates = model.apply(variables, ..., mutable=[{col!r}]) "
            "(BatchNorm in training: mutable=['batch_stats']; at evaluation use "
            "use_running_average=True and no mutable collections)."
        )


class NameInUseError(FlaxError):
    """Two submodules or variables of one module share a name.

    Failing code: ``nn.Dense(2, name="fc")(x); nn.Dense(2, name="fc")(x)``.
    Fix: ``name="fc1"`` and ``name="fc2"`` (or no names: ``Dense_0``, ``Dense_1``).
    """

    def __init__(self, kind: str, name: str, module: str, path: str):
        flax_kind = "param" if kind == "parameter" else kind
        super().__init__(
            _flax_first(
                f'Could not create {flax_kind} "{name}" in Module {module}: Name in use.',
                "NameInUseError",
                "",
            )
            + f"The {kind} name {name!r} is already used in {module} at {path}. "
            "Give each submodule and variable a unique name= (or let auto-naming pick "
            "ClassName_0, ClassName_1, ...)."
        )


class ParamShapeError(ScopeParamShapeError):
    """A stored parameter's shape differs from what the module asks for now.

    Failing code: ``v = model.init(key, jnp.ones((1, 3))); model.apply(v, jnp.ones((1, 5)))``.
    Fix: apply to inputs shaped like the init example, or init again with the new shape.
    """

    def __init__(self, name: str, path: str, stored: tuple, wanted: tuple):
        super().__init__(
            _flax_first(
                f'For parameter "{name}" in "{path}", the given initializer is expected to '
                f"generate shape {tuple(wanted)}, but the existing parameter it received has "
                f"shape {tuple(stored)}.",
                "ScopeParamShapeError",
                "",
            )
            + f"Parameter {name!r} at {path} has shape {stored} in the variables, but the module "
            f"now asks for shape {wanted}. The input shape or the layer's features changed "
            "since init: feed inputs shaped like the ones used for init, or re-run init."
        )


class DefinedOutsideSetupError(AssignSubModuleError):
    """A submodule is declared in a method that is neither ``setup`` nor compact.

    Failing code::

        def __call__(self, x):
            return nn.Dense(3)(x)

    Fix::

        @nn.compact
        def __call__(self, x):
            return nn.Dense(3)(x)
    """

    def __init__(self, kind: str, what: str, module: str):
        first = ""
        if kind == "Submodule":  # Flax's line; a variable declared there is Flax's assertion
            first = _flax_first(
                f"Submodule {what.removesuffix('(...)')} must be defined in `setup()` or in a "
                "method wrapped in `@compact`",
                "AssignSubModuleError",
                "",
            )
        super().__init__(
            first + f"{kind} {what} is declared in {module} outside setup() and outside a method "
            "decorated with @nn.compact. Move it into setup(), or decorate the method with "
            "@nn.compact."
        )


class VariableOutsideSetupError(FlaxError, ValueError):
    """A parameter or variable is declared in a method that is neither ``setup`` nor compact
    (a ``ValueError`` with Flax's first line, as Flax raises; the second line names it).

    Failing code::

        def __call__(self, x):
            return x * self.param("w", nn.initializers.zeros, (1,))

    Fix: decorate ``__call__`` with ``@nn.compact``, or declare ``w`` in ``setup()``.
    """

    def __init__(self, kind: str, name: str, module: str):
        what = "Parameters" if kind == "parameter" else "Variables"
        super().__init__(
            f"{what} must be initialized in `setup()` or in a method wrapped in `@compact`\n"
            f"{kind.capitalize()} {name!r} is declared in {module} outside setup() and outside "
            "a method decorated with @nn.compact. Move it into setup(), or decorate the method "
            "with @nn.compact."
        )


class UnboundModuleError(
    CallCompactUnboundModuleError,
    CallUnbindOnUnboundModuleError,
    CallShareScopeOnUnboundModuleError,
):
    """A variable/RNG operation or compact method ran on a module without variables.

    Failing code: ``nn.Dense(3)(x)`` outside any module. Fix:
    ``layer = nn.Dense(3); y = layer.apply(layer.init(key, x), x)``.
    """

    # Flax's first line per operation (`what`); a compact method's call is "run <method>"
    _FLAX_LINES = {
        "be unbound": (
            "Can't call `unbind()` on unbound modules",
            "CallUnbindOnUnboundModuleError",
        ),
        "share its scope": (
            "Can't call `share_scope` on unbound modules",
            "CallShareScopeOnUnboundModuleError",
        ),
        "look up variables": ("Can't access variables on unbound modules", None),
        "read variables": ("Can't access variables on unbound modules", None),
        "write variables": ("Can't access variables on unbound modules", None),
        "list its variables": ("Can't access variables on unbound modules", None),
        "check mutability": ("Can't check mutability on unbound modules", None),
        "query RNG streams": ("Can't query for RNGs on unbound modules", None),
        "check for init": ("Can't check if running under init() on unbound modules", None),
        "report its path": ("Can't access module paths on unbound modules.", None),
        "sow values": ("Can't store variables on unbound modules", None),
        "store variables": ("Can't store variables on unbound modules", None),
        "make a PRNG key": ("Can't use RNGs on unbound modules", None),
        "run a compact method": (
            "Can't call compact methods on unbound modules",
            "CallCompactUnboundModuleError",
        ),
    }

    @staticmethod
    def _key(what: str) -> str:
        if what.startswith("make a "):
            return "make a PRNG key"
        if what.startswith("run ") and not what.startswith("run nn."):
            return "run a compact method"
        return what

    @classmethod
    def of(cls, module: str, what: str) -> UnboundModuleError:
        """The error for operation `what` on unbound `module`: an ``UnboundOperationError``
        (a ``ValueError``) where Flax raises a plain ``ValueError``, else this class."""
        flax = cls._FLAX_LINES.get(cls._key(what))
        plain = flax is not None and flax[1] is None
        return (UnboundOperationError if plain else cls)(module, what)

    def __init__(self, module: str, what: str):
        flax = self._FLAX_LINES.get(self._key(what))
        super().__init__(
            (_flax_first(*flax, "") if flax else "")
            + f"{module} is not bound to variables, so it cannot {what}. Run it through "
            "variables = model.init(key, x) and model.apply(variables, x), or bind it "
            "interactively: model.bind(variables)."
        )


class UnboundOperationError(UnboundModuleError, ValueError):
    """A variable, RNG or path operation on a module without variables, where Flax raises a
    plain ``ValueError`` ("Can't access variables on unbound modules"...). Made by
    ``UnboundModuleError.of``.

    Failing code: ``nn.Dense(3).variables``. Fix:
    ``nn.Dense(3).bind(variables).variables``, or read ``variables`` where ``init`` returns it.
    """


class UnboundDeclarationError(UnboundModuleError, AssertionError):
    """``param``/``variable`` called on a module without variables (an ``AssertionError``
    too, with an empty first line: Flax asserts the module has a scope).

    Failing code: ``nn.Dense(3).param("w", init, (2,))``. Fix: declare variables inside
    ``setup`` or a ``@compact`` method and run the module with ``init``/``apply``.
    """

    _FLAX_LINES: dict = {}

    def __init__(self, module: str, what: str):
        super().__init__(module, what)
        self.args = ("\n" + self.args[0],)


class UnboundSubmoduleError(UnboundModuleError, CallSetupUnboundModuleError, AttributeError):
    """A submodule that ``setup`` defined on an unbound module was called.

    An ``AttributeError`` too, as in Flax, where such a module has no ``setup`` attributes:
    ``try: model(x) except AttributeError`` (Flax's "Flax basics" guide) catches it.

    Failing code: ``MLP()(x)`` where ``setup`` does ``self.layers = [nn.Dense(3)]``.
    Fix: ``variables = model.init(key, x); model.apply(variables, x)``.
    """

    _FLAX_LINES: dict = {}  # Flax fails there with an AttributeError of its own


class UnboundCallSetupAttributeError(FlaxError, AttributeError):
    """A method of an unbound module read an attribute its ``setup`` defines (an unbound module
    runs no ``setup``, as in Flax; Flax raises this ``AttributeError`` with the same first
    sentence).

    Failing code: ``MLP()(x)`` where ``setup`` does ``self.layers = [nn.Dense(3)]``.
    Fix: ``variables = model.init(key, x); model.apply(variables, x)``.
    """

    def __init__(self, module: str, name: str):
        super().__init__(
            f'"{module}" object has no attribute "{name}". If "{name}" is defined in '
            "'.setup()', remember these fields are only accessible from inside 'init' or "
            "'apply'."
        )


class FrozenModuleError(SetAttributeFrozenModuleError):
    """An attribute was assigned outside ``setup``.

    Failing code: ``layer.features = 8``. Fix: ``layer = layer.clone(features=8)``.
    """

    def __init__(self, module: str, name: str, value: Any = None):
        super().__init__(
            _flax_first(
                f"Can't set {name}={value} for Module of type {module}: Module instance is "
                "frozen outside of setup method.",
                "SetAttributeFrozenModuleError",
                "",
            )
            + f"{module} is frozen: attribute {name!r} can only be assigned inside setup(). "
            f"To change a field, make a new module: module.clone({name}=...)."
        )


class SetupFieldAssignmentError(SetAttributeInModuleSetupError):
    """``setup`` assigned a dataclass field.

    Failing code: ``def setup(self): self.features = 8``. Fix: pass ``Model(features=8)``, or
    store derived values under a new name (``self.width = 2 * self.features``).
    """

    def __init__(self, module: str, name: str):
        first = _flax_first(
            "Module construction attributes are frozen.", "SetAttributeInModuleSetupError", ""
        )
        super().__init__(
            first + f"{module}.setup() assigns the dataclass field {name!r}. Fields are set at "
            f"construction ({module}({name}=...)); setup may only add new attributes "
            "such as submodules."
        )


class InvalidMethodError(ApplyModuleInvalidMethodError):
    """``apply``/``init`` got a ``method`` that is not callable on the module.

    Failing code: ``model.apply(v, x, method=3)``. Fix: ``method="encode"`` or
    ``method=Model.encode``.
    """

    def __init__(self, cls: str, method: Any):
        super().__init__(
            _flax_first(
                f"Cannot call apply(): {method} is not a valid function for apply().",
                "ApplyModuleInvalidMethodError",
                "",
            )
            + f"method={method!r} is not a method of {cls}. Pass a method name "
            f"(method='encode') or the function ({cls}.encode)."
        )


class MethodNotCallableError(FlaxError, TypeError):
    """``apply``/``init`` got ``method="name"`` naming an attribute that is not callable.

    Failing code: ``model.apply(v, x, method="features")`` where ``features`` is a field.
    Fix: name a method (``method="encode"``) or pass the function (``Model.encode``).
    """

    def __init__(self, cls: str, name: str, value: Any):
        super().__init__(
            f"'{cls}.{name}' must be a callable, got {type(value)}.\n"
            f"Pass the name of a method of {cls} (method='encode') or the function "
            f"({cls}.encode)."
        )


class BoundModuleHashError(FlaxError, TypeError):
    """``hash()`` of a bound module (one holding variables, which change under it).

    Failing code: ``{model.bind(variables): 1}``, or a bound module as a ``jax.jit`` static
    argument. Fix: hash the unbound module (``model.unbind()[0]``, or the ``model`` given to
    ``init``), or key on ``id(module)``.
    """

    def __init__(self) -> None:
        super().__init__(
            "Can't call __hash__ on modules that hold variables.\n"
            "Hash the unbound module (module.unbind()[0]) or key on id(module)."
        )


class UnhashableModuleError(FlaxError, TypeError):
    """``hash()`` of a module with an unhashable field (a list, a dict, an array...).

    Failing code: ``hash(Foo(sizes=[1, 2]))``. Fix: use hashable field values (a tuple for a
    list, a ``FrozenDict`` for a dict).
    """

    def __init__(self, module: Any):
        super().__init__(
            "Failed to hash Flax Module.  The module probably contains unhashable attributes.  "
            f"Module={module}\nGive the fields hashable values: tuples for lists, FrozenDict "
            "for dicts."
        )


class ArgumentTwiceError(FlaxError, ValueError):
    """A setting was given both at construction and at call time (``merge_param``).

    Failing code: ``Foo(train=True)(x, train=False)``. Fix: pass ``train`` in one place.
    """

    def __init__(self, name: str):
        super().__init__(  # Flax's text
            f'Parameter "{name}" was passed to the constructor and at call time. Should be '
            "passed just once."
        )


class MissingPerturbationError(FlaxError, ValueError):
    """``apply`` was given a perturbations collection without a variable ``perturb`` needs.

    Failing code: ``model.apply({'params': p, 'perturbations': {}}, x)``. Fix: pass the
    collection ``init`` created (``variables['perturbations']``), or leave it out.
    """

    def __init__(self, collection: str, name: str):
        super().__init__(
            f"Perturbation collection {collection} present, but missing perturbation variable "
            f"{name}: pass the {collection!r} collection init created, or none."
        )


class ArgumentMissingError(FlaxError, ValueError):
    """A setting was given neither at construction nor at call time.

    Failing code: ``nn.Dropout(0.5)(x)``. Fix: ``nn.Dropout(0.5, deterministic=not train)(x)``
    or ``nn.Dropout(0.5)(x, deterministic=not train)``.
    """

    def __init__(self, name: str):
        super().__init__(  # Flax's text
            f'Parameter "{name}" must be passed to the constructor or at call time.'
        )


class TransformAxisSizeError(FlaxError, ValueError):
    """``nn.vmap``/``nn.scan`` could not decide the mapped axis size (or length).

    Failing code: ``nn.vmap(Dense, in_axes=None, ...)`` with no size. Fix: pass
    ``axis_size=n`` (``length=n`` for ``nn.scan``), or map an input.
    """

    def __init__(self, what: str, sizes: Any, path: str):
        option = "length" if what == "scan" else "axis_size"
        if sizes:  # Flax's first lines
            kind = "scan lengths" if what == "scan" else "batch axis sizes"
            first = f"Inconsistent {kind}: {sizes}"
        else:
            first = f"{option} should be specified manually."
        super().__init__(
            f"{first}\nnn.{what} at {path} found the sizes of its mapped inputs' first leaves "
            f"disagree, or nothing mapped. Make them agree, or pass {option}=n when nothing is "
            "mapped."
        )


class NonScalarGradError(FlaxError, ValueError):
    """``nn.grad``/``nn.value_and_grad`` of a function whose value is not a scalar.

    Failing code: ``nn.grad(lambda mdl, x: mdl(x), dense, x)`` (a vector out). Fix: reduce
    the value to a scalar, ``lambda mdl, x: mdl(x).sum()``, or use ``nn.vjp``.
    """

    def __init__(self, shape: tuple):
        super().__init__(
            f"grad can only work on functions with scalar-valued outputs. out shape={shape}\n"
            "Reduce the function's value to a scalar (e.g. .sum()), or use nn.vjp."
        )


class EmptyBranchesError(FlaxError, IndexError):
    """``nn.switch`` got no branches (Flax fails indexing the empty list).

    Failing code: ``nn.switch(i, [], mdl, x)``. Fix: pass at least one branch function.
    """

    def __init__(self) -> None:
        super().__init__(
            "list index out of range\nnn.switch needs at least one branch: pass a non-empty "
            "list of functions branch(mdl, *operands)."
        )


class ScanBroadcastDependencyError(FlaxError, ValueError):
    """A variable of ``nn.scan``'s ``variable_broadcast`` collections is created from values
    that change from step to step: the carry, the scanned inputs, or a key split per step.

    Failing code: ``nn.scan(Cell, variable_broadcast="params", split_rngs={"params": True})``.
    Fix: ``split_rngs={"params": False}`` for broadcast parameters (one set shared by every
    step), or ``variable_axes={"params": 0}`` for one set per step.
    """

    def __init__(self) -> None:
        super().__init__(
            "broadcasted variable has a data dependency on the scan body.\nCreate broadcast "
            "variables from keys that are not split per step (split_rngs={'params': False}) "
            "and not from the carry or the scanned inputs."
        )


class ScanAxesError(FlaxError, ValueError):
    """``nn.scan``'s ``in_axes`` is not an int, ``nn.broadcast`` or one entry per argument.

    Failing code: ``nn.scan(Cell, variable_broadcast="params", split_rngs={"params": False},
    in_axes=(0, 0))`` for a cell that scans one argument. Fix: ``in_axes=0`` (or a tuple
    with one entry per scanned argument).
    """

    def __init__(self, in_axes: Any, n_args: int):
        super().__init__(
            f"nn.scan in_axes must be an int, nn.broadcast, or a tuple with one of those per "
            f"scanned argument ({n_args} here), got {in_axes!r}."
        )


class TransformedMethodReturnValueError(FlaxError, TypeError):
    """A transformed method returned a Module or a Variable, which cannot leave a transform.

    Failing code: ``nn.vmap(lambda mdl, x: mdl.dense, ...)`` (the function returns the
    submodule). Fix: return the arrays you need, ``lambda mdl, x: mdl.dense(x)``.
    """

    def __init__(self, method: str):
        super().__init__(
            _flax_first(
                f"Transformed module method {method} cannot return Modules or Variables.",
                "TransformedMethodReturnValueError",
                "Transformed methods return arrays (pytrees of arrays): return the values you "
                "need from the module or variable (`v.value`).",
            )
        )


class TransformMethodsError(FlaxError, TypeError):
    """``methods=`` of a lifted transform is not None, a list/tuple, or a dict.

    Failing code: ``nn.vmap(MyModule, methods="encode", ...)``. Fix: a list,
    ``methods=["encode"]``, or a dict of per-method transform arguments.
    """

    def __init__(self, methods: Any):
        super().__init__(
            f"The transform's methods argument must be None, a list/tuple of method names, or "
            f"a dict {{name: transform kwargs}}, got {type(methods).__name__}: {methods!r}."
        )


class TransformTargetError(FlaxError):
    """A lifted transform was given something that is neither a Module class nor a function.

    Failing code: ``nn.vmap(nn.Dense(3), ...)`` (an instance). Fix: transform the class and
    construct it afterwards, ``nn.vmap(nn.Dense, ...)(3)``.
    """

    def __init__(self, what: str, target: Any):
        super().__init__(
            f"nn.{what} takes a Module class or a function whose first argument is a module, "
            f"got {type(target).__name__}: {target!r:.80}. Transform the class and construct "
            f"it afterwards: nn.{what}(MyModule, ...)(features...)."
        )


class MultiScopeTransformError(FlaxError, NotImplementedError):
    """``nn.vjp``/``nn.jvp``/``nn.custom_vjp`` got a module holding modules bound elsewhere.

    Failing code: ``nn.vjp(fn, Wrapper(inner=self.dense), x)`` where ``self.dense`` belongs to
    the calling module. Fix: create the submodules inside the module that is differentiated
    (in its ``setup`` or compact method).
    """

    def __init__(self, what: str, classes: Any):
        super().__init__(
            f"nn.{what} lifts one module's variables, but this module holds submodules bound "
            f"outside it ({', '.join(classes)}) in its fields. Create them inside the module "
            "(in setup or its compact method) instead of passing bound modules in."
        )


class NormAxesError(FlaxError, IndexError):
    """A normalization's axes (``reduction_axes``, ``feature_axes``, ``axis``) name an axis the
    input does not have (Flax fails indexing the input's shape).

    Failing code: ``nn.LayerNorm(reduction_axes=3)(jnp.ones((2, 5, 4)))``. Fix: axes below the
    input's rank, or negative axes counted from the end.
    """

    def __init__(self, axes: tuple, ndim: int):
        super().__init__(
            f"tuple index out of range\nThe axes {axes} are out of range for an input of rank "
            f"{ndim}; use axes below the rank or negative axes."
        )


class InstanceNormAxesError(FlaxError, ValueError):
    """``InstanceNorm``'s ``feature_axes`` include the leading (batch) axis.

    Failing code: ``nn.InstanceNorm(feature_axes=0).init(key, x)``. Fix: put the batch first
    and name only channel axes, ``nn.InstanceNorm(feature_axes=-1)``.
    """

    def __init__(self, feature_axes: Any):
        super().__init__(
            "The channel axes cannot include the leading dimension as this is assumed to be the "
            f"batch axis.\nInstanceNorm got feature_axes={feature_axes!r}: put the batch first "
            "and name only channel axes, e.g. feature_axes=-1."
        )


class SpectralNormRankError(FlaxError, ValueError):
    """``SpectralNorm(error_on_non_matrix=True)`` met a weight of rank > 2.

    Failing code: ``nn.SpectralNorm(nn.Conv(8, (3, 3)), error_on_non_matrix=True)``. Fix:
    ``error_on_non_matrix=False`` (the kernel is normalized flattened to (-1, last axis)).
    """

    def __init__(self, shape: Any):
        super().__init__(
            f"Input is {len(shape)}D but error_on_non_matrix is True\nSpectralNorm got a weight "
            f"of shape {tuple(shape)}: pass error_on_non_matrix=False to normalize it flattened "
            "to (-1, last axis)."
        )


class BatchApplyRankError(FlaxError, ValueError):
    """``BatchApply`` found no input with at least ``num_dims`` dimensions to merge.

    Failing code: ``nn.BatchApply(f, num_dims=3)(jnp.ones((4, 5)))``. Fix: lower ``num_dims``
    to the number of leading axes to merge (here 2), or add the leading axes.
    """

    def __init__(self, num_dims: int, shapes: Any):
        super().__init__(
            f"BatchApply requires at least one input with ndim >= {num_dims}.\n"
            f"BatchApply(num_dims={num_dims}) got inputs of shapes {shapes}: lower num_dims or "
            "add the leading axes."
        )


class PartitioningUnspecifiedError(FlaxError, ValueError):
    """A lifted transform added or removed an axis of a ``Partitioned`` value without a name.

    Failing code: ``nn.scan(body, variable_axes={"params": 0}, ...)`` over boxed params.
    Fix: pass ``metadata_params={nn.PARTITION_NAME: "layers"}`` to the transform.
    """

    def __init__(self, names: Any):
        super().__init__(
            f"A transform changed the axes of a Partitioned value with names {names!r}, but "
            f"did not name the new axis. Pass metadata_params={{nn.PARTITION_NAME: "
            f"'<axis name>'}} to nn.vmap / nn.scan."
        )


class PartitionAxisMismatchError(FlaxError, ValueError):
    """``remove_axis`` was asked to drop an axis whose name is not the one at that position.

    Failing code: ``nn.Partitioned(w, ("layers", "embed")).remove_axis(0,
    {nn.PARTITION_NAME: "embed"})``. Fix: remove with the same ``metadata_params`` and axis
    as the transform that added it (here ``"layers"``).
    """

    def __init__(self, names: Any, index: int, name: Any):
        super().__init__(
            f"Cannot remove axis {index} named {name!r} from Partitioned names {names!r}: "
            f"that axis is named {names[index] if index < len(names) else None!r}. Use the "
            f"same metadata_params and axis as the transform that added it."
        )


class RepeatedLogicalAxisError(FlaxError, ValueError):
    """A logical axis name appears twice in one array's names.

    Failing code: ``nn.logical_to_mesh_axes(("embed", "embed"), rules)``. Fix: give each axis
    of an array its own logical name, e.g. ``("embed", "mlp")``.
    """

    def __init__(self, names: Any, repeated: Any):
        super().__init__(
            f"Unsupported: Dimensions {tuple(repeated)!r} occur more than once in array names."
            f"\nThe array names are {tuple(names)!r}: give each axis its own logical name."
        )


class LogicalAxisRulesError(FlaxError, ValueError):
    """Logical axis rules are not a sequence of ``(logical_name, mesh_axes)`` pairs.

    Failing code: ``nn.logical_to_mesh_axes(("batch",), {"batch": "data"})``. Fix: a tuple of
    pairs, ``(("batch", "data"), ("embed", None))``.
    """

    def __init__(self, rules: Any):
        super().__init__(
            f"Logical axis rules must be a tuple or list of (logical_name, mesh_axes) pairs, "
            f"got {type(rules).__name__}: {rules!r:.80}. Example: "
            f"(('batch', 'data'), ('embed', None), ('mlp', 'model'))."
        )


class UnmatchedLogicalAxisError(FlaxError, ValueError):
    """``with_logical_constraint(..., fallback=RulesFallback.RAISE_ERROR)`` found no rule.

    Failing code: ``nn.with_logical_constraint(x, ("batch", "mlp"), rules=(("batch",
    "data"),), fallback=nn.RulesFallback.RAISE_ERROR)``. Fix: add a rule for every named axis
    (``("mlp", "model")``), or use another ``RulesFallback``.
    """

    def __init__(self, names: Any):
        super().__init__(
            f"Axis names {tuple(names)!r} did not match a rule. Add a rule for each named "
            f"axis to nn.logical_axis_rules(...), or use another RulesFallback."
        )


class ConvFeatureGroupError(FlaxError, ValueError, AssertionError):
    """A convolution whose input channels do not split into ``feature_group_count`` groups
    (Flax asserts it).

    Failing code: ``nn.Conv(4, (3,), feature_group_count=3)(jnp.ones((2, 5, 4)))``. Fix: a
    ``feature_group_count`` that divides the input channels.
    """

    def __init__(self, in_features: int, count: int):
        super().__init__(
            f"Input channels {in_features} are not divisible by feature_group_count={count}.\n"
            "Pick a feature_group_count that divides the input's last axis."
        )


class ConvLocalFeatureGroupError(FlaxError, NotImplementedError):
    """``nn.ConvLocal`` with ``feature_group_count != 1`` (unshared kernels have no groups).

    Failing code: ``nn.ConvLocal(8, (3, 3), feature_group_count=2)``. Fix: ``nn.Conv`` for
    grouped convolutions, or one ``ConvLocal`` per channel group.
    """

    def __init__(self, count: int):
        super().__init__(
            "`lax.conv_general_dilated_local` does not support `feature_group_count != 1`, got "
            f"`{count}`.\nUse nn.Conv for grouped convolutions, or split the channels and use "
            "one nn.ConvLocal per group."
        )


class Fp8ArgumentsError(FlaxError, TypeError, AssertionError):
    """An fp8 dot-general module (``nn.Fp8DirectDotGeneralOp``...) called without exactly the
    three positional operands of a ``dot_general`` (Flax asserts it).

    Failing code: ``nn.Fp8DirectDotGeneralOp()(x, kernel)``. Fix: pass the dimension numbers
    too, ``op(x, kernel, (((x.ndim - 1,), (0,)), ((), ())))``, or give the class to a layer:
    ``nn.Dense(4, dot_general_cls=nn.Fp8DirectDotGeneralOp)``.
    """

    def __init__(self, count: int):
        super().__init__(
            f"an fp8 dot_general takes (x, kernel, dimension_numbers), got {count} positional "
            "arguments; pass the dimension numbers, or give the class to a layer as "
            "dot_general_cls"
        )


class AttentionHeadsError(FlaxError, ValueError, AssertionError):
    """An attention layer whose ``qkv_features`` (by default the query's last axis) does not
    split into ``num_heads`` equal heads (Flax asserts it).

    Failing code: ``nn.MultiHeadDotProductAttention(num_heads=3)(jnp.ones((2, 5, 4)))``. Fix:
    a ``num_heads`` that divides the features, or ``qkv_features=`` a multiple of it.
    """

    def __init__(self, qkv_features: int, num_heads: int):
        super().__init__(
            f"Memory dimension ({qkv_features}) must be divisible by number of heads "
            f"({num_heads}).\nPass a num_heads that divides it, or qkv_features= a multiple of "
            "num_heads."
        )


class AttentionShapeError(FlaxError, ValueError, AssertionError):
    """Attention operands whose ranks, batch axes, heads, head sizes (query and key) or lengths
    (key and value) differ (Flax asserts them). Shapes are ``(*batch, length, heads, size)``.

    Failing code: ``nn.dot_product_attention(q, k, v)`` with ``k`` of length 5 and ``v`` of
    length 6. Fix: project or slice the operands to the same batch axes, heads and lengths.
    """

    def __init__(self, what: str, shapes: list):
        super().__init__(
            f"{what} Got shapes {', '.join(map(str, shapes))} (each (*batch, length, heads, size))."
        )


class MaskRankError(FlaxError, ValueError, AssertionError):
    """``nn.combine_masks`` got masks of different ranks (Flax asserts it).

    Failing code: ``nn.combine_masks(jnp.ones((1, 2)), jnp.ones(2))``. Fix: give every mask
    the same rank, ``(batch, heads, q_len, kv_len)`` or broadcastable with size-1 axes.
    """

    def __init__(self, ranks: tuple):
        super().__init__(
            f"masks must have same rank: {ranks}\nReshape the masks to one rank, with size-1 "
            "axes where they broadcast."
        )


class DecodeCacheShapeError(FlaxError, ValueError):
    """An attention layer with ``decode=True`` got a query that is not one step of its cache.

    Failing code: ``layer.apply(variables, x[:, :2], mutable=["cache"])`` (two tokens at once).
    Fix: feed one position per call, with the batch shape and features used at ``init``.
    """

    def __init__(self, expected: tuple, got: tuple):
        super().__init__(
            f"Autoregressive cache shape error, expected query shape {expected} instead got "
            f"{got}.\nWith decode=True feed one token per call (query length 1) and the batch "
            "shape used at init."
        )


class CollectionFilterError(InvalidFilterError):
    """A collection filter (``mutable=``, ``DenyList``...) of an unsupported type.

    Failing code: ``model.apply(variables, x, mutable=1)``.
    Fix: ``mutable=["batch_stats"]`` (or ``True``, ``False``, a name, ``nn.DenyList(...)``).
    """

    def __init__(self, filter_like: Any):
        first = _flax_first(f'Invalid Filter: "{filter_like}"', "InvalidFilterError", "")
        super().__init__(
            first
            + f"Invalid collection filter {filter_like!r} ({type(filter_like).__name__}): use "
            "True, False, a collection name, a list of names or nn.DenyList(names)."
        )


class ReservedFieldError(ReservedModuleAttributeError):
    """A Module subclass declares a field named ``parent`` or ``name`` (set by the system).

    Failing code::

        class Block(nn.Module):
            name: str = "block"

    Fix: rename the field (``label: str``); pass ``name=`` at construction to name a module.
    """

    def __init__(self, cls_name: str, fields: Mapping[str, Any]):
        first = _flax_first(
            f"properties `parent` and `name` are reserved: {dict(fields)}",
            "ReservedModuleAttributeError",
            "",
        )
        super().__init__(
            first
            + f"{cls_name} declares the reserved field(s) {_names(fields)}: 'parent' and 'name' "
            "are set by the module system. Rename the field; pass name=... when constructing "
            "the module to choose its name."
        )


class ModuleClassCallError(InvalidInstanceModuleError):
    """``init``/``apply``/``bind`` was called on the Module class instead of an instance.

    Failing code: ``nn.Dense.init(key, x)``. Fix: ``nn.Dense(features=3).init(key, x)``.
    """

    def __init__(self, method: str, got: Any):
        first = _flax_first(
            "Can only call init, init_with_output or apply methods on an instance of the Module "
            "class, not the Module class itself",
            "InvalidInstanceModuleError",
            "",
        )
        super().__init__(
            first
            + f"Module.{method} was called on the class, not on an instance (its first argument "
            f"is a {type(got).__name__}). Construct the module first: "
            f"MyModule(...).{method}(...)."
        )


class PropertyAttributeError(DescriptorAttributeError):
    """A property of a module raised ``AttributeError``, so Python reported the property
    itself as missing. The message names the attribute the property failed to read.

    Failing code: ``@property def width(self): return self.featurs * 2`` (a typo) read as
    ``module.width``. Fix: the attribute the property reads (here ``self.features``).
    """

    def __init__(self, cls_name: str, prop: str, cause: BaseException):
        first = _flax_first(
            "Trying to access a property that is accessing a non-existent attribute.",
            "DescriptorAttributeError",
            "",
        )
        super().__init__(
            first + f"The property {cls_name}.{prop} raised AttributeError: "
            f"{str(cause).rstrip('.')}. The property "
            "itself exists; fix the attribute it reads (a field or setup attribute missing?)."
        )


class AxisNamesMismatchError(FlaxError, ValueError):
    """``param_with_axes``/``variable_with_axes`` recorded different axis names for one
    variable (e.g. a shared module called with two annotations).

    Failing code: one module calls ``param_with_axes("w", init, shape, axes=("embed",
    "mlp"))`` and, on a second call, ``axes=("mlp", "embed")``. Fix: declare each variable
    with one set of logical axis names.
    """

    def __init__(self, old: Any, new: Any):
        super().__init__(
            f"If axis names are sown twice, expected them to match. Got {old} and {new}: "
            "declare each variable with one set of logical axis names."
        )


class AxesOutsideModuleError(FlaxError, ValueError):
    """``param_with_axes``/``variable_with_axes`` ran outside a module method without
    ``module=``.

    Failing code: ``nn.partitioning.param_with_axes("w", init, (3,), axes=("embed",))`` at top
    level. Fix: call it in ``setup`` or an ``@nn.compact`` method, or pass ``module=self``.
    """

    def __init__(self, what: str):
        super().__init__(
            f"nn.partitioning.{what} must run inside a module method (setup or @nn.compact), "
            "or be given the module: module=self."
        )


class UnknownConfigOptionError(FlaxError, LookupError):
    """``flax.config`` (``flaxport.config``) has no flag of that name.

    Failing code::

        flaxport.config.update("flax_use_orbax", True)  # not a Flax flag (misspelled?)

    Fix: use a name of ``flaxport.configurations.DEFAULTS`` (Flax's flags), e.g.
    ``flaxport.config.update("flax_use_orbax_checkpointing", False)``.
    """

    def __init__(self, name: str):
        super().__init__(f"Unrecognized config option: {name}")


class ConfigValueNotImplementedError(FlaxError, NotImplementedError):
    """A ``flax.config`` flag that changes results was set to a value numbax does not
    implement (numbax behaves as Flax does with the flag's default).

    Failing code::

        flaxport.config.update("flax_return_frozendict", True)

    Fix: remove the update; the program then behaves as under Flax's default.
    """

    def __init__(self, name: str, value: Any, default: Any):
        super().__init__(
            f"flax.config {name}={value!r} is not implemented: numbax behaves as Flax does "
            f"with the default ({default!r}). Remove the update to run the program."
        )


class TraversalError(FlaxError, ValueError):
    """A `traverse_util` traversal was used on the wrong input: `set` with too few or too many
    values, `each()` on something that is not a list, tuple or dict, or `ModelParamTraversal`
    on something that is not a (frozen) dict of parameters.

    Failing code: ``traverse_util.t_identity.each().set([1], [0, 0])``.
    Fix: give one value per traversed item: ``.set([1, 2], [0, 0])``.
    """


class CursorMatchError(CursorFindError, LookupError):
    """`Cursor.find` found no part, or more than one part, for which ``cond_fn`` is true.

    Failing code: ``cursor({'a': 1, 'b': 1}).find(lambda path, v: v == 1)``. Fix: make
    ``cond_fn`` single out one part (test the path too), or use ``find_all``.
    """

    def __init__(self, first: str | None = None, second: str | None = None):
        if first is None:
            line = "No object found given the conditions of the cond_fn."
            fix = "Loosen cond_fn (it is called with each part's '/'-joined path and value)."
        else:
            line = (
                "More than one object found given the conditions of the cond_fn. The first two "
                f"objects found have the following paths: {first} and {second}"
            )
            fix = "Narrow cond_fn to one part, or iterate over find_all(cond_fn)."
        super().__init__(_flax_first(line, "CursorFindError", fix))


class FlattenInputError(FlaxError, TypeError, AssertionError):
    """`traverse_util.flatten_dict` (or `path_aware_map`) got something that is not a dict
    (Flax asserts a dict or `FrozenDict`).

    Failing code: ``traverse_util.flatten_dict(5)``. Fix: pass the nested dict of the tree
    (``variables['params']``), or ``{'x': 5}`` for a single leaf.
    """

    def __init__(self, value: Any):
        super().__init__(
            f"expected (frozen)dict; got {type(value)}\nPass a nested dict (or FrozenDict) of "
            "leaves; wrap a single leaf as {'name': leaf}."
        )


class LazyInitValueError(LazyInitError, ValueError):
    """`nn.core.lazy_init` got a `ShapeDtypeStruct` argument that a variable's initial value
    depends on (only the variables' shapes are free of the inputs' values).

    Failing code: ``lazy_init(lambda s, x: s.param("w", lambda _: x))(key, ShapeDtypeStruct(...))``.
    Fix: pass that argument as an array, or make the initializer use its shape only.
    """

    def __init__(self, path: Any):
        super().__init__(
            f"lazy_init: the initial value of {path} depends on a ShapeDtypeStruct argument. "
            "Pass that argument as an array (nn.core.init), or make the initializer depend on "
            "its shape only."
        )


class PoolArgumentError(FlaxError, ValueError, AssertionError):
    """Pooling (``nn.pool``, ``nn.max_pool``, ``nn.avg_pool``) with strides or explicit padding
    that do not give one entry per window axis, or a padding entry that is not a (low, high)
    pair (Flax asserts them, with these first lines).

    Failing code: ``nn.max_pool(x, (2, 2), strides=(1,))``. Fix: one stride and one
    ``(low, high)`` pair per window axis, ``strides=(1, 1), padding=((1, 1), (0, 0))``.
    """

    def __init__(self, line: str):
        super().__init__(
            f"{line}\nGive one stride and one (low, high) padding pair per window axis "
            "(the batch and feature axes are not pooled)."
        )
