"""Global configuration, like `jax.config`.

`config.update(name, value)` sets a flag; `config.<name>` reads it. Flags that change what a traced
program means (x64, the numpy-dtype-promotion mode, the nan/inf checks) are part of every jit
cache key through `config.trace_context()`. Names may be given with or without JAX's `jax_`
prefix.

`debug_nans` / `debug_infs` make every eager primitive and every jitted call check its outputs
and raise `FloatingPointError("invalid value (nan) encountered in <primitive>")`, as in JAX. The
interpreters read one snapshot attribute, `config._check_floats`, so the checks cost nothing
when both flags are off; the checks themselves live above the IR (`core/debug_nans.py`).

This module is the bottom layer of the core: it imports nothing from `core` at module level.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from math import inf
from typing import Any

from core import config_flags


def _env_number(name: str, default: float, kind: type) -> Any:
    """The number in environment variable `name`, else `default`."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"environment variable {name}={text!r} is not a {kind.__name__}") from None


_DEFAULTS: dict[str, Any] = {
    "enable_x64": os.environ.get("NUMBAX_ENABLE_X64", "0") not in ("0", "", "false", "False"),
    "disable_jit": False,
    "log_compiles": False,
    "explain_cache_misses": False,
    "debug_nans": False,
    "debug_infs": False,
    "default_matmul_precision": None,
    "jit_backend": os.environ.get("NUMBAX_JIT_BACKEND", "numba"),
    "numpy_dtype_promotion": "standard",
    # The random bits of `core.random.gumbel` (and categorical, choice) when `mode` is None:
    # two draws per sample ("high") when set, one ("low") by default.
    "high_dynamic_range_gumbel": False,
    # Reliability limits (see the README's "Reliability" section).
    "jit_cache_max_entries": _env_number("NUMBAX_JIT_CACHE_MAX_ENTRIES", 64, int),
    "compilation_cache_max_size": _env_number("NUMBAX_CACHE_MAX_SIZE", 2 << 30, int),
    "compile_lock_timeout": _env_number("NUMBAX_COMPILE_LOCK_TIMEOUT", 300.0, float),
    # Seconds a device of a pmap waits at a collective for the others before every device
    # stops with `CollectiveTimeoutError` (core/parallel/communicator.py).
    "pmap_collective_timeout": _env_number("NUMBAX_PMAP_COLLECTIVE_TIMEOUT", 300.0, float),
    # pmap devices waiting at a collective run pieces of the other devices' parallel loops
    "pmap_devices_help": os.environ.get("NUMBAX_PMAP_DEVICES_HELP", "1")
    not in ("0", "false", "False"),
    # The number of local CPU devices (-1: $NUMBAX_NUM_CPU_DEVICES, else one per usable core);
    # read once, when the devices are first needed (`core/devices.py`), like JAX's
    # `jax_num_cpu_devices`.
    "num_cpu_devices": -1,
    # The threads of compiled code (-1: $NUMBAX_NUM_THREADS, else one per usable core); read
    # once, when the jit back end loads (`core/jit/threads.py`).
    "num_threads": -1,
    # The numba back end (core/jit/program.py): print a line for compiles over about a second;
    # split programs into kernels ("auto": programs of many kernels, "many", "one"); worker
    # processes compiling new kernels (-1: the number of cores minus one).
    "jit_progress": True,
    "jit_kernels": os.environ.get("NUMBAX_JIT_KERNELS", "auto"),
    "jit_compile_workers": _env_number("NUMBAX_JIT_WORKERS", -1, int),
    # Kernels with threaded loops (numba's parallel passes: 3-5x the compile of their serial
    # form) run their serial form first while compile workers build them (core/jit/program.py).
    "jit_defer_threaded": os.environ.get("NUMBAX_JIT_DEFER_THREADED", "1")
    not in ("0", "false", "False"),
    # Tiered compiles: with compile workers, what a first call compiles in this process (kernel
    # shells, library routines) is built by a cheap LLVM pipeline and replaced by its O3 twin,
    # which the workers build after the call (core/jit/program.py; NUMBAX_JIT_QUICK=0: O3 at
    # once); read when a program is compiled.
    "jit_quick_first_call": os.environ.get("NUMBAX_JIT_QUICK", "1") not in ("0", "false", "False"),
    # The estimated compile time (seconds) from which a program's new code compiles in the
    # quick tier (core/jit/program.py; 0: every program with new code, as tests comparing the
    # tiers' bits force it, NUMBAX_JIT_QUICK_MIN=0); read when a program is compiled.
    "jit_quick_min_seconds": _env_number("NUMBAX_JIT_QUICK_MIN", 1.0, float),
    # Serial loop nests of kernels written as LLVM IR by numbax (core/backends/llvm) rather
    # than by numba (NUMBAX_JIT_LEAN_LOOPS=0: all numba); read when a kernel is generated.
    "jit_lean_loops": os.environ.get("NUMBAX_JIT_LEAN_LOOPS", "1") not in ("0", "false", "False"),
    # Whole serial kernels compiled by numbax as LLVM and called from the driver without numba
    # (core/backends/llvm/shells.py; NUMBAX_JIT_LEAN_SHELLS=0: numba's kernels); read when a
    # program is compiled.
    "jit_lean_shells": os.environ.get("NUMBAX_JIT_LEAN_SHELLS", "1") not in ("0", "false", "False"),
    # Threaded loop nests of numbax's IR run on numbax's own thread pool
    # (core/backends/llvm/pool.py) rather than numba's oneTBB layer (NUMBAX_JIT_THREAD_POOL=0);
    # read when the pool starts. On: next to a busy process its two threads beat one, oneTBB's
    # do not (bench/README.md, "The worker's hand-back before its clock read").
    "jit_thread_pool": os.environ.get("NUMBAX_JIT_THREAD_POOL", "1") not in ("0", "false", "False"),
    # Move products out of compiled scans (core/jit/scan_motion.py); read when a program is
    # compiled.
    "jit_scan_motion": os.environ.get("NUMBAX_JIT_SCAN_MOTION", "1") not in ("0", "false", "False"),
    # Compile float sums that XLA:CPU adds with its own loops in its order (core/jit/sum_order.py,
    # NUMBAX_JIT_XLA_SUM_ORDER=0 turns it off); read when a program is compiled.
    "jit_xla_sum_order": os.environ.get("NUMBAX_JIT_XLA_SUM_ORDER", "1")
    not in ("0", "false", "False"),
    # A top-level jitted call of a large batch-separable program splits its batch over the
    # local devices, one thread each (core/jit/batch_split/; NUMBAX_JIT_BATCH_SPLIT=1); read
    # when a signature is first called.
    "jit_batch_split": os.environ.get("NUMBAX_JIT_BATCH_SPLIT", "0") not in ("0", "false", "False"),
    # Asynchronous dispatch (core/jit/dispatch.py): JAX's switch (False: every jitted call runs
    # inline, synchronously), and the estimated run time from which a call is worth the
    # hand-off to its device's thread (0: every call).
    "cpu_enable_async_dispatch": os.environ.get("NUMBAX_CPU_ENABLE_ASYNC_DISPATCH", "1")
    not in ("0", "false", "False"),
    "async_dispatch_min_us": _env_number("NUMBAX_ASYNC_DISPATCH_MIN_US", 1000.0, float),
    # JAX options programs set (JAX 0.10.2's defaults): the values numbax implements are
    # accepted (random bits are threefry's partitionable layout, the platform is the CPU;
    # numpy_rank_promotion's 'warn'/'raise' are checked by core/numpy/_util.promote_shapes);
    # traceback filtering and JAX's compilation cache settings have no effect here (numbax's
    # compile cache is $NUMBAX_CACHE_DIR's).
    "threefry_partitionable": True,
    "default_prng_impl": "threefry2x32",
    # Added to every seed `random.key` and `random.PRNGKey` take (JAX's jax_random_seed_offset).
    "random_seed_offset": 0,
    # A 64-bit dtype asked for while x64 is off: truncated with a warning ("warn"), or an
    # error ("error"); JAX's "allow" (64-bit arrays with x64 off) is not implemented.
    "explicit_x64_dtypes": "warn",
    "platforms": None,
    "platform_name": "",
    "numpy_rank_promotion": "allow",
    "traceback_filtering": "auto",
    "compilation_cache_dir": None,
    "persistent_cache_min_compile_time_secs": 1.0,
    # JAX's guards (core/config.py's context managers): tracing and executing raise
    # RuntimeError while `no_tracing` / `no_execution` is set; the transfer guards take JAX's
    # levels and guard nothing, since numbax's arrays already live in host memory; key reuse
    # checking is not implemented (True is refused).
    "no_tracing": False,
    "no_execution": False,
    "transfer_guard_host_to_device": "allow",
    "transfer_guard_device_to_device": "allow",
    "transfer_guard_device_to_host": "allow",
    "debug_key_reuse": False,
    # Raw `uint32` keys given to `core.random` functions: 'allow', 'warn' (a UserWarning) or
    # 'error' (ValueError), as JAX's jax_legacy_prng_key; with jax_enable_custom_prng,
    # `random.PRNGKey` returns a typed key, as `random.key` does.
    "legacy_prng_key": "allow",
    "enable_custom_prng": False,
    # JAX's bounds check of static integer indices: `x[i]` with an out-of-bounds Python int
    # raises IndexError (instead of clamping) when the mode is the default/promise_in_bounds.
    "check_static_indices": False,
}
# JAX 0.10.2 options about XLA's optimizations, its compilation cache, debugging checks, logging
# and multi-host plumbing that test suites and examples set (Flax's imagenet tests set
# jax_disable_most_optimizations): accepted with any value, at JAX's defaults, and without
# effect here (numbax's compiler has no optimization levels; its cache and checks are its own).
_NO_EFFECT: dict[str, Any] = {
    "disable_most_optimizations": False,
    "optimization_level": "UNKNOWN",
    "memory_fitting_level": "O2",
    "memory_fitting_effort": 0.0,
    "exec_time_optimization_effort": 0.0,
    "compiler_enable_remat_pass": True,
    "enable_compilation_cache": True,
    "compilation_cache_include_metadata_in_key": False,
    "compilation_cache_check_contents": False,
    "persistent_cache_min_entry_size_bytes": 0,
    "raise_persistent_cache_errors": False,
    "enable_checks": False,
    "check_tracer_leaks": False,
    "disable_bwd_checks": False,
    "include_full_tracebacks_in_locations": True,
    "traceback_in_locations_limit": 100,
    "tracer_error_num_traceback_frames": 5,
    "log_checkpoint_residuals": False,
    "logging_level": "NOTSET",
    "debug_log_modules": "",
    "dump_ir_to": "",
    "pprint_use_color": True,
    "use_shardy_partitioner": True,
    "sort_devices_by_process_index": True,
    "cpu_collectives_implementation": "gloo",
    "distributed_debug": False,
    "enable_preemption_service": True,
    # JAX 0.10.2 options with their own context managers (`jax.softmax_custom_jvp`, ...): softmax's
    # derivative and f16 reductions are computed the same either way here, and numbax has no
    # thread, garbage-collection or mesh-axis type checks, nor jax2tf.
    "softmax_custom_jvp": False,
    "allow_f16_reductions": True,
    "thread_guard": False,
    "array_garbage_collection_guard": None,
    "jax2tf_associative_scan_reductions": False,
    "auto_pcast": True,
    "remove_size_one_mesh_axis_from_type": False,
}
_DEFAULTS.update(_NO_EFFECT)
_PRNG_IMPLS = ("threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32", "philox4x32")
_TRACEBACK_FILTERING = ("off", "tracebackhide", "remove_frames", "quiet_remove_frames", "auto")
_TRANSFER_GUARD_LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
# Limits: name -> (type, smallest allowed value, what it means).
_LIMITS = {
    "jit_cache_max_entries": (int, 1, "compiled signatures kept per jitted function"),
    "compilation_cache_max_size": (int, -1, "bytes of disk cache (-1: no limit, 0: off)"),
    "compile_lock_timeout": ((int, float), 0, "seconds to wait for another compile"),
    "pmap_collective_timeout": ((int, float), 0, "seconds a pmap device waits at a collective"),
    "jit_compile_workers": (int, -1, "worker processes compiling kernels, -1: cores minus one"),
    "async_dispatch_min_us": ((int, float), 0, "estimated microseconds of an async call"),
}
# Flags that change the meaning of a traced program, hence part of every jit cache key.
_TRACE_FLAGS = (
    "enable_x64",
    "jit_backend",
    "numpy_dtype_promotion",
    "numpy_rank_promotion",
    "debug_nans",
    "debug_infs",
    "high_dynamic_range_gumbel",
    "default_prng_impl",
    "random_seed_offset",
    "explicit_x64_dtypes",
    "check_static_indices",
    "default_matmul_precision",  # without effect on CPU, but JAX retraces on it
)
_MATMUL_PRECISIONS = (
    *("default", "high", "highest", "bfloat16", "tensorfloat32", "float32"),
    *("ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY"),
    *("ANY_F8_ANY_F8_ANY_FAST_ACCUM", "F16_F16_F16", "F16_F16_F32", "BF16_BF16_BF16"),
    *("BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "BF16_BF16_F32_X9"),
    *("TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64"),
)


# The program's user contexts (`make_user_context`), whose values extend the trace context.
_USER_CONTEXTS: list[UserConfig] = []
_UNSET = object()

# Flags that may no longer change, with the error that says why (see `Config.freeze`).
_FROZEN: dict[str, str] = {}
# The values a frozen flag may still be set to (its value: a no-op, as JAX's validators allow).
_FROZEN_AT: dict[str, tuple] = {}


def _validate(key: str, value: Any) -> None:
    """Rejects values JAX rejects (and the modes numbax does not implement)."""
    if key in _LIMITS:
        kind, low, what = _LIMITS[key]
        if isinstance(value, bool) or not isinstance(value, kind) or value < low:
            number = "an integer" if kind is int else "a number"
            raise ValueError(f"{key} ({what}) must be {number} >= {low}, got {value!r}.")
    count_ok = type(value) is int and (value == -1 or value > 0)
    if key == "random_seed_offset" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"random_seed_offset must be an int, got {value!r}.")
    if key in ("num_cpu_devices", "num_threads") and not count_ok:
        raise ValueError(f"{key} must be a positive int or -1, got {value!r}.")
    if key in _FROZEN and value not in _FROZEN_AT.get(key, ()):
        raise RuntimeError(_FROZEN[key])
    if key == "numpy_dtype_promotion":
        if value not in ("standard", "strict"):
            raise ValueError(
                f"{value!r} is not a valid NumpyDtypePromotion\nuse 'standard' or 'strict'."
            )
    elif key == "threefry_partitionable" and value is not True:
        raise NotImplementedError(
            "jax_threefry_partitionable=False is not implemented: numbax's random bits are "
            "threefry2x32 in the partitionable layout (JAX 0.10's default)."
        )
    elif key == "default_prng_impl" and value not in _PRNG_IMPLS:
        raise ValueError(_enum_message(_PRNG_IMPLS, value))
    elif key in ("platforms", "platform_name") and value not in (None, ""):
        if "cpu" not in str(value).split(","):
            raise NotImplementedError(
                f"jax_{key}={value!r}: numbax computes on the CPU only; use 'cpu'."
            )
    elif key == "explicit_x64_dtypes" and value != "warn" and value != "error":
        if value != "allow":
            raise ValueError(_enum_message(("warn", "error", "allow"), value))
        raise NotImplementedError(
            "jax_explicit_x64_dtypes='allow' is not implemented: numbax has 64-bit arrays with "
            "x64 on only; use jax.enable_x64(), or 'warn'/'error'."
        )
    elif key == "numpy_rank_promotion" and value not in ("allow", "warn", "raise"):
        raise ValueError(_enum_message(("allow", "warn", "raise"), value))
    elif key == "traceback_filtering" and value not in _TRACEBACK_FILTERING:
        raise ValueError(_enum_message(_TRACEBACK_FILTERING, value))
    elif key.startswith("transfer_guard_") and value not in (None, *_TRANSFER_GUARD_LEVELS):
        raise ValueError(_enum_message(_TRANSFER_GUARD_LEVELS, value, none_ok=True))
    elif key == "debug_key_reuse" and value:
        raise NotImplementedError(
            "jax_debug_key_reuse=True is not implemented: numbax does not track the use of "
            "PRNG keys; split keys explicitly (random.split) for each use."
        )
    elif key == "legacy_prng_key" and value not in ("allow", "warn", "error"):
        raise ValueError(f"{value!r} is not a valid LegacyPrngKeyState")
    elif key == "jit_kernels" and value not in ("auto", "many", "one"):
        raise ValueError(f"jit_kernels must be 'auto', 'many' or 'one', got {value!r}.")
    elif key == "default_matmul_precision" and value not in (None, *_MATMUL_PRECISIONS):
        raise ValueError(
            _enum_message(_MATMUL_PRECISIONS, value, none_ok=True)
            + "\ndefault_matmul_precision takes one of these names, or None."
        )


