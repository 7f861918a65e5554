"""Asynchronous dispatch (core/jit/dispatch.py, core/pending.py): a jitted call returns pending
arrays at once, every read waits, errors surface where the value is read, naming the call.

Most tests set `async_dispatch_min_us` to 0 (every call asynchronous) and hold the default
device's worker with a gate task, so the outputs are certainly still pending when read.
"""

import contextlib
import pickle
import threading
import time

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit import dispatch
from core.jit.errors import JitExecutionError
from core.pending import PendingArray, Task


@pytest.fixture
def every_call_async():
    with core.config.override("async_dispatch_min_us", 0):
        yield
    dispatch.wait_all()


@contextlib.contextmanager
def held(device=None, release_after: float | None = None):
    """Keeps `device`'s worker (default: the default device's) busy until the block ends, or
    until `release_after` seconds have passed, measured by another thread."""
    gate = threading.Event()
    (device or core.local_devices()[0]).worker.submit(gate.wait, 30)
    timer = None
    if release_after is not None:
        timer = threading.Timer(release_after, gate.set)
        timer.start()
    try:
        yield gate
    finally:
        gate.set()
        if timer is not None:
            timer.cancel()


def _mlp(x, w):
    return jnp.tanh(x @ w) @ w.T


@pytest.mark.parametrize("backend", ["numba", "python"])
def test_results_equal_the_synchronous_ones(every_call_async, backend):
    f = core.jit(_mlp, backend=backend)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 5)).astype(np.float32)
    w = rng.standard_normal((5, 5)).astype(np.float32)
    want = np.tanh(x @ w) @ w.T
    with core.config.override("jax_cpu_enable_async_dispatch", False):
        sync = f(x, w)
    assert type(sync) is core.array.Array
    with held():
        y = f(x, w)
        assert type(y) is PendingArray and not y.is_ready()
        assert y.shape == (8, 5) and y.dtype == np.float32 and y.ndim == 2  # no wait
        assert y.size == 40 and y.nbytes == 160
    np.testing.assert_array_equal(np.asarray(y), np.asarray(sync))
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5, atol=1e-6)
    assert y.is_ready() and type(y) is core.array.Array  # finished: a plain Array again


def test_every_read_waits(every_call_async):
    f = core.jit(lambda x: x * 2.0 + 1.0)
    x = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    want = np.arange(6.0, dtype=np.float32).reshape(2, 3) * 2 + 1
    reads = {
        "asarray": lambda y: np.asarray(y),
        "repr": repr,
        "str": str,
        "format": lambda y: f"{y[0, 0]:.1f}",
        "float": lambda y: float(y[1, 2]),
        "int": lambda y: int(y[0, 1]),
        "bool": lambda y: bool(y[0, 0]),
        "item": lambda y: y[1, 1].item(),
        "tolist": lambda y: y.tolist(),
        "index": lambda y: np.asarray(y[1]),
        "eager op": lambda y: np.asarray(jnp.sum(y)),
        "numpy op": lambda y: np.add(y, 0),
        "device_get": core.device_get,
        "pickle": lambda y: np.asarray(pickle.loads(pickle.dumps(y))),
    }
    expected = {
        "asarray": want,
        "repr": repr(jnp.asarray(want)),
        "str": str(want),
        "format": "1.0",
        "float": 11.0,
        "int": 3,
        "bool": True,
        "item": 9.0,
        "tolist": want.tolist(),
        "index": want[1],
        "eager op": want.sum(),
        "numpy op": want,
        "device_get": want,
        "pickle": want,
    }
    for name, read in reads.items():
        with held(release_after=0.05):
            y = f(x)
            assert type(y) is PendingArray, name
            got = read(y)  # waits for the gate, then the kernel
        np.testing.assert_equal(got, expected[name], err_msg=name)


def test_printing_waits(every_call_async, capsys):
    f = core.jit(lambda x: jnp.cos(x))
    x = jnp.zeros(3)
    with held(release_after=0.2):
        start = time.perf_counter()
        print(f(x))
        waited = time.perf_counter() - start
    assert capsys.readouterr().out == "[1. 1. 1.]\n" and waited >= 0.15


