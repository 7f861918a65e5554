"""The numba lowering rules (`core/backends/numba/registry.py`) against the primitives' facts."""

from core.backends.numba.registry import Scalar, lowering_rules


def test_scalar_lowerings_are_of_elementwise_primitives():
    # A `Scalar` rule is one element's expression in a loop over the output (`core.jit.fusion`),
    # which is what `Primitive.elementwise` promises the batch split.
    wrong = sorted(
        p.name
        for p, rule in lowering_rules().items()
        if isinstance(rule, Scalar) and not p.elementwise
    )
    assert not wrong, f"Scalar lowerings of primitives not marked elementwise: {wrong}"
