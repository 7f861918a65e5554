"""Programs run as kernels: results equal the numpy back end, kernels are shared by content within
a program, across programs and through the disk cache, progress is reported and can be switched
off, corrupt cache entries are rebuilt."""

import logging
import sys
import uuid
import warnings
import weakref

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.config import config
from core.jit import cache_files, disk_cache, host_loops, program
from core.jit.errors import JitCacheWarning
from core.parallel.communicator import SMALL


@pytest.fixture
def many():
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        yield


def _layer(x, w, b, c):
    t = jnp.tanh(x @ w + b)
    return t * 0.5 + core.lax.integer_pow(t, c)


def _fresh() -> int:
    """An exponent no earlier kernel raises to, so that the kernels using it are new (a float
    literal would not make them new: kernels of split programs take those as arguments)."""
    return 3 + uuid.uuid4().int % 1000003


def _params(n=3):
    rng = np.random.default_rng(0)
    ws = [rng.standard_normal((8, 8)).astype(np.float32) * 0.3 for _ in range(n)]
    bs = [rng.standard_normal(8).astype(np.float32) for _ in range(n)]
    return ws, bs, rng.standard_normal((4, 8)).astype(np.float32)


def _net(c):
    def net(ws, bs, x):
        for w, b in zip(ws, bs):
            x = _layer(x, w, b, c)
        return jnp.sum(x * x)

    return net


def test_kernels_give_the_numpy_backends_results_and_gradients(many):
    ws, bs, x = _params()
    f = core.value_and_grad(_net(2), argnums=(0, 1))
    got = core.tree_util.tree_leaves(core.jit(f)(ws, bs, x))
    want = core.tree_util.tree_leaves(core.jit(f, backend="python")(ws, bs, x))
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=1e-6)


def test_repeated_layers_compile_once_and_other_programs_reuse_them(many):
    c = _fresh()
    ws, bs, x = _params()
    jaxpr = core.make_jaxpr(_net(c))(ws, bs, x).jaxpr
    exe = program.compile_program(program.split(jaxpr), "net")
    sources = [k.source for k in exe.kernels]
    assert len(sources) > len(set(sources))  # the three layers share their kernels
    assert sum(k.status == "compiled" for k in exe.kernels) == len(set(sources))

    def two_layers_then_mean(ws, bs, x):  # another program of the same layers
        for w, b in zip(ws[:2], bs[:2]):
            x = _layer(x, w, b, c)
        return jnp.mean(x)

    before = program.stats()
    other = core.make_jaxpr(two_layers_then_mean)(ws, bs, x).jaxpr
    exe2 = program.compile_program(program.split(other), "two")
    shared = [k for k in exe2.kernels if k.source in sources]
    assert shared and all(k.status == "memory" for k in shared)
    after = program.stats()
    work = {k.source: k.status for k in exe2.kernels if k.status != "memory"}
    assert sum(after.values()) - sum(before.values()) == len(exe2.kernels) + len(work)
    np.testing.assert_allclose(
        exe2(*[np.asarray(a) for a in core.tree_util.tree_leaves((ws, bs, x))])[0],
        np.asarray(core.jit(two_layers_then_mean, backend="python")(ws, bs, x)),
        rtol=1e-5,
    )


def test_small_programs_stay_one_function(monkeypatch):
    ws, bs, x = _params(1)
    jaxpr = core.make_jaxpr(_net(2))(ws, bs, x).jaxpr
    with config.override("jit_kernels", "auto"):
        assert len(program.split(jaxpr).kernels) == 1
        # few kernels of many equations (Flax's model.init: random bits and initializers of
        # every parameter, 28 kernels of 9 kinds) compile as kernels, each kind once
        kernels = program.partition.partition(jaxpr).kernels
        monkeypatch.setattr(program, "WHOLE_MAX_EQNS", sum(len(k.eqns) for k in kernels) - 1)
        assert len(program.split(jaxpr).kernels) == len(kernels) > 1
    with config.override("jit_kernels", "many"):
        assert len(program.split(jaxpr).kernels) > 1


