from tvm.script import tir as T


@T.prim_func
def conv2d_nchw(
    data: T.Buffer((1, 64, 56, 56), "float32"),
    kernel: T.Buffer((64, 64, 3, 3), "float32"),
    conv: T.Buffer((1, 64, 56, 56), "float32"),
) -> None:
    pad_temp = T.alloc_buffer([1, 64, 58, 58], dtype="float32")
    for i0, i1, i2, i3 in T.grid(1, 64, 58, 58):
        with T.block("pad_temp"):
            i0_1, i1_1, i2_1, i3_1 = T.axis.remap("SSSS", [i0, i1, i2, i3])
            T.reads(data[i0_1, i1_1, i2_1 - 1, i3_1 - 1])
            T.writes(pad_temp[i0_1, i1_1, i2_1, i3_1])
            pad_temp[i0_1, i1_1, i2_1, i3_1] = T.if_then_else(
                1 <= i2_1 and i2_1 < 57 and 1 <= i3_1 and i3_1 < 57,
                data[i0_1, i1_1, i2_1 - 1, i3_1 - 1],
                T.float32(0),
                dtype="float32",
            )
    for nn, ff, yy, xx, rc, ry, rx in T.grid(1, 64, 56, 56, 64, 3, 3):
        with T.block("conv"):
            n, f, y, x = T.axis.remap("SSSS", [nn, ff, yy, xx])
            rc_1, ry_1, rx_1 = T.axis.remap("RRR", [rc, ry, rx])
            T.reads(pad_temp[n, rc_1, y + ry_1, x + rx_1], kernel[f, rc_1, ry_1, rx_1])
            T.writes(conv[n, f, y, x])
            with T.init():
                conv[n, f, y, x] = T.float32(0)
            conv[n, f, y, x] = conv[n, f, y, x] + pad_temp[n, rc_1, y + ry_1, x + rx_1] * kernel[f, rc_1, ry_1, rx_1]


@T.prim_func
def pooling_where(A: T.Buffer((16, 16), "float32"), B: T.Buffer((8, 8), "float32")):
    for i, j, di, dj in T.grid(8, 8, 3, 3):
        with T.block("pool"):
            vi, vj, vdi, vdj = T.axis.remap("SSRR", [i, j, di, dj])
            T.where(i * 2 + di < 16 and j * 2 + dj < 16)
            with T.init():
                B[vi, vj] = T.min_value("float32")
            B[vi, vj] = T.max(B[vi, vj], A[vi * 2 + vdi, vj * 2 + vdj])
