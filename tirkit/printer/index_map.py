"""Printing of ``IndexMap`` as ``T.index_map(lambda i, j: (...))`` (mirrors the IndexMap dispatch
of TVM's ``src/script/printer/tir/expr.cc``)."""
from __future__ import annotations

from tirkit.tir.index_map import IndexMap

from .context import E, Printer, register
from .doc import concat, join
from .expr import call


def _lambda(p: Printer, imap: IndexMap) -> E:
    with p.frame(None) as f:  # the lambda defines its vars (TVM: With<TIRFrame> + DefineVar)
        params = join(", ", [p.define(v, f, v.name_hint) for v in imap.initial_indices])
        results = [concat(p.expr(e).doc, ",") for e in imap.final_indices]
    return E(concat("lambda ", params, ": (", join(" ", results), ")"))


@register(IndexMap)
def _index_map(p: Printer, imap: IndexMap) -> E:
    kwargs = []
    if imap.inverse_index_map is not None:
        kwargs.append(("inverse_index_map", _lambda(p, imap.inverse_index_map).doc))
    return call(p, p.T("index_map"), [_lambda(p, imap).doc], kwargs)
