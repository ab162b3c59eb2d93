"""The grammar of record (tirkit/lang/tvmscript.lark) and the syntax tree built from it.

Python's own parser is the oracle: every fixture and snippet must give a tree of the same shape
as ``ast.parse`` (node types, fields, values), and every node's span must slice exactly the text
``ast.get_source_segment`` gives, at the same line and column, in file coordinates, also for
indented units parsed out of a file with non-ASCII text before them.
"""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from tirkit.ir.span import LineIndex
from tirkit.lang import syntax as S
from tirkit.lang.grammar import GRAMMAR_PATH, ParseResult, parse_module, parse_unit

FIXTURES = sorted((Path(__file__).parent / "grammar_fixtures").glob("*.py"))
SKIPPED_AST_FIELDS = {"ctx", "type_comment", "type_ignores", "type_params"}


# --------------------------------------------------------------------------- the oracle

class Oracle:
    """Compares a tirkit syntax tree with Python's ast of the same file text."""

    def __init__(self, file_text: str, py_text: str, line_shift: int = 0) -> None:
        self.file_text = file_text
        self.file_bytes = file_text.encode("utf-8")
        self.index = LineIndex(file_text)
        self.py_text = py_text
        self.py_lines = py_text.splitlines(keepends=True)
        self.line_shift = line_shift
        self.checked_spans = 0

    def compare(self, ours, theirs, path: str = "root") -> None:
        if isinstance(theirs, list):
            assert isinstance(ours, tuple), f"{path}: expected a sequence, got {ours!r}"
            assert len(ours) == len(theirs), f"{path}: {len(ours)} != {len(theirs)} items"
            for i, (a, b) in enumerate(zip(ours, theirs)):
                self.compare(a, b, f"{path}[{i}]")
            return
        if not isinstance(theirs, ast.AST):
            assert type(ours) is type(theirs) and ours == theirs, f"{path}: {ours!r} != {theirs!r}"
            return
        assert isinstance(ours, S.Node), f"{path}: {ours!r} is not a node ({type(theirs)})"
        assert type(ours).__name__ == type(theirs).__name__, \
            f"{path}: {type(ours).__name__} != {type(theirs).__name__}"
        self.check_span(ours, theirs, path)
        if isinstance(theirs, ast.JoinedStr):
            return
        for name in theirs._fields:
            if name not in SKIPPED_AST_FIELDS:
                self.compare(getattr(ours, name), getattr(theirs, name), f"{path}.{name}")

    def check_span(self, ours: S.Node, theirs: ast.AST, path: str) -> None:
        if getattr(theirs, "end_lineno", None) is None:
            return
        expected = ast.get_source_segment(self.py_text, theirs)
        start, end = self.index.char_range(ours.span)
        assert self.file_text[start:end] == expected, f"{path}: span text differs"
        assert self.file_bytes[ours.span.start_offset:ours.span.end_offset].decode() == expected
        assert (ours.span.line, ours.span.column) == self.position(theirs.lineno,
                                                                   theirs.col_offset), path
        assert (ours.span.end_line, ours.span.end_column) == self.position(
            theirs.end_lineno, theirs.end_col_offset), path
        self.checked_spans += 1

    def position(self, line: int, byte_col: int) -> tuple[int, int]:
        text = self.py_lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8")
        return line + self.line_shift, len(text)


def check_same_as_python(text: str) -> Oracle:
    result = parse_module(text)
    assert result.diagnostics == (), result.diagnostics
    oracle = Oracle(text, text)
    oracle.compare(result.tree.body, ast.parse(text).body)
    return oracle


# --------------------------------------------------------------------------- fixtures

