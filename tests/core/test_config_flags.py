"""`core.config.config_with_absl` / `parse_flags_with_absl`: `--jax_*` command-line flags set
options as in JAX (absl is not installed here, so the `sys.argv` path is the one tested)."""

import pytest

import core
from core import config_flags


@pytest.fixture
def restore_config():
    saved = dict(core.config._values)
    yield
    for name, value in saved.items():
        if core.config._values[name] != value:
            core.config.update(name, value)


def test_flags_set_options(restore_config):
    applied = config_flags.parse_flags(
        core.config,
        [
            "--jax_enable_x64",
            "--jax_log_compiles=true",
            "--nojax_debug_nans",
            "--jax_jit_cache_max_entries=7",
            "--jax_default_matmul_precision=highest",
            "--jax_platforms=cpu",
            "--jax_xla_backend=x",  # not a numbax option: ignored, as absl's known_only does
            "--learning_rate=0.1",
            "positional",
        ],
    )
    assert applied == {
        "enable_x64": True,
        "log_compiles": True,
        "debug_nans": False,
        "jit_cache_max_entries": 7,
        "default_matmul_precision": "highest",
        "platforms": "cpu",
    }
    assert core.config.jax_enable_x64 and core.config.jit_cache_max_entries == 7
    assert core.numpy.ones(2).dtype == "float64"


def test_config_with_absl_reads_sys_argv(restore_config, monkeypatch):
    monkeypatch.setattr("sys.argv", ["prog", "--jax_debug_infs=1"])
    core.config.config_with_absl()
    assert core.config.debug_infs is True
    monkeypatch.setattr("sys.argv", ["prog", "--jax_debug_infs=false"])
    core.config.parse_flags_with_absl()
    assert core.config.debug_infs is False


def test_bad_values_name_the_flag(restore_config):
    with pytest.raises(ValueError, match="--jax_enable_x64='maybe'"):
        config_flags.parse_flags(core.config, ["--jax_enable_x64=maybe"])
    with pytest.raises(ValueError, match="default_matmul_precision"):
        config_flags.parse_flags(core.config, ["--jax_default_matmul_precision=fast"])


# Options of JAX 0.10.2 that programs set (Flax's RNG guide sets jax_threefry_partitionable):
# JAX's default values and the CPU platform are accepted, the others raise.
@pytest.mark.parametrize(
    "name,value",
    [
        ("jax_threefry_partitionable", True),
        ("jax_default_prng_impl", "threefry2x32"),
        ("jax_platforms", "cpu"),
        ("jax_platform_name", "cpu"),
        ("jax_numpy_rank_promotion", "allow"),
        ("jax_traceback_filtering", "off"),
        ("jax_compilation_cache_dir", "/tmp/jax_cache"),
        ("jax_persistent_cache_min_compile_time_secs", 0),
    ],
)
def test_jax_options_programs_set(restore_config, name, value):
    core.config.update(name, value)
    assert getattr(core.config, name) == value


# Options without effect here, with JAX 0.10.2's defaults (`jax.config.values`).
@pytest.mark.parametrize(
    "name,default,value",
    [
        ("jax_disable_most_optimizations", False, True),
        ("jax_enable_checks", False, True),
        ("jax_check_tracer_leaks", False, True),
        ("jax_persistent_cache_min_entry_size_bytes", 0, -1),
        ("jax_logging_level", "NOTSET", "DEBUG"),
        ("jax_use_shardy_partitioner", True, False),
        ("jax_cpu_collectives_implementation", "gloo", "mpi"),
    ],
)
def test_jax_options_without_effect(restore_config, name, default, value):
    assert getattr(core.config, name) == default
    core.config.update(name, value)
    assert getattr(core.config, name) == value
    assert float(core.jit(lambda x: x * 2.0)(1.5)) == 3.0


def test_jax_option_defaults():
    c = core.config
    assert c.jax_threefry_partitionable is True and c.jax_default_prng_impl == "threefry2x32"
    assert c.jax_platforms is None and c.jax_numpy_rank_promotion == "allow"
    assert c.jax_traceback_filtering == "auto" and c.jax_compilation_cache_dir is None


@pytest.mark.parametrize(
    "name,value,error",
    [
        ("jax_threefry_partitionable", False, NotImplementedError),
        ("jax_default_prng_impl", "bogus", ValueError),
        ("jax_platforms", "cuda", NotImplementedError),
        ("jax_numpy_rank_promotion", "bogus", ValueError),
        ("jax_traceback_filtering", "bogus", ValueError),
    ],
)
def test_jax_options_numbax_does_not_implement(restore_config, name, value, error):
    with pytest.raises(error):
        core.config.update(name, value)
