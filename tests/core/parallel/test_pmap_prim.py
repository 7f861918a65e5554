"""The pmap primitive (core/parallel/pmap_prim.py): grad, jvp, vmap and jit of pmapped functions
give JAX 0.10.2's values (8 host devices, the constants below) and still run the per-device
programs on the device threads (the threads placed on the communicator are recorded), derivatives
pass numerical checks, nested pmaps fall back to vmap inside a device's program, and a jitted
pmap dispatched to device 0's worker runs device 0's slice there instead of waiting for it."""

import threading

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.parallel.communicator import ThreadCommunicator
from core.test_util import check_grads

X = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3) / 4
P = np.float32([0.5, -1.0, 2.0])


def _f(p, x):
    y = jnp.sin(p * x)
    return y * lax.psum(y, "i") + lax.pmean(x, "i") ** 2


PF = core.pmap(_f, axis_name="i", in_axes=(None, 0))
FWD = np.float32([[0.46594104, 1.4504414, 2.4013877], [0.6802461, 2.1211643, 1.4263064]])
GRAD_P = np.float32([1.3599892, -2.379572, -3.2608473])

# jax.* of the same programs (see the module docstring), printed by the reference interpreter.
CASES = {
    "grad_p": (lambda: core.grad(lambda p: PF(p, X).sum())(P), GRAD_P),
    "grad_x": (
        lambda: core.grad(lambda x: (PF(P, x) ** 2).sum())(X),
        [[2.0932336, 14.640273, 10.120687], [2.1305485, 9.869091, -8.1014]],
    ),
    "jvp": (
        lambda: core.jvp(lambda x: PF(P, x), (X,), (np.float32([[1.0] * 3, [2.0] * 3]),))[1],
        [[2.3459568, 4.6016307, -0.27284527], [3.063726, 4.9571037, -1.6727476]],
    ),
    "vmap": (
        lambda: core.vmap(lambda x: PF(P, x))(np.stack([X, 2 * X])),
        [FWD, [[1.831892, 4.2741704, 5.0429835], [2.4787567, 3.9242659, 5.101142]]],
    ),
    "jit": (lambda: core.jit(PF)(P, X), FWD),
    "jit_grad": (lambda: core.jit(core.grad(lambda p: PF(p, X).sum()))(P), GRAD_P),
    "hvp": (
        lambda: core.jvp(core.grad(lambda p: PF(p, X).sum()), (P,), (np.ones(3, np.float32),))[1],
        [1.9454379, -3.1908762, 2.100081],
    ),
}


@pytest.fixture
def collective_threads(monkeypatch):
    """The names of the threads that ran a device's program with its collectives (compiled
    collectives meet where `ThreadCommunicator.placed` puts the thread)."""
    names: set[str] = set()
    placed = ThreadCommunicator.placed

    def recording(self, rank):
        names.add(threading.current_thread().name)
        return placed(self, rank)

    monkeypatch.setattr(ThreadCommunicator, "placed", recording)
    return names


@pytest.mark.parametrize("case", sorted(CASES))
def test_transformed_pmaps_give_jaxs_values_on_the_device_threads(case, collective_threads):
    fun, expected = CASES[case]
    np.testing.assert_allclose(np.asarray(fun()), np.float32(expected), rtol=2e-6, atol=2e-6)
    assert collective_threads == {"numbax-cpu:0", "numbax-cpu:1"}


def test_axes_gathers_and_index_under_grad_and_vmap_match_jax(collective_threads):
    def h(x):
        return lax.all_gather(x, "i").sum(0) * (lax.axis_index("i") + 1) + x * lax.psum(x, "i")

    got = core.grad(lambda x: (core.pmap(h, axis_name="i")(x) ** 2).sum())(X)
    expected = [[30.3125, 54.03125, 86.625], [35.78125, 64.75, 104.34375]]
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6)

    pk = core.pmap(lambda a: a * lax.psum(a, "i"), axis_name="i", in_axes=1, out_axes=1)
    z = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    weights = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    got = core.grad(lambda a: jnp.sum(pk(a) * weights))(z)
    np.testing.assert_array_equal(np.asarray(got), [[1.0, 2.0], [23.0, 28.0], [77.0, 86.0]])
    got = core.vmap(pk, in_axes=1)(np.stack([z, z + 1], 1))
    expected = [[[0, 1], [10, 15], [36, 45]], [[3, 6], [21, 28], [55, 66]]]
    np.testing.assert_array_equal(np.asarray(got), expected)
    assert collective_threads == {"numbax-cpu:0", "numbax-cpu:1"}


def test_derivatives_pass_numerical_checks():
    x = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    p = np.array([0.3, -0.7, 1.1])
    with core.config.override("enable_x64", True):
        check_grads(lambda p, x: PF(p, x), (p, x), order=2)
        # out_axes=None: device 0's value; its cotangent flows back through device 0 only.
        unmapped = core.pmap(lambda x: jnp.sin(x) * lax.psum(x, "i"), "i", out_axes=None)
        check_grads(unmapped, (x,), order=1)


