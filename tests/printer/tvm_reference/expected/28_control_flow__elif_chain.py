# from tvm.script import tirx as T

@T.prim_func
def elif_chain(A: T.Buffer((64,), "int32")):
    for i in range(64):
        if i % 4 == 0:
            A[i] = 0
        else:
            if i % 4 == 1:
                A[i] = 1
            else:
                if i % 4 == 2:
                    if i > 32:
                        A[i] = 22
                else:
                    A[i] = 3
