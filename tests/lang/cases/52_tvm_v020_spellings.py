# Spellings TVM v0.20's printer and test suite use (issue 10): dtype= keywords on op calls,
# call_extern with the dtype first or as a keyword, vload/vstore with a predicate,
# buffer_type="auto", vector slices, one loop name for a whole T.grid, integer if conditions.
from tvm.script import tir as T

N_ELEMS = 8
SHAPE = (N_ELEMS, 4)


# math and builtins with the dtype keyword TVM prints (ignored: the op gives the dtype)
@T.prim_func
def dtype_keywords(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32"), n: T.int32):
    for i in range(8):
        A[i] = T.if_then_else(T.likely(i < n, dtype="bool"), T.exp(A[i], dtype="float32"),
                              T.sqrt(A[i], dtype="float32"), dtype="float32")
        B[i] = T.shift_left(B[i], 2, dtype="int32") + T.shift_right(B[i], 1, dtype="int32")
        A[i] = T.floor(A[i], dtype="float32") + T.round(A[i], dtype="float32")


# call_extern / call_pure_extern: dtype first, or as a keyword after the name
@T.prim_func
def extern_calls(A: T.Buffer((16,), "float32")):
    T.evaluate(T.call_extern("float32", "my_fn", A.data, 16))
    T.evaluate(T.call_extern("my_fn", A.data, 16, dtype="float32"))
    A[0] = T.call_pure_extern("float32", "expf", A[1])
    A[1] = T.call_pure_extern("expf", A[2], dtype="float32")
    A[2] = T.reinterpret(T.reinterpret(A[3], dtype="int32"), dtype="float32")


# lowered-code builtins with a dtype keyword
@T.prim_func
def lowered_builtins(A: T.Buffer((4,), "int64"), h: T.handle):
    T.evaluate(T.start_profile_intrinsic(3, dtype="handle"))
    A[0] = T.Cast("int64", T.isnullptr(h, dtype="bool"))
    A[1] = T.Cast("int64", T.undef(dtype="int32") * 0)
    T.evaluate(T.end_profile_intrinsic(3, dtype="handle"))


# T.ret with its dtype keyword
@T.prim_func
def ret_dtype(n: T.int64) -> T.int64:
    T.evaluate(T.ret(n * T.int64(2), dtype="int64"))


# vector loads and stores with a lane mask
@T.prim_func
def predicated(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(2):
        B.vstore([T.Ramp(i * 4, 1, 4)],
                 A.vload([T.Ramp(i * 4, 1, 4)], predicate=T.Broadcast(T.bool(True), 4)),
                 predicate=T.Broadcast(T.bool(True), 4))


# buffer_type="auto" (an auto-broadcast buffer, as TVM prints it)
@T.prim_func
def auto_broadcast(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (4, 4), "float32", buffer_type="auto")
    B = T.match_buffer(b, (4, 4), "float32")
    for i, j in T.grid(4, 4):
        B[i, j] = A[i, j]


# slices as vector loads: the value of an assignment or an operand of an operator
@T.prim_func
def vector_slices(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    B[0:4] = A[0:4]
    B[4:8] = A[4:8] + A[8:12]
    B[8:12] = -B[8:12]


# one loop name bound to every var of a T.grid, an integer if condition
@T.prim_func
def grid_tuple_and_int_condition(A: T.Buffer((4, 4), "float32"), C: T.Buffer((12,), "int32")):
    for ij in T.grid(4, 4):
        with T.block("init"):
            vi, vj = T.axis.remap("SS", ij)
            A[vi, vj] = T.float32(0)
    for i in range(10):
        if i:
            C[i] = C[i] + 1


# module-level constants and tuples of them, T.int32(...) wrappers
@T.prim_func
def constants(A: T.Buffer(SHAPE, "float32")):
    for i, j in T.grid(T.int32(N_ELEMS), SHAPE[1]):
        A[i, j] = T.float32(N_ELEMS)


# a function TVM builds without verify_well_formed: a loop var used inside a block
@T.prim_func(check_well_formed=False)
def unchecked(A: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            A[vi] = T.Cast("float32", i)


# rank-0 buffers are indexed with an empty tuple, as TVM prints them
@T.prim_func
def rank0_sum(A: T.Buffer((16,), "float32"), S: T.Buffer((), "float32")):
    for i in range(16):
        with T.block("S"):
            vi = T.axis.reduce(16, i)
            with T.init():
                S[()] = T.float32(0)
            S[()] = S[()] + A[vi]


# strides given by name (int32 vars, as TVM's ir_builder makes them)
@T.prim_func
def named_strides(a: T.handle):
    C = T.match_buffer(a, (16, 16), "float16", strides=("C_s0", "C_s1"), offset_factor=16)
    T.evaluate(C.elem_offset // C.strides[0])


# T.iter_var and T.Range as TVM's own tests write a thread attribute
@T.prim_func
def iter_var_attr(A: T.Buffer((256,), "float32")):
    tx = T.int32()
    T.attr(T.iter_var(tx, T.Range(0, 256), "ThreadIndex", "threadIdx.x"), "thread_extent", 256)
    A[tx] = A[tx] + T.float32(1)


# arithmetic on int64 and int32 operands promotes; a region as a let value is a vector load;
# stepped slice stores; `and`/`or` on vectors are bitwise
@T.prim_func
def mixed_operands(a: T.handle, b: T.handle, c: T.handle):
    m = T.int64()
    A = T.match_buffer(a, (m * 2,))
    B = T.match_buffer(b, (m, 2))
    U = T.match_buffer(c, (8,), "uint8")
    for i, j in T.grid(m, 2):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi * 2 + vj] + T.Cast("float32", vj * 2 + 0.5)
    u4: T.uint8x4 = U[0:4]
    U[4:8] = u4
    A[0 : 8 : 2] = T.Broadcast(T.float32(0), 4)
    A[1 : 2 : 1] = T.float32(1)
    T.evaluate((A[0:4] > T.float32(0)) and (A[4:8] > T.float32(0)))
