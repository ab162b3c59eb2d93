"""TVM 0.27 spellings (its own tests, tests/python/tirx-*) that tirkit reads into the IR TVM v0.20
spells differently; each checked against the v0.20 spelling and read back after printing."""
from __future__ import annotations

import pytest

from tirkit.ir import structural_equal
from tirkit.lang import from_source, parse_file
from tirkit.printer import script

HEAD = "from tvm.script import tir as T\n\n\n"


def _parse(body: str):
    (unit,) = parse_file(HEAD + body, "t.py")
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    assert structural_equal(from_source(script(unit.ir)), unit.ir)
    return unit.ir


def test_decl_buffer_data_may_be_a_pointer_expression():
    """TVM 0.27 (tests/python/tirx-base/test_tir_specialize.py): ``T.decl_buffer(16, data=
    T.address_of(A[16]))``; tirkit crashed on it (AttributeError: 'Call' object has no attribute
    'name_hint'). The pointer is bound to a var first, TVM v0.20's spelling of the same."""
    new = _parse('''@T.prim_func(private=True)
def f(A_data: T.handle("float32")):
    A_buf = T.decl_buffer(32, "float32", data=A_data)
    B_buf = T.decl_buffer(16, "float32", data=T.address_of(A_buf[16]))
    for i in range(16):
        B_buf[i] = A_buf[i] * 2.0
''')
    old = _parse('''@T.prim_func(private=True)
def f(A_data: T.handle("float32")):
    A_buf = T.decl_buffer(32, "float32", data=A_data)
    B_data: T.handle("float32") = T.address_of(A_buf[16])
    B_buf = T.decl_buffer(16, "float32", data=B_data)
    for i in range(16):
        B_buf[i] = A_buf[i] * 2.0
''')
    assert structural_equal(new, old)
    assert "B_buf_data: T.handle" in script(new) and "B_buf = T.decl_buffer((16,), " \
        "data=B_buf_data)" in script(new)


@pytest.mark.parametrize("data", ["T.float32(1.0)", "A_buf[0]"])
def test_decl_buffer_data_that_is_not_a_pointer_is_one_diagnostic(data):
    (unit,) = parse_file(HEAD + f'''@T.prim_func
def f(A_buf: T.Buffer((32,), "float32")):
    B = T.decl_buffer(16, "float32", data={data})
    B[0] = 1.0
''', "t.py")
    assert [d.code for d in unit.diagnostics] == ["bad-argument"]
    assert "data must be a pointer" in unit.diagnostics[0].message
