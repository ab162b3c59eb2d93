# from tvm.script import tirx as T

@T.prim_func
def multi_line_assert(m: T.int32, n: T.int32):
    assert m * n <= 1048576 and m > 0 and n > 0, ("RuntimeError", ["shape too large"])
