# Copyright 2024 The Flax Authors.
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


"""Flax's docs/guides/training_techniques/transfer_learning.md (3e789b71): its code cells
verbatim in `run()`: the `vision_model` sub-Module of a loaded CLIP module and its variables
by `bind(...).vision_model.unbind()`, a `Classifier` with the pretrained Module as a dataclass
field (`backbone`) and a zero-initialized `Dense` head, the pretrained parameters transferred
into the classifier's, `optax.multi_transform` of `adam` and `set_to_zero` over the labels of
`traverse_util.path_aware_map`, a subset of the labels shown by `flatten_dict`/
`unflatten_dict`, a `TrainState`. Then (port) what the guide says follows, "training can
proceed normally": three jitted cross-entropy steps on random images, the backbone unchanged.
HuggingFace's `FlaxCLIPModel.from_pretrained('openai/clip-vit-base-patch32')` is a small
stand-in: a CLIP module laid out as transformers' `FlaxCLIPModule` (`text_model`,
`vision_model` as a one-layer ViT with 32x32 patches whose output has `pooler_output`,
`visual_projection`, `text_projection`, `logit_scale`), 16 wide, initialized from a fixed key
in place of the downloaded weights; IPython's `clear_output` does nothing."""

from typing import Any

import flax
import jax
import jax.numpy as jnp
import flax.linen as nn


# (port) Stand-ins for IPython's `clear_output` and transformers' `FlaxCLIPModel`.


def clear_output(wait=False):
  pass


@flax.struct.dataclass
class FlaxBaseModelOutputWithPooling:
  last_hidden_state: jnp.ndarray
  pooler_output: jnp.ndarray


class FlaxCLIPEncoderLayer(nn.Module):
  hidden_size: int
  num_heads: int

  @nn.compact
  def __call__(self, hidden_states):
    residual = hidden_states
    hidden_states = nn.LayerNorm(epsilon=1e-5, name='layer_norm1')(hidden_states)
    hidden_states = nn.SelfAttention(num_heads=self.num_heads, name='self_attn')(hidden_states)
    hidden_states = residual + hidden_states
    residual = hidden_states
    hidden_states = nn.LayerNorm(epsilon=1e-5, name='layer_norm2')(hidden_states)
    hidden_states = nn.Dense(4 * self.hidden_size, name='fc1')(hidden_states)
    hidden_states = hidden_states * jax.nn.sigmoid(1.702 * hidden_states)  # quick_gelu
    hidden_states = nn.Dense(self.hidden_size, name='fc2')(hidden_states)
    return residual + hidden_states


