@T.prim_func
def main(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64,), "float32")):
    T.func_attr({"tir.noalias": True})
    for i in T.parallel(64):
        for k in range(32):
            if k == 0:
                B[i] = T.float32(0)
            A_1 = T.Buffer((2048,), data=A.data)
            B[i] = B[i] + A_1[i * 32 + k]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64,), "float32")):
        T.func_attr({"tir.noalias": True})
        for i_o in T.parallel(8):
            for k in T.serial(32, annotations={"llvm.loop.unroll.disable": True, "llvm.loop.vectorize.enable": False}):
                jam_base_0: T.int32 = i_o * 8
                jam_base_1: T.int32 = i_o * 8 * 32 + k
                if k == 0:
                    B[jam_base_0] = T.float32(0.0)
                    B[jam_base_0 + 1] = T.float32(0.0)
                    B[jam_base_0 + 2] = T.float32(0.0)
                    B[jam_base_0 + 3] = T.float32(0.0)
                    B[jam_base_0 + 4] = T.float32(0.0)
                    B[jam_base_0 + 5] = T.float32(0.0)
                    B[jam_base_0 + 6] = T.float32(0.0)
                    B[jam_base_0 + 7] = T.float32(0.0)
                A_1 = T.Buffer((2048,), data=A.data)
                B[jam_base_0] = B[jam_base_0] + A_1[jam_base_1]
                B[jam_base_0 + 1] = B[jam_base_0 + 1] + A_1[jam_base_1 + 32]
                B[jam_base_0 + 2] = B[jam_base_0 + 2] + A_1[jam_base_1 + 64]
                B[jam_base_0 + 3] = B[jam_base_0 + 3] + A_1[jam_base_1 + 96]
                B[jam_base_0 + 4] = B[jam_base_0 + 4] + A_1[jam_base_1 + 128]
                B[jam_base_0 + 5] = B[jam_base_0 + 5] + A_1[jam_base_1 + 160]
                B[jam_base_0 + 6] = B[jam_base_0 + 6] + A_1[jam_base_1 + 192]
                B[jam_base_0 + 7] = B[jam_base_0 + 7] + A_1[jam_base_1 + 224]
