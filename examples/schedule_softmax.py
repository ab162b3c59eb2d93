"""Schedule for ``softmax.py``: compute the row max and the exp-sum of a row right before the
row is normalised (one pass over a row while it is in L1 instead of three passes over 16 MiB),
and vectorize the normalisation.

    tirc examples/softmax.py --schedule examples/schedule_softmax.py --emit scheduled
"""


def schedule(sch):
    """compute_at the two reductions into the normalisation's row loop; vectorize it."""
    norm = sch.get_block("norm")
    i, j = sch.get_loops(norm)
    sch.compute_at(sch.get_block("expsum"), i)
    sch.compute_at(sch.get_block("maxelem"), i)
    sch.vectorize(j)


if __name__ == "__main__":  # apply to its kernel, print the trace, check against NumPy, time
    import run_example
    raise SystemExit(run_example.run_schedule(__file__))
