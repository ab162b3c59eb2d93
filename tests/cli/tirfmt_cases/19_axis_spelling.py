from tvm.script import tir as T


@T.prim_func
def row_sums(M: T.Buffer((6, 10), "float32"), s: T.Buffer((6,), "float32")):
    # the short kinds and the one-var remaps are the user's spelling
    for r, k in T.grid(6, 10):
        with T.block("sum"):
            vr = T.axis.S(6, r)
            vk = T.axis.R(10, k)
            with T.init():
                s[vr] = T.float32(0)
            s[vr] = s[vr]+M[vr,vk]
    for r, k in T.grid(6, 10):
        with T.block("again"):
            vr = T.axis.remap("S", [r])
            vk = T.axis.remap("R", [k])
            s[vr] = s[vr]+M[vr,vk]
# output
from tvm.script import tir as T


@T.prim_func
def row_sums(M: T.Buffer((6, 10), "float32"), s: T.Buffer((6,), "float32")):
    # the short kinds and the one-var remaps are the user's spelling
    for r, k in T.grid(6, 10):
        with T.block("sum"):
            vr = T.axis.S(6, r)
            vk = T.axis.R(10, k)
            with T.init():
                s[vr] = T.float32(0)
            s[vr] = s[vr] + M[vr, vk]
    for r, k in T.grid(6, 10):
        with T.block("again"):
            vr = T.axis.remap("S", [r])
            vk = T.axis.remap("R", [k])
            s[vr] = s[vr] + M[vr, vk]
