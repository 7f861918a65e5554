"""jax.nn.initializers (`initializers`): every initializer over shapes (scalars, empty,
convolution kernels) and dtypes, bit for bit but for the orthogonal ones (QR factors), and
their errors.
"""

INITS = [
    "init.zeros",
    "init.ones",
    "init.constant(0.5)",
    "init.constant(-2, dtype=jnp.int32)",
    "init.uniform()",
    "init.uniform(2.0)",
    "init.normal()",
    "init.normal(0.5)",
    "init.truncated_normal()",
    "init.truncated_normal(2.0, lower=-1.0, upper=3.0)",
    "init.glorot_uniform()",
    "init.glorot_normal()",
    "init.xavier_uniform()",
    "init.xavier_normal()",
    "init.he_uniform()",
    "init.he_normal()",
    "init.kaiming_uniform()",
    "init.kaiming_normal()",
    "init.lecun_uniform()",
    "init.lecun_normal()",
    "init.variance_scaling(2.0, 'fan_avg', 'uniform')",
    "init.variance_scaling(1.0, 'fan_out', 'normal')",
    "init.variance_scaling(1.0, 'fan_in', 'truncated_normal')",
    "init.variance_scaling(1.0, 'fan_geo_avg', 'truncated_normal')",
    "init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=0, out_axis=1)",
    "init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=(0, 1), out_axis=-1)",
    "init.variance_scaling(1.0, 'fan_avg', 'uniform', batch_axis=0)",
    "init.variance_scaling(1.0, 'fan_avg', 'uniform', in_axis=1, out_axis=2, batch_axis=(0,))",
    "init.glorot_uniform(in_axis=0, out_axis=1)",
    "init.he_normal(batch_axis=0)",
    "init.lecun_normal(in_axis=-1, out_axis=-2)",
    "init.orthogonal()",
    "init.orthogonal(scale=2.0)",
    "init.orthogonal(column_axis=0)",
    "init.delta_orthogonal()",
    "init.delta_orthogonal(scale=0.5, column_axis=-2)",
]


def cases() -> list[tuple[str, bool]]:
    c: list[tuple[str, bool]] = []
    shapes = ["(3, 4)", "(2, 3, 4)", "(5,)", "()", "(2, 2, 3, 4)", "(3, 3, 2, 2)", "(0, 3)"]
    for ini in INITS:
        # the orthogonal ones are QR factors, whose last bits are the factorization's (LAPACK's
        # Householder steps in JAX): compared to round-off
        exact = "orthogonal" not in ini
        for shape in shapes:
            c.append((f"{ini}(K0, {shape})", exact))
        for dt in ("jnp.float16", "jnp.bfloat16", "jnp.int32", "jnp.complex64"):
            c.append((f"{ini}(K0, (3, 4), {dt})", exact))
        c.append((f"{ini}(K1, [4, 3])", exact))
        c.append((f"{ini}(K0, (3, 4), dtype=jnp.float16)", exact))
    c += [
        ("init.variance_scaling(1.0, 'fan_x', 'normal')", True),
        ("init.variance_scaling(1.0, 'fan_in', 'bad')", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal')(K0, (2, 3), jnp.complex64)", True),
        ("init.variance_scaling(1.0, 'fan_in', 'uniform')(K0, (2, 3), jnp.complex64)", True),
        (
            "init.variance_scaling(1.0, 'fan_in', 'truncated_normal')(K0, (2, 3), jnp.complex64)",
            True,
        ),
        ("init.variance_scaling(-1.0, 'fan_in', 'normal')(K0, (2, 3))", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal', in_axis=5)(K0, (2, 3))", True),
        ("init.variance_scaling(1.0, 'fan_in', 'normal', dtype=jnp.float16)(K0, (2, 3))", True),
        ("init.normal(dtype=jnp.float16)(K0, (2, 3))", True),
        ("init.uniform(dtype=jnp.bfloat16)(K0, (2, 3))", True),
        ("init.glorot_uniform(dtype=jnp.bfloat16)(K0, (2, 3))", True),
        ("init.orthogonal()(K0, (2, 3), jnp.complex64)", False),
        ("init.delta_orthogonal()(K0, (3, 3, 5, 2))", False),
        ("init.delta_orthogonal()(K0, (3, 2, 3))", False),
        ("init.delta_orthogonal()(K0, (3, 4, 2, 2))", False),
        ("init.delta_orthogonal()(K0, (3, 3, 3, 2, 2))", False),
        ("init.zeros(K0, (2, 3), jnp.bool_)", True),
        ("init.ones(K0, (2,), jnp.int8)", True),
        ("init.constant(jnp.array([1.0, 2.0]))(K0, (3, 2))", True),
        ("init.constant(jnp.array([1.0, 2.0]))(K0, (3, 3))", True),
        ("init.constant(1.5)(K0, (2,), jnp.int32)", True),
        ("init.zeros(K0, 3)", True),
        ("init.zeros(K0, (2.0, 3))", True),
        ("init.he_normal()(K0, (-1, 3))", True),
    ]
    return c
