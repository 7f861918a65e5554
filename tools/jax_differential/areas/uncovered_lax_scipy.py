"""jax.lax, jax.scipy, jax.tree_util and top-level jax names no other area calls (session
35's survey): lax's comparison and elementwise functions called directly (ge/gt/le, ceil,
cosh, reciprocal, atan, the inverse trigonometric and log/exp ones), empty, batch_matmul,
bitwise_not, scatter_max/min/mul/sub/apply, the dimension-number tuples and primitives as
programs inspect them; scipy.special's boxcox, boxcox1p, dawsn, erfcx, fresnel, owens_t,
sici and wofz; scipy.sparse.linalg's cg, gmres and bicgstab; tree_util's key paths,
tree_broadcast, tree_reduce_associative, flatten_one_level_with_keys and is_tree_node; the top
level's float0, process_indices, host_count/host_id, clear_caches; over dtypes, weak scalars,
jit/vmap/grad and the usual mistakes.
"""

# ruff: noqa: E501

_VALS = (
    "jnp.array([0.5, 1.5, -2.5])",
    "jnp.array([1, -2, 3], jnp.int32)",
    "jnp.array([1, 2], jnp.uint8)",
    "jnp.array([0.25, -1.5], jnp.float16)",
    "jnp.array([0.25, -1.5], jnp.bfloat16)",
    "jnp.array([1.5 + 0.5j, -0.5 - 2j], jnp.complex64)",
    "jnp.array([True, False])",
    "2.5",
    "jnp.float32(0.5)",
)


def _lax_elementwise() -> list[str]:
    c = []
    for f in (
        "ceil",
        "cosh",
        "reciprocal",
        "atan",
        "acos",
        "asin",
        "acosh",
        "asinh",
        "atanh",
        "cos",
        "sin",
        "sinh",
        "log",
        "log1p",
        "expm1",
        "square",
        "bitwise_not",
    ):
        for v in _VALS:
            c.append(f"lax.{f}({v})")
        c.append(f"jax.jit(lax.{f})(jnp.array([0.5, 0.75]))")
        if f != "bitwise_not":
            c.append(f"jax.grad(lambda x: lax.{f}(x))(0.5 if '{f}' != 'acosh' else 1.5)")
            c.append(f"jax.vmap(lax.{f})(jnp.array([[0.2, 0.3]]))")
    c += [
        "lax.bitwise_not(jnp.array([0, 255], jnp.uint8))",
        "lax.bitwise_not(jnp.array([0, -1, 7], jnp.int8))",
        "lax.bitwise_not(jnp.array([0, 5], jnp.int4))",
        "lax.bitwise_not(3)",
    ]
    for f in ("ge", "gt", "le", "lt", "eq", "ne"):
        for a, b in (
            ("jnp.array([1.0, 2.0, 3.0])", "jnp.array([2.0, 2.0, 2.0])"),
            ("jnp.array([1, 2], jnp.int8)", "jnp.array([2, 1], jnp.int8)"),
            ("jnp.array([1, 2], jnp.uint32)", "jnp.array([2, 1], jnp.uint32)"),
            ("jnp.array([True, False])", "jnp.array([False, False])"),
            ("jnp.array([jnp.nan, 1.0])", "jnp.array([jnp.nan, jnp.nan])"),
            ("jnp.array([1.0, 2.0], jnp.float16)", "1.5"),
            ("jnp.array([1, 2], jnp.int32)", "2"),
            ("2.0", "jnp.float32(1)"),
            ("jnp.array([1.0, 2.0])", "jnp.array([1, 2])"),
            ("jnp.ones(2)", "jnp.ones(3)"),
            ("jnp.array([1 + 1j])", "jnp.array([1 + 2j])"),
            ("jnp.array([-0.0])", "jnp.array([0.0])"),
        ):
            c.append(f"lax.{f}({a}, {b})")
        c.append(f"jax.jit(lax.{f})(jnp.arange(3.0), jnp.ones(3))")
        c.append(f"jax.vmap(lax.{f}, in_axes=(0, None))(jnp.arange(3.0), 1.0)")
        c.append(f"jax.grad(lambda x: jnp.where(lax.{f}(x, 1.0), x, 0.0))(2.0)")
    return c


