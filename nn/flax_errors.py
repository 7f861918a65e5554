"""The exception classes of `flax.errors`, under their Flax names, for ported ``except`` clauses.

numbax raises its own classes (``nn.errors``: one per failure, messages that name the fix);
each derives from the class Flax raises for the same failure, and from a built-in exception
only where Flax raises one, so ``except nn.errors.ScopeParamShapeError`` (or
``except FlaxError``) catches what ``except flax.errors.ScopeParamShapeError`` caught. The
table below says which numbax class stands behind each Flax name. Names of failures numbax
cannot have (multi-process checkpoints, lazy init, temporary scopes, trace
levels, immutable variables, several ``@compact`` methods, which Flax 0.12 allows too) exist so
such clauses still import; numbax never raises them.
Four Flax names are numbax's own classes and live in ``nn.errors`` (``NameInUseError``,
``PartitioningUnspecifiedError``, ``TransformedMethodReturnValueError``,
``TransformTargetError``).

=========================================  ===================================================
Flax class                                 raised by numbax as
=========================================  ===================================================
InvalidRngError                            MissingRngError, InvalidRngsError
ApplyScopeInvalidVariablesTypeError        InvalidVariablesError
ApplyScopeInvalidVariablesStructureError   ParamsDoubleWrappedError
ScopeParamNotFoundError                    VariableNotFoundError
ScopeVariableNotFoundError                 VariableNotFoundError
ScopeCollectionNotFound                    CollectionNotFoundError, ParamsWithoutWrapperError
ScopeParamShapeError                       ParamShapeError
InvalidFilterError                         CollectionFilterError
ModifyScopeVariableError                   ImmutableCollectionError
AssignSubModuleError                       DefinedOutsideSetupError
SetAttributeInModuleSetupError             SetupFieldAssignmentError
SetAttributeFrozenModuleError              FrozenModuleError
ReservedModuleAttributeError               ReservedFieldError
ApplyModuleInvalidMethodError              InvalidMethodError
CallCompactUnboundModuleError              UnboundModuleError
CallUnbindOnUnboundModuleError             UnboundModuleError
CallShareScopeOnUnboundModuleError         UnboundModuleError
CallSetupUnboundModuleError                UnboundSubmoduleError
InvalidInstanceModuleError                 ModuleClassCallError
DescriptorAttributeError                   PropertyAttributeError
InvalidCheckpointError                     train.errors.CheckpointExistsError
CursorFindError                            CursorMatchError
=========================================  ===================================================
"""

from __future__ import annotations

from core.errors import NumbaxError


class FlaxError(NumbaxError):
    """Root of ``nn``'s errors, every module-system error (``flax.errors.FlaxError``); a
    ``core.errors.NumbaxError``, like every numbax error."""


# Raised by numbax (through the subclasses named in the module docstring).


class InvalidRngError(FlaxError):
    """A PRNG stream is missing, or ``rngs`` is not a key or a dict of keys."""


class ApplyScopeInvalidVariablesTypeError(FlaxError):
    """``apply``'s variables are not a dict of collections."""


class ApplyScopeInvalidVariablesStructureError(FlaxError):
    """``apply``'s variables have an extra ``'params'`` layer."""


class ScopeParamNotFoundError(FlaxError):
    """A parameter the module reads does not exist in the variables."""


class ScopeCollectionNotFound(FlaxError):
    """A module reads a variable from a collection ``apply`` was not given."""


class ScopeParamShapeError(FlaxError):
    """A stored parameter's shape differs from the shape its initializer gives now."""


class ScopeVariableNotFoundError(FlaxError):
    """A variable the module reads does not exist in its (immutable) collection."""


class InvalidFilterError(FlaxError):
    """A collection filter that is not a bool, a string, a ``DenyList`` or a container."""


class ModifyScopeVariableError(FlaxError):
    """A variable of an immutable collection was written."""


class AssignSubModuleError(FlaxError):
    """A submodule was created outside ``setup`` and outside a compact method."""


class SetAttributeInModuleSetupError(FlaxError):
    """``setup`` assigned one of the module's dataclass fields."""


class SetAttributeFrozenModuleError(FlaxError):
    """An attribute of a module was assigned outside ``setup``."""


class ReservedModuleAttributeError(FlaxError):
    """A module declares a field named ``parent`` or ``name`` (reserved)."""


class ApplyModuleInvalidMethodError(FlaxError):
    """``apply``'s ``method`` is not a method of the module."""


