"""Schedule for ``matmul_naive.py`` in the GEMM style of BLAS libraries: produces the kernel of
``matmul_packed.py``.

    tirc examples/matmul_naive.py --schedule examples/schedule_matmul_packed.py --emit scheduled

C is computed in micro-tiles of MR x NR (8 x 16 float32: eight 512-bit accumulators, or sixteen
256-bit ones) that stay in registers over the whole k loop: ``cache_write`` gives each tile a
small C_global buffer (64 floats, on the stack: below TVM's 1024-byte ``kMaxStackAlloca``), the
rows unrolled and the columns one vector. A and B are packed first (``cache_read`` +
``transform_layout``) so that the tile's k-th step reads MR consecutive floats of A and NR
consecutive floats of B: B as ``[j // NR, k, j % NR]`` panels, A as ``[i // MR, k, i % MR]``.
Tiles are ordered so a block of MB x MR rows of A stays in L2 while the B panels stream, and
blocks of rows run in parallel; each block packs its own rows of A (``compute_at``), so the
packed panel is still in cache when its tiles read it; B is packed once, in parallel. The same TIR is what the
side-by-side bench runs under TVM (``bench/compare.py``, kernel ``matmul_packed``).
"""

MR = 8    # rows of a micro-tile (unrolled)
NR = 16   # columns of a micro-tile (one vector)
MB = 8    # micro-tiles of rows per parallel block (MB * MR = 64 rows of A kept in L2)


def schedule(sch):
    """Apply the schedule to ``sch`` (a ``tirkit.schedule.Schedule`` of the naive matmul)."""
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i0, i1, i2 = sch.split(i, [None, MB, MR])
    j0, j1 = sch.split(j, [None, NR])
    sch.reorder(i0, j0, i1, k, i2, j1)
    tile = sch.cache_write(c, 0, "global")
    sch.reverse_compute_at(tile, i1)
    sch.vectorize(j1)
    sch.unroll(i2)
    sch.parallel(i0)
    pack_b = sch.cache_read(c, 1, "global")
    sch.transform_layout(c, ("read", 1), lambda kk, jj: (jj // NR, kk, jj % NR))
    bk, bj = sch.get_loops(pack_b)
    sch.parallel(bk)
    sch.vectorize(sch.split(bj, [None, NR])[1])  # NR contiguous floats in and out
    pack_a = sch.cache_read(c, 0, "global")
    sch.compute_at(pack_a, i0)  # each block of rows packs its own A panel, kept in L2
    sch.transform_layout(c, ("read", 0), lambda ii, kk: (ii // MR, kk, ii % MR))
    ai, ak = sch.get_loops(pack_a)[-2:]
    ai0, ai1 = sch.split(ai, [None, MR])
    sch.reorder(ai0, ak, ai1)  # MR rows' k-th floats stored side by side
    sch.unroll(ai1)
    sch.decompose_reduction(c, k)


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
