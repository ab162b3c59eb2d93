"""``tirls``: the TVMScript language server (pygls 2). Each handler is a few lines over the pure
functions of :mod:`tirkit.lsp` (analysis, diagnostics, hover, navigation, editing, previews).

Documents are synced incrementally; analysis is cached per unit text (:class:`Analyzer`), so an
edit re-analyses only the unit it touches. Diagnostics are pushed after a short debounce (a
burst of edits is analysed once) unless the client pulls them (``textDocument/diagnostic``).
Lowering previews (``tirkit/loweringStages``, ``tirkit/loweringStage``) run on a worker thread
and are abandoned when a newer edit arrives.
"""
from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from . import diagnostics as D
from . import schedule_lsp as SL
from .analysis import Analyzer, FileAnalysis
from .editing import complete, format_edits, signature_at
from .hover import hover_markdown
from .navigation import (TOKEN_MODIFIERS, TOKEN_TYPES, definition, document_symbols,
                         folding_ranges, references, semantic_tokens)
from .positions import PositionMap
from .previews import Cancelled, PreviewUnavailable, lower_unit, stage_list, stage_payload

__all__ = ["TirServer", "server", "STAGES", "STAGE", "EXPLORER"]

STAGES = "tirkit/loweringStages"
STAGE = "tirkit/loweringStage"
EXPLORER = "tirkit/pipelineExplorer"
UNIT_BUDGET = 10.0  # seconds one unit's analysis may take before a request goes on without it
UNIT_TIME_LIMIT = 60.0  # CPU seconds after which a unit's (background) analysis is stopped


