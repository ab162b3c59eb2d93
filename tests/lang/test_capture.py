"""``@T.prim_func(capture=[...])`` (seed 001 F4: host functions interleaved with TIR, captured
explicitly): in decorator mode the captured values are in scope and a host helper runs at parse
time; in static mode (nothing of the file runs) each captured value used is one information
note, never an error, and the unit has no IR."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.ir.diagnostics import Severity
from tirkit.lang import from_source, parse_file
from tirkit.lang import tir as T


def get_box_coordinates(output, batch_idx, box_idx):
    """A method executed by the Python interpreter (seed 001): PrimExprs of a box's corners."""
    box_l = T.min(output[batch_idx, box_idx, 0], output[batch_idx, box_idx, 2])
    box_r = T.max(output[batch_idx, box_idx, 0], output[batch_idx, box_idx, 2])
    return box_l, box_r


@T.prim_func(capture=[get_box_coordinates])
def widths(output: T.Buffer((2, 3, 4), "float32"), out: T.Buffer((2, 3), "float32")):
    for i, j in T.grid(2, 3):
        a_l, a_r = get_box_coordinates(output, i, j)
        out[i, j] = a_r - a_l


EXPECTED = '''
from tvm.script import tir as T

@T.prim_func
def widths(output: T.Buffer((2, 3, 4), "float32"), out: T.Buffer((2, 3), "float32")):
    for i, j in T.grid(2, 3):
        a_l: T.float32 = T.min(output[i, j, 0], output[i, j, 2])
        a_r: T.float32 = T.max(output[i, j, 0], output[i, j, 2])
        out[i, j] = a_r - a_l
'''


def test_captured_host_helper_runs_at_parse_time_and_the_kernel_runs():
    assert_structural_equal(widths, from_source(EXPECTED))
    boxes = np.random.default_rng(0).standard_normal((2, 3, 4)).astype("float32")
    out = np.empty((2, 3), "float32")
    build(widths)(boxes, out)
    np.testing.assert_allclose(out, np.abs(boxes[..., 2] - boxes[..., 0]), rtol=1e-6)


def test_a_dict_capture_binds_a_name_nothing_else_defines():
    @T.prim_func(capture={"SCALE": T.float32(3)})
    def scaled(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = A[i] * SCALE  # noqa: F821  (bound only by the capture)

    a = np.arange(4, dtype="float32")
    build(scaled)(a)
    np.testing.assert_array_equal(a, [0, 3, 6, 9])


def test_a_capture_without_a_name_is_a_clear_error():
    with pytest.raises(TypeError, match="has no __name__; pass a dict"):
        T.prim_func(capture=[3])(lambda: None)


STATIC = '''from tvm.script import tir as T

def get_box(output, i):
    return T.min(output[i, 0], output[i, 2])

@T.prim_func(capture=[get_box])
def nms(output: T.Buffer((4, 4), "float32"), out: T.Buffer((4,), "float32")):
    for i in range(4):
        out[i] = get_box(output, i) + get_box(output, i)

@T.prim_func(capture=[get_box])
def unused(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(1)
'''


def test_static_mode_reports_a_captured_helper_once_as_a_note_at_its_use():
    units = {u.name: u for u in parse_file(STATIC, "nms.py")}
    (note,) = units["nms"].diagnostics
    assert note.severity == Severity.INFO
    assert note.message.startswith("depends on the captured host value `get_box`")
    line = STATIC.splitlines()[note.span.line - 1]
    assert line[note.span.column:note.span.end_column] == "get_box"
    assert units["nms"].ir is None and units["nms"].captures == ("get_box",)
    assert not units["unused"].diagnostics and units["unused"].ir is not None
