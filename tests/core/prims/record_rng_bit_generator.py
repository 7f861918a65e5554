"""Records JAX's `lax.rng_bit_generator` on the cases of `rng_bit_generator_cases.py` into
`jax_rng_bit_generator.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/prims/record_rng_bit_generator.py`."""

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import rng_bit_generator_cases as cases  # noqa: E402


def _draw(key, shape, dtype, algorithm):
    new_key, bits = lax.rng_bit_generator(
        key, shape, dtype=dtype, algorithm=getattr(lax.RandomAlgorithm, algorithm)
    )
    return {"key": np.asarray(new_key).tolist(), "bits": np.asarray(bits).ravel().tolist()}


def main() -> None:
    table = {}
    for name, words in cases.KEYS.items():
        key = jnp.asarray(np.array(words, np.uint32))
        for shape in cases.SHAPES:
            for dtype in cases.DTYPES:
                for alg in cases.ALGORITHMS:
                    table[f"{name}|{shape}|{dtype}|{alg}"] = _draw(key, shape, dtype, alg)
    for name, words in cases.X64_KEYS.items():
        key = jnp.asarray(np.array(words, np.uint64))
        for shape in cases.X64_SHAPES:
            for dtype in ("uint32", "uint64"):
                for alg in cases.ALGORITHMS:
                    table[f"{name}|{shape}|{dtype}|{alg}"] = _draw(key, shape, dtype, alg)
    # uint64 bits from a uint32[4] key
    key = jnp.asarray(np.array(cases.KEYS["carry"], np.uint32))
    for shape in cases.X64_SHAPES:
        for alg in cases.ALGORITHMS:
            table[f"carry|{shape}|uint64|{alg}"] = _draw(key, shape, "uint64", alg)
    # vmap: the first key draws the batch; only it is advanced
    keys = jnp.asarray(np.array([cases.KEYS["small"], cases.KEYS["carry"]], np.uint32))
    new_keys, bits = jax.vmap(lambda k: lax.rng_bit_generator(k, (3,), dtype="uint32"))(keys)
    table["vmap"] = {"key": np.asarray(new_keys).tolist(), "bits": np.asarray(bits).tolist()}
    out = pathlib.Path(__file__).parent / "jax_rng_bit_generator.json"
    out.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print(f"{len(table)} cases -> {out}")


if __name__ == "__main__":
    main()
