"""core.image: resize and scale_and_translate values recorded from jax.image (0.10.2) for every
method, with and without antialiasing, up- and downscaling; dtypes; errors; grad (to the image
and to a traced scale), vmap and jit."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import image
from core.image import ResizeMethod

S = np.array([0.5, -1.25, 2.0, 0.75, -0.5], np.float32)
X = (np.arange(20, dtype=np.float32).reshape(5, 4) % 7 - 3) / 2
SCALE, SHIFT = np.array([0.6, 1.4], np.float32), np.array([0.3, -0.5], np.float32)

# (method, output length, antialias, expected) for the 1-D signal S
RESIZE_1D = [
    ("nearest", 8, True, [0.5, 0.5, -1.25, 2.0, 2.0, 0.75, -0.5, -0.5]),
    ("nearest", 3, True, [0.5, 2.0, -0.5]),
    ("linear", 8, True, [0.5, -0.265625, -1.04688, 0.984375, 1.60938, 0.828125, 0.046875, -0.5]),
    ("linear", 8, False, [0.5, -0.265625, -1.04688, 0.984375, 1.60938, 0.828125, 0.046875, -0.5]),
    ("linear", 3, True, [-0.25, 1.0, 0.0357144]),
    ("linear", 3, False, [-0.0833333, 2.0, -0.0833331]),
    (
        "cubic",
        8,
        True,
        [0.625923, -0.354521, -1.17596, 1.14886, 1.94171, 0.836365, -0.0694429, -0.589945],
    ),
    ("cubic", 3, True, [-0.288462, 1.03954, 0.0807692]),
    ("cubic", 3, False, [-0.0948277, 2.0, -0.198276]),
    (
        "lanczos3",
        8,
        False,
        [0.78021, -0.48491, -1.17726, 1.07249, 2.20091, 0.909124, -0.198672, -0.588699],
    ),
    ("lanczos3", 3, True, [-0.349801, 1.03278, 0.152616]),
    ("lanczos3", 3, False, [-0.223266, 2.0, -0.290081]),
    (
        "lanczos5",
        8,
        True,
        [0.865887, -0.528074, -1.18212, 0.993999, 2.32767, 0.944842, -0.3497, -0.498135],
    ),
    ("lanczos5", 3, True, [-0.390915, 1.0302, 0.204619]),
    ("lanczos5", 3, False, [-0.273273, 2.0, -0.420147]),
    (
        "cubic-pytorch",
        8,
        True,
        [0.625923, -0.354521, -1.17596, 1.14886, 1.94171, 0.836365, -0.0694429, -0.589945],
    ),
    (
        "cubic-pytorch",
        8,
        False,
        [0.66246, -0.514603, -1.1572, 1.10019, 2.05753, 0.872528, -0.0636749, -0.616043],
    ),
    ("cubic-pytorch", 3, True, [-0.288462, 1.03954, 0.0807692]),
    ("cubic-pytorch", 3, False, [-0.231481, 2.0, -0.175927]),
    ("area", 8, True, [0.5, -0.2, -1.25, 1.35, 1.75, 0.75, 0.0, -0.5]),
    ("area", 3, False, [-0.2, 1.1, 2.98023e-08]),
]

RESIZE_2D = [
    (
        "bilinear",
        (3, 6),
        [-0.642857, -0.392857, -0.0595238, 0.27381, -0.142857, -0.642857]
        + [-0.222222, 0.0277778, 0.231481, 0.0462963, -0.138889, -0.277778]
        + [0.142857, 0.392857, 0.47619, -0.190476, -0.107143, 0.142857],
    ),
    (
        "bicubic",
        (7, 3),
        [-1.52154, -0.873682, -0.0579748, -0.186198, 0.545967, -0.525748, 0.313618]
        + [1.12788, -0.452039, -0.905034, -0.25, 0.405034, 0.84297, -0.126041]
        + [-1.01104, 0.692616, 0.126731, -0.439153, -0.504077, 0.264563, 1.0332],
    ),
    (
        "trilinear",
        (5, 2),
        [-1.14286, -0.357143, 0.857143, 0.142857, -0.642857]
        + [0.142857, 0.857143, -0.857143, -0.142857, 0.642857],
    ),
]

# scale_and_translate(X, (4, 5), (0, 1), SCALE, SHIFT, method, antialias)
ST = [
    (
        "linear",
        True,
        [-0.892857, -0.535714, -0.178571, -0.133929, -0.375, -0.142857, 0.214286, 0.430804]
        + [0.162946, -0.5, 0.313025, 0.670168, -0.163866, -0.468487, -0.147059]
        + [0.0] * 5,
    ),
    (
        "linear",
        False,
        [-1.39286, -1.03571, -0.678571, -0.321429, 0.0, -0.142857, 0.214286, 0.571429]
        + [0.303571, -0.5, 0.857143, 1.21429, -0.303572, -0.988096, -0.666667]
        + [0.0] * 5,
    ),
    (
        "cubic",
        True,
        [-0.983779, -0.59143, -0.159702, -0.127241, -0.404033, -0.168985, 0.225487, 0.609114]
        + [0.232203, -0.592732, 0.317164, 0.736642, -0.293943, -0.613702, -0.0700133]
        + [0.0] * 5,
    ),
    (
        "cubic",
        False,
        [-1.5621, -1.16957, -0.827143, -0.339845, 0.122183, -0.184226, 0.205287, 0.864517]
        + [0.504239, -0.547262, 1.04312, 1.48042, -0.451438, -1.34397, -0.808854]
        + [0.0] * 5,
    ),
    (
        "lanczos3",
        True,
        [-0.969015, -0.580044, -0.00626801, -0.0921624, -0.476877, -0.171689, 0.209842]
        + [0.71633, 0.142641, -0.671097, 0.325979, 0.709686, -0.368852, -0.650125]
        + [0.0571686]
        + [0.0] * 5,
    ),
    (
        "lanczos3",
        False,
        [-1.66637, -1.26678, -0.981465, -0.335042, 0.227178, -0.231615, 0.15114, 1.22095]
        + [0.676052, -0.547294, 1.15672, 1.52807, -0.377981, -1.40286, -0.785884]
        + [0.0] * 5,
    ),
]


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual).ravel(), expected, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("method,n,antialias,expected", RESIZE_1D)
def test_resize_1d_matches_jax(method, n, antialias, expected):
    out = image.resize(S, (n,), method, antialias=antialias)
    assert out.shape == (n,) and out.dtype == np.float32
    _close(out, expected)


@pytest.mark.parametrize("method,shape,expected", RESIZE_2D)
def test_resize_2d_matches_jax(method, shape, expected):
    out = image.resize(jnp.asarray(X), shape, method)
    assert out.shape == shape
    _close(out, expected)


def test_resize_keeps_unchanged_dims_and_accepts_enum():
    x = jnp.asarray(np.stack([X, -X], axis=-1))  # (5, 4, 2): channels untouched
    out = image.resize(x, (3, 6, 2), ResizeMethod.LINEAR)
    _close(out[..., 0], RESIZE_2D[0][2])
    _close(out[..., 1], [-v for v in RESIZE_2D[0][2]])
    np.testing.assert_array_equal(np.asarray(image.resize(X, X.shape, "cubic")), X)


@pytest.mark.parametrize("method,antialias,expected", ST)
def test_scale_and_translate_matches_jax(method, antialias, expected):
    out = image.scale_and_translate(X, (4, 5), (0, 1), SCALE, SHIFT, method, antialias=antialias)
    assert out.shape == (4, 5)
    _close(out, expected)


def test_integer_images():
    xi = np.arange(12, dtype=np.int32).reshape(3, 4)
    near = image.resize(xi, (5, 3), "nearest")
    assert near.dtype == np.int32
    np.testing.assert_array_equal(
        np.asarray(near), [[0, 2, 3], [0, 2, 3], [4, 6, 7], [8, 10, 11], [8, 10, 11]]
    )
    assert image.resize(xi, (5, 3), "linear").dtype == np.float32


@pytest.mark.parametrize(
    "call,exc,first_line",
    [  # JAX's classes and first lines (its resize message has two spaces after the ';')
        (lambda: image.resize(X, (3,), "linear"), ValueError, "shape must have length equal to "
         "the number of dimensions of x;  (3,) vs (5, 4)"),
        (lambda: image.resize(X, (3, 3), "bogus"), ValueError, None),
        (lambda: image.resize(X, (3, 3), 3), TypeError, None),
        (lambda: image.resize(X, [10.5, 17], "bicubic"), TypeError, "Shapes must be 1D "
         "sequences of concrete values of integer type, got [10.5, 17]."),
        (lambda: image.scale_and_translate(X, (10.0, 4), (0,), SCALE[:1], SHIFT[:1], "linear"),
         TypeError, "Shapes must be 1D sequences of concrete values of integer type, got "
         "(10.0, 4)."),
        (lambda: image.scale_and_translate(X, (3, 3), (0, 1), SCALE, SHIFT, "nearest"),
         ValueError, "Nearest neighbor resampling is not currently supported for "
         "scale_and_translate."),
        (lambda: image.scale_and_translate(X, (3, 3), (0,), SCALE, SHIFT, "linear"),
         AssertionError, None),
        (lambda: image.scale_and_translate(X, (3, 3), (0,), SCALE, SHIFT, "linear"),
         ValueError, None),
    ],
)  # fmt: skip
def test_errors(call, exc, first_line):
    with pytest.raises(exc) as e:
        call()
    if first_line is not None:
        assert str(e.value).split("\n")[0] == first_line


def test_gradients_are_as_strong_as_jaxs():
    """The input's cotangent comes back through gathers and products without the weak type
    of the (weakly typed) image, as JAX's does."""
    weak = jnp.cos(jnp.arange(20) * 0.37).reshape(4, 5)
    assert weak.weak_type
    for method in ("nearest", "linear", "cubic"):
        g = core.grad(lambda x, m=method: image.resize(x, (6, 3), m).sum())(weak)
        assert g.dtype == np.float32 and not g.weak_type


