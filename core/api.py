"""The transformations users call: jvp, linearize, vjp, grad, vmap, jacobians, make_jaxpr.

Each API function flattens its pytree arguments once, creates the interpreter of its
transformation with the current trace as parent, runs the user's function with that trace
current, and unflattens the results (see `core/trace.py` for the dispatch model):

* `jvp` runs the function under a `JVPTrace`.
* `linearize` runs `jvp` under a partial-evaluation `JaxprTrace`: primal values are computed
  now, the tangent computation is recorded as a linear jaxpr.
* `vjp` transposes that linear jaxpr (`backward_pass`); `grad` seeds it with 1.0.
* `vmap` runs the function under a `BatchTrace`.
* `make_jaxpr` / `eval_shape` stage the function on abstract values.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, ir, tree_util
from core.ad_util import Zero, instantiate, zeros_like_aval
from core.array import Array
from core.avals import ShapedArray, ShapeDtypeStruct
from core.errors import (
    GradTypeError,
    InvalidInputException,
    InvalidJaxTypeError,
    VjpCotangentError,
    VmapAxesError,
    VmapInAxesTypeError,
    VmapOutAxesTypeError,
    VmapSizeError,
)
from core.interpreters import batching, finish
from core.interpreters.jvp import JVPTrace, JVPTracer, tangent_aval
from core.interpreters.partial_eval import JaxprTrace
from core.interpreters.transpose import UndefinedPrimal, backward_pass
from core.parallel import axis_env as parallel_axes
from core.prims.control_flow.common import prune_jaxpr
from core.prims.elementwise import eye, real_p, stop_gradient_p
from core.prims.indexing import split_p
from core.prims.reductions import reduce_sum
from core.prims.shapes import convert_element_type, convert_element_type_p, full, reshape
from core.prng_key import PRNGKeyArray
from core.ref import Ref
from core.ref_scope import outer_write_error
from core.ref_scope import read as read_ref
from core.ref_scope import write as write_ref
from core.trace import (
    Tracer,
    as_output_value,
    as_value,
    current_trace,
    eval_trace,
    get_aval,
    set_current_trace,
    varying_like,
)
from core.tree_util.functions import mismatch_details


def _flatten_args(args: Any) -> tuple[list[Any], Any]:
    leaves, tree = tree_util.tree_flatten(args)
    return [as_value(x) for x in leaves], tree


# ---------------------------------------------------------------------------------------------
# Forward mode


def _is_float(aval: ShapedArray) -> bool:
    return dtypes.kind(aval.dtype) in "fc"


def _float0_zeros(aval: ShapedArray) -> np.ndarray:
    """JAX's tangent/cotangent of an integer or boolean value: a numpy array of dtype float0."""
    return np.zeros(aval.shape, dtypes.float0)


def _dtype_shape(x: Any) -> tuple[np.dtype, tuple[int, ...]]:
    """Dtype and shape of a tangent, float0 numpy arrays included (they have no aval)."""
    if isinstance(x, np.ndarray) and x.dtype == dtypes.float0:
        return x.dtype, x.shape
    aval = get_aval(as_value(x))
    return aval.dtype, aval.shape


def _short(dtype_name: str, shape: tuple[int, ...]) -> str:
    """An aval as JAX's messages print it: ``float32[2,3]``."""
    return f"{dtype_name}[{','.join(map(str, shape))}]"


def _wraps(fun: Callable, docstr: str, **fields: Any) -> Callable[[Callable], Callable]:
    """`functools.wraps` with JAX's docstring for a transformed function (`api_util.wraps`):
    ``docstr`` with ``{fun}`` the function's name and each ``{field}`` its value."""
    name = getattr(fun, "__name__", type(fun).__name__)

    def wrap(wrapper: Callable) -> Callable:
        functools.update_wrapper(wrapper, fun)
        doc = docstr.replace("{fun}", name)
        for k, v in fields.items():
            doc = doc.replace("{" + k + "}", str(v))
        wrapper.__doc__ = doc
        return wrapper

    return wrap


_GRAD_DOC = (
    "Gradient of {fun} with respect to positional argument(s) {argnums}. Takes the same "
    "arguments as {fun} but returns the gradient, which has the same shape as the arguments at "
    "positions {argnums}."
)
_VALUE_AND_GRAD_DOC = (
    "Value and gradient of {fun} with respect to positional argument(s) {argnums}. Takes the "
    "same arguments as {fun} but returns a two-element tuple where the first element is the "
    "value of {fun} and the second element is the gradient, which has the same shape as the "
    "arguments at positions {argnums}."
)
_VMAP_DOC = (
    "Vectorized version of {fun}. Takes similar arguments as {fun} but with additional array "
    "axes over which {fun} is mapped."
)
_JACOBIAN_DOC = (
    "Jacobian of {fun} with respect to positional argument(s) {argnums}. Takes the same "
    "arguments as {fun} but returns the jacobian of the output with respect to the arguments "
    "at positions {argnums}."
)


def _original_doc(fun: Callable) -> str:
    """`fun`'s docstring as JAX's vmap appends it to its own."""
    doc = getattr(fun, "__doc__", None)
    return f"\n\nOriginal documentation:\n\n{doc}" if doc else ""


def check_callable(fun: Any) -> None:
    """JAX's check that a transformation is given a function (when it is created): not a
    `staticmethod` object (callable since Python 3.10, but `jit` under `@staticmethod` is the
    order that works), and not a generator function, whose call returns a generator.

    Args:
      fun: what the transformation was given.

    Raises:
      TypeError: with JAX's message, when `fun` is not a function to transform.
    """
    if isinstance(fun, staticmethod):
        raise TypeError(
            f"staticmethod arguments are not supported, got {fun}\nPut @staticmethod above "
            "the transformation's decorator."
        )
    if not callable(fun):
        raise TypeError(
            f"Expected a callable value, got {fun}\nPass the function itself (f, not f(x))."
        )
    if inspect.isgeneratorfunction(fun):
        raise TypeError(
            f"Expected a function, got a generator function: {fun}\nA generator cannot be "
            "traced: return the values (a list or an array) instead of yielding them."
        )


def _check_arg(x: Any, error: type[InvalidJaxTypeError] = InvalidJaxTypeError) -> Any:
    """`x` as a value, or JAX's `dispatch.check_arg` error for a non-array argument (of class
    `error`: `vjp`'s is JAX's `InvalidInputException`)."""
    try:
        return as_value(x)
    except InvalidJaxTypeError:
        raise error(x, quote_type=False) from None


def jvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False):
    """Evaluates `fun` at `primals` and its directional derivative along `tangents`.

    Args:
      fun: function of arrays (pytrees) to arrays (pytrees).
      primals: tuple/list of the arguments.
      tangents: tuple/list with the same structure and shapes; float primals take tangents of
        their dtype, integer and boolean primals take `float0` tangents.
      has_aux: whether `fun` returns `(out, aux)`; aux is returned undifferentiated.

    Returns:
      `(primals_out, tangents_out)`, plus `aux` when `has_aux`. Integer and boolean outputs
      have `float0` tangents.
    """
    check_callable(fun)
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "primal and tangent arguments to jax.jvp must be tuples or lists; found "
            f"{type(primals).__name__} and {type(tangents).__name__}.\n"
            "jvp requires primals and tangents to be tuples or lists: write jvp(f, (x,), (t,))."
        )
    p_leaves, p_tree = tree_util.tree_flatten(primals)  # a tuple and a list differ, as in JAX
    t_leaves, t_tree = tree_util.tree_flatten(tangents)
    if p_tree != t_tree:
        raise TypeError(
            "primal and tangent arguments to jax.jvp must have the same tree structure; "
            f"primals have tree structure {p_tree} whereas tangents have tree structure "
            f"{t_tree}."
        )
    t_flat = []
    for p, t in zip(p_leaves, t_leaves):
        pa = get_aval(as_value(p))
        t_dtype, t_shape = _dtype_shape(t)
        want = pa.dtype if _is_float(pa) else dtypes.float0
        if t_dtype != want:
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
                "or in case of int/bool primal dtype the tangent dtype must be float0.Got "
                f"primal dtype {pa.dtype} and so expected tangent dtype {want}, but got "
                f"tangent dtype {t_dtype} instead.\nCast the tangent with `t.astype(...)`, or "
                "pass `np.zeros(shape, core.float0)` for an integer primal."
            )
        if t_shape != pa.shape:
            raise ValueError(
                "jvp called with different primal and tangent shapes;Got primal shape "
                f"{pa.shape} and tangent shape as {t_shape}\n"
                f"jvp called with a tangent of shape {t_shape} for a primal of shape "
                f"{pa.shape}; tangents must have the primals' shapes"
            )
        t_flat.append(_tangent_like(as_value(t), pa) if _is_float(pa) else Zero(tangent_aval(pa)))
    p_flat = [as_value(p) for p in p_leaves]
    # As JAX's eager JVP, a Python (or numpy) input that comes out untouched by a primitive
    # comes out as given (jvp(lambda x: x, (1.0,), (1.0,)) is (1.0, 1.0)), and custom_jvp
    # rules see the inputs as given: the values made here remember what they were made from.
    given = _given_inputs(p_flat + t_flat, p_leaves + t_leaves)
    out = _jvp(fun, p_flat, p_tree, t_flat, has_aux, given)
    primals_out, tangents_out = out[0], out[1]
    tangents_out = tree_util.tree_map(
        lambda p, t: t if _is_float(get_aval(p)) else _float0_zeros(get_aval(p)),
        primals_out,
        tangents_out,
    )
    return (primals_out, tangents_out, *out[2:])


def _tangent_like(t: Any, primal: ShapedArray) -> Any:
    """`t` with its primal's weak type, as JAX's `jvp` takes a tangent (a strong float32 tangent
    of a Python float primal is weak, a Python float tangent of a float32 primal is strong)."""
    if isinstance(t, Tracer) or get_aval(t).weak_type == primal.weak_type:
        return t  # a traced tangent is typed as its primal by the trace, with no equation
    return convert_element_type(t, primal.dtype, primal.weak_type)


def _given_inputs(made: list, originals: list, canonical: bool = False) -> dict:
    """`id` of each value made from a Python or numpy input (not a symbolic zero) -> that input,
    so that outputs which are the inputs untouched come out as given. With `canonical`, a numpy
    input comes out as a numpy array of its value's dtype (as JAX's `vjp` and `checkpoint` give
    back a float64 numpy input as a float32 one; `jvp` and `linearize` give it back as is)."""

    def original(v: Any, x: Any) -> Any:
        if canonical and isinstance(x, (np.ndarray, np.generic)):
            return np.asarray(x, get_aval(v).dtype)
        return x

    return {
        id(v): original(v, x) for v, x in zip(made, originals) if v is not x and type(v) is not Zero
    }


def _forwarded(jaxpr: ir.Jaxpr, made: list, originals: list, where: list) -> dict:
    """`_given_inputs` of a linear jaxpr's (co)tangents, restricted to those that pass through
    it untouched: variables both among its inputs and its outputs (`where`, either list)."""
    through = {id(v) for v in jaxpr.invars} & {id(v) for v in jaxpr.outvars}
    if not any(id(v) in through for v in where):
        return {}
    return _given_inputs(made, originals)


def _as_given(tree: Any, given: dict) -> Any:
    """`tree` with each leaf that is a value made from a Python or numpy input replaced by that
    input (`_given_inputs`), as JAX gives back an input a transformation left untouched."""
    if not given:
        return tree
    return tree_util.tree_map(lambda a: given.get(id(a), a), tree)


def _jvp(
    fun: Callable, p_flat: list, p_tree: Any, t_flat: list, has_aux: bool, given: dict | None = None
) -> tuple:
    """`jvp` on flat values without argument checks; tangents may be symbolic `Zero`s and come
    out as zeros of the outputs' dtypes (integer outputs included). `given` maps the `id` of an
    input made from a Python or numpy value to that value (`JVPTrace.given`)."""
    given = given or {}
    trace = JVPTrace(current_trace(), given=given)
    in_tracers = [trace.box(p, t) for p, t in zip(p_flat, t_flat)]
    with set_current_trace(trace):
        out = fun(*tree_util.tree_unflatten(p_tree, in_tracers))
    if has_aux:
        out, aux = _split_aux(out, "jvp")
        aux = _as_given(_lower_aux(trace, aux), given)
    out_flat, out_tree = tree_util.tree_flatten(out)
    pairs = [trace.to_primal_tangent(o) for o in out_flat]
    with set_current_trace(trace.parent):
        primals_out = [given.get(id(p), p) for p, _ in pairs]
        tangents_out = [given.get(id(t), t) for t in (instantiate(t) for _, t in pairs)]
    finish(trace)
    result = (
        tree_util.tree_unflatten(out_tree, primals_out),
        tree_util.tree_unflatten(out_tree, tangents_out),
    )
    if has_aux:
        return (*result, aux)
    return result


def _split_aux(out: Any, name: str) -> tuple[Any, Any]:
    """`(out, aux)` of a function transformed with `has_aux=True`, or JAX's error: `jvp`
    unpacks the pair (Python's unpacking error of a sequence of another length), the reverse
    modes check it."""
    if isinstance(out, (tuple, list)) and len(out) == 2:
        return out[0], out[1]
    fix = f"\n{name} with has_aux=True requires the function to return a pair (out, aux)."
    if name != "jvp":
        raise TypeError(
            "expected function with aux output to return a two-element tuple, but got type "
            f"{type(out)} with value {out!r}{fix}"
        )
    if isinstance(out, (tuple, list)):
        n = len(out)
        first = (
            "too many values to unpack (expected 2)"
            if n > 2
            else f"not enough values to unpack (expected 2, got {n})"
        )
        raise ValueError(first + fix)
    if isinstance(out, (Array, Tracer)) and get_aval(out).ndim == 0:
        raise TypeError("iteration over a 0-d array" + fix)
    raise TypeError(f"cannot unpack a {type(out).__name__} as (out, aux){fix}")


