"""The language server's hover on Relax functions: a var's struct info, the PrimFunc a
call_tir targets (issue 12, tooling)."""
from tirkit.lsp.analysis import Analyzer
from tirkit.lsp.hover import hover_markdown

from test_script_and_vm import ADD_ONE

LINES = ADD_ONE.split("\n")


def _hover(line, word):
    fa = Analyzer().analyze(ADD_ONE, "model.py")
    return hover_markdown(fa, line, LINES[line - 1].index(word) + 1)


def test_hover_relax_param_and_dataflow_var():
    text = _hover(20, "x:")
    assert 'x: R.Tensor((n, 4), dtype="float32")' in text and "- Relax var" in text
    assert "dataflow var" in _hover(23, "lv =")


def test_hover_call_tir_target():
    text = _hover(23, "add_one")
    assert "def add_one(a: T.handle, b: T.handle):" in text
    assert "`A`: `float32[n, 4]`" in text
