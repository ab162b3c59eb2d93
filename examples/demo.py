"""`make demo`: what tirkit can do today, on real kernels, printed step by step.

Run with ``.venv/bin/python examples/demo.py``. Each section says what it did and what it found.
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_kernels  # noqa: E402
from tirkit import tir  # noqa: E402
from tirkit.arith import Analyzer, detect_iter_map, normalize_iter_map_to_expr  # noqa: E402
from tirkit.ir import Range, first_mismatch, structural_equal, structural_hash  # noqa: E402
from tirkit.tir.analysis import verify_well_formed  # noqa: E402
from tirkit.tir.stmt_functor import post_order_visit  # noqa: E402


def section(title: str) -> None:
    print(f"\n== {title} ==")


def count_nodes(func: tir.PrimFunc) -> dict[str, int]:
    counts: dict[str, int] = {}
    post_order_visit(func.body, lambda n: counts.__setitem__(type(n).__name__,
                                                            counts.get(type(n).__name__, 0) + 1))
    return counts


def demo_kernels() -> None:
    section("1. Seed kernels built through the Python API (tirkit.tir)")
    for build in (api_kernels.matmul, api_kernels.softmax, api_kernels.conv2d_nchw):
        t0 = time.perf_counter()
        func = build()
        ms = (time.perf_counter() - t0) * 1e3
        verify_well_formed(func)
        counts = count_nodes(func)
        blocks = counts.get("Block", 0)
        print(f"{build.__name__:12s} built in {ms:5.1f} ms: {len(func.params)} params, "
              f"{blocks} blocks, {counts.get('For', 0)} loops, "
              f"{sum(counts.values())} nodes; well-formed; "
              f"structural_hash={structural_hash(func):#018x}")


def demo_equality() -> None:
    section("2. Structural equality (variables compared by where they are defined)")
    a = api_kernels.matmul()
    b = api_kernels.matmul(loop_names=("x", "y", "z"))
    print(f"matmul vs matmul with loops renamed i,j,k -> x,y,z: equal={structural_equal(a, b)}")
    c = api_kernels.matmul(loop_order="ikj")
    path, _, _ = first_mismatch(a, c)
    print(f"matmul vs matmul with loops reordered (ikj): equal={structural_equal(a, c)}; "
          f"first difference at {path}")


def demo_arith() -> None:
    section("3. Arithmetic: simplification with variable ranges, affine iter maps")
    i, j = tir.Var("i", "int32"), tir.Var("j", "int32")
    ana = Analyzer()
    ana.bind(i, Range(0, 4))
    ana.bind(j, Range(0, 32))
    fused = i * 32 + j
    for expr in (fused // 32, fused % 32, tir.min(fused, 200), fused < 128):
        print(f"simplify({expr!r}) = {ana.simplify(expr)!r}")
    res = detect_iter_map([fused // 8, fused % 8], {i: Range(0, 4), j: Range(0, 32)})
    if res.errors:
        print("detect_iter_map errors:", res.errors)
    else:
        back = [normalize_iter_map_to_expr(e) for e in res.indices]
        print(f"detect_iter_map([(i*32+j)//8, (i*32+j)%8]) is affine; normalized: {back!r}")


def demo_frontend() -> None:
    section("4. TVMScript front end")
    try:
        from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel
    except ImportError:
        print("front end: not available yet (issue 3)")
        return
    path = Path(__file__).resolve().parent / "matmul.py"
    try:
        func = from_source(path.read_text(), str(path))
    except Exception as err:  # pylint: disable=broad-except
        print(f"front end: could not parse {path.name}: {err}")
        return
    same = structural_equal(func, api_kernels.matmul(), map_free_vars=True)
    print(f"parsed {path.name} without running it; structurally equal to the API-built "
          f"matmul: {same}")


def demo_tirc() -> None:
    """`tirc` on a file: LLVM IR for the host, an AArch64 object, stage dumps."""
    import tempfile  # pylint: disable=import-outside-toplevel

    from tirkit.cli.tirc import main as tirc  # pylint: disable=import-outside-toplevel

    src = Path(__file__).resolve().parent / "matmul_scheduled.py"
    with tempfile.TemporaryDirectory() as tmp:
        out, obj, dump = Path(tmp, "matmul.ll"), Path(tmp, "matmul.o"), Path(tmp, "stages")
        t0 = time.perf_counter()
        code = tirc([str(src), "-O3", "-o", str(out), "--dump-dir", str(dump)])
        ms = (time.perf_counter() - t0) * 1e3
        text = out.read_text() if code == 0 else ""
        vector_ops = len(re.findall(r"= (?:load|fadd|fmul|fmuladd) <\d+ x float>", text))
        print(f"tirc examples/{src.name} -O3 -o matmul.ll --dump-dir stages: exit {code} in "
              f"{ms:.0f} ms; {len(text.splitlines())} lines of LLVM IR, {vector_ops} vector "
              f"loads/adds/multiplies, parallel loop via GOMP_parallel: {'GOMP_parallel' in text}")
        if code == 0:
            listing = (dump / "stages.txt").read_text().splitlines()
            same = sum("(unchanged)" in line for line in listing)
            print(f"  stage dumps: {len(listing)} TVMScript files (Input + every stage), "
                  f"{same} marked (unchanged)")
        code = tirc([str(src), "--target", "aarch64-unknown-linux-gnu", "--emit", "obj",
                     "-o", str(obj)])
        if code == 0:
            data = obj.read_bytes()
            machine = int.from_bytes(data[18:20], "little")
            print(f"tirc ... --target aarch64-unknown-linux-gnu --emit obj: {len(data)} bytes, "
                  f"ELF machine {machine} ({'AArch64' if machine == 183 else '?'})")


def _best_ms(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def demo_compiler() -> None:
    section("5. Compiler: tirc, and build() running the example kernels against NumPy")
    try:
        from tirkit.compiler import build, PipelineError  # pylint: disable=import-outside-toplevel
        import references  # pylint: disable=import-outside-toplevel
        demo_tirc()
    except (ImportError, PipelineError) as err:
        print(f"compiler not complete: {err}")
        return
    import numpy as np  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.transform import as_module  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    print(f"\n{'kernel':18s} {'compile':>9s} {'run':>9s} {'rate':>13s} {'NumPy':>9s} "
          f"{'max error':>10s}")
    for k in references.KERNELS:
        t0 = time.perf_counter()
        fn = build(as_module(from_source(k.path.read_text(), str(k.path))), opt_level=3)[k.entry]
        compile_ms = (time.perf_counter() - t0) * 1e3
        args = k.inputs(np.random.default_rng(0))
        index, expected = k.reference(args)
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        fn(*args)
        err = references.max_error(args[index], expected)
        run_ms = _best_ms(lambda: fn(*fresh))
        numpy_ms = _best_ms(lambda: k.numpy_op(fresh))
        work = k.flops or sum(a.nbytes for a in args if isinstance(a, np.ndarray))
        rate = f"{work / run_ms / 1e6:.1f} {'GFLOP/s' if k.flops else 'GB/s'}"
        print(f"{k.entry:18s} {compile_ms:7.0f}ms {run_ms:7.2f}ms {rate:>13s} "
              f"{numpy_ms:7.2f}ms {err:10.1e}")
    print("(compile = parse + 22-stage pipeline + LLVM -O3 + JIT; run = best of 3; max error "
          "relative to the largest value of a float64 NumPy reference, exact 0 for integers)")


def _timed_build(mod, entry):
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    return build(mod, opt_level=3)[entry]


def _schedule_row(item, size_note: str = "") -> None:
    import numpy as np  # pylint: disable=import-outside-toplevel
    import references  # pylint: disable=import-outside-toplevel
    import scheduled  # pylint: disable=import-outside-toplevel

    t0 = time.perf_counter()
    sch = scheduled.apply(item)
    sched_ms = (time.perf_counter() - t0) * 1e3
    kernel = references.BY_ENTRY[item.reference]
    mod = scheduled.kernel_module(item)
    if size_note:  # the naive 1024^3 matmul takes ~20 s: time both versions at 512^3 instead
        from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel
        from tirkit.schedule import Schedule  # pylint: disable=import-outside-toplevel
        text = (scheduled.HERE / item.kernel).read_text().replace("1024", "512")
        mod = from_source(text)
        sch = Schedule(mod)
        scheduled.load_schedule(item.script)(sch)
        a = references.f32(np.random.default_rng(0), 512, 512)
        b = references.f32(np.random.default_rng(1), 512, 512)
        args = [a, b, references.nan32(512, 512)]
        expected, numpy_op = a.astype(np.float64) @ b, (lambda: np.matmul(a, b))
        index = 2
    else:
        args = kernel.inputs(np.random.default_rng(0))
        index, expected = kernel.reference(args)
        numpy_op = lambda: kernel.numpy_op(args)  # noqa: E731
    naive, fast = _timed_build(mod, item.entry), _timed_build(sch.mod, item.entry)
    naive_ms = _best_ms(lambda: naive(*args), repeat=1)
    fast(*args)
    err = references.max_error(args[index], expected)
    fast_ms = _best_ms(lambda: fast(*args))
    numpy_ms = _best_ms(numpy_op)
    print(f"{item.entry + size_note:22s} {len(sch.trace.insts):3d} {sched_ms:8.1f}ms "
          f"{naive_ms:9.2f}ms {fast_ms:9.2f}ms {naive_ms / fast_ms:7.1f}x {numpy_ms:8.2f}ms "
          f"{err:9.1e}")


def demo_schedule() -> None:
    """Schedules of examples/ applied with tirkit.schedule: the trace, the speed-up, NumPy."""
    section("6. Scheduling: the schedule scripts of examples/ applied to their kernels")
    try:
        import scheduled  # pylint: disable=import-outside-toplevel
    except ImportError as err:
        print(f"scheduling not available: {err}")
        return
    sch = scheduled.apply(scheduled.SCHEDULES[0])
    print("examples/schedule_matmul.py on examples/matmul_naive.py, as the trace records it:")
    for line in sch.trace.as_python():
        print("   ", line)
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel
    hand_path = scheduled.HERE / "matmul_scheduled.py"
    hand = from_source(hand_path.read_text())
    same = structural_equal(sch.mod["matmul_naive"].with_changes(attrs=hand.attrs), hand)
    print(f"result structurally equal to the hand-written examples/matmul_scheduled.py: {same}")
    print(f"\n{'kernel':22s} {'ins':>3s} {'schedule':>10s} {'naive':>11s} {'scheduled':>11s} "
          f"{'speedup':>8s} {'NumPy':>10s} {'max error':>9s}")
    for i, item in enumerate(scheduled.SCHEDULES):
        _schedule_row(item, " (512^3)" if i == 0 else "")
    print("(ins = instructions in the trace; schedule = time to apply them; naive = the kernel "
          "before scheduling, one run; scheduled = best of 3; all compiled at -O3)")


def main() -> int:
    print("tirkit demo — the IR, structural equality, the arithmetic analyzer, the front end "
          "and the compiler.")
    demo_kernels()
    demo_equality()
    demo_arith()
    demo_frontend()
    demo_compiler()
    demo_schedule()
    return 0


if __name__ == "__main__":
    sys.exit(main())
