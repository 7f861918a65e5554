"""A table of common `jax.numpy` / `jax.lax` / `jax.nn` / `jax.random` calls, Flax layers and
Optax steps whose `make_jaxpr` text numbax matches with JAX's: each case is a function of a
namespace `m` (`m.jax`, `m.jnp`, `m.lax`, `m.nn`, `m.linen`, `m.optax`) returning
`(fun, args)`. `record_jaxprs.py` runs the table under JAX 0.10.2
into `jax_jaxprs.json`; `test_jaxpr_text.py` runs it under numbax and compares the texts.
Neither this table nor the test imports JAX."""

import numpy as np

F = np.float32


def _x(*shape):
    return np.arange(int(np.prod(shape)), dtype=F).reshape(shape) / 7 - 1


def _i(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape) % 3


X, M, B, V = _x(3, 4), _x(4, 5), _x(2, 3, 4), _x(5)
U = _x(1, 3, 1)
I3 = np.array([2, 0, 1], np.int32)
KEY = np.array([0, 42], np.uint32)
SPD = np.eye(3, dtype=F) * 2 + 0.1  # symmetric positive definite


def _cases(m):  # noqa: PLR0915  (one line per case)
    jax, jnp, lax, nn = m.jax, m.jnp, m.lax, m.nn
    c = {}
    # shapes
    c["reshape"] = (lambda x: jnp.reshape(x, (4, 3)), (X,))
    c["reshape_neg"] = (lambda x: x.reshape(-1), (X,))
    c["ravel"] = (lambda x: jnp.ravel(x), (B,))
    c["transpose"] = (lambda x: x.T, (X,))
    c["transpose_axes"] = (lambda x: jnp.transpose(x, (2, 0, 1)), (B,))
    c["swapaxes"] = (lambda x: jnp.swapaxes(x, 0, 2), (B,))
    c["moveaxis"] = (lambda x: jnp.moveaxis(x, 0, -1), (B,))
    c["squeeze"] = (lambda x: jnp.squeeze(x), (U,))
    c["squeeze_axis"] = (lambda x: jnp.squeeze(x, 0), (U,))
    c["squeeze_method"] = (lambda x: x.squeeze(-1), (U,))
    c["lax_squeeze"] = (lambda x: lax.squeeze(x, (0, 2)), (U,))
    c["expand_dims"] = (lambda x: jnp.expand_dims(x, 0), (X,))
    c["expand_dims_tuple"] = (lambda x: jnp.expand_dims(x, (1, 3)), (X,))
    c["lax_expand_dims"] = (lambda x: lax.expand_dims(x, (0,)), (X,))
    c["index_none"] = (lambda x: x[None], (X,))
    c["index_none_last"] = (lambda x: x[:, None], (X,))
    c["index_ellipsis_none"] = (lambda x: x[..., None], (X,))
    c["broadcast_to"] = (lambda x: jnp.broadcast_to(x, (2, 3, 4)), (X,))
    c["atleast_2d"] = (lambda x: jnp.atleast_2d(x), (V,))
    c["concatenate"] = (lambda x, y: jnp.concatenate([x, y]), (X, X))
    c["concatenate_axis1"] = (lambda x, y: jnp.concatenate([x, y], axis=1), (X, X))
    c["stack"] = (lambda x, y: jnp.stack([x, y]), (X, X))
    c["stack_axis1"] = (lambda x, y: jnp.stack([x, y], axis=1), (X, X))
    c["stack_neg"] = (lambda x, y: jnp.stack([x, y], axis=-1), (X, X))
    c["vstack"] = (lambda x, y: jnp.vstack([x, y]), (V, V))
    c["hstack"] = (lambda x, y: jnp.hstack([x, y]), (V, V))
    c["split"] = (lambda x: jnp.split(x, 2, axis=1), (X,))
    c["array_split"] = (lambda x: jnp.array_split(x, 3), (V,))
    c["tile"] = (lambda x: jnp.tile(x, 2), (V,))
    c["repeat"] = (lambda x: jnp.repeat(x, 2, axis=0), (X,))
    c["flip"] = (lambda x: jnp.flip(x, 0), (X,))
    c["roll"] = (lambda x: jnp.roll(x, 1), (V,))
    c["pad"] = (lambda x: jnp.pad(x, 1), (X,))
    c["pad_tuple"] = (lambda x: jnp.pad(x, ((0, 1), (2, 0))), (X,))
    c["pad_edge"] = (lambda x: jnp.pad(x, 1, mode="edge"), (V,))
    c["lax_pad"] = (lambda x: lax.pad(x, 0.0, ((1, 2, 0), (0, 0, 1))), (X,))
    c["lax_concatenate"] = (lambda x, y: lax.concatenate([x, y], 0), (X, X))
    c["lax_broadcast_in_dim"] = (lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), (X,))
    c["lax_reshape"] = (lambda x: lax.reshape(x, (12,)), (X,))
    c["lax_transpose"] = (lambda x: lax.transpose(x, (1, 0)), (X,))
    # creation
    c["zeros_like"] = (lambda x: jnp.zeros_like(x), (X,))
    c["ones"] = (lambda x: x + jnp.ones((3, 4)), (X,))
    c["full"] = (lambda x: x * jnp.full((3, 4), 2.0), (X,))
    c["arange"] = (lambda x: x + jnp.arange(4), (X,))
    c["linspace"] = (lambda x: x + jnp.linspace(0.0, 1.0, 4), (X,))
    c["eye"] = (lambda x: x @ jnp.eye(4), (X,))
    c["zeros_dtype"] = (lambda x: x + jnp.zeros(4, jnp.int32), (X,))
    # elementwise
    c["add_scalar"] = (lambda x: x + 1.0, (X,))
    c["add_int_scalar"] = (lambda x: x + 1, (X,))
    c["mul_broadcast"] = (lambda x, v: x * v, (X, _x(4)))
    c["sub_rev"] = (lambda x: 2.0 - x, (X,))
    c["div"] = (lambda x, y: x / y, (X, X))
    c["floordiv"] = (lambda x: x // 2.0, (X,))
    c["int_floordiv"] = (lambda i: i // 2, (_i(4),))
    c["mod"] = (lambda x: x % 2.0, (X,))
    c["pow2"] = (lambda x: x**2, (X,))
    c["pow_float"] = (lambda x: x**2.5, (X,))
    c["square"] = (lambda x: jnp.square(x), (X,))
    c["sqrt"] = (lambda x: jnp.sqrt(x), (X,))
    c["rsqrt"] = (lambda x: lax.rsqrt(x), (X,))
    c["exp_log"] = (lambda x: jnp.log(jnp.exp(x)), (X,))
    c["log1p"] = (lambda x: jnp.log1p(x), (X,))
    c["tanh"] = (lambda x: jnp.tanh(x), (X,))
    c["sin_cos"] = (lambda x: jnp.sin(x) + jnp.cos(x), (X,))
    c["abs"] = (lambda x: jnp.abs(x), (X,))
    c["sign"] = (lambda x: jnp.sign(x), (X,))
    c["maximum"] = (lambda x: jnp.maximum(x, 0.0), (X,))
    c["minimum"] = (lambda x, y: jnp.minimum(x, y), (X, X))
    c["clip"] = (lambda x: jnp.clip(x, -0.5, 0.5), (X,))
    c["clip_method"] = (lambda x: x.clip(0.0), (X,))
    c["round"] = (lambda x: jnp.round(x), (X,))
    c["floor"] = (lambda x: jnp.floor(x), (X,))
    c["negative"] = (lambda x: -x, (X,))
    c["reciprocal"] = (lambda x: jnp.reciprocal(x), (X,))
    c["logaddexp"] = (lambda x, y: jnp.logaddexp(x, y), (X, X))
    c["isnan"] = (lambda x: jnp.isnan(x), (X,))
    c["isfinite"] = (lambda x: jnp.isfinite(x), (X,))
    c["nan_to_num"] = (lambda x: jnp.nan_to_num(x), (X,))
    # comparisons, logic, where
    c["greater"] = (lambda x: x > 0, (X,))
    c["equal"] = (lambda x, y: x == y, (X, X))
    c["logical_and"] = (lambda x: jnp.logical_and(x > 0, x < 1), (X,))
    c["where"] = (lambda x: jnp.where(x > 0, x, 0.0), (X,))
    c["where_arrays"] = (lambda x, y: jnp.where(x > y, x, y), (X, X))
    c["lax_select"] = (lambda x, y: lax.select(x > y, x, y), (X, X))
    c["allclose"] = (lambda x, y: jnp.allclose(x, y), (X, X))
    c["any"] = (lambda x: jnp.any(x > 0), (X,))
    c["all_axis"] = (lambda x: jnp.all(x > 0, axis=0), (X,))
    # casts
    c["astype_int"] = (lambda x: x.astype(jnp.int32), (X,))
    c["astype_bf16"] = (lambda x: x.astype(jnp.bfloat16), (X,))
    c["astype_bool"] = (lambda x: x.astype(bool), (X,))
    c["int_to_float"] = (lambda i: i.astype(jnp.float32), (_i(4),))
    c["int_times_float"] = (lambda i: i * 0.5, (_i(4),))
    c["lax_convert"] = (lambda x: lax.convert_element_type(x, jnp.float16), (X,))
    # reductions
    c["sum"] = (lambda x: jnp.sum(x), (X,))
    c["sum_axis"] = (lambda x: x.sum(axis=1), (X,))
    c["sum_keepdims"] = (lambda x: x.sum(axis=1, keepdims=True), (X,))
    c["mean"] = (lambda x: jnp.mean(x), (X,))
    c["mean_axis"] = (lambda x: jnp.mean(x, axis=0), (X,))
    c["var"] = (lambda x: jnp.var(x, axis=-1), (X,))
    c["std"] = (lambda x: jnp.std(x), (X,))
    c["max"] = (lambda x: jnp.max(x, axis=1), (X,))
    c["min"] = (lambda x: x.min(), (X,))
    c["prod"] = (lambda x: jnp.prod(x, axis=0), (X,))
    c["argmax"] = (lambda x: jnp.argmax(x, axis=1), (X,))
    c["argmin"] = (lambda x: jnp.argmin(x), (X,))
    c["norm"] = (lambda x: jnp.linalg.norm(x), (X,))
    c["norm_axis"] = (lambda x: jnp.linalg.norm(x, axis=-1), (X,))
    c["cumsum"] = (lambda x: jnp.cumsum(x, axis=1), (X,))
    c["cumsum_flat"] = (lambda x: jnp.cumsum(x), (X,))
    c["cumprod"] = (lambda x: jnp.cumprod(x), (V,))
    c["lax_reduce_max"] = (lambda x: lax.reduce_max(x, (0,)), (X,))
    c["count_nonzero"] = (lambda x: jnp.count_nonzero(x), (X,))
    # indexing
    c["index_int"] = (lambda x: x[0], (X,))
    c["index_neg"] = (lambda x: x[-1], (X,))
    c["index_slice"] = (lambda x: x[1:3], (X,))
    c["index_slice_step"] = (lambda x: x[::2], (V,))
    c["index_col"] = (lambda x: x[:, 1], (X,))
    c["index_2d"] = (lambda x: x[1, 2], (X,))
    c["index_array"] = (lambda x, i: x[i], (X, I3))
    c["index_array_col"] = (lambda x, i: x[:, i], (X, I3))
    c["index_traced_int"] = (lambda x, i: x[i], (X, np.int32(1)))
    c["take"] = (lambda x, i: jnp.take(x, i, axis=0), (X, I3))
    c["take_along_axis"] = (
        lambda x, i: jnp.take_along_axis(x, i, axis=1),
        (X, np.zeros((3, 1), np.int32)),
    )
    c["at_set"] = (lambda x: x.at[0].set(1.0), (X,))
    c["at_set_array"] = (lambda x, i: x.at[i].set(0.0), (V, I3))
    c["at_add"] = (lambda x, i, y: x.at[i].add(y), (V, I3, _x(3)))
    c["at_mul"] = (lambda x: x.at[1:3].multiply(2.0), (V,))
    c["at_get"] = (lambda x, i: x.at[i].get(), (V, I3))
    c["at_max"] = (lambda x, i: x.at[i].max(0.0), (V, I3))
    c["dynamic_slice"] = (lambda x, i: lax.dynamic_slice(x, (i, 0), (2, 4)), (X, np.int32(1)))
    c["dynamic_update_slice"] = (
        lambda x, y: lax.dynamic_update_slice(x, y, (1, 0)),
        (X, _x(1, 4)),
    )
    c["dynamic_index_in_dim"] = (lambda x, i: lax.dynamic_index_in_dim(x, i, 0, False), (X, 1))
    c["lax_slice"] = (lambda x: lax.slice(x, (0, 1), (2, 3)), (X,))
    c["one_hot"] = (lambda i: nn.one_hot(i, 4), (I3,))
    # linear algebra
    c["dot_vv"] = (lambda a, b: jnp.dot(a, b), (V, V))
    c["matmul"] = (lambda a, b: a @ b, (X, M))
    c["matmul_mv"] = (lambda a, b: a @ b, (X, _x(4)))
    c["matmul_batched"] = (lambda a, b: a @ b, (B, M))
    c["einsum_ij_jk"] = (lambda a, b: jnp.einsum("ij,jk->ik", a, b), (X, M))
    c["einsum_bij_bjk"] = (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), (B, _x(2, 4, 5)))
    c["einsum_trace"] = (lambda a: jnp.einsum("ii", a), (_x(3, 3),))
    c["outer"] = (lambda a, b: jnp.outer(a, b), (V, V))
    c["tensordot"] = (lambda a, b: jnp.tensordot(a, b, axes=1), (X, M))
    c["lax_dot_general"] = (
        lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ()))),
        (X, M),
    )
    # sorting
    c["sort"] = (lambda x: jnp.sort(x), (X,))
    c["sort_axis0"] = (lambda x: jnp.sort(x, axis=0), (X,))
    c["argsort"] = (lambda x: jnp.argsort(x), (V,))
    c["top_k"] = (lambda x: lax.top_k(x, 2), (V,))
    # nn
    c["relu"] = (lambda x: nn.relu(x), (X,))
    c["gelu"] = (lambda x: nn.gelu(x), (X,))
    c["gelu_exact"] = (lambda x: nn.gelu(x, approximate=False), (X,))
    c["sigmoid"] = (lambda x: nn.sigmoid(x), (X,))
    c["silu"] = (lambda x: nn.silu(x), (X,))
    c["softplus"] = (lambda x: nn.softplus(x), (X,))
    c["softmax"] = (lambda x: nn.softmax(x), (X,))
    c["log_softmax"] = (lambda x: nn.log_softmax(x), (X,))
    c["logsumexp"] = (lambda x: nn.logsumexp(x, axis=-1), (X,))
    c["leaky_relu"] = (lambda x: nn.leaky_relu(x), (X,))
    c["elu"] = (lambda x: nn.elu(x), (X,))
    c["standardize"] = (lambda x: nn.standardize(x), (X,))
    # random (raw uint32 keys)
    c["random_normal"] = (lambda k: jax.random.normal(k, (3,)), (KEY,))
    c["random_uniform"] = (lambda k: jax.random.uniform(k, (2, 2)), (KEY,))
    c["random_split"] = (lambda k: jax.random.split(k), (KEY,))
    c["random_bernoulli"] = (lambda k: jax.random.bernoulli(k, 0.5, (3,)), (KEY,))
    c["random_randint"] = (lambda k: jax.random.randint(k, (3,), 0, 10), (KEY,))
    c["random_categorical"] = (lambda k, x: jax.random.categorical(k, x), (KEY, X))
    c["random_permutation"] = (lambda k: jax.random.permutation(k, 4), (KEY,))
    c["random_fold_in"] = (lambda k: jax.random.fold_in(k, 3), (KEY,))
    # control flow
    c["scan_cumsum"] = (
        lambda x: lax.scan(lambda c, a: (c + a, c * 2), 0.0, x),
        (V,),
    )
    c["cond"] = (lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x), (True, X))
    c["while_loop"] = (lambda x: lax.while_loop(lambda v: v < 10.0, lambda v: v * 2, x), (F(1),))
    c["fori_loop"] = (lambda x: lax.fori_loop(0, 3, lambda i, v: v + i, x), (X,))
    c["switch"] = (lambda i, x: lax.switch(i, [jnp.sin, jnp.cos], x), (np.int32(1), X))
    # transformations
    c["grad_sum_sq"] = (jax.grad(lambda x: jnp.sum(x**2)), (X,))
    c["grad_tanh"] = (jax.grad(lambda x: jnp.tanh(x).sum()), (X,))
    c["grad_matmul"] = (jax.grad(lambda w, x: jnp.sum(x @ w)), (M, X))
    c["grad_logsumexp"] = (jax.grad(lambda x: nn.logsumexp(x)), (X,))
    c["grad_softmax_ce"] = (
        jax.grad(lambda x: -jnp.sum(nn.log_softmax(x) * jnp.eye(3, 4))),
        (X,),
    )
    c["grad_relu"] = (jax.grad(lambda x: nn.relu(x).sum()), (X,))
    c["grad_where"] = (jax.grad(lambda x: jnp.where(x > 0, x, 0.0).sum()), (X,))
    c["grad_index"] = (jax.grad(lambda x: x[0].sum()), (X,))
    c["grad_squeeze"] = (jax.grad(lambda x: jnp.squeeze(x).sum()), (U,))
    c["grad_expand_dims"] = (jax.grad(lambda x: (jnp.expand_dims(x, 0) * 2).sum()), (X,))
    c["grad_stack"] = (jax.grad(lambda x: jnp.stack([x, 2 * x]).sum()), (X,))
    c["grad_mean_var"] = (jax.grad(lambda x: jnp.var(x) + jnp.mean(x)), (X,))
    c["value_and_grad"] = (jax.value_and_grad(lambda x: jnp.sum(jnp.sin(x))), (X,))
    c["vmap_dot"] = (jax.vmap(jnp.dot), (X, X))
    c["vmap_matvec"] = (jax.vmap(lambda a, b: a @ b, (None, 0)), (X, _x(2, 4)))
    c["vmap_sum"] = (jax.vmap(jnp.sum), (X,))
    c["vmap_squeeze"] = (jax.vmap(lambda x: jnp.squeeze(x, 0)), (_x(2, 1, 3),))
    c["vmap_expand_dims"] = (jax.vmap(lambda x: jnp.expand_dims(x, 0)), (X,))
    c["vmap_stack"] = (jax.vmap(lambda x, y: jnp.stack([x, y])), (X, X))
    c["vmap_index"] = (jax.vmap(lambda x, i: x[i]), (X, I3))
    c["jit_inner"] = (lambda x: jax.jit(jnp.sin)(x) + 1, (X,))
    c["jit_top"] = (jax.jit(lambda x: jnp.sin(x) * x), (X,))

    def pair(a, b):
        return jnp.sin(a) * b, a

    c["jit_operand_twice"] = (lambda x: jax.jit(pair)(x, x)[1] * x, (X,))

    @jax.custom_jvp
    def f(x):
        return jnp.sin(jnp.cos(x))

    f.defjvp(lambda p, t: (f(p[0]), jnp.cos(p[0]) * t[0]))

    @jax.custom_vjp
    def g(x):
        return jnp.sin(x)

    g.defvjp(lambda x: (jnp.sin(x), x), lambda r, ct: (jnp.cos(r) * ct,))
    c["custom_jvp"] = (lambda x: f(x) * x, (X,))
    c["custom_vjp"] = (lambda x: g(x) * x, (X,))
    c["vmap_custom_jvp"] = (jax.vmap(f), (X,))

    # checkpoint: the forward pass, then the backward pass as a remat2 recomputing tanh and exp
    def tanh_exp(x):
        y = jnp.tanh(x) * 1.1
        return y, jnp.exp(y)

    def step(c, _):
        c = jnp.tanh(c) * 1.1
        return c, jnp.exp(c).sum()

    c["checkpoint"] = (jax.checkpoint(tanh_exp), (V,))
    c["jvp_checkpoint"] = (lambda x, t: jax.jvp(jax.checkpoint(tanh_exp), (x,), (t,)), (V, V))
    c["grad_checkpoint"] = (
        jax.grad(lambda x: (lambda y, z: jnp.sum(y * z))(*jax.checkpoint(tanh_exp)(x))),
        (V,),
    )
    c["grad_checkpointed_scan_body"] = (
        jax.grad(lambda x: (lambda c, ys: c.sum() + ys.sum())(
            *lax.scan(jax.checkpoint(step), x, None, length=2))),
        (V,),
    )  # fmt: skip
    c["grad_scan"] = (
        jax.grad(lambda x, w: lax.scan(lambda c, a: (jnp.sin(c * w) + a, c), x, _x(2, 5))[0].sum()),
        (V, V),
    )
    c["grad_custom_jvp"] = (jax.grad(lambda x: f(x).sum()), (X,))
    c["grad_custom_vjp"] = (jax.grad(lambda x: g(x).sum()), (X,))
    _more_cases(m, c)
    _linalg_cases(m, c)
    _composed_primitive_cases(m, c)
    _ad_cases(m, c)
    return c


