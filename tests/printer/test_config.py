"""Printer options (``PrinterConfig``): underline, line numbers, prefixes, indentation, sugar,
dialect, line wrapping and comments."""
from __future__ import annotations

import pytest

from tirkit import tir
from tirkit.ir import structural_equal
from tirkit.printer import Comments, script

from printer_util import parse

SRC = '''
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "f"})
    for i in range(4):
        A[i] = A[i] + T.float32(1)
    for j in range(2):
        A[j] = T.float32(0)
'''


@pytest.fixture(name="func")
def _func() -> tir.PrimFunc:
    return parse(SRC)


def test_underline_expression(func: tir.PrimFunc) -> None:
    # the layout of TVM 0.27's ``script(obj_to_underline=[store.value])``
    store = func.body.seq[0].body
    assert script(func, obj_to_underline=[store.value]) == '''\
# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = A[i] + T.float32(1.0)
               ^^^^^^^^^^^^^^^^^^^^^
    for j in range(2):
        A[j] = T.float32(0.0)'''


def test_underline_statement_and_path(func: tir.PrimFunc) -> None:
    loop = func.body.seq[0]
    expected = '''\
    for i in range(4):
    ^^^^^^^^^^^^^^^^^^
        A[i] = A[i] + T.float32(1.0)
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    for j in range(2):'''
    assert expected in script(func, obj_to_underline=[loop])
    assert expected in script(func, path_to_underline=[("body", "seq", 0)])


def test_line_numbers(func: tir.PrimFunc) -> None:
    lines = script(func, print_line_numbers=True, obj_to_underline=[func.body.seq[1]]).split("\n")
    assert lines[0] == "1 # from tvm.script import tir as T"
    assert lines[5] == "6         A[i] = A[i] + T.float32(1.0)"
    assert lines[6] == "7     for j in range(2):"
    assert lines[7] == "      ^^^^^^^^^^^^^^^^^^"


def test_prefixes_and_indent(func: tir.PrimFunc) -> None:
    text = script(func, tir_prefix="tir", indent_spaces=2)
    assert "# from tvm.script import tir as tir\n" in text
    assert "\n  for i in range(4):\n    A[i] = A[i] + tir.float32(1.0)" in text


def test_dtype_defaults() -> None:
    x = tir.Var("x", "int64")
    assert script(x + tir.IntImm("int64", 1), int_dtype="int64") == "x + 1"
    assert script(tir.FloatImm("float32", 2.0), float_dtype="float32") == "2.0"


def test_tirx_dialect() -> None:
    func = parse('''
@T.prim_func
def g(A: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("b"):
            vi = T.axis.spatial(8, i)
            T.block_attr({"k": 1})
            A[vi] = T.float32(0)
''')
    text = script(func, dialect="tirx")
    assert text.startswith("# from tvm.script import tirx as T\n\n@T.prim_func(s_tir=True)\n"
                           "def g(")
    assert 'with T.sblock("b"):' in text and 'T.sblock_attr({"k": 1})' in text
    assert '# with T.sblock("root"):' in text
    again = parse(text, "tirx")
    assert structural_equal(again, func)
    assert script(again) == script(func)


def test_no_syntax_sugar(func: tir.PrimFunc) -> None:
    text = script(func, syntax_sugar=False)
    assert "def f(A_1: T.handle):" in text or "def f(A: T.handle):" in text
    assert "T.match_buffer(" in text
    assert structural_equal(parse(text), func)


def test_line_wrapping() -> None:
    n = tir.Var("n", "int32")
    long_call = tir.call_extern("float32", "a_rather_long_external_function_name",
                                *[n * k + 12345 for k in range(1, 8)])
    stmt = tir.Evaluate(long_call)
    flat = script(stmt)
    assert "\n" not in flat.split("\n", 1)[1]  # no wrapping by default (as TVM)
    wrapped = script(stmt, line_length=60)
    assert wrapped == '''\
n = T.int32()
T.call_extern(
    "float32",
    "a_rather_long_external_function_name",
    n + 12345,
    n * 2 + 12345,
    n * 3 + 12345,
    n * 4 + 12345,
    n * 5 + 12345,
    n * 6 + 12345,
    n * 7 + 12345
)'''
    assert all(len(line) <= 60 for line in wrapped.split("\n"))


def test_wrapped_function_parses_back(func: tir.PrimFunc) -> None:
    text = script(func, line_length=30)
    assert max(len(line) for line in text.split("\n")) > 0
    again = parse(text)
    assert structural_equal(again, func)
    assert script(again, line_length=30) == text


def test_comments_by_node_and_span(func: tir.PrimFunc) -> None:
    loop0, loop1 = func.body.seq
    comments = {loop0: Comments(["add one", ""], ["hot loop"]),
                loop1.body: ["zero the head"]}
    text = script(func, comments=comments)
    assert '''\
    # add one
    #
    for i in range(4):  # hot loop
        A[i] = A[i] + T.float32(1.0)
    for j in range(2):
        # zero the head
        A[j] = T.float32(0.0)''' in text
    by_span = script(func, comments={loop1.span: "second"})
    assert "    # second\n    for j in range(2):" in by_span
    assert structural_equal(parse(text), func)


def test_unknown_option() -> None:
    with pytest.raises(TypeError, match="unknown printer option"):
        script(tir.Var("x", "int32"), colour=True)


def test_metadata_reference() -> None:
    class Opaque:  # an object with no TVMScript form
        def __repr__(self) -> str:
            return "Opaque()"
    text = script(tir.AttrStmt(Opaque(), "pragma", 0, tir.Evaluate(0)))
    assert 'T.attr(metadata["Opaque"][0], "pragma", 0)' in text
    assert "# Metadata omitted" in text
    assert '# metadata["Opaque"][0] = Opaque()' in script(
        tir.AttrStmt(Opaque(), "pragma", 0, tir.Evaluate(0)), show_meta=True)
