from tvm.script import tir as T


@T.prim_func
def add(a: T.handle, b: T.handle):
    for i in T.parallel(0, 2):
        for j in T.serial(0, 1):
            for z in T.vectorized(3, 4):
                T.evaluate(0)


@T.prim_func
def matmul(a: T.handle, b: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, [128, 128])
    B = T.match_buffer(b, [128, 128])
    C = T.match_buffer(c, [128, 128])
    for i, j in T.grid(128, 128):
        with T.block("init"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = T.float32(0)
        for k in range(128):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]


@T.prim_func
def simple_split(a: T.handle) -> None:
    A = T.match_buffer(a, [16])
    for i in T.serial(0, 16):
        with T.block("block"):
            vi = T.axis.remap("S", [i])
            A[vi] = i + 100


def test_simple_split():
    sch = tir.Schedule(simple_split)
    b = sch.get_block("block")
    lps = sch.get_loops(b)
    sch.split(lps[0], [7,10])
    print(sch.mod.script())
