"""`core.new_ref` / `core.Ref` / `core.ref` against jax 0.10.2 (the values in the comments and
asserts are JAX's, recorded with the reference interpreter; JAX is not needed here)."""

import re

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.ref import RefEffectError, RefTransformWriteError, RefValueError
from core.ref_scope import RefArgumentError


def _eq(x, want, dtype="float32"):
    x = np.asarray(x)
    assert x.dtype == np.dtype(dtype)
    np.testing.assert_allclose(x, want, rtol=1e-6)


def test_eager_reads_writes_and_printing():
    r = core.new_ref(jnp.zeros(3))
    assert repr(r) == "Ref([0., 0., 0.], dtype=float32)"
    assert repr(r.aval) == "Ref{float32[3]}"
    assert (r.shape, r.dtype, r.ndim, r.size, len(r)) == ((3,), np.dtype("float32"), 1, 3, 3)
    r[1] = np.float64(5)  # canonicalized to float32, as JAX
    _eq(r[1], 5.0)
    _eq(r[1:], [5.0, 0.0])
    r[jnp.array([0, 2])] = jnp.array([7.0, 8.0])
    assert repr(r) == "Ref([7., 5., 8.], dtype=float32)"
    r.addupdate(1.0, 1)
    _eq(r[...], [7.0, 6.0, 8.0])
    _eq(core.ref.swap(r, 0, 5.0), 7.0)
    _eq(core.ref.get(r, 1), 6.0)
    _eq(core.ref.get(r), [5.0, 6.0, 8.0])
    core.ref.set(r, ..., jnp.ones(3))
    core.ref.addupdate(r, 0, 2.0)
    _eq(core.freeze(r), [3.0, 1.0, 1.0])
    assert core.free_ref(r) == ()
    w = core.new_ref(0.0)[...]
    assert w.aval.weak_type and w.dtype == np.float32  # JAX: weak_type=True
    i = core.new_ref(3)[...]
    assert i.aval.weak_type and i.dtype == np.int32


def test_values_are_copied_in():
    x = jnp.arange(4.0)
    r = core.new_ref(x)
    r[0] = 10.0
    _eq(x, [0.0, 1.0, 2.0, 3.0])  # JAX: x unchanged


def test_write_checks_match_jax():
    r = core.new_ref(jnp.zeros(3))
    with pytest.raises(ValueError, match=r"Invalid dtype for `swap`. Ref dtype: float32. Value"):
        r[...] = jnp.ones(3, jnp.int32)
    with pytest.raises(RefValueError, match=r"Invalid shape for `swap`. Ref shape: \(3,\)"):
        r[...] = jnp.ones(4)
    with pytest.raises(RefValueError, match=r"Value shape: \(\)"):
        r[...] = 2.0  # no broadcasting, as JAX
    with pytest.raises(TypeError, match="Error interpreting argument to new_ref"):
        core.new_ref([1.0, 2.0])
    with pytest.raises(TypeError):
        r + 1


def test_jit_closure_and_argument():
    x_ref = core.new_ref(jnp.zeros(3))

    @core.jit
    def f():
        x_ref[1] += 1.0

    f()
    f()
    assert repr(x_ref) == "Ref([0., 2., 0.], dtype=float32)"

    @core.jit
    def g(q, x):
        q[...] = q[...] * x
        return q[0] + 1

    _eq(g(x_ref, 3.0), 1.0)
    _eq(x_ref[...], [0.0, 6.0, 0.0])
    _eq(g(x_ref, 0.5), 1.0)  # the cached program reads the new value
    _eq(x_ref[...], [0.0, 3.0, 0.0])


def test_jit_cannot_return_a_ref():
    with pytest.raises(RefArgumentError, match="mutable array references cannot be returned"):
        core.jit(lambda: core.new_ref(1.0))()


