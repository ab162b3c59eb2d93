from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


# a Relax binding written with its annotation keeps it (the printer leaves it out of a
# call_tir binding, whose out_sinfo says the same); one written without stays without
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(10),), "float32"), y: T.Buffer((T.int64(10),), "float32")):
        for i in range(T.int64(10)):
            with T.block("add"):
                vi = T.axis.spatial(T.int64(10), i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((10,), dtype="float32")) -> R.Tensor((10,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv1: R.Tensor((10,), dtype="float32") = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((10,), dtype="float32"))
            gv2 = R.call_tir(cls.add, (gv1,), out_sinfo=R.Tensor((10,), dtype="float32"))
            R.output(gv2)
        return gv2
# output
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


# a Relax binding written with its annotation keeps it (the printer leaves it out of a
# call_tir binding, whose out_sinfo says the same); one written without stays without
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(10),), "float32"), y: T.Buffer((T.int64(10),), "float32")):
        for i in range(T.int64(10)):
            with T.block("add"):
                vi = T.axis.spatial(T.int64(10), i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((10,), dtype="float32")) -> R.Tensor((10,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv1: R.Tensor((10,), dtype="float32") = R.call_tir(
                cls.add,
                (x,),
                out_sinfo=R.Tensor((10,), dtype="float32")
            )
            gv2 = R.call_tir(cls.add, (gv1,), out_sinfo=R.Tensor((10,), dtype="float32"))
            R.output(gv2)
        return gv2