def test_block_until_ready_on_pytrees(every_call_async):
    f = core.jit(lambda x: {"a": x + 1, "b": (x * 2, x.sum())})
    x = jnp.arange(3.0)
    core.block_until_ready(f(x))  # compiled first: a slow compile must not outlast the hold
    with held(release_after=0.05):
        tree = f(x)
        leaves = core.tree_util.tree_leaves(tree)
        assert all(type(a) is PendingArray for a in leaves)
        out = core.block_until_ready({"out": tree, "other": 3, "np": np.ones(2)})
    assert out["out"] is tree and all(a.is_ready() for a in leaves)
    np.testing.assert_array_equal(tree["b"][0], [0.0, 2.0, 4.0])
    assert float(tree["b"][1]) == 3.0
    y = f(x)["a"]
    assert y.block_until_ready() is y and y.is_ready()


def test_dependent_calls_run_in_program_order(every_call_async):
    f = core.jit(lambda x, k: x * 1.5 + k)
    seen = []
    log = core.jit(lambda x, i: (core.debug.callback(lambda i: seen.append(int(i)), i), x)[1])
    x, want = jnp.ones(4), np.ones(4, np.float32)
    # compiled first: a call that misses the cache still waits for a pending input's value
    log(f(x, 0.0), 0).block_until_ready()
    seen.clear()
    with held():
        for k in range(10):  # chained on the held device's queue: no call waits
            x = log(f(x, float(k)), k)
            want = want * np.float32(1.5) + np.float32(k)
        assert seen == [] and type(x) is PendingArray
    np.testing.assert_allclose(np.asarray(x), want, rtol=1e-6)
    assert seen == list(range(10))


def test_a_cheap_call_on_a_pending_input_is_queued_not_waited_for(every_call_async):
    step = core.jit(lambda x: jnp.sin(x) + 1.0)
    add = core.jit(lambda a, b: a + b)
    total = add(jnp.zeros(3), jnp.ones(3)).block_until_ready()
    step(jnp.zeros(3)).block_until_ready()
    with held():
        y = step(jnp.zeros(3))
        with core.config.override("async_dispatch_min_us", 1e9):  # alone, `add` runs inline
            assert type(add(total, total)) is core.array.Array
            total = add(total, y)  # behind its pending input, on the device's queue
        assert type(total) is PendingArray
    np.testing.assert_allclose(np.asarray(total), 2.0)


def test_errors_surface_at_the_wait_point_and_name_the_call(every_call_async):
    def fail(x):
        raise ValueError("bad batch")

    @core.jit
    def train_step(x):
        return core.pure_callback(fail, core.ShapeDtypeStruct(x.shape, x.dtype), x) + 1

    with held(release_after=0.05):
        y = train_step(jnp.ones(2))  # returns: the error is not known yet
    with pytest.raises(ValueError, match="'train_step'.*ValueError: bad batch") as info:
        np.asarray(y)
    assert isinstance(info.value, JitExecutionError)
    original = info.value.__cause__
    assert type(original) is ValueError and str(original) == "bad batch"
    for read in (lambda: y.block_until_ready(), lambda: float(y[0]), lambda: repr(y)):
        with pytest.raises(JitExecutionError) as again:
            read()
        assert again.value.__cause__ is original  # the same error, every read
    with pytest.raises(ValueError, match="'train_step'"):
        core.block_until_ready({"y": y})


def test_a_failed_call_does_not_poison_later_calls(every_call_async):
    def fail(x):
        raise KeyError("nope")

    bad = core.jit(lambda x: core.pure_callback(fail, core.ShapeDtypeStruct(x.shape, x.dtype), x))
    good = core.jit(lambda x: x * 3.0)
    y = bad(jnp.ones(2))
    z = good(jnp.ones(2))  # an unrelated call after it, on the same queue
    np.testing.assert_array_equal(np.asarray(z), [3.0, 3.0])
    # a call on the failed output raises the first call's error (at the call, or at the read
    # when it was queued before the failure was known)
    with pytest.raises(KeyError, match="'<lambda>'.*KeyError") as info:
        np.asarray(good(y))
    assert type(info.value.__cause__) is KeyError
    np.testing.assert_array_equal(np.asarray(good(z)), [9.0, 9.0])


