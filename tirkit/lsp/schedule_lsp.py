"""The LSP face of :mod:`tirkit.lsp.schedule_actions`: schedule primitives as code actions of
kind ``refactor.rewrite.schedule`` and the ``tirkit.applySchedule`` command that applies one
through ``workspace/applyEdit``.

An action that needs an argument (split's factors) carries the client command
``tirkit.schedule``: the VS Code extension asks for the argument and then runs
``tirkit.applySchedule`` on the server; every other action runs ``tirkit.applySchedule``
directly, so it works in any LSP client. The edit replaces only the changed part of the
document and appends the step to the schedule script beside it (``<stem>.schedule.py``,
created when missing).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types

from .positions import PositionMap
from .schedule_actions import offered

APPLY = "tirkit.applySchedule"
ASK = "tirkit.schedule"
KIND = "refactor.rewrite.schedule"


def _shift(action: dict[str, Any], delta: int) -> dict[str, Any]:
    """An action of a unit-coordinate IR moved to file lines."""
    action["line"] += delta
    if "loop_line" in action["args"]:
        action["args"]["loop_line"] += delta
    return action


def schedule_code_actions(placed: Any, uri: str, version: int | None,
                          line: int) -> list[types.CodeAction]:
    """The schedule actions for 1-based file ``line`` inside ``placed`` (a PlacedUnit)."""
    from tirkit import tir  # pylint: disable=import-outside-toplevel

    ir = placed.analysis.ir
    if not isinstance(ir, tir.PrimFunc):
        return []
    out = []
    for action in offered(ir, placed.unit.name, line - placed.line_delta):
        payload = {**_shift(action, placed.line_delta), "uri": uri, "version": version}
        command = ASK if action["ask"] else APPLY
        out.append(types.CodeAction(title=action["title"], kind=KIND,
                                    command=types.Command(title=action["title"], command=command,
                                                          arguments=[payload])))
    return out


def uri_path(uri: str) -> Path:
    """The file system path of a ``file:`` URI."""
    return Path(unquote(urlparse(uri).path))


def side_uri(uri: str) -> str:
    """The URI of the schedule script beside the document: ``dir/stem.schedule.py``."""
    path = uri_path(uri)
    return path.with_name(path.stem + ".schedule.py").as_uri()


def _minimal_edit(old: str, new: str, pmap: PositionMap) -> types.TextEdit:
    """One TextEdit replacing only the part of ``old`` that differs from ``new``."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return types.TextEdit(range=pmap.offset_range(start, end_old), new_text=new[start:end_new])


def workspace_edit(uri: str, version: int | None, old: str, new: str, encoding: str,
                   side: tuple[str, str | None, str]) -> types.WorkspaceEdit:
    """The document edit plus the schedule script's creation (if missing) and append.
    ``side`` is ``(uri, current text or None, text to append)``."""
    side_uri_, side_text, append = side
    doc = types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=[_minimal_edit(old, new, PositionMap(old, encoding))])
    changes: list[Any] = [doc]
    if side_text is None:
        changes.append(types.CreateFile(uri=side_uri_, options=types.CreateFileOptions(
            ignore_if_exists=True)))
    at = PositionMap(side_text or "", encoding).offset_position(len(side_text or ""))
    changes.append(types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=side_uri_, version=None),
        edits=[types.TextEdit(range=types.Range(start=at, end=at), new_text=append)]))
    return types.WorkspaceEdit(document_changes=changes)
