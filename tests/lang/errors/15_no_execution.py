# Hostile parse-time expressions: nothing may run in static mode; every one is reported instead.
# (the commands only touch a marker file, so a test can check that it was never created)
from tvm.script import tir as T


# in a buffer shape
@T.prim_func
def shape_attack(A: T.Buffer((__import__("os").system("touch tirkit_pwned_shape"),), "float32")):  # error: not known statically
#                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    A[0] = T.float32(0)


# in a parameter default
@T.prim_func
def default_attack(n: T.int32 = __import__("os").system("touch tirkit_pwned_default")):  # error: not known statically
#                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    T.evaluate(n)


# in the decorator's arguments
@T.prim_func(private=__import__("os").system("touch tirkit_pwned_decorator"))  # error: not known statically
#                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
def decorator_attack(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0)


# in a loop extent, through eval
@T.prim_func
def eval_attack(A: T.Buffer((4,), "float32")):
    for i in range(eval("__import__('os').system('touch tirkit_pwned_eval')")):  # error: not known statically
#                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        A[i] = T.float32(0)