def _lax_structural() -> list[str]:
    sc = "lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))"
    c = [
        "lax.empty((2, 3), jnp.float32).shape",
        "lax.empty((2,), jnp.int8).dtype",
        "lax.empty((), jnp.bool_).shape",
        "jax.jit(lambda: lax.empty((2, 2), jnp.float16))().dtype",
        "lax.batch_matmul(jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)))",
        "lax.batch_matmul(jnp.arange(24.0).reshape(2, 3, 4), jnp.arange(8.0).reshape(2, 4, 1))",
        "lax.batch_matmul(jnp.ones((3, 4)), jnp.ones((4, 5)))",
        "lax.batch_matmul(jnp.ones((2, 3, 4), jnp.int8), jnp.ones((2, 4, 5), jnp.int8))",
        "lax.batch_matmul(jnp.ones((2, 3, 4)), jnp.ones((3, 4, 5)))",
        "lax.batch_matmul(jnp.ones((2, 3, 4), jnp.bfloat16), jnp.ones((2, 4, 2), jnp.bfloat16), precision=lax.Precision.HIGHEST)",
        "lax.batch_matmul(jnp.ones((1, 2, 3, 4)), jnp.ones((1, 2, 4, 5))).shape",
        "jax.grad(lambda a: lax.batch_matmul(a, jnp.ones((2, 3, 1))).sum())(jnp.ones((2, 2, 3)))",
    ]
    for f in ("scatter_max", "scatter_min", "scatter_mul", "scatter_sub"):
        c += [
            f"lax.{f}(jnp.array([1.0, 5.0, 3.0]), jnp.array([[0], [2], [0]]), jnp.array([4.0, 2.0, 0.5]), {sc})",
            f"lax.{f}(jnp.array([1, 5, 3], jnp.int32), jnp.array([[1]]), jnp.array([7], jnp.int32), {sc})",
            f"lax.{f}(jnp.array([1, 5, 3], jnp.uint8), jnp.array([[1], [1]]), jnp.array([7, 2], jnp.uint8), {sc})",
            f"lax.{f}(jnp.array([1.0, 5.0, 3.0], jnp.float16), jnp.array([[5]]), jnp.array([7.0], jnp.float16), {sc})",
            f"lax.{f}(jnp.array([1.0, 5.0, 3.0]), jnp.array([[5]]), jnp.array([7.0]), {sc}, mode=lax.GatherScatterMode.CLIP)",
            f"lax.{f}(jnp.array([1.0, 5.0, 3.0]), jnp.array([[0], [0]]), jnp.array([4.0, 2.0]), {sc}, indices_are_sorted=True, unique_indices=False)",
            f"jax.jit(lambda x, u: lax.{f}(x, jnp.array([[0], [2]]), u, {sc}))(jnp.arange(3.0), jnp.array([9.0, -1.0]))",
            f"jax.grad(lambda x, u: lax.{f}(x, jnp.array([[0], [2]]), u, {sc}).sum(), argnums=(0, 1))(jnp.arange(1.0, 4.0), jnp.array([9.0, -1.0]))",
            f"jax.vmap(lambda x: lax.{f}(x, jnp.array([[1]]), jnp.array([2.0]), {sc}))(jnp.ones((2, 3)))",
            f"lax.{f}(jnp.ones(3), jnp.array([[0]]), jnp.ones(3), {sc})",
            f"lax.{f}(jnp.ones(3), jnp.array([[0]]), jnp.ones(1, jnp.int32), {sc})",
        ]
    c += [
        f"lax.scatter_apply(jnp.arange(4.0), jnp.array([[1], [3]]), jnp.sin, {sc}, update_shape=(2,))",
        f"lax.scatter_apply(jnp.arange(4), jnp.array([[1], [1]]), lambda x: x * 2, {sc}, update_shape=(2,))",
        f"lax.scatter_apply(jnp.arange(4.0), jnp.array([[9]]), jnp.exp, {sc}, update_shape=(1,), mode='clip')",
        f"jax.jit(lambda x: lax.scatter_apply(x, jnp.array([[0]]), jnp.negative, {sc}, update_shape=(1,)))(jnp.arange(3.0))",
        f"jax.grad(lambda x: lax.scatter_apply(x, jnp.array([[0], [2]]), jnp.square, {sc}, update_shape=(2,)).sum())(jnp.arange(1.0, 4.0))",
        "lax.ConvGeneralDilatedDimensionNumbers(lhs_spec=(0, 1, 2, 3), rhs_spec=(0, 1, 2, 3), out_spec=(0, 1, 2, 3))",
        "lax.ConvGeneralDilatedDimensionNumbers._fields",
        "lax.conv_dimension_numbers((1, 3, 5, 5), (2, 3, 3, 3), ('NCHW', 'OIHW', 'NCHW'))",
        "lax.conv_general_dilated(jnp.ones((1, 2, 5, 5)), jnp.ones((3, 2, 3, 3)), (1, 1), 'VALID', dimension_numbers=lax.ConvGeneralDilatedDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3))).shape",
        "lax.dot_general(jnp.ones((2, 3)), jnp.ones((3, 4)), (((1,), (0,)), ((), ())))",
        "jax.tree.structure(lax.DotDimensionNumbers)",
        "lax.sin_p.name, lax.add_p.name, lax.scan_p.name, lax.cond_p.name, lax.while_p.name",
        "lax.dot_general_p.name, lax.reduce_sum_p.name, lax.convert_element_type_p.name, lax.integer_pow_p.name",
        "lax.sin_p.multiple_results, lax.scan_p.multiple_results, lax.sort_p.multiple_results",
        "lax.sin_p.bind(jnp.array([0.5, 1.0]), accuracy=None)",
        "lax.add_p.bind(jnp.array([1.0]), jnp.array([2.0]))",
        "lax.integer_pow_p.bind(jnp.array([2.0, 3.0]), y=3)",
        "lax.convert_element_type_p.bind(jnp.array([1.7]), new_dtype=jnp.dtype('int32'), weak_type=False, sharding=None)",
        "[e.primitive is lax.sin_p for e in jax.make_jaxpr(jnp.sin)(1.0).eqns]",
        "[e.primitive is lax.mul_p for e in jax.make_jaxpr(lambda x: x * x)(1.0).eqns]",
        "[str(e.primitive) for e in jax.make_jaxpr(lambda x: lax.cumsum(x) + lax.cummax(x))(jnp.ones(3)).eqns]",
        "[e.primitive in (lax.cumsum_p, lax.cummax_p) for e in jax.make_jaxpr(lambda x: lax.cumsum(x) + lax.cummax(x))(jnp.ones(3)).eqns]",
        "str(lax.pow_p), repr(lax.exp2_p), str(lax.select_n_p)",
    ]
    return c


