"""Recurrent cells and the ``RNN``/``Bidirectional`` wrappers that scan them over time.

Cells are compact modules ``(carry, x_t) -> (new_carry, y_t)`` built from ``Dense``
submodules with Flax's names (``ii``, ``hf``, ...), so parameter trees and initial values match
Flax. ``RNN`` runs its cell over the time axis with ``lax.scan``; the cell's parameters are
created by one eager step during ``init`` (outside the scan), then the scanned steps read
them, which is what Flax's ``nn.scan`` with ``variable_broadcast='params'`` amounts to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import random, tree_util
from nn import initializers
from nn.activation import sigmoid, tanh
from nn.dtypes import promote_dtype
from nn.frozen_dict import FrozenDict
from nn.linear import Conv, Dense, default_kernel_init
from nn.module import Module, compact, nowrap
from nn.transforms import scan

Array = Any
Carry = Any


class RNNCellBase(Module):
    """Base class of recurrent cells: ``__call__(carry, inputs)`` and ``initialize_carry``."""

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Carry:
        """The initial carry for inputs of shape ``input_shape`` (batch dims + features)."""
        raise NotImplementedError

    @property
    def num_feature_axes(self) -> int:
        """The number of trailing feature axes of the inputs."""
        return 1

    @nowrap
    def _dense(
        self,
        features: int,
        name: str,
        use_bias: bool,
        recurrent: bool,
        bias_init: Callable | None = None,
    ) -> Dense:
        """One of the cell's ``Dense`` layers: on the hidden state if ``recurrent``, else on x.

        ``bias_init`` defaults to the cell's ``bias_init``.
        """
        return Dense(
            features,
            use_bias=use_bias,
            kernel_init=self.recurrent_kernel_init if recurrent else self.kernel_init,
            bias_init=self.bias_init if bias_init is None else bias_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            name=name,
        )

    @nowrap
    def _carry(self, rng: Any, batch_dims: tuple[int, ...]) -> Array:
        """One carry array: ``batch_dims`` (an input shape's) plus ``features``."""
        return self.carry_init(rng, batch_dims + (self.features,), self.param_dtype)


class _HiddenCarryCell(RNNCellBase):
    """A cell whose carry is one array, the hidden state ``h``."""

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Array:
        """The hidden state (from ``carry_init``) for inputs of shape ``input_shape``."""
        return self._carry(rng, tuple(input_shape[:-1]))


class _MemoryCarryCell(RNNCellBase):
    """A cell whose carry is ``(c, h)``, the memory and the hidden state (LSTM cells)."""

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> tuple[Array, Array]:
        """``(c, h)`` for inputs of shape ``input_shape``, each from its own key."""
        batch_dims = tuple(input_shape[:-1])  # read before the split, as Flax: a bad shape
        key1, key2 = random.split(rng)  # is reported before a bad key
        return self._carry(key1, batch_dims), self._carry(key2, batch_dims)


class _GatedCell(RNNCellBase):
    """The fields shared by the gated cells (``LSTMCell``, ``GRUCell``), in Flax's order."""

    features: int
    gate_fn: Callable = sigmoid
    activation_fn: Callable = tanh
    kernel_init: Callable = default_kernel_init
    recurrent_kernel_init: Callable = initializers.orthogonal()
    bias_init: Callable = initializers.zeros_init()
    dtype: Any = None
    param_dtype: Any = jnp.float32
    carry_init: Callable = initializers.zeros_init()


class LSTMCell(_GatedCell, _MemoryCarryCell):
    r"""Long short-term memory cell.

    ``i = σ(W_ii x + W_hi h + b_hi)``, ``f``, ``o`` alike, ``g = tanh(W_ig x + W_hg h + b_hg)``,
    ``c' = f * c + i * g``, ``h' = o * tanh(c')``.

    Attributes:
      features: the hidden size.
      gate_fn: the gate activation.
      activation_fn: the cell/output activation.
      kernel_init: initializer of the input kernels.
      recurrent_kernel_init: initializer of the hidden kernels.
      bias_init: initializer of the biases.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      carry_init: initializer of the carry.

    Example::

        >>> cell = nn.LSTMCell(features=4)
        >>> carry = cell.initialize_carry(core.random.key(1), (2, 3))
        >>> v = cell.init(core.random.key(0), carry, jnp.ones((2, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]["hi"]
        {'bias': (4,), 'kernel': (4, 4)}
    """

    @compact
    def __call__(self, carry: tuple[Array, Array], inputs: Array) -> tuple[Carry, Array]:
        """One LSTM step.

        Args:
          carry: ``(c, h)``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, features)``.

        Returns:
          ``((new_c, new_h), new_h)``.
        """
        c, h = carry
        hidden = h.shape[-1]

        def dense_i(name: str) -> Dense:
            return self._dense(hidden, name, use_bias=False, recurrent=False)

        def dense_h(name: str) -> Dense:
            return self._dense(hidden, name, use_bias=True, recurrent=True)

        i = self.gate_fn(dense_i("ii")(inputs) + dense_h("hi")(h))
        f = self.gate_fn(dense_i("if")(inputs) + dense_h("hf")(h))
        g = self.activation_fn(dense_i("ig")(inputs) + dense_h("hg")(h))
        o = self.gate_fn(dense_i("io")(inputs) + dense_h("ho")(h))
        new_c = f * c + i * g
        new_h = o * self.activation_fn(new_c)
        return (new_c, new_h), new_h


class _DenseParams(Module):
    """Creates a ``Dense``'s parameters without applying it (for fused kernels)."""

    features: int
    use_bias: bool = True
    param_dtype: Any = jnp.float32
    kernel_init: Callable = default_kernel_init
    bias_init: Callable = initializers.zeros_init()

    @compact
    def __call__(self, inputs: Array) -> tuple[Array, Array | None]:
        fan_in = inputs.shape[-1]
        shape = (fan_in, self.features)
        kernel = self.param("kernel", self.kernel_init, shape, self.param_dtype)
        if not self.use_bias:
            return kernel, None
        return kernel, self.param("bias", self.bias_init, (self.features,), self.param_dtype)


class OptimizedLSTMCell(LSTMCell):
    """An ``LSTMCell`` that concatenates the four gates into one matmul per input.

    Same parameters (names, shapes, values) and outputs as :class:`LSTMCell`.
    """

    @compact
    def __call__(self, carry: tuple[Array, Array], inputs: Array) -> tuple[Carry, Array]:
        """One LSTM step with the four gates in one matmul per input.

        Args:
          carry: ``(c, h)``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, features)``.

        Returns:
          ``((new_c, new_h), new_h)``.
        """
        c, h = carry
        hidden = h.shape[-1]
        gates = "ifgo"
        params_i, params_h = [], []
        for g in gates:  # ii, hi, if, hf, ...: Flax's creation order (the params dict's order)
            params_i.append(
                _DenseParams(
                    hidden,
                    use_bias=False,
                    param_dtype=self.param_dtype,
                    kernel_init=self.kernel_init,
                    name=f"i{g}",
                )(inputs)
            )
            params_h.append(
                _DenseParams(
                    hidden,
                    param_dtype=self.param_dtype,
                    kernel_init=self.recurrent_kernel_init,
                    bias_init=self.bias_init,
                    name=f"h{g}",
                )(h)
            )
        kernel_i = jnp.concatenate([k for k, _ in params_i], axis=-1)
        kernel_h = jnp.concatenate([k for k, _ in params_h], axis=-1)
        bias = jnp.concatenate([b for _, b in params_h], axis=-1)
        x, h_, kernel_i, kernel_h, bias = promote_dtype(
            inputs, h, kernel_i, kernel_h, bias, dtype=self.dtype
        )
        y = jnp.dot(x, kernel_i) + jnp.dot(h_, kernel_h) + bias
        i, f, g, o = jnp.split(y, 4, axis=-1)
        i, f, o = self.gate_fn(i), self.gate_fn(f), self.gate_fn(o)
        new_c = f * c + i * self.activation_fn(g)
        new_h = o * self.activation_fn(new_c)
        return (new_c, new_h), new_h


class GRUCell(_GatedCell, _HiddenCarryCell):
    r"""Gated recurrent unit cell.

    ``r = σ(W_ir x + b_ir + W_hr h)``, ``z`` alike,
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``.

    Attributes:
      features: the hidden size.
      gate_fn: the gate activation.
      activation_fn: the candidate activation.
      kernel_init: initializer of the input kernels.
      recurrent_kernel_init: initializer of the hidden kernels.
      bias_init: initializer of the biases.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      carry_init: initializer of the carry.

    Example::

        >>> cell = nn.GRUCell(features=4)
        >>> v = cell.init(core.random.key(0), jnp.zeros((2, 4)), jnp.ones((2, 3)))
        >>> sorted(v["params"])
        ['hn', 'hr', 'hz', 'in', 'ir', 'iz']
    """

    @compact
    def __call__(self, carry: Array, inputs: Array) -> tuple[Array, Array]:
        """One GRU step.

        Args:
          carry: ``h``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, features)``.

        Returns:
          ``(new_h, new_h)``.
        """
        h = carry
        hidden = h.shape[-1]

        def dense_h(name: str, use_bias: bool = False) -> Dense:
            return self._dense(hidden, name, use_bias=use_bias, recurrent=True)

        def dense_i(name: str) -> Dense:
            return self._dense(hidden, name, use_bias=True, recurrent=False)

        r = self.gate_fn(dense_i("ir")(inputs) + dense_h("hr")(h))
        z = self.gate_fn(dense_i("iz")(inputs) + dense_h("hz")(h))
        n = self.activation_fn(dense_i("in")(inputs) + r * dense_h("hn", use_bias=True)(h))
        new_h = (1.0 - z) * n + z * h
        return new_h, new_h


class SimpleCell(_HiddenCarryCell):
    r"""Elman cell: ``h' = activation(W_i x + b_i + W_h h)`` (``+ h`` first if ``residual``).

    Attributes:
      features: the hidden size.
      activation_fn: the activation.
      kernel_init: initializer of the input kernel.
      recurrent_kernel_init: initializer of the hidden kernel.
      bias_init: initializer of the bias.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      carry_init: initializer of the carry.
      residual: add the previous carry before the activation.

    Example::

        >>> cell = nn.SimpleCell(features=4)
        >>> v = cell.init(core.random.key(0), jnp.zeros((2, 4)), jnp.ones((2, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'h': {'kernel': (4, 4)}, 'i': {'bias': (4,), 'kernel': (3, 4)}}}
    """

    features: int
    activation_fn: Callable = tanh
    kernel_init: Callable = default_kernel_init
    recurrent_kernel_init: Callable = initializers.orthogonal()
    bias_init: Callable = initializers.zeros_init()
    dtype: Any = None
    param_dtype: Any = jnp.float32
    carry_init: Callable = initializers.zeros_init()
    residual: bool = False

    @compact
    def __call__(self, carry: Array, inputs: Array) -> tuple[Array, Array]:
        """One Elman RNN step, ``h = activation(W_i x + W_h h + b)``.

        Args:
          carry: ``h``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, features)``.

        Returns:
          ``(new_h, new_h)``.
        """
        hidden = carry.shape[-1]
        from_input = self._dense(hidden, "i", use_bias=True, recurrent=False)(inputs)
        from_carry = self._dense(hidden, "h", use_bias=False, recurrent=True)(carry)
        pre_activation = from_input + from_carry
        if self.residual:
            pre_activation = pre_activation + carry
        new_h = self.activation_fn(pre_activation)
        return new_h, new_h


class MGUCell(_HiddenCarryCell):
    r"""Minimal gated unit cell.

    ``f = σ(W_if x + b_if + W_hf h)``, ``n = tanh(W_in x + b_in + f * (W_hn h + b_hn))``
    (without the ``f *`` gating and ``b_hn`` when ``reset_gate=False``),
    ``h' = (1 - f) * n + f * h``.

    Attributes:
      features: the hidden size.
      gate_fn: the forget-gate activation.
      activation_fn: the candidate activation.
      kernel_init: initializer of the input kernels.
      recurrent_kernel_init: initializer of the hidden kernels.
      forget_bias_init: initializer of the forget-gate bias (ones, against vanishing
        gradients).
      activation_bias_init: initializer of the candidate biases.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      carry_init: initializer of the carry.
      reset_gate: gate the hidden contribution to the candidate by ``f``.

    Example::

        >>> cell = nn.MGUCell(features=4)
        >>> v = cell.init(core.random.key(0), jnp.zeros((2, 4)), jnp.ones((2, 3)))
        >>> sorted(v["params"])
        ['hf', 'hn', 'if', 'in']
    """

    features: int
    gate_fn: Callable = sigmoid
    activation_fn: Callable = tanh
    kernel_init: Callable = default_kernel_init
    recurrent_kernel_init: Callable = initializers.orthogonal()
    forget_bias_init: Callable = initializers.ones_init()
    activation_bias_init: Callable = initializers.zeros_init()
    dtype: Any = None
    param_dtype: Any = jnp.float32
    carry_init: Callable = initializers.zeros_init()
    reset_gate: bool = True

    @compact
    def __call__(self, carry: Array, inputs: Array) -> tuple[Array, Array]:
        """One minimal-gated-unit step.

        Args:
          carry: ``h``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, features)``.

        Returns:
          ``(new_h, new_h)``.
        """
        h = carry
        hidden = h.shape[-1]
        f = self.gate_fn(
            self._dense(hidden, "if", True, False, self.forget_bias_init)(inputs)
            + self._dense(hidden, "hf", False, True, self.activation_bias_init)(h)
        )
        x = self._dense(hidden, "hn", self.reset_gate, True, self.activation_bias_init)(h)
        if self.reset_gate:
            x = x * f
        n = self.activation_fn(
            self._dense(hidden, "in", True, False, self.activation_bias_init)(inputs) + x
        )
        new_h = (1.0 - f) * n + f * h
        return new_h, new_h


class ConvLSTMCell(_MemoryCarryCell):
    r"""Convolutional LSTM cell: the ``LSTMCell`` gates with convolutions instead of matmuls.

    ``[i, g, f, o] = conv_ih(x) + conv_hh(h)`` (one ``Conv`` of ``4 * features`` each, named
    ``ih`` and ``hh``), ``f = σ(f + 1)``, ``c' = f * c + σ(i) * tanh(g)``,
    ``h' = σ(o) * tanh(c')``.

    Attributes:
      features: the number of convolution filters (hidden channels).
      kernel_size: the convolution window.
      strides: the convolution strides.
      padding: ``'SAME'``, ``'VALID'`` or ``(low, high)`` pairs.
      use_bias: add biases.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      carry_init: initializer of the carry.

    Example::

        >>> cell = nn.ConvLSTMCell(features=2, kernel_size=(3, 3))
        >>> carry = cell.initialize_carry(core.random.key(1), (1, 5, 5, 3))
        >>> v = cell.init(core.random.key(0), carry, jnp.ones((1, 5, 5, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]["ih"]
        {'bias': (8,), 'kernel': (3, 3, 3, 8)}
    """

    features: int
    kernel_size: Sequence[int]
    strides: Sequence[int] | None = None
    padding: Any = "SAME"
    use_bias: bool = True
    dtype: Any = None
    param_dtype: Any = jnp.float32
    carry_init: Callable = initializers.zeros_init()

    @compact
    def __call__(self, carry: tuple[Array, Array], inputs: Array) -> tuple[Carry, Array]:
        """One convolutional LSTM step.

        Args:
          carry: ``(c, h)``, the carry from `initialize_carry` or the previous step.
          inputs: ``(*batch, *spatial, features)``.

        Returns:
          ``((new_c, new_h), new_h)``.
        """
        memory, hidden = carry
        # All four gates come out of one convolution per source, stacked on the channel axis
        # in the order input, candidate, forget, output; the input side is created first.
        stacked = self._gates_conv("ih")(inputs) + self._gates_conv("hh")(hidden)
        pre_in, pre_cand, pre_forget, pre_out = jnp.split(stacked, 4, axis=-1)
        forget = sigmoid(pre_forget + 1)  # biased towards remembering
        memory = forget * memory + sigmoid(pre_in) * jnp.tanh(pre_cand)
        hidden = sigmoid(pre_out) * jnp.tanh(memory)
        return (memory, hidden), hidden

    @nowrap
    def _gates_conv(self, name: str) -> Conv:
        """The ``Conv`` producing the four stacked gate pre-activations from one source."""
        return Conv(
            4 * self.features,
            kernel_size=self.kernel_size,
            strides=self.strides,
            padding=self.padding,
            use_bias=self.use_bias,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            name=name,
        )

    @property
    def num_feature_axes(self) -> int:
        return len(self.kernel_size) + 1


def flip_sequences(
    inputs: Array, seq_lengths: Array | None, num_batch_dims: int, time_major: bool
) -> Array:
    """Reverses each sequence along time, keeping padding at the end when lengths are given.

    Example: rows ``[1 0 0], [2 3 0], [4 5 6]`` with lengths ``1, 2, 3`` become
    ``[1 0 0], [3 2 0], [6 5 4]``.
    """
    time_axis = 0 if time_major else num_batch_dims
    if seq_lengths is None:
        return jnp.flip(inputs, axis=time_axis)
    steps = inputs.shape[time_axis]
    ones = (1,) * num_batch_dims
    t = jnp.reshape(jnp.arange(steps), (steps, *ones) if time_major else (*ones, steps))
    lengths = jnp.expand_dims(seq_lengths, axis=time_axis)
    # Step t of a sequence of length n reads step n - 1 - t; the padding steps (t >= n) map
    # onto the padding, reversed, so the padding stays at the end.
    source = (lengths - 1 - t) % steps
    source = jnp.reshape(source, source.shape + (1,) * (inputs.ndim - source.ndim))
    return jnp.take_along_axis(inputs, source, axis=time_axis)


class RNN(Module):
    """Runs ``cell`` over the time axis of ``(*batch, time, *features)`` inputs.

    As in Flax, the cell runs under the lifted ``nn.scan``, configured by the scan fields
    below (the defaults share the cell's parameters across steps and give each step the same
    ``'params'`` key); the outputs may be any pytree (a cell returning a tuple gives a tuple of
    stacked sequences).

    Attributes:
      cell: the recurrent cell (its parameters appear under ``'cell'``).
      time_major: inputs are ``(time, *batch, *features)``.
      return_carry: return ``(final_carry, outputs)`` instead of ``outputs``.
      reverse: process the sequence backwards (outputs stay reversed unless ``keep_order``).
      keep_order: with ``reverse``, flip the outputs back to input order.
      unroll: scan steps per loop iteration.
      variable_axes: ``nn.scan``'s collections with one set of variables per step.
      variable_broadcast: ``nn.scan``'s collections shared by every step (``'params'``).
      variable_carry: ``nn.scan``'s collections carried from step to step.
      split_rngs: ``nn.scan``'s ``{stream: bool}``: a different key per step or the same one.

    Example::

        >>> rnn = nn.RNN(nn.LSTMCell(features=4))
        >>> v = rnn.init(core.random.key(0), jnp.ones((2, 5, 3)))
        >>> rnn.apply(v, jnp.ones((2, 5, 3))).shape
        (2, 5, 4)
    """

    cell: RNNCellBase
    time_major: bool = False
    return_carry: bool = False
    reverse: bool = False
    keep_order: bool = False
    unroll: int = 1
    variable_axes: Mapping[Any, int] = FrozenDict()
    variable_broadcast: Any = "params"
    variable_carry: Any = False
    split_rngs: Mapping[Any, bool] = FrozenDict({"params": False})

    def __call__(
        self,
        inputs: Array,
        *,
        initial_carry: Carry | None = None,
        init_key: Any = None,
        seq_lengths: Array | None = None,
        return_carry: bool | None = None,
        time_major: bool | None = None,
        reverse: bool | None = None,
        keep_order: bool | None = None,
    ) -> Any:
        """Scans the cell over time.

        Args:
          inputs: the sequences.
          initial_carry: the start carry (default ``cell.initialize_carry(init_key, ...)``).
          init_key: key for ``initialize_carry`` (default ``random.key(0)``).
          seq_lengths: ``(batch,)`` valid lengths; the returned carry is the one at each
            sequence's last valid step (outputs past it are not zeroed).
          return_carry: overrides the field.
          time_major: overrides the field.
          reverse: overrides the field.
          keep_order: overrides the field.

        Returns:
          ``outputs``, or ``(carry, outputs)`` with ``return_carry``.
        """
        return_carry = self.return_carry if return_carry is None else return_carry
        time_major = self.time_major if time_major is None else time_major
        reverse = self.reverse if reverse is None else reverse
        keep_order = self.keep_order if keep_order is None else keep_order
        n_features = self.cell.num_feature_axes
        time_axis = 0 if time_major else inputs.ndim - (n_features + 1)
        n_batch = inputs.ndim - n_features - 1
        if reverse:
            inputs = flip_sequences(inputs, seq_lengths, n_batch, time_major)
        if initial_carry is None:
            input_shape = inputs.shape[:time_axis] + inputs.shape[time_axis + 1 :]
            initial_carry = self.cell.initialize_carry(
                random.key(0) if init_key is None else init_key, input_shape
            )
        slice_carry = seq_lengths is not None and return_carry

        def scan_fn(cell: RNNCellBase, carry: Carry, x: Array) -> tuple[Carry, Any]:
            carry, y = cell(carry, x)
            return carry, ((carry, y) if slice_carry else y)

        scan_cell = scan(
            scan_fn,
            in_axes=time_axis,
            out_axes=(0, time_axis) if slice_carry else time_axis,
            unroll=self.unroll,
            variable_axes=self.variable_axes,
            variable_broadcast=self.variable_broadcast,
            variable_carry=self.variable_carry,
            split_rngs=self.split_rngs,
        )
        carry, outputs = scan_cell(self.cell, initial_carry, inputs)
        if slice_carry:
            carries, outputs = outputs
            last, batch = seq_lengths - 1, np.arange(inputs.shape[1 if time_major else 0])
            carry = tree_util.tree_map(lambda c: c[last, batch], carries)
        if reverse and keep_order:
            outputs = tree_util.tree_map(
                lambda y: flip_sequences(y, seq_lengths, n_batch, time_major), outputs
            )
        return (carry, outputs) if return_carry else outputs


def _concatenate(a: Array, b: Array) -> Array:
    return jnp.concatenate([a, b], axis=-1)


class Bidirectional(Module):
    """Runs one RNN forwards and one backwards and merges their outputs.

    Attributes:
      forward_rnn: the forward ``RNN``.
      backward_rnn: the backward ``RNN`` (run with ``reverse=True, keep_order=True``).
      merge_fn: combines the two outputs (default: concatenate features).
      time_major: inputs are time-major.
      return_carry: also return ``(forward_carry, backward_carry)``.

    Example::

        >>> bi = nn.Bidirectional(nn.RNN(nn.GRUCell(4)), nn.RNN(nn.GRUCell(4)))
        >>> v = bi.init(core.random.key(0), jnp.ones((2, 5, 3)))
        >>> bi.apply(v, jnp.ones((2, 5, 3))).shape
        (2, 5, 8)
    """

    forward_rnn: RNN
    backward_rnn: RNN
    merge_fn: Callable[[Array, Array], Array] = _concatenate
    time_major: bool = False
    return_carry: bool = False

    def __call__(
        self,
        inputs: Array,
        *,
        initial_carry: Carry | None = None,
        init_key: Any = None,
        seq_lengths: Array | None = None,
        return_carry: bool | None = None,
        time_major: bool | None = None,
    ) -> Any:
        """Runs both directions; arguments as for :class:`RNN`.

        Args:
          inputs: ``(*batch, time, features)`` (time first with ``time_major``).
          initial_carry: ``(forward_carry, backward_carry)``; None initializes both.
          init_key: PRNG key for initializing the carries.
          seq_lengths: ``(*batch,)`` valid lengths (padding at the end).
          return_carry: also return the final carries; None uses the attribute.
          time_major: time is the first axis; None uses the attribute.

        Returns:
          The merged outputs of both directions (``merge_fn``), and with ``return_carry`` the pair
          of final carries first.
        """
        time_major = self.time_major if time_major is None else time_major
        return_carry = self.return_carry if return_carry is None else return_carry
        key_f = key_b = None
        if init_key is not None:
            key_f, key_b = random.split(init_key)
        carry_f = carry_b = None
        if initial_carry is not None:
            carry_f, carry_b = initial_carry
        common = dict(seq_lengths=seq_lengths, return_carry=True, time_major=time_major)
        carry_f, out_f = self.forward_rnn(
            inputs, initial_carry=carry_f, init_key=key_f, reverse=False, **common
        )
        carry_b, out_b = self.backward_rnn(
            inputs, initial_carry=carry_b, init_key=key_b, reverse=True, keep_order=True, **common
        )
        outputs = tree_util.tree_map(self.merge_fn, out_f, out_b)
        return ((carry_f, carry_b), outputs) if return_carry else outputs
