"""Schedule for ``conv2d_nchw.py``: split the output row x by 8 and make it the innermost loop,
so every multiply-add works on 8 neighbouring outputs at once (the padded input is contiguous in
x) and zero the outputs before the reduction loops (the init copies the vector loop).

    tirc examples/conv2d_nchw.py --schedule examples/schedule_conv2d.py --emit scheduled
"""


def schedule(sch):
    """split/reorder/decompose_reduction/vectorize on the convolution block."""
    conv = sch.get_block("conv")
    n, f, y, x, rc, ry, rx = sch.get_loops(conv)
    x0, x1 = sch.split(x, [None, 8])
    sch.reorder(n, f, y, x0, rc, ry, rx, x1)
    sch.vectorize(x1)  # before decompose_reduction: TVM only vectorizes over reduction blocks
    sch.decompose_reduction(conv, rc)  # whose init then keeps x1's vectorized kind


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
