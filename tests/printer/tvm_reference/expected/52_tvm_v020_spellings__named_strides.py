# from tvm.script import tirx as T

@T.prim_func
def named_strides(C: T.Buffer((16, 16), "float16", strides=("C_s0", "C_s1"), offset_factor=16)):
    T.evaluate(C.elem_offset // C.strides[0])
