"""Writes `answers/<name>.json`: the programs of `programs/` (all, or the ones named on the
command line) run unchanged on JAX (run with `/opt/ref/bin/python
tests/porting/record_answers.py [name ...]` from the repository root; JAX is never a dependency
of numbax, the test reads the files). Eight CPU devices, as numbax's tests have."""

import json
import sys
import types
from pathlib import Path

import jax

jax.config.update("jax_num_cpu_devices", 8)
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.porting.common import PROGRAMS, answer_path, program_names, summary  # noqa: E402


def run(name: str):
    """The summary of program `name`'s `run()` on JAX."""
    module = types.ModuleType(f"jax_{name}")
    sys.modules[module.__name__] = module
    path = PROGRAMS / f"{name}.py"
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return summary(module.run())


if __name__ == "__main__":
    for name in sys.argv[1:] or program_names():
        answer = json.dumps(run(name), indent=1, sort_keys=True) + "\n"
        answer_path(name).write_text(answer)
        print(name, "recorded")
