"""Records JAX's results, result types and `make_jaxpr` texts for the cases of
`key_array_cases.py` into `jax_key_arrays.json`. Run with the reference venv from the worktree
root: `/opt/ref/bin/python tests/core/record_key_arrays.py`."""

import json
import pathlib
import sys

import jax

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from key_array_cases import JIT, cases, error_row, summary  # noqa: E402


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


if __name__ == "__main__":
    main()
