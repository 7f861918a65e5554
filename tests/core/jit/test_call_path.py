"""The cache-hit call path (core/jit/call_path.py): every numbax Array's buffer is C-contiguous
and of its aval's dtype, so Arrays pass unchecked; non-contiguous numpy inputs are converted on
every path; a kernel's own TypeError reaches the caller after exactly one run; key arrays pass
the generated guards as their data."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import random
from core.array import Array
from core.jit.api import compile_count, trace_count

BASE = np.arange(24, dtype=np.float32).reshape(4, 6)
# Non-contiguous numpy layouts: transposed, strided, reversed, Fortran order, a 0-d view.
VIEWS = {
    "transposed": BASE.T,
    "strided": BASE[:, ::2],
    "reversed": BASE[::-1],
    "fortran": np.asfortranarray(BASE),
    "zero_d": BASE[1, 2, ...],
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_arrays_made_from_views_hold_c_contiguous_buffers(name):
    view = VIEWS[name]
    for arr in (jnp.asarray(view), Array(view), core.device_put(view)):
        assert arr._value.flags.c_contiguous and arr._value.dtype == arr.aval.dtype
        assert arr.shape == view.shape
        np.testing.assert_array_equal(arr, view)


def test_eager_and_jitted_results_are_c_contiguous():
    x = jnp.asarray(BASE)
    fns = [lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1], lambda a: (a.T, a[1:, 2])]
    for fn in fns:
        for out in (fn(x), core.jit(fn)(x)):
            for leaf in core.tree_util.tree_leaves(out):
                assert leaf._value.flags.c_contiguous


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_numpy_views_on_the_miss_guard_and_fast_paths(name):
    view = VIEWS[name]
    want = np.asarray(view) * 2 + 1
    f = core.jit(lambda t: {k: v * 2 + 1 for k, v in t.items()})  # one argument: guards
    g = core.jit(lambda x, y: x * 2 + y)  # two arguments: the fast cache keyed on avals
    before = compile_count(), trace_count()
    # miss, then the guard/fast cache with the view, a contiguous copy and Arrays of the view
    for x in (view, np.array(view, order="C"), view, jnp.asarray(view), view):
        np.testing.assert_array_equal(f({"a": x})["a"], want)
        np.testing.assert_array_equal(g(x, 1.0), want)
    # one trace and one compile each: views are converted, never a new signature
    assert (compile_count(), trace_count()) == (before[0] + 2, before[1] + 2)


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
    # trace, guard, a transposed Array, numpy views (strided, Fortran order)
    for arg in (x, x, x.T, np.asarray(x)[:, ::2], np.asfortranarray(np.asarray(x))):
        n = len(calls)
        with pytest.raises(TypeError, match="the callback's own TypeError"):
            f(arg)
        assert len(calls) == n + 1  # the kernel ran once
    assert backend == "python" or all(calls)  # numba's kernels: on C-contiguous arrays


def test_jit_calls_with_key_arguments_take_the_guard():
    # the generated guard checks a key leaf (its impl, then its data's interned aval), so the
    # next call of a signature neither flattens nor traces (a key argument cost 5.6 us, 1.8 now)
    f = core.jit(lambda k, x: random.normal(k, (2,)) + x)
    k, x = random.key(3), jnp.ones(2)
    first = f(k, x)
    assert len(f._guards) == 1
    guard = f._guards[0][0]
    other = random.key(4)
    assert guard((other, x))[0] is other._base._value  # the kernel's input: the key's data
    assert guard((random.key(4, impl="rbg"), x)) is None  # another key dtype: no match
    assert guard((random.PRNGKey(4), x)) is None  # raw uint32 keys: another signature
    np.testing.assert_allclose(f(other, x), random.normal(other, (2,)) + x, rtol=1e-6)
    np.testing.assert_array_equal(f(k, x), first)
    assert f._cache_size() == 1
