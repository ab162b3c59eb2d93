# the innermost spatial loop of a convolution (x, extent 12: factor 4) goes inside its reduction
@T.prim_func
def main(pad: T.Buffer((14 * 3,), "float32"), w: T.Buffer((9,), "float32"), out: T.Buffer((12,), "float32")):
    T.func_attr({"tir.noalias": True})
    for x in range(12):
        for ry, rx in T.grid(3, 3):
            if ry == 0 and rx == 0:
                out[x] = T.float32(0)
            out[x] = out[x] + pad[ry * 14 + x + rx] * w[ry * 3 + rx]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(pad: T.Buffer((42,), "float32"), w: T.Buffer((9,), "float32"), out: T.Buffer((12,), "float32")):
        T.func_attr({"tir.noalias": True})
        for x_o in range(3):
            for ry in T.serial(3, annotations={"llvm.loop.unroll.disable": True, "llvm.loop.vectorize.enable": False}):
                for rx in T.serial(3, annotations={"llvm.loop.unroll.disable": True, "llvm.loop.vectorize.enable": False}):
                    jam_base_0: T.int32 = x_o * 4
                    jam_base_1: T.int32 = ry * 14 + x_o * 4 + rx
                    if ry == 0 and rx == 0:
                        out[jam_base_0] = T.float32(0.0)
                        out[jam_base_0 + 1] = T.float32(0.0)
                        out[jam_base_0 + 2] = T.float32(0.0)
                        out[jam_base_0 + 3] = T.float32(0.0)
                    out[jam_base_0] = out[jam_base_0] + pad[jam_base_1] * w[ry * 3 + rx]
                    out[jam_base_0 + 1] = out[jam_base_0 + 1] + pad[jam_base_1 + 1] * w[ry * 3 + rx]
                    out[jam_base_0 + 2] = out[jam_base_0 + 2] + pad[jam_base_1 + 2] * w[ry * 3 + rx]
                    out[jam_base_0 + 3] = out[jam_base_0 + 3] + pad[jam_base_1 + 3] * w[ry * 3 + rx]
