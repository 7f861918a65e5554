"""jax.nn's functions (`nn_funcs`): activations and their gradients over special values and
dtypes, softmax and log_softmax with `where=`, logsumexp with `b` and `return_sign`,
one_hot and dot_product_attention.
"""

# ruff: noqa: E501

ACTIVATIONS = [
    "relu",
    "relu6",
    "sigmoid",
    "log_sigmoid",
    "silu",
    "swish",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "elu",
    "celu",
    "selu",
    "gelu",
    "mish",
    "soft_sign",
    "softplus",
    "sparse_plus",
    "sparse_sigmoid",
    "squareplus",
    "leaky_relu",
    "log1mexp",
    "tanh",
    "identity",
]


def cases() -> list[str]:
    xs = (
        "jnp.array([-jnp.inf, -30.0, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 30.0, jnp.inf, jnp.nan])"
    )
    c = []
    for a in ACTIVATIONS:
        c += [
            f"jax.nn.{a}({xs})",
            f"jax.nn.{a}({xs}.astype(jnp.float16))",
            f"jax.nn.{a}({xs}.astype(jnp.bfloat16))",
            f"jax.nn.{a}(jnp.array([-2, 0, 3]))",
            f"jax.nn.{a}(2.0)",
            f"jax.nn.{a}(jnp.array([True, False]))",
            f"jax.grad(lambda x: jax.nn.{a}(x))(0.0)",
            f"jax.vmap(jax.grad(lambda x: jax.nn.{a}(x)))(jnp.array([-2.0, -0.5, 0.5, 2.0]))",
        ]
    c += [
        f"jax.nn.gelu({xs}, approximate=False)",
        f"jax.nn.leaky_relu({xs}, negative_slope=0.2)",
        f"jax.nn.elu({xs}, alpha=0.5)",
        f"jax.nn.celu({xs}, alpha=2.0)",
        "jax.nn.squareplus(jnp.array([-1.0, 0.0, 1.0]), b=0.0)",
        "jax.nn.glu(jnp.arange(8.0).reshape(2, 4))",
        "jax.nn.glu(jnp.arange(8.0).reshape(2, 4), axis=0)",
        "jax.nn.glu(jnp.arange(6.0).reshape(2, 3))",
        "jax.nn.relu(jnp.array([1 + 1j]))",
        "jax.grad(jax.nn.relu)(0.0)",
        "jax.grad(jax.nn.relu6)(6.0)",
        "jax.grad(jax.nn.hard_tanh)(1.0)",
    ]
    x = "jnp.array([[1.0, 2.0, -jnp.inf], [0.5, 0.5, 0.5]])"
    for f in ("softmax", "log_softmax"):
        c += [
            f"jax.nn.{f}({x})",
            f"jax.nn.{f}({x}, axis=0)",
            f"jax.nn.{f}({x}, axis=(0, 1))",
            f"jax.nn.{f}({x}, axis=None)",
            f"jax.nn.{f}({x}, where=jnp.array([[True, False, True], [False, False, False]]))",
            f"jax.nn.{f}({x}, where=jnp.array([True, True, False]))",
            f"jax.nn.{f}(jnp.full((2,), -jnp.inf))",
            f"jax.nn.{f}(jnp.array([1, 2, 3]))",
            f"jax.nn.{f}(jnp.array([1.0, 2.0], jnp.float16))",
            f"jax.nn.{f}({x}, axis=2)",
            f"jax.grad(lambda x: jax.nn.{f}(x)[0])(jnp.array([1.0, 2.0, 3.0]))",
            f"jax.grad(lambda x: jax.nn.{f}(x, where=jnp.array([True, False, True]))[0])(jnp.array([1.0, 2.0, 3.0]))",
        ]
    for f in ("jax.nn.logsumexp", "jsp.special.logsumexp"):
        c += [
            f"{f}({x})",
            f"{f}({x}, axis=1)",
            f"{f}({x}, axis=1, keepdims=True)",
            f"{f}({x}, b=jnp.array([1.0, -1.0, 2.0]))",
            f"{f}({x}, axis=1, b=jnp.array([1.0, -3.0, 2.0]), return_sign=True)",
            f"{f}({x}, b=0.0, return_sign=True)",
            f"{f}(jnp.array([1.0, 1.0]), b=jnp.array([1.0, -1.0]))",
            f"{f}(jnp.array([1.0, 1.0]), b=jnp.array([1.0, -1.0]), return_sign=True)",
            f"{f}(jnp.array([1.0, 2.0]), b=jnp.array([-1.0, -1.0]))",
            f"{f}(jnp.array([1.0, 2.0]), b=jnp.array([-1.0, -1.0]), return_sign=True)",
            f"{f}({x}, where=jnp.array([[True, False, True], [False, False, False]]), axis=1)",
            f"{f}(jnp.array([1, 2]))",
            f"{f}(jnp.array([], jnp.float32))",
            f"{f}(jnp.full((3,), -jnp.inf))",
            f"{f}(jnp.array([jnp.inf, 1.0]))",
            f"{f}(jnp.array([jnp.inf, -jnp.inf]))",
            f"{f}(jnp.array([1.0, 2.0], jnp.float16), b=2)",
            f"{f}(jnp.array([1.0, 2.0]), b=jnp.array([1.0, 2.0, 3.0]))",
            f"jax.grad(lambda x: {f}(x, b=jnp.array([1.0, 0.0, 2.0])))(jnp.array([1.0, 2.0, 3.0]))",
        ]
    c += [
        "jax.nn.logmeanexp(jnp.array([1.0, 2.0, 3.0]))",
        "jax.nn.logmeanexp(jnp.arange(6.0).reshape(2, 3), axis=0)",
        "jax.nn.standardize(jnp.arange(6.0).reshape(2, 3))",
        "jax.nn.standardize(jnp.arange(6.0).reshape(2, 3), axis=0, epsilon=0.0)",
        "jax.nn.standardize(jnp.arange(6.0).reshape(2, 3), mean=1.0, variance=4.0)",
        "jax.nn.standardize(jnp.arange(6).reshape(2, 3))",
        "jax.nn.standardize(jnp.arange(6.0).reshape(2, 3), where=jnp.array([True, False, True]))",
        "jax.nn.one_hot(jnp.array([0, 2, 5, -1]), 3)",
        "jax.nn.one_hot(jnp.array([0, 2]), 3, dtype=jnp.int8)",
        "jax.nn.one_hot(jnp.array([[0, 2], [1, 1]]), 3, axis=0)",
        "jax.nn.one_hot(jnp.array([[0, 2], [1, 1]]), 3, axis=-2)",
        "jax.nn.one_hot(jnp.array([0.0, 1.5, 2.0]), 3)",
        "jax.nn.one_hot(2, 4)",
        "jax.nn.one_hot(jnp.array([0, 1]), 0)",
        "jax.nn.one_hot(jnp.array([0, 1]), 3, dtype=jnp.bool_)",
        "jax.nn.one_hot(jnp.array([0, 1]), 3, axis=2)",
        "jax.nn.one_hot(jnp.array([0, 1]), 3.0)",
        "jax.nn.one_hot(jnp.array([0, 1]), jnp.int32(3))",
        "jax.nn.one_hot(jnp.array([True, False]), 2)",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 5, 2, 4)), jnp.arange(40.0).reshape(1, 5, 2, 4))",
        "jax.nn.dot_product_attention(jnp.arange(24.0).reshape(1, 3, 2, 4) / 10, jnp.ones((1, 3, 2, 4)), jnp.arange(24.0).reshape(1, 3, 2, 4), is_causal=True)",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 1, 4)), jnp.arange(12.0).reshape(1, 3, 1, 4))",
        "jax.nn.dot_product_attention(jnp.ones((3, 2, 4)), jnp.ones((3, 2, 4)), jnp.ones((3, 2, 4)), scale=0.5)",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), bias=jnp.zeros((1, 2, 3, 3)), mask=jnp.tril(jnp.ones((3, 3), bool)))",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 5)), jnp.ones((1, 3, 2, 4)))",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 3, 4)), jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)))",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4), jnp.float16), jnp.ones((1, 3, 2, 4), jnp.float16), jnp.ones((1, 3, 2, 4), jnp.float16))",
        "jax.nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), implementation='cudnn')",
        "jax.nn.dot_product_attention(jnp.ones((1, 4, 1, 2)), jnp.ones((1, 4, 1, 2)), jnp.arange(8.0).reshape(1, 4, 1, 2), local_window_size=(1, 0))",
        "jax.nn.dot_product_attention(jnp.ones((1, 4, 1, 2)), jnp.ones((1, 4, 1, 2)), jnp.arange(8.0).reshape(1, 4, 1, 2), query_seq_lengths=jnp.array([2]), key_value_seq_lengths=jnp.array([3]))",
    ]
    return c
