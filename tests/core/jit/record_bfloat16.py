"""Records JAX 0.10.2's jitted answers to `bfloat16_cases.py` into `jax_bfloat16.npz`: each
output of each case (as its bits for bfloat16, its values otherwise), and for each Flax train
step its initial parameters, loss, gradients and parameters after one Adam step. Run with the
reference venv from the worktree root: `/opt/ref/bin/python tests/core/jit/record_bfloat16.py`.
"""

import pathlib
import sys
import types

import flax.linen as linen
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import optax

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import bfloat16_cases as cases  # noqa: E402

M = types.SimpleNamespace(
    jnp=jnp,
    lax=jax.lax,
    nn=jax.nn,
    random=jax.random,
    linen=linen,
    optax=optax,
    value_and_grad=jax.value_and_grad,
)


def _stored(x) -> np.ndarray:
    x = np.asarray(x)
    return x.view(np.uint16) if x.dtype == ml_dtypes.bfloat16 else x


def _flat(tree, prefix: str) -> dict:
    leaves = jax.tree_util.tree_flatten_with_path(tree)[0]
    return {
        prefix + "/".join(str(getattr(k, "key", k)) for k in path): _stored(v) for path, v in leaves
    }


def main() -> None:
    out = {}
    for name, (program, specs, _) in cases.CASES.items():
        args = [cases.inputs(s) for s in specs]
        results = jax.jit(program(M))(*args)
        results = results if isinstance(results, tuple) else (results,)
        for k, r in enumerate(results):
            out[f"{name}:{k}"] = _stored(r)
    for name, (model_of, specs) in cases.TRAIN.items():
        model = model_of(M)
        x = cases.inputs(specs[0])
        labels = cases.labels_of(name)
        params = model.init(jax.random.PRNGKey(0), x)["params"]
        opt, step = cases.train_step(M, model)
        loss, grads, new = jax.jit(step)(params, opt.init(params), x, labels)
        out.update(_flat(params, f"{name}:params:"))
        out[f"{name}:loss"] = np.asarray(loss)
        out.update(_flat(grads, f"{name}:grads:"))
        out.update(_flat(new, f"{name}:new:"))
    path = pathlib.Path(__file__).parent / "jax_bfloat16.npz"
    np.savez_compressed(path, **out)
    print(f"wrote {len(out)} arrays to {path}")


if __name__ == "__main__":
    main()
