"""JAX's docstring examples, shared by `record.py` (run on JAX 0.10.2) and the tests that run
them on numbax: extraction with `doctest.DocTestParser`, running one object's examples in one
namespace as doctest does (an expression statement prints its repr), and comparing outputs.

The recorded file (``jax_<set>.json``) holds, per public object (``jax.lax.scan``,
``jax.custom_jvp.defjvps``), each example's source, the docstring's printed output and JAX's
actual output (docstrings can be stale); numbax runs the same sources with JAX's names mapped
(`numbax_namespace`, `flaxport.port.port_source` for import lines).
"""

import builtins
import contextlib
import doctest
import functools
import importlib
import inspect
import io
import json
import math
import os
import re
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# The example sets: name -> the JAX modules whose public objects' docstrings are read. A set
# leaves out the docstrings of the sets before it (`jnp.ndarray` is `jax.Array`: its methods'
# examples are the numpy set's).
_SCIPY_STATS = [
    "bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma",
    "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic", "multinomial",
    "multivariate_normal", "nbinom", "norm", "pareto", "poisson", "t", "truncnorm", "uniform",
    "vonmises", "wrapcauchy",
]  # fmt: skip
SETS = {
    "numpy": ["jax.numpy", "jax.numpy.fft", "jax.numpy.linalg"],
    "api": [
        "jax",
        "jax.lax",
        "jax.lax.linalg",
        "jax.nn",
        "jax.nn.initializers",
        "jax.random",
        "jax.tree",
        "jax.tree_util",
        "jax.flatten_util",
        "jax.dtypes",
        "jax.debug",
        "jax.custom_derivatives",
        "jax.custom_batching",
        "jax.ad_checkpoint",
        "jax.errors",
        "jax.ref",
        "jax.profiler",
        "jax.export",
        "jax.experimental.checkify",
        "jax.image",
        "jax.ops",
        "jax.sharding",
        "jax.scipy.special",
        "jax.scipy.linalg",
        "jax.scipy.signal",
        "jax.scipy.fft",
        "jax.scipy.integrate",
        "jax.scipy.interpolate",
        "jax.scipy.ndimage",
        "jax.scipy.optimize",
        "jax.scipy.cluster.vq",
        "jax.scipy.spatial.transform",
        "jax.scipy.sparse.linalg",
        "jax.scipy.stats",
        *(f"jax.scipy.stats.{m}" for m in _SCIPY_STATS),
    ],
    "optax_flax": [
        "optax",
        "optax.contrib",
        "optax.losses",
        "optax.schedules",
        "optax.tree",
        "optax.tree_utils",
        "optax.projections",
        "optax.second_order",
        "optax.assignment",
        "optax.perturbations",
        "optax.transforms",
        "optax.microbatching",
        "flax.linen",
        "flax.linen.initializers",
        "flax.linen.spmd",
        "flax.core.meta",
        "flax.training.train_state",
        "flax.training.common_utils",
        "flax.training.dynamic_scale",
        "flax.training.early_stopping",
        "flax.training.checkpoints",
        "flax.traverse_util",
        "flax.serialization",
        "flax.core.frozen_dict",
        "flax.struct",
        "flax.jax_utils",
    ],  # fmt: skip
}

# Imports run before each object's examples of a set, after JAX's doctest names (Flax's
# docstrings use `nn`, `optax` and `random` without importing them); numbax runs them ported.
PRELUDES = {
    "optax_flax": "import optax\nimport flax\nimport flax.linen as nn\nfrom jax import random\n"
}


def recorded_path(name: str) -> Path:
    """The JSON file holding set `name`'s examples and JAX's outputs."""
    return HERE / f"jax_{name}.json"


def _public(module):
    """(name, object) of a module's public attributes (``__all__`` and the names without an
    underscore: Optax's ``__all__`` leaves out ``optimistic_adam``), classes followed by their
    own public methods and properties (``custom_jvp.defjvps``)."""
    names = {*getattr(module, "__all__", ()), *(n for n in dir(module) if not n.startswith("_"))}
    for name in sorted(names):
        obj = getattr(module, name, None)
        if obj is None or inspect.ismodule(obj):
            continue
        yield name, obj
        if inspect.isclass(obj):
            for attr, member in sorted(vars(obj).items()):
                if not attr.startswith("_"):
                    yield f"{name}.{attr}", member


def _doc(obj) -> str | None:
    doc = obj.__func__.__doc__ if isinstance(obj, (staticmethod, classmethod)) else obj.__doc__
    return doc if isinstance(doc, str) else None


def extract(name: str) -> dict[str, list[dict]]:
    """``{"jax.lax.scan": [{"source", "want"}, ...]}``: the docstring examples of the public
    objects of set `name`'s modules, each docstring once (under its first name in the order
    given) and none of an earlier set's; examples marked ``+SKIP`` are left out, as doctest
    does."""
    parser, seen, found = doctest.DocTestParser(), set(), {}
    earlier = list(SETS)[: list(SETS).index(name)]
    seen.update(
        _doc(o) for s in earlier for m in SETS[s] for _, o in _public(importlib.import_module(m))
    )
    for module_name in SETS[name]:
        for obj_name, obj in _public(importlib.import_module(module_name)):
            doc = _doc(obj)
            if not doc or ">>>" not in doc or doc in seen:
                continue
            seen.add(doc)
            examples = [e for e in parser.get_examples(doc) if not e.options.get(doctest.SKIP)]
            if examples:
                found[f"{module_name}.{obj_name}"] = [
                    {"source": e.source, "want": e.want} for e in examples
                ]
    return found


