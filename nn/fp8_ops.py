"""FP8 dot products with delayed scaling (`flax.linen.fp8_ops`, Flax 0.12's algorithm).

The modules (`Fp8DirectDotGeneralOp` = `Fp8DotGeneral`, the deprecated quantize-dequantize
`Fp8DotGeneralOp`, `NANOOFp8DotGeneralOp` on the `fnuz` types, `Fp8Einsum`) are passed where
a layer takes a contraction: ``nn.Dense(4, dot_general_cls=nn.Fp8DirectDotGeneralOp)``, or
called as ``Fp8Einsum()("bi,io->bo", x, kernel)``. Each keeps, in the
``"_overwrite_with_gradient"`` collection, a scale and an amax history (of
``amax_history_length`` steps) for the input, the kernel and the output gradient: the forward
pass quantizes the operands to float8 (`e4m3`) with the scales, the backward pass quantizes the
output gradient (`e5m2`), and the "gradients" of those variables are their next values, which
`train.TrainState.apply_gradients` stores instead of optimizing them (Flax's convention).

numbax computes the float8 products exactly in float32 (XLA on the CPU does the same), so the
values are Flax's. Not provided: Flax's `fp8_meta` extended dtype (`fm32`, the scale and history
dtype whose gradients accumulate by maximum): the scales and histories are float32 here.
"""

from __future__ import annotations

import itertools
import warnings
from functools import partial
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax, random
from core.custom_derivatives import custom_jvp, custom_vjp
from nn import errors, initializers
from nn.module import Module

__all__ = [
    "OVERWRITE_WITH_GRADIENT",
    "Fp8DirectDotGeneralOp",
    "Fp8DotGeneral",
    "Fp8DotGeneralBase",
    "Fp8DotGeneralOp",
    "Fp8Einsum",
    "NANOOFp8DotGeneralOp",
    "compute_amax_history",
    "compute_scale",
    "dequantize",
    "dot_general_with_precision",
    "fp8_scaled_dot_general",
    "get_fp8_max",
    "in_q",
    "in_qdq",
    "out_dq",
    "out_qdq",
    "qdq",
    "quantize",
    "quantize_dequantize_update",
    "quantized_dot",
    "update_fp8_meta",
]

OVERWRITE_WITH_GRADIENT = "_overwrite_with_gradient"


def get_fp8_max(fp8_dtype: Any, out_dtype: Any) -> Any:
    """The largest finite value of `fp8_dtype`, as an `out_dtype` scalar."""
    if fp8_dtype not in (
        jnp.float8_e4m3fn,
        jnp.float8_e5m2,
        jnp.float8_e4m3fnuz,
        jnp.float8_e5m2fnuz,
    ):
        raise ValueError(f"get_fp8_max: {fp8_dtype} is not a float8 type of the fp8 recipes")
    return jnp.asarray(jnp.finfo(fp8_dtype).max).astype(out_dtype)


def quantize(x: Any, q_dtype: Any, scale: Any, compute_dtype: Any) -> Any:
    """`x / scale`, clipped to `q_dtype`'s range and cast to it (computed in `compute_dtype`)."""
    dtype_max = get_fp8_max(q_dtype, compute_dtype)
    scaled_x = x / jnp.broadcast_to(scale.astype(compute_dtype), x.shape)
    clipped_x = jnp.clip(scaled_x, -dtype_max, dtype_max)
    return clipped_x.astype(q_dtype)


def dequantize(x: Any, dq_dtype: Any, scale: Any) -> Any:
    """`x * scale` in `dq_dtype`."""
    return x.astype(dq_dtype) * jnp.broadcast_to(scale.astype(dq_dtype), x.shape)


def qdq(x: Any, q_dtype: Any, scale: Any, compute_dtype: Any) -> Any:
    """`x` quantized to `q_dtype` and back to its own dtype."""
    qx = quantize(x, q_dtype, scale, compute_dtype)
    return dequantize(qx, x.dtype, scale)


