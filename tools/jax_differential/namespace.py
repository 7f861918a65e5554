"""The namespace a case runs in: numbax's modules on one side, JAX's, Flax's and Optax's on the
other, under the same names, with the preludes run in it."""

from __future__ import annotations

from typing import Any

from tools.jax_differential.areas import prelude


def namespace(side: str) -> dict[str, Any]:
    if side == "jax":
        import flax
        import flax.core.frozen_dict
        import flax.linen as fnn
        import flax.serialization
        import flax.struct
        import flax.training.common_utils
        import flax.training.dynamic_scale
        import flax.training.early_stopping
        import flax.training.train_state
        import flax.traverse_util
        import jax
        import jax.ad_checkpoint  # noqa: F401
        import jax.image
        import jax.numpy as jnp
        import jax.scipy as jsp
        import jax.scipy.spatial.transform  # noqa: F401
        import optax
        from jax import lax, random
        from jax import tree_util as jtu
        from jax.nn import initializers as init
    else:
        import flaxport.core.frozen_dict
        import flaxport.linen as fnn
        import flaxport.serialization
        import flaxport.struct
        import flaxport.training.common_utils
        import flaxport.training.dynamic_scale
        import flaxport.training.early_stopping
        import flaxport.training.train_state
        import flaxport.traverse_util  # noqa: F401

        import core as jax
        import core.numpy as jnp
        import core.scipy as jsp
        import flaxport as flax
        import optim as optax
        from core import lax, random
        from core import tree_util as jtu
        from core.nn import initializers as init
    ns = dict(
        jax=jax,
        jnp=jnp,
        lax=lax,
        random=random,
        jtu=jtu,
        init=init,
        jsp=jsp,
        optax=optax,
        flax=flax,
        fnn=fnn,
        __name__="cases",
    )
    exec(prelude(), ns)
    return ns
