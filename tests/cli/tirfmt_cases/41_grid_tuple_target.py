from tvm.script import tir as T


# a grid over one name, for iters in T.grid(...), keeps it: the loop vars read as iters[k] and
# remapped as iters
@T.prim_func
def func(A: T.Buffer((256, 256), "float32")):
    for iters in T.grid(16, 16, 16, 16):
        with T.block("compute"):
            tile_i, tile_j, i, j = T.axis.remap("SSSS", iters)
            A[tile_i * 16 + i, tile_j * 16 + j] = 0.0


@T.prim_func
def indexed(A: T.Buffer((16, 16), "float32")):
    for ij in T.grid(16, 16):
        A[ij[0], ij[1]] = A[ij[1], ij[0]]
# output
from tvm.script import tir as T


# a grid over one name, for iters in T.grid(...), keeps it: the loop vars read as iters[k] and
# remapped as iters
@T.prim_func
def func(A: T.Buffer((256, 256), "float32")):
    for iters in T.grid(16, 16, 16, 16):
        with T.block("compute"):
            tile_i, tile_j, i, j = T.axis.remap("SSSS", iters)
            A[tile_i * 16 + i, tile_j * 16 + j] = T.float32(0.0)


@T.prim_func
def indexed(A: T.Buffer((16, 16), "float32")):
    for ij in T.grid(16, 16):
        A[ij[0], ij[1]] = A[ij[1], ij[0]]