def _enum_message(choices: tuple, value: Any, none_ok: bool = False) -> str:
    """JAX's message for a value outside an enum option's choices."""
    either = "None or in" if none_ok else "in"
    return f"new enum value must be {either} {list(choices)}, got {value} of type {type(value)}."


for _key in _LIMITS:  # values from the environment
    _validate(_key, _DEFAULTS[_key])


class Config:
    """The flag store. Read flags as attributes, change them with `update` or `override`."""

    def __init__(self) -> None:
        object.__setattr__(self, "_values", dict(_DEFAULTS))
        self._refresh()

    def _refresh(self) -> None:
        # Snapshots read on every jitted call: the trace context and whether jit is disabled.
        v = self._values
        ctx = tuple(v[k] for k in _TRACE_FLAGS)
        object.__setattr__(self, "_ctx", ctx + tuple(u.value for u in _USER_CONTEXTS))
        # `no_execution` sends jitted calls to the slow path, which refuses to run them.
        object.__setattr__(self, "_jit_enabled", not (v["disable_jit"] or v["no_execution"]))
        object.__setattr__(self, "_no_execution", v["no_execution"])
        object.__setattr__(self, "_check_floats", bool(v["debug_nans"] or v["debug_infs"]))
        object.__setattr__(self, "_strict_promotion", v["numpy_dtype_promotion"] == "strict")
        object.__setattr__(self, "_rank_promotion", v["numpy_rank_promotion"])
        # The estimated run time from which a jitted call is dispatched asynchronously
        # (`core/jit/dispatch.py`); never with JAX's switch off or under the nan/inf checks.
        asynchronous = v["cpu_enable_async_dispatch"] and not self._check_floats
        object.__setattr__(
            self, "_async_min_us", float(v["async_dispatch_min_us"]) if asynchronous else inf
        )

    @staticmethod
    def _canonical(name: str) -> str:
        key = name[4:] if name.startswith("jax_") else name
        if key not in _DEFAULTS:
            raise AttributeError(
                f"Unknown config option {name!r}. Known options: {', '.join(sorted(_DEFAULTS))}."
            )
        return key

    def __getattr__(self, name: str) -> Any:
        return self._values[self._canonical(name)]

    def __setattr__(self, name: str, value: Any) -> None:
        self.update(name, value)

    def update(self, name: str, value: Any) -> None:
        """Sets flag `name` (e.g. "enable_x64" or "jax_enable_x64") to `value`."""
        key = self._canonical(name)
        _validate(key, value)
        self._values[key] = value
        self._refresh()

    def read(self, name: str) -> Any:
        """Returns the value of flag `name`."""
        return self._values[self._canonical(name)]

    _read = read  # JAX's name (`jax.config._read("jax_enable_x64")`)

    @property
    def x64_enabled(self) -> bool:
        """Whether 64-bit types are on (`jax.config.x64_enabled`, `enable_x64` blocks too)."""
        return self._values["enable_x64"]

    @contextlib.contextmanager
    def override(self, name: str, value: Any) -> Iterator[None]:
        """Context manager that sets a flag for the duration of a block."""
        key = self._canonical(name)
        _validate(key, value)
        old = self._values[key]
        self._values[key] = value
        self._refresh()
        try:
            yield
        finally:
            self._values[key] = old
            self._refresh()

    def freeze(self, name: str, message: str, same: tuple = ()) -> None:
        """Makes later `update`s of flag `name` raise `RuntimeError(message)` (for flags read
        once, such as `num_cpu_devices` when the devices are created), except to its current
        value or one of `same` (the value it was read as), which change nothing, as in JAX."""
        key = self._canonical(name)
        _FROZEN[key] = message
        _FROZEN_AT[key] = (self._values[key], *same)

    def trace_context(self) -> tuple:
        """The flags that change what a traced program means (part of jit cache keys)."""
        return self._ctx

    def trace_context_names(self) -> tuple[str, ...]:
        """The names of `trace_context()`'s entries: the flags, then the user contexts
        (`user_context_<i>`), for the cache-miss explanation."""
        return _TRACE_FLAGS + tuple(f"user_context_{i}" for i in range(len(_USER_CONTEXTS)))

    def config_with_absl(self) -> None:
        """Makes `--jax_<name>=value` command-line flags set options (like JAX's): absl flags
        when absl is installed (applied by `absl.app.run`), else `sys.argv` read now
        (`core/config_flags.py`)."""
        if not config_flags.define_absl_flags(self):
            config_flags.parse_flags(self)

    def parse_flags_with_absl(self) -> None:
        """Applies the `--jax_<name>=value` flags of `sys.argv` now (like JAX's)."""
        config_flags.parse_flags(self)


