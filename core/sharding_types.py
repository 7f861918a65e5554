"""Sharding in types: `jax.typeof` of an array on a mesh with `Explicit` axes, as JAX 0.10's
explicit sharding shows it (`float32[4@X,4@Y]`).

JAX puts the sharding into every abstract value and propagates it when it stages each
operation. numbax's abstract values (`core/avals.py`) stay shape, dtype and weak type: they key
jit's caches and its fast path, which must not pay for meshes. The sharding of a value is found
when something asks for it instead:

- a concrete `Array` placed by a `NamedSharding` has its spec (`core/named_sharding.py`);
- a value traced for `jit` has the spec the propagation rules (`core/sharding_propagation.py`)
  give it from the shardings of the jitted function's arguments, over the equations traced so
  far (`with_sharding_constraint`/`reshard` inside the function included). `jit` hands its
  arguments to the trace that records its program (`JaxprTrace.arguments`) once some array has
  been placed (`placement.committed_to_device`); values of other traces (`vmap`, `grad`,
  `make_jaxpr`, control-flow bodies) are typed unsharded.

The type mentions only the mesh's `Explicit` axes: a concrete array's own mesh's, and for a
traced value the current abstract mesh's (`use_abstract_mesh`, so inside `auto_axes` an axis
made `Auto` disappears from the type while the concrete sharding, `x.sharding`, keeps it).
"""

from __future__ import annotations

from typing import Any

from core import ir, named_sharding, source_info
from core.array import Array, placement
from core.avals import ShapedArray
from core.committed import committed_sharding, device_ids
from core.errors import IncompatibleDevicesError
from core.interpreters.jvp import JVPTracer
from core.interpreters.partial_eval import JaxprTrace, JaxprTracer
from core.mesh import AbstractMesh, Mesh, get_abstract_mesh, get_mesh
from core.named_sharding import NamedSharding
from core.prng_key import PRNGKeyArray
from core.ref import AbstractRef
from core.sharding_base import PartitionSpec
from core.sharding_propagation import Spec, jaxpr_specs, shape_str, spec_of, stored_constraint
from core.trace import get_aval

_EMPTY_MESH = AbstractMesh((), ())


class ShardedShapedArray(ShapedArray):
    """A `ShapedArray` with the sharding of its type (`jax.typeof(x).sharding`): a
    `NamedSharding` over the mesh's `AbstractMesh` whose spec names only `Explicit` mesh axes,
    one entry per array axis."""

    __slots__ = ("sharding",)

    def __init__(self, aval: ShapedArray, sharding: NamedSharding) -> None:
        super().__init__(aval.shape, aval.dtype, aval.weak_type)
        self.sharding = sharding

    def str_short(self, short_dtypes: bool = False, mesh_axis_types: bool = False) -> str:
        """`float32[4@X,4]` (`f32[4@X,4]` with `short_dtypes=True`), `f32[4]{U:Y}` for an
        array unreduced over mesh axis Y (`{U:(X,Y)}` over two)."""
        plain = super().str_short(short_dtypes, mesh_axis_types)
        spec = self.sharding.spec
        text = plain[: plain.index("[")] + f"[{shape_str(self.shape, spec)}]"
        if spec.unreduced:
            names = [n for n in self.sharding.mesh.axis_names if n in spec.unreduced]
            text += "{U:" + (names[0] if len(names) == 1 else f"({','.join(names)})") + "}"
        return text

    def str_long(self) -> str:
        """JAX's tracer notation with the sharding: `float32[4@X,4]`, `~` for a weak type."""
        return ("~" if self.weak_type else "") + self.str_short(short_dtypes=False)


def _type_mesh(mesh: Mesh, traced: bool) -> Mesh:
    """`mesh` with the axis types its values' types follow: its own for a concrete value; for a
    traced one, those of the current abstract mesh if it has `mesh`'s axes."""
    if not traced:
        return mesh
    current = get_abstract_mesh()
    if current.shape_tuple != mesh.shape_tuple or current.axis_types == mesh.axis_types:
        return mesh
    return Mesh(mesh.devices, mesh.axis_names, current.axis_types)


def type_spec(spec: Spec, mesh: AbstractMesh) -> PartitionSpec:
    """The spec an array type shows: `spec` (one entry per array axis) with only the `Explicit`
    axes of `mesh`.

    Args:
      spec: one entry per array axis, None or a tuple of mesh axis names.
      mesh: the mesh whose axis types decide.

    Returns:
      A `PartitionSpec` of one entry per array axis.
    """
    explicit = set(mesh.explicit_axes)
    entries = []
    for entry in spec:
        kept = tuple(n for n in entry or () if n in explicit)
        entries.append(None if not kept else kept[0] if len(kept) == 1 else kept)
    return PartitionSpec(*entries)


