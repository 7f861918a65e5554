"""How much of a cold compile is numba's, and what LLVM alone would take on lean IR.

A cold first call spends almost all its time in numba and LLVM (`bench/compile_phases.py`).
This script asks how far a back end that wrote LLVM IR itself could go: for the kernels of a
train step (the one function of the MNIST MLP or CNN step, or each distinct kernel of a split
program), it compiles each kernel with numba on an empty cache (the library functions it calls
compiled beforehand and not counted) and records the CPU time and the size of the LLVM IR numba
hands to LLVM; then it builds lean IR of the same shape (as many loop nests, loads, stores and
arithmetic operations, on raw pointers with int64 sizes, as the kernel's source has) and times
LLVM on it at O3 with machine code, through llvmlite as numba uses it. The lean IR computes
nothing meaningful: it is a floor for LLVM's share, not a second back end.

With `--lean` it measures the back end that does this (`core/backends/llvm`) instead: numba alone
against the rewrite, LLVM on the lean nests and numba on the rest, on the serial form of each
distinct kernel (what a cold first call compiles).

Usage: `python bench/llvm_floor.py [--models mlp,cnn] [--lean]`. Prints a table and a JSON line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
if __name__ == "__main__":  # an empty cache before numba and numbax read its location
    _CACHE = tempfile.mkdtemp(prefix="numbax-llvm-floor-")
    os.environ["NUMBAX_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"] = _CACHE
    os.environ["NUMBAX_JIT_WORKERS"] = "0"

from bench._common import print_json, print_table  # noqa: E402


def kernel_shape(source: str) -> dict[str, int]:
    """Counts of what LLVM has to compile in a generated kernel's source."""
    return {
        "loops": len(re.findall(r"\bfor \w+ in p?range\(", source)),
        "loads": source.count("rt.ld("),
        "stores": source.count("rt.st("),
        "arith": len(re.findall(r" [-+*/] |[<>]=?| == ", source)),
    }


def lean_ir(shape: dict[str, int]) -> str:
    """A function of `shape["loops"]` two-deep loop nests over float pointers whose bodies hold
    the kernel's loads, stores and arithmetic, spread evenly."""
    nests = max(1, shape["loops"] // 2)
    per = {k: -(-shape[k] // nests) for k in ("loads", "stores", "arith")}
    arrays = 16
    params = [f"float* noalias %a{i}" for i in range(arrays)] + ["i64 %n0", "i64 %n1"]
    out = [f"define void @kernel({', '.join(params)}) {{", "entry:", "  br label %o0"]
    for k in range(nests):
        nxt = f"o{k + 1}"
        out += [
            f"o{k}:",
            f"  %i{k} = phi i64 [0, %{'entry' if k == 0 else f'e{k - 1}'}], [%ii{k}, %l{k}]",
            f"  %ci{k} = icmp slt i64 %i{k}, %n0",
            f"  br i1 %ci{k}, label %r{k}, label %e{k}",
            f"r{k}:",
            f"  %row{k} = mul i64 %i{k}, %n1",
            f"  br label %h{k}",
            f"h{k}:",
            f"  %j{k} = phi i64 [0, %r{k}], [%jj{k}, %b{k}]",
            f"  %cj{k} = icmp slt i64 %j{k}, %n1",
            f"  br i1 %cj{k}, label %b{k}, label %l{k}",
            f"b{k}:",
            f"  %f{k} = add i64 %row{k}, %j{k}",
        ]
        values = []
        for t in range(per["loads"]):
            out += [
                f"  %p{k}_{t} = getelementptr float, float* %a{t % arrays}, i64 %f{k}",
                f"  %v{k}_{t} = load float, float* %p{k}_{t}",
            ]
            values.append(f"%v{k}_{t}")
        acc = values[0] if values else "1.0"
        for t in range(per["arith"]):
            other = values[t % len(values)] if values else "2.0"
            out.append(f"  %x{k}_{t} = fadd float {acc}, {other}")
            acc = f"%x{k}_{t}"
        for t in range(per["stores"]):
            out += [
                f"  %q{k}_{t} = getelementptr float, float* %a{(t + 7) % arrays}, i64 %f{k}",
                f"  store float {acc}, float* %q{k}_{t}",
            ]
        out += [
            f"  %jj{k} = add i64 %j{k}, 1",
            f"  br label %h{k}",
            f"l{k}:",
            f"  %ii{k} = add i64 %i{k}, 1",
            f"  br label %o{k}",
            f"e{k}:",
            f"  br label %{nxt}",
        ]
    out += [f"o{nests}:", "  ret void", "}"]
    return "\n".join(out) + "\n"


def llvm_seconds(ir: str) -> float:
    """CPU seconds llvmlite takes to parse `ir`, optimize it at O3 and emit machine code."""
    import llvmlite.binding as llvm  # noqa: PLC0415 (with numba)

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=3, jit=True)
    start = time.process_time()
    module = llvm.parse_assembly(ir)
    module.verify()
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=3))
    builder.getModulePassManager().run(module, builder)
    machine.emit_object(module)
    return time.process_time() - start


def distinct_kernels(model: str, serial: bool) -> dict[str, tuple]:
    """The distinct kernels of `model`'s train step, source -> argument types (their serial
    forms if `serial`), with the library functions they call loaded (not counted)."""
    from bench import compile as cb  # noqa: PLC0415
    from core.backends.numba.library import entry as library  # noqa: PLC0415
    from core.jit import program  # noqa: PLC0415

    F = cb.framework("numbax")
    build, batch = cb.BUILDERS[model]
    step, state, args = build(F)(batch)
    step.trace(*state, *args)
    jaxpr = next(iter(step._cache().values())).jaxpr
    split = program.split(jaxpr)
    whole = program._whole(split)
    built = {}
    for kj in split.kernels:
        src, types, _ = program._build(kj, whole)
        built.setdefault(src.replace("prange(", "range(") if serial else src, types)
    for src in built:
        for attr in library.required(src):
            library.load(*library.signature_of(attr))
    return built


