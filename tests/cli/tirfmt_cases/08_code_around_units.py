"""A module docstring;   odd   spacing   kept."""
import numpy as np
from tvm.script import tir as T

x  =  [1,2,
       3]   # not TVMScript: never touched


def helper( a ,b ):
    return a+b


@T.prim_func
def add_one(A: T.Buffer((4,), "int32")):
    for i in range(4):
        A[i] = A[i]+1


class NotTVM :
    y=1 ;  z = 2


if __name__ == "__main__":
    print( helper(1,2) )
# output
"""A module docstring;   odd   spacing   kept."""
import numpy as np
from tvm.script import tir as T

x  =  [1,2,
       3]   # not TVMScript: never touched


def helper( a ,b ):
    return a+b


@T.prim_func
def add_one(A: T.Buffer((4,), "int32")):
    for i in range(4):
        A[i] = A[i] + 1


class NotTVM :
    y=1 ;  z = 2


if __name__ == "__main__":
    print( helper(1,2) )
