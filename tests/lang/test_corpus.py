"""The front end's corpus (tests/lang/cases): every unit parses without a diagnostic, and every IR
node carries a span inside its unit that points at the text it came from (contract 3)."""
from pathlib import Path

import pytest

from tirkit import tir
from tirkit.ir import IRModule, Node
from tirkit.ir.node import node_fields
from tirkit.ir.span import LineIndex
from tirkit.lang import parse_file

CASES = Path(__file__).parent / "cases"
FILES = sorted(CASES.glob("*.py"))


def _walk(obj, out):
    if isinstance(obj, (list, tuple)):
        for item in obj:
            _walk(item, out)
    elif isinstance(obj, dict):
        for value in obj.values():
            _walk(value, out)
    elif isinstance(obj, Node) and id(obj) not in out and not getattr(obj, "__interned__", False):
        out[id(obj)] = obj
        for f in node_fields(type(obj)):
            _walk(getattr(obj, f.name), out)


def test_corpus_has_at_least_150_units():
    total = sum(len(parse_file(f.read_text(), str(f))) for f in FILES)
    assert total >= 150


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_every_unit_parses_and_every_node_has_its_span(path):
    text = path.read_text(encoding="utf-8")
    li = LineIndex(text, str(path))
    units = parse_file(text, str(path))
    assert units, "no TVMScript unit found"
    for unit in units:
        assert not unit.diagnostics, "\n".join(
            f"{d.span}: {d.message}" for d in unit.diagnostics)
        assert unit.ir is not None
        assert isinstance(unit.ir, (tir.PrimFunc, IRModule))
        lo, hi = li.char_range(unit.span)
        nodes: dict = {}
        _walk(unit.ir, nodes)
        for node in nodes.values():
            if node.span is None:
                raise AssertionError(f"{type(node).__name__} {node!r} has no span")
            start, end = li.char_range(node.span)
            assert lo <= start <= end <= hi + 1, f"{type(node).__name__} span outside its unit"
            source = text[start:end]
            if isinstance(node, tir.For):
                assert source.startswith(("for ", "with ")) or "T.grid" in source, source
            elif isinstance(node, tir.BufferStore):
                assert "[" in source or "buffer_store" in source, source
            elif isinstance(node, tir.Block) and node.name_hint != "root":
                assert "block" in source, source
            elif isinstance(node, tir.IntImm):
                assert source.strip(), "empty span for a constant"
