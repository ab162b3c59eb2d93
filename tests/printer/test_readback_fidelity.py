"""IR whose printed text read back to another IR (found by tools/printer_roundtrip.py over TVM's
tirx test suite): each case prints as TVM 0.27 prints it and reads back structurally equal, in
both dialects."""
from __future__ import annotations

import pytest

from tirkit.ir import first_mismatch, structural_equal
from tirkit.lang import from_source


def _roundtrip(src: str, dialect: str) -> str:
    func = from_source(src)
    text = func.script(dialect=dialect)
    again = from_source(f"from tvm.script import {dialect} as T\n" + text)
    assert structural_equal(again, func), (text, first_mismatch(again, func))
    return text


@pytest.mark.parametrize("dialect", ["tir", "tirx"])
@pytest.mark.parametrize("shape", ["(128,)", "()"])
def test_zero_elem_offset_of_another_dtype_than_the_index_dtype(shape: str, dialect: str) -> None:
    """``elem_offset=T.int64(0)`` on a buffer of int32 dims (TVM's rfactor tests): TVM 0.27
    prints a zero offset whose dtype is not the buffer's index dtype (``DefaultIndexType``: the
    first dim's, int32 for rank 0); the classic printer dropped it, so it read back int32."""
    text = _roundtrip(f'''from tvm.script import tir as T
@T.prim_func
def f():
    B = T.alloc_buffer({shape}, elem_offset=T.int64(0))
    T.evaluate(0)
''', dialect)
    assert "elem_offset=T.int64(0)" in text, text
