"""Unit tests of the language server's pure functions (no server process)."""
from __future__ import annotations

from lsprotocol import types

from tirkit.ir.diagnostics import Diagnostic
from tirkit.ir.span import Span
from tirkit.lsp import diagnostics as D
from tirkit.lsp.analysis import Analyzer, analyze_unit, mentions_tvmscript
from tirkit.lsp.editing import complete, fallback_edits, format_edits, signature_at
from tirkit.lsp.hover import hover_markdown
from tirkit.lsp.navigation import (definition, document_symbols, folding_ranges, references,
                                   semantic_tokens)
from tirkit.lsp.positions import PositionMap
from tirkit.lsp.tnames import call_at, dotted_at, lookup

from conftest import DATA  # type: ignore[import-not-found]

KERNELS = (DATA / "kernels.py").read_text(encoding="utf-8")
THREE = (DATA / "three_units.py").read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- positions
def test_position_map_utf16_utf8_utf32() -> None:
    text = 'x = "a𝛼é"; y\n'
    col_y = text.index("y")
    assert PositionMap(text).position(1, col_y) == types.Position(line=0, character=col_y + 1)
    assert PositionMap(text, "utf-8").position(1, col_y).character == col_y + 4
    assert PositionMap(text, "utf-32").position(1, col_y).character == col_y
    pmap = PositionMap(text)
    assert pmap.line_column(types.Position(line=0, character=col_y + 1)) == (1, col_y)
    assert pmap.offset(types.Position(line=5, character=0)) == len(text)


# ----------------------------------------------------------------------------- analysis
def test_an_edit_reanalyses_only_the_touched_unit() -> None:
    ana = Analyzer()
    ana.analyze(THREE, "f.py")
    assert ana.misses == 3
    ana.analyze(THREE.replace("T.serial(16)", "T.serial(15)"), "f.py")
    assert ana.misses == 4
    moved = ana.analyze("# a new first line\n" + THREE, "f.py")  # units only move
    assert ana.misses == 4
    assert [d.span.line for d in moved.diagnostics()] == [13, 20]


def test_files_without_tvmscript_cost_nothing() -> None:
    ana = Analyzer()
    fa = ana.analyze("import numpy as np\nx = np.zeros(3)\n", "plain.py")
    assert not mentions_tvmscript(fa.text) and fa.units == [] and fa.host is None
    assert ana.misses == 0


def test_unit_analysis_records_bindings_and_uses() -> None:
    unit = KERNELS[KERNELS.index("@T.prim_func"):KERNELS.index("\n\n\n@T.prim_func", 100)]
    from tirkit.lang import tir as T

    result = analyze_unit(unit, {"T": T})
    assert result.ir is not None and not result.diagnostics
    names = [(o.name, o.span.line, o.is_def) for o in result.symbols.occurrences][:4]
    assert names == [("a", 2, True), ("b", 2, True), ("c", 2, True), ("A", 3, True)]


# ----------------------------------------------------------------------------- diagnostics
def test_related_information_and_notes() -> None:
    from tirkit.ir.diagnostics import Note

    span = Span("f.py", 1, 0, 1, 1)
    diag = Diagnostic.error("x", span, "bad", [Note("see here", Span("f.py", 2, 0, 2, 1)),
                                               Note("no place")])
    out = D.to_lsp(diag, PositionMap("a\nb\n"), "file:///f.py")
    assert out.message == "bad\nnote: no place"
    assert out.related_information[0].location.range.start.line == 1


def test_did_you_mean_fixes() -> None:
    span = Span("f.py", 1, 0, 1, 6)
    for message, text, replacement in [
            ("`T.vec` is not a TVMScript name; did you mean `T.vectorized`?", "T.vec",
             "T.vectorized"),
            ("name 'jx' is not defined; did you mean 'j'?", "jx", "j"),
            ("Buffer has no attribute 'shap'; did you mean 'shape'?", "A.shap", "A.shape")]:
        fix = D.suggestion_fix(Diagnostic.error("c", span, message), text)
        assert fix is not None and fix.replacement == replacement
    assert D.suggestion_fix(Diagnostic.error("c", span, "no hint"), "x") is None


# ----------------------------------------------------------------------------- hover
def _hover(text: str, needle: str, delta: int = 0, nth: int = 0) -> str:
    fa = Analyzer().analyze(text, "k.py")
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    offset += delta
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1)
    result = hover_markdown(fa, line, col)
    assert result is not None
    return result


def test_hover_contents() -> None:
    assert "- from parameter `c` of `matmul`" in _hover(KERNELS, "C[vi, vj] + ")
    assert "`vj: spatial [0, 128) = j`" in _hover(KERNELS, "vj, vk =")
    assert "- parameter of `matmul`, bound to buffer `A`" in _hover(KERNELS, "a: T.handle")
    expr = _hover(KERNELS, "* B[vj", 0)
    assert "A[vi, vk] * B[vj, vk]" in expr and "- dtype: `float32`" in expr
    assert _hover(KERNELS, "remap", 1).startswith("```python\nT.axis.remap(kinds: Literal")


