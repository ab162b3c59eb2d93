"""``HostFile.locate`` (units found from Python's ``ast``, issue 18's parse speed) finds exactly
what ``HostFile.parse`` (libcst tree + counting codegen) finds: every field of every unit, the
import bindings with their offsets and scopes, the diagnostics -- on every Python file of the
repository, on fixed-seed fuzzer mutants, and on the spellings where character and byte columns
or the statement forms differ."""
from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import pytest

from tirkit.lang import parse_file
from tirkit.lang.host import HostFile
from tirkit.lang.host_ast import locate_with_ast

from test_host import _read, _repo_files

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
import fuzzer  # noqa: E402  pylint: disable=wrong-import-position


def _summary(host: HostFile) -> tuple:
    units = [(u.kind, u.name, u.qualname, u.dialect, u.start, u.end, u.indent, u.span, u.text,
              u.decorator, dict(u.decorator_args), u.decorator_positional, dict(u.aliases),
              u.name_offset, u.nested, u.recovered) for u in host.iter_units()]
    return units, list(host.imports), host.diagnostics, host.recovered


def _same(text: str) -> None:
    assert _summary(HostFile.locate(text, "f.py")) == _summary(HostFile.parse(text, "f.py"))


@pytest.mark.parametrize("path", _repo_files(), ids=lambda p: p.name)
def test_locate_finds_what_parse_finds_on_every_repo_file(path: Path) -> None:
    _same(_read(path))


def test_locate_finds_what_parse_finds_on_fuzzer_mutants() -> None:
    rng = random.Random(18)
    texts = fuzzer.corpus()
    for _ in range(300):
        _same(fuzzer.mutate(rng, rng.choice(texts))[1])


HEADER = "from tvm.script import tir as T\nimport tvm.script.ir as I\n"
UNIT = "    @T.prim_func\n    def f(A: T.Buffer((4,), \"float32\")):\n        A[0] = 1.0\n"

SPELLINGS = {
    "non_ascii_before": HEADER + "s = 'ünïcødé — ✓'  # ✓\n" + UNIT.replace("    ", "", 1)
    .replace("\n    ", "\n"),
    "non_ascii_in_unit": HEADER + "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n"
    "    A[0] = T.float32(1.0)  # größer ✓\n    # trailing ü comment\n",
    "spaced_decorator": HEADER + "@ T.prim_func ( private = True )\ndef   f():\n    T.evaluate(0)\n",
    "multiline_decorator": HEADER + "@T.prim_func(\n    private=True,\n    check_well_formed=False,\n)"
    "\ndef f():\n    T.evaluate(0)\n",
    "several_decorators": HEADER + "@other.deco\n@T.prim_func\ndef f():\n    T.evaluate(0)\n",
    "inside_if_try_match": HEADER + "if True:\n    try:\n        @T.prim_func\n        def g():\n"
    "            T.evaluate(0)\n    except E:\n        pass\nmatch x:\n    case 1:\n" + UNIT,
    "local_imports": "def gen(n):\n    from tvm.script import tir as T\n    @T.prim_func\n"
    "    def f():\n        T.evaluate(n)\n    return f\n",
    "module_class": HEADER + "@I.ir_module\nclass M:\n" + UNIT + "\n" + UNIT.replace("def f", "def g")
    + "    # member comment\n\n# top comment\n",
    "async_and_one_line": HEADER + "@T.prim_func\ndef f(): T.evaluate(0)\nasync def h():\n    pass\n",
    "continuation": HEADER + "@T.prim_func\ndef \\\n  f():\n    x = 1 + \\\n        2\n",
    "semicolons": HEADER + "@T.prim_func\ndef f():\n    T.evaluate(0); T.evaluate(1)  # c\n",
    "crlf": (HEADER + UNIT.replace("    ", "", 1).replace("\n    ", "\n")).replace("\n", "\r\n"),
    "bom": "\ufeff" + HEADER + "@T.prim_func\ndef f():\n    T.evaluate(0)\n",
    "form_feed": HEADER + "\f\n@T.prim_func\ndef f():\n    T.evaluate(0)\n",
    "not_python": HEADER + "@T.prim_func\ndef f(:\n    T.evaluate(0)\n",
    "relative_and_star": "from . import T\nfrom tvm.script.tir import *\n" + HEADER
    + "@T.prim_func\ndef f():\n    T.evaluate(0)\n",
}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_locate_matches_parse_on_each_spelling(name: str) -> None:
    text = SPELLINGS[name]
    _same(text)
    units = list(HostFile.parse(text).iter_units())
    assert units or name in {"not_python", "async_and_one_line"}, "the case must have a unit"


@pytest.mark.parametrize("name", ["crlf", "bom", "form_feed", "not_python"])
def test_text_the_ast_locator_does_not_cover_goes_through_libcst(name: str) -> None:
    assert locate_with_ast(SPELLINGS[name]) is None


def test_parse_file_prints_no_python_syntax_warning() -> None:
    text = HEADER + "x = 1if True else 2\n@T.prim_func\ndef f():\n    T.evaluate(0)\n"
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        units = parse_file(text, "w.py")
    assert [u.name for u in units] == ["f"] and units[0].ir is not None
    assert not [w for w in seen if issubclass(w.category, SyntaxWarning)]
