"""`shard_map` (and `pmap`, and `vmap` of a psum) against JAX 0.10.2: `make_jaxpr`'s text and
the values, eagerly and under `jit`, for the table of `shard_map_cases.py` (recorded by
`record_shard_map.py` into `jax_shard_map.json`; JAX is not imported here).

The cases numbax prints as JAX does must stay equal; the others are listed in `DIFFERENT` with
the reasons, as strict expected failures (one that starts matching is to be moved out of it).
Every case's values are JAX's but those of `VALUES_DIFFERENT`."""

import json
import pathlib
import types
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.sharding import PartitionSpec
from tests.core.shard_map_cases import cases

RECORDED = json.loads((pathlib.Path(__file__).parent / "jax_shard_map.json").read_text())
CASES = cases(types.SimpleNamespace(jax=core, jnp=jnp, lax=lax, P=PartitionSpec))

# Why numbax's text differs:
RESIDUALS = (
    "partial evaluation gives every residual a leading unit axis split over the mesh axes it "
    "varies along (JAX forwards inputs and keeps the residuals' own shapes)"
)
PMAP = "pmap is its own primitive (JAX 0.10.2: jit of a shard_map of the per-device program)"
BATCH_FIRST = "vmap moves the batch axis first (JAX splits it where it is)"
SCAN_HOIST = (
    "scan's partial evaluation keeps loop-invariant residuals in the loop (JAX hoists them: "
    "its pvary of a replicated const is outside the scan)"
)

DIFFERENT = {
    "grad_of_a_loss": [RESIDUALS],
    "grad_unchecked": [RESIDUALS],
    "grad_unchecked_replicated_input": [RESIDUALS],
    "vmap_over_axis_1": [BATCH_FIRST],
    "grad_through_scan_inside_body": [SCAN_HOIST],
    "grad_psum_scatter_pmean_two_axes": [RESIDUALS],
    "jit_grad_remat_fsdp_tp": [RESIDUALS],
    "pmap_psum": [PMAP],
}

# (case, "eager" or "jit") -> why numbax's values (or error) differ from JAX's
VALUES_DIFFERENT: dict = {}


def test_table_is_recorded():
    assert set(CASES) == set(RECORDED["jaxprs"]) == set(RECORDED["values"])
    errors = {n for n, text in RECORDED["jaxprs"].items() if text.startswith("error: ")}
    assert errors == {n for n, v in RECORDED["values"].items() if v is None}
    assert set(DIFFERENT) <= set(CASES)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="; ".join(DIFFERENT[n])))
        if n in DIFFERENT
        else n
        for n in sorted(CASES)
    ],
)
def test_jaxpr_text_is_jaxs(name):
    fun, args = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            text = str(core.make_jaxpr(fun)(*args))
        except ValueError as e:  # JAX's errors are ValueErrors: the recorded text is its text
            text = f"error: ValueError: {e}"
    assert text == RECORDED["jaxprs"][name]


@pytest.mark.parametrize(
    ("name", "mode"),
    [
        pytest.param(
            n, mode, marks=pytest.mark.xfail(strict=True, reason=VALUES_DIFFERENT[n, mode])
        )
        if (n, mode) in VALUES_DIFFERENT
        else (n, mode)
        for n in sorted(CASES)
        for mode in ("eager", "jit")
    ],
)
def test_values_are_jaxs(name, mode):
    fun, args = CASES[name]
    jitted = mode == "jit"
    want = RECORDED["values"][name]
    if want is None:  # JAX raises (the text test compares the messages)
        with pytest.raises(ValueError, match="out_specs which require replication"):
            (core.jit(fun) if jitted else fun)(*args)
        return
    out = core.tree.leaves((core.jit(fun) if jitted else fun)(*args))
    assert len(out) == len(want)
    for got, (dtype, value) in zip(out, want):
        assert str(np.asarray(got).dtype) == dtype
        np.testing.assert_allclose(np.asarray(got), np.asarray(value, dtype), rtol=2e-6, atol=1e-6)
