"""Every request gets a response (issue 15, language server): a real ``tirls`` over stdio driven
through a 1,000-edit session with malformed requests mixed in — positions out of range, unknown
URIs, garbage text, deep nesting. The server must answer each request (a result or a JSON-RPC
error), never leave the client waiting, and keep serving the document afterwards."""
from __future__ import annotations

import asyncio
import json
import random
from asyncio.subprocess import DEVNULL, PIPE
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from conftest import DATA, SERVER  # type: ignore[import-not-found]

pytestmark = pytest.mark.asyncio(loop_scope="module")

KERNELS = (DATA / "kernels.py").read_text(encoding="utf-8")
GUARD = 60.0  # seconds: a hang guard per request, not a timing assertion
GARBAGE = ["", "(", ")", "]]]", "T.", "for", "with T.block(", "\x00", "𝛼𝛽", "\"\"\"", "\t\t",
           "1e400", "10**10", "T.Buffer((", "@T.prim_func\ndef f(:\n", "lambda: ", "\\",
           "A[" * 60, "(" * 300 + "1" + ")" * 300, " + 1" * 300, "if 1:\n" * 40]


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def _requests(client: LanguageClient, uri: str, pos: types.Position) -> list:
    """One request of each position- or document-based kind at ``pos`` of ``uri``."""
    doc = _doc(uri)
    return [
        client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos)),
        client.text_document_definition_async(types.DefinitionParams(text_document=doc,
                                                                     position=pos)),
        client.text_document_references_async(types.ReferenceParams(
            text_document=doc, position=pos,
            context=types.ReferenceContext(include_declaration=True))),
        client.text_document_completion_async(types.CompletionParams(text_document=doc,
                                                                     position=pos)),
        client.text_document_signature_help_async(types.SignatureHelpParams(
            text_document=doc, position=pos)),
        client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=doc)),
        client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)),
        client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
            text_document=doc)),
        client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc, range=types.Range(start=pos, end=pos),
            context=types.CodeActionContext(diagnostics=[]))),
        client.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=doc, options=types.FormattingOptions(tab_size=4,
                                                               insert_spaces=True))),
    ]


async def _answered(request) -> str:
    """``"result"`` or ``"error"``: how the server answered (a hang fails the test)."""
    try:
        await asyncio.wait_for(request, GUARD)
    except JsonRpcException:
        return "error"
    return "result"


def _edit(rng: random.Random, lines: list[str]) -> tuple[types.Range, str]:
    """A random incremental edit of the document ``lines`` (kept in step)."""
    l0 = rng.randrange(len(lines))
    c0 = rng.randrange(len(lines[l0]) + 1)
    l1 = min(l0 + rng.choice((0, 0, 0, 1, 2)), len(lines) - 1)
    c1 = rng.randrange(len(lines[l1]) + 1) if l1 > l0 else rng.randrange(c0, len(lines[l0]) + 1)
    roll = rng.random()
    text = rng.choice(GARBAGE) if roll < 0.3 else \
        rng.choice(KERNELS.split("\n")) + "\n" if roll < 0.5 else \
        "".join(rng.choice("abnijk0123 +-*/()[]:.,=T\n") for _ in range(rng.randrange(6)))
    new = "\n".join(lines)
    start = sum(len(x) + 1 for x in lines[:l0]) + c0
    end = sum(len(x) + 1 for x in lines[:l1]) + c1
    lines[:] = (new[:start] + text + new[end:]).split("\n")
    return types.Range(start=_pos(l0, c0), end=_pos(l1, c1)), text