def _lower_aux(trace: Any, aux: Any) -> Any:
    """Unboxes the auxiliary output of a transformed function from the trace's tracers."""

    def lower(x):
        if isinstance(x, JVPTracer) and x._trace is trace:
            return _lower_aux(trace, x.primal)
        return x

    return tree_util.tree_map(lower, aux)


# ---------------------------------------------------------------------------------------------
# Reverse mode


def _linearize_flat(fun_flat: Callable, primals: list[Any], has_aux: bool):
    parent = current_trace()
    pe = JaxprTrace(parent, stage_all=False)
    jvp_trace = JVPTrace(pe, linearizing=True)
    tangent_in = [pe.new_arg(tangent_aval(get_aval(p))) for p in primals]
    in_tracers = [JVPTracer(jvp_trace, p, t) for p, t in zip(primals, tangent_in)]
    with set_current_trace(jvp_trace):
        out = fun_flat(*in_tracers)
    aux = None
    if has_aux:
        out, aux = out
        aux = _lower_aux(jvp_trace, aux)
    pairs = [jvp_trace.to_primal_tangent(o) for o in out]
    primals_out = [p for p, _ in pairs]
    with set_current_trace(pe):
        tangents_out = [instantiate(t) for _, t in pairs]
    jaxpr, consts = pe.to_jaxpr(tangent_in, tangents_out)
    finish(pe, jvp_trace)
    return primals_out, jaxpr, consts, aux


def _flat_fun(fun: Callable, in_tree: Any, store: list, has_aux: bool) -> Callable:
    def flat(*leaves):
        out = fun(*tree_util.tree_unflatten(in_tree, leaves))
        if has_aux:
            out, aux = _split_aux(out, "vjp/grad/linearize")
        out_flat, out_tree = tree_util.tree_flatten(out)
        store.append(out_tree)
        return (out_flat, aux) if has_aux else out_flat

    return flat


def _linearized_jvp(
    jaxpr: Any,
    in_tree: Any,
    in_avals: list,
    out_avals: list,
    out_tree: Any,
    consts: list,
    *tangents: Any,
) -> Any:
    """The function `linearize` returns: input tangents to output tangents."""
    t_leaves, t_tree = tree_util.tree_flatten(tangents)
    if t_tree != in_tree:
        raise TypeError(
            f"linearized function expects tangents of structure {in_tree}, got {t_tree}"
        )
    t_flat = []
    for t, aval in zip(t_leaves, in_avals):
        t_dtype, t_shape = _dtype_shape(t)
        want = aval.dtype if _is_float(aval) else dtypes.float0
        if t_dtype != want or t_shape != aval.shape:
            raise ValueError(
                "linearized function called on tangent values inconsistent with the "
                f"original primal values:\nGot tangent aval {t_dtype.name}{list(t_shape)} "
                f"for primal aval {aval.dtype.name}{list(aval.shape)} but expected "
                f"{want.name}{list(aval.shape)}."
            )
        t_flat.append(as_value(t) if _is_float(aval) else zeros_like_aval(aval))
    outs = ir.eval_jaxpr(jaxpr, consts, *t_flat)
    # an output that is an input as it is gets its tangent as given, as JAX's
    given = _forwarded(jaxpr, t_flat, t_leaves, jaxpr.outvars)
    outs = [
        given.get(id(t), t) if _is_float(a) else _float0_zeros(a) for a, t in zip(out_avals, outs)
    ]
    return tree_util.tree_unflatten(out_tree, outs)


def linearize(fun: Callable, *primals: Any, has_aux: bool = False):
    """Returns `fun(*primals)` and a function evaluating the jvp at `primals` for any tangents.

    Returns:
      `(primals_out, f_jvp)` (plus `aux` when `has_aux`), where `f_jvp(*tangents)` is linear.
      Tangents of integer/boolean primals are `float0` arrays, in and out, as for `jvp`.
    """
    check_callable(fun)
    p_flat, in_tree = _flatten_args(primals)
    store: list = []
    out, jaxpr, consts, aux = _linearize_flat(
        _flat_fun(fun, in_tree, store, has_aux), p_flat, has_aux
    )
    jaxpr = prune_jaxpr(jaxpr)  # as JAX's linear jaxpr, without the loops' unread tangents
    out_tree = store[0]
    in_avals = [get_aval(p) for p in p_flat]

    # A pytree whose leaves are the residuals, as JAX's: it can leave `jit` or `make_jaxpr`.
    out_avals = [get_aval(o) for o in out]
    apply = functools.partial(_linearized_jvp, jaxpr, in_tree, in_avals, out_avals, out_tree)
    f_jvp = tree_util.Partial(apply, list(consts))

    # as `jvp`: an input that comes out untouched comes out as given (a Python float stays one)
    given = _given_inputs(p_flat, tree_util.tree_leaves(primals))
    primals_out = tree_util.tree_unflatten(out_tree, [given.get(id(o), o) for o in out])
    return (primals_out, f_jvp, _as_given(aux, given)) if has_aux else (primals_out, f_jvp)


def _check_reduce_axes(reduce_axes: Any, name: str) -> None:
    if reduce_axes:
        raise NotImplementedError(
            f"reduce_axes argument to {name} is deprecated (as in JAX): sum the result over "
            "the named axis yourself, e.g. with `lax.psum(g, axis_name)`."
        )


def _vjp_pullback(
    jaxpr: Any,
    in_tree: Any,
    out_tree: Any,
    in_avals: list,
    out_avals: list,
    name: str,
    consts: list,
    *cts: Any,
) -> tuple:
    """The function `vjp` returns: output cotangents `ct` to one cotangent per primal."""
    if len(cts) != 1:
        raise TypeError(
            f"The function returned by `jax.vjp` applied to {name} was called with {len(cts)} "
            "arguments,\nbut functions returned by `jax.vjp` must be called with a single "
            "argument\ncorresponding to the single value returned by the function being "
            "differentiated\n(even if that returned value is a tuple or other container): "
            "f_vjp((ct1, ct2)), not f_vjp(ct1, ct2)."
        )
    (ct,) = cts
    ct_leaves, ct_tree = tree_util.tree_flatten(ct)
    if ct_tree != out_tree:
        raise VjpCotangentError(
            "unexpected tree structure.\n"
            f"Tree structure of cotangent input {ct_tree} does not match the structure of "
            f"the primal output {out_tree}: the argument of the function returned by vjp "
            "must have the structure of the differentiated function's output."
        )
    ct_flat = []
    for c, aval in zip(ct_leaves, out_avals):
        c_dtype, c_shape = _dtype_shape(c)
        if c_shape != aval.shape or (_is_float(aval) and c_dtype != aval.dtype):
            want = aval.dtype.name if _is_float(aval) else "float0"
            got, expected = _short(c_dtype.name, c_shape), _short(want, aval.shape)
            raise VjpCotangentError(  # JAX's first line (its avals' short form), then the fix
                "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
                f"{got}, but expected {expected} because the corresponding output of the "
                f"differentiated function had JAX type {expected}\nPass a cotangent of the "
                "output's shape and dtype."
            )
        ct_flat.append(as_value(c) if _is_float(aval) else Zero(tangent_aval(aval)))
    args = [UndefinedPrimal(a) for a in in_avals]
    cts_in = backward_pass(jaxpr, consts, args, ct_flat)
    # an input the function returns as it is gets its cotangent as given, as JAX's
    given = _forwarded(jaxpr, ct_flat, ct_leaves, jaxpr.invars)
    cts_in = [
        (instantiate(c) if type(c) is Zero else given.get(id(c), c))
        if _is_float(a)
        else _float0_zeros(a)
        for c, a in zip(cts_in, in_avals)
    ]
    return tuple(tree_util.tree_unflatten(in_tree, cts_in))