def test_config_flag_forces_synchronous_execution(every_call_async):
    f = core.jit(lambda x: x + 1)
    f(jnp.ones(2)).block_until_ready()
    with core.config.override("jax_cpu_enable_async_dispatch", False), held(release_after=5.0):
        start = time.perf_counter()
        y = f(jnp.ones(2))  # inline: does not queue behind the held worker
        assert type(y) is core.array.Array and time.perf_counter() - start < 2.0
    assert core.config.jax_cpu_enable_async_dispatch


def test_debug_nans_runs_inline(every_call_async):
    f = core.jit(lambda x: jnp.log(x))
    with core.debug_nans(True), pytest.raises(FloatingPointError):
        f(-jnp.ones(2))  # raised by the call itself, as with dispatch off


def test_cheap_calls_run_inline_expensive_ones_asynchronously():
    cheap = core.jit(lambda x: x + 1)
    dear = core.jit(lambda a: jnp.tanh(a @ a) @ a)
    x, a = jnp.ones(3), jnp.ones((512, 512)) / 512
    cheap(x), dear(a).block_until_ready()
    with held(release_after=5.0):
        assert type(cheap(x)) is core.array.Array  # 1.5-8 us of call: no hand-off
        y = dear(a)
        assert type(y) is PendingArray
        assert dispatch.in_flight()
    an = np.ones((512, 512), np.float32) / 512
    np.testing.assert_allclose(np.asarray(y), np.tanh(an @ an) @ an, rtol=1e-5)


def test_cost_estimate_counts_flops_bytes_and_loops():
    def jaxpr_of(f, *args):
        return core.make_jaxpr(f)(*args).jaxpr

    a = jnp.ones((512, 512))
    matmul = dispatch.estimate_us(jaxpr_of(lambda a: a @ a, a))
    # 2 * 512^3 FLOPs at 0.0075 ns, 1 MiB written at 0.01 ns/byte
    assert matmul == pytest.approx((0.0075 * 2 * 512**3 + 0.01 * 512 * 512 * 4) / 1e3)
    small = dispatch.estimate_us(jaxpr_of(lambda x: x + 1, jnp.ones(3)))
    assert small < 0.1 < core.config.async_dispatch_min_us < matmul

    def scanned(x):
        return core.lax.scan(lambda c, _: (c @ a, None), x, None, length=10)[0]

    assert dispatch.estimate_us(jaxpr_of(scanned, a)) == pytest.approx(10 * matmul, rel=0.01)
    looped = jaxpr_of(lambda x, n: core.lax.fori_loop(0, n, lambda i, c: c + 1, x), a, 3)
    assert dispatch.estimate_us(looped) == float("inf")  # unknown trip count: asynchronous


def test_numpy_inputs_are_copied_at_the_call(every_call_async):
    f = core.jit(lambda x: x * 2)
    buf = np.arange(4, dtype=np.float32)
    f(buf).block_until_ready()
    with held(release_after=0.05):
        y = f(buf)
        buf[:] = -1  # the caller reuses its buffer before the kernel ran
    np.testing.assert_array_equal(np.asarray(y), [0, 2, 4, 6])


def test_runs_on_the_device_of_a_committed_input(every_call_async):
    from core.device_worker import current_device

    where = []

    def record(x):
        where.append(current_device())
        return x

    f = core.jit(lambda x: core.pure_callback(record, core.ShapeDtypeStruct(x.shape, x.dtype), x))
    second = core.local_devices()[1]
    f(jnp.ones(2)).block_until_ready()
    f(core.device_put(jnp.ones(2), second)).block_until_ready()
    assert where == [core.local_devices()[0], second]
    with held(second, release_after=5.0):  # device 0 stays free: the call does not wait
        y = f(jnp.zeros(2))
        np.testing.assert_array_equal(np.asarray(y), [0.0, 0.0])


def test_a_jitted_call_inside_a_host_callback_runs_inline(every_call_async):
    inner = core.jit(lambda x: x + 1)

    def host(x):
        out = inner(x)  # on the device's thread: queuing there would deadlock
        assert type(out) is core.array.Array
        return np.asarray(out)

    outer = core.jit(lambda x: core.pure_callback(host, core.ShapeDtypeStruct(x.shape, x.dtype), x))
    np.testing.assert_array_equal(np.asarray(outer(jnp.ones(2))), [2.0, 2.0])


