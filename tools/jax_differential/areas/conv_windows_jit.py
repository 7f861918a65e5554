"""A few of conv_windows' calls under `jit` (numbax compiles them with numba)."""

# ruff: noqa: E501


def cases() -> list[str]:
    cg = "lax.conv_general_dilated"
    j = "jax.jit(lambda x, w: {})"
    c = [
        j.format(f"{cg}(x, w, (1, 1), 'SAME', feature_group_count=2)")
        + "(CA((2, 4, 4, 3)), CA((4, 2, 2, 2)))",
        j.format(f"{cg}(x, w, (1, 1), 'VALID', batch_group_count=2)")
        + "(CA((2, 4, 4, 3)), CA((4, 4, 2, 2)))",
        j.format(f"{cg}(x, w, (1, 2), [(2, 1), (-1, 1)], lhs_dilation=(2, 1), rhs_dilation=(1, 2))")
        + "(CA((1, 2, 5, 4)), CA((3, 2, 3, 2)))",
        j.format(f"{cg}(x, w, (2, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))")
        + "(CA((1, 5, 4, 2)), CA((3, 2, 2, 3)))",
        j.format(f"{cg}(x, w, (1, 1), 'SAME')")
        + "(CA((1, 2, 5, 4), jnp.int32), CA((3, 2, 3, 2), jnp.int32))",
        j.format(f"{cg}(x, w, (1, 1), 'SAME')")
        + "(CA((1, 2, 5, 4), jnp.float16), CA((3, 2, 3, 2), jnp.float16))",
        j.format(f"{cg}(x, w, (1, 1), 'SAME', preferred_element_type=jnp.float32)")
        + "(CA((1, 2, 5, 4), jnp.bfloat16), CA((3, 2, 3, 2), jnp.bfloat16))",
        j.format(f"{cg}(x, w, (1,), 'SAME_LOWER')") + "(CC((2, 2, 6)), CC((3, 2, 3)))",
        j.format(
            "lax.conv_transpose(x, w, (2, 2), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), transpose_kernel=True)"
        )
        + "(CA((1, 4, 3, 2)), CA((3, 2, 3, 2)))",
        "jax.jit(jax.grad(lambda x, w: jnp.sum(jnp.sin(lax.conv(x, w, (2, 1), 'SAME'))), argnums=(0, 1)))(CA((1, 2, 5, 4)), CA((3, 2, 3, 2)))",
        "jax.jit(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2), (1, 2, 1), 'SAME', base_dilation=(1, 1, 2)))(CA((2, 5, 4)))",
        "jax.jit(lambda x: lax.reduce_window(x, 0.0, lambda a, b: a + 2 * b, (1, 2, 2), (1, 1, 1), [(0, 0), (1, 0), (0, 1)]))(CA((2, 5, 4)))",
        "jax.jit(lambda x: fnn.avg_pool(x, (3, 2), strides=(2, 1), padding='SAME', count_include_pad=False))(CA((2, 5, 4, 2)))",
        "jax.jit(lambda x: (lax.top_k(x, 5), lax.sort(x), jnp.argsort(x, descending=True), jnp.argmax(x)))(FNAN())",
        "jax.jit(lambda x: (lax.cumsum(x, axis=1, reverse=True), lax.cummax(x, axis=0), lax.cumlogsumexp(x.astype(float), axis=1)))(CA((3, 4), jnp.int32))",
        "jax.jit(lambda a, v: (jnp.searchsorted(a, v), jnp.searchsorted(a, v, side='right', method='compare_all')))(jnp.array([-0.0, 0.0, 1.0, 1.0, 2.0]), jnp.array([-1.0, 0.0, 1.0, 1.5, jnp.nan]))",
        "jax.jit(lambda a, b: (jnp.convolve(a, b, mode='same'), jnp.correlate(a, b, mode='full')))(CA((6,)), CA((3,), k=3))",
    ]
    return c
