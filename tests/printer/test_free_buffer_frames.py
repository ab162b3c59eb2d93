"""Where a free buffer (``A = T.Buffer(..., data=p)`` in a body) is declared: once, at the
innermost frame enclosing all its uses (TVM's ``FindLowestVarDef``). The frames of an ``if``'s
branches are keyed by the branch statements, as TVM 0.27's printer keys them
(``With<TIRFrame> f(d, stmt->then_case)``): a buffer of both branches is declared before the
``if`` -- printed in each branch, it read back as two buffers -- and one of a single branch
inside it. The expected lines are TVM 0.27's (which drops ``data=p`` from these declarations)."""
from __future__ import annotations

import pytest

from tirkit.ir import first_mismatch, structural_equal
from tirkit.lang import from_source

_HEAD = '''from tvm.script import tir as T
@T.prim_func
def f(p: T.handle("float32"), n: T.int32):
    A = T.Buffer((16,), data=p)
'''

#: unit -> (body, the printed body TVM 0.27 gives, with data=p)
CASES = {
    "both_branches": ('''\
    if n > 0:
        A[0] = T.float32(1)
    else:
        A[1] = T.float32(2)
''', '''\
    A = T.Buffer((16,), data=p)
    if n > 0:
        A[0] = T.float32(1.0)
    else:
        A[1] = T.float32(2.0)'''),
    "then_branch_only": ('''\
    if n > 0:
        A[0] = T.float32(1)
    else:
        T.evaluate(0)
''', '''\
    if n > 0:
        A = T.Buffer((16,), data=p)
        A[0] = T.float32(1.0)
    else:
        T.evaluate(0)'''),
    "branches_in_a_loop": ('''\
    for i in range(4):
        if n > 0:
            A[i] = T.float32(1)
        else:
            A[i + 1] = T.float32(2)
''', '''\
    for i in range(4):
        A = T.Buffer((16,), data=p)
        if n > 0:
            A[i] = T.float32(1.0)
        else:
            A[i + 1] = T.float32(2.0)'''),
    "nested_if": ('''\
    if n > 0:
        if n > 1:
            A[0] = T.float32(1)
        else:
            A[2] = T.float32(1)
    else:
        T.evaluate(0)
''', '''\
    if n > 0:
        A = T.Buffer((16,), data=p)
        if n > 1:
            A[0] = T.float32(1.0)
        else:
            A[2] = T.float32(1.0)
    else:
        T.evaluate(0)'''),
}


def _read(text: str, dialect: str) -> object:
    """``text`` read back in ``dialect`` (its printed import line is a comment)."""
    return from_source(f"from tvm.script import {dialect} as T\n" + text)


@pytest.mark.parametrize("dialect", ["tir", "tirx"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_free_buffer_is_declared_once_at_the_enclosing_frame(name: str, dialect: str) -> None:
    body, expected = CASES[name]
    func = from_source(_HEAD + body)
    text = func.script(dialect=dialect)
    assert text.split("\n", 4)[4] == expected, text  # after the import, @T.prim_func, def
    again = _read(text, dialect)
    assert structural_equal(again, func), first_mismatch(again, func)


_FREE_DATA = '''from tvm.script import tir as T
@T.prim_func(check_well_formed=False)
def f():
    data_ptr = T.handle("float32")
    buf = T.decl_buffer(shape=[1], dtype="float32", data=data_ptr{extra})
    T.evaluate(buf[0])
'''


@pytest.mark.parametrize("dialect", ["tir", "tirx"])
@pytest.mark.parametrize("extra", ["", ", elem_offset=off"])
def test_free_data_var_of_a_decl_buffer_is_defined_on_its_own_line(extra: str,
                                                                    dialect: str) -> None:
    """A DeclBuffer of a data var that nothing defines (IR TVM's tests build with
    check_well_formed=False) prints ``data_ptr = T.handle(...)`` before it, as TVM 0.27 does
    (``BufferVarDefinition::None``); it printed ``buf = buf.view(1)`` (tirx) or a
    ``T.decl_buffer`` without ``data=``, read back as an allocation."""
    src = _FREE_DATA.format(extra=extra)
    if extra:
        src = src.replace("    data_ptr", "    off = T.int32()\n    data_ptr")
    func = from_source(src)
    text = func.script(dialect=dialect)
    assert '    data_ptr = T.handle("float32", "global")\n' in text or \
        'data_ptr, off = T.handle("float32", "global"), T.int32()\n' in text, text
    assert "data=data_ptr" in text, text
    again = _read(text.replace("@T.prim_func", "@T.prim_func(check_well_formed=False)"), dialect)
    assert structural_equal(again, func, map_free_vars=True), first_mismatch(again, func, True)
