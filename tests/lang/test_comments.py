"""Comments attached to IR statements (contract 4, tirkit.lang.comments): placement rules,
printing back in place, and survival across a rewrite that keeps spans."""
from __future__ import annotations

from tirkit import tir
from tirkit.lang import parse_file
from tirkit.lang.comments import comment_text
from tirkit.printer import Comments, script
from tirkit.tir.stmt_functor import StmtMutator

SRC = '''from tvm.script import tir as T


@T.prim_func
def f(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    # before the loop
    for i in range(16):  # the loop
        if i < 8:
            B[i] = A[i]  # copy
        else:
            # else branch
            B[i] = T.float32(0)
        # end of the loop body
    # end of the function
    T.evaluate(0)  # dropped statement
'''


def _unit(src: str = SRC):
    units = [u for u in parse_file(src, "f.py") if u.kind != "file"]
    assert units[0].ir is not None
    return units[0]


def test_comment_text() -> None:
    assert comment_text("# x ") == "x"
    assert comment_text("#x") == "x"
    assert comment_text("#   indented") == "  indented"
    assert comment_text("#") == ""


def test_comments_print_back_in_place() -> None:
    unit = _unit()
    text = script(unit.ir, comments=unit.comments)
    assert text.endswith('''def f(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    # before the loop
    for i in range(16):  # the loop
        if i < 8:
            B[i] = A[i]  # copy
        else:
            # else branch
            B[i] = T.float32(0.0)
        # end of the loop body
    # end of the function
    # dropped statement''')


def test_table_is_keyed_by_spans_of_printed_statements() -> None:
    unit = _unit()
    loop = unit.ir.body
    assert isinstance(loop, tir.For)
    entry = unit.comments[loop.span]
    assert entry.leading == ["before the loop"] and entry.trailing == ["the loop"]
    assert entry.after == ["end of the function", "dropped statement"]


class _RebuildLoops(StmtMutator):
    """Rebuilds every loop as an unrolled loop, keeping its span (contract 3)."""

    def visit_for_(self, op):
        body = self.visit_stmt(op.body)
        return op.with_changes(body=body, kind=tir.ForKind.UNROLLED)


def test_comment_survives_a_rewrite_that_keeps_the_span() -> None:
    unit = _unit()
    new_body = _RebuildLoops()(unit.ir.body)
    assert new_body is not unit.ir.body and new_body.span == unit.ir.body.span
    func = unit.ir.with_changes(body=new_body)
    text = script(func, comments=unit.comments)
    assert "    # before the loop\n    for i in T.unroll(16):  # the loop\n" in text
    assert "B[i] = A[i]  # copy" in text


def test_no_comments_gives_an_empty_table() -> None:
    import re

    unit = _unit(re.sub(r"[ \t]*#.*", "", SRC))
    assert unit.comments == {}


def test_comments_table_accepts_strings_and_lists() -> None:
    unit = _unit()
    loop = unit.ir.body
    text = script(unit.ir, comments={loop: "one", loop.body: Comments(after=["two"])})
    assert "    # one\n    for i" in text and "\n        # two" in text
