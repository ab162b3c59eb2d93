# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def match_buffer_options(A: T.Buffer((16, 16), "float32", strides=("s0", "s1"), offset_factor=4), B: T.Buffer((16, 16), "float32", align=128, offset_factor=1)):
    # with T.sblock("root"):
    for i, j in T.grid(16, 16):
        with T.sblock("copy"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi, vj]
