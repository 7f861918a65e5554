"""Records JAX's answers for the small float types (float8, float6, float4) into
`jax_small_floats.json`: promotion, `finfo`, and values of arithmetic, math, reductions and casts.
Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/record_small_floats.py`."""

import json
import math
import pathlib
import warnings

import jax
import jax.numpy as jnp
import numpy as np

SMALL = [
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
]
OTHERS = ["bool", "int8", "uint8", "int32", "bfloat16", "float16", "float32", "complex64"]
VALUES = [-3.5, -1.0, -0.3, 0.0, 0.25, 1.0, 1.7, 5.0]
UNARY = ["negative", "abs", "exp", "log", "tanh", "sin", "sqrt", "floor", "sign", "square"]
BINARY = ["add", "multiply", "subtract", "divide", "maximum"]
REDUCE = ["sum", "mean", "max", "min", "prod", "var", "cumsum", "argmax"]


def _floats(x) -> list:
    return [None if math.isnan(v) else v for v in np.asarray(x, np.float32).ravel().tolist()]


def _outcome(fn, values=True):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001  (recorded, compared by the test)
        return {"error": type(e).__name__, "message": str(e)}
    return {"dtype": str(out.dtype), "values": _floats(out)} if values else {"dtype": str(out)}


def main() -> None:
    warnings.simplefilter("ignore")
    names = SMALL + OTHERS
    promote = {
        f"{a},{b}": _outcome(lambda a=a, b=b: jnp.promote_types(a, b), values=False)
        for a in names
        for b in names
    }
    weak = {}
    for a in SMALL:
        for label, scalar in [("int", 2), ("float", 2.0), ("complex", 2j), ("bool", True)]:
            weak[f"{a},{label}"] = _outcome(
                lambda a=a, s=scalar: jax.eval_shape(lambda: jnp.zeros(3, a) + s).dtype,
                values=False,
            )
    finfo = {}
    for a in SMALL:
        fi = jnp.finfo(a)
        fields = ["bits", "nmant", "nexp", "eps", "max", "min", "tiny", "resolution"]
        finfo[a] = {f: float(getattr(fi, f)) for f in fields}
        finfo[a]["smallest_subnormal"] = float(fi.smallest_subnormal)
    values = {}
    for a in SMALL:
        try:
            jnp.ones(2, a).block_until_ready()
        except Exception as e:  # noqa: BLE001  (XLA on CPU computes no float6/float4)
            values[a] = {"error": type(e).__name__, "message": str(e).splitlines()[0]}
            continue
        x = jnp.asarray(np.asarray(VALUES, np.float32)).astype(a)
        y = jnp.asarray(np.asarray(VALUES[::-1], np.float32)).astype(a)
        values[f"{a},astype"] = _outcome(lambda x=x: x)
        values[f"{a},to_float32"] = _outcome(lambda x=x: x.astype(jnp.float32))
        for u in UNARY:
            values[f"{a},{u}"] = _outcome(lambda x=x, u=u: getattr(jnp, u)(x))
        for b in BINARY:
            values[f"{a},{b}"] = _outcome(lambda x=x, y=y, b=b: getattr(jnp, b)(x, y))
        for r in REDUCE:
            values[f"{a},{r}"] = _outcome(lambda x=x, r=r: getattr(jnp, r)(x))
        long = jnp.asarray(np.linspace(0.1, 3.0, 64, dtype=np.float32)).astype(a)
        values[f"{a},long_sum"] = _outcome(lambda v=long: jnp.sum(v))
        values[f"{a},long_mean"] = _outcome(lambda v=long: jnp.mean(v))
        values[f"{a},dot"] = _outcome(lambda v=long: jnp.dot(v, v))
        values[f"{a},grad"] = _outcome(
            lambda x=x: jax.grad(lambda v: jnp.sum(v * v).astype(jnp.float32))(x)
        )
        values[f"{a},jit_mul"] = _outcome(lambda x=x, y=y: jax.jit(lambda p, q: p * q + p)(x, y))
    jaxpr = str(jax.make_jaxpr(lambda v: v * v)(jnp.ones(2, jnp.float8_e4m3fn)))
    out = pathlib.Path(__file__).parent / "jax_small_floats.json"
    table = {"jax": jax.__version__, "promote": promote, "weak": weak, "finfo": finfo}
    table |= {"values": values, "jaxpr": jaxpr, "VALUES": VALUES}
    out.write_text(json.dumps(table, indent=0) + "\n")


if __name__ == "__main__":
    main()