def compute_scale(amax: Any, scale: Any, fp8_max: Any, margin: int = 0) -> Any:
    """The next scale from the history's amax (NVIDIA Transformer Engine's recipe); the old
    scale stays where amax is zero or not finite."""
    # Work with reciprocal scales (the factor values are multiplied by before the cast).
    old_factor = 1.0 / scale
    new_factor = (fp8_max / amax) / (2**margin)
    new_factor = jnp.where(amax > 0.0, new_factor, old_factor)
    usable = jnp.where(jnp.isfinite(amax), new_factor, old_factor)
    return 1.0 / usable


def compute_amax_history(x: Any, amax_history: Any) -> Any:
    """The history rolled by one step with `max(|x|)` in front."""
    amax_update = jnp.max(jnp.abs(x)).astype(amax_history.dtype)
    return jnp.roll(amax_history, shift=-1, axis=0).at[0].set(amax_update)


def update_fp8_meta(x: Any, q_dtype: Any, scale: Any, amax_history: Any) -> tuple[Any, Any]:
    """The next (scale, amax history) for quantizing `x` to `q_dtype`."""
    # The scale follows the largest amax the history holds (before x's is pushed in).
    history_peak = jnp.max(amax_history, axis=0)
    limit = get_fp8_max(q_dtype, jnp.float32)
    return compute_scale(history_peak, scale, limit), compute_amax_history(x, amax_history)


def quantize_dequantize_update(
    x: Any, q_dtype: Any, scale: Any, amax_history: Any, compute_dtype: Any
) -> tuple[Any, Any, Any]:
    """`qdq(x)` with the updated scale, and the updated (scale, history)."""
    updated_scale, updated_history = update_fp8_meta(x, q_dtype, scale, amax_history)
    qdq_x = qdq(x, q_dtype, updated_scale, compute_dtype)
    return qdq_x, updated_scale, updated_history


def _dot_general_transpose_lhs(g, x, y, *, dimension_numbers, preferred_element_type, swap=False):
    # The cotangent of dot_general's lhs (JAX's rule, with the quantized operands).
    def remaining(original, *removed_lists):
        removed = set(itertools.chain(*removed_lists))
        return [i for i in original if i not in removed]

    def ranges_like(*xs):
        start = 0
        for x_ in xs:
            yield range(start, start + len(x_))
            start += len(x_)

    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_kept = remaining(range(np.ndim(x)), x_contract, x_batch)
    y_kept = remaining(range(np.ndim(y)), y_contract, y_batch)
    if swap:
        ans_batch, ans_y, _ = ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = ranges_like(x_batch, x_kept, y_kept)
    dims = ((tuple(ans_y), tuple(y_kept)), (tuple(ans_batch), tuple(y_batch)))
    x_contract_sorted_by_y = list(np.take(x_contract, np.argsort(y_contract)))
    out_axes = np.argsort(list(x_batch) + x_kept + x_contract_sorted_by_y)
    product = lax.dot_general(g, y, dims, preferred_element_type=preferred_element_type)
    return lax.transpose(product, tuple(int(a) for a in out_axes))


def _dot_general_transpose_rhs(g, x, y, *, dimension_numbers, preferred_element_type):
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    swapped = ((y_contract, x_contract), (y_batch, x_batch))
    return _dot_general_transpose_lhs(
        g,
        y,
        x,
        dimension_numbers=swapped,
        preferred_element_type=preferred_element_type,
        swap=True,
    )


@partial(custom_vjp, nondiff_argnums=(0, 1))
def in_qdq(compute_dtype, q_dtype, inp, scale, amax_history):
    """`inp` quantized-dequantized; its backward pass passes the gradient through and gives the
    updated scale and history as the "gradients" of `scale` and `amax_history`."""
    qin, _, _ = quantize_dequantize_update(inp, q_dtype, scale, amax_history, compute_dtype)
    return qin


