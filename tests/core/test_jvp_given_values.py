"""jvp, linearize and custom_jvp give back a Python (or numpy) input that comes out untouched
by a primitive as it was given, and custom_jvp rules see the values as given, as JAX 0.10.2's
eager JVP does (its outputs recorded below: ``float`` where JAX gave a Python float, ``Array``
where it gave an array)."""

import numpy as np
import pytest

import core
import core.numpy as jnp


def _custom(rule_of_x):
    f = core.custom_jvp(lambda x: x)
    f.defjvp(rule_of_x)
    return f


area = core.custom_jvp(lambda w, h: w * h)
area.defjvps(lambda t, ans, w, h: t * h, lambda t, ans, w, h: w * t)
cube = core.custom_jvp(lambda x: x**3)
cube.defjvps(lambda t, ans, x: 3.0 * x**2 * t)
same = _custom(lambda p, t: (p[0], t[0]))
three = _custom(lambda p, t: (3.0, 0.0))
double = _custom(lambda p, t: (p[0] * 2, t[0] * 2))

# (call, the leaves' types as JAX 0.10.2 gave them, their values)
CASES = [
    (lambda: core.jvp(lambda x: x, (1.0,), (2.0,)), ["float", "float"], [1.0, 2.0]),
    (lambda: core.jvp(lambda x: x * 2, (1.0,), (1.0,)), ["Array", "Array"], [2.0, 2.0]),
    (lambda: core.jvp(lambda x: 3.0, (1.0,), (1.0,)), ["float", "Array"], [3.0, 0.0]),
    (
        lambda: core.jvp(lambda x, y: (x, y, x + y), (1.0, 2.0), (1.0, 0.5)),
        ["float", "float", "Array", "float", "float", "Array"],
        [1.0, 2.0, 3.0, 1.0, 0.5, 1.5],
    ),
    (
        lambda: core.jvp(lambda d: {"a": d["x"], "b": d["x"] * 1}, ({"x": 1.0},), ({"x": 1.0},)),
        ["float", "Array", "float", "Array"],
        [1.0, 1.0, 1.0, 1.0],
    ),
    (lambda: core.jvp(area, (3.0, 4.0), (1.0, 0.0)), ["float", "Array"], [12.0, 4.0]),
    (lambda: core.jvp(cube, (2.0,), (1.0,)), ["float", "float"], [8.0, 12.0]),
    (lambda: core.jvp(same, (3.0,), (1.0,)), ["float", "float"], [3.0, 1.0]),
    (lambda: core.jvp(three, (3.0,), (1.0,)), ["float", "float"], [3.0, 0.0]),
    (lambda: core.jvp(double, (3.0,), (1.0,)), ["float", "float"], [6.0, 2.0]),
    (lambda: core.jvp(core.jit(lambda x: x), (1.0,), (1.0,)), ["Array", "Array"], [1.0, 1.0]),
    (lambda: core.jvp(jnp.sin, (0.0,), (1.0,)), ["Array", "Array"], [0.0, 1.0]),
    (
        lambda: core.jvp(lambda x: core.jvp(lambda y: y, (x,), (1.0,))[0], (1.0,), (1.0,)),
        ["float", "float"],
        [1.0, 1.0],
    ),
    (
        lambda: core.jvp(lambda x: x, (np.float32(1.0),), (np.float32(1.0),)),
        ["float32"] * 2,
        [1, 1],
    ),
    (
        lambda: core.jvp(lambda x: x, (np.ones(2, np.float32),), (np.ones(2, np.float32),)),
        ["ndarray"] * 2,
        [[1, 1], [1, 1]],
    ),
    (lambda: core.linearize(lambda x: x, 1.0)[:1], ["float"], [1.0]),
    (
        lambda: core.jvp(lambda x: (x * 2, {"a": x}), (1.0,), (3.0,), has_aux=True),
        ["Array", "Array", "float"],
        [2.0, 6.0, 1.0],
    ),
    (lambda: core.grad(lambda x: x)(1.0), ["Array"], [1.0]),
]


@pytest.mark.parametrize(("call", "types", "values"), CASES)
def test_untouched_inputs_come_out_as_given(call, types, values):
    leaves = core.tree_util.tree_leaves(call())
    assert [type(x).__name__ for x in leaves] == types
    np.testing.assert_allclose([np.asarray(x) for x in leaves], [np.asarray(v) for v in values])


def test_an_untouched_int_input_comes_out_as_given():
    primal, tangent = core.jvp(lambda x: x, (1,), (np.zeros((), core.dtypes.float0),))
    assert type(primal) is int and primal == 1 and tangent.dtype == core.dtypes.float0