def _scipy() -> list[str]:
    sp = "jsp.special"
    c = []
    for x in (
        "jnp.array([0.5, 1.0, 2.5, 10.0])",
        "jnp.array([-3.0, -0.5, 0.0, 0.5, 3.0, 30.0])",
        "jnp.array([1.0, 2.0], jnp.float16)",
        "jnp.array([1, 2, 3])",
        "2.0",
        "jnp.array([jnp.inf, -jnp.inf, jnp.nan])",
    ):
        for f in ("dawsn", "erfcx", "fresnel", "sici"):
            c.append(f"{sp}.{f}({x})")
        c.append(f"{sp}.boxcox({x}, 0.5)")
        c.append(f"{sp}.boxcox1p({x}, 0.0)")
    c += [
        f"{sp}.boxcox(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, -1.0]))",
        f"{sp}.boxcox(jnp.array([0.0, -1.0]), 2.0)",
        f"{sp}.boxcox1p(jnp.array([-1.0, -0.5, 1e-8]), jnp.array([0.5, 0.0, 1e-9]))",
        f"{sp}.boxcox(2, 1)",
        f"jax.grad({sp}.boxcox)(2.0, 0.5)",
        f"jax.grad({sp}.boxcox1p, argnums=1)(2.0, 0.5)",
        f"jax.grad({sp}.dawsn)(1.0)",
        f"jax.grad({sp}.erfcx)(0.5)",
        f"jax.vmap({sp}.erfcx)(jnp.array([0.1, 5.0]))",
        f"jax.jit({sp}.fresnel)(jnp.array([0.5, 4.0]))",
        f"jax.jit({sp}.sici)(jnp.array([0.5, 40.0]))",
        f"{sp}.erfcx(jnp.array([-30.0, 100.0, 1e5]))",
        f"{sp}.owens_t(jnp.array([0.5, 1.0, -2.0]), jnp.array([0.25, 1.0, 3.0]))",
        f"{sp}.owens_t(0.0, 1.0)",
        f"{sp}.owens_t(jnp.array([1.0, 2.0]), jnp.inf)",
        f"{sp}.owens_t(jnp.array([10.0]), jnp.array([0.5]))",
        f"{sp}.owens_t(jnp.array([1.0], jnp.float16), 0.5)",
        f"jax.jit({sp}.owens_t)(jnp.array([0.3]), jnp.array([-0.7]))",
        f"{sp}.wofz(jnp.array([0.5 + 0.5j, 2.0 - 1.0j, -3.0 + 0.1j]))",
        f"{sp}.wofz(jnp.array([1.0, 0.0]))",
        f"{sp}.wofz(jnp.array([0.5 + 0.5j], jnp.complex64))",
        f"{sp}.wofz(1j)",
        f"jax.jit({sp}.wofz)(jnp.array([5.0 + 5.0j, 0.01 + 0.01j]))",
    ]
    A = "jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])"
    N = "jnp.array([[3.0, 1.0, 0.5], [-1.0, 4.0, 0.0], [0.5, 1.0, 2.0]])"
    b = "jnp.array([1.0, 2.0, 3.0])"
    for f in ("cg", "gmres", "bicgstab"):
        M = A if f == "cg" else N
        c += [
            f"jsp.sparse.linalg.{f}({M}, {b})[0]",
            f"jsp.sparse.linalg.{f}({M}, {b})[1]",
            f"jsp.sparse.linalg.{f}(lambda v: {M} @ v, {b}, tol=1e-8)[0]",
            f"jsp.sparse.linalg.{f}({M}, {b}, x0=jnp.ones(3), maxiter=50)[0]",
            f"jsp.sparse.linalg.{f}({M}, {b}, M=lambda v: v / jnp.diag({M}))[0]",
            f"jsp.sparse.linalg.{f}({M}, {{'a': {b}}}['a'], atol=1e-6)[0]",
            f"jsp.sparse.linalg.{f}(lambda t: {{'a': t['a'] * 2.0, 'b': t['b'] * 4.0}}, {{'a': jnp.ones(2), 'b': jnp.arange(3.0)}})[0]",
            f"jax.jit(lambda bb: jsp.sparse.linalg.{f}({M}, bb)[0])({b})",
            f"jax.grad(lambda bb: jsp.sparse.linalg.{f}({M}, bb)[0].sum())({b})",
            f"jsp.sparse.linalg.{f}({M}, jnp.ones(2))",
            f"jsp.sparse.linalg.{f}({M}, {b}.astype(jnp.float16))[0]",
        ]
    c += [
        f"jsp.sparse.linalg.gmres({N}, {b}, restart=2, solve_method='incremental')[0]",
        f"jsp.sparse.linalg.gmres({N}, {b}, restart=2, solve_method='batched')[0]",
        f"jsp.sparse.linalg.gmres({N}, {b}, solve_method='bad')",
        f"jsp.sparse.linalg.cg({A}.astype(jnp.complex64), {b}.astype(jnp.complex64))[0]",
    ]
    return c


