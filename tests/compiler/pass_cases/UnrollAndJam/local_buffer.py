# without tir.noalias only buffers the function allocates may be accumulated into
@T.prim_func
def main(A: T.Buffer((16, 8), "float32"), B: T.Buffer((16,), "float32")):
    acc = T.allocate([16], "float32", "global")
    acc_1 = T.Buffer((16,), data=acc)
    for i in range(16):
        for k in range(8):
            A_1 = T.Buffer((128,), data=A.data)
            acc_1[i] = T.max(acc_1[i], A_1[i * 8 + k])
    for i in range(16):
        B[i] = acc_1[i]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16, 8), "float32"), B: T.Buffer((16,), "float32")):
        acc = T.allocate([16], "float32", "global")
        acc_1 = T.Buffer((16,), data=acc)
        for i_o in range(2):
            for k in T.serial(8, annotations={"llvm.loop.unroll.disable": True, "llvm.loop.vectorize.enable": False}):
                jam_base_0: T.int32 = i_o * 8
                jam_base_1: T.int32 = i_o * 8 * 8 + k
                A_1 = T.Buffer((128,), data=A.data)
                acc_1[jam_base_0] = T.max(acc_1[jam_base_0], A_1[jam_base_1])
                acc_1[jam_base_0 + 1] = T.max(acc_1[jam_base_0 + 1], A_1[jam_base_1 + 8])
                acc_1[jam_base_0 + 2] = T.max(acc_1[jam_base_0 + 2], A_1[jam_base_1 + 16])
                acc_1[jam_base_0 + 3] = T.max(acc_1[jam_base_0 + 3], A_1[jam_base_1 + 24])
                acc_1[jam_base_0 + 4] = T.max(acc_1[jam_base_0 + 4], A_1[jam_base_1 + 32])
                acc_1[jam_base_0 + 5] = T.max(acc_1[jam_base_0 + 5], A_1[jam_base_1 + 40])
                acc_1[jam_base_0 + 6] = T.max(acc_1[jam_base_0 + 6], A_1[jam_base_1 + 48])
                acc_1[jam_base_0 + 7] = T.max(acc_1[jam_base_0 + 7], A_1[jam_base_1 + 56])
        for i in range(16):
            B[i] = acc_1[i]
