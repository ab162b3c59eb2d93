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


@pytest.mark.parametrize("dialect", ["tir", "tirx"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_free_buffer_is_declared_once_at_the_enclosing_frame(name: str, dialect: str) -> None:
    body, expected = CASES[name]
    func = from_source(_HEAD + body)
    text = func.script(dialect=dialect)
    assert text.split("\n", 4)[4] == expected, text  # after the import, @T.prim_func, def
    again = from_source(text)
    assert structural_equal(again, func), first_mismatch(again, func)
