# a private function with a global symbol (TVM 0.27 refuses it with the same message)
from tvm.script import tir as T


@T.prim_func(private=True)
def helper(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "helper"})  # error: A private function may not have the kGlobalSymbol
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    A[0] = T.float32(1)


# private without a global symbol, and a public one with its own: both fine
@T.prim_func(private=True)
def quiet(A: T.Buffer((4,), "float32")):
    T.func_attr({"tir.noalias": True})
    A[0] = T.float32(1)


@T.prim_func
def public(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "public_kernel"})
    A[0] = T.float32(1)
