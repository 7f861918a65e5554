"""Work that is the same on every device of a pmap runs on one of them
(`core/parallel/shared_work.py`): the results equal those of every device running everything,
bit for bit; replicated outputs are one buffer fed back to the next call; device-local values
are never shared; `device_put_replicated` places one buffer."""

from collections.abc import Callable

import numpy as np
import pytest

import core
import nn
from core import lax, placement, tree_util
from core.parallel import communicator, shared_work
from core.prims.collectives import wrappers
from train import jax_utils


def _step(params, momentum, x):
    """A data-parallel SGD-momentum step over a split program (the update of each parameter
    reads only psum'ed values and the replicated state), plus a device-local output."""
    w, b = params
    grads = [
        lax.pmean(g, "i") for g in (core.numpy.tanh(x[:, :, None] * w).sum(0), (x @ w + b).sum(0))
    ]
    momentum = tree_util.tree_map(lambda m, g: 0.9 * m + g, momentum, tuple(grads))
    params = tree_util.tree_map(lambda p, m: p - 0.1 * m, params, momentum)
    return params, momentum, x.sum(1) * 2.0


@pytest.fixture
def split_small(monkeypatch):
    """Every program split into kernels, and sharing worth it whatever its size; every
    program's new code compiled in the quick tier first (`config.jit_quick_min_seconds`):
    which tier ran a step depends on when the compile workers finish, and both compute the
    same bits (before `core/backends/llvm/settle.py`, CI with a cold cache saw 42 of 40960
    elements 1 ulp apart, and the tests ran without the quick tier)."""
    monkeypatch.setattr(shared_work, "MIN_BYTES", 0)
    with (
        core.config.override("jit_kernels", "many"),
        core.config.override("jit_quick_min_seconds", 0.0),
    ):
        yield


def _run(steps: int, share: bool, monkeypatch, shape: tuple = (3, 5), n: int = 2) -> tuple:
    if not share:
        monkeypatch.setattr(shared_work, "plan", lambda *args: None)
    devices = core.local_devices()[:n]
    rng = np.random.default_rng(0)
    w, b = rng.normal(size=shape).astype(np.float32), rng.normal(size=shape[1]).astype(np.float32)
    params, momentum = jax_utils.replicate(((w, b), (np.zeros_like(w), np.zeros_like(b))), devices)
    x = rng.normal(size=(n, 4, shape[0])).astype(np.float32)
    step = core.pmap(_step, axis_name="i", devices=devices)
    for _ in range(steps):
        params, momentum, local = step(params, momentum, x)
    return params, momentum, local


def _values(out):
    """The devices' values of a pmap output, once computed (calls are asynchronous)."""
    return out.block_until_ready()._pending.values


def test_shared_kernels_give_the_unshared_results_bit_for_bit(split_small, monkeypatch):
    calls = []
    make = shared_work._make
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    params, momentum, local = _run(3, True, monkeypatch)
    assert calls and all(p is not None for p in calls)
    assert all(any(owned) for owned in calls[-1].owned)  # both devices compute a share
    for out in tree_util.tree_leaves((params, momentum)):  # one buffer, fed back to the next step
        first, second = _values(out)
        assert first is second
    assert _values(local)[0] is not _values(local)[1]
    expected = _run(3, False, monkeypatch)
    for got, want in zip(
        tree_util.tree_leaves((params, momentum, local)), tree_util.tree_leaves(expected)
    ):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert not np.array_equal(np.asarray(local)[0], np.asarray(local)[1])