class FlaxCLIPVisionTransformer(nn.Module):
  hidden_size: int = 16
  image_size: int = 224
  patch_size: int = 32

  def setup(self):
    self.class_embedding = self.param(
        'class_embedding', jax.nn.initializers.normal(stddev=0.02), (self.hidden_size,))
    self.patch_embedding = nn.Conv(
        self.hidden_size, kernel_size=(self.patch_size, self.patch_size),
        strides=(self.patch_size, self.patch_size), padding='VALID', use_bias=False)
    num_positions = (self.image_size // self.patch_size) ** 2 + 1
    self.position_embedding = nn.Embed(num_positions, self.hidden_size)
    self.pre_layrnorm = nn.LayerNorm(epsilon=1e-5)
    self.layer = FlaxCLIPEncoderLayer(self.hidden_size, num_heads=2)
    self.post_layernorm = nn.LayerNorm(epsilon=1e-5)

  def __call__(self, pixel_values):
    patch_embeds = self.patch_embedding(pixel_values)
    batch_size, height, width, channels = patch_embeds.shape
    patch_embeds = jnp.reshape(patch_embeds, (batch_size, height * width, channels))
    class_embeds = jnp.tile(jnp.expand_dims(self.class_embedding, axis=(0, 1)), (batch_size, 1, 1))
    embeddings = jnp.concatenate([class_embeds, patch_embeds], axis=1)
    embeddings = embeddings + self.position_embedding(jnp.arange(embeddings.shape[1])[None])
    last_hidden_state = self.layer(self.pre_layrnorm(embeddings))
    pooled_output = self.post_layernorm(last_hidden_state[:, 0, :])
    return FlaxBaseModelOutputWithPooling(last_hidden_state, pooled_output)


class FlaxCLIPTextTransformer(nn.Module):
  hidden_size: int = 16
  vocab_size: int = 50

  @nn.compact
  def __call__(self, input_ids):
    hidden_states = nn.Embed(self.vocab_size, self.hidden_size, name='token_embedding')(input_ids)
    last_hidden_state = FlaxCLIPEncoderLayer(self.hidden_size, num_heads=2, name='layer')(hidden_states)
    last_hidden_state = nn.LayerNorm(epsilon=1e-5, name='final_layer_norm')(last_hidden_state)
    pooled_output = last_hidden_state[jnp.arange(input_ids.shape[0]), input_ids.argmax(axis=-1)]
    return FlaxBaseModelOutputWithPooling(last_hidden_state, pooled_output)


class FlaxCLIPModule(nn.Module):
  projection_dim: int = 8

  def setup(self):
    self.text_model = FlaxCLIPTextTransformer()
    self.vision_model = FlaxCLIPVisionTransformer()
    self.visual_projection = nn.Dense(self.projection_dim, use_bias=False)
    self.text_projection = nn.Dense(self.projection_dim, use_bias=False)
    self.logit_scale = self.param('logit_scale', lambda _, shape: jnp.ones(shape) * 2.6592, [])

  def __call__(self, input_ids, pixel_values):
    image_embeds = self.visual_projection(self.vision_model(pixel_values).pooler_output)
    text_embeds = self.text_projection(self.text_model(input_ids).pooler_output)
    image_embeds = image_embeds / jnp.linalg.norm(image_embeds, axis=-1, keepdims=True)
    text_embeds = text_embeds / jnp.linalg.norm(text_embeds, axis=-1, keepdims=True)
    return jnp.matmul(text_embeds, image_embeds.T) * jnp.exp(self.logit_scale)


class FlaxCLIPModel:

  def __init__(self, module, params):
    self.module, self.params = module, params

  @classmethod
  def from_pretrained(cls, name):
    module = FlaxCLIPModule()
    variables = module.init(
        jax.random.key(42), jnp.zeros((1, 8), 'i4'), jnp.zeros((1, 224, 224, 3)))
    return cls(module, variables['params'])


def run():
  out = {}

  # Note: FlaxCLIPModel is not a Flax Module
  def load_model():
    clip = FlaxCLIPModel.from_pretrained('openai/clip-vit-base-patch32')
    clear_output(wait=False) # Clear the loading messages
    module = clip.module # Extract the Flax Module
    variables = {'params': clip.params} # Extract the parameters
    return module, variables

  import flax.linen as nn

  clip, clip_variables = load_model()
  vision_model, vision_model_vars = clip.bind(clip_variables).vision_model.unbind()

  from typing import Callable
  import jax.numpy as jnp
  import jax

  out['vision_model'] = [type(vision_model).__name__, vision_model.parent is None,
                         jax.tree_util.tree_map(jnp.shape, vision_model_vars)]

  class Classifier(nn.Module):
    num_classes: int
    backbone: nn.Module
    

    @nn.compact
    def __call__(self, x):
      x = self.backbone(x).pooler_output
      x = nn.Dense(
        self.num_classes, name='head', kernel_init=nn.zeros)(x)
      return x

  num_classes = 3
  model = Classifier(num_classes=num_classes, backbone=vision_model)

  x = jnp.empty((1, 224, 224, 3))
  variables = model.init(jax.random.key(1), x)
  params = variables['params']

  out['init'] = [list(variables), list(params), jax.tree_util.tree_map(jnp.shape, params)]
  random_backbone = params['backbone']

  params['backbone'] = vision_model_vars['params']

  out['transferred'] = [
      list(params),
      jax.tree_util.tree_all(jax.tree_util.tree_map(
          lambda a, b: bool((a == b).all()), params['backbone'], clip_variables['params']['vision_model'])),
      jax.tree_util.tree_all(jax.tree_util.tree_map(
          lambda a, b: bool((a == b).all()), params['backbone'], random_backbone))]

  from flax import traverse_util
  import optax

  partition_optimizers = {'trainable': optax.adam(5e-3), 'frozen': optax.set_to_zero()}
  param_partitions = traverse_util.path_aware_map(
    lambda path, v: 'frozen' if 'backbone' in path else 'trainable', params)
  tx = optax.multi_transform(partition_optimizers, param_partitions)

  # visualize a subset of the param_partitions structure
  flat = list(traverse_util.flatten_dict(param_partitions).items())
  out['partitions'] = traverse_util.unflatten_dict(dict(flat[:2] + flat[-2:]))
  out['flat'] = [['/'.join(k), v] for k, v in flat]

  from flax.training.train_state import TrainState

  state = TrainState.create(
    apply_fn=model.apply,
    params=params,
    tx=tx)

  # (port) "Since the optimizer takes care of the freezing or fine-tunning strategy, the
  # `train_step` requires no additional changes, training can proceed normally."
  @jax.jit
  def train_step(state, images, labels):
    def loss_fn(params):
      logits = state.apply_fn({'params': params}, images)
      return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), loss, logits

  images = jax.random.uniform(jax.random.key(2), (4, 224, 224, 3))
  labels = jnp.array([0, 1, 2, 1])
  losses = []
  for _ in range(3):
    state, loss, logits = train_step(state, images, labels)
    losses.append(loss)
  out['losses'] = jnp.stack(losses)
  out['logits'] = logits
  out['head'] = state.params['head']
  out['backbone_frozen'] = jax.tree_util.tree_all(jax.tree_util.tree_map(
      lambda a, b: bool((a == b).all()), state.params['backbone'], vision_model_vars['params']))
  out['opt_state'] = [type(state.opt_state).__name__, sorted(state.opt_state.inner_states),
                      jax.tree_util.tree_map(jnp.shape, state.opt_state.inner_states['trainable'])]
  out['step'] = state.step
  return out
