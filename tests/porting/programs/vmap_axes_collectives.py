"""`vmap` beyond one batch axis, as per-example and ensemble code uses it: axes specs as
pytrees, named axes with collectives, and user batching rules.

- `in_axes` as a dict/tuple prefix with `None` leaves, negative axes, `out_axes` of `None`
  (an unbatched output), per-output axes and a pytree, `axis_size` with no batched input;
- nested `vmap`s with `axis_name`s: a hand-written batch norm by `lax.pmean` over a named
  axis, `psum` over two names, `pmax`, `all_gather` (`tiled=`), `axis_index`, `psum_scatter`
  and `ppermute` inside `vmap`;
- per-example gradients (`vmap(grad)`) and their clipping as DP-SGD does, against a loop;
- `jax.custom_batching.custom_vmap` with a rule that sees which inputs are batched, and
  `sequential_vmap`; `jnp.vectorize` with `excluded=`;
- the errors of mismatched axis sizes and of an `out_axes=None` output that is batched.
"""

import jax
import jax.numpy as jnp
from jax import lax, random

from tests.porting import printed


def axes_specs(out):
    params = {"w": jnp.arange(6.0).reshape(2, 3), "b": jnp.array([0.5, -0.5])}
    xs = jnp.arange(12.0).reshape(4, 3) / 10

    def layer(p, x):
        return jnp.tanh(p["w"] @ x + p["b"])

    out["params_unbatched"] = jax.vmap(layer, in_axes=(None, 0))(params, xs)
    ens = {"w": jnp.stack([params["w"], -params["w"]]), "b": params["b"]}
    out["dict_prefix"] = jax.vmap(layer, in_axes=({"w": 0, "b": None}, None))(ens, xs[0])
    out["negative_axis"] = jax.vmap(lambda x: x.sum(), in_axes=-1)(xs)
    both = jax.vmap(lambda x: (x * 2, jnp.sum(x)), out_axes=(1, 0))(xs)
    out["out_axes_tuple"] = [both[0].shape, both[1]]
    out["out_axes_none"] = jax.vmap(lambda x: (x + 1, jnp.float32(3.0)), out_axes=(0, None))(xs)[1]
    out["axis_size"] = jax.vmap(lambda: jnp.ones(2), axis_size=3)()
    out["out_axes_tree"] = jax.vmap(lambda x: {"a": x, "s": x.sum()}, out_axes={"a": 1, "s": 0})(
        xs
    )["a"].shape
    out["errors"] = printed.first_lines(
        {
            "sizes": lambda: jax.vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(4)),
            "out_none_batched": lambda: jax.vmap(lambda x: x, out_axes=None)(xs),
        },
        ValueError,
    )


def named_axes(out):
    x = random.normal(random.key(0), (4, 3))

    def batch_norm(v):
        mean = lax.pmean(v, "batch")
        var = lax.pmean((v - mean) ** 2, "batch")
        return (v - mean) * lax.rsqrt(var + 1e-5)

    out["batch_norm"] = jax.vmap(batch_norm, axis_name="batch")(x)
    grid = x.reshape(2, 2, 3)
    f = lambda v: lax.psum(v, ("i", "j"))  # noqa: E731
    out["psum_two"] = jax.vmap(jax.vmap(f, axis_name="j"), axis_name="i")(grid)
    out["pmax"] = jax.vmap(lambda v: lax.pmax(v, "b"), axis_name="b")(x)
    out["all_gather"] = jax.vmap(lambda v: lax.all_gather(v, "b"), axis_name="b")(x[:, 0])
    out["all_gather_tiled"] = jax.vmap(lambda v: lax.all_gather(v, "b", tiled=True), axis_name="b")(
        x[:, :2]
    ).shape
    out["axis_index"] = jax.vmap(lambda v: v * lax.axis_index("b"), axis_name="b")(x)
    out["psum_scatter"] = jax.vmap(lambda v: lax.psum_scatter(v, "b"), axis_name="b")(
        jnp.arange(16.0).reshape(4, 4)
    )
    perm = [(i, (i + 1) % 4) for i in range(4)]
    out["ppermute"] = jax.vmap(lambda v: lax.ppermute(v, "b", perm), axis_name="b")(x)
    out["grad_through_pmean"] = jax.grad(
        lambda x: jnp.sum(jax.vmap(batch_norm, axis_name="batch")(x)[:, 0] ** 3)
    )(x)


def per_example(out):
    k1, k2 = random.split(random.key(1))
    w = random.normal(k1, (3,))
    xs = random.normal(k2, (5, 3))
    ys = jnp.arange(5.0) / 5

    def loss(w, x, y):
        return (jnp.dot(w, x) - y) ** 2

    g = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
    loop = jnp.stack([jax.grad(loss)(w, xs[i], ys[i]) for i in range(5)])
    out["per_example"] = g
    out["matches_loop"] = bool(jnp.allclose(g, loop))
    norms = jnp.linalg.norm(g, axis=1, keepdims=True)
    clipped = g / jnp.maximum(1.0, norms / 0.5)
    out["dp_clipped_mean"] = clipped.mean(0)


@jax.custom_batching.custom_vmap
def scaled_norm(x, scale):
    return jnp.sqrt(jnp.sum(x**2)) * scale


@scaled_norm.def_vmap
def _scaled_norm_vmap(axis_size, in_batched, x, scale):
    x_batched, scale_batched = in_batched
    x = x if x_batched else jnp.broadcast_to(x, (axis_size, *x.shape))
    scale = scale if scale_batched else jnp.broadcast_to(scale, (axis_size,))
    # The rule marks its result so that the program can tell it ran.
    return jnp.sqrt(jnp.sum(x**2, axis=1)) * scale + 1000.0, True


def user_rules(out):
    xs = jnp.arange(6.0).reshape(2, 3)
    out["custom_plain"] = scaled_norm(xs[0], 2.0)
    out["custom_batched_x"] = jax.vmap(scaled_norm, in_axes=(0, None))(xs, 2.0)
    out["custom_batched_both"] = jax.vmap(scaled_norm)(xs, jnp.array([1.0, 3.0]))
    out["custom_batched_scale"] = jax.vmap(scaled_norm, in_axes=(None, 0))(
        xs[1], jnp.array([1.0, 3.0])
    )
    seq = jax.custom_batching.sequential_vmap(lambda x: jnp.sort(x)[::-1])
    out["sequential"] = jax.vmap(seq)(jnp.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]))
    poly = jnp.vectorize(lambda x, coeffs: jnp.polyval(coeffs, x), excluded={1})
    out["vectorize_excluded"] = poly(jnp.arange(4.0), jnp.array([1.0, -1.0, 2.0]))


def run():
    out = {}
    axes_specs(out)
    named_axes(out)
    per_example(out)
    user_rules(out)
    return out
