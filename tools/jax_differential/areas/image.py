"""jax.image.resize with every method, up and down, antialiased or not, integer and
16-bit dtypes, batch dimensions, and their errors; scale_and_translate; and both under
grad, vmap and jit.
"""

# ruff: noqa: E501


def cases() -> list[str]:
    c = []
    methods = ["nearest", "linear", "bilinear", "cubic", "bicubic", "lanczos3", "lanczos5"]
    for m in methods:
        c += [
            f"jax.image.resize(IMG, (2, 8, 9, 3), '{m}')",
            f"jax.image.resize(IMG, (2, 3, 4, 3), '{m}')",
            f"jax.image.resize(IMG, (2, 3, 4, 3), '{m}', antialias=False)",
            f"jax.image.resize(IMG, (2, 10, 3, 3), method='{m}')",
            f"jax.image.resize(jnp.arange(6.0), (11,), '{m}')",
            f"jax.image.resize(jnp.arange(6.0), (2,), '{m}')",
            f"jax.image.resize((IMG * 100).astype(jnp.int32), (2, 7, 4, 3), '{m}')",
            f"jax.image.resize((IMG * 100 + 120).astype(jnp.uint8), (2, 7, 4, 3), '{m}')",
            f"jax.image.resize(IMG.astype(jnp.float16), (2, 7, 9, 3), '{m}')",
            f"jax.image.resize(IMG.astype(jnp.bfloat16), (2, 4, 4, 3), '{m}')",
            f"jax.image.resize(IMG[0, :, :, 0] + 1j * IMG[1, :, :, 0], (7, 3), '{m}')",
            f"jax.grad(lambda x: jax.image.resize(x, (2, 7, 4, 3), '{m}').sum())(IMG)[0, :2]",
            f"jax.jit(lambda x: jax.image.resize(x, (2, 7, 4, 3), '{m}'))(IMG)",
        ]
    c += [
        "jax.image.resize(IMG, (2, 5, 6, 3), 'linear')",
        "jax.image.resize(IMG, (2, 0, 6, 3), 'linear')",
        "jax.image.resize(IMG, (5, 6, 3), 'linear')",
        "jax.image.resize(IMG, (2, 5, 6, 3), 'cubicc')",
        "jax.image.resize(IMG, (2, 5, 6, 3), jax.image.ResizeMethod.LANCZOS3)",
        "jax.image.resize(IMG, (2, 5, 6, 3), 'trilinear')",
        "jax.image.resize(IMG, (4, 5, 6, 3), 'linear')",
        "jax.image.resize(IMG, (2, 5, 6, 6), 'nearest')",
        "jax.image.resize(jnp.arange(4), (7,), 'nearest')",
        "jax.image.resize(jnp.arange(4), (7,), 'linear')",
        "jax.image.resize(jnp.array([True, False, True]), (5,), 'nearest')",
        "jax.image.resize(jnp.arange(6.0).reshape(2, 3), (4, 6), 'linear', precision=jax.lax.Precision.HIGHEST)",
        "jax.image.ResizeMethod.from_string('bilinear')",
        "jax.image.ResizeMethod.from_string('nope')",
        "list(jax.image.ResizeMethod.__members__)",
        "jax.vmap(lambda x: jax.image.resize(x, (7, 4, 3), 'linear'))(IMG)",
        "jax.jacfwd(lambda x: jax.image.resize(x, (5,), 'cubic'))(jnp.arange(3.0))",
        "jax.image.scale_and_translate(IMG, (2, 7, 9, 3), (1, 2), jnp.array([1.5, 1.5]), jnp.array([0.0, 0.0]), 'linear')",
        "jax.image.scale_and_translate(IMG, (2, 7, 9, 3), (1, 2), jnp.array([1.2, 0.7]), jnp.array([0.5, -1.0]), 'cubic')",
        "jax.image.scale_and_translate(IMG, (2, 3, 3, 3), (1, 2), jnp.array([0.5, 0.5]), jnp.array([0.0, 0.0]), 'lanczos3', antialias=False)",
        "jax.image.scale_and_translate(IMG, (2, 3, 3, 3), (1, 2), jnp.array([0.5, 0.5]), jnp.array([0.0, 0.0]), 'lanczos3')",
        "jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0,), jnp.array([2.0]), jnp.array([1.0]), 'triangle')",
        "jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0,), jnp.array([2.0]), jnp.array([1.0]), 'nearest')",
        "jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0,), jnp.array([2.0]), jnp.array([1.0]), 'keyscubic')",
        "jax.grad(lambda s: jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0,), s, jnp.array([1.0]), 'linear').sum())(jnp.array([2.0]))",
        "jax.grad(lambda t: jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0,), jnp.array([2.0]), t, 'cubic').sum())(jnp.array([0.3]))",
        "jax.image.scale_and_translate(jnp.arange(5.0), (8,), (0, 1), jnp.array([2.0]), jnp.array([1.0]), 'linear')",
    ]
    return c
