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
            "--jax_platforms=cpu",  # not a numbax option: ignored, as absl's known_only does
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
