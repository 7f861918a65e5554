"""Lifted transforms: parameter trees and values against Flax, outputs against plain loops."""

import functools

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random, tree_util
from nn import errors


def shapes(tree):
    return tree_util.tree_map(lambda a: tuple(np.shape(a)), tree)


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


VmapDense = nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=0)


class TwoVmapped(nn.Module):
    @nn.compact
    def __call__(self, x):
        return VmapDense(5)(x) + VmapDense(5, name="named")(x)


# Flax 0.12.8 values for the same keys and models.
FLAX_VMAP_TOP_KERNEL = [
    [0.53824717, 0.7668343],
    [-0.16403241, -0.23796612],
    [0.15140428, 0.62548643],
]
FLAX_VMAP_NESTED_KERNEL = [
    [0.02094762, 1.1097859],
    [0.99175936, 0.51120275],
    [-0.6145193, 0.4380255],
]
FLAX_VMAP_NAMED_KERNEL = [
    [0.7085348, 0.54149103],
    [-0.50317585, -0.13624448],
    [0.4361647, -0.14258817],
]
FLAX_VMAP_NESTED_OUT = [[0.32156178, 0.6133641], [-0.927094, -1.1434453], [0.5017601, 0.589754]]


def test_vmap_dense_params_match_flax():
    x = jnp.ones((3, 2, 4))
    v = VmapDense(5).init(random.key(0), x)
    assert shapes(v) == {"params": {"bias": (3, 5), "kernel": (3, 4, 5)}}
    close(v["params"]["kernel"][:, 0, :2], FLAX_VMAP_TOP_KERNEL)
    v = TwoVmapped().init(random.key(0), x)
    assert shapes(v["params"]) == {
        "VmapDense_0": {"bias": (3, 5), "kernel": (3, 4, 5)},
        "named": {"bias": (3, 5), "kernel": (3, 4, 5)},
    }
    close(v["params"]["VmapDense_0"]["kernel"][:, 0, :2], FLAX_VMAP_NESTED_KERNEL)
    close(v["params"]["named"]["kernel"][:, 1, :2], FLAX_VMAP_NAMED_KERNEL)
    y = TwoVmapped().apply(v, jnp.arange(24.0).reshape(3, 2, 4) / 10)
    close(y[:, :, 0], FLAX_VMAP_NESTED_OUT)


@pytest.mark.parametrize(
    "variable_axes, in_axes, out_axes, x_shape",
    [
        ({"params": 0}, 0, 0, (3, 2, 4)),  # one Dense per index
        ({"params": 1}, 1, 1, (2, 3, 4)),  # stacked on axis 1, mapped over axis 1
        ({"params": None}, 0, 0, (3, 2, 4)),  # one Dense shared by every index
    ],
)
def test_vmap_equals_per_index_dense(variable_axes, in_axes, out_axes, x_shape):
    split = variable_axes["params"] is not None
    layer = nn.vmap(
        nn.Dense,
        variable_axes=variable_axes,
        split_rngs={"params": split},
        in_axes=in_axes,
        out_axes=out_axes,
    )(5)
    x = jnp.asarray(np.random.default_rng(0).standard_normal(x_shape).astype(np.float32))
    v = layer.init(random.key(0), x)
    y = np.asarray(layer.apply(v, x))
    ax = variable_axes["params"]
    for i in range(3):
        p = (
            v["params"]
            if ax is None
            else tree_util.tree_map(lambda a, i=i: np.take(np.asarray(a), i, ax), v["params"])
        )
        want = nn.Dense(5).apply({"params": p}, np.take(np.asarray(x), i, in_axes))
        close(np.take(y, i, out_axes), want)
    if ax is None:
        assert shapes(v["params"]) == {"bias": (5,), "kernel": (4, 5)}


def test_vmap_axis_size_and_errors():
    layer = nn.vmap(
        nn.Dense,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        in_axes=None,
        axis_size=2,
    )(3)
    v = layer.init(random.key(0), jnp.ones((1, 4)))
    assert shapes(v["params"]) == {"bias": (2, 3), "kernel": (2, 4, 3)}
    no_size = nn.vmap(
        nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None
    )(3)
    with pytest.raises(errors.TransformAxisSizeError, match="axis_size"):
        no_size.init(random.key(0), jnp.ones((1, 4)))
    bn = nn.vmap(nn.BatchNorm, variable_axes={"params": 0}, split_rngs={"params": True})(
        use_running_average=False
    )
    # Collections not listed in variable_axes are not visible inside the transform.
    with pytest.raises(errors.CollectionNotFoundError, match="batch_stats"):
        bn.init(random.key(0), jnp.ones((2, 3, 4)))


ScanLSTM = nn.scan(
    nn.LSTMCell, variable_broadcast="params", split_rngs={"params": False}, in_axes=1, out_axes=1
)


class ScanRNN(nn.Module):
    @nn.compact
    def __call__(self, c, xs):
        return ScanLSTM(4)(c, xs)


FLAX_SCAN_HI = [0.728076, 0.577141, -0.36659363, -0.04921918]
FLAX_SCAN_II = [-0.26903877, 0.46433267, 0.53939027, 0.7128156]
FLAX_SCAN_YS = [
    [-0.00264686, -0.01749893, -0.03275437, -0.04381564, -0.05110153],
    [-0.07326448, -0.09656601, -0.09889822, -0.09769935, -0.09860198],
]


