"""Records what the real libraries (JAX, and Optax and Flax where a case file imports them)
print for each example of a case file into ``recorded/<name>.json``. Run with the reference
venv from the worktree root: `/opt/ref/bin/python tests/api_examples/record.py numpy_a_i`
(several names, or none for every case file)."""

import importlib.metadata
import json
import os
import pathlib
import sys
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import examples  # noqa: E402


def record(name: str) -> None:
    """Run case file `name`'s sections on the real libraries and write the recording."""
    import jax

    _, sections, _ = examples.parse(name)
    recorded = {}
    for obj, sources in sections.items():
        namespace = examples.start(name, examples.namespace(jax))
        outputs = examples.run(sources, namespace)
        recorded[obj] = [{"source": s, "real": o} for s, o in zip(sources, outputs)]
        print(f"{name}: {obj}: {len(sources)} examples", file=sys.stderr)
    versions = {p: importlib.metadata.version(p) for p in ("jax", "optax", "flax")}
    record = {"versions": versions, "examples": recorded}
    path = examples.recorded_path(name)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(path)


def main(names: list[str]) -> None:
    warnings.simplefilter("ignore")
    # eight CPU devices, as numbax's tests see (tests/conftest.py)
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    for name in names or examples.case_files(""):
        record(name)


if __name__ == "__main__":
    main(sys.argv[1:])
