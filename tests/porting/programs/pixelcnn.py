# Copyright 2022 The Flax Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Flax's examples/pixelcnn (removed in 866ce07b; taken from 866ce07b^): `pixelcnn.py`
verbatim (PixelCNN++: weight-normalized convolutions and transposed convolutions with a
data-dependent initializer returning a dict of parameters, `lax.pad` with negative padding as
shifts, gated resnets with `partial`s of `nn.Dropout`, a discretized logistic mixture
likelihood with a `custom_jvp` `log1mexp` and `defjvps`), `train.py`'s `model`,
`neg_log_likelihood_loss`, `train_step` and `eval_step` under `pmap` with `axis_name='batch'`,
`load_and_shard_tf_batch`, `shard_prng_key`, `replicate`, `get_metrics`, an exponential moving
average of the parameters, and `sample.py`'s `conditional_params_to_sample` (a categorical
mixture draw, `random.logistic`, `snap_to_grid`). `train_and_evaluate` as `run()`: the config
as an attribute dict (no `ml_collections`), depth 1, 8 features, 2 logistic components, 8x8
images (uniform noise scaled as `input_pipeline` scales pixels) in batches of 16 over the
eight devices, 3 training steps and one evaluation, the EMA parameters sampled once (unpmapped:
`sample_iteration`'s `static_broadcasted_argnums=2` names the parameters and its `apply` lacks
`train=`, so that file never ran at this commit). (port) marks the changed lines: Optax's
`adam(b1=0.95, b2=0.9995)` with the example's exponential learning-rate decay for the removed
`flax.optim.Adam` (parameters and optimizer state in place of the `Optimizer`), `jax.tree.map`
for the removed `tree_multimap`/`tree_map`."""

from functools import partial
from typing import Any, Callable, Iterable, Tuple, Optional, Union

import flax.linen as nn
import jax
from jax import lax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
import numpy as np

import functools
from flax import jax_utils
from flax.training import common_utils
from jax import random
import optax


class PixelCNNPP(nn.Module):
  """PixelCNN++ module."""
  depth: int = 5
  features: int = 160
  logistic_components: int = 10
  dropout_p: float = 0.5

  @nn.compact
  def __call__(self, images, *, train):
    # Special convolutional and resnet blocks which allow information flow
    # downwards and to the right.
    conv_down = partial(ConvDown, features=self.features)
    conv_down_right = partial(ConvDownRight, features=self.features)

    dropout = partial(
      nn.Dropout, rate=self.dropout_p, deterministic=not train)

    res_down = partial(ResDown, dropout=dropout)
    res_down_right = partial(ResDownRight, dropout=dropout)

    # Conv Modules which halve or double the spatial dimensions
    halve_down = partial(conv_down, strides=(2, 2))
    halve_down_right = partial(conv_down_right, strides=(2, 2))

    double_down = partial(ConvTransposeDown, features=self.features)
    double_down_right = partial(ConvTransposeDownRight, features=self.features)

    # Add channel of ones to distinguish image from padding later on
    images = jnp.pad(images, ((0, 0), (0, 0), (0, 0), (0, 1)), constant_values=1)

    # Stack of `(down, down_right)` pairs, where information flows downwards
    # through `down` and downwards and to the right through `down_right`.
    # We refer to the building of the stack as the 'forward pass' and the
    # undoing of the stack as the 'reverse pass'.
    stack = []

    # -------------------------- FORWARD PASS ----------------------------------
    down = shift_down(conv_down(kernel_size=(2, 3))(images))
    down_right = (
        shift_down(conv_down(kernel_size=(1, 3))(images))
        + shift_right(conv_down_right(kernel_size=(2, 1))(images)))

    stack.append((down, down_right))
    for _ in range(self.depth):
      down, down_right = res_down()(down), res_down_right()(down_right, down)
      stack.append((down, down_right))

    # Resize spatial dims 32 x 32  -->  16 x 16
    down, down_right = halve_down()(down), halve_down_right()(down_right)
    stack.append((down, down_right))

    for _ in range(self.depth):
      down, down_right = res_down()(down), res_down_right()(down_right, down)
      stack.append((down, down_right))

    # Resize spatial dims 16 x 16  -->  8 x 8
    down, down_right = halve_down()(down), halve_down_right()(down_right)
    stack.append((down, down_right))

    for _ in range(self.depth):
      down, down_right = res_down()(down), res_down_right()(down_right, down)
      stack.append((down, down_right))

    # The stack now contains (in order from last appended):
    #
    #   Number of layers     Spatial dims
    #   depth + 1             8 x  8
    #   depth + 1            16 x 16
    #   depth + 1            32 x 32

    # -------------------------- REVERSE PASS ----------------------------------
    down, down_right = stack.pop()

    for _ in range(self.depth):
      down_fwd, down_right_fwd = stack.pop()
      down = res_down()(down, down_fwd)
      down_right = res_down_right()(
          down_right, jnp.concatenate((down, down_right_fwd), -1))

    # Resize spatial dims 8 x 8  -->  16 x 16
    down, down_right = double_down()(down), double_down_right()(down_right)

    for _ in range(self.depth + 1):
      down_fwd, down_right_fwd = stack.pop()
      down = res_down()(down, down_fwd)
      down_right = res_down_right()(
          down_right, jnp.concatenate((down, down_right_fwd), -1))

    # Resize spatial dims 16 x 16  -->  32 x 32
    down, down_right = double_down()(down), double_down_right()(down_right)

    for _ in range(self.depth + 1):
      down_fwd, down_right_fwd = stack.pop()
      down = res_down()(down, down_fwd)
      down_right = res_down_right()(
          down_right, jnp.concatenate((down, down_right_fwd), -1))

    assert not stack

    # Note init_scale=0.1 on this layer was not in the original implementation,
    # but seems to make training more stable.
    return ConvOneByOne(10 * self.logistic_components,
                        init_scale=0.1)(nn.elu(down_right))


def concat_elu(x):
  return nn.elu(jnp.concatenate((x, -x), -1))


def spatial_pad(pad_vertical, pad_horizontal, operand):
  """Wrapper around lax.pad which pads spatial dimensions (horizontal and
  vertical) with zeros, without any interior padding."""
  zero = (0, 0, 0)
  return lax.pad(operand, jnp.zeros((), operand.dtype),
                 (zero, pad_vertical + (0,), pad_horizontal + (0,), zero))


shift_down = partial(spatial_pad, (1, -1), (0, 0))
shift_right = partial(spatial_pad, (0, 0), (1, -1))


# Weightnorm utils
def _l2_normalize(v):
  """Normalize a convolution kernel direction over the in_features and spatial
  dimensions."""
  return v / jnp.sqrt(jnp.sum(jnp.square(v), (0, 1, 2), keepdims=True))


def _make_kernel(direction, scale):
  """Maps weightnorm parameterization (direction, scale) to standard
  parameterization. The direction has shape (spatial..., in_features,
  out_features), scale has shape (out_features,)."""
  scale = scale.reshape((1,) * (direction.ndim - 1) + (-1,))
  return scale * _l2_normalize(direction)


# 2D convolution Modules with weightnorm
class ConvWeightNorm(nn.Module):
  """2D convolution Modules with weightnorm."""
  features: int
  kernel_size: Tuple[int, int]
  strides: Optional[Tuple[int, int]] = None
  padding: Union[str, Iterable[Iterable[int]]] = 'VALID'
  transpose: bool = False
  init_scale: float = 1.
  dtype: Any = jnp.float32
  precision: Any = None

  @nn.compact
  def __call__(self, inputs):
    inputs = jnp.asarray(inputs, self.dtype)
    strides = self.strides or (1,) * (inputs.ndim - 2)

    if self.transpose:
      conv = partial(lax.conv_transpose, strides=strides, padding=self.padding,
                     precision=self.precision)
    else:
      conv = partial(lax.conv_general_dilated, window_strides=strides,
                     padding=self.padding,
                     dimension_numbers=('NHWC', 'HWIO', 'NHWC'),
                     precision=self.precision)

    in_features = inputs.shape[-1]
    kernel_shape = self.kernel_size + (in_features, self.features)

    def initializer(key):
      # A weightnorm initializer generating a (direction, scale, bias) tuple.
      direction = nn.initializers.normal()(key, kernel_shape, self.dtype)
      unnormed_out = conv(inputs, _l2_normalize(direction))
      mean = jnp.mean(unnormed_out, (0, 1, 2))
      var = jnp.std(unnormed_out, (0, 1, 2))
      return dict(
          direction=direction, scale=self.init_scale / var, bias=-mean / var)

    params = self.param('weightnorm_params', initializer)
    direction, scale, bias = [params[k] for k in ('direction', 'scale', 'bias')]
    y = conv(inputs, _make_kernel(direction, scale))
    y += jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
    return y


ConvOneByOne = partial(ConvWeightNorm, kernel_size=(1, 1))
ConvTranspose = partial(ConvWeightNorm, transpose=True)


class ConvDown(nn.Module):
  """Convolution with padding so that information cannot flow upwards."""
  features: int
  kernel_size: Tuple[int, int] = (2, 3)
  strides: Optional[Tuple[int, int]] = None
  init_scale: float = 1.

  @nn.compact
  def __call__(self, inputs):
    k_h, k_w = self.kernel_size
    assert k_w % 2 == 1, 'kernel width must be odd.'
    padding = ((k_h - 1, 0),          # Vertical padding
               (k_w // 2, k_w // 2))  # Horizontal padding

    return ConvWeightNorm(
        self.features, self.kernel_size, self.strides, padding,
        init_scale=self.init_scale)(inputs)


class ConvDownRight(nn.Module):
  """Convolution with padding so that information cannot flow left/upwards."""
  features: Any
  kernel_size: Tuple[int, int] = (2, 2)
  strides: Optional[Tuple[int, int]] = None
  init_scale: float = 1.0

  @nn.compact
  def __call__(self, inputs):
    k_h, k_w = self.kernel_size
    padding = ((k_h - 1, 0),  # Vertical padding
               (k_w - 1, 0))  # Horizontal padding

    return ConvWeightNorm(
        self.features, self.kernel_size, self.strides, padding,
        init_scale=self.init_scale)(inputs)


class ConvTransposeDown(nn.Module):
  """Transpose convolution with output slicing so that information cannot flow
  upwards.  Strides are (2, 2) by default which implies the spatial dimensions
  of the output shape are double those of the input shape.
  """
  features: Any
  kernel_size: Tuple[int, int] = (2, 3)
  strides: Optional[Tuple[int, int]] = (2, 2)

  @nn.compact
  def __call__(self, inputs):
    _, k_w = self.kernel_size
    out_h, out_w = np.multiply(self.strides, inputs.shape[1:3])
    return ConvTranspose(self.features, self.kernel_size, self.strides)(inputs)[
        :, :out_h, (k_w - 1) // 2:out_w + (k_w - 1) // 2, :]

class ConvTransposeDownRight(nn.Module):
  """Transpose convolution with output slicing so that information cannot flow.

  to the left or upwards. Strides are (2, 2) by default which implies the
  spatial dimensions of the output shape are double those of the input shape.
  """
  features: Any
  kernel_size: Tuple[int, int] = (2, 2)
  strides: Optional[Tuple[int, int]] = (2, 2)

  @nn.compact
  def __call__(self, inputs):
    out_h, out_w = np.multiply(self.strides, inputs.shape[1:3])
    return ConvTranspose(self.features, self.kernel_size,
                         self.strides)(inputs)[:, :out_h, :out_w]


# Resnet modules
class GatedResnet(nn.Module):
  conv_module: Callable[..., Any]
  dropout: Callable[..., Any]
  nonlinearity: Callable[..., Any] = concat_elu

  @nn.compact
  def __call__(self, inputs, aux=None):
    c = inputs.shape[-1]
    y = self.conv_module(c)(self.nonlinearity(inputs))
    if aux is not None:
      y = self.nonlinearity(y + ConvOneByOne(c)(self.nonlinearity(aux)))

    y = self.dropout()(y)

    # Set init_scale=0.1 so that the res block is close to the identity at
    # initialization.
    a, b = jnp.split(self.conv_module(2 * c, init_scale=0.1)(y), 2, axis=-1)
    return inputs + a * nn.sigmoid(b)


ResDown = partial(GatedResnet, conv_module=ConvDown)
ResDownRight = partial(GatedResnet, conv_module=ConvDownRight)


# Logistic mixture distribution utils
def conditional_params_from_outputs(theta, img):
  """Maps an image `img` and the PixelCNN++ convnet output `theta` to
  conditional parameters for a mixture of k logistics over each pixel.

  Returns a tuple `(means, inverse_scales, logit_weights)` where `means` and
  `inverse_scales` are the conditional means and inverse scales of each mixture
  component (for each pixel-channel) and `logit_weights` are the logits of the
  mixture weights (for each pixel). These have the following shapes:

    means.shape == inv_scales.shape == (batch..., k, h, w, c)
    logit_weights.shape == (batch..., k, h, w)

  Args:
    theta: outputs of PixelCNN++ neural net with shape
      (batch..., h, w, (1 + 3 * c) * k)
    img: an image with shape (batch..., h, w, c)

  Returns:
    The tuple `(means, inverse_scales, logit_weights)`.
  """
  *batch, h, w, c = img.shape
  assert theta.shape[-1] % (3 * c + 1) == 0
  k = theta.shape[-1] // (3 * c + 1)

  logit_weights, theta = theta[..., :k], theta[..., k:]
  assert theta.shape[-3:] == (h, w, 3 * c * k)

  # Each of m, s and t must have shape (batch..., k, h, w, c), we effectively
  # spread the last dimension of theta out into c, k, 3, move the k dimension to
  # after batch and split along the 3 dimension.
  m, s, t = jnp.moveaxis(
      jnp.reshape(theta,
                  tuple(batch) + (h, w, c, k, 3)), (-2, -1), (-4, 0))
  assert m.shape[-4:] == (k, h, w, c)
  t = jnp.tanh(t)

  # Add a mixture dimension to images
  img = jnp.expand_dims(img, -4)

  # Ensure inv_scales cannot be zero (zeros cause nans in sampling)
  inv_scales = jnp.maximum(nn.softplus(s), 1e-7)

  # now condition the means for the last 2 channels (assuming c == 3)
  mean_red = m[..., 0]
  mean_green = m[..., 1] + t[..., 0] * img[..., 0]
  mean_blue = m[..., 2] + t[..., 1] * img[..., 0] + t[..., 2] * img[..., 1]
  means = jnp.stack((mean_red, mean_green, mean_blue), axis=-1)
  return means, inv_scales, jnp.moveaxis(logit_weights, -1, -3)


def logprob_from_conditional_params(images, means, inv_scales, logit_weights):
  """Compute log-likelihoods.

  Computes the log-likelihoods of images given the conditional logistic mixture
  parameters produced by `conditional_params_from_outputs`. The 8-bit pixel
  values are assumed to be scaled so that they are in the discrete set

    {-1, -1 + 1/127.5, -1 + 2/127.5, ..., 1 - 1/127.5, 1}
  """
  # Add a 'mixture' dimension to images.
  images = jnp.expand_dims(images, -4)

  # Calculate log probabilities under all mixture components.
  all_logprobs = discretized_logistic_logpmf(images, means, inv_scales)

  # Sum over the channel dimension because mixture components are shared
  # across channels.
  logprobs = jnp.sum(all_logprobs, -1)

  # Normalize the mixture weights.
  log_mix_coeffs = logit_weights - logsumexp(logit_weights, -3, keepdims=True)

  # Finally marginalize out mixture components and sum over pixels.
  return jnp.sum(logsumexp(log_mix_coeffs + logprobs, -3), (-2, -1))


def discretized_logistic_logpmf(images, means, inv_scales):
  """Compute log-probabilities for each mixture component, pixel and channel."""
  # Compute the difference between the logistic cdf half a level above and half
  # a level below the image value.
  centered = images - means

  # Where images == 1 we use log(1 - cdf(images - 1 / 255))
  top = -jnp.logaddexp(0, (centered - 1 / 255) * inv_scales)

  # Where images == -1 we use log(cdf(images + 1 / 255))
  bottom = -jnp.logaddexp(0, -(centered + 1 / 255) * inv_scales)

  # Elsewhere we use log(cdf(images + 1 / 255) - cdf(images - 1 / 255))
  mid = log1mexp(inv_scales / 127.5) + top + bottom

  return jnp.where(images == 1, top, jnp.where(images == -1, bottom, mid))


@jax.custom_jvp
def log1mexp(x):
  """Accurate computation of log(1 - exp(-x)) for x > 0."""

  # Method from
  # https://cran.r-project.org/web/packages/Rmpfr/vignettes/log1mexp-note.pdf
  return jnp.where(x > jnp.log(2), jnp.log1p(-jnp.exp(-x)),
                   jnp.log(-jnp.expm1(-x)))


# log1mexp produces NAN gradients for small inputs because the derivative of the
# log1p(-exp(-eps)) branch has a zero divisor (1 + -jnp.exp(-eps)), and NANs in
# the derivative of one branch of a where cause NANs in the where's vjp, even
# when the NAN branch is not taken. See
# https://github.com/google/jax/issues/1052. We work around this by defining a
# custom jvp.
log1mexp.defjvps(lambda t, _, x: t / jnp.expm1(x))


# ---------------------------------------------------------------- train.py


def model(config, **kwargs):
  return PixelCNNPP(
      depth=config.n_resnet,
      features=config.n_feature,
      logistic_components=config.n_logistic_mix,
      **kwargs)


def neg_log_likelihood_loss(nn_out, images):
  # The log-likelihood in bits per pixel-channel
  means, inv_scales, logit_weights = (
      conditional_params_from_outputs(nn_out, images))
  log_likelihoods = logprob_from_conditional_params(
      images, means, inv_scales, logit_weights)
  return -jnp.mean(log_likelihoods) / (jnp.log(2) * np.prod(images.shape[-3:]))


def train_step(config, learning_rate_fn, tx, params, opt_state,  # (port) tx, params, opt_state
               ema, batch, dropout_rng):
  """Perform a single training step."""

  def loss_fn(params):
    """loss function used for training."""
    pcnn_out = model(
        config,
        dropout_p=config.dropout_rate).apply({'params': params},
                                             batch['image'],
                                             rngs={'dropout': dropout_rng},
                                             train=True)
    return neg_log_likelihood_loss(pcnn_out, batch['image'])

  lr = learning_rate_fn(opt_state[0].count)  # (port) optimizer.state.step
  grad_fn = jax.value_and_grad(loss_fn)
  loss, grad = grad_fn(params)  # (port) optimizer.target
  grad = jax.lax.pmean(grad, 'batch')
  updates, opt_state = tx.update(grad, opt_state)  # (port) optimizer.apply_gradient
  params = optax.apply_updates(params, updates)  # (port)

  # Compute exponential moving average (aka Polyak decay)
  ema_decay = config.polyak_decay
  ema = jax.tree.map(lambda ema, p: ema * ema_decay + (1 - ema_decay) * p,  # (port)
                     ema, params)

  metrics = {'loss': jax.lax.pmean(loss, 'batch'), 'learning_rate': lr}
  return params, opt_state, ema, metrics  # (port) optimizer


def eval_step(config, params, batch):
  images = batch['image']
  pcnn_out = model(config).apply({'params': params}, images, train=False)
  return {
      'loss': jax.lax.pmean(neg_log_likelihood_loss(pcnn_out, images), 'batch')
  }


def load_and_shard_tf_batch(xs):
  local_device_count = jax.local_device_count()

  def _prepare(x):
    # Use _numpy() for zero-copy conversion between TF and NumPy.
    x = np.asarray(x)  # (port) x._numpy()
    return x.reshape((local_device_count, -1) + x.shape[1:])

  return jax.tree.map(_prepare, xs)  # (port)


# --------------------------------------------------------------- sample.py


def _categorical_onehot(rng, logit_probs):
  """Sample from a categorical distribution and one-hot encode the sample."""
  nr_mix = logit_probs.shape[-3]
  idxs = random.categorical(rng, logit_probs, axis=-3)
  return jnp.moveaxis(idxs[..., jnp.newaxis] == jnp.arange(nr_mix), -1, -3)


def conditional_params_to_sample(rng, conditional_params):
  means, inv_scales, logit_probs = conditional_params
  rng_mix, rng_logistic = random.split(rng)
  # Add channel dimension to one-hot mixture indicator
  mix_indicator = _categorical_onehot(rng_mix, logit_probs)[..., jnp.newaxis]
  # Use the mixture indicator to select the mean and inverse scale
  mean      = jnp.sum(means      * mix_indicator, -4)
  inv_scale = jnp.sum(inv_scales * mix_indicator, -4)
  sample = mean + random.logistic(rng_logistic, mean.shape) / inv_scale
  return snap_to_grid(sample)


def snap_to_grid(sample):
  return jnp.clip(jnp.round((sample + 1) * 127.5) / 127.5 - 1, -1., 1.)


class _Config(dict):  # (port) ml_collections.ConfigDict
  __getattr__ = dict.__getitem__


def _batches(rng, n, size, hw):
  """(port) CIFAR10-like batches as `input_pipeline` gives them: pixels / 127.5 - 1."""
  for _ in range(n):
    yield {'image': rng.randint(0, 256, (size, hw, hw, 3)).astype(np.float32) / 127.5 - 1}


def run():
  config = _Config(learning_rate=0.001, lr_decay=0.999995, init_batch_size=4, batch_size=16,
                   dropout_rate=0.5, n_resnet=1, n_feature=8, n_logistic_mix=2,
                   polyak_decay=0.9995, seed=0)
  data = np.random.RandomState(0)
  train_iter = _batches(data, 4, config.batch_size, 8)
  eval_ds = list(_batches(data, 1, config.batch_size, 8))

  init_batch = next(train_iter)['image'][:config.init_batch_size]

  rng = jax.random.PRNGKey(config.seed)
  rng, init_rng, dropout_rng = jax.random.split(rng, 3)

  initial_variables = model(config).init(
      {
          'params': init_rng,
          'dropout': dropout_rng
      }, init_batch, train=False)['params']
  learning_rate_fn = lambda step: config.learning_rate * config.lr_decay**step
  tx = optax.adam(learning_rate_fn, b1=0.95, b2=0.9995)  # (port) optim.Adam(beta1=0.95, beta2=0.9995)
  params, opt_state = initial_variables, tx.init(initial_variables)  # (port)
  ema = initial_variables

  params, opt_state, ema = jax_utils.replicate((params, opt_state, ema))  # (port)

  # pmap the train and eval functions
  p_train_step = jax.pmap(
      functools.partial(train_step, config, learning_rate_fn, tx),  # (port) tx
      axis_name='batch')
  p_eval_step = jax.pmap(
      functools.partial(eval_step, config), axis_name='batch')

  train_metrics = []
  for step, batch in zip(range(0, 3), train_iter):
    batch = load_and_shard_tf_batch(batch)
    rng, step_rng = jax.random.split(rng)
    sharded_rngs = common_utils.shard_prng_key(step_rng)
    params, opt_state, ema, metrics = p_train_step(params, opt_state, ema, batch,
                                                   sharded_rngs)  # (port)
    train_metrics.append(metrics)

  train_metrics = common_utils.get_metrics(train_metrics)
  train_summary = jax.tree.map(lambda x: x.mean(), train_metrics)  # (port)
  eval_metrics = []
  for eval_batch in eval_ds:
    eval_batch = load_and_shard_tf_batch(eval_batch)
    metrics = p_eval_step(ema, eval_batch)
    eval_metrics.append(metrics)
  eval_metrics = common_utils.get_metrics(eval_metrics)
  eval_summary = jax.tree.map(lambda x: x.mean(), eval_metrics)  # (port)

  # (port) one step of `sample_iteration`, unpmapped, from the EMA parameters
  ema0 = jax_utils.unreplicate(ema)
  sample = jnp.zeros((2, 8, 8, 3))
  rng, dropout_rng = random.split(rng)
  out = model(config).apply({'params': ema0}, sample, rngs={'dropout': dropout_rng},
                            train=False)
  c_params = conditional_params_from_outputs(out, sample)
  sample = conditional_params_to_sample(rng, c_params)
  return dict(initial=initial_variables, params=jax_utils.unreplicate(params), ema=ema0,
              train_metrics=train_metrics, train_summary=train_summary,
              eval_summary=eval_summary, out=out, sample=sample,
              log1mexp=jax.grad(lambda x: log1mexp(x).sum())(jnp.array([1e-6, 0.5, 3.])))