def _in_qdq_fwd(compute_dtype, q_dtype, inp, scale, amax_history):
    qin, new_scale, new_history = quantize_dequantize_update(
        inp, q_dtype, scale, amax_history, compute_dtype
    )
    return qin, (new_scale, new_history)


def _in_qdq_bwd(compute_dtype, q_dtype, res, g):
    new_scale, new_history = res
    return g, new_scale, new_history


in_qdq.defvjp(_in_qdq_fwd, _in_qdq_bwd)


@partial(custom_vjp, nondiff_argnums=(0, 1))
def out_qdq(compute_dtype, q_dtype, out, scale, amax_history):
    """The identity forward; backward, the output gradient quantized-dequantized (and the
    updated scale and history as the "gradients" of `scale` and `amax_history`)."""
    return out


def _out_qdq_fwd(compute_dtype, q_dtype, out, scale, amax_history):
    return out, (scale, amax_history)


def _out_qdq_bwd(compute_dtype, q_dtype, res, g):
    scale, amax_history = res
    return quantize_dequantize_update(g, q_dtype, scale, amax_history, compute_dtype)


out_qdq.defvjp(_out_qdq_fwd, _out_qdq_bwd)


@partial(custom_vjp, nondiff_argnums=(0, 1))
def in_q(compute_dtype, q_dtype, inp, scale, amax_history):
    """`(inp quantized with the updated scale, the updated scale)`; backward, the updated scale
    and history as the "gradients" of `scale` and `amax_history` (none for `inp`)."""
    new_scale, _ = update_fp8_meta(inp, q_dtype, scale, amax_history)
    qin = quantize(inp, q_dtype, new_scale, compute_dtype)
    return qin, new_scale


def _in_q_fwd(compute_dtype, q_dtype, inp, scale, amax_history):
    new_scale, new_history = update_fp8_meta(inp, q_dtype, scale, amax_history)
    qin = quantize(inp, q_dtype, new_scale, compute_dtype)
    return (qin, new_scale), (new_scale, new_history)


def _in_q_bwd(compute_dtype, q_dtype, res, _):
    new_scale, new_history = res
    return None, new_scale, new_history


in_q.defvjp(_in_q_fwd, _in_q_bwd)


@partial(custom_vjp, nondiff_argnums=(0,))
def out_dq(dq_type, lhs_scale, rhs_scale, out):
    """`out` dequantized with the product of the operands' scales; the gradient passes."""
    return dequantize(out, dq_type, lhs_scale * rhs_scale)


def _out_dq_fwd(dq_type, lhs_scale, rhs_scale, out):
    return out_dq(dq_type, lhs_scale, rhs_scale, out), None


def _out_dq_bwd(dq_type, _, g):
    return None, None, g


out_dq.defvjp(_out_dq_fwd, _out_dq_bwd)


@partial(custom_vjp, nondiff_argnums=(8, 9))
def quantized_dot(
    lhs,
    q_lhs,
    lhs_scale,
    rhs,
    q_rhs,
    rhs_scale,
    out_grad_scale,
    out_grad_amax_history,
    dimension_numbers,
    preferred_element_type=None,
):
    """`dot_general` of the quantized operands; its backward pass quantizes the output
    gradient to e5m2 with the updated output-gradient scale (given as the "gradients" of
    `out_grad_scale` and `out_grad_amax_history`)."""
    return lax.dot_general(
        q_lhs, q_rhs, dimension_numbers, preferred_element_type=preferred_element_type
    )


def _quantized_dot_fwd(
    lhs,
    q_lhs,
    lhs_scale,
    rhs,
    q_rhs,
    rhs_scale,
    out_grad_scale,
    out_grad_amax_history,
    dimension_numbers,
    preferred_element_type,
):
    out = lax.dot_general(
        q_lhs, q_rhs, dimension_numbers, preferred_element_type=preferred_element_type
    )
    res = (lhs, q_lhs, lhs_scale, rhs, q_rhs, rhs_scale, out_grad_scale, out_grad_amax_history)
    return out, res


