"""End-to-end tests of ``tirls`` over stdio with pytest-lsp: a real ``python -m tirkit.lsp``
process, real JSON-RPC, no mocks. Positions below are LSP's (0-based lines, UTF-16 columns)."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import DATA  # type: ignore[import-not-found]

pytestmark = pytest.mark.asyncio(loop_scope="module")

THREE = (DATA / "three_units.py").read_text(encoding="utf-8")
KERNELS = (DATA / "kernels.py").read_text(encoding="utf-8")


def _open(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version,
                                             text=text)))


def _change(client: LanguageClient, uri: str, version: int, rng: types.Range,
            text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text)]))


def _range(l0: int, c0: int, l1: int, c1: int) -> types.Range:
    return types.Range(start=types.Position(line=l0, character=c0),
                       end=types.Position(line=l1, character=c1))


def _pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def _diagnostics(client: LanguageClient, uri: str, count: int | None = None
                       ) -> list[types.Diagnostic]:
    """Wait until pushed diagnostics for ``uri`` (with ``count`` items) arrived."""
    for _ in range(3000):  # a hang guard, not a timing assertion
        diags = client.diagnostics.get(uri)
        if diags is not None and (count is None or len(diags) == count):
            return list(diags)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics for {uri}: {client.diagnostics.get(uri)} "
                         f"{client.log_messages} {client.messages}")


async def _pull(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    return list(report.items)


def _plain(value: object) -> object:
    """A custom request's result as plain dicts and lists (pygls returns named tuples)."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


async def test_diagnostics_exact_ranges_then_fix_one(client: LanguageClient) -> None:
    uri = "file:///tmp/three_units.py"
    _open(client, uri, THREE)
    diags = await _diagnostics(client, uri)
    assert [(d.range, d.code) for d in diags] == [
        (_range(11, 13, 11, 24), "unknown-name"),
        # `jj` follows "f𝛼": code-point column 48, UTF-16 column 49
        (_range(18, 49, 18, 51), "undefined-name")]
    assert "did you mean `T.vectorized`" in diags[0].message
    assert all(d.source == "tirkit" and d.severity == types.DiagnosticSeverity.Error
               for d in diags)
    _change(client, uri, 2, _range(11, 13, 11, 24), "T.vectorized")
    diags = await _diagnostics(client, uri, count=1)
    assert [(d.range, d.code) for d in diags] == [(_range(18, 49, 18, 51), "undefined-name")]


async def test_code_action_applies_did_you_mean(client: LanguageClient) -> None:
    uri = "file:///tmp/actions.py"
    _open(client, uri, THREE)
    await _diagnostics(client, uri)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=_range(11, 15, 11, 15),
        context=types.CodeActionContext(diagnostics=[])))
    assert [a.title for a in actions] == ["Replace with `T.vectorized`"]
    assert list(actions[0].edit.changes[uri]) == [
        types.TextEdit(range=_range(11, 13, 11, 24), new_text="T.vectorized")]


async def test_pull_diagnostics(pull_client: LanguageClient) -> None:
    uri = "file:///tmp/pulled.py"
    _open(pull_client, uri, THREE)
    assert [d.range for d in await _pull(pull_client, uri)] == [_range(11, 13, 11, 24), _range(18, 49, 18, 51)]


async def test_file_without_tvmscript_has_no_diagnostics(client: LanguageClient) -> None:
    uri = "file:///tmp/plain.py"
    _open(client, uri, "def f(:\n    return 1\n")
    assert await _diagnostics(client, uri) == []


async def _hover(client: LanguageClient, uri: str, line: int, col: int) -> str:
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(line, col)))
    assert result is not None and result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def test_hover_buffer_loop_block_and_t_name(client: LanguageClient) -> None:
    uri = "file:///tmp/hover.py"
    _open(client, uri, KERNELS)
    buffer = await _hover(client, uri, 13, 37)  # A in `A[vi, vk]`
    assert buffer.startswith('```python\nA: T.Buffer((128, 128), "float32")\n```')
    assert "- scope: `global`" in buffer and "declared at line 6" in buffer
    loop = await _hover(client, uri, 8, 8)  # i of T.grid
    assert "range: `[0, 128)`" in loop and "`ForKind.SERIAL`" in loop
    par = await _hover(client, uri, 18, 8)
    assert "`ForKind.PARALLEL`" in par and "[0, 16)" in par
    block = await _hover(client, uri, 9, 12)  # `with T.block("update")` line, on `with`
    assert 'with T.block("update"):' in block
    assert "vk: reduce [0, 128) = k" in block
    assert "T.reads(A[vi, vk], B[vj, vk])" in block or "T.reads(C[vi, vj]" in block
    assert "init:" in block
    exp = await _hover(client, uri, 19, 17)  # the `exp` of T.exp
    assert exp.startswith("```python\nT.exp(x") and "exp" in exp.split("```")[2]


async def test_definition_and_references(client: LanguageClient) -> None:
    uri = "file:///tmp/nav.py"
    _open(client, uri, KERNELS)
    loc = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(13, 49)))  # B
    assert loc == types.Location(uri=uri, range=_range(6, 4, 6, 5))
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(10, 13),  # vi
        context=types.ReferenceContext(include_declaration=True)))
    assert [r.range.start.line for r in refs] == [10, 12, 13, 13, 13]


async def test_completion_after_t_dot_and_signature_help(client: LanguageClient) -> None:
    uri = "file:///tmp/complete.py"
    _open(client, uri, KERNELS)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(18, 15)))
    labels = {item.label for item in result.items}
    assert {"serial", "parallel", "vectorized", "exp", "Buffer", "match_buffer"} <= labels
    axis = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(10, 32)))
    assert {"spatial", "reduce", "remap"} <= {item.label for item in axis.items}
    sig = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_pos(5, 27)))
    assert sig.signatures[0].label.startswith("T.match_buffer(")
    assert sig.active_parameter == 1


