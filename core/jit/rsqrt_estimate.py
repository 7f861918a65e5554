"""The x86 reciprocal-square-root estimate XLA's CPU rsqrt starts from, as LLVM IR.

XLA (xla/codegen/intrinsic/rsqrt.cc) takes the hardware estimate of 1 / sqrt(x), whose table is
the CPU's (`rsqrtss` for float32; AVX-512's `rsqrt14pd` for float64), and refines it by Newton
steps whose number depends on the CPU (`RSQRT_STEPS`, `RSQRT64_STEPS`); `core.jit.vecmath`'s
`rsqrt_f32`/`rsqrt_f64` do the steps. `emit_rsqrt_estimate` is the IR of the estimate, shared by
numba's intrinsic (`vecmath_ops._rsqrt_estimate`) and the direct-LLVM back end
(`core/backends/llvm/vm_f32.py`), so both compile the same instructions. The estimate is an
intrinsic on one lane of a vector, which LLVM's loop vectorizer does not widen; called through
a function that names its vector forms (the vector-function ABI), the loop vectorizes.
"""

from __future__ import annotations

import platform
from pathlib import Path

from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import config as numba_config
from numba.core.codegen import get_host_cpu_features


def _rsqrt_steps() -> tuple[int, int]:
    """Newton steps after the hardware estimate in XLA's rsqrt on this CPU, (float32, float64)
    (xla/codegen/intrinsic/rsqrt.cc; its float32 loops are at most 8 wide): float32 refines
    `rsqrtss`, once on AMD (whose estimate is more accurate), twice on other x86 CPUs with AVX;
    float64 refines AVX-512's `rsqrt14pd` twice. 0: no estimate, 1 / sqrt(x) (XLA elsewhere)."""
    features = _target_cpu_features()
    if platform.machine().lower() not in ("x86_64", "amd64") or not features.get("avx"):
        return 0, 0
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        cpuinfo = ""
    amd = "AuthenticAMD" in cpuinfo or llvm.get_host_cpu_name().startswith(_AMD_CPU_NAMES)
    return (1 if amd else 2), (2 if features.get("avx512f") else 0)


def target_cpu() -> tuple[str, str]:
    """The CPU name and features (`+avx,-avx512f,...`) numba compiles for: the host's, or
    `NUMBA_CPU_NAME`/`NUMBA_CPU_FEATURES` (e.g. `generic` for portable caches, which has no
    AVX) and `NUMBA_ENABLE_AVX=0`. Code cached for one target must not load on another."""
    name = numba_config.CPU_NAME or llvm.get_host_cpu_name()
    features = numba_config.CPU_FEATURES
    return name, get_host_cpu_features() if features is None else features


def _target_cpu_features() -> dict[str, bool]:
    return {f[1:]: f[0] == "+" for f in target_cpu()[1].split(",") if f}


_AMD_CPU_NAMES = ("znver", "bdver", "btver", "amdfam", "barcelona", "opteron", "athlon", "k8")
RSQRT_STEPS, RSQRT64_STEPS = _rsqrt_steps()


# x86 reciprocal-square-root estimates as functions of one float (`llvm.x86.<name>` on a vector
# of `lanes`, `masked` for AVX-512's forms), each with its vector forms for the loop vectorizer:
# (vector-function ABI ISA letter, lanes, intrinsic). float32 has no 16-lane form: AVX-512's
# `rsqrt14ps` is another estimate, and XLA's float32 loops are at most 8 wide.
_ESTIMATES = {
    "f32": ("sse.rsqrt.ss", 4, False, [("b", 4, "sse.rsqrt.ps"), ("d", 8, "avx.rsqrt.ps.256")]),
    "f64": (
        "avx512.rsqrt14.pd.128",
        2,
        True,
        [("b", 2, "avx512.rsqrt14.pd.128"), ("d", 4, "avx512.rsqrt14.pd.256"),
         ("e", 8, "avx512.rsqrt14.pd.512")],
    ),
}  # fmt: skip