def _placed_spec(x: Any) -> tuple[Spec, Mesh] | None:
    """The spec and mesh of a value: a concrete array's `NamedSharding`, a traced value's
    propagated spec over its jit arguments' mesh (a JVP tracer's: its primal's), or None if
    it is on no mesh."""
    if isinstance(x, Array):
        sharding = getattr(x, "_sharding", None)
        if isinstance(sharding, NamedSharding) and sharding.followed:
            return spec_of(sharding, len(x.shape)), sharding.mesh
        return None
    if isinstance(x, JaxprTracer) and isinstance(x._trace, JaxprTrace):
        return _traced_spec(x)
    if isinstance(x, JVPTracer):  # a derivative's primal is laid out as the value
        return _placed_spec(x.primal)
    return None


def _traced_spec(tracer: JaxprTracer) -> tuple[Spec, Mesh] | None:
    """The spec of a value traced for `jit`: its arguments' specs propagated over the
    equations recorded so far (`jaxpr_specs`, as a `jit` call's results are)."""
    trace = tracer._trace
    if trace.arguments is None:
        return None
    inputs = [*trace.arguments, *trace.consts.values()]
    specs, mesh = [], None
    for _, x in inputs:
        found = _placed_spec(x)
        specs.append(None if found is None else found[0])
        mesh = mesh or (None if found is None else found[1])
    if mesh is None:
        constrained = stored_constraint(tracer.var)
        mesh = constrained.mesh if constrained is not None else get_mesh()
        if mesh.empty:
            return None
    so_far = ir.Jaxpr([], [var for var, _ in inputs], trace.eqns, [tracer.var])
    return jaxpr_specs(so_far, specs, dict(mesh.shape))[0], mesh


def typeof(x: Any) -> ShapedArray | AbstractRef:
    """The JAX-level type of `x` (`jax.typeof`): its `ShapedArray`, with the sharding over the
    `Explicit` axes of its mesh (`float32[4@X,4]`) when `x` is on one; a Ref's `AbstractRef`
    (`Ref{float32[3]}`); a key array's `ShapedArray` of its key dtype (`key<fry>[3]`).

    Args:
      x: an array, a traced value, a numpy array, a Python scalar, a Ref or a key array.

    Returns:
      A `ShardedShapedArray` (its `sharding` over an empty mesh when `x` is on none), or an
      `AbstractRef`.
    """
    if isinstance(x, PRNGKeyArray):  # `key<fry>[3]`: the keys' shape and key dtype
        return ShapedArray.make(x.shape, x.dtype, False)
    aval = get_aval(x)
    if isinstance(aval, AbstractRef):
        return aval
    found = _placed_spec(x) if placement.committed_to_device else None
    if found is None:
        sharding = NamedSharding(_EMPTY_MESH, PartitionSpec(*[None] * len(aval.shape)))
        return ShardedShapedArray(aval, sharding)
    spec, mesh = found
    mesh = _type_mesh(mesh, isinstance(x, JaxprTracer))
    typed = type_spec(spec, mesh)
    unreduced = getattr(getattr(x, "sharding", None), "spec", typed).unreduced
    if unreduced:
        typed = PartitionSpec(*typed, unreduced=unreduced)
    return ShardedShapedArray(aval, NamedSharding(mesh.abstract_mesh, typed))


def check_put_in_jit(tracer: Any, target: Any) -> None:
    """JAX's check of a `device_put` of a value traced for `jit`: the jitted function's
    committed arguments must be on the target's devices.

    Args:
      tracer: the value put (a `JaxprTracer`).
      target: the `Sharding` it is put on.

    Raises:
      IncompatibleDevicesError: an argument is committed to other devices (JAX's text, naming
        it and where the `device_put` is).
    """
    trace = tracer._trace
    wanted = sorted(device_ids(target))
    for k, (_, x) in enumerate(getattr(trace, "arguments", None) or ()):
        sharding = committed_sharding(x)
        if sharding is None or sorted(device_ids(sharding)) == wanted:
            continue
        name = trace.describe(k) if trace.describe is not None else f"argument args[{k}]"
        error = IncompatibleDevicesError(
            f"Received incompatible devices for jitted computation. Got {name} with shape "
            f"{typeof(x).str_short(short_dtypes=False)} and with device ids "
            f"{device_ids(sharding)} on platform CPU and device_put inside jit with device ids "
            f"{device_ids(target)} on platform CPU at {source_info.current().summary()}"
        )
        error.add_note(
            "Put the arguments on the target's devices before the call, or device_put to "
            "their devices inside jit."
        )
        raise error


named_sharding.on_put_in_jit(check_put_in_jit)