def test_scan_lstm_matches_flax_and_python_loop():
    xs = jnp.arange(30.0).reshape(2, 5, 3) / 30
    cell = nn.LSTMCell(4)
    c = cell.initialize_carry(random.key(1), (2, 3))
    v = ScanRNN().init(random.key(0), c, xs)
    p = v["params"]["ScanLSTMCell_0"]
    assert shapes(p) == shapes(cell.init(random.key(0), c, xs[:, 0])["params"])
    close(p["hi"]["kernel"][0], FLAX_SCAN_HI)
    close(p["ii"]["kernel"][0], FLAX_SCAN_II)
    (cc, hh), ys = ScanRNN().apply(v, c, xs)
    close(ys[:, :, 0], FLAX_SCAN_YS)
    carry = c
    for t in range(5):
        carry, y = cell.apply({"params": p}, carry, xs[:, t])
        close(ys[:, t], y)
    close(cc, carry[0])
    close(hh, carry[1])


class Block(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(3)(c) + x
        return h, h.sum(-1)


FLAX_STACKED_KERNEL = [-0.3856946, 0.3684166, 0.02626231, -0.40614423]


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_stacked_params_with_broadcast_input(reverse):
    layer = nn.scan(
        Block,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        length=4,
        in_axes=nn.broadcast,
        reverse=reverse,
    )()
    c = jnp.ones((2, 3))
    x = jnp.full((2, 3), 0.5)
    v = layer.init(random.key(0), c, x)
    assert shapes(v) == {"params": {"Dense_0": {"bias": (4, 3), "kernel": (4, 3, 3)}}}
    close(v["params"]["Dense_0"]["kernel"][:, 0, 0], FLAX_STACKED_KERNEL)
    out, ys = layer.apply(v, c, x)
    h, want_ys = c, [None] * 4
    for i in reversed(range(4)) if reverse else range(4):
        p = tree_util.tree_map(lambda a, i=i: a[i], v["params"])
        h, want_ys[i] = Block().apply({"params": p}, h, x)
    close(out, h)
    close(ys, np.stack(want_ys))


class Step(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


def test_remat_scan_matches_flax():
    v = nn.remat_scan(Step, lengths=(2, 3))().init(random.key(0), jnp.ones((2, 3)))
    assert shapes(v) == {"params": {"Dense_0": {"bias": (2, 3, 3), "kernel": (2, 3, 3, 3)}}}
    close(
        v["params"]["Dense_0"]["kernel"][:, :, 0, 0],
        [[1.114703, -0.16798842, -0.3728166], [0.02576583, -0.05376711, 0.0370833]],
    )
    x = jnp.asarray(np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32))
    y = nn.remat_scan(Step, lengths=(2, 3))().apply(v, x)
    want = x
    for i in range(2):
        for j in range(3):
            p = tree_util.tree_map(lambda a, i=i, j=j: a[i, j], v["params"])
            want = Step().apply({"params": p}, want)
    close(y, want)


@pytest.mark.parametrize("transform", [nn.jit, nn.remat, nn.checkpoint])
def test_jit_and_remat_equal_the_plain_module(transform):
    class Model(nn.Module):
        @nn.compact
        def __call__(self, x):
            return transform(nn.Dense)(4)(x) * 2

    class Plain(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(4, name=transform.__name__.capitalize() + "Dense_0")(x) * 2

    x = jnp.asarray(np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32))
    v = Model().init(random.key(0), x)
    want = Plain().init(random.key(0), x)
    if transform is not nn.jit:  # nn.jit forks the RNG streams, as in Flax (test below)
        for a, b in zip(tree_util.tree_leaves(v), tree_util.tree_leaves(want)):
            close(a, b)
    close(Model().apply(v, x), Plain().apply(v, x))
    close(Model().apply(v, x + 1), Plain().apply(v, x + 1))
    g = core.grad(lambda p: Model().apply({"params": p}, x).sum())(v["params"])
    g_want = core.grad(lambda p: Plain().apply({"params": p}, x).sum())(v["params"])
    for a, b in zip(tree_util.tree_leaves(g), tree_util.tree_leaves(g_want)):
        close(a, b)


def test_jit_forks_the_rng_streams_like_flax():
    # Flax's nn.jit replaces each RNG stream of the module's scope by a key drawn from it
    # (fork_rngs): the jitted module's parameters differ from the plain module's, and modules
    # after it are unchanged. Values from Flax 0.12.8 / JAX 0.10.2.
    class C(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.jit(nn.Dense)(2, name="d")(x) + nn.Dense(2, name="f")(x)

    class Inner(nn.Module):
        @nn.compact
        def __call__(self, x):
            p = self.param("p", nn.initializers.normal(), (2,))
            return nn.Dense(2)(x) + p + nn.Dropout(0.5, deterministic=False)(x)

    class E(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.jit(Inner)(name="i")(x) + nn.Dropout(0.5, deterministic=False)(x)

    x = jnp.ones((1, 2))
    v = C().init(random.PRNGKey(0), x)["params"]
    close(v["d"]["kernel"], [[-0.938102, -1.1711727], [-0.7951591, 0.7640089]])
    close(v["f"]["kernel"], [[1.0323844, -0.27893916], [0.27934438, 0.14580114]])
    v = E().init({"params": random.PRNGKey(0), "dropout": random.PRNGKey(1)}, x)
    close(v["params"]["i"]["Dense_0"]["kernel"], [[1.0493822, -0.09851817], [0.858638, 0.48202747]])
    close(v["params"]["i"]["p"], [-0.0017038388, 0.008071568])
    close(E().apply(v, x, rngs={"dropout": random.PRNGKey(2)}), [[3.9063163, 2.3915808]])


def test_jit_decorator_and_mutable_state():
    class Counter(nn.Module):
        @nn.jit
        @nn.compact
        def __call__(self, x):
            n = self.variable("state", "n", lambda: jnp.zeros((), jnp.int32))
            n.value += 1
            return nn.Dense(2)(x)

    x = jnp.ones((1, 3))
    v = Counter().init(random.key(0), x)
    assert shapes(v) == {
        "params": {"Dense_0": {"bias": (2,), "kernel": (3, 2)}},
        "state": {"n": ()},
    }
    y, upd = Counter().apply(v, x, mutable="state")
    assert int(upd["state"]["n"]) == 2
    close(y, nn.Dense(2).apply({"params": v["params"]["Dense_0"]}, x))


class Branchy(nn.Module):
    @nn.compact
    def __call__(self, x, index):
        self.variable("state", "calls", lambda: jnp.zeros((3,), jnp.int32))

        def branch(k, sign):
            def fn(mdl, x):
                calls = mdl.variable("state", "calls")
                calls.value = calls.value.at[k].add(1)
                return sign * nn.Dense(2, name="dense")(x)

            return fn

        if isinstance(index, bool):
            return nn.cond(index, branch(0, 1.0), branch(1, -1.0), self, x)
        return nn.switch(index, [branch(k, float(k + 1)) for k in range(3)], self, x)


@pytest.mark.parametrize("index, sign, counted", [(True, 1, 0), (False, -1, 1), (2, 3, 2)])
def test_cond_and_switch(index, sign, counted):
    x = jnp.ones((1, 3))
    v = Branchy().init(random.key(0), x, index)
    assert shapes(v["params"]) == {"dense": {"bias": (2,), "kernel": (3, 2)}}
    v = {"params": v["params"], "state": {"calls": jnp.zeros((3,), jnp.int32)}}
    y, upd = Branchy().apply(v, x, index, mutable="state")
    close(y, sign * nn.Dense(2).apply({"params": v["params"]["dense"]}, x))
    assert np.asarray(upd["state"]["calls"]).tolist() == [int(k == counted) for k in range(3)]


def test_while_loop_carries_variables():
    class Doubler(nn.Module):
        @nn.compact
        def __call__(self, x):
            self.variable("state", "n", lambda: jnp.zeros((), jnp.int32))

            def body(mdl, c):
                mdl.variable("state", "n").value += 1
                return c * 2

            return nn.while_loop(
                lambda mdl, c: c.sum() < 100, body, self, x, carry_variables="state"
            )

    x = jnp.ones((2, 3))
    y, upd = Doubler().apply({"state": {"n": jnp.asarray(0, jnp.int32)}}, x, mutable="state")
    close(y, np.full((2, 3), 32.0))
    assert int(upd["state"]["n"]) == 5


def test_gradients_of_a_module_function():
    class G(nn.Module):
        @nn.compact
        def __call__(self, x):
            d = nn.Dense(2)
            y, bwd = nn.vjp(lambda m, x: m(x), d, x)
            params_t, x_t = bwd(jnp.ones_like(y))
            value, (gx,) = nn.value_and_grad(lambda m, x: (m(x) ** 2).sum(), d, x)
            (gx2,) = nn.grad(lambda m, x: (m(x) ** 2).sum(), d, x)
            tangents = {"params": tree_util.tree_map(jnp.ones_like, d.variables["params"])}
            _, y_t = nn.jvp(lambda m, x: m(x), d, (x,), (jnp.zeros_like(x),), tangents)
            return y, params_t, x_t, value, gx, gx2, y_t

    x = jnp.asarray([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    v = G().init(random.key(0), x)
    y, params_t, x_t, value, gx, gx2, y_t = G().apply(v, x)
    k = np.asarray(v["params"]["Dense_0"]["kernel"])
    close(params_t["params"]["kernel"], np.asarray(x).T @ np.ones((2, 2)))
    close(params_t["params"]["bias"], [2.0, 2.0])
    close(x_t, np.ones((2, 2)) @ k.T)
    close(value, (np.asarray(y) ** 2).sum())
    close(gx, 2 * np.asarray(y) @ k.T)
    close(gx2, gx)
    close(y_t, np.asarray(x).sum(1, keepdims=True) + 1 + np.zeros((2, 2)))


def test_map_variables_matches_flax():
    class M(nn.Module):
        @nn.compact
        def __call__(self, x):
            double = lambda v: tree_util.tree_map(lambda a: a * 2, v)  # noqa: E731
            dense = nn.map_variables(nn.Dense, "params", double, init=self.is_initializing())
            return dense(2)(x)

    x = jnp.ones((2, 3))
    v = M().init(random.key(0), x)
    assert shapes(v) == {"params": {"Map_variablesDense_0": {"bias": (2,), "kernel": (3, 2)}}}
    close(v["params"]["Map_variablesDense_0"]["kernel"][0], [-1.9647663, -0.22847153])
    close(M().apply(v, x)[0], [-7.42042, -4.2823157])


def test_custom_vjp_sign_gradient_matches_flax():
    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x):
            def f(mdl, x):
                return mdl(x)

            def fwd(mdl, x):
                return nn.vjp(f, mdl, x)

            def bwd(vjp_fn, y_t):
                params_t, *inputs_t = vjp_fn(y_t)
                return (tree_util.tree_map(jnp.sign, params_t), *inputs_t)

            sign_grad = nn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)
            return sign_grad(nn.Dense(1), x).reshape(())

    x = jnp.ones((2,))
    v = Foo().init(random.key(1), x)
    g = core.grad(Foo().apply)(v, x)
    close(g["params"]["Dense_0"]["kernel"], [[1.0], [1.0]])
    close(g["params"]["Dense_0"]["bias"], [1.0])


def test_transform_methods_and_target_errors():
    class Two(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2, name="d")(x)

        def twice(self, x):
            return self(x) * 2

    T = nn.vmap(
        Two,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        methods=["__call__", "twice"],
    )
    x = jnp.ones((3, 1, 4))
    v = T().init(random.key(0), x, method="twice")
    assert shapes(v) == {"params": {"d": {"bias": (3, 2), "kernel": (3, 4, 2)}}}
    close(T().apply(v, x, method="twice"), 2 * T().apply(v, x))
    with pytest.raises(errors.TransformMethodsError):
        nn.vmap(Two, variable_axes={}, split_rngs={}, methods="twice")
    with pytest.raises(errors.TransformTargetError):
        nn.jit(3)


class Wrap(nn.Module):
    cell: nn.Module

    def __call__(self, c, x):
        return self.cell(c, x)


class ScanWrapped(nn.Module):
    @nn.compact
    def __call__(self, c, xs):
        scanned = nn.scan(
            Wrap, variable_broadcast="params", split_rngs={"params": False}, in_axes=1, out_axes=1
        )
        return scanned(nn.GRUCell(3))(c, xs)


def test_scan_of_a_module_holding_a_cell_bound_outside_matches_flax():
    # The cell is created (and bound) by ScanWrapped, so its parameters stay at GRUCell_0.
    c = jnp.zeros((2, 3))
    xs = jnp.arange(24.0).reshape(2, 4, 3) / 24
    v = ScanWrapped().init(random.key(0), c, xs)
    assert list(v["params"]) == ["GRUCell_0"]
    p = v["params"]["GRUCell_0"]
    close(p["hn"]["kernel"][0], [0.41621673, -0.89807564, 0.14221087])
    close(p["ir"]["kernel"][0], [-0.02679178, -0.63905627, 0.763918])
    ys = ScanWrapped().apply(v, c, xs)[1]
    close(
        ys[:, :, 0],
        [
            [0.03463854, 0.07639107, 0.11308197, 0.13908507],
            [0.12796284, 0.17945752, 0.1848955, 0.17612302],
        ],
    )


class _Boxed(nn.Module):
    @nn.compact
    def __call__(self, x):
        k = self.param("k", nn.with_partitioning(nn.initializers.ones, ("a", "b")), (3, 2))
        return x @ k


@pytest.mark.parametrize(  # Flax 0.12.8's partition specs
    "axis, name, spec", [(0, "layers", ("layers", "a", "b")), (1, "L", ("a", "L", "b"))]
)
def test_add_metadata_axis(axis, name, spec):
    wrapped = nn.add_metadata_axis(
        _Boxed, variable_axes={"params": axis}, metadata_params={nn.PARTITION_NAME: name}
    )
    v = wrapped().init(random.key(0), jnp.ones(3))
    assert v["params"]["k"].names == spec and v["params"]["k"].value.shape == (3, 2)
    assert tuple(nn.get_partition_spec(v)["params"]["k"]) == spec
    np.testing.assert_array_equal(wrapped().apply(v, jnp.ones(3)), [3.0, 3.0])


def test_named_call_labels_the_module_method():
    class Named(nn.Module):
        @nn.named_call
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(x)

    x = jnp.ones((1, 3))
    v = Named().init(random.key(0), x)
    plain = nn.Dense(2).apply({"params": v["params"]["Dense_0"]}, x)
    np.testing.assert_array_equal(Named().apply(v, x), plain)
    assert nn.normalize is nn.standardize


def test_fold_rngs_gives_flax_keys():
    """`nn.fold_rngs` draws the keys `nn.jit` would (Flax's fold_rngs), under the name
    `Fold_rngs<Class>`, and leaves the outer stream's counter where it was. Values of Flax
    0.12.8 on the same program (recorded with the reference venv)."""

    class Inner(nn.Module):
        @nn.compact
        def __call__(self, x):
            key = self.make_rng("dropout")
            return nn.Dense(2)(x), random.key_data(key)

    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x):
            f = nn.fold_rngs(Inner)
            y1, a1 = f()(x)
            _, a2 = f()(x)
            return y1, a1, a2, random.key_data(self.make_rng("dropout"))

    m, x = Outer(), jnp.ones((1, 3))
    v = m.init({"params": random.key(0), "dropout": random.key(1)}, x)
    kernel = v["params"]["Fold_rngsInner_0"]["Dense_0"]["kernel"]
    np.testing.assert_allclose(kernel.ravel()[:3], [0.43663841, 0.05694741, -1.0481751], rtol=1e-6)
    y1, a1, a2, b = m.apply(v, x, rngs={"dropout": random.key(2)})
    np.testing.assert_allclose(y1.ravel(), [-0.21733734, 1.3135633], rtol=1e-6)
    assert np.asarray(a1).tolist() == [1087818719, 953989490]
    assert np.asarray(a2).tolist() == [2250029657, 2492726188]
    assert np.asarray(b).tolist() == [2196046299, 3664720436]


class Noisy(nn.Module):  # named as in the Flax program: keys fold in "Noisy_0"
    @nn.compact
    def __call__(self, x):
        a = random.normal(self.make_rng("noise"), (2,))
        w = self.param("w", nn.initializers.normal(), (2,))
        return x + a + random.normal(self.make_rng("noise"), (2,)) * w


class _JitTwice(nn.Module):
    @nn.compact
    def __call__(self, x):
        j = nn.jit(Noisy)()
        y1, y2, y3 = j(x), j(x), j(x + 1)
        z = nn.jit(Noisy)(name="other")(x)
        return y1, y2, y3, z, random.normal(self.make_rng("noise"), (2,))


def test_jit_calls_draw_flaxs_keys():
    # Flax 0.12.8: the module's fingerprint holds its scope's RNG counts, so each call of one
    # jitted module traces with its own keys, as without jit
    x = jnp.ones(2)
    rngs = {"params": random.key(0), "noise": random.key(1)}
    out, variables = _JitTwice().init_with_output(rngs, x)
    want = [[0.5489839315414429, 0.263092041015625], [0.5490821003913879, 1.4380502700805664],
            [2.7189669609069824, 1.1124271154403687], [0.2035778909921646, 1.7032840251922607],
            [1.6249592304229736, 0.30813068151474]]  # fmt: skip
    np.testing.assert_allclose(np.array(out), want, rtol=1e-6)
    out = _JitTwice().apply(variables, x, rngs={"noise": random.key(2)})
    want = [[2.641484498977661, 1.6930691003799438], [2.895071268081665, 0.8740925788879395],
            [3.3562984466552734, 3.0722126960754395], [0.6435084939002991, -1.3186912536621094],
            [-0.2998703122138977, -0.040714625269174576]]  # fmt: skip
    np.testing.assert_allclose(np.array(out), want, rtol=1e-6)


@pytest.mark.parametrize("transform", ["vmap", "scan"])
def test_vmap_and_scan_drop_keyword_arguments_with_flaxs_warning(transform):
    # Flax's lifted vmap/scan call the body without keyword arguments (lift.md's
    # `VmapMLP(name='mlp')(xs, train=train)` fails for want of `train`)
    class Cell(nn.Module):
        @nn.compact
        def __call__(self, c, x, *, scale=1.0):
            return c, nn.Dense(2)(x) * scale

    kwargs = dict(variable_axes={"params": 0}, split_rngs={"params": True})
    if transform == "vmap":
        lifted = nn.vmap(Cell, in_axes=(None, 0), **kwargs)
    else:
        lifted = nn.scan(Cell, **kwargs)
    x = jnp.ones((3, 4))
    variables = lifted().init(random.key(0), jnp.zeros(()), x)
    with pytest.warns(RuntimeWarning, match=f'kwargs are not supported in {transform}, so "sc'):
        _, y = lifted().apply(variables, jnp.zeros(()), x, scale=10.0)
    _, want = lifted().apply(variables, jnp.zeros(()), x)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(want))


class _DropoutBlock(nn.Module):
    @nn.compact
    def __call__(self, x, _):
        return nn.Dropout(0.5, deterministic=False)(x), None


@pytest.mark.parametrize(
    "split_rngs, rngs, error",
    [
        # Flax lifts only the streams split_rngs names (InvalidRngError, as Flax's)
        ({"params": True}, {"dropout": 1}, errors.UnliftedRngError),
        ({"params": True}, {}, errors.MissingRngError),
        ({"params": True, "dropout": True}, {"dropout": 1}, None),
    ],
)
def test_scan_passes_in_only_the_streams_split_rngs_names(split_rngs, rngs, error):
    scanned = nn.scan(_DropoutBlock, split_rngs=split_rngs, length=2)()
    rngs = {k: random.key(v) for k, v in rngs.items()}
    x = jnp.ones((2, 3))
    if error is None:
        y = scanned.apply({}, x, None, rngs=rngs)[0]
        assert set(np.unique(np.asarray(y))) <= {0.0, 4.0}  # two steps' dropouts of rate 0.5
        return
    with pytest.raises(error, match="split_rngs" if error is errors.UnliftedRngError else "rngs="):
        scanned.apply({}, x, None, rngs=rngs)
    assert issubclass(error, nn.flax_errors.InvalidRngError)


class ExpCell(nn.Module):
    """A scan cell whose next carry the tangents read through exp (its jvp uses its result)."""

    @nn.compact
    def __call__(self, c, x):
        w = np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6], [0.7, 0.2, 0.1]], np.float32)
        h = nn.Dense(3, kernel_init=lambda *_: jnp.asarray(w))(c)
        c = jnp.tanh(h) + jnp.exp(-c) * 0.1 + x
        return c, jnp.exp(c).sum()


