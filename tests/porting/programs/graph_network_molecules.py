"""Graph neural networks for multi-task molecule property prediction (ours). Graphs are a
`flax.struct.dataclass` of node and edge features, sender and receiver indices and per-graph
counts; a batch is several random molecules concatenated on the host and padded to fixed sizes
by one padding graph. Two models: a graph convolution (self loops and reversed edges appended,
degree normalization by `lax.rsqrt`, neighbour sums by `jax.ops.segment_sum`, a mean readout
per graph) and a graph network (edge, node and global MLPs, incoming messages weighted by a
segment softmax built from `jax.ops.segment_max`), both with `LayerNorm`, `Dropout` and skip
connections. The loss is a sigmoid cross-entropy over the tasks with NaN labels and padding
graphs masked out; training steps are jitted (Adam for one model, SGD for the other) and their
metrics are mergeable dataclasses whose constructor checks `isinstance(x, jax.Array)` under
`jit`; evaluation collects the logits of two splits on the host for a mean average precision.
Checks the metrics, the type check and the parameters."""

import functools

import flax
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

NODE_FEATURES, EDGE_FEATURES, TASKS = 5, 3, 4
PAD_NODES, PAD_EDGES, PAD_GRAPHS = 18, 16, 4
traced_types = []


@flax.struct.dataclass
class Graphs:
    nodes: jnp.ndarray
    edges: jnp.ndarray
    senders: jnp.ndarray
    receivers: jnp.ndarray
    n_node: jnp.ndarray
    n_edge: jnp.ndarray
    labels: jnp.ndarray


def molecule(rs):
    """A random molecule: nodes, bonds (a chain plus a random extra bond) and task labels
    (NaN where a task was not measured)."""
    n = rs.randint(3, 6)
    senders = list(range(n - 1)) + [int(rs.randint(0, n - 1))]
    receivers = list(range(1, n)) + [n - 1]
    labels = (rs.rand(TASKS) < 0.5).astype(np.float32)
    labels[rs.rand(TASKS) < 0.25] = np.nan
    return (rs.randn(n, NODE_FEATURES).astype(np.float32),
            rs.randn(len(senders), EDGE_FEATURES).astype(np.float32),
            np.array(senders, np.int32), np.array(receivers, np.int32), labels)  # fmt: skip


def batch_and_pad(molecules):
    """The molecules as one Graphs, padded to PAD_* by a last graph that holds the padding
    nodes and edges (its edges join its first padding node to itself)."""
    nodes, edges, senders, receivers, labels = zip(*molecules)
    n_node, n_edge = [len(x) for x in nodes], [len(x) for x in senders]
    pad_n, pad_e = PAD_NODES - sum(n_node), PAD_EDGES - sum(n_edge)
    offsets = np.cumsum([0] + n_node).astype(np.int32)
    pad_index = [np.full(pad_e, sum(n_node), np.int32)]
    blank = [0] * (PAD_GRAPHS - len(molecules) - 1)
    return Graphs(
        nodes=np.concatenate(nodes + (np.zeros((pad_n, NODE_FEATURES), np.float32),)),
        edges=np.concatenate(edges + (np.zeros((pad_e, EDGE_FEATURES), np.float32),)),
        senders=np.concatenate([s + o for s, o in zip(senders, offsets)] + pad_index),
        receivers=np.concatenate([r + o for r, o in zip(receivers, offsets)] + pad_index),
        n_node=np.array(n_node + [pad_n] + blank, np.int32),
        n_edge=np.array(n_edge + [pad_e] + blank, np.int32),
        labels=np.concatenate(
            [np.stack(labels), np.full((PAD_GRAPHS - len(molecules), TASKS), np.nan, np.float32)]
        ),
    )


def graph_index(counts, total):
    """The graph of each of `total` items, given the items per graph."""
    return jnp.repeat(jnp.arange(counts.shape[0]), counts, total_repeat_length=total)


def segment_softmax(logits, segments, num_segments):
    shifted = logits - jax.ops.segment_max(logits, segments, num_segments)[segments]
    weights = jnp.exp(shifted)
    return weights / jax.ops.segment_sum(weights, segments, num_segments)[segments]


class MLP(nn.Module):
    features: int
    deterministic: bool
    rate: float = 0.1

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.features)(x))
        x = nn.Dropout(self.rate, deterministic=self.deterministic)(x)
        return nn.Dense(self.features)(x)


class GraphModel(nn.Module):
    """What both models take: the latent width, the message-passing steps, dropout off/on."""

    latent: int = 8
    steps: int = 2
    deterministic: bool = True


class GraphConvNet(GraphModel):
    @nn.compact
    def __call__(self, g):
        n = g.nodes.shape[0]
        loops = jnp.arange(n, dtype=g.senders.dtype)
        senders = jnp.concatenate([g.senders, g.receivers, loops])
        receivers = jnp.concatenate([g.receivers, g.senders, loops])
        degree = jax.ops.segment_sum(jnp.ones_like(senders, jnp.float32), receivers, n)
        norm = jax.lax.rsqrt(jnp.maximum(degree, 1.0))[:, None]
        h = nn.Dense(self.latent)(g.nodes)
        for _ in range(self.steps):
            messages = MLP(self.latent, self.deterministic)(h)
            update = jax.ops.segment_sum((messages * norm)[senders], receivers, n) * norm
            h = nn.LayerNorm()(h + update)
        graph = graph_index(g.n_node, n)
        pooled = jax.ops.segment_sum(h, graph, g.n_node.shape[0])
        pooled = pooled / jnp.maximum(g.n_node, 1)[:, None]
        return nn.Dense(TASKS)(pooled)