def _quantized_dot_bwd(dimension_numbers, preferred_element_type, res, g):
    lhs, q_lhs, lhs_scale, rhs, q_rhs, rhs_scale, out_grad_scale, out_grad_amax_history = res
    new_out_grad_scale, new_out_grad_amax_history = update_fp8_meta(
        g, jnp.float8_e5m2, out_grad_scale, out_grad_amax_history
    )
    q_g = quantize(g, jnp.float8_e5m2, new_out_grad_scale, preferred_element_type)
    grad_lhs = _dot_general_transpose_lhs(
        q_g,
        lhs,
        q_rhs,
        dimension_numbers=dimension_numbers,
        preferred_element_type=preferred_element_type,
    )
    grad_lhs = dequantize(grad_lhs, preferred_element_type, rhs_scale * new_out_grad_scale)
    grad_rhs = _dot_general_transpose_rhs(
        q_g,
        q_lhs,
        rhs,
        dimension_numbers=dimension_numbers,
        preferred_element_type=preferred_element_type,
    )
    grad_rhs = dequantize(grad_rhs, preferred_element_type, lhs_scale * new_out_grad_scale)
    return (
        grad_lhs,
        None,
        None,
        grad_rhs,
        None,
        None,
        new_out_grad_scale,
        new_out_grad_amax_history,
    )


quantized_dot.defvjp(_quantized_dot_fwd, _quantized_dot_bwd)


def fp8_scaled_dot_general(
    lhs,
    rhs,
    dimension_numbers,
    precision=None,
    preferred_element_type=None,
    *,
    lhs_scale=None,
    rhs_scale=None,
    grad_scale=None,
    lhs_amax_history=None,
    rhs_amax_history=None,
    grad_amax_history=None,
    quantize_compute_type=jnp.float32,
):
    """`dot_general` with both operands quantized to e4m3 and the result dequantized.

    Args:
      lhs, rhs, dimension_numbers: as `lax.dot_general`.
      precision: ignored (with a warning, as Flax).
      preferred_element_type: the result dtype.
      lhs_scale, rhs_scale, grad_scale: the (1,)-shaped scales of the previous step.
      lhs_amax_history, rhs_amax_history, grad_amax_history: their amax histories.
      quantize_compute_type: the dtype the quantization computes in.

    Returns:
      The dequantized product.
    """
    if precision is not None:
        warnings.warn(
            'The function fp8_scaled_dot_general will set the "precision" and disregard any '
            'provided "precision" argument.',
            stacklevel=2,
        )
    q_lhs, new_lhs_scale = in_q(
        quantize_compute_type, jnp.float8_e4m3fn, lhs, lhs_scale, lhs_amax_history
    )
    q_rhs, new_rhs_scale = in_q(
        quantize_compute_type, jnp.float8_e4m3fn, rhs, rhs_scale, rhs_amax_history
    )
    y = quantized_dot(
        lhs,
        q_lhs,
        new_lhs_scale,
        rhs,
        q_rhs,
        new_rhs_scale,
        grad_scale,
        grad_amax_history,
        dimension_numbers,
        preferred_element_type,
    )
    return out_dq(preferred_element_type, new_lhs_scale, new_rhs_scale, y)


@partial(custom_jvp, nondiff_argnums=(2, 3, 4))
def dot_general_with_precision(
    lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None
):
    """`lax.dot_general` at the default precision (`precision` and `preferred_element_type`
    are ignored, with a warning, as Flax)."""
    if precision is not None or preferred_element_type is not None:
        warnings.warn(
            "The function dot_general_with_precision will set the "
            "precision/preferred_element_type and disregard any provided values.",
            stacklevel=2,
        )
    return lax.dot_general(lhs, rhs, dimension_numbers)


