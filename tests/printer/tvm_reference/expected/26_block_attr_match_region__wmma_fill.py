# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def wmma_fill(C: T.Buffer((32, 32), "float32")):
    # with T.sblock("root"):
    C_frag = T.sblock_alloc_buffer((32, 32), scope="wmma.accumulator")
    for io, jo in T.grid(2, 2):
        with T.sblock("fill"):
            vi, vj = T.axis.remap("SS", [io, jo])
            T.reads()
            T.writes(C_frag[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16])
            C_1 = T.match_buffer(C_frag[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16], (16, 16), strides=("s0", "s1"), scope="wmma.accumulator", offset_factor=16)
            T.tvm_fill_fragment(C_1.data, 16, 16, 16, C_1.elem_offset // 256 + C_1.elem_offset % 256 // 16, T.float32(0.0))
    for i, j in T.grid(32, 32):
        with T.sblock("store"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(C_frag[vi, vj])
            T.writes(C[vi, vj])
            C[vi, vj] = C_frag[vi, vj]
