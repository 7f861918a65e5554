"""A table of common `jax.numpy` / `jax.lax` / `jax.nn` / `jax.random` calls whose `make_jaxpr`
text numbax matches with JAX's: each case is a function of a namespace `m` (`m.jax`, `m.jnp`,
`m.lax`, `m.nn`) returning `(fun, args)`. `record_jaxprs.py` runs the table under JAX 0.10.2
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
    return c


def cases(m):
    """The table under the API namespace `m` (attributes jax, jnp, lax, nn).

    Args:
      m: a namespace with the `jax`, `jnp`, `lax` and `nn` modules of one implementation.

    Returns:
      A dict of case name to `(function, example arguments)`.
    """
    return _cases(m)
