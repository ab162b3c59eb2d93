"""Schedule for ``matmul_naive.py``: produces the kernel of ``matmul_scheduled.py``.

    tirc examples/matmul_naive.py --schedule examples/schedule_matmul.py --emit scheduled

Tiles i by 8x4 and j by 64 (a 32x64 block of C per (i0, j0)), splits k by 256 so a panel of B
stays in cache, orders the loops i0 j0 k0 i1 k1 i2 j1, runs rows of tiles in parallel, makes the
64 columns one vector, moves the zeroing of C out of the k loops and unrolls the 4 rows.
"""


def schedule(sch):
    """Apply the schedule to ``sch`` (a ``tirkit.schedule.Schedule`` of the naive matmul)."""
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i0, i1, i2 = sch.split(i, [None, 8, 4])
    j0, j1 = sch.split(j, [None, 64])
    k0, k1 = sch.split(k, [None, 256])
    sch.reorder(i0, j0, k0, i1, k1, i2, j1)
    sch.parallel(i0)
    sch.vectorize(j1)
    sch.decompose_reduction(c, k0)
    sch.unroll(i2)


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
