"""`jit` splitting a batch-separable program over the local devices (`config.jit_batch_split`).

As a GSPMD partitioner for one mesh axis (the local devices) and the batch dimension: the
batch inputs are split, the states propagate over the jaxpr (`propagate.py`), the per-device
program is staged with its collectives (`partition.py`), the decision is made once per
compiled signature (`decide.py`) and the call runs on every device's thread (`run.py`).
"""

from core.jit.batch_split.run import Deferred, Split, describe, for_signature

__all__ = ["Deferred", "Split", "describe", "for_signature"]
