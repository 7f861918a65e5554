"""User-defined derivative rules: `custom_jvp` and `custom_vjp`, like JAX's.

Calling a decorated function flattens its arguments and hands the flat function and the flat
rule(s) to the current trace (`process_custom_jvp` / `process_custom_vjp`, "final style"):

* the eval trace just runs the function;
* a JVP trace calls the jvp rule (or, for `custom_vjp`, runs `fwd` and emits a `custom_lin`
  equation whose transpose calls `bwd`; under `linearize` that equation is staged into the linear
  program, so `grad` ends up calling `bwd`);
* a batch trace wraps the function and its rules so they run batched, and passes them on to
  its parent, so `grad(vmap(f))` still uses the rules;
* a staging trace (`make_jaxpr`, `jit`) records a `custom_jvp_call` / `custom_vjp_call`
  equation holding the function as a jaxpr and the rules as Python callables in its params; the
  rules of those primitives send them back through the same hooks, so `grad(jit(f))` and
  `vmap(jit(f))` keep the custom rules.

Rules run like any other code, so they are differentiated again for higher orders.

Symbolic zeros (`symbolic_zeros=True`): a jvp rule sees `SymbolicZero` tangents, and a
`SymbolicZero` it returns stays the interpreters' `Zero`; a vjp rule's `fwd` gets each leaf as
a `CustomVJPPrimal(value, perturbed)`, the bits coming from the JVP trace through its
`perturbed=` keyword, and `bwd` gets `SymbolicZero`s for the zero output cotangents.

Two helpers of `jax.custom_derivatives` are built on these: `custom_gradient` is a
`custom_vjp` whose backward pass calls the user's forward function again to get its vjp
closure (closures cannot be residuals of a staged program, so the forward computation runs
twice under `grad`), and `closure_convert` stages a function to a jaxpr and hands back the
values it closes over as explicit arguments.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, errors, ir, tree_util
from core.ad_util import Zero, instantiate, ops, zeros_like_aval
from core.api import _jvp
from core.array import Array
from core.avals import ShapedArray
from core.interpreters import batching, register_custom_rules
from core.interpreters.jvp import tangent_aval
from core.interpreters.partial_eval import trace_to_jaxpr
from core.interpreters.transpose import backward_pass, is_undefined
from core.linear_call import linear_call
from core.primitive import Primitive
from core.prims.control_flow.common import batch_jaxpr
from core.prims.elementwise import stop_gradient_prim
from core.prims.indexing import slice as slice_prim
from core.prims.shapes import squeeze
from core.ref import Ref
from core.trace import EvalTrace, Tracer, as_value, current_trace, get_aval, to_numpy

# ---------------------------------------------------------------------------------------------
# Flattening helpers


def _resolve_args(
    fun: Callable, args: tuple, kwargs: dict, nondiff: Sequence[int], kind: str, name: str
) -> tuple:
    """Keyword arguments become positional ones (custom rules see positional arguments only),
    and defaults fill the parameters up to the last of `nondiff` (as JAX's `resolve_kwargs`:
    a rule receives a defaulted nondiff argument too). Arguments that do not bind to `fun`'s
    parameters are JAX's TypeError naming the `kind` ("custom_jvp") function `name`."""
    if not kwargs and max(nondiff, default=-1) < len(args):
        code = getattr(fun, "__code__", None)
        if code is None or len(args) >= code.co_argcount:
            return args  # nothing to fill or to miss
    return _bound_args(fun, args, kwargs, kind, name)


def _bound_args(fun: Callable, args: tuple, kwargs: dict, kind: str, name: str) -> tuple:
    """`args` and `kwargs` bound to `fun`'s parameters as positional arguments, defaults
    filled; arguments that do not bind are JAX's TypeError naming the `kind` ("custom_jvp",
    "custom_vmap") function `name`."""
    opaque = isinstance(fun, functools.partial)  # JAX's: a partial's signature is opaque
    try:
        bound = inspect.signature(_opaque if opaque else fun).bind(*args, **kwargs)
        bound.apply_defaults()
        passed = [k for k in bound.kwargs if k in kwargs]  # keyword-only ones given
        if passed:
            raise TypeError(
                "The following keyword arguments could not be resolved to positions: "
                f"{', '.join(passed)}"
            )
    except TypeError as e:
        raise TypeError(
            f"The input arguments to the {kind}-decorated function {name} could not be "
            f"resolved to positional-only arguments. Binding failed with the error:\n{e}"
        ) from e
    return bound.args


def _opaque(*args: Any, **kwargs: Any) -> None:
    """The signature JAX binds a `functools.partial`'s arguments to."""


