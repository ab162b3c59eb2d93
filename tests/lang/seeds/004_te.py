from tvm.script import tir as T

@T.prim_func
def tir_element_wise(a: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, (128, 128))
    B = T.match_buffer(b, (128, 128))
    with T.block([128, 128]) as [i, j]:
        B[i, j] = A[i, j] * 2.0

A = te.placeholder((128, 128), name="A")
B = te.compute((128, 128), lambda x, y: A[x, y] * 2, name="B")

func = te.create_prim_func([A, B]) 
tvm.ir.assert_structural_equal(func, tir_element_wise)
