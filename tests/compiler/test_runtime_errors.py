"""Run-time errors in source terms (issue 13): a failed bound check in a compiled kernel names
the buffer, the flat index and the values of the variables of the index expression, the size,
and the source position of the access with its line, never CSE temporaries. Real builds, real
JIT runs."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.lang import from_source

SHIFT = '''from tvm.script import tir as T


@T.prim_func
def shift(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    T.func_attr({"global_symbol": "shift"})
    for i in range(64):
        with T.block("B"):
            vi = T.axis.spatial(64, i)
            B[vi] = A[vi + 1] * A[vi + 1] + A[vi]
'''

ROWS = '''from tvm.script import tir as T


@T.prim_func
def rows(A: T.Buffer((8, 16), "float32"), B: T.Buffer((8, 16), "float32")):
    T.func_attr({"global_symbol": "rows"})
    for i, j in T.grid(9, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
'''

CHECKED = {"tir.instrument_bound_checkers": True}


def _fail(source, tmp_path, *arrays):
    path = tmp_path / "kernel.py"
    path.write_text(source)
    kernel = build(from_source(source, str(path)), config=CHECKED)
    with pytest.raises(RuntimeError) as info:
        kernel(*arrays)
    return str(info.value), path


def test_read_out_of_bounds_names_buffer_index_values_and_line(tmp_path):
    a, b = np.zeros(64, "float32"), np.zeros(64, "float32")
    message, path = _fail(SHIFT, tmp_path, a, b)
    first = message.split("\n")[0]
    assert first.startswith("shift: OUT OF THE BOUNDS: A[64] is read out of its 64 elements")
    assert "(index i + 1 with i = 63)" in first and f"at {path}:10:21" in first
    assert "cse_var" not in message and "Assert fail" not in message
    source_line, caret = message.split("\n")[1:3]
    assert source_line.strip() == "B[vi] = A[vi + 1] * A[vi + 1] + A[vi]"
    assert caret.index("^") == source_line.index("A[vi + 1]")


def test_write_out_of_bounds_of_a_2d_buffer(tmp_path):
    a, b = np.zeros((8, 16), "float32"), np.zeros((8, 16), "float32")
    message, path = _fail(ROWS, tmp_path, a, b)
    first = message.split("\n")[0]
    # the read of A fails first: row 8, column 0 of an 8x16 buffer is flat index 128
    assert "A[128] is read out of its 128 elements" in first
    assert "i = 8" in first and "j = 0" in first and f"at {path}:10:25" in first
    assert "cse_var" not in message


def test_in_bounds_kernel_still_runs_checked(tmp_path):
    ok = SHIFT.replace("A[vi + 1] * A[vi + 1] + A[vi]", "A[vi] * T.float32(3)")
    kernel = build(from_source(ok), config=CHECKED)
    a = np.arange(64, dtype="float32")
    b = np.zeros(64, "float32")
    kernel(a, b)
    np.testing.assert_array_equal(b, a * 3)


USER_ASSERT = '''from tvm.script import tir as T


@T.prim_func
def check(A: T.Buffer((64,), "float32"), n: T.int32):
    T.func_attr({"global_symbol": "check"})
    for i in range(64):
        assert (i * n + 7) * (i * n + 7) < 1000, "the square must stay below 1000"
        A[i] = A[i] + T.float32(1)
'''


def test_user_assertion_shows_condition_values_and_line_without_temporaries(tmp_path):
    path = tmp_path / "check.py"
    path.write_text(USER_ASSERT)
    kernel = build(from_source(USER_ASSERT, str(path)))
    with pytest.raises(RuntimeError) as info:
        kernel(np.zeros(64, "float32"), 3)
    message = str(info.value)
    first = message.split("\n")[0]
    # i = 9 is the first i with (3i + 7)^2 >= 1000 (31^2 = 961, 34^2 = 1156)
    assert first.startswith("check: Assert fail: (i * n + 7) * (i * n + 7) < 1000 with i = 9,"
                            " n = 3, the square must stay below 1000"), first
    assert first.endswith(f"at {path}:8:9") and "cse_var" not in message
    assert message.split("\n")[1].strip().startswith("assert (i * n + 7) * (i * n + 7) < 1000")



# the examples' schedule fuzzer (matmul.py, bound-checked builds): fuse i, j and vectorize the
# fused loop around k; A's flat index (f // 24) * 24 + k is a vector that is not a Ramp, and the
# bound checker cast it to an int64 scalar (TypeError: lane counts differ) instead of checking
GATHER = '''
@T.prim_func
def main(A: T.Buffer((N,), "float32"), B: T.Buffer((16,), "float32")):
    for f in T.vectorized(16):
        with T.block("B"):
            vf = T.axis.remap("S", [f])
            B[vf] = A[vf // 2]
'''


@pytest.mark.parametrize("n", [8, 7])
def test_a_vector_index_that_is_not_a_ramp_is_checked_lane_by_lane(n):
    kernel = build(from_source(GATHER.replace("N", str(n))), config=CHECKED)
    a, b = np.arange(n, dtype="float32"), np.zeros(16, "float32")
    if n == 8:
        kernel(a, b)
        np.testing.assert_array_equal(b, np.repeat(a, 2))
        return
    with pytest.raises(RuntimeError, match=r"A\[.*\] is read out of its 7 elements"):
        kernel(a, b)


def test_a_tirx_assert_with_an_error_kind_and_parts_reports_both(tmp_path):
    """TVM 0.27's ``assert cond, ("ValueError", [parts])`` compiles and fails with the kind
    before the joined parts, raised as that exception type as TVM 0.27 raises it (a class
    deriving from ValueError and RuntimeError, so `except RuntimeError` still catches it)."""
    source = '''from tvm.script import tirx as T


@T.prim_func
def check(A: T.Buffer((4,), "float32"), n: T.int32):
    assert n == 4, ("ValueError", ["Expected shape ", "4", " but got ", "another"])
    A[0] = T.float32(1)
'''
    kernel = build(from_source(source, str(tmp_path / "check.py")))
    a = np.zeros(4, "float32")
    kernel(a, 4)
    assert a[0] == 1
    with pytest.raises(ValueError) as info:
        kernel(a, 5)
    assert isinstance(info.value, RuntimeError)
    assert "ValueError: Expected shape 4 but got another" in str(info.value)


@pytest.mark.parametrize("kind,raised", [("IndexError", IndexError), ("TypeError", TypeError),
                                         ("RuntimeError", RuntimeError),
                                         ("NoSuchError", RuntimeError)])
def test_a_tirx_assert_raises_its_kind_when_python_has_it(tmp_path, kind, raised):
    source = f'''from tvm.script import tirx as T


@T.prim_func
def check(n: T.int32):
    assert n < 3, ("{kind}", ["n is ", "too large"])
'''
    kernel = build(from_source(source, str(tmp_path / "check.py")))
    kernel(2)
    with pytest.raises(RuntimeError) as info:
        kernel(7)
    assert type(info.value) is raised or (isinstance(info.value, raised)
                                          and type(info.value).__name__ == kind)
    assert "n is too large" in str(info.value)
