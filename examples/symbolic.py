"""A kernel with a symbolic dimension: y = alpha * x + y (BLAS's axpy) over n float32 elements,
``n = T.int32()`` bound from the arrays at call time, ``alpha`` a scalar argument.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def axpy(alpha: T.float32, x: T.handle, y: T.handle):
    T.func_attr({"global_symbol": "axpy", "tir.noalias": True})
    n = T.int32()
    X = T.match_buffer(x, (n,), "float32")
    Y = T.match_buffer(y, (n,), "float32")
    for i in range(n):
        with T.block("Y"):
            vi = T.axis.spatial(n, i)
            T.reads(X[vi], Y[vi])
            T.writes(Y[vi])
            Y[vi] = alpha * X[vi] + Y[vi]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(axpy, __file__))
