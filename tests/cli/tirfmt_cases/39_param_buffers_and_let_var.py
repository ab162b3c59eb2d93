from tvm.script import tir as T


# a param written A: T.Buffer(...) with attributes a plain buffer has not (axis_separators,
# align) stays an annotation (not a: T.handle with A = T.match_buffer(a, ...)), and
# T.LetStmt(v, var=T.handle("float32")) keeps its var= keyword
@T.prim_func
def params(A: T.Buffer(shape=(128, 128), dtype="float32", axis_separators=(1,)), B: T.Buffer((16,), "float32", align=64), C: T.Buffer((128, 128), "float32")):
    for i, j in T.grid(128, 128):
        C[i, j] = A[i, j] + B[0]
    with T.LetStmt(T.address_of(C[1, 0]), var=T.handle("float32")) as C_data:
        C_1 = T.decl_buffer(16, "float32", data=C_data)
        C_1[0] = T.float32(0)
# output
from tvm.script import tir as T


# a param written A: T.Buffer(...) with attributes a plain buffer has not (axis_separators,
# align) stays an annotation (not a: T.handle with A = T.match_buffer(a, ...)), and
# T.LetStmt(v, var=T.handle("float32")) keeps its var= keyword
@T.prim_func
def params(
    A: T.Buffer(shape=(128, 128), dtype="float32", axis_separators=[1]),
    B: T.Buffer((16,), "float32", align=64),
    C: T.Buffer((128, 128), "float32")
):
    for i, j in T.grid(128, 128):
        C[i, j] = A[i, j] + B[0]
    with T.LetStmt(T.address_of(C[1, 0]), var=T.handle("float32", "global")) as C_data:
        C_1 = T.decl_buffer((16,), "float32", data=C_data)
        C_1[0] = T.float32(0)
