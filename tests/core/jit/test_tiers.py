"""Tiered compiles (`config.jit_quick_first_call`, `core/jit/program.py`): a first call runs
quick-tier code (a cheap LLVM pipeline, `core/backends/llvm/target.py`), the compile workers
build its optimized twins after it, which then run in its place; a warm process loads the
optimized code from the disk cache, and a process that finds only quick code there (an earlier
one exited before its twins were built) loads that rather than compiling it again."""

import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from core.backends.llvm import shells, target

CHILD = """
import hashlib, json, sys
import numpy as np
from bench import compile as bc
import core
from core.backends.llvm import shells
from core.backends.numba.library import entry as library
from core.jit import program

def digest(out):
    leaves = [np.asarray(x) for x in core.tree_util.tree_leaves(out)]
    return hashlib.sha256(b"".join(x.tobytes() for x in leaves)).hexdigest(), leaves

def quick():
    return sum(map(shells.is_quick, list(shells._LOADED.values()))) + len(library._QUICK)

report = {}
for model in sys.argv[1].split(","):
    build, _ = bc.BUILDERS[model]
    step, state, args = build(bc.framework("numbax"))(4)
    first, a = digest(step(*state, *args))
    running = quick()
    assert program.wait_optimized(600)
    again, b = digest(step(*state, *args))
    close = all(np.allclose(x, y, rtol=1e-3, atol=1e-4) for x, y in zip(a, b))
    report[model] = dict(first=first, again=again, quick=running, left=quick(), close=close)
print(json.dumps(report))
"""
MODELS = "mlp,cnn,transformer"


def _run(cache, quick: bool) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(cache),
        NUMBA_CACHE_DIR=str(cache),
        NUMBAX_JIT_QUICK="1" if quick else "0",
        NUMBAX_JIT_WORKERS="1",
        NUMBAX_JIT_PROGRESS="0",
        PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, "-c", CHILD, MODELS]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, cwd=root)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_quick_first_call_then_optimized_then_warm(tmp_path):
    """The MLP, CNN and transformer train steps: the first call runs quick-tier code, which
    computes the optimized code's bits (`core/backends/llvm/settle.py`: before, the kernels'
    `contract`/`arcp` flags and reassociable reductions left FMA contraction and summation
    order to LLVM's O3 pipeline, and the quick tier rounded otherwise); once swapped in, the
    optimized code computes what a program compiled without the quick tier computes, bit for
    bit; a warm process on the disk cache runs optimized code from its first call."""
    cold = _run(tmp_path / "quick", True)
    plain = _run(tmp_path / "plain", False)
    warm = _run(tmp_path / "quick", True)
    for model, r in cold.items():
        assert r["quick"] > 0 and r["left"] == 0 and r["close"], (model, r)
        assert r["first"] == r["again"], model  # the quick tier's bits are the O3 code's
        assert r["again"] == plain[model]["first"] == plain[model]["again"], model
        assert plain[model]["quick"] == 0, model
        assert warm[model]["quick"] == 0, model
        assert warm[model]["first"] == warm[model]["again"] == r["again"], model