def _units(tree: ast.Module):
    """Every def and class of a file: each is a unit a host layer may hand over."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node


def _unit_text(text: str, node: ast.AST) -> tuple[int, str]:
    """``(base_offset, unit text)``: from the start of the first decorator's line to the end
    of the last line, indentation included."""
    index = LineIndex(text)
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    start = index.offset(first, 0)
    end_line = node.end_lineno
    end = index.offset(end_line + 1, 0) if end_line < text.count("\n") + 1 else len(text)
    return start, text[start:end]


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_file_matches_python_ast(path: Path):
    oracle = check_same_as_python(path.read_text(encoding="utf-8"))
    assert oracle.checked_spans > 20


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_units_parse_in_file_coordinates(path: Path):
    text = path.read_text(encoding="utf-8")
    index = LineIndex(text, str(path))
    tree = ast.parse(text)
    units = list(_units(tree))
    assert units
    for node in units:
        base, unit = _unit_text(text, node)
        result = parse_unit(unit, line_index=index, base_offset=base)
        assert result.diagnostics == (), (node.name, result.diagnostics)
        assert len(result.tree.body) == 1
        ours = result.tree.body[0]
        assert ours.span.source_name == str(path)
        oracle = Oracle(text, text)
        oracle.compare(ours, node, node.name)
        assert oracle.checked_spans > 3


def test_indented_unit_after_non_ascii_text():
    path = next(p for p in FIXTURES if "indented" in p.stem)
    text = path.read_text(encoding="utf-8")
    node = next(n for n in _units(ast.parse(text)) if n.name == "matmul")
    base, unit = _unit_text(text, node)
    assert unit.startswith("    @T.prim_func") and not text[:base].isascii()
    assert len(text[:base].encode()) != base          # byte offsets differ from char offsets
    result = parse_unit(unit, line_index=LineIndex(text), base_offset=base)
    func = result.tree.body[0]
    def_offset = LineIndex(text).offset(node.lineno, node.col_offset)
    assert func.span.line == node.lineno and func.span.column == 4
    assert text[def_offset:def_offset + 10] == "def matmul"
    assert func.span.start_offset == len(text[:def_offset].encode())
    assert text.encode()[func.name_span.start_offset:func.name_span.end_offset] == b"matmul"
    comment = next(c for c in result.comments if "accumulate" in c.text)
    assert not comment.own_line
    start, end = LineIndex(text).char_range(comment.span)
    assert text[start:end] == "# accumulate «x»"
    assert text.encode()[comment.span.start_offset:comment.span.end_offset].decode() == comment.text


def test_seed_like_units_have_expected_shape():
    text = (FIXTURES[0].parent / "07_ir_module.py").read_text()
    module = parse_module(text).tree
    cls = module.body[-1]
    assert isinstance(cls, S.ClassDef) and cls.name == "Module"
    assert [type(s).__name__ for s in cls.body] == ["Expr", "FunctionDef", "FunctionDef"]
    main = cls.body[2]
    call = main.body[2].value
    assert isinstance(call.func, S.Attribute) and call.func.attr == "add_one"
    assert call.func.value == S.Name("cls", span=call.span)      # spans do not take part in ==
    decorator = cls.body[1].decorator_list[0]
    assert isinstance(decorator, S.Call) and decorator.keywords[0].arg == "private"


# --------------------------------------------------------------------------- snippets

EXPRESSIONS = [
    # precedence and associativity
    "a + b * c - d / e // f % g @ h", "-a ** -b ** c", "(a + b) * (c - d)", "~a | b ^ c & d",
    "a << b >> c + d", "not a and b or c and not d", "a or b or c", "a and (b or c)",
    "a if b else c if d else e", "(a if b else c) + 1", "lambda: 0", "lambda x, y=1, *a, k, **kw: x",
    "lambda *, k: k", "(x := 5)", "a.b.c(d)[e].f", "f(a)(b)(c)", "-x.y", "not -x",
    # comparisons
    "0 <= i < n", "a == b != c", "a in b", "a not in b", "a is b", "a is not None",
    "a < b > c >= d <= e", "not a in b",
    # calls
    "f()", "f(a, b, c=1, *args, d=2, **kwargs)", "f(*a, *b, **c, **d)", "f(x for x in y)",
    "f(a,)", "T.Buffer((128, 128), 'float32', scope='shared')", "f(k=1, *a)",
    # subscripts and slices
    "A[0:n, i]", "A[::2]", "A[i, :]", "A[:]", "A[1:]", "A[:-1]", "A[::]", "A[a:b:c, ::d, e]",
    'T.Buffer[(128,), "float32"]', "A[i,]", "A[()]", "A[*idx]", "A[(i, j)]", "A[i][j]",
    # displays and comprehensions
    "()", "(1,)", "(1, 2)", "1, 2", "[]", "[1, 2, *a]", "{}", "{1: 2, **m, 3: 4}", "{1, 2}",
    "[x for x in y]", "[x for x in y if x if not x for z in x]", "{x for x in y}",
    "{k: v for k, v in d.items()}", "(x for x in y)", "[(i, j) for i in range(3) for j in range(i)]",
    "[x for *a, b in c]", "[[1, 2], [3, 4]]",
    # literals
    "None", "True", "False", "...", "0", "00", "123", "1_000_000", "0x1F", "0XaB_cD", "0o17",
    "0b1010", "0B1_0", "1.5", "1.", ".5", "1e10", "1E-3", "1.5e+3", "1_0.0_1", "3j", "1.5J",
    "1e3j", "'a'", '"b"', "'''c'''", '"""d"""', "r'\\d'", "R'\\n'", "b'x'", "B'x'", "rb'\\x'",
    "bR'y'", "Rb'z'", "u'u'", "U'u'", "'a' 'b' \"c\"", "b'a' b'b'", "'\\n\\t\\x41\\u00e9'",
    "'it\\'s'", "f'{a}'", "F'x' 'y'", "rf'{a}'", "'a' f'{b}'", "'é' '✓'",
]

STATEMENTS = [
    "a = b = c", "a, b = c", "a, *b = c", "(a, b), [c, d] = e", "x: int", "x: int = 1",
    "(x): int = 1", "a.b: T.int32 = 0", "a[0]: int", "x += 1", "x **= 2", "x //= 3", "x @= y",
    "x >>= 1", "x |= y", "del a", "del a, b", "del (a, b)", "del a[0], b.c", "assert a",
    "assert a, 'msg'", "return", "return a", "return a, b", "pass", "x = 1; y = 2;",
    "for i in range(3):\n    pass\nelse:\n    pass\n", "for i, (j, k) in x: pass",
    "for i, in x: pass", "while a:\n    break\nelse:\n    continue\n",
    "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n", "if a: pass\nelif b: pass\n",
    "with a as b, c as (d, e), f as [g, h], i:\n    pass\n", "with a: pass",
    "def f(a, b: int = 1, *args: int, c, d=2, **kw) -> None:\n    '''doc'''\n    return a\n",
    "def f(*, a): pass", "def f(**kw): pass", "def f(a, /, b): pass" if False else "def f(): pass",
    "@d\n@e.f(1, x=2)\ndef g(): pass", "@a.b[c](d)\ndef g(): pass", "class A: pass",
    "class A(B, metaclass=M):\n    x = 1\n\n    def f(self): pass\n", "@I.ir_module\nclass M:\n    pass\n",
    "global a, b", "def f():\n    x = 0\n    def g():\n        nonlocal x\n",
    "import a", "import a.b as c, d", "from a import b", "from a.b import (c as d, e,)",
    "from . import x", "from ..a import *", "from ... import y",
    "x = (\n    1,  # one\n    2,\n)\n", "x = [\n    1\n]\n", "x = 1 + \\\n    2\n",
    "if (n := 10) > 5: pass", "while (line := f()): pass", "f(a)\n\n\n# c\ng(b)\n",
]


@pytest.mark.parametrize("snippet", EXPRESSIONS)
def test_expression_matches_python_ast(snippet: str):
    check_same_as_python(snippet + "\n")


@pytest.mark.parametrize("snippet", STATEMENTS)
def test_statement_matches_python_ast(snippet: str):
    check_same_as_python(snippet)


def test_values_of_literals():
    body = parse_module("0x1F; 1_000; 0o17; 0b11; 1e3; 2j; 'a' 'b'; b'x' b'y'; u'z'; ...\n").tree.body
    values = [stmt.value.value for stmt in body]
    assert values == [31, 1000, 15, 3, 1000.0, 2j, "ab", b"xy", "z", ...]
    assert body[8].value.kind == "u"
    fstring = parse_module("f'{a!r:>10}' 'tail'\n").tree.body[0].value
    assert isinstance(fstring, S.JoinedStr) and fstring.source == "f'{a!r:>10}' 'tail'"


def test_operator_nodes_carry_token_spans():
    text = "x = a not in b is not c + d\n"
    index = LineIndex(text)
    compare = parse_module(text).tree.body[0].value
    texts = [text.__getitem__(slice(*index.char_range(op.span))) for op in compare.ops]
    assert texts == ["not in", "is not"]
    add = compare.comparators[1]
    assert text.__getitem__(slice(*index.char_range(add.op.span))) == "+"
    attr = parse_module("T.grid\n").tree.body[0].value
    assert attr.attr_span.column == 2 and attr.attr_span.end_column == 6


# --------------------------------------------------------------------------- comments

def test_comments_collected_with_positions():
    text = ("@T.prim_func\n"
            "def f():  # after header\n"
            "    # own line\n"
            "    x = [1,  # inside brackets\n"
            "         2]\n"
            "        # deeper own line\n"
            "    s = '# not a comment'\n"
            "# last\n")
    result = parse_unit(text)
    assert result.diagnostics == ()
    got = [(c.span.line, c.span.column, c.text, c.own_line) for c in result.comments]
    assert got == [
        (2, 10, "# after header", False),
        (3, 4, "# own line", True),
        (4, 13, "# inside brackets", False),
        (6, 8, "# deeper own line", True),
        (8, 0, "# last", True),
    ]
    assert [type(s).__name__ for s in result.tree.body[0].body] == ["Assign", "Assign"]


# --------------------------------------------------------------------------- diagnostics

def _diags(result: ParseResult) -> list[tuple[int, int, str]]:
    assert all(d.code == "syntax" for d in result.diagnostics)
    return [(d.span.line, d.span.column, d.message) for d in result.diagnostics]


def test_three_errors_in_three_statements_are_all_reported():
    text = ("@T.prim_func\n"
            "def f(A: T.Buffer((8,), 'float32')):\n"
            "    x = (1 +)\n"
            "    for i in range(8)  # missing colon\n"
            "        A[i] = 0.0\n"
            "    A[1] = 2.0\n"
            "    y = 1 2\n"
            "    A[0] = 1.0\n")
    result = parse_unit(text)
    assert _diags(result) == [
        (3, 12, "unexpected ')'"),
        (4, 21, "expected ':'"),
        (7, 10, "unexpected '2'"),
    ]
    func = result.tree.body[0]
    assert isinstance(func, S.FunctionDef) and func.name == "f"
    kept = [ast.unparse(_to_py(s)) for s in func.body]
    assert kept == ["A[1] = 2.0", "A[0] = 1.0"]
    assert result.diagnostics[1].span.end_column == 22     # the character right after ')'


def _to_py(stmt: S.StmtNode) -> ast.AST:
    """Rebuild a small statement as Python ast (for readable assertions)."""
    return ast.parse(f"{_src(stmt.targets[0])} = {_src(stmt.value)}").body[0]


def _src(node) -> str:
    if isinstance(node, S.Subscript):
        return f"{_src(node.value)}[{_src(node.slice)}]"
    if isinstance(node, S.Name):
        return node.id
    return repr(node.value)


@pytest.mark.parametrize("text,expected", [
    ("x = 'abc\ny = 1\n", [(1, 4, "unterminated string literal")]),
    ("x = 1\ny = '''abc\n\nz = 2\n", [(2, 4, "unterminated triple-quoted string literal")]),
    ("x = 1 $ 2\n", [(1, 6, "invalid character '$' (U+0024)")]),
    ("def f():\n    x = 1\n  y = 2\n", [(3, 2, "unindent does not match any outer indentation level")]),
    ("x = 1\n    y = 2\nz = 3\n", [(2, 4, "unexpected indent")]),
    ("def f():\nx = 1\n", [(2, 0, "expected an indented block")]),
    ("x = f(1,\ny = 2\n", [(1, 5, "'(' was never closed")]),
    ("x = [1, 2\n", [(1, 4, "'[' was never closed")]),
    ("x = 1 +\n", [(1, 7, "unexpected end of line: expected an expression")]),
    ("x = f(a))\n", [(1, 8, "unmatched ')'")]),
    ("x = f({1: 2)\ny = 1\n", [(1, 11,
      "closing parenthesis ')' does not match opening parenthesis '{'")]),
    ("x = (1))\n", [(1, 7, "unmatched ')'")]),
    ("def f(:\n    pass\n", [(1, 6, "unexpected ':'")]),
    ("for i in x\n    pass\n", [(1, 10, "expected ':'")]),
    ("if x:\n", [(1, 5, "expected an indented block")]),
    ("x.\n", [(1, 2, "expected a name")]),
])
def test_syntax_error_messages(text: str, expected):
    assert _diags(parse_unit(text)) == expected


def test_errors_in_nested_blocks_keep_the_enclosing_statements():
    text = ("def f():\n"
            "    for i in range(4):\n"
            "        x = = 1\n"
            "        with T.block('b'):\n"
            "            y = )\n"
            "            z = 1\n"
            "    return 0\n")
    result = parse_unit(text)
    assert [d[0] for d in _diags(result)] == [3, 5]
    loop = result.tree.body[0].body[0]
    assert isinstance(loop, S.For)
    (with_stmt,) = loop.body
    assert [type(s).__name__ for s in with_stmt.body] == ["Assign"]
    assert isinstance(result.tree.body[0].body[1], S.Return)


MUTATIONS = ["", "(", ")", ":", "'", "\n  ", " = ", "\t", "]", "*", "**", ",", "lambda ", " if ",
             "\\\n", "#", '"""', "not ", "for ", "@", "del ", "=", ".", "[", "{", "}", ":=", "\n"]


