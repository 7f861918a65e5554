"""`jax.experimental.compilation_cache.compilation_cache` as training scripts call it: the
directory is recorded in the config as JAX 0.10.2 records it (reset_cache keeps it), and
jitted code still runs and caches as before."""

import numpy as np

import core
from core.experimental.compilation_cache import compilation_cache as cc
from flaxport.port import port_source


def test_set_cache_dir_records_the_path_and_reset_keeps_it(tmp_path):
    before = core.config.jax_compilation_cache_dir
    try:
        cc.set_cache_dir(str(tmp_path))
        assert core.config.jax_compilation_cache_dir == str(tmp_path)
        cc.reset_cache()
        assert core.config.jax_compilation_cache_dir == str(tmp_path)
        np.testing.assert_array_equal(core.jit(lambda x: x * 2)(np.arange(3)), [0, 2, 4])
    finally:
        core.config.update("jax_compilation_cache_dir", before)


def test_the_usual_import_ports_and_resolves():
    line = "from jax.experimental.compilation_cache import compilation_cache as cc\n"
    ported, unknown = port_source(line)
    assert unknown == []
    namespace: dict = {}
    exec(ported, namespace)
    assert namespace["cc"] is cc
    assert core.experimental.compilation_cache.compilation_cache is cc
