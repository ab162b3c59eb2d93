"""AnnotateTIROpPattern, FuseOps and FuseTIR on call_tir chains (issue 12)."""
import numpy as np

from tirkit import relax, tir
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.relax.transform import FuseOps, FuseTIR, OpPatternKind
from tirkit.relax.transform.fuse_ops import op_pattern

from test_script_and_vm import ADD_ONE

ROWSUM = '''
from tvm.script import tir as T

@T.prim_func
def rowsum(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 4))
    B = T.match_buffer(b, (n,))
    for i, k in T.grid(n, 4):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
'''


def test_op_patterns():
    mod = from_source(ADD_ONE)
    assert op_pattern(mod["add_one"]) == OpPatternKind.ELEMWISE
    assert op_pattern(from_source(ROWSUM)) == OpPatternKind.COMM_REDUCE


def _chain_with_reduction():
    mod = from_source(ADD_ONE)
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    bb = relax.BlockBuilder(mod)
    add = mod.get_global_var("add_one")
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(relax.call_tir(add, (x,), relax.TensorStructInfo((n, 4), "float32")))
            rs = bb.add_func(from_source(ROWSUM), "rowsum")
            gv = bb.emit_output(relax.call_tir(rs, (lv,), relax.TensorStructInfo((n,), "float32")))
        bb.emit_func_output(gv)
    return bb.get()


def test_injective_into_reduction_fuses_and_runs():
    mod = _chain_with_reduction()
    fused = FuseTIR()(FuseOps()(mod))
    names = sorted(g.name_hint for g in fused.functions)
    assert names == ["fused_add_one_rowsum", "main"]
    prim = fused["fused_add_one_rowsum"]
    assert isinstance(prim, tir.PrimFunc) and len(prim.body.block.alloc_buffers) == 1
    assert_structural_equal(from_source(fused.script()), fused)
    x = np.random.default_rng(0).random((6, 4), dtype="float32")
    for m in (mod, fused):
        out = relax.VirtualMachine(relax.build(m))["main"](x)
        np.testing.assert_allclose(out, (x + 1).sum(axis=1), rtol=1e-5)
