"""`tools.api_coverage`: the reference names map to numbax's modules, and the names this
session's porting work added stay present (checkify, the float8 types, `lax.linalg`'s
reductions, `optax.transforms`, the stats distributions, `optax.contrib`)."""

from tools import api_coverage


def test_counterparts():
    assert api_coverage.counterpart("jax.numpy") == "core.numpy"
    assert api_coverage.counterpart("flax.linen.initializers") == "nn.initializers"
    assert api_coverage.counterpart("flax.struct") == "flaxport.struct"
    assert api_coverage.counterpart("optax.tree_utils") == "optim.tree_utils"
    assert api_coverage.counterpart("optax.losses") == "optim.losses"


def test_ported_modules_stay_complete():
    missing = api_coverage.missing()
    complete = ("optax", "optax.losses", "optax.assignment", "optax.transforms", "optax.schedules")
    complete += ("optax.contrib", "flax.traverse_util", "flax.jax_utils", "flax.core")
    for module in ("jax.experimental.checkify", *complete):
        assert module not in missing, missing.get(module)
    assert not {"float8_e4m3fn", "float8_e5m2"} & set(missing.get("jax.numpy", []))
    lax_linalg = set(missing.get("jax.lax.linalg", []))
    assert not {"hessenberg", "tridiagonal", "householder_product", "ormqr"} & lax_linalg
    assert "jax.lax.linalg" not in missing, missing.get("jax.lax.linalg")
    extended = {"sharding_constraint_p", "closed_call_p"}
    assert not extended & set(missing.get("jax.extend.core.primitives", []))
    assert not {"binom", "pareto", "mode", "rankdata", "sem"} & set(
        missing.get("jax.scipy.stats", [])
    )


def test_jax_porting_names_stay_present():
    missing = api_coverage.missing()
    assert "jax.stages" not in missing, missing.get("jax.stages")
    assert not {"fft", "FftType"} & set(missing.get("jax.lax", []))
    assert not {"breakpoint", "log", "inspect_array_sharding"} & set(missing.get("jax.debug", []))
    assert not {"custom_gradient", "closure_convert", "linear_call"} & set(
        missing.get("jax.custom_derivatives", [])
    )
    special = {"bessel_jn", "expi", "expn", "fresnel", "hyp1f1", "hyp2f1", "owens_t", "sici"}
    assert not (special | {"sph_harm_y", "wofz"}) & set(missing.get("jax.scipy.special", []))
    assert not {"stft", "istft", "welch", "csd"} & set(missing.get("jax.scipy.signal", []))
    assert "gaussian_kde" not in missing.get("jax.scipy.stats", [])
    top = {"no_tracing", "no_execution", "debug_key_reuse", "copy_to_host_async", "transfer_guard"}
    top |= {"linear_call", "reshard", "Shard"}
    assert not top & set(missing.get("jax", []))
    assert "default_registry" not in missing.get("jax.tree_util", [])
    assert not {"cholesky_p", "eig_p", "eigh_p", "qr_p", "svd_p"} & set(
        missing.get("jax.lax.linalg", [])
    )
    ported = {"expm_frechet", "eigh_tridiagonal", "qr_multiply", "solve_sylvester"}
    assert not ported & set(missing.get("jax.scipy.linalg", []))
    assert "qdwh" not in missing.get("jax.lax.linalg", [])
    schur_family = {"schur", "sqrtm", "funm", "rsf2csf"}
    assert not schur_family & set(missing.get("jax.scipy.linalg", []))
    assert "schur" not in missing.get("jax.lax.linalg", [])
    numpy_names = {"int1", "int2", "int4", "uint1", "uint2", "uint4", "fromfile", "from_dlpack"}
    assert not numpy_names & set(missing.get("jax.numpy", []))


def test_jax_core_and_extend_names_stay_present():
    missing = api_coverage.missing()
    assert "jax.core" not in missing, missing.get("jax.core")
    assert not {"Primitive", "Jaxpr", "ClosedJaxpr", "JaxprEqn", "Literal", "Var"} & set(
        missing.get("jax.extend.core", [])
    )
    assert not {"jaxpr_as_fun", "concrete_or_error", "mapped_aval"} & set(
        missing.get("jax.extend.core", [])
    )
    assert set(missing.get("jax.interpreters.ad", [])) <= {"add_jaxvals_p", "jvp", "linearize"}
    assert "primitive_batchers" not in missing.get("jax.interpreters.batching", [])
