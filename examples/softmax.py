"""Row softmax of a 4096x1024 float32 matrix: a row-max block, an exp-sum block and a divide
block, each a reduction or elementwise stage over rows run in parallel.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def softmax(A: T.Buffer((4096, 1024), "float32"), B: T.Buffer((4096, 1024), "float32")):
    T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
    maxelem = T.alloc_buffer((4096,), "float32")
    expsum = T.alloc_buffer((4096,), "float32")
    for i in T.parallel(4096):
        for k in range(1024):
            with T.block("maxelem"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(maxelem[vi])
                with T.init():
                    maxelem[vi] = T.min_value("float32")
                maxelem[vi] = T.max(maxelem[vi], A[vi, vk])
    for i in T.parallel(4096):
        for k in range(1024):
            with T.block("expsum"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk], maxelem[vi])
                T.writes(expsum[vi])
                with T.init():
                    expsum[vi] = T.float32(0.0)
                expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxelem[vi])
    for i in T.parallel(4096):
        for j in range(1024):
            with T.block("norm"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], maxelem[vi], expsum[vi])
                T.writes(B[vi, vj])
                B[vi, vj] = T.exp(A[vi, vj] - maxelem[vi]) / expsum[vi]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(softmax, __file__))
