"""conv_windows' dtype rules under x64: 64-bit operands, default int64 indices, float64
accumulation.
"""

# ruff: noqa: E501


def cases() -> list[str]:
    cg = "lax.conv_general_dilated"
    x, w = "CA((1, 2, 5, 4), {d})", "CA((3, 2, 3, 2), {d})"
    c = [
        f"{cg}({x.format(d=d)}, {w.format(d=d)}, (1, 1), 'SAME')"
        for d in ("jnp.float64", "jnp.int64", "jnp.complex128", "jnp.float32", "jnp.int32")
    ]
    c += [
        f"{cg}({x.format(d='jnp.float32')}, {w.format(d='jnp.float32')}, (1, 1), 'SAME', preferred_element_type=jnp.float64)",
        f"{cg}({x.format(d='jnp.int32')}, {w.format(d='jnp.int32')}, (1, 1), 'SAME', preferred_element_type=jnp.int64)",
        f"{cg}({x.format(d='jnp.int64')}, {w.format(d='jnp.int64')}, (1, 1), 'SAME', preferred_element_type=jnp.int32)",
        f"{cg}({x.format(d='jnp.float64')}, {w.format(d='jnp.float64')}, (1, 1), 'SAME', preferred_element_type=jnp.float32)",
        f"jax.grad(lambda x, w: jnp.sum(jnp.sin({cg}(x, w, (2, 1), [(1, 0), (0, 2)]))), argnums=(0, 1))({x.format(d='jnp.float64')}, {w.format(d='jnp.float64')})",
        "lax.conv_transpose(CA((1, 4, 3, 2), jnp.float64), CA((3, 2, 2, 3), jnp.float64), (2, 2), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))",
        "jnp.convolve(CA((6,), jnp.int64), CA((3,), jnp.int64))",
        "jnp.convolve(CA((6,), jnp.float64), CA((3,), jnp.float32), mode='same')",
        "jnp.correlate(CC((4,)).astype(jnp.complex128), CC((3,)))",
        "jsp.signal.convolve(CA((4, 3), jnp.int64), CA((2, 2), jnp.int64))",
        "jsp.signal.convolve(CA((4, 3), jnp.float64), CA((2, 2), jnp.float64), method='fft')",
        "lax.reduce_window(CA((2, 5, 4), jnp.float64), 0.0, lax.add, (1, 2, 2), (1, 1, 1), 'SAME')",
        "lax.reduce_window(CA((2, 5, 4), jnp.int64), 0, lax.add, (1, 2, 2), (1, 1, 1), 'SAME')",
        "lax.reduce_window(CA((2, 5, 4), jnp.int64), -(2**63), lax.max, (1, 2, 2), (1, 1, 1), 'SAME')",
        "lax.reduce_window(CA((5,), jnp.float64), 0.0, lambda a, b: a + 2 * b, (2,), (1,), 'VALID')",
        "fnn.avg_pool(CA((2, 5, 4, 2), jnp.float64), (2, 2), padding='SAME', count_include_pad=False)",
        "fnn.avg_pool(CA((2, 5, 4, 2), jnp.float16), (2, 2), padding='SAME', count_include_pad=False)",
        "fnn.max_pool(CA((2, 5, 4, 2), jnp.int64), (2, 2), padding='SAME')",
    ]
    for f in ("cumsum", "cumprod", "cummax", "cumlogsumexp"):
        c += [
            f"lax.{f}(CA((3, 4), jnp.float64), axis=1, reverse=True)",
            f"lax.{f}(CA((3, 4), jnp.int64), axis=0)",
        ]
    c += [
        "jnp.cumsum(CA((3, 4), jnp.int32), axis=1)",
        "jnp.cumsum(CA((3, 4), jnp.int8))",
        "jnp.cumsum(CA((3, 4), jnp.uint8), axis=0)",
        "jnp.cumprod(CA((3, 4)) > 0, axis=0)",
        "lax.sort((CA((6,), jnp.int64), CA((6,), jnp.float64, k=3)), num_keys=1)",
        "jnp.argsort(CA((3, 4), jnp.float64), descending=True)",
        "jnp.argsort(CA((3, 4)), dtype=jnp.int64)",
        "jnp.sort(jnp.array([0.0, -0.0, jnp.nan, -1.0]))",
        "lax.top_k(CA((3, 4), jnp.float64), 2)",
        "lax.top_k(CA((3, 4), jnp.int64), 2)",
        "jnp.argmax(CA((3, 4), jnp.float64), axis=1)",
        "jnp.argmin(CA((3, 4)), keepdims=True)",
        "jnp.nanargmax(jnp.array([jnp.nan, 1.0, 2.0]))",
        "lax.argmax(CA((3, 4)), 1, jnp.int64)",
        "jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), jnp.array([2.0, 2.5]))",
        "jnp.searchsorted(jnp.array([1, 2, 3]), 2, side='right', method='sort')",
        "jnp.searchsorted(jnp.array([1, 2, 3], jnp.int64), jnp.array([2.5]), method='compare_all')",
        "jnp.digitize(jnp.array([0.5, 2.5]), jnp.array([1.0, 2.0, 3.0]))",
    ]
    return c
