# Copyright 2021 The JAX Authors.
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

"""JAX's docs/notebooks/convolutions.md ("Generalized convolutions in JAX"): its code cells
verbatim in `run()` without matplotlib (what each plot showed is recorded instead, by `show`;
the 3-D density plots left out), a 60x80 synthetic image in place of `scipy.datasets.face()`
(a download); `print` records what the cells printed (arrays as arrays, the rest as strings).
The transposed convolution is also computed by `lax.conv_transpose` (the `tf.nn.conv2d_transpose`
the notebook names), with and without `transpose_kernel`."""

import builtins


def run():
  printed = []

  def print(*args):
    builtins.print(*args)
    printed.append([a if hasattr(a, 'dtype') else str(a) for a in args])

  shown = []

  def show(*arrays):
    shown.append(list(arrays))

  from jax import random
  import jax.numpy as jnp
  import numpy as np

  key = random.key(1701)

  x = jnp.linspace(0, 10, 500)
  y = jnp.sin(x) + 0.2 * random.normal(key, shape=(500,))

  window = jnp.ones(10) / 10
  y_smooth = jnp.convolve(y, window, mode='same')

  show(x, y)
  show(x, y_smooth)

  import jax.scipy as jsp

  # Load a sample image; compute mean() to convert from RGB to grayscale.
  rows, cols = np.mgrid[0:60, 0:80]
  face = np.stack([rows * 3, cols * 2, (rows + cols) % 64 * 4], -1).astype(np.uint8)
  image = jnp.array(face.mean(-1))
  show(image)

  # Create a noisy version by adding random Gaussian noise
  key = random.key(1701)
  noisy_image = image + 50 * random.normal(key, image.shape)
  show(noisy_image)

  # Smooth the noisy image with a 2D Gaussian smoothing kernel.
  x = jnp.linspace(-3, 3, 7)
  window = jsp.stats.norm.pdf(x) * jsp.stats.norm.pdf(x[:, None])
  smooth_image = jsp.signal.convolve(noisy_image, window, mode='same')
  show(smooth_image)

  # 2D kernel - HWIO layout
  kernel = jnp.zeros((3, 3, 3, 3), dtype=jnp.float32)
  kernel += jnp.array([[1, 1, 0],
                       [1, 0,-1],
                       [0,-1,-1]])[:, :, jnp.newaxis, jnp.newaxis]

  print("Edge Conv kernel:")
  show(kernel[:, :, 0, 0])

  # NHWC layout
  img = jnp.zeros((1, 200, 198, 3), dtype=jnp.float32)
  for k in range(3):
    x = 30 + 60*k
    y = 20 + 60*k
    img = img.at[0, x:x+10, y:y+10, k].set(1.0)

  print("Original Image:")
  show(img[0])

  from jax import lax
  out = lax.conv(jnp.transpose(img,[0,3,1,2]),    # lhs = NCHW image tensor
                 jnp.transpose(kernel,[3,2,0,1]), # rhs = OIHW conv kernel tensor
                 (1, 1),  # window strides
                 'SAME') # padding mode
  print("out shape: ", out.shape)
  print("First output channel:")
  show(np.array(out)[0,0,:,:])

  out = lax.conv_with_general_padding(
    jnp.transpose(img,[0,3,1,2]),    # lhs = NCHW image tensor
    jnp.transpose(kernel,[3,2,0,1]), # rhs = OIHW conv kernel tensor
    (1, 1),  # window strides
    ((2,2),(2,2)), # general padding 2x2
    (1,1),  # lhs/image dilation
    (1,1))  # rhs/kernel dilation
  print("out shape: ", out.shape)
  print("First output channel:")
  show(np.array(out)[0,0,:,:])

  dn = lax.conv_dimension_numbers(img.shape,     # only ndim matters, not shape
                                  kernel.shape,  # only ndim matters, not shape
                                  ('NHWC', 'HWIO', 'NHWC'))  # the important bit
  print(dn)

  out = lax.conv_general_dilated(img,    # lhs = image tensor
                                 kernel, # rhs = conv kernel tensor
                                 (1,1),  # window strides
                                 'SAME', # padding mode
                                 (1,1),  # lhs/image dilation
                                 (1,1),  # rhs/kernel dilation
                                 dn)     # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape)
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  out = lax.conv_general_dilated(img,     # lhs = image tensor
                                 kernel,  # rhs = conv kernel tensor
                                 (1,1),   # window strides
                                 'VALID', # padding mode
                                 (1,1),   # lhs/image dilation
                                 (1,1),   # rhs/kernel dilation
                                 dn)      # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape, "DIFFERENT from above!")
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  out = lax.conv_general_dilated(img,    # lhs = image tensor
                                 kernel, # rhs = conv kernel tensor
                                 (2,2),  # window strides
                                 'SAME', # padding mode
                                 (1,1),  # lhs/image dilation
                                 (1,1),  # rhs/kernel dilation
                                 dn)     # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape, " <-- half the size of above")
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  out = lax.conv_general_dilated(img,     # lhs = image tensor
                                 kernel,  # rhs = conv kernel tensor
                                 (1,1),   # window strides
                                 'VALID', # padding mode
                                 (1,1),   # lhs/image dilation
                                 (12,12), # rhs/kernel dilation
                                 dn)      # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape)
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  out = lax.conv_general_dilated(img,               # lhs = image tensor
                                 kernel,            # rhs = conv kernel tensor
                                 (1,1),             # window strides
                                 ((0, 0), (0, 0)),  # padding mode
                                 (2,2),             # lhs/image dilation
                                 (1,1),             # rhs/kernel dilation
                                 dn)                # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape, "<-- larger than original!")
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  # The following is equivalent to tensorflow:
  # N,H,W,C = img.shape
  # out = tf.nn.conv2d_transpose(img, kernel, (N,2*H,2*W,C), (1,2,2,1))

  # transposed conv = 180deg kernel rotation plus LHS dilation
  # rotate kernel 180deg:
  kernel_rot = jnp.rot90(jnp.rot90(kernel, axes=(0,1)), axes=(0,1))
  # need a custom output padding:
  padding = ((2, 1), (2, 1))
  out = lax.conv_general_dilated(img,     # lhs = image tensor
                                 kernel_rot,  # rhs = conv kernel tensor
                                 (1,1),   # window strides
                                 padding, # padding mode
                                 (2,2),   # lhs/image dilation
                                 (1,1),   # rhs/kernel dilation
                                 dn)      # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape, "<-- transposed_conv")
  print("First output channel:")
  show(np.array(out)[0,:,:,0])

  # lax.conv_transpose, as tf.nn.conv2d_transpose
  for transpose_kernel in (False, True):
    out_t = lax.conv_transpose(img, kernel, (2, 2), 'SAME',
                               dimension_numbers=('NHWC', 'HWIO', 'NHWC'),
                               transpose_kernel=transpose_kernel)
    print("conv_transpose shape: ", out_t.shape, transpose_kernel)
    show(np.array(out_t)[0,:,:,0], bool(jnp.allclose(out_t, out)))

  # 1D kernel - WIO layout
  kernel = jnp.array([[[1, 0, -1], [-1,  0,  1]],
                      [[1, 1,  1], [-1, -1, -1]]],
                      dtype=jnp.float32).transpose([2,1,0])
  # 1D data - NWC layout
  data = np.zeros((1, 200, 2), dtype=jnp.float32)
  for i in range(2):
    for k in range(2):
        x = 35*i + 30 + 60*k
        data[0, x:x+30, k] = 1.0

  print("in shapes:", data.shape, kernel.shape)

  show(data[0])
  dn = lax.conv_dimension_numbers(data.shape, kernel.shape,
                                  ('NWC', 'WIO', 'NWC'))
  print(dn)

  out = lax.conv_general_dilated(data,   # lhs = image tensor
                                 kernel, # rhs = conv kernel tensor
                                 (1,),   # window strides
                                 'SAME', # padding mode
                                 (1,),   # lhs/image dilation
                                 (1,),   # rhs/kernel dilation
                                 dn)     # dimension_numbers = lhs, rhs, out dimension permutation
  print("out shape: ", out.shape)
  show(out[0])

  # Random 3D kernel - HWDIO layout
  kernel = jnp.array([
    [[0, 0,  0], [0,  1,  0], [0,  0,   0]],
    [[0, -1, 0], [-1, 0, -1], [0,  -1,  0]],
    [[0, 0,  0], [0,  1,  0], [0,  0,   0]]],
    dtype=jnp.float32)[:, :, :, jnp.newaxis, jnp.newaxis]

  # 3D data - NHWDC layout
  data = jnp.zeros((1, 30, 30, 30, 1), dtype=jnp.float32)
  x, y, z = np.mgrid[0:1:30j, 0:1:30j, 0:1:30j]
  data += (jnp.sin(2*x*jnp.pi)*jnp.cos(2*y*jnp.pi)*jnp.cos(2*z*jnp.pi))[None,:,:,:,None]

  print("in shapes:", data.shape, kernel.shape)
  dn = lax.conv_dimension_numbers(data.shape, kernel.shape,
                                  ('NHWDC', 'HWDIO', 'NHWDC'))
  print(dn)

  out = lax.conv_general_dilated(data,    # lhs = image tensor
                                 kernel,  # rhs = conv kernel tensor
                                 (1,1,1), # window strides
                                 'SAME',  # padding mode
                                 (1,1,1), # lhs/image dilation
                                 (1,1,1), # rhs/kernel dilation
                                 dn)      # dimension_numbers
  print("out shape: ", out.shape)
  show(data.ravel(), out.ravel())
  return dict(printed=printed, shown=shown)
