"""`jax.export`: stage a jitted function once, keep the staged program, call or serialize it.

    exported = export.export(jit(f))(x_example)        # an `Exported`
    exported.call(x)                                   # runs the staged program
    blob = exported.serialize()                        # bytes
    export.deserialize(blob).call(x)                   # in another process too

An `Exported` has JAX's fields (`fun_name`, `in_tree`, `in_avals`, `out_tree`, `out_avals`,
`platforms`, `nr_devices`...) and its `call` checks the arguments as JAX's does (the exported
tree, ranks, shapes and dtypes, JAX's `ValueError` messages). `call` runs the staged jaxpr as a
`jit` function, so it works under `jit`, `grad` and `vmap` (JAX's refuses `vmap`).

Differences from JAX, by design:

* numbax has no StableHLO: `serialize()` gives numbax's own format (the staged jaxpr, its
  constants and the signature; a header, then a pickle that `deserialize` reads with an
  unpickler restricted to numbax's, numpy's and pytree classes). JAX cannot read these bytes
  and numbax cannot read JAX's. `mlir_module()` is the jaxpr's text.
* no shape polymorphism: `symbolic_shape`, `symbolic_args_specs` and `SymbolicScope` raise
  `ShapePolymorphismError`; every exported shape is concrete.
* serializing inlines custom derivative rules (`custom_jvp`, `custom_vjp`): a deserialized
  `Exported` differentiates the function's own computation (the same values for the usual
  rules, which exist for numerical stability of the same function); `has_vjp()` is True.
* one device: `nr_devices` is 1 and the shardings are None.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import io
import pickle
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, ir, tree_util
from core.api import vjp
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.errors import NumbaxError
from core.jit.api import jit
from core.primitive import all_primitives
from core.stages import Wrapped
from core.trace import as_value, get_aval
from core.tree_util import registry as tree_registry

__all__ = [
    "DisabledSafetyCheck",
    "Exported",
    "SymbolicScope",
    "default_export_platform",
    "deserialize",
    "export",
    "is_symbolic_dim",
    "maximum_supported_calling_convention_version",
    "minimum_supported_calling_convention_version",
    "register_namedtuple_serialization",
    "register_pytree_node_serialization",
    "symbolic_args_specs",
    "symbolic_shape",
]

minimum_supported_calling_convention_version = 9
maximum_supported_calling_convention_version = 10

_MAGIC = b"numbax-export\x00"
_FORMAT = 1


class ShapePolymorphismError(NumbaxError, NotImplementedError):
    """Shape polymorphism (`export.symbolic_shape`, `symbolic_args_specs`, `SymbolicScope`) was
    asked for: numbax exports concrete shapes only.

    Failing code::

        export.export(jit(f))(*export.symbolic_args_specs(args, "b, ..."))

    Fix::

        # export once per concrete shape
        export.export(jit(f))(*args)
    """


class NotJittedError(NumbaxError, ValueError):
    """`export.export` was given a function that is not the result of `jit`.

    Failing code: ``export.export(f)``. Fix: ``export.export(jit(f))``.
    """


class ExportedTreeError(NumbaxError, ValueError):
    """`Exported.call` got arguments of another pytree structure than the exported ones.

    Failing code: ``exported.call(x)`` for ``export.export(jit(f))(x, y)``. Fix: pass the
    arguments in the exported structure, ``exported.call(x, y)``.
    """


class ExportedShapeError(NumbaxError, ValueError):
    """`Exported.call` got an argument of another rank or shape than the exported one.

    Failing code: ``exported.call(jnp.ones(4))`` for ``export.export(jit(f))(jnp.ones(3))``.
    Fix: export again for the new shape.
    """


class ExportedDtypeError(NumbaxError, ValueError):
    """`Exported.call` got an argument of another dtype than the exported one.

    Failing code: ``exported.call(jnp.ones(3, int))`` for a float32 export. Fix: cast the
    argument (``x.astype(jnp.float32)``) or export again for the new dtype.
    """


class ExportedPlatformError(NumbaxError, ValueError):
    """`Exported.call` ran an export made for other platforms than numbax's "cpu".

    Failing code: ``export.export(jit(f), platforms=["tpu"])(x).call(x)``. Fix: export with
    ``platforms=["cpu"]`` (the default).
    """


class ExportSerializationError(NumbaxError, ValueError):
    """`Exported.serialize` met a program part it cannot write (a Python callback such as
    `pure_callback`'s function, a closure in a primitive's parameters), or `deserialize` got
    bytes that are not numbax's serialized export (JAX's StableHLO bytes are not).

    Failing code: ``export.export(jit(lambda x: pure_callback(cb, spec, x)))(x).serialize()``
    or ``export.deserialize(jax_blob)``. Fix: export functions without host callbacks, and
    deserialize bytes written by numbax's `Exported.serialize`.
    """


# ------------------------------------------------------------------------------- shape poly


def _no_shape_polymorphism(what: str) -> ShapePolymorphismError:
    return ShapePolymorphismError(
        f"export.{what}: numbax has no shape polymorphism (symbolic dimensions); export once "
        "per concrete shape instead."
    )


def symbolic_shape(shape_spec: str | None, **kwargs: Any) -> tuple:
    """Symbolic shapes are not supported: always raises.

    Args:
      shape_spec: JAX's shape specification (``"b, 4"``).
      **kwargs: JAX's ``constraints`` and ``scope``.

    Returns:
      Nothing; raises `ShapePolymorphismError`.
    """
    raise _no_shape_polymorphism("symbolic_shape")


def symbolic_args_specs(args: Any, shapes_specs: Any, **kwargs: Any) -> Any:
    """Symbolic argument specifications are not supported: always raises.

    Args:
      args: example arguments.
      shapes_specs: JAX's shape specifications.
      **kwargs: JAX's ``constraints`` and ``scope``.

    Returns:
      Nothing; raises `ShapePolymorphismError`.
    """
    raise _no_shape_polymorphism("symbolic_args_specs")


class SymbolicScope:
    """JAX's scope of symbolic dimensions: not supported (raises `ShapePolymorphismError`)."""

    def __init__(self, *args: Any, **kwargs: Any):
        raise _no_shape_polymorphism("SymbolicScope")


