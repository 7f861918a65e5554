"""One side's run: every case of the chosen areas in that side's namespace, the results pickled
to a file for the comparing process."""

from __future__ import annotations

import os
import pickle
import re
import traceback
import warnings
from typing import Any

from tools.jax_differential.areas import cases
from tools.jax_differential.namespace import namespace
from tools.jax_differential.plain import plain


def _run(src: str, ns: dict) -> Any:
    """A case's result: the value of an expression, else `out` after running the statements
    (a one-line `out = ...` is a statement too, not an expression that fails alike on both
    sides)."""
    if "\n" not in src.strip() and not src.lstrip().startswith(("@", "class ", "def ")):
        try:
            code = compile(src, "<case>", "eval")
        except SyntaxError:
            pass
        else:
            return eval(code, ns)
    exec(src, ns)
    return ns.get("out")


def select(cases: list[tuple[str, bool]], match: str | None) -> list[tuple[str, bool]]:
    """The cases whose source matches the regular expression `match` (all without one)."""
    return [c for c in cases if match is None or re.search(match, c[0])]


def run_side(
    side: str, area_names: list[str], x64: bool, out_path: str, match: str | None = None
) -> None:
    if x64:
        os.environ["JAX_ENABLE_X64"] = "1"
        os.environ["NUMBAX_ENABLE_X64"] = "1"
    if side == "jax":
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
    ns0 = namespace(side)
    if x64:
        ns0["jax"].config.update("jax_enable_x64", True)
    results: dict[tuple[str, int], Any] = {}
    for area in area_names:
        for i, (src, _) in enumerate(select(cases(area), match)):
            ns = dict(ns0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    val = _run(src, ns)
                    res = ("ok", plain(val, ns0))
                except BaseException as e:  # noqa: BLE001
                    if isinstance(e, KeyboardInterrupt):
                        raise
                    tb = traceback.extract_tb(e.__traceback__)
                    res = (
                        "exc",
                        type(e).__name__,
                        [c.__name__ for c in type(e).__mro__],
                        str(e),
                        tb[-1].filename.split("/")[-1] if tb else "",
                    )
            try:
                results[(area, i)] = pickle.loads(pickle.dumps(res))
            except Exception as e:  # noqa: BLE001
                results[(area, i)] = ("ok", ("unpicklable", repr(e)))
    with open(out_path, "wb") as f:
        pickle.dump(results, f)
