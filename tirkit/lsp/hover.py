"""Hover: what the IR is at a position, as Markdown with Python (TVMScript) fences (no TVM
counterpart).

Buffers show dtype, shape, strides, scope and where they are declared; loop vars their range
and ``ForKind``; blocks their iter vars (kind, domain, binding), reads/writes and init;
expressions their dtype and simplified form (:class:`tirkit.arith.Analyzer`); ``T.`` names
their signature and doc.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from tirkit import tir
from tirkit.ir import Range
from tirkit.ir.node import Node

from .analysis import FileAnalysis, PlacedUnit, is_macro_span
from .irindex import IRIndex
from .symbols import Occurrence
from .tnames import dotted_at, lookup

__all__ = ["hover_markdown", "buffer_markdown", "loop_markdown", "block_markdown",
           "expr_markdown", "t_name_markdown"]

_ITER_KINDS = {tir.IterVarType.DataPar: "spatial", tir.IterVarType.CommReduce: "reduce",
               tir.IterVarType.Ordered: "scan", tir.IterVarType.DimInfo: "opaque"}


def _script(node: Any) -> str:
    """``node`` printed as TVMScript (never raises)."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    try:
        return script(node)
    except Exception:  # pylint: disable=broad-except
        return repr(node)


def _fence(code: str) -> str:
    return f"```python\n{code}\n```"


def _tuple(exprs: Any) -> str:
    items = [_script(e) for e in exprs]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def buffer_markdown(buf: tir.Buffer, origin: str | None, declared: str | None) -> str:
    """Hover text of a buffer."""
    head = f'{buf.name}: T.Buffer({_tuple(buf.shape)}, "{buf.dtype}")'
    lines = [_fence(head), "",
             f"- dtype: `{buf.dtype}`", f"- shape: `{_tuple(buf.shape)}`",
             f"- strides: `{_tuple(buf.strides)}`" if buf.strides
             else "- strides: compact (row-major)",
             f"- scope: `{buf.scope()}`"]
    if not (isinstance(buf.elem_offset, tir.IntImm) and buf.elem_offset.value == 0):
        lines.append(f"- elem_offset: `{_script(buf.elem_offset)}`")
    if origin:
        lines.append(f"- from {origin}")
    if declared:
        lines.append(f"- declared at {declared}")
    return "\n".join(lines)


def loop_markdown(loop: tir.For) -> str:
    """Hover text of a loop var: range and ForKind."""
    var = loop.loop_var
    end = _script(tir.add(loop.min, loop.extent)) if not _is_zero(loop.min) \
        else _script(loop.extent)
    lines = [_fence(f"{var.name_hint}: {var.dtype}  # loop var"), "",
             f"- range: `[{_script(loop.min)}, {end})` (extent `{_script(loop.extent)}`)",
             f"- kind: `ForKind.{loop.kind.name}`"]
    if loop.step is not None:
        lines.insert(3, f"- step: `{_script(loop.step)}`")
    if loop.thread_binding is not None:
        lines.append(f"- thread: `{loop.thread_binding.thread_tag}`")
    if loop.annotations:
        lines.append(f"- annotations: `{loop.annotations}`")
    return "\n".join(lines)


def _is_zero(expr: Any) -> bool:
    return isinstance(expr, tir.IntImm) and expr.value == 0


def _iter_line(iv: tir.IterVar, binding: Any) -> str:
    kind = _ITER_KINDS.get(iv.iter_type, iv.iter_type.name)
    dom = f"[{_script(iv.dom.min)}, {_script(iv.dom.min + iv.dom.extent)})" \
        if iv.dom is not None else "?"
    return f"{iv.var.name_hint}: {kind} {dom} = {_script(binding)}"


def iter_var_markdown(realize: tir.BlockRealize, i: int) -> str:
    """Hover text of a block iter var: kind, domain, binding and its block."""
    iv = realize.block.iter_vars[i]
    return "\n".join([_fence(f"{iv.var.name_hint}: {iv.var.dtype}  # block iter var"), "",
                      f"- `{_iter_line(iv, realize.iter_values[i])}`",
                      f"- block: `{realize.block.name_hint}`"])


