"""Transformations in several threads at once: the current trace is per thread, as in JAX."""

import threading

import numpy as np

import core
import core.numpy as jnp


def _f(x):
    return jnp.sum(jnp.tanh(x) * x)


def _df(x: np.ndarray) -> np.ndarray:
    t = np.tanh(x)
    return t + x * (1 - t * t)


def test_grad_vmap_jit_run_concurrently(run_threads):
    jitted = core.jit(core.grad(_f))
    jitted(jnp.zeros(6))  # compile once, before the threads start

    def work(seed: int) -> None:
        for step in range(20):
            x = np.linspace(-2, 2, 6, dtype=np.float32) + 0.1 * (seed + step)
            want = _df(x)
            np.testing.assert_allclose(core.grad(_f)(x), want, rtol=1e-5, atol=1e-6)
            batched = core.vmap(core.grad(_f))(x.reshape(2, 3))
            np.testing.assert_allclose(batched.reshape(-1), want, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(jitted(x), want, rtol=1e-5, atol=1e-6)
            # a jit traced in this thread while others trace theirs
            traced = core.jit(lambda v, s=step: core.grad(_f)(v) * (s + 1))(x)
            np.testing.assert_allclose(traced, want * (step + 1), rtol=1e-5, atol=1e-6)

    run_threads(work, 4)


def test_new_thread_starts_at_the_eval_trace():
    from core.trace import EvalTrace, current_trace

    seen = []

    def inner(x):
        t = threading.Thread(target=lambda: seen.append(current_trace()))
        t.start()
        t.join()
        return x * 2

    core.grad(inner)(1.0)
    assert isinstance(seen[0], EvalTrace)