config = Config()


# ---------------------------------------------------------------------------------------------
# User contexts: values of a program's own that jit cache keys include


class UserContext:
    """The block `with user_config(value):` sets `value` in (JAX's `UserContext`)."""

    __slots__ = ("_config", "_new_value", "_prev_value")

    def __init__(self, config: UserConfig, new_value: Any) -> None:
        self._config = config
        self._new_value = new_value

    def __enter__(self) -> None:
        self._prev_value = self._config._swap_local(self._new_value)

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self._config._swap_local(self._prev_value)


class UserConfig:
    """A value that `jit`'s caches key on (`make_user_context`): `value` is the innermost
    `with config(v):` value, else the global one. Like numbax's flags, a block's value is
    process-wide (JAX's is per thread)."""

    def __init__(self, default_value: Any) -> None:
        hash(default_value)  # part of cache keys: unhashable values fail here, as in JAX
        self._global = default_value
        self._local = _UNSET
        _USER_CONTEXTS.append(self)
        config._refresh()

    @property
    def value(self) -> Any:
        return self._global if self._local is _UNSET else self._local

    def get_global(self) -> Any:
        return self._global

    def set_global(self, new_value: Any) -> None:
        hash(new_value)
        self._global = new_value
        config._refresh()

    def _swap_local(self, new_value: Any) -> Any:
        hash(new_value)
        old, self._local = self._local, new_value
        config._refresh()
        return old

    def __call__(self, new_value: Any) -> UserContext:
        return UserContext(self, new_value)


