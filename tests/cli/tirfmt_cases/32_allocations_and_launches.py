from tvm.script import tir as T


# an allocation written T.allocate(...) with a T.decl_buffer over it stays two statements, its
# arguments keep their spelling (dtype=..., the default scope left out), and a thread launch
# written tx = T.launch_thread("threadIdx.x", n) stays one statement
@T.prim_func
def reduce(A: T.Buffer((128,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        threadIdx_x = T.launch_thread("threadIdx.x", 32)
        mask_data = T.allocate([1], "uint32", "local")
        mask = T.decl_buffer(1, "uint32", data=mask_data, scope="local")
        acc_data = T.allocate([1], dtype="float32", scope="local")
        acc = T.Buffer([1], data=acc_data, scope="local")
        mask[0] = T.uint32(1)
        acc[0] = A[i * 32 + threadIdx_x]
        B[i] = acc[0]
    data = T.allocate([16], "int8")
    C = T.decl_buffer([16], "int8", data)
    C[0] = T.int8(1)
# output
from tvm.script import tir as T


# an allocation written T.allocate(...) with a T.decl_buffer over it stays two statements, its
# arguments keep their spelling (dtype=..., the default scope left out), and a thread launch
# written tx = T.launch_thread("threadIdx.x", n) stays one statement
@T.prim_func
def reduce(A: T.Buffer((128,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        threadIdx_x = T.launch_thread("threadIdx.x", 32)
        mask_data = T.allocate([1], "uint32", "local")
        mask = T.decl_buffer((1,), "uint32", data=mask_data, scope="local")
        acc_data = T.allocate([1], dtype="float32", scope="local")
        mask[0] = T.uint32(1)
        acc = T.Buffer((1,), data=acc_data, scope="local")
        acc[0] = A[i * 32 + threadIdx_x]
        B[i] = acc[0]
    data = T.allocate([16], "int8")
    C = T.decl_buffer((16,), "int8", data=data)
    C[0] = T.int8(1)
