"""Records JAX's docstring examples and their actual outputs for an example set of
`examples.SETS` into ``jax_<set>.json``. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/docexamples/record.py api` (or ``numpy``, ``optax_flax``)."""

import json
import os
import pathlib
import sys
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import examples  # noqa: E402


def main(name: str) -> None:
    warnings.simplefilter("ignore")
    # eight CPU devices, as JAX's doctests and numbax's tests (tests/conftest.py) see
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    import jax

    found = examples.extract(name)
    for obj, cases in found.items():
        globs = examples.start(name, examples.namespace(jax))
        outputs = examples.run([c["source"] for c in cases], globs)
        for case, output in zip(cases, outputs):
            case["jax"] = output
        print(f"{obj}: {len(cases)} examples", file=sys.stderr)
    record = {"jax": jax.__version__, "examples": found}
    examples.recorded_path(name).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
