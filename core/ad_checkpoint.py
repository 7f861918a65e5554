"""`jax.ad_checkpoint`: the gradient-checkpointing names under their JAX module path, so
`from jax.ad_checkpoint import checkpoint_name` ports by changing the import (they live in
`core.checkpoint`; `print_saved_residuals` is not provided)."""

from core.checkpoint import checkpoint, checkpoint_name, checkpoint_policies, remat

__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
