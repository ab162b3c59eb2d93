"""Schedules as editor actions, end to end (issue 13): a real ``python -m tirkit.lsp`` over
stdio, code actions requested on loop lines, applied with ``workspace/executeCommand`` and
``workspace/applyEdit`` as VS Code does them (the client here applies the edits to its copy of
the document and to the files, then sends ``didChange``).

split -> reorder -> parallel -> vectorize turn the naive matmul into a kernel that compiles and
matches NumPy; every comment and every byte outside the kernel is kept; an illegal step shows
the ScheduleError and edits nothing; the schedule script written beside the file replays the
steps on the original kernel.
"""
from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import Union

import numpy as np
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAIVE = '''"""A naive matmul to schedule from the editor."""
from tvm.script import tir as T

N = 128  # not part of the kernel


@T.prim_func
def mm(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"),
       C: T.Buffer((128, 128), "float32")):
    T.func_attr({"global_symbol": "mm", "tir.noalias": True})
    # the whole product, one loop per axis
    for i, j, k in T.grid(128, 128, 128):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)  # zero first
            # multiply-add
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def helper():  # untouched
    return 1
'''
COMMENTS = ["# not part of the kernel", "# the whole product, one loop per axis",
            "# zero first", "# multiply-add", "# untouched"]
DOCS: dict[str, list] = {}  # uri -> [text, version]


def _apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def off(pos: types.Position) -> int:  # ASCII test files: UTF-16 units == characters
        return offsets[pos.line] + pos.character

    for e in sorted(edits, key=lambda e: off(e.range.start), reverse=True):
        text = text[:off(e.range.start)] + e.new_text + text[off(e.range.end):]
    return text


def _path(uri: str) -> Path:
    return Path(uri.removeprefix("file://"))


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "tirkit.lsp"]))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        for change in params.edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                if not _path(change.uri).exists():
                    _path(change.uri).write_text("")
                continue
            uri = change.text_document.uri
            if uri in DOCS:  # an open document: the editor's buffer, then didChange
                text, version = DOCS[uri]
                DOCS[uri] = [_apply_text_edits(text, change.edits), version + 1]
                lsp_client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri,
                                                                        version=version + 1),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(
                        text=DOCS[uri][0])]))
            else:
                path = _path(uri)
                path.write_text(_apply_text_edits(path.read_text(), change.edits))
        return types.ApplyWorkspaceEditResult(applied=True)

    # lsprotocol decodes every code action that has a command as a bare Command (its hook only
    # asks whether a "command" key exists); a Command's "command" is a string, a CodeAction's
    # an object: decode by that, as VS Code does
    conv = lsp_client.protocol._converter  # pylint: disable=protected-access
    conv.register_structure_hook(
        Union[types.Command, types.CodeAction],
        lambda obj, _: conv.structure(obj, types.Command if isinstance(obj.get("command"), str)
                                      else types.CodeAction))
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual_studio_code")))
    yield
    await lsp_client.shutdown_session()


def _line_of(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.split("\n")) if needle in t)


async def _actions(client: LanguageClient, uri: str, line: int) -> list[types.CodeAction]:
    rng = types.Range(start=types.Position(line=line, character=4),
                      end=types.Position(line=line, character=4))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=[])))
    return [a for a in got or [] if isinstance(a, types.CodeAction)
            and a.kind == "refactor.rewrite.schedule"]


async def _run(client: LanguageClient, uri: str, needle: str, title: str,
               **args: object) -> dict:
    """Pick the action called ``title`` on the line holding ``needle`` and execute it (filling
    in what the editor would ask for)."""
    before = DOCS[uri][1]
    actions = await _actions(client, uri, _line_of(DOCS[uri][0], needle))
    action = next((a for a in actions if a.title == title), None)
    assert action is not None, [a.title for a in actions]
    payload = dict(action.command.arguments[0])
    payload["args"] = {**payload["args"], **args}
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tirkit.applySchedule", arguments=[payload]))
    result = dict(result._asdict()) if hasattr(result, "_asdict") else dict(result)
    if "error" not in result:
        for _ in range(500):  # the edit arrives before the reply; a hang guard
            if DOCS[uri][1] > before:
                break
            await asyncio.sleep(0.01)
    return result


async def test_split_reorder_parallel_vectorize(client: LanguageClient, tmp_path_factory):
    from tirkit.compiler import build
    from tirkit.ir import structural_equal
    from tirkit.lang import from_source
    from tirkit.schedule import Schedule

    path = tmp_path_factory.mktemp("sched") / "naive.py"
    path.write_text(NAIVE)
    uri = path.as_uri()
    DOCS[uri] = [NAIVE, 1]
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=NAIVE)))
    split = [a for a in await _actions(client, uri, _line_of(NAIVE, "T.grid"))
             if a.title == "Schedule: split loop j\u2026"]
    assert split and split[0].command.command == "tirkit.schedule"  # the editor asks
    assert split[0].command.arguments[0]["ask"] == "factors"

    assert "error" not in await _run(client, uri, "T.grid", "Schedule: split loop j\u2026",
                                     factors=[None, 16])
    assert "for i, j_0, j_1, k in T.grid(128, 8, 16, 128):" in DOCS[uri][0]
    assert "error" not in await _run(client, uri, "T.grid",
                                     "Schedule: reorder (move j_1 inside k)")
    assert "error" not in await _run(client, uri, "T.grid", "Schedule: parallel loop i")
    assert "error" not in await _run(client, uri, "j_1 in", "Schedule: vectorize loop j_1")
    final = DOCS[uri][0]
    assert "for i in T.parallel(128):" in final and "for j_1 in T.vectorized(16):" in final

    # an illegal step: the message names the loop and the condition; nothing is edited
    bad = await _run(client, uri, "for j_0, k in", "Schedule: vectorize loop k")
    assert "ScheduleError" in bad["error"] and '"k"' in bad["error"], bad
    assert DOCS[uri][0] == final
    for _ in range(300):
        if any("ScheduleError" in m.message for m in client.messages):
            break
        await asyncio.sleep(0.01)
    assert any(m.type == types.MessageType.Error and "ScheduleError" in m.message
               for m in client.messages)

    # comments kept; everything outside the kernel byte-identical
    for comment in COMMENTS:
        assert comment in final, comment
    head, tail = NAIVE.split("@T.prim_func")[0], NAIVE[NAIVE.index("\n\ndef helper"):]
    assert final.startswith(head) and final.endswith(tail)

    # compiles and matches NumPy
    rng = np.random.default_rng(0)
    a, b = (rng.uniform(-1, 1, (128, 128)).astype("float32") for _ in range(2))
    c = np.full((128, 128), np.nan, "float32")
    build(from_source(final))(a, b, c)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)

    # the schedule script beside the file replays the four steps on the original kernel
    side = path.with_name("naive.schedule.py")
    script = side.read_text()
    assert script.count("# ") >= 4 and "def schedule(sch):" in script
    spec = importlib.util.spec_from_file_location("naive_schedule", side)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from tirkit.ir import IRModule
    sch = Schedule(IRModule({"mm": from_source(NAIVE)}))
    module.schedule(sch)
    assert structural_equal(sch.mod["mm"], from_source(final), map_free_vars=True)
