"""`core.experimental.sparse` (JAX's `jax.experimental.sparse` BCOO without batch or dense
dimensions): layouts, products, reductions and errors against JAX 0.10.2's values (printed by
/opt/ref/bin/python, written here as literals)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError
from core.experimental import sparse

DENSE = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0], [0.0, 0.0, 0.0]], np.float32)


def test_fromdense_pads_with_the_shape_and_zeros():
    m = sparse.BCOO.fromdense(DENSE, nse=5)
    np.testing.assert_array_equal(m.data, [1.0, 2.0, 3.0, 0.0, 0.0])
    np.testing.assert_array_equal(m.indices, [[0, 1], [1, 0], [1, 2], [3, 3], [3, 3]])
    assert m.indices.dtype == np.int32
    assert (m.nse, m.n_batch, m.n_sparse, m.n_dense) == (5, 0, 2, 0)
    assert (m.indices_sorted, m.unique_indices) == (True, True)
    assert repr(m) == "BCOO(float32[3, 3], nse=5)"
    np.testing.assert_array_equal(m.todense(), DENSE)


def test_fromdense_needs_nse_under_jit():
    with pytest.raises(ConcretizationTypeError, match="Abstract tracer value encountered"):
        core.jit(lambda d: sparse.BCOO.fromdense(d))(jnp.eye(2))


@pytest.mark.parametrize(
    "product, want",
    [
        (lambda m: m @ jnp.ones(3), [1.0, 5.0, 0.0]),
        (lambda m: jnp.arange(3.0) @ m, [2.0, 0.0, 3.0]),
        (lambda m: m @ jnp.ones((3, 2)), [[1.0, 1.0], [5.0, 5.0], [0.0, 0.0]]),
        (lambda m: jnp.ones((2, 3)) @ m, [[2.0, 1.0, 3.0], [2.0, 1.0, 3.0]]),
        (lambda m: m.T @ jnp.arange(3.0), [2.0, 0.0, 3.0]),
    ],
)
def test_products_with_dense_arrays(product, want):
    m = sparse.BCOO.fromdense(DENSE, nse=5)  # the padding entries contribute nothing
    np.testing.assert_array_equal(product(m), want)


def test_transpose_scaling_and_sums():
    m = sparse.BCOO.fromdense(DENSE)
    np.testing.assert_array_equal(m.T.indices, [[1, 0], [0, 1], [2, 1]])
    assert m.T.indices_sorted is False
    np.testing.assert_array_equal((2 * m).data, [2.0, 4.0, 6.0])
    np.testing.assert_array_equal((m * DENSE).data, [1.0, 4.0, 9.0])
    np.testing.assert_array_equal((m / 2).data, [0.5, 1.0, 1.5])
    assert float(m.sum()) == 6.0
    np.testing.assert_array_equal(m.sum(0).todense(), [2.0, 1.0, 3.0])
    np.testing.assert_array_equal(m.sum(1).todense(), [1.0, 5.0, 0.0])
    cube = sparse.BCOO.fromdense(jnp.arange(8.0).reshape(2, 2, 2))
    np.testing.assert_array_equal(cube.sum((0, 2)).todense(), [10.0, 18.0])
    np.testing.assert_array_equal(cube.transpose((2, 0, 1)).todense()[0], [[0.0, 2.0], [4.0, 6.0]])


def test_integer_matrices_promote_with_their_operand():
    m = sparse.BCOO.fromdense(jnp.array([[0, 1], [2, 0]], jnp.int32))
    got = m @ jnp.array([1.5, 2.0])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [2.0, 3.0])
    assert (m @ jnp.array([1, 2])).dtype == np.int32


def test_sum_duplicates_and_sort_indices():
    m = sparse.BCOO(
        (jnp.array([1.0, 2.0, 3.0, 4.0]), jnp.array([[0, 1], [2, 0], [0, 1], [3, 3]])),
        shape=(3, 3),
    )
    summed = sparse.bcoo_sum_duplicates(m)
    np.testing.assert_array_equal(summed.data, [4.0, 2.0])
    np.testing.assert_array_equal(summed.indices, [[0, 1], [2, 0]])
    padded = sparse.bcoo_sum_duplicates(m, nse=4)
    np.testing.assert_array_equal(padded.indices, [[0, 1], [2, 0], [3, 3], [3, 3]])
    np.testing.assert_array_equal(sparse.bcoo_sum_duplicates(m, nse=1).data, [4.0])
    ordered = sparse.bcoo_sort_indices(m)
    np.testing.assert_array_equal(ordered.data, [1.0, 3.0, 2.0, 4.0])
    with pytest.raises(ValueError, match="nse must be specified when using the function"):
        core.jit(lambda t: sparse.bcoo_sum_duplicates(t))(m)


def test_eye_diagonals():
    np.testing.assert_array_equal(sparse.eye(4, 3, k=-2).indices, [[2, 0], [3, 1]])
    np.testing.assert_array_equal(sparse.eye(3, 4, k=1).todense()[0], [0.0, 1.0, 0.0, 0.0])
    assert sparse.eye(3, k=5).nse == 0
    assert sparse.eye(2, dtype=jnp.int32).data.dtype == np.int32


def test_a_pytree_through_jit_grad_and_vmap():
    m = sparse.BCOO.fromdense(jnp.array([[0.0, 1.0], [2.0, 0.0]]))
    got = core.jit(lambda a, v: (a @ v, a.T @ v))(m, jnp.array([1.0, 3.0]))
    np.testing.assert_array_equal(got[0], [3.0, 2.0])
    np.testing.assert_array_equal(got[1], [6.0, 1.0])
    product = lambda d: sparse.BCOO((d, m.indices), shape=(2, 2)) @ jnp.array([1.0, 3.0])
    np.testing.assert_array_equal(core.grad(lambda d: product(d).sum())(m.data), [3.0, 1.0])
    np.testing.assert_array_equal(core.vmap(lambda v: m @ v)(jnp.ones((3, 2)))[2], [1.0, 2.0])
    assert len(core.tree_util.tree_leaves(m)) == 2 and isinstance(m, sparse.JAXSparse)


def test_errors():
    m = sparse.BCOO.fromdense(DENSE)
    same_shape = r"contracting dimensions to have the same shape, got \(3,\) and \(2,\)"
    with pytest.raises(TypeError, match=same_shape):
        m @ jnp.ones(2)
    with pytest.raises(NotImplementedError, match="Addition between a sparse array X and a dense"):
        m + 1
    with pytest.raises(NotImplementedError, match="Subtraction between sparse and dense array"):
        m - jnp.ones((3, 3))
    with pytest.raises(sparse.SparseUnsupportedError, match="no batch or dense dimensions"):
        sparse.BCOO.fromdense(jnp.ones((2, 3)), n_batch=1)


def test_from_scipy_sparse_keeps_the_coo_order():
    scipy_sparse = pytest.importorskip("scipy.sparse")
    rows, cols = np.array([0, 2, 1]), np.array([1, 0, 2])
    coo = scipy_sparse.coo_matrix((np.array([1.0, 2.0, 3.0], np.float32), (rows, cols)), (3, 3))
    m = sparse.BCOO.from_scipy_sparse(coo)
    np.testing.assert_array_equal(m.indices, [[0, 1], [2, 0], [1, 2]])
    assert m.indices.dtype == np.int32 and (m.indices_sorted, m.unique_indices) == (False, False)
    np.testing.assert_array_equal(sparse.BCOO.from_scipy_sparse(coo.tocsr()).indices,
                                  [[0, 1], [1, 2], [2, 0]])  # fmt: skip
    dense_f64 = scipy_sparse.csr_matrix(np.array([[0, 1.5], [0, 0]]))
    assert sparse.BCOO.from_scipy_sparse(dense_f64).data.dtype == np.float32


def test_extract_multiply_dense_and_reduce_sum():
    m = sparse.BCOO((jnp.array([1.0, 2.0, 3.0]), jnp.array([[0, 1], [2, 0], [1, 2]])), shape=(3, 3))
    dense = jnp.arange(9.0).reshape(3, 3)
    np.testing.assert_array_equal(sparse.bcoo_multiply_dense(m, dense), [1.0, 12.0, 15.0])
    np.testing.assert_array_equal(sparse.bcoo_extract(m, dense).data, [1.0, 6.0, 5.0])
    summed = sparse.bcoo_reduce_sum(m, axes=(0,))
    np.testing.assert_array_equal(summed.indices, [[1], [0], [2]])
    np.testing.assert_array_equal(summed.todense(), [2.0, 1.0, 3.0])
    # a repeated index takes the value at its first entry only; padding gets 0
    repeated = sparse.BCOO((jnp.ones(3), jnp.array([[0, 1], [0, 1], [3, 3]])), shape=(3, 3))
    np.testing.assert_array_equal(sparse.bcoo_extract(repeated, dense).data, [1.0, 0.0, 0.0])
    got = sparse.bcoo_extract(repeated, dense, assume_unique=True).data
    np.testing.assert_array_equal(got, [1.0, 1.0, 0.0])


def test_sparse_products_and_sums_lay_out_entries_as_jax():
    m = sparse.BCOO.fromdense(jnp.array([[0.0, 1.0], [2.0, 0.0]]))
    n = sparse.BCOO.fromdense(jnp.array([[3.0, 0.0], [0.0, 5.0]]))
    product = m @ n
    np.testing.assert_array_equal(product.data, [0.0, 5.0, 6.0, 0.0])
    np.testing.assert_array_equal(product.indices, [[0, 0], [0, 1], [1, 0], [1, 1]])
    assert (product.indices_sorted, product.unique_indices) == (False, False)
    # more pairs than the output's size: duplicates summed into `size` entries
    q = sparse.BCOO.fromdense(jnp.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]), nse=4)
    wide = q @ sparse.BCOO.fromdense(jnp.ones((3, 2)))
    assert wide.nse == 4
    np.testing.assert_array_equal(wide.data, [1.0, 1.0, 5.0, 5.0])
    # fewer: padding after the summed entries
    rows = jnp.zeros((4, 3)).at[:2].set(jnp.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]))
    tall = sparse.BCOO.fromdense(rows)
    padded = tall @ sparse.BCOO.fromdense(jnp.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]]))
    np.testing.assert_array_equal(padded.data, [0.0, 0.0, 2.0, 3.0, 0.0, 0.0])
    np.testing.assert_array_equal(padded.indices[4:], [[4, 2], [4, 2]])
    total = m - n
    np.testing.assert_array_equal(total.data, [1.0, 2.0, -3.0, -5.0])
    np.testing.assert_array_equal(total.indices, [[0, 1], [1, 0], [0, 0], [1, 1]])
    np.testing.assert_array_equal(m + jnp.ones((2, 2)), [[1.0, 2.0], [3.0, 1.0]])


def test_bcoo_extract_takes_the_bcoo_not_its_indices():
    # JAX 0.10.2: TypeError "First argument to bcoo_extract should be a BCOO array. Got
    # type(sparr)=<class 'jaxlib._jax.ArrayImpl'>"
    m = sparse.BCOO.fromdense(DENSE)
    with pytest.raises(TypeError, match="^First argument to bcoo_extract should be a BCOO array"):
        sparse.bcoo_extract(m.indices, DENSE * 10)
    # JAX 0.10.2: bcoo_extract(m, DENSE * 10).data -> [10, 20, 30]
    np.testing.assert_array_equal(sparse.bcoo_extract(m, DENSE * 10).data, [10.0, 20.0, 30.0])