def vjp(fun: Callable, *primals: Any, has_aux: bool = False, reduce_axes: Sequence[Any] = ()):
    """Returns `fun(*primals)` and a function pulling output cotangents back to the inputs.

    Args:
      fun: function of arrays (pytrees) to arrays (pytrees).
      *primals: the arguments.
      has_aux: whether `fun` returns `(out, aux)`; aux is returned undifferentiated.
      reduce_axes: must be empty (deprecated in JAX; raises `NotImplementedError`).

    Returns:
      `(primals_out, vjp_fn)` (plus `aux` when `has_aux`); `vjp_fn(ct)` returns a tuple with one
      cotangent per primal argument. `ct` has the structure, shapes and (for float outputs)
      dtypes of the outputs; integer and boolean inputs get `float0` cotangents.
    """
    _check_reduce_axes(reduce_axes, "vjp")
    check_callable(fun)
    leaves, in_tree = tree_util.tree_flatten(primals)
    p_flat = [_check_arg(x, InvalidInputException) for x in leaves]
    store: list = []
    out, jaxpr, consts, aux = _linearize_flat(
        _flat_fun(fun, in_tree, store, has_aux), p_flat, has_aux
    )
    jaxpr = prune_jaxpr(jaxpr)  # as JAX's linear jaxpr, without the loops' unread tangents
    out_tree = store[0]
    in_avals = [tangent_aval(get_aval(p)) for p in p_flat]
    out_avals = [get_aval(o) for o in out]

    # A pytree whose leaves are the residuals, as JAX's: it can leave `jit` or `make_jaxpr`.
    name = getattr(fun, "__name__", repr(fun))
    pullback = functools.partial(_vjp_pullback, jaxpr, in_tree, out_tree, in_avals, out_avals, name)
    vjp_fn = tree_util.Partial(pullback, list(consts))

    # as `jvp`: an input that comes out untouched comes out as given (a Python float stays one)
    given = _given_inputs(p_flat, leaves, canonical=True)
    primals_out = tree_util.tree_unflatten(out_tree, [given.get(id(o), o) for o in out])
    return (primals_out, vjp_fn, _as_given(aux, given)) if has_aux else (primals_out, vjp_fn)


def _is_keys(x: Any) -> bool:
    return isinstance(x, PRNGKeyArray)


def _check_grad_input(x: Any, allow_int: bool, holomorphic: bool, name: str = "grad") -> None:
    dt = get_aval(x).dtype
    if holomorphic:
        if dt.kind != "c":
            raise GradTypeError(
                f"{name} with holomorphic=True requires inputs with complex dtype, but got "
                f"{dt.name}. Cast the inputs with `x.astype(jnp.complex64)`."
            )
    elif dtypes.kind(dt) not in "fc" and not allow_int:
        raise GradTypeError(
            f"{name} requires real- or complex-valued inputs (input dtype that is a sub-dtype "
            f"of np.inexact), but got {dt.name}. If you want to use Boolean- or integer-valued "
            "inputs, use vjp or set allow_int to True."
        )


def _check_output_dtype(aval: ShapedArray, holomorphic: bool, name: str) -> None:
    if holomorphic:
        if aval.dtype.kind != "c":
            raise GradTypeError(
                f"{name} with holomorphic=True requires outputs with complex dtype, but got "
                f"{aval.dtype.name}."
            )
    elif dtypes.kind(aval.dtype) != "f":
        hint = (
            "For holomorphic differentiation, pass holomorphic=True. For differentiation of "
            "non-holomorphic functions involving complex outputs, use jax.vjp directly."
            if aval.dtype.kind == "c"
            else "For differentiation of functions with integer outputs, use jax.vjp directly."
        )
        raise GradTypeError(
            f"{name} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {aval.dtype.name}. {hint}"
        )


class _TypedScalar:
    """How JAX 0.10.2 shows a Python scalar input a function returned as it was (its private
    `TypedFloat`, `TypedInt`...), for `grad`'s error message."""

    def __init__(self, x: bool | int | float | complex):
        self.x = x

    def __repr__(self) -> str:
        kind = {bool: "Bool", int: "Int", float: "Float", complex: "Complex"}[type(self.x)]
        dtype = dtypes.canonicalize_dtype(dtypes.python_scalar_dtype(self.x)).name
        return f"Typed{kind}({self.x!r}, dtype={dtype})"


def _shown_output(out: Any, inputs: list) -> Any:
    """`out` for an error message: its leaves that are Python scalar inputs shown as JAX's."""
    ids = {id(x) for x in inputs if type(x) in _PY_SCALARS}
    return tree_util.tree_map(lambda a: _TypedScalar(a) if id(a) in ids else a, out)


def _check_scalar_output(out: Any, holomorphic: bool, inputs: list) -> None:
    scalar_like = np.isscalar(out) and not isinstance(out, (str, bytes))
    if not isinstance(out, (Array, Tracer, np.ndarray)) and not scalar_like:
        raise GradTypeError(
            "Gradient only defined for scalar-output functions. Output was "
            f"{_shown_output(out, inputs)}.\n"
            f"The function returned a {type(out).__name__}: return one scalar array (or pass "
            "has_aux=True to return (value, aux))."
        )
    aval = get_aval(out)
    if aval.shape != ():
        hint = (
            "Use `out.reshape(())` or `out[0]`."
            if aval.size == 1
            else "Reduce it to a scalar (e.g. `.sum()` or `.mean()`), or use `jacrev`/`vjp`."
        )
        raise GradTypeError(  # JAX's first line, then the fix
            f"Gradient only defined for scalar-output functions. Output had shape: {aval.shape}."
            f"\n{hint}"
        )
    _check_output_dtype(aval, holomorphic, "grad")


def _argnums_tuple(argnums: Any) -> tuple[bool, tuple[int, ...]]:
    """`(multiple, nums)` for an int or a non-empty sequence of ints."""
    multiple = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if multiple else (argnums,)
    if not nums:
        raise ValueError(
            "argnums must be an int or a non-empty sequence of ints, got (): there is nothing "
            "to differentiate with respect to."
        )
    for n in nums:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(
                f"'{type(argnums).__name__}' object is not iterable\n"
                f"argnums must be ints or tuples of ints, got {argnums!r}"
            )
    return multiple, nums