async def test_every_request_answered_through_1000_edits(client: LanguageClient,
                                                         tmp_path: Path) -> None:
    uri = "file:///tmp/robust_kernels.py"
    rng = random.Random(15)
    lines = KERNELS.split("\n")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=KERNELS)))
    answers: dict[str, int] = {"result": 0, "error": 0}
    for version in range(2, 1002):
        if rng.random() < 0.02:  # sometimes start again from the whole file
            lines[:] = KERNELS.split("\n")
            changes = [types.TextDocumentContentChangeWholeDocument(text=KERNELS)]
        else:
            rng_, text = _edit(rng, lines)
            changes = [types.TextDocumentContentChangePartial(range=rng_, text=text)]
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=changes))
        if version % 10:
            continue
        bad = [_pos(len(lines) + 5, 0), _pos(0, 10_000), _pos(2**31 - 1, 2**31 - 1)]
        good = _pos(rng.randrange(len(lines)), rng.randrange(40))
        where = [(uri, good), (uri, rng.choice(bad)),
                 ((tmp_path / f"never_opened_{version}.py").as_uri(), good),
                 ("untitled:Untitled-1", good), ("not a uri", good)]
        u, p = rng.choice(where) if version % 20 else where[0]
        requests = _requests(client, u, p)
        for kind in await asyncio.gather(*(_answered(r) for r in requests)):
            answers[kind] += 1
    assert answers == {"result": 100 * 10, "error": 0}  # well-formed params: a result each
    # The server still works on the final text: a clean file gets clean answers.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2000),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=KERNELS)]))
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=_doc(uri))), GUARD)
    assert symbols and "matmul" in [s.name for s in symbols]


async def test_unopened_document_gives_empty_results(client: LanguageClient,
                                                     tmp_path: Path) -> None:
    doc = _doc((tmp_path / "not" / "written.py").as_uri())  # a path no file can be at
    hover = await asyncio.wait_for(client.text_document_hover_async(
        types.HoverParams(text_document=doc, position=_pos(0, 0))), GUARD)
    assert hover is None
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc)), GUARD)
    assert list(symbols or []) == []
    report = await asyncio.wait_for(client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=doc)), GUARD)
    assert list(report.items) == []


async def test_out_of_range_position_is_answered(client: LanguageClient) -> None:
    uri = "file:///tmp/robust_range.py"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=KERNELS)))
    for pos in (_pos(10_000, 0), _pos(0, 10_000), _pos(2**31 - 1, 2**31 - 1)):
        hover = await asyncio.wait_for(client.text_document_hover_async(
            types.HoverParams(text_document=_doc(uri), position=pos)), GUARD)
        assert hover is None
        refs = await asyncio.wait_for(client.text_document_references_async(
            types.ReferenceParams(text_document=_doc(uri), position=pos,
                                  context=types.ReferenceContext(include_declaration=True))),
            GUARD)
        assert list(refs or []) == []


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def _read(reader: asyncio.StreamReader) -> dict:
    length = 0
    while (line := await reader.readline()).strip():
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(await reader.readexactly(length))


async def test_malformed_params_get_a_jsonrpc_error() -> None:
    """Raw JSON-RPC (no client library to tidy the params): requests whose params do not
    deserialize (a string position, a number for the document, none at all) and an unknown
    method each get an error response with their id."""
    proc = await asyncio.create_subprocess_exec(*SERVER.server_command, stdin=PIPE,
                                                stdout=PIPE, stderr=DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    bad = [("textDocument/hover", {"textDocument": {"uri": "file:///x.py"},
                                   "position": "nowhere"}),
           ("textDocument/hover", {"textDocument": 7, "position": {"line": -1}}),
           ("textDocument/definition", None), ("textDocument/documentSymbol", [1, 2]),
           ("tirkit/loweringStage", {"textDocument": {"uri": 5}, "stage": "x"}),
           ("textDocument/noSuchThing", {})]
    msgs = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}}]
    msgs += [{"jsonrpc": "2.0", "id": i, "method": m, "params": p}
             for i, (m, p) in enumerate(bad, 1)]
    msgs.append({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    proc.stdin.write(b"".join(_frame(m) for m in msgs))
    await proc.stdin.drain()
    answered: dict[int, dict] = {}
    try:
        while 99 not in answered:
            msg = await asyncio.wait_for(_read(proc.stdout), GUARD)
            if "id" in msg and "method" not in msg:
                answered[msg["id"]] = msg
    finally:
        proc.kill()
        await proc.wait()
    assert sorted(answered) == [0, *range(1, len(bad) + 1), 99]
    for i in range(1, 5):  # params that do not deserialize: InvalidParams
        assert answered[i]["error"]["code"] == -32602, answered[i]
    assert answered[5]["result"] == {"error": "no TVMScript unit there"}  # the preview's shape
    assert answered[6]["error"]["code"] == -32601  # MethodNotFound
