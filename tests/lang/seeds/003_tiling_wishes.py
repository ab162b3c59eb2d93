@T.prim_func
def simple_split(a: T.handle) -> None:
    A = T.match_buffer(a, [16])
    chunk_n = 3
    chunk_c = 5
    for n in T.serial(0, compute_segment(16, chunk_n)):
        for c in T.serial(0, compute_segment(32, chunk_c)):
            with T.block("block"):
                vi, vj = T.axis.remap("SS", [n,c])
                A[vi * chunk_n + vj * chunk_c] = 100


@T.prim_func
def simple_split(a: T.handle) -> None:
    A = T.match_buffer(a, [16])
    chunk_n = 3
    chunk_c = 5
    for n in T.serial(0, 16, chunk_n):
        for c in T.serial(0, 32, chunk_c):
            with T.block("block"):
                vi, vj = T.axis.remap("SS", [n,c])
                with T.let(length_n, min(chunk_n, 16 - vi)):
                    with T.let(length_c, min(chunk_c, 32 - vj)):
                        A[vi + vj] = 100