def _dyn_indices(
    argnums: Any, nums: tuple[int, ...], nargs: int, grad_check: bool = True
) -> list[int]:
    """The positional indices of `nums`, checked as JAX's: `grad` first raises a TypeError for
    an index past the arguments, then (as `jacfwd`/`jacrev` for any index out of range)
    argnums_partial's ValueError."""
    if grad_check and max(nums) >= nargs:
        raise TypeError(
            f"differentiating with respect to argnums={argnums} requires at least "
            f"{max(nums) + 1} positional arguments to be passed by the caller, but got only "
            f"{nargs} positional arguments."
        )
    for n in nums:
        if not -nargs <= n < nargs:
            raise ValueError(
                "Positional argument indices, e.g. for `static_argnums`, must have value "
                "greater than or equal to -len(args) and less than len(args), but got value "
                f"{n} for len(args) == {nargs}.\n"
                f"differentiating with respect to argnums={argnums} requires at least "
                f"{max(n + 1 if n >= 0 else -n for n in nums)} positional arguments to be "
                f"passed by the caller, but got only {nargs} positional arguments."
            )
    return [n % nargs for n in nums]


def value_and_grad(
    fun: Callable,
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes: Sequence[Any] = (),
) -> Callable:
    """Creates a function returning `(fun(*args), grad(fun)(*args))`.

    Args:
      fun: scalar-valued function; differentiated w.r.t. the arguments `argnums`.
      argnums: an int or a non-empty tuple of ints (negative ints count from the end).
      has_aux: `fun` returns `(value, aux)`; the result is then `((value, aux), grads)`.
      holomorphic: `fun` is complex-differentiable: complex inputs and output, and the result
        is the complex derivative.
      allow_int: allow integer and boolean inputs; their gradients are `float0` zeros.
      reduce_axes: must be empty (deprecated in JAX; raises `NotImplementedError`).

    Returns:
      The wrapped function.
    """
    _check_reduce_axes(reduce_axes, "grad")
    check_callable(fun)
    multiple, nums = _argnums_tuple(argnums)

    @_wraps(fun, _VALUE_AND_GRAD_DOC, argnums=argnums)
    def vg(*args: Any, **kwargs: Any):
        idx = _dyn_indices(argnums, nums, len(args))
        dyn = [args[i] for i in idx]
        f_partial = _dyn_fun(functools.partial(fun, **kwargs), args, idx)
        for leaf in tree_util.tree_leaves(dyn, is_leaf=_is_keys):  # keys: their key dtype
            _check_grad_input(leaf if _is_keys(leaf) else _check_arg(leaf), allow_int, holomorphic)
        res = vjp(f_partial, *dyn, has_aux=has_aux)
        out, vjp_fn = res[0], res[1]
        _check_scalar_output(out, holomorphic, tree_util.tree_leaves(dyn))
        grads = vjp_fn(_ones_like(out))
        g = grads if multiple else grads[0]
        return ((out, res[2]), g) if has_aux else (out, g)

    return vg


def _ones_like(x: Any) -> Any:
    aval = get_aval(x)
    return varying_like(full(aval.shape, 1, aval.dtype, aval.weak_type, exact_dtype=True), aval)


def grad(
    fun: Callable,
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes: Sequence[Any] = (),
) -> Callable:
    """Creates a function evaluating the gradient of scalar-valued `fun`.

    Args:
      fun: function whose output is a float scalar (complex with `holomorphic=True`).
      argnums: which positional argument(s) to differentiate (int or non-empty tuple).
      has_aux: `fun` returns `(value, aux)`; the result is then `(grads, aux)`.
      holomorphic: differentiate a complex-differentiable function of complex inputs.
      allow_int: allow integer and boolean inputs; their gradients are `float0` zeros.
      reduce_axes: must be empty (deprecated in JAX; raises `NotImplementedError`).

    Returns:
      A function with `fun`'s arguments returning gradients shaped like the chosen arguments.
    """
    _check_reduce_axes(reduce_axes, "grad")
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @_wraps(fun, _GRAD_DOC, argnums=argnums)
    def g(*args: Any, **kwargs: Any):
        (out, grads) = vg(*args, **kwargs)
        return (grads, out[1]) if has_aux else grads

    return g


# ---------------------------------------------------------------------------------------------
# Vectorization


def _broadcast_prefix(prefix: Any, tree: Any, what: str) -> list[Any]:
    """Flattens `prefix` (int/None leaves) against the full tree `tree`, one entry per leaf."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(tree_util.tree_leaves(tree))
    axes_leaves, axes_tree = tree_util.tree_flatten(prefix, is_leaf=lambda x: x is None)
    try:
        subtrees = axes_tree.flatten_up_to(tree)
    except (ValueError, TypeError):
        raise VmapAxesError(
            f"vmap {what} specification must be a tree prefix of the corresponding value;"
            + mismatch_details(axes_tree, tree, f"vmap {what}")
        ) from None
    return [ax for ax, sub in zip(axes_leaves, subtrees) for _ in tree_util.tree_leaves(sub)]


def _mapped_size(
    fun: Callable,
    args_flat: list[Any],
    axes: list[int | None],
    axis_size: int | None,
    in_tree: Any,
) -> tuple[int, list[int | None]]:
    """Normalizes negative axes and checks every mapped axis (and `axis_size`) has the same
    size, or raises JAX's error naming, per size, how many axes have it and one of them."""
    sizes: dict[int, list[int]] = {}  # size -> the leaves mapped along an axis of that size
    norm: list[int | None] = []
    for i, (x, ax) in enumerate(zip(args_flat, axes)):
        if ax is None:
            norm.append(None)
            continue
        shape = get_aval(x).shape
        if not -len(shape) <= ax < len(shape):
            raise VmapAxesError(
                f"vmap was requested to map its argument along axis {ax}, which implies that "
                f"its rank should be at least {ax + 1 if ax >= 0 else -ax}, but is only "
                f"{len(shape)} (its shape is {shape})\nThe argument is "
                f"{_mapped_leaf_name(fun, in_tree, args_flat, i)}; map an existing axis, or "
                "pass in_axes=None for it."
            )
        ax = int(ax) % len(shape)
        norm.append(ax)
        sizes.setdefault(shape[ax], []).append(i)
    if len(sizes) + (axis_size is not None and axis_size not in sizes) > 1:
        lines = ["vmap got inconsistent sizes for array axes to be mapped:"]
        if axis_size is not None:
            lines.append(f"  * the `axis_size` argument was {axis_size};")
        ranked = sorted(sizes.items(), key=lambda kv: -len(kv[1]))  # stable: first seen first
        for rank, (size, leaves) in enumerate(ranked):
            i = leaves[0]
            where = f"axis {norm[i]} of {_mapped_leaf_name(fun, in_tree, args_flat, i)}"
            if len(leaves) == 1:
                lines.append(f"  * one axis had size {size}: {where};")
            else:
                most = "most" if rank == 0 else "some"
                lines.append(
                    f"  * {most} axes ({len(leaves)} of them) had size {size}, e.g. {where};"
                )
        raise VmapSizeError(
            "\n".join(lines)[:-1] + "\nMap arguments of equal sizes (or pass axis_size= their "
            "size), or pass in_axes=None for the ones to broadcast."
        )
    if sizes:
        return next(iter(sizes)), norm
    if axis_size is None:
        raise VmapSizeError(
            "vmap must have at least one non-None value in in_axes or axis_size must be "
            "specified\nPass axis_size= (the number of elements to map over)."
        )
    return axis_size, norm