class TirProtocol(LanguageServerProtocol):
    """pygls' protocol, except that a request whose params do not deserialize is answered with
    the JSON-RPC error (InvalidParams) instead of being dropped (the client would wait
    forever)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if isinstance(data.get("id"), (int, str)) and "method" in data:
                self._send_response(data["id"], error=types.ResponseError(
                    code=err.code, message=f"{err.message} for {data['method']}"))
            raise


class TirServer(LanguageServer):
    """The language server: pygls plus the analysis cache and per-document state."""

    def __init__(self) -> None:
        from tirkit import __version__  # pylint: disable=import-outside-toplevel

        super().__init__("tirls", __version__, protocol_cls=TirProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyzer = Analyzer(budget=UNIT_BUDGET, time_limit=UNIT_TIME_LIMIT)
        self.delay = 0.005  # seconds of quiet before pushing diagnostics after a change
        self._files: dict[str, tuple[FileAnalysis, PositionMap]] = {}
        self._tasks: dict[str, asyncio.Task] = {}

    def configure(self, options: Any) -> None:
        """Settings from the client's ``initializationOptions``: ``unitBudget``, the seconds
        one unit's analysis may take before requests go on without it (default
        :data:`UNIT_BUDGET`), and ``unitTimeLimit``, the seconds after which it is stopped with a
        ``budget`` error (default :data:`UNIT_TIME_LIMIT`)."""
        for key, attr in (("unitBudget", "budget"), ("unitTimeLimit", "time_limit")):
            value = options.get(key) if isinstance(options, dict) else None
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                setattr(self.analyzer, attr, float(value))

    # -------------------------------------------------------------- document state
    def file(self, uri: str) -> tuple[FileAnalysis, PositionMap]:
        """The analysis and position map of the document's current text (cached); a document
        the client has not opened is empty (nothing is read from disk)."""
        if uri not in self.workspace.text_documents:
            return FileAnalysis("", uri), PositionMap("")
        doc = self.workspace.get_text_document(uri)
        hit = self._files.get(uri)
        if hit is not None and hit[0].text == doc.source and hit[0].complete:
            return hit
        fa = self.analyzer.analyze(doc.source, doc.path or uri)
        pmap = PositionMap(doc.source, str(self.workspace.position_encoding or "utf-16"))
        self._files[uri] = (fa, pmap)
        return fa, pmap

    def doc_version(self, uri: str) -> int | None:
        """The document's current version (``None`` when it is not open)."""
        if uri not in self.workspace.text_documents:
            return None
        return self.workspace.get_text_document(uri).version

    def pulls_diagnostics(self) -> bool:
        """Whether the client asked for pull diagnostics (then nothing is pushed)."""
        caps = self.client_capabilities.text_document
        return caps is not None and caps.diagnostic is not None

    def lsp_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The document's diagnostics as LSP objects."""
        fa, pmap = self.file(uri)
        return D.to_lsp_all(fa.diagnostics(), pmap, uri)

    def publish(self, uri: str) -> None:
        """Push the document's diagnostics (unless the client pulls them)."""
        if self.pulls_diagnostics():
            return
        fa, pmap = self.file(uri)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=D.to_lsp_all(fa.diagnostics(), pmap, uri),
            version=self.doc_version(uri)))
        if not fa.complete:  # a unit ran over budget: publish again when it may be done
            self.schedule(uri, self.analyzer.budget)

    def schedule(self, uri: str, delay: float | None = None) -> None:
        """Publish after ``delay`` seconds (default :attr:`delay`) unless another edit comes
        first."""
        old = self._tasks.pop(uri, None)
        if old is not None:
            old.cancel()
        self._tasks[uri] = asyncio.get_event_loop().create_task(
            self._later(uri, self.delay if delay is None else delay))

    async def _later(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        self._tasks.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.publish(uri)

    def forget(self, uri: str) -> None:
        """Drop a closed document's state and clear its diagnostics."""
        self._files.pop(uri, None)
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        if not self.pulls_diagnostics():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


server = TirServer()


def _at(ls: TirServer, uri: str, pos: types.Position) -> tuple[FileAnalysis, PositionMap, int, int]:
    fa, pmap = ls.file(uri)
    line, col = pmap.line_column(pos)
    return fa, pmap, line, col


# ------------------------------------------------------------------ synchronisation
@server.feature(types.INITIALIZE)
def initialize(ls: TirServer, params: types.InitializeParams) -> None:
    """Read the client's initialization options."""
    ls.configure(params.initialization_options)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TirServer, params: types.DidOpenTextDocumentParams) -> None:
    """Analyse and publish at once."""
    ls.publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TirServer, params: types.DidChangeTextDocumentParams) -> None:
    """Publish after the burst of edits settles."""
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TirServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document."""
    ls.forget(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier="tirkit", inter_file_dependencies=False,
                                        workspace_diagnostics=False))
def pull_diagnostics(ls: TirServer, params: types.DocumentDiagnosticParams
                     ) -> types.RelatedFullDocumentDiagnosticReport:
    """Pull diagnostics."""
    return types.RelatedFullDocumentDiagnosticReport(
        items=ls.lsp_diagnostics(params.text_document.uri))


# ------------------------------------------------------------------ language features
@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: TirServer, params: types.HoverParams) -> types.Hover | None:
    """What the IR is under the cursor."""
    fa, _, line, col = _at(ls, params.text_document.uri, params.position)
    text = hover_markdown(fa, line, col)
    return None if text is None else types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def goto_definition(ls: TirServer, params: types.DefinitionParams) -> types.Location | None:
    """Where the name under the cursor is bound."""
    fa, pmap, line, col = _at(ls, params.text_document.uri, params.position)
    span = definition(fa, line, col)
    return None if span is None else types.Location(uri=params.text_document.uri,
                                                    range=pmap.range(span))


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def find_references(ls: TirServer, params: types.ReferenceParams) -> list[types.Location]:
    """Every occurrence of the symbol under the cursor."""
    uri = params.text_document.uri
    fa, pmap, line, col = _at(ls, uri, params.position)
    return [types.Location(uri=uri, range=pmap.range(s)) for s in
            references(fa, line, col, params.context.include_declaration)]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def outline(ls: TirServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """Functions, blocks and buffers."""
    fa, pmap = ls.file(params.text_document.uri)
    return document_symbols(fa, pmap)


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding(ls: TirServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    """Folding ranges of compound statements."""
    return folding_ranges(ls.file(params.text_document.uri)[0])


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=["."]))
def completion(ls: TirServer, params: types.CompletionParams) -> types.CompletionList:
    """Namespace members after ``T.``."""
    fa, _, line, col = _at(ls, params.text_document.uri, params.position)
    return types.CompletionList(is_incomplete=False, items=complete(fa, line, col))


@server.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP,
                types.SignatureHelpOptions(trigger_characters=["(", ","]))
def signature(ls: TirServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
    """Signature of the ``T.`` call around the cursor."""
    fa, pmap, line, _ = _at(ls, params.text_document.uri, params.position)
    return signature_at(fa, pmap.offset(params.position), line)


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                types.SemanticTokensLegend(token_types=TOKEN_TYPES,
                                           token_modifiers=TOKEN_MODIFIERS))
def tokens(ls: TirServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
    """Semantic tokens of TVMScript constructs."""
    fa, pmap = ls.file(params.text_document.uri)
    return types.SemanticTokens(data=semantic_tokens(fa, pmap))


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: TirServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    """Format the TVMScript units."""
    fa, pmap = ls.file(params.text_document.uri)
    return format_edits(fa, pmap)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix,
                                                           SL.KIND]))
def code_action(ls: TirServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Quick fixes of the diagnostics in range, and the schedule primitives that apply to the
    loop or block on the range's first line."""
    uri = params.text_document.uri
    fa, pmap = ls.file(uri)
    out = D.code_actions(fa.diagnostics(), fa.text, pmap, uri, params.range)
    only = params.context.only if params.context else None
    if only and not any(SL.KIND.startswith(str(k)) for k in only):
        return out
    line, _ = pmap.line_column(params.range.start)
    placed = fa.unit_at(line)
    if placed is not None:
        out += SL.schedule_code_actions(placed, uri, ls.doc_version(uri), line)
    return out


