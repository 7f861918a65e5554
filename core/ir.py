"""The IR: jaxprs, their type checker, printer and interpreter.

A `Jaxpr` is a first-order program in A-normal form: typed input variables, a list of equations
`outs = prim[params] ins`, and output atoms. Atoms are `Var`s (typed, compared by identity) or
`Literal`s (Python/numpy scalars inlined in the program). `constvars` name values the program
closes over; a `ClosedJaxpr` pairs a jaxpr with those values. Higher-order primitives hold
jaxprs without constvars in their params (closed-over values become explicit inputs).

`typecheck` runs after every construction and transformation: single assignment, no unbound
variables, and every equation's abstract evaluation equal to its output types. `eval_jaxpr`
re-binds each equation, so evaluating a jaxpr under any interpreter transforms it.
The printer follows `jax.make_jaxpr`:  { lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }
"""

from __future__ import annotations

import collections
import itertools
import types
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import source_info
from core.array import Array
from core.avals import ShapedArray
from core.errors import JaxprTypeError


class Var:
    """A typed variable of a jaxpr; hashed and compared by identity."""

    __slots__ = ("aval", "count")
    _counter = itertools.count()

    def __init__(self, aval: ShapedArray):
        self.aval = aval
        self.count = next(Var._counter)

    def __repr__(self) -> str:  # JAX's
        return f"Var(id={id(self)}):{self.aval.str_short(short_dtypes=False)}"


class Literal:
    """A scalar constant written into the program text."""

    __slots__ = ("val", "aval")

    def __init__(self, val: Any, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self) -> str:
        return f"Literal({self.val})"

    def as_array(self) -> Any:
        """The literal as an `Array` of its abstract value's dtype and weak type."""
        return Array(np.asarray(self.val, dtype=self.aval.dtype), self.aval.weak_type)


Atom = Var | Literal


class Eqn:
    """One equation: `outputs = prim[params](*inputs)`, with where it was traced from
    (`core.source_info.SourceInfo`, None for equations built by hand)."""

    __slots__ = ("prim", "inputs", "params", "outputs", "source_info")

    def __init__(
        self, prim, inputs: list[Atom], params: dict, outputs: list[Var], source_info=None
    ):
        self.prim = prim
        self.inputs = inputs
        self.params = params
        self.outputs = outputs
        self.source_info = source_info

    @property
    def primitive(self):
        """JAX's name for `prim` (`jax.core.JaxprEqn.primitive`)."""
        return self.prim

    @property
    def invars(self) -> list[Atom]:
        """JAX's name for `inputs` (`jax.core.JaxprEqn.invars`)."""
        return self.inputs

    @property
    def outvars(self) -> list[Var]:
        """JAX's name for `outputs` (`jax.core.JaxprEqn.outvars`)."""
        return self.outputs

    def __repr__(self) -> str:
        return pp_eqn(self, _Namer())


class Jaxpr:
    """A typed first-order program: `{ lambda constvars ; invars . let eqns in outvars }`."""

    __slots__ = ("constvars", "invars", "eqns", "outvars", "__weakref__")

    def __init__(
        self,
        constvars: Sequence[Var],
        invars: Sequence[Var],
        eqns: Sequence[Eqn],
        outvars: Sequence[Atom],
    ):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.eqns = list(eqns)
        self.outvars = list(outvars)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.outvars]

    def __repr__(self) -> str:
        return pp_jaxpr(self)

    __str__ = __repr__

    def pretty_print(self, **options: Any) -> str:
        """The printed program (`str(jaxpr)`), as JAX's `Jaxpr.pretty_print`.

        Args:
          **options: JAX's printing options (`use_color`, `source_info`, `print_shapes`...),
            accepted; numbax prints one way, JAX's default one without color.

        Returns:
          The text.
        """
        del options
        return pp_jaxpr(self)


