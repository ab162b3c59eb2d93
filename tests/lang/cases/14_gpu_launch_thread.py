# Lowered GPU code: T.launch_thread with strings and T.env_thread vars, concise scoping.
from tvm.script import tir as T


# launch_thread by name, concise form binds the rest of the body
@T.prim_func
def launch_by_name(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    T.func_attr({"target": T.target("cuda"), "tir.noalias": True})
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    B[bx * 128 + tx] = A[bx * 128 + tx] + T.float32(1)


# env_thread vars declared first, then launched (the printer's form)
@T.prim_func
def launch_env_thread(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (16, 16), "float16")
    B = T.match_buffer(b, (16, 16), "float32")
    brow = T.env_thread("blockIdx.y")
    bcol = T.env_thread("blockIdx.x")
    tx = T.env_thread("threadIdx.x")
    T.launch_thread(brow, 1)
    T.launch_thread(bcol, 1)
    T.launch_thread(tx, 32)
    for i in range(8):
        B[tx // 2, (tx % 2) * 8 + i] = T.Cast("float32", A[tx // 2, (tx % 2) * 8 + i])


# with-form launch_thread and shared memory via allocate + storage sync
@T.prim_func
def launch_with_shared(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    with T.launch_thread("blockIdx.x", 2) as bx:
        with T.launch_thread("threadIdx.x", 128) as tx:
            sh = T.allocate([128], "float32", "shared")
            sh_1 = T.Buffer((128,), data=sh, scope="shared")
            sh_1[tx] = A[bx * 128 + tx]
            T.tvm_storage_sync("shared")
            B[bx * 128 + tx] = sh_1[127 - tx]
