# flags: dialect=tirx
@T.prim_func
def attrs_and_bit_ops(A: T.Buffer((32,), "int32"), B: T.Buffer((4,), "int32")):
    tx = T.launch_thread("threadIdx.x", 32)
    with T.attr(A.data, "volatile_scope", 1):
        A[tx] = 0
    # the last statement of a sequence: TVM 0.27 prints a with-scope, not T.attr(...) flat
    with T.attr("default", "device_scope", 0):
        for i in range(4):
            with T.attr(B.data, "volatile_scope", 1):
                B[i] = A[i] & A[i + 4]
            # a statement of & on two vectors: TVM 0.27's BitwiseAnd is not a Call
            T.evaluate(A[0:4] & A[4:8])
# output
# from tvm.script import tirx as T

@T.prim_func
def attrs_and_bit_ops(A: T.Buffer((32,), "int32"), B: T.Buffer((4,), "int32")):
    tx = T.launch_thread("threadIdx.x", 32)
    with T.attr(A.data, "volatile_scope", 1):
        A[tx] = 0
    with T.attr("default", "device_scope", 0):
        for i in range(4):
            with T.attr(B.data, "volatile_scope", 1):
                B[i] = A[i] & A[i + 4]
            T.evaluate(A[T.Ramp(0, 1, 4)] & A[T.Ramp(4, 1, 4)])