class ClosedJaxpr:
    """A jaxpr together with the values of its constvars (what `make_jaxpr` returns)."""

    __slots__ = ("jaxpr", "consts")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]):
        self.jaxpr = jaxpr
        self.consts = list(consts)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> list[ShapedArray]:
        return self.jaxpr.out_avals

    @property
    def eqns(self) -> list[Eqn]:
        return self.jaxpr.eqns

    @property
    def literals(self) -> list[Any]:
        """JAX's other name for `consts`."""
        return self.consts

    def __repr__(self) -> str:
        return pp_jaxpr(self.jaxpr)

    __str__ = __repr__

    def pretty_print(self, **options: Any) -> str:
        """The printed program, as JAX's `ClosedJaxpr.pretty_print` (see `Jaxpr.pretty_print`).

        Args:
          **options: JAX's printing options, accepted.

        Returns:
          The text.
        """
        return self.jaxpr.pretty_print(**options)


# ---------------------------------------------------------------------------------------------
# Type checking


def sub_jaxprs(value: Any) -> list[Jaxpr]:
    """The jaxprs in an equation parameter (a jaxpr, a closed one, or tuples/lists of them)."""
    if isinstance(value, ClosedJaxpr):
        return [value.jaxpr]
    if isinstance(value, Jaxpr):
        return [value]
    if isinstance(value, (tuple, list)):
        return [j for v in value for j in sub_jaxprs(v)]
    return []


def has_effects(jaxpr: Jaxpr) -> bool:
    """Whether `jaxpr` (or a jaxpr inside it) has a side effect (`io_callback`,
    `debug.print`/`debug.callback`)."""
    return any(eqn_has_effects(eqn) for eqn in jaxpr.eqns)


def eqn_has_effects(eqn: Eqn) -> bool:
    """Whether running `eqn` has a side effect: an effectful primitive, or a higher-order one
    (`cond`, `scan`, ...) with one inside, so dead-code elimination keeps it although its
    outputs are unused (`lax.cond(p, lambda: (debug.print(...), 0)[1], lambda: 0)`)."""
    if eqn.prim.effectful:
        return True
    return eqn.prim.higher_order and any(
        has_effects(j) for v in eqn.params.values() for j in sub_jaxprs(v)
    )


def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def typecheck(jaxpr: Jaxpr) -> None:
    """Checks single assignment, bound variables and every equation's output types."""
    env: set[Var] = set()

    def bind_var(v: Var) -> None:
        if v in env:
            raise JaxprTypeError(f"variable {v} is assigned twice in\n{jaxpr}")
        env.add(v)

    def read(x: Atom) -> ShapedArray:
        if isinstance(x, Literal):
            return x.aval
        if x not in env:
            raise JaxprTypeError(f"variable {x} is used before it is bound in\n{jaxpr}")
        return x.aval

    for v in itertools.chain(jaxpr.constvars, jaxpr.invars):
        bind_var(v)
    for eqn in jaxpr.eqns:
        in_avals = [read(x) for x in eqn.inputs]
        out = eqn.prim.abstract_eval(*in_avals, **eqn.params)
        outs = out if eqn.prim.multiple_results else [out]
        if len(outs) != len(eqn.outputs) or not all(
            _same_type(a, v.aval) for a, v in zip(outs, eqn.outputs)
        ):
            raise JaxprTypeError(
                f"equation {eqn} produces {[a.str_short(short_dtypes=True) for a in outs]} but "
                "its outputs are "
                f"typed {[v.aval.str_short(short_dtypes=True) for v in eqn.outputs]}"
            )
        for v in eqn.outputs:
            bind_var(v)
    for x in jaxpr.outvars:
        read(x)


# ---------------------------------------------------------------------------------------------
# Evaluation


