"""Row sum of a 4096x4096 float32 matrix: a reduction block with T.init, rows in parallel."""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def rowsum(A: T.Buffer((4096, 4096), "float32"), B: T.Buffer((4096,), "float32")):
    T.func_attr({"global_symbol": "rowsum", "tir.noalias": True})
    for i in T.parallel(4096):
        for k in range(4096):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0.0)
                B[vi] = B[vi] + A[vi, vk]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(rowsum, __file__))