async def test_formatting_edits(client: LanguageClient) -> None:
    uri = "file:///tmp/format.py"
    _open(client, uri, KERNELS)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert edits
    lines = KERNELS.split("\n")
    new = _apply(lines, edits)
    assert "B[i] = T.exp(A[i]) + T.float32(1)" in new  # the user's literal kept
    assert new.startswith("from tvm.script import tir as T\n\n\n@T.prim_func\n")


def _apply(lines: list[str], edits: list[types.TextEdit]) -> str:
    text = "\n".join(lines)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                    reverse=True):
        start = offsets[e.range.start.line] + e.range.start.character
        end = offsets[e.range.end.line] + e.range.end.character
        text = text[:start] + e.new_text + text[end:]
    return text


async def test_outline_folding_and_tokens(client: LanguageClient) -> None:
    uri = "file:///tmp/outline.py"
    _open(client, uri, KERNELS)
    ident = types.TextDocumentIdentifier(uri=uri)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=ident))
    assert [s.name for s in symbols] == ["matmul", "add"]
    assert [c.name for c in symbols[0].children] == ["A", "B", "C", "update"]
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=ident))
    assert any(f.start_line == 9 and f.end_line == 13 for f in folds)  # the block
    toks = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=ident))
    assert toks.data and len(toks.data) % 5 == 0


async def test_lowering_stages_and_stage_text(client: LanguageClient) -> None:
    from tirkit.lang.entry import from_source

    uri = "file:///tmp/lower.py"
    _open(client, uri, KERNELS)
    stages = _plain(await client.protocol.send_request_async("tirkit/loweringStages", {
        "textDocument": {"uri": uri}, "position": {"line": 9, "character": 8}}))
    names = [s["name"] for s in stages["stages"]]
    assert names[:5] == ["Input", "CanonicalizeLoop", "LowerInitBlock",
                         "PlanAndUpdateBufferAllocationLocation", "ConvertBlocksToOpaque"]
    assert stages["unit"] == "matmul" and stages["stages"][2]["changed"] is True
    stage = _plain(await client.protocol.send_request_async("tirkit/loweringStage", {
        "textDocument": {"uri": uri}, "function": "matmul", "stage": "LowerInitBlock",
        "llvm": True}))
    assert stage["name"] == "LowerInitBlock" and "if vk == 0:" in stage["text"]
    from_source(stage["text"])  # parses back
    assert stage["positionMap"] and "llvm" in stage
    assert names[-1] == "LowerIntrin"  # the whole pipeline
    llvm = stage["llvm"]
    assert llvm["available"] is True, llvm
    assert "define" in llvm["before"] and "define" in llvm["after"]
    loop = next(e for e in stage["positionMap"] if e["source"][0] == 8)
    assert loop["stage"][0] > 0


async def test_rapid_edits_end_like_a_fresh_open(client: LanguageClient) -> None:
    uri, fresh = "file:///tmp/rapid.py", "file:///tmp/rapid_fresh.py"
    text = KERNELS
    _open(client, uri, text)
    line = 19  # `        B[i]=T.exp( A[i] )+T.float32(1)`
    for v in range(2, 202):
        lines = text.split("\n")
        old = lines[line]
        new = old.replace("T.exp(", "T.exp((") if v % 3 == 0 else old.replace("((", "(")
        if v % 7 == 0:
            new = new + " + A[i]"
        lines[line] = new
        _change(client, uri, v, _range(line, 0, line, len(old)), new)
        text = "\n".join(lines)
        if v % 10 == 0:
            await _hover(client, uri, 13, 37)
    _open(client, fresh, text)
    expected = await _diagnostics(client, fresh)
    assert await _pull(client, uri) == expected == await _pull(client, fresh)
    assert len(expected) == 1  # the last edit left `T.exp((` unbalanced
    for _ in range(3000):  # the debounced push of the last version arrives too
        if list(client.diagnostics.get(uri, ())) == expected:
            break
        await asyncio.sleep(0.01)
    assert list(client.diagnostics[uri]) == expected


async def test_pipeline_explorer_page_of_the_unit(client: LanguageClient) -> None:
    """``tirkit/pipelineExplorer`` (the VS Code webview's content): the page of the unit under the
    cursor, with the unsaved document text as its source and the map in file lines."""
    import json
    import re

    uri = "file:///tmp/explore.py"
    _open(client, uri, KERNELS)
    reply = _plain(await client.protocol.send_request_async("tirkit/pipelineExplorer", {
        "textDocument": {"uri": uri}, "position": {"line": 9, "character": 8}}))
    assert reply["unit"] == "matmul" and "tirc pipeline explorer" in reply["html"]
    raw = re.search(r'<script id="data" type="application/json">(.*?)</script>', reply["html"],
                    re.S).group(1)
    data = json.loads(raw.replace("<\\/", "</"))
    assert data["source"] == KERNELS and data["code"]["available"]
    lines = KERNELS.split("\n")
    first = data["stages"][2]  # (after CanonicalizeLoop, which changes nothing here)
    assert first["name"] == "LowerInitBlock" and first["diff"]
    for src0, _, stage0, _ in first["map"]:
        assert lines[src0].strip() and first["text"].split("\n")[stage0].strip()
    assert any(lines[e[0]].lstrip().startswith("for ") for e in first["map"])
    missing = _plain(await client.protocol.send_request_async("tirkit/pipelineExplorer", {
        "textDocument": {"uri": uri}, "function": "nope"}))
    assert "error" in missing
