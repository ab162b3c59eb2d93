"""Schedule for ``matmul_naive.py`` in the GEMM style of BLAS libraries: produces the kernel of
``matmul_packed.py``.

    tirc examples/matmul_naive.py --schedule examples/schedule_matmul_packed.py --emit scheduled

C is computed in micro-tiles of MR x NR (4 x 64 float32: sixteen 512-bit accumulators,
enough to cover the FMA latency on two FMA ports) that stay in registers over a pass of KC steps
of k; per k step the tile loads four vectors of B and broadcasts four floats of A for sixteen
FMAs (eight loads where an 8 x 32 tile needs ten: 3-5% faster, single-threaded). A and B
are packed first (``cache_read`` + ``transform_layout``) so that the tile's k-th step reads MR
consecutive floats of A and NR consecutive floats of B: B as ``[j // NR, k, j % NR]`` panels, A
as ``[i // MR, k, i % MR]``. k is split in passes of KC = 128 steps: a pass over one B
micro-panel (KC x NR floats, 32 KiB) walks all MB tiles of a block of rows, so the micro-panel
is read from L1, the block's packed A (MB * MR rows) from L2. Blocks of rows run in parallel;
each packs its own rows of A (``compute_at``), B is packed once, in parallel. Between passes
the tiles live in C_global (``cache_write`` for the whole block of rows, 1 MiB, tile by tile
contiguous: ``[i // MR, j // NR, i % MR, j % NR]``), so that a tile's loads and stores hit
64-byte-aligned consecutive lines rather than 4 rows of C 4 KiB apart (which share L1 sets);
C_global goes to C row by row after the block. LLVM keeps the tile in registers because the
workspace buffers carry alias information of their own. The same TIR is what the side-by-side
bench runs under TVM (``bench/compare.py``, kernel ``matmul_packed``).

Measured on a 2-core AVX-512 Xeon (2 MiB L2 per core; interleaved rounds in one process,
medians, an A/B of the schedule's constants): single-threaded 1.02x the time of NumPy's
OpenBLAS ``@`` (8 x 32 tiles of 128-row blocks: 1.04-1.10x), with 2 threads 0.97-0.99x (8 x 32:
1.18x); the first versions were 1.19x (8 x 16 tiles over all of k).
"""

MR = 4    # rows of a micro-tile (unrolled)
NR = 64   # columns of a micro-tile (four 16-lane vectors)
MB = 64   # micro-tiles of rows per parallel block (MB * MR = 256 rows)
KC = 128  # k steps per pass over a B micro-panel (KC * NR floats = 32 KiB: stays in L1)


def schedule(sch):
    """Apply the schedule to ``sch`` (a ``tirkit.schedule.Schedule`` of the naive matmul)."""
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i0, i1, i2 = sch.split(i, [None, MB, MR])
    j0, j1 = sch.split(j, [None, NR])
    k0, k1 = sch.split(k, [None, KC])
    sch.reorder(i0, j0, k0, i1, k1, i2, j1)
    tiles = sch.cache_write(c, 0, "global")
    sch.reverse_compute_at(tiles, i0)  # the block's C_global goes to C after its last pass
    sch.vectorize(sch.split(sch.get_loops(tiles)[-1], [None, NR])[1])
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
    sch.transform_layout(c, ("write", 0), lambda ii, jj: (ii // MR, jj // NR, ii % MR, jj % NR))
    sch.decompose_reduction(c, k0)  # zero the tile in C_global before the first pass


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