def test_hover_simplifies_expressions() -> None:
    text = KERNELS.replace("B[i]=T.exp( A[i] )", "B[i]=T.exp( A[i * 2 // 2] )")
    hover = _hover(text, "i * 2 // 2", 6)
    assert "- simplified: `i`" in hover


def test_hover_on_a_module_function_name_and_on_an_empty_line() -> None:
    """``cls.add_one`` shows the PrimFunc's signature from the word's first character on (the
    lookup read one column to the left, so the first character showed nothing); an empty line
    inside the module shows nothing (it raised IndexError; found by fuzzing the server's
    functions)."""
    model = (DATA / "relax_model.py").read_text(encoding="utf-8")
    fa = Analyzer().analyze(model, "m.py")
    lines = model.split("\n")
    line0 = next(i for i, text in enumerate(lines) if "cls.add_one" in text)
    col = lines[line0].index("add_one")
    for c in (col, col + 3):
        assert "def add_one(a: T.handle, b: T.handle):" in hover_markdown(fa, line0 + 1, c)
    assert hover_markdown(fa, line0 + 1, col - 2) is None  # on `cls`
    empty = next(i for i, text in enumerate(lines) if i > line0 - 8 and not text.strip())
    assert fa.unit_at(empty + 1) is not None and hover_markdown(fa, empty + 1, 0) is None
    assert dotted_at("", -1) is None and dotted_at("T.x", 9) == (["T", "x"], 1)


# ----------------------------------------------------------------------------- navigation
def test_definition_references_symbols_folding_tokens() -> None:
    fa = Analyzer().analyze(KERNELS, "k.py")
    assert definition(fa, 14, 37) == Span("k.py", 6, 4, 6, 5, 144, 145) or \
        (definition(fa, 14, 37).line, definition(fa, 14, 37).column) == (6, 4)
    assert [s.line for s in references(fa, 14, 14)] == [11, 13, 14, 14, 14]
    assert len(references(fa, 14, 14, include_declaration=False)) == 4
    pmap = PositionMap(KERNELS)
    symbols = document_symbols(fa, pmap)
    assert [(s.name, s.kind) for s in symbols] == [("matmul", types.SymbolKind.Function),
                                                   ("add", types.SymbolKind.Function)]
    assert [c.name for c in symbols[1].children] == ["A", "B"]
    assert {(4, 13), (9, 13), (17, 19)} <= {(f.start_line, f.end_line)
                                            for f in folding_ranges(fa)}
    data = semantic_tokens(fa, pmap)
    assert data[:5] == [3, 1, 1, 0, 0]  # `T` of `@T.prim_func`: a namespace token


def test_t_names_dotted_and_calls() -> None:
    assert dotted_at("    x = T.axis.remap(", 16) == (["T", "axis", "remap"], 2)
    assert dotted_at("    x = T.axis.remap(", 10) == (["T", "axis"], 1)
    assert call_at("T.grid(4, (1, 2), ", 18) == ("T.grid", 2)
    assert call_at("A[T.exp(x)", 10) is None
    assert lookup("tir", "T", ("nope",)) is None
    assert "T.vectorized" in lookup("tir", "T", ("vectorized",)).signature


def test_completion_and_signature_help() -> None:
    fa = Analyzer().analyze(KERNELS, "k.py")
    labels = {i.label for i in complete(fa, 20, 15)}
    assert {"exp", "serial", "grid"} <= labels and not any(l.startswith("_") for l in labels)
    offset = KERNELS.index("(a, (128") + 3
    sig = signature_at(fa, offset, 6)
    assert sig.signatures[0].label.startswith("T.match_buffer(") and sig.active_parameter == 1


# ----------------------------------------------------------------------------- formatting
def test_fallback_formatting_touches_only_units_that_print_back() -> None:
    fa = Analyzer().analyze(KERNELS, "k.py")
    edits = fallback_edits(fa, PositionMap(KERNELS))
    assert [e.new_text.splitlines()[-1] for e in edits][-1] == \
        "        B[i] = T.exp(A[i]) + T.float32(1.0)"
    commented = KERNELS.replace("B[i]=T.exp", "# keep me\n        B[i]=T.exp")
    fa = Analyzer().analyze(commented, "k.py")
    assert all("keep me" not in e.new_text for e in fallback_edits(fa, PositionMap(commented)))
    broken = Analyzer().analyze(THREE, "t.py")
    assert all(e.range.start.line < 9 for e in fallback_edits(broken, PositionMap(THREE)))


def test_formatting_edit_is_minimal() -> None:
    fa = Analyzer().analyze(KERNELS, "k.py")
    new = KERNELS.replace("B[i]=T.exp( A[i] )", "B[i] = T.exp(A[i])")
    edits = format_edits(fa, PositionMap(KERNELS), api=lambda text, path: new)
    assert len(edits) == 1 and edits[0].range.start.line == edits[0].range.end.line == 19
    assert format_edits(fa, PositionMap(KERNELS), api=lambda text, path: text) == []


