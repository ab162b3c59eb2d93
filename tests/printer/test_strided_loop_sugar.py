"""``PrinterConfig(strided_loops=True)`` (issue 16, seed 003's wish): a loop parsed from
``range(start, stop, step)`` / ``T.serial(start, stop, step)`` prints back as the strided
loop and re-parses to the same IR; loops whose var is used otherwise print as unit-stride."""
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.printer import script

SRC = '''from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((64,), "float32")):
    for i in range(2, 63, 4):
        A[i] = A[i] + A[i + 1]
    for j in range(0, 16, 3):
        A[j] = T.float32(0.0)
    for k in T.vectorized(0, 7, 2):
        A[k] = T.float32(1.0)
    for q in range(4):
        A[q * 4] = A[q]'''


def test_strided_loops_print_back_and_round_trip():
    func = from_source(SRC)
    text = script(func, strided_loops=True)
    assert text.split("\n", 2)[2] == SRC.split("\n", 2)[2]
    assert_structural_equal(from_source(text), func)


def test_default_prints_the_unit_stride_loop_as_tvm_does():
    text = script(from_source(SRC))
    assert "for i in range(16):" in text and "A[2 + i * 4] = A[2 + i * 4] + A[2 + i * 4 + 1]" in text
    assert "for j in range(6):" in text and "A[j * 3] = T.float32(0.0)" in text


def test_a_stop_that_is_not_reached_exactly_still_round_trips():
    func = from_source(SRC.replace("range(2, 63, 4)", "T.serial(2, 64, 4)"))
    text = script(func, strided_loops=True)
    assert "for i in range(2, 63, 4):" in text  # the smallest stop with the same iterations
    assert_structural_equal(from_source(text), func)
