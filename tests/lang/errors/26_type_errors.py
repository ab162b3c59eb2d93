# Operands of the wrong kind in expressions.
from tvm.script import tir as T


# string plus integer in a store value
@T.prim_func
def str_plus_int(A: T.Buffer((4,), "int32")):
    A[0] = "x" + 1  # error: unsupported operand
#          ^^^^^^^


# calling a buffer like a function
@T.prim_func
def call_buffer(A: T.Buffer((4,), "float32")):
    A[0] = A(0)  # error: 'A' is not callable
#          ^^^^


# a buffer used where a PrimExpr is expected
@T.prim_func
def buffer_as_value(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    B[0] = A + T.float32(1)  # error: buffer 'A' used as a value
#          ^


# annotations passed where T.allocate takes the storage scope (found by mutation fuzzing: the
# dict reached the printer, which raised TypeError)
@T.prim_func
def allocate_scope_not_a_string(n: T.int32):
    buf = T.allocate([16], "int32", {"disable_lower_builtin": True})  # error: the storage scope must be a string
#         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    T.evaluate(n)


# T.attr's key and value swapped (found by mutation fuzzing: the Call reached the printer)
@T.prim_func
def attr_key_not_a_string(A: T.Buffer((4,), "float32")):
    with T.attr(A.data, T.float32(1), "pragma"):  # error: T.attr() key must be a string, got FloatImm
#        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        A[0] = T.float32(0)


# a buffer unpacked into two names (found by mutation fuzzing: Python iterated the buffer through
# __getitem__ -- B[0], B[1], ... -- without end, and the file never finished parsing)
@T.prim_func
def buffer_unpacked(A: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4, 4):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B_a, B_b = T.match_buffer(A[vi, vj], (), "float32")  # error: a buffer is not iterable
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            B_a[()] = T.float32(1)


# unpacking or spreading T.Buffer itself: T.Buffer[0], T.Buffer[1], ... were buffer types
# without end, and the parser never finished
@T.prim_func
def namespace_unpacked(A: T.Buffer((4,), "float32")):
    a, b = T.Buffer  # error: T.Buffer is not iterable
#   ^^^^^^^^^^^^^^^
    for i in T.grid(*T.Buffer):  # error: T.Buffer is not iterable
#            ^^^^^^^^^^^^^^^^^
        A[0] = T.float32(1)


# T.call_intrin without its op name (found by fuzzing tirc: the BufferLoad became the Call's op
# and code generation raised AttributeError, reported as an internal error)
@T.prim_func
def call_intrin_without_op(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.call_intrin("float32", A[i])  # error: the op of a Call must be an op name
#              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^


# a division by a constant zero (found by fuzzing tirc: Simplify's constant folding raised
# ZeroDivisionError, reported as an internal error; TVM stops at the same fold, "Divide by zero")
@T.prim_func
def divide_by_zero(A: T.Buffer((4,), "int32")):
    for i in range(4):
        A[i] = i // 0 + i % 0  # error: division or modulo by zero
#              ^^^^^^
