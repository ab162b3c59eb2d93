# Non-standard aliases: `tir as tir_` and `ir as ir_`; static tools must follow the file's imports.
from tvm.script import ir as ir_
from tvm.script import tir as tir_


# the whole T namespace spelled tir_
@tir_.prim_func
def add_alias(A: tir_.Buffer((16,), "float32"), B: tir_.Buffer((16,), "float32")):
    tir_.func_attr({"global_symbol": "add_alias"})
    for i in tir_.serial(16):
        with tir_.block("B"):
            vi = tir_.axis.spatial(16, i)
            B[vi] = A[vi] + tir_.float32(1)


# a module with the ir_ alias
@ir_.ir_module
class AliasModule:
    @tir_.prim_func
    def main(a: tir_.handle):
        A = tir_.match_buffer(a, (4, 4), "int32")
        for i, j in tir_.grid(4, 4):
            with tir_.block("A"):
                vi, vj = tir_.axis.remap("SS", [i, j])
                A[vi, vj] = vi * 4 + vj


# reduction with init through the alias
@tir_.prim_func
def sum_alias(A: tir_.Buffer((8, 8), "float32"), B: tir_.Buffer((8,), "float32")):
    for i, k in tir_.grid(8, 8):
        with tir_.block("sum"):
            vi, vk = tir_.axis.remap("SR", [i, k])
            with tir_.init():
                B[vi] = tir_.float32(0)
            B[vi] = B[vi] + A[vi, vk]