def _mapped_leaf_name(fun: Callable, in_tree: Any, args_flat: list[Any], i: int) -> str:
    """Leaf `i` of a vmapped call's `(args, kwargs)` as JAX's errors name it: ``argument x of
    type float32[2]`` (the parameter's name when the arguments bind to `fun`'s signature, else
    ``args[0]``), ``kwargs['y'] of type int32[2]``."""
    args, kwargs = tree_util.tree_unflatten(in_tree, args_flat)
    params: list[str] | None
    try:
        sig = inspect.signature(fun)
        sig.bind(*args, **kwargs)
        params = list(sig.parameters)
    except (TypeError, ValueError):
        params = None
    path, x = tree_util.tree_flatten_with_path((args, kwargs))[0][i]
    kind, rest = path[0].idx, path[1:]
    if kind == 1:
        name = "kwargs" + tree_util.keystr(rest)
    elif params is None or rest[0].idx >= len(params):
        name = "args" + tree_util.keystr(rest)
    else:
        name = f"argument {params[rest[0].idx]}" + tree_util.keystr(rest[1:])
    aval = get_aval(x)
    return f"{name} of type {_short(aval.dtype.name, aval.shape)}"


def vmap(
    fun: Callable,
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_name: Any = None,
    axis_size: int | None = None,
    spmd_axis_name: Any = None,
    sum_match: bool = False,
) -> Callable:
    """Vectorizes `fun` over an axis of its inputs.

    Args:
      fun: the function to map.
      in_axes: int, None, or a pytree prefix of the positional arguments giving the mapped axis
        of each input (None: not mapped; negative ints count from the end). Keyword arguments
        are always mapped over axis 0.
      out_axes: the same for the outputs.
      axis_name: a name for the mapped axis, for collectives (`lax.psum(x, axis_name)`...).
      axis_size: the axis size, required when no input is mapped.
      spmd_axis_name: accepted for compatibility.
      sum_match: an output that depends on the mapped inputs but has `out_axes` None is summed
        over the mapped axis (else that is an error).

    Returns:
      The batched function.
    """
    del spmd_axis_name
    check_callable(fun)
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (in_axes is None or type(in_axes) in (int, tuple)):  # JAX's: no numpy ints
        raise VmapInAxesTypeError(
            "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
            f"positional arguments passed to the function, but got {in_axes}.\nWrap a dict "
            "or other pytree prefix in a tuple: in_axes=({...},)."
        )
    if not all(type(ax) is int for ax in tree_util.tree_leaves(in_axes)):
        raise VmapInAxesTypeError(
            "vmap in_axes must be an int, None, or (nested) container with those types as "
            f"leaves, but got {in_axes}.\nGive each argument an int axis (or None to pass it "
            "unmapped to every call)."
        )

    bad_out = [
        ax
        for ax in tree_util.tree_leaves(out_axes, is_leaf=lambda x: x is None)
        if not (ax is None or type(ax) is int)
    ]
    if bad_out:
        raise VmapOutAxesTypeError(
            "vmap out_axes must be an int, None, or (nested) container with those types as "
            f"leaves, but got {out_axes}.\nGive each output an int axis (or None for an "
            "output that is the same for every mapped element)."
        )

    @_wraps(fun, _VMAP_DOC + _original_doc(fun))
    def batched(*args: Any, **kwargs: Any):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise VmapAxesError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                f"positional arguments passed to the function, but got len(in_axes)="
                f"{len(in_axes)}, len(args)={len(args)}"
            )
        leaves, in_tree = tree_util.tree_flatten((args, kwargs))
        if not leaves and axis_size is None:
            raise VmapSizeError(
                "vmap wrapped function must be passed at least one argument containing an "
                f"array or axis_size must be specified, got empty *args={args} and "
                f"**kwargs={kwargs}\nPass axis_size= (the number of elements to map over)."
            )
        axes = _broadcast_prefix(in_axes, args, "in_axes") + [0] * len(
            tree_util.tree_leaves(kwargs)
        )
        # Unmapped leaves are passed through as they are (Python scalars stay Python scalars);
        # a mapped Ref is mapped by its value (`_mapped_refs`).
        refs = {i: x for i, (x, ax) in enumerate(zip(leaves, axes)) if _mapped_ref(x, ax)}
        args_flat = [
            x if ax is None else as_value(read_ref(x) if i in refs else x)
            for i, (x, ax) in enumerate(zip(leaves, axes))
        ]
        size, norm_axes = _mapped_size(fun, args_flat, axes, _axis_size(axis_size), in_tree)
        trace = batching.BatchTrace(current_trace(), size, axis_name)
        tracers = [
            x if ax is None else batching.BatchTracer(trace, x, ax)
            for x, ax in zip(args_flat, norm_axes)
        ]
        with set_current_trace(trace):
            inner = {i: Ref(tracers[i]) for i in refs}
            tracers = [inner.get(i, t) for i, t in enumerate(tracers)]
            b_args, b_kwargs = tree_util.tree_unflatten(in_tree, tracers)
            out = fun(*b_args, **b_kwargs)
        with set_current_trace(trace.parent):
            for i, ref in refs.items():
                val, dim = trace.to_val_dim(as_value(read_ref(inner[i])))
                write_ref(ref, batching.moveaxis(val, dim, norm_axes[i], size))
        paths, out_tree = tree_util.tree_flatten_with_path(out)
        oaxes = _broadcast_prefix(out_axes, out, "out_axes")
        mapped = [i for i, ax in enumerate(axes) if ax is not None and i not in refs]
        given = {  # the numpy arrays mapped: JAX gives one back when the function returns it
            id(args_flat[i]): leaves[i]
            for i in mapped
            if isinstance(leaves[i], np.ndarray) and args_flat[i] is not leaves[i]
        }
        results = []
        with set_current_trace(trace.parent):
            for (path, o), ax in zip(paths, oaxes):
                if ax is None and not isinstance(o, Tracer):
                    results.append(o)  # unbatched non-array output, returned as it is
                    continue
                if isinstance(o, np.ndarray) and o.dtype == dtypes.float0:  # a float0 gradient
                    shape = list(o.shape)
                    shape.insert(ax % (o.ndim + 1), size)
                    results.append(np.zeros(shape, dtypes.float0))  # numpy, as JAX's
                    continue
                try:
                    val, dim = trace.to_val_dim(as_output_value(o))
                except InvalidJaxTypeError:
                    raise InvalidJaxTypeError(
                        o,
                        message=f"Output from batched function {o!r} with type {type(o)} is "
                        "not a valid JAX type",
                    ) from None
                if ax is None:
                    if dim is not None and sum_match:
                        val, dim = reduce_sum(val, (dim,)), None
                    if dim is not None and axis_name is not None:  # JAX's words for a named axis
                        raise VmapAxesError(
                            f"vmap has mapped output (axis_name={axis_name}) but out_axes is "
                            "None\nThe output depends on the mapped inputs: use out_axes=0, or "
                            "make the output independent of them."
                        )
                    if dim is not None:
                        raise VmapAxesError(
                            f"at vmap out_axes{tree_util.keystr(path)}, got axis spec None but "
                            f"output was batched on axis {dim}\nvmap has mapped output but "
                            "out_axes is None: the "
                            "output depends on the mapped inputs. Use out_axes=0, or make the "
                            "output independent of them."
                        )
                    results.append(val)
                    continue
                ndim = get_aval(val).ndim + (1 if dim is None else 0)
                if not -ndim <= ax < ndim:
                    raise VmapAxesError(
                        f"axis {ax} is out of bounds for array of dimension {ndim}\n"
                        f"vmap out_axes entry {ax} is out of bounds for an output of rank {ndim}"
                    )
                if id(val) in given and dim is not None:  # a mapped input returned untouched:
                    x = given[id(val)]  # numpy, as JAX's
                    results.append(x if dim == ax % ndim else np.moveaxis(x, dim, ax % ndim))
                    continue
                results.append(batching.moveaxis(val, dim, ax % ndim, size))
        finish(trace)
        return tree_util.tree_unflatten(out_tree, results)

    return batched


