"""A Mamba-style selective state-space language model (ours, written in Flax Linen as
today's selective-SSM code in JAX writes one).

A block projects the input to two branches (`nn.Dense` to twice the inner width, split);
one goes through a causal depthwise convolution (`nn.Conv(feature_group_count=inner,
padding=[(k - 1, 0)])`) and `nn.silu`, then the selective scan: input-dependent step sizes
(`nn.softplus` of a low-rank projection plus a bias initialised by the inverse softplus of
log-uniform values), input-dependent `B` and `C`, a diagonal `A = -exp(A_log)` with
S4D-real initialisation, discretised as `exp(dt * A)` and `dt * B * x`. The recurrence
`h_t = a_t * h_{t-1} + b_t` runs as `lax.associative_scan` of the composition of affine maps,
checked against a `lax.scan`; the output is `C . h + D * x`, gated by `silu` of the other
branch, and projected back, with an `RMSNorm` residual. The model trains on a next-token task
with `optax.adamw` in a jitted step; generation keeps the recurrent state and the convolution
window and steps one token at a time (`jax.jit` of a step function), checked against the
parallel model's logits. Checks the scans, the losses, the recurrent decoding's agreement
and the parameters."""

import math

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax

VOCAB, LENGTH, KERNEL = 16, 12, 4


def inverse_softplus(y):
    return y + jnp.log(-jnp.expm1(-y))


def dt_bias_init(key, shape, dtype=jnp.float32, dt_min=1e-3, dt_max=1e-1):
    u = jax.random.uniform(key, shape, dtype)
    dt = jnp.exp(u * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min))
    return inverse_softplus(dt)


def combine(left, right):
    a_l, b_l = left
    a_r, b_r = right
    return a_l * a_r, a_r * b_l + b_r


def selective_scan(a, b):
    """h_t = a_t * h_{t-1} + b_t along axis 1, from h_0 = 0."""
    return lax.associative_scan(combine, (a, b), axis=1)[1]


def sequential_scan(a, b):
    def step(h, ab):
        h = ab[0] * h + ab[1]
        return h, h

    _, hs = lax.scan(step, jnp.zeros_like(a[:, 0]), (jnp.swapaxes(a, 0, 1), jnp.swapaxes(b, 0, 1)))
    return jnp.swapaxes(hs, 0, 1)


class MambaBlock(nn.Module):
    inner: int = 16
    state: int = 4
    rank: int = 2
    features_out: int = 12

    def setup(self):
        self.in_proj = nn.Dense(2 * self.inner, use_bias=False)
        self.conv = nn.Conv(self.inner, (KERNEL,), feature_group_count=self.inner,
                            padding=[(KERNEL - 1, 0)])  # fmt: skip
        self.x_proj = nn.Dense(self.rank + 2 * self.state, use_bias=False)
        self.dt_proj = nn.Dense(self.inner, bias_init=dt_bias_init)
        a_init = lambda key, shape: jnp.log(jnp.broadcast_to(jnp.arange(1.0, shape[1] + 1), shape))
        self.a_log = self.param("A_log", a_init, (self.inner, self.state))
        self.d = self.param("D", nn.initializers.ones_init(), (self.inner,))
        self.out_proj = nn.Dense(self.features_out, use_bias=False)
        self.norm = nn.RMSNorm()

    def ssm_inputs(self, u):
        """Discretised (a, b) of the recurrence and C, from the convolved branch `u`."""
        dt_low, b, c = jnp.split(self.x_proj(u), [self.rank, self.rank + self.state], axis=-1)
        dt = nn.softplus(self.dt_proj(dt_low))
        a = -jnp.exp(self.a_log)
        a_bar = jnp.exp(dt[..., None] * a)
        b_bar = dt[..., None] * b[..., None, :] * u[..., None]
        return a_bar, b_bar, c

    def __call__(self, x, use_sequential=False):
        xz = self.in_proj(self.norm(x))
        u, z = jnp.split(xz, 2, axis=-1)
        u = nn.silu(self.conv(u))
        a_bar, b_bar, c = self.ssm_inputs(u)
        h = sequential_scan(a_bar, b_bar) if use_sequential else selective_scan(a_bar, b_bar)
        y = jnp.einsum("bldn,bln->bld", h, c) + self.d * u
        return x + self.out_proj(y * nn.silu(z))

    def step(self, x, h, window):
        """One token: x (batch, features), state h, the last KERNEL-1 inputs of the conv."""
        xz = self.in_proj(self.norm(x))
        u, z = jnp.split(xz, 2, axis=-1)
        window = jnp.concatenate([window, u[:, None]], axis=1)
        kernel = self.conv.variables["params"]["kernel"][:, 0]
        u = nn.silu(
            jnp.einsum("bkd,kd->bd", window, kernel) + self.conv.variables["params"]["bias"]
        )
        a_bar, b_bar, c = self.ssm_inputs(u)
        h = a_bar * h + b_bar
        y = jnp.einsum("bdn,bn->bd", h, c) + self.d * u
        return x + self.out_proj(y * nn.silu(z)), h, window[:, 1:]