def test_a_train_step_under_a_static_cond_is_cut_like_the_step_without_it():
    # Optax's cifar10 ResNet applies its model in `lax.cond(is_training, train, eval)` on a
    # static bool: the forward and backward passes were a cond kernel each (every branch
    # inline), few enough kernels that the step compiled as one function for 90 s
    ws, bs, x = _params()

    def loss(ws, bs, x, train):
        return core.lax.cond(train, lambda x: _net(2)(ws, bs, x), lambda x: jnp.sum(x), x)

    step = core.grad(loss, argnums=(0, 1))
    direct = core.grad(_net(2), argnums=(0, 1))
    with config.override("jit_kernels", "many"):
        under_cond = program.split(core.make_jaxpr(step, static_argnums=3)(ws, bs, x, True).jaxpr)
        plain = program.split(core.make_jaxpr(direct)(ws, bs, x).jaxpr)
    assert not any(e.prim.higher_order for k in under_cond.kernels for e in k.eqns)
    assert len(under_cond.kernels) == len(plain.kernels) > 10


def _decode(ws, bs, x, steps):
    """A loop around a few layers, as a sampler's loop around a decoder step."""

    def body(carry):
        i, x = carry
        for w, b in zip(ws, bs):
            x = _layer(x, w, b, 2)
        return i + 1, x

    return core.lax.while_loop(lambda c: c[0] < steps, body, (0, x))[1]


@pytest.mark.parametrize("steps", [0, 3])
def test_a_while_loop_of_a_large_body_runs_its_compiled_body_from_python(steps, monkeypatch):
    # Flax's lm1b sampler and wmt beam search loop around a Transformer decoder step: as one
    # kernel with the body inline, numba compiled each program for 15-36 s
    ws, bs, x = _params()
    jaxpr = core.make_jaxpr(_decode, static_argnums=3)(ws, bs, x, steps).jaxpr
    assert host_loops.loop_of(program.split(jaxpr).kernels[0]) is None  # small: inline
    monkeypatch.setattr(host_loops, "MIN_EQNS", 10)
    monkeypatch.setattr(host_loops, "MIN_WORK", 0)  # a body of 4x8 values
    split = program.split(jaxpr)
    assert [host_loops.loop_of(k) is not None for k in split.kernels] == [True]
    exe = program.compile_program(split, "decode")
    (loop,) = exe.kernels
    assert loop.dispatcher.__module__ == host_loops.__name__  # a Python loop of two programs
    (got,) = exe(*[np.asarray(a) for a in core.tree_util.tree_leaves((ws, bs, x))])
    want = x
    for _ in range(steps):
        for w, b in zip(ws, bs):
            t = np.tanh(want @ w + b)
            want = t * 0.5 + t**2
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert got is not x and got.flags.c_contiguous


def test_a_program_with_a_scan_is_cut_into_kernels():
    # Flax's sst2 eval step (two LSTM scans in 29 kernels) compiled as one function for 4.9 s
    # of CPU, as kernels (most of them its train step's) for 1.7 s
    ws, bs, x = _params(1)

    def rnn(w, b, xs):
        step = lambda h, x: (jnp.tanh(h @ w + x), h)  # noqa: E731
        return core.lax.scan(step, jnp.tanh(xs[0] + b), xs)[1].sum()

    jaxpr = core.make_jaxpr(rnn)(ws[0], bs[0], x).jaxpr
    with config.override("jit_kernels", "auto"):
        kernels = program.split(jaxpr).kernels
    assert len(kernels) > 1
    assert sum(any(e.prim.name == "scan" for e in k.eqns) for k in kernels) == 1


def test_a_pmap_exchange_does_not_tip_a_program_into_kernels(monkeypatch):
    def step(w, x):
        for _ in range(3):
            x = jnp.tanh(x @ w)
        grads = {"a": x.sum(0), "b": x.mean()}  # psum'ed as one concatenated vector
        return core.lax.psum(grads, "i")

    w = np.eye(4, dtype=np.float32)
    outer = core.make_jaxpr(core.pmap(step, "i", in_axes=(None, 0)))(w, np.ones((2, 3, 4)))
    (per_device,) = [e.params["jaxpr"] for e in outer.jaxpr.eqns if e.prim.name == "pmap"]
    kernels = program.partition.partition(per_device).kernels
    exchange = [k for k in kernels if program._exchange_only(k)]
    assert len(exchange) == 2  # the concatenation and the psum
    monkeypatch.setattr(program, "SPLIT_MIN", len(kernels) - 2)
    with config.override("jit_kernels", "auto"):
        assert len(program.split(per_device).kernels) == 1
        monkeypatch.setattr(program, "SPLIT_MIN", len(kernels) - 3)
        # the concatenation, the psum and the kernels beside them are one kernel then
        merged = program.partition.merge_exchanges(program.partition.partition(per_device), SMALL)
        assert len(program.split(per_device).kernels) == len(merged.kernels) < len(kernels)


