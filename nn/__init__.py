"""nn: a Flax-linen-like module system (in progress)."""

from nn.module import Module, apply, compact, init, init_with_output, merge_param, nowrap
from nn.scope import DenyList, Scope
from nn.variables import Variable

__all__ = [
    "DenyList",
    "Module",
    "Scope",
    "Variable",
    "apply",
    "compact",
    "init",
    "init_with_output",
    "merge_param",
    "nowrap",
]