def _python_verdict(text: str) -> str:
    """"parse" if Python's parser rejects ``text``, "compile" if only its compiler does."""
    try:
        ast.parse(text)
    except SyntaxError:
        return "parse"
    try:
        compile(text, "<mutated>", "exec", dont_inherit=True)
    except SyntaxError:
        return "compile"
    return "ok"


@pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")
def test_mutated_fixtures_agree_with_python():
    """Random edits of the fixtures: never an exception; an error whenever Python's parser
    rejects the text; no error whenever Python compiles it."""
    rng = random.Random(1234)
    sources = [p.read_text(encoding="utf-8") for p in FIXTURES]
    for _ in range(600):
        text = rng.choice(sources)
        cut = rng.randrange(len(text))
        mutated = text[:cut] + rng.choice(MUTATIONS) + text[cut + rng.randrange(0, 4):]
        result = parse_module(mutated)
        assert result.tree is not None
        verdict = _python_verdict(mutated)
        if verdict == "parse":
            assert result.diagnostics, mutated
        elif verdict == "ok":
            assert result.diagnostics == (), (result.diagnostics, mutated)


def test_empty_and_blank_inputs():
    for text in ("", "\n\n", "# only a comment\n", "   \n"):
        result = parse_unit(text)
        assert result.diagnostics == () and result.tree.body == ()


