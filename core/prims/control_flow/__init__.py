"""Control flow as higher-order primitives holding jaxprs: cond/switch, scan (fori_loop with
static bounds) and while_loop (fori_loop with traced bounds)."""

from core.prims.control_flow.cond import cond, cond_p, switch
from core.prims.control_flow.errors import (
    BranchTypeError,
    CarryTypeError,
    PredicateTypeError,
    ScanLengthError,
    WhileLoopReverseModeError,
)
from core.prims.control_flow.scan import fori_loop, scan, scan_p
from core.prims.control_flow.while_loop import while_loop, while_p

__all__ = [
    "BranchTypeError",
    "CarryTypeError",
    "PredicateTypeError",
    "ScanLengthError",
    "WhileLoopReverseModeError",
    "cond",
    "cond_p",
    "fori_loop",
    "scan",
    "scan_p",
    "switch",
    "while_loop",
    "while_p",
]
