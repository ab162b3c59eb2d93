"""The ``T``/``I`` namespaces as the editor sees them: names, signatures and docs for hover,
completion and signature help (TVM: ``tvm.script.tir`` / ``tvm.script.ir``).

Everything is read from :mod:`tirkit.lang.tir` / :mod:`tirkit.lang.ir` by introspection (their
public names are statically defined and documented); nothing of the user's file runs.
"""
from __future__ import annotations

import inspect
import re
import types as pytypes
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lsprotocol import types

__all__ = ["NameInfo", "namespace", "members", "lookup", "dotted_at", "call_at",
           "completion_items", "signature_help"]

_SKIP = {"annotations", "Any", "Callable", "DTYPE_FUNCS", "tir", "DataType"}


def namespace(kind: str) -> Any:
    """The namespace object of a canonical alias kind: ``"tir"``, ``"tirx"`` or ``"ir"``."""
    if kind == "ir":
        from tirkit.lang import ir  # pylint: disable=import-outside-toplevel

        return ir
    if kind == "tirx":
        from tirkit.lang.tirx import TirxNamespace  # pylint: disable=import-outside-toplevel

        return TirxNamespace()
    from tirkit.lang import tir  # pylint: disable=import-outside-toplevel

    return tir


@dataclass(frozen=True)
class NameInfo:
    """One namespace member: its dotted name (``"T.axis.remap"``), signature text, docstring
    and LSP completion kind."""

    name: str
    signature: str
    doc: str
    kind: types.CompletionItemKind
    overloads: tuple[str, ...] = ()  # every overload's signature text (from the stubs)

    def markdown(self) -> str:
        """Hover text: the signature in a Python fence, then the doc."""
        return f"```python\n{self.signature}\n```\n\n{self.doc}".rstrip()


def _signature(obj: Any) -> str:
    if not callable(obj):
        return ""
    target = obj
    if not inspect.isroutine(obj) and not isinstance(obj, type):
        target = obj.__call__
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return "(...)"
    return _format_signature(sig)


def _format_signature(sig: inspect.Signature) -> str:
    """``sig`` as source text: string annotations unquoted, defaults as ``repr``."""
    parts, kw_marker = [], False
    for p in sig.parameters.values():
        if p.kind == p.KEYWORD_ONLY and not kw_marker:
            parts.append("*")
            kw_marker = True
        stars: dict[Any, str] = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}
        text = stars.get(p.kind, "") + p.name
        kw_marker |= p.kind == p.VAR_POSITIONAL
        if p.annotation is not p.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not p.empty:
            text += f" = {p.default!r}"
        parts.append(text)
    out = "(" + ", ".join(parts) + ")"
    if sig.return_annotation is not sig.empty:
        out += f" -> {_annotation(sig.return_annotation)}"
    return out


def _annotation(ann: Any) -> str:
    text = ann if isinstance(ann, str) else getattr(ann, "__name__", repr(ann))
    return re.sub(r"\b(?:_tir|F|E|S)\.", "", text)


def _kind(obj: Any) -> types.CompletionItemKind:
    if isinstance(obj, type):
        return types.CompletionItemKind.Class
    if isinstance(obj, pytypes.ModuleType):
        return types.CompletionItemKind.Module
    if callable(obj):
        return types.CompletionItemKind.Function
    return types.CompletionItemKind.Constant


@lru_cache(maxsize=None)
def _stubs(kind: str) -> dict[str, Any]:
    """The generated stubs' signatures (``tirkit.stubgen.signatures``): the same ones mypy and
    pylint see, so completion, signature help and type checking agree (issue 7)."""
    from tirkit.stubgen import signatures  # pylint: disable=import-outside-toplevel

    try:
        return signatures(kind)
    except Exception:  # pylint: disable=broad-except  # fall back to runtime introspection
        return {}


def _info(dotted: str, obj: Any, kind: str = "tir", key: str = "") -> NameInfo:
    doc = inspect.getdoc(obj) or ""
    if not doc and not callable(obj):
        doc = f"`{type(obj).__name__}` value `{obj!r}`"
    stub = _stubs(kind).get(key) if key else None
    if stub is not None and stub.overloads:
        short = key.rsplit(".", 1)[-1]
        labels = tuple(dotted + label[len(short):] for label in stub.labels()
                       if label.startswith(short))
        if labels:
            return NameInfo(dotted, labels[0], stub.doc or doc, _kind(obj), labels)
    return NameInfo(dotted, dotted + _signature(obj), doc, _kind(obj))


