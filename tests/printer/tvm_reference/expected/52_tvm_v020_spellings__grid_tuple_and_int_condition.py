# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def grid_tuple_and_int_condition(A: T.Buffer((4, 4), "float32"), C: T.Buffer((12,), "int32")):
    # with T.sblock("root"):
    for v, v_1 in T.grid(4, 4):
        with T.sblock("init"):
            vi, vj = T.axis.remap("SS", [v, v_1])
            T.reads()
            T.writes(A[vi, vj])
            A[vi, vj] = T.float32(0.0)
    for i in range(10):
        if i:
            C[i] = C[i] + 1
