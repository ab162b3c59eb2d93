# from tvm.script import tirx as T

@T.prim_func
def targeted(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": {"host": "llvm", "kind": "llvm"}, "tir.is_scheduled": True, "tir.noalias": T.bool(True)})
    A[1] = T.float32(1.0)
