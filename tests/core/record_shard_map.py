"""Records JAX's `make_jaxpr` text and values for the table of `shard_map_cases.py` into
`jax_shard_map.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/record_shard_map.py`."""

import json
import pathlib
import re
import sys
import types
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import PartitionSpec

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shard_map_cases import cases  # noqa: E402


def _sorted_manual_axes(text: str) -> str:
    """`newly_manual_axes=frozenset({...})` with the names sorted (JAX prints them in hash
    order, which changes from run to run; the table's mesh axes are in sorted order)."""

    def sort(m):
        return "frozenset({" + ", ".join(sorted(m.group(1).split(", "))) + "})"

    return re.sub(r"frozenset\(\{([^}]*)\}\)", sort, text)


def main() -> None:
    warnings.simplefilter("ignore")
    jax.config.update("jax_num_cpu_devices", 8)
    m = types.SimpleNamespace(jax=jax, jnp=jnp, lax=lax, P=PartitionSpec)
    texts, values = {}, {}
    for name, (fun, args) in cases(m).items():
        try:
            texts[name] = _sorted_manual_axes(str(jax.make_jaxpr(fun)(*args)))
        except Exception as e:  # noqa: BLE001  (recorded: numbax must raise the same)
            texts[name] = f"error: {type(e).__name__}: {e}"
            values[name] = None
            continue
        leaves = jax.tree.leaves(fun(*args))
        values[name] = [[str(np.asarray(v).dtype), np.asarray(v).tolist()] for v in leaves]
    out = pathlib.Path(__file__).parent / "jax_shard_map.json"
    record = {"jax": jax.__version__, "jaxprs": texts, "values": values}
    out.write_text(json.dumps(record, indent=0) + "\n")


if __name__ == "__main__":
    main()
