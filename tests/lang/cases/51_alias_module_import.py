# `import tvm.script.tir as tt` style: a plain module import with an alias.
import tvm.script.tir as tt


# kernel written against the tt alias
@tt.prim_func
def tt_kernel(A: tt.Buffer((8, 8), "int32")):
    for i, j in tt.grid(8, 8):
        with tt.block("A"):
            vi, vj = tt.axis.remap("SS", [i, j])
            A[vi, vj] = tt.max(vi, vj)
