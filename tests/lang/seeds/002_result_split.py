def func(a: ty.handle, b: ty.handle, c: ty.handle) -> None:
    # function attr dict
    B = tir.match_buffer(b, [1024, 1024])
    A = tir.match_buffer(a, [1024, 1024])
    C = tir.match_buffer(c, [1024, 1024])
    reducer = tir.comm_reducer(lambda x, y: x + y, tir.float32(0))
    # body
    for i0_outer, i1_outer, i2_outer, i2_inner, i0_inner, i1_inner in tir.grid(32, 32, 256, 4, 32, 32):
        with tir.block([1024, 1024, tir.reduce_axis(0, 1024)], "C") as [vi, vj, vk]:
            tir.bind(vi, ((i0_outer*32) + i0_inner))
            tir.bind(vj, ((i1_outer*32) + i1_inner))
            tir.bind(vk, ((i2_outer*4) + i2_inner))
            reducer.step(C[vi, vj], (A[vi, vk]*B[vk, vj]))