class GraphNet(GraphModel):
    @nn.compact
    def __call__(self, g):
        n, num_graphs = g.nodes.shape[0], g.n_node.shape[0]
        node_graph = graph_index(g.n_node, n)
        edge_graph = graph_index(g.n_edge, g.edges.shape[0])
        h, e = nn.Dense(self.latent)(g.nodes), nn.Dense(self.latent)(g.edges)
        u = jnp.zeros((num_graphs, self.latent))
        for _ in range(self.steps):
            e_in = jnp.concatenate([e, h[g.senders], h[g.receivers], u[edge_graph]], -1)
            e = nn.LayerNorm()(e + MLP(self.latent, self.deterministic)(e_in))
            # no bias: a segment softmax is blind to it (its gradient is round-off)
            attention = segment_softmax(nn.Dense(1, use_bias=False)(e)[:, 0], g.receivers, n)
            incoming = jax.ops.segment_sum(e * attention[:, None], g.receivers, n)
            h_in = jnp.concatenate([h, incoming, u[node_graph]], -1)
            h = nn.LayerNorm()(h + MLP(self.latent, self.deterministic)(h_in))
            u_in = jnp.concatenate(
                [u, jax.ops.segment_sum(h, node_graph, num_graphs),
                 jax.ops.segment_sum(e, edge_graph, num_graphs)], -1,
            )  # fmt: skip
            u = u + MLP(self.latent, self.deterministic)(u_in)
        return nn.Dense(TASKS)(u)


@flax.struct.dataclass
class Mean:
    total: jnp.ndarray
    count: jnp.ndarray

    @classmethod
    def of(cls, values, mask):
        traced_types.append(isinstance(values, jax.Array))
        return cls(jnp.sum(jnp.where(mask, values, 0.0)), jnp.sum(mask).astype(jnp.float32))

    def merge(self, other):
        return Mean(self.total + other.total, self.count + other.count)

    def compute(self):
        return self.total / self.count


def masked_loss(logits, g):
    real_graph = jnp.arange(PAD_GRAPHS) < PAD_GRAPHS - 1 - jnp.sum(g.n_node == 0)
    mask = ~jnp.isnan(g.labels) & real_graph[:, None]
    labels = jnp.where(mask, g.labels, 0.0)
    losses = optax.sigmoid_binary_cross_entropy(logits, labels)
    correct = (logits > 0) == (labels > 0.5)
    return losses, correct, mask


@jax.jit
def train_step(state, g, key):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, g, rngs={"dropout": key})
        losses, correct, mask = masked_loss(logits, g)
        return jnp.sum(jnp.where(mask, losses, 0.0)) / jnp.sum(mask), (losses, correct, mask)

    grads, (losses, correct, mask) = jax.grad(loss_fn, has_aux=True)(state.params)
    metrics = {"loss": Mean.of(losses, mask), "accuracy": Mean.of(correct, mask)}
    return state.apply_gradients(grads=grads), metrics


@functools.partial(jax.jit, static_argnums=0)
def eval_step(model, params, g):
    logits = model.apply({"params": params}, g)
    losses, correct, mask = masked_loss(logits, g)
    return {"loss": Mean.of(losses, mask), "accuracy": Mean.of(correct, mask)}, logits, mask


def mean_average_precision(scores, labels, mask):
    """The mean over tasks with both classes of the average precision (NaN-free tasks)."""
    precisions = []
    for t in range(scores.shape[1]):
        s, y = scores[mask[:, t], t], labels[mask[:, t], t]
        if y.min() == y.max():
            continue
        hits = y[np.argsort(-s, kind="stable")]
        ranks = np.flatnonzero(hits) + 1
        precisions.append(np.mean(np.cumsum(hits)[ranks - 1] / ranks))
    return float(np.nanmean(precisions)) if precisions else float("nan")


def run():
    rs = np.random.RandomState(11)
    train = [batch_and_pad([molecule(rs) for _ in range(3)]) for _ in range(3)]
    splits = {s: [batch_and_pad([molecule(rs) for _ in range(3)]) for _ in range(2)]
              for s in ("validation", "test")}  # fmt: skip
    out = {}
    for cls, tx in ((GraphConvNet, optax.sgd(0.05, momentum=0.9)), (GraphNet, optax.adam(1e-2))):
        params = cls().init(jax.random.key(0), train[0])["params"]
        state = train_state.TrainState.create(
            apply_fn=cls(deterministic=False).apply, params=params, tx=tx
        )
        key = jax.random.key(1)
        merged = None
        for g in train:
            key, step_key = jax.random.split(key)
            state, metrics = train_step(state, g, step_key)
            merged = metrics if merged is None else jax.tree_util.tree_map(
                Mean.merge, merged, metrics, is_leaf=lambda m: isinstance(m, Mean)
            )  # fmt: skip
        summary = {"train_" + k: m.compute() for k, m in merged.items()}
        for split, batches in splits.items():
            results = [eval_step(cls(), state.params, g) for g in batches]
            total = functools.reduce(
                lambda a, b: {k: a[k].merge(b[k]) for k in a}, [r[0] for r in results]
            )
            summary.update({f"{split}_{k}": m.compute() for k, m in total.items()})
            summary[f"{split}_map"] = mean_average_precision(
                np.concatenate([np.asarray(r[1]) for r in results]),
                np.nan_to_num(np.concatenate([g.labels for g in batches])),
                np.concatenate([np.asarray(r[2]) for r in results]),
            )
        out[cls.__name__] = dict(summary=summary, step=state.step, params=state.params)
    out["traced_types"] = sorted(set(traced_types))
    traced_types.clear()
    return out