@dot_general_with_precision.defjvp
def _dot_general_with_precision_jvp(
    dimension_numbers, precision, preferred_element_type, primals, tangents
):
    lhs, rhs = primals
    lhs_dot, rhs_dot = tangents
    out = lax.dot_general(lhs, rhs, dimension_numbers)
    grad_out = lax.dot_general(lhs_dot, rhs, dimension_numbers) + lax.dot_general(
        lhs, rhs_dot, dimension_numbers
    )
    return out, grad_out


def _parse_dot_inputs(*args: Any) -> tuple[Any, Any, Any, Any]:
    if len(args) != 3:
        raise errors.Fp8ArgumentsError(len(args))
    x, k, dimension_numbers = args
    comp_dtype = k.dtype  # the kernel's dtype is the layer's computation dtype
    return jnp.asarray(x, comp_dtype), k, dimension_numbers, comp_dtype


class Fp8DotGeneralBase(Module):
    """The fp8 variables: scales and amax histories of the input, kernel and output gradient
    in the ``"_overwrite_with_gradient"`` collection.

    Attributes:
      amax_history_length: the steps of amax history kept.
      e4m3_dtype: the forward pass's float8 type.
      e5m2_dtype: the backward pass's float8 type.
    """

    amax_history_length: int = 1024
    e4m3_dtype: Any = jnp.float8_e4m3fn
    e5m2_dtype: Any = jnp.float8_e5m2

    def setup(self) -> None:
        scale_args = (initializers.ones_init(), random.PRNGKey(0), (1,), jnp.float32)
        amax_history_args = (
            initializers.zeros_init(),
            random.PRNGKey(0),
            (self.amax_history_length,),
            jnp.float32,
        )
        var = partial(self.variable, OVERWRITE_WITH_GRADIENT)
        self.input_amax_history = var("input_amax_history", *amax_history_args)
        self.kernel_amax_history = var("kernel_amax_history", *amax_history_args)
        self.output_grad_amax_history = var("output_grad_amax_history", *amax_history_args)
        self.input_scale = var("input_scale", *scale_args)
        self.kernel_scale = var("kernel_scale", *scale_args)
        self.output_grad_scale = var("output_grad_scale", *scale_args)


class Fp8DotGeneralOp(Fp8DotGeneralBase):
    """The quantize-dequantize fp8 contraction (deprecated in Flax: use
    `Fp8DirectDotGeneralOp` or `Fp8Einsum`).

    Attributes:
      amax_history_length: the steps of amax history kept (default 1024).
      e4m3_dtype: the forward pass's float8 type (default `float8_e4m3fn`).
      e5m2_dtype: the backward pass's float8 type (default `float8_e5m2`).
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if type(self) is Fp8DotGeneralOp:
            warnings.warn(
                "The Fp8DotGeneralOp is deprecated. Use Fp8DirectDotGeneralOp or Fp8Einsum "
                "instead.",
                DeprecationWarning,
                stacklevel=2,
            )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """`dot_general(x, kernel, dimension_numbers)` on quantized-dequantized operands.

        Args:
          *args: `(x, kernel, dimension_numbers)`; `x` is cast to the kernel's dtype, the
            computation dtype.
          **kwargs: ignored (as `precision` and `preferred_element_type` in Flax).

        Returns:
          The contraction, in the kernel's dtype.
        """
        x, kernel, dimension_numbers, comp_dtype = _parse_dot_inputs(*args)

        def through_e4m3(operand: Any, scale: Any, history: Any) -> Any:
            return in_qdq(comp_dtype, self.e4m3_dtype, operand, scale.value, history.value)

        product = dot_general_with_precision(
            through_e4m3(x, self.input_scale, self.input_amax_history),
            through_e4m3(kernel, self.kernel_scale, self.kernel_amax_history),
            dimension_numbers,
        )
        # The product passes through unchanged; its gradient is the one quantized (e5m2).
        grad_scale, grad_history = self.output_grad_scale, self.output_grad_amax_history
        return out_qdq(comp_dtype, self.e5m2_dtype, product, grad_scale.value, grad_history.value)


class Fp8DirectDotGeneralOp(Fp8DotGeneralBase):
    """The fp8 contraction on float8 operands (`fp8_scaled_dot_general`).

    Attributes:
      amax_history_length: the steps of amax history kept (default 1024).
      e4m3_dtype: the forward pass's float8 type (default `float8_e4m3fn`).
      e5m2_dtype: the backward pass's float8 type (default `float8_e5m2`).
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """`dot_general(x, kernel, dimension_numbers)` in fp8.

        Args:
          *args: `(x, kernel, dimension_numbers)`; `x` is cast to the kernel's dtype, the
            computation dtype.
          **kwargs: ignored (as `precision` and `preferred_element_type` in Flax).

        Returns:
          The contraction, in the kernel's dtype.
        """
        x, k, dimension_numbers, comp_dtype = _parse_dot_inputs(*args)
        return fp8_scaled_dot_general(
            x,
            k,
            dimension_numbers,
            preferred_element_type=x.dtype,
            lhs_scale=self.input_scale.value,
            rhs_scale=self.kernel_scale.value,
            grad_scale=self.output_grad_scale.value,
            lhs_amax_history=self.input_amax_history.value,
            rhs_amax_history=self.kernel_amax_history.value,
            grad_amax_history=self.output_grad_amax_history.value,
            quantize_compute_type=comp_dtype,
        )


