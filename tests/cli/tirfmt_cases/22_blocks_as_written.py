from tvm.script import tir as T


@T.prim_func
def explicit_root(P: T.Buffer((4, 4), "float32")):
    with T.block("root"):
        T.reads([])
        T.writes([])
        for _ in range(2):
            for u, v in T.grid(4, 4):
                with T.block("bump"):
                    vu, vv = T.axis.remap("SS", [u, v])
                    P[vu,vv] = P[vu,vv]+T.float32(1)


@T.prim_func
def root_comment_without_colon(P: T.Buffer((4,), "float32")):
    # with T.block("root")
    tmp = T.alloc_buffer([4])
    for u in range(4):
        with T.block():
            vu = T.axis.spatial(4, u)
            tmp[vu] = P[vu]
            P[vu] = tmp[vu]*T.float32(2)
# output
from tvm.script import tir as T


@T.prim_func
def explicit_root(P: T.Buffer((4, 4), "float32")):
    with T.block("root"):
        T.reads()
        T.writes()
        for _ in range(2):
            for u, v in T.grid(4, 4):
                with T.block("bump"):
                    vu, vv = T.axis.remap("SS", [u, v])
                    P[vu, vv] = P[vu, vv] + T.float32(1)


@T.prim_func
def root_comment_without_colon(P: T.Buffer((4,), "float32")):
    # with T.block("root")
    tmp = T.alloc_buffer((4,))
    for u in range(4):
        with T.block():
            vu = T.axis.spatial(4, u)
            tmp[vu] = P[vu]
            P[vu] = tmp[vu] * T.float32(2)
