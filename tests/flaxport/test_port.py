"""`flaxport.port`, the mechanical import rewrite: the rules, the stax examples (their JAX
version ports to exactly `examples/stax_mnist/*.py`), and the command line."""

from pathlib import Path

from flaxport.port import main, port_module, port_source
from tests.examples.make_stax_mnist_answers import REWRITES

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    ("import jax\n", "import core as jax\n"),
    ("import jax.numpy as jnp\n", "import core.numpy as jnp\n"),
    ("import jax.random\n", "import core.random; import core as jax\n"),
    ("from jax import grad, jit  # why\n", "from core import grad, jit  # why\n"),
    ("import flax\n", "import flaxport as flax\n"),
    ("from flax import linen as nn\n", "from flaxport import linen as nn\n"),
    ("    import flax.linen as nn\n", "    import flaxport.linen as nn\n"),
    ("from flax.training.train_state import TrainState\n",
     "from flaxport.training.train_state import TrainState\n"),
    ("import optax\n", "import optim as optax\n"),
    ("from optax import tree_utils as otu\n", "from optim import tree_utils as otu\n"),
    ("from optax._src import base\n", "from optim import base\n"),
    ("from optax._src.alias import adam\n", "from optim.aliases import adam\n"),
    ("from jax._src import test_util as jtu\n", "from core import test_util as jtu\n"),
    ("import numpy as np, jax.scipy as jsp\n", "import numpy as np; import core.scipy as jsp\n"),
    ("from jaxlib import xla_client\n", "from jaxlib import xla_client\n"),
    ("x = jax.numpy.ones(3)  # import jax\n", "x = jax.numpy.ones(3)  # import jax\n"),
    # flax.metrics is a module flaxport makes (no file): the Flax PPO example's import
    ("from flax.metrics import tensorboard\n", "from flaxport.metrics import tensorboard\n"),
    ("import flax.metrics.tensorboard\n",
     "import flaxport.metrics.tensorboard; import flaxport as flax\n"),
]  # fmt: skip


def test_rules():
    for source, want in CASES:
        got, missing = port_source(source)
        assert (got, missing) == (want, []), source
    assert port_module("jax.example_libraries.stax") == "core.example_libraries.stax"
    assert port_module("numpy") is None


def test_ported_made_modules_import():
    namespace: dict = {}
    exec(port_source("from flax.metrics import tensorboard\n")[0], namespace)
    assert hasattr(namespace["tensorboard"], "SummaryWriter")


def test_missing_modules_are_reported():
    source = "from flax import nnx\nimport optax.contrib\nfrom jax import nope\n"
    ported, missing = port_source(source)
    assert missing == ["flax.nnx", "jax.nope"]
    assert "import optim.contrib; import optim as optax\n" in ported


def test_stax_examples_port_to_ours():
    for name, (ported, original) in REWRITES.items():
        ours = (ROOT / "examples" / "stax_mnist" / name).read_text()
        got, missing = port_source(ours.replace(ported, original))
        assert missing == [] and got == ours, name


def test_command_line(tmp_path, capsys):
    path = tmp_path / "prog.py"
    path.write_text("import jax\nfrom flax import nnx\n")
    assert main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "import core as jax\nfrom flaxport import nnx\n"
    assert "numbax has no module for 'flax.nnx'" in err
    main(["--write", str(path)])
    assert path.read_text().startswith("import core as jax\n")