@pytest.mark.parametrize("policy", [None, core.checkpoint_policies.nothing_saveable])
@pytest.mark.parametrize("remat_inside", [True, False])
def test_gradients_of_scan_and_remat_match_flax(remat_inside, policy):
    if remat_inside:  # the checkpointed body's next carry is read by exp's tangent
        cell = nn.scan(nn.remat(ExpCell, policy=policy), variable_broadcast="params",
                       split_rngs={"params": False})  # fmt: skip
    else:
        cell = nn.remat(nn.scan(ExpCell, variable_broadcast="params",
                                split_rngs={"params": False}), policy=policy)  # fmt: skip

    class Model(nn.Module):
        @nn.compact
        def __call__(self, c, xs):
            c, ys = cell()(c, xs)
            return c.sum() + ys.sum() * 0.01

    c0 = np.array([1.0, 0.5, -0.3], np.float32)
    xs = np.array([[0.3, 0.7, 1.1], [0.2, -0.4, 0.9], [1.2, 0.1, 0.5]], np.float32)
    v = Model().init(random.key(0), c0, xs)
    g, gc = core.grad(lambda v, c: Model().apply(v, c, xs), (0, 1))(v, c0)
    bias, kernel = tree_util.tree_leaves(g)  # Flax 0.12.8's gradients
    close(bias, [0.90558094, 0.6037392, 1.4747598])
    close(kernel, [[0.901364, 0.7313478, 1.2331764], [0.2714382, -0.1309983, 0.547487],
                   [0.4599641, 0.910897, 1.4508519]])  # fmt: skip
    close(gc, [0.22345036, -0.16615726, 0.15537386])


