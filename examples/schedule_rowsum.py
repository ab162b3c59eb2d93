"""Schedule for ``rowsum.py``: rfactor the row reduction so 16 partial sums per row are kept in
one vector register, then add the 16 lanes up (float addition is not reassociated by LLVM, so
the plain loop stays scalar).

    tirc examples/rowsum.py --schedule examples/schedule_rowsum.py --emit scheduled
"""


def schedule(sch):
    """rfactor + vectorize + decompose_reduction on the rowsum kernel."""
    b = sch.get_block("B")
    _, k = sch.get_loops(b)
    _, k1 = sch.split(k, [None, 16])
    rf = sch.rfactor(k1, factor_axis=1)
    _, k0, k1 = sch.get_loops(rf)
    sch.vectorize(k1)
    sch.decompose_reduction(rf, k0)


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
