"""Options of Linen's lifted `scan` and `vmap` that stacked-layer and ensemble code sets: our
own small models, checked against the same layers unrolled by hand.

- `nn.scan` over layers with `variable_axes={"params": 0}`, `split_rngs`, `length=` and no
  scanned input, `nn.broadcast` inputs, `reverse=True`, `unroll=2`, a carry plus stacked
  outputs; the scanned parameters' shapes and the output against a Python loop over the
  sliced parameters; `metadata_params={nn.PARTITION_NAME: "layers"}` adding the stacked axis
  to `nn.with_partitioning` boxes (`nn.get_partition_spec`);
- `nn.vmap` with `in_axes=(0, None)`, `out_axes=1`, shared parameters
  (`variable_axes={"params": None}`, `split_rngs={"params": False}`) against separate
  parameters, `axis_size` with an unbatched input, and `metadata_params` on a vmapped
  ensemble;
- `nn.remat` with `static_argnums` and `prevent_cse=False` giving the plain module's
  gradients, and `nn.jit` of a module method.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


class Block(nn.Module):
    width: int

    @nn.compact
    def __call__(self, carry, bias):
        kernel = self.param("kernel", nn.with_partitioning(nn.initializers.lecun_normal(), ("in", "out")),
                            (self.width, self.width))  # fmt: skip
        new = jnp.tanh(carry @ kernel + bias)
        return new, jnp.sum(new, axis=-1)


class Stack(nn.Module):
    width: int = 4
    depth: int = 3
    reverse: bool = False
    unroll: int = 1

    @nn.compact
    def __call__(self, x, bias):
        layers = nn.scan(Block, variable_axes={"params": 0}, split_rngs={"params": True},
                         in_axes=nn.broadcast, length=self.depth, reverse=self.reverse,
                         unroll=self.unroll, metadata_params={nn.PARTITION_NAME: "layers"})  # fmt: skip
        return layers(self.width, name="layers")(x, bias)


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x) + 0.0 * nn.Dropout(0.5, deterministic=True)(x).sum()


def scans(out):
    x = random.normal(random.key(0), (2, 4))
    bias = jnp.linspace(-0.5, 0.5, 4)
    model = Stack()
    variables = model.init(random.key(1), x, bias)
    boxed = variables["params"]["layers"]["kernel"]
    out["boxed_type"] = type(boxed).__name__
    out["partition_names"] = [str(n) for n in boxed.names]
    out["partition_spec"] = str(nn.get_partition_spec(variables)["params"]["layers"]["kernel"])
    params = nn.meta.unbox(variables)
    kernels = params["params"]["layers"]["kernel"]
    out["stacked_shape"] = list(kernels.shape)
    (final, sums) = model.apply(params, x, bias)
    out["final"], out["sums"] = final, sums
    h = x
    loop_sums = []
    for i in range(3):
        h = jnp.tanh(h @ kernels[i] + bias)
        loop_sums.append(h.sum(-1))
    out["matches_loop"] = bool(
        jnp.allclose(final, h, atol=1e-6) and jnp.allclose(sums, jnp.stack(loop_sums), atol=1e-6)
    )
    rev, rev_sums = Stack(reverse=True).apply(params, x, bias)
    h = x
    for i in reversed(range(3)):
        h = jnp.tanh(h @ kernels[i] + bias)
    out["reverse_matches"] = bool(jnp.allclose(rev, h, atol=1e-6))
    out["reverse_sums"] = rev_sums
    unrolled, _ = Stack(unroll=2).apply(params, x, bias)
    out["unroll_same"] = bool(jnp.allclose(unrolled, final, atol=1e-6))
    grads = jax.grad(lambda p: jnp.sum(Stack().apply(p, x, bias)[0] ** 2))(params)
    out["grad_kernel"] = grads["params"]["layers"]["kernel"]


def vmaps(out):
    x = random.normal(random.key(2), (5, 4))
    ctx = jnp.arange(4.0)
    Ens = nn.vmap(nn.Dense, in_axes=0, out_axes=1, variable_axes={"params": 0},
                  split_rngs={"params": True}, axis_size=3)  # fmt: skip
    ens = Ens(2)
    v = ens.init(random.key(3), jnp.ones((3, 4)))
    out["ensemble_kernel_shape"] = list(v["params"]["kernel"].shape)
    y = ens.apply(v, jnp.stack([x[0], x[1], x[2]]))
    out["ensemble_out"] = y
    Shared = nn.vmap(nn.Dense, in_axes=(0,), out_axes=0, variable_axes={"params": None},
                     split_rngs={"params": False})  # fmt: skip
    sv = Shared(3).init(random.key(4), x)
    out["shared_kernel_shape"] = list(sv["params"]["kernel"].shape)
    out["shared_matches_dense"] = bool(
        jnp.allclose(Shared(3).apply(sv, x), nn.Dense(3).apply(sv, x), atol=1e-6)
    )

    class WithContext(nn.Module):
        @nn.compact
        def __call__(self, x, c):
            return nn.Dense(2)(x * c)

    Ctx = nn.vmap(
        WithContext, in_axes=(0, None), variable_axes={"params": None}, split_rngs={"params": False}
    )
    cv = Ctx().init(random.key(5), x, ctx)
    out["broadcast_arg"] = Ctx().apply(cv, x, ctx)
    Meta = nn.vmap(Block, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=(0, None),
                   metadata_params={nn.PARTITION_NAME: "members"})  # fmt: skip
    mv = Meta(4).init(random.key(6), jnp.ones((2, 3, 4)), jnp.zeros(4))
    out["vmap_partition_names"] = [str(n) for n in mv["params"]["kernel"].names]


class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        h = nn.Dense(6)(x)
        h = nn.gelu(h) if train else nn.relu(h)
        return nn.Dense(1)(h)


def remat_jit(out):
    x = random.normal(random.key(7), (3, 5))
    plain = Mlp()
    v = plain.init(random.key(8), x, True)
    Remat = nn.remat(Mlp, static_argnums=(2,), prevent_cse=False)
    g_plain = jax.grad(lambda p: jnp.sum(plain.apply(p, x, True) ** 2))(v)
    g_remat = jax.grad(lambda p: jnp.sum(Remat().apply(p, x, True) ** 2))(v)
    out["remat_grads_equal"] = bool(all(jnp.allclose(a, b, atol=1e-6) for a, b in
                                        zip(jax.tree.leaves(g_plain), jax.tree.leaves(g_remat))))  # fmt: skip
    out["remat_eval"] = Remat().apply(v, x, False)
    Jitted = nn.jit(Mlp, static_argnums=(2,))
    out["jit_out"] = Jitted().apply(v, x, True)
    noisy = Noisy()
    nv = noisy.init(random.key(9), x)
    out["noisy"] = noisy.apply(nv, x)


def run():
    out = {}
    scans(out)
    vmaps(out)
    remat_jit(out)
    return out