def _more_cases(m, c):  # noqa: PLR0915  (one line per case)
    """Everyday programs: Flax layers, Optax steps, jnp and lax calls, and their gradients."""
    jax, jnp, lax, nn, linen, optax = m.jax, m.jnp, m.lax, m.nn, m.linen, m.optax
    dense = {"params": {"kernel": _x(4, 3), "bias": _x(3)}}
    conv = {"params": {"kernel": _x(3, 3, 1, 2), "bias": _x(2)}}
    norm = {"params": {"scale": _x(4) + 2, "bias": _x(4)}}
    stats = {"batch_stats": {"mean": _x(4), "var": _x(4) + 2}}
    img = _x(1, 5, 5, 1)
    c["flax_dense"] = (lambda p, x: linen.Dense(3).apply(p, x), (dense, X))
    c["flax_conv"] = (lambda p, x: linen.Conv(2, (3, 3)).apply(p, x), (conv, img))
    c["flax_layernorm"] = (lambda p, x: linen.LayerNorm().apply(p, x), (norm, X))
    c["flax_batchnorm_eval"] = (
        lambda p, s, x: linen.BatchNorm(use_running_average=True).apply({**p, **s}, x),
        (norm, stats, X),
    )
    c["flax_batchnorm_train"] = (
        lambda p, s, x: linen.BatchNorm(use_running_average=False).apply(
            {**p, **s}, x, mutable=["batch_stats"]
        ),
        (norm, stats, X),
    )
    c["flax_dropout"] = (
        lambda k, x: linen.Dropout(0.5, deterministic=False).apply({}, x, rngs={"dropout": k}),
        (KEY, X),
    )
    c["flax_dropout_typed_key"] = (c["flax_dropout"][0], (jax.random.key(0), X))
    c["grad_flax_dense"] = (
        jax.grad(lambda p, x: jnp.mean(linen.Dense(3).apply(p, x) ** 2)),
        (dense, X),
    )
    c["grad_flax_layernorm"] = (
        jax.grad(lambda p, x: linen.LayerNorm().apply(p, x).sum()),
        (norm, X),
    )

    def step(tx):
        def run(w, g):
            state = tx.init(w)
            updates, state = tx.update(g, state, w)
            return optax.apply_updates(w, updates), state

        return run

    c["optax_sgd"] = (step(optax.sgd(0.1)), (X, X))
    c["optax_sgd_momentum"] = (step(optax.sgd(0.1, momentum=0.9)), (X, X))
    c["optax_adam"] = (step(optax.adam(1e-3)), (X, X))
    c["optax_adamw"] = (step(optax.adamw(1e-3)), (X, X))
    c["optax_clip_by_global_norm"] = (
        step(optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))),
        (X, X),
    )
    c["optax_softmax_ce"] = (
        lambda x, y: optax.softmax_cross_entropy(x, y),
        (X, np.eye(3, 4, dtype=F)),
    )
    c["optax_softmax_ce_int"] = (
        lambda x, i: optax.softmax_cross_entropy_with_integer_labels(x, i),
        (X, I3),
    )
    c["optax_l2_loss"] = (lambda x, y: optax.l2_loss(x, y), (X, X))
    # jnp
    c["where_scalars"] = (lambda x: jnp.where(x > 0, 1.0, -1.0), (X,))
    c["clip_arrays"] = (lambda x, lo: jnp.clip(x, lo, 1.0), (X, _x(4)))
    c["einsum_batch_matrix"] = (lambda a, b: jnp.einsum("bij,jk->bik", a, b), (B, M))
    c["einsum_outer"] = (lambda a, b: jnp.einsum("i,j->ij", a, b), (V, V))
    c["einsum_sum"] = (lambda a: jnp.einsum("ij->j", a), (X,))
    c["argsort_axis0"] = (lambda x: jnp.argsort(x, axis=0), (X,))
    c["sort_descending"] = (lambda x: jnp.sort(x, descending=True), (V,))
    c["cumsum_axis0"] = (lambda x: jnp.cumsum(x, axis=0), (X,))
    c["pad_reflect"] = (lambda x: jnp.pad(x, 1, mode="reflect"), (V,))
    c["pad_constant"] = (lambda x: jnp.pad(x, ((1, 1), (0, 0)), constant_values=2.0), (X,))
    c["concatenate_neg"] = (lambda x, y: jnp.concatenate([x, y], -1), (X, X))
    c["roll_axis"] = (lambda x: jnp.roll(x, 2, axis=1), (X,))
    c["mean_keepdims"] = (lambda x: x - jnp.mean(x, axis=-1, keepdims=True), (X,))
    c["argmax_keepdims"] = (lambda x: jnp.argmax(x, axis=-1, keepdims=True), (X,))
    c["index_array_2d"] = (lambda x, i: x[i, 1:3], (X, I3))
    c["index_array_pair"] = (lambda x, i: x[i, i], (X, I3))
    c["at_set_col"] = (lambda x, i: x.at[:, i].set(0.0), (X, I3))
    c["at_add_scalar_index"] = (lambda x, y: x.at[1].add(y), (X, _x(4)))
    c["at_get_fill"] = (lambda x, i: x.at[i].get(mode="fill", fill_value=0.0), (V, I3))
    c["at_set_clip"] = (lambda x, i: x.at[i].set(1.0, mode="clip"), (V, I3))
    c["take_clip"] = (lambda x, i: jnp.take(x, i, axis=1, mode="clip"), (X, I3))
    # lax control flow
    c["cond_pred"] = (lambda x: lax.cond(x.sum() > 0, lambda a: a * 2, lambda a: a - 1, x), (X,))
    c["switch_three"] = (
        lambda i, x: lax.switch(i, [lambda a: a, jnp.sin, lambda a: -a], x),
        (np.int32(2), X),
    )
    c["fori_loop_tuple"] = (
        lambda x: lax.fori_loop(0, 4, lambda i, c: (c[0] + i, c[1] * 2.0), (0, x)),
        (X,),
    )
    c["while_loop_tuple"] = (
        lambda x: lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2.0), (0, x)),
        (X,),
    )
    c["scan_rows"] = (lambda x: lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(4), x), (X,))
    c["scan_reverse"] = (
        lambda x: lax.scan(lambda c, r: (c + r, c), 0.0, x, reverse=True),
        (V,),
    )
    # a carry the body returns unchanged becomes a const; a y that is an x is not stacked
    c["scan_forwarded_carry"] = (lambda x: lax.scan(lambda c, r: (c, r), 0.0, x), (V,))
    c["scan_forwarded_part_of_carry"] = (
        lambda x: lax.scan(lambda c, r: ((c[0], c[1] + r), r * 2), (0.0, 0.0), x),
        (V,),
    )
    c["scan_forwarded_xs"] = (lambda x: lax.scan(lambda c, r: (c + r, (r, c)), 1.0, x), (V,))
    c["scan_forwarded_array_carry"] = (
        lambda x: lax.scan(lambda c, r: (c, None), jnp.ones(2), x),
        (V,),
    )
    c["grad_scan_forwarded_weight"] = (
        jax.grad(
            lambda w, x: lax.scan(lambda c, r: ((c[0], c[1] * c[0] + r), r), (w, x[0]), x)[0][1]
        ),
        (F(2), V),
    )
    # gradients
    c["grad_cond"] = (
        jax.grad(lambda x: lax.cond(True, jnp.sin, jnp.cos, x).sum()),
        (X,),
    )
    c["grad_scan_product"] = (
        jax.grad(lambda x: lax.scan(lambda c, r: (c * r, c), 1.0, x)[0]),
        (V,),
    )
    c["grad_fori_loop"] = (
        jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, v: jnp.sin(v), x).sum()),
        (X,),
    )
    c["grad_clip"] = (jax.grad(lambda x: jnp.clip(x, -0.5, 0.5).sum()), (X,))
    c["grad_softmax"] = (jax.grad(lambda x: nn.softmax(x)[0, 0]), (X,))
    c["grad_index_array"] = (jax.grad(lambda x, i: x[i].sum()), (X, I3))
    c["grad_at_add"] = (jax.grad(lambda y, x, i: x.at[i].add(y).sum()), (_x(3), V, I3))
    c["grad_take_along_axis"] = (
        jax.grad(lambda x, i: jnp.take_along_axis(x, i, axis=1).sum()),
        (X, np.zeros((3, 1), np.int32)),
    )
    c["grad_einsum"] = (jax.grad(lambda a, b: jnp.einsum("ij,jk->", a, b)), (X, M))
    c["grad_cumsum"] = (jax.grad(lambda x: (jnp.cumsum(x) * x).sum()), (V,))
    c["grad_sort"] = (jax.grad(lambda x: (jnp.sort(x) * V).sum()), (V,))
    c["grad_pad"] = (jax.grad(lambda x: (jnp.pad(x, 1) ** 2).sum()), (X,))
    c["grad_concatenate"] = (jax.grad(lambda x: jnp.concatenate([x, 2 * x]).sum()), (X,))
    c["grad_mse"] = (jax.grad(lambda w, x, y: jnp.mean((x @ w - y) ** 2)), (M, X, _x(3, 5)))
    c["vmap_take"] = (jax.vmap(lambda x, i: jnp.take(x, i)), (X, I3))
    c["vmap_at_set"] = (jax.vmap(lambda x, i: x.at[i].set(0.0)), (X, I3))
    c["vmap_dynamic_slice"] = (
        jax.vmap(lambda x, i: lax.dynamic_slice_in_dim(x, i, 2)),
        (X, np.array([0, 1, 2], np.int32)),
    )