def make_user_context(default_value: Any = None) -> UserConfig:
    """A `jit`-cache-sensitive context, like `jax.make_user_context`: a jitted function called
    under another value of it is traced and compiled again.

    Args:
      default_value: the global value (hashable).

    Returns:
      A `UserConfig`: `with ctx(value): ...` sets a value inside a block, `ctx.value` reads
      it, `ctx.set_global(value)` changes the global one.
    """
    return UserConfig(default_value)


def enable_x64(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager turning 64-bit types on (or off) inside a block, like `jax.enable_x64`."""
    return config.override("enable_x64", new_val)


def disable_jit(disable: bool = True) -> contextlib.AbstractContextManager:
    """Context manager that runs `jit`-decorated functions eagerly, op by op."""
    return config.override("disable_jit", disable)


def debug_nans(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager raising `FloatingPointError` on a nan output of any operation inside a
    block (eager primitives and jitted calls), like `jax.debug_nans`."""
    return config.override("debug_nans", new_val)


def debug_infs(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager raising `FloatingPointError` on an inf output of any operation inside a
    block, like `jax.debug_infs`."""
    return config.override("debug_infs", new_val)


def log_compiles(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager logging every compile inside a block, like `jax.log_compiles`."""
    return config.override("log_compiles", new_val)


def explain_cache_misses(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager explaining `jit` cache misses inside a block, like
    `jax.explain_cache_misses`."""
    return config.override("explain_cache_misses", new_val)


def numpy_rank_promotion(new_val: str) -> contextlib.AbstractContextManager:
    """Context manager for `jax.numpy_rank_promotion`: 'allow', 'warn' or 'raise' when a
    `jnp` function broadcasts operands of different ranks (scalars never count)."""
    return config.override("numpy_rank_promotion", new_val)


def threefry_partitionable(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager for `jax.threefry_partitionable` (True only, see `config`)."""
    return config.override("threefry_partitionable", new_val)


def default_prng_impl(new_val: str) -> contextlib.AbstractContextManager:
    """Context manager for `jax.default_prng_impl`: the implementation of `random.key(seed)`,
    `random.PRNGKey(seed)` and raw key data ('threefry2x32', 'threefry4x32', 'philox2x32',
    'philox4x32', 'rbg' or 'unsafe_rbg')."""
    return config.override("default_prng_impl", new_val)


def check_tracer_leaks(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager for `jax.check_tracer_leaks`: `core.checking_leaks` when True."""
    return config.override("check_tracer_leaks", new_val)


def enable_checks(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager for `jax.enable_checks`: accepted, without effect here."""
    return config.override("enable_checks", new_val)


def default_matmul_precision(precision: str | None) -> contextlib.AbstractContextManager:
    """Context manager setting the default matmul precision, like
    `jax.default_matmul_precision`. Accepted and validated but without effect: numbax's CPU
    matmuls always run at full float32 (or float64) precision."""
    return config.override("default_matmul_precision", precision)


def no_tracing(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager making any tracing (`jit`, `make_jaxpr`, control-flow bodies) raise
    `RuntimeError`, like `jax.no_tracing`: proves a block reuses compiled programs."""
    return config.override("no_tracing", new_val)


def no_execution(new_val: bool = True) -> contextlib.AbstractContextManager:
    """Context manager making any computation (eager operations and jitted calls) raise
    `RuntimeError`, like `jax.no_execution`; tracing still works."""
    return config.override("no_execution", new_val)


def debug_key_reuse(new_val: bool = True) -> contextlib.AbstractContextManager:
    """`jax.debug_key_reuse`: only False is accepted (key reuse checking is not implemented)."""
    return config.override("debug_key_reuse", new_val)


def _option_context(name: str, doc: str) -> Any:
    """The context manager `jax.<name>`: `with <name>(value):` sets the option in a block."""

    def context(new_val: Any) -> contextlib.AbstractContextManager:
        return config.override(name, new_val)

    context.__name__ = name
    context.__doc__ = doc
    return context


_GUARD_DOC = (
    "Context manager setting the {} transfer guard level, like `jax.{}`: 'allow', 'log', "
    "'disallow', 'log_explicit' or 'disallow_explicit'. numbax's arrays live in host memory, "
    "so there are no transfers to guard and every level lets the program run as 'allow'."
)
transfer_guard_host_to_device = _option_context(
    "transfer_guard_host_to_device",
    _GUARD_DOC.format("host-to-device", "transfer_guard_host_to_device"),
)
transfer_guard_device_to_device = _option_context(
    "transfer_guard_device_to_device",
    _GUARD_DOC.format("device-to-device", "transfer_guard_device_to_device"),
)
transfer_guard_device_to_host = _option_context(
    "transfer_guard_device_to_host",
    _GUARD_DOC.format("device-to-host", "transfer_guard_device_to_host"),
)
legacy_prng_key = _option_context(
    "legacy_prng_key",
    "Context manager for `jax.legacy_prng_key`: what `core.random` functions do with raw "
    "`uint32` keys ('allow', 'warn': a UserWarning, 'error': ValueError).",
)
enable_custom_prng = _option_context(
    "enable_custom_prng",
    "Context manager for `jax.enable_custom_prng`: `random.PRNGKey` returns typed keys when True.",
)
_NO_EFFECT_DOC = "Context manager for `jax.{}`: accepted, without effect here (see `config`)."
softmax_custom_jvp = _option_context(
    "softmax_custom_jvp", _NO_EFFECT_DOC.format("softmax_custom_jvp")
)
allow_f16_reductions = _option_context(
    "allow_f16_reductions", _NO_EFFECT_DOC.format("allow_f16_reductions")
)
thread_guard = _option_context("thread_guard", _NO_EFFECT_DOC.format("thread_guard"))
array_garbage_collection_guard = _option_context(
    "array_garbage_collection_guard", _NO_EFFECT_DOC.format("array_garbage_collection_guard")
)
jax2tf_associative_scan_reductions = _option_context(
    "jax2tf_associative_scan_reductions",
    _NO_EFFECT_DOC.format("jax2tf_associative_scan_reductions"),
)
auto_pcast = _option_context("auto_pcast", _NO_EFFECT_DOC.format("auto_pcast"))
remove_size_one_mesh_axis_from_type = _option_context(
    "remove_size_one_mesh_axis_from_type",
    _NO_EFFECT_DOC.format("remove_size_one_mesh_axis_from_type"),
)


@contextlib.contextmanager
def transfer_guard(new_val: str) -> Iterator[None]:
    """Context manager setting the level of every transfer guard, like `jax.transfer_guard`
    (see `transfer_guard_host_to_device`)."""
    with contextlib.ExitStack() as stack:
        for name in ("host_to_device", "device_to_device", "device_to_host"):
            stack.enter_context(config.override(f"transfer_guard_{name}", new_val))
        yield


def numpy_dtype_promotion(promotion: str) -> contextlib.AbstractContextManager:
    """Context manager for the implicit dtype promotion mode, like `jax.numpy_dtype_promotion`.
    "standard" is JAX's lattice (the default); under "strict" only weak types (Python scalars)
    promote, and two different dtypes raise `TypePromotionError`.

    Args:
      promotion: "standard" or "strict".

    Returns:
      A context manager setting the mode inside its block.
    """
    return config.override("numpy_dtype_promotion", promotion)
