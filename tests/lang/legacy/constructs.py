# The legacy hybrid dialect (TVM <= 0.8, seed 000), one function per construct family.
class Module:
    def stores_and_loads(A: ty.handle, B: ty.handle, n: ty.int32) -> None:
        tir.func_attr({"global_symbol": "stores_and_loads", "tir.noalias": True})
        A_1 = tir.buffer_bind(A, [16], elem_offset=0, align=128, offset_factor=1)
        B_1 = tir.buffer_bind(B, [16], dtype="int32")
        # a store through the data pointer, a load with tir.load
        for i in tir.range(0, 16):
            A_1.data[i] = (tir.load("float32", A_1.data, i) + tir.float32(1))
        tir.store(B_1.data, 0, tir.cast("int32", n))
        tir.store(B_1.data, tir.ramp(0, 1, 4), tir.broadcast(1, 4), tir.broadcast(True, 4))
        tir.evaluate(tir.load("int32", B_1.data, 1, True))

    def scopes(A: ty.handle) -> None:
        A_1 = tir.buffer_bind(A, [16, 16])
        tir.attr(0, "compute_scope", "scopes_compute_")
        tir.attr(A_1, "realize_scope", "")
        tir.realize(A_1[0:16, 0:16])
        for x in tir.range(0, 16):
            for y in tir.range(0, 16):
                A_1[x, y] = tir.float32(0)
        tmp = tir.allocate([16], "float32", "global")
        tir.attr(tmp, "storage_alignment", 128)
        tir.evaluate(tir.call_extern("int32", "touch", tmp))

    def host_style(args: ty.handle, num_args: ty.int32) -> ty.int32:
        tir.func_attr({"target": meta[Target][0], "calling_conv": 1})
        assert (num_args == 1), "host_style: num_args should be 1"
        arg0: ty.handle = tir.tvm_struct_get(args, 0, 12, dtype="handle")
        data: ty.handle = tir.tvm_struct_get(arg0, 0, 1, dtype="handle")
        if not (tir.isnullptr(data, dtype="bool")):
            data[0] = tir.call_llvm_pure_intrin(tir.uint32(97), tir.uint32(1), tir.float32(1), dtype="float32")
            tir.evaluate(0)
