"""jnp.linalg and jnp.fft (`linalg_fft`): factorizations, solves, norms and determinants over
matrices, batches, 16-bit and integer inputs, and the FFTs with their sizes, axes and norms.
"""


def cases() -> list[str]:
    A = "jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])"
    B = f"jnp.stack([{A}, {A} * 2])"
    R = "jnp.arange(12.0).reshape(3, 4) / 7"
    I = "jnp.array([[2, 1], [1, 3]])"
    F16 = f"{A}.astype(jnp.float16)"
    c = []
    la = "jnp.linalg"
    for fn in (
        "inv",
        "det",
        "slogdet",
        "cholesky",
        "eigh",
        "eigvalsh",
        "pinv",
        "matrix_rank",
        "qr",
        "svd",
        "svdvals",
        "eigvals",
        "norm",
        "cond",
        "matrix_norm",
        "trace",
        "diagonal",
        "matrix_transpose",
        "tensorinv",
    ):
        for a in (
            A,
            B,
            I,
            F16,
            R,
            "jnp.ones(3)",
            "jnp.ones((0, 0))",
            "jnp.ones((2, 0, 0))",
            "jnp.array([[1 + 1j, 2], [3, 4j]])",
            "jnp.zeros((2, 2))",
        ):
            c.append(f"{la}.{fn}({a})")
    c += [
        f"{la}.solve({A}, jnp.arange(3.0))",
        f"{la}.solve({B}, jnp.arange(3.0))",
        f"{la}.solve({B}, jnp.ones((2, 3)))",
        f"{la}.solve({B}, jnp.ones((3, 2)))",
        f"{la}.solve({B}, jnp.ones((2, 3, 1)))",
        f"{la}.solve({A}, jnp.ones(4))",
        f"{la}.solve({I}, jnp.array([1, 2]))",
        f"{la}.solve({R}, jnp.ones(3))",
        f"{la}.lstsq({R}, jnp.ones(3))",
        f"{la}.lstsq(({R}).T, jnp.ones(4))",
        f"{la}.lstsq(({R}).T, jnp.ones((4, 2)), rcond=0.1)",
        f"{la}.lstsq({R}, jnp.ones(4))",
        f"{la}.matrix_power({A}, 3)",
        f"{la}.matrix_power({A}, 0)",
        f"{la}.matrix_power({A}, -2)",
        f"{la}.matrix_power({I}, 3)",
        f"{la}.matrix_power({I}, -1)",
        f"{la}.matrix_power({A}, 1.5)",
        f"{la}.matrix_power({R}, 2)",
        f"{la}.multi_dot([{R}, ({R}).T, {A}])",
        f"{la}.multi_dot([jnp.ones(3), {A}, jnp.ones(3)])",
        f"{la}.multi_dot([{A}])",
        f"{la}.cross(jnp.arange(3.0), jnp.ones(3))",
        f"{la}.cross(jnp.arange(2.0), jnp.ones(2))",
        f"{la}.cross(jnp.arange(6).reshape(2, 3), jnp.ones(3, jnp.int32))",
        f"{la}.outer(jnp.arange(3), jnp.ones(2))",
        f"{la}.outer(jnp.ones((2, 2)), jnp.ones(2))",
        f"{la}.vecdot(jnp.arange(3.0), jnp.ones((2, 3)))",
        f"{la}.vecdot(jnp.array([1j, 2]), jnp.array([1j, 1]))",
        f"{la}.matmul({R}, ({R}).T)",
        f"{la}.tensordot({R}, ({R}).T, axes=1)",
        f"{la}.vector_norm({R}, ord=jnp.inf)",
        f"{la}.vector_norm({R}, ord=0, axis=1)",
        f"{la}.vector_norm({R}, ord=-1, keepdims=True)",
        f"{la}.norm({R}, ord='fro')",
        f"{la}.norm({R}, ord='nuc')",
        f"{la}.norm({R}, ord=2)",
        f"{la}.norm({R}, ord=-2)",
        f"{la}.norm({R}, ord=1, axis=0)",
        f"{la}.norm({R}, ord='fro', axis=0)",
        f"{la}.norm({R}, ord=3)",
        f"{la}.norm({R}, axis=(0, 1, 2))",
        f"{la}.norm(jnp.arange(3.0), ord='fro')",
        f"{la}.cond({A}, p=1)",
        f"{la}.cond({A}, p='fro')",
        f"{la}.cond(jnp.zeros((2, 2)), p=1)",
        f"{la}.matrix_rank({R}, rtol=0.5)",
        f"{la}.matrix_rank({R}, tol=0.5)",
        f"{la}.pinv({R}, rtol=0.5)",
        f"{la}.pinv({A}, hermitian=True)",
        f"{la}.eigh({A}, UPLO='U')",
        f"{la}.eigh({A}, UPLO='X')",
        f"{la}.eigh({A}, symmetrize_input=False)",
        f"{la}.cholesky({A}, upper=True)",
        f"{la}.cholesky(-{A})",
        f"{la}.qr({R}, mode='complete')",
        f"{la}.qr({R}, mode='r')",
        f"{la}.qr({R}, mode='raw')",
        f"{la}.qr({R}, mode='x')",
        f"{la}.qr(({R}).T, mode='reduced')",
        f"{la}.svd({R}, full_matrices=False)",
        f"{la}.svd({R}, compute_uv=False)",
        f"{la}.svd({R}, hermitian=True)",
        f"{la}.eig({A})",
        f"{la}.slogdet({A}, method='qr')",
        f"{la}.slogdet(-{A})",
        f"{la}.slogdet({A}, method='x')",
        f"{la}.det(jnp.array([[1, 2], [2, 4]]))",
        f"{la}.inv(jnp.array([[1.0, 2.0], [2.0, 4.0]]))",
        f"{la}.tensorsolve(jnp.eye(6).reshape(2, 3, 6), jnp.ones((2, 3)))",
        f"{la}.tensorinv(jnp.eye(6).reshape(2, 3, 6), ind=2)",
        f"{la}.tensorinv(jnp.eye(6).reshape(6, 2, 3), ind=1)",
        f"{la}.diagonal({B}, offset=1)",
        f"{la}.trace({B}, offset=-1, dtype=jnp.int32)",
        f"{la}.matrix_norm({R}, ord=1, keepdims=True)",
    ]
    v = "jnp.arange(8.0)"
    m = "jnp.arange(12.0).reshape(3, 4)"
    iv = "jnp.arange(8)"
    ff = "jnp.fft"
    for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        for a in (
            v,
            iv,
            m,
            "jnp.arange(8.0, dtype=jnp.float16)",
            "jnp.arange(4) * (1 + 1j)",
            "jnp.array([True, False])",
            "jnp.float32(1)",
            "jnp.zeros((0,))",
        ):
            c.append(f"{ff}.{fn}({a})")
        for kw in (
            "n=5",
            "n=12",
            "n=0",
            "n=-1",
            "n=1",
            "axis=0",
            "axis=2",
            "axis=-2",
            "norm='ortho'",
            "norm='forward'",
            "norm='backward'",
            "norm='bad'",
            "norm=None",
        ):
            c.append(f"{ff}.{fn}({m}, {kw})")
    for fn in ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"):
        for kw in (
            "",
            "s=(2, 3)",
            "s=(5, 6)",
            "axes=(0,)",
            "axes=(1, 0)",
            "axes=(0, 0)",
            "s=(2,), axes=(1,)",
            "s=(2, 3), axes=(0,)",
            "norm='ortho'",
            "axes=(2,)",
            "s=(0, 2)",
            "axes=()",
        ):
            for a in (m, "jnp.arange(24).reshape(2, 3, 4)"):
                c.append(f"{ff}.{fn}({a}{', ' + kw if kw else ''})")
        c.append(f"{ff}.{fn}(jnp.arange(3.0))")
    for fn in ("fftfreq", "rfftfreq"):
        for a in (
            "8",
            "7",
            "8, 0.1",
            "8, d=2",
            "0",
            "1",
            "8, dtype=jnp.float16",
            "8.0",
            "jnp.int32(8)",
            "8, d=jnp.array(0.5)",
            "-2",
        ):
            c.append(f"{ff}.{fn}({a})")
    for fn in ("fftshift", "ifftshift"):
        for a in (
            v,
            m,
            f"{m}, axes=0",
            f"{m}, axes=(0, 1)",
            f"{m}, axes=5",
            "jnp.float32(2)",
            "[1, 2, 3]",
        ):
            c.append(f"{ff}.{fn}({a})")
    return c
