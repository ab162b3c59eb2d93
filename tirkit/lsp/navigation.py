"""Go to definition, find references, document symbols, folding ranges and semantic tokens of
TVMScript units (no TVM counterpart). Pure functions over a
:class:`~tirkit.lsp.analysis.FileAnalysis`; positions are tirkit's (1-based line, code-point
column) and :class:`~tirkit.lsp.positions.PositionMap` makes them LSP's.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from lsprotocol import types

from tirkit import tir
from tirkit.ir.span import Span
from tirkit.lang import syntax as S

from .analysis import FileAnalysis, PlacedUnit
from .positions import PositionMap
from .tnames import dotted_at, lookup

__all__ = ["definition", "references", "document_symbols", "folding_ranges",
           "semantic_tokens", "TOKEN_TYPES", "TOKEN_MODIFIERS"]


def _occurrence_at(fa: FileAnalysis, line: int, column: int) -> tuple[PlacedUnit, Any] | None:
    placed = fa.unit_at(line)
    if placed is None:
        return None
    occ = placed.analysis.symbols.at(*placed.to_unit(line, column))
    return (placed, occ) if occ is not None else None


def definition(fa: FileAnalysis, line: int, column: int) -> Span | None:
    """File span of the binding of the name at ``(line, column)``, or ``None``."""
    hit = _occurrence_at(fa, line, column)
    if hit is None:
        return module_function_definition(fa, line, column)
    placed, occ = hit
    found = placed.analysis.symbols.definition(occ.value)
    return placed.to_file(found.span) if found is not None else None


def module_function_definition(fa: FileAnalysis, line: int, column: int) -> Span | None:
    """For ``cls.f`` / ``Module.f`` under the cursor inside an ``@I.ir_module`` class (e.g. the
    PrimFunc an ``R.call_tir`` targets): the file span of ``f``'s name in its ``def``."""
    placed = fa.unit_at(line)
    lines = fa.text.split("\n")
    if placed is None or not 0 < line <= len(lines):
        return None
    found = dotted_at(lines[line - 1], column - 1)
    if found is None or len(found[0]) != 2 or found[1] != 1 or \
            found[0][0] not in ("cls", placed.unit.name):
        return None
    pattern = re.compile(rf"^\s*def\s+({re.escape(found[0][1])})\b")
    for i in range(placed.unit.span.line, min(placed.unit.span.end_line, len(lines)) + 1):
        match = pattern.match(lines[i - 1])
        if match:
            return Span(fa.path, i, match.start(1), i, match.end(1))
    return None


def references(fa: FileAnalysis, line: int, column: int,
               include_declaration: bool = True) -> list[Span]:
    """File spans of every occurrence of the symbol at ``(line, column)``."""
    hit = _occurrence_at(fa, line, column)
    if hit is None:
        return []
    placed, occ = hit
    return [placed.to_file(o.span) for o in
            placed.analysis.symbols.references(occ.value, include_declaration)]


# ----------------------------------------------------------------------------- outline
def _block_name(node: S.With, aliases: dict[str, str]) -> str | None:
    """The name of ``with T.block("name")`` (or ``T.sblock``), else ``None``."""
    for item in node.items:
        call = item.context_expr
        if isinstance(call, S.Call) and isinstance(call.func, S.Attribute) and \
                isinstance(call.func.value, S.Name) and call.func.value.id in aliases and \
                call.func.attr in ("block", "sblock"):
            arg = call.args[0] if call.args else None
            return arg.value if isinstance(arg, S.Constant) and isinstance(arg.value, str) \
                else ""
    return None


def _symbol(name: str, kind: types.SymbolKind, span: Span, sel: Span, pmap: PositionMap,
            children: list[types.DocumentSymbol], detail: str | None = None
            ) -> types.DocumentSymbol:
    return types.DocumentSymbol(name=name or "<unnamed>", kind=kind, range=pmap.range(span),
                                selection_range=pmap.range(sel), children=children or None,
                                detail=detail)


def _stmt_children(stmts: Any, ctx: dict) -> list[types.DocumentSymbol]:
    out: list[types.DocumentSymbol] = []
    for stmt in stmts:
        out.extend(_stmt_symbols(stmt, ctx))
    return out


def _stmt_symbols(stmt: Any, ctx: dict) -> list[types.DocumentSymbol]:
    placed, pmap = ctx["placed"], ctx["pmap"]
    to_file = placed.to_file
    if isinstance(stmt, S.FunctionDef):
        kids = _buffers_in(stmt.span, ctx) + _stmt_children(stmt.body, ctx)
        return [_symbol(stmt.name, types.SymbolKind.Function, to_file(stmt.span),
                        to_file(stmt.name_span), pmap, kids, "prim_func")]
    if isinstance(stmt, S.ClassDef):
        return [_symbol(stmt.name, types.SymbolKind.Module, to_file(stmt.span),
                        to_file(getattr(stmt, "name_span", stmt.span)), pmap,
                        _stmt_children(stmt.body, ctx), "ir_module")]
    nested = _stmt_children(_bodies(stmt), ctx)
    if isinstance(stmt, S.With):
        name = _block_name(stmt, ctx["aliases"])
        if name is not None:
            return [_symbol(name, types.SymbolKind.Struct, to_file(stmt.span),
                            to_file(stmt.items[0].context_expr.span), pmap, nested, "block")]
    return nested