def numba_kernels(model: str) -> list[dict]:
    """Compiles each distinct kernel of `model`'s train step with numba; its CPU seconds, IR
    lines handed to LLVM, and source shape."""
    from numba.core import codegen as numba_codegen  # noqa: PLC0415

    from core.jit import codegen  # noqa: PLC0415

    built = distinct_kernels(model, serial=False)
    ir_lines = [0]
    add = numba_codegen.CPUCodeLibrary.add_ir_module

    def counting(self, ir_module):
        ir_lines[0] += str(ir_module).count("\n")
        return add(self, ir_module)

    numba_codegen.CPUCodeLibrary.add_ir_module = counting
    rows = []
    for src, types in built.items():
        ir_lines[0] = 0
        start = time.process_time()
        codegen.compile_source(src, types)
        rows.append(
            dict(
                seconds=time.process_time() - start,
                ir_lines=ir_lines[0],
                source_lines=src.count("\n"),
                **kernel_shape(src),
            )
        )
    numba_codegen.CPUCodeLibrary.add_ir_module = add
    return rows


def lean_kernels(model: str) -> dict:
    """The back end of `core/backends/llvm` against numba alone on the serial form of each
    distinct kernel of `model`'s train step (what a cold first call compiles): CPU seconds of
    numba on the kernel as generated, and of the rewrite, LLVM on the lean nests and numba on
    the rewritten kernel; nests lowered out of all top-level serial nests."""
    import numpy as np  # noqa: PLC0415

    from core.backends.llvm import nests, rewrite  # noqa: PLC0415
    from core.jit import codegen, disk_cache, vecmath  # noqa: PLC0415

    built = distinct_kernels(model, serial=True)
    for name in dir(vecmath):  # compiled once per process by either path: not counted
        if name.endswith("_f32"):
            getattr(vecmath, name)(np.float32(0.5))
    res = dict(kernels=len(built), nests=0, lowered=0, numba_s=0.0)
    res.update(rewrite_s=0.0, llvm_s=0.0, shell_s=0.0)
    for src, types in built.items():
        start = time.process_time()
        codegen.compile_source(src, types)
        res["numba_s"] += time.process_time() - start
        start = time.process_time()
        new = rewrite.rewrite(src, types)
        res["rewrite_s"] += time.process_time() - start
        start = time.process_time()
        disk_cache.load_module(new)  # compiles the lean nests (`ln.load`)
        res["llvm_s"] += time.process_time() - start
        start = time.process_time()
        codegen.compile_source(new, types)
        res["shell_s"] += time.process_time() - start
        res["nests"] += len(re.findall(r"^    for \w+ in range\(", src, re.M))
        res["lowered"] += len(re.findall(r"^    [\w, ]*(?:= )?_ln\d+\(", new, re.M))
    res["lean_s"] = res["rewrite_s"] + res["llvm_s"] + res["shell_s"]
    res["lean_modules_compiled"] = nests.stats()["compiled"]
    return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn")
    parser.add_argument(
        "--lean", action="store_true", help="time the LLVM back end against numba instead"
    )
    opts = parser.parse_args()
    if opts.lean:
        main_lean(opts.models.split(","))
        return
    table, results = [], {}
    for model in opts.models.split(","):
        kernels = numba_kernels(model)
        lean = [lean_ir(k) for k in kernels]
        floor = sum(llvm_seconds(ir) for ir in lean)
        res = dict(
            kernels=len(kernels),
            source_lines=sum(k["source_lines"] for k in kernels),
            numba_s=sum(k["seconds"] for k in kernels),
            numba_ir_lines=sum(k["ir_lines"] for k in kernels),
            lean_ir_lines=sum(ir.count("\n") for ir in lean),
            lean_llvm_s=floor,
        )
        results[model] = res
        table.append(
            [
                model,
                res["kernels"],
                res["source_lines"],
                f"{res['numba_s']:.2f} s",
                res["numba_ir_lines"],
                res["lean_ir_lines"],
                f"{floor:.2f} s",
                f"{res['numba_s'] / max(floor, 1e-9):.1f}x",
            ]
        )
    print_table(
        "numba's compile of a train step's kernels against LLVM alone on lean IR of their shape "
        "(CPU seconds)",
        [
            "model",
            "distinct kernels",
            "source lines",
            "numba",
            "IR lines from numba",
            "lean IR lines",
            "LLVM on lean IR",
            "numba / lean",
        ],
        table,
    )
    print_json("llvm_floor", results)


def main_lean(models: list[str]) -> None:
    table, results = [], {}
    for model in models:
        r = results[model] = lean_kernels(model)
        table.append(
            [
                model,
                r["kernels"],
                f"{r['lowered']} / {r['nests']}",
                f"{r['numba_s']:.2f} s",
                f"{r['rewrite_s']:.2f} s",
                f"{r['llvm_s']:.2f} s",
                f"{r['shell_s']:.2f} s",
                f"{r['lean_s']:.2f} s",
                f"{r['lean_s'] / max(r['numba_s'], 1e-9):.2f}x",
            ]
        )
    print_table(
        "the serial forms of a train step's distinct kernels: numba alone against lean nests "
        "(CPU seconds)",
        [
            "model",
            "kernels",
            "nests lowered",
            "numba",
            "rewrite",
            "LLVM (nests)",
            "numba (rest)",
            "lean total",
            "lean / numba",
        ],
        table,
    )
    print_json("llvm_lean", results)


if __name__ == "__main__":
    main()
