from tvm.script import tir as T


@T.prim_func
def copy_planes(src: T.Buffer((2, 3, 5), "float32"), dst: T.Buffer((2, 3, 5), "float32")):
    # three loops written one by one stay three loops, each in its own spelling
    for c in T.serial(2):
        for h in range(3):
            for w in T.serial(0, 5):
                dst[c,h,w] = src[c,h,w]
    # a T.grid of two over a plain loop stays that way
    for c, h in T.grid(2, 3):
        for w in range(5):
            dst[c,h,w] = dst[c,h,w]+src[c,h,w]
    for c in T.grid(2):
        dst[c,0,0] = T.float32(0)
# output
from tvm.script import tir as T


@T.prim_func
def copy_planes(src: T.Buffer((2, 3, 5), "float32"), dst: T.Buffer((2, 3, 5), "float32")):
    # three loops written one by one stay three loops, each in its own spelling
    for c in T.serial(2):
        for h in range(3):
            for w in T.serial(0, 5):
                dst[c, h, w] = src[c, h, w]
    # a T.grid of two over a plain loop stays that way
    for c, h in T.grid(2, 3):
        for w in range(5):
            dst[c, h, w] = dst[c, h, w] + src[c, h, w]
    for c in T.grid(2):
        dst[c, 0, 0] = T.float32(0)
