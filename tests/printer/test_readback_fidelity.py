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


def test_tirx_view_sugar_is_tvm_027s() -> None:
    """A DeclBuffer over another buffer's data prints as TVM 0.27's ``TryDeclBufferSugar``
    (tools/tvm027_roundtrip.py: TVM 0.27 refused tirkit's ``data.view(512, dtype="float16")``,
    its ``view`` takes no dtype keyword): another dtype is ``data.view("float16")`` (the shape
    follows from the bit widths), another shape ``data.view(32, 32)``, the same shape and dtype
    or a shape view(dtype) does not give a ``T.decl_buffer``; tirkit reads ``view(dtype)``
    back as TVM does. The expected lines are TVM 0.27's print of this function."""
    text = _roundtrip('''from tvm.script import tirx as T
@T.prim_func(s_tir=True)
def f():
    data = T.alloc_buffer((1024,), "int8")
    A = T.decl_buffer([1024], "int8", data=data.data)
    B = T.decl_buffer([512], "float16", data=data.data)
    D = T.decl_buffer([32, 32], "int8", data=data.data)
    E = T.decl_buffer([100], "float16", data=data.data)
    for i in range(10):
        A[i] = A[i] + T.int8(1)
        B[i] = B[i] + T.float16(1)
        D[0, i] = D[0, i] + T.int8(1)
        E[i] = E[i] + T.float16(1)
''', "tirx")
    assert '''
    A = T.decl_buffer((1024,), "int8", data=data.data)
    B = data.view("float16")
    D = data.view(32, 32)
    E = T.decl_buffer((100,), "float16", data=data.data)
''' in text, text
