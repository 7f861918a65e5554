"""A program as a sequence of compiled kernels, run by a generated Python driver.

`compile_program(split(jaxpr), name)` compiles the kernels of a program (`split` keeps small
programs whole, `core/jit/partition.py` cuts large ones): every distinct kernel once, keyed by its
source and argument types (the disk cache names a module by the hash of its source), so repeated
layers, and kernels another program compiled in this process or any earlier one, cost nothing
or a load from disk. New kernels are compiled by this process and, when there are several, by
worker processes at the same time (`core/jit/workers.py`): this process takes them from the
front of the list, the workers from the back, and it loads what they built from the disk cache.

The driver is straight-line Python: `r3_0, r3_1, = k3(p3_0, a0, x7)` per kernel, a `del` of
each intermediate after its last reader (`_with_frees`), then the outputs, where `p3_0` holds
the kernel's sizes (kernels are shape-generic,
`codegen.generate_generic`: a new batch size of a known model finds all its kernels compiled).
A program kept whole is one such kernel, called with its sizes bound (`functools.partial`), so
it too serves every batch size.
A numba call costs about 1 us plus 0.3 us per array, so a program of few kernels runs faster as
one function; `jit_kernels="auto"` splits programs with more than `SPLIT_MIN` kernels only (the
MNIST MLP train step stays one function, see the README).

A first call that compiles for more than about a second prints one line on stderr
("numbax: compiling step: 201 kernels, 115 distinct, 115 new ... 118.7 s"), unless
`config.jit_progress` is False; `config.log_compiles` logs every kernel with its compile time.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import sys
import time
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.backends.llvm import pool, shells, target
from core.backends.llvm import rewrite as lean_rewrite
from core.backends.numba.library import entry as library
from core.config import config
from core.devices import process_count
from core.ir import Jaxpr, Literal, Var
from core.jit import cache_files, codegen, disk_cache, fusion, host_loops, partition, workers
from core.jit.packing import unpack_exprs, unpacker
from core.parallel import communicator

logger = logging.getLogger("core.jit")

# Programs with at most this many kernels compile as one function (`jit_kernels="auto"`): numba
# spends about 0.1 s on any function, so the MNIST MLP (27 kernels) and CNN (40) train steps
# compile as fast as one function (CNN: 14.4 s of CPU against 16.4 s as kernels) and run
# without the driver's calls, while a ResNet-10 step (201 kernels, 115 distinct) takes 49 s of
# CPU as kernels against minutes as one function.
SPLIT_MIN = 40
# ... and at most this many equations in their kernels (the MLP step: 307, the CNN's: 166): a
# one-function program compiles every repeat of a kernel anew, and Flax's model.init of a
# small Transformer (28 kernels, 9 distinct, 961 equations of random bits and initializers)
# took 4.8 s of CPU as one function.
WHOLE_MAX_EQNS = 500


def _estimate(source: str) -> float:
    """About how many seconds numba takes for a kernel (a fixed cost, then about linear in
    its lines while it is small)."""
    return 0.1 + 0.005 * source.count("\n")


# About how many seconds numba takes for a library function (`core/backends/numba/library`).
_LIBRARY_SECONDS = 1.0

# (kernel source, argument types) -> numba dispatcher, while some program uses it.
_compiled: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
# `_twin_key(key)` -> the last threaded kernel's key with that serial form.
_twins: dict[tuple, tuple] = {}
_stats = {"kernels": 0, "compiled": 0, "loaded": 0, "shells": 0}
# The name, in a driver's namespace, of how many of its kernels `_upgrade` has replaced.
_UPGRADES = "_upgrades"


def stats() -> dict[str, int]:
    """Counters of this process: `kernels` (kernels of compiled programs, repeats included),
    `compiled` (distinct kernels numba compiled here), `loaded` (loaded from the disk cache)
    and `shells` (distinct kernels made shells, `core/backends/llvm/shells.py`).
    """
    return dict(_stats)


@dataclass
class KernelInfo:
    """One kernel of a program: its source, how it was obtained ("memory": compiled earlier in
    this process or earlier in this program; "disk"; "compiled"; "worker": compiled by a worker
    process and loaded), the seconds that took, the function that runs it (a numba dispatcher,
    or the builtin of a shell) and whether it runs as a shell (`core/backends/llvm/shells.py`)."""

    source: str
    status: str = "memory"
    seconds: float = 0.0
    dispatcher: Callable | None = None
    shell: bool = False


def split(jaxpr: Jaxpr) -> partition.Program:
    """The kernels of `jaxpr`: one kernel, the whole program, if `config.jit_kernels` is "one",
    if it is "auto" and the program has at most `SPLIT_MIN` kernels (not counting the ones of a
    pmap's exchange, `_exchange_only`) of `WHOLE_MAX_EQNS` equations in all and no loop
    (`_loop`), or if it has none."""
    mode = config.jit_kernels
    program = None if mode == "one" else partition.partition(jaxpr)
    if program is not None and mode == "auto":
        kernels = [k for k in program.kernels if not _exchange_only(k)]
        small = len(kernels) <= SPLIT_MIN and sum(len(k.eqns) for k in kernels) <= WHOLE_MAX_EQNS
        small = small and not any(map(_loop, program.kernels))
    else:
        small = program is not None and not program.kernels
    if program is None or small:
        inputs = [*jaxpr.constvars, *jaxpr.invars]
        return partition.Program(
            inputs, [Jaxpr([], inputs, jaxpr.eqns, jaxpr.outvars)], jaxpr.outvars
        )
    if process_count() == 1:  # over MPI a collective is a host call
        program = partition.merge_exchanges(program, communicator.SMALL)
    return program


def _loop(kernel: Jaxpr) -> bool:
    """Whether `kernel` is a scan, or a loop that runs from Python (`core/jit/host_loops.py`):
    as kernels, a scan is a shell of its own (`core/backends/llvm/shells.py`) that other
    programs share (Flax's sst2 eval step, two LSTM scans in 29 kernels: 4.9 s of CPU as one
    function, 1.7 s as kernels, most of them its train step's)."""
    return any(e.prim.name == "scan" for e in kernel.eqns) or host_loops.loop_of(kernel) is not None


def _exchange_only(kernel: Jaxpr) -> bool:
    """Whether `kernel` only exchanges values between pmap's devices: a collective's host call,
    or the concatenation that packs a pytree for one (`lax.psum` of the gradients). These
    compile to a few lines, so a pmapped train step stays one function when the same step
    under `jit` is one (the MNIST CNN: 42 kernels with them, 40 without; as one function its
    per-device program takes about 15% less CPU)."""
    cores = [e for e in kernel.eqns if fusion.classify(e) not in partition.LIGHT]
    return bool(cores) and all(e.prim.collective or e.prim.name == "concatenate" for e in cores)


def source(program: partition.Program) -> str:
    """The source of every distinct kernel of `program`, as `compile_program` compiles them."""
    whole = _whole(program)
    parts = []
    for kj in program.kernels:
        loop = host_loops.loop_of(kj)
        if loop is None:
            parts.append(_build(kj, whole)[0])
        else:  # a host loop: its cond's and body's kernels
            parts += [source(split(j)) for j in host_loops.bodies(loop)]
    return "\n".join(dict.fromkeys(parts))


def _whole(program: partition.Program) -> bool:
    """Whether `program` is one function (`split` kept it whole)."""
    (kj, *rest) = program.kernels
    return not rest and kj.invars == program.inputs and kj.outvars == program.outputs


def _build(
    kj: Jaxpr, whole: bool, parallel: bool = True, generated: Callable | None = None
) -> tuple[str, tuple, list]:
    """The source of the shape-generic kernel `kj`, its argument types and the arrays it takes
    before its inputs (sizes and constants); `whole` if it is the whole program (its small
    array outputs are packed too, `core.jit.packing.output_layout`). `generated(source, types)` is
    called with the generated source before its loop nests are rewritten (`codegen.lean`)."""
    src, extra = codegen.generate_generic(kj, parallel, pack_arrays=whole)
    types = tuple(codegen.in_types(kj, extra))
    if generated is not None:
        generated(src, types)
    return codegen.lean(src, types), types, extra


def compile_program(program: partition.Program, name: str) -> Callable[..., list[np.ndarray]]:
    """Compiles the kernels of `program` and returns its driver.

    Args:
      program: a partitioned program (`split`).
      name: the program's name in messages.

    Returns:
      `f(*consts, *args) -> list of numpy arrays` like `codegen.compile_jaxpr`, with `kernel`
      (the one function, or the driver returning a tuple of the outputs), `source` (of that
      function, or of every distinct kernel), `layout`, `kernels` (`KernelInfo`s), `extra`
      (per kernel, the arrays of sizes and constants it takes before its inputs), `program`,
      `driver` (the generated function, unlocked, or the one function's call) and `unpack`
      (the driver's results to the list of outputs); a program
      of several kernels has `variant(skip, missing, around)`, the program without the kernels
      `skip` and some kernels called through wrappers (`_variant`).
    """
    pool.prepare()  # before any kernel links: the pool's state in its cell
    hosts = {k for k, kj in enumerate(program.kernels) if host_loops.loop_of(kj)}
    whole = _whole(program) and not hosts
    built = _build_all(program, whole, hosts)
    keys = [(src, types) for src, types, _ in built]
    infos, twins = _compile_hosts(program, keys, name, whole, hosts)
    if whole:  # the one function, its sizes and constants bound
        extra = built[0][2]
        driver = functools.partial(infos[0].dispatcher, *extra) if extra else infos[0].dispatcher
        layout, source = unpack_exprs(program.kernels[0]), keys[0][0]
    else:
        dispatchers = [info.dispatcher for info in infos]
        driver = _driver(program, dispatchers, [extra for _, _, extra in built], hosts)
        source = "\n".join(dict.fromkeys(keys[k][0] for k in range(len(keys)) if k not in hosts))
        layout = (len(program.outputs), [f"r{i}" for i in range(len(program.outputs))])
    if twins:  # built once the first call has run (`_after_first_run`)
        start = functools.partial(_upgrade, twins, keys, None if whole else driver.__globals__)
        driver = _after_first_run(driver, start, None if whole else f"k{len(keys) - 1}")
    unpack = unpacker(*layout)

    dtypes = [v.aval.dtype for v in program.inputs]

    def call(*args):
        return unpack(driver(*codegen.kernel_args(args, dtypes)))

    call.kernel = driver
    call.source = source
    call.layout = layout
    call.kernels = infos
    call.extra = [extra for _, _, extra in built]
    call.program, call.driver = program, driver  # `core/parallel/shared_work.py` reads them
    call.compile_jaxpr = compile_jaxpr  # and compiles its kernels with it
    call.unpack = unpack  # host loops call `unpack(driver(...))` on arguments as kernels take them
    if not whole:
        call.variant = functools.partial(_variant, program, driver, unpack, dtypes)
    return call


def compile_jaxpr(jaxpr: Jaxpr, name: str) -> Callable[..., list[np.ndarray]]:
    """Compiles `jaxpr` (no constvars) as a program of one kernel (`compile_program`'s
    driver); `core/parallel/shared_work.py` reaches it through a driver's `compile_jaxpr`, since
    `core.parallel` loads no numba at `import core`.

    Args:
      jaxpr: the kernel's equations, its inputs and outputs.
      name: the program's name in messages.

    Returns:
      The driver, as `compile_program` returns it.
    """
    return compile_program(partition.Program(jaxpr.invars, [jaxpr], list(jaxpr.outvars)), name)


def _after_first_run(driver: Callable, start: Callable[[], None], last: str | None) -> Callable:
    """`driver`, calling `start()` (`_upgrade`: compile workers build the optimized twins of the
    quick-tier code it runs) once its first run has returned, so that those compiles do not
    compete with that run for the cores (the transformer's quick step took 120-160 ms of wall
    time on one core's worth of CPU while a worker compiled, 90 ms on two cores without).

    `last`: the slot of the last kernel a program of kernels runs, which then holds a function
    calling the kernel and, the first time, putting it back in the slot and calling `start()`:
    the driver stays the same function, at no cost after its first run (a variant made before,
    `_variant`, copies the function and calls it). A program kept whole (`last` None) gets a
    wrapper instead."""
    pending = [start]

    def once() -> None:
        try:
            begin = pending.pop()
        except IndexError:  # another thread's run took it
            return
        begin()

    if last is None:

        def first(*args):
            try:
                return driver(*args)
            finally:
                if pending:
                    once()

        return first
    namespace = driver.__globals__
    kernel = namespace[last]

    def then(*args):
        try:
            return kernel(*args)
        finally:
            if pending:
                if namespace[last] is then:
                    namespace[last] = kernel
                once()

    namespace[last] = then
    return driver


def _build_all(
    program: partition.Program, whole: bool, hosts: set[int] = frozenset()
) -> list[tuple[str, tuple, list]]:
    """`_build` of every kernel of `program`, in order (a placeholder key for the host loops
    `hosts`, which no kernel shares: `_compile_hosts`). The compile workers start (`workers.start`,
    without waiting) as soon as two distinct kernels are new (`_is_new`), or, for a program
    kept whole, once its function is new and calls library functions this process has not
    loaded (`_new_with_library`, before its loop nests are rewritten): a worker takes about a
    second to start, which then overlaps the rest of the builds (the transformer's 179 kernels:
    about a second of generating and rewriting sources; the MNIST MLP's one function: 0.3 s)
    instead of the compile."""
    size = config.jit_compile_workers
    size = workers.default_workers() if size == -1 else size

    def generated(src: str, types: tuple) -> None:
        if size and _new_with_library(src, types):
            workers.start(size)

    if whole:
        return [_build(program.kernels[0], whole, generated=generated)]
    built, new = [], set()
    for k, kj in enumerate(program.kernels):
        if k in hosts:
            built.append((f"# host loop {k}", (), []))
            continue
        built.append(_build(kj, whole))
        key = built[-1][:2]
        if size and len(new) < 2 and key not in new and _is_new(key):
            new.add(key)
            if len(new) == 2:
                workers.start(size)
    return built


def _new_with_library(source: str, types: tuple) -> bool:
    """Whether generated kernel `source` is new to the disk cache (its loop nests' rewrite is
    not there, `lean_rewrite.cached`) and calls library functions this process has not loaded
    (then `_compile_all` has several items, and compile workers take some)."""
    if not config.jit_lean_loops or lean_rewrite.cached(source, types):
        return False
    return any(not library.loaded(attr) for attr in library.required(source))


def _is_new(key: tuple) -> bool:
    """Whether kernel `key` is neither held by this process nor in the disk cache (as a shell
    or as numba's kernel), as far as a quick look tells."""
    held = _held(key)
    if held in _compiled or disk_cache.is_cached(held[0], "kernel"):
        return False
    return not (_shellable(held) and shells.cached(*held))


def _variant(
    program: partition.Program,
    driver: Callable,
    unpack: Callable,
    dtypes: list,
    skip: set[int],
    missing: object,
    around: dict[int, Callable] | None = None,
) -> Callable[..., list]:
    """The program run by `driver` with the kernels `skip` not run: each result of one is
    `missing` (`core/parallel/shared_work.py` gives some kernels to one pmap device), and
    kernel `k` of `around` called as `around[k](kernel, *args)`. The driver's code runs in a
    copy of its namespace; a call after a threaded kernel built in the background replaced its
    serial form in the original (`_upgrade`) first takes the other kernels from there."""
    base = driver.__globals__
    namespace = dict(base)
    for k in skip:
        results = (missing,) * unpack_exprs(program.kernels[k], False)[0]
        namespace[f"k{k}"] = lambda *args, results=results: results or None
    around = {k: wrap for k, wrap in (around or {}).items() if k not in skip}
    for k, wrap in around.items():
        namespace[f"k{k}"] = functools.partial(_around, wrap, base, f"k{k}")
    slots = [f"k{k}" for k in range(len(program.kernels)) if k not in skip and k not in around]
    run = types.FunctionType(driver.__code__, namespace, driver.__name__)
    seen = [-1]  # the count of `_upgrade`s of the driver's kernels taken so far

    def call(*args):
        upgrades = base.get(_UPGRADES, 0)
        if upgrades != seen[0]:
            for s in slots:
                namespace[s] = base[s]
            seen[0] = upgrades
        return unpack(run(*codegen.kernel_args(args, dtypes)))

    return call


def _around(wrap: Callable, base: dict, slot: str, *args: object) -> object:
    """`wrap(kernel, *args)` with the driver's current kernel of `slot` (`_variant`)."""
    return wrap(base[slot], *args)


def _compile_hosts(
    program: partition.Program, keys: list[tuple], name: str, whole: bool, hosts: set[int]
) -> tuple[list[KernelInfo], list]:
    """`_compile_all` of the kernels of `program` but the host loops `hosts`
    (`core/jit/host_loops.py`), whose cond and body programs compile here; the infos of all."""
    if not hosts:
        return _compile_all(program, keys, name, whole)
    rest = [k for k in range(len(keys)) if k not in hosts]
    infos, twins = [], []
    if rest:
        kernels = [program.kernels[k] for k in rest]
        part = partition.Program(program.inputs, kernels, program.outputs)
        infos, twins = _compile_all(part, [keys[k] for k in rest], name, whole)
    compiled = dict(zip(rest, infos))
    for k in sorted(hosts):
        start = time.perf_counter()
        loop = host_loops.kernel(
            program.kernels[k], lambda j, what: compile_program(split(j), what), name
        )
        compiled[k] = KernelInfo(keys[k][0], "compiled", time.perf_counter() - start, loop)
    return [compiled[k] for k in range(len(keys))], twins


def _compile_all(
    program: partition.Program, keys: list[tuple], name: str, whole: bool
) -> tuple[list[KernelInfo], dict]:
    """Compiles or loads every kernel of `program` that this process does not hold yet.

    A kernel's key is its source and argument types (a source that reads its arguments as flat
    arrays may serve arrays of several ranks; a shape-generic one, any sizes). With compile
    workers, a new kernel of a split program with threaded loops is compiled in its serial
    form (`_serial`; numba's parallel passes cost 3-5x the compile of that form) and returned
    among the deferred ones, `{key: (kernel jaxpr, whole)}`, that the workers are to compile
    next (`_upgrade`)."""
    start = time.perf_counter()
    first = {}  # distinct keys in program order -> (kernel jaxpr, whole)
    for key, kj in zip(keys, program.kernels):
        first.setdefault(key, (kj, whole))
    held = {key: _held(key) for key in first}
    infos = {key: KernelInfo(held[key][0], dispatcher=_compiled.get(held[key])) for key in first}
    for info in infos.values():
        info.shell = shells.is_shell(info.dispatcher)
    new = [key for key in first if infos[key].dispatcher is None]
    # Serial kernels run as shells where they can (`_shell`): those whose shell, or the note
    # that they stay numba's, is in the disk cache are settled now; the others compile with the
    # kernels below (in this process, before its numba kernels).
    settled = {key for key in new if not _shellable(key) or shells.cached(*key)}
    shelled = [key for key in new if key in settled and _shell(key, infos[key])]
    new = [key for key in new if key not in shelled]
    build = [
        key for key in new if key not in settled or not disk_cache.is_cached(held[key][0], "kernel")
    ]
    size = config.jit_compile_workers
    size = workers.default_workers() if size == -1 else size
    if build:  # this process compiles: its next programs likely miss the disk cache too, and
        workers.start(size)  # a worker takes 0.5-0.7 s to start (`workers.py`)
    threaded = [key for key in build if "prange(" in key[0]]
    defer = {}
    if not whole and threaded and config.jit_defer_threaded and workers.start(size):
        defer = {key: _serial(key) for key in threaded}
    for key, serial in defer.items():  # a serial form compiled earlier serves it now
        infos[key].dispatcher = _compiled.get(serial)
        found = infos[key].dispatcher is None and _shellable(serial) and shells.cached(*serial)
        if found and _shell(serial, infos[key]):
            shelled.append(key)
    build = [key for key in build if infos[key].dispatcher is None]
    build.sort(key=lambda key: not _shellable(defer.get(key, key)))  # shells first, here
    libs = _libraries(build)
    _stats["kernels"] += len(keys)
    guess = sum(_estimate(key[0]) for key in build) + _LIBRARY_SECONDS * len(libs)
    announce = config.jit_progress and guess > 1.0
    if announce:
        print(
            f"numbax: compiling {name}: {_plural(len(keys), 'kernel')}, "
            f"{len(first)} distinct, {len(build)} new ...",
            end="",
            file=sys.stderr,
            flush=True,
        )
    # Kernels call library functions through slots (`library.entry`): they compile before the
    # functions they call, which load once everything is built. This process takes items from
    # the front (the kernels), the workers from the back (the library functions), so the
    # largest kernel and the library compile at once from the start (the MNIST CNN's one
    # function and its seven convolution and pooling functions; the MLP's and `gemm_bands`).
    items = [*build, *map(_Library, libs)]
    pool = size if len(items) > 1 else 0
    if pool:
        workers.start(pool)  # they start up while this process loads cached kernels
    # With compile workers to build their optimized twins, the kernels and library functions
    # this process compiles are of the quick tier (`config.jit_quick_first_call`), left in the
    # disk cache under its names as the workers' are (`target.quick_tier`'s `shared`): a process
    # that exits before the twins are built leaves the next one quick code to load.
    # Only programs whose new kernels and library functions take about
    # `config.jit_quick_min_seconds` to compile (`_estimate`, a second): smaller ones gain little.
    quick = guess >= config.jit_quick_min_seconds and config.jit_quick_first_call
    tier = bool(quick and workers.start(size))
    # Kernels are compiled and loaded with the library functions they call deferred, then
    # those are loaded (from the disk cache, where workers left them) before anything runs.
    with library.deferred_loading():
        for key in new:
            if key not in build and infos[key].dispatcher is None:
                _load(held[key], first[key], infos[key], "disk")
        cache = str(disk_cache.cache_dir())

        def request(item) -> tuple:
            if isinstance(item, _Library):
                return item.request(cache, tier)
            src, types = key = defer.get(item, item)
            return (src, list(types), cache, _shellable(key), tier)

        def compile_here(item) -> None:
            with target.quick_tier(tier, shared=True):
                if isinstance(item, _Library):
                    library.load(*library.signature_of(item.attr))
                elif not _shell(defer.get(item, item), infos[item]):
                    _load(defer.get(item, item), first[item], infos[item], "compiled")

        by_worker = workers.compile_in_parallel(
            items,
            request,
            compile_here,
            pool,
            lambda item: item.after() if isinstance(item, _Library) else (),
        )
        for key, seconds in by_worker.items():
            if isinstance(key, _Library):  # library functions load below
                continue
            with target.quick_tier(tier, shared=True):  # what the workers compiled in it
                if not _shell(defer.get(key, key), infos[key], "worker"):
                    _load(defer.get(key, key), first[key], infos[key], "worker")
            infos[key].seconds += seconds
    with target.quick_tier(tier, shared=True):
        for key in first:
            for attr in library.required(key[0]):
                library.require(attr)
    twins = [_Threaded(key, first[key]) for key in defer]
    if tier:  # what runs quick-tier code now, the slowest first
        shelled = {defer.get(key, key) for key in first if shells.is_quick(infos[key].dispatcher)}
        twins += sorted(map(_Shell, shelled), key=lambda t: -_estimate(t.key[0]))
        twins += [_Library(attr) for attr in _required(first) if library.quick(attr)]
    seconds = time.perf_counter() - start
    if announce:
        print(f" {seconds:.1f} s", file=sys.stderr, flush=True)
    if config.log_compiles:
        for k, (key, info) in enumerate(infos.items()):
            logger.warning(
                "kernel %d of %s (%s, %d lines): %s%s, %.3f s",
                k,
                name,
                disk_cache.module_name(info.source),
                info.source.count("\n"),
                info.status,
                " (shell)" if info.shell else _why_numba(key),
                info.seconds,
            )
    return [infos[key] for key in keys], twins


# Threads loading the optimized twins that compile workers built after a program's first call.
_upgrades: list = []


def _upgrade(twins: list, keys: list[tuple], namespace: dict | None) -> None:
    """Has the compile workers build `twins` (`_Threaded`, `_Shell`, `_Library`), the
    optimized forms of what a program's first call runs for now, and swaps each in once it is
    loaded: a threaded kernel in the slots of the driver of `namespace` (calling kernel k as
    `k<k>`), a shell and a library function in place (`shells.optimized`, `library.upgrade`).
    A driver that is running goes on with either; a twin a worker fails to build leaves what
    runs as it is."""
    cache = str(disk_cache.cache_dir())
    size = config.jit_compile_workers
    size = workers.default_workers() if size == -1 else size
    done = lambda twin: twin.swap(keys, namespace)  # noqa: E731
    request = lambda twin: twin.request(cache)  # noqa: E731
    _upgrades.extend(workers.compile_in_background(twins, request, done, size))


def wait_optimized(timeout: float | None = None) -> bool:
    """Waits until the optimized code that compile workers build after programs' first calls
    runs in their programs (the threaded kernels, `config.jit_defer_threaded`, and the twins of
    quick-tier code, `config.jit_quick_first_call`); benchmarks of steady states call it. The
    workers get a program's twins once its first run has returned (`_after_first_run`): block
    on a first call's results before waiting.

    Args:
      timeout: at most this many seconds in all (None: no limit).

    Returns:
      Whether everything is in use.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    while _upgrades:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        _upgrades[0].join(left)
        if _upgrades[0].is_alive():
            return False
        _upgrades.pop(0)
    return True


wait_threaded = wait_optimized  # its name when threaded kernels were all it waited for


@dataclass(frozen=True)
class _Threaded:
    """A threaded kernel (its key, and its jaxpr and whether it is the whole program) whose
    serial form runs for now."""

    key: tuple
    kernel: tuple

    def request(self, cache: str) -> tuple:
        return (self.key[0], list(self.key[1]), cache, False)

    def swap(self, keys: list[tuple], namespace: dict) -> None:
        info = KernelInfo(self.key[0])
        _load(self.key, self.kernel, info, "worker")
        for k, key in enumerate(keys):
            if key == self.key:
                namespace[f"k{k}"] = info.dispatcher
        namespace[_UPGRADES] = namespace.get(_UPGRADES, 0) + 1  # after the kernels (`_variant`)


@dataclass(frozen=True)
class _Shell:
    """A shell (its key) whose builtin runs quick-tier code for now."""

    key: tuple

    def request(self, cache: str) -> tuple:
        return (self.key[0], list(self.key[1]), cache, True)

    def swap(self, keys: list[tuple], namespace: dict | None) -> None:
        shells.optimized(*self.key)


@dataclass(frozen=True)
class _Library:
    """A library function to compile (or load) before the kernels that call it: its call name
    (`<name>__<codes>`, `core/backends/numba/library`)."""

    attr: str

    def request(self, cache: str, quick: bool = False) -> tuple:
        """The compile worker's request for it (`core/jit/workers.py`), in the quick tier if
        `quick`."""
        return (None, self.attr, cache, False, quick)

    def after(self) -> list[_Library]:
        """The library functions it calls through their slots, compiled before it."""
        return [_Library(a) for a in library.callees(self.attr)]

    def swap(self, keys: list[tuple], namespace: dict | None) -> None:
        """Its optimized code in its slot, once a worker built it."""
        library.upgrade(self.attr)


def _required(kernels) -> list[str]:
    """The library functions that the sources of `kernels` call, with those they call in
    turn."""
    found: dict[str, None] = {}

    def visit(attr: str) -> None:
        if attr not in found:
            found[attr] = None
            for callee in library.callees(attr):
                visit(callee)

    for key in kernels:
        for attr in library.required(key[0]):
            visit(attr)
    return list(found)


def _libraries(kernels: list[tuple]) -> list[str]:
    """The library functions that the sources of `kernels` call, with those they call in turn,
    that this process has not loaded: callees before callers."""
    found: dict[str, None] = {}

    def visit(attr: str) -> None:
        if attr not in found and not library.loaded(attr):
            for callee in library.callees(attr):
                visit(callee)
            found[attr] = None

    for key in kernels:
        for attr in library.required(key[0]):
            visit(attr)
    return list(found)


def _generated(key: tuple) -> str:
    """The source kernel `key` was generated as (a kernel whose threaded loops are lean nests
    names no `prange`: it is known by that source)."""
    return codegen.lean_original(key[0]) or key[0]


def _serial(key: tuple, made: bool = False) -> tuple | None:
    """The key of the kernel `key` with every loop on one thread (its nests lean ones where
    `codegen.lean` makes them so). `made`: None instead where that form's rewrite is made
    neither in this process nor in the disk cache (`codegen.lean_made`): no kernel of that form
    was then compiled with this cache, which `_held` learns without the rewrite (a cold first
    call of the LSTM's step: 0.1 s of the main process's CPU for its six threaded kernels)."""
    generated = _generated(key)
    if "prange(" not in generated:
        return key
    serial = generated.replace("prange(", "range(")
    if made and not codegen.lean_made(serial, key[1]):
        return None
    return codegen.lean(serial, key[1]), key[1]


def _twin_key(key: tuple) -> tuple:
    """The generated source of kernel `key`'s serial form and its types: what a threaded kernel
    and its serial form share (`_twins`), known without rewriting the serial form."""
    return _generated(key).replace("prange(", "range("), key[1]


def _held(key: tuple) -> tuple:
    """The key of a kernel that serves `key` and that this process holds or the disk cache
    has: `key`, or a twin that differs only in which loops run threaded (loops run threaded
    from a size on, `core.jit.loops.PARALLEL_SIZE`: another batch size may cross it); `key`
    if there is none. The disk cache finds a threaded twin through the note `_note_twin`
    leaves under the name of its serial form."""
    serial = _serial(key, made=True)
    for held in (key, serial, _twins.get(_twin_key(key))):
        if held is not None and held in _compiled:
            return held
    if disk_cache.is_cached(key[0], "kernel"):
        return key
    if serial != key:
        return serial if serial is not None and disk_cache.is_cached(serial[0], "kernel") else key
    try:
        threaded = (cache_files.read_verified(_twin_note(serial[0])).decode(), key[1])
    except (OSError, ValueError):  # no note, or a damaged one
        return key
    ok = _serial(threaded) == key and disk_cache.is_cached(threaded[0], "kernel")
    return threaded if ok else key


def _twin_note(serial_source: str) -> Path:
    """Where the disk cache notes the threaded kernel whose serial form is `serial_source`: a
    file named like that form's module, so the cache's size limit and `clear` treat it as one
    of its files."""
    return disk_cache.cache_dir() / f"{disk_cache.module_name(serial_source)}.twin"


def _note_twin(key: tuple) -> None:
    """Notes on disk that threaded kernel `key` serves its serial form (see `_held`): written
    atomically and verified, never required (a missing or damaged note means no twin)."""
    path = _twin_note(_serial(key)[0])
    if not path.exists():
        with contextlib.suppress(OSError):
            cache_files.write_verified(path, key[0].encode())


def _why_numba(key: tuple) -> str:
    """The compile log's note on why kernel `key` runs as numba's kernel, not as a shell
    (`shells.why_not`): " (numba: <the construct the shell translator does not lower>)"."""
    if not config.jit_lean_shells:
        return " (numba: lean shells are off)"
    serial = _serial(key, made=True) or key
    why = shells.why_not(*serial) if _shellable(serial) else "a threaded loop left to numba"
    nest = lean_rewrite.why_not(serial[0])
    nest = f"; its first nest left to numba, {nest}" if nest else ""
    return f" (numba: {why or 'not tried'}{nest})"


def _shellable(key: tuple) -> bool:
    """Whether kernel `key` may run as a shell (serial, `config.jit_lean_shells`)."""
    return config.jit_lean_shells and "prange(" not in key[0]


def _shell(key: tuple, info: KernelInfo, found: str = "disk") -> bool:
    """Whether kernel `key` runs as a shell (`core/backends/llvm/shells.py`): its builtin
    function in `_compiled` and `info`, whose status is `found` if the shell came from the
    disk cache ("worker": a compile worker built it). The library functions it calls are only
    registered here; the program's compile loads them."""
    if not _shellable(key):
        return False
    start = time.perf_counter()
    status = "memory"
    if key not in _compiled:
        before = shells.stats()["compiled"]
        with library.deferred_loading():
            fn = shells.entry(*key)
        if fn is None:
            return False
        _compiled[key] = fn
        _stats["shells"] += 1
        status = "compiled" if shells.stats()["compiled"] > before else found
        if "prange(" in _generated(key):  # lean threaded loops: it serves its serial form too
            _twins[_twin_key(key)] = key
    info.dispatcher, info.status, info.shell = _compiled[key], status, True
    info.seconds = time.perf_counter() - start
    return True


def _load(key: tuple, kernel: tuple[Jaxpr, bool], info: KernelInfo, status: str) -> None:
    """Compiles (or loads from the disk cache) kernel `key` of `kernel` (its jaxpr, and whether
    it is the whole program) into `_compiled`."""
    src, types = key
    start = time.perf_counter()
    try:
        disp = codegen.compile_source(src, types)
    except Exception:
        if "prange(" not in src:
            raise
        disp = codegen.compile_source(_build(*kernel, parallel=False)[0], types)
    if status in ("compiled", "worker") and disp.stats.cache_hits:
        status = "worker" if status == "worker" else "disk"
    elif status in ("disk", "worker") and not disp.stats.cache_hits:
        status = "compiled"  # the cache entry was unusable
    _stats["compiled" if status == "compiled" else "loaded"] += 1
    _compiled[key] = info.dispatcher = disp
    if "prange(" in key[0]:
        _twins[_twin_key(key)] = key
        _note_twin(key)
    info.status, info.seconds = status, time.perf_counter() - start


def _driver(
    program: partition.Program,
    kernels: list[Callable],
    extra: list[list[np.ndarray]],
    hosts: set[int] = frozenset(),
) -> Callable[..., tuple]:
    """The generated Python function that runs `program`'s kernels in order (see the module
    docstring); kernel k also takes the arrays `extra[k]` (its sizes and constants) first. The
    host loops `hosts` return their outputs unpacked (`host_loops.kernel`)."""
    namespace: dict = {}
    names: dict[Var, str] = {}
    whole = _whole(program)
    params = [f"a{i}" for i in range(len(program.inputs))]
    names.update(zip(program.inputs, params))
    lines = []
    for k, (kj, fn, arrays) in enumerate(zip(program.kernels, kernels, extra)):
        namespace[f"k{k}"] = fn
        if k in hosts:
            n, exprs = len(kj.outvars), [f"r{i}" for i in range(len(kj.outvars))]
        else:
            n, exprs = unpack_exprs(kj, whole)
        results = "".join(f"r{k}_{i}, " for i in range(n))
        args = []
        for j, array in enumerate(arrays):
            namespace[f"p{k}_{j}"] = array
            args.append(f"p{k}_{j}")
        args += [names[v] for v in kj.invars]
        call = f"k{k}({', '.join(args)})"
        lines.append(f"{results}= {call}" if n else call)
        for v, expr in zip(kj.outvars, exprs, strict=True):
            names[v] = re.sub(r"\br(\d+)", rf"r{k}_\1", expr)
            if "[" in expr:  # a row of a packed buffer: take the view once
                alias = f"x{k}_{len(lines)}"
                lines.append(f"{alias} = {names[v]}")
                names[v] = alias
    outs = []
    for j, v in enumerate(program.outputs):
        if isinstance(v, Literal):
            namespace[f"c{j}"] = np.asarray(v.val, v.aval.dtype)
            outs.append(f"c{j}.copy()")
        elif v in program.inputs:  # an output never aliases a caller's array
            outs.append(f"{names[v]}.copy()")
        else:
            outs.append(names[v])
    results = "".join(o + ", " for o in outs)
    body = "".join(f"    {line}\n" for line in _with_frees(lines, results))
    exec(f"def run({', '.join(params)}):\n{body}    return ({results})\n", namespace)
    return namespace["run"]


def _with_frees(lines: list[str], results: str) -> list[str]:
    """`lines` with a `del` after the last line that reads each intermediate (`r<k>_<i>`, or an
    `x<k>_<n>` row of a packed buffer) that `results` (the program's outputs) does not name.

    The driver's locals would otherwise keep every intermediate of the program alive until it
    returns: a train step's activations, gradients and temporaries (the transformer's: about
    90 MB) would all be distinct memory, each kernel writing its output to memory no cache
    holds. Freed at once, a result's memory is what the allocator hands the next kernels, still
    in the caches."""
    names = re.compile(r"\b[rx]\d+_\d+\b")
    kept = set(names.findall(results))
    last: dict[str, int] = {}
    for n, line in enumerate(lines):
        for name in names.findall(line):
            last[name] = n
    dead: dict[int, list[str]] = {}
    for name, n in last.items():
        if name not in kept:
            dead.setdefault(n, []).append(name)
    out = []
    for n, line in enumerate(lines):
        out.append(line)
        if n in dead:
            out.append(f"del {', '.join(dead[n])}")
    return out


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
