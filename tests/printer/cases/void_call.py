@T.prim_func
def inplace_call(data_io: T.Buffer((64), "int32")):
    for i0 in T.serial(1):
        with T.block("ext_call"):
            T.reads(data_io[:64])
            T.writes(data_io[:64])
            T.evaluate(T.call_extern("call_impl", data_io.data, dtype=""))
# output
# from tvm.script import tir as T

@T.prim_func
def inplace_call(data_io: T.Buffer((64,), "int32")):
    # with T.block("root"):
    for i0 in range(1):
        with T.block("ext_call"):
            T.reads(data_io[0:64])
            T.writes(data_io[0:64])
            T.call_extern("void", "call_impl", data_io.data)
