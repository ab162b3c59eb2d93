# T.func_attr dictionaries: global_symbol, tir.noalias, targets as strings and dicts, private functions.
from tvm.script import tir as T


# the classic attribute pair
@T.prim_func
def noalias(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "noalias", "tir.noalias": True})
    A[0] = T.float32(0)


# target by name and with host, plus bool written with T.bool
@T.prim_func
def targeted(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": T.target("llvm", host="llvm"), "tir.noalias": T.bool(True), "tir.is_scheduled": True})
    A[1] = T.float32(1)


# target from a config dict, extra attrs of int/str/list types
@T.prim_func
def target_dict(A: T.Buffer((4,), "float32")):
    T.func_attr(
        {
            "target": T.target({"kind": "llvm", "mcpu": "skylake-avx512", "keys": ["cpu"]}),
            "global_symbol": "target_dict",
            "calling_conv": 0,
            "op_pattern": 8,
            "tir.kernel_launch_params": ["threadIdx.x"],
        }
    )
    A[2] = T.float32(2)


# private function: no global symbol
@T.prim_func(private=True)
def hidden(A: T.Buffer((4,), "float32")):
    A[3] = T.float32(3)


# cuda target string with options
@T.prim_func
def cuda_target(A: T.Buffer((128,), "float32")):
    T.func_attr({"target": T.target("cuda -arch=sm_80"), "global_symbol": "cuda_target"})
    for tx in T.thread_binding(128, thread="threadIdx.x"):
        A[tx] = T.float32(0)