class CallCompactUnboundModuleError(FlaxError):
    """A compact method ran on a module that is not bound to variables."""


class CallSetupUnboundModuleError(FlaxError):
    """``setup`` (or an attribute it defines) was used on an unbound module."""


class CallUnbindOnUnboundModuleError(FlaxError):
    """``unbind`` was called on an unbound module."""


class CallShareScopeOnUnboundModuleError(FlaxError):
    """``nn.share_scope`` was called with an unbound module."""


class InvalidInstanceModuleError(FlaxError):
    """``init``/``apply``/``bind`` was called on the Module class instead of an instance."""


class DescriptorAttributeError(FlaxError):
    """A property of a module raised ``AttributeError`` (it reads an attribute that is missing)."""


class InvalidCheckpointError(FlaxError):
    """A checkpoint already exists at this or a later step (``overwrite=True`` replaces it)."""


# Failures numbax cannot have: the names exist for ported code, numbax never raises them.


class TraceContextError(FlaxError):
    """Flax: a variable was modified from a different JAX trace level. Never raised."""


class LazyInitError(FlaxError):
    """Flax: ``lazy_init`` could not compute a variable from shapes only (numbax raises
    ``LazyInitValueError``, a subclass)."""


class MultipleMethodsCompactError(FlaxError):
    """Flax (before 0.12): more than one method of a module is ``@compact``. Never raised:
    compact methods share the module's auto-names, a nested call continuing the outer one's
    ``Dense_i`` count."""


class InvalidScopeError(FlaxError):
    """Flax: a temporary ``Scope`` was used outside its context. Never raised."""


class ImmutableVariableError(FlaxError):
    """Flax: a ``Variable`` in immutable mode was written. Never raised."""


class JaxTransformError(FlaxError):
    """Flax: a JAX transform was applied to a bound Module. Never raised."""


class IncorrectPostInitOverrideError(FlaxError):
    """Flax: ``__post_init__`` without ``super().__post_init__()``; numbax does not need the
    call. Never raised."""


class MPACheckpointingRequiredError(FlaxError):
    """Flax: multi-process arrays need an async checkpoint manager. Never raised (one
    process)."""


class MPARestoreTargetRequiredError(FlaxError):
    """Flax: restoring multi-process arrays needs a target. Never raised (one process)."""


class MPARestoreDataCorruptedError(FlaxError):
    """Flax: a multi-process array checkpoint lacks its commit file. Never raised."""


class AlreadyExistsError(FlaxError):
    """Flax: a checkpoint copy would overwrite a file. Never raised."""


class CursorFindError(FlaxError):
    """Flax: ``Cursor.find`` found no object or several (numbax raises ``CursorMatchError``)."""


class TraverseTreeError(FlaxError):
    """Flax: ``Cursor._traverse_tree`` got both or neither of its functions. Never raised."""


FLAX_ERROR_NAMES = (
    "FlaxError",
    "TraceContextError",
    "LazyInitError",
    "InvalidRngError",
    "ApplyScopeInvalidVariablesTypeError",
    "ApplyScopeInvalidVariablesStructureError",
    "ScopeParamNotFoundError",
    "ScopeCollectionNotFound",
    "ScopeParamShapeError",
    "ScopeVariableNotFoundError",
    "InvalidFilterError",
    "InvalidScopeError",
    "ModifyScopeVariableError",
    "ImmutableVariableError",
    "JaxTransformError",
    "PartitioningUnspecifiedError",
    "NameInUseError",
    "AssignSubModuleError",
    "SetAttributeInModuleSetupError",
    "SetAttributeFrozenModuleError",
    "MultipleMethodsCompactError",
    "ReservedModuleAttributeError",
    "ApplyModuleInvalidMethodError",
    "CallCompactUnboundModuleError",
    "CallSetupUnboundModuleError",
    "CallUnbindOnUnboundModuleError",
    "CallShareScopeOnUnboundModuleError",
    "InvalidInstanceModuleError",
    "IncorrectPostInitOverrideError",
    "DescriptorAttributeError",
    "InvalidCheckpointError",
    "MPACheckpointingRequiredError",
    "MPARestoreTargetRequiredError",
    "MPARestoreDataCorruptedError",
    "TransformedMethodReturnValueError",
    "TransformTargetError",
    "AlreadyExistsError",
    "CursorFindError",
    "TraverseTreeError",
)
"""Every class name of ``flax.errors`` (Flax 0.12); ``nn.errors`` has each of them."""