def run(sources: list[str], namespace: dict, port=None) -> list[str]:
    """Each source's output, run in order in `namespace` as doctest does: what it prints, then
    the repr of an expression statement's value; an exception gives
    ``"<ExceptionClass>: <message>"``. `port` rewrites a source first (numbax's imports).
    They run in a temporary directory (``jnp.save``'s examples write files); numpy's print
    options and ``builtins._`` (the last displayed value, which a later test's module-level
    frame would hold) are restored afterwards."""
    printoptions, cwd, last = np.get_printoptions(), os.getcwd(), vars(builtins).get("_")
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            return _run(sources, namespace, port)
        finally:
            os.chdir(cwd)
            np.set_printoptions(**printoptions)
            builtins._ = last


def _run(sources: list[str], namespace: dict, port) -> list[str]:
    outputs = []
    for source in sources:
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer):
                code = compile(port(source) if port else source, "<example>", "single")
                exec(code, namespace)  # noqa: S102  (the examples are JAX's documentation)
            outputs.append(buffer.getvalue())
        except Exception as e:  # noqa: BLE001  (an example's error is its output)
            outputs.append(f"{buffer.getvalue()}{error_line(e)}")
    return outputs


def error_line(e: BaseException) -> str:
    """``"<ExceptionClass>(<builtin bases>): <first line of the message>"`` for a raised
    exception (``"ShapeError(ValueError): ..."``; no parentheses without builtin bases)."""
    message = str(e).strip().splitlines()
    bases = [
        c.__name__
        for c in type(e).__mro__[1:]
        if c.__module__ == "builtins" and c not in (Exception, BaseException, object)
    ]
    name = f"{type(e).__name__}({', '.join(bases)})" if bases else type(e).__name__
    return f"{name}: {message[0] if message else ''}\n"


_ERROR = re.compile(r"^(\w+)(?:\(([\w, ]+)\))?: ", re.M)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def compare(got: str, want: str) -> str:
    """How `got` matches JAX's `want`: ``"same"`` (identical text), ``"close"`` (equal but for
    whitespace and numbers within float32 round-off), ``"error"`` (both raised JAX's exception
    class, numbax's maybe a subclass of it, messages differ) or ``"differs"``."""
    if got == want:
        return "same"
    g, w = _split(got), _split(want)
    if len(g[0]) == len(w[0]) and g[1] == w[1] and all(map(_close, g[0], w[0])):
        return "close"
    eg, ew = _ERROR.findall(got), _ERROR.findall(want)
    if eg and ew and ew[-1][0] in {eg[-1][0], *eg[-1][1].split(", ")}:
        return "error"
    return "differs"


def _split(text: str) -> tuple[list[str], str]:
    """The numbers of `text`, and the rest with whitespace runs made one space."""
    return _NUMBER.findall(text), " ".join(_NUMBER.sub(" # ", text).split())


def _close(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= 2e-5 * max(abs(x), abs(y)) + 1e-6


@functools.cache
def load(name: str) -> dict:
    """Set `name`'s recorded examples: ``{object: [{"source", "want", "jax"}, ...]}``."""
    return json.loads(recorded_path(name).read_text())["examples"]


def namespace(jax) -> dict:
    """The globals JAX's doctests run with (its conftest: jax, lax, jnp, np) for `jax`: JAX, or
    numbax's `core`."""
    return {"jax": jax, "lax": jax.lax, "jnp": jax.numpy, "np": np}


def numbax_namespace() -> dict:
    """`namespace` of numbax's `core`."""
    import core
    import core.lax
    import core.numpy

    return namespace(core)


def start(name: str, namespace: dict, port=None) -> dict:
    """`namespace` (JAX's doctest names, or numbax's) with set `name`'s `PRELUDES` run in it
    (through `port` for numbax)."""
    prelude = PRELUDES.get(name, "")
    exec(compile(port(prelude) if port else prelude, "<prelude>", "exec"), namespace)  # noqa: S102
    return namespace


def numbax_port(source: str) -> str:
    """An example's source with JAX's imports rewritten to numbax's."""
    from flaxport.port import port_source

    return port_source(source)[0]


def objects(name: str, differs: dict[str, str]) -> list:
    """Set `name`'s recorded objects as pytest parameters, those in `differs` (object -> why
    its examples do not give the real library's outputs yet) strict xfails with the reason."""
    import pytest

    recorded = load(name)
    assert set(differs) <= set(recorded), sorted(set(differs) - set(recorded))
    return [
        pytest.param(o, marks=pytest.mark.xfail(strict=True, reason=differs[o]))
        if o in differs
        else o
        for o in sorted(recorded)
    ]


def differences(name: str, obj: str) -> list[str]:
    """Object `obj`'s examples of set `name` run on numbax (its `PRELUDES` first, imports
    ported): for each whose output `compare` finds different, its source and both outputs."""
    cases = load(name)[obj]
    namespace = start(name, numbax_namespace(), numbax_port)
    outputs = run([c["source"] for c in cases], namespace, numbax_port)
    return [
        f">>> {c['source']}real:\n{c['jax']}numbax:\n{got}"
        for c, got in zip(cases, outputs)
        if compare(got, c["jax"]) == "differs"
    ]
