"""`lax.custom_root` and `lax.custom_linear_solve`: solves differentiated implicitly, as in JAX.

Both trace their functions to jaxprs at the call, the values the functions close over becoming
explicit inputs, so derivatives reach them:

* `custom_root` is a `custom_jvp` function of (consts, guess). Its jvp rule uses the implicit
  function theorem at the solution: `x_dot = -tangent_solve(f_x, f_theta theta_dot)`.
* `custom_linear_solve` is one primitive, `linear_solve_p`, holding the jaxprs of `matvec`, its
  transpose `vecmat`, `solve` and `transpose_solve`. Its jvp solves again for the tangent
  (`x_dot = solve(b_dot - matvec_dot x)`, linear in `b_dot`), and its transpose with respect to
  `b` is the transposed solve, so `grad` calls `transpose_solve` and never differentiates through
  `solve` (which may then use `while_loop`). Under `jit` the solve jaxpr runs inline.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from core import ir, tree_util
from core.ad_util import Zero, instantiate, zeros_like_aval
from core.api import jvp as _jvp
from core.api import linearize
from core.api_extras import linear_transpose
from core.backends.numpy import run_jaxpr
from core.custom_derivatives import custom_jvp
from core.interpreters.batching import batch_size, batched_first, bdim_at_front
from core.interpreters.transpose import is_undefined
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims.control_flow.common import (
    axis_name_of,
    batch_jaxpr,
    split_list,
    stage,
)
from core.trace import get_aval


def _avals(leaves: list[Any]) -> list[Any]:
    return [get_aval(x) for x in leaves]


def _staged(
    fun: Callable,
    in_trees: list[Any],
    avals: list[Any],
    name: str,
    want: Any,
    aux: bool,
    against: str,
):
    """`(jaxpr, consts, out_tree)` of `fun` on flat inputs. As JAX's, its output must have the
    structure `want` of the input named `against` ("b" of a linear solve, whose shapes it must
    have too, "initial_guess" or "x" of a root), within a pair with aux data if `aux`."""
    trees: list[Any] = []

    def flat(*xs):
        args, i = [], 0
        for t in in_trees:
            n = t.num_leaves
            args.append(tree_util.tree_unflatten(t, list(xs[i : i + n])))
            i += n
        out = fun(*args)
        main = _main_output(out, name, aux)
        if against == "b":
            got = [get_aval(leaf).shape for leaf in tree_util.tree_leaves(main)]
            if got != [a.shape for a in avals]:
                raise ValueError(  # JAX's words, then the fix
                    f"{name}() output shapes must match {against}, got {got} and "
                    f"{[a.shape for a in avals]}\n{name} returns arrays shaped like {against}."
                )
        if tree_util.tree_structure(main) != want:
            raise TypeError(  # JAX's words, then the fix
                f"{name}() output pytree structure must match {against}, got "
                f"{tree_util.tree_structure(main)} and {want}.\n{name} returns a pytree "
                f"structured like {against}."
            )
        leaves, tree = tree_util.tree_flatten(out)
        trees.append(tree)
        return leaves

    jaxpr, consts = stage(flat, avals * len(in_trees))
    return jaxpr, consts, trees[0]


def _main_output(out: Any, name: str, aux: bool) -> Any:
    """`out`, or its first part when `aux`: JAX's ValueError when it is not a pair then."""
    if not aux:
        return out
    leaves, tree = tree_util.tree_flatten(out)
    children = tree.children()
    if len(children) != 2:
        raise ValueError(  # JAX's words, then the fix
            f"{name}() produced a pytree with structure {tree}, but a pytree tuple with "
            "auxiliary output was expected because has_aux was set to True."
            f"\n{name} returns (solution, aux)."
        )
    return tree_util.tree_unflatten(children[0], leaves[: children[0].num_leaves])


def _run(jaxpr: ir.Jaxpr, *args: Any) -> list[Any]:
    return ir.eval_jaxpr(jaxpr, [], *args)


# ---------------------------------------------------------------------------------------------
# custom_root


class _RootJaxprs(NamedTuple):
    f: ir.Jaxpr
    solve: ir.Jaxpr
    l_and_s: ir.Jaxpr
    n: int  # leaves of the solution (the solve jaxpr may return aux leaves after them)


def _root_solve(jaxprs, f_consts, solve_consts, l_consts, guess):
    return _run(jaxprs.solve, *solve_consts, *guess)


_custom_root = custom_jvp(_root_solve, nondiff_argnums=(0,))


@_custom_root.defjvp
def _root_jvp(jaxprs, primals, tangents):
    f_consts, solve_consts, l_consts, guess = primals
    f_dot = tangents[0]
    out = _custom_root(jaxprs, f_consts, solve_consts, l_consts, guess)
    sol, aux = out[: jaxprs.n], out[jaxprs.n :]
    _, rhs = _jvp(lambda *c: _run(jaxprs.f, *c, *sol), list(f_consts), list(f_dot))
    sol_dot = [ew.neg(t) for t in _run(jaxprs.l_and_s, *l_consts, *sol, *rhs)]
    return out, sol_dot + [zeros_like_aval(get_aval(a)) for a in aux]


