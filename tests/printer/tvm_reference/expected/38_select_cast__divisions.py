# from tvm.script import tirx as T

@T.prim_func
def divisions(A: T.Buffer((4, 64), "int32"), n: T.int32):
    for i in range(64):
        A[0, i] = (i - 32) // n + (i - 32) % n
        A[1, i] = T.Div(i - 32, n) + T.truncmod(i - 32, n)
        A[2, i] = (i - 32) // n + (i - 32) % n
        A[3, i] = T.max(i, n) - T.min(i, n) + i * -1 * 3