def _axis_size(axis_size: Any) -> int | None:
    """vmap's `axis_size` as an int (numpy integers too), or JAX's TypeError when a call
    broadcasts by another number."""
    if axis_size is None:
        return None
    try:
        return operator.index(axis_size)
    except TypeError:
        raise TypeError(
            f"vmap axis_size must be an integer, got {axis_size!r}\nGive the number of "
            "elements to map over as an int."
        ) from None


def _mapped_ref(x: Any, axis: Any) -> bool:
    """Whether vmap maps `x` as a Ref: the function sees, per example, a Ref of its slice along
    `axis` (a new Ref of the batched value, made in the vmap), and what it leaves there is
    written back into `x` after the call (JAX maps Ref arguments so; a Ref closed over or
    passed unmapped stays itself, and writing mapped values to it raises `RefEffectError`)."""
    return axis is not None and isinstance(x, Ref)


# ---------------------------------------------------------------------------------------------
# Jacobians


def _std_basis(flat: list[Any]) -> list[Any]:
    """JAX's `_std_basis`: the identity of the leaves' common dtype (`lax._eye`, staged under a
    trace), unravelled along axis 1 into one `(total, *shape_i)` block per leaf, each converted
    to its leaf's dtype and weak type (as JAX's, a conversion even when nothing changes)."""
    total = sum(get_aval(x).size for x in flat)
    basis = eye(total, total, 0, dtypes.result_type(*flat))
    return _unravel(basis, 1, flat, None, convert_element_type_p.bind)


def _unravel(
    x: Any, axis: int, leaves: list[Any], example: Any, convert: Callable = convert_element_type
) -> list[Any]:
    """JAX's `_unravel_array_into_pytree`: axis `axis` of `x` split into one piece per leaf, of
    the leaf's shape there, converted to the dtype and weak type of the aval `example` (of each
    leaf when None)."""
    avals = [get_aval(leaf) for leaf in leaves]
    sizes = np.diff([0, *np.cumsum([a.size for a in avals])])  # np.int64s, printed as JAX's
    shape = get_aval(x).shape
    out = []
    for piece, a in zip(split_p.bind(x, sizes=tuple(sizes), axis=axis), avals):
        piece = reshape(piece, (*shape[:axis], *a.shape, *shape[axis + 1 :]))
        ref = a if example is None else example
        if get_aval(piece).dtype.kind == "c" and ref.dtype.kind != "c":
            piece = real_p.bind(piece)
        out.append(convert(piece, new_dtype=ref.dtype, weak_type=ref.weak_type))
    return out


def _dyn_fun(fun: Callable, args: tuple, nums: Sequence[int]) -> Callable:
    def f_dyn(*dargs):
        full = list(args)
        for i, a in zip(nums, dargs):
            full[i] = a
        return fun(*full)

    return f_dyn


def _jacobian(
    fun: Callable,
    argnums: int | Sequence[int],
    has_aux: bool,
    build: Callable,
    check_input: Callable[[Any], None],
) -> Callable:
    """The function of `jacfwd`/`jacrev`: `build(f_dyn, dyn, multiple)` takes `fun` of the
    `argnums` arguments only and their values, and returns `(jac_tree, *aux)`. Keyword
    arguments are passed through undifferentiated."""
    check_callable(fun)
    multiple, nums = _argnums_tuple(argnums)

    @_wraps(fun, _JACOBIAN_DOC, argnums=argnums)
    def jac(*args: Any, **kwargs: Any):
        idx = _dyn_indices(argnums, nums, len(args), grad_check=False)
        dyn = tuple(args[i] for i in idx)
        for leaf in tree_util.tree_leaves(dyn):
            check_input(_check_arg(leaf))
        res = build(_dyn_fun(functools.partial(fun, **kwargs), args, idx), dyn, multiple)
        return res if has_aux else res[0]

    return jac


def jacfwd(
    fun: Callable,
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
) -> Callable:
    """Jacobian by forward mode (one jvp per input element, vectorized): `out.shape + in.shape`.

    Args:
      fun: function of arrays (pytrees) to arrays (pytrees).
      argnums: which positional argument(s) to differentiate (int or non-empty tuple).
      has_aux: `fun` returns `(out, aux)`; the result is then `(jacobian, aux)`.
      holomorphic: complex inputs and outputs, complex derivative.

    Returns:
      The function computing the Jacobian, with the structure `out_tree` of `in_tree`.
    """

    def check_input(x: Any) -> None:
        dt = get_aval(x).dtype
        if holomorphic:
            _check_grad_input(x, False, True, "jacfwd")
        elif dtypes.kind(dt) != "f":
            raise GradTypeError(
                "jacfwd requires real-valued inputs (input dtype that is a sub-dtype of "
                f"np.floating), but got {dt.name}. For holomorphic differentiation, pass "
                "holomorphic=True. For differentiation of non-holomorphic functions involving "
                "complex inputs or integer inputs, use jax.jvp directly."
            )

    def build(f_dyn: Callable, dyn: tuple, multiple: bool) -> tuple:
        d_flat, d_tree = _flatten_args(dyn)
        basis = _std_basis(d_flat)

        def push(*ts):
            return _jvp(f_dyn, list(d_flat), d_tree, list(ts), has_aux)

        out_axes = (None, -1, None) if has_aux else (None, -1)
        res = vmap(push, in_axes=0, out_axes=out_axes)(*basis)
        if has_aux:  # an input returned as aux comes back as given, as `jvp`'s
            given = _given_inputs(d_flat, tree_util.tree_leaves(dyn))
            res = (*res[:2], _as_given(res[2], given))
        y, jac_t = res[0], res[1]
        if holomorphic:
            for leaf in tree_util.tree_leaves(y):
                _check_output_dtype(get_aval(as_value(leaf)), True, "jacfwd")

        def split(j, yo):
            parts = tree_util.tree_unflatten(
                d_tree, _unravel(j, get_aval(j).ndim - 1, d_flat, get_aval(yo))
            )
            return parts if multiple else parts[0]

        return (tree_util.tree_map(split, jac_t, y), *res[2:])

    return _jacobian(fun, argnums, has_aux, build, check_input)


