"""`jax.random` under x64 (80 calls). One still differs: float64 pareto by one ulp in its
last bits (XLA's float64 `exp`, not numpy's).
"""

from tools.jax_differential.areas.random import SAMPLERS


def cases() -> list[tuple[str, bool]]:
    c: list[tuple[str, bool]] = []
    for name, params, exact in SAMPLERS:
        p = (params + ", ") if params else ""
        c.append((f"random.{name}(K0, {p}shape=(2, 3), dtype=jnp.float64)", exact))
        c.append((f"random.{name}(K1, {p}shape=(3,))", exact))
    c += [
        ("random.bits(K0, (5,), dtype=jnp.uint64)", True),
        ("random.randint(K0, (6,), 0, 2**40, dtype=jnp.int64)", True),
        ("random.randint(K0, (6,), -(2**62), 2**62)", True),
        ("random.randint(K0, (6,), 0, 2**64 - 1, dtype=jnp.uint64)", True),
        ("random.poisson(K0, 3.0, shape=(5,))", True),
        ("random.poisson(K0, jnp.array([0.5, 20.0, 200.0]), shape=(2, 3), dtype=jnp.int64)", True),
        ("random.binomial(K0, 10.0, 0.3, shape=(5,))", False),
        ("random.geometric(K0, 0.3, shape=(5,))", True),
        ("random.categorical(K0, jnp.zeros((2, 4)))", True),
        ("random.permutation(K0, 6)", True),
        ("random.choice(K0, 5, (3,), replace=False)", True),
        ("random.dirichlet(K0, jnp.array([0.5, 1.0, 2.0]), shape=(2,))", False),
        ("random.normal(K0, (2,), dtype=jnp.complex128)", True),
        ("random.normal(K0, (2,))", True),
        ("random.uniform(K0, (2,), minval=jnp.float32(1.0))", True),
        ("random.fold_in(K0, 2**40)", True),
        ("random.PRNGKey(2**40 + 3)", True),
        ("random.PRNGKey(-(2**40))", True),
        ("random.key(2**63 - 1)", True),
        ("random.multivariate_normal(K0, jnp.zeros(2), jnp.eye(2), shape=(3,))", False),
        ("random.orthogonal(K0, 3)", False),
        ("random.ball(K0, 3)", False),
        ("random.multinomial(K0, 10, jnp.array([0.2, 0.3, 0.5]))", False),
        ("random.rademacher(K0, (4,))", True),
        ("random.bernoulli(K0, 0.3, shape=(5,))", True),
        ("random.truncated_normal(K0, -1.0, 2.0, (3,), dtype=jnp.float64)", True),
    ]
    return c