@pytest.mark.parametrize("fold", [False, True])
def test_psums_whose_results_a_device_does_not_read(split_small, monkeypatch, fold):
    """A gradient's psum whose update another device computes: the device neither computes
    nor receives its result (large arrays, read in place, and small staged ones); the psum
    read in place is chained to the next one, whose barrier completes it, or (`fold`) summed
    inside the update instead; the others' results are those of the unshared program bit for
    bit."""
    monkeypatch.setattr(shared_work, "FOLD", fold)
    calls = []
    make = shared_work._make
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    shape = (128, 160)  # the weight's gradient: 80 KB, above the staged size
    got = _run(3, True, monkeypatch, shape)
    unread = calls[-1].unread
    assert all(unread) and not set.intersection(*unread)
    assert sorted(calls[-1].chained.values()) == [False, True]
    assert len(calls[-1].folded) == fold  # the staged psum stays an exchange
    expected = _run(3, False, monkeypatch, shape)
    for a, b in zip(tree_util.tree_leaves(got), tree_util.tree_leaves(expected)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("n", [2, 3])
def test_a_psum_summed_inside_the_update_that_reads_it(split_small, monkeypatch, n):
    """The weight's gradient psum (80 KB) is summed in the update's kernel from the devices'
    gradients, `x0 + x1 + x2` in rank order as the exchange folds them: the same bits as the
    unshared program (of three devices' float32 sums, about one element in three differs in
    another order); the device that updates the weight keeps nobody's gradient after it."""
    calls, taken = [], []
    make, take = shared_work._make, communicator.take_handed
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    monkeypatch.setattr(communicator, "take_handed", lambda *a: taken.append(take(*a)) or taken[-1])
    got = _run(3, True, monkeypatch, (128, 160), n)
    ((psum, update),) = calls[-1].folded.items()
    assert calls[-1].programs[0] is not calls[-1].programs[1]
    expected = _run(3, False, monkeypatch, (128, 160), n)
    for a, b in zip(tree_util.tree_leaves(got), tree_util.tree_leaves(expected)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert len(taken) == 3 and all(len(xs) == n for xs in taken)  # (the calls have ended)
    assert all(xs[0].shape == (128, 160) for xs in taken)


def test_consecutive_folded_psums_meet_once(split_small, monkeypatch):
    """Two weights' gradient psums, each summed inside its update: the devices hand both
    operands over and meet at the second psum's barrier only (the first psum's kernel does
    not run); the results are the unshared program's bit for bit."""

    def step(params, momentum, x):
        loss = lambda p: core.numpy.tanh(core.numpy.tanh(x @ p[0]) @ p[1]).sum()  # noqa: E731
        grads = lax.pmean(core.grad(loss)(params), "i")
        momentum = tree_util.tree_map(lambda m, g: 0.9 * m + g, momentum, grads)
        return tree_util.tree_map(lambda p, m: p - 0.1 * m, params, momentum), momentum

    def run(share: bool) -> list:
        if not share:
            monkeypatch.setattr(shared_work, "plan", lambda *args: None)
        devices = core.local_devices()[:2]
        rng = np.random.default_rng(2)
        params = tuple(rng.normal(size=s).astype(np.float32) / 10 for s in ((128, 160), (160, 128)))
        state = jax_utils.replicate((params, tuple(map(np.zeros_like, params))), devices)
        x = rng.normal(size=(2, 4, 128)).astype(np.float32)
        pstep = core.pmap(step, axis_name="i", devices=devices)
        for _ in range(3):
            state = pstep(*state, x)
        return [np.asarray(v) for v in tree_util.tree_leaves(state)]

    monkeypatch.setattr(wrappers, "PACK_MAX", 1 << 14)  # the gradients' psums kept alone
    calls, met = [], []
    make, hand_over = shared_work._make, communicator.hand_over
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])

    def counted(index, meets, kernel, *args):
        met.append(meets)
        return hand_over(index, meets, kernel, *args)

    monkeypatch.setattr(communicator, "hand_over", counted)
    got = run(True)
    assert len(calls[-1].folded) == 2 and sorted(met) == [False] * 6 + [True] * 6
    for a, b in zip(got, run(False)):
        np.testing.assert_array_equal(a, b)


def _conv_step(params, momentum, x, one):
    """A data-parallel SGD-momentum step of a 3x3 convolution, 32 -> 64 channels (its kernel
    gradient: 74 KB, a folded psum), of the images times `one`."""
    loss = lambda w: core.numpy.tanh(lax.conv(x * one, w, (1, 1), "SAME")).sum()  # noqa: E731
    grads = lax.pmean(core.grad(loss)(params), "i")
    momentum = 0.9 * momentum + grads
    return params - 0.1 * momentum, momentum


