"""`core.debug.visualize_sharding` / `visualize_array_sharding` (`core/sharding_visual.py`)
print JAX 0.10.2's tables character for character (recorded with `rich` writing to a file, as
captured output is: no colours), wide tables narrowed and labels wrapped as `rich` does."""

import numpy as np
import pytest

import core
from core.experimental import mesh_utils
from core.sharding import AxisType, Mesh, NamedSharding, PartitionSpec

# (case, shape, mesh, spec, options, JAX's table)
CASES = [
    (
        "(4, 2) mesh, both axes",
        (64, 64),
        "ab",
        ("a", "b"),
        {},
        [
            "┌──────────┬──────────┐",
            "│  CPU 0   │  CPU 1   │",
            "├──────────┼──────────┤",
            "│  CPU 2   │  CPU 3   │",
            "├──────────┼──────────┤",
            "│  CPU 4   │  CPU 5   │",
            "├──────────┼──────────┤",
            "│  CPU 6   │  CPU 7   │",
            "└──────────┴──────────┘",
        ],
    ),
    (
        "rows replicated over b",
        (64, 64),
        "ab",
        ("a",),
        {},
        [
            "┌───────────────────────┐",
            "│        CPU 0,1        │",
            "├───────────────────────┤",
            "│        CPU 2,3        │",
            "├───────────────────────┤",
            "│        CPU 4,5        │",
            "├───────────────────────┤",
            "│        CPU 6,7        │",
            "└───────────────────────┘",
        ],
    ),
    (
        "tall columns",
        (64, 64),
        "ab",
        (None, "b"),
        {},
        [
            "┌───────────┬───────────┐",
            "│           │           │",
            "│           │           │",
            "│           │           │",
            "│           │           │",
            "│CPU 0,2,4,6│CPU 1,3,5,7│",
            "│           │           │",
            "│           │           │",
            "│           │           │",
            "│           │           │",
            "└───────────┴───────────┘",
        ],
    ),
    (
        "two mesh axes on one array axis",
        (64, 64),
        "ab",
        (("a", "b"), None),
        {},
        [
            "┌───────────────────────┐",
            "│         CPU 0         │",
            "├───────────────────────┤",
            "│         CPU 1         │",
            "├───────────────────────┤",
            "│         CPU 2         │",
            "├───────────────────────┤",
            "│         CPU 3         │",
            "├───────────────────────┤",
            "│         CPU 4         │",
            "├───────────────────────┤",
            "│         CPU 5         │",
            "├───────────────────────┤",
            "│         CPU 6         │",
            "├───────────────────────┤",
            "│         CPU 7         │",
            "└───────────────────────┘",
        ],
    ),
    (
        "narrow array",
        (64, 10),
        "ab",
        ("a",),
        {},
        [
            "┌───────┐",
            "│CPU 0,1│",
            "├───────┤",
            "│CPU 2,3│",
            "├───────┤",
            "│CPU 4,5│",
            "├───────┤",
            "│CPU 6,7│",
            "└───────┘",
        ],
    ),
    (
        "1-d, 8 blocks",
        (8,),
        "ab",
        (("a", "b"),),
        {},
        [
            "┌───────┬───────┬───────┬───────┬───────┬───────┬───────┬───────┐",
            "│ CPU 0 │ CPU 1 │ CPU 2 │ CPU 3 │ CPU 4 │ CPU 5 │ CPU 6 │ CPU 7 │",
            "└───────┴───────┴───────┴───────┴───────┴───────┴───────┴───────┘",
        ],
    ),
    (
        "wide replicated",
        (4, 1024),
        "ab",
        (),
        {},
        [
            "┌──────────────────────────────────────────────────────────────────────────────┐",
            "│                                                                              │",
            "│                                                                              │",
            "│                                                                              │",
            "│                                                                              │",
            "│                             CPU 0,1,2,3,4,5,6,7                              │",
            "│                                                                              │",
            "│                                                                              │",
            "│                                                                              │",
            "│                                                                              │",
            "└──────────────────────────────────────────────────────────────────────────────┘",
        ],
    ),
    (
        "wide, labels wrapped",
        (16, 64),
        "ab",
        ("b", "a"),
        {},
        [
            "┌───────────────────┬───────────────────┬───────────────────┬──────────────────┐",
            "│                   │                   │                   │                  │",
            "│         …         │         …         │         …         │                  │",
            "│         0         │         2         │         4         │                  │",
            "│                   │                   │                   │                  │",
            "│                   │                   │                   │                  │",
            "├───────────────────┼───────────────────┼───────────────────┼──────────────────┤",
            "│                   │                   │                   │                  │",
            "│         …         │         …         │         …         │                  │",
            "│         1         │         3         │         5         │                  │",
            "│                   │                   │                   │                  │",
            "│                   │                   │                   │                  │",
            "└───────────────────┴───────────────────┴───────────────────┴──────────────────┘",
        ],
    ),
    (
        "rows one line high",
        (64, 256),
        "ab",
        ("a", "b"),
        {},
        [
            "┌──────────────────────────────────────┬───────────────────────────────────────┐",
            "│                                      │                                       │",
            "├──────────────────────────────────────┼───────────────────────────────────────┤",
            "│                                      │                                       │",
            "├──────────────────────────────────────┼───────────────────────────────────────┤",
            "│                                      │                                       │",
            "├──────────────────────────────────────┼───────────────────────────────────────┤",
            "│                                      │                                       │",
            "└──────────────────────────────────────┴───────────────────────────────────────┘",
        ],
    ),
    (
        "scale and widths",
        (64, 64),
        "ab",
        ("a", "b"),
        {"scale": 0.5, "min_width": 15, "max_width": 40},
        [
            "┌─────────────┬─────────────┐",
            "│    CPU 0    │    CPU 1    │",
            "├─────────────┼─────────────┤",
            "│    CPU 2    │    CPU 3    │",
            "├─────────────┼─────────────┤",
            "│    CPU 4    │    CPU 5    │",
            "├─────────────┼─────────────┤",
            "│    CPU 6    │    CPU 7    │",
            "└─────────────┴─────────────┘",
        ],
    ),
    (
        "(2, 4) device mesh",
        (8, 16),
        "dm",
        ("data", None),
        {},
        [
            "┌────────────────────────────────────────────────┐",
            "│                                                │",
            "│                  CPU 0,1,2,3                   │",
            "│                                                │",
            "│                                                │",
            "├────────────────────────────────────────────────┤",
            "│                                                │",
            "│                  CPU 4,5,6,7                   │",
            "│                                                │",
            "│                                                │",
            "└────────────────────────────────────────────────┘",
        ],
    ),
    (
        "1-d over model",
        (8,),
        "dm",
        ("model",),
        {},
        [
            "┌───────┬───────┬───────┬───────┐",
            "│CPU 0,4│CPU 1,5│CPU 2,6│CPU 3,7│",
            "└───────┴───────┴───────┴───────┘",
        ],
    ),
]