def _linalg_cases(m, c):
    """Linear algebra and FFTs (`jnp.linalg`, `jax.scipy.linalg`, `jnp.fft`)."""
    jnp, sl = m.jnp, m.jax.scipy.linalg
    c["linalg_solve"] = (lambda a, b: jnp.linalg.solve(a, b), (SPD, _x(3)))
    c["linalg_inv"] = (lambda a: jnp.linalg.inv(a), (SPD,))
    c["linalg_det"] = (lambda a: jnp.linalg.det(a), (SPD,))
    c["linalg_slogdet"] = (lambda a: jnp.linalg.slogdet(a), (SPD,))
    c["linalg_cholesky"] = (lambda a: jnp.linalg.cholesky(a), (SPD,))
    c["linalg_qr"] = (lambda a: jnp.linalg.qr(a), (X,))
    c["linalg_eigh"] = (lambda a: jnp.linalg.eigh(a), (SPD,))
    c["linalg_svd"] = (lambda a: jnp.linalg.svd(a, full_matrices=False), (X,))
    c["scipy_lu"] = (lambda a: sl.lu(a), (SPD,))
    c["scipy_solve_triangular"] = (lambda a, b: sl.solve_triangular(a, b, lower=True), (SPD, _x(3)))
    c["scipy_cho_solve"] = (lambda a, b: sl.cho_solve((a, True), b), (SPD, _x(3)))
    c["fft"] = (lambda x: jnp.fft.fft(x), (_x(8),))
    c["ifft"] = (lambda x: jnp.fft.ifft(x), (_x(8),))
    c["rfft"] = (lambda x: jnp.fft.rfft(x), (_x(8),))
    c["fft_pad"] = (lambda x: jnp.fft.ifft(x, n=10), (_x(8),))
    c["fft_crop"] = (lambda x: jnp.fft.fft(x, n=5), (_x(8),))
    c["rfft_axis0"] = (lambda x: jnp.fft.rfft(x, axis=0), (X,))
    c["irfft"] = (lambda x: jnp.fft.irfft(x), (X,))
    c["irfft_n"] = (lambda x: jnp.fft.irfft(x, n=5), (X,))
    c["fft2_ortho"] = (lambda x: jnp.fft.fft2(x, norm="ortho"), (X,))
    c["ifftn_forward"] = (lambda x: jnp.fft.ifftn(x, norm="forward"), (B,))
    c["rfftn"] = (lambda x: jnp.fft.rfftn(x), (B,))
    c["irfftn_s"] = (lambda x: jnp.fft.irfftn(x, s=(3, 6)), (X,))
    c["hfft"] = (lambda x: jnp.fft.hfft(x), (X,))
    c["ihfft"] = (lambda x: jnp.fft.ihfft(x), (X,))
    c["lax_fft"] = (lambda x: m.lax.fft(x, "fft", (4,)), (X,))
    c["grad_rfft"] = (m.jax.grad(lambda x: jnp.fft.rfft(x).real.sum()), (_x(8),))
    c["lax_lu"] = (lambda a: m.lax.linalg.lu(a), (SPD,))
    c["vmap_lax_lu"] = (m.jax.vmap(lambda a: m.lax.linalg.lu(a)), (B[:, :3, :3],))
    c["jvp_lax_lu"] = (
        lambda a, t: m.jax.jvp(lambda a: m.lax.linalg.lu(a)[0], (a,), (t,)),
        (SPD, SPD),
    )
    c["scipy_lu_factor"] = (lambda a: sl.lu_factor(a), (SPD,))
    c["scipy_lu_solve"] = (lambda a, b: sl.lu_solve(sl.lu_factor(a), b), (SPD, _x(3)))
    c["linalg_slogdet_2x2"] = (lambda a: jnp.linalg.slogdet(a), (SPD[:2, :2],))
    c["linalg_det_4x4"] = (lambda a: jnp.linalg.det(a), (M[:, :4],))
    c["grad_linalg_det_4x4"] = (m.jax.grad(lambda a: jnp.linalg.det(a)), (M[:, :4],))