def _conv_run(share: bool, monkeypatch, fail: Callable | None = None, n: int = 2) -> list:
    """Three steps of `_conv_step` on `n` devices (NCHW, 4 images of 4x4 each), replicated
    state; with `fail`, a fourth that calls it on the device index first."""
    if not share:
        monkeypatch.setattr(shared_work, "plan", lambda *args: None)
    devices = core.local_devices()[:n]
    rng = np.random.default_rng(4)
    w = (rng.normal(size=(64, 32, 3, 3)) / 10).astype(np.float32)
    params, momentum = jax_utils.replicate((w, np.zeros_like(w)), devices)
    x = rng.normal(size=(n, 4, 32, 4, 4)).astype(np.float32)
    ones = np.ones(n, np.float32)
    pstep = core.pmap(_conv_step, axis_name="i", devices=devices)
    for _ in range(3):
        params, momentum = pstep(params, momentum, x, ones)
    out = [np.asarray(params), np.asarray(momentum)]
    if fail is not None:

        def step(params, momentum, x, i):
            one = core.pure_callback(fail, core.ShapeDtypeStruct((), np.float32), i)
            return _conv_step(params, momentum, x, one)

        fails = core.pmap(step, axis_name="i", devices=devices)
        params, momentum = jax_utils.replicate((w, np.zeros_like(w)), devices)
        np.asarray(fails(params, momentum, x, np.arange(n, dtype=np.int32))[0])
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_a_kernel_gradient_computed_at_the_global_batch(split_small, monkeypatch, n):
    """A convolution's kernel gradient whose psum is folded into the update: the devices hand
    its operands over instead of computing it, and the updating device convolves them joined
    along the batch in rank order: the gradient of all devices' images at once, the unshared
    program's result to float rounding (the sum's order changes)."""
    monkeypatch.setattr(wrappers, "PACK_MAX", 1 << 14)  # the gradient's psum kept alone
    calls, taken = [], []
    make, take = shared_work._make, communicator.take_handed
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    monkeypatch.setattr(communicator, "take_handed", lambda *a: taken.append(take(*a)) or taken[-1])
    got = _conv_run(True, monkeypatch, n=n)
    assert len(calls[-1].gathered) == 1
    assert len(taken) == 3 and all(len(ops) == n for ops in taken)
    assert [a.shape for a in taken[0][1]] == [(4, 32, 4, 4), (4, 64, 4, 4)]  # rank 1's x, dy
    unshared = _conv_run(False, monkeypatch, n=n)
    for a, b, want in zip(got, unshared, _conv_reference(n)):
        assert a.shape == (n, *want.shape) and not np.array_equal(a, b)
        for device in (*a, *b):
            np.testing.assert_allclose(device, want, rtol=0, atol=1e-5 * np.abs(want).max())


def _conv_reference(n: int) -> tuple[np.ndarray, np.ndarray]:
    """`_conv_run`'s parameters and momentum in float64 numpy: the kernel gradient of
    sum(tanh(conv)) is the sum over images and positions of tanh' times the padded input's
    window."""
    rng = np.random.default_rng(4)
    w = (rng.normal(size=(64, 32, 3, 3)) / 10).astype(np.float32).astype(np.float64)
    x = rng.normal(size=(4 * n, 32, 4, 4)).astype(np.float32).astype(np.float64)
    windows = np.lib.stride_tricks.sliding_window_view(
        np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), axis=(2, 3)
    )  # (image, in channel, row, column, tap row, tap column)
    momentum = np.zeros_like(w)
    for _ in range(3):
        dy = 1 - np.tanh(np.einsum("nihwkl,oikl->nohw", windows, w)) ** 2
        grad = np.einsum("nohw,nihwkl->oikl", dy, windows) / n  # pmean over the devices
        momentum = 0.9 * momentum + grad
        w = w - 0.1 * momentum
    return w, momentum


@pytest.mark.parametrize(
    "image, cotangent, padding, dilation, taps",
    [
        ((1, 1, 512), (1, 1, 512), (1, 1), 1, 1),  # a 3x3 kernel on a 1x1 map: its centre
        ((2, 2, 256), (1, 1, 512), (0, 1), 2, 4),  # stride 2 on 2x2: a 2x2 box
        ((2, 2, 256), (2, 2, 256), (1, 1), 1, 9),
    ],
)
def test_a_gathered_kernel_gradient_weighs_its_box_of_taps(
    image, cotangent, padding, dilation, taps
):
    """The flops that balance a gathered kernel gradient among the devices' shared work
    (`shared_work._conv_flops`): 2 x images x in x out channels x cotangent positions per tap,
    over the taps that read the image (the ResNet-10's last stages at batch 32, two devices)."""
    numbers = lax.ConvDimensionNumbers((3, 0, 1, 2), (3, 0, 1, 2), (2, 3, 0, 1))
    jaxpr = core.make_jaxpr(
        lambda x, dy: lax.conv_general_dilated(
            x,
            dy,
            (1, 1),
            (padding, padding),
            rhs_dilation=(dilation,) * 2,
            dimension_numbers=numbers,
        )
    )(np.zeros((32, *image), np.float32), np.zeros((32, *cotangent), np.float32)).jaxpr
    ((eqn,),) = [[e for e in jaxpr.eqns if e.prim.name == "conv_general_dilated"]]
    assert eqn.outputs[0].aval.shape == (3, 3, image[2], cotangent[2])
    positions = cotangent[0] * cotangent[1]
    expected = 2 * 64 * image[2] * cotangent[2] * positions * taps
    assert shared_work._conv_flops(eqn, 2) == expected


