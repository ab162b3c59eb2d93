from tvm.script import tir as T


@T.prim_func
def bounds(V: T.Buffer((12,), "float32"), W: T.Buffer((12,), "int32")):
    # the calls the parser folds or reads as operators keep the spelling written here
    lowest = T.decl_buffer([1], "float32", scope="local")
    lowest[0] = T.max_value("float32")
    for t in range(12):
        lowest[0] = T.min(lowest[0], V[t])
        W[t] = T.floordiv(t, 4)*4+T.floormod(t,4)+T.min_value("int32")
    V[0] = lowest[0]
# output
from tvm.script import tir as T


@T.prim_func
def bounds(V: T.Buffer((12,), "float32"), W: T.Buffer((12,), "int32")):
    # the calls the parser folds or reads as operators keep the spelling written here
    lowest = T.decl_buffer((1,), "float32", scope="local")
    lowest[0] = T.max_value("float32")
    for t in range(12):
        lowest[0] = T.min(lowest[0], V[t])
        W[t] = T.floordiv(t, 4) * 4 + T.floormod(t, 4) + T.min_value("int32")
    V[0] = lowest[0]