def _composed_primitive_cases(m, c):
    """JAX's primitives numbax computes from others (special functions, bits, cumlogsumexp)."""
    jax, jnp, lax = m.jax, m.jnp, m.lax
    A, P, I = (
        np.array([0.5, 2.0, 5.0], F),
        np.array([0.3, 2.5, 4.0], F),
        np.array([1, 7, -3], np.int32),
    )
    c["igamma"] = (lambda a, x: lax.igamma(a, x), (A, P))
    c["igamma_scalar"] = (lambda x: lax.igamma(2.0, x), (P,))
    c["igammac"] = (lambda a, x: lax.igammac(a, x), (A, P))
    c["igamma_grad_a"] = (lambda a, x: lax.igamma_grad_a(a, x), (A, P))
    c["grad_igamma"] = (jax.grad(lambda a, x: lax.igamma(a, x).sum(), (0, 1)), (A, P))
    c["grad_igammac"] = (jax.grad(lambda a, x: lax.igammac(a, x).sum(), (0, 1)), (A, P))
    c["betainc"] = (lambda x: lax.betainc(1.0, 2.0, x), (P / 5,))
    c["grad_betainc"] = (jax.grad(lambda x, a, b: lax.betainc(a, b, x).sum()), (P / 5, A, P))
    c["zeta"] = (lambda x, q: lax.zeta(x, q), (A + 2, P))
    c["bessel_i0e"] = (lambda x: lax.bessel_i0e(x), (P,))
    c["bessel_i1e"] = (lambda x: lax.bessel_i1e(x), (P,))
    c["grad_bessel_i0e"] = (jax.grad(lambda x: lax.bessel_i0e(x).sum()), (P,))
    c["grad_bessel_i1e"] = (jax.grad(lambda x: lax.bessel_i1e(x).sum()), (P,))
    c["cumlogsumexp"] = (lambda x: lax.cumlogsumexp(x, axis=1, reverse=True), (X,))
    c["vmap_cumlogsumexp"] = (jax.vmap(lambda x: lax.cumlogsumexp(x)), (X,))
    c["nextafter"] = (lambda x: lax.nextafter(x, 2.0), (P,))
    c["jnp_nextafter"] = (lambda x, y: jnp.nextafter(x, y), (P, A))
    c["clz"] = (lambda i: lax.clz(i), (I,))
    c["conj"] = (lambda x: lax.conj(x), (P,))
    c["reduce_precision"] = (lambda x: lax.reduce_precision(x, 5, 10), (P,))
    c["grad_reduce_precision"] = (jax.grad(lambda x: lax.reduce_precision(x, 5, 10).sum()), (P,))
    c["reduce_xor"] = (lambda i: lax.reduce_xor(i, (0,)), (I,))
    c["eq_to"] = (lambda x, y: lax.eq_to_p.bind(x, y), (P, A))
    c["lt_to"] = (lambda x, y: lax.lt_to_p.bind(x, y), (P, A))
    sp = m.jax.scipy.special
    c["jsp_gammainc_scalar"] = (lambda x: sp.gammainc(2.0, x), (P,))
    c["jsp_gammaincc"] = (lambda a, x: sp.gammaincc(a, x), (A, P))
    c["jsp_betainc"] = (lambda a, x: sp.betainc(a, 2.0, x), (A, P / 5))
    c["jsp_i1e"] = (lambda x: sp.i1e(x), (P,))
    c["reduce_window_mul"] = (
        lambda x: lax.reduce_window(x, 1.0, lax.mul, (1, 2), (1, 1), "VALID"),
        (X,),
    )
    c["reduce_window_pair"] = (
        lambda x: lax.reduce_window(
            (x, x), (1.0, 0.0), lambda a, b: (a[0] * b[0], a[1] + b[1]), (2, 2), (1, 2), "SAME"
        ),
        (X,),
    )
    c["vmap_reduce_window"] = (
        jax.vmap(lambda x: lax.reduce_window(x, 1.0, lax.mul, (2,), (1,), "VALID")),
        (X,),
    )
    dl, d, du = np.array([0, 1, 2], F), np.array([4, 5, 6], F), np.array([1, 2, 0], F)
    c["tridiagonal_solve"] = (
        lambda d, b: lax.linalg.tridiagonal_solve(dl, d, du, b),
        (d, M[:3, :2]),
    )
    c["grad_tridiagonal_solve"] = (
        jax.grad(lambda d, b: lax.linalg.tridiagonal_solve(dl, d, du, b).sum(), (0, 1)),
        (d, M[:3, :2]),
    )
    c["hessenberg"] = (lambda a: lax.linalg.hessenberg(a), (SPD,))
    c["tridiagonal"] = (lambda a: lax.linalg.tridiagonal(a, lower=False), (SPD,))
    c["householder_product"] = (lambda a, t: lax.linalg.householder_product(a, t), (X.T, V[:3]))
    c["schur"] = (lambda a: lax.linalg.schur(a), (SPD,))
    linalg = lax.linalg
    c["symmetric_product"] = (
        lambda a, c: linalg.symmetric_product(a, c, alpha=2.0, beta=0.5),
        (X[:, :2].T, SPD[:2, :2]),
    )
    c["symmetric_product_symmetrized"] = (
        lambda a, c: linalg.symmetric_product(a, c, beta=1.0, symmetrize_output=True),
        (B[:, :2], B[:, :2, :2]),
    )
    c["cholesky_update"] = (lambda r, w: linalg.cholesky_update(r, w), (SPD, V[:3]))
    c["ormqr"] = (lambda a, t, c: linalg.ormqr(a, t, c, left=False), (X.T, V[:3], M[:, :4]))
    c["eigh_implementation"] = (
        lambda a: linalg.eigh(a, implementation=linalg.EighImplementation.QR),
        (SPD,),
    )
    c["eigh_unsorted"] = (lambda a: linalg.eigh(a, sort_eigenvalues=False), (SPD,))
    c["svd_algorithm"] = (lambda a: linalg.svd(a, algorithm=linalg.SvdAlgorithm.QR), (X,))
    c["eig_implementation"] = (
        lambda a: linalg.eig(a, implementation=linalg.EigImplementation.LAPACK),
        (SPD,),
    )
    c["eig_eigenvalues"] = (
        lambda a: linalg.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False),
        (SPD,),
    )
    c["approx_max_k"] = (lambda x: lax.approx_max_k(x, 2), (X,))
    c["vmap_approx_min_k"] = (
        jax.vmap(lambda x: lax.approx_min_k(x, 2, reduction_dimension=0)),
        (B,),
    )
    c["reduce_generic"] = (lambda x: lax.reduce(x, 1.0, lambda a, b: a * b + 1, (1,)), (X,))
    c["reduce_pair"] = (
        lambda x: lax.reduce((x, x), (1.0, 0.0), lambda a, b: (a[0] * b[0], a[1] + b[1]), (0,)),
        (X,),
    )
    c["vmap_reduce_generic"] = (
        jax.vmap(lambda x: lax.reduce(x, 1.0, lambda a, b: a * b + 1, (0,))),
        (X,),
    )
    _sharding_constraint_cases(m, c)
    c["device_put"] = (lambda x: jax.device_put(x) * 2, (X,))
    c["device_put_device"] = (lambda x: jax.device_put((x, x), jax.devices()[0])[1], (X,))
    c["grad_device_put"] = (jax.grad(lambda x: (jax.device_put(x) * 2).sum()), (X,))
    c["vmap_device_put"] = (jax.vmap(lambda x: jax.device_put(x) + 1), (X,))
    c["scatter_add_bind"] = (
        lambda x, i, u: lax.scatter_add(
            x, i[:, None], u, lax.ScatterDimensionNumbers((), (0,), (0,))
        ),
        (V, I3, _x(3)),
    )