def _estimate_function(module: ir.Module, float_t: ir.Type, lanes: int, name: str, masked: bool):
    """`numbax_rsqrt_estimate_*` of `lanes` floats (1: a scalar, through lane 0 of the
    intrinsic's vector), defined once per module (linkonce_odr: modules that each define it
    link)."""
    kind = "f32" if isinstance(float_t, ir.FloatType) else "f64"
    fn_name = f"numbax_rsqrt_estimate_{kind}" + (f"_x{lanes}" if lanes > 1 else "")
    if fn_name in module.globals:
        return module.globals[fn_name]
    arg_t = float_t if lanes == 1 else ir.VectorType(float_t, lanes)
    fn = ir.Function(module, ir.FunctionType(arg_t, [arg_t]), name=fn_name)
    fn.linkage = "linkonce_odr"
    for attribute in ("nounwind", "readnone") + (("noinline",) if lanes == 1 else ()):
        fn.attributes.add(attribute)
    b = ir.IRBuilder(fn.append_basic_block())
    width = _ESTIMATES[kind][1] if lanes == 1 else lanes
    vec_t = ir.VectorType(float_t, width)
    extra_t = [vec_t, ir.IntType(8 if kind == "f64" else 16)] if masked else []
    intr = b.module.declare_intrinsic(
        f"llvm.x86.{name}", fnty=ir.FunctionType(vec_t, [vec_t, *extra_t])
    )
    extra = [ir.Constant(vec_t, None), ir.Constant(extra_t[1], -1)] if masked else []
    lane = ir.Constant(ir.IntType(32), 0)
    x = b.insert_element(ir.Constant(vec_t, None), fn.args[0], lane) if lanes == 1 else fn.args[0]
    y = b.call(intr, [x, *extra])
    b.ret(b.extract_element(y, lane) if lanes == 1 else y)
    if lanes > 1:  # only the vectorizer calls a vector form: keep it until then
        _keep(module, fn)
    return fn


def emit_rsqrt_estimate(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """IR for the x86 estimate of 1 / sqrt(x) of a float (`rsqrtss`) or double (AVX-512's
    `rsqrt14pd`), XLA's starting point: a call of a scalar function that names its vector forms
    (the `vector-function-abi-variant` attribute), so LLVM's loop vectorizer widens the loop to
    `rsqrtps` (their values are `rsqrtss`'s, lane by lane) instead of leaving it scalar (rsqrt
    of 1e6 floats: 0.37 ms, against 3.4 ms). The vector forms are kept alive for the vectorizer
    in `llvm.compiler.used`. Used by numba (`_rsqrt_estimate`) and the direct-LLVM back end."""
    module = builder.module
    kind = "f32" if isinstance(x.type, ir.FloatType) else "f64"
    name, _, masked, forms = _ESTIMATES[kind]
    scalar = _estimate_function(module, x.type, 1, name, masked)
    variants = []
    for isa, lanes, vector_name in forms:
        vector = _estimate_function(module, x.type, lanes, vector_name, masked)
        variants.append(f"_ZGV{isa}N{lanes}v_{scalar.name}({vector.name})")
    call = builder.call(scalar, [x])
    # llvmlite knows no string attributes: added to the set unchecked, printed as written
    set.add(call.attributes, f'"vector-function-abi-variant"="{",".join(variants)}"')
    return call


def _keep(module: ir.Module, fn: ir.Function) -> None:
    """Adds `fn` to the module's `llvm.compiler.used` (appending: linked modules merge theirs).
    The array's length is part of its type, so a longer one replaces it; llvmlite has no call
    that frees a global's name, hence the scope's private set."""
    used = module.globals.get("llvm.compiler.used")
    members = list(used.initializer.constant) if used is not None else []
    if used is not None:
        del module.globals["llvm.compiler.used"]
        module.scope._useset.discard("llvm.compiler.used")
    members.append(fn)
    array_t = ir.ArrayType(ir.PointerType(), len(members))
    used = ir.GlobalVariable(module, array_t, "llvm.compiler.used")
    used.linkage = "appending"
    used.section = "llvm.metadata"
    used.initializer = ir.Constant(array_t, members)
