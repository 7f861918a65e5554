"""core.nn.scaled_matmul: the block-scaled product JAX's docstring defines (JAX 0.10.2 itself
raises NotImplementedError on CPU; the values below are its docstring formula, `jnp.repeat` +
`einsum`, run on JAX 0.10.2), and JAX's shape errors."""

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import errors
from core.nn import scaled_matmul

A = jnp.arange(2 * 3 * 4, dtype=jnp.float32).reshape(2, 3, 4) / 10 - 1
B = jnp.arange(2 * 2 * 4, dtype=jnp.float32).reshape(2, 2, 4) / 7 - 1
AS = jnp.array([0.5, 2, 1, 4, 0.25, 1.5, 3, 0.5, 1, 2, 0.5, 1], jnp.float32).reshape(2, 3, 2)
BS = jnp.array([2, 1, 0.5, 4, 1, 0.25, 2, 8], jnp.float32).reshape(2, 2, 2)
JAX = [[[3.714286, 1.085714], [3.885714, 1.114285], [0.057143, 0.014286]],
       [[0.4, 6.285716], [0.714286, 31.314289], [0.542857, 23.14286]]]  # fmt: skip


def test_docstring_example():
    a = jnp.array([1, 2, 3]).reshape((1, 1, 3))
    b = jnp.array([4, 5, 6]).reshape((1, 1, 3))
    s = jnp.array([0.5]).reshape((1, 1, 1))
    out = scaled_matmul(a, b, s, s)
    assert (out.dtype, out.shape, float(out[0, 0, 0])) == (np.float32, (1, 1, 1), 8.0)


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "jit"])
def test_block_scales_match_jax(staged):
    f = jax.jit(scaled_matmul) if staged else scaled_matmul
    np.testing.assert_allclose(f(A, B, AS, BS), JAX, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jax.vmap(f)(A[None], B[None], AS[None], BS[None])[0], JAX,
                               rtol=1e-5, atol=1e-6)  # fmt: skip


def test_low_precision_inputs_and_output_dtype():
    out = scaled_matmul(A.astype(jnp.float8_e4m3fn), B.astype(jnp.float8_e4m3fn),
                        AS.astype(jnp.float8_e8m0fnu), BS.astype(jnp.float8_e8m0fnu),
                        preferred_element_type=jnp.bfloat16)  # fmt: skip
    assert out.dtype == jnp.bfloat16 and out.shape == (2, 3, 2)


@pytest.mark.parametrize(
    "args, msg",
    [((A[0], B, AS, BS), "scaled_matmul requires all inputs to be 3-dimensional arrays"),
     ((A, B[:, :, :2], AS, BS), "scaled_matmul requires inputs a and b to have matching batch "
      r"\(B\) and contract \(K\) dimensions, but got shapes \(2, 3, 4\) and \(2, 2, 2\)"),
     ((A, B, AS[:, :, :1], BS), "scaled_matmul requires scales to have matching batch "
      r"\(B\) and contract \(K\) dimensions, but got shapes \(2, 3, 1\) and \(2, 2, 2\)"),
     ((A, B, AS[:, :2], BS), "scaled_matmul requires scales to match non-contract dimensions "
      r"of inputs, but got shapes a: \(2, 3, 4\), b: \(2, 2, 4\), a_scales: \(2, 2, 2\), "
      r"b_scales: \(2, 2, 2\)")],
)  # fmt: skip
def test_shape_errors_are_jaxs(args, msg):
    with pytest.raises(ValueError, match=f"^{msg}$") as e:
        scaled_matmul(*args)
    assert isinstance(e.value, errors.ScaledMatmulShapeError)


# scaled_dot_general: `lax.dot_general` without configs; with block-scale configs JAX 0.10.2 on
# CPU raises NotImplementedError (no cuDNN), as numbax does.
DN = (((1,), (1,)), ((), ()))


def test_scaled_dot_general_without_configs_is_dot_general():
    lhs, rhs = A.reshape(6, 4), B.reshape(4, 4)
    out = jax.nn.scaled_dot_general(lhs, rhs, DN)
    np.testing.assert_allclose(out, np.asarray(lhs) @ np.asarray(rhs).T, rtol=1e-6)
    ints = jnp.ones((2, 3), jnp.int32)
    ints = jax.nn.scaled_dot_general(ints, jnp.ones(3, jnp.int32), (((1,), (0,)), ((), ())))
    assert ints.dtype == np.float32  # preferred_element_type defaults to float32, as in JAX
    assert jax.nn.scaled_dot_general(lhs, rhs, DN, jnp.bfloat16).dtype == jnp.bfloat16
    with pytest.warns(DeprecationWarning, match="Backend selector, now ignored"):
        jax.nn.scaled_dot_general(lhs, rhs, DN, implementation="cudnn")


def test_scaled_dot_general_configs():
    mx = jax.nn.get_scaled_dot_general_config("mxfp8")
    nv = jax.nn.get_scaled_dot_general_config("nvfp4")
    assert (mx.mode, mx.block_size, mx.global_scale, mx.infer_only) == ("mxfp8", 32, None, False)
    assert (np.dtype(mx.data_type), np.dtype(mx.scale_type)) == (
        jnp.float8_e4m3fn,
        jnp.float8_e8m0fnu,
    )
    assert (nv.mode, nv.block_size, np.dtype(nv.data_type)) == ("nvfp4", 16, jnp.float4_e2m1fn)
    assert nv.global_scale.tolist() == [1.0] and nv.global_scale.dtype == np.float32
    with pytest.raises(ValueError, match="Unsupported mode: fp8"):
        jax.nn.get_scaled_dot_general_config("fp8")
    lhs, rhs = jnp.ones((2, 32)), jnp.ones((3, 32))
    with pytest.raises(NotImplementedError, match="'scaled_matmul' not found for platform cpu"):
        jax.nn.scaled_dot_general(lhs, rhs, DN, configs=[mx] * 3)
    with pytest.raises(TypeError, match="Only support preferred_element_type in"):
        jax.nn.scaled_dot_general(lhs, rhs, DN, jnp.int32, configs=[mx] * 3)
