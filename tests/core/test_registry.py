"""Every primitive has every rule it needs, and the transformation tests cover every primitive."""

import functools
import inspect

import numpy as np
import pytest

from core import make_jaxpr
from core.ir import Literal
from core.primitive import all_primitives
from tests.core.prim_cases import CASES, NAMED_CASES

PRIMS = all_primitives()
# Covered elsewhere: higher-order primitives (jit, control flow, the custom-derivative
# primitives of test_compose.py) by their own tests, the nullary iota by everything (and
# empty2 by the derivatives of conds, tests/core/test_jaxpr_text.py), and the pooling
# derivatives' helpers by reduce_window_max's second-order check.
ELSEWHERE = {name for name, p in PRIMS.items() if p.higher_order} | {
    "iota",
    "empty2",
    "custom_lin",
    "select_and_gather_add",
    "select_and_scatter_add",
    "pure_callback",  # host callbacks: tests/core/test_debug_callbacks.py
    "debug_callback",
    "io_callback",
    "check",  # checkify's: tests/core/experimental/test_checkify.py
    # XLA's generators (tests/core/prims/test_rng_bit_generator.py): vmap draws a batch from
    # the first key (JAX's rule), and rng_uniform is stateful
    "rng_bit_generator",
    "rng_uniform",
    # the key primitives take key arrays: tests/core/prims/test_prng.py
    *(name for name, p in PRIMS.items() if p.on_keys),
    "cholesky_update",  # no batching, as JAX's: tests/core/lax/test_linalg_reductions.py
}
# Rules JAX does not define either (its transformations raise NotImplementedError as ours do).
JAX_LACKS = {"rng_uniform": {"jvp", "batch"}, "nextafter": {"jvp"}, "cholesky_update": {"batch"}}


def _nullary(prim) -> bool:
    sig = inspect.signature(prim.abstract_eval)
    return not any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
        for p in sig.parameters.values()
    )


@pytest.mark.parametrize("name", sorted(PRIMS))
def test_rules_present(name):
    prim = PRIMS[name]
    missing = [r for r in ("impl", "abstract_eval", "jvp") if getattr(prim, r) is None]
    if prim.batch is None and not _nullary(prim):
        missing.append("batch")
    if getattr(prim, "linear", False) and prim.transpose is None:
        missing.append("transpose (the primitive is marked linear)")
    missing = [r for r in missing if r not in JAX_LACKS.get(name, ())]
    assert not missing, f"primitive {name!r} lacks rules: {missing}"


@pytest.mark.parametrize("name", sorted(PRIMS))
def test_transpose_only_for_marked_linear(name):
    prim = PRIMS[name]
    # Higher-order primitives are linear exactly when their inner program is.
    if prim.transpose is not None and not prim.higher_order:
        assert getattr(prim, "linear", False), (
            f"primitive {name!r} has a transpose rule but is not marked linear: set "
            f"`{name}_p.linear = True` next to it (deflinear does this)"
        )


def test_tables_cover_every_primitive():
    covered = {c.prim for c in CASES + NAMED_CASES} | ELSEWHERE
    missing = sorted(set(PRIMS) - covered)
    assert not missing, f"add these primitives to tests/core/prim_cases.py: {missing}"


@functools.cache
def _elementwise_applications() -> dict[str, list]:
    """The applications of each elementwise primitive in the cases' jaxprs, with their
    operands' values: `{name: [(eqn, operands, results)]}`."""
    found: dict[str, list] = {}
    for case in CASES:
        closed = make_jaxpr(case.fn)(*case.args)
        env = dict(zip(closed.jaxpr.constvars, closed.consts))
        env.update(zip(closed.jaxpr.invars, case.args))
        for eqn in closed.jaxpr.eqns:
            ins = [x.as_array() if isinstance(x, Literal) else env[x] for x in eqn.inputs]
            outs = eqn.prim.bind(*ins, **eqn.params)
            outs = outs if eqn.prim.multiple_results else [outs]
            env.update(zip(eqn.outputs, outs))
            if eqn.prim.elementwise and eqn.outputs[0].aval.ndim:
                found.setdefault(eqn.prim.name, []).append((eqn, ins, outs))
    return found


@pytest.mark.parametrize("name", sorted(n for n, p in PRIMS.items() if p.elementwise))
def test_elementwise_primitives_commute_with_slicing(name):
    # `Primitive.elementwise` (the batch split keeps a split operand split): each row of the
    # results is the primitive applied to the operands' rows (rank-0 and size-1 operands whole)
    applications = _elementwise_applications().get(name)
    assert applications, f"add a case of {name!r} with an array result to prim_cases.py"
    for eqn, ins, outs in applications:
        rows = outs[0].shape[0]
        for i in range(rows):
            part = [x[i : i + 1] if np.ndim(x) and np.shape(x)[0] == rows else x for x in ins]
            got = eqn.prim.bind(*part, **eqn.params)
            got = got if eqn.prim.multiple_results else [got]
            for g, o in zip(got, outs):
                np.testing.assert_array_equal(np.asarray(g), np.asarray(o)[i : i + 1])
