# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def tile_match(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    # with T.sblock("root"):
    for io, jo in T.grid(4, 4):
        with T.sblock("tile"):
            vi, vj = T.axis.remap("SS", [io, jo])
            T.reads(A[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16])
            T.writes(B[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16])
            A_tile = T.match_buffer(A[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16], (16, 16), offset_factor=1)
            B_tile = T.match_buffer(B[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16], (16, 16), offset_factor=1)
            T.call_extern("int32", "tile_copy_16x16", B_tile.data, B_tile.elem_offset, A_tile.data, A_tile.elem_offset)
