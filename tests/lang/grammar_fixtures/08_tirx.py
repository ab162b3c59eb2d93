from tvm.script import tirx as T


@T.prim_func(s_tir=True)
def search(A: T.Buffer((128,), "int32"), out: T.Buffer((1,), "int32")):
    out[0] = -1
    for i in range(128):
        with T.sblock("probe"):
            vi = T.axis.spatial(128, i)
            T.sblock_attr({"meta_schedule.unroll_explicit": 0})
            if A[vi] < 0:
                continue
            out[0] = vi if A[vi] > out[0] else out[0]
            if A[vi] == 42:
                break
    n = T.int32(0)
    while n < 10 and out[0] != 3:
        n = n + 1
    x = T.Select(n > 5, n, 0) if n >= 0 else -n