class MambaLM(nn.Module):
    def setup(self):
        self.embed = nn.Embed(VOCAB, 12)
        self.block = MambaBlock()
        self.norm = nn.RMSNorm()

    def __call__(self, tokens, use_sequential=False):
        x = self.block(self.embed(tokens), use_sequential)
        return self.embed.attend(self.norm(x))

    def decode_step(self, token, h, window):
        x, h, window = self.block.step(self.embed(token), h, window)
        return self.embed.attend(self.norm(x)), h, window


model = MambaLM()


def make_sequences(key, n=8):
    starts = jax.random.randint(key, (n, 1), 0, VOCAB)
    strides = 1 + jnp.arange(n)[:, None] % 3
    return (starts + strides * jnp.arange(LENGTH)) % VOCAB


def loss_fn(params, tokens):
    logits = model.apply({"params": params}, tokens[:, :-1])
    return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()


tx = optax.adamw(1e-2, weight_decay=0.01)


@jax.jit
def train_step(params, opt_state, tokens):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


@jax.jit
def decode(params, token, h, window):
    return model.apply({"params": params}, token, h, window, method=MambaLM.decode_step)


def run():
    out = {}
    a = jax.random.uniform(jax.random.PRNGKey(0), (2, 7, 3))
    b = jax.random.normal(jax.random.PRNGKey(1), (2, 7, 3))
    out["scan_parallel"] = selective_scan(a, b)
    out["scan_gap"] = jnp.max(jnp.abs(selective_scan(a, b) - sequential_scan(a, b)))
    out["dt_bias"] = nn.softplus(dt_bias_init(jax.random.PRNGKey(2), (5,)))

    tokens = make_sequences(jax.random.PRNGKey(3))
    params = model.init(jax.random.PRNGKey(4), tokens[:, :-1])["params"]
    out["param_shapes"] = jax.tree.map(jnp.shape, params)
    opt_state = tx.init(params)
    losses = []
    for _ in range(8):
        params, opt_state, loss = train_step(params, opt_state, tokens)
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    logits = model.apply({"params": params}, tokens[:2])
    sequential = model.apply({"params": params}, tokens[:2], True)
    out["logits"] = logits[:, :3]
    out["parallel_vs_sequential"] = jnp.max(jnp.abs(logits - sequential))

    # recurrent decoding of the same tokens gives the parallel model's logits
    h = jnp.zeros((2, 16, 4))
    window = jnp.zeros((2, KERNEL - 1, 16))
    stepped = []
    for t in range(LENGTH):
        step_logits, h, window = decode(params, tokens[:2, t], h, window)
        stepped.append(step_logits)
    stepped = jnp.stack(stepped, axis=1)
    out["recurrent_gap"] = jnp.max(jnp.abs(stepped - logits))
    out["greedy"] = jnp.argmax(stepped, -1)
    out["params"] = params
    return out
