"""The parser core: walks a unit's syntax tree, dispatching each statement to its dialect's
handler, and collects every diagnostic (mirrors ``tvm.script.parser.core.parser.Parser``).

Error recovery: a statement that fails is reported and skipped; when a scope header fails (a
``for``/``with``/``if`` line), its body is still visited in a throwaway frame with placeholder
names, so errors inside are reported too (the IR of that body is dropped).
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager
from functools import partial
from typing import Any, Iterator, Mapping, Sequence, cast

from tirkit import tir
from tirkit.ir.diagnostics import Diagnostic, Fix, Note
from tirkit.ir.node import fill_missing_spans
from tirkit.ir.span import LineIndex, Span

from ..ir_builder.base import IRBuilder, IRBuilderFrame
from ..ir_builder.tir_frames import BlockFrame, ForFrame, TIRFrame
from . import dispatch
from .evaluator import POISON, EvalError, Evaluator, attach_span
from .evaluator_ops import bind_target, unpack_pairs
from .var_table import VarTable
from ..limits import MAX_SCOPES, LimitExceeded, check_budget


class ParseError(Exception):
    """A statement-level error: reported as a diagnostic at ``node``, then parsing goes on."""

    def __init__(self, node: Any, message: str, code: str = "parse",
                 notes: Sequence[str] = (), fixes: Sequence[Fix] = ()) -> None:
        super().__init__(message)
        self.node, self.message, self.code = node, message, code
        self.notes, self.fixes = tuple(notes), tuple(fixes)


class Parser:
    """Parses one TVMScript unit into IR through the IRBuilder.

    Args:
        env: names visible to expressions besides parsed ones: the file's ``T``/``I`` aliases
            bound to the namespaces, module constants (static) or the function's globals.
        static: the evaluator mode (see :mod:`.evaluator`).
        line_index: the file's LineIndex, used for spans of nodes that lack one.
        dialect: ``"tir"`` or ``"tirx"`` (tirx spellings are accepted in both; the dialect only
            changes which notes are given).
    """

    def __init__(self, env: Mapping[str, Any], *, static: bool = True,
                 line_index: LineIndex | None = None, dialect: str = "tir") -> None:
        self.table = VarTable()
        self.diagnostics: list[Diagnostic] = []
        self.line_index = line_index
        self.dialect = dialect
        self.token = "ir"
        self.builder = IRBuilder()
        # the evaluator's hooks hold no reference to the parser (no parser <-> evaluator
        # cycle: a parse's objects are freed by reference counting, not left to the cyclic GC)
        self.evaluator = Evaluator(self.table, env, static=static,
                                   span_of=partial(_span_of, line_index))
        self.loop_depth = 0  # enclosing for/while loops (for break/continue)
        self.recovering = 0  # > 0 while visiting a body whose scope header failed
        self.too_deep = False  # MAX_SCOPES was reached: the rest of the unit is not visited
        self.grid_levels = 0  # loops of the open T.grid frames beyond the first of each
        self.iter_binding_nodes: dict[int, tuple[str, Any]] = {}  # iter var -> (name, node)
        self.check_well_formed = self.unit_check_well_formed = True  # check_well_formed=
        self.forward_vars: dict[str, Any] = {}  # vars quoted dims named (forward_dims.py)
        self.macro_returns: list[type] = []  # ``return`` inside a T.macro raises the last
        self.evaluator.on_name = _BlockScopeHook(self)
        from ..ir_builder import tir_api  # pylint: disable=import-outside-toplevel

        ax = tir_api.axis
        self.evaluator.binding_funcs = {ax.spatial, ax.reduce, ax.scan, ax.opaque, ax.remap,
                                        tir_api.where, tir_api.reads, tir_api.writes}
        self.s_tir = False  # the current prim_func was declared with s_tir=True

    def _check_block_scope(self, node: Any, value: Any) -> None:
        """A loop var of a loop outside the innermost block (with iter vars) may only appear in
        that block's bindings (``T.axis.*``, ``T.where``), as TVM's well-formedness check says."""
        if not isinstance(value, tir.Var) or self.evaluator.binding_depth:
            return
        frames = self.builder.frames
        inner = next((k for k in range(len(frames) - 1, -1, -1)
                      if isinstance(frames[k], BlockFrame)), None)
        if inner is None:
            return
        block = cast(BlockFrame, frames[inner])
        if not block.iter_vars:
            return
        for frame in frames[:inner]:
            if isinstance(frame, ForFrame) and any(v is value for v in frame.vars):
                # TVM reports this in verify_well_formed, not while parsing: the IR is built
                self.warn(node, f"loop variable {value.name_hint!r} is used inside block "
                          f"{block.name!r}: use the block's iter vars", code="scope")
                return

    # ------------------------------------------------------------------ entry and plumbing
    def parse(self, tree: Any) -> Any:
        """Parse a unit (a FunctionDef or ClassDef node, or a Module holding one); returns the IR
        or ``None`` when errors prevented building it. Diagnostics are in ``self.diagnostics``."""
        node = tree.body[0] if type(tree).__name__ == "Module" else tree
        if type(node).__name__ == "ClassDef":
            token = "legacy_ir" if self.dialect == "legacy" else "ir"
        else:
            token = self.function_token(node)
        self.check_well_formed = self.unit_check_well_formed = not skips_well_formed(node)
        from .macro import ACTIVE  # pylint: disable=import-outside-toplevel

        ACTIVE.append(self)
        try:
            with self.builder, self.with_token(token):
                self.visit(node)
        finally:
            ACTIVE.remove(self)
        if any(d.severity == 1 for d in self.diagnostics):
            return None
        try:
            return self.builder.get()
        except RuntimeError:
            return None

    def function_token(self, node: Any) -> str:
        """The dialect of a ``def``: the ``tirkit_dialect`` its decorator declares
        (``@R.function`` → ``"relax"``), ``"legacy"`` in a legacy hybrid-script unit, else
        ``"tir"``."""
        if self.dialect == "legacy":
            return "legacy"
        for deco in getattr(node, "decorator_list", ()):
            target = deco.func if type(deco).__name__ == "Call" else deco
            try:
                value = self.evaluator.eval(target)
            except EvalError:
                continue
            dialect = getattr(value, "tirkit_dialect", None)
            if isinstance(dialect, str):
                return dialect
        return "tir"

    @contextmanager
    def with_token(self, token: str) -> Iterator[None]:
        """Parse the enclosed statements with dialect ``token`` (``with_dispatch_token``)."""
        old, self.token = self.token, token
        try:
            yield
        finally:
            self.token = old

    def span_of(self, node: Any) -> Span | None:
        """The span of a syntax node (our syntax tree carries one; Python ``ast`` nodes are
        converted through the LineIndex)."""
        return _span_of(self.line_index, node)

    def report(self, node: Any, message: str, code: str = "parse", notes: Sequence[str] = (),
               fixes: Sequence[Fix] = ()) -> None:
        """Record an error diagnostic at ``node`` (follow-on errors of a poisoned name are
        dropped)."""
        if code == "poisoned" or (code == "context" and self.recovering):
            return
        self.diagnostics.append(Diagnostic.error(code, self.span_of(node), message,
                                                 [Note(n) for n in notes], fixes))

    def warn(self, node: Any, message: str, code: str) -> None:
        """Record a warning at ``node`` (a check TVM leaves to its verifier: the IR is still
        built); dropped when the function says ``check_well_formed=False`` and while recovering.
        """
        if self.recovering or not self.check_well_formed:
            return
        self.diagnostics.append(Diagnostic.warning(code, self.span_of(node), message))

    def eval_expr(self, node: Any) -> Any:
        """Evaluate an expression node (raises :class:`EvalError`)."""
        return self.evaluator.eval(node)

    # ---------------------------------------------------------------------------- visiting
    def visit(self, node: Any) -> None:
        """Dispatch one statement to its handler, turning failures into diagnostics."""
        handler = dispatch.get(self.token, type(node).__name__)
        saved_span = self.builder.current_span
        self.builder.current_span = self.span_of(node)
        try:
            self._visit(node, handler)
        finally:
            self.builder.current_span = saved_span

    def _visit(self, node: Any, handler: Any) -> None:
        if handler is None:
            name = type(node).__name__
            kind = _STATEMENT_NAMES.get(name, f"{name} statements")
            where = _Keyword(node, _COMPOUND[name]) if name in _COMPOUND else node
            self.report(where, f"{kind} are not supported in TVMScript", code="unsupported")
            return
        try:
            handler(self, node)
            return
        except EvalError as err:
            self.report(err.node, err.message, err.code, err.notes)
        except ParseError as err:
            self.report(err.node, err.message, err.code, err.notes, err.fixes)
        except (OverflowError, MemoryError) as err:  # a converted value beyond its type
            self.report(node, f"value out of range: {err}", code="limit")
        except LimitExceeded as err:  # e.g. MAX_SCOPES
            self.report(node, str(err), code="limit")
        except (TypeError, ValueError, RuntimeError, KeyError, IndexError,
                ZeroDivisionError) as err:
            self.report(node, str(err) or type(err).__name__)
        self.poison(node)

    def poison(self, node: Any) -> None:
        """After a failed statement, mark the names it would have bound so their uses are not
        reported again (one error, not a cascade)."""
        targets = list(getattr(node, "targets", []) or [])
        for attr in ("target", "optional_vars"):
            if getattr(node, attr, None) is not None:
                targets.append(getattr(node, attr))
        for item in getattr(node, "items", []) or []:
            if item.optional_vars is not None:
                targets.append(item.optional_vars)
        for target in targets:
            for name_node in _names(target):
                self.table.add(name_node.id, POISON)

    def visit_body(self, stmts: Sequence[Any]) -> None:
        """Visit a statement list (``visit_body``); the unit's time budget is checked before each
        statement (:func:`tirkit.lang.limits.check_budget`)."""
        for stmt in stmts:
            if self.too_deep:  # one diagnostic, not one per statement after the limit
                return
            check_budget()
            self.visit(stmt)

    def enter_concise(self, frame: IRBuilderFrame) -> Any:
        """Open ``frame`` until the enclosing scope ends (concise scoping, seed 000)."""
        parent = self.builder.last_frame()
        if parent is None:
            raise RuntimeError("a scoped statement must be inside a function")
        self.check_nesting(1)
        parent.add_callback(partial(frame.__exit__, None, None, None))
        return frame.__enter__()

    def check_nesting(self, levels: int) -> None:
        """Refuse to open ``levels`` more nested IR levels beyond ``MAX_SCOPES`` (scopes plus
        the loops of ``T.grid``), so that the IR stays within what the recursive passes after
        the parser handle; the rest of the unit is then not visited (one diagnostic).

        Raises:
            LimitExceeded: the nest would be deeper than ``MAX_SCOPES``.
        """
        if len(self.builder.frames) + self.grid_levels + levels > MAX_SCOPES + 1:
            self.too_deep = True
            raise LimitExceeded(f"more than {MAX_SCOPES} nested scopes in one function (each "
                                "loop of a T.grid, and each statement such as "
                                "x = T.decl_buffer(...), scopes the rest of its block)")

    def recover_body(self, targets: Sequence[Any], body: Sequence[Any]) -> None:
        """Visit ``body`` after its header failed: names in ``targets`` become placeholder vars
        and the IR built is discarded; only the diagnostics remain."""
        self.recovering += 1
        try:
            with self.table.frame(), _Throwaway():
                for target in targets:
                    for name_node in _names(target):
                        self.table.add(name_node.id, POISON)
                self.visit_body(body)
        finally:
            self.recovering -= 1

    def bind(self, target: Any, value: Any) -> None:
        """Bind an assignment/loop target to ``value``, naming IR vars and buffers after it."""
        if type(target).__name__ == "Name":
            IRBuilder.name(target.id, value)
            fill_missing_spans(value, self.span_of(target))
            self.table.add(target.id, value)
            return
        bind_target(self.evaluator, target, value)
        for name_node, item in _named_items(target, value):
            IRBuilder.name(name_node.id, item)
            fill_missing_spans(item, self.span_of(name_node))


def _span_of(li: LineIndex | None, node: Any) -> Span | None:
    """:meth:`Parser.span_of` over the file's LineIndex ``li``."""
    span = getattr(node, "span", None)
    if span is not None or li is None or not hasattr(node, "lineno"):
        return span
    start = li.offset(node.lineno, _char_col(li, node.lineno, node.col_offset))
    end = li.offset(node.end_lineno, _char_col(li, node.end_lineno, node.end_col_offset))
    return li.span(start, end)


