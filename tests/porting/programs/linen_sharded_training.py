"""Flax linen models trained across devices: parameters annotated with mesh or logical axes and
placed by `jit`'s shardings, and an ensemble of small CNNs, one per device, under `pmap`
(eight CPU devices).

Checks: `mesh_utils.create_device_mesh`, `nn.with_partitioning` on a `Dense` kernel and on a
`self.param`, `nn.with_logical_partitioning`, `with_sharding_constraint` and
`nn.with_logical_constraint` inside a module, `nn.scan` with `metadata_params` naming the
stacked axis (a mesh axis or a logical one); `jax.eval_shape` of a `TrainState`'s creation,
`nn.get_sharding`, `nn.get_partition_spec`, `nn.logical_to_mesh_sharding` with rules (and the
same shardings as the mesh-annotated model's); `Partitioned` boxes (`names`, `value`,
`nn.meta.unbox`, `nn.meta.replace_boxed`, `tree_map` through them); a jitted init and train
step (Adam) with `in_shardings`/`out_shardings` under `set_mesh`, the result shardings and
`visualize_array_sharding`'s tables. The ensemble: `pmap` with `static_broadcasted_argnums`
creating one `TrainState` per device from split keys, a pmapped SGD-with-momentum step with
`pmean` of the members' softmax over `axis_name='ensemble'`, `jax_utils.replicate` /
`unreplicate`. run() returns what was printed (numbers apart) and the trained parameters.
"""

import functools

import numpy as np

from tests.porting import printed


def run():
    return printed.notebook(_cells)