def custom_root(
    f: Callable[[Any], Any],
    initial_guess: Any,
    solve: Callable[[Callable, Any], Any],
    tangent_solve: Callable[[Callable, Any], Any],
    has_aux: bool = False,
) -> Any:
    """`lax.custom_root`: `solve(f, initial_guess)`, differentiated implicitly at the root.

    Derivatives flow to the values `f` closes over through the implicit function theorem,
    assuming `f(solution) == 0`; `solve` itself is never differentiated.

    Args:
      f: function of one pytree returning a pytree of the same structure.
      initial_guess: the starting point (a pytree of arrays).
      solve: `solve(f, guess)` returning a root of `f` (and aux data if `has_aux`).
      tangent_solve: `tangent_solve(g, y)` returning `x` with `g(x) == y`, for the linear `g`
        (`f` linearized at the root); e.g. `lambda g, y: y / g(1.0)` for scalars.
      has_aux: whether `solve` returns `(solution, aux)`.

    Returns:
      `solve(f, initial_guess)`, with derivatives defined implicitly.
    """
    leaves, tree = tree_util.tree_flatten(initial_guess)
    avals = _avals(leaves)
    f_jaxpr, f_consts, _ = _staged(f, [tree], avals, "f", tree, False, "initial_guess")
    s_jaxpr, s_consts, out_tree = _staged(
        lambda x: solve(f, x), [tree], avals, "solve", tree, has_aux, "initial_guess"
    )

    def linearize_and_solve(x, b):
        _, f_lin = linearize(f, x)
        return tangent_solve(f_lin, b)

    l_jaxpr, l_consts, _ = _staged(
        linearize_and_solve, [tree, tree], avals, "tangent_solve", tree, False, "x"
    )
    jaxprs = _RootJaxprs(f_jaxpr, s_jaxpr, l_jaxpr, len(leaves))
    out = _custom_root(jaxprs, list(f_consts), list(s_consts), list(l_consts), leaves)
    return tree_util.tree_unflatten(out_tree, list(out))


# ---------------------------------------------------------------------------------------------
# custom_linear_solve


class _LinearSolveTuple(NamedTuple):
    matvec: Any
    vecmat: Any
    solve: Any
    transpose_solve: Any

    def transpose(self) -> _LinearSolveTuple:
        return _LinearSolveTuple(self.vecmat, self.matvec, self.transpose_solve, self.solve)


linear_solve_p = Primitive("custom_linear_solve", multiple_results=True, higher_order=True)


def _split(args, const_lengths):
    *groups, b = split_list(list(args), list(const_lengths))
    return _LinearSolveTuple(*groups), b


def _linear_solve_impl(*args, const_lengths, jaxprs, call_jaxpr):
    consts, b = _split(args, const_lengths)
    return run_jaxpr(jaxprs.solve, *consts.solve, *b)


def _linear_solve_abstract_eval(*avals, const_lengths, jaxprs, call_jaxpr):
    return jaxprs.solve.out_avals


def _call_jaxpr(const_lengths, jaxprs) -> ir.Jaxpr:
    """The solve as a jaxpr of every input (what `jit` inlines)."""
    solve = jaxprs.solve
    ns = const_lengths.solve
    unused = [
        [ir.Var(a) for a in (j.in_avals[:n] if j is not None else [])]
        for j, n in ((jaxprs.matvec, const_lengths.matvec), (jaxprs.vecmat, const_lengths.vecmat))
    ]
    tr = jaxprs.transpose_solve
    tr_vars = [ir.Var(a) for a in tr.in_avals[: const_lengths.transpose_solve]] if tr else []
    invars = [*unused[0], *unused[1], *solve.invars[:ns], *tr_vars, *solve.invars[ns:]]
    return ir.Jaxpr([], invars, solve.eqns, solve.outvars)


def _bind(args, const_lengths, jaxprs):
    return linear_solve_p.bind(
        *args,
        const_lengths=const_lengths,
        jaxprs=jaxprs,
        call_jaxpr=_call_jaxpr(const_lengths, jaxprs),
    )


def _linear_solve_jvp(primals, tangents, *, const_lengths, jaxprs, call_jaxpr):
    consts, b = _split(primals, const_lengths)
    consts_dot, b_dot = _split(tangents, const_lengths)
    out = _bind(primals, const_lengths, jaxprs)
    n = len(b)
    x = out[:n]
    rhs = [instantiate(t) for t in b_dot]
    if any(type(t) is not Zero for t in consts_dot.matvec):
        # b_dot - (d matvec / d consts) x: the tangent of the equation at the solution
        c_dot = [instantiate(t) for t in consts_dot.matvec]
        _, mv_dot = _jvp(lambda *c: _run(jaxprs.matvec, *c, *x), list(consts.matvec), c_dot)
        rhs = [ew.sub(r, m) for r, m in zip(rhs, mv_dot)]
    x_dot = _bind([*[c for g in consts for c in g], *rhs], const_lengths, jaxprs)
    aux = [zeros_like_aval(get_aval(a)) for a in out[n:]]
    return out, x_dot[:n] + aux


