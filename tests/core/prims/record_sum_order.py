"""Records JAX's bits of large float sums for test_sum_order.py (`sum_order_jax.json`).

Run with the reference interpreter: `/opt/ref/bin/python tests/core/prims/record_sum_order.py`.
Each case is a reduction form (`FORMS`) of `data(shape, dtype)` over `axes`, computed by JAX on
the CPU eagerly and under `jax.jit` (float64 with x64 on); the file keeps a digest of every bit
of each result (eager, jitted) and the bits of its first element.
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from sum_order_cases import CASES, FORMS, UNMATCHED, data, digest  # noqa: E402

jax.config.update("jax_enable_x64", True)


def _record(cases: list) -> list:
    out = []
    for form, shape, axes, dtype in cases:
        x = data(shape, dtype)
        fn = FORMS[form](jnp, axes)
        eager = np.asarray(fn(jnp.asarray(x)))
        jitted = np.asarray(jax.jit(fn)(x))
        assert eager.dtype == np.dtype(dtype)
        head = int(eager.reshape(-1)[:1].view(np.uint32 if dtype == "float32" else np.uint64)[0])
        out.append([form, list(shape), axes, dtype, digest(eager), digest(jitted), head])
    return out


def main() -> None:
    record = {"jax": jax.__version__, "cases": _record(CASES), "unmatched": _record(UNMATCHED)}
    path = pathlib.Path(__file__).with_name("sum_order_jax.json")
    rows = lambda cases: ",\n".join(f"  {json.dumps(c)}" for c in cases)  # noqa: E731
    path.write_text(
        f'{{"jax": "{record["jax"]}",\n"cases": [\n{rows(record["cases"])}\n],\n'
        f'"unmatched": [\n{rows(record["unmatched"])}\n]}}\n'
    )


if __name__ == "__main__":
    main()
