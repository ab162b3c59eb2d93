"""UnrollAndJam in the pipeline: compiled reductions give bitwise the results of the plain loops
(each output keeps its own operations in order), and the pass does rewrite them."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.compiler.driver import run_pipeline
from tirkit.lang import from_source

ROW_SUM = '''
@T.prim_func
def row_sum(A: T.Buffer((96, 300), "float32"), B: T.Buffer((96,), "float32")):
    T.func_attr({"global_symbol": "row_sum", "tir.noalias": True})
    for i in T.parallel(96):
        for k in range(300):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
'''

ROW_MAX_EXP_SUM = '''
@T.prim_func
def row_max_exp_sum(A: T.Buffer((40, 77), "float32"), S: T.Buffer((40,), "float32")):
    T.func_attr({"global_symbol": "row_max_exp_sum", "tir.noalias": True})
    M = T.alloc_buffer((40,))
    for i, k in T.grid(40, 77):
        with T.block("M"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                M[vi] = T.float32(-3.0e38)
            M[vi] = T.max(M[vi], A[vi, vk])
    for i, k in T.grid(40, 77):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + T.exp(A[vi, vk] - M[vi])
'''

CONV_1D = '''
@T.prim_func
def conv_rows(X: T.Buffer((8, 34), "float32"), W: T.Buffer((8, 3), "float32"),
              Y: T.Buffer((32,), "float32")):
    T.func_attr({"global_symbol": "conv_rows", "tir.noalias": True})
    for x, c, r in T.grid(32, 8, 3):
        with T.block("Y"):
            vx, vc, vr = T.axis.remap("SRR", [x, c, r])
            with T.init():
                Y[vx] = T.float32(0)
            Y[vx] = Y[vx] + X[vc, vx + vr] * W[vc, vr]
'''

CASES = [(ROW_SUM, "row_sum"), (ROW_MAX_EXP_SUM, "row_max_exp_sum"), (CONV_1D, "conv_rows")]
OFF = {"tirkit.disable_unroll_and_jam": True}


def _stage(func, config):
    stages = run_pipeline(func, opt_level=3, config=config, until="UnrollAndJam")
    return stages[-2].mod, stages[-1].mod


@pytest.mark.parametrize("text,name", CASES, ids=[c[1] for c in CASES])
def test_jammed_reduction_is_bitwise_the_plain_one(text, name):
    func = from_source(text)
    before, after = _stage(func, {})
    assert after is not before and "jam_base_" in after.script()  # the pass did rewrite it
    assert "jam_base_" not in _stage(func, OFF)[1].script()  # and the switch turns it off
    rng = np.random.default_rng(7)
    jammed, plain = build(func, opt_level=3), build(func, opt_level=3, config=OFF)
    args = [rng.standard_normal(tuple(int(e) for e in func.buffer_map[p].shape))
            .astype("float32") for p in func.params]
    out_j, out_p = [a.copy() for a in args], [a.copy() for a in args]
    jammed(*out_j)
    plain(*out_p)
    np.testing.assert_array_equal(out_j[-1], out_p[-1])  # bitwise: same order per output
    assert not np.array_equal(out_j[-1], args[-1])  # and the kernel did write its output


def test_row_sum_matches_numpy():
    func = from_source(ROW_SUM)
    a = np.random.default_rng(3).standard_normal((96, 300)).astype("float32")
    b = np.zeros(96, "float32")
    build(func, opt_level=3)(a, b)
    np.testing.assert_allclose(b, a.astype("float64").sum(axis=1), rtol=1e-5, atol=1e-4)


def test_the_jammed_nest_carries_its_llvm_loop_properties():
    from tirkit.compiler.codegen.llvm import emit_llvm

    text = emit_llvm(run_pipeline(from_source(ROW_SUM), opt_level=3)[-1].mod, "llvm")
    assert '!{ !"llvm.loop.unroll.disable" }' in text  # the copies are the unrolling
    assert '!{ !"llvm.loop.vectorize.enable", i1 0 }' in text
    plain = emit_llvm(run_pipeline(from_source(ROW_SUM), opt_level=3, config=OFF)[-1].mod, "llvm")
    assert "llvm.loop.vectorize.enable" not in plain