def _normalized(x, scale):
    """BatchNorm over a pmap's devices: the statistics psum'ed (concatenated into one exchange),
    then the normalization and a second, backward-like exchange of a reduction."""
    mean = core.lax.pmean(x.mean(0), "i")
    var = core.lax.pmean((x * x).mean(0), "i") - mean * mean
    y = jnp.tanh((x - mean) * core.lax.rsqrt(var + 1e-5) * scale)
    return y, core.lax.psum((y * x).sum(0), "i") / x.shape[0]


def test_kernels_around_a_small_exchange_merge_into_one(many, monkeypatch):
    x = np.random.default_rng(0).normal(size=(2, 6, 5)).astype(np.float32)
    scale = np.linspace(0.5, 1.5, 5).astype(np.float32)
    step = core.pmap(_normalized, "i", in_axes=(0, None))
    (per_device,) = [e.params["jaxpr"] for e in core.make_jaxpr(step)(x, scale).jaxpr.eqns]
    alone = program.partition.partition(per_device)
    merged = program.split(per_device)
    exchanging = [k for k in merged.kernels if any(e.prim.collective for e in k.eqns)]
    assert len(merged.kernels) < len(alone.kernels)
    assert all(len(k.eqns) > 1 for k in exchanging)  # no exchange is a kernel of its own
    got = step(x, scale)
    monkeypatch.setattr(program.partition, "merge_exchanges", lambda p, small: p)
    want = core.pmap(_normalized, "i", in_axes=(0, None))(x, scale)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_a_long_compile_prints_one_line_unless_switched_off(many, capfd, monkeypatch):
    monkeypatch.setattr(program, "_estimate", lambda source: 2.0)
    ws, bs, x = _params(2)
    core.jit(_net(_fresh()))(ws, bs, x)
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("numbax: compiling net: ")
    assert " new ... " in err and err.rstrip().endswith(" s")
    with config.override("jit_progress", False):
        core.jit(_net(_fresh()))(ws, bs, x)
    assert capfd.readouterr().err == ""


def test_log_compiles_lists_every_kernel_with_its_time(many, caplog):
    ws, bs, x = _params(2)
    f = core.jit(_net(_fresh()))
    with config.override("log_compiles", True), caplog.at_level(logging.WARNING, "core.jit"):
        f(ws, bs, x)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("kernel ")]
    assert lines and all(" of net (numbax_jit_" in m and m.endswith(" s") for m in lines)
    assert any(": compiled, " in m or ": compiled (shell), " in m for m in lines)