def block_markdown(realize: tir.BlockRealize) -> str:
    """Hover text of a block: iter vars with kinds and bindings, reads/writes, init."""
    block = realize.block
    code = [f'with T.block("{block.name_hint}"):']
    code += [f"    {_iter_line(iv, v)}" for iv, v in zip(block.iter_vars, realize.iter_values)]
    if not (isinstance(realize.predicate, tir.IntImm) and realize.predicate.value == 1):
        code.append(f"    T.where({_script(realize.predicate)})")
    code.append("    T.reads(" + ", ".join(_script(r) for r in block.reads) + ")")
    code.append("    T.writes(" + ", ".join(_script(w) for w in block.writes) + ")")
    lines = [_fence("\n".join(code))]
    if block.init is not None:
        lines += ["", "init:", _fence(_script(block.init))]
    if block.alloc_buffers:
        lines.append("- alloc_buffers: " + ", ".join(f"`{b.name}`" for b in block.alloc_buffers))
    if block.annotations:
        lines.append(f"- annotations: `{block.annotations}`")
    return "\n".join(lines)


def expr_markdown(expr: tir.PrimExpr, index: IRIndex | None) -> str:
    """Hover text of an expression: printed form, dtype and simplified form (loop vars bound
    to their ranges)."""
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel

    text = _script(expr)
    lines = [_fence(text), "", f"- dtype: `{expr.dtype}`"]
    try:
        ana = Analyzer()
        for loop in (index.loops.values() if index else ()):
            ana.bind(loop.loop_var, Range.from_min_extent(loop.min, loop.extent))
        simplified = _script(ana.simplify(expr))
    except Exception:  # pylint: disable=broad-except  # hover never fails
        simplified = text
    if simplified != text:
        lines.append(f"- simplified: `{simplified}`")
    return "\n".join(lines)


def t_name_markdown(placed: PlacedUnit, line_text: str, column: int) -> str | None:
    """Signature and doc of the ``T.``/``I.`` name under ``column``, or ``None``."""
    found = dotted_at(line_text, column)
    if found is None:
        return None
    parts, _ = found
    aliases = dict(placed.unit.aliases) or {"T": "tir", "I": "ir"}
    kind = aliases.get(parts[0])
    if kind is None:
        return None
    if len(parts) == 1:
        return _fence(f"import tvm.script.{kind} as {parts[0]}") + \
            f"\n\nThe TVMScript `{kind}` namespace."
    info = lookup(kind, parts[0], tuple(parts[1:]))
    return info.markdown() if info is not None else None


def _var_markdown(var: tir.Var, index: IRIndex) -> str:
    loop = index.loops.get(id(var))
    if loop is not None:
        return loop_markdown(loop)
    hit = index.iter_vars.get(id(var))
    if hit is not None:
        return iter_var_markdown(*hit)
    param = index.params.get(id(var))
    if param is not None:
        name, func = param
        text = f"- parameter of `{name}`"
        buf = func.buffer_map.get(var)
        if buf is not None:
            text += f", bound to buffer `{buf.name}`"
        return _fence(f"{var.name_hint}: T.{var.dtype}") + "\n\n" + text
    return _fence(f"{var.name_hint}: {var.dtype}")


def _symbol_markdown(occ: Occurrence, placed: PlacedUnit, index: IRIndex,
                     lines: list[str]) -> str | None:
    value = occ.value
    if isinstance(value, tir.IterVar):
        value = value.var
    if isinstance(value, tir.Buffer):
        definition = placed.analysis.symbols.definition(occ.value)
        declared = None
        if definition is not None:
            line = definition.span.line + placed.line_delta
            source = lines[line - 1].strip() if line - 1 < len(lines) else ""
            declared = f"line {line}: `{source}`"
        return buffer_markdown(value, index.buffer_origin.get(id(value)), declared)
    if isinstance(value, tir.Var):
        return _var_markdown(value, index)
    if isinstance(value, tir.PrimExpr):
        return expr_markdown(value, index)
    if type(value).__module__.startswith("tirkit.relax."):
        from tirkit.relax.script.describe import markdown  # pylint: disable=import-outside-toplevel

        return markdown(value)
    return None


