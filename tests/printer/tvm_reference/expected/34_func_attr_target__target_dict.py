# from tvm.script import tirx as T

@T.prim_func
def target_dict(A: T.Buffer((4,), "float32")):
    T.func_attr({"calling_conv": 0, "op_pattern": 8, "target": {"keys": ["cpu"], "kind": "llvm", "mcpu": "skylake-avx512"}, "tir.kernel_launch_params": ["threadIdx.x"]})
    A[2] = T.float32(2.0)
