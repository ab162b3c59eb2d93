# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def sblock_annotated(A: T.Buffer((64,), "float32")):
    # with T.sblock("root"):
    for i in range(64):
        with T.sblock("A"):
            vi = T.axis.spatial(64, i)
            T.reads()
            T.writes(A[vi])
            T.sblock_attr({"meta_schedule.unroll_explicit": 16})
            A[vi] = T.float32(1.0)
