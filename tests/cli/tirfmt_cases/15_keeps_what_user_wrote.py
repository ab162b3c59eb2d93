from tvm.script import tir as T

N = 64


@T.prim_func  # the decorator's comment
def scale(A: T.Buffer((16,), "float32"),  # the input
          B: T.Buffer((16,), "float32")):  # the output
    """Double every element.

    A docstring is kept, verbatim.
    """
    T.func_attr({"global_symbol":"scale", "tir.noalias":True})
    for i in range(16):
        with T.block("B"):  # the block
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]*T.float32(2)  # times two


@T.prim_func
def uses_constant(A: T.Buffer((N,), "float32")):
    # N stays N: the formatter does not bake a module constant into the unit
    for i in range(N):
        A[i] = A[i]+T.float32(1)


@T.prim_func
def spelled_out(A: T.Buffer((8,), "float32")):
    B = T.alloc_buffer((8,), "float32")
    for i in T.serial(8):
        B[i] = T.min_value("float32")
        A[i] = B[i]
# output
from tvm.script import tir as T

N = 64


@T.prim_func  # the decorator's comment
def scale(A: T.Buffer((16,), "float32"),  # the input
          B: T.Buffer((16,), "float32")):  # the output
    """Double every element.

    A docstring is kept, verbatim.
    """
    T.func_attr({"global_symbol": "scale", "tir.noalias": True})
    for i in range(16):
        with T.block("B"):  # the block
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] * T.float32(2)  # times two


@T.prim_func
def uses_constant(A: T.Buffer((N,), "float32")):
    # N stays N: the formatter does not bake a module constant into the unit
    for i in range(N):
        A[i] = A[i]+T.float32(1)


@T.prim_func
def spelled_out(A: T.Buffer((8,), "float32")):
    B = T.alloc_buffer((8,), "float32")
    for i in T.serial(8):
        B[i] = T.min_value("float32")
        A[i] = B[i]
