# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def annotated(A: T.Buffer((16,), "float32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("A"):
            vi = T.axis.spatial(16, i)
            T.reads()
            T.writes(A[vi])
            T.sblock_attr({"flags": [1, 2], "meta_schedule.tiling_structure": "SSRSRS", "schedule_rule": "None", "unroll": 16})
            A[vi] = T.float32(0.0)