# --------------------------------------------------------------------------- the grammar file

def test_grammar_file_is_readable_and_commented():
    text = GRAMMAR_PATH.read_text(encoding="utf-8")
    comments = [line for line in text.splitlines() if line.strip().startswith("//")]
    assert len(comments) > 40
    for rule in ("funcdef", "classdef", "for_stmt", "with_stmt", "annassign", "lambdef",
                 "comparison", "slice", "comp_for", "strings", "number"):
        assert re.search(rf"^\??!?{rule}:", text, re.M), rule


def test_large_input_parses():
    """Speed is measured in bench/ (grammar_lines); here only that a large input parses."""
    text = "\n\n".join(p.read_text(encoding="utf-8") for p in FIXTURES) * 4
    result = parse_module(text)
    assert result.diagnostics == ()
    assert result.tree is not None and len(result.tree.body) > 40


def test_grammar_is_conflict_free_lalr1():
    """Lark resolves shift/reduce conflicts silently; strict mode turns them into errors."""
    from lark import Lark
    from lark.exceptions import LexError

    from tirkit.lang.grammar import grammar_text

    try:
        Lark(grammar_text(), start="file_input", parser="lalr", lexer="basic",
             keep_all_tokens=True, maybe_placeholders=False, strict=True)
    except LexError as err:     # the regex-collision check needs the optional `interegular`
        assert "interegular" in str(err)
