# Copyright 2024 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.



"""JAX's docs/gradient-checkpointing.md ("Gradient checkpointing with `jax.checkpoint`"): its
code cells verbatim in `run()`. What `print_saved_residuals` printed is recorded (the source
locations with the program's file name only, not its directory); `print_fwd_bwd` prints its two
jaxprs instead of a `rich` table, not recorded (numbax's jaxprs differ from JAX's). The cells that only define functions
(`sin_vjp`, `f_vjp_checkpoint`, the offload policies' test methods, ...) are kept; the last
section's scan-over-layers `net` is also evaluated and differentiated, with and without the
checkpointed `layer`, and its residuals printed; the offload policies' functions (the page
defines them in test methods) are differentiated."""

import builtins
import contextlib
import io
import re


def run():
  printed = []
  out = {}

  def print(*args):
    builtins.print(*args)
    printed.append(' '.join(str(a) for a in args))

  @contextlib.contextmanager
  def recorded():
    """What is printed (by `print_saved_residuals`) recorded, source paths without directory."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
      yield
    builtins.print(buffer.getvalue(), end='')
    printed.append(re.sub(r'[^ ]*/([\w.]+\.py:)', r'\1', buffer.getvalue()))

  import jax
  import jax.numpy as jnp

  def g(W, x):
    y = jnp.dot(W, x)
    return jnp.sin(y)

  def f(W1, W2, W3, x):
    x = g(W1, x)
    x = g(W2, x)
    x = g(W3, x)
    return x

  W1 = jnp.ones((5, 4))
  W2 = jnp.ones((6, 5))
  W3 = jnp.ones((7, 6))
  x = jnp.ones(4)

  # Inspect the 'residual' values to be saved on the forward pass
  # if you were to evaluate `jax.grad(f)(W1, W2, W3, x)`
  from jax.ad_checkpoint import print_saved_residuals
  with recorded():
    print_saved_residuals(f, W1, W2, W3, x)

  def f2(W1, W2, W3, x):
    x = jax.checkpoint(g)(W1, x)
    x = jax.checkpoint(g)(W2, x)
    x = jax.checkpoint(g)(W3, x)
    return x

  with recorded():
    print_saved_residuals(f2, W1, W2, W3, x)

  f3 = jax.checkpoint(f, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
  with recorded():
    print_saved_residuals(f3, W1, W2, W3, x)

  from jax.ad_checkpoint import checkpoint_name

  def f4(W1, W2, W3, x):
    x = checkpoint_name(g(W1, x), name='a')
    x = checkpoint_name(g(W2, x), name='b')
    x = checkpoint_name(g(W3, x), name='c')
    return x

  f4 = jax.checkpoint(f4, policy=jax.checkpoint_policies.save_only_these_names('a'))
  with recorded():
    print_saved_residuals(f4, W1, W2, W3, x)
  out['grads'] = [jax.grad(lambda *a: fun(*a).sum(), argnums=(0, 1, 2, 3))(W1, W2, W3, x)
                  for fun in (f, f2, f3, f4)]

  from jax.tree_util import tree_flatten, tree_unflatten

  def print_fwd_bwd(f, *args, **kwargs) -> None:
    args, in_tree = tree_flatten((args, kwargs))

    def f_(*args):
      args, kwargs = tree_unflatten(in_tree, args)
      return f(*args, **kwargs)

    fwd = jax.make_jaxpr(lambda *args: jax.vjp(f_, *args))(*args).jaxpr

    y, f_vjp = jax.vjp(f_, *args)
    res, in_tree = tree_flatten(f_vjp)

    def g_(*args):
      *res, y = args
      f_vjp = tree_unflatten(in_tree, res)
      return f_vjp(y)

    bwd = jax.make_jaxpr(g_)(*res, y).jaxpr

    # shown, not recorded: numbax's jaxprs differ (see programs/README.md)
    builtins.print("forward computation:", fwd)
    builtins.print("backward computation:", bwd)

  # Without using `jax.checkpoint`:
  print_fwd_bwd(f, W1, W2, W3, x)

  # Using `jax.checkpoint` with policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable:
  print_fwd_bwd(f3, W1, W2, W3, x)

  def sin_vjp(x):
    y = jnp.sin(x)
    cos_x = jnp.cos(x)
    return y, lambda y_bar: cos_x * y_bar

  def sin_vjp2(x):
    y = jnp.sin(x)
    return y, lambda y_bar: jnp.cos(x) * y_bar

  out['sin_vjp'] = [sin_vjp(3.)[1](1.), sin_vjp2(3.)[1](1.)]

  def f(x):
    y = g(x)
    z = h(y)
    return z

  def f_vjp(x):
    y, g_vjp = jax.vjp(g, x)
    z, h_vjp = jax.vjp(h, y)
    def f_bwd(z_bar):
      y_bar, = h_vjp(z_bar)
      x_bar, = g_vjp(y_bar)
      return x_bar
    return z, f_bwd

  def f_vjp_checkpoint(x):
    y = g(x)
    z, h_vjp = jax.vjp(h, y)
    def f_bwd2(z_bar):
      y_bar, = h_vjp(z_bar)
      _, g_vjp = jax.vjp(g, x)
      x_bar, = g_vjp(y_bar)
      return x_bar
    return z, f_bwd2

  def f_checkpoint(x):
    y = jax.checkpoint(g)(x)
    z = h(y)
    return z

  def f_checkpoint_grad(x):
    y = g(x)                  # step 1
    _, h_vjp = jax.vjp(h)(y)  # step 2
    y_bar, = h_vjp(1.0)       # step 3
    _, g_vjp = jax.vjp(g, x)  # step 4
    x_bar, = g_vjp(y_bar)     # step 5
    return x_bar

  def f_grad_bad(x):
    _ = f(x)                  # step 1
    _, f_vjp = jax.vjp(f, x)  # step 2
    x_bar, = f_vjp(1.0)       # step 3
    return x_bar

  def f_grad_bad2(x):
    y, g_vjp = jax.vjp(g, x)  # step 1
    z = h(y)                  # step 2
    _, h_vjp = jax.vjp(h, y)  # step 3
    y_bar, = h_vjp(1.0)       # step 3
    x_bar, = g_vjp(y_bar)     # step 5
    return x_bar

  # (the cells above use `g` and `h` of one argument: here sin and cos)
  g, h = jnp.sin, jnp.cos
  out['f_vjps'] = [f_vjp(2.)[1](1.), f_vjp_checkpoint(2.)[1](1.),
                   jax.grad(f_checkpoint)(2.), f_grad_bad(2.), f_grad_bad2(2.)]

  def loss(params, x, y):
    return jnp.sum((predict(params, x) - y)**2)

  def predict(params, x):
    *Ws, Wlast = params
    for W in Ws:
      x = layer(W, x)
    x = jnp.dot(Wlast, x)
    return x

  def layer(W, x):
    return jnp.sin(jnp.dot(W, x))

  W1 = W2 = W3 = jnp.ones((4, 4))
  params = [W1, W2, W3]
  x = jnp.ones(4)
  y = jnp.ones(4)

  with recorded():
    print_saved_residuals(loss, params, x, y)

  loss_checkpoint = jax.checkpoint(loss, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
  with recorded():
    print_saved_residuals(loss_checkpoint, params, x, y)

  from jax.ad_checkpoint import checkpoint_name

  def predict(params, x):
    *Ws, Wlast = params
    for i, W in enumerate(Ws):
      x = layer(W, x)
      x = checkpoint_name(x, name=f'layer{i}_output')
    x = jnp.dot(Wlast, x)
    return x

  with recorded():
    print_saved_residuals(loss, params, x, y)

  loss_checkpoint2 = jax.checkpoint(loss, policy=jax.checkpoint_policies.save_any_names_but_these('layer1_output'))
  with recorded():
    print_saved_residuals(loss_checkpoint2, params, x, y)
  out['loss_grads'] = [jax.grad(fun)(params, x, y)
                       for fun in (loss, loss_checkpoint, loss_checkpoint2)]

  from jax import checkpoint

  def checkpoint_offload_dot_with_no_batch_dims(self):
    policy = jax.checkpoint_policies.offload_dot_with_no_batch_dims(
        "device", "pinned_host")

    @functools.partial(checkpoint, policy=policy)
    def f(x):
      x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
      x = jnp.sin(x)
      x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
      x = jnp.sin(x)
      x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
      x = jnp.sin(x)
      x = jnp.sum(x)
      return x

  from jax import checkpoint
  from jax.ad_checkpoint import checkpoint_name
  from jax._src import test_util as jtu

  def checkpoint_names_saved_offloaded_recomputed(self):
    mesh = jtu.create_mesh((2,), ("x",))
    shape = (256, 128)
    np_inp = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    s = NamedSharding(mesh, P("x"))
    inp = jax.device_put(np_inp, s)

    policy = jax.checkpoint_policies.save_and_offload_only_these_names(
        names_which_can_be_saved=["y"], names_which_can_be_offloaded=["z"],
        offload_src='device', offload_dst='pinned_host')

    @functools.partial(checkpoint, policy=policy)
    def f(x):
      def g(ys, _):
        y, _ = ys
        y = checkpoint_name(jnp.sin(y), "y")
        z = checkpoint_name(jnp.sin(y), "z")
        z = z.T
        w = checkpoint_name(jnp.sin(z), "w")
        return (w.T, jnp.sum(w)), None
      _, scan_out = jax.lax.scan(g, (x, np.array(1, dtype=np.float32)), [np_inp])[0]
      return scan_out

  # (not in the page: the two methods' `f`s, differentiated on CPU, where offloading runs)
  import functools
  import numpy as np
  from jax import lax

  policy = jax.checkpoint_policies.offload_dot_with_no_batch_dims(
      "device", "pinned_host")

  @functools.partial(checkpoint, policy=policy)
  def f(x):
    x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
    x = jnp.sin(x)
    x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
    x = jnp.sin(x)
    x = jnp.einsum('ij,jk->ik', x, x, precision=lax.Precision.HIGHEST)
    x = jnp.sin(x)
    x = jnp.sum(x)
    return x

  out['offload_dots'] = [jax.grad(f)(jnp.arange(16.).reshape(4, 4) / 16),
                         jax.jit(jax.grad(f))(jnp.arange(16.).reshape(4, 4) / 16)]

  np_inp = np.arange(8 * 4, dtype=np.float32).reshape(8, 4) / 32
  policy = jax.checkpoint_policies.save_and_offload_only_these_names(
      names_which_can_be_saved=["y"], names_which_can_be_offloaded=["z"],
      offload_src='device', offload_dst='pinned_host')

  @functools.partial(checkpoint, policy=policy)
  def f(x):
    def g(ys, _):
      y, _ = ys
      y = checkpoint_name(jnp.sin(y), "y")
      z = checkpoint_name(jnp.sin(y), "z")
      z = z.T
      w = checkpoint_name(jnp.sin(z), "w")
      return (w.T, jnp.sum(w)), None
    _, scan_out = jax.lax.scan(g, (x, np.array(1, dtype=np.float32)), [np_inp])[0]
    return scan_out

  out['offload_names'] = [jax.grad(f)(np_inp), jax.jit(jax.grad(f))(np_inp)]

  def chain_compose(funs):
    def f(x):
      for fun in funs:
        x = fun(x)
      return x
    return f

  f = chain_compose([jnp.sin] * 8)
  with recorded():
    print_saved_residuals(f, 3.)

  f = chain_compose([jnp.sin] * 16)
  with recorded():
    print_saved_residuals(f, 3.)

  def recursive_checkpoint(funs):
    if len(funs) == 1:
      return funs[0]
    elif len(funs) == 2:
      f1, f2 = funs
      return lambda x: f1(f2(x))
    else:
      f1 = recursive_checkpoint(funs[:len(funs)//2])
      f2 = recursive_checkpoint(funs[len(funs)//2:])
      return lambda x: f1(jax.checkpoint(f2)(x))

  f = recursive_checkpoint([jnp.sin] * 8)
  with recorded():
    print_saved_residuals(f, 3.)

  f = recursive_checkpoint([jnp.sin] * 16)
  with recorded():
    print_saved_residuals(f, 3.)
  out['chain_grads'] = [jax.grad(chain_compose([jnp.sin] * 16))(3.),
                        jax.grad(recursive_checkpoint([jnp.sin] * 16))(3.)]

  f = chain_compose([jnp.sin] * 8)
  print_fwd_bwd(f, 3.)

  f = recursive_checkpoint([jnp.sin] * 8)
  print_fwd_bwd(f, 3.)

  LayerParam = tuple[jnp.ndarray, jnp.ndarray]  # Weights-bias pair for a layer.
  ParamsList = list[LayerParam]

  def net(params: ParamsList, x: jnp.ndarray):
    for W, b in params:
      x = jnp.maximum(jnp.dot(x, W) + b, 0.)
    return x

  params = [(jnp.array([[0.5, 0.5], [1., 1.]]), jnp.array([0.5, 0.5])),
            (jnp.array([[0.5, 0.5], [1., 1.]]), jnp.array([0.5, 0.5]))]
  x = jnp.array([1., 2.])
  out['net_loop'] = [net(params, x), jax.grad(lambda p: net(p, x).sum())(params)]

  all_weights = jnp.stack([W for W, _ in params])
  all_biases = jnp.stack([b for _, b in params])

  def layer(x, W_b_pair):
    W, b = W_b_pair
    out = jnp.maximum(jnp.dot(x, W) + b, 0.)
    return out, None

  def net(all_weights, all_biases, x):
    x, _ = jax.lax.scan(layer, x, (all_weights, all_biases))
    return x

  def net_loss(all_weights, all_biases, x):
    return net(all_weights, all_biases, x).sum()

  out['net_scan'] = [net(all_weights, all_biases, x),
                     jax.grad(net_loss, argnums=(0, 1))(all_weights, all_biases, x)]
  with recorded():
    print_saved_residuals(net_loss, all_weights, all_biases, x)

  from functools import partial

  @partial(jax.checkpoint,
           policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
  def layer(x, W_b_pair):
    W, b = W_b_pair
    out = jnp.maximum(jnp.dot(x, W) + b, 0.)
    return out, None

  out['net_scan_checkpoint'] = [net(all_weights, all_biases, x),
                                jax.grad(net_loss, argnums=(0, 1))(all_weights, all_biases, x)]
  with recorded():
    print_saved_residuals(net_loss, all_weights, all_biases, x)
  out['printed'] = printed
  return out
