"""A graph convolutional network whose normalised adjacency is a `jax.experimental.sparse.BCOO`
matrix (ours, in the style of Kipf & Welling's GCN as JAX users write it with BCOO, e.g. the
`BCOO` examples of jax-ml/jax `docs/jax.experimental.sparse.rst` and tkipf/gcn's
propagation rule).

The graph (two communities with a few bridges) is an edge list; A + I becomes a `BCOO((data,
indices), shape=)`, its degrees from `sum(axis=1).todense()`, and D^-1/2 (A + I) D^-1/2 is
computed on the matrix's data by gathering the degrees at its row and column indices. A Flax
GCN layer multiplies `adj @ (x @ W)`; the sparse matrix is an argument of the jitted training
step (a pytree of data and indices). Also `BCOO.fromdense` (with and without `nse=`, under
`jit`), `todense`, `.T`, `x @ adj`, scaling, `sparse.eye`, `bcoo_sum_duplicates`, and the
gradient with respect to the edge weights (`jax.grad` of the matrix's data). Checks the
matrix's parts, products against the dense matrix, losses, accuracy and the parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.experimental import sparse

N = 10


def edge_list():
    left = [(0, 1), (1, 2), (2, 3), (3, 4), (0, 2), (1, 3)]
    right = [(5, 6), (6, 7), (7, 8), (8, 9), (5, 7), (6, 8)]
    bridges = [(4, 5), (2, 7)]
    edges = np.array(left + right + bridges)
    return np.concatenate([edges, edges[:, ::-1]], axis=0)


def normalized_adjacency(edges, weights=None):
    loops = np.stack([np.arange(N), np.arange(N)], axis=1)
    indices = jnp.asarray(np.concatenate([edges, loops]), jnp.int32)
    data = jnp.ones(indices.shape[0]) if weights is None else jnp.concatenate(
        [weights, jnp.ones(N)])  # fmt: skip
    adj = sparse.BCOO((data, indices), shape=(N, N))
    degree = adj.sum(axis=1).todense()
    d_inv_sqrt = jax.lax.rsqrt(degree)
    norm = adj.data * d_inv_sqrt[adj.indices[:, 0]] * d_inv_sqrt[adj.indices[:, 1]]
    return sparse.BCOO((norm, adj.indices), shape=adj.shape)


class GCNLayer(nn.Module):
    features: int

    @nn.compact
    def __call__(self, adj, x):
        x = nn.Dense(self.features, use_bias=False)(x)
        return adj @ x + self.param("bias", nn.initializers.zeros, (self.features,))


class GCN(nn.Module):
    hidden: int = 8
    classes: int = 2

    @nn.compact
    def __call__(self, adj, x):
        x = nn.relu(GCNLayer(self.hidden)(adj, x))
        return GCNLayer(self.classes)(adj, x)


def run():
    out = {}
    edges = edge_list()
    adj = normalized_adjacency(edges)
    out["adj_parts"] = {"data": adj.data, "indices": adj.indices, "nse": adj.nse,
                        "shape": list(adj.shape), "repr": repr(adj)}  # fmt: skip
    dense = adj.todense()
    out["dense"] = dense
    features = jax.random.normal(jax.random.PRNGKey(0), (N, 4))
    out["products"] = {"adj_x": adj @ features, "x_adj": features.T @ adj,
                       "adj_vec": adj @ jnp.arange(N, dtype=jnp.float32),
                       "transpose_equal": bool(jnp.allclose(adj.T.todense(), dense.T)),
                       "scaled": (2.0 * adj).todense()[0]}  # fmt: skip

    sparse_from_dense = sparse.BCOO.fromdense(dense)
    out["fromdense"] = {"nse": sparse_from_dense.nse, "indices": sparse_from_dense.indices,
                        "dtype": str(sparse_from_dense.indices.dtype)}  # fmt: skip
    padded = jax.jit(lambda d: sparse.BCOO.fromdense(d, nse=40))(dense)
    out["fromdense_padded"] = {"data": padded.data, "indices": padded.indices,
                               "product": padded @ features}  # fmt: skip
    out["eye"] = sparse.eye(3).todense()
    twice = sparse.BCOO((jnp.array([1.0, 2.0, 3.0]), jnp.array([[0, 1], [0, 1], [2, 0]])),
                        shape=(3, 3))  # fmt: skip
    summed = sparse.bcoo_sum_duplicates(twice)
    out["sum_duplicates"] = {"data": summed.data, "indices": summed.indices, "nse": summed.nse}

    labels = jnp.array([0] * 5 + [1] * 5)
    train_mask = jnp.zeros(N, bool).at[jnp.array([0, 3, 6, 9])].set(True)
    model = GCN()
    params = model.init(jax.random.PRNGKey(1), adj, features)
    tx = optax.adam(0.05)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state, adj):
        def loss_fn(p):
            logits = model.apply(p, adj, features)
            losses = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
            return jnp.sum(jnp.where(train_mask, losses, 0.0)) / train_mask.sum(), logits

        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state)
        accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
        return optax.apply_updates(params, updates), opt_state, loss, accuracy

    history = []
    for _ in range(6):
        params, opt_state, loss, accuracy = step(params, opt_state, adj)
        history.append(jnp.stack([loss, accuracy]))
    out["history"] = jnp.stack(history)
    out["params"] = params
    dense_logits = model.apply(params, dense, features)
    out["dense_agrees"] = bool(jnp.allclose(model.apply(params, adj, features), dense_logits,
                                            atol=1e-5))  # fmt: skip

    def edge_loss(weights):
        a = normalized_adjacency(edges, weights)
        logits = model.apply(params, a, features)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    out["edge_weight_grad"] = jax.grad(edge_loss)(jnp.ones(edges.shape[0]))
    return out