class CondOfTwoDtypes(nn.Module):
    @nn.compact
    def __call__(self, x, pred):
        return nn.cond(pred, lambda m, x: x * 2, lambda m, x: x.astype(jnp.int32), self, x)


def test_cond_branch_mismatch_is_lax_conds_error():
    # Flax's nn.cond calls lax.cond: the error names cond, not switch (recorded with Flax 0.12.8)
    with pytest.raises(TypeError, match="^cond branches must have equal output types"):
        CondOfTwoDtypes().apply({}, jnp.ones(3), True)


def _compact_outside(transform):
    class M(nn.Module):
        @nn.compact
        @transform
        def __call__(self, x):
            return nn.Dense(2)(x)

    return M


def _compact_inside(transform):
    class M(nn.Module):
        @transform
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(x)

    return M


@pytest.mark.parametrize("transform", [nn.remat, nn.jit])
def test_compact_outside_a_method_transform_marks_nothing(transform):
    # flax 0.12.8: AssignSubModuleError "Submodule Dense must be defined in `setup()` or in a
    # method wrapped in `@compact`"; with @compact inside the transform the Dense is created
    x = jnp.ones((3, 4))
    with pytest.raises(errors.AssignSubModuleError, match="Submodule Dense must be defined"):
        _compact_outside(transform)().init(random.key(0), x)
    v = _compact_inside(transform)().init(random.key(0), x)
    assert tree_util.tree_map(lambda a: a.shape, v) == {
        "params": {"Dense_0": {"bias": (2,), "kernel": (4, 2)}}
    }