def test_effects_barrier_waits_for_callbacks(every_call_async):
    seen = []
    f = core.jit(lambda x: (core.debug.callback(lambda v: seen.append(float(v)), x.sum()), x)[1])
    with held(release_after=0.05):
        f(jnp.ones(3))
        assert seen == []
    core.effects_barrier()
    assert seen == [3.0]


def test_random_keys_and_transformations_unchanged(every_call_async):
    key = core.random.key(0)
    draw = core.jit(lambda k: core.random.normal(k, (3,)))
    with core.config.override("jax_cpu_enable_async_dispatch", False):
        want = np.asarray(draw(key))
    with held(release_after=0.05):
        got = draw(key)
        g = core.grad(lambda x: jnp.sum(core.jit(jnp.sin)(x)))(jnp.arange(3.0))  # traced: inline
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_allclose(np.asarray(g), np.cos(np.arange(3.0)), rtol=1e-6)


def test_side_effects_keep_program_order():
    seen = []

    def note(tag):
        return lambda v: seen.append(tag)

    a, x = jnp.ones((512, 512)) / 512, jnp.ones(2)
    dear = core.jit(lambda a: (core.debug.callback(note("dear"), a[0, 0]), jnp.tanh(a @ a))[1])
    cheap = core.jit(lambda x: (core.debug.callback(note("cheap"), x[0]), x + 1)[1])
    dear(a).block_until_ready(), cheap(x)
    seen.clear()
    with held(release_after=0.05):
        dear(a)  # asynchronous (expensive) ...
        cheap(x)  # ... so this call's print is queued behind it, not run ahead
    core.effects_barrier()
    assert seen == ["dear", "cheap"]
    cheap(x)  # nothing in flight: inline, its effect is there at once
    assert seen == ["dear", "cheap", "cheap"]


def test_a_call_waited_for_is_no_longer_in_flight(every_call_async, monkeypatch):
    """The worker takes a call out of the calls in flight before it wakes the call's waiters:
    a caller that waited may run ahead of the worker (here: the worker stops right after
    waking it), and its next cheap call with side effects must then run inline, not queued
    behind a call that is over (the cause of `test_side_effects_keep_program_order`'s
    failures on a loaded machine)."""
    finish, resume = Task.finish, threading.Event()

    def finish_then_stall(task, err=None):
        finish(task, err)
        resume.wait(5)

    monkeypatch.setattr(Task, "finish", finish_then_stall)
    try:
        core.jit(lambda x: x + 1)(jnp.ones(2)).block_until_ready()
        assert not dispatch.in_flight()
    finally:
        resume.set()


def test_threads_dispatch_and_chain_at_once(every_call_async):
    f = core.jit(lambda x, k: x * 0.5 + k)
    f(jnp.ones(3), 0.0).block_until_ready()
    results, failures = {}, []

    def work(seed: int) -> None:
        try:
            x, want = jnp.full(3, float(seed)), np.full(3, seed, np.float32)
            for k in range(15):
                x = f(x, float(k))  # chained on its own pending outputs
                want = want * np.float32(0.5) + np.float32(k)
            results[seed] = (np.asarray(x), want)
        except BaseException as err:  # noqa: BLE001 - reported by the main thread
            failures.append(err)

    workers = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert not failures and len(results) == 4
    for got, want in results.values():
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_chained_calls_copy_numpy_inputs(every_call_async):
    f = core.jit(lambda x, b: x + b)
    buf = np.ones(3, np.float32)
    f(jnp.zeros(3), buf).block_until_ready()  # compiled, with a guard for (Array, ndarray)
    with held():
        y = f(jnp.zeros(3), buf)
        z = f(y, buf)  # queued behind `y`, picked by the guard
        assert type(z) is PendingArray
        buf[:] = 100.0  # the caller reuses its buffer before either kernel ran
    np.testing.assert_array_equal(np.asarray(z), [2.0, 2.0, 2.0])