def test_a_shared_kernel_weighs_the_slices_it_reads():
    """A small parameter's update reads its leaf of the packed psum: the plan weighs it by the
    leaf's bytes (`shared_work._read_bytes`), and by the whole array where it also reads all
    of it."""
    packed = np.zeros(1000, np.float32)
    leaf = core.make_jaxpr(lambda g, p: p - 0.1 * g[10:30])(packed, np.zeros(20, np.float32))
    assert shared_work._read_bytes(leaf.jaxpr) == 4 * 20 + 4 * 20
    both = core.make_jaxpr(lambda g: g[10:30].sum() + g.sum())(packed)
    assert shared_work._read_bytes(both.jaxpr) == 4 * 1000


def test_a_device_failing_before_handing_its_operands_over(split_small, monkeypatch):
    """Device 1 fails before handing the kernel gradient's operands over: the call raises its
    error, not the updating device's broken barrier."""
    monkeypatch.setattr(wrappers, "PACK_MAX", 1 << 14)
    taken, take = [], communicator.take_handed
    monkeypatch.setattr(communicator, "take_handed", lambda *a: taken.append(take(*a)) or taken[-1])

    def fail_on_1(i):
        if int(i) == 1:
            raise RuntimeError("device 1 failed")
        return np.ones((), np.float32)

    calls, make = [], shared_work._make
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    with pytest.raises(RuntimeError, match="device 1 failed"):
        _conv_run(True, monkeypatch, fail_on_1)
    assert len(calls[-1].gathered) == 1
    assert taken[-1] is None