def _trees_and_top_level() -> list[str]:
    t = "{'a': [1, 2.0], 'b': (jnp.ones(2), None)}"
    return [
        f"jtu.flatten_one_level_with_keys({t})",
        "jtu.flatten_one_level_with_keys([1, (2, 3)])",
        "len(jtu.flatten_one_level_with_keys(Pt(1, 2))[0])",
        "jtu.flatten_one_level_with_keys(jnp.ones(2))",
        "jtu.flatten_one_level_with_keys(None)",
        "[jtu.is_tree_node(x) for x in (1, [1], (), {}, jnp.ones(2), Pt(1, 2), 'a')]",
        "[jtu.is_tree_node(t) for t in (int, list, tuple, dict, type(None), Pt, collections.OrderedDict, collections.defaultdict, type(jnp.ones(2)), str)]",
        "jtu.is_tree_node(None)",
        "jtu.flatten_one_level(Pt(1, 2))",
        "jtu.flatten_one_level(collections.OrderedDict(b=1, a=2))",
        "jtu.flatten_one_level_with_keys(collections.OrderedDict(b=1, a=2))",
        "jtu.flatten_one_level_with_keys(collections.defaultdict(int, {'b': 1, 'a': 2}))",
        "jtu.flatten_one_level_with_keys(Pt(1, 2))[1]",
        "jtu.tree_broadcast([1, 2], [(3, 4), {'a': 5}])",
        "jtu.tree_broadcast({'a': 1, 'b': 2}, {'a': (1, 2), 'b': [3]})",
        "jtu.tree_broadcast(1, {'x': [1, 2]})",
        "jtu.tree_broadcast([1, 2], [3, 4, 5])",
        "jtu.tree_broadcast([1, 2], [(3, 4), None], is_leaf=lambda x: x is None)",
        "jtu.tree_reduce_associative(operator.add, [1, 2, 3, 4, 5])",
        "jtu.tree_reduce_associative(lambda a, b: a * b, {'a': jnp.float32(2), 'b': [3, 4]})",
        "jtu.tree_reduce_associative(operator.add, [])",
        "jtu.tree_reduce_associative(operator.add, [], identity=0)",
        "jtu.tree_reduce_associative(jnp.maximum, [jnp.ones(2), jnp.arange(2.0), -jnp.ones(2)])",
        "jtu.tree_reduce_associative(operator.add, [[1], [2, None]], is_leaf=lambda x: x is None)",
        "isinstance(jtu.keystr, object) and jtu.KeyEntry is not None and jtu.KeyPath is not None",
        "jtu.PyTreeDef is type(jtu.tree_structure([1]))",
        "isinstance(jtu.tree_structure({'a': 1}), jtu.PyTreeDef)",
        "jtu.default_registry.flatten([1, {'a': 2}])[0]",
        "jtu.default_registry.flatten([1, {'a': 2}])[1] == jtu.tree_structure([1, {'a': 2}])",
        "jtu.tree_structure([1, 2], registry=jtu.default_registry)",
        "jnp.zeros(2, jax.float0)",
        "jax.float0",
        "jnp.zeros((), dtype=jax.float0).dtype == jax.float0",
        "jax.grad(lambda x, i: x * i, allow_int=True, argnums=(0, 1))(2.0, 3)[1].dtype == jax.float0",
        "jax.vjp(lambda i: i * 2, 3)[1](6)",
        "jax.process_indices()",
        "jax.host_count(), jax.host_id(), jax.process_count(), jax.process_index()",
        "jax.clear_caches()",
        "jax.jit(lambda x: x + 1)(1) if jax.clear_caches() is None else 0",
        "jax.live_arrays() == [] or isinstance(jax.live_arrays(), list)",
        "jax.copy_to_host_async(jnp.arange(3)) is None or True",
        "[jnp.asarray(x) for x in jax.tree.leaves(jax.device_get({'a': jnp.arange(2)}))]",
        "with jax.debug_infs(True):\n    out = jnp.log(jnp.array([0.0, 1.0]))",
        "with jax.debug_infs(True):\n    out = jax.jit(lambda x: 1.0 / x)(jnp.array([0.0]))",
        "with jax.debug_infs(False):\n    out = jnp.log(jnp.array([0.0, 1.0]))",
        "with jax.debug_nans(True):\n    out = jnp.sqrt(jnp.array([4.0, 1.0]))",
        "with jax.numpy_rank_promotion('raise'):\n    out = jnp.ones(3) + jnp.ones((2, 3))",
        "with jax.numpy_rank_promotion('raise'):\n    out = jnp.ones(3) + 1.0",
        "with jax.numpy_rank_promotion('bad'):\n    out = 1",
        "with jax.default_matmul_precision('float32'):\n    out = jnp.ones((2, 2)) @ jnp.ones((2, 2))",
        "with jax.default_matmul_precision('nonsense'):\n    out = 1",
        "with jax.checking_leaks():\n    out = jax.jit(lambda x: x * 2)(3.0)",
        "with jax.log_compiles(True):\n    out = jax.jit(lambda x: x + 2)(1.0)",
        "with jax.explain_cache_misses(True):\n    out = jax.jit(lambda x: x - 2)(1.0)",
        "with jax.enable_checks(True):\n    out = jnp.sum(jnp.arange(3))",
        "with jax.numpy_dtype_promotion('strict'):\n    out = jnp.ones(2, jnp.int32) + jnp.ones(2, jnp.float32)",
        "with jax.numpy_dtype_promotion('strict'):\n    out = jnp.ones(2, jnp.float16) + 1.0",
        "with jax.transfer_guard('disallow'):\n    out = jnp.ones(2) + 1",
        "with jax.legacy_prng_key('error'):\n    out = random.normal(random.PRNGKey(0))",
        "with jax.legacy_prng_key('error'):\n    out = random.normal(random.key(0))",
        "with jax.legacy_prng_key('allow'):\n    out = random.uniform(random.PRNGKey(3), (2,))",
        "with jax.enable_custom_prng(True):\n    out = random.key_data(random.PRNGKey(5))",
        "with jax.softmax_custom_jvp(True):\n    out = jax.grad(lambda x: jax.nn.softmax(x)[0])(jnp.arange(3.0))",
        "jax.config.update('jax_legacy_prng_key', 'nope')",
        "u = jax.make_user_context(1)\nf = jax.jit(lambda x: x + u.value)\nwith u(5):\n    out = f(1)",
    ]


