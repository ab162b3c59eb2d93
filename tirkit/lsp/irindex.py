"""An index over a parsed unit's IR for position queries (no TVM counterpart).

One walk over the IR records, per node kind (one registration table, DESIGN.md §7): loops by
loop var, block iter vars by var, blocks and expressions with their spans, buffers with where
they come from (parameter, ``T.match_buffer``, ``T.alloc_buffer`` of a block...).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable, cast

from tirkit import tir
from tirkit.ir.node import Node
from tirkit.ir.span import Span

__all__ = ["IRIndex", "build_index", "span_contains"]


def span_contains(span: Span | None, line: int, column: int) -> bool:
    """Whether ``(line, column)`` lies inside ``span`` (end inclusive)."""
    return span is not None and \
        (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def _size(span: Span) -> tuple[int, int]:
    return span.end_line - span.line, span.end_column - span.column


@dataclass
class IRIndex:
    """What :func:`build_index` found in one unit's IR (everything by object identity)."""

    funcs: list[tuple[str, tir.PrimFunc]] = field(default_factory=list)
    loops: dict[int, tir.For] = field(default_factory=dict)
    iter_vars: dict[int, tuple[tir.BlockRealize, int]] = field(default_factory=dict)
    blocks: list[tir.BlockRealize] = field(default_factory=list)
    exprs: list[tir.PrimExpr] = field(default_factory=list)
    buffer_origin: dict[int, str] = field(default_factory=dict)
    params: dict[int, tuple[str, tir.PrimFunc]] = field(default_factory=dict)

    def block_at(self, line: int) -> tir.BlockRealize | None:
        """The innermost block whose ``with T.block(...)`` header is on file-unit ``line``."""
        hits = [b for b in self.blocks if b.span is not None and b.span.line == line
                and b.block.name_hint != "root"]
        return hits[-1] if hits else None

    def drop(self, unwanted: Callable[[Any], bool]) -> None:
        """Forget blocks and expressions whose span is ``unwanted`` (e.g. from a macro body,
        whose spans are not in the unit's coordinates)."""
        self.blocks = [b for b in self.blocks if not unwanted(b.span)]
        self.exprs = [e for e in self.exprs if not unwanted(e.span)]

    def expr_at(self, line: int, column: int) -> tir.PrimExpr | None:
        """The smallest expression whose span contains ``(line, column)``."""
        hits = [e for e in self.exprs if span_contains(e.span, line, column)]
        return min(hits, key=lambda e: _size(cast(Span, e.span))) if hits else None


_VISITORS: dict[type, Callable[[IRIndex, Any, str], None]] = {}


def _register(cls: type) -> Callable:
    def deco(fn: Callable[[IRIndex, Any, str], None]) -> Callable:
        _VISITORS[cls] = fn
        return fn
    return deco


@_register(tir.PrimFunc)
def _func(index: IRIndex, func: tir.PrimFunc, where: str) -> None:
    name = str(func.attrs.get("global_symbol", where or "main"))
    index.funcs.append((name, func))
    for param in func.params:
        index.params[id(param)] = (name, func)
    for param, buf in func.buffer_map.items():
        index.buffer_origin.setdefault(id(buf), f"parameter `{param.name_hint}` of `{name}`")


@_register(tir.For)
def _for(index: IRIndex, loop: tir.For, where: str) -> None:
    index.loops[id(loop.loop_var)] = loop


@_register(tir.BlockRealize)
def _realize(index: IRIndex, realize: tir.BlockRealize, where: str) -> None:
    index.blocks.append(realize)
    block = realize.block
    for i, iv in enumerate(block.iter_vars):
        index.iter_vars[id(iv.var)] = (realize, i)
    for buf in block.alloc_buffers:
        index.buffer_origin.setdefault(id(buf), f"`T.alloc_buffer` in block `{block.name_hint}`")
    for region in block.match_buffers:
        index.buffer_origin.setdefault(id(region.buffer),
                                       f"`T.match_buffer` in block `{block.name_hint}`")


@_register(tir.DeclBuffer)
def _decl(index: IRIndex, stmt: Any, where: str) -> None:
    index.buffer_origin.setdefault(id(stmt.buffer), "`T.decl_buffer`")


_STATEMENT = re.compile(r"(with|for|if|elif|else|while|def|class|return|assert|@)\b")


def is_expression_text(text: str, expr: Any) -> bool:
    """Whether ``text`` (the source under an expression's span) is really that expression's
    text: spans copied from an enclosing statement onto derived nodes are not."""
    text = text.strip()
    if not text or _STATEMENT.match(text):
        return False
    if isinstance(expr, tir.Var):
        return text == expr.name_hint
    depth = 0
    flat = re.sub(r"[=!<>]=", "", text)
    for ch in flat:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "=" and depth == 0:
            return False
    return True


def _span_text(lines: list[str], span: Span) -> str:
    if span.line == span.end_line:
        return lines[span.line - 1][span.column:span.end_column] if span.line <= len(lines) \
            else ""
    return "\n".join([lines[span.line - 1][span.column:]] + lines[span.line:span.end_line - 1]
                     + [lines[span.end_line - 1][:span.end_column]])


def build_index(ir: Any, text: str | None = None) -> IRIndex:
    """Walk ``ir`` (a PrimFunc or IRModule) once and index it. With the unit's ``text``, only
    expressions whose span really holds their text are indexed for :meth:`IRIndex.expr_at`."""
    index = IRIndex()
    seen: set[int] = set()
    roots: list[tuple[Any, str]] = []
    if isinstance(ir, tir.PrimFunc):
        roots.append((ir, ""))
    elif ir is not None and hasattr(ir, "functions"):
        roots.extend((f, gv.name_hint) for gv, f in ir.functions.items())
    for root, name in roots:
        _walk(index, root, name, seen)
    if text is not None:
        lines = text.split("\n")
        index.exprs = [e for e in index.exprs if cast(Span, e.span).end_line <= len(lines)
                       and is_expression_text(_span_text(lines, cast(Span, e.span)), e)]
    return index


def _walk(index: IRIndex, root: Any, where: str, seen: set[int]) -> None:
    todo = [root]
    while todo:
        obj = todo.pop()
        if isinstance(obj, (list, tuple)):
            todo.extend(reversed(obj))
            continue
        if isinstance(obj, dict):
            todo.extend(reversed(list(obj.keys()) + list(obj.values())))
            continue
        if not isinstance(obj, Node) or id(obj) in seen:
            continue
        seen.add(id(obj))
        visitor = _VISITORS.get(type(obj))
        if visitor is not None:
            visitor(index, obj, where)
        if isinstance(obj, tir.PrimExpr) and obj.span is not None:
            index.exprs.append(obj)
        todo.extend(reversed([getattr(obj, f.name) for f in fields(obj) if f.name != "span"]))
