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
    assert lines[-1] == "Total Parameters: 84 (336 B)"
    assert "float32[1,3]" in table and "float32[1,2]" in table


def test_tabulate_depth_folds_subtrees():
    table = Model().tabulate(random.key(0), jnp.ones((1, 3)), depth=1, train=True)
    assert "Block_0/Dense_0" not in table
    rows = [line for line in table.splitlines() if "| Block_0 " in line]
    assert len(rows) == 1 and "34 (136 B)" in rows[0] and "8 (32 B)" in rows[0]
    assert table.splitlines()[-1] == "Total Parameters: 84 (336 B)"


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


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(128)(x))
        return nn.Dense(10)(x)


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Conv(8, (3, 3))(x)
        x = nn.avg_pool(nn.relu(x), (2, 2), (2, 2))
        return nn.Dense(10)(x.reshape((x.shape[0], -1)))


class TanhBlock(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(4)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(2)(nn.tanh(x))


def _flop_cells(table):
    """{path: (flops, vjp_flops)} from a table with both columns."""
    lines = table.splitlines()
    header = [c.strip() for c in lines[1].strip("|").split("|")]
    i, j = header.index("flops"), header.index("vjp_flops")
    assert header[4:6] == ["flops", "vjp_flops"]  # after outputs, before the collections, as Flax
    cells = {}
    for line in lines[3:]:
        row = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("|") and row[j].isdigit():
            cells[row[0]] = (int(row[i]), int(row[j]))
    return cells


# Flax 0.12's `tabulate(..., compute_flops=True, compute_vjp_flops=True)` on the same models
# (XLA's cost analysis); the CNN's VJP total is not checked: numbax formulates avg_pool's
# gradient differently.
def test_tabulate_flops_match_flax():
    flags = dict(compute_flops=True, compute_vjp_flops=True)
    mlp = _flop_cells(MLP().tabulate(random.key(0), jnp.ones((4, 784)), **flags))
    assert mlp["Dense_0"] == (803328, 2509824) and mlp["Dense_1"] == (10280, 32080)
    assert mlp[""] == (814120, 2543440)
    cnn = _flop_cells(CNN().tabulate(random.key(0), jnp.ones((2, 8, 8, 1)), **flags))
    assert cnn["Conv_0"] == (16512, 48584) and cnn["Dense_0"] == (5140, 16680)
    assert cnn[""][0] == 23700
    block = _flop_cells(TanhBlock().tabulate(random.key(0), jnp.ones((3, 5)), train=True, **flags))
    assert block[""] == (302, 940)
    assert block["Dense_0"] == (132, 404) and block["Dense_1"] == (54, 164)
    assert block["BatchNorm_0"] == (116, 324)


def test_tabulate_one_flops_column():
    table = MLP().tabulate(random.key(0), jnp.ones((1, 784)), compute_flops=True)
    header = [c.strip() for c in table.splitlines()[1].strip("|").split("|")]
    assert header == ["path", "module", "inputs", "outputs", "flops", "params"]
    assert "| Total " in table.splitlines()[-3]


def test_module_level_tabulate_is_flax_s_function_of_the_inputs():
    tabulate_fn = nn.tabulate(MLP(), random.key(0), compute_flops=True)
    assert tabulate_fn(jnp.ones((4, 784))) == MLP().tabulate(
        random.key(0), jnp.ones((4, 784)), compute_flops=True
    )


def test_tabulate_takes_flaxs_rich_options():
    """Flax's console/table/column options (its ``rich`` drawing) are accepted, not passed to
    the model; the table is the same."""
    x = jnp.ones((1, 3))
    plain = Model().tabulate(random.key(0), x)
    options = dict(console_kwargs={"width": 120}, table_kwargs={}, column_kwargs={})
    assert Model().tabulate(random.key(0), x, **options) == plain
    assert nn.tabulate(Model(), random.key(0), **options)(x) == plain


def test_tabulate_rows_of_a_scanned_cell_and_an_empty_total_as_flaxs():
    # Flax 0.12.8: nn.RNN's rows are RNN, then cell (LSTMCell) and its eight Dense layers: the
    # function the scan runs on the cell is no row; a model without variables prints an
    # empty total, "Total Parameters: "
    x = jnp.ones((2, 5, 4))
    table = nn.tabulate(nn.RNN(nn.LSTMCell(2)), random.key(0))(x)
    modules = [line.split("|")[2].strip() for line in table.splitlines()[3:-4]]
    assert modules == ["RNN", "LSTMCell"] + ["Dense"] * 8
    assert table.splitlines()[-1] == "Total Parameters: 56 (224 B)"
    # with show_repeated, Flax's row of the scan body names it in the module column
    table = nn.tabulate(nn.RNN(nn.LSTMCell(2)), random.key(0), show_repeated=True)(x)
    assert "| cell    | LSTMCell (scan_fn) |" in table
    empty = nn.tabulate(nn.Dropout(0.5), random.key(0))(x, deterministic=True)
    assert empty.splitlines()[-1] == "Total Parameters: "
