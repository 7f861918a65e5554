"""Tensor networks by `jnp.einsum`, as JAX users contract them: a matrix product state's norm
and expectation values, a tensor-train layer and a bilinear attention score.

- `einsum` with `optimize=` `"optimal"`, `"greedy"`, `True` and `False` on one network (equal
  values), `jnp.einsum_path`'s contraction list, the implicit (no `->`) form, `...`
  broadcasting, repeated indices (a trace, a diagonal), integer operands with
  `preferred_element_type`, and the errors of a wrong operand count and a size mismatch;
- `tensordot` with integer and paired axes, `linalg.tensorsolve`/`tensorinv` against their
  definitions, `vecdot`/`matvec`/`vecmat`/`linalg.outer`/`linalg.cross`;
- gradients of an MPS's normalised energy wrt its cores, and a tensor-train layer's gradient by
  `grad` and by `jacrev`.
"""

import jax
import jax.numpy as jnp
from jax import random

from tests.porting import printed


def mps(key, sites=5, phys=2, bond=3):
    keys = random.split(key, sites)
    cores = []
    for i, k in enumerate(keys):
        left = 1 if i == 0 else bond
        right = 1 if i == sites - 1 else bond
        cores.append(random.normal(k, (left, phys, right)) / jnp.sqrt(bond))
    return cores


def mps_norm(cores):
    env = jnp.ones((1, 1))
    for a in cores:
        env = jnp.einsum("ab,asc,bsd->cd", env, a, a.conj())
    return env[0, 0]


def mps_energy(cores, coupling=0.7):
    # <Z_i Z_{i+1}> summed over neighbours, and a transverse field <X_i>.
    z = jnp.diag(jnp.array([1.0, -1.0]))
    x = jnp.array([[0.0, 1.0], [1.0, 0.0]])
    n = len(cores)

    def expect(ops):
        env = jnp.ones((1, 1))
        for i, a in enumerate(cores):
            op = ops.get(i)
            if op is None:
                env = jnp.einsum("ab,asc,bsd->cd", env, a, a)
            else:
                env = jnp.einsum("ab,asc,st,btd->cd", env, a, op, a, optimize="greedy")
        return env[0, 0]

    zz = sum(expect({i: z, i + 1: z}) for i in range(n - 1))
    xs = sum(expect({i: x}) for i in range(n))
    return -(coupling * zz + xs) / mps_norm(cores)


def networks(out):
    k1, k2, k3, k4 = random.split(random.key(0), 4)
    a = random.normal(k1, (4, 5, 6))
    b = random.normal(k2, (6, 7, 3))
    c = random.normal(k3, (3, 5, 2))
    d = random.normal(k4, (2, 4))
    expr = "ijk,klm,mjn,ni->l"
    vals = {
        str(o): jnp.einsum(expr, a, b, c, d, optimize=o) for o in ("optimal", "greedy", True, False)
    }
    out["optimize_modes"] = vals
    path, text = jnp.einsum_path(expr, a, b, c, d, optimize="optimal")
    out["path"] = [str(p) for p in path]
    out["path_text_lines"] = len(str(text).splitlines())
    out["implicit"] = jnp.einsum("ij,jk", a[:, :, 0], c[:, :, 0].T)
    batch = random.normal(k1, (2, 3, 4, 5))
    out["ellipsis"] = jnp.einsum("...ij,...jk->...ik", batch, jnp.swapaxes(batch, -1, -2))
    out["ellipsis_middle"] = jnp.einsum("i...j,j->i...", batch, jnp.arange(5.0))
    sq = random.normal(k2, (4, 4))
    out["trace"] = jnp.einsum("ii", sq)
    out["diagonal"] = jnp.einsum("ii->i", sq)
    out["outer_sum"] = jnp.einsum("i,j->", jnp.arange(3.0), jnp.arange(4.0))
    ints = jnp.arange(12, dtype=jnp.int8).reshape(3, 4)
    out["int8_to_int32"] = jnp.einsum("ij,kj->ik", ints, ints, preferred_element_type=jnp.int32)
    out["int8_plain"] = jnp.einsum("ij,kj->ik", ints, ints)
    out["mixed_dtypes"] = jnp.einsum("ij,j->i", ints, jnp.ones(4, jnp.float16))
    out["errors"] = printed.first_lines(
        {
            "count": lambda: jnp.einsum("ij,jk->ik", sq),
            "size": lambda: jnp.einsum("ij,jk->ik", sq, a[:, :, 0].T),
            "output_index": lambda: jnp.einsum("ij->k", sq),
        },
        ValueError,
    )


