# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def embedding(ids: T.Buffer((16,), "int32"), table: T.Buffer((1000, 64), "float32"), out: T.Buffer((16, 64), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(16, 64):
        with T.sblock("gather"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(table[ids[vi], vj], ids[vi])
            T.writes(out[vi, vj])
            out[vi, vj] = table[ids[vi], vj]