class _Split:
    """Separates `nondiff_argnums` from the differentiable arguments and flattens the latter."""

    def __init__(self, args: tuple, nondiff_argnums: tuple[int, ...], vjp: bool):
        nums = tuple(n % len(args) for n in nondiff_argnums) if args else ()
        traced = [n for n in nums if any(map(_is_tracer, tree_util.tree_leaves(args[n])))]
        if traced and vjp:
            raise errors.CustomVJPNondiffTracerError()
        if traced:  # JAX's custom_jvp: traced nondiff values, without their derivatives
            args = tuple(
                tree_util.tree_map(_stop_gradient, a) if i in traced else a
                for i, a in enumerate(args)
            )
        self.nondiff = [args[n] for n in nums]
        self.diff_idx = [i for i in range(len(args)) if i not in nums]
        flat, self.in_tree = tree_util.tree_flatten([args[i] for i in self.diff_idx])
        # Refs pass by reference (JAX's plumbing Refs): out of the traced leaves, back in the
        # arguments the rules see, and without cotangents.
        self.refs = _refs_at(flat)
        self.num_leaves = len(flat)
        flat = [x for i, x in enumerate(flat) if i not in self.refs]
        # The differentiable arguments' structures only: the rules' closures keep this object
        # in the jaxpr, which must not keep the traced values (`checking_leaks`).
        self.args = tuple(
            a if i in nums else tree_util.tree_map(lambda _: 0, a) for i, a in enumerate(args)
        )
        self.flat = [as_value(x) for x in flat]
        self.in_avals = [get_aval(x) for x in self.flat]
        self.out_tree: Any = None
        self.fun_out: tuple | None = None  # (tree, avals) of the function's output, once run

    def diff_args(self, flat: Sequence[Any]) -> list[Any]:
        return tree_util.tree_unflatten(self.in_tree, _with_refs(flat, self.refs, self.num_leaves))

    def full_args(self, flat: Sequence[Any]) -> list[Any]:
        full = list(self.args)
        for i, a in zip(self.diff_idx, self.diff_args(flat)):
            full[i] = a
        return full

    def fun_outputs(self, out: Any, name: str) -> list[Any]:
        """The function's output leaves, as arrays; records their tree and avals."""
        leaves = self.flatten_out(out, f"{name} output")
        self.fun_out = (tree_util.tree_structure(out), [get_aval(x) for x in leaves])
        return leaves

    def check_rule_primal(self, out: Any, kind: str, rule: str, name: str) -> None:
        """JAX's TypeErrors for a `kind` ("JVP"/"fwd") rule's primal output `out` unlike the
        function's (checked once the function has run: its tree, then shapes and dtypes)."""
        if self.fun_out is None:
            return
        tree_, avals_ = self.fun_out
        leaves, tree = tree_util.tree_flatten(out)
        avals = [get_aval(as_value(x)) for x in leaves]
        same_tree = tree == tree_
        if same_tree and all(
            a.shape == b.shape and a.dtype == b.dtype for a, b in zip(avals, avals_)
        ):
            return
        got, want = _type_tree(tree, avals), _type_tree(tree_, avals_)
        if kind == "JVP":
            head = (
                f"Custom JVP rule {rule} for function {name} must produce a pair (list or tuple "
                "of length two) where the first element represents the primal output (equal in "
                f"value to the output of the custom_jvp-decorated function {name}, and in "
                "particular "
            )
            head += (
                "of the same container/pytree structure)"
                if not same_tree
                else "with leaves of the same shape/dtype)"
            )
            head += ", but instead the JVP rule output's first element had "
            other = f"custom_jvp-decorated function {name}"
        else:
            head = (
                f"Custom VJP fwd rule {rule} for function {name} must produce a pair (list or "
                "tuple of length two) where the first element represents the primal output "
                f"(equal to the output of the custom_vjp-decorated function {name}) and the "
                "second element represents residuals (i.e. values stored from the forward pass "
                "for use on the backward pass), but instead the fwd rule output's first element "
                "had "
            )
            other = f"custom_vjp-decorated function {name}"
        if not same_tree:
            raise errors.CustomDerivativeError(  # JAX's words, then the fix
                f"{head}container/pytree structure:\n    {got}\nwhile the {other} had output "
                f"container/pytree structure:\n    {want}.\nReturn the function's output as "
                "the first element."
            )
        raise errors.CustomDerivativeError(
            f"{head}shapes/dtypes of:\n    {got}\nwhile the {other} had output shapes/dtypes "
            f"of:\n    {want}\nReturn the function's output as the first element."
        )

    def flatten_out(self, out: Any, what: str, convert: bool = True) -> list[Any]:
        """`out`'s leaves (checked against the function's output structure), as arrays unless
        not `convert`."""
        leaves, tree = tree_util.tree_flatten(out)
        if self.out_tree is None:
            self.out_tree = tree
        elif tree != self.out_tree:
            raise errors.CustomDerivativeError(
                f"{what} must have the structure of the function's output {self.out_tree}, "
                f"got {tree}"
            )
        if not convert:
            return leaves
        return [x if type(x) is Zero else as_value(x) for x in leaves]


def _type_tree(tree: Any, avals: Sequence[ShapedArray]) -> str:
    """How JAX's rule errors print an output: its tree of short types, without quotes."""
    return str(tree_util.tree_unflatten(tree, [a.str_short() for a in avals])).replace("'", "")


def _is_tracer(x: Any) -> bool:
    return isinstance(x, Tracer)


def _stop_gradient(x: Any) -> Any:
    """`x` without derivatives: only traced floats carry any (keys and integers do not)."""
    if isinstance(x, Tracer) and dtypes.kind(x.aval.dtype) in "fc":
        return stop_gradient_prim(x)
    return x


def _refs_at(leaves: Sequence[Any]) -> dict[int, Ref]:
    """The `Ref`s among `leaves`, by position."""
    return {i: x for i, x in enumerate(leaves) if isinstance(x, Ref)}


def _with_refs(values: Sequence[Any], refs: dict[int, Ref], n: int) -> list[Any]:
    """The `n` leaves: `refs` at their positions, `values` in the others."""
    rest = iter(values)
    return [refs[i] if i in refs else next(rest) for i in range(n)]


