"""Numba lowering rules of `core.prims.eig`."""

from __future__ import annotations

from typing import Any

from core.backends.numba.registry import Kernel, register_lowering
from core.prims.decompositions import check_cpu_algorithm
from core.prims.eig import _eig_impl, eig_p


def _eig_lowering(ctx, eqn):
    check_cpu_algorithm("eig", eqn.params)
    host = _host_impl(**eqn.params)
    return ctx.host_call(host, host)


_HOSTS: dict[tuple, Any] = {}


def _host_impl(**params):
    """One host function per parameter set (its identity names it in generated code)."""
    key = tuple(sorted(params.items()))
    if key not in _HOSTS:

        def eig_host(arrays):
            return _eig_impl(*arrays, **params)

        _HOSTS[key] = eig_host
    return _HOSTS[key]


register_lowering(eig_p, Kernel(_eig_lowering))
