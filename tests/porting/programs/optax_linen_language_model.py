"""A character-level Linen transformer trained by Optax's `adamw` (our own program).

Checks: `Embed` (tokens and positions), pre-norm blocks of `LayerNorm`, causal
`MultiHeadDotProductAttention` (`make_causal_mask`, attention dropout) and a `Sequential`
MLP with `Dropout`; `optax.tree.size` of the variables; training windows cut by a `vmap`ped
`lax.dynamic_slice` at `random.randint` offsets inside the jitted step (dropout keys split
from the carried key); a jitted evaluation; and text sampled by a method jitted with
`static_argnames=("self", "length")` drawing with `random.categorical` inside `lax.scan`. The
text is a few lines of our own. Everything printed (losses and the sampled text) is compared.
"""

import functools

import jax
import jax.numpy as jnp
import optax
import optax.tree
from flax import linen as nn
from flax import traverse_util

from tests.porting import printed

TEXT = (
    "the kettle hummed while the cat slept on the warm stones by the door.\n"
    "rain tapped the roof, and the old clock kept its slow and patient time.\n"
    "later the wind turned, the lamps were lit, and the kettle sang again.\n"
)
WINDOW = 12
BATCH = 6


class Block(nn.Module):
    heads: int
    width: int
    dropout: float

    @nn.compact
    def __call__(self, h, mask, deterministic):
        a = nn.LayerNorm()(h)
        h = h + nn.MultiHeadDotProductAttention(
            num_heads=self.heads, qkv_features=self.width, dropout_rate=self.dropout
        )(a, a, mask=mask, deterministic=deterministic)
        mlp = nn.Sequential(
            [
                nn.Dense(2 * self.width),
                nn.gelu,
                nn.Dropout(self.dropout, deterministic=deterministic),
                nn.Dense(self.width),
            ]
        )
        return h + mlp(nn.LayerNorm()(h))


class CharModel(nn.Module):
    vocab: int
    width: int = 16
    depth: int = 2
    heads: int = 2
    dropout: float = 0.1

    @nn.compact
    def __call__(self, tokens, train: bool):
        positions = jnp.arange(tokens.shape[1])
        h = nn.Embed(self.vocab, self.width)(tokens) + nn.Embed(WINDOW, self.width)(positions)
        mask = nn.make_causal_mask(tokens)
        for _ in range(self.depth):
            h = Block(self.heads, self.width, self.dropout)(h, mask, not train)
        return nn.Dense(self.vocab)(nn.LayerNorm()(h))

    @functools.partial(jax.jit, static_argnames=("self", "length"))
    def sample(self, variables, key, prompt, length):
        def draw(carry, _):
            key, context = carry
            key, sub = jax.random.split(key)
            logits = self.apply(variables, context, train=False)[:, -1]
            token = jax.random.categorical(sub, logits, axis=-1)[:, None]
            return (key, jnp.concatenate([context[:, 1:], token], axis=1)), token[0, 0]

        _, tokens = jax.lax.scan(draw, (key, prompt), None, length=length)
        return tokens


def run():
    chars = sorted(set(TEXT))
    index = {c: i for i, c in enumerate(chars)}
    data = jnp.array([index[c] for c in TEXT], dtype=jnp.int32)
    train_data, held_out = data[:160], data[160:]
    windows = jax.vmap(jax.lax.dynamic_slice, in_axes=(None, 0, None))

    def cut(key, source):
        starts = jax.random.randint(key, (BATCH, 1), 0, source.shape[0] - WINDOW - 1)
        return windows(source, starts, (WINDOW,)), windows(source, starts + 1, (WINDOW,))

    model = CharModel(vocab=len(chars))
    key = jax.random.PRNGKey(17)
    key, init_key = jax.random.split(key)
    variables = model.init(init_key, jnp.zeros((1, WINDOW), jnp.int32), train=False)
    tx = optax.adamw(learning_rate=1e-2, weight_decay=1e-3)
    opt_state = tx.init(variables)

    def xent(variables, x, y, dropout_key=None):
        rngs = None if dropout_key is None else {"dropout": dropout_key}
        logits = model.apply(variables, x, train=dropout_key is not None, rngs=rngs)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @jax.jit
    def step(variables, opt_state, key):
        key, batch_key, dropout_key = jax.random.split(key, 3)
        x, y = cut(batch_key, train_data)
        loss, grads = jax.value_and_grad(xent)(variables, x, y, dropout_key)
        updates, opt_state = tx.update(grads, opt_state, variables)
        return optax.apply_updates(variables, updates), opt_state, key, loss

    evaluate = jax.jit(lambda variables, key: xent(variables, *cut(key, held_out)))

    out = {}
    with printed.Cells(functools.partial(printed.numbered, columns=True)) as cells:
        print(f"vocabulary of {len(chars)}: {''.join(chars)!r}")
        print(f"parameters: {optax.tree.size(variables):_}")
        losses = []
        for i in range(6):
            variables, opt_state, key, loss = step(variables, opt_state, key)
            losses.append(loss)
            if i % 2 == 1:
                key, eval_key = jax.random.split(key)
                print(f"step {i}: train {loss:.4f} held out {evaluate(variables, eval_key):.4f}")
        cells.mark("training")
        prompt = data[None, :WINDOW]
        tokens = model.sample(variables, jax.random.PRNGKey(3), prompt, 24)
        print("".join(chars[t] for t in tokens.tolist()))
        cells.mark("sampled")
    out["printed"] = cells.printed
    out["losses"] = losses
    out["tokens"] = tokens
    # The key projections' biases get round-off gradients only (a bias shared by all keys
    # shifts a query's logits by a constant), which adamw turns into sign-like steps.
    flat = traverse_util.flatten_dict(variables["params"], sep="/")
    out["params"] = {k: v for k, v in flat.items() if not k.endswith("key/bias")}
    return out
