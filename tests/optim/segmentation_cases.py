"""The dice-loss cases of `test_segmentation.py` (and of `record_segmentation.py`, which records
Optax's answers for them): name, loss, keyword arguments; `inputs(name)` gives the arrays."""

import numpy as np

CASES = [
    ("dice", "dice_loss", {}),
    ("dice_tversky_sum", "dice_loss", {"alpha": 0.3, "beta": 0.7, "reduction": "sum"}),
    ("dice_none_background", "dice_loss", {"reduction": "none", "ignore_background": True}),
    ("dice_weights", "dice_loss", {"class_weights": np.array([0.2, 1.0, 2.0], np.float32)}),
    ("dice_probs", "dice_loss", {"apply_softmax": False, "smooth": 0.5}),
    ("generalized", "multiclass_generalized_dice_loss", {}),
    ("generalized_background", "multiclass_generalized_dice_loss", {"ignore_background": True}),
    ("binary", "binary_dice_loss", {}),
    ("binary_channel", "binary_dice_loss", {"smooth": 0.1}),
]


def inputs(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Predictions and targets for the case `name` (batch 2, a 4x3 image, 3 classes)."""
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(2, 4, 3, 3)).astype(np.float32)
    labels = rng.integers(0, 3, size=(2, 4, 3))
    onehot = np.eye(3, dtype=np.float32)[labels]
    if name == "dice_probs":
        e = np.exp(logits)
        return (e / e.sum(-1, keepdims=True)).astype(np.float32), onehot
    if name == "binary":
        return logits[..., 0], (labels == 1).astype(np.float32)
    if name == "binary_channel":
        return logits[..., :1], (labels == 1).astype(np.float32)[..., None]
    return logits, onehot
