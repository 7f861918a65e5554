"""Indexing and `.at[]` (`indexing`): integer, slice, ellipsis, None, boolean and array
indices, out-of-bounds modes, and the `.at[]` updates with their modes, dtypes and errors.
"""


def cases() -> list[str]:
    x = "I34"
    idx = [
        "-1",
        "-3",
        "-4",
        "3",
        "5",
        "(0, -1)",
        "(0, 4)",
        "(-4, 0)",
        "None",
        "(None, 1)",
        "(1, None)",
        "(..., None)",
        "(None, ..., None, 1)",
        "(1, None, slice(None, None, 2))",
        "(slice(None), [0, 2])",
        "([0, 1], None, [1, 2])",
        "([0, 1], slice(None), None)",
        "(0, ..., [1, 2])",
        "([0, 2], ..., [1, 3])",
        "(..., ...)",
        "(None, None, ..., 0)",
        "jnp.array(5)",
        "jnp.array(-5)",
        "jnp.array([0, 5, -1, -5])",
        "jnp.array([[0], [2]])",
        "(jnp.array([0, 5]), jnp.array([-9, 1]))",
        "jnp.int8(-1)",
        "np.uint32(2)",
        "jnp.uint8(200)",
        "True",
        "False",
        "(True, 0)",
        "(None, False)",
        "jnp.array(True)",
        "jnp.array([True, False, True])",
        "(slice(None), jnp.array([True, False, True, False]))",
        "(..., jnp.array([True, False, True, False]))",
        "jnp.array([True, False])",
        "I34 > 5",
        "I34 > 100",
        "(I34 > 5)[0]",
        "[True, False, True]",
        "[[0, 1], [1, 2]]",
        "[0, 1]",
        "(0, 1)",
        "[0, [1, 2]]",
        "1.5",
        "jnp.array(1.0)",
        "jnp.array([1.0])",
        "'a'",
        "slice(None, None, 0)",
        "slice(10, -10, -1)",
        "slice(-100, 100)",
        "(slice(1, 2), slice(None, None, -1))",
        "jnp.array([], dtype=jnp.int32)",
        "[]",
        "((),)",
        "(0, 0, 0)",
        "(..., 0, ...)",
        "Ellipsis",
        "jnp.arange(3)[:, None]",
        "(jnp.arange(3)[:, None], jnp.arange(4))",
        "(jnp.arange(2)[:, None], slice(1, 3))",
        "jnp.array([2**31 - 1])",
        "jnp.array([-(2**31)])",
        "np.array([1, 2], np.int64)",
        "jnp.array([1, 2], jnp.uint8)",
        "jnp.array([1, 2], jnp.int16)",
    ]
    c = [f"{x}[{i}]" for i in idx]
    c += [f"{x}.at[{i}].get()" for i in idx[:30]]
    modes = [
        "",
        "mode='fill'",
        "mode='fill', fill_value=-1",
        "mode='clip'",
        "mode='drop'",
        "mode='promise_in_bounds'",
        "mode='bogus'",
        "mode='fill', fill_value=2.5",
    ]
    for i in ("jnp.array([0, 5, -1, -5])", "jnp.array(5)", "(0, jnp.array([-5, 3, 4, 9]))", "3"):
        for m in modes:
            if m or i not in idx[:30]:  # idx[:30]'s plain .get() calls are above
                c.append(f"{x}.at[{i}].get({m})")
            c.append(f"X34.at[{i}].get({m})")
    c.append("X34.at[jnp.array([0, 5])].get(mode='fill', fill_value=jnp.nan)")
    c.append("jnp.arange(4, dtype=jnp.uint8).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("jnp.arange(4.0, dtype=jnp.float16).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("jnp.array([True, False]).at[jnp.array([0, 7])].get(mode='fill')")
    c.append("(jnp.arange(4) * (1 + 1j)).at[jnp.array([0, 7])].get(mode='fill')")
    c.append(
        "jnp.arange(4, dtype=jnp.int8).at[jnp.array([0, 7])].get(mode='fill', fill_value=1000)"
    )
    c.append("jnp.arange(4, dtype=jnp.uint8).at[jnp.array([0, 7])].get(mode='fill', fill_value=-1)")
    ops = ["set", "add", "multiply", "divide", "power", "min", "max", "subtract"]
    for op in ops:
        for arr in (
            "I34",
            "X34",
            "jnp.arange(4, dtype=jnp.uint8)",
            "jnp.arange(4, dtype=jnp.int8)",
            "jnp.array([True, False, True])",
            "jnp.arange(3.0, dtype=jnp.float16)",
        ):
            for v in ("2", "2.7", "-1", "jnp.float32(2.5)", "True", "1j"):
                c.append(f"{arr}.at[1].{op}({v})")
    for op in ("set", "add", "min", "max", "multiply"):
        for i in (
            "jnp.array([0, 5, -1, -5])",
            "jnp.array([0, 0, 2])",
            "(jnp.array([0, 0]), jnp.array([1, 1]))",
        ):
            for m in (
                "",
                ", mode='clip'",
                ", mode='drop'",
                ", mode='fill'",
                ", mode='promise_in_bounds'",
                ", mode='bogus'",
                ", indices_are_sorted=True, unique_indices=True",
            ):
                c.append(f"X34.at[{i}].{op}(7.0{m})")
    c += [
        "X34.at[2:].set(jnp.arange(4.0))",
        "X34.at[2:].set(jnp.arange(3.0))",
        "X34.at[:, 1].set(jnp.ones((3, 1)))",
        "X34.at[:, 1].set(jnp.ones((1, 3)))",
        "X34.at[I34 > 5].set(0.0)",
        "X34.at[I34 > 5].set(jnp.arange(6.0))",
        "X34.at[I34 > 5].add(jnp.arange(5.0))",
        "X34.at[None].set(1.0)",
        "X34.at[..., None].add(1.0)",
        "X34.at[1].apply(jnp.sin)",
        "X34.at[jnp.array([0, 0, 1])].apply(lambda v: v + 1)",
        "I34.at[1].apply(lambda v: v * 2.5)",
        "X34.at[1].set(jnp.ones(4, jnp.int32))",
        "X34.at[1].set(jnp.ones(4, jnp.float16)).dtype",
        "I34.at[0].divide(2)",
        "I34.at[0].divide(0)",
        "I34.at[0].power(-1)",
        "I34.at[0].power(2.5)",
        "jnp.arange(3).at[1].set(2**40)",
        "jnp.arange(3, dtype=jnp.uint8).at[1].set(300)",
        "jnp.arange(3, dtype=jnp.uint8).at[1].set(jnp.int32(300))",
        "jnp.arange(3.0).at[1].set(jnp.nan)",
        "jnp.float32(3).at[()].set(1)",
        "jnp.float32(3).at[0].set(1)",
        "jnp.arange(3).at[1.0].set(1)",
        "jnp.arange(3).at['a'].set(1)",
        "jnp.arange(3).at[1].set(1, mode='fill')",
        "jnp.arange(3).at[1].set(1, mode='clip').weak_type",
        "X34.at[1].set(1.0).weak_type",
        "jnp.asarray(3.0).at[()].set(jnp.float32(1)).weak_type",
        "jnp.asarray(3.0).at[()].get().weak_type",
        "jnp.asarray(3.0)[()].weak_type",
        "jnp.asarray(3.0)[None].weak_type",
        "jnp.asarray([3.0])[jnp.array([0])]",
        "X34.at",
        "X34.at[1]",
        "X34.at[1].get",
        "jnp.arange(5)[jnp.array([1, 2]), jnp.array([1, 2])]",
        "jnp.arange(5)[jnp.array([True, True, False, False, True])]",
        "jnp.arange(5)[[True, True, False, False, True]]",
        "jnp.arange(5)[jnp.array([1, 2], dtype=jnp.bool_)]",
        "jnp.arange(5)[np.array([True, False, True, False, False])]",
        "jax.jit(lambda a, m: a[m])(jnp.arange(3), jnp.array([True, False, True]))",
        "jax.jit(lambda a, i: a[i])(jnp.arange(3), 7)",
        "jax.jit(lambda a, i: a[i])(jnp.arange(3), -7)",
        "jax.jit(lambda a, i: a.at[i].set(9))(jnp.arange(3), 7)",
        "jax.jit(lambda a, i: a[i:i + 2])(jnp.arange(5), 1)",
        "jax.jit(lambda a, i: lax.dynamic_slice_in_dim(a, i, 2))(jnp.arange(5), 4)",
        "jax.jit(lambda a, i: a[i, ::2])(I34, -1)",
    ]
    return c
