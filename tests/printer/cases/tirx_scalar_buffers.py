# flags: dialect=tirx
@T.prim_func
def count_positive(A: T.Buffer((16,), "float32"), out: T.Buffer((1,), "int32")):
    acc = T.decl_buffer((1,), "int32", scope="local")
    acc[0] = 0
    once = T.decl_buffer((1,), "float32", scope="local")
    once[0] = A[0]
    for i in range(16):
        if A[i] > once[0]:
            acc[0] = acc[0] + 1
    half: T.int32 = acc[0] // 2
    out[0] = T.max(acc[0], half)
# output
# from tvm.script import tirx as T

@T.prim_func
def count_positive(A: T.Buffer((16,), "float32"), out: T.Buffer((1,), "int32")):
    acc: T.int32 = 0
    once: T.float32 = A[0]
    for i in range(16):
        if A[i] > once:
            acc = acc + 1
    half: T.let[T.int32] = acc // 2
    out = T.max(acc, half)
