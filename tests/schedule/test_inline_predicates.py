"""reverse_compute_inline and block predicates (TVM's ``ReverseComputeInliner``
``BuildInlinedConsumerPredicate``): a consumer over a smaller domain than its producer makes the
producer predicated; a producer predicate the new one does not imply is
``ProducerHasNonTrivialPredicateError``; a predicated consumer is a ``BodyAnalysisError``."""
import numpy as np
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import check, parse

SMALLER_CONSUMER = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((127, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(127, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")

INLINED = """
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((127, 128), "float32")):
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.where(i < 127)
            C[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
"""


def test_reverse_compute_inline_into_a_larger_producer_adds_the_consumer_bound():
    # before this the producer wrote C[127, :], one row past the end of C
    sch = Schedule(SMALLER_CONSUMER)
    sch.reverse_compute_inline("C")
    check(sch, SMALLER_CONSUMER, INLINED)


def test_the_inlined_predicate_keeps_the_numbers():
    from tirkit.compiler import build
    sch = Schedule(SMALLER_CONSUMER)
    sch.reverse_compute_inline("C")
    a = np.random.default_rng(0).random((128, 128), dtype=np.float32)
    want = np.zeros((127, 128), np.float32)
    got = np.zeros((127, 128), np.float32)
    build(SMALLER_CONSUMER)(a, want)
    build(sch.mod)(a, got)
    np.testing.assert_allclose(got, a[:127] * 2 + 1, rtol=1e-6)
    np.testing.assert_allclose(got, want, rtol=1e-6)


PREDICATED_PRODUCER = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((127, 128), "float32")):
    B = T.alloc_buffer((127, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.where(i < 127)
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(127, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def test_reverse_compute_inline_into_a_predicated_producer():
    # TVM's test_reverse_compute_inline_producer_predicate_allowed: i < 127 implies i < 127
    sch = Schedule(PREDICATED_PRODUCER)
    sch.reverse_compute_inline("C")
    check(sch, PREDICATED_PRODUCER, INLINED)


def test_a_producer_predicate_that_the_new_one_does_not_imply():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((8,), "float32")):
        B = T.alloc_buffer((16,))
        for i, k in T.grid(16, 2):
            with T.block("B"):
                vi, vk = T.axis.remap("SS", [i, k])
                T.where(k < 1)
                B[vi] = A[vi] + T.Cast("float32", vk)
        for i in range(8):
            with T.block("C"):
                vi = T.axis.spatial(8, i)
                C[vi] = B[vi] * T.float32(2)
    """)
    sch = Schedule(func)
    c = sch.get_block("C")
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(errors.ProducerHasNonTrivialPredicateError) as info:
        sch.reverse_compute_inline(c)
    msg = str(info.value)
    assert 'block "B"' in msg and "k < 1" in msg and "i < 8" in msg, msg
    assert sch.mod is mod and len(sch.trace.insts) == n


def test_a_predicated_consumer_is_a_body_analysis_error():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                T.where(i < 8)
                C[vi] = B[vi] * T.float32(2)
    """)
    sch = Schedule(func)
    mod = sch.mod
    with pytest.raises(errors.BodyAnalysisError, match='block "C".*predicate'):
        sch.reverse_compute_inline("C")
    assert sch.mod is mod
