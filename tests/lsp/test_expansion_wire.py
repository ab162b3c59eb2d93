"""Hover shows what generated TIR expands to (issue 16, language server): a ``T.macro`` call,
a ``T.compute`` and a strided (metaprogrammed) loop, over the wire; a module-level macro is
found statically (no false "not known statically" error) and an error inside it points at the
macro's source with a note at the call site."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import DATA  # type: ignore[import-not-found]

pytestmark = pytest.mark.asyncio(loop_scope="module")

GEN = (DATA / "generators.py").read_text(encoding="utf-8")
LINES = GEN.split("\n")


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=text)))


async def _hover(client: LanguageClient, uri: str, line0: int, word: str) -> str:
    pos = types.Position(line=line0, character=LINES[line0].index(word) + 1)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
    assert hover is not None, (line0, word)
    return hover.contents.value


async def _diagnostics(client: LanguageClient, uri: str, count: int) -> list[types.Diagnostic]:
    for _ in range(3000):  # a hang guard, not a timing assertion
        diags = client.diagnostics.get(uri)
        if diags is not None and len(diags) == count:
            return list(diags)
        await asyncio.sleep(0.01)
    raise AssertionError(f"not {count} diagnostics: {client.diagnostics.get(uri)}")


async def test_hover_shows_expansions(client: LanguageClient) -> None:
    uri = "file:///tmp/generators.py"
    _open(client, uri, GEN)
    assert await _diagnostics(client, uri, 0) == []
    text = await _hover(client, uri, 11, "add_one")
    assert text.startswith("macro `add_one` expands to:")
    assert "A[i] = A[i] + T.float32(1.0)" in text
    text = await _hover(client, uri, 12, "compute")
    assert "`T.compute` expands to:" in text and 'with T.block("B"):' in text
    assert "for i, j in T.grid(4, 4):" in text
    assert "B[v_i, v_j] = C[v_i, v_j] * T.float32(2.0)" in text
    text = await _hover(client, uri, 13, "range")
    assert "this loop expands to:" in text
    assert "for k in range(4):\n    A[k * 4] = T.float32(0.0)" in text


async def test_error_inside_a_macro_points_at_its_source(client: LanguageClient) -> None:
    uri = "file:///tmp/generators_bad.py"
    _open(client, uri, GEN.replace("X[i] + T.float32(1)", "X[i] + q"))
    [diag] = await _diagnostics(client, uri, 1)
    col = LINES[5].index("X[i] + ") + len("X[i] + ")
    assert (diag.code, diag.range.start.line, diag.range.start.character) == \
        ("undefined-name", 5, col)
    [note] = diag.related_information
    assert note.location.range.start.line == 11 and "in macro 'add_one'" in note.message
