"""The lossless host layer (DESIGN.md §3.1, §3.5): byte-identical round trips, unit location through
the file's own imports, exact ranges, splicing, the line-based fallback, and no execution."""
from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from tirkit.ir.span import Span
from tirkit.lang.host import HostFile, Unit, splice
from tirkit.lang.host_imports import canonicalize

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "host_fixtures"
SKIP_DIRS = {".venv", ".git", "node_modules", "__pycache__", ".mypy_cache", ".pytest_cache"}


def _repo_files() -> list[Path]:
    found = []
    for root, dirs, files in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found += [Path(root) / f for f in sorted(files) if f.endswith(".py")]
    found += sorted(p for p in FIXTURES.iterdir() if p.is_file())
    return sorted(set(found))


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:  # removed since collection (another process editing the tree)
        pytest.skip(f"{path} disappeared")


def _python_accepts(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _ranges(host: HostFile) -> list[tuple]:
    return [(u.qualname, u.kind, u.start, u.end, u.nested, u.name_offset, dict(u.decorator_args))
            for u in host.iter_units()]


HEADER = "from tvm.script import tir as T\nfrom tvm.script import ir as I\n"


# --------------------------------------------------------------------------------------- round trip

REPO_FILES = _repo_files()


def test_walk_finds_the_repository():
    assert len(REPO_FILES) > 20
    assert FIXTURES / "all_forms.py" in REPO_FILES


@pytest.mark.parametrize("path", REPO_FILES, ids=[str(p.relative_to(REPO)) for p in REPO_FILES])
def test_round_trip_every_repository_file(path):
    text = _read(path)
    raw = path.read_bytes()
    host = HostFile.parse(text, str(path))
    assert host.code.encode("utf-8") == raw
    if _python_accepts(text):
        assert not host.recovered and host.regenerated and not host.diagnostics
    else:
        assert host.recovered and host.diagnostics


@pytest.mark.parametrize("path", REPO_FILES, ids=[str(p.relative_to(REPO)) for p in REPO_FILES])
def test_fallback_agrees_with_libcst_on_every_repository_file(path):
    text = _read(path)
    assert _ranges(HostFile.scan(text)) == _ranges(HostFile.parse(text))


TRICKY = {
    "crlf": HEADER.replace("\n", "\r\n") + "@T.prim_func\r\ndef f():\r\n    x = 1  \r\n\r\n",
    "mixed_newlines": HEADER + "@T.prim_func\r\ndef f():\n    pass\r\n# end",
    "lone_cr": HEADER + "@T.prim_func\rdef f():\r    pass\r",
    "tabs": HEADER + "if True:\n\t@T.prim_func\n\tdef f():\n\t\tx = 1\t# tab\n\t\ty = 2\n",
    "no_trailing_newline": HEADER + "@T.prim_func\ndef f():\n    pass",
    "trailing_whitespace": HEADER + "@T.prim_func   \ndef f():   \n    pass   \n   \n\t\n",
    "unicode": HEADER + "@T.prim_func\ndef größe(Δ: T.int32):\n    s = 'ß∑😀'  # ✓ kommentar\n",
    "form_feed_line": HEADER + "\x0c\n@T.prim_func\ndef f():\n    pass\n\x0c\n",
    "form_feed_indent": HEADER + "@T.prim_func\ndef f():\n    x = 1\n\x0c    y = 2\n",
    "leading_form_feed": "\x0c" + HEADER + "@T.prim_func\ndef f():\n    pass\n",
    "bom": "\ufeff" + HEADER + "@T.prim_func\ndef f():\n    pass\n",
    "backslash": HEADER + "@T.prim_func\ndef f(a, \\\n      b):\n    x = 1 + \\\n2\n",
    "comments_everywhere": HEADER + (
        "# c0\n@T.prim_func  # c1\n# c2\ndef f(  # c3\n    a,  # c4\n# c5\n):  # c6\n"
        "    # c7\n    x = [1,  # c8\n# c9\n    2]  # c10\n    # c11\n# c12\n\n"),
    "strings": HEADER + '@T.prim_func\ndef f():\n    """doc\n# not a comment\n"""\n'
                        "    s = '''\nx\n'''\n    t = r'\\'' + \"#\"\n",
    "empty": "",
    "only_whitespace": "  \n\t\n",
    "only_comment": "# nothing here",
    "semicolons": HEADER + "@T.prim_func\ndef f(): x = 1; y = 2\nz = 3\n",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_round_trip_tricky_text(name):
    text = TRICKY[name]
    host = HostFile.parse(text)
    assert host.code == text
    assert not host.diagnostics
    assert _ranges(HostFile.scan(text)) == _ranges(host)
    for unit in host.iter_units():
        assert unit.text == text[unit.start:unit.end]
        assert unit.text.lstrip(" \t\x0c").startswith("@")


def test_lossy_libcst_cases_still_round_trip_and_keep_the_tree():
    for name in ("lone_cr", "form_feed_indent", "leading_form_feed"):
        host = HostFile.parse(TRICKY[name])
        assert host.module is not None and not host.recovered
        assert not host.regenerated  # libcst would lose a character: the text is returned
        assert host.code == TRICKY[name]
        assert [u.name for u in host.units] == ["f"]


def test_regenerated_code_comes_from_libcst():
    host = HostFile.parse(TRICKY["crlf"])
    assert host.regenerated and host.code == host.module.code == TRICKY["crlf"]


# ------------------------------------------------------------------------------- unit detection

IMPORT_FORMS = [
    ("from tvm.script import tir as T", "@T.prim_func", "prim_func", "tir"),
    ("from tvm.script import tir as tir", "@tir.prim_func", "prim_func", "tir"),
    ("from tvm.script import tir as TT", "@TT.prim_func(private=True)", "prim_func", "tir"),
    ("from tvm.script import tir", "@tir.prim_func", "prim_func", "tir"),
    ("from tvm.script import tirx as T", "@T.prim_func(s_tir=True)", "prim_func", "tirx"),
    ("from tvm.script import tir as T", "@T.prim_func()", "prim_func", "tir"),
    ("from tvm.script.tir import prim_func", "@prim_func", "prim_func", "tir"),
    ("from tvm.script.tir import prim_func as pf", "@pf", "prim_func", "tir"),
    ("import tvm", "@tvm.script.tir.prim_func", "prim_func", "tir"),
    ("import tvm.script", "@tvm.script.tir.prim_func", "prim_func", "tir"),
    ("import tvm", "@tvm.script.tirx.prim_func", "prim_func", "tirx"),
    ("import tvm.script.tir as T", "@T.prim_func", "prim_func", "tir"),
    ("from tirkit.lang import tir as T", "@T.prim_func", "prim_func", "tir"),
    ("import tirkit.lang.tir as T", "@T.prim_func", "prim_func", "tir"),
    ("from tvm.script import (\n    tir as T,\n    ir as I,\n)", "@T.prim_func", "prim_func",
     "tir"),
    ("from tvm.script import ir as I", "@I.ir_module", "ir_module", "tir"),
    ("from tvm.script import ir as I", "@I.ir_module()", "ir_module", "tir"),
    ("from tvm.script import ir_module", "@ir_module", "ir_module", "tir"),
    ("import tvm", "@tvm.script.ir_module", "ir_module", "tir"),
    ("import tvm", "@tvm.script.ir.ir_module", "ir_module", "tir"),
    ("from tirkit.lang import ir as I", "@I.ir_module", "ir_module", "tir"),
    ("from tvm.script import ir as I, tirx as T", "@I.ir_module", "ir_module", "tirx"),
]


@pytest.mark.parametrize("imports,decorator,kind,dialect", IMPORT_FORMS,
                         ids=[f"{i}|{d}" for i, d, _, _ in IMPORT_FORMS])
@pytest.mark.parametrize("mode", ["parse", "scan"])
def test_unit_detected_through_imports(imports, decorator, kind, dialect, mode):
    keyword = "def" if kind == "prim_func" else "class"
    text = f"{imports}\n\n\n{decorator}\n{keyword} unit_name():\n    pass\n"
    host = getattr(HostFile, mode)(text)
    assert [(u.name, u.kind, u.dialect) for u in host.units] == [("unit_name", kind, dialect)]
    assert host.units[0].decorator == decorator[1:]


def test_aliases_and_resolution():
    text = ("from tvm.script import tir as TT\nfrom tvm.script import ir as Mod\nimport tvm\n"
            "import numpy as np\n@TT.prim_func\ndef f():\n    pass\n")
    host = HostFile.parse(text)
    assert dict(host.units[0].aliases) == {"TT": "tir", "Mod": "ir"}
    assert host.resolve("TT.prim_func") == "tir.prim_func"
    assert host.resolve("TT.Buffer") == "tir.Buffer"
    assert host.resolve("Mod.ir_module") == "ir.ir_module"
    assert host.resolve("tvm.script.tir.prim_func") == "tir.prim_func"
    assert host.resolve("tvm.script.ir_module") == "ir.ir_module"
    assert host.resolve("np.sin") is None
    assert host.resolve("T.prim_func") is None  # T is not bound in this file
    assert canonicalize("tirkit.lang.tir.grid") == "tir.grid"
    assert canonicalize("torch.nn") is None


NON_UNITS = {
    "undecorated": "from tvm.script import tir as T\ndef f():\n    pass\n",
    "torch_alias": "import torch as T\n@T.prim_func\ndef f():\n    pass\n",
    "unimported": "@T.prim_func\ndef f():\n    pass\n",
    "other_module": "from mylib import tir as T\n@T.prim_func\ndef f():\n    pass\n",
    "rebound_later": ("from tvm.script import tir as T\nimport torch as T\n"
                      "@T.prim_func\ndef f():\n    pass\n"),
    "prim_func_on_class": "from tvm.script import tir as T\n@T.prim_func\nclass C:\n    pass\n",
    "ir_module_on_def": "from tvm.script import ir as I\n@I.ir_module\ndef f():\n    pass\n",
    "wrong_namespace": "from tvm.script import ir as I\n@I.prim_func\ndef f():\n    pass\n",
    "builder_with": ("from tvm.script import tir as T\nwith T.prim_func():\n    T.arg('a', 1)\n"),
    "reference_only": "from tvm.script import tir as T\nx = T.prim_func\n",
    "relative_import": "from . import tir as T\n@T.prim_func\ndef f():\n    pass\n",
    "subscript_decorator": "from tvm.script import tir as T\n@T.prim_func[0]\ndef f():\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(NON_UNITS))
@pytest.mark.parametrize("mode", ["parse", "scan"])
def test_non_units_ignored(name, mode):
    assert getattr(HostFile, mode)(NON_UNITS[name]).units == ()


def test_import_order_matters():
    text = ("import torch as T\n@T.prim_func\ndef a():\n    pass\n"
            "from tvm.script import tir as T\n@T.prim_func\ndef b():\n    pass\n")
    assert [u.name for u in HostFile.parse(text).units] == ["b"]


def test_function_local_import():
    text = ("def gen():\n    from tvm.script import tir as T\n\n    @T.prim_func\n"
            "    def f():\n        pass\n    return f\n\n@T.prim_func\ndef g():\n    pass\n")
    host = HostFile.parse(text)
    assert [u.qualname for u in host.units] == ["gen.<locals>.f"]
    assert host.imports.bindings[0].scope == "gen.<locals>"


def test_fixture_with_all_forms():
    host = HostFile.parse(_read(FIXTURES / "all_forms.py"))
    assert [u.qualname for u in host.units] == [
        "plain", "private_func", "empty_call", "imported_directly", "fully_qualified", "Module",
        "Module2", "Module3", "gen_matmul.<locals>.f", "TestLowering.before"]
    module = host.find("Module")
    assert [m.qualname for m in module.members] == ["Module.main", "Module.helper"]
    assert dict(module.members[1].decorator_args) == {"private": "True"}
    assert dict(host.find("private_func").decorator_args) == {"private": "True"}
    assert host.find("empty_call").decorator == "T.prim_func()"
    assert [u.nested for u in host.units].count(True) == 1
    assert host.find("gen_matmul.<locals>.f").nested
    assert not host.find("TestLowering.before").nested
    assert host.find("not_a_unit") is None


# ------------------------------------------------------------------------------ ranges and spans

RANGE_TEXT = HEADER + """
# leading comment, not part of the unit
@T.prim_func(private=True)
# between decorators
@other.decorator
def f(
    A: T.Buffer((4,), "float32"),
):
    for i in range(4):
        A[i] = T.float32(0)  # trailing
        # deeper comment, belongs to f
    # still deeper than def
# shallow comment, not part of f


@I.ir_module
class Mod:
    @T.prim_func
    def main():
        T.evaluate(0)

    # comment inside the class

    def not_tir(self):
        return 1
x = 1
"""


@pytest.mark.parametrize("mode", ["parse", "scan"])
def test_exact_offsets_and_spans(mode):
    host = getattr(HostFile, mode)(RANGE_TEXT, "k.py")
    f, mod = host.units
    first_decorator = RANGE_TEXT.index("@T.prim_func(private=True)")
    assert f.start == first_decorator and f.indent == ""
    assert f.text.startswith("@T.prim_func(private=True)\n# between")
    assert f.text.endswith("    # still deeper than def")
    assert f.end == RANGE_TEXT.index("\n# shallow")
    assert RANGE_TEXT[f.name_offset:f.name_offset + 1] == "f"
    assert f.span == Span("k.py", 5, 0, 14, len("    # still deeper than def"), f.start, f.end)
    assert mod.text.startswith("@I.ir_module\nclass Mod:")
    assert mod.text.endswith("        return 1")
    (main,) = mod.members
    assert main.indent == "    "
    assert main.start == RANGE_TEXT.index("    @T.prim_func\n    def main")
    assert main.text == "    @T.prim_func\n    def main():\n        T.evaluate(0)"
    assert (main.span.line, main.span.end_line) == (20, 22)
    assert host.unit_at(main.start + 10) == main
    assert host.unit_at(f.start) == f
    assert host.unit_at(len(RANGE_TEXT) - 1) is None


def test_units_are_hashable_values():
    host = HostFile.parse(RANGE_TEXT)
    again = HostFile.parse(RANGE_TEXT)
    assert host.units == again.units
    assert {host.units[0]: 1}[again.units[0]] == 1
    with pytest.raises(TypeError):
        host.units[0].aliases["X"] = "tir"  # read-only mapping


def test_nested_generator_unit():
    text = HEADER + ("def gen_matmul(n, m) -> None:\n  @T.prim_func\n  def f(A: T.Buffer[(n, m)]):\n"
                     "    pass\n  return f\n")
    for host in (HostFile.parse(text), HostFile.scan(text)):
        (unit,) = host.units
        assert unit.nested and unit.qualname == "gen_matmul.<locals>.f" and unit.indent == "  "
        assert unit.text == "  @T.prim_func\n  def f(A: T.Buffer[(n, m)]):\n    pass"


def test_one_line_body_and_decorator_arguments():
    text = HEADER + "@T.prim_func(True, s_tir=True, capture=[helper])\ndef f(): pass\n"
    (unit,) = HostFile.parse(text).units
    assert unit.text == "@T.prim_func(True, s_tir=True, capture=[helper])\ndef f(): pass"
    assert dict(unit.decorator_args) == {"s_tir": "True", "capture": "[helper]"}
    assert unit.decorator_positional == ("True",)


@pytest.mark.parametrize("mode", ["parse", "scan"])
def test_unit_starts_at_first_decorator_even_if_unrelated(mode):
    text = HEADER + "\n@functools.wraps(g)\n  # note\n@T.prim_func\ndef f():\n    pass\n"
    (unit,) = getattr(HostFile, mode)(text).units
    assert unit.start == text.index("@functools") and unit.decorator == "T.prim_func"
    assert unit.span.line == 4


def test_tirx_ir_module_dialect():
    text = ("from tvm.script import tirx as T\nfrom tvm.script import ir as I\n"
            "@I.ir_module\nclass M:\n    @T.prim_func(s_tir=True)\n    def main():\n        pass\n")
    (unit,) = HostFile.parse(text).units
    assert unit.dialect == "tirx" and unit.members[0].dialect == "tirx"


# -------------------------------------------------------------------------------------- splicing

def test_replace_units_changes_only_those_ranges():
    host = HostFile.parse(RANGE_TEXT)
    f, mod = host.units
    new_f = "@T.prim_func\ndef f():\n    T.evaluate(1)\n"
    out = host.replace_units({f: new_f})
    assert out[:f.start] == RANGE_TEXT[:f.start]
    assert out[f.start + len(new_f) - 1:] == RANGE_TEXT[f.end:]
    reparsed = HostFile.parse(out)
    assert reparsed.code == out and reparsed.units[0].text == new_f.rstrip("\n")
    assert [u.text for u in reparsed.units[1:]] == [mod.text]


def test_replace_member_and_unit_together():
    host = HostFile.parse(RANGE_TEXT)
    f, mod = host.units
    main = mod.members[0]
    new_main = "    @T.prim_func\n    def main():\n        T.evaluate(2)"
    out = host.replace_units({main: new_main, f: "@T.prim_func\ndef f():\n    pass"})
    assert out.endswith(RANGE_TEXT[main.end:])
    assert HostFile.parse(out).find("Mod.main").text == new_main
    with pytest.raises(ValueError, match="overlap"):
        host.replace_units({main: new_main, mod: mod.text})


def test_replace_errors():
    host = HostFile.parse(RANGE_TEXT)
    main = host.units[1].members[0]
    with pytest.raises(ValueError, match="indented"):
        host.replace_units({main: "@T.prim_func\ndef main():\n    pass"})
    other = HostFile.parse("x = 1\n" + RANGE_TEXT)
    with pytest.raises(ValueError, match="does not belong"):
        host.replace_units({other.units[0]: other.units[0].text})


def test_replace_keeps_crlf():
    text = TRICKY["crlf"]
    host = HostFile.parse(text)
    out = host.replace_units({host.units[0]: "@T.prim_func\ndef f():\n    y = 2\n"})
    assert out == text.replace("x = 1  ", "y = 2")
    assert "\n" not in out.replace("\r\n", "")


def test_splice_function():
    assert splice("abcdef", [(4, 5, "E"), (0, 1, "AA")]) == "AAbcdEf"
    assert splice("abc", []) == "abc"
    with pytest.raises(ValueError):
        splice("abc", [(0, 2, "x"), (1, 3, "y")])
    with pytest.raises(ValueError):
        splice("abc", [(2, 9, "x")])


# -------------------------------------------------------------------------------------- fallback

def test_syntax_error_in_first_unit_still_finds_second():
    text = _read(FIXTURES / "broken_first_unit.txt")
    host = HostFile.parse(text, "broken.py")
    assert host.recovered and host.module is None and host.code == text
    (diag,) = host.diagnostics
    assert diag.code == "syntax" and diag.span.line == 5
    first, second = host.units
    assert first.recovered and second.recovered
    assert second.name == "second"
    assert second.start == text.index("@T.prim_func\ndef second")
    assert second.text.endswith("    # trailing comment of second")
    assert second.end == text.index("\n\n\nx = 1")
    fixed = text.replace('"float32"):\n    for i, j in T.grid(128, 128\n',
                         '"float32")):\n    for i, j in T.grid(128, 128):\n')
    good = HostFile.parse(fixed)
    assert not good.recovered
    assert good.units[1].text == second.text


def test_fallback_while_typing():
    partial = HEADER + ("@T.prim_func\ndef first(A: T.Buffer((4,), \n\n"
                        "@T.prim_func\ndef second():\n    T.evaluate(0)\n\n"
                        "@I.ir_module\nclass M:\n    @T.prim_func\n    def main(:\n        pass\n")
    host = HostFile.parse(partial)
    assert host.recovered
    assert [u.qualname for u in host.iter_units()] == ["first", "second", "M", "M.main"]
    assert host.find("second").text == "@T.prim_func\ndef second():\n    T.evaluate(0)"


def test_fallback_unterminated_string_and_eof():
    text = HEADER + "@T.prim_func\ndef f():\n    s = 'abc\n    x = 1\n@T.prim_func\ndef g("
    host = HostFile.parse(text)
    assert [u.name for u in host.units] == ["f", "g"]
    assert host.units[0].text.endswith("    x = 1")


def test_every_prefix_while_typing_never_raises():
    text = _read(FIXTURES / "all_forms.py")
    for cut in range(0, len(text), 23):
        partial = text[:cut]
        host = HostFile.parse(partial)
        assert host.code == partial
        for unit in host.iter_units():
            assert partial[unit.start:unit.end] == unit.text
            assert unit.text.lstrip(" ").startswith("@")
            assert unit.span.start_offset == unit.start


def test_bad_input_never_raises():
    for text in ["def", "@", "@T.prim_func", "(((", "'''", "\x00\x00", "\\", "class:", "@\n@\n",
                 "from tvm.script import tir as T\n@T.prim_func\n", "if x:\n\tpass\n        y",
                 "\ufeff\r\r\n\x0c"]:
        host = HostFile.parse(text)
        assert host.code == text
        assert HostFile.scan(text).code == text
    with pytest.raises(TypeError):
        HostFile.parse(b"x = 1")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- no execution

def test_nothing_is_executed(tmp_path):
    marker = tmp_path / "PWNED"
    payload = f'__import__("os").system("touch {marker}")'
    text = (f"{payload}\nfrom tvm.script import tir as T\nimport os; os.system('touch {marker}')\n"
            f"@T.prim_func({payload})\n"
            f"def f(A: T.Buffer(({payload}, 4)), n: int = {payload}):\n"
            f"    {payload}\n"
            f"@T.prim_func(private={payload})\ndef g(:\n    pass\n")
    for host in (HostFile.parse(text), HostFile.parse(text.replace("def g(:", "def g():")),
                 HostFile.scan(text)):
        assert [u.name for u in host.units] == ["f", "g"]
        assert host.units[0].decorator_positional == (payload,)
    assert not marker.exists()


# ------------------------------------------------------------------- a large file (speed: bench/)

def test_five_thousand_line_file_finds_every_unit():
    unit = ('@T.prim_func\ndef matmul_{i}(A: T.Buffer((128, 128), "float32"),\n'
            '              C: T.Buffer((128, 128), "float32")):\n'
            "    for i, j, k in T.grid(128, 128, 128):\n"
            '        with T.block("update"):\n'
            '            vi, vj, vk = T.axis.remap("SSR", [i, j, k])\n'
            "            with T.init():\n                C[vi, vj] = T.float32(0)\n"
            "            C[vi, vj] = C[vi, vj] + A[vi, vk]  # comment\n\n")
    text = HEADER + "".join(unit.format(i=i) for i in range(500))
    assert text.count("\n") >= 5000
    host = HostFile.parse(text)
    assert len(host.units) == 500 and host.code == text
    assert len(HostFile.parse(text.replace("(0)\n", "(0\n", 1)).units) == 500


def test_unit_is_exported():
    assert Unit.__doc__ and "tvm" in HostFile.__doc__.lower() and "tvm" in Unit.__doc__.lower()
