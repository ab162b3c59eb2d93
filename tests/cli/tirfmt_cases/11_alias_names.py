from tvm.script import ir as ir_
from tvm.script import tir as tir_


@tir_.prim_func
def add(A: tir_.Buffer((16,), "float32"), B: tir_.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = A[i]+tir_.float32(1)


@ir_.ir_module
class Mod:
    @tir_.prim_func
    def main(A: tir_.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i*2
# output
from tvm.script import ir as ir_
from tvm.script import tir as tir_


@tir_.prim_func
def add(A: tir_.Buffer((16,), "float32"), B: tir_.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = A[i] + tir_.float32(1)


@ir_.ir_module
class Mod:
    @tir_.prim_func
    def main(A: tir_.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i * 2
