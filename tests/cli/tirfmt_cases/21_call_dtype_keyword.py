from tvm.script import tir as T


@T.prim_func
def externs(X: T.Buffer((8,), "float32"), Y: T.Buffer((8,), "int32")):
    # the dtype of a call as a keyword at the end, the older spelling, is kept
    for n in range(8):
        X[n]=T.call_extern("fast_exp",X[n],dtype="float32")
        Y[n] = T.cast(X[n], "int32")
    T.evaluate(T.call_extern("flush_all", dtype="int32"))
# output
from tvm.script import tir as T


@T.prim_func
def externs(X: T.Buffer((8,), "float32"), Y: T.Buffer((8,), "int32")):
    # the dtype of a call as a keyword at the end, the older spelling, is kept
    for n in range(8):
        X[n] = T.call_extern("fast_exp", X[n], dtype="float32")
        Y[n] = T.cast(X[n], "int32")
    T.evaluate(T.call_extern("flush_all", dtype="int32"))
