"""A matrix-factorisation recommender trained two ways: alternating least squares with
per-user and per-item normal equations built by `jax.ops.segment_sum`, and biased SGD-style
full-batch gradient descent (ours, in the style of the collaborative-filtering examples
written with JAX's segment reductions).

Ratings are (user, item, rating) triples drawn from a low-rank model with `jax.random`; the
triples are ordered by `jnp.lexsort` (user, then item) and de-duplicated with `jnp.unique`
(`return_index`). ALS builds each user's Gram matrix as a `segment_sum` of outer products
(`indices_are_sorted=True` for the sorted users) and solves all of them at once with a
`vmap`ped `jnp.linalg.solve`; items the same way. Gradient descent learns global, user and
item biases with embeddings (gathers with `jnp.take`, scatter-adds by `.at[].add` checked
against the gradient); per-user means come from `segment_sum` of ratings over
`segment_sum` of ones, the largest and smallest rating per item from `segment_max`/
`segment_min`. Recommendations mask rated items with `.at[].set(-inf)` and take `lax.top_k`;
RMSE on held-out triples is reported."""

import jax
import jax.numpy as jnp
from jax import ops

N_USERS, N_ITEMS, RANK = 7, 9, 3


def synthetic(key, n=50):
    ku, kv, ki, kj, kn = jax.random.split(key, 5)
    U = jax.random.normal(ku, (N_USERS, RANK))
    V = jax.random.normal(kv, (N_ITEMS, RANK))
    users = jax.random.randint(ki, (n,), 0, N_USERS)
    items = jax.random.randint(kj, (n,), 0, N_ITEMS)
    ratings = jnp.sum(U[users] * V[items], axis=1) + 0.1 * jax.random.normal(kn, (n,))
    return users, items, ratings


def sort_and_dedupe(users, items, ratings):
    order = jnp.lexsort((items, users))
    users, items, ratings = users[order], items[order], ratings[order]
    pair = users * N_ITEMS + items
    _, first = jnp.unique(pair, return_index=True)
    return users[first], items[first], ratings[first]


def als_half(fixed, rows, cols, ratings, n_rows, lam, sorted_rows):
    f = fixed[cols]
    gram = ops.segment_sum(
        jnp.einsum("ni,nj->nij", f, f), rows, n_rows, indices_are_sorted=sorted_rows
    )
    rhs = ops.segment_sum(f * ratings[:, None], rows, n_rows, indices_are_sorted=sorted_rows)
    return jax.vmap(jnp.linalg.solve)(gram + lam * jnp.eye(fixed.shape[1]), rhs)


def als(users, items, ratings, key, sweeps=4, lam=0.1):
    V = 0.5 * jax.random.normal(key, (N_ITEMS, RANK))
    losses = []
    for _ in range(sweeps):
        U = als_half(V, users, items, ratings, N_USERS, lam, True)
        V = als_half(U, items, users, ratings, N_ITEMS, lam, False)
        losses.append(rmse(U, V, users, items, ratings))
    return U, V, jnp.stack(losses)


def rmse(U, V, users, items, ratings):
    return jnp.sqrt(jnp.mean((jnp.sum(U[users] * V[items], axis=1) - ratings) ** 2))


def predict(params, users, items):
    u = jnp.take(params["U"], users, axis=0)
    v = jnp.take(params["V"], items, axis=0)
    return params["mu"] + params["bu"][users] + params["bi"][items] + jnp.sum(u * v, axis=1)


def loss(params, users, items, ratings, lam=0.01):
    err = predict(params, users, items) - ratings
    reg = sum(jnp.sum(params[k] ** 2) for k in ("U", "V", "bu", "bi"))
    return 0.5 * jnp.mean(err**2) + 0.5 * lam * reg


@jax.jit
def gd_step(params, users, items, ratings):
    value, grads = jax.value_and_grad(loss)(params, users, items, ratings)
    return jax.tree.map(lambda p, g: p - 0.5 * g, params, grads), value


def run():
    out = {}
    users, items, ratings = synthetic(jax.random.PRNGKey(0))
    users, items, ratings = sort_and_dedupe(users, items, ratings)
    out["triples"] = [
        users,
        items,
        ratings.shape,
        bool(jnp.all(jnp.diff(users * N_ITEMS + items) > 0)),
    ]
    n_train = users.shape[0] - 6
    train = (users[:n_train], items[:n_train], ratings[:n_train])
    mask = jnp.arange(users.shape[0]) % 7 == 3
    held = (users[mask], items[mask], ratings[mask])

    counts = ops.segment_sum(jnp.ones_like(ratings), users, N_USERS, indices_are_sorted=True)
    means = ops.segment_sum(ratings, users, N_USERS) / jnp.maximum(counts, 1.0)
    out["per_user"] = [counts, means]
    out["per_item"] = [ops.segment_max(ratings, items, N_ITEMS), ops.segment_min(ratings, items, N_ITEMS),
                       ops.segment_prod(jnp.sign(ratings), items, N_ITEMS)]  # fmt: skip

    U, V, als_losses = als(*train, jax.random.PRNGKey(1))
    out["als"] = [als_losses, rmse(U, V, *held), (U @ V.T).shape]

    kp = jax.random.split(jax.random.PRNGKey(2), 2)
    params = {"mu": jnp.mean(train[2]), "bu": jnp.zeros(N_USERS), "bi": jnp.zeros(N_ITEMS),
              "U": 0.3 * jax.random.normal(kp[0], (N_USERS, RANK)),
              "V": 0.3 * jax.random.normal(kp[1], (N_ITEMS, RANK))}  # fmt: skip
    g = jax.grad(loss)(params, *train)
    err = predict(params, *train[:2]) - train[2]
    manual_bu = jnp.zeros(N_USERS).at[train[0]].add(err / n_train) + 0.01 * params["bu"]
    out["bias_grad"] = [g["bu"], jnp.abs(g["bu"] - manual_bu).max() < 1e-6]
    history = []
    for _ in range(8):
        params, value = gd_step(params, *train)
        history.append(value)
    out["gd"] = [jnp.stack(history), params["mu"], params["bi"]]

    scores = predict(
        params, jnp.repeat(jnp.arange(N_USERS), N_ITEMS), jnp.tile(jnp.arange(N_ITEMS), N_USERS)
    )
    scores = scores.reshape(N_USERS, N_ITEMS).at[train[0], train[1]].set(-jnp.inf)
    top_scores, top_items = jax.lax.top_k(scores, 2)
    out["recommend"] = [top_items, top_scores, jnp.isinf(scores).sum(axis=1)]
    return out