def _sharding_constraint_cases(m, c):
    """`with_sharding_constraint`: JAX's `sharding_constraint` equation."""
    jax, jnp, sharding = m.jax, m.jnp, m.jax.sharding
    mesh = jax.make_mesh((1,), ("x",), axis_types=(sharding.AxisType.Auto,))
    named = sharding.NamedSharding(mesh, sharding.PartitionSpec("x"))
    wsc = jax.lax.with_sharding_constraint
    c["with_sharding_constraint"] = (lambda x: wsc(jnp.sin(x), named) * 2, (V,))
    c["jit_with_sharding_constraint"] = (jax.jit(lambda x: wsc(x, named)), (V,))
    c["vmap_with_sharding_constraint"] = (jax.vmap(lambda x: wsc(x, named), in_axes=1), (X,))
    spec = sharding.PartitionSpec(sharding.PartitionSpec.UNCONSTRAINED, "x")
    c["with_sharding_constraint_unconstrained"] = (
        lambda x: wsc(x, sharding.NamedSharding(mesh, spec)),
        (X,),
    )


def _ad_cases(m, c):  # noqa: PLR0915  (one line per case)
    """Derivatives of programs with weakly typed scalars (Python floats and ints as arguments or
    constants), integer and mixed-dtype operands, control flow, custom rules and remat: their
    texts, and (`out_types`) the weak types of their results."""
    jax, jnp, lax = m.jax, m.jnp, m.lax
    h, i5 = V.astype(np.float16), np.arange(5, dtype=np.int32)
    sin2 = lambda x: jnp.sin(x) * x  # noqa: E731
    carry_product = lambda x: lax.scan(lambda c, r: (c * r, c), 1.0, x)[0]  # noqa: E731
    # transformations of a weakly typed scalar argument, and of a strong one
    c["ad_grad_weak"] = (jax.grad(lambda x: x * 2.0), (1.0,))
    c["ad_grad_strong"] = (jax.grad(lambda x: x * 2.0), (F(1),))
    c["ad_grad_weak_sin"] = (jax.grad(sin2), (1.0,))
    c["ad_grad_grad_weak"] = (jax.grad(jax.grad(lambda x: x**3 * 2.0)), (1.0,))
    c["ad_jvp_weak"] = (lambda x, t: jax.jvp(sin2, (x,), (t,)), (1.0, 1.0))
    c["ad_jvp_weak_strong_tangent"] = (lambda x, t: jax.jvp(sin2, (x,), (t,)), (1.0, F(1)))
    c["ad_vjp_weak_ct"] = (lambda x: jax.vjp(sin2, x)[1](1.0), (1.0,))
    c["ad_vjp_strong_ct"] = (lambda x, t: jax.vjp(sin2, x)[1](t), (1.0, F(1)))
    c["ad_linearize_weak"] = (lambda x: jax.linearize(lambda x: x**3, x)[1](1.0), (2.0,))
    c["ad_value_and_grad_weak"] = (jax.value_and_grad(lambda x: x**2 + 1), (3.0,))
    c["ad_jacfwd_weak"] = (jax.jacfwd(lambda x: x * 2.0 + x.sum()), (V,))
    c["ad_jacrev"] = (jax.jacrev(lambda x: jnp.sin(x) * 2.0), (V,))
    c["ad_jacrev_weak_scalar"] = (jax.jacrev(lambda x: jnp.stack([x, x * 2.0])), (1.0,))
    c["ad_hessian_weak"] = (jax.hessian(lambda x: x**3 * 2.0), (1.0,))
    c["ad_hessian"] = (jax.hessian(lambda x: (x**2).sum() * 0.5), (V,))
    c["ad_jvp_of_grad"] = (lambda x: jax.jvp(jax.grad(lambda x: x**3), (x,), (1.0,)), (1.0,))
    c["ad_grad_has_aux"] = (jax.grad(lambda x: (x * 2.0, x), has_aux=True), (1.0,))
    c["ad_grad_argnums"] = (jax.grad(lambda x, y: x * y + y, argnums=(0, 1)), (1.0, F(2)))
    # integer and mixed-dtype operands
    c["ad_grad_weak_int"] = (jax.grad(lambda x, n: x * n), (1.0, 3))
    c["ad_grad_int32"] = (jax.grad(lambda x, n: x * n), (F(1), np.int32(3)))
    c["ad_grad_int_astype"] = (jax.grad(lambda x, i: (x * i.astype(F)).sum()), (V, i5))
    c["ad_grad_plus_int"] = (jax.grad(lambda x: (x + 1).sum()), (V,))
    c["ad_grad_f16_f32"] = (jax.grad(lambda x, y: (x * y).sum()), (h, V))
    c["ad_grad_f16_weak"] = (jax.grad(lambda x: (x * 2.0).sum().astype(F)), (h,))
    c["ad_grad_astype_strong"] = (jax.grad(lambda x: x.astype(F) * 3), (1.0,))
    c["ad_grad_pow_int"] = (jax.grad(lambda x: x**3), (2.0,))
    c["ad_grad_div_weak"] = (jax.grad(lambda x: 1.0 / x), (2.0,))
    c["ad_grad_where_weak"] = (jax.grad(lambda x: jnp.where(x > 0, x, 0.0)), (1.0,))
    c["ad_grad_maximum_weak"] = (jax.grad(lambda x: jnp.maximum(x, 0.0) * 2), (1.0,))
    c["ad_grad_stop_gradient"] = (jax.grad(lambda x: x * lax.stop_gradient(x)), (1.0,))
    c["ad_grad_mean_weak"] = (jax.grad(lambda x: (x * 0.5).mean()), (V,))
    c["ad_grad_jit_weak"] = (jax.grad(jax.jit(lambda x: x * 2.0)), (1.0,))
    c["ad_jvp_jit_weak"] = (lambda x: jax.jvp(jax.jit(sin2), (x,), (1.0,)), (1.0,))
    # control flow
    cond = lambda x: lax.cond(x > 0, lambda a: a * 2.0, lambda a: a - 1.0, x)  # noqa: E731
    c["ad_grad_cond_weak"] = (jax.grad(cond), (1.0,))
    c["ad_grad_cond_strong"] = (jax.grad(cond), (F(1),))
    c["ad_jvp_cond_weak"] = (lambda x: jax.jvp(cond, (x,), (1.0,)), (1.0,))
    c["ad_linearize_cond"] = (lambda x: jax.linearize(cond, x)[1](2.0), (1.0,))
    c["ad_jacrev_cond"] = (jax.jacrev(lambda x: lax.cond(True, jnp.sin, jnp.cos, x)), (V[:3],))
    c["ad_grad_fori_weak"] = (
        jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, a: a * 2.0, x)),
        (1.0,),
    )
    c["ad_grad_fori_index"] = (
        jax.grad(lambda x: lax.fori_loop(0, 3, lambda i, a: a * i, x)),
        (1.0,),
    )
    c["ad_jvp_while_weak"] = (
        lambda x: jax.jvp(
            lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))[
                1
            ],
            (x,),
            (1.0,),
        ),
        (1.0,),
    )
    c["ad_grad_scan_weak_carry"] = (
        jax.grad(lambda w: lax.scan(lambda c, r: (c * w, c), 1.0, None, length=3)[0]),
        (2.0,),
    )
    c["ad_grad_scan_weak_const"] = (
        jax.grad(lambda w, x: lax.scan(lambda c, r: (c + w * r, None), 0.0, x)[0]),
        (2.0, V),
    )
    c["ad_jvp_scan_weak_carry"] = (lambda x, t: jax.jvp(carry_product, (x,), (t,)), (V, V))
    c["ad_linearize_scan_weak_carry"] = (lambda x: jax.linearize(carry_product, x)[1](x), (V,))
    c["ad_vjp_scan_weak_ct"] = (lambda x: jax.vjp(carry_product, x)[1](1.0), (V,))
    c["ad_value_and_grad_scan"] = (jax.value_and_grad(carry_product), (V,))
    c["ad_grad_scan_ys"] = (
        jax.grad(lambda x: lax.scan(lambda c, r: (c + r, c * r), 0.0, x)[1].sum()),
        (V,),
    )

    # two carries from Python floats: `a` reaches `out[1]` only through `b` (the transposed
    # body adds to `b`'s weak cotangent), and `b` is dead for `out[0]` (one carry transposed)
    def pair_scan(a, b, xs, which):
        out = lax.scan(lambda c, r: ((c[0] * r, c[1] + c[0]), None), (a, b), xs)[0]
        return out[which]

    c["ad_grad_scan_carry_via_carry"] = (
        lambda a, b, xs: jax.grad(pair_scan, argnums=(0, 1))(a, b, xs, 1),
        (1.0, 0.0, V),
    )
    c["ad_grad_scan_dead_carry"] = (
        lambda a, b, xs: jax.grad(pair_scan, argnums=(0, 1))(a, b, xs, 0),
        (1.0, 0.0, V),
    )
    c["ad_jacfwd_scan"] = (jax.jacfwd(carry_product), (V,))
    c["ad_hessian_scan"] = (jax.hessian(carry_product), (V,))

    # custom rules and remat
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x) * 2.0

    f.defjvp(lambda p, t: (f(p[0]), jnp.cos(p[0]) * 2.0 * t[0]))

    @jax.custom_vjp
    def g(x):
        return jnp.sin(x) * 2.0

    g.defvjp(lambda x: (g(x), x), lambda r, ct: (jnp.cos(r) * 2.0 * ct,))
    c["ad_grad_custom_jvp_weak"] = (jax.grad(f), (1.0,))
    c["ad_jvp_custom_jvp_weak"] = (lambda x: jax.jvp(f, (x,), (1.0,)), (1.0,))
    c["ad_grad_custom_vjp_weak"] = (jax.grad(g), (1.0,))
    c["ad_vjp_custom_vjp_weak"] = (lambda x: jax.vjp(g, x)[1](1.0), (1.0,))
    c["ad_grad_remat_weak"] = (
        jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)) * 2.0)),
        (1.0,),
    )
    c["ad_grad_remat_inside"] = (
        jax.grad(lambda x: jax.checkpoint(lambda y: jnp.sin(y) * 2.0)(x).sum()),
        (V,),
    )


def cases(m):
    """The table under the API namespace `m` (attributes jax, jnp, lax, nn, linen, optax).

    Args:
      m: a namespace with the `jax`, `jnp`, `lax`, `nn` (`jax.nn`), `linen` (`flax.linen`)
        and `optax` modules of one implementation.

    Returns:
      A dict of case name to `(function, example arguments)`.
    """
    return _cases(m)


def out_types(closed_jaxpr) -> list[str]:
    """The dtype, shape and weak type of each result of a `make_jaxpr` (the text leaves weak
    types out), as `float32[3]` or `float32[]{weak}`.

    Args:
      closed_jaxpr: what `make_jaxpr(f)(*args)` returns, under JAX or numbax.

    Returns:
      One string per result.
    """
    return [
        f"{a.dtype}{list(a.shape)}{'{weak}' if a.weak_type else ''}" for a in closed_jaxpr.out_avals
    ]