def test_the_jaxpr_holds_one_pmap_equation():
    text = str(core.make_jaxpr(lambda p: PF(p, X))(P))
    assert text.count("pmap[") == 1 and "psum[axes=('i',) axis_index_groups=None]" in text
    assert "in_axes=(None, 0)" in text and "axis_size=2" in text


def test_a_nested_pmap_maps_as_vmap_inside_a_device_program(collective_threads):
    inner = core.pmap(lambda y: lax.psum(y, "j"), axis_name="j")
    outer = core.pmap(lambda x: inner(x) * (lax.axis_index("i") + 1), axis_name="i")
    out = core.jit(outer)(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(np.asarray(out), [[3.0] * 3, [6.0] * 3])
    assert collective_threads == {"numbax-cpu:0", "numbax-cpu:1"}


# The Pmap Cookbook's "Composing with differentiation" cell: an inner pmap that closes over the
# outer one's values, under grad. JAX 0.10.2 rejects a pmap inside a pmap; these are its values
# with vmap for both pmaps (numbax maps the inner one as vmap).
NESTED_FWD = [[-0.0, -0.71708286], [-3.1085277, -0.48243338], [10.366485, 13.135097],
              [0.22163028, -0.52111685]]  # fmt: skip
NESTED_GRAD = [[-3.2369647, -1.635644], [4.7571836, 11.607095], [-98.52297, 42.765064],
               [-1.6007087, -1.256835]]  # fmt: skip


def test_an_inner_pmap_closing_over_the_outer_ones_values_under_grad():
    @core.pmap
    def f(x):
        y = jnp.sin(x)

        @core.pmap
        def g(z):
            return jnp.cos(z) * jnp.tan(y.sum()) * jnp.tanh(x).sum()

        return core.grad(lambda w: jnp.sum(g(w)))(x)

    x = jnp.arange(8.0).reshape((4, 2))
    np.testing.assert_allclose(np.asarray(f(x)), NESTED_FWD, rtol=1e-5, atol=1e-6)
    grad = core.grad(lambda x: jnp.sum(f(x)))(x)
    np.testing.assert_allclose(np.asarray(grad), NESTED_GRAD, rtol=1e-5, atol=1e-5)


# A pmap of concrete arguments closing over a transformation's tracer -> JAX 0.10.2's result
ONES = np.ones((2, 3), np.float32)
CLOSURES = [
    (lambda: core.grad(lambda s: core.pmap(lambda x: jnp.sin(x * s))(ONES).sum())(2.0),
     np.float32(-2.496881)),
    (lambda: core.jit(lambda s: core.pmap(lambda x: x * s)(ONES))(2.0), np.full((2, 3), 2.0)),
    (lambda: core.vmap(lambda s: core.pmap(lambda x: x * s)(ONES))(jnp.arange(3.0)),
     np.arange(3.0)[:, None, None] * np.ones((3, 2, 3))),
]  # fmt: skip


@pytest.mark.parametrize("run, want", CLOSURES)
def test_a_pmap_closing_over_a_tracer_binds_the_primitive(run, want):
    np.testing.assert_allclose(np.asarray(run()), want, rtol=1e-6)


def test_a_jitted_pmap_dispatched_to_device_0_runs_its_slice_there(collective_threads):
    # Every jitted call goes to device 0's worker; its pmap host call cannot queue device 0's
    # slice behind itself, so it runs it inline and the other device's on its own thread.
    with core.config.override("async_dispatch_min_us", 0):
        out = core.jit(PF)(P, X)
        np.testing.assert_allclose(np.asarray(out), FWD, rtol=2e-6)
    assert collective_threads == {"numbax-cpu:0", "numbax-cpu:1"}


def test_jacfwd_and_hessian_of_a_pmap_keep_the_unbatched_primal_unbatched():
    # vmap of the pmap's jvp batches only the tangents: the primal output stays unbatched
    # JAX 0.10.2 printed these (8 host devices)
    jac = core.jacfwd(core.pmap(lambda x: x**2))(np.arange(4.0, dtype=np.float32))
    np.testing.assert_array_equal(jac, np.diag(np.float32([0.0, 2.0, 4.0, 6.0])))
    hess = core.hessian(lambda x: core.pmap(lambda v: v**3)(x).sum())(np.arange(2.0))
    np.testing.assert_array_equal(hess, np.float32([[0.0, 0.0], [0.0, 6.0]]))
    two = core.vmap(core.pmap(lambda x, y: (x * 2, y + 1)), in_axes=(0, None))
    doubled, plus_one = two(np.ones((3, 8), np.float32), np.arange(8.0, dtype=np.float32))
    np.testing.assert_array_equal(doubled, np.full((3, 8), 2.0, np.float32))
    np.testing.assert_array_equal(plus_one, np.tile(np.arange(1.0, 9.0, dtype=np.float32), (3, 1)))
