"""An eager `lax.scan` (outside `jit`) runs its body compiled once its structure has run
`COMPILE_AFTER_STEPS` steps (core/prims/control_flow/eager_program.py), with the values the
interpreted steps give; the numpy back end and `disable_jit` keep interpreting."""

import numpy as np

import core
import core.numpy as jnp
from core import lax
from core.jit.api import compile_count
from core.prims.control_flow import eager_program


def _body(c, x):
    return c * 0.5 + jnp.sin(x), c.sum()


def _interpreted(init, xs):
    with core.disable_jit():
        return lax.scan(_body, init, xs)


def test_long_eager_scan_compiles_once_with_the_interpreted_values():
    xs = jnp.linspace(0.0, 1.0, eager_program.COMPILE_AFTER_STEPS * 16).reshape(-1, 16)
    init = jnp.zeros(16)
    before = compile_count()
    c, ys = lax.scan(_body, init, xs)
    assert compile_count() == before + 1
    c2, ys2 = lax.scan(_body, init, xs + 0)  # traced again: found by its structure
    assert compile_count() == before + 1
    want_c, want_ys = _interpreted(init, xs)
    np.testing.assert_allclose(c, want_c, rtol=1e-6)
    np.testing.assert_allclose(ys, want_ys, rtol=1e-6)
    np.testing.assert_array_equal(c, c2)
    assert c.dtype == want_c.dtype and ys.aval == want_ys.aval


def test_short_scans_compile_after_enough_steps():
    def body(c, x):
        return c + x * 2.0, c

    n = 10
    before = compile_count()
    c = jnp.float32(0)
    for _ in range(eager_program.COMPILE_AFTER_STEPS // n - 1):
        c, _ = lax.scan(body, c, jnp.ones(n))
    assert compile_count() == before  # still interpreted
    c, _ = lax.scan(body, c, jnp.ones(n))
    c, _ = lax.scan(body, c, jnp.ones(n))
    assert compile_count() == before + 1
    assert float(c) == 2.0 * n * (eager_program.COMPILE_AFTER_STEPS // n + 1)


def test_structure_key_tells_programs_apart():
    def jaxpr_of(f):
        return core.make_jaxpr(f)(jnp.ones(3)).jaxpr

    k = eager_program.structure_key
    assert k(jaxpr_of(lambda x: x * 2.0)) == k(jaxpr_of(lambda x: x * 2.0))
    assert k(jaxpr_of(lambda x: x * 2.0)) != k(jaxpr_of(lambda x: x * 3.0))
    assert k(jaxpr_of(lambda x: jnp.sin(x))) != k(jaxpr_of(lambda x: jnp.cos(x)))
