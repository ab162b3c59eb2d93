# An opaque use of A_cache.data in a call_extern counts as an access: A_cache moves into the
# block under loop `i` (TVM v0.20 test_opaque_access; inner bindings use the loop var `i`
# and the outer block is opaque: tirkit's front end cannot bound bindings of outer iter vars).
@T.prim_func
def main(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, [1024])
    B = T.match_buffer(b, [1024])
    A_cache = T.alloc_buffer([1024])
    for i in T.serial(0, 8):
        with T.block():
            with T.block():
                v = T.axis.S(8, i)
                T.reads([A[(v * 128) : ((v * 128) + 128)]])
                T.writes([A_cache[(v * 128) : ((v * 128) + 128)]])
                T.evaluate(T.call_extern("float32", "test", A_cache.data, (v * 128), 128, A.data, (v * 128), 128))
            for j in T.serial(0, 128):
                with T.block():
                    v = T.axis.S(1024, i * 128 + j)
                    T.reads([A_cache[v]])
                    T.writes([B[v]])
                    B[v] = A_cache[v]


# output
@T.prim_func
def main(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, [1024])
    B = T.match_buffer(b, [1024])
    for i in T.serial(0, 8):
        with T.block():
            T.reads(A[i * 128 : i * 128 + 128])
            T.writes(B[i * 128 : i * 128 + 128])
            A_cache = T.alloc_buffer([1024])
            with T.block():
                v = T.axis.S(8, i)
                T.reads([A[v * 128 : v * 128 + 128]])
                T.writes([A_cache[v * 128 : v * 128 + 128]])
                T.evaluate(T.call_extern("float32", "test", A_cache.data, v * 128, 128, A.data, v * 128, 128))
            for j in T.serial(0, 128):
                with T.block():
                    v = T.axis.S(1024, i * 128 + j)
                    T.reads([A_cache[v]])
                    T.writes([B[v]])
                    B[v] = A_cache[v]