def test_analyzer_time_limit_stops_a_slow_unit_only():
    text = ('from tvm.script import tir as T\n\n\n@T.prim_func\n'
            'def slow(A: T.Buffer((sum([i % 3 for i in [1] * 200000]),), "float32")):\n'
            '    A[0] = 1.0\n\n\n@T.prim_func\n'
            'def fast(A: T.Buffer((4,), "float32")):\n    A[0] = 1.0\n')
    fa = Analyzer(time_limit=0.2).analyze(text, "slow.py")
    diags = fa.diagnostics()
    assert [d.code for d in diags] == ["budget"] and diags[0].span.line == 4
    assert "took more than 0.2 s of CPU time and was stopped" in diags[0].message
    assert [p.analysis.ir is not None for p in fa.units] == [False, True]


# ----------------------------------------------------------------------------- previews
def test_a_stage_is_printed_once_and_unchanged_stages_share_it() -> None:
    from tirkit.lsp.previews import (lower_unit, position_map, printed_stage, stage_payload,
                                     stage_text)

    fa = Analyzer().analyze(KERNELS, "k.py")
    placed = fa.units[0]
    lowering = lower_unit(placed.analysis)
    results = lowering.results
    same = next(i for i in range(1, len(results)) if results[i].mod is results[i - 1].mod)
    first = stage_payload(placed, lowering, same - 1)
    assert first["positionMap"] and set(lowering.printed) == {same - 1}
    again = stage_payload(placed, lowering, same)
    assert lowering.printed[same] is lowering.printed[same - 1]  # not printed a second time
    assert again["text"] == first["text"] and again["positionMap"] == first["positionMap"]
    for index in (0, same, len(results) - 1):  # what an uncached print gives
        mod = results[index].mod
        text = stage_text(mod)
        assert printed_stage(lowering, index).text == text
        assert stage_payload(placed, lowering, index)["positionMap"] == \
            position_map(placed, mod, text)


def test_hover_on_a_stepped_loop_var_shows_the_step() -> None:
    """TVM 0.27 tirx keeps ``range(1, 128, 5)``'s step in the For: the hover says so."""
    text = '''from tvm.script import tirx as T


@T.prim_func
def f(A: T.Buffer((128,), "float32")):
    for i in range(1, 128, 5):
        A[i] = T.float32(0.0)
'''
    hover = _hover(text, "i in")
    assert "- range: `[1, 128)` (extent `127`)" in hover and "- step: `5`" in hover


def test_no_schedule_action_is_offered_near_a_stepped_loop() -> None:
    """Schedule primitives refuse a loop whose step is not 1 and the blocks and loops around or
    inside it (LoopStepError): the code actions do not offer them; elsewhere they are."""
    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel
    from tirkit.lsp.schedule_actions import offered  # pylint: disable=import-outside-toplevel

    text = '''from tvm.script import tirx as T


@T.prim_func(s_tir=True)
def f(A: T.Buffer((128,), "float32"), C: T.Buffer((8,), "float32")):
    for i in range(0, 128, 4):
        for j in range(4):
            with T.sblock("b"):
                vi = T.axis.spatial(128, i + j)
                A[vi] = T.float32(1.0)
    for k in range(8):
        with T.sblock("c"):
            vk = T.axis.spatial(8, k)
            C[vk] = T.float32(0.0)
'''
    (unit,) = parse_file(text, "k.py")
    lines = text.split("\n")
    at = {name: lines.index(next(ln for ln in lines if name in ln)) + 1
          for name in ("for i", "for j", 'sblock("b")', "for k", 'sblock("c")')}
    for name in ("for i", "for j", 'sblock("b")'):
        assert offered(unit.ir, "f", at[name]) == [], name
    assert any(a["primitive"] == "split" for a in offered(unit.ir, "f", at["for k"]))
    assert not any(a["primitive"] == "compute_at" and a["args"]["loop"] in ("i", "j")
                   for a in offered(unit.ir, "f", at['sblock("c")']))


def test_no_schedule_action_is_offered_in_a_function_without_blocks() -> None:
    """A function of loops and statements only has no root block, which ``Schedule`` refuses:
    the code actions offered ``parallel`` / ``vectorize`` ... on its loops anyway, and applying
    one escaped as a TypeError (found by the mutation fuzzer's tirls target); now none is
    offered, and a stale action is an ActionError."""
    import pytest  # pylint: disable=import-outside-toplevel

    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel
    from tirkit.lsp.schedule_actions import (  # pylint: disable=import-outside-toplevel
        ActionError, apply_action, offered)

    text = '''from tvm.script import tir as T


@T.prim_func
def f(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(1.0)
'''
    (unit,) = parse_file(text, "k.py")
    assert offered(unit.ir, "f", 6) == []
    stale = {"primitive": "parallel", "unit": "f", "line": 6, "target": "i", "args": {}}
    with pytest.raises(ActionError, match="not a root block"):
        apply_action(text, "k.py", stale)
