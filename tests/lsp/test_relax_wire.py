"""Relax functions in the language server over the wire (issue 12, tooling): diagnostics, hover
(a var's struct info, the PrimFunc a call_tir targets), go-to-definition (vars and ``cls.f``)
and lowering previews that start with the graph passes (LegalizeOps, FuseOps, FuseTIR)."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import DATA  # type: ignore[import-not-found]

pytestmark = pytest.mark.asyncio(loop_scope="module")

MODEL = (DATA / "relax_model.py").read_text(encoding="utf-8")
LINES = MODEL.split("\n")
URI = "file:///tmp/relax_model.py"


def _at(line0: int, word: str, nth: int = 0) -> types.Position:
    """The LSP position of the ``nth`` occurrence of ``word`` on 0-based ``line0``."""
    col = -1
    for _ in range(nth + 1):
        col = LINES[line0].index(word, col + 1)
    return types.Position(line=line0, character=col + 1)


def _doc() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


async def _diagnostics(client: LanguageClient, count: int) -> list[types.Diagnostic]:
    """The pushed diagnostics of ``URI`` once there are ``count`` of them."""
    for _ in range(3000):  # a hang guard, not a timing assertion
        diags = client.diagnostics.get(URI)
        if diags is not None and len(diags) == count:
            return list(diags)
        await asyncio.sleep(0.01)
    raise AssertionError(f"not {count} diagnostics: {client.diagnostics.get(URI)}")


async def _hover(client: LanguageClient, pos: types.Position) -> str:
    hover = await client.text_document_hover_async(types.HoverParams(text_document=_doc(),
                                                                     position=pos))
    assert hover is not None, pos
    return hover.contents.value


async def _define(client: LanguageClient, pos: types.Position) -> tuple[int, int, int]:
    loc = await client.text_document_definition_async(types.DefinitionParams(
        text_document=_doc(), position=pos))
    assert loc is not None, pos
    return loc.range.start.line, loc.range.start.character, loc.range.end.character


def _plain(value: object) -> object:
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


async def test_relax_diagnostics_hover_definition(client: LanguageClient) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="python", version=1,
                                             text=MODEL)))
    assert await _diagnostics(client, 0) == []
    # hover: a parameter's and a dataflow var's struct info; the PrimFunc call_tir targets
    text = await _hover(client, _at(18, "x:"))
    assert 'x: R.Tensor((n, 4), dtype="float32")' in text and "Relax var" in text
    assert "dataflow var" in await _hover(client, _at(22, "lv1"))
    text = await _hover(client, _at(21, "add_one"))
    assert "def add_one(a: T.handle, b: T.handle):" in text
    # definition: a var's binding, and the PrimFunc behind cls.add_one
    assert await _define(client, _at(22, "lv,")) == (21, 12, 14)
    assert await _define(client, _at(23, "x)")) == (18, 13, 14)
    assert await _define(client, _at(22, "add_one")) == (8, 8, 15)
    # an undefined name inside the Relax function: an exact range, then fixed
    line = LINES[22].replace("(lv,)", "(lvv,)")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=22, character=0),
                              end=types.Position(line=22, character=len(LINES[22]))),
            text=line)]))
    diags = await _diagnostics(client, 1)
    col = line.index("lvv")
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character)
            for d in diags] == [("undefined-name", 22, col, col + 3)]
    assert "did you mean 'lv'" in diags[0].message


async def test_relax_lowering_previews_start_with_graph_passes(client: LanguageClient) -> None:
    uri = "file:///tmp/relax_preview.py"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=MODEL)))
    doc = {"textDocument": {"uri": uri}, "position": {"line": 20, "character": 8}}
    stages = _plain(await client.protocol.send_request_async("tirkit/loweringStages", doc))
    names = [s["name"] for s in stages["stages"]]
    assert names[:5] == ["Input", "LegalizeOps", "AnnotateTIROpPattern", "FuseOps", "FuseTIR"]
    assert "LowerInitBlock" in names[5:] and stages["unit"] == "Module"
    legal = _plain(await client.protocol.send_request_async(
        "tirkit/loweringStage", {**doc, "stage": "LegalizeOps"}))
    assert legal["changed"] and "R.add" not in legal["text"]
    assert "R.call_tir(cls.add, (lv1, x)" in legal["text"] and "def add(" in legal["text"]
    fused = _plain(await client.protocol.send_request_async(
        "tirkit/loweringStage", {**doc, "stage": "FuseTIR"}))
    assert "def fused_add_one_add_one_add(" in fused["text"], fused["text"]
    last = _plain(await client.protocol.send_request_async(
        "tirkit/loweringStage", {**doc, "stage": len(names) - 1, "llvm": True}))
    assert "R.function" not in last["text"] and last["llvm"]["available"]
