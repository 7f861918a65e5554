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


def test_a_bfloat16_scan_compiles_at_its_first_call_with_xlas_rounding():
    # XLA converts a bfloat16 sum converted to float32 right away unrounded; only the compiled
    # program does, so an eager 16-bit scan compiles at once (the interpreter rounds the sum).
    a = (jnp.arange(8, dtype=jnp.float32) * 0.37 + 0.11).astype(jnp.bfloat16)
    b = (jnp.arange(8, dtype=jnp.float32) * -0.23 + 1.7).astype(jnp.bfloat16)

    def body(c, _):
        s = c + b
        return s, s.astype(jnp.float32) * 3.0

    before = compile_count()
    c, ys = lax.scan(body, a, None, length=2)
    assert compile_count() == before + 1
    # printed by JAX 0.10.2 (eagerly; under jit the same)
    want_c = [3.515625, 3.421875, 3.34375, 3.21875, 3.15625, 3.0625, 2.96875, 2.890625]
    want_ys = [
        [5.43896484375, 5.84765625, 6.28125, 6.6796875, 7.125, 7.53515625, 7.9453125, 8.37890625],
        [10.546875, 10.265625, 10.0078125, 9.6796875, 9.46875, 9.19921875, 8.9296875, 8.66015625],
    ]
    assert c.dtype == jnp.bfloat16 and ys.dtype == jnp.float32
    np.testing.assert_array_equal(np.asarray(c, np.float32), want_c)
    np.testing.assert_array_equal(ys, want_ys)