class NANOOFp8DotGeneralOp(Fp8DotGeneralOp):
    """`Fp8DotGeneralOp` on the `fnuz` float8 types (no negative zero, no infinities).

    Attributes:
      amax_history_length: the steps of amax history kept (default 1024).
      e4m3_dtype: the forward pass's float8 type (default `float8_e4m3fnuz`).
      e5m2_dtype: the backward pass's float8 type (default `float8_e5m2fnuz`).
    """

    e4m3_dtype: Any = jnp.float8_e4m3fnuz
    e5m2_dtype: Any = jnp.float8_e5m2fnuz


class Fp8Einsum(Fp8DotGeneralBase):
    """`jnp.einsum` whose contractions are `fp8_scaled_dot_general` (the rhs is the kernel:
    its dtype is the computation dtype).

    Attributes:
      amax_history_length: the steps of amax history kept (default 1024).
      e4m3_dtype: the forward pass's float8 type (default `float8_e4m3fn`).
      e5m2_dtype: the backward pass's float8 type (default `float8_e5m2`).
    """

    def __call__(
        self,
        eqn: str,
        lhs: Any,
        rhs: Any,
        precision: Any = None,
        preferred_element_type: Any = None,
    ) -> Any:
        """`einsum(eqn, lhs, rhs)` in fp8.

        Args:
          eqn: the einsum subscripts of two operands.
          lhs: the input (cast to the kernel's dtype).
          rhs: the kernel.
          precision: passed on (and ignored with a warning, as Flax).
          preferred_element_type: the result dtype (default: the kernel's).

        Returns:
          The contraction.
        """
        lhs = lhs.astype(rhs.dtype)
        dot_general_fn = partial(
            fp8_scaled_dot_general,
            lhs_scale=self.input_scale.value,
            rhs_scale=self.kernel_scale.value,
            grad_scale=self.output_grad_scale.value,
            lhs_amax_history=self.input_amax_history.value,
            rhs_amax_history=self.kernel_amax_history.value,
            grad_amax_history=self.output_grad_amax_history.value,
            quantize_compute_type=rhs.dtype,
        )
        return jnp.einsum(
            eqn,
            lhs,
            rhs,
            precision=precision,
            preferred_element_type=preferred_element_type,
            _dot_general=dot_general_fn,
        )


Fp8DotGeneral = Fp8DirectDotGeneralOp  # Flax's alias
