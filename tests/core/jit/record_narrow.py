"""Records JAX 0.10.2's jitted answers to `narrow_cases.py` into `jax_bfloat16.npz` and
`jax_float16.npz`: each output of each case (as its bits for 16-bit floats, its values
otherwise), and for each Flax train step its initial parameters, loss, gradients and parameters
after one Adam step. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/jit/record_narrow.py [bfloat16|float16]` (both by default).
"""

import pathlib
import sys
import types

import flax.linen as linen
import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import narrow_cases as cases  # noqa: E402


def _stored(x) -> np.ndarray:
    x = np.asarray(x)
    return x.view(np.uint16) if x.dtype in (cases.BF, cases.F16) else x


def _flat(tree, prefix: str) -> dict:
    leaves = jax.tree_util.tree_flatten_with_path(tree)[0]
    return {
        prefix + "/".join(str(getattr(k, "key", k)) for k in path): _stored(v) for path, v in leaves
    }


def record(dtype) -> None:
    m = types.SimpleNamespace(
        jnp=jnp,
        lax=jax.lax,
        nn=jax.nn,
        random=jax.random,
        linen=linen,
        optax=optax,
        value_and_grad=jax.value_and_grad,
        narrow=dtype,
    )
    out = {}
    for name, (program, specs, _) in cases.programs(dtype).items():
        args = [cases.inputs(s, dtype) for s in specs]
        results = jax.jit(program(m))(*args)
        results = results if isinstance(results, tuple) else (results,)
        for k, r in enumerate(results):
            out[f"{name}:{k}"] = _stored(r)
    for name, (model_of, specs) in cases.train_steps(dtype).items():
        model = model_of(m)
        x = cases.inputs(specs[0], dtype)
        labels = cases.labels_of(name)
        params = model.init(jax.random.PRNGKey(0), x)["params"]
        opt, step = cases.train_step(m, model)
        loss, grads, new = jax.jit(step)(params, opt.init(params), x, labels)
        out.update(_flat(params, f"{name}:params:"))
        out[f"{name}:loss"] = np.asarray(loss)
        out.update(_flat(grads, f"{name}:grads:"))
        out.update(_flat(new, f"{name}:new:"))
    path = pathlib.Path(__file__).parent / cases.answers_file(dtype)
    np.savez_compressed(path, **out)
    print(f"wrote {len(out)} arrays to {path}")


if __name__ == "__main__":
    for name in sys.argv[1:] or ["bfloat16", "float16"]:
        record(jnp.dtype(name))
