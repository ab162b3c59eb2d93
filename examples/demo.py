"""`make demo`: what tirkit can do today, on real kernels, printed step by step.

Run with ``.venv/bin/python examples/demo.py``. Each section says what it did and what it found.
"""
from __future__ import annotations

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


def main() -> int:
    print("tirkit demo — the IR, structural equality and the arithmetic analyzer.")
    demo_kernels()
    demo_equality()
    demo_arith()
    demo_frontend()
    section("5. Compiler")
    print("tirc / build(): lowering and LLVM code generation land with issue 5; nothing is "
          "compiled or run yet.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
