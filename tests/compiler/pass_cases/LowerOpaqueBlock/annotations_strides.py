# Non-pragma loop annotations stay on the loop; block pragma_* annotations become
# T.attr(0, key, value) (sorted by key), other block annotations are dropped; a strided
# allocation allocates (shape[0], strides[0] / strides[1]) elements. (Loop pragmas become
# T.attr(loop_var, ...) *around* the loop, which cannot print as TVMScript: see
# test_lowering_passes.py.)
@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), C: T.Buffer((8, 8), "float32")):
    for i in T.parallel(8, annotations={"software_pipeline_stage": [0, 1]}):
        with T.block():
            T.reads(A[i, 0:8])
            T.writes(C[i, 0:8])
            T.block_attr({"pragma_unroll_explicit": 1, "meta_schedule.tiling_structure": "SSRSRS", "pragma_auto_unroll_max_step": 16})
            B = T.alloc_buffer([2, 8], "float32", strides=[12, 1])
            for j in T.vectorized(8):
                B[0, j] = A[i, j]
            for j in range(8):
                C[i, j] = B[0, j]


# output
@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), C: T.Buffer((8, 8), "float32")):
    for i in T.parallel(8, annotations={"software_pipeline_stage": [0, 1]}):
        T.attr(0, "pragma_auto_unroll_max_step", 16)
        T.attr(0, "pragma_unroll_explicit", 1)
        B_data = T.allocate([2, 12], "float32", "global")
        B = T.decl_buffer((2, 8), strides=(12, 1), data=B_data)
        for j in T.vectorized(8):
            B[0, j] = A[i, j]
        for j in range(8):
            C[i, j] = B[0, j]
