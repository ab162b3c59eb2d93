"""The entry point :func:`script` (mirrors ``tvm.script.printer.script`` / ``Object.script`` and
``IRDocsifier`` + ``DocToPythonScript``)."""
from __future__ import annotations

from typing import Any

from tirkit.ir.module import IRModule
from tirkit.ir.deep import run_deep
from tirkit.ir.node import Node
from tirkit.tir.buffer import Buffer
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import MatchBufferRegion, Stmt

from . import block, buffer, expr, func, index_map, module, stmt  # noqa: F401  (register printers)
from .config import PrinterConfig
from .context import Printer
from .doc import Text
from .stmt_doc import CommentDoc, LineDoc, SDoc, layout, to_text

_STATEMENTS = (Stmt, PrimFunc, IRModule, MatchBufferRegion)


def resolve_path(root: Any, path: Any) -> Any:
    """The object at ``path`` below ``root``: field names, sequence indices and dict keys, e.g.
    ``("body", "block", "body", "seq", 0)`` (a tirkit rendering of TVM's ``ObjectPath``).

    Raises:
        KeyError: naming the first step that does not exist.
    """
    if isinstance(path, (str, int)):
        path = (path,)
    obj = root
    for step in path:
        try:
            if isinstance(obj, dict):
                obj = obj[step] if step in obj else list(obj.values())[step]
            elif isinstance(step, int):
                obj = obj[step]
            else:
                obj = getattr(obj, step)
        except (AttributeError, IndexError, KeyError, TypeError):
            raise KeyError(f"path {tuple(path)!r}: no step {step!r} in "
                           f"{type(obj).__name__}") from None
    return obj


def to_docs(node: Any, cfg: PrinterConfig) -> tuple[list[SDoc], Printer]:
    """The statement docs of ``node`` and the printer state (header usage, metadata)."""
    p = Printer(cfg)
    for path in cfg.path_to_underline:
        p.underline.add(id(resolve_path(node, path)))
    with p.frame(None) as root:
        if isinstance(node, _STATEMENTS) or getattr(node, "__script_header__", False):
            if isinstance(node, Stmt):
                p.body(node, root)
            else:
                root.stmts.extend(p.stmts(node))
            docs = root.stmts
        elif isinstance(node, Buffer):
            p.expr(node)
            docs = root.stmts
        else:
            p.define_free = False
            docs = [LineDoc(p.expr(node).doc)]
    return docs, p


def _header(p: Printer, cfg: PrinterConfig) -> list[SDoc]:
    tir_mod = "tirx" if cfg.dialect == "tirx" else "tir"
    out: list[SDoc] = []
    if p.type_vars:
        out.append(CommentDoc("from typing import TypeVar"))
    if "ir" in p.ir_usage:
        out.append(CommentDoc(f"from tvm.script import ir as {cfg.ir_prefix}"))
    if "tir" in p.ir_usage:
        out.append(CommentDoc(f"from tvm.script import {tir_mod} as {cfg.tir_prefix}"))
    if "relax" in p.ir_usage:
        out.append(CommentDoc("from tvm.script import relax as R"))
    out = out + [CommentDoc("")] if out else out
    # tirx: symbolic int64 shape vars of signatures, declared as TVM 0.27 prints them
    return out + [LineDoc(Text(f'{name} = TypeVar("{name}")')) for name in sorted(p.type_vars)]


def _metadata(p: Printer, cfg: PrinterConfig) -> list[SDoc]:
    if not p.metadata:
        return []
    if not cfg.show_meta:
        return [CommentDoc(""), CommentDoc("Metadata omitted. Use show_meta=True in script() "
                                           "method to show it.")]
    out: list[SDoc] = [CommentDoc(""), CommentDoc("metadata:")]
    for kind, items in p.metadata.items():
        for i, obj in enumerate(items):
            out.append(CommentDoc(f'metadata["{kind}"][{i}] = {obj!r}'))
    return out


def script(node: Any, **config: Any) -> str:
    """Print ``node`` as TVMScript (mirrors ``tvm.script.printer`` / ``Object.script()``).

    ``node`` is any IR object: an expression (``A[i] + T.float32(1.0)``), a statement, a
    Buffer, a BufferRegion, a Range, a PrimFunc (with the ``# from tvm.script import tir as T``
    header) or an IRModule. ``config`` are the :class:`PrinterConfig` options (``tir_prefix``,
    ``ir_prefix``, ``indent_spaces``, ``buffer_dtype``, ``int_dtype``, ``float_dtype``,
    ``syntax_sugar``, ``print_line_numbers``, ``obj_to_underline``, ``path_to_underline``,
    ``show_meta``, ``dialect``, ``line_length``, ``comments``, ``compute_sugar``,
    ``strided_loops``).

    Raises:
        TypeError: for an unknown option. Objects without a TVMScript form print as
        ``metadata["Kind"][i]`` references.
        tirkit.ir.deep.IRTooDeepError: for IR nested deeper than the deep worker's stack holds
        (deep nests, hundreds of loops or thousands of lets, recurse in the doc builder: they
        print on the deep worker, see :mod:`tirkit.ir.deep`).
    """
    return run_deep(_script, node, PrinterConfig.make(**config), what="script()")


def _script(node: Any, cfg: PrinterConfig) -> str:
    docs, p = to_docs(node, cfg)
    if isinstance(node, (PrimFunc, IRModule)) or getattr(node, "__script_header__", False):
        docs = _header(p, cfg) + docs
    docs = docs + _metadata(p, cfg)
    width = cfg.line_length if cfg.line_length else 1 << 30
    lay = layout(docs, cfg.indent_spaces, width, frozenset(p.underline))
    return to_text(lay, cfg.print_line_numbers)


__all__ = ["script", "to_docs", "resolve_path", "Node"]
