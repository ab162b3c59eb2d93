from tvm.script import tir as T


# a target stays T.target(...), an attribute dict keeps its keys in the written order, default
# values written out stay written out, and so does the user's own elem_offset var
@T.prim_func
def kernel(Aptr: T.handle("float32", storage_scope="shared"), a: T.handle, c: T.handle):
    T.func_attr({"target": T.target("cuda", host="llvm"), "calling_conv": 2, "global_symbol": "kernel"})
    A = T.match_buffer(a, [16], elem_offset=0, align=64, offset_factor=1)
    C = T.match_buffer(c, [4, 4], scope="global")
    D = T.decl_buffer([1], "float32", scope="global")
    for i in range(4):
        with T.block("row"):
            vi = T.axis.S(4, i)
            row_offset = T.int32()
            row = T.match_buffer(C[vi, 0:4], [4], elem_offset=row_offset)
            row[0] = A[vi]+D[0]


@T.prim_func
def host(A: T.Buffer(1, "float32")):
    T.func_attr({"target": T.target("llvm")})
    B_data = T.allocate([4], "float32", scope="local")
    T.call_packed("kernel", A.data, B_data)
# output
from tvm.script import tir as T


# a target stays T.target(...), an attribute dict keeps its keys in the written order, default
# values written out stay written out, and so does the user's own elem_offset var
@T.prim_func
def kernel(Aptr: T.handle("float32", storage_scope="shared"), a: T.handle, c: T.handle):
    T.func_attr(
        {"target": T.target("cuda", host="llvm"), "calling_conv": 2, "global_symbol": "kernel"}
    )
    A = T.match_buffer(a, (16,), elem_offset=0, align=64, offset_factor=1)
    C = T.match_buffer(c, (4, 4), scope="global")
    D = T.decl_buffer((1,), "float32", scope="global")
    for i in range(4):
        with T.block("row"):
            vi = T.axis.S(4, i)
            row_offset = T.int32()
            row = T.match_buffer(C[vi, 0:4], (4,), elem_offset=row_offset)
            row[0] = A[vi] + D[0]


@T.prim_func
def host(A: T.Buffer((1,), "float32")):
    T.func_attr({"target": T.target("llvm")})
    B_data = T.allocate([4], "float32", scope="local")
    T.call_packed("kernel", A.data, B_data)
