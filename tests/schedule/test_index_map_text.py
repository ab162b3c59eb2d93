"""The text codec of IndexMaps in traces (tirkit.schedule.index_map_text): what
index_map_to_lambda prints, index_map_from_lambda reads back."""
from tirkit import tir
from tirkit.schedule.index_map_text import index_map_from_lambda, index_map_to_lambda
from tirkit.tir import IndexMap


def test_an_index_map_with_if_then_else_reads_back():
    """`T.if_then_else` is one of the calls the reader allows; it looked the op function up in
    tirkit.tir.op, which has none (found by mypy: AttributeError instead of the map)."""
    imap = IndexMap.from_func(lambda i: (tir.if_then_else(i < 4, i, 0),), index_dtype="int64")
    text = index_map_to_lambda(imap)
    assert "T.if_then_else(" in text
    assert index_map_to_lambda(index_map_from_lambda(text, "int64")) == text
