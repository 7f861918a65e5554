"""The runs of `test_partitioning_transforms.py`, written once for Flax and numbax:
`run(jax, jnp, nn, nnp)` (``nnp`` the partitioning module) builds T5X-style layers with
`scan_with_axes`, `remat` (static argument) and `vmap_with_axes` and returns their outputs,
logical axis names, gradients and parameter shapes."""

from __future__ import annotations

from typing import Any

import numpy as np


def run(jax: Any, jnp: Any, nn: Any, nnp: Any) -> dict[str, Any]:
    lecun = nn.initializers.lecun_normal()

    class Layer(nn.Module):
        @nn.compact
        def __call__(self, x, _):
            w = nnp.param_with_axes("w", lecun, (x.shape[-1], 4), axes=("embed", "mlp"))
            b = nnp.param_with_axes("b", nn.initializers.ones, (4,), axes=("mlp",))
            return jnp.tanh(x @ w + b)[:, : x.shape[-1]], None

    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x):
            scanned = nnp.scan_with_axes(
                Layer,
                variable_axes={"params": 0},
                split_rngs={"params": True},
                in_axes=(nn.broadcast,),
                length=3,
                axis_name="layers",
            )
            return scanned(name="layers")(x, None)[0]

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, flag):
            n = x.shape[-1]
            w = nnp.param_with_axes("w", lecun, (n, n), axes=("embed", "mlp"))
            y = x @ w
            return jnp.sin(y) if flag else y

    class Remat(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nnp.remat(Block, static_argnums=(1,))(name="blk")(x, True)

    class Vmapped(nn.Module):
        @nn.compact
        def __call__(self, x):
            vmapped = nnp.vmap_with_axes(
                Block,
                variable_axes={"params": 0},
                split_rngs={"params": True},
                in_axes=(0, None),
                partitioning_axis_names={"params": "heads"},
            )
            return vmapped(name="v")(x, False)

    x = jnp.ones((2, 4)) * 0.5
    out = {}
    for name, model, xi in [
        ("scan", Stack(), x),
        ("remat", Remat(), x),
        ("vmap", Vmapped(), jnp.ones((3, 2, 4)) * 0.5),
    ]:
        variables = model.init(jax.random.key(0), xi)
        y = model.apply({"params": variables["params"]}, xi)
        grads = jax.grad(lambda p, m=model, xi=xi: m.apply({"params": p}, xi).sum())(
            variables["params"]
        )
        out[name] = {
            "y": np.asarray(y).tolist(),
            "axes": str(nnp.get_axis_names(variables["params_axes"])),
            "grads": [np.asarray(g).tolist() for g in jax.tree_util.tree_leaves(grads)],
            "shapes": [list(np.shape(p)) for p in jax.tree_util.tree_leaves(variables["params"])],
        }
    return out
