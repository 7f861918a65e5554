"""Shapes before values, as model builders plan memory and parameter counts: `eval_shape` on
pytrees, `ShapeDtypeStruct`s, and the compile-time helpers around tracing.

- `jax.eval_shape` of a two-layer model's init and forward pass (a Flax module and a plain
  function), of functions returning pytrees and Python scalars, on `ShapeDtypeStruct`
  inputs (with `weak_type=`), and of a function that would allocate a huge array;
- parameter counts and bytes from shapes alone (`jax.tree.map`/`tree.reduce`, `dtype.itemsize`);
- `jax.ensure_compile_time_eval` turning a traced constant into a concrete value inside
  `jit`, `jax.named_scope` and `jax.named_call` leaving values alone, `jax.tree_util.Partial`
  through `jit` and `tree.map`, `jit(static_argnames=)` with a string mode, `jax.block_until_ready`
  on a pytree, `jax.disable_jit`;
- the error of `eval_shape` given a value where a shape is needed inside (a concretisation).
"""

import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax import random


class Mlp(nn.Module):
    hidden: int = 256
    out: int = 10

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        x = nn.LayerNorm()(x)
        return nn.Dense(self.out, dtype=jnp.bfloat16)(x)


def spec(tree):
    return jax.tree.map(lambda s: [list(s.shape), str(s.dtype)], tree)


def planning(out):
    model = Mlp()
    x = jax.ShapeDtypeStruct((32, 784), jnp.float32)
    params = jax.eval_shape(model.init, random.key(0), x)
    out["param_shapes"] = spec(params)
    out["output_shape"] = spec(jax.eval_shape(model.apply, params, x))
    counts = jax.tree.map(lambda s: int(np.prod(s.shape)), params)
    out["param_count"] = jax.tree.reduce(lambda a, b: a + b, counts)
    out["param_bytes"] = sum(
        int(np.prod(s.shape)) * s.dtype.itemsize for s in jax.tree.leaves(params)
    )

    def huge(n):
        return jnp.zeros((n.shape[0], 10**6, 10**3)) + n[:, None, None]

    out["huge"] = spec(jax.eval_shape(huge, jax.ShapeDtypeStruct((8,), jnp.int32)))
    tree = jax.eval_shape(lambda a, b: {"sum": a + b, "n": 3, "pair": (a @ b.T, 1.5)},
                          jax.ShapeDtypeStruct((4, 3), jnp.float16), jnp.ones((4, 3)))  # fmt: skip
    out["pytree_out"] = spec(tree)
    weak = jax.ShapeDtypeStruct((), jnp.float32, weak_type=True)
    out["weak_in"] = spec(jax.eval_shape(lambda w: w + jnp.ones(2, jnp.bfloat16), weak))
    sds = jax.ShapeDtypeStruct((2, 3), jnp.int8)
    out["sds_attrs"] = [list(sds.shape), str(sds.dtype), sds.ndim, sds.size, str(sds)]
    try:
        jax.eval_shape(lambda n: jnp.zeros(int(n.sum())), jax.ShapeDtypeStruct((2,), jnp.int32))
        out["concrete_error"] = "no error"
    except TypeError as e:
        out["concrete_error"] = type(e).__name__


def compile_time(out):
    @jax.jit
    def scaled(x):
        with jax.ensure_compile_time_eval():
            table = jnp.arange(4.0) ** 2
            first = float(table[1])  # concrete inside jit
        with jax.named_scope("scale"):
            return x * first + table

    out["compile_time_eval"] = scaled(jnp.ones(4))

    @functools.partial(jax.named_call, name="double_it")
    def double(x):
        return 2 * x

    out["named_call"] = jax.jit(double)(jnp.arange(3.0))
    out["named_call_grad"] = jax.grad(lambda x: jnp.sum(double(x) ** 2))(jnp.arange(3.0))
    act = jax.tree_util.Partial(jnp.clip, min=-1.0, max=1.0)

    @jax.jit
    def apply(f, x):
        return f(x)

    out["partial_jit"] = apply(act, jnp.array([-3.0, 0.5, 2.0]))
    out["partial_leaves"] = len(jax.tree.leaves(act))
    scaled_act = jax.tree_util.Partial(jnp.multiply, jnp.array(3.0))
    out["partial_tree_map"] = jax.tree.map(lambda v: v * 2, scaled_act)(jnp.ones(2))

    @functools.partial(jax.jit, static_argnames=("mode",))
    def norm(x, mode="l2"):
        return jnp.sqrt(jnp.sum(x**2)) if mode == "l2" else jnp.sum(jnp.abs(x))

    v = jnp.array([3.0, -4.0])
    out["static_mode"] = [norm(v), norm(v, mode="l1")]
    ready = jax.block_until_ready({"a": v * 2, "b": [v + 1]})
    out["block_until_ready"] = ready
    with jax.disable_jit():
        out["disable_jit"] = norm(v, mode="l1")


def run():
    out = {}
    planning(out)
    compile_time(out)
    return out
