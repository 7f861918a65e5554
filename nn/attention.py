"""Dot-product attention: the functions, the masks and the multi-head modules (Flax's API).

Shapes follow Flax: queries ``(*batch, q_len, heads, head_dim)``, keys/values
``(*batch, kv_len, heads, head_dim)``, masks broadcastable to ``(*batch, heads, q_len, kv_len)``
with ``True``/1 meaning "attend".

Autoregressive decoding (``decode=True``) follows Flax: ``init`` on a full-length input creates
the ``'cache'`` collection (``cached_key``/``cached_value`` of shape
``(*batch, max_length, heads, head_dim)`` and the int32 ``cache_index``); each later call with
``mutable=['cache']`` takes one token, writes its key/value at ``cache_index`` with
``lax.dynamic_update_slice`` and masks the not-yet-written positions, so the index stays traced
and one ``jit`` compile serves every step.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import core.numpy as jnp
from core import lax, random
from nn import errors, initializers
from nn.activation import softmax
from nn.dtypes import promote_dtype
from nn.linear import DenseGeneral, default_kernel_init
from nn.module import Module, compact, merge_param
from nn.normalization import LayerNorm

Array = Any


def _check_shapes(query: Array, key: Array, value: Array | None = None) -> None:
    """Flax's checks of attention operands, in its order: ranks, batch axes, heads, then the
    head size of query and key (without ``value``) or the key and value lengths (with it)."""
    arrays = (query, key) if value is None else (query, key, value)
    names = "q, k" if value is None else "q, k, v"
    if len({a.ndim for a in arrays}) != 1:
        what = "must have same rank"
    elif len({a.shape[:-3] for a in arrays}) != 1:
        what = "batch dims must match"
    elif len({a.shape[-2] for a in arrays}) != 1:
        what = "num_heads must match"
    elif value is None and query.shape[-1] != key.shape[-1]:
        names, what = "q, k", "depths must match"
    elif value is not None and key.shape[-3] != value.shape[-3]:
        names, what = "k, v", "lengths must match"
    else:
        return
    raise errors.AttentionShapeError(f"{names} {what}.", [a.shape for a in arrays])


def dot_product_attention_weights(
    query: Array,
    key: Array,
    bias: Array | None = None,
    mask: Array | None = None,
    broadcast_dropout: bool = True,
    dropout_rng: Any = None,
    dropout_rate: float = 0.0,
    deterministic: bool = False,
    dtype: Any = None,
    precision: Any = None,
    module: Module | None = None,
    force_fp32_for_softmax: bool = False,
    einsum_dot_general: Callable[..., Array] | None = None,
    einsum: Callable[..., Array] | None = None,
) -> Array:
    """``softmax(q·k / sqrt(d) + bias)`` masked where ``mask`` is false, with optional dropout.

    Args:
      query: ``(*batch, q_len, heads, d)``.
      key: ``(*batch, kv_len, heads, d)``.
      bias: added to the logits (broadcast to ``(*batch, heads, q_len, kv_len)``).
      mask: ``False`` entries get the most negative logit.
      broadcast_dropout: share the dropout mask across batch dims.
      dropout_rng: key for the dropout mask.
      dropout_rate: probability of dropping a weight.
      deterministic: disable dropout.
      dtype: the computation dtype.
      precision: passed to ``einsum``.
      module: if given, the weights are sown into its ``'intermediates'``.
      force_fp32_for_softmax: compute the softmax in float32 and keep the weights in float32
        (mixed precision); otherwise they are cast back to ``dtype``.
      einsum_dot_general: replaces ``lax.dot_general`` in the query-key einsum.
      einsum: replaces the query-key einsum itself (``einsum(subscripts, q, k)``).

    Returns:
      The weights, ``(*batch, heads, q_len, kv_len)``.

    Raises:
      ValueError: ``einsum`` is given with ``precision`` or ``einsum_dot_general``.
    """
    if (precision or einsum_dot_general) and einsum:
        raise ValueError(
            "precision/einsum_dot_general and einsum are mutually exclusive. Please"
            " specify only one of them."
        )
    einsum = einsum or _einsum(precision, einsum_dot_general)
    query, key = promote_dtype(query, key, dtype=dtype)
    dtype = query.dtype
    _check_shapes(query, key)
    depth = query.shape[-1]
    query = query / jnp.sqrt(jnp.asarray(depth, dtype))
    weights = einsum("...qhd,...khd->...hqk", query, key)
    if bias is not None:
        weights = weights + bias
    if mask is not None:
        weights = jnp.where(mask, weights, jnp.finfo(dtype).min)
    if force_fp32_for_softmax and dtype != jnp.float32:
        weights = softmax(weights.astype(jnp.float32))
    else:
        weights = softmax(weights).astype(dtype)
    if module is not None:
        module.sow("intermediates", "attention_weights", weights)
    if not deterministic and dropout_rate > 0.0:
        keep_prob = 1.0 - dropout_rate
        if broadcast_dropout:
            shape = (1,) * (key.ndim - 2) + weights.shape[-2:]
        else:
            shape = weights.shape
        keep = random.bernoulli(dropout_rng, keep_prob, shape)
        weights = weights * (keep.astype(dtype) / jnp.asarray(keep_prob, dtype))
    return weights


def dot_product_attention(
    query: Array,
    key: Array,
    value: Array,
    bias: Array | None = None,
    mask: Array | None = None,
    broadcast_dropout: bool = True,
    dropout_rng: Any = None,
    dropout_rate: float = 0.0,
    deterministic: bool = False,
    dtype: Any = None,
    precision: Any = None,
    module: Module | None = None,
    force_fp32_for_softmax: bool = False,
    einsum_dot_general: Callable[..., Array] | None = None,
    qk_attn_weights_einsum: Callable[..., Array] | None = None,
    attn_weights_value_einsum: Callable[..., Array] | None = None,
) -> Array:
    """Attention output ``weights · value``, ``(*batch, q_len, heads, d_v)``.

    Arguments as in :func:`dot_product_attention_weights`, plus ``value``
    ``(*batch, kv_len, heads, d_v)``, and ``qk_attn_weights_einsum`` and
    ``attn_weights_value_einsum`` replacing the two einsums (given together; Flax's hook for
    quantized einsums).

    Raises:
      ValueError: only one of the einsums is given, or they are given with ``precision`` or
        ``einsum_dot_general``.
    """
    if bool(qk_attn_weights_einsum) != bool(attn_weights_value_einsum):
        raise ValueError(
            "qk_attn_weights_einsum and attn_weights_value_einsum must be specified together."
        )
    if (precision or einsum_dot_general) and qk_attn_weights_einsum:
        raise ValueError(
            "precision/einsum_dot_general and qk_attn_weights_einsum/attn_weights_value_einsum"
            " are mutually exclusive. Please specify only one of them."
        )
    query, key, value = promote_dtype(query, key, value, dtype=dtype)
    _check_shapes(query, key, value)
    weights = dot_product_attention_weights(
        query,
        key,
        bias,
        mask,
        broadcast_dropout,
        dropout_rng,
        dropout_rate,
        deterministic,
        query.dtype,
        precision,
        module,
        force_fp32_for_softmax,
        einsum_dot_general=einsum_dot_general,
        einsum=qk_attn_weights_einsum,
    )
    einsum = attn_weights_value_einsum or _einsum(precision, einsum_dot_general)
    return einsum("...hqk,...khd->...qhd", weights, value)


def _einsum(precision: Any, dot_general: Callable | None) -> Callable[..., Array]:
    """``jnp.einsum`` with ``precision``, contracting with ``dot_general`` when given."""
    return functools.partial(jnp.einsum, precision=precision, _dot_general=dot_general)


class MultiHeadDotProductAttention(Module):
    """Multi-head attention: project to ``query``/``key``/``value`` heads, attend, project ``out``.

    Attributes:
      num_heads: the number of heads.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      qkv_features: size of the query/key/value projections (default: input features).
      out_features: output size (default: input features).
      broadcast_dropout: share the attention dropout mask across batch dims.
      dropout_rate: attention-weight dropout.
      deterministic: disable dropout (may be given at call time).
      precision: passed to the matmuls.
      kernel_init: initializer of the projection kernels.
      out_kernel_init: initializer of the output kernel (default ``kernel_init``).
      bias_init: initializer of the biases.
      out_bias_init: initializer of the output bias (default ``bias_init``).
      use_bias: whether projections have biases.
      attention_fn: the attention function.
      decode: keep an autoregressive key/value cache in the ``'cache'`` collection: ``init``
        creates it from a full-length input, each ``apply(..., mutable=['cache'])`` then takes
        one token (query length 1) and attends to all tokens fed so far.
      normalize_qk: apply ``LayerNorm`` to queries and keys.
      force_fp32_for_softmax: passed to ``attention_fn`` (softmax in float32).
      qkv_dot_general: the contraction of the query/key/value projections (`DenseGeneral`'s
        ``dot_general``).
      out_dot_general: the contraction of the output projection.
      qkv_dot_general_cls: a module class made in each query/key/value projection to contract
        instead (`DenseGeneral`'s ``dot_general_cls``).
      out_dot_general_cls: the same for the output projection.
      qk_attn_weights_einsum_cls: a factory called with no arguments for the einsum of the
        query-key products, passed to ``attention_fn`` as ``qk_attn_weights_einsum`` when it
        takes that argument (Flax's hook for quantized einsums); give both or neither.
      attn_weights_value_einsum_cls: the same for the weights-value product
        (``attn_weights_value_einsum``).

    Example::

        >>> layer = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4)
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 5, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]["query"]
        {'bias': (2, 2), 'kernel': (3, 2, 2)}
    """

    num_heads: int
    dtype: Any = None
    param_dtype: Any = jnp.float32
    qkv_features: int | None = None
    out_features: int | None = None
    broadcast_dropout: bool = True
    dropout_rate: float = 0.0
    deterministic: bool | None = None
    precision: Any = None
    kernel_init: Callable = default_kernel_init
    out_kernel_init: Callable | None = None
    bias_init: Callable = initializers.zeros_init()
    out_bias_init: Callable | None = None
    use_bias: bool = True
    attention_fn: Callable[..., Array] = dot_product_attention
    decode: bool = False
    normalize_qk: bool = False
    force_fp32_for_softmax: bool = False
    qkv_dot_general: Callable | None = None
    out_dot_general: Callable | None = None
    qkv_dot_general_cls: Any = None
    out_dot_general_cls: Any = None
    qk_attn_weights_einsum_cls: Callable[..., Callable[..., Array]] | None = None
    attn_weights_value_einsum_cls: Callable[..., Callable[..., Array]] | None = None

    @compact
    def __call__(
        self,
        inputs_q: Array,
        inputs_k: Array | None = None,
        inputs_v: Array | None = None,
        *,
        inputs_kv: Array | None = None,
        mask: Array | None = None,
        deterministic: bool | None = None,
        dropout_rng: Any = None,
        sow_weights: bool = False,
    ) -> Array:
        """Attends from ``inputs_q`` to ``inputs_k``/``inputs_v`` (default: self-attention).

        Args:
          inputs_q: ``(*batch, q_len, features)``.
          inputs_k: ``(*batch, kv_len, features)`` (default ``inputs_q``).
          inputs_v: default ``inputs_k``.
          inputs_kv: the older single key/value argument.
          mask: ``(*batch, heads, q_len, kv_len)``-broadcastable attention mask.
          deterministic: the field's value given at call time instead (exactly one of the two,
            `merge_param`; needed only with dropout).
          dropout_rng: explicit key for attention dropout (default: the ``'dropout'`` stream).
          sow_weights: store the attention weights in ``'intermediates'``.

        Returns:
          ``(*batch, q_len, out_features)``.
        """
        if inputs_kv is not None:
            if inputs_k is not None or inputs_v is not None:
                raise ValueError(
                    "If either `inputs_k` or `inputs_v` is not None, `inputs_kv` must be None. If "
                    "`inputs_kv` is not None, both `inputs_k` and `inputs_v` must be None. We "
                    "recommend using `inputs_k` and `inputs_v` args, since `inputs_kv` will be "
                    "deprecated soon. See https://github.com/google/flax/discussions/3389 for more "
                    "information."
                )
            inputs_k = inputs_v = inputs_kv
            warnings.warn(  # Flax's (the argument still works, as in Flax 0.12)
                "The inputs_kv arg will be deprecated soon. Use inputs_k and inputs_v instead. "
                "See https://github.com/google/flax/discussions/3389 for more information.",
                DeprecationWarning,
                stacklevel=2,
            )
        if inputs_k is None:
            if inputs_v is not None:
                raise ValueError(
                    "`inputs_k` cannot be None if `inputs_v` is not None. To have both `inputs_k` "
                    "and `inputs_v` be the same value, pass in the value to `inputs_k` and leave "
                    "`inputs_v` as None."
                )
            inputs_k = inputs_q
        if inputs_v is None:
            inputs_v = inputs_k
        elif inputs_kv is None and inputs_v.shape[-1] == inputs_v.shape[-2]:
            # Flax's guess that a square third argument is a mask of the old signature
            warnings.warn(
                f"You are passing an array of shape {inputs_v.shape} to the `inputs_v` arg, when "
                "you may have intended to pass it to the `mask` arg. As of Flax version 0.7.4, "
                "the function signature of MultiHeadDotProductAttention's `__call__` method has "
                "changed to `__call__(inputs_q, inputs_k=None, inputs_v=None, *, inputs_kv=None, "
                "mask=None, deterministic=None)`. Use the kwarg `mask` instead. See "
                "https://github.com/google/flax/discussions/3389 and read the docstring for more "
                "information.",
                DeprecationWarning,
                stacklevel=2,
            )
        features = self.out_features or inputs_q.shape[-1]
        qkv_features = self.qkv_features or inputs_q.shape[-1]
        if qkv_features % self.num_heads:
            raise errors.AttentionHeadsError(qkv_features, self.num_heads)
        head_dim = qkv_features // self.num_heads

        def dense(
            name: str,
            features: Any = (self.num_heads, head_dim),
            axis: Any = -1,
            kernel_init: Callable = self.kernel_init,
            bias_init: Callable = self.bias_init,
            dot_general: Callable | None = self.qkv_dot_general,
            dot_general_cls: Any = self.qkv_dot_general_cls,
        ) -> DenseGeneral:
            return DenseGeneral(
                features=features,
                axis=axis,
                dtype=self.dtype,
                param_dtype=self.param_dtype,
                kernel_init=kernel_init,
                bias_init=bias_init,
                use_bias=self.use_bias,
                precision=self.precision,
                dot_general=dot_general,
                dot_general_cls=dot_general_cls,
                name=name,
            )

        def layer_norm(name: str) -> LayerNorm:
            return LayerNorm(
                use_bias=False, dtype=self.dtype, param_dtype=self.param_dtype, name=name
            )

        query = dense("query")(inputs_q)
        key = dense("key")(inputs_k)
        value = dense("value")(inputs_v)
        if self.normalize_qk:
            query = layer_norm("query_ln")(query)
            key = layer_norm("key_ln")(key)
        if self.decode:
            key, value, mask = self._decode_step(query, key, value, mask)
        m_deterministic = True
        if self.dropout_rate > 0.0:
            m_deterministic = merge_param("deterministic", self.deterministic, deterministic)
            if not m_deterministic and dropout_rng is None:
                dropout_rng = self.make_rng("dropout")
        attn_kwargs = dict(
            mask=mask,
            dropout_rng=dropout_rng,
            dropout_rate=self.dropout_rate,
            broadcast_dropout=self.broadcast_dropout,
            deterministic=m_deterministic,
            dtype=self.dtype,
            precision=self.precision,
            force_fp32_for_softmax=self.force_fp32_for_softmax,
        )
        for name in ("qk_attn_weights_einsum", "attn_weights_value_einsum"):
            factory = getattr(self, f"{name}_cls")
            if factory is not None:
                attn_kwargs[name] = factory()
        accepted = inspect.signature(self.attention_fn).parameters
        attn_kwargs = {k: v for k, v in attn_kwargs.items() if k in accepted}
        if sow_weights:
            attn_kwargs["module"] = self
        x = self.attention_fn(query, key, value, **attn_kwargs)
        return dense(
            "out",
            features,
            axis=(-2, -1),
            kernel_init=self.out_kernel_init or self.kernel_init,
            bias_init=self.out_bias_init or self.bias_init,
            dot_general=self.out_dot_general,
            dot_general_cls=self.out_dot_general_cls,
        )(x)

    def _decode_step(self, query: Array, key: Array, value: Array, mask: Array | None) -> tuple:
        """Declares the cache; after ``init``, writes this step's key/value into it.

        Returns:
          The keys, values and mask to attend with: the inputs unchanged while the cache is being
          created, otherwise the whole cache and ``mask`` restricted to the filled positions.
        """
        # The cache exists only once init has run, so its absence marks the creating call.
        is_initialized = self.has_variable("cache", "cached_key")
        cached_key = self.variable("cache", "cached_key", jnp.zeros, key.shape, key.dtype)
        cached_value = self.variable("cache", "cached_value", jnp.zeros, value.shape, value.dtype)
        cache_index = self.variable("cache", "cache_index", lambda: jnp.array(0, dtype=jnp.int32))
        if not is_initialized:
            return key, value, mask
        *batch_dims, max_length, num_heads, head_dim = cached_key.value.shape
        expected = tuple(batch_dims) + (1, num_heads, head_dim)
        if expected != tuple(query.shape):
            raise errors.DecodeCacheShapeError(expected, tuple(query.shape))
        cur_index = cache_index.value
        zero = jnp.array(0, dtype=cur_index.dtype)
        indices = (zero,) * len(batch_dims) + (cur_index, zero, zero)
        key = lax.dynamic_update_slice(cached_key.value, key, indices)
        value = lax.dynamic_update_slice(cached_value.value, value, indices)
        cached_key.value = key
        cached_value.value = value
        cache_index.value = cur_index + 1
        # The single query may attend only to positions already written, not the zero tail.
        filled = jnp.broadcast_to(
            jnp.arange(max_length) <= cur_index, tuple(batch_dims) + (1, 1, max_length)
        )
        return key, value, combine_masks(mask, filled)


class MultiHeadAttention(MultiHeadDotProductAttention):
    """:class:`MultiHeadDotProductAttention` under Flax's other name: the same layer, but
    auto-named ``MultiHeadAttention_{i}`` (so its parameters and RNG streams are those of a
    Flax ``nn.MultiHeadAttention``).

    Example::

        >>> class Model(nn.Module):
        ...     @nn.compact
        ...     def __call__(self, x):
        ...         return nn.MultiHeadAttention(num_heads=2, qkv_features=4)(x)
        >>> v = Model().init(core.random.key(0), jnp.ones((1, 5, 3)))
        >>> list(v["params"])
        ['MultiHeadAttention_0']
    """


class SelfAttention(MultiHeadDotProductAttention):
    """Self-attention: :class:`MultiHeadDotProductAttention` with keys and values = queries."""

    @compact
    def __call__(
        self,
        inputs_q: Array,
        mask: Array | None = None,
        deterministic: bool | None = None,
        dropout_rng: Any = None,
        sow_weights: bool = False,
    ) -> Array:
        return super().__call__(
            inputs_q,
            mask=mask,
            deterministic=deterministic,
            dropout_rng=dropout_rng,
            sow_weights=sow_weights,
        )


def make_attention_mask(
    query_input: Array,
    key_input: Array,
    pairwise_fn: Callable[[Array, Array], Array] = jnp.multiply,
    extra_batch_dims: int = 0,
    dtype: Any = jnp.float32,
) -> Array:
    """A ``(*batch, 1, q_len, kv_len)`` mask ``pairwise_fn(query_input[q], key_input[k])``.

    Example: padding mask ``make_attention_mask(tokens > 0, tokens > 0)``.
    """
    mask = pairwise_fn(jnp.expand_dims(query_input, -1), jnp.expand_dims(key_input, -2))
    mask = jnp.expand_dims(mask, -3)
    mask = jnp.expand_dims(mask, tuple(range(extra_batch_dims)))
    return mask.astype(dtype)


def make_causal_mask(x: Array, extra_batch_dims: int = 0, dtype: Any = jnp.float32) -> Array:
    """A ``(*batch, 1, len, len)`` mask letting position ``i`` attend to ``j <= i``."""
    idxs = jnp.broadcast_to(jnp.arange(x.shape[-1], dtype=jnp.int32), x.shape)
    return make_attention_mask(idxs, idxs, jnp.greater_equal, extra_batch_dims, dtype)


def combine_masks(*masks: Array | None, dtype: Any = jnp.float32) -> Array | None:
    """The logical AND of the given masks (``None`` entries skipped)."""
    masks = [m for m in masks if m is not None]
    if not masks:
        return None
    if any(m.ndim != masks[0].ndim for m in masks):
        raise errors.MaskRankError(tuple(m.ndim for m in masks))
    mask = masks[0]
    for other in masks[1:]:
        mask = jnp.logical_and(mask, other)
    return mask.astype(dtype)
