"""The per-unit time budget of ``tirls`` over the wire (issue 15): with a budget far below what
analysing a unit takes (``initializationOptions.unitBudget``), the first diagnostics are the
over-budget warnings, requests are still answered, and the real diagnostics follow when the
background analyses finish — nothing waits on a slow unit, nothing is lost."""
from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import DATA, SERVER, _caps  # type: ignore[import-not-found]

pytestmark = pytest.mark.asyncio(loop_scope="module")

THREE = (DATA / "three_units.py").read_text(encoding="utf-8")


class _History(dict):
    """``client.diagnostics`` that also keeps every publish, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, list]] = []

    def __setitem__(self, uri: str, diags: list) -> None:
        self.seen.append((uri, list(diags)))
        super().__setitem__(uri, diags)


@pytest_lsp.fixture(scope="module", config=SERVER)
async def tight(lsp_client: LanguageClient):
    """A server whose units get 0.1 ms each."""
    lsp_client.diagnostics = _History()
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=_caps(False), initialization_options={"unitBudget": 0.0001}))
    yield
    await lsp_client.shutdown_session()


async def test_over_budget_units_warn_then_report(tight: LanguageClient) -> None:
    uri = "file:///tmp/budget_three.py"
    tight.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=THREE)))
    symbols = await tight.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None  # answered while (or after) the units were analysed
    history = tight.diagnostics
    for _ in range(3000):  # a hang guard, not a timing assertion
        codes = [d.code for d in history.get(uri, [])]
        if codes == ["unknown-name", "undefined-name"]:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError(history.seen)
    first = [d for d in history.seen[0][1]]
    assert first and all(d.code == "analysis-budget" for d in first), history.seen[0]
    assert first[0].severity == types.DiagnosticSeverity.Warning
    assert "took longer than 0.0001 s" in first[0].message
    assert first[0].range.start.line in (3, 9, 15)  # a unit's decorator line


# within every limit, yet seconds of work: 600,000 evaluated expressions in a shape
SLOW_THEN_FAST = ('from tvm.script import tir as T\n\n\n@T.prim_func\n'
                  'def slow(A: T.Buffer((sum([i % 3 for i in [1] * 200000]),), "float32")):\n'
                  '    A[0] = 1.0\n\n\n@T.prim_func\n'
                  'def fast(A: T.Buffer((4,), "float32")):\n    A[0] = 1.0\n')


@pytest_lsp.fixture(scope="module", config=SERVER)
async def limited(lsp_client: LanguageClient):
    """A server that stops a unit's analysis after 1 s of CPU (requests wait at most 0.05 s)."""
    lsp_client.diagnostics = _History()
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=_caps(False),
        initialization_options={"unitBudget": 0.05, "unitTimeLimit": 1.0}))
    yield
    await lsp_client.shutdown_session()


async def test_a_unit_over_the_time_limit_is_stopped_with_an_error(limited: LanguageClient):
    uri = "file:///tmp/budget_limit.py"
    limited.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=SLOW_THEN_FAST)))
    history = limited.diagnostics
    for _ in range(3000):  # a hang guard, not a timing assertion
        codes = sorted(d.code for d in history.get(uri, []))
        if codes == ["budget"]:  # slow stopped; fast analysed (no stand-in warning left)
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError(history.seen)
    final = {d.code: d for d in history[uri]}
    stopped = final["budget"]
    assert stopped.severity == types.DiagnosticSeverity.Error
    assert stopped.range.start.line == 3 and "took more than 1 s of CPU time" in stopped.message
    hover = await limited.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(10, 4)))
    assert hover is not None and "float32" in str(hover.contents)  # still answering
