"""`jax.linear_call`: call a linear function with a custom implementation of its transpose.

`linear_call(fun, fun_transpose, residual_args, linear_args)` stages `fun(residual_args,
linear_args)` to a jaxpr and binds one primitive, `linear_call_p`, over (the jaxpr's consts,
the residuals, the linear inputs). Its jvp is itself applied to the tangents (the call is
linear in them; residuals must not be differentiated, as in JAX), its transpose is a
`linear_call` of `fun_transpose` on the cotangents with `fun` as *its* transpose (staged on
first use), and under `jit` the callee runs inline. As in JAX, `vmap` of a `linear_call` is
refused (JAX has no batching rule for it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import ir, tree_util
from core.ad_util import Zero, instantiate
from core.backends.numpy import run_jaxpr
from core.interpreters.transpose import is_undefined
from core.primitive import Primitive
from core.prims.control_flow.common import split_list, stage
from core.trace import as_value, get_aval

linear_call_p = Primitive("linear_call", multiple_results=True, higher_order=True, linear=True)


class _Callee:
    """A staged linear function and, staged on first use, its transpose (another `_Callee`
    whose transpose is this one)."""

    def __init__(self, jaxpr: ir.Jaxpr, consts: list, num_res: int, stage_transpose: Callable):
        self.jaxpr, self.consts, self.num_res = jaxpr, consts, num_res
        self._stage_transpose = stage_transpose
        self._transpose: _Callee | None = None

    def transpose(self) -> _Callee:
        """The callee of the transposed call."""
        if self._transpose is None:
            self._transpose = self._stage_transpose()
            self._transpose._transpose = self
        return self._transpose


def _stage(fun: Callable, res_tree: Any, res_avals: list, in_tree: Any, in_avals: list,
           name: str) -> tuple[ir.Jaxpr, list, Any]:  # fmt: skip
    """`fun(residuals, linear)` staged on flat avals: (jaxpr, consts, output tree)."""
    store: list = []

    def flat(*xs):
        res = tree_util.tree_unflatten(res_tree, xs[: len(res_avals)])
        lin = tree_util.tree_unflatten(in_tree, xs[len(res_avals) :])
        out, tree = tree_util.tree_flatten(fun(res, lin))
        store.append(tree)
        return [as_value(o) for o in out]

    try:
        jaxpr, consts = stage(flat, [*res_avals, *in_avals])
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from e
    return jaxpr, list(consts), store[0]


def linear_call(fun: Callable, fun_transpose: Callable, residual_args: Any, linear_args: Any):
    """Calls the linear function `fun` with `fun_transpose` as its transpose
    (`jax.linear_call`).

    Example::

        >>> import core
        >>> f = lambda r, x: x / r
        >>> t = lambda r, ct: ct / r
        >>> div_add = lambda x, denom: x + core.linear_call(f, t, denom, x)
        >>> float(div_add(9.0, 3.0))
        12.0
        >>> core.linear_transpose(lambda x: div_add(x, 3.0), 1.0)(18.0)[0].item()
        24.0

    Args:
      fun: ``fun(residual_args, linear_args)``, linear in ``linear_args``.
      fun_transpose: ``fun_transpose(residual_args, cotangent)``: the transpose of ``fun``
        with respect to ``linear_args``, returning their structure.
      residual_args: a pytree of arrays ``fun`` is not linear in (not differentiated).
      linear_args: a pytree of arrays ``fun`` is linear in.

    Returns:
      ``fun(residual_args, linear_args)``.
    """
    res_flat, res_tree = tree_util.tree_flatten(residual_args)
    lin_flat, lin_tree = tree_util.tree_flatten(linear_args)
    res_flat = [as_value(x) for x in res_flat]
    lin_flat = [as_value(x) for x in lin_flat]
    res_avals = [get_aval(x) for x in res_flat]
    lin_avals = [get_aval(x) for x in lin_flat]
    jaxpr, consts, out_tree = _stage(fun, res_tree, res_avals, lin_tree, lin_avals,
                                     "linear_call fun")  # fmt: skip
    out_avals = list(jaxpr.out_avals)

    def stage_transpose() -> _Callee:
        t_jaxpr, t_consts, t_tree = _stage(fun_transpose, res_tree, res_avals, out_tree,
                                           out_avals, "linear_call fun_transpose")  # fmt: skip
        if t_tree != lin_tree:
            raise TypeError(
                "transpose output pytree structure must match that of linear inputs, got "
                f"output structure {t_tree} and input structure {lin_tree}."
            )
        return _Callee(t_jaxpr, t_consts, len(res_flat), lambda: callee)

    callee = _Callee(jaxpr, consts, len(res_flat), stage_transpose)
    out = _bind(callee, consts, res_flat, lin_flat)
    return tree_util.tree_unflatten(out_tree, out)


def _bind(callee: _Callee, consts: list, res: list, lin: list) -> list:
    return linear_call_p.bind(
        *consts, *res, *lin, callee=callee, num_consts=len(consts), call_jaxpr=callee.jaxpr
    )


def _impl(*args, callee, num_consts, call_jaxpr):
    return run_jaxpr(call_jaxpr, *args)


def _abstract_eval(*avals, callee, num_consts, call_jaxpr):
    return call_jaxpr.out_avals


def _jvp(primals, tangents, *, callee, num_consts, call_jaxpr):
    n = num_consts + callee.num_res
    consts_res, lin = split_list(list(primals), [n])
    fixed_dots, lin_dots = split_list(list(tangents), [n])
    if any(type(t) is not Zero for t in fixed_dots):
        raise TypeError(
            "linear_call: the residual arguments cannot be differentiated (their tangents must "
            "be zero); pass what the function should be differentiated in as linear_args."
        )
    out = linear_call_p.bind(*primals, callee=callee, num_consts=num_consts,
                             call_jaxpr=call_jaxpr)  # fmt: skip
    dots = [instantiate(t) for t in lin_dots]
    out_dots = linear_call_p.bind(*consts_res, *dots, callee=callee, num_consts=num_consts,
                                  call_jaxpr=call_jaxpr)  # fmt: skip
    return out, out_dots


def _transpose(cts, *args, callee, num_consts, call_jaxpr):
    n = num_consts + callee.num_res
    fixed, lin = split_list(list(args), [n])
    if any(is_undefined(x) for x in fixed):
        raise TypeError("linear_call: cannot transpose with respect to the residual arguments.")
    res = fixed[num_consts:]
    cts = [instantiate(c) if type(c) is Zero else c for c in cts]
    tr = callee.transpose()
    out = _bind(tr, tr.consts, res, cts)
    return [None] * n + [o if is_undefined(x) else None for o, x in zip(out, lin)]


def _batch(args, dims, **params):
    raise NotImplementedError("Batching rule for 'linear_call' not implemented")  # JAX's


linear_call_p.def_impl(_impl)
linear_call_p.def_abstract_eval(_abstract_eval)
linear_call_p.def_jvp(_jvp)
linear_call_p.def_transpose(_transpose)
linear_call_p.def_batch(_batch)