@server.command(SL.APPLY)
async def apply_schedule(ls: TirServer, payload: Any) -> dict[str, Any]:
    """Apply one schedule action (``tirkit.applySchedule``): ``{"applied", "trace"}``, or
    ``{"error"}`` (also shown as an error message) when the step is illegal or stale."""
    from .schedule_actions import ActionError, apply_action, side_file_text  # pylint: disable=C0415

    payload = dict(payload) if isinstance(payload, dict) else payload._asdict()
    uri = payload.get("uri", "")
    try:
        if payload.get("version") is not None and payload["version"] != ls.doc_version(uri):
            raise ActionError("the document changed since the action was offered; try again")
        doc = ls.workspace.get_text_document(uri)
        applied = apply_action(doc.source, doc.path or uri, payload)
    except ActionError as err:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                       message=f"TVMScript: {err}"))
        return {"error": str(err)}
    side = SL.side_uri(uri)
    side_text = _current_text(ls, side)
    append = side_file_text(side_text, SL.uri_path(uri).name, payload, applied.trace)
    edit = SL.workspace_edit(uri, doc.version, doc.source, applied.text,
                             str(ls.workspace.position_encoding or "utf-16"),
                             (side, side_text, append))
    result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=edit, label=payload.get("title")))
    return {"applied": bool(result.applied), "trace": applied.trace, "side": side}


def _current_text(ls: TirServer, uri: str) -> str | None:
    """An open document's text, else the file's, else None (it does not exist)."""
    if uri in ls.workspace.text_documents:
        return ls.workspace.get_text_document(uri).source
    path = SL.uri_path(uri)
    return path.read_text(encoding="utf-8") if path.is_file() else None


# ------------------------------------------------------------------ lowering previews
def _get(params: Any, name: str, default: Any = None) -> Any:
    if isinstance(params, dict):
        return params.get(name, default)
    return getattr(params, name, default)


def _preview_unit(ls: TirServer, params: Any) -> tuple[Any, Any, str, int | None]:
    """(placed unit, FileAnalysis, uri, version) named by the request's ``function`` or
    ``position``."""
    uri = _get(_get(params, "textDocument"), "uri")
    fa, pmap = ls.file(uri)
    name, pos = _get(params, "function"), _get(params, "position")
    placed = None
    if name:
        placed = next((u for u in fa.units if u.unit.name == name), None)
    elif pos is not None:
        line, _ = pmap.line_column(types.Position(line=_get(pos, "line"),
                                                  character=_get(pos, "character")))
        placed = fa.unit_at(line)
    elif fa.units:
        placed = fa.units[0]
    if placed is None:
        raise PreviewUnavailable("no TVMScript unit there")
    return placed, fa, uri, ls.doc_version(uri)


def _lower(ls: TirServer, params: Any) -> tuple[Any, Any]:
    placed, _, uri, version = _preview_unit(ls, params)
    results = lower_unit(placed.analysis, lambda: ls.doc_version(uri) != version)
    return placed, results


@server.feature(STAGES)
@server.thread()
def lowering_stages(ls: TirServer, params: Any) -> dict[str, Any]:
    """``{"unit", "stages": [{"index", "name", "changed"}]}`` or ``{"error"}``."""
    try:
        placed, results = _lower(ls, params)
    except (PreviewUnavailable, Cancelled) as err:
        return {"error": str(err) or "cancelled by a newer edit", "stages": []}
    return {"unit": placed.unit.name, "stages": stage_list(results), "note": results.note}


@server.feature(STAGE)
@server.thread()
def lowering_stage(ls: TirServer, params: Any) -> dict[str, Any]:
    """One stage: ``{"index", "name", "changed", "text", "positionMap", "llvm"?}``; the stage
    is ``stage`` (an index, or the first stage of that name)."""
    try:
        placed, results = _lower(ls, params)
        stage = _get(params, "stage", 0)
        if isinstance(stage, str):
            stage = next((i for i, r in enumerate(results.results) if r.name == stage), -1)
        return stage_payload(placed, results, int(stage), bool(_get(params, "llvm", False)))
    except (PreviewUnavailable, Cancelled) as err:
        return {"error": str(err) or "cancelled by a newer edit"}


@server.feature(EXPLORER)
@server.thread()
def pipeline_explorer(ls: TirServer, params: Any) -> dict[str, Any]:
    """``{"unit", "html"}``: the pipeline explorer page of the unit at ``position`` (or named
    ``function``), as ``tirc --html`` writes it; or ``{"error"}``."""
    from .explorer import render_html, unit_explorer_data  # pylint: disable=C0415

    try:
        placed, results = _lower(ls, params)
    except (PreviewUnavailable, Cancelled) as err:
        return {"error": str(err) or "cancelled by a newer edit"}
    fa = ls.file(_get(_get(params, "textDocument"), "uri"))[0]
    data = unit_explorer_data(placed, results, fa.text, fa.path)
    return {"unit": placed.unit.name, "html": render_html(data)}
