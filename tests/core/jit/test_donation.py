"""Donated arguments are deleted after the call, as JAX 0.10.2 deletes them on the CPU
(core/jit/donation.py): those an output can take (same shape and dtype, else as many
elements), with JAX's warning for the others; numpy inputs are never deleted; an asynchronous
call deletes them once it has read them; an array passed twice, once donated, fails with
XLA's error. pmap's donation: tests/core/test_pmap.py."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import DeletedArrayError, JaxRuntimeError


def _dead_read(a, b):
    a + 1  # dropped with the rest of the dead code: `a` counts as unused, as in JAX
    return b * 2


# (what, function, donated positions, arguments, JAX's is_deleted() per argument, warns)
CASES = [
    ("same shape", lambda a: a * 2, 0, (jnp.ones(3),), [True], False),
    ("no output fits", lambda a: a.sum(), 0, (jnp.ones(3),), [False], True),
    (
        "pair, one fits",
        lambda a, b: (a * 2, b.sum()),
        (0, 1),
        (jnp.ones(3), jnp.ones(3)),
        [True, False],
        True,
    ),
    ("same size, other dtype", lambda a: a.astype(jnp.int32), 0, (jnp.ones(3),), [True], False),
    ("not donated", lambda a, b: a + b, 0, (jnp.ones(3), jnp.ones(3)), [True, False], False),
    (
        "pytree",
        lambda t: {"p": t["p"] + 1, "q": t["q"]},
        0,
        ({"p": jnp.ones(3), "q": jnp.ones(2)},),
        [True],
        False,
    ),
    (
        "forwarded other input",
        lambda a, b: (b, a * 2),
        0,
        (jnp.ones(3), jnp.ones(3)),
        [True, False],
        False,
    ),
    ("unused: pruned", lambda a, b: b * 2, 0, (jnp.ones(3), jnp.ones(3)), [False, False], False),
    ("unused of two", lambda a, b: a * 2, (0, 1), (jnp.ones(3), jnp.ones(3)), [True, False], False),
    (
        "read by dead code only",
        _dead_read,
        (0, 1),
        (jnp.ones(3), jnp.ones(3)),
        [False, True],
        False,
    ),
]


@pytest.mark.parametrize("what,f,donate,args,deleted,warns", CASES, ids=[c[0] for c in CASES])
def test_donated_arrays_are_deleted_like_jax(what, f, donate, args, deleted, warns):
    g = core.jit(f, donate_argnums=donate)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g(*args)
    assert any("Some donated buffers were not usable" in str(w.message) for w in caught) == warns
    got = [all(x.is_deleted() for x in core.tree_util.tree_leaves(a)) for a in args]
    assert got == deleted
    for a, gone in zip(args, got):
        if gone:
            with pytest.raises(DeletedArrayError, match=r"^Array has been deleted with shape="):
                core.tree_util.tree_map(lambda x: x + 1, a)


def test_donate_argnames_and_numpy_inputs():
    x = jnp.ones(3)
    core.jit(lambda a, k: a * k, donate_argnames="a")(x, 2.0)
    assert x.is_deleted()
    n = np.ones(3, np.float32)
    out = core.jit(lambda a: a * 2, donate_argnums=0)(n)
    np.testing.assert_array_equal(n, 1.0)  # copied in, never deleted
    np.testing.assert_array_equal(np.asarray(out), 2.0)


def test_a_training_loop_on_donated_state_asynchronous_calls_included():
    step = core.jit(lambda w, x: w - 0.01 * (x.T @ (x @ w)), donate_argnums=0)
    x = jnp.ones((256, 256)) / 256  # a call worth queueing on the device
    w = jnp.ones((256, 256))
    old = []
    for _ in range(5):
        old.append(w)
        w = step(w, x)
    want = np.ones((256, 256), np.float32)
    for _ in range(5):
        want = want - 0.01 * (np.ones((256, 256), np.float32) / 256).T @ (
            np.ones((256, 256), np.float32) / 256 @ want
        )
    np.testing.assert_allclose(np.asarray(w), want, rtol=1e-5)
    core.effects_barrier()
    assert all(o.is_deleted() for o in old) and not w.is_deleted() and not x.is_deleted()


def test_a_donated_array_returned_unchanged_is_deleted_and_the_output_is_new():
    x = jnp.ones(3)
    y = core.jit(lambda a: a, donate_argnums=0)(x)
    assert x.is_deleted() and y is not x and not y.is_deleted()
    np.testing.assert_array_equal(np.asarray(y), 1.0)


# (donated positions, XLA's message for f(x, x)): the call fails, nothing is deleted.
REUSE = [
    (
        0,
        r"use a buffer that was previously donated .* \(flattened argument 1, replica 0, "
        r"partition 0, first use: 0\)\. Toy example for this bug: `f\(donate\(a\), a\)`",
    ),
    ((0, 1), r"use a buffer that was previously donated .*first use: 0\)"),
    (1, r"donate a buffer which is also used by .*Toy example for this bug: `f\(a, donate\(a\)\)`"),
]
# XLA's message when both are donated and each output takes one (JAX 0.10.2): a TrainState
# whose two fields hold one array, donated
TWICE = (
    r"^INVALID_ARGUMENT: Attempt to donate the same buffer twice in Execute\(\) \(flattened "
    r"argument 1, replica 0, partition 0, first use: 0\)\. Toy example for this bug: "
    r"`f\(donate\(a\), donate\(a\)\)`\.$"
)


@pytest.mark.parametrize("donate,message", REUSE)
def test_an_array_passed_twice_once_donated_fails_like_xla(donate, message):
    x = jnp.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (0, 1): one of the two is not usable
        with pytest.raises(JaxRuntimeError, match="^INVALID_ARGUMENT: Attempt to " + message):
            core.jit(lambda a, b: a + b, donate_argnums=donate)(x, x)
    assert not x.is_deleted()
    core.jit(lambda a, b: a + b, donate_argnums=0)(x, x + 0)  # a copy is fine
    assert x.is_deleted()


def test_one_array_donated_twice_fails_like_xla():
    x = jnp.ones(3)
    step = core.jit(lambda s: {k: v + 1 for k, v in s.items()}, donate_argnums=0)
    with pytest.raises(JaxRuntimeError, match=TWICE):
        step({"params": x, "ema": x})
    assert not x.is_deleted()


@pytest.mark.parametrize(
    "kwargs",
    [dict(static_argnums=1, donate_argnums=1), dict(static_argnames="n", donate_argnames="n")],
)
def test_static_and_donated_arguments_cannot_intersect(kwargs):
    with pytest.raises(
        ValueError,
        match=r"^static_argnames and donate_argnames cannot intersect\. "
        r"Argument names \{'n'\} appear in both",
    ):
        core.jit(lambda x, n: x, **kwargs)


def test_keep_unused_keeps_an_unused_donated_argument_in_the_match():
    a, b = jnp.ones(3), jnp.ones(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        core.jit(lambda a, b: b * 2, donate_argnums=(0, 1), keep_unused=True)(a, b)
    assert [a.is_deleted(), b.is_deleted()] == [True, False]  # JAX 0.10.2: the first output fits
    assert any("Some donated buffers were not usable" in str(w.message) for w in caught)


def test_under_disable_jit_nothing_is_deleted():
    a = jnp.ones(3)
    with core.disable_jit():
        out = core.jit(lambda a: a * 2, donate_argnums=0)(a)
    assert not a.is_deleted()  # JAX 0.10.2: the function runs as Python, nothing is donated
    np.testing.assert_array_equal(np.asarray(out), 2.0)


def test_the_unusable_warning_comes_once_per_compiled_program_as_in_jax():
    def warned(f):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f(jnp.ones(3))
        return any("Some donated buffers were not usable" in str(w.message) for w in caught)

    f = core.jit(lambda a: a.sum(), donate_argnums=0)
    g = core.jit(lambda a: a.sum() + 1, donate_argnums=0)
    assert [warned(f), warned(f), warned(g)] == [True, False, True]