def _mapped_and_custom() -> list[str]:
    m = "jax.make_mesh((1,), ('i',), axis_types=(jax.sharding.AxisType.Auto,))"
    sm = "jax.shard_map"
    P = "jax.sharding.PartitionSpec"
    return [
        f"{sm}(lambda x: lax.pcast(x, 'i', to='varying'), mesh={m}, in_specs={P}(), out_specs={P}('i'))(jnp.arange(2.0))",
        f"{sm}(lambda x: lax.pcast({{'a': x, 'b': x * 2}}, ('i',), to='varying'), mesh={m}, in_specs={P}(), out_specs={P}('i'))(jnp.arange(2.0))",
        f"{sm}(lambda x: lax.pcast(x, (), to='varying'), mesh={m}, in_specs={P}(), out_specs={P}())(jnp.arange(2.0))",
        f"{sm}(lambda x: lax.pcast(x, {{'i'}}, to='varying'), mesh={m}, in_specs={P}(), out_specs={P}('i'))(jnp.arange(2.0))",
        # (JAX's message prints a set: its order changes from process to process)
        f"try:\n    {sm}(lambda x: lax.pcast(x, 'i', to='bad'), mesh={m}, in_specs={P}(), out_specs={P}('i'))(jnp.arange(2.0))\nexcept ValueError as e:\n    out = str(e)[:40]",
        f"{sm}(lambda x: lax.pcast(lax.pcast(x, 'i', to='varying'), 'i', to='varying'), mesh={m}, in_specs={P}(), out_specs={P}('i'))(jnp.arange(2.0))",
        f"{sm}(lambda x: lax.pcast(x, 'i', to='varying'), mesh={m}, in_specs={P}(), out_specs={P}('i'), check_vma=False)(jnp.arange(2.0))",
        f"str(jax.make_jaxpr({sm}(lambda x: lax.pcast(x, 'i', to='varying') * 2, mesh={m}, in_specs={P}(), out_specs={P}('i')))(jnp.arange(2.0)))",
        f"jax.grad(lambda w: {sm}(lambda x, w: lax.pcast(w, 'i', to='varying') * x, mesh={m}, in_specs=({P}('i'), {P}()), out_specs={P}('i'))(jnp.arange(4.0), w).sum())(2.0)",
        "lax.pcast(jnp.ones(2), 'i', to='varying')",
        f"with jax.set_mesh({m}):\n    out = jax.smap(lambda x: x * 2, in_axes=0, out_axes=0, axis_name='i')(jnp.arange(4.0))",
        f"with jax.set_mesh({m}):\n    out = jax.smap(lambda x, y: x + y, in_axes=(0, None), out_axes=0, axis_name='i')(jnp.arange(4.0), 1.0)",
        f"with jax.set_mesh({m}):\n    out = jax.smap(lambda x: lax.psum(x.sum(), 'i'), in_axes=1, out_axes=None, axis_name='i')(jnp.ones((2, 4)))",
        f"with jax.set_mesh({m}):\n    out = jax.smap(lambda x: x, in_axes=0, out_axes=-1, axis_name='i')(jnp.ones((2, 3)))",
        f"with jax.set_mesh({m}):\n    out = jax.smap(lambda x: x, out_axes=0, axis_name='i')(jnp.ones(2))",
        f"with jax.set_mesh({m}):\n    out = jax.jit(jax.smap(lambda x: x * 3, in_axes=0, out_axes=0, axis_name='i'))(jnp.arange(2.0))",
        "jax.smap(lambda x: x, in_axes=[0], out_axes=0, axis_name='i')",
        "jax.smap(lambda x: x, in_axes=0, out_axes=0, axis_name=('i',))",
        "jax.smap(lambda x: x, in_axes=0, out_axes='0', axis_name='i')",
        "f = jax.custom_jvp(lambda x, y: x * y)\nf.defjvp(lambda p, t: (p[0] * p[1], t[1]), symbolic_zeros=True)\nout = (jax.grad(f)(2.0, 3.0), jax.grad(f, argnums=1)(2.0, 3.0), jax.jvp(f, (2.0, 3.0), (1.0, 0.0)))",
        "f = jax.custom_jvp(lambda x, y: x * y)\nf.defjvp(lambda p, t: (p[0] * p[1], t[0] * 2.0), symbolic_zeros=True)\nout = jax.grad(f, argnums=1)(2.0, 3.0)",
        "f = jax.custom_jvp(lambda x: jnp.sin(x))\nf.defjvp(lambda p, t: (jnp.sin(p[0]), jnp.cos(p[0]) * t[0]), symbolic_zeros=True)\nout = (jax.grad(f)(1.0), jax.jit(jax.grad(f))(1.0), jax.vmap(jax.grad(f))(jnp.arange(3.0)))",
        "jax.jit(lambda x: jax.grad(lambda y: (y * x).sum())(jnp.ones(2)))(jnp.arange(2.0))",
    ]


def cases() -> list[str]:
    return (
        _lax_elementwise()
        + _lax_structural()
        + _scipy()
        + _trees_and_top_level()
        + _mapped_and_custom()
    )