def _forward_def(self: Any, name: str) -> Any:
    """`f.def_vmap` of a `custom_jvp`/`custom_vjp` wrapping a `custom_vmap` (or another custom
    function): the `def*` methods of the wrapped function, as JAX forwards them."""
    if name.startswith("def") and "fun" in vars(self):
        return getattr(self.fun, name)
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# custom_jvp


class SymbolicZero:
    """The zero tangent a `custom_jvp` rule defined with `symbolic_zeros=True` receives for an
    input that is not differentiated (`jax.custom_derivatives.SymbolicZero`): test for it with
    `isinstance`, read its `aval`'s attributes (`shape`, `dtype`) on it, build zeros with
    `instantiate()`; returned as a tangent output, it stands for zeros.

    Args:
      aval: the tangent's abstract value.
    """

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __getattr__(self, name: str) -> Any:
        if name == "aval":  # not set yet (copies, pickling)
            raise AttributeError(name)
        return getattr(self.aval, name)

    def __repr__(self) -> str:
        return "SymbolicZero"

    def instantiate(self) -> Any:
        """The zeros this tangent stands for."""
        return zeros_like_aval(self.aval)

    @classmethod
    def from_primal_value(cls, val: Any) -> SymbolicZero:
        """The symbolic zero tangent of the primal value `val`."""
        return cls(_float0_of_keys(tangent_aval(get_aval(val))))


def _float0_of_keys(aval: ShapedArray) -> ShapedArray:
    """A tangent's aval, a key's float0 (JAX's tangent type of keys)."""
    if type(aval.dtype) is dtypes.KeyDType:
        return ShapedArray(aval.shape, dtypes.float0)
    return aval


def _nondiff_positions(
    fun: Callable, nondiff_argnums: Sequence[int], nondiff_argnames: Sequence[str]
) -> tuple[int, ...]:
    """JAX's non-differentiable argument positions: `nondiff_argnums` joined by the positions
    of the positional-or-keyword parameters of `fun` that `nondiff_argnames` names, sorted."""
    nums = set(nondiff_argnums)
    if nondiff_argnames:
        params = inspect.signature(fun).parameters.values()
        pos = {
            p.name: i
            for i, p in enumerate(params)
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        }
        nums.update(pos[n] for n in nondiff_argnames if n in pos)
    return tuple(sorted(nums))


def _symbolic_to_zero(t: Any) -> Any:
    """A rule's `SymbolicZero` or numpy `float0` tangent output as the interpreters' `Zero`."""
    if isinstance(t, np.ndarray) and t.dtype == dtypes.float0:
        return Zero(ShapedArray(t.shape, dtypes.float0))
    return Zero(t.aval) if type(t) is SymbolicZero else t


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """Zero tangents for the primal pytree `val`, as `jax.custom_derivatives.zero_from_primal`.

    Args:
      val: a pytree of arrays.
      symbolic_zeros: give `SymbolicZero`s instead of zero arrays.

    Returns:
      A pytree like `val` of zero tangents (float0 ones for integer leaves).
    """

    def zero(x: Any) -> Any:
        aval = tangent_aval(get_aval(x))
        if not dtypes.issubdtype(aval.dtype, np.inexact):  # a numpy float0 array, as JAX's
            aval = ShapedArray(aval.shape, dtypes.float0)
            return SymbolicZero(aval) if symbolic_zeros else np.zeros(aval.shape, dtypes.float0)
        return SymbolicZero(aval) if symbolic_zeros else zeros_like_aval(aval)

    return tree_util.tree_map(zero, val)


