"""Vector add, C = A + B over 4M float32 elements, in its scheduled form: the flat loop split
[1024, 256, 16], the outer part parallel and the inner 16 lanes vectorized.

Compile with ``tirc examples/vector_add.py -o vector_add.ll``; run with
``tirc run examples/vector_add.py --entry vector_add``.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def vector_add(
    A: T.Buffer((4194304,), "float32"),
    B: T.Buffer((4194304,), "float32"),
    C: T.Buffer((4194304,), "float32")
):
    T.func_attr({"global_symbol": "vector_add", "tir.noalias": True})
    for i0 in T.parallel(1024):
        for i1 in range(256):
            for i2 in T.vectorized(16):
                with T.block("C"):
                    vi = T.axis.spatial(4194304, i0 * 4096 + i1 * 16 + i2)
                    T.reads(A[vi], B[vi])
                    T.writes(C[vi])
                    C[vi] = A[vi] + B[vi]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(vector_add, __file__))