def _meshes() -> dict:
    return {
        "ab": core.make_mesh((4, 2), ("a", "b"), axis_types=(AxisType.Auto,) * 2),
        "dm": Mesh(mesh_utils.create_device_mesh((2, 4), core.devices()), ("data", "model")),
    }


@pytest.mark.parametrize(
    ("shape", "mesh", "spec", "options", "table"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_visualize_sharding_prints_jaxs_table(capsys, shape, mesh, spec, options, table):
    sharding = NamedSharding(_meshes()[mesh], PartitionSpec(*spec))
    core.debug.visualize_sharding(shape, sharding, **options)
    assert capsys.readouterr().out.splitlines() == table


def test_visualize_array_sharding_of_a_single_device_array(capsys):
    x = core.device_put(np.ones((64, 64), np.float32), core.devices()[3])
    core.debug.visualize_array_sharding(x)
    assert capsys.readouterr().out.splitlines() == [
        "┌───────────────────────┐",
        "│                       │",
        "│                       │",
        "│                       │",
        "│                       │",
        "│         CPU 3         │",
        "│                       │",
        "│                       │",
        "│                       │",
        "│                       │",
        "└───────────────────────┘",
    ]


def test_visualize_sharding_of_three_axes_raises_jaxs_error():
    with pytest.raises(ValueError, match="only works for shapes with 1 and 2 dimensions"):
        core.debug.visualize_array_sharding(core.numpy.ones((2, 2, 2)))