def _cells(out, errors, mark):
    from typing import Callable

    import jax
    import jax.numpy as jnp
    import optax
    from flax import jax_utils
    from flax import linen as nn
    from flax.training import train_state
    from jax.experimental import mesh_utils
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    devices = mesh_utils.create_device_mesh((2, 4))
    print(devices)
    mesh = Mesh(devices, ("data", "model"))
    print(mesh)
    on = lambda spec: NamedSharding(mesh, spec)
    mark("mesh")

    class Gate(nn.Module):
        width: int
        init: Callable = nn.initializers.lecun_normal()

        @nn.compact
        def __call__(self, h):
            up = nn.Dense(
                2 * self.width,
                use_bias=False,
                kernel_init=nn.with_partitioning(self.init, (None, "model")),
            )(h)
            a, g = jnp.split(up, 2, axis=-1)
            down = self.param("down", nn.with_partitioning(self.init, ("model", None)),
                              (self.width, h.shape[-1]))  # fmt: skip
            h = h + (jnp.tanh(a) * jax.nn.sigmoid(g)) @ down
            return jax.lax.with_sharding_constraint(h, on(P("data", None))), None

    class LogicalGate(nn.Module):
        width: int
        init: Callable = nn.initializers.lecun_normal()

        @nn.compact
        def __call__(self, h):
            up = nn.Dense(
                2 * self.width,
                use_bias=False,
                kernel_init=nn.with_logical_partitioning(self.init, ("embed", "mlp")),
            )(h)
            a, g = jnp.split(up, 2, axis=-1)
            down = self.param("down", nn.with_logical_partitioning(self.init, ("mlp", "embed")),
                              (self.width, h.shape[-1]))  # fmt: skip
            h = h + (jnp.tanh(a) * jax.nn.sigmoid(g)) @ down
            return nn.with_logical_constraint(h, ("batch", "embed")), None

    class Stack(nn.Module):
        block: type
        layers: int
        width: int
        scanned: bool
        axis_name: object = None

        @nn.compact
        def __call__(self, h):
            if self.scanned:
                body = nn.scan(self.block, length=self.layers, variable_axes={"params": 0},
                               split_rngs={"params": True},
                               metadata_params={nn.PARTITION_NAME: self.axis_name})  # fmt: skip
                h, _ = body(self.width)(h)
            else:
                for _ in range(self.layers):
                    h, _ = self.block(self.width)(h)
            return h

    def create(key, h, model, tx):
        variables = model.init(key, h)
        return train_state.TrainState.create(
            apply_fn=model.apply, params=variables["params"], tx=tx
        )

    rules = (("batch", "data"), ("mlp", "model"))
    tx = optax.adam(0.01)
    key = jax.random.key(4)
    h = jax.device_put(jnp.linspace(-1.0, 1.0, 8 * 16).reshape(8, 16), on(P("data", None)))
    jax.debug.visualize_array_sharding(h)

    model = Stack(Gate, 2, 8, False)
    abstract = jax.eval_shape(functools.partial(create, model=model, tx=tx), key, h)
    shardings = nn.get_sharding(abstract, mesh)
    print(shardings.step)
    print(shardings.params)
    print(shardings.opt_state)
    print(nn.get_partition_spec(abstract).params)
    mark("shardings")

    init = jax.jit(create, static_argnums=(2, 3), in_shardings=(on(P()), on(P("data", None))),
                   out_shardings=shardings)  # fmt: skip
    state = init(key, h, model, tx)
    box = state.params["Gate_0"]["Dense_0"]["kernel"]
    print(type(box).__name__, box.names, box.value.shape, isinstance(box.value, jax.Array))
    print(box.value.sharding)
    jax.debug.visualize_array_sharding(box.value)
    jax.debug.visualize_array_sharding(state.params["Gate_1"]["down"].value)
    print(state.step, state.step.sharding)
    zeros = nn.meta.replace_boxed(
        state.params, jax.tree.map(jnp.zeros_like, nn.meta.unbox(state.params))
    )
    print(
        type(zeros["Gate_0"]["down"]).__name__,
        float(jnp.abs(nn.meta.unbox(zeros)["Gate_0"]["down"]).sum()),
    )
    halves = jax.tree.map(lambda a: a / 2, state.params["Gate_1"])
    print(jax.tree.map(jnp.shape, halves))
    mark("init")
    out["init"] = nn.meta.unbox(state.params)

    def descend(state, h):
        grads = jax.grad(lambda p: (state.apply_fn({"params": p}, h) ** 2).mean())(state.params)
        return state.apply_gradients(grads=grads)

    rows = on(P("data", None))
    step = jax.jit(descend, in_shardings=(shardings, rows), out_shardings=shardings)
    apply = jax.jit(lambda state, h: state.apply_fn({"params": state.params}, h),
                    in_shardings=(shardings, rows), out_shardings=rows)  # fmt: skip
    with jax.set_mesh(mesh):
        state = step(step(state, h), h)
        y = apply(state, h)
    print(state.step, state.params["Gate_0"]["down"].value.sharding.spec)
    print(state.opt_state[0].mu["Gate_1"]["Dense_0"]["kernel"].value.sharding.spec)
    print(y.dtype, y.shape)
    jax.debug.visualize_array_sharding(y)
    mark("train")
    out["trained"] = nn.meta.unbox(state.params)
    out["y"] = y

    logical = Stack(LogicalGate, 2, 8, False)
    labstract = jax.eval_shape(functools.partial(create, model=logical, tx=tx), key, h)
    lspec = nn.get_partition_spec(labstract)
    print(lspec.params["LogicalGate_0"]["Dense_0"]["kernel"], lspec.params["LogicalGate_0"]["down"])
    lshard = nn.logical_to_mesh_sharding(lspec, mesh, rules)
    print(lshard.params["LogicalGate_0"]["Dense_0"]["kernel"].spec)
    print(lshard.params["LogicalGate_1"] == shardings.params["Gate_1"])
    lstate = jax.jit(create, static_argnums=(2, 3), in_shardings=(on(P()), rows),
                     out_shardings=lshard)(key, h, logical, tx)  # fmt: skip
    jax.debug.visualize_array_sharding(lstate.params["LogicalGate_0"]["down"].value)
    with jax.set_mesh(mesh), nn.logical_axis_rules(rules):
        lstate = jax.jit(descend, in_shardings=(lshard, rows), out_shardings=lshard)(lstate, h)
    print(lstate.params["LogicalGate_1"]["down"].names, lstate.step)
    mark("logical")
    out["logical"] = nn.meta.unbox(lstate.params)

    for block, axis in [(LogicalGate, "layers"), (Gate, None)]:
        scanned = Stack(block, 3, 8, True, axis)
        sabstract = jax.eval_shape(functools.partial(create, model=scanned, tx=tx), key, h)
        sspec = nn.get_partition_spec(sabstract)
        print(sspec.params)
        print(nn.logical_to_mesh_sharding(sspec, mesh, rules).params)
    sshard = nn.get_sharding(sabstract, mesh)
    sstate = jax.jit(create, static_argnums=(2, 3), in_shardings=(on(P()), rows),
                     out_shardings=sshard)(key, h, scanned, tx)  # fmt: skip
    kernel = sstate.params["ScanGate_0"]["Dense_0"]["kernel"]
    print(type(kernel).__name__, kernel.names, kernel.value.shape, kernel.value.sharding.spec)
    with jax.set_mesh(mesh):
        sstate = jax.jit(descend, in_shardings=(sshard, rows), out_shardings=sshard)(sstate, h)
    print(sstate.opt_state[0].nu["ScanGate_0"]["down"].value.sharding.spec)
    mark("scan")
    out["scanned"] = nn.meta.unbox(sstate.params)

    # An ensemble: one small CNN per device, their softmax averaged.
    class Tiny(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Conv(4, (3, 3))(x))
            x = nn.avg_pool(x, (2, 2), strides=(2, 2))
            return nn.Dense(3)(x.reshape(x.shape[0], -1))

    @functools.partial(jax.pmap, static_broadcasted_argnums=(1, 2))
    def members(key, lr, momentum):
        params = Tiny().init(key, jnp.zeros((1, 6, 6, 1)))["params"]
        return train_state.TrainState.create(apply_fn=Tiny().apply, params=params,
                                             tx=optax.sgd(lr, momentum))  # fmt: skip

    @functools.partial(jax.pmap, axis_name="ensemble")
    def fit(state, images, labels):
        def loss(params):
            logits = state.apply_fn({"params": params}, images)
            xent = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
            return xent, logits

        (value, logits), grads = jax.value_and_grad(loss, has_aux=True)(state.params)
        probs = jax.lax.pmean(jax.nn.softmax(logits), "ensemble")
        hits = jnp.mean(jnp.argmax(probs, -1) == labels)
        return state.apply_gradients(grads=grads), value, hits

    n = jax.device_count()
    images = jax.random.normal(jax.random.key(1), (12, 6, 6, 1))
    labels = jnp.arange(12) % 3
    ens = members(jax.random.split(jax.random.key(0), n), 0.1, 0.9)
    print(ens.step, jax.tree.map(jnp.shape, ens.params))
    for _ in range(3):
        ens, value, hits = fit(ens, jax_utils.replicate(images), jax_utils.replicate(labels))
    print(ens.step, value.shape, jax_utils.unreplicate(hits))
    one = jax_utils.unreplicate(ens)
    print(one.step, jax.tree.map(jnp.shape, one.params))
    mark("ensemble")
    out["members"] = ens.params
    out["losses"] = value