def test_a_device_failing_before_handing_its_gradient_over(split_small, monkeypatch):
    """Device 1 fails before the folded psums: the call raises its error (not the broken
    barrier device 0's update meets without device 1's gradient), nobody hangs, and the next
    call runs."""
    monkeypatch.setattr(wrappers, "PACK_MAX", 1 << 14)
    calls, taken = [], []
    make, take = shared_work._make, communicator.take_handed
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(make(*a)) or calls[-1])
    monkeypatch.setattr(communicator, "take_handed", lambda *a: taken.append(take(*a)) or taken[-1])

    def fail_on_1(i):
        if int(i) == 1:
            raise RuntimeError("device 1 failed")
        return np.ones((), np.float32)

    def step(params, x, fail):
        one = core.pure_callback(fail_on_1, core.ShapeDtypeStruct((), np.float32), fail)
        loss = lambda p: core.numpy.tanh(core.numpy.tanh(x @ p[0]) @ p[1]).sum() * one  # noqa: E731
        grads = lax.pmean(core.grad(loss)(params), "i")
        return tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)

    devices = core.local_devices()[:2]
    rng = np.random.default_rng(3)
    params = tuple(rng.normal(size=s).astype(np.float32) / 10 for s in ((128, 160), (160, 128)))
    params = jax_utils.replicate(params, devices)
    x = rng.normal(size=(2, 4, 128)).astype(np.float32)
    pstep = core.pmap(step, axis_name="i", devices=devices)
    fine = pstep(params, x, np.zeros(2, np.int32))
    fine[0].block_until_ready()
    del taken[:]
    with pytest.raises(RuntimeError, match="device 1 failed"):
        np.asarray(pstep(params, x, np.arange(2, dtype=np.int32))[0])
    assert len(calls[-1].folded) == 2 and None in taken
    again = pstep(params, x, np.zeros(2, np.int32))
    for a, b in zip(tree_util.tree_leaves(again), tree_util.tree_leaves(fine)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_mapped_state_is_not_shared(split_small):
    """Per-device parameters (not one buffer) keep every kernel on every device."""
    devices = core.local_devices()[:2]
    w = np.stack([np.ones((3, 5), np.float32), 2 * np.ones((3, 5), np.float32)])
    params = (w, np.ones((2, 5), np.float32))
    momentum = tree_util.tree_map(np.zeros_like, params)
    x = np.ones((2, 4, 3), np.float32)
    (new, _), _, _ = core.pmap(_step, axis_name="i", devices=devices)(params, momentum, x)
    assert _values(new)[0] is not _values(new)[1]
    new = np.asarray(new)
    assert not np.array_equal(new[0], new[1])


def test_device_put_replicated_places_one_buffer():
    devices = core.local_devices()[:2]
    source = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = placement.device_put_replicated(source, devices)
    first, second = _values(out)
    assert first is second and not first.flags.writeable
    source[0, 0] = 100.0  # the caller's array is copied once
    assert out.shape == (2, 2, 3)
    np.testing.assert_array_equal(np.asarray(out), np.stack([np.arange(6.0).reshape(2, 3)] * 2))


def test_a_shared_kernel_with_packed_scalar_outputs(split_small, monkeypatch):
    """Adam's step count and a train state's step are 0-d outputs of one kernel, returned
    packed in one array: the device that skips the kernel takes their items of the stub's
    result (it raised TypeError: '_Missing' object is not subscriptable)."""
    import optim

    def step(params, opt_state, count, x):
        loss = lambda p: (core.numpy.tanh(x @ p[0]) + p[1]).sum()  # noqa: E731
        grads = lax.pmean(core.grad(loss)(params), "i")
        updates, opt_state = optim.adam(1e-2).update(grads, opt_state, params)
        return optim.apply_updates(params, updates), opt_state, count + 1

    def run(share: bool) -> list:
        if not share:
            monkeypatch.setattr(shared_work, "plan", lambda *args: None)
        devices = core.local_devices()[:2]
        rng = np.random.default_rng(1)
        params = (rng.normal(size=(3, 5)).astype(np.float32), np.zeros(5, np.float32))
        init = (params, optim.adam(1e-2).init(params), np.int32(0))
        state = jax_utils.replicate(init, devices)
        x = rng.normal(size=(2, 4, 3)).astype(np.float32)
        pstep = core.pmap(step, axis_name="i", devices=devices)
        for _ in range(3):
            state = pstep(*state, x)
        return [np.asarray(v) for v in tree_util.tree_leaves(state)]

    for got, want in zip(run(True), run(False)):
        np.testing.assert_array_equal(got, want)


def _batch_norm_step(variables, x):
    """Flax's BatchNorm over the devices: its running statistics come out of the kernel of
    the statistics' pmean, next to the device's own normalization; its parameters pass
    through."""
    y, updates = nn.BatchNorm(use_running_average=False, axis_name="i").apply(
        variables, x, mutable=["batch_stats"]
    )
    return {"params": variables["params"], **updates}, y


@pytest.mark.parametrize("share", [True, False])
def test_outputs_every_device_computes_from_replicated_values_stay_replicated(
    split_small, monkeypatch, share
):
    """Running statistics and passed-through parameters are the same on every device: device 0
    stores its value for all (one buffer), so the next call sees its whole state replicated and
    shares the same kernels as the first; values as every device's own."""
    if not share:
        monkeypatch.setattr(shared_work, "plan", lambda *args: None)
    calls = []
    make = shared_work._make
    monkeypatch.setattr(shared_work, "_make", lambda *a: calls.append(a[1]) or make(*a))
    devices = core.local_devices()[:2]
    x = np.random.default_rng(1).normal(size=(2, 4, 6)).astype(np.float32)
    variables = nn.BatchNorm(use_running_average=False).init(core.random.key(0), x[0])
    state = jax_utils.replicate(variables, devices)
    step = core.pmap(_batch_norm_step, axis_name="i", devices=devices)
    for _ in range(3):
        state, y = step(state, x)
    if share:
        assert calls and all(replicated == calls[0] for replicated in calls)
        for leaf in tree_util.tree_leaves(state):
            first, second = _values(leaf)
            assert first is second
    whole = x.reshape(8, 6).astype(np.float64)
    mean, var = whole.mean(0), whole.var(0)
    want = {"mean": mean * (1 - 0.99**3), "var": 0.99**3 + var * (1 - 0.99**3)}
    for name, value in state["batch_stats"].items():
        np.testing.assert_allclose(np.asarray(value), np.stack([want[name]] * 2), rtol=1e-5)
    np.testing.assert_allclose(
        np.asarray(y).reshape(8, 6), (whole - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5
    )


def test_a_state_that_differs_between_devices_is_never_taken_as_replicated(split_small):
    """Per-device running statistics (stacked, not replicated) are each device's own: the
    statistics' kernel runs on every device and each output keeps its device's value."""
    devices = core.local_devices()[:2]
    x = np.random.default_rng(2).normal(size=(2, 4, 6)).astype(np.float32)
    variables = nn.BatchNorm(use_running_average=False).init(core.random.key(0), x[0])
    state = jax_utils.replicate(variables, devices)
    own = np.stack([np.zeros(6, np.float32), np.ones(6, np.float32)])
    state = {**state, "batch_stats": {**state["batch_stats"], "mean": own}}
    state, _ = core.pmap(_batch_norm_step, axis_name="i", devices=devices)(state, x)
    first, second = _values(state["batch_stats"]["mean"])
    assert first is not second
    mean = x.reshape(8, 6).mean(0)
    np.testing.assert_allclose(
        np.asarray(state["batch_stats"]["mean"]), 0.99 * own + 0.01 * mean, rtol=1e-5
    )
