# T.block_attr annotations and T.match_buffer on a buffer region inside a block (tensorize-style).
from tvm.script import tir as T


# block annotations of several value types
@T.prim_func
def annotated(A: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("A"):
            vi = T.axis.spatial(16, i)
            T.block_attr({"meta_schedule.tiling_structure": "SSRSRS", "schedule_rule": "None", "unroll": 16, "flags": [1, 2]})
            A[vi] = T.float32(0)


# 16x16 tiles matched as sub-buffers and handed to an extern intrinsic
@T.prim_func
def tile_match(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    for io, jo in T.grid(4, 4):
        with T.block("tile"):
            vi, vj = T.axis.remap("SS", [io, jo])
            T.reads(A[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16])
            T.writes(B[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16])
            A_tile = T.match_buffer(A[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16], (16, 16), offset_factor=1)
            B_tile = T.match_buffer(B[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16], (16, 16), offset_factor=1)
            T.evaluate(
                T.call_extern(
                    "int32", "tile_copy_16x16",
                    B_tile.data, B_tile.elem_offset, A_tile.data, A_tile.elem_offset,
                )
            )


# match_buffer with symbolic strides and elem_offset on a region (tensor-core fragment style)
@T.prim_func
def wmma_fill(C: T.Buffer((32, 32), "float32")):
    C_frag = T.alloc_buffer((32, 32), scope="wmma.accumulator")
    for io, jo in T.grid(2, 2):
        with T.block("fill"):
            vi, vj = T.axis.remap("SS", [io, jo])
            T.reads()
            T.writes(C_frag[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16])
            s0 = T.int32()
            s1 = T.int32()
            off = T.int32()
            C_1 = T.match_buffer(
                C_frag[vi * 16 : vi * 16 + 16, vj * 16 : vj * 16 + 16],
                (16, 16),
                strides=(s0, s1),
                elem_offset=off,
                scope="wmma.accumulator",
                offset_factor=16,
            )
            T.evaluate(T.tvm_fill_fragment(C_1.data, 16, 16, 16, off // 256 + off % 256 // 16, T.float32(0)))
    for i, j in T.grid(32, 32):
        with T.block("store"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = C_frag[vi, vj]