def tensor_ops(out):
    k1, k2, k3 = random.split(random.key(1), 3)
    a = random.normal(k1, (3, 4, 5))
    b = random.normal(k2, (4, 5, 2))
    out["tensordot_int"] = jnp.tensordot(a, b, 2)
    out["tensordot_pairs"] = jnp.tensordot(a, b, axes=((1, 2), (0, 1)))
    out["tensordot_zero"] = jnp.tensordot(jnp.arange(2.0), jnp.arange(3.0), 0)
    m = random.normal(k3, (2, 3, 6)) + 3.0 * jnp.eye(6).reshape(6, 2, 3).transpose(1, 2, 0)
    m = m.reshape(2, 3, 2, 3)
    rhs = jnp.arange(6.0).reshape(2, 3)
    x = jnp.linalg.tensorsolve(m, rhs)
    out["tensorsolve"] = x
    out["tensorsolve_residual"] = jnp.tensordot(m, x, 2) - rhs
    inv = jnp.linalg.tensorinv(m, ind=2)
    out["tensorinv_shape"] = str(inv.shape)
    out["tensorinv_identity"] = jnp.tensordot(inv, m, 2).reshape(6, 6)
    u = jnp.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
    v = jnp.array([2.0, 0.5, -1.0])
    out["vecdot"] = jnp.vecdot(u, v)
    out["linalg_vecdot"] = jnp.linalg.vecdot(u, v, axis=-1)
    out["matvec"] = jnp.matvec(u, v)
    out["vecmat"] = jnp.vecmat(jnp.array([1.0, -2.0]), u)
    out["outer"] = jnp.linalg.outer(v, jnp.arange(2.0))
    out["cross"] = jnp.linalg.cross(u, v)
    out["cross_2d"] = jnp.cross(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))
    cv = jnp.array([1 + 2j, 3 - 1j], jnp.complex64)
    vc = jnp.vecdot(cv, cv)
    out["vecdot_complex"] = [str(vc.dtype), vc.real, vc.imag]


def gradients(out):
    cores = mps(random.key(2))
    energy, grads = jax.value_and_grad(mps_energy)(cores)
    out["energy"] = energy
    out["energy_grads"] = grads
    # A few steps of normalised gradient descent lower the energy.
    step = jax.jit(lambda cs: [c - 0.1 * g for c, g in zip(cs, jax.grad(mps_energy)(cs))])
    for _ in range(5):
        cores = step(cores)
    out["energy_after"] = mps_energy(cores)

    # A tensor-train layer: a (4*3) -> (2*5) matrix as two cores.
    k1, k2, k3 = random.split(random.key(3), 3)
    g1 = random.normal(k1, (4, 2, 3)) * 0.5
    g2 = random.normal(k2, (3, 3, 5)) * 0.5
    x = random.normal(k3, (6, 4, 3))

    def tt(g1, g2, x):
        return jnp.einsum("bij,iar,rjc->bac", x, g1, g2)

    def loss(g1, g2):
        return jnp.sum(jnp.tanh(tt(g1, g2, x)) ** 2)

    out["tt_out"] = tt(g1, g2, x)
    out["tt_grads"] = jax.grad(loss, argnums=(0, 1))(g1, g2)
    jac = jax.jacrev(lambda g: tt(g, g2, x[:2]))(g1)
    out["tt_jac_shape"] = str(jac.shape)
    out["tt_jac"] = jac
    full = jnp.einsum("iar,rjc->ijac", g1, g2).reshape(12, 10)
    out["tt_dense_match"] = bool(
        jnp.allclose(tt(g1, g2, x).reshape(6, 10), x.reshape(6, 12) @ full, atol=1e-5)
    )


def run():
    out = {}
    networks(out)
    tensor_ops(out)
    gradients(out)
    return out
