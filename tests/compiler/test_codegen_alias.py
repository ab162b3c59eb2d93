"""Alias information on workspace memory (codegen/stmt.py, memory.py's TBAA tags): a buffer
allocated with ``TVMBackendAllocWorkspace`` (1024 bytes or more, or not a constant size) is fresh
memory no other pointer reaches, so its loads and stores carry a TBAA node of its own, as TVM's
``CodeGenLLVM::AddAliasInfo`` gives every let-bound pointer of a ``tir.noalias`` function. Without
it LLVM cannot keep a register tile of C (``cache_write`` of 8x32 float32 = 1024 bytes) in
registers over the k loop: it stores the accumulators on every step (examples/matmul_packed.py)."""
import re

import numpy as np

from tirkit.compiler import build, compile_module
from tirkit.lang import from_source

_SRC = '''
from tvm.script import tir as T
@T.prim_func
def colsum(A: T.Buffer((64, 256), "float32"), C: T.Buffer((256,), "float32")):
    T.func_attr({"tir.noalias": True})
    W = T.alloc_buffer((64, 256))
    S = T.alloc_buffer((256,))
    for i, j in T.grid(64, 256):
        with T.block("scale"):
            vi, vj = T.axis.remap("SS", [i, j])
            W[vi, vj] = A[vi, vj] * T.float32(2)
    for j, i in T.grid(256, 64):
        with T.block("sum"):
            vj, vi = T.axis.remap("SR", [j, i])
            with T.init():
                S[vj] = T.float32(0)
            S[vj] = S[vj] + W[vi, vj]
    for j in range(256):
        with T.block("out"):
            vj = T.axis.spatial(256, j)
            C[vj] = S[vj]
'''


def test_workspace_buffers_get_tbaa_nodes_of_their_own():
    ir_text = compile_module(from_source(_SRC), opt_level=0).llvm_ir
    assert ir_text.count("call ptr @TVMBackendAllocWorkspace") == 2  # W (64 KiB) and S (1 KiB)
    nodes = dict((m, name) for m, name in re.findall(r'!(\d+) = !\{!"(\w+)#\d+", ![0-9]+, i64 0\}',
                                                   ir_text))
    assert sorted(nodes.values()) == ["A", "C", "S", "W"]
    tags = {m: nodes[n] for m, n in re.findall(r'!(\d+) = !\{!(\d+), !\2, i64 0\}', ir_text)}
    accessed = {tags[t] for t in re.findall(r"(?:load|store) float.*!tbaa !(\d+)", ir_text)}
    assert accessed == {"A", "C", "S", "W"}
    for op in ("load float", "store float"):
        assert all("!tbaa" in line for line in ir_text.splitlines() if op in line)


def test_workspace_alias_info_keeps_results():
    a = np.random.default_rng(0).standard_normal((64, 256)).astype("float32")
    c = np.full(256, np.nan, "float32")
    build(from_source(_SRC))(a, c)
    np.testing.assert_allclose(c, 2 * a.astype("float64").sum(axis=0), rtol=1e-5, atol=1e-4)
