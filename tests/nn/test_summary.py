"""tabulate and parameter_overview: Flax's tables character for character (rich's drawing,
recorded from Flax 0.12.8 into `flax_tables.json` by `record_summary.py`), FLOPs columns,
pinned totals."""

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random
from tests.nn.summary_cases import tables

FLAX_TABLES = json.loads((pathlib.Path(__file__).parent / "flax_tables.json").read_text())
PLAIN = {"force_terminal": False, "width": 100}
WIDE = {"force_terminal": False, "width": 200}


@pytest.fixture
def console_env(monkeypatch):
    """The environment the tables were recorded in: no terminal, 80 columns, a color TERM."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "xterm")


@pytest.mark.parametrize("name", sorted(FLAX_TABLES))
def test_tables_are_flaxs(console_env, name):
    assert tables(core, jnp, nn)[name]() == FLAX_TABLES[name]


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


def _rows(table: str) -> list[list[str]]:
    """The cells of a plain table's lines (rows' continuation lines too)."""
    return [
        [c.strip() for c in line[1:-1].replace("┃", "│").split("│")]
        for line in table.splitlines()
        if line[:1] in ("│", "┃")
    ]


def test_tabulate_rows_and_totals():
    table = Model().tabulate(random.key(0), jnp.ones((1, 3)), console_kwargs=WIDE)
    rows = _rows(table)
    assert rows[0] == ["path", "module", "inputs", "outputs", "batch_stats", "params"]
    assert [
        "Block_0/Dense_0",
        "Dense",
        "float32[1,3]",
        "float32[1,4]",
        "",
        "bias: float32[4]",
    ] in rows
    # Per block: Dense_0 3*4+4, BatchNorm 4+4, Dense_1 4*2+2 -> 34 params, 8 batch stats.
    assert rows[-1] == ["", "", "", "Total", "16 (64 B)", "68 (272 B)"]
    assert table.splitlines()[-2].strip() == "Total Parameters: 84 (336 B)"


def test_tabulate_depth_folds_subtrees():
    x = jnp.ones((1, 3))
    table = Model().tabulate(random.key(0), x, depth=1, train=True, console_kwargs=PLAIN)
    assert "Block_0/Dense_0" not in table
    block = [r for r in _rows(table) if r[0] == "Block_0"]
    assert block[0][4:] == ["8 (32 B)", "34 (136 B)"]
    assert table.splitlines()[-2].strip() == "Total Parameters: 84 (336 B)"


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
    """{path: (flops, vjp_flops)} from a plain table with both columns."""
    rows = _rows(table)
    header = rows[0]
    i, j = header.index("flops"), header.index("vjp_flops")
    assert header[4:6] == ["flops", "vjp_flops"]  # after outputs, before the collections, as Flax
    return {row[0]: (int(row[i]), int(row[j])) for row in rows[1:] if row[j].isdigit()}


# Flax 0.12's `tabulate(..., compute_flops=True, compute_vjp_flops=True)` on the same models
# (XLA's cost analysis); the CNN's VJP total is not checked: numbax formulates avg_pool's
# gradient differently.
def test_tabulate_flops_match_flax():
    flags = dict(compute_flops=True, compute_vjp_flops=True, console_kwargs=WIDE)
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
    x = jnp.ones((1, 784))
    rows = _rows(MLP().tabulate(random.key(0), x, compute_flops=True, console_kwargs=PLAIN))
    assert rows[0] == ["path", "module", "inputs", "outputs", "flops", "params"]
    assert rows[-1][4] == "Total"


def test_module_level_tabulate_is_flax_s_function_of_the_inputs():
    tabulate_fn = nn.tabulate(MLP(), random.key(0), compute_flops=True)
    assert tabulate_fn(jnp.ones((4, 784))) == MLP().tabulate(
        random.key(0), jnp.ones((4, 784)), compute_flops=True
    )


def test_tabulate_refuses_the_rich_options_it_does_not_follow():
    x = jnp.ones((1, 3))
    # Flax passes its own title to rich's Table: rich's TypeError
    with pytest.raises(TypeError, match="multiple values for keyword argument 'title'"):
        Model().tabulate(random.key(0), x, table_kwargs={"title": "T"})
    with pytest.raises(NotImplementedError, match="box"):
        Model().tabulate(random.key(0), x, table_kwargs={"box": None})
    with pytest.raises(NotImplementedError, match="style"):
        nn.tabulate(Model(), random.key(0), column_kwargs={"style": "red"})(x)


def test_tabulate_rows_of_a_scanned_cell_and_an_empty_total_as_flaxs():
    # Flax 0.12.8: nn.RNN's rows are RNN, then cell (LSTMCell) and its eight Dense layers: the
    # function the scan runs on the cell is no row; a model without variables prints an
    # empty total, "Total Parameters: "
    x = jnp.ones((2, 5, 4))
    wide = {"force_terminal": False, "width": 120}
    table = nn.tabulate(nn.RNN(nn.LSTMCell(2)), random.key(0), console_kwargs=wide)(x)
    modules = [row[1] for row in _rows(table)[1:-1] if row[1]]
    assert modules == ["RNN", "LSTMCell"] + ["Dense"] * 8
    assert table.splitlines()[-2].strip() == "Total Parameters: 56 (224 B)"
    # with show_repeated, Flax's row of the scan body names it in the module column
    repeated = nn.tabulate(
        nn.RNN(nn.LSTMCell(2)), random.key(0), show_repeated=True, console_kwargs=wide
    )
    assert "│ cell    │ LSTMCell (scan_fn) │" in repeated(x)
    empty = nn.tabulate(nn.Dropout(0.5), random.key(0), console_kwargs=wide)(x, deterministic=True)
    assert empty.splitlines()[-2].strip() == "Total Parameters:"
