"""The models of `test_summary.py`'s tables, written once for Flax and numbax:
`tables(jax, jnp, nn)` gives ``{name: a function drawing one table}``: MLPs, a CNN with
BatchNorm and Dropout, nested and shared modules, nn.scan, nn.vmap, nn.RNN, attention,
partitioned parameters, FLOPs columns, consoles of many widths (wrapping, cut cells),
styled (ANSI) and plain."""

# ruff: noqa: E501
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tables(jax: Any, jnp: Any, nn: Any) -> dict[str, Callable[[], str]]:
    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Dense(128)(x))
            return nn.Dense(10)(x)

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Conv(8, (3, 3))(x)
            x = nn.BatchNorm(use_running_average=not train)(x)
            x = nn.avg_pool(nn.relu(x), (2, 2), (2, 2))
            x = nn.Dropout(0.5, deterministic=not train)(x)
            return nn.Dense(10)(x.reshape((x.shape[0], -1)))

    class Inner(nn.Module):
        features: int

        @nn.compact
        def __call__(self, x):
            return nn.LayerNorm()(nn.Dense(self.features)(x))

    class Nested(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = Inner(4, name="encoder_block_with_a_rather_long_name")(x)
            x = Inner(3)(x)
            return nn.Dense(2, name="classification_head_projection")(x)

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, c, x):
            h = nn.tanh(nn.Dense(3)(x) + c)
            return h, h

    class Scanned(nn.Module):
        @nn.compact
        def __call__(self, x):
            ScanCell = nn.scan(
                Cell,
                variable_broadcast="params",
                split_rngs={"params": False},
                in_axes=1,
                out_axes=1,
            )
            return ScanCell(name="steps")(jnp.zeros((2, 3)), x)

    class BNBlock(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            x = nn.BatchNorm(use_running_average=not train)(x)
            return nn.Dense(2)(nn.tanh(x))

    class Sharded(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(
                4,
                kernel_init=nn.with_partitioning(nn.initializers.lecun_normal(), ("embed", "mlp")),
            )(x)

    class AE(nn.Module):
        def setup(self):
            self.enc = nn.Dense(2)
            self.dec = nn.Dense(5)

        def encode(self, x):
            return self.enc(x)

        def __call__(self, x):
            return self.dec(self.encode(x))

    class Big(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2048)(nn.Dense(1024)(x))

    class Vmapped(nn.Module):
        @nn.compact
        def __call__(self, x):
            VDense = nn.vmap(
                nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=0
            )
            return VDense(3)(x)

    class TwoOut(nn.Module):
        @nn.compact
        def __call__(self, x, *, scale=2.0, mode="a"):
            return {"y": nn.Dense(2)(x) * scale, "z": (x, x.sum())}

    class Shared(nn.Module):
        @nn.compact
        def __call__(self, x):
            d = nn.Dense(4)
            return d(d(x))

    class Embedder(nn.Module):
        @nn.compact
        def __call__(self, ids):
            e = nn.Embed(1000, 64)(ids)
            return nn.Dense(1000)(e)

    key = jax.random.key(0)
    cases = {
        "mlp80": lambda: MLP().tabulate(
            key, jnp.ones((4, 784)), console_kwargs={"force_terminal": False}
        ),
        "mlp_ansi": lambda: MLP().tabulate(key, jnp.ones((4, 784))),
        "mlp50": lambda: MLP().tabulate(
            key, jnp.ones((4, 784)), console_kwargs={"force_terminal": False, "width": 50}
        ),
        "mlp30": lambda: MLP().tabulate(
            key, jnp.ones((4, 784)), console_kwargs={"force_terminal": False, "width": 30}
        ),
        "cnn": lambda: CNN().tabulate(
            {"params": key, "dropout": key},
            jnp.ones((2, 8, 8, 1)),
            train=True,
            console_kwargs={"force_terminal": False, "width": 120},
        ),
        "cnn_ansi_flops": lambda: CNN().tabulate(
            key, jnp.ones((2, 8, 8, 1)), compute_flops=True, console_kwargs={"width": 130}
        ),
        "cnn_narrow": lambda: CNN().tabulate(
            key, jnp.ones((2, 8, 8, 1)), console_kwargs={"force_terminal": False, "width": 70}
        ),
        "nested": lambda: Nested().tabulate(
            key, jnp.ones((2, 5)), console_kwargs={"force_terminal": False}
        ),
        "nested_ansi60": lambda: Nested().tabulate(
            key, jnp.ones((2, 5)), console_kwargs={"width": 60}
        ),
        "nested_depth1": lambda: Nested().tabulate(
            key, jnp.ones((2, 5)), depth=1, console_kwargs={"force_terminal": False, "width": 100}
        ),
        "nested_depth0": lambda: Nested().tabulate(
            key, jnp.ones((2, 5)), depth=0, console_kwargs={"force_terminal": False, "width": 100}
        ),
        "scan": lambda: Scanned().tabulate(
            key, jnp.ones((2, 4)), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "vmap": lambda: Vmapped().tabulate(
            key, jnp.ones((3, 2, 4)), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "twoout": lambda: TwoOut().tabulate(
            key,
            jnp.ones((2, 3)),
            scale=3.0,
            mode="b",
            console_kwargs={"force_terminal": False, "width": 100},
        ),
        "shared_rep": lambda: Shared().tabulate(
            key,
            jnp.ones((1, 4)),
            show_repeated=True,
            console_kwargs={"force_terminal": False, "width": 100},
        ),
        "shared": lambda: Shared().tabulate(
            key, jnp.ones((1, 4)), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "embed": lambda: Embedder().tabulate(
            key, jnp.ones((2, 7), jnp.int32), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "justify_right": lambda: MLP().tabulate(
            key,
            jnp.ones((1, 3)),
            column_kwargs={"justify": "right"},
            console_kwargs={"force_terminal": False, "width": 100},
        ),
        "expand": lambda: MLP().tabulate(
            key,
            jnp.ones((1, 3)),
            table_kwargs={"expand": True},
            console_kwargs={"force_terminal": False, "width": 110},
        ),
        "fn_dropout": lambda: nn.tabulate(
            nn.Dropout(0.5), key, console_kwargs={"force_terminal": False}
        )(jnp.ones((2, 3)), deterministic=True),
        "rnn": lambda: nn.tabulate(
            nn.RNN(nn.LSTMCell(2)), key, console_kwargs={"force_terminal": False, "width": 120}
        )(jnp.ones((2, 5, 4))),
        "overflow_fold": lambda: Nested().tabulate(
            key,
            jnp.ones((2, 5)),
            column_kwargs={"overflow": "fold"},
            console_kwargs={"force_terminal": False, "width": 40},
        ),
        "tiny_width": lambda: Nested().tabulate(
            key, jnp.ones((2, 5)), console_kwargs={"force_terminal": False, "width": 20}
        ),
        "bn_flops_ansi": lambda: BNBlock().tabulate(
            key,
            jnp.ones((3, 5)),
            train=True,
            compute_flops=True,
            compute_vjp_flops=True,
            console_kwargs={"width": 120},
        ),
        "sharded": lambda: Sharded().tabulate(
            key, jnp.ones((2, 3)), console_kwargs={"force_terminal": False, "width": 120}
        ),
        "ae_method": lambda: AE().tabulate(
            key,
            jnp.ones((1, 5)),
            method=AE.encode,
            console_kwargs={"force_terminal": False, "width": 100},
        ),
        "ae": lambda: AE().tabulate(
            key, jnp.ones((1, 5)), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "big": lambda: Big().tabulate(
            key, jnp.ones((1, 512)), console_kwargs={"force_terminal": False, "width": 100}
        ),
        "kwonly": lambda: nn.tabulate(
            BNBlock(), key, console_kwargs={"force_terminal": False, "width": 100}
        )(x=jnp.ones((2, 5))),
        "attn": lambda: nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4).tabulate(
            key, jnp.ones((1, 3, 4)), console_kwargs={"force_terminal": False, "width": 100}
        ),
    }
    return cases
