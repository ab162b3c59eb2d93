"""Small kernels in the style of TVM's schedule tests (tests/python/tir-schedule: padded
stencils, pooling, epilogues, several consumers of one stage, mean/variance reductions), for
the wide schedule fuzzer (test_examples_fuzz_wide.py). Written here, not copied: each is
small enough that a naive build runs in milliseconds; every parameter is float32 (the fuzzer
feeds uniform random inputs and compares every parameter after the call)."""
from tirkit.compiler.transform import as_module
from tirkit.lang import from_source

HEADER = "from tvm.script import tir as T\n\n"

SOURCES = {
    # a 3-point stencil over a zero-padded copy (TVM's padded-conv shape: a guarded pad stage)
    "stencil_pad": '''
@T.prim_func
def main(A: T.Buffer((18,), "float32"), B: T.Buffer((18,), "float32")):
    A_pad = T.alloc_buffer((20,))
    for i in range(20):
        with T.block("A_pad"):
            vi = T.axis.spatial(20, i)
            A_pad[vi] = T.if_then_else(1 <= vi and vi < 19, A[vi - 1], T.float32(0))
    for i in range(18):
        with T.block("B"):
            vi = T.axis.spatial(18, i)
            B[vi] = A_pad[vi] + A_pad[vi + 1] * T.float32(2) + A_pad[vi + 2]
''',
    # 2x2 max pooling (a max reduction from -inf) then relu
    "max_pool_relu": '''
@T.prim_func
def main(A: T.Buffer((3, 8, 6), "float32"), C: T.Buffer((3, 4, 3), "float32")):
    P = T.alloc_buffer((3, 4, 3))
    for c, h, w, rh, rw in T.grid(3, 4, 3, 2, 2):
        with T.block("pool"):
            vc, vh, vw, vrh, vrw = T.axis.remap("SSSRR", [c, h, w, rh, rw])
            with T.init():
                P[vc, vh, vw] = T.float32(-3.4028234663852886e38)
            P[vc, vh, vw] = T.max(P[vc, vh, vw], A[vc, vh * 2 + vrh, vw * 2 + vrw])
    for c, h, w in T.grid(3, 4, 3):
        with T.block("relu"):
            vc, vh, vw = T.axis.remap("SSS", [c, h, w])
            C[vc, vh, vw] = T.max(P[vc, vh, vw], T.float32(0))
''',
    # batch matmul with a bias-add and relu epilogue (three stages)
    "bmm_bias_relu": '''
@T.prim_func
def main(A: T.Buffer((2, 6, 5), "float32"), B: T.Buffer((2, 5, 7), "float32"),
         bias: T.Buffer((7,), "float32"), D: T.Buffer((2, 6, 7), "float32")):
    C = T.alloc_buffer((2, 6, 7))
    E = T.alloc_buffer((2, 6, 7))
    for b, i, j, k in T.grid(2, 6, 7, 5):
        with T.block("bmm"):
            vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, k])
            with T.init():
                C[vb, vi, vj] = T.float32(0)
            C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
    for b, i, j in T.grid(2, 6, 7):
        with T.block("bias"):
            vb, vi, vj = T.axis.remap("SSS", [b, i, j])
            E[vb, vi, vj] = C[vb, vi, vj] + bias[vj]
    for b, i, j in T.grid(2, 6, 7):
        with T.block("relu"):
            vb, vi, vj = T.axis.remap("SSS", [b, i, j])
            D[vb, vi, vj] = T.max(E[vb, vi, vj], T.float32(0))
''',
    # one stage read by two consumers, one of them through a transpose
    "two_consumers": '''
@T.prim_func
def main(A: T.Buffer((6, 10), "float32"), D: T.Buffer((6, 10), "float32")):
    B = T.alloc_buffer((6, 10))
    C = T.alloc_buffer((10, 6))
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(3)
    for j, i in T.grid(10, 6):
        with T.block("C"):
            vj, vi = T.axis.remap("SS", [j, i])
            C[vj, vi] = B[vi, vj] + T.float32(1)
    for i, j in T.grid(6, 10):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = B[vi, vj] * C[vj, vi]
''',
    # mean and variance of each row (two reductions over one input), then normalize
    "row_norm": '''
@T.prim_func
def main(A: T.Buffer((5, 12), "float32"), B: T.Buffer((5, 12), "float32")):
    S = T.alloc_buffer((5,))
    Q = T.alloc_buffer((5,))
    for i, k in T.grid(5, 12):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi, vk]
    for i, k in T.grid(5, 12):
        with T.block("sqsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                Q[vi] = T.float32(0)
            Q[vi] = Q[vi] + A[vi, vk] * A[vi, vk]
    for i, j in T.grid(5, 12):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = (A[vi, vj] - S[vi] * T.float32(1.0 / 12)) * (
                Q[vi] * T.float32(1.0 / 12) - S[vi] * S[vi] * T.float32(1.0 / 144)
                + T.float32(1))
''',
    # a 1-D depthwise convolution with a stride, reduction over the window
    "conv1d_strided": '''
@T.prim_func
def main(A: T.Buffer((4, 15), "float32"), W: T.Buffer((4, 3), "float32"),
         B: T.Buffer((4, 7), "float32")):
    for c, o, r in T.grid(4, 7, 3):
        with T.block("conv"):
            vc, vo, vr = T.axis.remap("SSR", [c, o, r])
            with T.init():
                B[vc, vo] = T.float32(0)
            B[vc, vo] = B[vc, vo] + A[vc, vo * 2 + vr] * W[vc, vr]
''',
}


def kernel(name):
    """(entry, IRModule) of the kernel ``name``."""
    return "main", as_module(from_source(HEADER + SOURCES[name], f"{name}.py"))
