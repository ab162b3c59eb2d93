from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


# the functions keep their order, a call by the class's own name keeps that spelling
@I.ir_module
class mod:
    @T.prim_func
    def main(A: T.Buffer(1, "float32")):
        mod.kernel(A.data)

    @T.prim_func
    def kernel(A_data: T.handle("float32")):
        A = T.decl_buffer(1, dtype="float32", data=A_data)
        A[0] = T.float32(0)


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("add"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[vi]+T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Expected
        with R.dataflow():
            gv = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def other(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            gv = R.call_tir(Expected.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(gv)
        return gv
# output
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


# the functions keep their order, a call by the class's own name keeps that spelling
@I.ir_module
class mod:
    @T.prim_func
    def main(A: T.Buffer((1,), "float32")):
        mod.kernel(A.data)

    @T.prim_func
    def kernel(A_data: T.handle("float32")):
        A = T.decl_buffer((1,), dtype="float32", data=A_data)
        A[0] = T.float32(0)


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("add"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Expected
        with R.dataflow():
            gv = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def other(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            gv = R.call_tir(Expected.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(gv)
        return gv
