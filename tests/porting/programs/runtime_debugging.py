"""Seeing and checking runtime values: `jax.debug.print`, `jax.debug.callback`, `checkify` and
the NaN checker, on functions of our own.

Checks what JAX's debugging guides describe: Python's `print` showing tracers while
`jax.debug.print` shows values under `jit` (keyword and positional fields, a format spec),
under `vmap` (each print for the whole batch in turn), `lax.map` and `pmap` (lines compared
sorted: the order is free), `grad` (the primal only), `ordered=True`, in a `custom_vjp`'s
backward pass (the cotangent), around `block_until_ready` and `jax.effects_barrier`; a
`jax.debug.breakpoint` in a `lax.cond` branch that is not taken; `jax.debug.callback` logging
under `jit`, `vmap` (sorted: JAX's batched callbacks log in any order) and `grad` (the root
logger's warnings captured). `checkify`: `check` with
formatted array arguments and the error of a Python int as one, `err.get()` and `err.throw()`
under `jit`, the `user_checks | index_checks | float_checks` and `nan_checks`/`all_checks`
sets, a `check` staged without `checkify` (its error), errors of `vmap` and `pmap` of a
checkified function and `checkify` of a `vmap`ped one, `checkify` of `jit` and `jit` of
`checkify`, a `check` in a `custom_vjp` backward pass; Python `assert` under `grad` and `jit`,
and an error flag returned by hand. The NaN checker (`jax_debug_nans` by `config.update` and
by `jax.debug_nans`): eager, under `jit` (the de-optimized re-run's message; on Python floats
the re-run's own `ZeroDivisionError`), the exception line of a traceback, and switched off.
"""

import contextlib
import io
import logging
import sys
import traceback

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import checkify

from tests.porting import printed


def run():
    try:
        out = printed.notebook(_cells)
    finally:
        jax.config.update("jax_debug_nans", False)
    # JAX also prints the NaN checker's re-run message for its own jitted `jnp` functions (one
    # line per function, eager calls too); numbax's are not jitted: whether a cell printed it.
    deopt = {
        cell: any("de-optimized version" in line[0] for line in lines)
        for cell, lines in out["printed"].items()
    }
    out["deoptimized"] = [cell for cell, seen in deopt.items() if seen]
    out["printed"] = {
        cell: [line for line in lines if "de-optimized version" not in line[0]]
        for cell, lines in out["printed"].items()
    }
    return out


def _unordered(f, *args):
    """`f(*args)`, what it printed sorted (the order of unordered prints is free)."""
    with contextlib.redirect_stdout(io.StringIO()) as buffer:
        result = f(*args)
        jax.effects_barrier()
    print("\n".join(sorted(buffer.getvalue().splitlines())))
    return result


class _CurrentStdout:
    """A logging handler's stream: whatever `sys.stdout` is when a record is written."""

    def write(self, text: str) -> None:
        sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()


def _raises(f, *args):
    """Calls `f(*args)` and prints the class and first line of what it raised."""
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")


def _prints(out, mark):
    @jax.jit
    def damped(x):
        print("print sees", x)
        jax.debug.print("debug.print sees x={x} and exp(-x)={e}", x=x, e=jnp.exp(-x))
        z = x * jnp.exp(-x)
        jax.debug.print("positional {} then {:.3f}", x, z)
        return z

    out["damped"] = damped(1.5)
    mark("jit")

    def noisy(v):
        jax.debug.print("in {}", v)
        w = jnp.cos(v) + v
        jax.debug.print("out {}", w)
        return w

    out["vmap"] = jax.vmap(noisy)(jnp.array([0.0, 0.5, 1.0]))
    mark("vmap")
    out["lax_map"] = _unordered(lax.map, noisy, jnp.array([2.0, 3.0]))
    mark("lax_map")
    out["pmap"] = _unordered(jax.pmap(noisy), jnp.array([-1.0, 4.0, 9.0]))
    mark("pmap")
    out["grad"] = jax.grad(noisy)(0.25)
    mark("grad")

    @jax.jit
    def two_prints(a, b):
        jax.debug.print("first {}", b, ordered=True)
        jax.debug.print("second {}", a, ordered=True)
        return a * b

    printed.show(two_prints(6, 7))
    mark("ordered")

    @jax.custom_vjp
    def spy(x):
        return x

    def spy_bwd(_, ct):
        jax.debug.print("cotangent {}", ct)
        return (ct,)

    spy.defvjp(lambda x: (x, None), spy_bwd)
    printed.show(jax.grad(lambda x: 3.0 * spy(x) ** 2)(2.0))
    mark("custom_vjp")

    @jax.jit
    def passthrough(x):
        jax.debug.print("saw {}", x)
        return x + 1

    passthrough(4.0).block_until_ready()
    jax.effects_barrier()
    mark("barrier")

    def stop_if_bad(x):
        lax.cond(jnp.all(jnp.isfinite(x)), lambda x: None, lambda x: jax.debug.breakpoint(), x)

    @jax.jit
    def ratio(a, b):
        r = a / b
        stop_if_bad(r)
        return r

    out["no_breakpoint"] = ratio(jnp.array([3.0, 1.0]), jnp.array([2.0, 4.0]))
    mark("breakpoint")


