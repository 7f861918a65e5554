"""`optim.perturbations` (`optax.perturbations`): values and derivatives of perturbed
functions equal Optax 0.2.8's (same keys: the samples are JAX's bits; the Gumbel and normal
transforms agree to float32 ulps)."""

import numpy as np

import core
import core.numpy as jnp
import optim
from optim import perturbations

KEY = core.random.key(0)


def _relu_sum(x):
    return jnp.sum(jnp.maximum(x, 0.0))


def test_optax_docstring_example_and_higher_derivatives():
    fn = perturbations.make_perturbed_fun(_relu_sum, 1_000, 0.1)
    x = jnp.zeros(3)
    got = core.grad(fn, argnums=1)(KEY, x)
    np.testing.assert_allclose(got, [0.686248242855072, 0.7189714908599854, 0.5796615481376648],
                               rtol=1e-5)  # fmt: skip
    np.testing.assert_allclose(float(core.jit(fn)(KEY, x + 0.05)), 0.3474043607711792, rtol=1e-5)
    second = core.grad(lambda x: core.grad(fn, argnums=1)(KEY, x).sum())(x)
    np.testing.assert_allclose(second, [2.6007578372955322, 4.424688339233398, 1.322172999382019],
                               rtol=1e-5)  # fmt: skip


def test_pytrees_normal_noise_without_baseline():
    tree = {"a": jnp.array([0.3, -0.2]), "b": jnp.array(1.5)}

    def f(t):
        return {"m": jnp.argmax(t["a"]).astype(jnp.float32) * t["b"], "s": jnp.sign(t["a"])}

    pn = perturbations.make_perturbed_fun(f, 200, 0.5, noise=perturbations.Normal(),
                                          use_baseline=False)  # fmt: skip
    out = pn(core.random.key(3), tree)
    np.testing.assert_allclose(float(out["m"]), 0.33224597573280334, rtol=1e-5)
    np.testing.assert_allclose(out["s"], [0.37, -0.28], rtol=1e-5)
    jac = core.jacobian(lambda t: pn(core.random.key(3), t)["m"])(tree)
    np.testing.assert_allclose(jac["a"], [-0.7407928705215454, 0.5468429923057556], rtol=1e-5)
    np.testing.assert_allclose(float(jac["b"]), 0.18899661302566528, rtol=1e-5)


def test_is_optaxs_module():
    assert optim.perturbations is perturbations
    assert sorted(perturbations.__all__) == ["Gumbel", "Normal", "make_perturbed_fun"]