def copy_eqns(jaxpr: Jaxpr, ins: list) -> tuple[list[Eqn], list]:
    """The equations of `jaxpr` applied to the atoms `ins` (for its constvars then invars),
    with fresh output variables: a call's body inlined at its call site.

    Args:
      jaxpr: the program to copy.
      ins: one atom per constvar then invar of `jaxpr`.

    Returns:
      The copied equations and the jaxpr's outputs in terms of them.
    """
    local = dict(zip([*jaxpr.constvars, *jaxpr.invars], ins, strict=True))
    out = []
    for e in jaxpr.eqns:
        outs = [Var(v.aval) for v in e.outputs]
        inputs = [local.get(x, x) if isinstance(x, Var) else x for x in e.inputs]
        out.append(Eqn(e.prim, inputs, e.params, outs, e.source_info))
        local.update(zip(e.outputs, outs))
    return out, [local.get(v, v) if isinstance(v, Var) else v for v in jaxpr.outvars]


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list[Any]:
    """Runs a jaxpr by binding each equation under the current interpreter."""
    env: dict[Var, Any] = {}

    def read(x: Atom) -> Any:
        return x.as_array() if isinstance(x, Literal) else env[x]

    if len(args) != len(jaxpr.invars):
        raise TypeError(f"jaxpr takes {len(jaxpr.invars)} arguments, got {len(args)}")
    env.update(zip(jaxpr.constvars, consts, strict=True))
    env.update(zip(jaxpr.invars, args, strict=True))
    state = source_info.state
    outer = state.override
    for eqn in jaxpr.eqns:
        state.override = eqn.source_info or outer
        try:
            out = eqn.prim.bind(*[read(x) for x in eqn.inputs], **eqn.params)
        finally:
            state.override = outer
        if eqn.prim.multiple_results:
            env.update(zip(eqn.outputs, out, strict=True))
        else:
            env[eqn.outputs[0]] = out
    return [read(x) for x in jaxpr.outvars]


# ---------------------------------------------------------------------------------------------
# Pretty printing


class _Namer:
    """Names variables a, b, ..., z, ba, bb, ... in order of appearance, like JAX; an equation's
    output that nothing uses is `_` (JAX's DropVar) and takes no letter."""

    def __init__(self) -> None:
        self.names: dict[Var, str] = {}
        self.unused: set[Var] = set()  # of the jaxprs being printed
        self.count = 0  # letters given (a `jit` body's inputs share its operands' names)
        self.shared: dict[Jaxpr, str] = {}  # jaxprs printed once, first, and then named

    def binder(self, v: Var) -> str:
        """An equation output's name and type."""
        return f"{'_' if v in self.unused else self(v)}:{v.aval.str_short(short_dtypes=True)}"

    def __call__(self, v: Var) -> str:
        name = self.names.get(v)
        if name is None:
            name = _letters(self.count)
            self.count += 1
            while name in self.shared.values():  # JAX skips the shared jaxprs' names
                name = _letters(self.count)
                self.count += 1
            self.names[v] = name
        return name


def _letters(i: int) -> str:
    s = ""
    while True:
        s = chr(ord("a") + i % 26) + s
        i //= 26
        if i == 0:
            return s


def _pp_atom(x: Atom, name: _Namer) -> str:
    if isinstance(x, Literal):
        val = x.val.item() if isinstance(x.val, (np.ndarray, np.generic)) else x.val
        return f"{val}:{x.aval.str_short(short_dtypes=True)}"
    return name(x)


_WIDTH = 80  # like JAX's printer: longer equations put one parameter per line


def _pp_param(v: Any, name: _Namer, indent: int, col: int) -> str:
    """A parameter's value; a jaxpr nests at `indent` and starts at column `col`."""
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, ClosedJaxpr):
        v = v.jaxpr
    if isinstance(v, Jaxpr):
        return name.shared.get(v) or pp_jaxpr(v, indent, name, col)
    if isinstance(v, tuple) and v and all(isinstance(j, (Jaxpr, ClosedJaxpr)) for j in v):
        items = "".join(
            f"\n{' ' * (indent + 2)}{_pp_param(j, name, indent + 2, indent + 2)}" for j in v
        )
        return f"({items}\n{' ' * indent})"  # a cond's branches, one a line
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    if callable(v):
        return getattr(v, "__name__", repr(v))
    return str(v)  # strings unquoted, as JAX prints `name[name=a]`, `jit[name=f ...]`


def _broadcast_in_dim_params(params: dict) -> dict:
    shown = {k: v for k, v in params.items() if k != "shape"}  # the binder's type shows it
    if not shown.get("broadcast_dimensions", True):
        del shown["broadcast_dimensions"]
    return shown


