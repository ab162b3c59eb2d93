"""Schedule for ``conv2d_nchw.py``: a register tile of 4 output channels x one whole output row
(56 outputs = 7 vectors of 8) is summed over the whole window (``rc, ry, rx``) before it is
stored, so each weight, loaded once, feeds 7 vector multiply-adds and each input vector 4.

    tirc examples/conv2d_nchw.py --schedule examples/schedule_conv2d.py --emit scheduled

The output channel ``f`` is split by 4 and the row ``x`` by 8; the inner parts go below the
reduction loops, ``x``'s 8 lanes vectorized (the padded input is contiguous in x), its 7 vectors
and the 4 channels unrolled: 28 accumulators of 8 floats, which LLVM keeps in registers (the
arguments do not alias: ``tir.noalias``). The 16 channel tiles run in parallel, and so does the
padding stage over its channels; the zeroing is split off the reduction
(``decompose_reduction``). TVM's x86 conv2d recipe without the NCHWc layout change
(``examples/topi_conv2d.py`` has the same for a TE-generated conv2d).
"""

F_TILE = 4  # output channels per tile (unrolled)
X_VEC = 8   # lanes of a vector of outputs along x (56 = 7 x 8)


def schedule(sch):
    """split/reorder/vectorize/unroll/parallel/decompose_reduction on the convolution block."""
    conv = sch.get_block("conv")
    n, f, y, x, rc, ry, rx = sch.get_loops(conv)
    f0, f1 = sch.split(f, [None, F_TILE])
    x0, x1 = sch.split(x, [None, X_VEC])
    sch.reorder(n, f0, y, rc, ry, rx, f1, x0, x1)
    sch.vectorize(x1)  # before decompose_reduction: TVM only vectorizes over reduction blocks
    sch.unroll(x0)
    sch.unroll(f1)
    sch.parallel(f0)  # before decompose_reduction: a parallel loop needs compact data flow
    sch.parallel(sch.get_loops("pad")[1])  # the padding stage's channels
    sch.decompose_reduction(conv, rc)  # whose init then keeps x1's vectorized kind


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