def test_from_string():
    assert ResizeMethod.from_string("bilinear") is ResizeMethod.LINEAR
    assert ResizeMethod.from_string("tricubic") is ResizeMethod.CUBIC
    assert ResizeMethod.from_string("lanczos5") is ResizeMethod.LANCZOS5


def test_grad_to_image_matches_jax():
    g = core.grad(lambda x: (image.resize(x, (3, 6), "linear") ** 2).sum())(jnp.asarray(X))
    expected = [-0.959184, -0.229025, 0.167801, -0.816326, -0.81198, -0.0764327, 0.12928]
    expected += [-0.766566, -0.231482, 0.23834, 0.00857337, -0.385803, 0.198224, 0.576629]
    expected += [-0.110516, -0.0777905, 0.387755, 0.641723, -0.151928, 0.102041]
    _close(g, expected)


def test_grad_to_traced_scale_matches_jax():
    def f(s):
        return image.scale_and_translate(X, (4, 5), (0, 1), s, SHIFT, "linear").sum()

    np.testing.assert_allclose(
        np.asarray(core.grad(f)(jnp.asarray(SCALE))), [-7.55704, 0.428609], rtol=1e-4
    )


def test_resize_takes_an_integer_array_as_shape():
    assert image.resize(X, jnp.array((10, 17)), "nearest").shape == (10, 17)


def test_vmap_and_jit():
    batch = jnp.asarray(np.stack([X, 2 * X, -X]))
    out = core.vmap(lambda x: image.resize(x, (3, 6), "bilinear"))(batch)
    for k, c in enumerate([1.0, 2.0, -1.0]):
        _close(out[k], [c * v for v in RESIZE_2D[0][2]])
    f = core.jit(lambda x, s: image.scale_and_translate(x, (4, 5), (0, 1), s, SHIFT, "cubic"))
    _close(f(X, SCALE), ST[2][2])


def test_unknown_method_error_starts_with_jaxs_line():
    # JAX 0.10.2: jax.image.resize(x, (5, 7), "bogus") -> ValueError('Unknown resize method
    # "bogus"'); numbax adds the known names on the next line
    with pytest.raises(ValueError) as info:
        image.resize(jnp.ones((3, 4)), (5, 7), "bogus")
    lines = str(info.value).splitlines()
    assert lines[0] == 'Unknown resize method "bogus"'
    assert "lanczos3" in lines[1]