class custom_jvp:  # noqa: N801  (JAX's name)
    """A function with a custom forward-mode rule (reverse mode comes from transposing it).

    Example:
      >>> @custom_jvp
      ... def f(x):
      ...     return jnp.log1p(jnp.exp(x))
      >>> @f.defjvp
      ... def f_jvp(primals, tangents):
      ...     (x,), (t,) = primals, tangents
      ...     return f(x), t * jax_nn_sigmoid(x)

    Args:
      fun: the function.
      nondiff_argnums: positions of static arguments; the rule receives them first:
        `jvp(*nondiff_args, primals, tangents)`.
    """

    def __init__(
        self,
        fun: Callable,
        nondiff_argnums: Sequence[int] = (),
        nondiff_argnames: Sequence[str] = (),
    ):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = _nondiff_positions(fun, nondiff_argnums, nondiff_argnames)
        self.jvp: Callable | None = None
        self.symbolic_zeros = False

    __getattr__ = _forward_def

    def defjvp(self, jvp: Callable, symbolic_zeros: bool = False) -> Callable:
        """Sets the rule `jvp(primals, tangents) -> (primal_out, tangent_out)`; returns it."""
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps: Callable | None) -> None:
        """One rule per argument, `jvp_i(tangent_i, primal_out, *primals)`, summed.

        A `None` entry means the output does not depend on that argument.
        """
        if self.nondiff_argnums:
            raise errors.CustomDerivativeError("defjvps does not support nondiff_argnums")

        def jvp(primals, tangents):
            out = self(*primals)  # JAX's: the primal is a call of the custom_jvp function
            # JAX's: a `None` rule contributes zeros, and the terms are summed as tangents
            # (arrays, even of Python scalars); a single term is the rule's output as it is
            terms = [
                rule(t, out, *primals)
                if rule is not None
                else tree_util.tree_map(lambda o: zeros_like_aval(get_aval(o)), out)
                for rule, t in zip(jvps, tangents, strict=True)
            ]
            total = terms[0]
            for term in terms[1:]:
                total = tree_util.tree_map(ops.add_any, total, term)
            return out, total

        self.defjvp(jvp)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = getattr(self.fun, "__name__", "custom_jvp function")
        if self.jvp is None:
            raise errors.CustomRuleMissingError(
                f"No JVP defined for custom_jvp function {name} using defjvp."
            )
        args = _resolve_args(self.fun, args, kwargs, self.nondiff_argnums, "custom_jvp", name)
        split = _Split(args, self.nondiff_argnums, vjp=False)
        if type(current_trace()) is EvalTrace:
            return self.fun(*args)  # no transformation: plain call, values as they come (JAX)

        def fun_flat(*xs):
            return split.fun_outputs(self.fun(*split.full_args(xs)), name)

        def jvp_flat(primals, tangents):
            if not self.symbolic_zeros:
                tangents = [instantiate(t) for t in tangents]
            else:  # the rule sees JAX's public SymbolicZero
                tangents = [SymbolicZero(t.aval) if type(t) is Zero else t for t in tangents]
            res = self.jvp(
                *split.nondiff, tuple(split.diff_args(primals)), tuple(split.diff_args(tangents))
            )
            rule = jvp_flat.__name__
            if not isinstance(res, (tuple, list)) or len(res) != 2:
                raise errors.CustomDerivativeError(  # JAX's words, then the fix
                    f"Custom JVP rule {rule} for function {name} must produce a pair (list or "
                    "tuple of length two) representing primal and tangent outputs, but got "
                    f"{res}.\nReturn (primal_out, tangent_out)."
                )
            # a SymbolicZero output (`zero_from_primal` makes them in any rule) stays a
            # symbolic zero, as JAX's; so does a float0 one
            res = res[0], tree_util.tree_map(_symbolic_to_zero, res[1])
            p_tree, t_tree = (tree_util.tree_structure(r) for r in res)
            if p_tree != t_tree:
                raise errors.CustomDerivativeError(
                    f"Custom JVP rule {rule} for function {name} must produce primal and "
                    "tangent outputs with equal container (pytree) structures, but got "
                    f"{p_tree} and {t_tree} respectively.\nReturn one tangent per output."
                )
            split.check_rule_primal(res[0], "JVP", rule, name)
            # run eagerly (under jvp), the rule's Python scalars stay Python scalars, as JAX's
            eager = type(current_trace()) is EvalTrace
            outs = split.flatten_out(res[0], f"primal output of the jvp rule of {name}", not eager)
            t_outs = split.flatten_out(
                res[1], f"tangent output of the jvp rule of {name}", not eager
            )
            for o, t in zip(outs, t_outs):
                _check_tangent(get_aval(o), t.aval if type(t) is Zero else get_aval(t))
            # a float0 zero is the interpreters' zero tangent of the (integer) output
            t_outs = [
                Zero(tangent_aval(get_aval(o)))
                if type(t) is Zero and t.aval.dtype == dtypes.float0
                else t
                for o, t in zip(outs, t_outs)
            ]
            return outs, t_outs

        fun_flat.__name__ = name
        jvp_flat.__name__ = getattr(self.jvp, "__name__", "jvp")
        flat, split.flat = split.flat, None
        outs = current_trace().process_custom_jvp(fun_flat, jvp_flat, flat, self.symbolic_zeros)
        return tree_util.tree_unflatten(split.out_tree, outs)


# ---------------------------------------------------------------------------------------------
# custom_vjp


@dataclasses.dataclass(slots=True)
class CustomVJPPrimal:
    """An argument leaf as the forward rule of a `custom_vjp` defined with
    `symbolic_zeros=True` receives it (`jax.custom_derivatives.CustomVJPPrimal`).

    Args:
      value: the leaf's value.
      perturbed: whether the leaf is differentiated (False: its Jacobian column is zero).
    """

    value: Any
    perturbed: bool


def custom_vjp_primal_tree_values(tree: Any) -> Any:
    """`tree` with each `CustomVJPPrimal` leaf replaced by its value, as
    `jax.custom_derivatives.custom_vjp_primal_tree_values`.

    Args:
      tree: the arguments a `symbolic_zeros=True` forward rule receives.

    Returns:
      The same tree of plain values.

    Raises:
      TypeError: a leaf is not a `CustomVJPPrimal`.
    """

    def value(leaf: Any) -> Any:
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
        return leaf.value

    return tree_util.tree_map(value, tree)