def _bodies(stmt: Any) -> list[Any]:
    return [s for f in ("body", "orelse") for s in (getattr(stmt, f, None) or ())
            if isinstance(s, S.StmtNode)]


def _buffers_in(span: Span, ctx: dict) -> list[types.DocumentSymbol]:
    """Buffers bound inside a function: parameters annotated ``T.Buffer``, ``T.match_buffer``,
    ``T.alloc_buffer``, ``T.decl_buffer``."""
    placed, pmap = ctx["placed"], ctx["pmap"]
    out = []
    for occ in placed.analysis.symbols.occurrences:
        if occ.is_def and isinstance(occ.value, tir.Buffer) and \
                span.line <= occ.span.line <= span.end_line:
            buf = occ.value
            sp = placed.to_file(occ.span)
            out.append(_symbol(occ.name, types.SymbolKind.Variable, sp, sp, pmap, [],
                               f"{buf.dtype} {tuple(_int(e) for e in buf.shape)}"))
    return out


def _int(expr: Any) -> Any:
    return expr.value if isinstance(expr, tir.IntImm) else str(expr)


def document_symbols(fa: FileAnalysis, pmap: PositionMap) -> list[types.DocumentSymbol]:
    """The outline: units (functions and ir_module classes), their blocks and buffers."""
    out = []
    for placed in fa.units:
        tree = placed.analysis.tree
        if tree is None:
            continue
        ctx = {"placed": placed, "pmap": pmap,
               "aliases": dict(placed.unit.aliases) or {"T": "tir", "I": "ir"}}
        out.extend(_stmt_children(tree.body, ctx))
    return out


def folding_ranges(fa: FileAnalysis) -> list[types.FoldingRange]:
    """Folding ranges of every multi-line compound statement of every unit (0-based lines)."""
    out = []
    for placed in fa.units:
        if placed.analysis.tree is None:
            continue
        for node in S.walk(placed.analysis.tree):
            if isinstance(node, S.StmtNode) and getattr(node, "body", None) and \
                    node.span.end_line > node.span.line:
                sp = placed.to_file(node.span)
                out.append(types.FoldingRange(start_line=sp.line - 1, end_line=sp.end_line - 1,
                                              kind=types.FoldingRangeKind.Region))
    return sorted(out, key=lambda r: (r.start_line, -r.end_line))


# ----------------------------------------------------------------------------- tokens
TOKEN_TYPES = ["namespace", "type", "function", "variable", "parameter", "property", "struct"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_T = {n: i for i, n in enumerate(TOKEN_TYPES)}
_M = {n: 1 << i for i, n in enumerate(TOKEN_MODIFIERS)}


def _value_token(occ: Any, index: Any) -> tuple[int, int]:
    value = occ.value.var if isinstance(occ.value, tir.IterVar) else occ.value
    mods = _M["declaration"] if occ.is_def else 0
    if isinstance(value, tir.Buffer):
        return _T["variable"], mods
    if isinstance(value, tir.Var):
        if id(value) in index.params:
            return _T["parameter"], mods
        if id(value) in index.loops or id(value) in index.iter_vars:
            return _T["variable"], mods | _M["readonly"]
    return _T["variable"], mods


def _namespace_tokens(placed: PlacedUnit) -> Iterator[tuple[Span, int, int]]:
    aliases = dict(placed.unit.aliases) or {"T": "tir", "I": "ir"}
    for node in S.walk(placed.analysis.tree):
        if not isinstance(node, S.Attribute) or not isinstance(node.value, S.Name) or \
                node.value.id not in aliases:
            continue
        yield node.value.span, _T["namespace"], 0
        info = lookup(aliases[node.value.id], node.value.id, (node.attr,))
        if info is not None:
            kind = _T["type"] if info.kind == types.CompletionItemKind.Class or \
                node.attr in ("Buffer", "handle") else _T["function"]
            yield node.attr_span, kind, _M["defaultLibrary"]


def _unit_tokens(placed: PlacedUnit) -> list[tuple[Span, int, int]]:
    if placed.analysis.tree is None:
        return []
    index = placed.analysis.index()
    toks = [(o.span, *_value_token(o, index)) for o in placed.analysis.symbols.occurrences]
    toks += list(_namespace_tokens(placed))
    return [(placed.to_file(sp), t, m) for sp, t, m in toks if sp.line == sp.end_line]


def semantic_tokens(fa: FileAnalysis, pmap: PositionMap) -> list[int]:
    """LSP's relative encoding of every token (5 integers each), in source order."""
    toks = sorted((t for u in fa.units for t in _unit_tokens(u)),
                  key=lambda t: (t[0].line, t[0].column))
    data: list[int] = []
    prev_line, prev_char = 0, 0
    seen = set()
    for span, ttype, mods in toks:
        start = pmap.position(span.line, span.column)
        end = pmap.position(span.line, span.end_column)
        if (start.line, start.character) in seen or end.character <= start.character:
            continue
        seen.add((start.line, start.character))
        delta_line = start.line - prev_line
        delta_char = start.character - prev_char if delta_line == 0 else start.character
        data += [delta_line, delta_char, end.character - start.character, ttype, mods]
        prev_line, prev_char = start.line, start.character
    return data
