"""jnp's products (dot, matmul/@, vdot, vecdot, inner, outer, tensordot, einsum, kron,
linalg.multi_dot/matmul/tensordot/vecdot) over shapes, dtype pairs and weak types, with
`preferred_element_type` and `precision`, their gradients' dtypes and weak types, and the
errors of misaligned shapes.
"""

# ruff: noqa: E501
from __future__ import annotations


def cases() -> list[str]:
    """The calls of this area: sources, or (source, exact) pairs."""
    c = []
    ops = {
        "f32": "jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3) / 3",
        "wf": "jnp.cos(jnp.arange(6) * 0.37).reshape(2, 3)",
        "i32": "jnp.arange(6, dtype=jnp.int32).reshape(2, 3)",
        "i8": "jnp.arange(6, dtype=jnp.int8).reshape(2, 3)",
        "u8": "jnp.arange(6, dtype=jnp.uint8).reshape(2, 3)",
        "bf16": "jnp.arange(6, dtype=jnp.bfloat16).reshape(2, 3) / 3",
        "f16": "jnp.arange(6, dtype=jnp.float16).reshape(2, 3) / 3",
        "c64": "(jnp.arange(6.0) + 1j * jnp.arange(6.0)[::-1]).reshape(2, 3).astype(jnp.complex64)",
        "bool": "(jnp.arange(6) % 2 == 0).reshape(2, 3)",
    }
    names = list(ops)
    for a in names:
        for b in names:
            A, B = ops[a], ops[b]
            c += [f"jnp.dot({A}, ({B}).T)", f"jnp.matmul({A}, ({B}).T)"]
        c += [
            f"jnp.einsum('ij,kj->ik', {ops[a]}, {ops['f32']})",
            f"jnp.tensordot({ops[a]}, {ops['wf']}, axes=([1], [1]))",
            f"jnp.inner({ops[a]}, {ops['i32']})",
            f"jnp.vdot({ops[a]}, {ops['c64']})",
            f"jnp.outer({ops[a]}, jnp.arange(2))",
            f"jnp.kron({ops[a]}, jnp.eye(2, dtype=jnp.int8))",
            f"jnp.dot({ops[a]}, 2)",
            f"jnp.dot({ops[a]}, 2.5)",
            f"jnp.matmul({ops[a]}, jnp.ones(3), preferred_element_type=jnp.float32)",
            f"jnp.einsum('ij->j', {ops[a]})",
            f"jnp.einsum('ij,ij->', {ops[a]}, {ops[a]})",
        ]
    W, F = ops["wf"], ops["f32"]
    c += [
        # weak types of the results and of the gradients
        f"jnp.dot({W}, ({W}).T)",
        f"jnp.dot({W}, ({F}).T)",
        f"jnp.dot({W}, 2.0)",
        f"jnp.matmul({W}, jnp.ones(3))",
        f"jnp.einsum('ij,j->i', {W}, jnp.ones(3))",
        f"jnp.einsum('ij,j->i', {W}, jnp.ones(3), preferred_element_type=jnp.float32)",
        f"jnp.tensordot({W}, {W}, axes=2)",
        f"jnp.tensordot({W}, {W}, axes=0).shape",
        f"jax.grad(lambda x: jnp.dot(x, jnp.ones((3, 2))).sum())({W})",
        f"jax.grad(lambda x: (x @ x.T).sum())({W})",
        f"jax.grad(lambda x: jnp.einsum('ij,jk->', x, jnp.ones((3, 2))))({W})",
        f"jax.grad(lambda x: jnp.einsum('ij,jk->', x, x.T))({W})",
        f"jax.grad(lambda x: jnp.vdot(x, jnp.ones((2, 3))))({W})",
        f"jax.grad(lambda x: jnp.inner(x, jnp.ones(3)).sum())({W})",
        f"jax.grad(lambda x: jnp.tensordot(x, jnp.ones((2, 3))))({W})",
        f"jax.grad(lambda x: jnp.matmul(x, jnp.ones(3), preferred_element_type=jnp.float32).sum())({W})",
        f"jax.grad(lambda x: jnp.dot(x, jnp.arange(3)).sum())({W})",
        f"jax.grad(lambda y: jnp.dot(jnp.ones((2, 3)), y).sum())({W}.T)",
        f"jax.grad(lambda x: jnp.dot(x.astype(jnp.bfloat16), jnp.ones((3, 2), jnp.bfloat16)).sum().astype(jnp.float32))({F})",
        f"jax.grad(lambda x: jnp.dot(x, jnp.ones((3, 2), jnp.bfloat16)).sum())({F})",
        f"jax.grad(lambda x: jnp.einsum('ij,jk->ik', x, jnp.ones((3, 2)), preferred_element_type=jnp.float32).sum())({ops['bf16']}.astype(jnp.float32))",
        f"jax.jacfwd(lambda x: jnp.dot(x, jnp.ones(3)))({W})",
        f"jax.jvp(lambda x: jnp.dot(x, x.T), ({W},), ({W},))",
        f"jax.vmap(jnp.dot)({W}, {W})",
        f"jax.vmap(jnp.matmul, in_axes=(0, None))({W}, jnp.ones((3, 2)))",
        f"jax.make_jaxpr(lambda x: jnp.dot(x, jnp.arange(3)))({W})",
        f"str(jax.make_jaxpr(lambda x: jnp.dot(x, jnp.ones((3, 2))))({W}))",
        f"str(jax.make_jaxpr(jax.grad(lambda x: jnp.dot(x, jnp.ones((3, 2))).sum()))({W}))",
        f"str(jax.make_jaxpr(lambda x: jnp.einsum('ij,jk->ik', x, jnp.ones((3, 2))))({W}))",
        f"str(jax.make_jaxpr(lambda x: x @ jnp.ones(3))({F}))",
        # shapes: batches, vectors, broadcasting
        "jnp.matmul(jnp.ones((2, 1, 3, 4)), jnp.ones((5, 4, 2))).shape",
        "jnp.matmul(jnp.ones(4), jnp.ones((3, 4, 2))).shape",
        "jnp.matmul(jnp.ones((3, 2, 4)), jnp.ones(4)).shape",
        "jnp.matmul(jnp.ones(4), jnp.ones(4))",
        "jnp.dot(jnp.ones((2, 3, 4)), jnp.ones((5, 4, 6))).shape",
        "jnp.dot(jnp.ones((2, 3)), jnp.ones(3))",
        "jnp.inner(jnp.ones((2, 3)), jnp.ones((4, 3))).shape",
        "jnp.tensordot(jnp.ones((2, 3, 4)), jnp.ones((4, 3, 5)), axes=([1, 2], [1, 0])).shape",
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=1)",
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=(1, 0))",
        "jnp.einsum('...ij,...jk->...ik', jnp.ones((2, 3, 4)), jnp.ones((4, 5))).shape",
        "jnp.einsum('ii->i', jnp.arange(9.0).reshape(3, 3))",
        "jnp.einsum('ii', jnp.arange(9.0).reshape(3, 3))",
        "jnp.einsum('ij->ji', jnp.arange(6.0).reshape(2, 3))",
        "jnp.einsum('i,j', jnp.arange(2.0), jnp.arange(3.0))",
        "jnp.einsum('bij,bjk,bkl->bil', jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)), jnp.ones((2, 5, 2))).shape",
        "jnp.einsum('ij,jk,kl', jnp.ones((2, 3)), jnp.ones((3, 4)), jnp.ones((4, 5)), optimize='greedy')",
        "jnp.einsum('ij,jk,kl', jnp.ones((2, 3)), jnp.ones((3, 4)), jnp.ones((4, 5)), optimize=False)",
        "jnp.einsum(jnp.ones((2, 3)), [0, 1], jnp.ones((3, 4)), [1, 2], [0, 2]).shape",
        "jnp.einsum('i,i', jnp.arange(3), jnp.arange(3))",
        "jnp.einsum('ij,ij->ij', jnp.ones((2, 1)), jnp.ones((2, 3))).shape",
        "jnp.linalg.multi_dot([jnp.ones((2, 3)), jnp.ones((3, 4)), jnp.ones((4, 2))])",
        "jnp.linalg.multi_dot([jnp.ones(3), jnp.ones((3, 4)), jnp.ones(4)])",
        "jnp.linalg.matmul(jnp.ones((2, 3)), jnp.ones((3, 2)))",
        "jnp.linalg.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=1)",
        "jnp.linalg.vecdot(jnp.ones((2, 3)), jnp.arange(3.0))",
        "jnp.vecdot(jnp.ones((2, 3)), jnp.arange(3.0), axis=-1)",
        "jnp.vecdot(jnp.ones((3, 2)), jnp.ones((3, 2)), axis=0)",
        "jnp.matvec(jnp.ones((2, 3)), jnp.arange(3.0))",
        "jnp.vecmat(jnp.arange(2.0), jnp.ones((2, 3)))",
        "jnp.linalg.outer(jnp.arange(2.0), jnp.arange(3.0))",
        "jnp.linalg.cross(jnp.arange(3.0), jnp.ones(3))",
        "jnp.cross(jnp.arange(6.0).reshape(2, 3), jnp.ones(3))",
        "jnp.cross(jnp.arange(2.0), jnp.ones(2))",
        "jnp.dot(jnp.ones((2, 3)), jnp.ones((3, 2)), precision='highest')",
        "jnp.dot(jnp.ones((2, 3)), jnp.ones((3, 2)), precision=jax.lax.Precision.HIGH)",
        "jnp.dot(jnp.ones((2, 3)), jnp.ones((3, 2)), precision=('default', 'highest'))",
        "jnp.matmul(jnp.ones((2, 3), jnp.int8), jnp.ones((3, 2), jnp.int8), preferred_element_type=jnp.int32)",
        "jnp.dot(jnp.ones((2, 3), jnp.bfloat16), jnp.ones((3, 2), jnp.bfloat16), preferred_element_type=jnp.float32)",
        "jnp.einsum('ij,jk', jnp.ones((2, 3), jnp.int8), jnp.ones((3, 2), jnp.int8), preferred_element_type=jnp.int32)",
        "jnp.dot(jnp.full((2, 3), 100, jnp.int8), jnp.full((3,), 100, jnp.int8))",
        "jnp.dot(jnp.full((2, 3), 200, jnp.uint8), jnp.full((3,), 200, jnp.uint8))",
        "jnp.dot(jnp.array([True, True]), jnp.array([True, False]))",
        "jnp.matmul(jnp.array([[True, False]]), jnp.array([[True], [True]]))",
        "jnp.dot(jnp.float16(65504) * jnp.ones(2, jnp.float16), jnp.ones(2, jnp.float16))",
        # errors
        "jnp.dot(jnp.ones((2, 3)), jnp.ones((2, 3)))",
        "jnp.matmul(jnp.ones((2, 3)), jnp.ones((2, 3)))",
        "jnp.matmul(jnp.ones(3), 2.0)",
        "jnp.matmul(jnp.ones((2, 2, 3)), jnp.ones((3, 3, 2)))",
        "jnp.inner(jnp.ones(3), jnp.ones(4))",
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((2, 3)), axes=1)",
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=3)",
        "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=([0, 1], [1]))",
        "jnp.einsum('ij,jk->ik', jnp.ones((2, 3)), jnp.ones((4, 2)))",
        "jnp.einsum('ij,jk->il', jnp.ones((2, 3)), jnp.ones((3, 2)))",
        "jnp.einsum('ij,jk', jnp.ones((2, 3)))",
        "jnp.einsum('ijk', jnp.ones((2, 3)))",
        "jnp.vdot(jnp.ones(3), jnp.ones(4))",
        "jnp.dot([1, 2], [3, 4])",
        "jnp.dot(jnp.ones(3), jnp.ones(3), precision='bogus')",
        "jnp.linalg.multi_dot([jnp.ones((2, 3))])",
        "jnp.vecdot(jnp.ones((2, 3)), jnp.ones((2, 4)))",
        "jnp.cross(jnp.ones(4), jnp.ones(3))",
    ]
    return c
