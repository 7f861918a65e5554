"""Records Optax 0.2.8's dice losses on fixed inputs into `optax_segmentation.json`. Run with
the reference venv from `tests/optim`: `/opt/ref/bin/python record_segmentation.py`."""

import json
import pathlib

import jax
import numpy as np
import optax
from segmentation_cases import CASES, inputs


def main() -> None:
    table = {}
    for label, fn, kwargs in CASES:
        preds, targets = inputs(label)
        loss = getattr(optax.losses, fn)
        out = loss(preds, targets, **kwargs)
        grad = jax.grad(lambda p, t=targets, f=loss, k=kwargs: f(p, t, **k).sum())(preds)
        table[label] = {
            "out": np.asarray(out, np.float64).tolist(),
            "grad": np.asarray(grad, np.float64).ravel().tolist(),
        }
    out = pathlib.Path(__file__).parent / "optax_segmentation.json"
    out.write_text(json.dumps({"optax": optax.__version__, "cases": table}) + "\n")


if __name__ == "__main__":
    main()
