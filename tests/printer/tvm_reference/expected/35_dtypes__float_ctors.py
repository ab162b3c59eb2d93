# from tvm.script import tirx as T

@T.prim_func
def float_ctors(A: T.Buffer((6,), "float64"), M: T.Buffer((2,), "bool")):
    A[0] = T.Cast("float64", T.float16(1.5))
    A[1] = T.Cast("float64", T.float32(2.25))
    A[2] = T.float64(3.125)
    A[3] = T.Cast("float64", T.bfloat16(0.5))
    A[4] = T.Cast("float64", T.float32("inf"))
    A[5] = T.Cast("float64", T.float32("nan"))
    M[0] = T.bool(True)
    M[1] = T.bool(False)
