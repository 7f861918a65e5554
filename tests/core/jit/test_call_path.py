"""The cache-hit call path (core/jit/call_path.py): non-contiguous inputs on every path, and a
kernel's own TypeError reaching the caller after exactly one run."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit.api import compile_count


def test_transposed_and_strided_inputs_on_the_miss_guard_and_fast_paths():
    f = core.jit(lambda t: {k: v * 2 + 1 for k, v in t.items()})
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    contiguous = {"a": jnp.asarray(base.T.copy()), "b": np.arange(4, dtype=np.float32)}
    views = {"a": jnp.asarray(base).T, "b": np.arange(8, dtype=np.float32)[::2]}
    assert not views["a"]._value.flags.c_contiguous
    assert not views["b"].flags.c_contiguous
    for x in (views, contiguous, views, views):  # miss; then guard hits with views and copies
        got = f(x)
        for k, v in x.items():
            np.testing.assert_array_equal(got[k], np.asarray(v) * 2 + 1)
    before = compile_count()
    g = core.jit(lambda x, y: x @ y)  # two arguments: the fast cache keyed on avals
    y = jnp.ones((4, 2), jnp.float32)
    for x in (jnp.asarray(base), jnp.asarray(base.T).T, jnp.asarray(base)[:, :]):
        np.testing.assert_allclose(g(x, y[::1]), base @ np.ones((4, 2)), rtol=1e-6)
    assert compile_count() == before + 1  # views never compile again


@pytest.mark.parametrize("backend", ["numba", "python"])
def test_a_typeerror_of_the_kernel_propagates_after_one_run(backend):
    calls = []

    def callback(x):
        calls.append(x.flags.c_contiguous)
        raise TypeError("the callback's own TypeError")

    f = core.jit(
        lambda x: core.pure_callback(callback, core.ShapeDtypeStruct(x.shape, x.dtype), x) + 1,
        backend=backend,
    )
    x = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    for arg in (x, x, x.T, np.asarray(x)[:, ::2]):  # trace, guard, non-contiguous views
        n = len(calls)
        with pytest.raises(TypeError, match="the callback's own TypeError"):
            f(arg)
        assert len(calls) == n + 1  # the kernel ran once
    assert backend == "python" or all(calls)  # numba's kernels: on C-contiguous arrays
