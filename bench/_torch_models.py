"""The benchmarks' models and train steps written the way a PyTorch user writes them.

The PyTorch side of bench/compile.py's programs (and of bench/mlp_step.py and bench/cnn_lstm.py):
`torch.nn.Module`s with the same layers and sizes as the Flax code, `torch.optim` optimizers
with the Optax ones' hyper-parameters, eager mode (`torch.compile` only on request), PyTorch's
default threads. Images come in Flax's NHWC layout and are handed to the convolutions in
PyTorch's native NCHW. Only torch and numpy are imported, so the reference interpreter runs
this module without numbax.

Structural differences that remain (they do not change the work of a step): PyTorch's LSTM
keeps two bias vectors (`b_ih`, `b_hh`) where Flax's `LSTMCell` has one (4 x 256 more
parameters); the ResNet's SAME-padded stride-2 max pool and convolutions pad one pixel on both
sides (torchvision's choice) where XLA pads only the high side (same output shapes).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

VOCAB, SEQ = 256, 64  # bench/compile.py's language-model sizes


def mlp() -> nn.Module:
    """The MNIST MLP 784-128-128-10 with ReLU."""
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 128),
        nn.ReLU(),
        nn.Linear(128, 128),
        nn.ReLU(),
        nn.Linear(128, 10),
    )


def cnn() -> nn.Module:
    """The Flax MNIST example's CNN on NCHW input (Conv 32 3x3, relu, avg_pool 2x2, Conv 64 3x3,
    relu, avg_pool 2x2, Dense 256, relu, Dense 10; SAME padding like Flax's default)."""
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1),
        nn.ReLU(),
        nn.AvgPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1),
        nn.ReLU(),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(7 * 7 * 64, 256),
        nn.ReLU(),
        nn.Linear(256, 10),
    )


class _Block(nn.Module):
    """Pre-LN transformer block: x + attention(LN(x)), then x + Dense(gelu(Dense(LN(x))))."""

    def __init__(self, d: int, heads: int):
        super().__init__()
        self.ln1 = nn.LayerNorm(d, eps=1e-6)  # Flax's LayerNorm epsilon
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d, eps=1e-6)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False, is_causal=True)[0]
        h = F.gelu(self.fc1(self.ln2(x)), approximate="tanh")  # Flax's gelu is the tanh form
        return x + self.fc2(h)


class TransformerLM(nn.Module):
    """The 2-layer pre-LN transformer LM of bench/compile.py: d=128, 4 heads, learned positions,
    causal mask, final LayerNorm and a Dense to the vocabulary."""

    def __init__(self, d: int = 128, heads: int = 4, layers: int = 2):
        super().__init__()
        self.pos = nn.Parameter(torch.randn(SEQ, d) * 0.02)
        self.embed = nn.Embedding(VOCAB, d)
        self.blocks = nn.ModuleList(_Block(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d, eps=1e-6)
        self.head = nn.Linear(d, VOCAB)
        self.register_buffer("mask", torch.ones(SEQ, SEQ, dtype=torch.bool).triu(1))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.pos
        for block in self.blocks:
            x = block(x, self.mask)
        return self.head(self.ln(x))


class _ResNetBlock(nn.Module):
    """Flax's `ResNetBlock`: conv-BN-relu-conv-BN (scale initialised to zero), a 1x1 conv + BN
    projection when the shape changes, relu of the sum."""

    def __init__(self, cin: int, filters: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, filters, 3, stride, padding=1, bias=False)
        # PyTorch's BatchNorm defaults (momentum 0.1 of the new statistics, eps 1e-5) are the
        # ResNet code's Flax settings (momentum 0.9 of the old ones, epsilon 1e-5)
        self.bn1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(filters)
        nn.init.zeros_(self.bn2.weight)
        self.proj = None
        if stride != 1 or cin != filters:
            self.proj = nn.Sequential(
                nn.Conv2d(cin, filters, 1, stride, bias=False), nn.BatchNorm2d(filters)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        return F.relu((x if self.proj is None else self.proj(x)) + y)


class ResNet10(nn.Module):
    """Flax's ImageNet ResNet code with stage sizes 1-1-1-1, 64 filters, 10 classes."""

    def __init__(self, filters: int = 64, classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, filters, 7, 2, padding=3, bias=False),
            nn.BatchNorm2d(filters),
            nn.ReLU(),
            nn.MaxPool2d(3, 2, padding=1),
        )
        blocks, cin = [], filters
        for i in range(4):
            blocks.append(_ResNetBlock(cin, filters * 2**i, 1 if i == 0 else 2))
            cin = filters * 2**i
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Linear(cin, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(self.stem(x)).mean((2, 3)))


class LSTMLM(nn.Module):
    """The LSTM LM of bench/compile.py: Embed 64, an LSTM of 256 over the sequence, Dense."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 64)
        self.lstm = nn.LSTM(64, 256, batch_first=True)
        self.head = nn.Linear(256, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.lstm(self.embed(tokens))[0])


# model name -> (module factory, optimizer factory), the Optax optimizers of bench/compile.py
MODELS: dict[str, tuple[Callable[[], nn.Module], Callable]] = {
    "mlp": (mlp, lambda p: torch.optim.Adam(p, lr=1e-3)),
    "cnn": (cnn, lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "transformer": (TransformerLM, lambda p: torch.optim.AdamW(p, lr=3e-4, weight_decay=0.01)),
    "resnet10": (ResNet10, lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "lstm": (LSTMLM, lambda p: torch.optim.Adam(p, lr=1e-3)),
}


def to_torch(x: np.ndarray, y: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """A numpy batch as PyTorch takes it: NHWC images to NCHW, integer labels to int64."""
    xt = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if x.ndim == 4 else x)
    return xt, torch.from_numpy(y.astype(np.int64))


def train_step(
    name: str, x: np.ndarray, y: np.ndarray, compiled: bool = False
) -> tuple[Callable[[], torch.Tensor], int]:
    """One model's train step on a fixed batch, as a PyTorch user writes it.

    Args:
      name: a key of `MODELS`.
      x: the inputs in Flax's layout (NHWC images, or int tokens).
      y: the integer labels (or next tokens), shaped like the model's output without its class
        axis.
      compiled: wrap the model in `torch.compile` (its default settings; the optimizer step
        stays eager), as a user who opts in writes it.

    Returns:
      `(step, params)`: `step()` runs one step (zero_grad, forward, cross-entropy, backward,
      optimizer step) and returns the loss; `params` is the number of trainable parameters.
    """
    torch.manual_seed(0)
    make_model, make_opt = MODELS[name]
    model = make_model()
    model.train()
    opt = make_opt(model.parameters())
    forward = torch.compile(model) if compiled else model
    xt, yt = to_torch(x, y)

    def step() -> torch.Tensor:
        opt.zero_grad()
        logits = forward(xt)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), yt.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()

    return step, sum(p.numel() for p in model.parameters() if p.requires_grad)
