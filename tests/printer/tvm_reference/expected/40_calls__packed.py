# from tvm.script import tirx as T

@T.prim_func
def packed(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    T.call_packed("tvm.contrib.cblas.matmul", T.tvm_stack_make_array(A.data, T.tvm_stack_make_shape(16, 16), 0, 2, T.float32(0.0), 0), T.tvm_stack_make_array(A.data, T.tvm_stack_make_shape(16, 16), 0, 2, T.float32(0.0), 0), T.tvm_stack_make_array(B.data, T.tvm_stack_make_shape(16, 16), 0, 2, T.float32(0.0), 0), T.bool(False), T.bool(False))
    T.call_cpacked("my_cpacked_kernel", A.data, B.data, 16)
    T.call_packed("tvm.runtime.noop")
