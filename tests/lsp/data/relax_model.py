from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 4))
        B = T.match_buffer(b, (n, 4))
        for i, j in T.grid(n, 4):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main(x: R.Tensor((n, 4), "float32")) -> R.Tensor((n, 4), "float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n, 4), "float32"))
            lv1 = R.call_tir(cls.add_one, (lv,), out_sinfo=R.Tensor((n, 4), "float32"))
            gv = R.add(lv1, x)
            R.output(gv)
        return gv
