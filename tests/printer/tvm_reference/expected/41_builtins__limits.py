# from tvm.script import tirx as T

@T.prim_func
def limits(F: T.Buffer((4,), "float32"), I_1: T.Buffer((4,), "int32"), H: T.Buffer((2,), "float16")):
    F[0] = T.float32(340282346638528859811704183484516925440.0)
    F[1] = T.float32(-340282346638528859811704183484516925440.0)
    F[2] = T.float32("inf")
    F[3] = T.float32("-inf")
    I_1[0] = 2147483647
    I_1[1] = -2147483648
    I_1[2] = T.Cast("int32", T.int8(127))
    I_1[3] = T.Cast("int32", T.uint8(0))
    H[0] = T.float16(65504.0)
    H[1] = T.float16(-65504.0)
