"""Losses: per-example values recorded from Optax 0.2.8, plus the formulas that are traps."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim

LOGITS = np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.5]], np.float32)
LABELS = np.array([[0.2, 0.0, 0.8], [0.0, 1.0, 0.0]], np.float32)
INTS = np.array([2, 1], np.int32)
PRED = np.array([0.5, -1.5, 2.0], np.float32)
TARG = np.array([1.0, 0.7, -0.2], np.float32)
A = np.array([[1.0, 2.0, 2.0], [0.0, 3.0, -4.0]], np.float32)
B = np.array([[2.0, 1.0, 0.0], [1.0, 1.0, 1.0]], np.float32)
PROBS = np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], np.float32)
TPROBS = np.array([[0.0, 0.5, 0.5], [0.3, 0.3, 0.4]], np.float32)
WHERE = np.array([[True, False, True], [True, True, False]])
WHERE_INT = np.array([[True, False, True], [False, False, False]])
FOCAL_LABELS = np.array([1.0, 0.0, 0.3], np.float32)
EMB = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, 0.5], [0.3, -2.0]], np.float32)
EMB_LABELS = np.array([0, 0, 1, 1], np.int32)
# CTC: batch 2, 4 frames (the second sequence has a padded last frame), 3 classes, 2 labels.
CTC_LOGITS = np.array(
    [
        [[0.1, 0.5, -0.2], [1.0, -0.3, 0.2], [0.0, 0.4, 0.9], [-0.5, 0.3, 0.1]],
        [[0.2, -0.1, 0.3], [0.6, 0.2, -0.4], [0.1, 0.1, 0.1], [0.9, -0.7, 0.2]],
    ],
    np.float32,
)
CTC_LOGIT_PAD = np.array([[0, 0, 0, 0], [0, 0, 0, 1]], np.float32)
CTC_LABELS = np.array([[1, 2], [1, 1]], np.int32)
CTC_LABEL_PAD = np.zeros((2, 2), np.float32)


def j(x):
    return jnp.asarray(x)


OPTAX_VALUES = [
    ("softmax_ce", lambda: optim.softmax_cross_entropy(j(LOGITS), j(LABELS)),
     [0.90459692, 0.82761449]),
    ("softmax_ce_where", lambda: optim.softmax_cross_entropy(j(LOGITS), j(LABELS), where=j(WHERE)),
     [0.87407696, 0.74439669]),
    ("int_labels", lambda: optim.softmax_cross_entropy_with_integer_labels(j(LOGITS), j(INTS)),
     [1.00459695, 0.82761449]),
    ("int_labels_where",
     lambda: optim.softmax_cross_entropy_with_integer_labels(
         j(LOGITS), j(INTS), where=j(WHERE_INT)),
     [0.97407699, 0.0]),
    ("int_labels_axis0",
     lambda: optim.softmax_cross_entropy_with_integer_labels(j(LOGITS.T), j(INTS), axis=0),
     [1.00459695, 0.82761449]),
    ("safe_ce",
     lambda: optim.safe_softmax_cross_entropy(j(np.array([[1.0, -np.inf, 0.5]], np.float32)),
                                              j(np.array([[0.3, 0.0, 0.7]], np.float32))),
     [0.82407701]),
    ("sigmoid_bce",
     lambda: optim.sigmoid_binary_cross_entropy(j(PRED), j(np.array([1.0, 0.0, 0.3], np.float32))),
     [0.47407699, 0.20141329, 1.52692807]),
    ("l2", lambda: optim.l2_loss(j(PRED), j(TARG)), [0.125, 2.42, 2.42]),
    ("squared_error", lambda: optim.squared_error(j(PRED), j(TARG)), [0.25, 4.84, 4.84]),
    ("huber", lambda: optim.huber_loss(j(PRED), j(TARG)), [0.125, 1.7, 1.7]),
    ("huber_delta", lambda: optim.huber_loss(j(PRED), j(TARG), delta=0.5), [0.125, 0.975, 0.975]),
    ("log_cosh", lambda: optim.log_cosh(j(PRED), j(TARG)), [0.1201145, 1.51905537, 1.51905537]),
    ("cosine_similarity", lambda: optim.cosine_similarity(j(A), j(B)), [0.59628481, -0.11547005]),
    ("cosine_distance", lambda: optim.cosine_distance(j(A), j(B), epsilon=0.1),
     [0.4037152, 1.11547005]),
    ("kl", lambda: optim.kl_divergence(j(np.log(PROBS)), j(TPROBS)), [0.25541282, 0.38190854]),
    ("hinge",
     lambda: optim.hinge_loss(j(np.array([0.5, -2.0, 3.0])), j(np.array([1.0, -1.0, -1.0]))),
     [0.5, 0.0, 4.0]),
    ("smooth_labels", lambda: optim.smooth_labels(j(LABELS), 0.1),
     [0.21333332, 0.03333334, 0.75333333, 0.03333334, 0.93333334, 0.03333334]),
    ("focal", lambda: optim.sigmoid_focal_loss(j(PRED), j(FOCAL_LABELS)),
     [0.06757349, 0.00670285, 0.64973819]),
    ("focal_alpha",
     lambda: optim.sigmoid_focal_loss(j(PRED), j(FOCAL_LABELS), alpha=0.25, gamma=1.5),
     [0.02749378, 0.01177003, 0.48268041]),
    ("generalized_kl", lambda: optim.generalized_kl_divergence(j(np.log(PROBS) + 0.1), j(TPROBS)),
     [0.26058376, 0.38707948]),
    ("kl_log_targets",
     lambda: optim.losses.kl_divergence_with_log_targets(
         j(np.log(PROBS)), j(np.log(TPROBS + 0.05))),
     [0.31648061, 0.6180203]),
    ("ntxent", lambda: optim.ntxent(j(EMB), j(EMB_LABELS)), [3.00695944]),
    ("ntxent_temperature", lambda: optim.ntxent(j(EMB), j(EMB_LABELS), temperature=0.5),
     [0.80052519]),
    ("triplet", lambda: optim.losses.triplet_margin_loss(j(EMB[:2]), j(EMB[2:]), j(EMB[1:3])),
     [2.08578634, 1.40680671]),
    ("ctc", lambda: optim.ctc_loss(j(CTC_LOGITS), j(CTC_LOGIT_PAD), j(CTC_LABELS),
                                   j(CTC_LABEL_PAD)),
     [1.57104278, 3.15658975]),
    ("ctc_blank1_padded_label",
     lambda: optim.ctc_loss(j(CTC_LOGITS), j(CTC_LOGIT_PAD), j(np.array([[2, 0], [1, 1]])),
                            j(np.array([[0.0, 1.0], [0.0, 0.0]], np.float32)), blank_id=1),
     [1.98345947, 3.5565896]),
    ("ctc_logalpha_blank_last",
     lambda: optim.ctc_loss_with_forward_probs(j(CTC_LOGITS), j(CTC_LOGIT_PAD), j(CTC_LABELS),
                                               j(CTC_LABEL_PAD))[1][-1],
     [-4.935306, -2.411483, -1.571043, -2.85659, -1.45181, -3.15659]),
    ("ctc_logalpha_label_1",
     lambda: optim.ctc_loss_with_forward_probs(j(CTC_LOGITS), j(CTC_LOGIT_PAD), j(CTC_LABELS),
                                               j(CTC_LABEL_PAD))[2][1],
     [-2.10369, -2.116706, -1.603622, -100000.7109375]),
    ("ctc_grad",
     lambda: core.grad(lambda x: optim.ctc_loss(x, j(CTC_LOGIT_PAD), j(CTC_LABELS),
                                                j(CTC_LABEL_PAD)).sum())(j(CTC_LOGITS))[0],
     [0.1070973, -0.3362654, 0.229168, 0.0345701, -0.1114092, 0.0768392, 0.0419601, 0.1434252,
      -0.1853853, -0.0667821, 0.4409055, -0.3741235]),
    ("focal_grad",
     lambda: core.grad(lambda x: optim.sigmoid_focal_loss(x, j(FOCAL_LABELS), alpha=0.25).sum())(
         j(PRED)),
     [-0.0344842, 0.0127733, 0.1984819]),
    ("ntxent_grad", lambda: core.grad(lambda e: optim.ntxent(e, j(EMB_LABELS)))(j(EMB)),
     [-1.4273778, 0.7136889, 0.6636414, -1.3272828, 3.7397316, 7.4794631, 4.4494338, 0.667415]),
]  # fmt: skip


@pytest.mark.parametrize("name, fn, expected", OPTAX_VALUES, ids=[c[0] for c in OPTAX_VALUES])
def test_values_recorded_from_optax(name, fn, expected):
    np.testing.assert_allclose(np.asarray(fn()).ravel(), expected, rtol=1e-5, atol=1e-6)


def test_l2_loss_is_half_the_squared_error():
    np.testing.assert_allclose(
        np.asarray(optim.l2_loss(j(PRED))), 0.5 * np.asarray(optim.squared_error(j(PRED)))
    )


def test_integer_and_one_hot_cross_entropy_agree():
    one_hot = np.eye(3, dtype=np.float32)[INTS]
    np.testing.assert_allclose(
        np.asarray(optim.softmax_cross_entropy_with_integer_labels(j(LOGITS), j(INTS))),
        np.asarray(optim.softmax_cross_entropy(j(LOGITS), j(one_hot))),
        rtol=1e-6,
    )


def test_wrong_input_dtypes_raise():
    with pytest.raises(optim.errors.LossInputError, match="integer class indices"):
        optim.softmax_cross_entropy_with_integer_labels(j(LOGITS), j(LABELS[:, 0]))
    with pytest.raises(optim.errors.LossInputError, match="floating point"):
        optim.squared_error(j(INTS))


def test_cross_entropy_gradients():
    grad = core.grad(lambda x: optim.softmax_cross_entropy_with_integer_labels(x, j(INTS)).sum())
    probs = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    np.testing.assert_allclose(np.asarray(grad(j(LOGITS))), probs - np.eye(3)[INTS], rtol=1e-5)
    logits = j(np.array([[1.0, -np.inf, 0.5]], np.float32))
    labels = j(np.array([[0.3, 0.0, 0.7]], np.float32))
    g = np.asarray(core.grad(lambda x: optim.safe_softmax_cross_entropy(x, labels).sum())(logits))
    assert np.all(np.isfinite(g)) and g[0, 1] == 0.0


def test_convex_kl_divergence_is_the_deprecated_generalized_kl():
    args = (j(np.log(PROBS) + 0.1), j(TPROBS))
    with pytest.warns(DeprecationWarning, match="generalized_kl_divergence"):
        old = optim.convex_kl_divergence(*args)
    np.testing.assert_allclose(np.asarray(old), np.asarray(optim.generalized_kl_divergence(*args)))


def test_ctc_and_ntxent_shape_errors():
    with pytest.raises(optim.errors.BatchAxisError, match="batch size"):
        optim.ctc_loss(j(CTC_LOGITS), j(CTC_LOGIT_PAD), j(CTC_LABELS[:1]), j(CTC_LABEL_PAD[:1]))
    with pytest.raises(optim.errors.BatchAxisError, match="logit_paddings"):
        optim.ctc_loss(j(CTC_LOGITS), j(CTC_LOGIT_PAD[:, :2]), j(CTC_LABELS), j(CTC_LABEL_PAD))
    with pytest.raises(optim.errors.BatchAxisError, match="same leading dimension"):
        optim.ntxent(j(EMB), j(EMB_LABELS[:3]))


def test_ctc_loss_under_jit():
    f = core.jit(lambda x: optim.ctc_loss(x, j(CTC_LOGIT_PAD), j(CTC_LABELS), j(CTC_LABEL_PAD)))
    np.testing.assert_allclose(np.asarray(f(j(CTC_LOGITS))), [1.57104278, 3.15658975], rtol=1e-5)


@pytest.mark.parametrize("jitted", [False, True])
def test_integer_labels_out_of_range_give_nan_like_optax(jitted):
    # Optax 0.2.8: labels count from the end when negative; outside [-n, n) the loss is NaN
    # and the gradient is the softmax (the label's term drops out).
    logits = jnp.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [1.0, 1.0, 1.0]])
    labels = jnp.array([5, 2, -4])
    loss = optim.softmax_cross_entropy_with_integer_labels
    got = (core.jit(loss) if jitted else loss)(logits, labels)
    np.testing.assert_allclose(got, [np.nan, 0.24131131, np.nan], rtol=1e-6)
    wrapped = loss(logits, jnp.array([0, 3, -1]))
    np.testing.assert_allclose(wrapped, [2.407606, np.nan, 1.0986123], rtol=1e-6)
    g = core.grad(lambda lg: loss(lg, labels).sum())(logits)
    want = [
        [0.09003057, 0.24472848, 0.66524094],
        [0.17529039, 0.03911257, -0.21440297],
        [0.33333334, 0.33333334, 0.33333334],
    ]
    np.testing.assert_allclose(g, want, rtol=1e-6)


# Optax 0.2.8's first lines (chex's assertions), then numbax's; a shape mismatch is a ValueError.
@pytest.mark.parametrize(
    "run, error, first",
    [(lambda: optim.losses.squared_error(jnp.array([1.0, 2.0]), jnp.array([1.0])), ValueError,
      "Shape mismatch: got (2,) and (1,)."),
     (lambda: optim.losses.huber_loss(jnp.array([0, 1, 5])), TypeError,
      "Expected the input to have a dtype that is a subdtype of <class 'numpy.floating'>, got "
      "int32 instead"),
     (lambda: optim.losses.softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3)),
                                                                     jnp.array([2.0, 0.0])),
      TypeError,
      "Expected the input to have a dtype that is a subdtype of <class 'numpy.integer'>, got "
      "float32 instead")],
)  # fmt: skip
def test_input_errors_have_optaxs_first_lines(run, error, first):
    with pytest.raises(error) as info:
        run()
    assert str(info.value).split("\n")[0] == first


# Optax 0.2.8 rejects complex inputs to its losses (its dtype check is for real floating types):
# a complex loss, which `grad` refuses, is never computed
COMPLEX = jnp.ones((2, 3), jnp.complex64)
REAL = jnp.ones((2, 3))
COMPLEX_INPUTS = [
    ("squared_error", lambda: optim.squared_error(COMPLEX)),
    ("l2_loss", lambda: optim.l2_loss(COMPLEX)),
    ("huber_loss", lambda: optim.huber_loss(COMPLEX)),
    ("log_cosh", lambda: optim.log_cosh(COMPLEX)),
    ("softmax_cross_entropy", lambda: optim.softmax_cross_entropy(COMPLEX, REAL)),
    ("integer_labels", lambda: optim.softmax_cross_entropy_with_integer_labels(COMPLEX,
                                                                              jnp.array([0, 1]))),
    ("sigmoid_binary_cross_entropy", lambda: optim.sigmoid_binary_cross_entropy(COMPLEX, REAL)),
    ("kl_divergence targets", lambda: optim.kl_divergence(REAL, COMPLEX)),
    ("smooth_labels", lambda: optim.smooth_labels(COMPLEX, 0.1)),
    ("sigmoid_focal_loss", lambda: optim.sigmoid_focal_loss(COMPLEX, REAL)),
    ("cosine_similarity", lambda: optim.cosine_similarity(REAL, COMPLEX)),
    ("ntxent", lambda: optim.losses.ntxent(COMPLEX, jnp.array([0, 1]))),
    ("triplet_margin_loss", lambda: optim.losses.triplet_margin_loss(REAL, COMPLEX, REAL)),
    ("ranking_softmax_loss", lambda: optim.losses.ranking_softmax_loss(COMPLEX, REAL)),
]  # fmt: skip


@pytest.mark.parametrize("run", [c[1] for c in COMPLEX_INPUTS], ids=[c[0] for c in COMPLEX_INPUTS])
def test_complex_inputs_raise_optaxs_type_error(run):
    with pytest.raises(TypeError) as info:
        run()
    assert str(info.value).split("\n")[0] == (
        "Expected the input to have a dtype that is a subdtype of <class 'numpy.floating'>, got "
        "complex64 instead"
    )


# Optax 0.2.8 (JAX 0.10.2) printed these: the loss of a row with a -inf logit of label 0, a plain
# row and an all -inf row (NaN: its log_softmax is NaN), and the gradients of the first two rows
SAFE_LOGITS = [[1.0, -np.inf, 2.0], [0.0, 0.5, 0.0], [-np.inf, -np.inf, -np.inf]]
SAFE_LABELS = [[0.0, 0.0, 1.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]]


def test_safe_softmax_cross_entropy_values_and_gradients_match_optax():
    logits, labels = jnp.array(SAFE_LOGITS), jnp.array(SAFE_LABELS)
    loss = optim.losses.safe_softmax_cross_entropy
    np.testing.assert_allclose(
        np.asarray(loss(logits, labels)), [0.31326163, 1.0443769, np.nan], rtol=1e-6
    )
    g_logits = core.grad(lambda x: loss(x, labels[:2]).sum())(logits[:2])
    np.testing.assert_allclose(
        np.asarray(g_logits),
        [[0.26894143, 0.0, -0.2689414], [-0.22593138, -0.04813725, 0.27406862]],
        rtol=1e-6,
    )
    g_labels = core.grad(lambda y: loss(logits[:2], y).sum())(labels[:2])
    np.testing.assert_allclose(
        np.asarray(g_labels),
        [[1.3132616, np.inf, 0.31326163], [1.2943769, 0.7943768, 1.2943769]],
        rtol=1e-6,
    )


def test_ctc_loss_padding_shape_error_starts_with_optaxs():
    with pytest.raises(ValueError) as info:
        optim.losses.ctc_loss(
            jnp.zeros((1, 2, 3)), jnp.zeros((1, 3)), jnp.array([[1]]), jnp.zeros((1, 1))
        )
    assert str(info.value).split("\n")[0] == "Shape mismatch: got (1, 2) and (1, 3)."  # Optax 0.2.8


def test_sigmoid_focal_loss_hessian_is_finite_at_extreme_logits():
    """Hard labels at logits of +-50 (gamma 0.5): Optax 0.2.8's Hessian diagonal (its
    logsumexp holds the max constant; differentiating through a max gave nan)."""
    x = jnp.array([100.0, -100.0, 75.0, -75.0, 50.0, -50.0])
    t = jnp.array([0.9, 0.1, 0.8, 0.2, 1.0, 0.0])
    h = core.hessian(lambda z: jnp.sum(optim.sigmoid_focal_loss(z, t, gamma=0.5)))(x)
    want = [0.0, 0.0, 2.719285e-32, 2.719285e-32, 6.026933e-33, 6.026933e-33]
    np.testing.assert_allclose(np.diag(np.asarray(h)), want, rtol=1e-5, atol=0)
