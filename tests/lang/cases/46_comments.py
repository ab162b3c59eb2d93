# Comments everywhere: own-line, trailing, between decorators and defs, in blocks, after the last statement.
from tvm.script import tir as T


# a leading comment block
# spanning two lines
@T.prim_func
# comment between the decorator and the def
def commented_matmul(
    A: T.Buffer((64, 64), "float32"),  # left operand
    B: T.Buffer((64, 64), "float32"),  # right operand
    C: T.Buffer((64, 64), "float32"),  # output
):  # end of signature
    # function attributes first
    T.func_attr({"global_symbol": "commented_matmul"})  # trailing on func_attr
    for i, j, k in T.grid(64, 64, 64):  # the loop nest
        # the reduction block
        with T.block("C"):  # trailing on with
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])  # S, S, R
            with T.init():
                # zero the accumulator
                C[vi, vj] = T.float32(0)
            # accumulate
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]  # fma candidate
            # comment after the last statement of the block


# comments inside if/else and while bodies, and dedented comments
@T.prim_func
def commented_control(A: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(16):
        if i < n:  # inside range
            A[i] = 1
        # a comment between if-body and else
        else:
            # else branch
            A[i] = 0
    # after the loop
    while A[0] < 10:  # loop until 10
        A[0] = A[0] + 1
# a comment at column 0 inside the function's extent
    T.evaluate(0)  # last statement


# comments in a multi-line call and in a dict literal
@T.prim_func
def commented_args(A: T.Buffer((8,), "float32")):
    T.func_attr(
        {
            "global_symbol": "commented_args",  # the symbol
            # noalias goes here
            "tir.noalias": True,
        }
    )
    for i in T.serial(
        0,  # start
        8,  # stop
    ):
        A[i] = T.if_then_else(
            i < 4,  # condition
            T.float32(1),  # then
            T.float32(2),  # else
        )


# a comment-only region between statements with blank lines
@T.prim_func
def commented_blank_lines(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0)

    # ---- section two ----

    A[1] = T.float32(1)
    # trailing own-line comment at the end of the function