def _dot_general_params(params: dict) -> dict:
    (xc, yc), (xb, yb) = params["dimension_numbers"]
    shown = {"dimension_numbers": ((list(xc), list(yc)), (list(xb), list(yb)))}
    if params["preferred_element_type"] is not None:  # JAX leaves out what is None
        shown["preferred_element_type"] = params["preferred_element_type"]
    return shown


def _custom_call_params(params: dict) -> dict:
    # JAX's custom-rule calls close over their consts: no `num_consts` (numbax's when not 0)
    shown = {k: v for k, v in params.items() if k != "num_consts" or v}
    shown.setdefault("symbolic_zeros", False)  # custom_vjp's (numbax has no symbolic zeros)
    return shown


def _axes(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _mul_params(params: dict) -> dict:
    """`mul`'s `out_dtype` as JAX prints it: not at all when None, else its `str` (a dtype's
    name, `<class 'numpy.float16'>` for a numpy type, a string as given), numbax's scalar types
    as JAX's (`<class 'jax.numpy.float32'>`)."""
    dt = params.get("out_dtype")
    if dt is None:
        return {}
    text = dt.name if isinstance(dt, np.dtype) else str(dt)
    return {"out_dtype": text.replace("<class 'core.numpy.", "<class 'jax.numpy.", 1)}


def _reducer_params(params: dict) -> dict:
    # numbax applies axis_index_groups before binding (a gather and a reduction in the group)
    return {"axes": _axes(params["axis_name"]), "axis_index_groups": None}


def _all_gather_params(params: dict) -> dict:
    return {
        "all_gather_dimension": params["axis"],
        "axis_index_groups": None,
        "axis_name": _axes(params["axis_name"]),
        "axis_size": params["axis_size"],
        "tiled": params["tiled"],
    }


def _reduce_params(params: dict) -> dict:
    # JAX prints a Python function with its address masked
    fn = params["computation"]
    if isinstance(fn, types.FunctionType):
        fn = f"<function {fn.__qualname__} at 0xXXXXXXXXXXXX>"
    return {**params, "computation": fn}


def _shard_map_params(params: dict) -> dict:
    mesh = params["mesh"]
    manual = ", ".join(repr(n) for n in mesh.axis_names if n in params["manual_axes"])
    shown = {k: v for k, v in params.items() if k != "manual_axes"}
    shown["newly_manual_axes"] = f"frozenset({{{manual}}})"  # in mesh order (JAX: hash order)
    return shown


def _sharding_constraint_params(params: dict) -> dict:
    dims = ", ".join(map(str, sorted(params["unconstrained_dims"])))
    return {**params, "unconstrained_dims": f"frozenset({{{dims}}})"}  # JAX's `frozenset({})`


# A primitive's parameters as JAX prints them, where numbax's differ: JAX's sharding parameters
# (always None here), its shape parameters implied by the binder's type left out.
_PRINTED_PARAMS = {
    "psum": _reducer_params,
    "psum_axes": _reducer_params,
    "psum_invariant": lambda params: {"axes": _axes(params["axis_name"])},
    "pvary": lambda params: {"axes": _axes(params["axis_name"])},
    "shard_map": _shard_map_params,
    "sharding_constraint": _sharding_constraint_params,
    "pmax": _reducer_params,
    "pmin": _reducer_params,
    "all_gather": _all_gather_params,
    "broadcast_in_dim": _broadcast_in_dim_params,
    "dot_general": _dot_general_params,
    # numbax's convolutions drop `precision` (no effect on the CPU, as JAX's) and shard nothing
    "conv_general_dilated": lambda params: {**params, "out_sharding": None, "precision": None},
    "iota": lambda params: {**params, "sharding": None},
    "custom_jvp_call": _custom_call_params,
    "custom_vjp_call": _custom_call_params,
    "reduce_sum": lambda params: {**params, "out_sharding": None},
    "mul": _mul_params,
    "reduce": _reduce_params,
    "reshape": lambda params: {"dimensions": None, **params, "sharding": None},
}


def _share_call_names(eqn: Eqn, name: _Namer) -> None:
    """A `jit` body's inputs and outputs take the names of the call's operands and results, as
    JAX prints them (the input of a literal operand or of one passed twice gets a new name, the
    output of an unused result is `_`)."""
    inner = eqn.params["jaxpr"]
    inner = inner.jaxpr if isinstance(inner, ClosedJaxpr) else inner
    if inner in name.shared:  # printed already, with its own names
        return
    shared = set()
    for x, v in zip(eqn.inputs, inner.invars):
        if isinstance(x, Var) and x not in shared:  # an operand passed twice: a new name
            shared.add(x)
            name.names[v] = name(x)
    for o, v in zip(eqn.outputs, inner.outvars):
        if isinstance(v, Var) and v not in name.names:
            if o in name.unused:
                name.unused.add(v)  # `_` inside too
            else:
                name.names[v] = name(o)


# Primitives JAX prints under another name or with these parameters in this order (then the
# numbax-only ones that hold none of their unprinted values: `jit(..., backend="python")`'s;
# a library function's jit has None, `core/jit/library.py`).
_JAX_CALLS = {
    "jit": ("jit", ("name", "jaxpr"), {"backend": ("numba", None)}),
    "psum_axes": ("psum", None, {}),  # JAX's psum over positional axes (a vmap's)
}


def pp_eqn(eqn: Eqn, name: _Namer, indent: int = 0) -> str:
    """One equation, its parameters sorted by name as JAX prints them; they go one per line
    when it does not fit the width. Names are given in JAX's order: outputs, then the
    variables of jaxprs in the parameters, then inputs."""
    outs = " ".join(name.binder(v) for v in eqn.outputs)
    prim, order, defaults = _JAX_CALLS.get(eqn.prim.name, (eqn.prim.name, None, {}))
    shown = _PRINTED_PARAMS.get(eqn.prim.name, dict)(eqn.params)
    if order is not None:
        _share_call_names(eqn, name)
        order = [*order, *(k for k, v in defaults.items() if shown.get(k, v[0]) not in v)]
    if order is None:  # sorted by name, JAX's `name` first
        order = sorted(shown, key=lambda k: (k != "name" or eqn.prim.name == "name", k))
    params = [f"{k}={_pp_param(shown[k], name, indent + 2, indent + 3 + len(k))}" for k in order]
    ins = [_pp_atom(x, name) for x in eqn.inputs]
    head = f"{outs} = {prim}" if outs else prim  # JAX prints no `=` for an equation without outputs
    if not params:
        return head + _pp_operands(ins, indent + len(head), indent)
    # the parameters stay on one line when they fit there (whatever follows them)
    group = f"[{' '.join(params)}]"
    if indent + len(head) + len(group) <= _WIDTH and "\n" not in group:
        text, col = head + group, indent + len(head) + len(group)
    else:
        lines = "".join(f"\n{' ' * (indent + 2)}{p}" for p in params)
        text, col = f"{head}[{lines}\n{' ' * indent}]", indent + 1
    # JAX ends an equation with parameters and no operands with the space before them (`iota`)
    return text + _pp_operands(ins, col, indent) if ins else text + " "


def _pp_operands(ins: list[str], col: int, indent: int) -> str:
    """An equation's operands from column `col`: on its line when they fit, else each one that
    starts past the width on a new line (JAX's printer: a break of its own group each)."""
    if col + sum(1 + len(x) for x in ins) <= _WIDTH:
        return "".join(f" {x}" for x in ins)
    text = ""
    for i, x in enumerate(ins):
        if i and col + 1 > _WIDTH:
            text, col = f"{text}\n{' ' * (indent + 2)}{x}", indent + 2 + len(x)
        else:
            text, col = f"{text} {x}", col + 1 + len(x)
    return text


def pp_jaxpr(
    jaxpr: Jaxpr,
    indent: int = 0,
    name: _Namer | None = None,
    col: int | None = None,
    after: str = "",
) -> str:
    """The jaxpr in `jax.make_jaxpr`'s format (one line when it fits, else one eqn a line).

    Args:
      jaxpr: the jaxpr.
      indent: the column its lines are indented from.
      name: the names of an enclosing jaxpr's variables, whose naming a nested jaxpr goes on
        with (JAX's single naming context); a new one by default.
      col: the column it starts at (after `jaxpr=` in an equation's parameters); `indent` by
        default.
      after: the text that follows it on its last line (for the width).

    Returns:
      The text.
    """
    if name is None:
        name = _Namer()
        # the program's unused outputs are `_` (JAX's `_dropvars`; a nested jaxpr's are not)
        used = {x for e in jaxpr.eqns for x in e.inputs if isinstance(x, Var)}
        used.update(x for x in jaxpr.outvars if isinstance(x, Var))
        name.unused.update(v for e in jaxpr.eqns for v in e.outputs if v not in used)
        shared = _shared_jaxprs(jaxpr)
        name.shared.update((j, n) for n, j in shared)
        # JAX measures the group of `{ lambda ... in (outs)`: neither the closing ` }` nor the
        # ` in` after it count for the width (so `col` is 2 less than where the text starts)
        lets = [f"let {n} = {pp_jaxpr(j, 0, name, len(n) + 5)} in\n" for n, j in shared]
        return "".join(lets) + pp_jaxpr(jaxpr, indent, name, col)
    col = indent if col is None else col

    consts = [f"{name(v)}:{v.aval.str_short(short_dtypes=True)}" for v in jaxpr.constvars]
    ins = [f"{name(v)}:{v.aval.str_short(short_dtypes=True)}" for v in jaxpr.invars]
    head = f"{{ lambda {' '.join(consts)}; {' '.join(ins)}. let"
    eqns = [pp_eqn(e, name, indent + 4) for e in jaxpr.eqns]
    outs = "(" + ", ".join("_" if x in name.unused else _pp_atom(x, name) for x in jaxpr.outvars)
    outs += ",)" if len(jaxpr.outvars) == 1 else ")"
    one_line = f"{head} {'; '.join(eqns)} in {outs} }}"
    if col + len(one_line + after) <= _WIDTH and "\n" not in one_line:
        return one_line
    head = _filled_head(consts, ins, indent, col)
    body = "".join(f"\n{' ' * (indent + 4)}{e}" for e in eqns) or f"\n{' ' * (indent + 4)}"
    return f"{head}{body}\n{' ' * (indent + 2)}in {outs} }}"


def _shared_jaxprs(top: Jaxpr) -> list[tuple[str, Jaxpr]]:
    """The nested jaxprs JAX prints once, before the program (`let name = { ... } in`), in its
    order and with its names (`jax._src.core.pp_toplevel_jaxpr`): those used more than once,
    and those of more than 10 equations, named after the `name` parameter of the first
    equation holding them ("jaxpr" otherwise), a repeated name numbered."""
    names: dict[Jaxpr, str] = {}
    counts: dict[Jaxpr, int] = {}
    queue = collections.deque([top])
    while queue:
        jaxpr = queue.popleft()
        counts[jaxpr] = counts.get(jaxpr, 0) + 1 + (jaxpr is not top and len(jaxpr.eqns) > 10)
        for eqn in jaxpr.eqns:
            subs = [j for v in eqn.params.values() for j in sub_jaxprs(v)]
            queue.extend(subs)
            called = eqn.params.get("name")
            if isinstance(called, str):
                for j in subs:
                    names.setdefault(j, called.strip("<>"))
    taken: collections.Counter = collections.Counter()
    shared = []
    for jaxpr, count in counts.items():
        if count == 1:
            continue
        base = names.get(jaxpr, "jaxpr")
        n = taken[base]
        taken[base] += 1
        if n:
            base += str(n)
            taken[base] += 1
        shared.append((base, jaxpr))
    return shared


def _filled_head(consts: list[str], ins: list[str], indent: int, col: int) -> str:
    """`{ lambda consts; ins. let` as JAX prints it when the jaxpr takes several lines: the
    space before a binder becomes a line break (continued at `indent + 4`) once the line has
    reached the width."""
    text, col = "{ lambda ", col + 9
    for binders, after in ((consts, "; "), (ins, ". let")):
        for i, b in enumerate(binders):
            if i and col >= _WIDTH:
                text, col = f"{text}\n{' ' * (indent + 4)}", indent + 4
            elif i:
                text, col = text + " ", col + 1
            text, col = text + b, col + len(b)
        text, col = text + after, col + len(after)
    return text