def _callbacks(mark):
    handler = logging.StreamHandler(_CurrentStdout())
    handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logging.getLogger().addHandler(handler)
    try:

        def report(v):
            logging.warning(f"value {v}")

        @jax.jit
        def logged(v):
            jax.debug.callback(report, v * 2)
            return jnp.sin(v)

        logged(0.5)
        mark("callback")
        _unordered(jax.vmap(logged), jnp.arange(3.0))
        mark("callback_vmap")
        jax.grad(logged)(0.5)
        mark("callback_grad")
    finally:
        logging.getLogger().removeHandler(handler)


def _checkify(out, mark):
    def pick(table, k):
        checkify.check(k < table.shape[0], "row {k} is past the end", k=k)
        return jnp.log(table[k])

    checked = jax.jit(checkify.checkify(pick))
    err, value = checked(jnp.arange(1.0, 4.0), 7)
    print(err.get())
    err, value = checked(jnp.arange(1.0, 4.0), 1)
    print(err.get(), value)
    _raises(err.throw)
    _raises(checkify.checkify(pick), jnp.ones(3), 1)  # k a Python int: not formattable
    mark("check")

    def pick_any(table, k):
        checkify.check(k >= 0, "negative row")
        return jnp.log(table[k])

    everything = checkify.user_checks | checkify.index_checks | checkify.float_checks
    guarded = checkify.checkify(pick_any, errors=everything)
    for table, k in [
        (jnp.ones(3), 5),
        (jnp.ones(3), -2),
        (jnp.array([-1.0, 2.0]), 0),
        (jnp.array([-1.0, 2.0]), 1),
    ]:
        err, value = guarded(table, k)
        _raises(err.throw)
    out["guarded"] = value
    _raises(jax.jit(pick_any), jnp.ones(3), 1)
    mark("check_sets")

    all_guarded = checkify.checkify(pick_any, errors=checkify.all_checks)
    errs, out["checked_vmap"] = jax.vmap(all_guarded)(jnp.ones((3, 4)), jnp.array([-1, 1, 9]))
    _raises(errs.throw)
    errs, out["checked_pmap"] = jax.pmap(all_guarded)(jnp.ones((2, 4)), jnp.array([2, -3]))
    _raises(errs.throw)
    err, out["checkify_of_vmap"] = checkify.checkify(
        jax.vmap(pick_any), errors=checkify.all_checks
    )(jnp.ones((3, 4)), jnp.array([1, -1, 9]))
    _raises(err.throw)
    mark("check_batched")

    def at(x, i):
        return x[i]

    print(checkify.checkify(jax.jit(at), errors=checkify.index_checks)(jnp.ones(4), 6)[0].get())
    print(jax.jit(checkify.checkify(at, errors=checkify.index_checks))(jnp.ones(4), 6)[0].get())
    err, _ = checkify.checkify(
        jax.grad(lambda x: x / (2.0 + jnp.sqrt(x))), errors=checkify.nan_checks
    )(0.0)
    print(err.get())

    @jax.custom_vjp
    def decreasing(x):
        return x

    def bwd(_, ct):
        checkify.check(ct < 0, "cotangent must be negative")
        return (ct,)

    decreasing.defvjp(lambda x: (x, None), bwd)
    _raises(jax.grad(decreasing), 2.0)
    printed.show(jax.grad(lambda x: -decreasing(x))(2.0))
    mark("check_transforms")

    def positive_log(x):
        assert x > 0, "needs a positive input"
        return jnp.log(x)

    _raises(jax.grad(positive_log), -1.0)
    _raises(jax.jit(positive_log), 2.0)

    @jax.jit
    def flagged_log(x):
        return x <= 0, jnp.log(x)

    bad, y = flagged_log(-1.0)
    print(bool(bad), y)
    mark("assert")


def _nans(mark):
    def spread(x, y):
        s = x * y
        return s + (x + y) / (x - y)

    with jax.debug_nans(True):
        _raises(jnp.divide, 0.0, 0.0)
        _raises(jax.jit(spread), jnp.array([1.0, 0.0]), jnp.array([2.0, 0.0]))
        # the de-optimized re-run calls the Python function on the Python floats it was given
        _raises(jax.jit(spread), 0.0, 0.0)
    printed.show(jax.jit(spread)(jnp.array([1.0, 0.0]), jnp.array([2.0, 0.0])))
    mark("debug_nans")

    jax.config.update("jax_debug_nans", True)

    def negative_log(x):
        return jnp.log(-(x**2))

    try:
        negative_log(3.0)
    except FloatingPointError:
        lines = traceback.format_exc(limit=1).splitlines()
        print(next(line for line in lines if line.startswith("FloatingPointError")))
    _raises(jax.jit(negative_log), 3.0)
    with jax.debug_nans(False):
        print(jax.jit(negative_log)(3.0))
    jax.config.update("jax_debug_nans", False)
    mark("debug_nans_config")


def _cells(out, errors, mark):
    _prints(out, mark)
    _callbacks(mark)
    _checkify(out, mark)
    _nans(mark)