class _BlockScopeHook:
    """The evaluator's ``on_name`` hook: :meth:`Parser._check_block_scope` for resolved IR vars.
    It holds the parser weakly, so parser and evaluator form no reference cycle."""

    __slots__ = ("parser",)

    def __init__(self, parser: Parser) -> None:
        self.parser = weakref.ref(parser)

    def __call__(self, node: Any, value: Any) -> None:
        if isinstance(value, tir.Var):
            parser = self.parser()
            if parser is not None:
                parser._check_block_scope(node, value)  # pylint: disable=protected-access


_STATEMENT_NAMES = {
    "Import": "import statements", "ImportFrom": "import statements",
    "FunctionDef": "nested function definitions", "ClassDef": "class definitions",
    "Try": "try statements", "Raise": "raise statements", "Global": "global statements",
    "Nonlocal": "nonlocal statements", "Delete": "del statements", "Lambda": "lambdas",
}


_COMPOUND = {"Try": "try", "ClassDef": "class", "FunctionDef": "def"}


def skips_well_formed(node: Any) -> bool:
    """Whether a unit's decorator says ``check_well_formed=False`` (TVM then builds the IR
    without running ``verify_well_formed``)."""
    for deco in getattr(node, "decorator_list", None) or []:
        for kw in getattr(deco, "keywords", None) or []:
            value = getattr(kw.value, "value", True)
            if kw.arg == "check_well_formed" and value is False:
                return True
    return False


