from tvm.script import tir as T


# `elif` stays `elif`, a load written as a slice stays a slice, and a buffer may be named
# `metadata` (TVM's printer reserves the name for its metadata section)
@T.prim_func
def partition(A: T.Buffer((160,), "float32"), _metadata: T.handle):
    metadata = T.match_buffer(_metadata, [160], dtype="float32")
    for i in range(160):
        if i < 10:
            A[i] = T.float32(0)
        elif 10 <= i and i < 150:
            A[i] = metadata[i]
        else:
            A[i] = T.float32(2)
    for i in range(40):
        A[i * 4 : i * 4 + 4] = metadata[i * 4 : i * 4 + 4]
# output
from tvm.script import tir as T


# `elif` stays `elif`, a load written as a slice stays a slice, and a buffer may be named
# `metadata` (TVM's printer reserves the name for its metadata section)
@T.prim_func
def partition(A: T.Buffer((160,), "float32"), _metadata: T.handle):
    metadata = T.match_buffer(_metadata, (160,), dtype="float32")
    for i in range(160):
        if i < 10:
            A[i] = T.float32(0)
        elif 10 <= i and i < 150:
            A[i] = metadata[i]
        else:
            A[i] = T.float32(2)
    for i in range(40):
        A[i * 4:i * 4 + 4] = metadata[i * 4:i * 4 + 4]