def test_jit_refuses_refs_as_jax_does():
    # JAX 0.10.2's ValueErrors (docs/array_refs.md), the function named with its location
    r = core.new_ref(jnp.zeros(3))

    def returned(q):
        return q

    def twice(q, p):
        pass

    def closed_over(q):
        q[...] = r[...]

    where = "{} at " + __file__ + ":{}"
    lines = {f: f.__code__.co_firstlineno for f in (returned, twice, closed_over)}
    cases = [
        (returned, (r,), f"function {where.format('returned', lines[returned])} traced for "
         "jit returned a mutable array reference of type Ref{float32[3]}, but mutable array "
         "references cannot be returned.\n\nThe returned mutable array was passed in as the "
         "argument q."),
        (twice, (r, r), "only one reference to a mutable array may be passed as an argument "
         f"to a function, but when tracing {where.format('twice', lines[twice])} for jit the "
         "mutable array reference of type Ref{float32[3]} appeared at both q and p."),
        (closed_over, (r,), f"when tracing {where.format('closed_over', lines[closed_over])} "
         "for jit, a mutable array reference of type Ref{float32[3]} was both closed over and "
         "passed as the argument q"),
    ]  # fmt: skip
    for f, args, text in cases:
        with pytest.raises(RefArgumentError) as info:
            core.jit(f)(*args)
        assert isinstance(info.value, ValueError) and str(info.value) == text


def test_grad_vmap_of_refs_made_inside():
    def g(x):
        q = core.new_ref(0.0)
        q[...] = jnp.sin(x)
        return q[...]

    _eq(core.grad(g)(1.0), 0.5403023)

    def g3(x):
        q = core.new_ref(jnp.zeros(3))
        q[1] = x
        q[2] += x * 2
        return q[...].sum()

    _eq(core.grad(g3)(1.5), 3.0)
    _eq(core.jit(core.grad(g3))(1.5), 3.0)
    _eq(core.vmap(g3)(jnp.arange(3.0)), [0.0, 3.0, 6.0])