def is_symbolic_dim(p: Any) -> bool:
    """Whether ``p`` is a symbolic dimension: never, in numbax.

    Args:
      p: a dimension.

    Returns:
      False.
    """
    del p
    return False


def default_export_platform() -> str:
    """The platform `export` targets by default.

    Returns:
      ``"cpu"``.
    """
    return "cpu"


@dataclasses.dataclass(frozen=True)
class DisabledSafetyCheck:
    """A safety check of `Exported.call` to skip (JAX's `export.DisabledSafetyCheck`): the
    platform check (`DisabledSafetyCheck.platform()`) lets an export for other platforms run."""

    _impl: str

    @classmethod
    def platform(cls) -> DisabledSafetyCheck:
        """Skips the check that "cpu" is among the exported platforms."""
        return cls("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> DisabledSafetyCheck:
        """Allows a custom call target (numbax's exports have none: no effect)."""
        return cls(f"custom_call:{target_name}")

    @classmethod
    def shape_assertions(cls) -> DisabledSafetyCheck:
        """Skips shape assertions (numbax's shapes are concrete: no effect)."""
        return cls("shape_assertions")

    def __str__(self) -> str:
        return self._impl


_SERIALIZED_NODES: dict[type, str] = {}


def register_pytree_node_serialization(
    nodetype: type,
    *,
    serialized_name: str,
    serialize_auxdata: Callable | None = None,
    deserialize_auxdata: Callable | None = None,
    from_children: Callable | None = None,
) -> type:
    """Registers a custom pytree node for serialized exports (JAX's API). numbax writes the
    node by its class (module and name), so the functions are not needed: the class must be
    importable where the export is deserialized.

    Args:
      nodetype: the pytree node class.
      serialized_name: JAX's unique name for it (checked for uniqueness).
      serialize_auxdata, deserialize_auxdata, from_children: JAX's functions (unused).

    Returns:
      ``nodetype``.
    """
    if serialized_name in _SERIALIZED_NODES.values():
        raise ValueError(f"Duplicate serialization registration for {serialized_name!r}")
    _SERIALIZED_NODES[nodetype] = serialized_name
    return nodetype


def register_namedtuple_serialization(nodetype: type, *, serialized_name: str) -> type:
    """Registers a namedtuple class for serialized exports (JAX's API; see
    `register_pytree_node_serialization`).

    Args:
      nodetype: the namedtuple class.
      serialized_name: JAX's unique name for it.

    Returns:
      ``nodetype``.
    """
    return register_pytree_node_serialization(nodetype, serialized_name=serialized_name)


# ---------------------------------------------------------------------------------- Exported


def _path_name(path: tuple) -> str:
    """``args[0]['a']`` for a leaf path of ``(args, kwargs)``."""
    head = "args" if path[0].idx == 0 else "kwargs"
    return head + tree_util.keystr(path[1:])


def _type_desc(x: Any) -> str:
    return f"{type(x)}"


def _children_desc(n: int) -> str:
    return f"{n} child" if n <= 1 else f"{n} children"


def _tree_differences(got: Any, want: Any, name: str) -> list[str]:
    """JAX's descriptions of where the invocation's ``(args, kwargs)`` differs from the
    exported one (``want``'s leaves are placeholders)."""
    if tree_util.tree_structure(got) == tree_util.tree_structure(want):
        return []
    if type(got) is not type(want):
        return [
            f"{name} is a {_type_desc(got)} in the invocation and a {_type_desc(want)} when "
            "exported, so their Python types differ."
        ]
    if isinstance(got, (tuple, list)) and not hasattr(got, "_fields"):
        if len(got) != len(want):
            kind = type(got).__name__
            return [
                f"{name} is a {kind} of length {len(got)} in the invocation and a {kind} of "
                f"length {len(want)} when exported, so the lengths do not match."
            ]
        return [
            d
            for i, (g, w) in enumerate(zip(got, want))
            for d in _tree_differences(g, w, f"{name}[{i}]")
        ]
    if isinstance(got, dict):
        if len(got) != len(want):
            keys = set(got) ^ set(want)
            return [
                f"{name} is a {_type_desc(got)} with {_children_desc(len(got))} in the "
                f"invocation and a {_type_desc(want)} with {_children_desc(len(want))} when "
                "exported, so the numbers of children do not match, with the symmetric "
                f"difference of key sets: {keys}."
            ]
        if sorted(got) != sorted(want):
            return [
                f"{name} is a {_type_desc(got)} with pytree metadata {tuple(sorted(got))} in "
                f"the invocation and a {_type_desc(want)} with pytree metadata "
                f"{tuple(sorted(want))} when exported, so the pytree node metadata does not "
                "match."
            ]
        return [
            d for k in sorted(got) for d in _tree_differences(got[k], want[k], f"{name}[{k!r}]")
        ]
    return [
        f"{name} is a {_type_desc(got)} in the invocation and a {_type_desc(want)} when "
        "exported, so their pytree structures differ."
    ]


@dataclasses.dataclass(frozen=True)
class Exported:
    """A function staged by `export` for one signature (JAX's `jax.export.Exported`).

    Attributes:
      fun_name: the exported function's name.
      in_tree: the pytree structure of ``(args, kwargs)``.
      in_avals: the input leaves' `ShapedArray`s.
      out_tree: the output's pytree structure.
      out_avals: the output leaves' `ShapedArray`s.
      in_shardings_hlo, out_shardings_hlo: None per leaf (one device).
      nr_devices: 1.
      platforms: the platforms it was exported for (``("cpu",)`` by default).
      ordered_effects, unordered_effects: ``()``.
      disabled_safety_checks: the `DisabledSafetyCheck`s given to `export`.
      calling_convention_version: JAX's current version, 10.
      module_kept_var_idx: the indices of the inputs the program uses (all).
      uses_global_constants: False.
    """

    fun_name: str
    in_tree: Any
    in_avals: tuple[ShapedArray, ...]
    out_tree: Any
    out_avals: tuple[ShapedArray, ...]
    in_shardings_hlo: tuple
    out_shardings_hlo: tuple
    nr_devices: int
    platforms: tuple[str, ...]
    ordered_effects: tuple
    unordered_effects: tuple
    disabled_safety_checks: tuple[DisabledSafetyCheck, ...]
    calling_convention_version: int
    module_kept_var_idx: tuple[int, ...]
    uses_global_constants: bool
    _jaxpr: ir.ClosedJaxpr = dataclasses.field(repr=False, compare=False)
    _run: Callable = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self):
        closed = self._jaxpr

        def run(*leaves):
            return ir.eval_jaxpr(closed.jaxpr, closed.consts, *leaves)

        run.__name__ = self.fun_name
        object.__setattr__(self, "_run", jit(run))

    def __str__(self) -> str:
        return f"Exported(fun_name={self.fun_name!r}, in_avals={self.in_avals})"

    def mlir_module(self) -> str:
        """The exported program's text: numbax's jaxpr (there is no MLIR module).

        Returns:
          The jaxpr as `make_jaxpr` prints it.
        """
        return str(self._jaxpr)

    @property
    def mlir_module_serialized(self) -> bytes:
        """`mlir_module()` encoded as UTF-8 (no StableHLO bytecode in numbax)."""
        return self.mlir_module().encode()

    def in_shardings_jax(self, mesh: Any) -> tuple:
        """The input shardings on ``mesh``: None per input (numbax exports one device).

        Args:
          mesh: the mesh to place the inputs on.

        Returns:
          ``(None, ...)``, one per input leaf.
        """
        del mesh
        return self.in_shardings_hlo

    def out_shardings_jax(self, mesh: Any) -> tuple:
        """The output shardings on ``mesh``: None per output (numbax exports one device).

        Args:
          mesh: the mesh.

        Returns:
          ``(None, ...)``, one per output leaf.
        """
        del mesh
        return self.out_shardings_hlo

    def has_vjp(self) -> bool:
        """Whether the export can be differentiated: always (the program is kept).

        Returns:
          True.
        """
        return True

    def vjp(self) -> Exported:
        """The export of the function's VJP: inputs are the primal inputs followed by the
        output cotangents, outputs the input cotangents (JAX's layout).

        Returns:
          An `Exported`.
        """
        n = len(self.in_avals)

        def fun_vjp(*args):
            primals, cts = args[:n], args[n:]
            _, pullback = vjp(lambda *xs: self._run(*xs), *primals)
            return pullback(list(cts))

        fun_vjp.__name__ = f"{self.fun_name}_vjp"
        specs = [ShapeDtypeStruct(a.shape, a.dtype) for a in (*self.in_avals, *self.out_avals)]
        return export(jit(fun_vjp), platforms=self.platforms)(*specs)

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the exported program (under `jit`, `grad` and `vmap` too).

        Args:
          *args, **kwargs: arguments of the exported tree structure, ranks, shapes and dtypes.

        Returns:
          The outputs, in the exported output tree.

        Raises:
          ExportedPlatformError, ExportedTreeError, ExportedShapeError, ExportedDtypeError:
            JAX's `ValueError`s.
        """
        if "cpu" not in self.platforms and "platform" not in map(str, self.disabled_safety_checks):
            raise ExportedPlatformError(
                f"Function '{self.fun_name}' was exported for platforms '{self.platforms}' but "
                "it is used on '('cpu',)'."
            )
        leaves, tree = tree_util.tree_flatten((tuple(args), kwargs))
        if tree != self.in_tree:
            want = tree_util.tree_unflatten(self.in_tree, list(range(self.in_tree.num_leaves)))
            got = (tuple(args), kwargs)
            diffs = _tree_differences(got[0], want[0], "args") + _tree_differences(
                got[1], want[1], "kwargs"
            )
            raise ExportedTreeError(
                "The invocation args and kwargs must have the same pytree structure as when "
                f"the function '{self.fun_name}' was exported, but they have the following "
                "structural differences:\n" + "\n".join(f"   - {d}\n" for d in diffs)
            )
        paths = [p for p, _ in tree_util.tree_flatten_with_path((tuple(args), kwargs))[0]]
        leaves = [as_value(x) for x in leaves]
        for path, x, want in zip(paths, leaves, self.in_avals):
            got = get_aval(x)
            name = _path_name(path)
            if len(got.shape) != len(want.shape):
                raise ExportedShapeError(
                    f"Rank mismatch for {name}: expected {want.shape} and called with {got.shape}"
                )
            for i, (g, w) in enumerate(zip(got.shape, want.shape)):
                if g != w:
                    raise ExportedShapeError(
                        f"Shape mismatch for {name}.shape[{i}] (expected same constant): "
                        f"expected {want.shape} and called with {got.shape}"
                    )
            if got.dtype != want.dtype:
                raise ExportedDtypeError(
                    f"Dtype mismatch for {name}: expected {want.dtype} and called with {got.dtype}"
                )
        outs = self._run(*leaves)
        return tree_util.tree_unflatten(self.out_tree, list(outs))

    def serialize(self, vjp_order: int = 0) -> bytearray:
        """numbax's serialization of the export (not StableHLO: JAX cannot read it).

        Args:
          vjp_order: JAX's number of VJPs to include; numbax keeps the program itself, which
            `deserialize` can differentiate to any order, so it is only checked.

        Returns:
          The bytes, for `deserialize`.

        Raises:
          ExportSerializationError: for a program holding host callbacks or closures.
        """
        if vjp_order < 0:
            raise ValueError(f"vjp_order must be non-negative, got {vjp_order}")
        n_in = self.in_tree.num_leaves
        state = {
            "fun_name": self.fun_name,
            "in_tree": tree_util.tree_unflatten(self.in_tree, [0] * n_in),
            "out_tree": tree_util.tree_unflatten(self.out_tree, [0] * self.out_tree.num_leaves),
            "platforms": self.platforms,
            "disabled_safety_checks": [str(c) for c in self.disabled_safety_checks],
            "jaxpr": _Encoder().closed(self._jaxpr),
        }
        buf = io.BytesIO()
        buf.write(_MAGIC + bytes([_FORMAT]))
        try:
            pickle.dump(state, buf, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, AttributeError, TypeError) as e:
            raise ExportSerializationError(
                f"cannot serialize the export of '{self.fun_name}': {e}. numbax serializes "
                "jaxprs whose parameters are data (host callbacks and closures are not)."
            ) from e
        return bytearray(buf.getvalue())


# ------------------------------------------------------------------------------- exporting


def _is_numbax_library_function(fun: Any) -> bool:
    """numbax's `jnp`/`lax`/`nn` functions, which JAX's library wraps in `jit`."""
    module = getattr(fun, "__module__", None) or ""
    return callable(fun) and module.startswith("core.")


def export(
    fun_jit: Any,
    *,
    platforms: Sequence[str] | None = None,
    disabled_checks: Sequence[DisabledSafetyCheck] = (),
) -> Callable[..., Exported]:
    """Exports a jitted function: returns a function of example arguments giving its
    `Exported` (JAX's `jax.export.export`).

    Args:
      fun_jit: the result of `jit` (numbax's own library functions, such as `jnp.sin`, which
        JAX's library jits, are accepted too).
      platforms: the platforms to export for (default ``("cpu",)``); `Exported.call` runs
        only exports that include "cpu".
      disabled_checks: `DisabledSafetyCheck`s for `Exported.call`.

    Returns:
      ``do_export(*args, **kwargs) -> Exported``; the arguments are arrays or
      `ShapeDtypeStruct`s (static arguments by value), as for ``fun_jit.trace``.

    Raises:
      NotJittedError: if ``fun_jit`` is not the result of `jit`.
    """
    if not isinstance(fun_jit, Wrapped):
        if not _is_numbax_library_function(fun_jit):
            raise NotJittedError(
                f"Function to be exported must be the result of `jit` but is: {fun_jit}"
            )
        fun_jit = jit(fun_jit)
    platforms = tuple(platforms) if platforms is not None else (default_export_platform(),)

    def do_export(*args: Any, **kwargs: Any) -> Exported:
        args, kwargs = tree_util.tree_map(_example, (args, kwargs))
        traced = fun_jit.trace(*args, **kwargs)
        closed = traced.jaxpr
        name = getattr(fun_jit, "__name__", None) or getattr(fun_jit, "_name", lambda: "fun")()
        return _make(name, traced.in_tree, closed, traced.out_tree, platforms, disabled_checks)

    return do_export


def _example(x: Any) -> Any:
    """A `ShapeDtypeStruct` as an example array: zeros broadcast from one element (no memory
    for the shape)."""
    if isinstance(x, ShapeDtypeStruct):
        return np.broadcast_to(np.zeros((), x.dtype), x.shape)
    return x


def _make(
    name: str,
    in_tree: Any,
    closed: ir.ClosedJaxpr,
    out_tree: Any,
    platforms: Sequence[str],
    disabled_checks: Sequence[DisabledSafetyCheck],
) -> Exported:
    in_avals = tuple(ShapedArray(a.shape, a.dtype) for a in closed.in_avals)
    out_avals = tuple(ShapedArray(a.shape, a.dtype) for a in closed.out_avals)
    return Exported(
        fun_name=name,
        in_tree=in_tree,
        in_avals=in_avals,
        out_tree=out_tree,
        out_avals=out_avals,
        in_shardings_hlo=(None,) * len(in_avals),
        out_shardings_hlo=(None,) * len(out_avals),
        nr_devices=1,
        platforms=tuple(platforms),
        ordered_effects=(),
        unordered_effects=(),
        disabled_safety_checks=tuple(disabled_checks),
        calling_convention_version=maximum_supported_calling_convention_version,
        module_kept_var_idx=tuple(range(len(in_avals))),
        uses_global_constants=False,
        _jaxpr=closed,
    )


# --------------------------------------------------------------------------- serialization

# Custom derivative calls are inlined: their rules are Python closures.
_INLINED = ("custom_jvp_call", "custom_vjp_call")


def _aval(a: ShapedArray) -> tuple:
    return (tuple(a.shape), np.dtype(a.dtype).name, bool(a.weak_type))


class _Encoder:
    """A jaxpr as plain data: variables numbered, primitives by name, sub-jaxprs nested."""

    def closed(self, closed: ir.ClosedJaxpr) -> tuple:
        consts = [np.asarray(c) for c in closed.consts]
        return ("closed", self.jaxpr(closed.jaxpr), consts)

    def jaxpr(self, jaxpr: ir.Jaxpr) -> tuple:
        env: dict[ir.Var, tuple] = {}
        counter = iter(range(1 << 62))

        def bind(v: ir.Var, env: dict) -> tuple:
            env[v] = ("v", next(counter))
            return (env[v][1], _aval(v.aval))

        constvars = [bind(v, env) for v in jaxpr.constvars]
        invars = [bind(v, env) for v in jaxpr.invars]
        eqns: list = []
        self._eqns(jaxpr.eqns, env, bind, eqns)
        outvars = [self._atom(x, env) for x in jaxpr.outvars]
        return ("jaxpr", constvars, invars, eqns, outvars)

    def _atom(self, x: Any, env: dict) -> tuple:
        if isinstance(x, ir.Literal):
            return ("l", np.asarray(x.val), _aval(x.aval))
        return env[x]

    def _eqns(self, eqns: Sequence[ir.Eqn], env: dict, bind: Callable, out: list) -> None:
        """Appends the encoded equations to ``out``; an inlined call's equations are numbered
        in the same sequence, its variables looked up in its own environment."""
        for eqn in eqns:
            inputs = [self._atom(x, env) for x in eqn.inputs]
            if eqn.prim.name in _INLINED:
                inner = eqn.params["call_jaxpr"]
                inner_env = dict(zip(inner.invars, inputs, strict=True))
                self._eqns(inner.eqns, inner_env, bind, out)
                for v, x in zip(eqn.outputs, inner.outvars, strict=True):
                    env[v] = self._atom(x, inner_env)
                continue
            params = {k: self.value(v) for k, v in eqn.params.items()}
            outputs = [bind(v, env) for v in eqn.outputs]
            out.append((eqn.prim.name, inputs, params, outputs))

    def value(self, v: Any) -> Any:
        if isinstance(v, ir.ClosedJaxpr):
            return self.closed(v)
        if isinstance(v, ir.Jaxpr):
            return self.jaxpr(v)
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            return ("tuple", [self.value(x) for x in v])
        if isinstance(v, list):
            return ("list", [self.value(x) for x in v])
        if isinstance(v, dict):
            return ("dict", [(k, self.value(x)) for k, x in v.items()])
        if isinstance(v, Array):
            return ("array", np.asarray(v))
        if callable(v) and not isinstance(v, (type, enum.Enum)) and not _importable(v):
            raise ExportSerializationError(
                f"cannot serialize {v!r}: numbax serializes jaxprs whose parameters are data "
                "(host callbacks and closures are not)."
            )
        return ("raw", v)


def _importable(fn: Any) -> bool:
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if not module or "<" in name:
        return False
    try:
        obj = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return False
    return obj is fn


class _Decoder:
    """The inverse of `_Encoder`."""

    def __init__(self):
        self.prims = all_primitives()

    def closed(self, data: tuple) -> ir.ClosedJaxpr:
        _, jaxpr, consts = data
        return ir.ClosedJaxpr(self.jaxpr(jaxpr), [Array(np.asarray(c)) for c in consts])

    def jaxpr(self, data: tuple) -> ir.Jaxpr:
        _, constvars, invars, eqns, outvars = data
        env: dict[int, ir.Var] = {}

        def bind(ref: tuple) -> ir.Var:
            i, aval = ref
            env[i] = ir.Var(_shaped(aval))
            return env[i]

        def atom(x: tuple) -> Any:
            if x[0] == "l":
                return ir.Literal(x[1][()], _shaped(x[2]))
            return env[x[1]]

        cv, iv = [bind(r) for r in constvars], [bind(r) for r in invars]
        new_eqns = []
        for name, inputs, params, outputs in eqns:
            if name not in self.prims:
                raise ExportSerializationError(
                    f"unknown primitive {name!r} in the serialized export"
                )
            ins = [atom(x) for x in inputs]
            ps = {k: self.value(v) for k, v in params.items()}
            new_eqns.append(ir.Eqn(self.prims[name], ins, ps, [bind(r) for r in outputs]))
        jaxpr = ir.Jaxpr(cv, iv, new_eqns, [atom(x) for x in outvars])
        ir.typecheck(jaxpr)
        return jaxpr

    def value(self, v: Any) -> Any:
        tag = v[0]
        if tag == "closed":
            return self.closed(v)
        if tag == "jaxpr":
            return self.jaxpr(v)
        if tag == "tuple":
            return tuple(self.value(x) for x in v[1])
        if tag == "list":
            return [self.value(x) for x in v[1]]
        if tag == "dict":
            return {k: self.value(x) for k, x in v[1]}
        if tag == "array":
            return Array(np.asarray(v[1]))
        return v[1]


def _shaped(aval: tuple) -> ShapedArray:
    shape, dtype, weak = aval
    return ShapedArray(tuple(shape), dtypes.canonicalize_dtype(np.dtype(dtype)), weak)


_SAFE_BUILTINS = frozenset(
    ["tuple", "list", "dict", "set", "frozenset", "slice", "complex", "range", "bytes"]
    + ["bytearray", "float", "int", "bool", "str", "object"]
)


class _Unpickler(pickle.Unpickler):
    """Loads only numbax's and numpy's classes, dtypes, pytree node classes and builtins."""

    def find_class(self, module: str, name: str) -> Any:
        root = module.split(".")[0]
        if module == "builtins" and name in _SAFE_BUILTINS:
            return super().find_class(module, name)
        if root in ("numpy", "ml_dtypes", "core", "collections", "copyreg", "enum"):
            return super().find_class(module, name)
        obj = super().find_class(module, name)
        if isinstance(obj, type) and (
            issubclass(obj, tuple) or tree_registry._registry.get(obj) is not None
        ):
            return obj  # a pytree node class of the exported trees (namedtuples included)
        raise ExportSerializationError(
            f"the serialized export refers to {module}.{name}, which is not a numbax, numpy "
            "or pytree class: it was not written by numbax's Exported.serialize."
        )


def deserialize(blob: bytes | bytearray) -> Exported:
    """Reads an export written by `Exported.serialize` (numbax's format, not JAX's StableHLO).

    Args:
      blob: the bytes.

    Returns:
      The `Exported`, callable and differentiable as the original.

    Raises:
      ExportSerializationError: for bytes that are not numbax's serialized export.
    """
    blob = bytes(blob)
    head = _MAGIC + bytes([_FORMAT])
    if not blob.startswith(head):
        raise ExportSerializationError(
            "the bytes are not a numbax serialized export (they do not start with numbax's "
            "header; JAX's serialized StableHLO exports cannot be read by numbax)."
        )
    try:
        state = _Unpickler(io.BytesIO(blob[len(head) :])).load()
    except (pickle.UnpicklingError, EOFError, ValueError) as e:
        raise ExportSerializationError(f"the serialized export is damaged: {e}") from e
    in_tree = tree_util.tree_structure(state["in_tree"])
    out_tree = tree_util.tree_structure(state["out_tree"])
    checks = tuple(DisabledSafetyCheck(c) for c in state["disabled_safety_checks"])
    closed = _Decoder().closed(state["jaxpr"])
    return _make(state["fun_name"], in_tree, closed, out_tree, state["platforms"], checks)