def module_function_markdown(placed: PlacedUnit, line_text: str, column: int) -> str | None:
    """``cls.f`` / ``Module.f`` under the cursor: the signature of the module's function ``f``
    (e.g. the PrimFunc an ``R.call_tir`` targets)."""
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel

    mod = placed.analysis.ir
    found = dotted_at(line_text, column)
    if not isinstance(mod, IRModule) or found is None or len(found[0]) != 2 or found[1] != 1:
        return None
    owner, name = found[0]
    if owner not in ("cls", placed.unit.name) or name not in mod:
        return None
    from tirkit.relax.script.describe import function_markdown  # pylint: disable=import-outside-toplevel

    return function_markdown(name, mod[name])


def outermost_stmts_at(ir: Any, line: int) -> list[tir.Stmt]:
    """The outermost statements of ``ir`` built for the statement on unit ``line`` (what a
    ``T.compute`` or a metaprogrammed loop on that line expands to)."""
    out: list[tir.Stmt] = []
    todo = [ir]
    while todo:
        obj = todo.pop()
        if isinstance(obj, (list, tuple)):
            todo.extend(reversed(obj))
        elif isinstance(obj, dict):
            todo.extend(reversed(list(obj.values())))
        elif isinstance(obj, tir.Stmt) and obj.span is not None and obj.span.line == line \
                and not is_macro_span(obj.span):
            out.append(obj)
        elif isinstance(obj, Node) and not isinstance(obj, tir.PrimExpr):
            todo.extend(reversed([getattr(obj, f.name) for f in fields(obj)
                                  if f.name != "span"]))
    return out


def expansion_markdown(placed: PlacedUnit, line_text: str, column: int, uline: int
                       ) -> str | None:
    """What a macro call, a ``T.compute`` or a metaprogrammed loop header under the cursor
    expands to, as TIR."""
    for span, name, stmts in placed.analysis.expansions:
        if span.line <= uline <= span.end_line and stmts:
            return f"macro `{name}` expands to:\n\n" + \
                _fence("\n".join(_script(s) for s in stmts))
    found = dotted_at(line_text, column)
    is_compute = found is not None and found[0][-1:] == ["compute"]
    is_loop = line_text.lstrip().startswith("for ") and " in " in line_text[:column]
    if not (is_compute or is_loop):
        return None
    stmts = outermost_stmts_at(placed.analysis.ir, uline)
    if not stmts:
        return None
    what = "`T.compute`" if is_compute else "this loop"
    return f"{what} expands to:\n\n" + _fence("\n".join(_script(s) for s in stmts))


def hover_markdown(fa: FileAnalysis, line: int, column: int) -> str | None:
    """Hover text at 1-based file ``line`` and code-point ``column``, or ``None``."""
    placed = fa.unit_at(line)
    if placed is None:
        return None
    lines = fa.text.split("\n")
    line_text = lines[line - 1] if line - 1 < len(lines) else ""
    uline, ucol = placed.to_unit(line, column)
    expansion = expansion_markdown(placed, line_text, column, uline)
    text = t_name_markdown(placed, line_text, column) or \
        module_function_markdown(placed, line_text, column)
    if text is not None or expansion is not None:
        return "\n\n".join(t for t in (text, expansion) if t)
    index = placed.analysis.index()
    occ = placed.analysis.symbols.at(uline, ucol)
    if occ is not None:
        text = _symbol_markdown(occ, placed, index, lines)
        if text is not None:
            return text
    realize = index.block_at(uline)
    if realize is not None:
        return block_markdown(realize)
    expr = index.expr_at(uline, ucol)
    return expr_markdown(expr, index) if expr is not None else None