def _linear_solve_transpose(cts, *args, const_lengths, jaxprs, call_jaxpr):
    if jaxprs.transpose_solve is None:
        raise TypeError(
            "transpose_solve required for backwards mode automatic differentiation of "
            "custom_linear_solve; pass transpose_solve= (or symmetric=True)"
        )
    consts, b = _split(args, const_lengths)
    if any(is_undefined(c) for g in consts for c in g):
        raise NotImplementedError(
            "custom_linear_solve: transposing with respect to the closed-over values of "
            "matvec/solve is not supported (only with respect to b)"
        )
    ct_b = [instantiate(c) for c in cts[: len(b)]]
    tconsts, tlengths = consts.transpose(), _LinearSolveTuple(*const_lengths).transpose()
    out = _bind([*[c for g in tconsts for c in g], *ct_b], tlengths, jaxprs.transpose())
    return [None] * sum(const_lengths) + list(out[: len(b)])


def _linear_solve_batch(args, dims, *, const_lengths, jaxprs, call_jaxpr, axis_trace):
    size = batch_size(args, dims)
    args = batched_first(args, dims, size)
    dims = [None if d is None else 0 for d in dims]
    consts, b = _split(args, const_lengths)
    cdims, _ = _split(dims, const_lengths)
    b = [bdim_at_front(v, None if d is None else 0, size) for v, d in zip(b, dims[-len(b) :])]
    name = axis_name_of(axis_trace)
    new_jaxprs, new_consts = [], []
    for j, cs, ds in zip(jaxprs, consts, cdims):
        if j is None:
            new_jaxprs.append(None)
            new_consts.append([])
            continue
        batched = tuple(d is not None for d in ds) + (True,) * len(b)
        bj, extra, _ = batch_jaxpr(j, size, batched, True, name)
        new_jaxprs.append(bj)
        new_consts.append([*extra, *cs])
    lengths = _LinearSolveTuple(*map(len, new_consts))
    out = _bind([*[c for g in new_consts for c in g], *b], lengths, _LinearSolveTuple(*new_jaxprs))
    return out, [0] * len(out)


linear_solve_p.def_impl(_linear_solve_impl)
linear_solve_p.def_abstract_eval(_linear_solve_abstract_eval)
linear_solve_p.def_jvp(_linear_solve_jvp)
linear_solve_p.def_transpose(_linear_solve_transpose)
linear_solve_p.def_batch(_linear_solve_batch)


def custom_linear_solve(
    matvec: Callable[[Any], Any],
    b: Any,
    solve: Callable[[Callable, Any], Any],
    transpose_solve: Callable[[Callable, Any], Any] | None = None,
    symmetric: bool = False,
    has_aux: bool = False,
) -> Any:
    """`lax.custom_linear_solve`: `solve(matvec, b)` with derivatives defined implicitly.

    The jvp solves again for the tangent and the transpose uses `transpose_solve`, so neither
    differentiates through `solve`; `matvec` must be differentiable.

    Args:
      matvec: the linear function to invert (a pytree like `b` to one like `b`).
      b: the right-hand side (a pytree of arrays).
      solve: `solve(matvec, b)` returning `x` with `matvec(x) == b` (and aux if `has_aux`).
      transpose_solve: the same for the transposed map `vecmat`; needed by reverse mode unless
        `symmetric`.
      symmetric: whether `matvec` is its own transpose (`solve` then serves as the transposed
        solve).
      has_aux: whether `solve` / `transpose_solve` return `(x, aux)`.

    Returns:
      `solve(matvec, b)` (with its aux data if `has_aux`).
    """
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    leaves, tree = tree_util.tree_flatten(b)
    avals = _avals(leaves)
    mv_jaxpr, mv_consts, _ = _staged(matvec, [tree], avals, "matvec", tree, False, "b")
    s_jaxpr, s_consts, out_tree = _staged(
        lambda x: solve(matvec, x), [tree], avals, "solve", tree, has_aux, "b"
    )
    vm_jaxpr = t_jaxpr = None
    vm_consts: list[Any] = []
    t_consts: list[Any] = []
    if transpose_solve is not None:
        if symmetric:
            vecmat, vm_jaxpr, vm_consts = matvec, mv_jaxpr, mv_consts
        else:

            def vecmat(y):
                return linear_transpose(matvec, b)(y)[0]

            vm_jaxpr, vm_consts, _ = _staged(vecmat, [tree], avals, "vecmat", tree, False, "b")
        t_jaxpr, t_consts, _ = _staged(
            lambda x: transpose_solve(vecmat, x),
            [tree],
            avals,
            "transpose_solve",
            tree,
            has_aux,
            "b",
        )
    groups = [list(mv_consts), list(vm_consts), list(s_consts), list(t_consts)]
    lengths = _LinearSolveTuple(*map(len, groups))
    jaxprs = _LinearSolveTuple(mv_jaxpr, vm_jaxpr, s_jaxpr, t_jaxpr)
    out = _bind([*[c for g in groups for c in g], *leaves], lengths, jaxprs)
    return tree_util.tree_unflatten(out_tree, list(out))