def test_corrupt_kernel_cache_entry_is_rebuilt(many, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAX_CACHE_DIR", str(tmp_path))
    with config.override("jit_lean_shells", False):  # numba's entries (shells: test_shells)
        ws, bs, x = _params(1)
        jaxpr = core.make_jaxpr(_net(_fresh()))(ws, bs, x).jaxpr
        exe = program.compile_program(program.split(jaxpr), "net")
        args = [np.asarray(a) for a in core.tree_util.tree_leaves((ws, bs, x))]
        want = exe(*args)
        k, source = next((k, i.source) for k, i in enumerate(exe.kernels) if i.status == "compiled")
        name = disk_cache.module_name(source)
        roots = [tmp_path, cache_files.numba_cache_dir()]
        entries = [p for root in roots for p in root.rglob(f"{name}*.nbxc")]
        assert entries
        for path in entries:
            path.write_bytes(b"not a cache entry")
        # a new process would find only the files: forget what this one holds
        for key in [key for key in program._compiled if key[0] == source]:
            del program._compiled[key]
        for key in [k for k in disk_cache._DISPATCHERS if k[0] == source]:
            del disk_cache._DISPATCHERS[key]
        sys.modules.pop(name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            again = program.compile_program(program.split(jaxpr), "net")
        assert any(issubclass(w.category, JitCacheWarning) for w in caught)
        assert again.kernels[k].status == "compiled"
        np.testing.assert_array_equal(again(*args)[0], want[0])


def test_config_rejects_bad_kernel_settings():
    with pytest.raises(ValueError, match="jit_kernels"):
        config.update("jit_kernels", "some")
    with pytest.raises(ValueError, match="jit_compile_workers"):
        config.update("jit_compile_workers", -2)


def test_outputs_that_are_inputs_constants_or_views_as_kernels(many):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = core.jit(lambda a, b: (b, a, 2.0))(x, x + 1)
    np.testing.assert_array_equal(np.asarray(out[0]), x + 1)
    np.testing.assert_array_equal(np.asarray(out[1]), x)
    assert float(out[2]) == 2.0
    views = core.jit(lambda a: (a.T, jnp.broadcast_to(a[0], (4, 3)), jnp.exp(a) + 1))(x)
    np.testing.assert_array_equal(np.asarray(views[0]), x.T)
    np.testing.assert_array_equal(np.asarray(views[1]), np.broadcast_to(x[0], (4, 3)))
    np.testing.assert_allclose(np.asarray(views[2]), np.exp(x) + 1, rtol=1e-6)


def test_the_driver_frees_each_intermediate_after_its_last_reader(many):
    """A chain of kernels: when kernel k runs, the results of kernels before k - 1 (read by no
    later kernel) are freed, not held by the driver until the program returns."""

    def chain(x):
        for _ in range(3):
            x = jnp.tanh(x @ x)
        return x + 1.0

    x = np.full((4, 4), 0.1, np.float32)
    closed = core.make_jaxpr(chain)(x)
    compiled = program.compile_program(program.split(closed.jaxpr), "chain")
    namespace = compiled.kernel.__globals__
    names = [k for k in namespace if k[0] == "k" and k[1:].isdigit()]  # k0, k1, ... in order
    assert len(names) >= 4
    results, alive = [], []  # weak references to each kernel's results; live ones per call

    def recording(kernel):
        def run(*args):
            alive.append([ref() is not None for ref in results])
            out = kernel(*args)
            results.extend(weakref.ref(a) for a in out)
            return out

        return run

    for name in names:
        namespace[name] = recording(namespace[name])
    (got,) = compiled(x)
    want = x
    for _ in range(3):
        want = np.tanh(want @ want)
    np.testing.assert_allclose(got, want + 1.0, rtol=1e-6)
    assert alive[-1][:-1] == [False] * (len(alive[-1]) - 1)  # the last kernel reads only its input
    assert all(sum(live) <= 1 for live in alive)


def test_a_variant_runs_the_kernels_an_upgrade_put_in_the_driver(many):
    """A variant (`program._variant`: some kernels skipped, some called through a wrapper)
    keeps running its driver's kernels without looking them up on every call, and takes the
    ones a background build replaced (`_upgrade`) from the call after."""

    def chain(x):
        return jnp.tanh(x @ x) @ x + 1.0

    x = np.full((3, 3), 0.2, np.float32)
    compiled = program.compile_program(program.split(core.make_jaxpr(chain)(x).jaxpr), "chain")
    namespace = compiled.kernel.__globals__
    assert len(compiled.program.kernels) >= 2
    wrapped = []
    variant = compiled.variant(set(), None, {0: lambda kernel, *a: wrapped.append(1) or kernel(*a)})
    (want,) = compiled(x)
    np.testing.assert_array_equal(variant(x)[0], want)
    calls = []
    last = f"k{len(compiled.program.kernels) - 1}"
    serial = namespace[last]
    namespace[last] = lambda *a: calls.append(1) or serial(*a)  # what `_upgrade` does
    namespace[program._UPGRADES] = namespace.get(program._UPGRADES, 0) + 1
    np.testing.assert_array_equal(variant(x)[0], want)
    assert calls == [1] and wrapped == [1, 1]


def test_optimized_twins_start_once_the_first_run_returned():
    """`_after_first_run`: the compile workers get the optimized twins of a program's quick-tier
    code once its first run has returned (not while it runs), once; a program of kernels keeps
    its driver, whose last kernel is back in its slot after that run; a variant made before
    (a copy of the namespace) starts them too, once."""
    started, ran = [], []
    namespace = {"k0": lambda x: ran.append(0) or x + 1, "k1": lambda x: ran.append(1) or x * 2}
    exec("def run(a):\n    b = k0(a)\n    return k1(b)\n", namespace)
    driver, last = namespace["run"], namespace["k1"]
    start = lambda: started.append(list(ran))  # noqa: E731
    assert program._after_first_run(driver, start, "k1") is driver
    copy = dict(namespace)  # a variant made before the first run
    assert started == [] and namespace["k1"] is not last
    assert driver(1) == 4 and started == [[0, 1]] and namespace["k1"] is last
    assert driver(2) == 6 and copy["k1"](3) == 6 and started == [[0, 1]]
    program._after_first_run(driver, start, "k1")
    copy = dict(namespace)
    assert copy["k1"](5) == 10 and len(started) == 2  # the variant runs first
    assert namespace["k1"] is last and driver(1) == 4 and len(started) == 2

    whole = program._after_first_run(lambda x: -x, start, None)
    assert len(started) == 2 and whole(1) == -1 and len(started) == 3
    assert whole(2) == -2 and len(started) == 3
