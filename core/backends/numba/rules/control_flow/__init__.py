"""Numba lowering rules of the control-flow primitives (`core/prims/control_flow/`)."""

from core.backends.numba.rules.control_flow import cond, scan, while_loop  # noqa: F401
