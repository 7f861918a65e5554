"""jnp.einsum_path's report (`core.numpy.path_info.PathInfo`): paths, FLOP counts, speedups,
BLAS kernels and the printed table equal JAX 0.10.2's (opt_einsum 3.4.0's ``PathInfo``)."""

from decimal import Decimal

import pytest

import core.numpy as jnp

RULE = "-" * 80
TITLES = f"{'scaling':>6} {'BLAS':>11} {'current':>22} {'remaining':>37}"
HEADER = f"{RULE}\n{TITLES}\n{RULE}"

# (subscripts, shapes, optimize, path, the report without its fixed header lines), as JAX
# 0.10.2 printed them
CASES = [
    (
        "ij,jk,kl->il",
        [(2, 3), (3, 100), (100, 5)],
        "optimal",
        [(1, 2), (0, 1)],
        [
            "  Complete contraction:  ij,jk,kl->il",
            "         Naive scaling:  4",
            "     Optimized scaling:  3",
            "      Naive FLOP count:  9.000e+3",
            "  Optimized FLOP count:  3.060e+3",
            "   Theoretical speedup:  2.941e+0",
            "  Largest intermediate:  1.500e+1 elements",
            "   3           GEMM              kl,jk->lj                             ij,lj->il",
            "   3           GEMM              lj,ij->il                                il->il",
        ],
    ),
    (
        "ea,fb,abcd,gc,hd->efgh",
        [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)],
        "greedy",
        [(0, 2), (0, 3), (0, 2), (0, 1)],
        [
            "  Complete contraction:  ea,fb,abcd,gc,hd->efgh",
            "         Naive scaling:  8",
            "     Optimized scaling:  5",
            "      Naive FLOP count:  5.000e+8",
            "  Optimized FLOP count:  8.000e+5",
            "   Theoretical speedup:  6.250e+2",
            "  Largest intermediate:  1.000e+4 elements",
            "   5           GEMM          abcd,ea->bcde                   fb,gc,hd,bcde->efgh",
            "   5           GEMM          bcde,fb->cdef                      gc,hd,cdef->efgh",
            "   5           GEMM          cdef,gc->defg                         hd,defg->efgh",
            "   5           GEMM          defg,hd->efgh                            efgh->efgh",
        ],
    ),
    (
        "...j,j->...",
        [(2, 4, 3), (3,)],
        "auto",
        [(0, 1)],
        [
            "  Complete contraction:  bcj,j->bc",
            "         Naive scaling:  3",
            "     Optimized scaling:  3",
            "      Naive FLOP count:  4.800e+1",
            "  Optimized FLOP count:  4.800e+1",
            "   Theoretical speedup:  1.000e+0",
            "  Largest intermediate:  8.000e+0 elements",
            "   3           GEMM              j,bcj->bc                                bc->bc",
        ],
    ),
    (
        "ii->i",
        [(3, 3)],
        "auto",
        [(0,)],
        [
            "  Complete contraction:  ii->i",
            "         Naive scaling:  1",
            "     Optimized scaling:  1",
            "      Naive FLOP count:  3.000e+0",
            "  Optimized FLOP count:  3.000e+0",
            "   Theoretical speedup:  1.000e+0",
            "  Largest intermediate:  3.000e+0 elements",
            "   1              0                  ii->i                                  i->i",
        ],
    ),
    (
        "ijk,jil->kl",
        [(3, 4, 5), (4, 3, 6)],
        "auto",
        [(0, 1)],
        [
            "  Complete contraction:  ijk,jil->kl",
            "         Naive scaling:  4",
            "     Optimized scaling:  4",
            "      Naive FLOP count:  7.200e+2",
            "  Optimized FLOP count:  7.200e+2",
            "   Theoretical speedup:  1.000e+0",
            "  Largest intermediate:  3.000e+1 elements",
            "   4           TDOT            jil,ijk->kl                                kl->kl",
        ],
    ),
    (
        "ab,bc,cd,de,ef->af",
        [(2, 3), (3, 4), (4, 5), (5, 6), (6, 2)],
        "auto",
        [(3, 4), (2, 3), (1, 2), (0, 1)],
        [
            "  Complete contraction:  ab,bc,cd,de,ef->af",
            "         Naive scaling:  6",
            "     Optimized scaling:  3",
            "      Naive FLOP count:  7.200e+3",
            "  Optimized FLOP count:  2.720e+2",
            "   Theoretical speedup:  2.647e+1",
            "  Largest intermediate:  1.000e+1 elements",
            "   3           GEMM              ef,de->fd                       ab,bc,cd,fd->af",
            "   3           GEMM              fd,cd->fc                          ab,bc,fc->af",
            "   3           GEMM              fc,bc->fb                             ab,fb->af",
            "   3           GEMM              fb,ab->af                                af->af",
        ],
    ),
]


@pytest.mark.parametrize(("subscripts", "shapes", "optimize", "path", "report"), CASES)
def test_report_is_jaxs(subscripts, shapes, optimize, path, report):
    got_path, info = jnp.einsum_path(subscripts, *[jnp.ones(s) for s in shapes], optimize=optimize)
    assert got_path == path and info.path == path
    assert str(info) == "\n".join([*report[:7], HEADER, *report[7:]])
    assert repr(info) == str(info)


def test_attributes_are_jaxs():
    x, y, z = jnp.ones((2, 3)), jnp.ones((3, 100)), jnp.ones((100, 5))
    _, info = jnp.einsum_path("ij,jk,kl->il", x, y, z, optimize="optimal")
    # JAX 0.10.2
    assert (info.naive_cost, info.opt_cost) == (Decimal(9000), Decimal(3060))
    assert float(info.speedup) == pytest.approx(2.9411764705882355)
    assert info.largest_intermediate == Decimal(15)
    assert (info.scale_list, info.size_list) == ([3, 3], [15, 10])
    assert info.eq == "ij,jk,kl->il" and info.shapes == [(2, 3), (3, 100), (100, 5)]
    assert info.size_dict == {"i": 2, "j": 3, "k": 100, "l": 5}
    first = info.contraction_list[0]
    assert (
        first[0] == (2, 1)
        and first[1] == frozenset("k")
        and first[2:]
        == (
            "kl,jk->lj",
            ("ij", "lj"),
            "GEMM",
        )
    )


def test_sizes_that_differ_are_jaxs_error():
    with pytest.raises(ValueError, match=r"Size of label 'j' for operand 1 \(3\) does not match"):
        jnp.einsum_path("ij,jk->ik", jnp.ones((2, 3)), jnp.ones((4, 5)))