@pytest.mark.parametrize("jitted", [False, True])
def test_vmap_maps_ref_arguments(jitted):
    # docs/array_refs.md: each example sees a Ref of its slice (rank 0 here); what it writes
    # lands in the outer Ref (JAX 0.10.2: [[0, 64, 256], [64, 0, 64], [256, 64, 0]])
    def dist(x, y, out_ref):
        assert x.ndim == y.ndim == 1 and out_ref.ndim == 0
        out_ref[...] = jnp.sum((x - y) ** 2)

    vecs = jnp.arange(12.0).reshape(3, 4)
    out_ref = core.new_ref(jnp.zeros((3, 3)))
    f = core.vmap(core.vmap(dist, (0, None, 0)), (None, 0, 0))
    (core.jit(f) if jitted else f)(vecs, vecs, out_ref)
    v = np.arange(12.0).reshape(3, 4)
    _eq(out_ref[...], ((v[None, :, :] - v[:, None, :]) ** 2).sum(-1))
    # a Ref mapped along axis 1: column i gets example i's writes, the rest is kept
    cols = core.new_ref(jnp.ones((2, 3)))
    core.vmap(lambda x, r: r.__setitem__(0, x), in_axes=(0, 1))(jnp.arange(3.0), cols)
    _eq(cols[...], [[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])


def test_control_flow_threads_refs():
    acc = core.new_ref(0.0)

    def body(carry, x):
        acc[...] += x
        return carry + 1, x * 2

    (c, ys) = lax.scan(body, 0, jnp.arange(4.0))
    _eq(c, 4, "int32")
    _eq(ys, [0.0, 2.0, 4.0, 6.0])
    _eq(acc[...], 6.0)
    core.jit(lambda: lax.scan(body, 0, jnp.arange(4.0)))()
    _eq(acc[...], 12.0)
    lax.cond(True, lambda: acc.__setitem__(..., 5.0), lambda: None)
    _eq(acc[...], 5.0)
    lax.fori_loop(0, 3, lambda i, c: (acc.__setitem__(..., acc[...] + 1), c)[1], 0)
    _eq(acc[...], 8.0)
    core.jit(lambda: core.jit(lambda: acc.__setitem__(..., acc[...] * 2))())()
    _eq(acc[...], 16.0)


def test_writes_that_would_leak_a_tracer_are_refused():
    acc = core.new_ref(0.0)
    # JAX: "performing a set/swap operation with a differentiated value on a
    # non-differentiated array reference"; and the same with vmapped values.
    with pytest.raises(RefTransformWriteError) as info:
        core.grad(lambda x: (acc.__setitem__(..., x * 3), x * 2)[1])(1.0)
    assert str(info.value) == (
        "performing a set/swap operation with a differentiated value on a non-differentiated "
        "array reference of type Ref{float32[]}. Move the array reference to be an argument of "
        "the differentiated function?"
    )
    _eq(acc[...], 3.0)  # JAX's swap JVP rule wrote the primal before raising
    with pytest.raises(RefTransformWriteError) as info:
        core.vmap(lambda x: (acc.__setitem__(..., x), x)[1])(jnp.arange(3.0))
    assert str(info.value) == (
        "performing a set/swap operation with vmapped value on an unbatched array reference of "
        "type Ref{float32[]}. Move the array reference to be an argument to the vmapped "
        "function?"
    )
    with pytest.raises(RefEffectError, match="make_jaxpr"):
        core.make_jaxpr(lambda: acc.__setitem__(..., 1.0))()


def test_views_read_and_write_through_their_transforms():
    # jax 0.10.2 (a Ref passed to jit): the same meta, reads, bits and final value
    r = core.new_ref(jnp.arange(12.0).reshape(3, 4))
    meta = []

    @core.jit
    def f(r):
        v = r.at[1]
        meta.extend([v.shape, v.ndim, str(v.dtype)])
        v[...] = jnp.ones(4)
        r.at[:, 1:][0] += 10
        meta.append(r.T.shape)
        meta.append(r.T[0, 2])
        meta.append(r.reshape(2, 6)[1, :2])
        meta.append(r.at[2].reshape(2, 2)[1])
        return r.at[0].at[1:][...], r.at[:2].bitcast(jnp.int32)[0]

    nested, bits = f(r)
    assert meta[:4] == [(4,), 1, "float32", (4, 3)]
    np.testing.assert_array_equal(nested, [11.0, 12.0, 13.0])
    np.testing.assert_array_equal(bits[:2], [0, 1093664768])
    want = [[0.0, 11.0, 12.0, 13.0], [1.0, 1.0, 1.0, 1.0], [8.0, 9.0, 10.0, 11.0]]
    np.testing.assert_array_equal(r[...], want)
    msg = r"Ref shape: \(3, 4\). Expected shape: \(4,\). Value shape: \(3,\)"
    with pytest.raises(RefValueError, match=msg):
        core.jit(lambda r: r.at[1].__setitem__(..., jnp.ones(3)))(r)


def test_views_write_through_transposes_and_reshapes_eagerly_too():
    # JAX refuses these on the CPU (views of concrete Refs, writes through a transpose); numbax
    # writes them back
    r = core.new_ref(jnp.zeros((2, 3)))
    r.T[2, 0] = 5.0
    r.reshape(-1)[1] = 7.0
    r.at[1].at[1:][...] = jnp.array([1.0, 2.0])
    core.ref.addupdate(r.at[0], 0, 3.0)
    np.testing.assert_array_equal(r[...], [[3.0, 7.0, 5.0], [0.0, 1.0, 2.0]])


def test_a_ref_is_a_pytree_leaf():
    # jax 0.10.2: tree_leaves({'a': ref}) == [ref], structure PyTreeDef({'a': *}); a pytree of
    # Refs goes through tree.map and into jit
    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    refs = core.tree.map(core.new_ref, params)
    assert core.tree_util.tree_leaves(refs) == [refs["b"], refs["w"]]
    assert str(core.tree_util.tree_structure({"a": refs["b"]})) == "PyTreeDef({'a': *})"

    @core.jit
    def step(refs, g):
        core.tree.map(lambda r, d: r.__setitem__(..., r[...] - 0.5 * d), refs, g)

    step(refs, params)
    step(refs, params)
    values = core.tree.map(lambda r: r[...], refs)
    np.testing.assert_array_equal(values["w"], np.zeros((2, 2)))
    np.testing.assert_array_equal(values["b"], np.zeros(2))
    other = core.new_ref(jnp.ones(2))
    core.jit(lambda d: d["a"].__setitem__(0, 42.0))({"a": other})
    np.testing.assert_array_equal(other[...], [42.0, 1.0])


# jax.ref's implicit casts (JAX 0.10.2): a write converts a weak float into a float Ref and any
# integer into an integer Ref; addupdate converts nothing.
@pytest.mark.parametrize(
    ("ref_dtype", "write", "value", "error"),
    [
        (jnp.bfloat16, "set", 1.5, None),
        (jnp.int32, "set", jnp.int8(3), None),
        (jnp.int32, "set", 3, None),
        (
            jnp.float32,
            "set",
            2,
            "Invalid dtype for `swap`. Ref dtype: float32. Value dtype: int32.",
        ),
        (
            jnp.int32,
            "set",
            1.5,
            "Invalid dtype for `swap`. Ref dtype: int32. Value dtype: float32.",
        ),
        (jnp.int32, "set", True, "Invalid dtype for `swap`. Ref dtype: int32. Value dtype: bool."),
        (
            jnp.float32,
            "set",
            jnp.float16(1),
            "Invalid dtype for `swap`. Ref dtype: float32. Value dtype: float16.",
        ),
        (jnp.float32, "addupdate", 2.5, None),
        (
            jnp.bfloat16,
            "addupdate",
            1.5,
            "Invalid dtype for `addupdate`. Ref dtype: bfloat16. Value shape: float32.",
        ),
    ],
)
def test_implicit_casts_as_jax(ref_dtype, write, value, error):
    r = core.new_ref(jnp.zeros(2, ref_dtype))
    call = lambda: getattr(core.ref, write)(r, 0, value)  # noqa: E731
    if error is None:
        call()
        assert r[...].dtype == ref_dtype and float(r[0]) == float(value)
    else:
        with pytest.raises(ValueError, match=re.escape(error)):
            call()


def test_freeze_gives_an_array_back():
    # jax.freeze(jnp.ones(2)) is the array (JAX 0.10.2); of a Ref, its value
    np.testing.assert_array_equal(core.freeze(jnp.ones(2)), [1.0, 1.0])
    np.testing.assert_array_equal(core.freeze(core.new_ref(jnp.arange(3))), [0, 1, 2])


def test_functions_closing_over_refs_are_traced_once():
    # jax 0.10.2: the counts of traces after each line; its make_jaxpr shows the Refs as
    # `a:Ref{f32[]} b:Ref{f32[3]}` constvars read by `d:f32[] <- a[...]`, numbax's jaxprs hold
    # their values (the same constvars, in the same order, and the same other equations)
    s, r = core.new_ref(jnp.float32(1.0)), core.new_ref(jnp.zeros(3))
    traces = []

    def h(x, k):
        traces.append(None)
        return x * s[...] + r[...] * k

    closed = core.make_jaxpr(h, static_argnums=1)(jnp.ones(3), 2)
    assert len(traces) == 1
    assert str(closed) == (
        "{ lambda a:f32[] b:f32[3]; c:f32[3]. let\n"
        "    d:f32[3] = mul c a\n"
        "    e:f32[3] = mul b 2.0:f32[]\n"
        "    f:f32[3] = add d e\n"
        "  in (f,) }"
    )
    _eq(core.jit(h, static_argnums=1)(jnp.ones(3), 2), [1.0, 1.0, 1.0])
    assert len(traces) == 1
    assert core.eval_shape(h, jnp.ones(3), 2) == core.ShapeDtypeStruct((3,), jnp.float32)
    assert len(traces) == 2  # (k is not static there)

    def w(x):
        traces.append(None)
        r[...] = r[...] + x
        return x * 2

    traces.clear()
    for k in (1, 2):
        _eq(core.jit(w)(jnp.ones(3)), [2.0, 2.0, 2.0])
        _eq(r[...], [k, k, k])
    assert core.eval_shape(w, jnp.ones(3)) == core.ShapeDtypeStruct((3,), jnp.float32)
    _eq(r[...], [2.0, 2.0, 2.0])  # eval_shape writes nothing
    assert len(traces) == 1


def test_transformations_of_a_jit_reading_a_ref():
    # jax 0.10.2: 3.0 and [3. 3.] (the jit's Ref only read: nothing written back)
    s = core.new_ref(jnp.float32(3.0))
    f = core.jit(lambda y: y * s[...])
    _eq(core.grad(f)(1.0), 3.0)
    _eq(core.vmap(f)(jnp.ones(2)), [3.0, 3.0])
