"""jit's in-memory caches are bounded per function (LRU) and released with the function."""

import gc
import sys
import weakref

import numpy as np
import pytest

import core.numpy as jnp
from core.config import config
from core.jit import api, disk_cache
from core.jit.api import jit


def _make():
    def f(x):
        return jnp.sin(x) * 3.0 + 0.25

    return f


def _kernels(fun) -> list:
    """Weak references to the compiled kernels of every cached signature of `fun`."""
    return [weakref.ref(e.exe.kernel) for e in api._trace_caches[fun].values()]


def test_at_most_max_entries_per_function_least_recently_used_evicted():
    f = _make()
    g = jit(f)
    with config.override("jit_cache_max_entries", 3):
        for n in (1, 2, 3):
            g(np.ones(n, np.float32))
        old = {n: r for n, r in zip((1, 2, 3), _kernels(f))}
        g(np.ones(1, np.float32))  # 1 is now the most recently used
        before = api.compile_count()
        g(np.ones(4, np.float32))  # evicts 2
        assert g._cache_size() == 3
        gc.collect()
        assert old[2]() is None and old[1]() is not None and old[3]() is not None
        np.testing.assert_allclose(g(np.ones(1, np.float32)), np.sin(1.0) * 3 + 0.25, rtol=1e-6)
        assert api.compile_count() == before + 1  # only 4 compiled; 1 was still cached
        g(np.ones(2, np.float32))
        assert api.compile_count() == before + 2  # 2 was evicted: compiled again


def test_everything_is_released_with_the_function():
    f = _make()
    g = jit(f)
    for n in (5, 6, 7):
        g(np.ones(n, np.float32))
    kernels = _kernels(f)
    # a kernel is a numba function (its module) or a shell (the builtin holding its LLVM code)
    infos = [i for e in api._trace_caches[f].values() for i in e.exe.kernels]
    modules = [disk_cache.module_name(i.source) for i in infos if not i.shell]
    shells = [weakref.ref(i.dispatcher.__self__.library) for i in infos if i.shell]
    assert all(m in sys.modules for m in modules) and len(modules) + len(shells) == len(infos)
    function = weakref.ref(f)
    del f, g, infos
    gc.collect()
    assert function() is None
    assert all(k() is None for k in kernels)
    assert not any(m in sys.modules for m in modules)
    assert all(s() is None for s in shells)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "8"])
def test_max_entries_is_validated(bad):
    with pytest.raises(ValueError, match="jit_cache_max_entries .* must be an integer >= 1"):
        config.update("jit_cache_max_entries", bad)