class _Keyword:
    """Stands for a compound statement's leading keyword in a diagnostic."""

    def __init__(self, node: Any, keyword: str) -> None:
        span = getattr(node, "span", None)
        self.span = None if span is None else Span(
            span.source_name, span.line, span.column, span.line, span.column + len(keyword),
            span.start_offset, span.start_offset + len(keyword))


class _Throwaway(TIRFrame):
    def __enter__(self) -> Any:  # push without IRBuilder checks on exit
        IRBuilder.current().frames.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        builder = IRBuilder.current()
        for cb in reversed(self.callbacks):
            try:
                cb()
            except Exception:  # pylint: disable=broad-except
                pass
        while builder.frames and builder.frames[-1] is not self:
            builder.frames.pop()
        if builder.frames:
            builder.frames.pop()


def _names(target: Any) -> list[Any]:
    kind = type(target).__name__
    if kind == "Name":
        return [target]
    if kind in ("Tuple", "List"):
        return [n for e in target.elts for n in _names(e)]
    if kind == "Starred":
        return _names(target.value)
    return []


def _named_items(target: Any, value: Any) -> list[tuple[Any, Any]]:
    """``(Name node, value)`` pairs to name after binding ``target``; the items a ``*ax``
    takes are named ``ax_0``, ``ax_1``..."""
    kind = type(target).__name__
    if kind == "Name":
        return [(target, value)]
    if kind == "Starred" and type(target.value).__name__ == "Name":
        return [(_Renamed(target.value, f"{target.value.id}_{k}"), v)
                for k, v in enumerate(list(value))]
    if kind in ("Tuple", "List"):
        return [p for t, v in unpack_pairs(target, value) for p in _named_items(t, v)]
    return []


class _Renamed:
    """A Name node seen under another id (the items of a starred target)."""

    def __init__(self, node: Any, new_id: str) -> None:
        self.id, self.span = new_id, getattr(node, "span", None)


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in _flatten(item)]
    return [value]


def _char_col(li: LineIndex, line: int, byte_col: int) -> int:
    text = li.line_text(line)
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))