def jacrev(
    fun: Callable,
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable:
    """Jacobian by reverse mode (one vjp per output element, vectorized): `out.shape + in.shape`.

    Args:
      fun: function of arrays (pytrees) to float arrays (pytrees).
      argnums: which positional argument(s) to differentiate (int or non-empty tuple).
      has_aux: `fun` returns `(out, aux)`; the result is then `(jacobian, aux)`.
      holomorphic: complex inputs and outputs, complex derivative.
      allow_int: allow integer and boolean inputs (their Jacobian blocks are `float0`).

    Returns:
      The function computing the Jacobian, with the structure `out_tree` of `in_tree`.
    """

    def check_input(x: Any) -> None:
        _check_grad_input(x, allow_int, holomorphic, "jacrev")

    def build(f_dyn: Callable, dyn: tuple, multiple: bool) -> tuple:
        res = vjp(f_dyn, *dyn, has_aux=has_aux)
        y, pullback = res[0], res[1]
        y_flat, y_tree = tree_util.tree_flatten(y)
        y_flat = [as_value(v) for v in y_flat]
        for leaf in y_flat:
            _check_output_dtype(get_aval(leaf), holomorphic, "jacrev")
        basis = _std_basis(y_flat)
        d_avals = [get_aval(as_value(x)) for x in tree_util.tree_leaves(dyn)]

        def pull(*b):
            cts = tree_util.tree_leaves(pullback(tree_util.tree_unflatten(y_tree, b)))
            # Integer inputs (allow_int): zeros of their dtype, like JAX, instead of float0.
            return [c if _is_float(a) else zeros_like_aval(a) for c, a in zip(cts, d_avals)]

        cts = vmap(pull)(*basis)
        # Each leaf of `cts` is (total_out, *in_shape): split axis 0 by output leaf.
        per_in = [
            tree_util.tree_unflatten(y_tree, _unravel(c, 0, y_flat, a))
            for c, a in zip(cts, d_avals)
        ]
        d_tree = tree_util.tree_structure(dyn)
        jac_tree = tree_util.tree_map(
            lambda *ins: tree_util.tree_unflatten(d_tree, ins)[slice(None) if multiple else 0],
            *per_in,
        )
        return (jac_tree, *res[2:])

    return _jacobian(fun, argnums, has_aux, build, check_input)


jacobian = jacrev


def hessian(
    fun: Callable,
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
) -> Callable:
    """`jacfwd(jacrev(fun))`: the matrix of second derivatives (for pytrees, nested trees).

    Args:
      fun: scalar-valued function.
      argnums: which positional argument(s) to differentiate (int or non-empty tuple).
      has_aux: `fun` returns `(value, aux)`; the result is then `(hessian, aux)`.
      holomorphic: complex inputs and output, complex derivatives.

    Returns:
      The function computing the Hessian.
    """
    return jacfwd(
        jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic),
        argnums,
        has_aux=has_aux,
        holomorphic=holomorphic,
    )


# ---------------------------------------------------------------------------------------------
# Staging


def _out_shapes(jaxpr: ir.Jaxpr, out_tree: Any) -> Any:
    shapes = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type) for a in jaxpr.out_avals]
    return tree_util.tree_unflatten(out_tree, shapes)


# `jit`'s staging (`core.jit.api.stage`, registered by that module, which imports this one):
# `make_jaxpr` and `eval_shape` share `jit`'s trace cache through it, as JAX's are `jit(f).trace`.
_jit_stage: Callable[..., tuple[ir.ClosedJaxpr, Any, tuple]] | None = None


def register_jit_stage(stage: Callable[..., tuple[ir.ClosedJaxpr, Any, tuple]]) -> None:
    """Sets the staging `make_jaxpr` and `eval_shape` use (`core.jit.api.stage`).

    Args:
      stage: `stage(fun, static_argnums, args, kwargs)` returns the traced
        `(ClosedJaxpr, out_tree, Refs written)`, the values of the Refs made outside `fun`
        closed over.
    """
    global _jit_stage  # noqa: PLW0603  (set once, when core.jit.api loads)
    _jit_stage = stage


def make_jaxpr(
    fun: Callable,
    static_argnums: int | Sequence[int] = (),
    axis_env: Any = None,
    return_shape: bool = False,
) -> Callable:
    """Creates a function that returns the jaxpr of `fun` for the given example arguments.

    Args:
      fun: the function to stage.
      static_argnums: positional arguments passed to `fun` as they are (not staged).
      axis_env: `(name, size)` pairs: the axis names the collectives of `fun` may use (as
        if a `pmap` of that size bound them), for staging only.
      return_shape: also return the output's `ShapeDtypeStruct`s, like `eval_shape`.

    Returns:
      A function of example arguments (arrays, scalars or `ShapeDtypeStruct`s; keyword
      arguments are staged too) returning the `ClosedJaxpr` (and the shapes).

    Example:
      >>> make_jaxpr(lambda x: jnp.sin(x))(1.0)
      { lambda ; a:f32[]. let b:f32[] = sin a in (b,) }
    """
    if not callable(fun):
        raise TypeError("the first argument must be callable")  # JAX's words
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def make(*args: Any, **kwargs: Any):
        with contextlib.ExitStack() as names:
            for name, size in axis_env or ():
                names.enter_context(parallel_axes.staging(name, int(size)))
            closed, out_tree, written = _jit_stage(fun, static, args, kwargs)
        if written:  # numbax's jaxprs hold no Refs, only their values
            raise outer_write_error(written[0])
        return (closed, _out_shapes(closed.jaxpr, out_tree)) if return_shape else closed

    return make


def eval_shape(fun: Callable, *args: Any, **kwargs: Any) -> Any:
    """Output shapes and dtypes of `fun(*args)` as `ShapeDtypeStruct`s, without computing it
    (from `jit(fun)`'s trace cache, as JAX's: a function `jit` traced for these arguments is
    not traced again; the Refs it writes keep their values). A jitted function's own static
    arguments are static here too."""
    check_callable(fun)
    if callable(getattr(fun, "eval_shape", None)) and hasattr(fun, "lower"):
        return fun.eval_shape(*args, **kwargs)  # `jit(f, static_argnums=...)`: its own
    closed, out_tree, _ = _jit_stage(fun, (), args, kwargs)
    return _out_shapes(closed.jaxpr, out_tree)


_PY_SCALARS = (bool, int, float, complex)


def stop_gradient(x: Any) -> Any:
    """Identity whose derivative is zero (applies to every leaf of a pytree)."""

    def stop(leaf):
        value = as_value(leaf)
        if type(get_aval(value).dtype) is dtypes.KeyDType:  # keys pass as they are (JAX's)
            return value
        if isinstance(leaf, _PY_SCALARS) and current_trace() is eval_trace:
            return leaf  # JAX's eager identity gives back a Python scalar as it is
        return stop_gradient_p.bind(value)

    return tree_util.tree_map(stop, x)