SOURCE = """
import numpy as np
from core.jit import runtime as rt
from core.backends.llvm import nests as ln
_ln0, = ln.load('k', {spec!r})

def kernel(sz, a0):
    n_0 = rt.ld(sz, 0)
    o1 = rt.empty((n_0,), np.float32)
    _ln0((o1, a0, n_0))
    return (o1, )
"""
NEST = "for i in range(n_0):\n    rt.st(o1, i, rt.ld(a0, i) * 3.0 + {k})"
PARAMS = (("o1", "a", "float32", True), ("a0", "a", "float32", False), ("n_0", "s", "int64", False))
TYPES = (("<i8", 1), ("<f4", 1))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    from core.jit import cache_files  # noqa: PLC0415

    monkeypatch.setattr(cache_files, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(shells, "_LOADED", {})
    return tmp_path


def test_a_quick_shell_is_not_cached_and_is_swapped_in_place(cache, monkeypatch):
    """A shell compiled in the quick tier leaves no optimized shell in the disk cache (its quick
    code under a name of its own, which the optimized shell's file then replaces); once the
    optimized shell is there (as a worker leaves it), `shells.optimized` makes the same builtin
    run it."""
    source = SOURCE.format(spec=((NEST.format(k=digest_int()), PARAMS, True, ()),))
    x = np.linspace(-1, 1, 9, dtype=np.float32)
    sizes = np.array([9], np.int64)
    with target.quick_tier(shared=True):
        fn = shells.entry(source, TYPES)
    assert shells.is_quick(fn) and not list(cache.glob("*.shell"))
    assert list(cache.glob("*.qshell"))  # under the quick tier's name, for a later process
    quick = fn(sizes, x)[0]
    assert not shells.optimized(source, TYPES)  # not in the disk cache yet
    monkeypatch.setattr(shells, "_LOADED", {})
    optimized = shells.entry(source, TYPES)  # compiled O3, into the disk cache
    assert not shells.is_quick(optimized) and list(cache.glob("*.shell"))
    assert not list(cache.glob("*.qshell"))  # the quick code, loaded no more, removed
    monkeypatch.setattr(shells, "_LOADED", {shells.nests.key_of(("shell", source, TYPES)): fn})
    assert shells.optimized(source, TYPES) and not shells.is_quick(fn)
    np.testing.assert_array_equal(fn(sizes, x)[0], quick)
    np.testing.assert_array_equal(fn(sizes, x)[0], optimized(sizes, x)[0])


def digest_int() -> int:
    """A constant of this test run (new kernels, whatever an earlier run left)."""
    return int(hashlib.sha256(os.urandom(8)).hexdigest()[:6], 16)


EXIT_CHILD = """
import sys, time
from bench import compile as bc
from core.backends.llvm import shells
from core.backends.numba.library import entry as library
from core.jit import program
build, _ = bc.BUILDERS["cnn"]
F = bc.framework("numbax")
step, state, args = build(F)(4)
F.jax.block_until_ready(step(*state, *args))  # its run has returned: the twins are handed out
pending = len(program._upgrades) and not program.wait_optimized(0)
compiled = shells._stats["compiled"] + library._stats["compiled"]
print(pending, compiled, time.time(), flush=True)
"""


def test_a_process_exiting_with_twins_to_build_ends_soon_and_leaves_whole_files(tmp_path):
    """A process that ends right after a first call, while the workers still build optimized
    twins, waits for the one each worker is compiling and no more, and leaves no temporary or
    damaged file in the disk cache; the quick-tier code it compiled itself is in the disk cache
    (under the quick tier's names), so a second such process compiles no shell or routine."""
    from core.jit import cache_files  # noqa: PLC0415

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path),
        NUMBAX_JIT_WORKERS="1",
        NUMBAX_JIT_PROGRESS="0",
        PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, "-c", EXIT_CHILD]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=root)
    ended = time.time()
    assert out.returncode == 0, out.stderr[-3000:]
    pending, compiled, printed = out.stdout.split()
    assert pending == "True" and int(compiled) > 0  # twins were still being built as it exited
    assert ended - float(printed) < 15
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=root)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stdout.split()[1] == "0"  # all loaded: quick code or twins the first one left
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert not [p for p in files if cache_files.is_temporary(p.name)]
    for p in files:
        if p.name.startswith("numbax_jit_") and p.suffix in (".shell", ".routine", ".qshell"):
            cache_files.read_verified(p)


_OPTIMIZED = """
import json
from core.backends.llvm import target
from core.backends.numba.library import entry as library
with target.quick_tier():
    for attr in ("skinny_columns__f4", "gemm_band__f4"):
        library.load(*library.signature_of(attr))
print(json.dumps([library.quick("skinny_columns__f4"), library.quick("gemm_band__f4")]))
"""


