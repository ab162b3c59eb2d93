"""unsafe_hide_buffer_access (TVM v0.20): before/after, its two error classes, the trace round
trip (TVM's test_tir_schedule_hide_buffer_access cases, written small)."""
import pytest

from tirkit.schedule import Schedule
from tirkit.schedule.primitives.hide_buffer_access import BufTypeError, InvalidIndexError

from sched_util import check, parse

INDIRECT = parse("""
@T.prim_func
def main(A: T.Buffer((16, 4), "float32"), IDX: T.Buffer((8,), "int32"),
         C: T.Buffer((8, 4), "float32")):
    for i, j in T.grid(8, 4):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[IDX[vi], vj], IDX[vi])
            T.writes(C[vi, vj])
            C[vi, vj] = A[IDX[vi], vj]
""")


def _after(reads):
    return f"""
    @T.prim_func
    def main(A: T.Buffer((16, 4), "float32"), IDX: T.Buffer((8,), "int32"),
             C: T.Buffer((8, 4), "float32")):
        for i, j in T.grid(8, 4):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads({reads})
                T.writes(C[vi, vj])
                C[vi, vj] = A[IDX[vi], vj]
    """


def test_hide_a_read():
    sch = Schedule(INDIRECT)
    sch.unsafe_hide_buffer_access(sch.get_block("C"), "read", [1])
    check(sch, INDIRECT, _after("A[IDX[vi], vj]"))
    assert 'sch.unsafe_hide_buffer_access(block=b0, buf_type="read", buf_index_array=[1])' in \
        sch.trace.as_python()


def test_hide_all_reads():
    sch = Schedule(INDIRECT)
    sch.unsafe_hide_buffer_access(sch.get_block("C"), "read", [0, 1])
    check(sch, INDIRECT, _after(""))


@pytest.mark.parametrize("buf_type,indices,error,text", [
    ("reads", [0], BufTypeError, "got 'reads' instead"),
    ("read", [2], InvalidIndexError, "between 0 and 1, got 2"),
    ("write", [-1], InvalidIndexError, "between 0 and 0, got -1"),
])
def test_hide_errors(buf_type, indices, error, text):
    sch = Schedule(INDIRECT)
    c = sch.get_block("C")
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(error) as info:
        sch.unsafe_hide_buffer_access(c, buf_type, indices)
    assert text in str(info.value) and 'block "C"' in str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n
