"""tabulate and parameter_overview: pinned totals, no double counting, shapes only."""

import numpy as np

import core.numpy as jnp
import nn
from core import random


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(4)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(2)(nn.relu(x))


class Model(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        return Block()(x, train) + Block()(x, train)


def test_tabulate_rows_and_totals():
    table = Model().tabulate(random.key(0), jnp.ones((1, 3)))
    lines = table.splitlines()
    header = lines[1]
    assert "path" in header and "batch_stats" in header and "params" in header
    assert any("Block_0/Dense_0" in line and "16 (64 B)" in line for line in lines)
    # Per block: Dense_0 3*4+4, BatchNorm 4+4, Dense_1 4*2+2 -> 34 params, 8 batch stats.
    assert "68 (272 B)" in table and "16 (64 B)" in lines[-3]
    assert lines[-1] == "Total parameters: 84 (336 B)"
    assert "float32[1,3]" in table and "float32[1,2]" in table


def test_tabulate_depth_folds_subtrees():
    table = Model().tabulate(random.key(0), jnp.ones((1, 3)), depth=1, train=True)
    assert "Block_0/Dense_0" not in table
    rows = [line for line in table.splitlines() if "| Block_0 " in line]
    assert len(rows) == 1 and "34 (136 B)" in rows[0] and "8 (32 B)" in rows[0]
    assert table.splitlines()[-1] == "Total parameters: 84 (336 B)"


def test_parameter_overview_like_clu():
    params = {
        "dense": {"kernel": np.arange(6, dtype=np.float32).reshape(2, 3), "bias": np.zeros(3)}
    }
    text = nn.parameter_overview(params)
    lines = text.splitlines()
    assert [c.strip() for c in lines[1].split("|")[1:-1]] == [
        "Name",
        "Shape",
        "Size",
        "Mean",
        "Std",
    ]
    row = [c.strip() for c in lines[3].split("|")[1:-1]]
    assert row == ["dense/kernel", "(2, 3)", "6", "2.5", "1.71"]
    assert lines[-1] == "Total: 9"
    assert "Mean" not in nn.parameter_overview(params, include_stats=False)