def test_a_library_function_registered_optimized_is_not_quick_code(tmp_path):
    """`skinny_columns` (registered `optimized=True`: its work is its own multiply-add loops,
    which quick code ran the LSTM's step 15x slower) compiles optimized in the quick tier too;
    another routine compiled there is quick code."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(os.environ, NUMBAX_CACHE_DIR=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-c", _OPTIMIZED]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=root)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == [False, True]
    assert list(tmp_path.rglob("*.routine"))  # the optimized code, in the disk cache


PMAP_CHILD = """
import json, sys
import numpy as np
import core
import core.numpy as jnp
from core import lax
from core.backends.llvm import shells
from core.backends.numba.library import entry as library
from core.jit import program
from core.parallel import shared_work
from train import jax_utils

how, kernels = sys.argv[1:]
core.config.update("num_cpu_devices", 2)
core.config.update("jit_kernels", kernels)
shared_work.MIN_BYTES = 0  # small shapes: the update still runs on one device for both

def quick():
    return sum(map(shells.is_quick, list(shells._LOADED.values()))) + len(library._QUICK)

def step(params, x):
    def loss(p):
        h = jnp.tanh(x @ p["w"] + p["b"])
        return jnp.mean((h @ p["v"]) ** 2)

    grads = core.grad(loss)(params)
    if how == "pmap":
        grads = lax.pmean(grads, "i")
    return {k: params[k] - 0.1 * grads[k] for k in params}

rng = np.random.default_rng(0)
params = {
    "w": rng.normal(size=(6, 5)).astype(np.float32),
    "b": np.zeros(5, np.float32),
    "v": rng.normal(size=(5, 3)).astype(np.float32),
}
x = rng.normal(size=(2, 4, 6)).astype(np.float32)
if how == "pmap":
    f = core.pmap(step, axis_name="i")
    params = jax_utils.replicate(params, core.local_devices()[:2])  # as Flax's replicate
else:
    f, x = core.jit(step), x[0]
params = core.block_until_ready(f(params, x))
running = quick()
waited = program.wait_optimized(600)
params = core.block_until_ready(f(params, x))
plans = [p for per in shared_work._PLANS.values() for p in per.values() if p is not None]
print(json.dumps(dict(running=running, waited=waited, left=quick(), shared=len(plans),
                     compiled=shells.stats()["compiled"])))
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="no compile worker on one core")
@pytest.mark.parametrize(
    ("how", "kernels", "shared"),
    [
        ("jit", "auto", False),  # one function
        ("pmap", "auto", False),  # one function per device
        ("pmap", "many", True),  # kernels, the update on one device (`shared_work`'s variants)
    ],
)
def test_pmap_programs_reach_the_optimized_code_and_leave_it_in_the_cache(
    tmp_path, how, kernels, shared
):
    """A program's first call runs quick-tier code (`NUMBAX_JIT_QUICK_MIN=0`) and its twins
    are built once that run has returned, with the default compile workers. A pmap's first run
    returns on a device thread that keeps to one CPU (`core.device_worker`), where the process's
    cores used to be read as that one CPU: no worker to build the twins, so its per-device
    programs ran quick code for good and left none of the optimized code to the next process,
    which compiled quick code again. Now they run optimized code after `wait_optimized`, as the
    jitted step does, and a second process loads it from the disk cache."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = dict(
        os.environ,
        NUMBAX_CACHE_DIR=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path),
        NUMBAX_JIT_QUICK="1",
        NUMBAX_JIT_QUICK_MIN="0",
        NUMBAX_JIT_PROGRESS="0",
        PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    )
    env.pop("NUMBAX_JIT_WORKERS", None)  # the default: the cores minus one
    env.pop("NUMBAX_NUM_CPU_DEVICES", None)

    def run() -> dict:
        cmd = [sys.executable, "-c", PMAP_CHILD, how, kernels]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=root)
        assert out.returncode == 0, out.stderr[-3000:]
        return json.loads(out.stdout.splitlines()[-1])

    cold, warm = run(), run()
    assert cold["running"] > 0 and cold["waited"] and cold["left"] == 0, cold
    assert bool(cold["shared"]) == bool(warm["shared"]) == shared
    assert warm["running"] == warm["left"] == warm["compiled"] == 0, warm
