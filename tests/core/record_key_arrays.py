"""Records JAX's results, result types and `make_jaxpr` texts for the cases of
`key_array_cases.py` into `jax_key_arrays.json`, and the results of its `op_cases` (eager,
`vmap`, `jit`) into `jax_key_array_ops.json`. Run with the reference venv from the worktree
root: `/opt/ref/bin/python tests/core/record_key_arrays.py`."""

import json
import pathlib
import sys

import jax

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from key_array_cases import JIT, OP_JIT, cases, error_row, op_cases, summary  # noqa: E402


def _run(fun, args):
    try:
        out = fun(*args)
    except Exception as e:  # noqa: BLE001  (recorded: the test expects the error)
        return error_row(e)
    return summary(jax, out)


def main() -> None:
    table = {}
    for name, (fun, args) in cases(jax).items():
        try:
            text = str(jax.make_jaxpr(fun)(*args))
        except Exception as e:  # noqa: BLE001
            text = " ".join(error_row(e))
        table[name] = {"out": _run(fun, args), "jaxpr": text}
        if name in JIT:  # XLA may round otherwise than op by op (an FMA)
            table[name]["jit_out"] = _run(jax.jit(fun), args)
    out = pathlib.Path(__file__).parent / "jax_key_arrays.json"
    out.write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(table)} cases -> {out}")
    ks, batch = jax.random.split(jax.random.key(0), 3), jax.random.split(jax.random.key(1), (2, 3))
    ops = {}
    for name, fun in op_cases(jax).items():
        ops[name] = {"out": _run(fun, (ks,)), "vmap_out": _run(jax.vmap(fun), (batch,))}
        if name in OP_JIT:
            ops[name]["jit_out"] = _run(jax.jit(fun), (ks,))
    out = pathlib.Path(__file__).parent / "jax_key_array_ops.json"
    out.write_text(json.dumps(ops, indent=1) + "\n")
    print(f"{len(ops)} cases -> {out}")


if __name__ == "__main__":
    main()