@lru_cache(maxsize=None)
def _members(kind: str, path: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    obj = namespace(kind)
    for part in path:
        obj = getattr(obj, part)
    names = [n for n in dir(obj) if not n.startswith("_") and n not in _SKIP]
    out = []
    for n in names:
        try:
            out.append((n, getattr(obj, n)))
        except AttributeError:
            continue
    return tuple(out)


def members(kind: str, alias: str, path: tuple[str, ...] = ()) -> list[NameInfo]:
    """Every public member of the namespace (or of ``T.axis``-like sub-namespaces at
    ``path``), named with ``alias``; empty if ``path`` does not exist."""
    try:
        items = _members(kind, path)
    except AttributeError:
        return []
    prefix = ".".join((alias,) + path)
    return [_info(f"{prefix}.{n}", v, kind, ".".join(path + (n,))) for n, v in items]


def lookup(kind: str, alias: str, path: tuple[str, ...]) -> NameInfo | None:
    """The member at ``path`` (``("axis", "remap")``), or ``None``."""
    obj = namespace(kind)
    try:
        for part in path:
            if part.startswith("_"):
                return None
            obj = getattr(obj, part)
    except AttributeError:
        return None
    return _info(".".join((alias,) + path), obj, kind, ".".join(path))


_IDENT = re.compile(r"[A-Za-z_0-9.]")


def dotted_at(line: str, column: int) -> tuple[list[str], int] | None:
    """The dotted name under ``column`` of ``line`` cut after the part the cursor is on:
    ``(["T", "axis", "remap"], index_of_cursor_part)``; ``None`` off any identifier. A column
    outside the line is taken as its nearest end."""
    column = min(max(column, 0), len(line))
    start = column
    while start > 0 and _IDENT.match(line[start - 1]):
        start -= 1
    end = column
    while end < len(line) and _IDENT.match(line[end]):
        end += 1
    text = line[start:end]
    if not text or text[0].isdigit() or text.startswith("."):
        return None
    parts = text.split(".")
    upto = line[start:column].count(".")
    return parts[:upto + 1], upto


def call_at(text: str, offset: int, limit: int = 4000) -> tuple[str, int] | None:
    """The dotted callee of the innermost open call around ``offset`` and the index of the
    argument the cursor is in: ``("T.match_buffer", 1)``; ``None`` outside any call. Open
    brackets that are not calls (a tuple, a subscript) are stepped over."""
    depth, commas, i = 0, 0, offset - 1
    stop = max(offset - limit, 0)
    while i >= stop:
        ch = text[i]
        if ch in ")]}":
            depth += 1
        elif ch in "([{" and depth > 0:
            depth -= 1
        elif ch in "([{":
            j = i
            while j > 0 and _IDENT.match(text[j - 1]):
                j -= 1
            name = text[j:i]
            if ch == "(" and name and not name[0].isdigit():
                return name, commas
            commas = 0
        elif ch == "," and depth == 0:
            commas += 1
        i -= 1
    return None


def completion_items(kind: str, alias: str, path: tuple[str, ...]) -> list[types.CompletionItem]:
    """Completion items for ``alias.<path>.`` (e.g. every ``T.`` name, or ``T.axis.`` names)."""
    out = []
    for info in members(kind, alias, path):
        label = info.name.rsplit(".", 1)[1]
        out.append(types.CompletionItem(
            label=label, kind=info.kind, detail=info.signature,
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=info.doc)
            if info.doc else None))
    return out


def _parameters(signature: str) -> list[str]:
    inside = signature[signature.find("(") + 1:]
    inside = inside[:inside.rfind(")")] if ")" in inside else inside
    params, depth, cur = [], 0, ""
    for ch in inside:
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        cur += ch
    if cur.strip():
        params.append(cur.strip())
    return params


def signature_help(info: NameInfo, active: int) -> types.SignatureHelp:
    """LSP signature help for ``info`` with argument ``active`` highlighted."""
    sigs = []
    for label in info.overloads or (info.signature,):
        params = _parameters(label)
        sigs.append(types.SignatureInformation(
            label=label,
            documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=info.doc),
            parameters=[types.ParameterInformation(label=p) for p in params],
            active_parameter=min(active, max(len(params) - 1, 0))))
    # the first overload with enough parameters for the cursor's argument
    best = next((k for k, s in enumerate(sigs) if len(s.parameters or []) > active), 0)
    return types.SignatureHelp(signatures=sigs, active_signature=best,
                               active_parameter=sigs[best].active_parameter)