class custom_vjp:  # noqa: N801  (JAX's name)
    """A function with a custom reverse-mode rule.

    `fwd(*args) -> (out, residuals)` and `bwd(residuals, out_cotangent) -> tuple of one
    cotangent per argument` (None for a zero one). Forward mode (`jvp`, `jacfwd`) is not
    available for such functions, as in JAX.

    Args:
      fun: the function.
      nondiff_argnums: positions of static arguments; `bwd` receives them first:
        `bwd(*nondiff_args, residuals, g)`, and returns no cotangent for them.
    """

    def __init__(
        self,
        fun: Callable,
        nondiff_argnums: Sequence[int] = (),
        nondiff_argnames: Sequence[str] = (),
    ):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = _nondiff_positions(fun, nondiff_argnums, nondiff_argnames)
        self.fwd: Callable | None = None
        self.bwd: Callable | None = None
        self.symbolic_zeros = False
        self.optimize_remat = False

    __getattr__ = _forward_def

    def defvjp(
        self,
        fwd: Callable,
        bwd: Callable,
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None:
        """Sets the forward (`fwd`) and backward (`bwd`) rules.

        Args:
          fwd: `fwd(*args) -> (out, residuals)`.
          bwd: `bwd(residuals, out_cotangent) -> one cotangent (or None) per argument`.
          symbolic_zeros: as JAX's: `fwd` receives each argument leaf as a `CustomVJPPrimal`
            (`value`, `perturbed`), and `bwd` receives a `SymbolicZero` for each output
            cotangent that is zero.
          optimize_remat: JAX's flag for rules under `remat`; numbax accepts it (the values
            are the same without it).

        Raises:
          NotImplementedError: both flags set, as in JAX.
        """
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros = symbolic_zeros
        self.optimize_remat = optimize_remat
        if symbolic_zeros and optimize_remat:
            raise NotImplementedError(
                "remat optimization for custom_vjp does not support symbolic zeros"
            )

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = getattr(self.fun, "__name__", "custom_vjp function")
        if self.fwd is None:
            raise errors.CustomRuleMissingError(
                f"No VJP defined for custom_vjp function {name} using defvjp."
            )
        args = _resolve_args(self.fun, args, kwargs, self.nondiff_argnums, "custom_vjp", name)
        split = _Split(args, self.nondiff_argnums, vjp=True)
        if type(current_trace()) is EvalTrace:
            return self.fun(*args)  # no transformation: plain call, values as they come (JAX)
        res_tree: list[Any] = []

        def fun_flat(*xs):
            return split.fun_outputs(self.fun(*split.full_args(xs)), name)

        def fwd_flat(*xs, perturbed):
            if self.symbolic_zeros:  # JAX's records of the value and whether it is perturbed
                xs = [CustomVJPPrimal(x, p) for x, p in zip(xs, perturbed, strict=True)]
            res = self.fwd(*split.full_args(xs))
            if not isinstance(res, (tuple, list)) or len(res) != 2:
                rule = fwd_flat.__name__
                raise errors.CustomDerivativeError(  # JAX's words, then the fix
                    f"Custom VJP fwd rule {rule} for function {name} must produce a pair (list "
                    "or tuple of length two) where the first element represents the primal "
                    f"output (equal to those of the custom_vjp-decorated function {name}) and "
                    "the second element represents residuals (i.e. values stored from the "
                    "forward pass for use on the backward pass), but instead of a pair the fwd "
                    f"rule {rule} produced {res}.\nReturn (output, residuals)."
                )
            split.check_rule_primal(res[0], "fwd", fwd_flat.__name__, name)
            outs = split.flatten_out(res[0], f"primal output of the fwd rule of {name}")
            res_leaves, tree = tree_util.tree_flatten(res[1])
            refs = _refs_at(res_leaves)  # residual Refs reach bwd as themselves
            res_tree[:] = [tree, refs, len(res_leaves)]
            return outs, [as_value(r) for i, r in enumerate(res_leaves) if i not in refs]

        def bwd_flat(res, cts):
            zero = SymbolicZero if self.symbolic_zeros else zeros_like_aval
            cts = [zero(_float0_of_keys(c.aval)) if type(c) is Zero else c for c in cts]
            ct_tree = tree_util.tree_unflatten(split.out_tree, cts)
            tree, refs, n = res_tree
            residuals = tree_util.tree_unflatten(tree, _with_refs(res, refs, n))
            cts_in = self.bwd(*split.nondiff, residuals, ct_tree)
            return _flatten_cotangents(cts_in, split, name)

        fun_flat.__name__ = name
        fwd_flat.__name__ = getattr(self.fwd, "__name__", "fwd")
        bwd_flat.__name__ = getattr(self.bwd, "__name__", "bwd")
        flat, split.flat = split.flat, None
        outs = current_trace().process_custom_vjp(fun_flat, fwd_flat, bwd_flat, flat)
        return tree_util.tree_unflatten(split.out_tree, outs)


def _flatten_cotangents(cts_in: Any, split: _Split, name: str) -> list[Any]:
    """`bwd`'s tuple of per-argument cotangents as a flat list (None/Zero become zeros).

    As JAX, the tuple is matched against the arguments with None as a leaf: a None stands
    for the zero cotangents of its whole argument subtree (nothing for a None argument), and
    an array standing for a subtree is used for each of its leaves."""
    diff = tuple(split.args[i] for i in split.diff_idx)
    if isinstance(cts_in, list) and len(cts_in) == len(diff):
        cts_in = tuple(cts_in)
    flat: list[Any] = []

    def append(ct: Any, arg: Any) -> None:
        flat.extend([ct] * len(tree_util.tree_leaves(arg)))

    try:
        if not isinstance(cts_in, tuple):
            raise ValueError(type(cts_in).__name__)
        # matched without rebuilding `cts_in`'s nodes (their unflatten may refuse Nones)
        leaves, tree = tree_util.tree_flatten(cts_in, is_leaf=lambda x: x is None)
        for ct, arg in zip(leaves, tree.flatten_up_to(diff)):
            append(ct, arg)
    except ValueError:
        raise errors.CustomDerivativeError(  # JAX's words, then the fix
            "Custom VJP bwd rule must produce an output with the same container (pytree) "
            "structure as the args tuple of the primal function, and in particular must "
            "produce a tuple of length equal to the number of arguments to the primal "
            "function, but got bwd output structure "
            f"{tree_util.tree_structure(cts_in)} for primal input structure "
            f"{tree_util.tree_structure(diff)}.\nThe bwd rule of {name} returns a "
            "tuple with one cotangent (or None) per differentiable argument."
        ) from None
    flat = [ct for i, ct in enumerate(flat) if i not in split.refs]  # a Ref has no cotangent
    out = []
    for k, (ct, aval) in enumerate(zip(flat, split.in_avals, strict=True)):
        if ct is None or type(ct) is Zero or dtypes.kind(aval.dtype) not in "fc":
            out.append(zeros_like_aval(aval))  # an integer input's is zero (JAX's float0)
        elif type(ct) is SymbolicZero:
            if ct.aval.shape != aval.shape:
                raise errors.CustomCotangentShapeError(  # JAX's words, then the fix
                    "Custom VJP bwd rule produced a SymbolicZero with a shape/dtype that does "
                    f"not match the corresponding input tangent shape/dtype: at output[{k}] the "
                    f"SymbolicZero had shape/dtype {_short(ct.aval)} while the corresponding "
                    f"input had shape/dtype {_short(aval)}. Consider just returning a None "
                    "here instead of a SymbolicZero object."
                )
            out.append(zeros_like_aval(aval))
        else:
            float0 = getattr(ct, "dtype", None) == dtypes.float0  # of an int, bool or key input
            ct = ct if float0 else as_value(ct)
            if get_aval(ct).shape != aval.shape:
                raise errors.CustomCotangentShapeError(  # JAX's words, then the fix
                    "Custom VJP bwd rule must produce an output with the same type as the args "
                    f"tuple of the primal function, but at output[{k}] the bwd rule produced an "
                    f"output of type {_short(get_aval(ct))} corresponding to an input of type "
                    f"{_short(aval)}, so the shapes do not match\nThe bwd rule of {name} "
                    "returns cotangents shaped like the arguments."
                )
            out.append(zeros_like_aval(aval) if float0 else ct)
    return out


def _short(aval: Any) -> str:
    """`float32[2]`: how JAX's custom rule errors name a type (no weak-type mark)."""
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"


def _check_tangent(primal: Any, tangent: Any) -> None:
    """JAX's check of a custom JVP rule's tangent output against its primal output: the
    primal's shape, and its dtype for an inexact primal (an integer or boolean primal's
    tangents are float0 or zeros of its dtype, both taken)."""
    inexact = dtypes.kind(primal.dtype) in "fc"
    want = ShapedArray(primal.shape, primal.dtype if inexact else dtypes.float0)
    if tangent.shape != want.shape or (inexact and tangent.dtype != want.dtype):
        raise errors.CustomDerivativeError(  # JAX's words, then the fix
            "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
            f"and dtypes. Expected {_short(want)} (tangent type of {_short(primal)}) but got "
            f"{_short(tangent)}.\nCast the tangent (t.astype(primal.dtype)) or broadcast it."
        )


def custom_vjp_call_jvp(
    fwd: Callable, bwd: Callable, primals: Sequence[Any], tangents: Sequence[Any]
) -> tuple[list[Any], list[Any]]:
    """The JVP of a custom_vjp function: run `fwd` now, and a `custom_lin` for the tangents.

    Under `linearize` the `custom_lin` equation lands in the linear program; transposing it
    calls `bwd` on the residuals.
    """
    # JAX's perturbed bits: an input with a symbolic zero tangent, or an integer one, is not
    perturbed = [type(t) is not Zero and dtypes.kind(get_aval(t).dtype) in "fc" for t in tangents]
    outs, res = fwd(*primals, perturbed=perturbed)
    tangents = [instantiate(t) for t in tangents]
    out_avals = tuple(get_aval(o) for o in outs)
    t_outs = custom_lin_p.bind(*res, *tangents, num_res=len(res), bwd=bwd, out_avals=out_avals)
    return list(outs), list(t_outs)


# ---------------------------------------------------------------------------------------------
# The primitives


def _eval_call(call_jaxpr: ir.Jaxpr, args: Sequence[Any]) -> list[Any]:
    return ir.eval_jaxpr(call_jaxpr, [], *args)


def _impl_call(*args: Any, call_jaxpr: ir.Jaxpr, **params: Any) -> list[Any]:
    outs = _eval_call(call_jaxpr, [Array(a) for a in args])
    return [to_numpy(o) for o in outs]


def _call_primitive(name: str) -> Primitive:
    """A custom-rule call primitive: evaluates `call_jaxpr` and has its output avals."""
    prim = Primitive(name, multiple_results=True, higher_order=True)
    prim.def_impl(_impl_call)
    prim.def_abstract_eval(lambda *avals, call_jaxpr, **params: call_jaxpr.out_avals)
    return prim


def _closure_jvp(call_jaxpr: ir.Jaxpr, primals: Any, tangents: Any, num_consts: int) -> Any:
    """None, or the jvp of the function itself when a closed-over const has a tangent.

    The function then closes over a value being differentiated: the custom rule cannot see
    that dependence, so the function itself is differentiated.
    """
    if all(type(t) is Zero for t in tangents[:num_consts]):
        return None
    return call_jvp(call_jaxpr, primals, tangents)


def call_jvp(call_jaxpr: ir.Jaxpr, primals: Any, tangents: Any) -> Any:
    """The jvp of evaluating `call_jaxpr` itself (its custom rule set aside)."""
    return _jvp(
        lambda *xs: _eval_call(call_jaxpr, xs),
        list(primals),
        tree_util.tree_structure(tuple(primals)),
        list(tangents),
        has_aux=False,
    )


custom_jvp_call_p = _call_primitive("custom_jvp_call")


def _custom_jvp_call_jvp(primals, tangents, *, name, call_jaxpr, jvp, num_consts, symbolic_zeros):
    out = _closure_jvp(call_jaxpr, primals, tangents, num_consts)
    if out is not None:
        return out
    ts = list(tangents[num_consts:])
    if not symbolic_zeros:
        ts = [instantiate(t) for t in ts]
    return jvp(list(primals[num_consts:]), ts)


def _custom_jvp_call_batch(
    args, dims, *, name, call_jaxpr, jvp, num_consts, symbolic_zeros, axis_trace
):
    size = axis_trace.axis_size

    def fun(*xs):
        return _eval_call(call_jaxpr, xs)

    fun.__name__ = name

    def jvp_all(primals, tangents):
        return jvp(primals[num_consts:], tangents[num_consts:])

    jvp_all.__name__ = getattr(jvp, "__name__", "jvp")

    fun_b, jvp_b = batching.batch_custom_jvp(fun, jvp_all, dims, size, axis_trace.axis_name)
    outs = current_trace().process_custom_jvp(fun_b, jvp_b, list(args), symbolic_zeros)
    return _unbatched_by_collectives(outs, call_jaxpr, dims, axis_trace)


def _unbatched_by_collectives(outs: list, call_jaxpr: ir.Jaxpr, dims, axis_trace) -> tuple:
    """The batched call's outputs (all batched at 0) with their dims; when the function reads
    the axis (a `psum` over it), the outputs its batched jaxpr leaves unbatched are taken out
    of the batch (they are equal along it), as JAX's batched calls give them unbatched."""
    if not axis_trace.reads_axis({"call_jaxpr": call_jaxpr}):
        return outs, [0] * len(outs)
    size, batched = axis_trace.axis_size, tuple(d is not None for d in dims)
    _, _, out_batched = batch_jaxpr(call_jaxpr, size, batched, False, axis_trace.axis_name)
    first = [o if b else squeeze(slice_prim(o, (0,) * o.ndim, (1, *o.shape[1:])), (0,))
             for o, b in zip(outs, out_batched)]  # fmt: skip
    return first, [0 if b else None for b in out_batched]


def _custom_jvp_call_transpose(cts, *args, call_jaxpr, **params):
    """The transpose of a call applied to tangents (a jvp rule calling the function on them, in
    a staged body): the function's own, as JAX's."""
    cts_in = backward_pass(call_jaxpr, [], list(args), [instantiate(c) for c in cts])
    return [ct if is_undefined(a) else None for ct, a in zip(cts_in, args)]


custom_jvp_call_p.def_jvp(_custom_jvp_call_jvp)
custom_jvp_call_p.def_batch(_custom_jvp_call_batch)
custom_jvp_call_p.def_transpose(_custom_jvp_call_transpose)

custom_vjp_call_p = _call_primitive("custom_vjp_call")


def _custom_vjp_call_jvp(primals, tangents, *, name, call_jaxpr, fwd, bwd, num_consts):
    out = _closure_jvp(call_jaxpr, primals, tangents, num_consts)
    if out is not None:
        return out
    return custom_vjp_call_jvp(fwd, bwd, primals[num_consts:], tangents[num_consts:])


def _custom_vjp_call_batch(args, dims, *, name, call_jaxpr, fwd, bwd, num_consts, axis_trace):
    size = axis_trace.axis_size
    # The consts (closed-over values) get zero cotangents: the rules do not see them.
    const_avals = [batching.unbatched_aval(get_aval(a), d) for a, d in zip(args[:num_consts], dims)]

    def fun(*xs):
        return _eval_call(call_jaxpr, xs)

    fun.__name__ = name

    def fwd_all(*xs, perturbed):
        return fwd(*xs[num_consts:], perturbed=perturbed[num_consts:])

    def bwd_all(res, cts):
        return [Zero(a) for a in const_avals] + list(bwd(res, cts))

    fwd_all.__name__ = getattr(fwd, "__name__", "fwd")
    bwd_all.__name__ = getattr(bwd, "__name__", "bwd")
    fun_b, fwd_b, bwd_b = batching.batch_custom_vjp(
        fun, fwd_all, bwd_all, dims, size, axis_trace.axis_name
    )
    outs = current_trace().process_custom_vjp(fun_b, fwd_b, bwd_b, list(args))
    return _unbatched_by_collectives(outs, call_jaxpr, dims, axis_trace)


custom_vjp_call_p.def_jvp(_custom_vjp_call_jvp)
custom_vjp_call_p.def_batch(_custom_vjp_call_batch)

# custom_lin: the linear map `tangents -> J tangents` of a custom_vjp function, known only
# through its transpose `bwd`. Inputs are (residuals..., tangents...).

custom_lin_p = Primitive("custom_lin", multiple_results=True, linear=True)  # in the tangents


def _forward_mode_error(*args: Any, **params: Any) -> Any:
    raise errors.CustomVJPForwardModeError()


def _custom_lin_transpose(cts, *args, num_res, bwd, out_avals):
    cts_in = bwd(list(args[:num_res]), list(cts))
    return [None] * num_res + list(cts_in)


custom_lin_p.def_impl(_forward_mode_error)
custom_lin_p.def_abstract_eval(lambda *avals, num_res, bwd, out_avals: list(out_avals))
custom_lin_p.def_jvp(_forward_mode_error)
custom_lin_p.def_batch(_forward_mode_error)
custom_lin_p.def_transpose(_custom_lin_transpose)


register_custom_rules(
    custom_jvp_call=custom_jvp_call_p,
    custom_vjp_call=custom_vjp_call_p,
    custom_vjp_call_jvp=custom_vjp_call_jvp,
)

# ---------------------------------------------------------------------------------------------
# Built on custom_vjp and staging: custom_gradient, closure_convert


def _example_aval(x: Any, keep_weak: bool = False) -> ShapedArray:
    """The abstract value of an example argument (arrays, scalars or ShapeDtypeStructs);
    weakly typed only with `keep_weak` (a Python scalar, as JAX's `shaped_abstractify`)."""
    if isinstance(x, ShapedArray):
        return x
    if hasattr(x, "aval") or not hasattr(x, "shape"):
        aval = get_aval(x)
        return aval if keep_weak else aval.update(weak_type=False)
    return ShapedArray(
        tuple(x.shape),
        dtypes.canonicalize_dtype(x.dtype),
        keep_weak and getattr(x, "weak_type", False),
    )


def trace_flat(
    fun: Callable, args: tuple, keep_weak: bool = False
) -> tuple[Any, list, Any, list, Any]:
    """The jaxpr of `fun` on flat arguments shaped like the leaves of `args`: `(jaxpr, consts,
    in_tree, in_avals, out_tree)`; `keep_weak` keeps the arguments' weak types."""
    flat, in_tree = tree_util.tree_flatten(args)
    in_avals = [_example_aval(x, keep_weak) for x in flat]
    out_store: list = []

    def flat_fun(*xs):
        out = fun(*tree_util.tree_unflatten(in_tree, list(xs)))
        leaves, tree = tree_util.tree_flatten(out)
        out_store.append(tree)
        return leaves

    jaxpr, consts = trace_to_jaxpr(flat_fun, in_avals)
    return jaxpr, consts, in_tree, in_avals, out_store[0]


def custom_gradient(fun: Callable) -> Callable:
    """Defines a function and its gradient together, like `jax.custom_gradient`.

    `fun(*args)` returns `(value, vjp_fn)`, where `vjp_fn(cotangent)` returns one cotangent per
    positional argument (a tuple, or a single value for a one-argument function).

    The forward function runs again in the backward pass to rebuild `vjp_fn`.
    """

    def primal(*args: Any) -> Any:
        return fun(*args)[0]

    wrapped = custom_vjp(primal)

    def fwd(*args: Any) -> tuple[Any, Any]:
        return fun(*args)[0], args

    def bwd(args: tuple, ct: Any) -> tuple:
        _, vjp_fn = fun(*args)
        cts = vjp_fn(ct)
        return cts if isinstance(cts, tuple) else (cts,)

    wrapped.defvjp(fwd, bwd)
    return wrapped


def closure_convert(fun: Callable, *example_args: Any) -> tuple[Callable, list[Any]]:
    """Hoists the traced values `fun` closes over into explicit arguments, like
    `jax.closure_convert` (for custom derivative rules of higher-order functions).

    As in JAX, only values that may carry a derivative (tracers of enclosing transformations)
    are hoisted; concrete arrays stay in the converted function.

    Args:
      fun: the function (a pure one).
      *example_args: arguments with the tree, shapes and dtypes of the real ones.

    Returns:
      `(converted, consts)`: `converted(*args, *consts)` computes `fun(*args)`.

    Raises:
      TypeError: `converted` called with another argument tree than the example's.
    """
    jaxpr, consts, in_tree, in_avals, out_tree = trace_flat(fun, example_args, keep_weak=True)
    hoisted = [isinstance(c, Tracer) for c in consts]
    kept = [c for c, h in zip(consts, hoisted) if not h]
    n_hoisted = sum(hoisted)

    def converted(*args: Any) -> Any:
        n_args = len(args) - n_hoisted
        call_args, call_consts = args[:n_args], iter(args[n_args:])
        arg_flat, tree = tree_util.tree_flatten(tuple(call_args))
        if tree != in_tree:
            raise TypeError(
                "The inputs to the closure produced by closure_convert must have the same "
                "Pytree structure as the example arguments passed when closure_convert was "
                f"called. Expected {in_tree}, but got {tree}"
            )
        it = iter(kept)
        all_consts = [next(call_consts) if h else next(it) for h in hoisted]
        outs = ir.eval_jaxpr(jaxpr, all_consts, *arg_flat)
        return tree_util.tree_unflatten(out_tree, outs)

    return converted, [c for c, h in zip(consts, hoisted) if h]


__all__ = [
    "CustomVJPPrimal",
    "SymbolicZero",
    "closure_convert",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "custom_vjp_primal_tree_values",
    "linear_call",
    "zero_from_primal",
]
