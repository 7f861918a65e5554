"""numbax's `optax.contrib`: the contributed optimizers of Optax 0.2.8, same names and formulas.

`import optim.contrib` (or `optim.contrib.<name>`) replaces `optax.contrib`:

- learning-rate schedules driven by the loss: `reduce_on_plateau` (plateau.py);
- learning-rate-free methods: `dadapt_adamw`, `prodigy` (dadapt.py), `mechanize`
  (mechanic.py), `cocob` (cocob.py), `dog`/`dowg` (dog.py), `momo`/`momo_adam` (momo.py);
- averaging and sharpness: `schedule_free*` (schedule_free.py), `sam`, `normalize` (sam.py);
- Adam variants: `acprop`, `ademamix`, `simplified_ademamix`, `adopt`, `madgrad`
  (adam_variants.py), `sophia` (sophia.py), `muon` (muon.py);
- low-rank projections: `galore` (galore.py);
- `split_real_and_imaginary` (complex_valued.py) and DP-SGD: `dpsgd`,
  `differentially_private_aggregate` (privacy.py, also top-level in `optim` as in Optax).
"""

from optim.contrib.adam_variants import (
    MadgradState,
    ScaleByAdemamixState,
    ScaleBySimplifiedAdEMAMixState,
    acprop,
    ademamix,
    adopt,
    madgrad,
    scale_by_acprop,
    scale_by_ademamix,
    scale_by_adopt,
    scale_by_madgrad,
    scale_by_simplified_ademamix,
    simplified_ademamix,
)
from optim.contrib.cocob import COCOBState, cocob, scale_by_cocob
from optim.contrib.complex_valued import SplitRealAndImaginaryState, split_real_and_imaginary
from optim.contrib.dadapt import DAdaptAdamWState, ProdigyState, dadapt_adamw, prodigy
from optim.contrib.dog import DoGState, DoWGState, dog, dowg
from optim.contrib.galore import GaLoreDimensionNumbers, GaLoreState, galore, scale_by_galore
from optim.contrib.mechanic import MechanicState, mechanize
from optim.contrib.momo import MomoAdamState, MomoState, momo, momo_adam
from optim.contrib.muon import MuonDimensionNumbers, MuonState, muon, scale_by_muon
from optim.contrib.plateau import ReduceLROnPlateauState, reduce_on_plateau
from optim.contrib.privacy import (
    DifferentiallyPrivateAggregateState,
    differentially_private_aggregate,
    dpsgd,
)
from optim.contrib.sam import NormalizeState, SAMState, normalize, sam
from optim.contrib.schedule_free import (
    ScheduleFreeState,
    schedule_free,
    schedule_free_adamw,
    schedule_free_eval_params,
    schedule_free_sgd,
)
from optim.contrib.sophia import (
    HutchinsonState,
    SophiaState,
    hutchinson_estimator_diag_hessian,
    sophia,
)

__all__ = [
    "COCOBState",
    "DAdaptAdamWState",
    "DifferentiallyPrivateAggregateState",
    "DoGState",
    "DoWGState",
    "GaLoreDimensionNumbers",
    "GaLoreState",
    "HutchinsonState",
    "MadgradState",
    "MechanicState",
    "MomoAdamState",
    "MomoState",
    "MuonDimensionNumbers",
    "MuonState",
    "NormalizeState",
    "ProdigyState",
    "ReduceLROnPlateauState",
    "SAMState",
    "ScaleByAdemamixState",
    "ScaleBySimplifiedAdEMAMixState",
    "ScheduleFreeState",
    "SophiaState",
    "SplitRealAndImaginaryState",
    "acprop",
    "ademamix",
    "adopt",
    "cocob",
    "dadapt_adamw",
    "differentially_private_aggregate",
    "dog",
    "dowg",
    "dpsgd",
    "galore",
    "hutchinson_estimator_diag_hessian",
    "madgrad",
    "mechanize",
    "momo",
    "momo_adam",
    "muon",
    "normalize",
    "prodigy",
    "reduce_on_plateau",
    "sam",
    "scale_by_acprop",
    "scale_by_ademamix",
    "scale_by_adopt",
    "scale_by_cocob",
    "scale_by_galore",
    "scale_by_madgrad",
    "scale_by_muon",
    "scale_by_simplified_ademamix",
    "schedule_free",
    "schedule_free_adamw",
    "schedule_free_eval_params",
    "schedule_free_sgd",
    "simplified_ademamix",
    "sophia",
    "split_real_and_imaginary",
]