class _ScanCell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return jnp.tanh(nn.Dense(2, name="hc")(c) + nn.Dense(2, name="hx")(x)), c


class _CarryParam(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c + self.param("w", lambda k: c * 2), x


@pytest.mark.parametrize(
    ("cell", "split"),
    [(_ScanCell, True), (_CarryParam, False)],  # a key split per step; the carry
)
def test_scan_broadcast_variables_may_not_vary_per_step(cell, split):
    # flax 0.12.8: ValueError "broadcasted variable has a data dependency on the scan body."
    scan = nn.scan(cell, variable_broadcast="params", split_rngs={"params": split})
    with pytest.raises(errors.ScanBroadcastDependencyError) as info:
        scan().init(random.key(0), jnp.array([0.5, -0.25]), jnp.ones((3, 2)))
    assert isinstance(info.value, ValueError)
    assert str(info.value).split("\n")[0] == (
        "broadcasted variable has a data dependency on the scan body."
    )


def test_scan_broadcast_params_from_a_shared_key():
    scan = nn.scan(_ScanCell, variable_broadcast="params", split_rngs={"params": False})
    v = scan().init(random.key(0), jnp.array([0.5, -0.25]), jnp.cos(jnp.arange(6.0)).reshape(3, 2))
    # flax 0.12.8: the kernels' sums 0.8610176 ('hc') and -0.6631437 ('hx'), zero biases
    np.testing.assert_allclose(float(v["params"]["hc"]["kernel"].sum()), 0.8610176, rtol=1e-6)
    np.testing.assert_allclose(float(v["params"]["hx"]["kernel"].sum()), -0.6631437, rtol=1e-6)


class _Counted(nn.Module):
    @nn.compact
    def __call__(self, x):
        count = self.variable("counter", "n", lambda: jnp.zeros(()))
        count.value += 1
        return nn.Dense(2)(x) * (1 + count.value)


class _VjpOfCounted(nn.Module):
    vjp_variables: object = "params"

    @nn.compact
    def __call__(self, x):
        y, pullback = nn.vjp(lambda m, x: m(x), _Counted(), x, vjp_variables=self.vjp_variables)
        return y, pullback(jnp.ones_like(y))


class _Dropped(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(nn.Dense(6)(x))


class _VjpOfDropped(nn.Module):
    @nn.compact
    def __call__(self, x):
        y, pullback = nn.vjp(lambda m, x: m(x), _Dropped(), x)
        return y, pullback(jnp.ones_like(y))


@pytest.mark.parametrize("vjp_variables", ["params", ["params", "counter"]])
def test_vjp_pullback_sees_the_variables_the_forward_pass_read(vjp_variables):
    # Flax 0.12.8: the pullback differentiates the forward pass as it ran (the counter at 2,
    # a factor 3), not a replay after the counter's update (numbax's gave a factor 4)
    x = jnp.linspace(-1, 1, 6).reshape(2, 3)
    module = _VjpOfCounted(vjp_variables)
    variables = module.init(random.PRNGKey(0), x)
    (_, grads), _ = module.apply(variables, x, mutable=["counter"])
    np.testing.assert_allclose(np.asarray(grads[0]["params"]["Dense_0"]["bias"]), [6.0, 6.0])
    np.testing.assert_allclose(np.asarray(grads[1])[0], [3.8085, -1.3914, 2.2151], atol=2e-4)


def test_vjp_pullback_replays_the_forward_pass_dropout_mask():
    # Flax 0.12.8: the pullback uses the forward pass's dropout mask (numbax's replay drew
    # fresh keys)
    x = jnp.linspace(-1, 1, 12).reshape(2, 6)
    module = _VjpOfDropped()
    variables = module.init({"params": random.PRNGKey(0), "dropout": random.PRNGKey(1)}, x)
    y, grads = module.apply(variables, x, rngs={"dropout": random.PRNGKey(2)})
    assert (np.asarray(y) != 0).astype(int).tolist() == [[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 0, 1]]
    np.testing.assert_allclose(
        np.asarray(grads[0]["params"]["Dense_0"]["bias"]), [2.0, 2.0, 4.0, 4.0, 2.0, 4.0]
    )
    np.testing.assert_allclose(
        np.asarray(grads[1])[0],
        [2.2397, -0.7298, -0.2601, -0.8287, 0.7474, -0.6621],
        atol=2e-4,
    )


class _BoundBranches(nn.Module):
    def setup(self):
        self.dense = nn.Dense(3)

    def f1(self, arr):
        return self.dense(arr)

    def f2(self, arr):
        self.dense(arr)
        return -arr

    def __call__(self, x):
        return nn.cond(x.sum() > 0, self.f1, self.f2, self, x)  # bound methods, as Flax takes


def test_direct_transforms_take_bound_methods():
    out, v = core.jit(_BoundBranches().init_with_output)(random.key(0), x=jnp.ones(3))
    np.testing.assert_allclose(out, [2.1072986, 1.2607183, -0.3188213], rtol=1e-6)  # Flax 0.12.8
    np.testing.assert_allclose(_BoundBranches().apply(v, -jnp.ones(3)), [1.0, 1.0, 1.0])


def test_jit_reuses_its_trace_for_equal_bound_submodule_fields():
    """Bound modules refuse ``hash`` (as Flax's), so ``nn.jit``'s cache key fingerprints a
    module's submodule fields instead: equal fields, one trace (Flax 0.12.8 counts 1, 1, 2, 2)."""
    traces = []

    class Leaf(nn.Module):
        key: int

        def __call__(self, x):
            return x

    class Parent(nn.Module):
        leaves: list

        @nn.compact
        def __call__(self, x):
            traces.append(1)
            for m in self.leaves:
                x = m(x)
            return x

    jitted = nn.jit(Parent)
    for keys, count in [((1, 2), 1), ((1, 2), 1), ((3, 4), 2), ((3, 4), 2)]:
        jitted([Leaf(k) for k in keys]).apply({}, jnp.array(1.0))
        assert len(traces) == count


class _Counter(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable("state", "count", jnp.zeros, x.shape)
        c.value += x
        return c.value


class _ModuleArgs(nn.Module):
    """Bound submodules passed to a jitted method, and a `Variable` to another."""

    @nn.compact
    def __call__(self, x):
        acc = self.variable("state", "acc", jnp.zeros, x.shape)
        self.add(acc, x)
        self.add(acc, x)
        return self.run(_Counter(name="counter"), nn.Dense(3, name="dense"), x), acc.value

    @nn.jit
    def run(self, counter, dense, x):
        return dense(counter(x))

    @nn.jit
    def add(self, v, x):
        v.value = v.value + 2 * x


# Flax 0.12.8 on the same programs (5 decimals)
FLAX_MODULE_ARGS_INIT = [[-0.84345, 1.37487, 0.05017], [0.07864, 6.39924, 2.36841]]
FLAX_MODULE_ARGS_APPLY2 = [[-2.53036, 4.12462, 0.15051], [0.23591, 19.19774, 7.10523]]
FLAX_VMAP_MODULE_ARG = [[-0.8835, -1.52943], [-1.05984, 0.61306], [-0.55216, 0.72281]]


def test_jit_lifts_modules_and_variables_passed_as_arguments():
    x = jnp.arange(4.0).reshape(2, 2)
    m = _ModuleArgs()
    (y, acc), v = m.init_with_output(random.key(0), x)
    close(y, FLAX_MODULE_ARGS_INIT)
    close(acc, 4 * x)
    close(v["state"]["counter"]["count"], x)
    for _ in range(2):
        (y, _), st = m.apply(v, x, mutable=["state"])
        v = {**v, **st}
    close(y, FLAX_MODULE_ARGS_APPLY2)
    close(v["state"]["counter"]["count"], 3 * x)
    close(v["state"]["acc"], 12 * x)


def test_vmap_lifts_a_module_passed_as_argument():
    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x):
            f = nn.vmap(
                lambda mdl, d, x: d(x),
                variable_axes={"params": 0},
                split_rngs={"params": True},
                in_axes=(None, 0),
            )
            return f(self, nn.Dense(2, name="d"), x)

    y, v = Outer().init_with_output(random.key(1), jnp.ones((3, 4)))
    assert shapes(v) == {"params": {"d": {"bias": (3, 2), "kernel": (3, 4, 2)}}}
    close(y, FLAX_VMAP_MODULE_ARG)


def test_jit_module_in_a_field_and_an_argument_is_one_module():
    class Foo(nn.Module):
        m1: nn.Module

        @nn.compact
        def __call__(self, x, m2):
            return m2(self.m1(x))

    class Bar(nn.Module):
        @nn.compact
        def __call__(self, x):
            dense = nn.Dense(2)
            return nn.jit(Foo)(dense)(x, dense)

    v = Bar().init(random.key(0), jnp.zeros((2, 2)))
    assert shapes(v) == {"params": {"Dense_0": {"bias": (2,), "kernel": (2, 2)}}}


def test_jit_of_an_unbound_modules_method_runs_it_unbound():
    """`nn.jit` on an ``init_with_output`` override (the module is unbound): Flax 0.12.8 runs
    the method unbound inside the compiled function, with its values."""

    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(x)

    class JitInit(Foo):
        @nn.jit
        def init_with_output(self, rngs, *args, **kwargs):
            return super().init_with_output(rngs, *args, **kwargs)

    x = jnp.arange(6.0).reshape(2, 3)
    y, v = JitInit().init_with_output(random.key(0), x)
    close(y, [[0.26618, 0.99028], [-3.38873, 3.04476]])
    assert shapes(v) == {"params": {"Dense_0": {"bias": (2,), "kernel": (3, 2)}}}


def test_jit_traces_modules_alike_but_for_their_names_once():
    """As Flax's fingerprint: the name and path of a module do not key the trace, and an empty
    collection a module never wrote does not change its inputs."""
    traces = []

    class Step(nn.Module):
        k: int

        @nn.jit
        @nn.compact
        def __call__(self, x):
            traces.append(self.name)
            count = self.variable("counts", "n", lambda: 0)
            if not self.is_initializing():
                count.value += 1
            return x

    class Parent(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(3):
                x = Step(0)(x)
            return x

    counts = Parent().init({}, jnp.ones(()))["counts"]
    assert len(traces) == 1
    for n in (1, 2):
        _, updates = Parent().apply({"counts": counts}, jnp.ones(()), mutable=["counts"])
        counts = updates["counts"]
        assert len(traces) == 2
        assert [int(c) for c in tree_util.tree_leaves(counts)] == [n] * 3


def test_vmap_lifts_modules_bound_elsewhere_inside_field_modules():
    """`C(B(A()))` with ``A`` and ``B`` defined in the parent: the vmapped ``C`` lifts ``A``'s
    scope through ``B``'s field, so its parameters stay at ``A_0`` with the mapped axis (Flax
    0.12.8's tree; the copy of ``B`` used to adopt ``A`` under ``B_0/A``)."""

    class A(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(3)(x)

    class B(nn.Module):
        inner: nn.Module

        def __call__(self, x):
            return self.inner(x)

    class C(nn.Module):
        inner: nn.Module

        @nn.compact
        def __call__(self, x):
            return self.inner(x)

    VmapC = nn.vmap(C, variable_axes={"params": 0}, split_rngs={"params": True})

    class D(nn.Module):
        @nn.compact
        def __call__(self, x):
            return VmapC(B(A()))(x)

    v = D().init(random.key(0), jnp.ones((2, 4)))
    assert shapes(v) == {"params": {"A_0": {"Dense_0": {"bias": (2, 3), "kernel": (2, 4, 3)}}}}


def test_jit_lifts_variables_held_in_module_fields():
    """A `Variable` handed to submodules' fields through two jitted levels: each level lifts
    its scope, so the writes land in the outer collection (Flax 0.12.8: 1, then 2)."""

    class Adder(nn.Module):
        target: nn.Variable

        @nn.jit
        @nn.compact
        def __call__(self, x):
            self.target.value += x
            return x

    class Relay(nn.Module):
        target: nn.Variable

        @nn.jit
        @nn.compact
        def __call__(self, x):
            return Adder(self.target)(x)

    class Owner(nn.Module):
        @nn.jit
        @nn.compact
        def __call__(self, x):
            return Relay(self.variable("test", "baz", jnp.zeros, x.shape))(x)

    x = jnp.ones((1,))
    v = Owner().init(random.key(0), x)
    close(v["test"]["baz"], [1.0])
    _, v = Owner().apply(v, x, mutable=["test"])
    close(v["test"]["baz"], [2.0])


def test_vmap_of_a_partial_method():
    class Foo(nn.Module):
        @nn.compact
        def inner(self, x):
            return nn.Dense(2, use_bias=False)(x)

        def __call__(self, x):
            vmapped = nn.vmap(
                functools.partial(Foo.inner),
                variable_axes={"params": 0},
                split_rngs={"params": True},
            )
            return vmapped(self, x)

    v = Foo().init(random.key(0), jnp.ones((3, 4, 4)))
    assert shapes(v) == {"params": {"Dense_0": {"kernel": (3, 4, 2)}}}


def test_a_transformed_method_returning_a_variable_raises_flax_error():
    class Bar(nn.Module):
        @nn.compact
        def __call__(self, x):
            return self.helper()

        @nn.jit
        def helper(self):
            return nn.Variable(None, None, None, False)

    with pytest.raises(errors.TransformedMethodReturnValueError) as info:
        Bar().apply({}, jnp.ones(2))
    assert str(info.value).splitlines()[0] == (
        "Transformed module method helper cannot return Modules or Variables. (https://flax"
        ".readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors."
        "TransformedMethodReturnValueError)"
    )


def test_jit_method_given_a_setup_submodule_defines_it_again_inside():
    """A jitted method passed ``self.inner`` (defined in setup): inside, the copy's setup
    defines ``inner`` at the scope the argument already lifted (Flax's reused scopes); the
    variables are those of the untransformed module."""

    class Plain(nn.Module):
        def setup(self):
            self.inner = nn.Dense(2)

        def helper(self, x, m):
            return m(x)

        def __call__(self, x):
            return self.helper(x, self.inner)

    class Jitted(Plain):
        helper = nn.jit(Plain.helper)
        __call__ = nn.jit(Plain.__call__)

    x = jnp.ones((2,))
    assert shapes(Jitted().init(random.key(0), x)) == shapes(Plain().init(random.key(0), x))


def test_scan_without_constancy_checks_traces_the_body_once():
    """`check_constancy_invariants=False` (Flax's simple scan): one trace per call, no first
    step (so the keys differ, and broadcast variables are not created); Flax 0.12.8's
    counts, tree and values."""
    traces = []

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, c, x):
            traces.append(1)
            h = nn.Dense(2)(x) + c
            return h, h

    def scan(**kw):
        return nn.scan(Cell, split_rngs={"params": kw.pop("split")}, **kw)()

    c, xs = jnp.zeros((2,)), jnp.ones((3, 2))
    kw = {"check_constancy_invariants": False}
    assert scan(variable_broadcast="params", split=False, **kw).init(random.key(0), c, xs) == {}
    cell = scan(variable_axes={"params": 0}, split=True, **kw)
    traces.clear()
    y, _ = cell.apply(cell.init(random.key(0), c, xs), c, xs)
    assert len(traces) == 2
    close(y, [-2.76194, -1.27773])
