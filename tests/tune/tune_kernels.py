"""Small kernels the tuning tests search over (sizes kept small: every candidate is compiled)."""
from tirkit.lang import from_source

MATMUL = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32"),
         C: T.Buffer((32, 32), "float32")):
    for i, j, k in T.grid(32, 32, 32):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''

# an element-wise producer (AutoInline), a reduction and an element-wise consumer
SCALE_ROWSUM_RELU = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16, 24), "float32"), D: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16, 24))
    C = T.alloc_buffer((16,))
    for i, j in T.grid(16, 24):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(16, 24):
        with T.block("C"):
            vi, vj = T.axis.remap("SR", [i, j])
            with T.init():
                C[vi] = T.float32(0)
            C[vi] = C[vi] + B[vi, vj]
    for i in range(16):
        with T.block("D"):
            vi = T.axis.spatial(16, i)
            D[vi] = T.max(C[vi], T.float32(0))
'''

CRASH = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("B"):
            vi = T.axis.spatial(4, i)
            T.evaluate(T.call_extern("int32", "abort"))
'''

HANG = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4,), "float32")):
    i = T.alloc_buffer((1,), "int32")
    with T.block("B"):
        i[0] = 0
        while i[0] < 1:
            A[0] = A[0] + T.float32(1)
'''

EMPTY_TRACE = "[[], []]"


def parse(src: str):
    """The PrimFunc of a kernel text (parsed statically)."""
    return from_source(src)

# two reductions and an element-wise consumer over rows: RandomComputeLocation moves the
# intermediate reductions under their consumer's loops
SOFTMAX = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 32), "float32"), B: T.Buffer((8, 32), "float32")):
    mx = T.alloc_buffer((8,))
    sm = T.alloc_buffer((8,))
    for i, k in T.grid(8, 32):
        with T.block("max"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                mx[vi] = T.min_value("float32")
            mx[vi] = T.max(mx[vi], A[vi, vk])
    for i, k in T.grid(8, 32):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                sm[vi] = T.float32(0)
            sm[vi] = sm[vi] + T.exp(A[vi, vk] - mx[vi])
    for i, k in T.grid(8, 32):
        with T.block("norm"):
            vi, vk = T.axis.remap("SS", [i, k])
            B[vi, vk] = T.exp(A[vi, vk] - mx[vi]) / sm[vi]
'''

# a padded 3x3 convolution (NCHW, 1x4x6x6 -> 1x4x6x6): the padding holds an if_then_else
CONV_PAD = '''
from tvm.script import tir as T

@T.prim_func
def main(data: T.Buffer((1, 4, 6, 6), "float32"), kernel: T.Buffer((4, 4, 3, 3), "float32"),
         out: T.Buffer((1, 4, 6, 6), "float32")):
    pad = T.alloc_buffer((1, 4, 8, 8))
    for n, c, h, w in T.grid(1, 4, 8, 8):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            pad[vn, vc, vh, vw] = T.if_then_else(1 <= vh and vh < 7 and 1 <= vw and vw < 7,
                                                 data[vn, vc, vh - 1, vw - 1], T.float32(0))
    for n, f, y, x, rc, ry, rx in T.grid(1, 4, 6, 6, 4, 3, 3):
        with T.block("conv"):
            vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap("SSSSRRR", [n, f, y, x, rc, ry, rx])
            with T.init():
                out[vn, vf, vy, vx] = T.float32(0)
            out[vn, vf, vy, vx] = out[vn, vf, vy, vx] + pad[vn, vrc, vy + vry, vx + vrx] \
                * kernel[vf, vrc, vry, vrx]
'''

# a whole-vector sum: one output, all work in the reduction (AddRFactor)
VECSUM = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4096,), "float32"), B: T.Buffer((1,), "float32")):
    for k in range(4096):
        with T.block("B"):
            vk = T.axis.reduce(4096, k)
            with T.init():
                B[0] = T.float32(0)
            B[0] = B[0] + A[vk]
'''
